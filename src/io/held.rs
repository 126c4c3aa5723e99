//! A stream's bytes held in memory as they arrive, on a thread of their own, and handed
//! to two readers. A gzip stream (`cat r.fq.gz | galign map idx -`) is inflated on one
//! thread as it arrives, while a second finds deflate block boundaries in the same
//! bytes; once it has ended, held whole, it can be inflated in parallel like a file
//! (rapidgzip reads its source by position) from the last boundary found. A stream too
//! slow to gain from that, or too long to hold, is let go and read as it comes.

use std::io::{self, Read};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use rapidgzip_core::ReadAt;

/// Bytes of a piece: every piece but the last is full. Small enough that the bytes
/// reach the reader soon and a slow stream is noticed after a piece (see [`Limits`]),
/// large enough that pieces are few.
const PIECE: usize = 4 << 20;

/// When a stream stops being held.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most bytes held; a longer stream is read as it comes from there on.
    pub most: u64,
    /// Bytes a second under which a stream is let go, once it has been read for
    /// `after`: the stream, not the decoder, then sets the pace.
    pub slowest: f64,
    /// How long a stream is read before its pace is judged.
    pub after: Duration,
}

/// Limits for a gzip stream: at most 2 GiB held (HG002 148 bp x1000, 21 M reads, is
/// 1.7 GB of gzip); let go under 256 MB/s, about what one ISA-L thread inflates (165 MB
/// of gzip FASTQ in 0.95-1.45 s on a 16-core host, BENCHMARKS.md), judged after 0.25 s.
pub const GZIP_LIMITS: Limits = Limits {
    most: 2 << 30,
    slowest: 256e6,
    after: Duration::from_millis(250),
};

/// A whole stream's bytes, in pieces.
pub struct HeldBytes {
    pieces: Vec<Arc<Vec<u8>>>,
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
        let piece = self.pieces[(offset / PIECE as u64) as usize].as_slice();
        let at = (offset % PIECE as u64) as usize;
        let n = out.len().min(piece.len() - at);
        out[..n].copy_from_slice(&piece[at..at + n]);
        Ok(n)
    }
}

/// A stream being held: its bytes as they arrive, and all of them once it has ended
/// within the limits (never, if it was let go).
pub struct Holding {
    /// The stream's bytes in order, as they arrive.
    pub arriving: Arriving,
    /// The same bytes again, for a second reader; it fails where the stream is let go.
    pub tracked: Arriving,
    /// The whole stream, sent once when it has ended within the limits.
    pub whole: Receiver<HeldBytes>,
}

/// What the holding thread hands the reader.
enum Arrival {
    /// The next bytes.
    Piece(Arc<Vec<u8>>),
    /// The stream was let go: its rest is to be read from it directly.
    Rest(Box<dyn Read + Send>),
    /// The stream has ended.
    End,
    /// Reading the stream failed.
    Failed(io::Error),
}

/// Holds `stream` (after the bytes `first`, at most a piece, already taken from it) on a
/// thread of its own until its end or until `limits` say to let it go.
pub fn hold(first: Vec<u8>, stream: Box<dyn Read + Send>, limits: Limits) -> Holding {
    assert!(first.len() <= PIECE, "the bytes taken first fit a piece");
    // Unbounded: it queues only pieces that are held anyway (at most `limits.most`
    // bytes); past the limits the stream itself is handed over.
    let (arrival_tx, arrival_rx) = crossbeam_channel::unbounded();
    let (tracked_tx, tracked_rx) = crossbeam_channel::unbounded();
    let (whole_tx, whole_rx) = crossbeam_channel::bounded(1);
    let senders = [arrival_tx, tracked_tx];
    std::thread::spawn(move || hold_on(first, stream, limits, &senders, &whole_tx));
    Holding {
        arriving: Arriving::new(arrival_rx),
        tracked: Arriving::new(tracked_rx),
        whole: whole_rx,
    }
}

/// The holding thread: reads `stream` a piece at a time, hands each piece on to both
/// readers, and the whole at its end; or the stream itself to the first reader once
/// `limits` say to let it go (the second is told it failed).
fn hold_on(
    first: Vec<u8>,
    mut stream: Box<dyn Read + Send>,
    limits: Limits,
    [arrivals, tracked]: &[Sender<Arrival>; 2],
    whole: &Sender<HeldBytes>,
) {
    let start = Instant::now();
    let mut held = HeldBytes {
        pieces: Vec::new(),
        len: 0,
    };
    let mut piece = first;
    loop {
        piece.reserve_exact(PIECE - piece.len());
        populate(&mut piece);
        let want = (PIECE - piece.len()) as u64;
        let got = match (&mut stream).take(want).read_to_end(&mut piece) {
            Ok(got) => got as u64,
            Err(error) => {
                let _ = tracked.send(Arrival::Failed(io::Error::other(
                    "reading the stream failed",
                )));
                let _ = arrivals.send(Arrival::Failed(error));
                return;
            }
        };
        let piece_now = Arc::new(std::mem::replace(&mut piece, Vec::with_capacity(PIECE)));
        held.len += piece_now.as_slice().len() as u64;
        held.pieces.push(Arc::clone(&piece_now));
        // The second reader may have stopped; the first gone has stopped reading:
        // nothing is left to do.
        let _ = tracked.send(Arrival::Piece(Arc::clone(&piece_now)));
        if arrivals.send(Arrival::Piece(piece_now)).is_err() {
            return;
        }
        if got < want {
            let _ = tracked.send(Arrival::End);
            let _ = arrivals.send(Arrival::End);
            let _ = whole.send(held);
            return;
        }
        let elapsed = start.elapsed();
        let slow =
            elapsed >= limits.after && (held.len as f64) < limits.slowest * elapsed.as_secs_f64();
        if held.len >= limits.most || slow {
            let _ = tracked.send(Arrival::Failed(io::Error::other("the stream was let go")));
            let _ = arrivals.send(Arrival::Rest(stream));
            return;
        }
    }
}

