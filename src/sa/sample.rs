//! Ranks of the difference-cover sample ([`super::cover`]): the order of the sampled
//! suffixes among themselves, found by sorting them on their first [`PERIOD`] bases and
//! then by prefix doubling over the sample alone (steps `PERIOD`, `2 PERIOD`, ...: the
//! sample is closed under shifts by multiples of the period), refining only the groups
//! still unsorted, as Larsson-Sadakane do over the whole text. Long repeats cost a
//! logarithmic number of rounds over 12% of the suffixes.
//!
//! With these ranks, any two suffixes compare in at most `PERIOD` bases plus one rank
//! lookup ([`SampleRanks::compare`]), whatever repeats the text holds: the bounded
//! comparison that lets a part of the suffixes be sorted on its own.

use std::cmp::Ordering;

use rayon::prelude::*;

use super::cover::{Cover, PERIOD};
use super::keysort::{self, compare_bases, Keyed, KEY_BASES};
use super::SaIndex;
use crate::par::DisjointSlice;
use crate::reference::PackedText;

/// The sampled suffixes' ranks: `1..=m` in sorted order, 0 for the empty suffix.
pub struct SampleRanks<'t, I> {
    text: &'t PackedText,
    cover: Cover,
    /// By sample index.
    ranks: Vec<I>,
}

impl<'t, I: SaIndex> SampleRanks<'t, I> {
    /// Ranks the sampled suffixes of `text`.
    pub fn build(text: &'t PackedText) -> Self {
        let cover = Cover::new();
        let n = text.len();
        let mut keyed: Vec<Keyed> = cover
            .sampled_below(n)
            .map(|p| keysort::keyed(text, p))
            .collect();
        keysort::sort(&mut keyed, |a, b| {
            compare_bases(text, a, b, KEY_BASES, PERIOD)
        });
        let mut ranks = vec![I::default(); keyed.len()];
        let mut groups = initial_groups(text, &cover, &keyed, &mut ranks);
        let mut order: Vec<I> = keyed
            .into_iter()
            .map(|k| I::from_usize(keysort::position(k)))
            .collect();
        let mut h = PERIOD;
        while !groups.is_empty() {
            groups = refine(&cover, n, &mut order, &mut ranks, &groups, h);
            h = h.saturating_mul(2);
        }
        SampleRanks { text, cover, ranks }
    }

    /// Ranks computed elsewhere (the GPU): `ranks[i]` is the rank (`1..=m`) of the
    /// sampled suffix of sample index `i` among the sampled suffixes of `text`.
    pub fn from_ranks(text: &'t PackedText, ranks: Vec<I>) -> Self {
        let cover = Cover::new();
        assert_eq!(ranks.len(), cover.sampled_count(text.len()));
        SampleRanks { text, cover, ranks }
    }

    /// The ranks by sample index ([`Cover::sample_index`]).
    pub fn by_sample_index(&self) -> &[I] {
        &self.ranks
    }

    /// The cover whose sample is ranked.
    pub fn cover(&self) -> &Cover {
        &self.cover
    }

    /// The rank of the sampled suffix at `p` (0 for `p >= n`).
    #[inline]
    pub fn rank(&self, p: usize) -> usize {
        if p >= self.text.len() {
            0
        } else {
            self.ranks[self.cover.sample_index(p)].to_usize()
        }
    }

    /// The order of the suffixes at `a` and `b`: at most [`PERIOD`] bases, then the
    /// ranks of two sampled suffixes.
    #[inline]
    pub fn compare(&self, a: usize, b: usize) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        self.compare_from(a, b, 0)
    }

    /// [`SampleRanks::compare`] of two suffixes whose first `equal` bases are known to
    /// be equal.
    #[inline]
    pub fn compare_from(&self, a: usize, b: usize, equal: usize) -> Ordering {
        let d = self.cover.delta(a, b);
        let bases = if d > equal {
            compare_bases(self.text, a, b, equal, d)
        } else {
            Ordering::Equal
        };
        bases.then_with(|| self.rank(a + d).cmp(&self.rank(b + d)))
    }
}

