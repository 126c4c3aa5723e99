//! The FM index: BWT with Occ checkpoints, the C array, a sampled suffix array and a
//! k-mer jump table, with backward search and locate.
//!
//! Rows are those of the suffix array of `text + sentinel`: row 0 is the sentinel's
//! suffix, rows `1..=n` are the suffix array built by [`crate::sa`].

pub mod bidir;
mod builder;
mod interleaved;
pub mod jump;
mod locating;
pub mod occ;
pub mod sampled_sa;

use crate::reference::{PackedRef, PackedText};
use crate::sa::{PositionSlice, Positions, SaIndex, Width};
#[cfg(test)]
pub(crate) use bidir::TestIndex;
pub use bidir::{BiInterval, Bidirectional};
pub use builder::{rows_every, symbol_starts, FmBuilder, Rows, SYMBOL};
pub use locating::{Checked, Locating};
pub use occ::Occ;
pub use sampled_sa::SAMPLED;
pub use sampled_sa::{SampledSa, SampledSaParts};

/// Default suffix-array sampling rate (one position in 16 kept).
pub const DEFAULT_SAMPLE_RATE: u32 = 16;

/// The owned arrays of an FM index, as built and as written to disk. Positions and rows
/// (sampled suffix array, jump table) are of one [`Width`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FmParts {
    /// Text length (the BWT has `n + 1` rows).
    pub n: u64,
    /// Row whose BWT symbol is the sentinel.
    pub primary: u64,
    /// `c[s]`: first row of suffixes starting with symbol `s`; `c[4] = n + 1`.
    pub c: [u64; 5],
    /// Interleaved BWT and Occ blocks.
    pub occ: Vec<u64>,
    /// Sampled suffix array.
    pub sampled: SampledSaParts,
    /// Sampling rate of `sampled`.
    pub sample_rate: u32,
    /// k of the jump table.
    pub k: u32,
    /// Jump table: the first row of each k-mer, then the end (`jump`'s layout).
    pub jump: Positions,
    /// The text positions of rows `i, 2i, 3i, ...` up to `n`, for the row interval `i`
    /// of [`Keep::EveryRow`] (bwa's `.sa`), collected as the rows stream by; empty for
    /// the other builds.
    pub row_samples: Vec<u64>,
}

/// The lengths (in elements) of the arrays of the FM index of a text of `n` bases sampled
/// every `rate` positions, known before the index is built: the CPU builders' formulas,
/// from which the GPU builder sizes its arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lengths {
    /// Words of the BWT/Occ blocks.
    pub occ: usize,
    /// Words of the sampled-row bits.
    pub sampled_bits: usize,
    /// Rank entries of the sampled rows.
    pub sampled_ranks: usize,
    /// Sampled positions.
    pub sampled_positions: usize,
    /// k of the jump table.
    pub k: u32,
    /// Entries of the jump table.
    pub jump: usize,
}

impl Lengths {
    /// The lengths for `n` bases sampled every `rate`.
    pub fn of(n: usize, rate: u32) -> Lengths {
        let rows = n + 1;
        let k = jump::choose_k(n);
        Lengths {
            occ: occ::block_words(rows),
            sampled_bits: sampled_sa::bit_words(rows),
            sampled_ranks: sampled_sa::rank_entries(rows),
            sampled_positions: sampled_sa::sampled_positions(n, rate),
            k,
            jump: jump::entries(k),
        }
    }
}

/// What an FM-index build keeps besides the BWT/Occ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The suffix array sampled every `.0` positions and the k-mer jump table: an index
    /// that searches and locates.
    Locate(u32),
    /// Nothing more: the mirror index of the k-mismatch search, whose hits are located
    /// through the forward index.
    OccOnly,
    /// The text positions of every `.0`-th row (rows `.0`, `2 * .0`, ... up to `n`,
    /// [`FmParts::row_samples`]), taken from the suffix array as its rows are built, and
    /// neither the sampled suffix array nor the jump table: bwa's `.sa` (interval 32).
    EveryRow(u32),
}