/// Maps the pages of `piece`'s spare capacity in one call (Linux's
/// `MADV_POPULATE_WRITE`) instead of a page fault each in the stream's reads (1,024 a
/// piece, one after another on the holding thread). Best effort: without it (Linux
/// before 5.14, another system) the reads fault the pages in as before.
fn populate(piece: &mut Vec<u8>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let spare = piece.spare_capacity_mut();
        let start = spare.as_mut_ptr() as usize;
        let (first, end) = (start.next_multiple_of(PAGE), start + spare.len());
        if end > first + PAGE {
            let len = (end - first) / PAGE * PAGE;
            // SAFETY: whole pages inside the vector's own allocation; populating them
            // writes nothing a reader could see (they read as zeros either way).
            unsafe { libc::madvise(first as *mut libc::c_void, len, libc::MADV_POPULATE_WRITE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = piece;
}

/// A held stream's bytes in order, as they arrive.
pub struct Arriving {
    arrivals: Receiver<Arrival>,
    piece: Arc<Vec<u8>>,
    at: usize,
    rest: Option<Box<dyn Read + Send>>,
    done: bool,
}

impl Arriving {
    fn new(arrivals: Receiver<Arrival>) -> Arriving {
        Arriving {
            arrivals,
            piece: Arc::new(Vec::new()),
            at: 0,
            rest: None,
            done: false,
        }
    }
}

impl Read for Arriving {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(rest) = &mut self.rest {
                return rest.read(out);
            }
            let piece = self.piece.as_slice();
            if self.at < piece.len() || self.done || out.is_empty() {
                let n = out.len().min(piece.len() - self.at);
                out[..n].copy_from_slice(&piece[self.at..self.at + n]);
                self.at += n;
                return Ok(n);
            }
            match self.arrivals.recv() {
                Ok(Arrival::Piece(piece)) => (self.piece, self.at) = (piece, 0),
                Ok(Arrival::Rest(rest)) => self.rest = Some(rest),
                Ok(Arrival::End) => self.done = true,
                Ok(Arrival::Failed(error)) => return Err(error),
                Err(_) => return Err(io::Error::other("the thread holding the stream ended")),
            }
        }
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

    /// Everything `holding` gives as it arrives, and the whole if it was held.
    fn read_all(holding: Holding) -> (Vec<u8>, Option<Vec<u8>>) {
        let Holding {
            mut arriving,
            mut tracked,
            whole,
        } = holding;
        let mut arrived = Vec::new();
        // Reads of odd lengths cross the pieces' ends.
        let mut buffer = vec![0; 1_000_003];
        loop {
            match arriving.read(&mut buffer).unwrap() {
                0 => break,
                n => arrived.extend_from_slice(&buffer[..n]),
            }
        }
        let whole = whole.recv().ok().map(|held| {
            let mut all = vec![0; held.len as usize];
            let mut at = 0;
            while at < all.len() {
                let end = all.len().min(at + 1_000_003);
                at += held.read_at(at as u64, &mut all[at..end]).unwrap();
            }
            assert_eq!(held.read_at(at as u64, &mut [0; 5]).unwrap(), 0);
            all
        });
        // The second reader has the same bytes where the stream was held whole, and
        // fails where it was let go.
        let mut second = Vec::new();
        match tracked.read_to_end(&mut second) {
            Ok(_) => assert!(whole.is_some() && second == arrived),
            Err(_) => assert!(whole.is_none()),
        }
        (arrived, whole)
    }

    #[test]
    fn a_stream_is_held_whole_within_the_limits_and_let_go_beyond_them() {
        let stream = bytes(3 * PIECE + 12_345);
        let first = 70_000;
        let hold_with = |limits| {
            let rest = Box::new(Cursor::new(stream[first..].to_vec()));
            read_all(hold(stream[..first].to_vec(), rest, limits))
        };
        let roomy = Limits {
            most: 1 << 40,
            slowest: 0.0,
            after: Duration::ZERO,
        };
        assert_eq!(hold_with(roomy), (stream.clone(), Some(stream.clone())));
        let short = Limits {
            most: 2 * PIECE as u64,
            ..roomy
        };
        assert_eq!(hold_with(short), (stream.clone(), None));
        let impatient = Limits {
            slowest: f64::INFINITY,
            ..roomy
        };
        assert_eq!(hold_with(impatient), (stream.clone(), None));
        // A stream of exactly a piece, and an empty one.
        for len in [PIECE, 0] {
            let rest = Box::new(Cursor::new(Vec::new()));
            let held = read_all(hold(stream[..len].to_vec(), rest, roomy));
            assert_eq!(held, (stream[..len].to_vec(), Some(stream[..len].to_vec())));
        }
    }

    #[test]
    fn a_failed_read_reaches_the_reader() {
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("the disk is on fire"))
            }
        }
        let mut holding = hold(b"abc".to_vec(), Box::new(Failing), GZIP_LIMITS);
        let e = holding.arriving.read_to_end(&mut Vec::new()).unwrap_err();
        assert_eq!(e.to_string(), "the disk is on fire");
        assert!(holding.whole.recv().is_err(), "nothing held whole");
    }
}
