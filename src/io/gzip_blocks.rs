//! Plain gzip inflated by zlib-rs one deflate block a call (zlib's `Z_BLOCK`), so that a
//! read ending at a block boundary can say where the stream is: the boundary's bit in the
//! compressed stream, the 32 KiB of output before it and the member's CRC-32 so far
//! ([`Checkpoint`]). From there a stream held whole is inflated on in parallel
//! (`gzip_resume`) instead of all over again from its start. It only finds boundaries,
//! on a thread of its own beside ISA-L (`gzip_stream`): on the 16-core GPU hosts zlib-rs
//! inflates ~1.25x slower than ISA-L, and ~1.56x with `Z_BLOCK` (BENCHMARKS.md, session
//! 23). Members follow one another as `gzip -d` reads them; each one's CRC-32 and length
//! are checked.

use std::io::{self, Read};

use libz_rs_sys as z;

use super::gzip_input::GzipInput;

/// The most output a deflate block refers back to.
pub const WINDOW: usize = 32 << 10;

/// Where a stream stands at a deflate block boundary inside a member: what resuming the
/// inflation from there needs.
pub struct Checkpoint {
    /// The member (from 1) the boundary is in.
    pub member: u64,
    /// The boundary's bit in the compressed stream (bit 0 is the lowest of byte 0).
    pub bit: u64,
    /// The member's last output before the boundary, up to [`WINDOW`] bytes.
    pub window: Vec<u8>,
    /// The member's output before the boundary: its CRC-32 and length.
    pub crc: crc32fast::Hasher,
}

/// A gzip stream of one or more members, inflated a deflate block at a time.
pub struct BlockGzipDecoder<R> {
    input: GzipInput<R>,
    /// zlib's stream; boxed, as zlib-rs's state points back to it.
    stream: Box<z::z_stream>,
    /// The member's output so far: its CRC-32 and length.
    crc: crc32fast::Hasher,
    /// The last call ended at a boundary between two blocks of a member.
    at_boundary: bool,
}

// SAFETY: the z_stream and the state it owns are used by one thread at a time (through
// `&mut self`); its pointers point into this decoder's buffers only during a call.
unsafe impl<R: Send> Send for BlockGzipDecoder<R> {}

impl<R: Read> BlockGzipDecoder<R> {
    /// Inflates `source`, which starts with a gzip header.
    pub fn new(source: R) -> BlockGzipDecoder<R> {
        // SAFETY: an all-zero z_stream is what inflateInit2_ expects (no allocator given:
        // zlib-rs's own); the stream is boxed before the state points back to it.
        let mut stream: Box<z::z_stream> = Box::new(unsafe { std::mem::zeroed() });
        let size = std::mem::size_of::<z::z_stream>() as i32;
        // 16 + 15: a gzip wrapper and a 32 KiB window.
        let code = unsafe { z::inflateInit2_(&mut *stream, 16 + 15, z::zlibVersion(), size) };
        assert_eq!(code, z::Z_OK, "zlib-rs initialises its inflater");
        BlockGzipDecoder {
            input: GzipInput::new(source),
            stream,
            crc: crc32fast::Hasher::new(),
            at_boundary: false,
        }
    }

    /// Where the stream stands, if the last read ended at a boundary between two deflate
    /// blocks of a member (or just before a member's first block).
    pub fn checkpoint(&self) -> Option<Checkpoint> {
        if !self.at_boundary {
            return None;
        }
        let mut window = vec![0; WINDOW];
        let mut len = 0;
        // SAFETY: the stream is initialised; `window` holds the 32 KiB it may copy.
        let code = unsafe { z::inflateGetDictionary(&*self.stream, window.as_mut_ptr(), &mut len) };
        if code != z::Z_OK {
            return None;
        }
        window.truncate(len as usize);
        let unused_bits = (self.stream.data_type & 7) as u64;
        Some(Checkpoint {
            member: self.input.members,
            bit: self.input.offset() * 8 - unused_bits,
            window,
            crc: self.crc.clone(),
        })
    }

    /// Starts the next member; false at the end of the stream.
    fn next_member(&mut self) -> io::Result<bool> {
        if !self.input.next_member()? {
            return Ok(false);
        }
        // SAFETY: the stream is initialised.
        unsafe { z::inflateReset(&mut *self.stream) };
        self.crc = crc32fast::Hasher::new();
        Ok(true)
    }

    /// One call of the inflater, up to the next block boundary: from the unused input
    /// into `out`; returns the bytes written and whether it used any input.
    fn step(&mut self, out: &mut [u8]) -> io::Result<(usize, bool)> {
        let input = &mut self.input;
        let avail_in = (input.end - input.start) as u32;
        let avail_out = u32::try_from(out.len()).unwrap_or(u32::MAX);
        let stream = &mut *self.stream;
        stream.next_in = input.bytes[input.start..].as_mut_ptr();
        stream.avail_in = avail_in;
        stream.next_out = out.as_mut_ptr();
        stream.avail_out = avail_out;
        // SAFETY: next_in/avail_in and next_out/avail_out describe live buffers that
        // nothing else touches during the call.
        let code = unsafe { z::inflate(stream, z::Z_BLOCK) };
        let used = (avail_in - stream.avail_in) as usize;
        let written = (avail_out - stream.avail_out) as usize;
        let data_type = stream.data_type;
        input.set_start(input.start + used);
        self.crc.update(&out[..written]);
        self.at_boundary = false;
        match code {
            z::Z_STREAM_END => self.input.in_member = false,
            z::Z_OK | z::Z_BUF_ERROR => {
                // Just after a block's end code (or the member's header), and not in
                // the last block.
                self.at_boundary = data_type & 128 != 0 && data_type & 64 == 0;
            }
            _ => return Err(self.corrupt()),
        }
        Ok((written, used > 0))
    }