impl Keep {
    /// The sampling rate a build derives with: the one asked for, or for
    /// [`Keep::OccOnly`] the sparsest, whose sampled suffix array is the cheapest to make
    /// where a builder makes it before dropping it.
    pub fn sample_rate(self) -> u32 {
        match self {
            Keep::Locate(rate) => rate,
            Keep::OccOnly | Keep::EveryRow(_) => 1024,
        }
    }

    /// The row interval of [`Keep::EveryRow`]; 0 (no row kept) for the others.
    pub fn row_interval(self) -> u64 {
        match self {
            Keep::EveryRow(interval) => u64::from(interval),
            _ => 0,
        }
    }
}

impl FmParts {
    /// Derives every FM-index structure from the text and its suffix array; the index's
    /// positions are of the suffix array's type.
    pub fn build<I: SaIndex>(text: &PackedText, sa: &[I], sample_rate: u32) -> FmParts {
        assert_eq!(sa.len(), text.len());
        let mut builder = FmBuilder::new(text, sample_rate);
        builder.push(sa);
        builder.finish()
    }

    /// Bytes of the arrays held on the heap.
    pub fn heap_bytes(&self) -> u64 {
        let s = &self.sampled;
        let arrays = [&s.ranks, &s.positions, &self.jump];
        let positions: usize = arrays.iter().map(|a| a.as_slice().as_bytes().len()).sum();
        (8 * (self.occ.len() + s.bits.len() + self.row_samples.len()) + positions) as u64
    }

    /// The width of the positions and rows (that of the jump table, which every index
    /// has until [`FmParts::drop_locate_and_jump`]).
    pub fn width(&self) -> Width {
        self.jump.as_slice().width()
    }

    /// Frees the sampled suffix array and the jump table, keeping the BWT/Occ (all a
    /// mirror index needs: [`Keep::OccOnly`]).
    pub fn drop_locate_and_jump(&mut self) {
        self.sampled = SampledSaParts::default();
        self.jump = Positions::default();
    }

    /// A borrowed view for searching `text`, the text these arrays were built from.
    pub fn view<'a>(&'a self, text: &'a PackedText) -> FmIndex<'a> {
        FmIndex {
            text: text.as_ref(),
            occ: Occ::new(&self.occ, self.n + 1, self.primary),
            c: self.c,
            sampled: self.sampled.view(self.sample_rate),
            k: self.k,
            jump: self.jump.as_slice(),
            short: jump::ShortSuffixes::of(text.as_ref(), self.k),
        }
    }
}

/// A searchable FM index over borrowed (for example memory-mapped) arrays.
#[derive(Clone, Copy, Debug)]
pub struct FmIndex<'a> {
    /// The text, to finish a search whose interval has narrowed to one row.
    pub text: PackedRef<'a>,
    /// BWT and Occ.
    pub occ: Occ<'a>,
    /// First row of each symbol's suffixes; `c[4]` is the number of rows.
    pub c: [u64; 5],
    /// Sampled suffix array.
    pub sampled: SampledSa<'a>,
    /// k of the jump table.
    pub k: u32,
    /// Jump table.
    pub jump: PositionSlice<'a>,
    /// The text's suffixes shorter than k, which the jump table's intervals leave out.
    pub short: jump::ShortSuffixes,
}

/// The jump-table code of a k-mer (2-bit codes, the first base in the high bits).
fn kmer_code(kmer: &[u8]) -> usize {
    kmer.iter().fold(0usize, |acc, &b| acc << 2 | b as usize)
}

