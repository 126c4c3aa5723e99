//! A stream's bytes held in memory, readable by position. A gzip stream that arrives
//! faster than one thread inflates it (`cat r.fq.gz | galign map idx -`) is held whole
//! and then inflated in parallel like a file (rapidgzip reads its source by position);
//! one that arrives slowly, or is too long to hold, is inflated as it comes.

use std::io::{self, Read};
use std::time::{Duration, Instant};

use rapidgzip_core::ReadAt;

/// Bytes of a piece: every piece but the last is full. Small enough that a slow stream
/// is noticed after a piece (see [`Limits`]), large enough that pieces are few.
const PIECE: usize = 4 << 20;

/// When a stream stops being held.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most bytes held; a longer stream is read as it comes from there on.
    pub most: u64,
    /// Bytes a second under which a stream is taken as slow, once it has been read for
    /// `after`: the stream, not the decoder, then sets the pace, and holding it would
    /// only delay the decoding.
    pub slowest: f64,
    /// How long a stream is read before its pace is judged.
    pub after: Duration,
}

/// Limits for a gzip stream: at most 2 GiB held (HG002 148 bp x1000, 21 M reads, is
/// 1.7 GB of gzip); slow under 256 MB/s, about what one ISA-L thread inflates (165 MB
/// of gzip FASTQ in 0.95-1.45 s on a 16-core host, BENCHMARKS.md), judged after 0.25 s.
pub const GZIP_LIMITS: Limits = Limits {
    most: 2 << 30,
    slowest: 256e6,
    after: Duration::from_millis(250),
};

/// Bytes held in memory, in pieces.
pub struct HeldBytes {
    pieces: Vec<Vec<u8>>,
    len: u64,
}

impl ReadAt for HeldBytes {
    fn len(&self) -> io::Result<u64> {
        Ok(self.len)
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> io::Result<usize> {
        if offset >= self.len || out.is_empty() {
            return Ok(0);
        }
        let piece = &self.pieces[(offset / PIECE as u64) as usize];
        let at = (offset % PIECE as u64) as usize;
        let n = out.len().min(piece.len() - at);
        out[..n].copy_from_slice(&piece[at..at + n]);
        Ok(n)
    }
}

/// A stream read into memory: whole, or its first part and the rest to come.
pub enum Held {
    /// The stream ended within the limits.
    Whole(HeldBytes),
    /// The stream was slow or long: the bytes held, then the rest as it comes.
    Part(Box<dyn Read + Send>),
}

/// Reads `stream` (after the bytes `first`, at most a piece, already taken from it) into
/// memory until its end or until `limits` say to stop.
pub fn hold(first: Vec<u8>, mut stream: Box<dyn Read + Send>, limits: Limits) -> io::Result<Held> {
    assert!(first.len() <= PIECE, "the bytes taken first fit a piece");
    let start = Instant::now();
    let mut held = HeldBytes {
        len: first.len() as u64,
        pieces: vec![first],
    };
    loop {
        let piece = held.pieces.last_mut().expect("one piece at least");
        if piece.len() == PIECE {
            held.pieces.push(Vec::with_capacity(PIECE));
            continue;
        }
        piece.reserve_exact(PIECE - piece.len());
        let want = (PIECE - piece.len()) as u64;
        let got = (&mut stream).take(want).read_to_end(piece)?;
        held.len += got as u64;
        if (got as u64) < want {
            return Ok(Held::Whole(held));
        }
        let elapsed = start.elapsed();
        let slow =
            elapsed >= limits.after && (held.len as f64) < limits.slowest * elapsed.as_secs_f64();
        if held.len >= limits.most || slow {
            return Ok(Held::Part(Box::new(HeldThenRest {
                held,
                at: 0,
                rest: stream,
            })));
        }
    }
}

/// Bytes held, then the rest of their stream.
struct HeldThenRest {
    held: HeldBytes,
    at: u64,
    rest: Box<dyn Read + Send>,
}

impl Read for HeldThenRest {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.held.read_at(self.at, out)?;
        if n == 0 {
            return self.rest.read(out);
        }
        self.at += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// Bytes that differ from piece to piece and within each.
    fn bytes(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + i / 4099) as u8).collect()
    }

    fn read_all(held: Held) -> (bool, Vec<u8>) {
        match held {
            Held::Whole(held) => {
                let mut all = vec![0; held.len as usize];
                let mut at = 0;
                while at < all.len() {
                    // Reads of odd lengths at odd offsets cross the pieces' ends.
                    let end = all.len().min(at + 1_000_003);
                    at += held.read_at(at as u64, &mut all[at..end]).unwrap();
                }
                assert_eq!(held.read_at(at as u64, &mut [0; 5]).unwrap(), 0);
                (true, all)
            }
            Held::Part(mut rest) => {
                let mut all = Vec::new();
                rest.read_to_end(&mut all).unwrap();
                (false, all)
            }
        }
    }

    #[test]
    fn a_stream_is_held_whole_within_the_limits_and_in_part_beyond_them() {
        let stream = bytes(3 * PIECE + 12_345);
        let first = 70_000;
        let hold_with = |limits| {
            let rest = Box::new(Cursor::new(stream[first..].to_vec()));
            read_all(hold(stream[..first].to_vec(), rest, limits).unwrap())
        };
        let roomy = Limits {
            most: 1 << 40,
            slowest: 0.0,
            after: Duration::ZERO,
        };
        assert_eq!(hold_with(roomy), (true, stream.clone()));
        let short = Limits {
            most: 2 * PIECE as u64,
            ..roomy
        };
        assert_eq!(hold_with(short), (false, stream.clone()));
        let impatient = Limits {
            slowest: f64::INFINITY,
            ..roomy
        };
        assert_eq!(hold_with(impatient), (false, stream.clone()));
        // A stream of exactly a piece, and an empty one.
        for len in [PIECE, 0] {
            let rest = Box::new(Cursor::new(Vec::new()));
            let held = hold(stream[..len].to_vec(), rest, roomy).unwrap();
            assert_eq!(read_all(held), (true, stream[..len].to_vec()));
        }
    }
}
