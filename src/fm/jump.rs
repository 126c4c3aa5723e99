//! The k-mer jump table: the BWT row interval of every k-mer, so backward search starts
//! k steps in. Built from the k-mer counts, read off the suffix array (equal k-mers are
//! runs of rows), plus the k-1 suffixes shorter than k.
//!
//! Layout: `4^k + 1` values of the index's [`crate::sa::Width`]: entry `x` is the first
//! row of k-mer `x` (k-mers in lexicographic order), the last entry the number of rows.
//! K-mer `x`'s rows end where `x + 1`'s start, but for the suffixes shorter than k that
//! sort between them ([`ShortSuffixes`]: at most k-1 rows in the whole table, known
//! from the text's end), so one entry a k-mer is enough.

use rayon::prelude::*;

use crate::reference::{PackedRef, PackedText};
use crate::sa::{PositionSlice, SaIndex};

/// The largest k [`choose_k`] chooses.
pub const MAX_K: u32 = 13;

/// Chooses k for a text of `n` bases: a table of 8 bytes per k-mer (the two ends each
/// k-mer had up to format version 3, which fixed this choice) stays under about one
/// byte per base, k between 1 and [`MAX_K`] (13 for a human genome).
pub fn choose_k(n: usize) -> u32 {
    let mut k = 1;
    while k < MAX_K && 8usize << (2 * (k + 1)) <= n {
        k += 1;
    }
    k
}

/// The k-mers of length `k`.
pub fn kmers(k: u32) -> usize {
    1 << (2 * k)
}

/// The entries of the table of k-mers of length `k`: one a k-mer and the end.
pub fn entries(k: u32) -> usize {
    kmers(k) + 1
}

/// The text's suffixes shorter than k, as the jump table's intervals need them: each
/// sorts right before the first k-mer its A-padded code is not above (a suffix `s` sorts
/// before k-mer `x` exactly when `s` padded with A to k bases is `<= x`), so it lies
/// between k-mer `code - 1`'s last row and `code`'s first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShortSuffixes {
    /// The A-padded codes, sorted; `len` of them.
    codes: [u32; MAX_K as usize - 1],
    len: usize,
}

impl ShortSuffixes {
    /// Those of `text` for k-mers of length `k`.
    pub fn of(text: PackedRef<'_>, k: u32) -> ShortSuffixes {
        let n = text.len();
        let mut short = ShortSuffixes::default();
        let first = n.saturating_sub((k as usize).saturating_sub(1));
        for p in first..n {
            short.codes[short.len] = (text.key64(p) >> (64 - 2 * k)) as u32;
            short.len += 1;
        }
        short.codes[..short.len].sort_unstable();
        short
    }

    /// The A-padded codes, sorted.
    pub fn codes(&self) -> &[u32] {
        &self.codes[..self.len]
    }

    /// How many of them sort right before k-mer `code` (after k-mer `code - 1`).
    #[inline(always)]
    pub fn right_before(&self, code: usize) -> u64 {
        self.codes().iter().filter(|&&c| c as usize == code).count() as u64
    }
}

/// The rows `[lo, hi)` of k-mer `code` in `table`, whose text's short suffixes are
/// `short` (as `map_search` finds them on the GPU). A table built here or passed by
/// [`check`] leaves room for them: `hi >= lo`.
#[inline(always)]
pub fn rows(table: PositionSlice<'_>, short: &ShortSuffixes, code: usize) -> (u64, u64) {
    let lo = table.get(code);
    // Saturating and at least `lo`: a table written over while mapped (found at the end
    // of the run) gives wrong rows, never an overflow.
    let hi = table
        .get(code + 1)
        .saturating_sub(short.right_before(code + 1));
    (lo, hi.max(lo))
}

/// Builds the jump table, of rows of type `I`, from rows given in order, a run at a
/// time: the k-mer counts are read off the rows, the table is made from them at the end.
#[derive(Debug)]
pub struct JumpBuilder<I> {
    k: u32,
    /// Occurrences of each k-mer among the rows so far.
    counts: Vec<I>,
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

