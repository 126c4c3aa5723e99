//! A gzip stream (`cat r.fq.gz | galign map idx -`) inflated on one thread as it arrives
//! ([`GzipDecoder`]) while it is held in memory ([`held::hold`]). Once it has ended,
//! held whole, while less than half of it is inflated, it is inflated all again in
//! parallel ([`gzip::parallel`]), the part already given passed over, and the parallel
//! inflater gives the rest. A stream that arrives as fast as a file is read is thus
//! inflated about as fast as the file, and its bytes, identical either way, flow from
//! the start. (Passing over on a thread of its own while the one thread goes on was
//! slower: BENCHMARKS.md, session 20.)

use std::io::{self, Read};

use crossbeam_channel::{Receiver, TryRecvError};
use rapidgzip_core::ReadAt;

use super::gzip::{self, GzipDecoder};
use super::held::{self, Arriving, HeldBytes};

/// The inflated bytes of the gzip `stream` (after its bytes `first`, already taken from
/// it), on up to `threads` threads once it is held whole.
pub fn arriving(first: Vec<u8>, stream: Box<dyn Read + Send>, threads: usize) -> impl Read + Send {
    Switching::new(first, stream, threads)
}

/// [`arriving`]'s reader.
struct Switching {
    early: GzipDecoder<Arriving>,
    /// The whole stream, to come; `None` once taken or let go.
    whole: Option<Receiver<HeldBytes>>,
    /// Inflated bytes given so far.
    given: u64,
    parallel: Option<Box<dyn Read + Send>>,
    threads: usize,
}

impl Switching {
    fn new(first: Vec<u8>, stream: Box<dyn Read + Send>, threads: usize) -> Switching {
        let holding = held::hold(first, stream, held::GZIP_LIMITS);
        Switching {
            early: GzipDecoder::new(holding.arriving),
            whole: Some(holding.whole),
            given: 0,
            parallel: None,
            threads,
        }
    }

    /// Switches to the parallel inflater if the whole stream is held and less than half
    /// of it is inflated yet.
    fn maybe_switch(&mut self) -> io::Result<()> {
        let Some(whole) = &self.whole else {
            return Ok(());
        };
        let held = match whole.try_recv() {
            Ok(held) => held,
            Err(TryRecvError::Empty) => return Ok(()),
            Err(TryRecvError::Disconnected) => {
                self.whole = None;
                return Ok(());
            }
        };
        self.whole = None;
        if 2 * self.early.compressed_offset() >= held.len()? {
            return Ok(());
        }
        let mut parallel = gzip::parallel(held, self.threads)?;
        let skipped = io::copy(&mut (&mut parallel).take(self.given), &mut io::sink())?;
        if skipped < self.given {
            return Err(io::Error::other(
                "the gzip stream inflated in parallel is shorter",
            ));
        }
        self.parallel = Some(Box::new(parallel));
        Ok(())
    }
}

impl Read for Switching {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.parallel.is_none() {
            self.maybe_switch()?;
        }
        if let Some(parallel) = &mut self.parallel {
            return parallel.read(out);
        }
        let n = self.early.read(out)?;
        self.given += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(data).unwrap();
        gz.finish().unwrap()
    }

    /// A stream that stops at byte `gate_at` until `gate` says to go on.
    struct Gated {
        bytes: io::Cursor<Vec<u8>>,
        gate_at: u64,
        gate: Option<crossbeam_channel::Receiver<()>>,
    }

    impl Read for Gated {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let left = self.gate_at.saturating_sub(self.bytes.position());
            if left == 0 {
                if let Some(gate) = self.gate.take() {
                    gate.recv().unwrap();
                }
                return self.bytes.read(out);
            }
            let n = out.len().min(left as usize);
            self.bytes.read(&mut out[..n])
        }
    }

    /// `len` bytes of random bases in lines of 100, which gzip to about a quarter.
    fn bases(len: usize) -> Vec<u8> {
        let codes = crate::test_support::random_codes(len, 12345, 4);
        let base = |(i, &code): (usize, &u8)| match i % 101 {
            100 => b'\n',
            _ => b"ACGT"[code as usize],
        };
        codes.iter().enumerate().map(base).collect()
    }

    #[test]
    fn a_stream_inflated_as_it_arrives_goes_on_in_parallel_once_held_whole() {
        // Several pieces of gzip.
        let text = bases(24_000_000);
        let gz = gzip(&text);
        let (go, gate) = crossbeam_channel::bounded(1);
        let stream = Gated {
            bytes: io::Cursor::new(gz[100..].to_vec()),
            gate_at: (gz.len() - 100) as u64 * 3 / 4,
            gate: Some(gate),
        };
        let mut reader = Switching::new(gz[..100].to_vec(), Box::new(stream), 4);
        // Inflated on one thread while the stream waits at its gate.
        let mut all = vec![0; 3_000_001];
        reader.read_exact(&mut all).unwrap();
        assert!(reader.parallel.is_none());
        go.send(()).unwrap();
        while reader.whole.is_some() {
            let mut next = [0; 7];
            let n = reader.read(&mut next).unwrap();
            all.extend_from_slice(&next[..n]);
        }
        assert!(
            reader.parallel.is_some(),
            "switched to the parallel inflater"
        );
        reader.read_to_end(&mut all).unwrap();
        assert!(all == text);
    }
}
