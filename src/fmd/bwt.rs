//! bwa's `.bwt` read back for searching: the BWT of the text followed by its reverse
//! complement, held as bwa holds it (Occ intervals of 128 bases, each its four symbol
//! counts followed by its bases, 16 to a 32-bit word, the first in the top bits: one
//! 64-byte cache line an interval), and the counts bwa's searches take of it.
//!
//! Rows are bwa's: row 0 the sentinel's suffix, `primary` the row whose BWT symbol is
//! the sentinel (stored without it, so that row `r > primary` is stored at `r - 1`).
//! [`Bwt::occ4`] is bwa's `bwt_occ4` (the symbols of rows `0..=r`; row `u64::MAX`,
//! bwa's `(bwtint_t)-1`, counts none), [`Bwt::inverse_psi`] its `bwt_invPsi` (the LF
//! step).

use std::io::Read;
use std::path::Path;

// The intervals are read straight into memory as the file holds them.
const _: () = assert!(
    cfg!(target_endian = "little"),
    "bwa's index files are little-endian"
);

/// Bases of one Occ interval (bwa's `OCC_INTERVAL`).
const OCC_INTERVAL: u64 = 128;
/// Bytes before the intervals: `primary` and `L2[1..=4]`.
const HEADER: usize = 40;

/// Why a `.bwt` file could not be read as bwa's.
#[derive(Debug, thiserror::Error)]
pub enum BwtError {
    /// The file could not be opened or read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The file is shorter than its header.
    #[error("no bwa .bwt header")]
    Header(#[source] std::io::Error),
    /// The header's counts do not fit together or with the file's length.
    #[error("not a bwa .bwt file: {file_len} bytes, a text of {bases} bases, primary {primary}")]
    Shape {
        /// The file's length.
        file_len: u64,
        /// The text length the header gives (`L2[4]`).
        bases: u64,
        /// The header's `primary`.
        primary: u64,
    },
    /// The intervals would not fit in this machine's address space.
    #[error(transparent)]
    TooLarge(#[from] std::num::TryFromIntError),
}

/// One Occ interval as the file holds it: the counts of A, C, G and T before it, then
/// its bases.
#[repr(C, align(64))]
#[derive(Clone, Copy, Default)]
struct Interval {
    counts: [u64; 4],
    words: [u32; 8],
}

/// bwa's BWT with its Occ intervals (`bwt_t` without the suffix array).
pub struct Bwt {
    /// The row whose BWT symbol is the sentinel.
    pub primary: u64,
    /// `L2[c]`: the symbols smaller than `c` (the sentinel left out); `L2[4]` the text
    /// length, bwa's `seq_len`.
    pub l2: [u64; 5],
    intervals: Vec<Interval>,
}

impl Bwt {
    /// Reads bwa's `.bwt` file at `path`.
    pub fn read(path: &Path) -> Result<Bwt, BwtError> {
        let mut file = std::fs::File::open(path)?;
        let file_len = file.metadata()?.len();
        let mut header = [0u8; HEADER];
        file.read_exact(&mut header).map_err(BwtError::Header)?;
        let word = |i: usize| u64::from_le_bytes(header[8 * i..8 * i + 8].try_into().unwrap());
        let primary = word(0);
        let l2 = [0, word(1), word(2), word(3), word(4)];
        let n = l2[4];
        let body = body_bytes(n);
        if !(l2.windows(2).all(|w| w[0] <= w[1]) && primary <= n && body == Some(file_len - 40)) {
            return Err(BwtError::Shape {
                file_len,
                bases: n,
                primary,
            });
        }
        let intervals = read_intervals(&mut file, n, file_len - 40 - 32)?;
        Ok(Bwt {
            primary,
            l2,
            intervals,
        })
    }

    /// The text length (bwa's `seq_len`; the rows are `0..=seq_len`).
    pub fn seq_len(&self) -> u64 {
        self.l2[4]
    }

    /// The counts of A, C, G and T among the BWT symbols of rows `0..=row` (none for
    /// `u64::MAX`): bwa's `bwt_occ4`.
    #[inline(always)]
    pub fn occ4(&self, row: u64) -> [u64; 4] {
        if row == u64::MAX {
            return [0; 4];
        }
        let at = row - u64::from(row >= self.primary);
        let interval = &self.intervals[(at / OCC_INTERVAL) as usize];
        let mut counts = interval.counts;
        let within = counts_within(&interval.words, (at % OCC_INTERVAL) as u32);
        for (count, add) in counts.iter_mut().zip(within) {
            *count += add;
        }
        counts
    }

    /// The row of the suffix one position before row `row`'s (row 0 for `primary`):
    /// bwa's `bwt_invPsi`.
    #[inline(always)]
    pub fn inverse_psi(&self, row: u64) -> u64 {
        if row == self.primary {
            return 0;
        }
        let at = row - u64::from(row > self.primary);
        let interval = &self.intervals[(at / OCC_INTERVAL) as usize];
        let word = interval.words[(at % OCC_INTERVAL / 16) as usize];
        let symbol = (word >> ((!at & 15) << 1) & 3) as usize;
        self.l2[symbol] + self.occ4(row)[symbol]
    }

    /// The Occ intervals as the file holds them, 8 u64 words an interval (4 counts, then
    /// the 128 bases as 8 u32 words, two to a u64 in memory order): what the GPU uploads.
    pub fn interval_words(&self) -> &[u64] {
        // SAFETY: `Interval` is plain data of 64 bytes, 8-byte aligned, with no padding
        // (4 u64 and 8 u32); the view covers exactly the vector's elements.
        unsafe {
            std::slice::from_raw_parts(
                self.intervals.as_ptr().cast::<u64>(),
                self.intervals.len() * 8,
            )
        }
    }

    /// Hints the processor to fetch the interval that [`Bwt::occ4`] of `row` reads.
    #[inline(always)]
    pub fn prefetch(&self, row: u64) {
        let at = row.saturating_sub(u64::from(row >= self.primary)) / OCC_INTERVAL;
        if let Some(interval) = self.intervals.get(at as usize) {
            prefetch(interval);
        }
    }
}

/// Asks for the cache line holding `item` (a hint: it never faults).
#[inline(always)]
fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// The bytes of a `.bwt` file after its header for a text of `n` bases: the intervals
/// (the last one's words only as far as its bases go) and the totals; `None` if they
/// would not fit in memory.
fn body_bytes(n: u64) -> Option<u64> {
    let full = n / OCC_INTERVAL;
    let rest = n % OCC_INTERVAL;
    let last = if rest == 0 {
        0
    } else {
        32 + 4 * rest.div_ceil(16)
    };
    full.checked_mul(64)?.checked_add(last + 32)
}

/// Reads the `bytes` bytes of the intervals of a text of `n` bases from `file` (just
/// after the header) into intervals, the last one's missing words zero.
fn read_intervals(file: &mut std::fs::File, n: u64, bytes: u64) -> Result<Vec<Interval>, BwtError> {
    let count = usize::try_from(n.div_ceil(OCC_INTERVAL))?;
    let mut intervals = vec![Interval::default(); count];
    // SAFETY: `Interval` is plain data of 64 bytes with no padding (4 u64 and 8 u32),
    // every bit pattern a valid value; the view covers exactly the vector's elements.
    let view =
        unsafe { std::slice::from_raw_parts_mut(intervals.as_mut_ptr().cast::<u8>(), count * 64) };
    file.read_exact(&mut view[..bytes as usize])?;
    Ok(intervals)
}

/// The counts of A, C, G and T among the bases `0..=last` of an interval's `words`.
#[inline(always)]
fn counts_within(words: &[u32; 8], last: u32) -> [u64; 4] {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let (mut c, mut g, mut t) = (0, 0, 0);
    let pairs = last / 32;
    for p in 0..=pairs as usize {
        let x = u64::from(words[2 * p]) << 32 | u64::from(words[2 * p + 1]);
        let bases = if p < pairs as usize {
            32
        } else {
            last % 32 + 1
        };
        let kept = LOW & !(u64::MAX.checked_shr(2 * bases).unwrap_or(0));
        let (high, low) = (x >> 1 & kept, x & kept);
        c += (low & !high).count_ones();
        g += (high & !low).count_ones();
        t += (high & low).count_ones();
    }
    let (c, g, t) = (u64::from(c), u64::from(g), u64::from(t));
    [u64::from(last) + 1 - c - g - t, c, g, t]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_within_count_the_bases_up_to_the_last() {
        let bases: Vec<u32> = (0..128u32).map(|i| (i * 7 + i / 5) % 4).collect();
        let mut words = [0u32; 8];
        for (i, &b) in bases.iter().enumerate() {
            words[i / 16] |= b << (30 - 2 * (i % 16));
        }
        for last in 0..128 {
            let mut want = [0u64; 4];
            bases[..=last as usize]
                .iter()
                .for_each(|&b| want[b as usize] += 1);
            assert_eq!(counts_within(&words, last), want, "last {last}");
        }
    }
}