    /// The error for data zlib refused.
    fn corrupt(&self) -> io::Error {
        let why = if self.stream.msg.is_null() {
            "invalid data".to_string()
        } else {
            // SAFETY: zlib's messages are static NUL-terminated strings.
            unsafe { std::ffi::CStr::from_ptr(self.stream.msg) }
                .to_string_lossy()
                .into_owned()
        };
        self.input.corrupt(&why)
    }
}

impl<R: Read> Read for BlockGzipDecoder<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            if !self.input.in_member && !self.next_member()? {
                return Ok(0);
            }
            if self.input.is_used_up() {
                if self.input.eof {
                    return Err(self.input.truncated());
                }
                self.input.refill()?;
                continue;
            }
            let (written, used) = self.step(out)?;
            if written > 0 {
                return Ok(written);
            }
            if self.input.in_member && !used && !self.at_boundary {
                // zlib wants more input than there is.
                if self.input.eof {
                    return Err(self.input.truncated());
                }
                self.input.refill()?;
            }
        }
    }
}

impl<R> Drop for BlockGzipDecoder<R> {
    fn drop(&mut self) {
        // SAFETY: the stream was initialised by inflateInit2_ and is ended once.
        unsafe { z::inflateEnd(&mut *self.stream) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::gzip_cases::{self, gzip, text, Trickle};

    fn inflate(bytes: &[u8], chunk: usize) -> io::Result<Vec<u8>> {
        let mut all = Vec::new();
        BlockGzipDecoder::new(Trickle(bytes, chunk)).read_to_end(&mut all)?;
        Ok(all)
    }

    #[test]
    fn members_inflate_in_order_whatever_the_read_sizes() {
        gzip_cases::members_inflate_in_order(&inflate);
    }

    #[test]
    fn cut_or_corrupt_streams_say_what_and_where() {
        gzip_cases::cut_or_corrupt_streams_say_what_and_where(&inflate, "incorrect data check");
    }

    #[test]
    fn checkpoints_name_the_block_boundary_its_window_and_the_crc_so_far() {
        let data = text(200_000);
        let gz = gzip(&data);
        let mut decoder = BlockGzipDecoder::new(Trickle(&gz, 5000));
        let (mut given, mut checkpoints) = (Vec::new(), 0);
        let mut buffer = vec![0; 100_000];
        loop {
            let n = decoder.read(&mut buffer).unwrap();
            given.extend_from_slice(&buffer[..n]);
            if let Some(checkpoint) = decoder.checkpoint() {
                checkpoints += 1;
                let window_start = given.len().saturating_sub(WINDOW);
                assert!(checkpoint.window == given[window_start..]);
                assert_eq!(checkpoint.crc.clone().finalize(), crc32fast::hash(&given));
                assert_eq!(checkpoint.member, 1);
                // Deflate from the boundary on, with the window, gives the rest.
                let rest = inflate_raw_from(&gz, checkpoint.bit, &checkpoint.window);
                assert!(rest == data[given.len()..], "at {}", given.len());
            }
            if n == 0 {
                break;
            }
        }
        assert!(given == data);
        assert!(checkpoints > 2, "{checkpoints} checkpoints");
    }

    /// Raw deflate of `gz` from `bit` on, with `window` as the history: zlib's
    /// `inflatePrime` takes the partial first byte's bits.
    fn inflate_raw_from(gz: &[u8], bit: u64, window: &[u8]) -> Vec<u8> {
        let mut stream: Box<z::z_stream> = Box::new(unsafe { std::mem::zeroed() });
        let size = std::mem::size_of::<z::z_stream>() as i32;
        let mut out = vec![0; 20 << 20];
        unsafe {
            assert_eq!(
                z::inflateInit2_(&mut *stream, -15, z::zlibVersion(), size),
                0
            );
            let (byte, bits) = ((bit / 8) as usize, (bit % 8) as i32);
            let mut from = byte;
            if bits > 0 {
                assert_eq!(
                    z::inflatePrime(&mut *stream, 8 - bits, (gz[byte] >> bits) as i32),
                    0
                );
                from += 1;
            }
            let len = window.len() as u32;
            assert_eq!(
                z::inflateSetDictionary(&mut *stream, window.as_ptr(), len),
                0
            );
            stream.next_in = gz[from..].as_ptr() as *mut u8;
            stream.avail_in = (gz.len() - from) as u32;
            stream.next_out = out.as_mut_ptr();
            stream.avail_out = out.len() as u32;
            assert_eq!(z::inflate(&mut *stream, z::Z_FINISH), z::Z_STREAM_END);
            out.truncate(out.len() - stream.avail_out as usize);
            z::inflateEnd(&mut *stream);
        }
        out
    }
}
