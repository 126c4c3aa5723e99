//! The bidirectional FM index: the FM index of the text beside the BWT/Occ of the
//! reversed text (its "mirror", as bowtie calls it), so that a match can be extended by
//! one base on either side (Lam et al. 2009, "2BWT"). The search schemes of the
//! k-mismatch search need it; exact search uses the forward index alone.
//!
//! A string `P` has one [`BiInterval`]: the forward rows of the suffixes that start with
//! `P` and, of the same size, the mirror rows of the reversed text's suffixes that start
//! with `P` reversed. Extending `P` to the left is a backward-search step on the forward
//! index; the mirror interval of `cP` starts after the mirror rows of every `sP` with
//! `s < c` (and of `P` at the text start, the sentinel's row), counted in the forward
//! interval. Extending to the right is the same with the roles swapped. The mirror
//! needs no sampled suffix array: positions are located through the forward index.

use super::{FmIndex, Occ};

/// The rows of one string in both indexes: forward `[lo, lo + size)`, mirror
/// `[mirror_lo, mirror_lo + size)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BiInterval {
    /// First forward row.
    pub lo: u64,
    /// First mirror row.
    pub mirror_lo: u64,
    /// Rows in each interval (occurrences of the string).
    pub size: u64,
}

/// The FM index of a text with the BWT/Occ of its reverse.
#[derive(Clone, Copy, Debug)]
pub struct Bidirectional<'a> {
    /// The FM index of the text (search, locate).
    pub forward: FmIndex<'a>,
    /// The BWT/Occ of the reversed text; its C array is the forward one (same bases).
    pub mirror: Occ<'a>,
}

impl Bidirectional<'_> {
    /// The interval of the empty string: every row.
    pub fn everything(&self) -> BiInterval {
        BiInterval {
            lo: 0,
            mirror_lo: 0,
            size: self.forward.c[4],
        }
    }

    /// The intervals of `cP` for `c` in A, C, G, T, where `interval` is that of `P`.
    #[inline]
    pub fn extend_left(&self, interval: BiInterval) -> [BiInterval; 4] {
        let steps = step(
            &self.forward.occ,
            &self.forward.c,
            interval.lo,
            interval.size,
        );
        steps.map(|(lo, size, before)| BiInterval {
            lo,
            mirror_lo: interval.mirror_lo + before,
            size,
        })
    }

    /// The intervals of `Pc` for `c` in A, C, G, T, where `interval` is that of `P`.
    #[inline]
    pub fn extend_right(&self, interval: BiInterval) -> [BiInterval; 4] {
        let steps = step(
            &self.mirror,
            &self.forward.c,
            interval.mirror_lo,
            interval.size,
        );
        steps.map(|(mirror_lo, size, before)| BiInterval {
            lo: interval.lo + before,
            mirror_lo,
            size,
        })
    }
}

/// One backward-search step from rows `[lo, lo + size)` of `occ`, for every symbol:
/// the new first row, the new size, and how many rows of the interval hold a smaller
/// BWT symbol (the sentinel is smaller than every base).
#[inline(always)]
fn step(occ: &Occ<'_>, c: &[u64; 5], lo: u64, size: u64) -> [(u64, u64, u64); 4] {
    let hi = lo + size;
    let (below, upto) = (occ.occ_all(lo), occ.occ_all(hi));
    let mut before = (lo..hi).contains(&occ.primary()) as u64;
    std::array::from_fn(|s| {
        let count = upto[s] - below[s];
        let out = (c[s] + below[s], count, before);
        before += count;
        out
    })
}

/// The forward and mirror FM indexes of a text, built in memory.
#[cfg(test)]
pub(crate) struct TestIndex {
    text: crate::reference::PackedText,
    mirror_text: crate::reference::PackedText,
    forward: super::FmParts,
    mirror: super::FmParts,
}

#[cfg(test)]
impl TestIndex {
    /// The indexes of `codes` (values 0..=3), sampling one position in `sample_rate`.
    pub(crate) fn new(codes: &[u8], sample_rate: u32) -> TestIndex {
        let text = crate::reference::PackedText::from_codes(codes);
        let mirror_text = text.reversed();
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let mirror_sa: Vec<u32> = crate::sa::suffix_array(&mirror_text);
        let forward = super::FmParts::build(&text, &sa, sample_rate);
        let mirror = super::FmParts::build(&mirror_text, &mirror_sa, sample_rate);
        TestIndex {
            text,
            mirror_text,
            forward,
            mirror,
        }
    }

    /// The bidirectional index.
    pub(crate) fn bidirectional(&self) -> Bidirectional<'_> {
        Bidirectional {
            forward: self.forward.view(&self.text),
            mirror: self.mirror.view(&self.mirror_text).occ,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TestIndex;
    use crate::test_support::random_codes;

    /// Rows `[lo, hi)` of the suffixes of `codes` (sentinel suffix first) starting with
    /// `pattern`.
    fn naive(codes: &[u8], pattern: &[u8]) -> (u64, u64) {
        let mut suffixes: Vec<&[u8]> = (0..=codes.len()).map(|p| &codes[p..]).collect();
        suffixes.sort();
        let lo = suffixes.partition_point(|s| *s < pattern);
        let hi = suffixes.partition_point(|s| *s < pattern || s.starts_with(pattern));
        (lo as u64, hi as u64)
    }

    #[test]
    fn extensions_either_way_give_both_intervals() {
        for (len, alphabet) in [(1, 4), (50, 1), (700, 2), (2000, 4)] {
            let codes = random_codes(len, 3 + len as u64, alphabet);
            let reversed: Vec<u8> = codes.iter().rev().copied().collect();
            let index = TestIndex::new(&codes, 8);
            let bi = index.bidirectional();
            for start in (0..len).step_by(37) {
                // Grow codes[start..start + 9] from its middle, alternating sides, with
                // a random base instead of the text's now and then.
                let mut pattern = vec![codes[start]];
                let mut interval = bi.extend_left(bi.everything())[codes[start] as usize];
                for i in 0..8u64 {
                    let s = ((start as u64 * 7 + i * 3) % 4) as u8;
                    if i % 2 == 0 {
                        interval = bi.extend_right(interval)[s as usize];
                        pattern.push(s);
                    } else {
                        interval = bi.extend_left(interval)[s as usize];
                        pattern.insert(0, s);
                    }
                    let rev: Vec<u8> = pattern.iter().rev().copied().collect();
                    let ((lo, hi), (mlo, mhi)) = (naive(&codes, &pattern), naive(&reversed, &rev));
                    assert_eq!(interval.size, hi - lo, "{pattern:?}");
                    assert_eq!(mhi - mlo, hi - lo);
                    if hi > lo {
                        assert_eq!((interval.lo, interval.mirror_lo), (lo, mlo), "{pattern:?}");
                    }
                }
            }
        }
    }
}
