//! The k-mer jump table: the BWT row interval of every k-mer, so backward search starts
//! k steps in. Built from the k-mer counts, read off the suffix array (equal k-mers are
//! runs of rows), plus the k-1 suffixes shorter than k.
//!
//! Layout: `2 * 4^k` values of the index's [`crate::sa::Width`], `[lo, hi)` for each
//! k-mer in lexicographic order.

use rayon::prelude::*;

use crate::reference::PackedText;
use crate::sa::{PositionSlice, SaIndex};

/// The largest k [`choose_k`] chooses.
pub const MAX_K: u32 = 13;

/// Chooses k for a text of `n` bases: the table (8 bytes per k-mer at 32-bit positions)
/// stays under about one byte per base, k between 1 and [`MAX_K`] (13 for a human
/// genome).
pub fn choose_k(n: usize) -> u32 {
    let mut k = 1;
    while k < MAX_K && 8usize << (2 * (k + 1)) <= n {
        k += 1;
    }
    k
}

/// The k-mer code of the k bases at `p` (the text must hold them).
#[inline]
fn kmer_at(text: &PackedText, p: usize, k: u32) -> usize {
    (text.key64(p) >> (64 - 2 * k)) as usize
}

/// Builds the jump table, of rows of type `I`, from rows given in order, a run at a
/// time: the k-mer counts are read off the rows, the table is made from them at the end.
#[derive(Debug)]
pub struct JumpBuilder<I> {
    k: u32,
    /// Occurrences of each k-mer among the rows so far.
    counts: Vec<I>,
}

/// The k-mers of length `k`; the table holds two entries (`lo`, `hi`) for each.
pub fn kmers(k: u32) -> usize {
    1 << (2 * k)
}

impl<I: SaIndex> JumpBuilder<I> {
    /// A table of k-mers of length `k`.
    pub fn new(k: u32) -> JumpBuilder<I> {
        JumpBuilder {
            k,
            counts: vec![I::default(); kmers(k)],
        }
    }

    /// Counts the k-mer runs `(code, rows)` of some rows ([`super::Rows::with_kmer_runs`]).
    pub fn add_runs(&mut self, runs: &[(u32, I)]) {
        for &(code, count) in runs {
            self.counts[code as usize] += count;
        }
    }

    /// Adds the counts of the k-mers `first..first + counts.len()` (those of a run of
    /// rows, counted where they were sorted: the GPU's part builds).
    pub fn add(&mut self, first: usize, counts: &[I]) {
        for (total, count) in self.counts[first..first + counts.len()]
            .iter_mut()
            .zip(counts)
        {
            *total += *count;
        }
    }

    /// The table, once every row of `text` has been pushed.
    pub fn finish(self, text: &PackedText) -> Vec<I> {
        let (n, k) = (text.len(), self.k);
        let full = (n + 1).saturating_sub(k as usize);
        // A suffix shorter than k sorts before k-mer x exactly when its A-padded code <= x.
        let mut short: Vec<usize> = (full.max(n.saturating_sub(k as usize - 1))..n)
            .map(|p| kmer_at(text, p, k))
            .collect();
        short.sort_unstable();
        // In chunks of k-mers at once: the rows before each chunk (the sentinel's comes
        // first), then each chunk's intervals.
        const CHUNK: usize = 1 << 16;
        let sums: Vec<u64> = self
            .counts
            .par_chunks(CHUNK)
            .map(|counts| counts.iter().map(|&c| c.into()).sum())
            .collect();
        let starts = sums.iter().scan(1u64, |before, &sum| {
            let start = *before;
            *before += sum;
            Some(start)
        });
        let starts: Vec<u64> = starts.collect();
        let mut table = vec![I::default(); 2 * self.counts.len()];
        table
            .par_chunks_mut(2 * CHUNK)
            .zip(self.counts.par_chunks(CHUNK))
            .zip(starts)
            .enumerate()
            .for_each(|(chunk, ((table, counts), mut before))| {
                let first = chunk * CHUNK;
                let mut next_short = short.partition_point(|&s| s < first);
                before += next_short as u64;
                for (j, &count) in counts.iter().enumerate() {
                    while next_short < short.len() && short[next_short] <= first + j {
                        before += 1;
                        next_short += 1;
                    }
                    table[2 * j] = I::from_usize(before as usize);
                    before += count.into();
                    table[2 * j + 1] = I::from_usize(before as usize);
                }
            });
        table
    }
}

/// Checks a table read from a file: every interval `[lo, hi)` is one of `rows` rows.
/// `Err` says what is wrong.
pub fn check(jump: PositionSlice, rows: u64) -> Result<(), String> {
    // The width matched once, the pairs scanned in chunks (matched a value at a time,
    // the scan was a fifth of a chr20 index's load on one thread).
    fn outside<T: Copy + Into<u64> + Sync>(table: &[T], rows: u64) -> bool {
        table.par_chunks(1 << 16).any(|chunk| {
            chunk.chunks_exact(2).any(|pair| {
                let (lo, hi) = (pair[0].into(), pair[1].into());
                lo > hi || hi > rows
            })
        })
    }
    let bad = match jump {
        PositionSlice::U32(table) => outside(table, rows),
        PositionSlice::U64(table) => outside(table, rows),
    };
    if bad || !jump.len().is_multiple_of(2) {
        return Err("a k-mer's row interval lies outside the BWT".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::sa::PositionSlice;

    /// The table is checked in chunks: a bad interval in any of them is found, at both
    /// widths, and a table of odd length is refused.
    #[test]
    fn check_finds_a_bad_interval_in_any_chunk() {
        let rows = 1000u64;
        let good: Vec<u32> = (0..300_000u32)
            .map(|i| (i / 2) % 500 + (i % 2) * 400)
            .collect();
        assert!(check(PositionSlice::U32(&good), rows).is_ok());
        let wide: Vec<u64> = good.iter().map(|&v| v as u64).collect();
        assert!(check(PositionSlice::U64(&wide), rows).is_ok());
        // Past the rows (odd places: `hi`), or `lo` past `hi` (even places).
        for (at, value) in [(1, 1001), (70_001, 1001), (299_998, 999), (131_072, 1000)] {
            let (mut narrow, mut wide) = (good.clone(), wide.clone());
            narrow[at] = value as u32;
            wide[at] = value;
            assert!(
                check(PositionSlice::U32(&narrow), rows).is_err(),
                "{at} = {value}"
            );
            assert!(
                check(PositionSlice::U64(&wide), rows).is_err(),
                "{at} = {value}"
            );
        }
        assert!(check(PositionSlice::U32(&good[..299_999]), rows).is_err());
    }
}
