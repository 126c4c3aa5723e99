//! The compressed side of a gzip stream decoder: bytes read from the source in large
//! reads and handed to an inflater from `bytes[start..end]`, the members counted, and
//! the errors worded as every gzip decoder of the input layer words them (ISA-L's in
//! `gzip`, zlib-rs's a block at a time in `gzip_blocks`).

use std::io::{self, Read};

/// Compressed bytes read from the source at a time.
const INPUT: usize = 1 << 20;
/// Compressed bytes kept before the unused ones when more are read: at the end of a
/// member ISA-L hands back the whole bytes left in its 64-bit bit buffer by moving
/// `next_in` back, over bytes it may have taken in an earlier call.
const HISTORY: usize = 8;

/// A gzip stream's compressed bytes as an inflater takes them.
pub struct GzipInput<R> {
    source: R,
    /// Compressed bytes read, of which `bytes[start..end]` are not used yet.
    pub bytes: Vec<u8>,
    pub start: usize,
    pub end: usize,
    /// The source is at its end.
    pub eof: bool,
    /// Compressed bytes used so far (the offset of `bytes[start]`), and read.
    offset: u64,
    read: u64,
    /// Members started so far; whether the last one is not finished.
    pub members: u64,
    pub in_member: bool,
}

impl<R: Read> GzipInput<R> {
    /// The compressed bytes of `source`, none read yet.
    pub fn new(source: R) -> GzipInput<R> {
        GzipInput {
            source,
            bytes: vec![0; INPUT],
            start: 0,
            end: 0,
            eof: false,
            offset: 0,
            read: 0,
            members: 0,
            in_member: false,
        }
    }

    /// Compressed bytes used so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether every byte read is used.
    pub fn is_used_up(&self) -> bool {
        self.start == self.end
    }

    /// Marks the bytes before `bytes[start]` used (`start` may move back, over bytes an
    /// inflater gives back).
    pub fn set_start(&mut self, start: usize) {
        self.offset = (self.offset + start as u64) - self.start as u64;
        self.start = start;
    }

    /// Reads more compressed bytes after those not used yet (moved to the front, with
    /// up to [`HISTORY`] bytes before them).
    pub fn refill(&mut self) -> io::Result<()> {
        let from = self.start.saturating_sub(HISTORY);
        self.bytes.copy_within(from..self.end, 0);
        self.end -= from;
        self.start -= from;
        let n = loop {
            match self.source.read(&mut self.bytes[self.end..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                n => break n?,
            }
        };
        self.end += n;
        self.read += n as u64;
        self.eof = n == 0;
        Ok(())
    }

    /// Counts the next member as started; false at the end of the stream.
    pub fn next_member(&mut self) -> io::Result<bool> {
        if self.is_used_up() {
            self.refill()?;
            if self.eof {
                return Ok(false);
            }
        }
        self.members += 1;
        self.in_member = true;
        Ok(true)
    }

    /// The error for corrupt data, for the reason `why`.
    pub fn corrupt(&self, why: &str) -> io::Error {
        let (member, offset) = (self.members, self.offset);
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("corrupt gzip data in member {member} near compressed byte {offset}: {why}"),
        )
    }

    /// The error for a stream that ends inside a member.
    pub fn truncated(&self) -> io::Error {
        let (member, read) = (self.members, self.read);
        io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("truncated gzip stream: it ends inside member {member}, after {read} compressed bytes"),
        )
    }
}
