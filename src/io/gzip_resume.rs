//! A gzip stream held whole, inflated in parallel from a deflate block boundary on
//! ([`Checkpoint`]) rather than from its start: the part before it was inflated already,
//! as the stream arrived. rapidgzip takes raw deflate that starts at a byte, with no
//! history before it, so it is given a made-up stream: one fixed-Huffman block whose
//! literals are a few filler bytes and then the 32 KiB window (the history the rest
//! refers back to), as many bits long as puts the boundary's bit where it is in its byte;
//! then the stream's own bytes from the boundary to the member's end, its last 8 bytes
//! (the gzip trailer) left out. The filler and window are passed over; the member's
//! CRC-32 and length are checked against the trailer here.
//!
//! Raw deflate must end where its source does: the source ends where the stream's last
//! member's deflate data would. Where the member at the checkpoint is not the last,
//! rapidgzip stops after its output with an error that says where its data ended; its
//! trailer is checked there, and the members after it are inflated in parallel as a
//! gzip stream of their own.

use std::io::{self, Read};
use std::sync::Arc;

use rapidgzip_core::ReadAt;

use super::gzip;
use super::gzip_blocks::Checkpoint;
use super::held::HeldBytes;

/// The bytes of the gzip trailer: CRC-32 and length of the member's output.
const TRAILER: u64 = 8;

/// The rest of the stream `held` from `checkpoint` on, inflated on up to `threads`
/// threads, the output before the checkpoint excluded; `None` where the stream is too
/// short to hold the member's rest and trailer.
pub fn resume(
    held: Arc<HeldBytes>,
    checkpoint: Checkpoint,
    threads: usize,
) -> io::Result<Option<Resumed>> {
    let len = held.len()?;
    let byte = checkpoint.bit / 8;
    if len < byte + TRAILER + 1 {
        return Ok(None);
    }
    let (head, passed_over) = made_up_start(&checkpoint, first_byte(&held, byte)?);
    let source = Spliced {
        head,
        held: Arc::clone(&held),
        from: byte + u64::from(!checkpoint.bit.is_multiple_of(8)),
        end: len - TRAILER,
    };
    let (head_len, from) = (source.head.len() as u64, source.from);
    let mut inner = gzip::parallel_raw(source, threads)?;
    io::copy(&mut (&mut inner).take(passed_over), &mut io::sink())?;
    Ok(Some(Resumed {
        inner: Box::new(inner),
        member: Some((checkpoint.member, checkpoint.crc)),
        held,
        head_len,
        from,
        threads,
    }))
}

/// The byte of `held` at `at`.
fn first_byte(held: &HeldBytes, at: u64) -> io::Result<u8> {
    let mut byte = [0];
    read_exact_at(held, at, &mut byte)?;
    Ok(byte[0])
}

/// Fills `out` from `source` at `offset`.
fn read_exact_at(source: &impl ReadAt, offset: u64, out: &mut [u8]) -> io::Result<()> {
    let mut at = 0;
    while at < out.len() {
        match source.read_at(offset + at as u64, &mut out[at..])? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => at += n,
        }
    }
    Ok(())
}

/// The made-up start of the raw deflate stream, its last byte shared with the stream's
/// byte `first` at the boundary; and the output of the made-up block (filler and window).
fn made_up_start(checkpoint: &Checkpoint, first: u8) -> (Vec<u8>, u64) {
    let window = &checkpoint.window;
    let shift = (checkpoint.bit % 8) as u32;
    // A fixed-Huffman block: 3 header bits, literals of 8 bits (bytes below 144) or 9,
    // 7 for the end code. Each filler literal 0xFF (9 bits) moves the end by one bit.
    let window_bits: u64 = window.iter().map(|&b| literal_bits(b).1 as u64).sum();
    let unfilled = (3 + window_bits + 7) % 8;
    let fillers = (u64::from(shift) + 8 - unfilled) % 8;
    let mut bits = BitWriter::default();
    bits.put(0b010, 3); // BFINAL 0, BTYPE 01 (fixed Huffman)
    for &byte in std::iter::repeat_n(&0xFF, fillers as usize).chain(window) {
        let (code, len) = literal_bits(byte);
        bits.put_code(code, len);
    }
    bits.put_code(0, 7); // end of block
    debug_assert_eq!(bits.used, shift);
    let mut head = bits.bytes;
    if shift > 0 {
        // The block's last bits, then the boundary byte's own from `shift` on.
        let last = head.last_mut().expect("the block has bits");
        let low = (1u8 << shift) - 1;
        *last = (*last & low) | (first & !low);
    }
    (head, fillers + window.len() as u64)
}

