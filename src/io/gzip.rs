//! Plain (not BGZF) gzip. A stream (stdin, a pipe) read as it comes is inflated with
//! ISA-L's igzip, ~1.6x the pure-Rust zlib-rs on FASTQ (BENCHMARKS.md), on one thread:
//! one stream has to be inflated in order. A regular file, or a stream held whole in
//! memory (`gzip_stream`), given 4 threads or more is inflated in parallel by
//! rapidgzip-core (chunks decoded speculatively from guessed block starts, back
//! references into the unknown window kept as markers until the chunk before is done):
//! 0.62-0.65 s against ISA-L's 0.95-1.45 s for 730 MB of FASTQ on a 16-core host; it
//! takes several times ISA-L's CPU time, so a caller whose other stages keep the cores
//! busy (BAM output) gives it one thread. Members follow one another as `gzip -d` reads
//! them (concatenated files are one input); each member's CRC-32 and length are checked.
//! A stream cut short or bytes that are not gzip are errors that say so and where (ISA-L:
//! member number and compressed byte offset).
//!
//! End to end the one-thread path did not pay on the 2-core CI-class machine: `galign
//! map` of HG002 x40 `gzip -1`'d (81 MB) against chr20 to BAM took 6.160 s wall, 3.04
//! CPU-s, against 6.153 s, 3.00 CPU-s with flate2's `MultiGzDecoder` on zlib-rs in its
//! place (scripts/ab/gzip_via_flate2.patch; one paired run at load 8, to re-run on a
//! quiet machine before swapping; BENCHMARKS.md, "Hand-written components").

use std::io::{self, Read};
use std::mem::MaybeUninit;

use isal_sys::igzip_lib as isal;
use rapidgzip_core::ReadAt;

use super::gzip_input::GzipInput;

/// Threads from which a gzip file is inflated in parallel: with fewer, one ISA-L thread
/// is as fast (rapidgzip on 2 threads 1.19 s, ISA-L 0.95-1.45 s above).
const PARALLEL_FROM: usize = 4;
/// The most threads a gzip file is inflated on. On a 16-core host, HG002 x100 (730 MB),
/// four rounds: to BAM 16 threads 0.909-1.026 s against 8's 0.941-1.164 s (faster in 3
/// rounds of 4), to SAM 0.753-0.820 against 0.796-0.876 s (4 of 4); 4, 6 and 12 threads
/// were slower than 16 (BENCHMARKS.md, session 26). Inflating alone, 16 had been no
/// faster than 8 (0.63-0.65 s against 0.62-0.64 s).
const PARALLEL_MOST: usize = 16;

/// Whether a gzip file given `threads` is inflated in parallel ([`parallel`]).
pub fn in_parallel(threads: usize) -> bool {
    threads >= PARALLEL_FROM
}

/// The inflated bytes of the gzip `source` (a file, or a stream held in memory; read by
/// position from its start), inflated on up to `threads` threads (at most
/// [`PARALLEL_MOST`]).
pub fn parallel(source: impl ReadAt + 'static, threads: usize) -> io::Result<impl Read + Send> {
    parallel_as(rapidgzip_core::Format::Gzip, source, threads)
}

/// [`parallel`] for raw deflate (no gzip header or trailer): a gzip stream held whole
/// goes on with it from a block boundary (`gzip_resume`).
pub fn parallel_raw(source: impl ReadAt + 'static, threads: usize) -> io::Result<impl Read + Send> {
    parallel_as(rapidgzip_core::Format::RawDeflate, source, threads)
}

/// rapidgzip's parallel inflater on `source` in `format`.
fn parallel_as(
    format: rapidgzip_core::Format,
    source: impl ReadAt + 'static,
    threads: usize,
) -> io::Result<impl Read + Send> {
    let decoder = rapidgzip_core::Decoder::builder()
        .decoder_threads(threads.min(PARALLEL_MOST))
        .format(format)
        .build()
        .map_err(io::Error::other)?;
    decoder.reader(source).map_err(io::Error::other)
}

/// A gzip stream of one or more members, inflated as it is read.
pub struct GzipDecoder<R> {
    input: GzipInput<R>,
    state: Box<isal::inflate_state>,
}

// SAFETY: the inflater's state is plain data owned by the decoder; its pointers point
// into buffers only during a call of `step`, which sets them anew.
unsafe impl<R: Send> Send for GzipDecoder<R> {}

