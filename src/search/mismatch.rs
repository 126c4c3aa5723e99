//! k-mismatch search on the CPU: every text position where a read (2-bit codes; any
//! other code, such as an `N`, mismatches every base) occurs with at most `k`
//! mismatches, found losslessly by the searches of a scheme ([`super::schemes`]) over
//! the bidirectional index, depth first.
//!
//! Each step extends the match by one base on the side its plan says, for all four
//! bases at once (one Occ read per interval end), and follows the children whose
//! mismatches stay within the step's bounds. Once an interval holds a single row, the
//! rest of the read is compared with the text at that row's position instead
//! ([`mismatches_at`]): any position within `k` mismatches is a hit, whichever branch
//! reached it, so this keeps the search lossless and spares the remaining steps. A
//! position can therefore be reported more than once (by several searches or
//! branches); callers sort and deduplicate.

use super::schemes::{plan, searches, Step};
use crate::fm::{BiInterval, Bidirectional};
use crate::reference::PackedRef;

/// Mismatches between `codes` and the text at `start`, counting stops once `limit` is
/// passed (`limit + 1` is then returned); a read past the text's end never matches.
pub fn mismatches_at(text: PackedRef<'_>, start: usize, codes: &[u8], limit: u8) -> u8 {
    if start + codes.len() > text.len() {
        return limit + 1;
    }
    let mut found = 0;
    for (i, &c) in codes.iter().enumerate() {
        if text.get(start + i) != c {
            found += 1;
            if found > limit {
                break;
            }
        }
    }
    found
}

/// log4 of `text_len`, rounded up: random strings this long are mostly unique in a text
/// of `text_len` bases (what picks the scheme, [`super::schemes::scheme_for`]).
pub fn unique_len(text_len: usize) -> usize {
    (65 - text_len.leading_zeros() as usize) / 2
}

/// Reusable plans of [`occurrences`] (they depend only on k, the read length and the
/// text length).
#[derive(Clone, Debug, Default)]
pub struct Plans {
    key: Option<(u8, usize, usize)>,
    steps: Vec<Vec<Step>>,
}

impl Plans {
    /// The steps of every search of the scheme for `k` mismatches and `len` bases in a
    /// text where strings of `unique_len` bases are mostly unique.
    fn get(&mut self, k: u8, len: usize, unique_len: usize) -> &[Vec<Step>] {
        if self.key != Some((k, len, unique_len)) {
            self.steps = searches(k, len, unique_len)
                .iter()
                .map(|search| {
                    let mut steps = Vec::new();
                    plan(search, len, &mut steps);
                    steps
                })
                .collect();
            self.key = Some((k, len, unique_len));
        }
        &self.steps
    }
}

/// Appends to `out` the text position of every occurrence of `codes` (not empty) with
/// at most `k` mismatches (`k` at most [`super::schemes::MAX_MISMATCHES`]), possibly
/// more than once each, in no particular order.
pub fn occurrences(
    index: &Bidirectional<'_>,
    codes: &[u8],
    k: u8,
    plans: &mut Plans,
    out: &mut Vec<u64>,
) {
    let unique_len = unique_len(index.forward.text.len());
    for steps in plans.get(k, codes.len(), unique_len) {
        let mut walk = Walk {
            index,
            codes,
            steps,
            k,
            out,
        };
        walk.step(0, index.everything(), 0);
    }
}

/// One search's depth-first walk.
struct Walk<'w, 'a> {
    index: &'w Bidirectional<'a>,
    codes: &'w [u8],
    steps: &'w [Step],
    k: u8,
    out: &'w mut Vec<u64>,
}

impl Walk<'_, '_> {
    /// Goes on from step `t` with the interval of the part matched so far, which has
    /// `errors` mismatches.
    fn step(&mut self, t: usize, interval: BiInterval, errors: u8) {
        if t == self.steps.len() {
            let fm = &self.index.forward;
            let rows = interval.lo..interval.lo + interval.size;
            self.out.extend(rows.map(|row| fm.locate(row)));
            return;
        }
        if interval.size == 1 && t > 0 {
            self.verify(interval.lo, self.steps[t - 1].first as u64);
            return;
        }
        let step = self.steps[t];
        let children = if step.right {
            self.index.extend_right(interval)
        } else {
            self.index.extend_left(interval)
        };
        let want = self.codes[step.pos as usize];
        for (base, child) in children.into_iter().enumerate() {
            let errors = errors + (base as u8 != want) as u8;
            if child.size > 0 && (step.lower..=step.upper).contains(&errors) {
                self.step(t + 1, child, errors);
            }
        }
    }

    /// Reports the read's start when the text at forward row `row` (where read position
    /// `first` lies) holds the whole read within `k` mismatches.
    fn verify(&mut self, row: u64, first: u64) {
        let fm = &self.index.forward;
        let Some(start) = fm.locate(row).checked_sub(first) else {
            return;
        };
        if mismatches_at(fm.text, start as usize, self.codes, self.k) <= self.k {
            self.out.push(start);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fm::TestIndex;
    use crate::test_support::random_codes;

    fn brute_force(text: &[u8], read: &[u8], k: u8) -> Vec<u64> {
        (0..=text.len().saturating_sub(read.len()))
            .filter(|&p| p + read.len() <= text.len())
            .filter(|&p| {
                let found = read.iter().zip(&text[p..]).filter(|(a, b)| a != b).count();
                found <= k as usize
            })
            .map(|p| p as u64)
            .collect()
    }

    #[test]
    fn finds_what_brute_force_finds() {
        for (len, alphabet, seed) in [(3000, 4, 1), (2000, 2, 2), (500, 1, 3), (40, 4, 4)] {
            let codes = random_codes(len, seed, alphabet);
            let index = TestIndex::new(&codes, 4);
            let bi = index.bidirectional();
            let mut plans = Plans::default();
            let noise = random_codes(4000, seed + 10, 4);
            for i in 0..120 {
                let read_len = [1, 2, 3, 4, 5, 7, 12, 25, 40][i % 9].min(len);
                let start = (i * 131) % (len - read_len + 1);
                let mut read = codes[start..start + read_len].to_vec();
                // Mutate up to 4 positions, sometimes into an N (code 4).
                for m in 0..(i % 5) {
                    let at = noise[i * 5 + m] as usize * 7 % read_len;
                    read[at] = if m == 3 { 4 } else { noise[i * 7 + m] };
                }
                for k in 0..=3 {
                    let mut got = Vec::new();
                    occurrences(&bi, &read, k, &mut plans, &mut got);
                    got.sort_unstable();
                    got.dedup();
                    assert_eq!(got, brute_force(&codes, &read, k), "read {read:?} k {k}");
                }
            }
        }
    }
}
