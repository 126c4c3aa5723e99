//! Sorting a set of suffixes (a part, or the difference-cover sample): by their first 32
//! bases first, read once in text order into one `u64` key each, then each run of equal
//! keys by a comparison that starts after those 32 bases. Most suffixes of real DNA are
//! told apart by the key alone, and the random text reads of the comparisons are left
//! to the few that are not.

use std::cmp::Ordering;

use rayon::prelude::*;

use crate::reference::PackedText;

/// Bases in a key.
pub const KEY_BASES: usize = 32;
/// The position's bits in the second word of a keyed suffix (the bases present, at most
/// 32, sit above them).
const POSITION_BITS: u32 = 57;

/// A suffix with its sort key: its first 32 bases (padded with `A`), then how many of
/// them the text holds, then its position. Keyed suffixes order like the suffixes, but
/// for those that share all 32 bases.
pub type Keyed = (u64, u64);

/// The keyed suffix at `p`.
#[inline]
pub fn keyed(text: &PackedText, p: usize) -> Keyed {
    let present = (text.len() - p).min(KEY_BASES) as u64;
    (text.key64(p), present << POSITION_BITS | p as u64)
}

/// The position of a keyed suffix.
#[inline]
pub fn position(k: Keyed) -> usize {
    (k.1 & ((1 << POSITION_BITS) - 1)) as usize
}

/// Whether two keyed suffixes share their first 32 bases (both have them).
#[inline]
pub fn same_key(a: Keyed, b: Keyed) -> bool {
    a.0 == b.0
        && a.1 >> POSITION_BITS == KEY_BASES as u64
        && b.1 >> POSITION_BITS == KEY_BASES as u64
}

/// Runs of equal keys at least this long are sorted in parallel themselves.
const LARGE_RUN: usize = 1 << 16;

/// Sorts `suffixes` in suffix order; `then` orders two suffixes (positions) that share
/// their first 32 bases.
pub fn sort(suffixes: &mut [Keyed], then: impl Fn(usize, usize) -> Ordering + Sync) {
    suffixes.par_sort_unstable();
    // Chunks that end where a run of equal keys ends, each sorting its runs in turn: no
    // list of runs is kept (a repeat-rich part has about one run per two suffixes).
    let chunk = suffixes
        .len()
        .div_ceil(rayon::current_num_threads() * 8)
        .max(1 << 12);
    let mut chunks = Vec::new();
    let mut rest = suffixes;
    while !rest.is_empty() {
        let mut end = chunk.min(rest.len());
        while end < rest.len() && same_key(rest[end - 1], rest[end]) {
            end += 1;
        }
        let (mine, tail) = std::mem::take(&mut rest).split_at_mut(end);
        chunks.push(mine);
        rest = tail;
    }
    let by_then = |a: &Keyed, b: &Keyed| then(position(*a), position(*b));
    chunks.into_par_iter().for_each(|chunk| {
        let mut start = 0;
        for i in 1..=chunk.len() {
            if i < chunk.len() && same_key(chunk[i - 1], chunk[i]) {
                continue;
            }
            let run = &mut chunk[start..i];
            if run.len() >= LARGE_RUN {
                run.par_sort_unstable_by(by_then);
            } else if run.len() > 1 {
                run.sort_unstable_by(by_then);
            }
            start = i;
        }
    });
}

/// Compares the suffixes at `a` and `b` from base `from` (the bases before are equal)
/// up to base `to` (a suffix that ends first is the smaller); `Equal` when they agree
/// up to `to`.
pub fn compare_bases(text: &PackedText, a: usize, b: usize, from: usize, to: usize) -> Ordering {
    let n = text.len();
    let mut off = from;
    while off < to {
        let step = (to - off).min(KEY_BASES);
        let la = n.saturating_sub(a + off).min(step);
        let lb = n.saturating_sub(b + off).min(step);
        let m = la.min(lb);
        if m > 0 {
            let shift = 64 - 2 * m as u32;
            let (ka, kb) = (text.key64(a + off) >> shift, text.key64(b + off) >> shift);
            if ka != kb {
                return ka.cmp(&kb);
            }
        }
        if la != lb {
            return la.cmp(&lb);
        }
        if la < step {
            return Ordering::Equal; // both end here (then a == b)
        }
        off += step;
    }
    Ordering::Equal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_sort_with_a_full_comparison_gives_suffix_order() {
        let mut codes = vec![0u8; 100];
        codes.extend([1, 2, 3, 0].repeat(40));
        codes.extend(vec![0u8; 70]);
        let text = PackedText::from_codes(&codes);
        let want: Vec<u32> = crate::sa::suffix_array(&text);
        let mut keyed_all: Vec<Keyed> = (0..codes.len()).map(|p| keyed(&text, p)).collect();
        sort(&mut keyed_all, |a, b| {
            compare_bases(&text, a, b, KEY_BASES, usize::MAX / 2)
        });
        let got: Vec<u32> = keyed_all.iter().map(|&k| position(k) as u32).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn base_comparison_handles_the_text_end() {
        let text = PackedText::from_codes(&[0, 0, 0, 1, 0, 0]);
        assert_eq!(compare_bases(&text, 4, 0, 0, 10), Ordering::Less); // "AA" < "AAAC.."
        assert_eq!(compare_bases(&text, 0, 1, 0, 2), Ordering::Equal);
        assert_eq!(compare_bases(&text, 0, 1, 0, 3), Ordering::Less); // AAA < AAC
        assert_eq!(compare_bases(&text, 0, 1, 2, 3), Ordering::Less);
        assert_eq!(compare_bases(&text, 6, 5, 0, 5), Ordering::Less); // empty < "A"
    }
}