impl<R: Read> GzipDecoder<R> {
    /// Inflates `source`, which starts with a gzip header.
    pub fn new(source: R) -> GzipDecoder<R> {
        let mut state = Box::new(MaybeUninit::<isal::inflate_state>::uninit());
        // SAFETY: isal_inflate_init initialises every field the inflater reads; the
        // state is plain data (integers, pointers, arrays).
        let state = unsafe {
            isal::isal_inflate_init(state.as_mut_ptr());
            Box::from_raw(Box::into_raw(state).cast::<isal::inflate_state>())
        };
        GzipDecoder {
            input: GzipInput::new(source),
            state,
        }
    }

    /// Compressed bytes handed to the inflater so far.
    pub fn compressed_offset(&self) -> u64 {
        self.input.offset()
    }

    /// Starts the next member; false at the end of the stream.
    fn next_member(&mut self) -> io::Result<bool> {
        if !self.input.next_member()? {
            return Ok(false);
        }
        // SAFETY: the state was initialised by isal_inflate_init.
        unsafe { isal::isal_inflate_reset(&mut *self.state) };
        self.state.crc_flag = isal::ISAL_GZIP;
        Ok(true)
    }

    /// One call of the inflater: from the unused input into `out`; returns the bytes
    /// written and whether it used any input. At the end of a member ISA-L may give
    /// back bytes it had taken (`next_in` moves back, at most the input's history).
    fn step(&mut self, out: &mut [u8]) -> io::Result<(usize, bool)> {
        let input = &mut self.input;
        let avail_in = input.end - input.start;
        let base = input.bytes.as_ptr() as usize;
        let state = &mut *self.state;
        state.next_in = input.bytes[input.start..].as_mut_ptr();
        state.avail_in = avail_in as u32;
        state.next_out = out.as_mut_ptr();
        state.avail_out = u32::try_from(out.len()).unwrap_or(u32::MAX);
        let avail_out = state.avail_out;
        // SAFETY: next_in/avail_in and next_out/avail_out describe live buffers that
        // nothing else touches during the call.
        let code = unsafe { isal::isal_inflate(state) };
        let written = (avail_out - state.avail_out) as usize;
        let start = (state.next_in as usize)
            .checked_sub(base)
            .filter(|&at| at + state.avail_in as usize == input.end);
        // More given back than this decoder kept: only seen on corrupt streams.
        let Some(start) = start else {
            return Err(self.corrupt(isal::ISAL_INVALID_BLOCK));
        };
        let used = start > input.start;
        input.set_start(start);
        if code < 0 {
            return Err(self.corrupt(code));
        }
        if self.state.block_state == isal::isal_block_state_ISAL_BLOCK_FINISH {
            self.input.in_member = false;
        }
        Ok((written, used))
    }

    /// The error for an ISA-L error `code`.
    fn corrupt(&self, code: i32) -> io::Error {
        let why = match code {
            isal::ISAL_INCORRECT_CHECKSUM => "its CRC-32 or length does not match the data",
            isal::ISAL_INVALID_WRAPPER => "not a gzip header",
            isal::ISAL_UNSUPPORTED_METHOD => "an unsupported compression method",
            isal::ISAL_INVALID_LOOKBACK => "a back-reference before the start of the data",
            isal::ISAL_INVALID_SYMBOL => "an invalid Huffman code",
            _ => "an invalid deflate block",
        };
        self.input.corrupt(why)
    }
}

impl<R: Read> Read for GzipDecoder<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            if !self.input.in_member && !self.next_member()? {
                return Ok(0);
            }
            let (written, used) = self.step(out)?;
            if written > 0 {
                return Ok(written);
            }
            let input = &mut self.input;
            if !input.in_member {
                continue; // an empty member ended
            }
            if input.is_used_up() || !used {
                // ISA-L wants more input (it keeps what it could not use yet).
                if input.eof {
                    return Err(input.truncated());
                }
                input.refill()?;
                if input.eof && !used && !input.is_used_up() {
                    return Err(input.truncated());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::gzip_cases::{self, Trickle};

    /// Inflates `bytes` handed out `chunk` bytes per read.
    fn inflate(bytes: &[u8], chunk: usize) -> io::Result<Vec<u8>> {
        let mut all = Vec::new();
        GzipDecoder::new(Trickle(bytes, chunk)).read_to_end(&mut all)?;
        Ok(all)
    }

    #[test]
    fn members_inflate_in_order_whatever_the_read_sizes() {
        gzip_cases::members_inflate_in_order(&inflate);
    }

    #[test]
    fn cut_or_corrupt_streams_say_what_and_where() {
        let bad_crc = "its CRC-32 or length does not match the data";
        gzip_cases::cut_or_corrupt_streams_say_what_and_where(&inflate, bad_crc);
    }
}