    /// The table, once every row of `text` has been pushed: k-mer `x` starts after the
    /// sentinel's row, the rows of the k-mers before it and the short suffixes that sort
    /// before it.
    pub fn finish(self, text: &PackedText) -> Vec<I> {
        let short = ShortSuffixes::of(text.as_ref(), self.k);
        // In chunks of k-mers at once: the rows before each chunk, then each chunk's.
        const CHUNK: usize = 1 << 16;
        let sums: Vec<u64> = self
            .counts
            .par_chunks(CHUNK)
            .map(|counts| counts.iter().map(|&c| c.into()).sum())
            .collect();
        let starts: Vec<u64> = sums
            .iter()
            .scan(1u64, |before, &sum| {
                let start = *before;
                *before += sum;
                Some(start)
            })
            .collect();
        let mut table = vec![I::default(); entries(self.k)];
        let end = text.len() + 1;
        table[kmers(self.k)] = I::from_usize(end);
        table[..kmers(self.k)]
            .par_chunks_mut(CHUNK)
            .zip(self.counts.par_chunks(CHUNK))
            .zip(starts)
            .enumerate()
            .for_each(|(chunk, ((table, counts), mut before))| {
                let first = chunk * CHUNK;
                let codes = short.codes();
                let mut next_short = codes.partition_point(|&c| (c as usize) < first);
                before += next_short as u64;
                for (j, (entry, &count)) in table.iter_mut().zip(counts).enumerate() {
                    while next_short < codes.len() && codes[next_short] as usize <= first + j {
                        before += 1;
                        next_short += 1;
                    }
                    *entry = I::from_usize(before as usize);
                    before += count.into();
                }
            });
        table
    }
}

/// Checks a table read from a file, for a text whose short suffixes are `short`: the
/// entries rise to `rows` (the last one), and no k-mer's interval ends before it
/// starts. `Err` says what is wrong.
pub fn check(jump: PositionSlice, short: &ShortSuffixes, rows: u64) -> Result<(), String> {
    // The width matched once, the entries scanned in chunks (matched a value at a time,
    // the scan was a fifth of a chr20 index's load on one thread).
    fn rising<T: Copy + Into<u64> + Sync>(table: &[T]) -> bool {
        table
            .par_windows(2)
            .with_min_len(1 << 16)
            .all(|w| w[0].into() <= w[1].into())
    }
    let ok = match jump {
        PositionSlice::U32(table) => rising(table),
        PositionSlice::U64(table) => rising(table),
    };
    let len = jump.len();
    // Each short suffix's rows fit between its k-mer and the one before (the sentinel's
    // row before k-mer 0).
    let room = |&code: &u32| {
        let code = code as usize;
        let before = |code| if code == 0 { 1 } else { jump.get(code - 1) };
        code < len && jump.get(code) >= before(code) + short.right_before(code)
    };
    if !ok || len < 2 || jump.get(len - 1) != rows || !short.codes().iter().all(room) {
        return Err("a k-mer's row interval lies outside the BWT".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{check, entries, JumpBuilder, ShortSuffixes};
    use crate::fm::Rows;
    use crate::reference::PackedText;
    use crate::sa::PositionSlice;
    use crate::test_support::random_codes;

    /// The table is checked in chunks: a falling entry in any of them is found, at both
    /// widths, as are a wrong end, a table too short and a short suffix given no room.
    #[test]
    fn check_finds_a_bad_table_anywhere() {
        // k = 9 (262,145 entries, several chunks); the text ends in CAA, so that two short
        // suffixes (A, AA) pad to code 0 and one (CAA) to a code past it.
        let mut codes = random_codes(40_000, 3, 4);
        codes.extend([1, 0, 0]);
        let text = PackedText::from_codes(&codes);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let k = 9;
        let mut builder = JumpBuilder::new(k);
        builder.add_runs(&Rows::with_kmer_runs(&text, 16, &sa, k).1);
        let good: Vec<u32> = builder.finish(&text);
        assert_eq!(good.len(), entries(k));
        let short = ShortSuffixes::of(text.as_ref(), k);
        let rows = codes.len() as u64 + 1;
        assert!(check(PositionSlice::U32(&good), &short, rows).is_ok());
        let wide: Vec<u64> = good.iter().map(|&v| v as u64).collect();
        assert!(check(PositionSlice::U64(&wide), &short, rows).is_ok());
        let gap = short.codes().iter().copied().find(|&c| c > 0).unwrap() as usize;
        let mut bad: Vec<(usize, u64)> = [10, 70_001, 200_000, 262_143]
            .iter()
            .map(|&at| (at, good[at + 1] as u64 + 1))
            .collect();
        bad.extend([
            (262_144, rows - 1),
            (262_144, rows + 1),
            (gap, good[gap - 1] as u64),
        ]);
        for (at, value) in bad {
            let (mut narrow, mut wide) = (good.clone(), wide.clone());
            narrow[at] = value as u32;
            wide[at] = value;
            assert!(
                check(PositionSlice::U32(&narrow), &short, rows).is_err(),
                "{at}"
            );
            assert!(
                check(PositionSlice::U64(&wide), &short, rows).is_err(),
                "{at}"
            );
        }
        assert!(check(PositionSlice::U32(&good[..1]), &short, rows).is_err());
    }
}
