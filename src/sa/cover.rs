//! A difference cover modulo [`PERIOD`]: a set D of residues such that every residue is
//! a difference of two members. For any two positions i and j there is then a
//! `delta < PERIOD` with both `i + delta` and `j + delta` in the sample (positions whose
//! residue is in D), so two suffixes are ordered by at most `delta` bases and one
//! comparison of sampled ranks (the idea behind DC3 and its generalisations; see
//! `wang-baxter-owens-2016-...` in the seed papers).
//!
//! D = {0, 1, ..., 15} ∪ {16, 32, ..., 240}: 31 of 256 residues (a 12% sample). It is a
//! cover: `16q + r` (0 <= r < 16) is `16(q + 1) - (16 - r)`, both terms in D (mod 256).

/// The period of the cover: two suffixes are compared over at most this many bases
/// before their sampled ranks decide.
pub const PERIOD: usize = 256;
/// Residues `0..SIDE` and the multiples of `SIDE` are in the cover.
const SIDE: usize = 16;
/// No sample slot (a residue outside the cover).
const NONE: u8 = u8::MAX;

/// The cover and its lookup tables.
#[derive(Clone, Debug)]
pub struct Cover {
    /// `slot[r]`: the index of residue `r` among the cover's members, or [`NONE`].
    slot: [u8; PERIOD],
    /// Members, ascending.
    members: Vec<usize>,
    /// `delta[(i % PERIOD) * PERIOD + j % PERIOD]`: the smallest shift that puts both
    /// positions in the sample.
    delta: Vec<u8>,
}

impl Default for Cover {
    fn default() -> Self {
        Cover::new()
    }
}

impl Cover {
    /// Builds the tables.
    pub fn new() -> Cover {
        let members: Vec<usize> = (0..PERIOD).filter(|&r| r < SIDE || r % SIDE == 0).collect();
        let mut slot = [NONE; PERIOD];
        for (k, &r) in members.iter().enumerate() {
            slot[r] = k as u8;
        }
        let delta = (0..PERIOD * PERIOD)
            .map(|ij| {
                let (i, j) = (ij / PERIOD, ij % PERIOD);
                (0..PERIOD)
                    .find(|d| slot[(i + d) % PERIOD] != NONE && slot[(j + d) % PERIOD] != NONE)
                    .expect("D is a difference cover") as u8
            })
            .collect();
        Cover {
            slot,
            members,
            delta,
        }
    }

    /// Whether position `p` is in the sample.
    #[inline]
    pub fn contains(&self, p: usize) -> bool {
        self.slot[p % PERIOD] != NONE
    }

    /// The index of sampled position `p` among the sampled positions, in text order.
    #[inline]
    pub fn sample_index(&self, p: usize) -> usize {
        debug_assert!(self.contains(p));
        p / PERIOD * self.members.len() + self.slot[p % PERIOD] as usize
    }

    /// The sampled positions below `n`, ascending.
    pub fn sampled_below(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        (0..n.div_ceil(PERIOD)).flat_map(move |q| {
            self.members
                .iter()
                .map(move |&r| q * PERIOD + r)
                .filter(move |&p| p < n)
        })
    }

    /// Number of sampled positions below `n` (what [`Cover::sampled_below`] yields).
    pub fn sampled_count(&self, n: usize) -> usize {
        let partial = self.members.iter().filter(|&&r| r < n % PERIOD).count();
        n / PERIOD * self.members.len() + partial
    }

    /// Number of residues in the cover (sampled positions per period).
    pub fn members(&self) -> usize {
        self.members.len()
    }

    /// `slot[r]`: the index of residue `r` among the members, or 255 for a residue
    /// outside the cover (the table the GPU kernels use).
    pub fn slot_table(&self) -> &[u8; PERIOD] {
        &self.slot
    }

    /// `delta[i * PERIOD + j]` for residues `i`, `j` (the table the GPU kernels use).
    pub fn delta_table(&self) -> &[u8] {
        &self.delta
    }

    /// The smallest `d` with `i + d` and `j + d` both sampled (`d < PERIOD`).
    #[inline]
    pub fn delta(&self, i: usize, j: usize) -> usize {
        self.delta[(i % PERIOD) * PERIOD + j % PERIOD] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampled_count_counts_the_sampled_positions() {
        let cover = Cover::new();
        for n in [0, 1, 2, 15, 16, 17, 255, 256, 257, 1000, 5 * PERIOD + 129] {
            assert_eq!(
                cover.sampled_count(n),
                cover.sampled_below(n).count(),
                "n = {n}"
            );
        }
    }

    #[test]
    fn every_pair_meets_in_the_sample_within_a_period() {
        let cover = Cover::new();
        assert_eq!(cover.members.len(), 31);
        for i in 0..PERIOD {
            for j in 0..PERIOD {
                let d = cover.delta(i + 1000 * PERIOD, j + 7 * PERIOD);
                assert!(d < PERIOD);
                assert!(
                    cover.contains(i + d) && cover.contains(j + d),
                    "{i} {j} {d}"
                );
                assert!((0..d).all(|e| !(cover.contains(i + e) && cover.contains(j + e))));
            }
        }
    }

    #[test]
    fn sample_indexes_are_dense_in_text_order() {
        let cover = Cover::new();
        let sampled: Vec<usize> = cover.sampled_below(3 * PERIOD + 20).collect();
        assert_eq!(sampled.len(), 3 * 31 + 16 + 1);
        for (k, &p) in sampled.iter().enumerate() {
            assert_eq!(cover.sample_index(p), k);
        }
        assert_eq!(
            sampled,
            (0..3 * PERIOD + 20)
                .filter(|&p| cover.contains(p))
                .collect::<Vec<_>>()
        );
    }
}
