//! How many raw bytes (compressed bytes for a compressed file) this process has read of
//! its inputs, for the progress line of `map` only: nothing else reads it, and no output
//! depends on it. Positioned reads (rapidgzip's) count up to the furthest byte read.

use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};

use rapidgzip_core::ReadAt;

/// The bytes read so far, over every input.
static CONSUMED: AtomicU64 = AtomicU64::new(0);

/// Raw bytes read of the inputs so far (over every input this process opened).
pub fn consumed() -> u64 {
    CONSUMED.load(Ordering::Relaxed)
}

/// Counts `n` more bytes read.
pub(super) fn add(n: usize) {
    CONSUMED.fetch_add(n as u64, Ordering::Relaxed);
}

/// A stream whose bytes read are counted.
pub(super) struct Counted<R>(pub R);

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(out)?;
        add(n);
        Ok(n)
    }
}

/// A file read by position, counted up to the furthest byte read.
pub(super) struct CountedAt<R> {
    inner: R,
    furthest: AtomicU64,
}

impl<R> CountedAt<R> {
    /// `inner`, whose first `counted` bytes were counted already.
    pub(super) fn new(inner: R, counted: u64) -> Self {
        CountedAt {
            inner,
            furthest: AtomicU64::new(counted),
        }
    }
}

impl<R: ReadAt> ReadAt for CountedAt<R> {
    fn len(&self) -> io::Result<u64> {
        self.inner.len()
    }

    fn read_at(&self, offset: u64, out: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read_at(offset, out)?;
        let end = offset + n as u64;
        let before = self.furthest.fetch_max(end, Ordering::Relaxed);
        if end > before {
            add((end - before) as usize);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `.0` zero bytes.
    struct Zeros(u64);

    impl ReadAt for Zeros {
        fn len(&self) -> io::Result<u64> {
            Ok(self.0)
        }

        fn read_at(&self, offset: u64, out: &mut [u8]) -> io::Result<usize> {
            let n = (self.0.saturating_sub(offset) as usize).min(out.len());
            out[..n].fill(0);
            Ok(n)
        }
    }

    #[test]
    fn streams_count_what_they_read_and_positioned_reads_the_furthest_byte() {
        // Other tests may read inputs meanwhile: only growth is asserted, as a floor.
        let before = consumed();
        let mut out = [0u8; 10];
        let n = Counted(&b"abcdef"[..]).read(&mut out).unwrap();
        assert_eq!(n, 6);
        assert!(consumed() >= before + 6);
        let at = CountedAt::new(Zeros(100), 10);
        at.read_at(0, &mut out).unwrap(); // within the counted start: nothing more
        assert_eq!(at.furthest.load(Ordering::Relaxed), 10);
        at.read_at(50, &mut out).unwrap();
        assert_eq!(at.furthest.load(Ordering::Relaxed), 60);
        at.read_at(20, &mut out).unwrap(); // behind the furthest: nothing more
        assert_eq!(at.furthest.load(Ordering::Relaxed), 60);
    }
}