impl FmIndex<'_> {
    /// Checks the values that searching uses as rows or positions, for arrays read from
    /// outside (a file, part files): the Occ counts against the C array, the jump table's
    /// intervals and the sampled suffix array. `Err` says what is wrong.
    pub fn check(&self) -> Result<(), String> {
        self.occ.check(&self.c)?;
        jump::check(self.jump, &self.short, self.occ.rows())?;
        self.sampled.check(self.text.len() as u64)
    }

    /// The rows `[lo, hi)` of the suffixes that start with the k-mer of code `code`
    /// ([`kmer_code`]), from the jump table.
    #[inline]
    pub fn jump_rows(&self, code: usize) -> (u64, u64) {
        jump::rows(self.jump, &self.short, code)
    }

    /// Asks for the jump-table entry that [`FmIndex::jump_rows`] reads for `code`.
    #[inline]
    pub fn prefetch_jump(&self, code: usize) {
        interleaved::prefetch_value(self.jump, code);
    }

    /// The row interval `[lo, hi)` of suffixes starting with `pattern` (2-bit codes);
    /// empty when `lo == hi`. The empty pattern matches every row.
    pub fn search(&self, pattern: &[u8]) -> (u64, u64) {
        let k = self.k as usize;
        let (mut lo, mut hi, rest) = if pattern.len() >= k {
            let (lo, hi) = self.jump_rows(kmer_code(&pattern[pattern.len() - k..]));
            (lo, hi, &pattern[..pattern.len() - k])
        } else {
            (0, self.c[4], pattern)
        };
        for &s in rest.iter().rev() {
            if lo >= hi {
                break;
            }
            lo = self.c[s as usize] + self.occ.occ(s, lo);
            hi = self.c[s as usize] + self.occ.occ(s, hi);
        }
        (lo, hi.max(lo))
    }

    /// Appends the text position of every occurrence of `pattern` (2-bit codes) to `out`,
    /// in row order. Once the interval narrows to one row, the rest of the pattern is
    /// compared with the text at that row's position instead of searched further.
    pub fn occurrences(&self, pattern: &[u8], out: &mut Vec<u64>) {
        let k = self.k as usize;
        let (mut lo, mut hi, mut left) = if pattern.len() >= k {
            let (lo, hi) = self.jump_rows(kmer_code(&pattern[pattern.len() - k..]));
            (lo, hi, pattern.len() - k)
        } else {
            (0, self.c[4], pattern.len())
        };
        while left > 0 && hi > lo + 1 {
            let s = pattern[left - 1];
            lo = self.c[s as usize] + self.occ.occ(s, lo);
            hi = self.c[s as usize] + self.occ.occ(s, hi);
            left -= 1;
        }
        if hi <= lo {
            return;
        }
        if left == 0 {
            out.extend((lo..hi).map(|row| self.locate(row)));
            return;
        }
        let pos = self.locate(lo) as usize;
        if pos >= left && self.text.matches_at(pos - left, &pattern[..left]) {
            out.push((pos - left) as u64);
        }
    }

    /// LF mapping: the row of the suffix one position earlier in the text.
    #[inline(always)]
    pub fn lf(&self, row: u64) -> u64 {
        let s = self.occ.symbol(row);
        self.c[s as usize] + self.occ.occ(s, row)
    }

    /// The text position of the suffix at `row`. A sampled row is at most `rate - 1`
    /// LF steps away; in an index whose marks lie (forged: the load checks cannot prove
    /// them) the walk stops after `rate` steps at the text's length, where no hit lies.
    pub fn locate(&self, mut row: u64) -> u64 {
        for steps in 0..u64::from(self.sampled.rate) {
            if let Some(p) = self.sampled.get(row) {
                return p + steps;
            }
            row = self.lf(row);
        }
        self.text.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_codes;

    fn naive_rows(codes: &[u8], pattern: &[u8]) -> (u64, u64) {
        let mut suffixes: Vec<&[u8]> = (0..=codes.len()).map(|p| &codes[p..]).collect();
        suffixes.sort();
        let lo = suffixes.partition_point(|s| *s < pattern);
        let hi = suffixes.partition_point(|s| *s < pattern || s.starts_with(pattern));
        (lo as u64, hi as u64)
    }

    fn naive_positions(codes: &[u8], pattern: &[u8]) -> Vec<u64> {
        (0..=codes.len().saturating_sub(pattern.len()))
            .filter(|&p| {
                p + pattern.len() <= codes.len() && codes[p..p + pattern.len()] == *pattern
            })
            .map(|p| p as u64)
            .collect()
    }

    #[test]
    fn search_locate_occ_and_jump_agree_with_naive() {
        for (len, alphabet) in [
            (1, 4),
            (2, 4),
            (5, 1),
            (300, 4),
            (1000, 2),
            (5000, 4),
            (777, 1),
        ] {
            let codes = random_codes(len, len as u64, alphabet);
            let text = PackedText::from_codes(&codes);
            let sa: Vec<u32> = crate::sa::suffix_array(&text);
            for rate in [1, 3, 16] {
                let parts = FmParts::build(&text, &sa, rate);
                let fm = parts.view(&text);
                // Occ against naive counting over the BWT.
                let bwt: Vec<Option<u8>> = (0..=len)
                    .map(|row| {
                        let p = if row == 0 { len } else { sa[row - 1] as usize };
                        (p > 0).then(|| codes[p - 1])
                    })
                    .collect();
                for i in 0..=len + 1 {
                    for s in 0..4u8 {
                        let naive = bwt[..i.min(len + 1)]
                            .iter()
                            .filter(|&&b| b == Some(s))
                            .count() as u64;
                        assert_eq!(fm.occ.occ(s, i as u64), naive, "occ({s},{i}) len {len}");
                        assert_eq!(fm.occ.occ_all(i as u64)[s as usize], naive);
                    }
                }
                // Locate every row.
                for row in 1..=len {
                    assert_eq!(fm.locate(row as u64), sa[row - 1] as u64);
                }
                // Jump table and search for patterns that occur and that may not.
                for plen in 0..12.min(len + 2) {
                    for start in (0..len.saturating_sub(plen)).step_by(97) {
                        let pat = &codes[start..start + plen];
                        assert_eq!(fm.search(pat), naive_rows(&codes, pat));
                        let mut found = Vec::new();
                        fm.occurrences(pat, &mut found);
                        found.sort_unstable();
                        assert_eq!(
                            found,
                            naive_positions(&codes, pat),
                            "occurrences of {pat:?}"
                        );
                    }
                    let pat = random_codes(plen, 99 + plen as u64, 4);
                    let mut found = Vec::new();
                    fm.occurrences(&pat, &mut found);
                    found.sort_unstable();
                    assert_eq!(
                        found,
                        naive_positions(&codes, &pat),
                        "occurrences of {pat:?}"
                    );
                    let (lo, hi) = fm.search(&pat);
                    let (nlo, nhi) = naive_rows(&codes, &pat);
                    assert_eq!(hi - lo, nhi - nlo, "pattern {pat:?}");
                    if hi > lo {
                        assert_eq!((lo, hi), (nlo, nhi));
                    }
                }
            }
        }
    }

    #[test]
    fn jump_table_matches_naive_intervals() {
        let codes = random_codes(3000, 7, 4);
        let text = PackedText::from_codes(&codes);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        for k in [1, 2, 3, 4, 5, 9] {
            let mut builder = jump::JumpBuilder::new(k);
            builder.add_runs(&Rows::with_kmer_runs(&text, 16, &sa, k).1);
            let table = builder.finish(&text);
            let kmers = 1usize << (2 * k);
            // Every k-mer where there are few; else a sample, the k-mers around the
            // A-padded codes of the short suffixes, and those around the 2^16-k-mer
            // chunks the table is made in.
            let padded = |p: usize| (text.key64(p) >> (64 - 2 * k)) as usize;
            let mut xs: Vec<usize> = (0..kmers).step_by(if k > 5 { 97 } else { 1 }).collect();
            for p in 3000 - k as usize..3000 {
                xs.extend([padded(p).saturating_sub(1), padded(p), padded(p) + 1]);
            }
            xs.extend((1 << 16..kmers).step_by(1 << 16).flat_map(|c| [c - 1, c]));
            xs.retain(|&x| x < kmers);
            for x in xs {
                let pat: Vec<u8> = (0..k).rev().map(|i| (x >> (2 * i) & 3) as u8).collect();
                let (lo, hi) = naive_rows(&codes, &pat);
                let short = jump::ShortSuffixes::of(text.as_ref(), k);
                assert_eq!(
                    jump::rows(PositionSlice::U32(&table), &short, x),
                    (lo, hi),
                    "k {k} kmer {pat:?}"
                );
            }
        }
    }
}