/// The fixed-Huffman code of a literal byte and its length (RFC 1951, 3.2.6).
fn literal_bits(byte: u8) -> (u32, u32) {
    match byte {
        0..=143 => (0x30 + byte as u32, 8),
        _ => (0x190 + (byte as u32 - 144), 9),
    }
}

/// Bits packed as deflate packs them: from each byte's lowest bit up.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    /// Bits used of the last byte (0: none, or all 8).
    used: u32,
}

impl BitWriter {
    /// Puts the lowest `count` bits of `value`, lowest first.
    fn put(&mut self, value: u32, count: u32) {
        for i in 0..count {
            if self.used == 0 {
                self.bytes.push(0);
            }
            let bit = ((value >> i) & 1) as u8;
            *self.bytes.last_mut().unwrap() |= bit << self.used;
            self.used = (self.used + 1) % 8;
        }
    }

    /// Puts a Huffman code of `count` bits, its highest bit first.
    fn put_code(&mut self, code: u32, count: u32) {
        self.put(code.reverse_bits() >> (32 - count), count);
    }
}

/// The made-up raw deflate stream: `head`, then `held[from..end]`.
struct Spliced {
    head: Vec<u8>,
    held: Arc<HeldBytes>,
    from: u64,
    end: u64,
}

impl ReadAt for Spliced {
    fn len(&self) -> io::Result<u64> {
        Ok(self.head.len() as u64 + self.end - self.from)
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> io::Result<usize> {
        let head = self.head.len() as u64;
        if offset < head {
            let at = offset as usize;
            let n = out.len().min(self.head.len() - at);
            out[..n].copy_from_slice(&self.head[at..at + n]);
            return Ok(n);
        }
        let at = self.from + (offset - head);
        let n = (out.len() as u64).min(self.end.saturating_sub(at)) as usize;
        self.held.read_at(at, &mut out[..n])
    }
}

/// The rest of a stream inflated from a checkpoint on: the rest of the member there
/// (its CRC-32 and length checked against its trailer), then, in parallel from their
/// start, the members after it.
pub struct Resumed {
    inner: Box<dyn Read + Send>,
    /// While the resumed member is read: its number, and its output's CRC-32 and length.
    member: Option<(u64, crc32fast::Hasher)>,
    held: Arc<HeldBytes>,
    /// Where the made-up stream's own bytes start: after `head_len` bytes of it, at
    /// `held`'s byte `from`.
    head_len: u64,
    from: u64,
    threads: usize,
}

impl Resumed {
    /// Checks the resumed member's trailer, at `held`'s byte `at`, against its output.
    fn check_trailer(&mut self, at: u64) -> io::Result<()> {
        let (member, crc) = self
            .member
            .take()
            .expect("the resumed member is being read");
        let mut trailer = [0; TRAILER as usize];
        read_exact_at(&*self.held, at, &mut trailer)?;
        let expected_crc = u32::from_le_bytes(trailer[..4].try_into().unwrap());
        let expected_len = u32::from_le_bytes(trailer[4..].try_into().unwrap());
        // gzip keeps the length modulo 2^32.
        let len = crc.total_len() as u32;
        if crc.finalize() != expected_crc || len != expected_len {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                TrailerMismatch { member },
            ));
        }
        Ok(())
    }

    /// Goes on with the members after the resumed one, whose deflate data ended before
    /// the made-up stream's byte `end`.
    fn next_members(&mut self, end: u64) -> io::Result<()> {
        let member_end = self.from + (end - self.head_len);
        self.check_trailer(member_end)?;
        let rest = Spliced {
            head: Vec::new(),
            held: Arc::clone(&self.held),
            from: member_end + TRAILER,
            end: self.held.len()?,
        };
        self.inner = Box::new(gzip::parallel(rest, self.threads)?);
        Ok(())
    }
}