/// Sets the ranks after the initial sort (a group's rank is 1 + its first index) and
/// returns the groups of equal `PERIOD`-base prefixes, as `(start, len)` in `sorted`.
fn initial_groups<I: SaIndex>(
    text: &PackedText,
    cover: &Cover,
    sorted: &[Keyed],
    ranks: &mut [I],
) -> Vec<(usize, usize)> {
    let m = sorted.len();
    let equal_to_previous: Vec<bool> = (0..m)
        .into_par_iter()
        .map(|i| {
            i > 0
                && keysort::same_key(sorted[i - 1], sorted[i])
                && compare_bases(
                    text,
                    keysort::position(sorted[i - 1]),
                    keysort::position(sorted[i]),
                    KEY_BASES,
                    PERIOD,
                ) == Ordering::Equal
        })
        .collect();
    let mut groups = Vec::new();
    let mut start = 0;
    for i in 1..=m {
        if i == m || !equal_to_previous[i] {
            for &k in &sorted[start..i] {
                ranks[cover.sample_index(keysort::position(k))] = I::from_usize(start + 1);
            }
            if i - start > 1 {
                groups.push((start, i - start));
            }
            start = i;
        }
    }
    groups
}

/// One doubling round at step `h`: each group is sorted by the rank of the suffix `h`
/// further on, then split; ranks change only after every key is read. Returns the
/// groups still unsorted.
fn refine<I: SaIndex>(
    cover: &Cover,
    n: usize,
    order: &mut [I],
    ranks: &mut [I],
    groups: &[(usize, usize)],
    h: usize,
) -> Vec<(usize, usize)> {
    let rank_at = |ranks: &[I], p: usize| {
        if p >= n {
            0
        } else {
            ranks[cover.sample_index(p)].to_usize()
        }
    };
    // Phase 1: sort each group by key; note where the keys change. Groups are disjoint
    // ranges of `order`, ascending.
    let mut slices = Vec::with_capacity(groups.len());
    let (mut rest, mut offset) = (&mut *order, 0);
    for &(start, len) in groups {
        let (_, tail) = std::mem::take(&mut rest).split_at_mut(start - offset);
        let (members, tail) = tail.split_at_mut(len);
        slices.push((start, members));
        (rest, offset) = (tail, start + len);
    }
    let ranks_now: &[I] = ranks;
    let splits: Vec<Vec<(usize, usize)>> = slices
        .into_par_iter()
        .map(|(start, members)| {
            let mut keyed: Vec<(usize, I)> = members
                .iter()
                .map(|&p| (rank_at(ranks_now, p.to_usize() + h), p))
                .collect();
            keyed.sort_unstable();
            let mut parts = Vec::new();
            let mut first = 0;
            for i in 1..=keyed.len() {
                if i == keyed.len() || keyed[i].0 != keyed[i - 1].0 {
                    parts.push((start + first, i - first));
                    first = i;
                }
            }
            for (slot, (_, p)) in members.iter_mut().zip(keyed) {
                *slot = p;
            }
            parts
        })
        .collect();
    // Phase 2: the new group heads become the ranks.
    let out = DisjointSlice::new(ranks);
    splits.par_iter().flatten().for_each(|&(start, len)| {
        for p in &order[start..start + len] {
            // SAFETY: each sampled suffix lies in one group.
            unsafe { out.write(cover.sample_index(p.to_usize()), I::from_usize(start + 1)) };
        }
    });
    splits
        .into_iter()
        .flatten()
        .filter(|&(_, len)| len > 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_codes;

    fn texts() -> Vec<Vec<u8>> {
        let copies = {
            let unit = random_codes(700, 5, 4);
            [unit.clone(), unit.clone(), unit].concat()
        };
        vec![
            vec![],
            vec![2],
            random_codes(3000, 6, 4),
            random_codes(5000, 7, 2),
            vec![0; 2000],
            [1u8, 3].repeat(900),
            [0u8, 1, 2, 3, 3, 2, 1].repeat(300),
            copies,
        ]
    }

    #[test]
    fn compare_orders_like_the_suffix_array() {
        for codes in texts() {
            let text = PackedText::from_codes(&codes);
            let sa: Vec<u32> = crate::sa::suffix_array(&text);
            let ranks = SampleRanks::<u32>::build(&text);
            for w in sa.windows(2) {
                let (a, b) = (w[0] as usize, w[1] as usize);
                assert_eq!(
                    ranks.compare(a, b),
                    Ordering::Less,
                    "len {} {a} {b}",
                    codes.len()
                );
                assert_eq!(ranks.compare(b, a), Ordering::Greater);
            }
            // Sampled ranks are the sampled suffixes' order.
            let cover = Cover::new();
            let sampled: Vec<u32> = sa
                .iter()
                .copied()
                .filter(|&p| cover.contains(p as usize))
                .collect();
            for (k, p) in sampled.iter().enumerate() {
                assert_eq!(ranks.rank(*p as usize), k + 1);
            }
        }
    }
}