impl Read for Resumed {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let Some((_, crc)) = &mut self.member else {
            return self.inner.read(out);
        };
        match self.inner.read(out) {
            Ok(n) => {
                crc.update(&out[..n]);
                if n == 0 && !out.is_empty() {
                    self.check_trailer(self.held.len()? - TRAILER)?;
                }
                Ok(n)
            }
            Err(e) => match deflate_end(&e) {
                // The member is not the stream's last: rapidgzip stops at its end.
                Some(end) => {
                    self.next_members(end)?;
                    self.read(out)
                }
                None => Err(e),
            },
        }
    }
}

/// Where raw deflate data ended, if `error` is rapidgzip's report of bytes after it.
fn deflate_end(error: &io::Error) -> Option<u64> {
    use rapidgzip_core::{DecodeError, DeflateErrorKind};
    match error.get_ref()?.downcast_ref::<DecodeError>()? {
        DecodeError::InvalidDeflate {
            bit_offset,
            reason: DeflateErrorKind::TrailingGarbage,
        } => Some(bit_offset.div_ceil(8)),
        _ => None,
    }
}

/// The error of a resumed member whose output does not match its trailer: the bytes
/// given cannot be taken back, so nothing goes on after it.
#[derive(Debug)]
pub struct TrailerMismatch {
    member: u64,
}

impl std::fmt::Display for TrailerMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let member = self.member;
        write!(
            f,
            "corrupt gzip data in member {member}: its CRC-32 or length does not match the data"
        )
    }
}

impl std::error::Error for TrailerMismatch {}

/// Whether `error` is a resumed member's [`TrailerMismatch`].
pub fn is_trailer_mismatch(error: &io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<TrailerMismatch>())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Raw deflate of `bytes` with zlib-rs.
    fn inflate_raw(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::DeflateDecoder::new(bytes)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn the_made_up_block_ends_at_every_bit_of_a_byte_with_filler_and_window() {
        // A stored final block after the made-up one: BFINAL 1, BTYPE 00, then bytes.
        let tail = b"tail";
        for shift in 0..8u64 {
            for window in [Vec::new(), b"ACGT\n+\n".to_vec(), (0..=255).collect()] {
                let checkpoint = Checkpoint {
                    member: 1,
                    bit: 80 + shift,
                    window: window.clone(),
                    crc: crc32fast::Hasher::new(),
                };
                // The stream's byte at the boundary: its low bits belong to the block
                // before, set to ones; from `shift` on, the stored block's header (1, 00)
                // and zero padding.
                let first = ((1u16 << shift) - 1) as u8 | (1 << shift);
                let (mut stream, passed_over) = made_up_start(&checkpoint, first);
                if shift == 0 {
                    stream.push(first);
                } else if shift > 5 {
                    stream.push(0); // BTYPE's last bit and the padding
                }
                let len = tail.len() as u16;
                stream.extend(len.to_le_bytes());
                stream.extend((!len).to_le_bytes());
                stream.extend(tail);
                let out = inflate_raw(&stream);
                let fillers = passed_over as usize - window.len();
                assert!(fillers < 8);
                assert!(out[..fillers].iter().all(|&b| b == 0xFF));
                assert!(out[fillers..fillers + window.len()] == window[..]);
                assert_eq!(&out[fillers + window.len()..], tail, "shift {shift}");
            }
        }
    }
}
