//! Choosing the primary hit of a read or a pair, deterministically: by a hash of the
//! read name, never by thread or batch, among the hits of the best stratum (the fewest
//! mismatches). Pairs prefer a concordant combination (same contig, an orientation and
//! insert size within the run's [`ProperBounds`]), and among those the fewest
//! mismatches in all.

#[cfg(test)]
use super::insert_size::concordant;
use super::insert_size::ProperBounds;
use crate::search::Hit;

/// FNV-1a of the read name and a salt (0 single, 1 and 2 for mates).
pub fn name_hash(name: &[u8], salt: u8) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in name.iter().chain(std::iter::once(&salt)) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// How many of `hits` (sorted, best stratum first) have the fewest mismatches.
pub fn best_stratum(hits: &[Hit]) -> usize {
    hits.iter()
        .take_while(|h| h.mismatches == hits[0].mismatches)
        .count()
}

/// The primary among `hits` (sorted, best stratum first) for a single-end read: one of
/// the best stratum, by the name's hash where there is a choice (hashed only then: the
/// hash, a multiplication a byte of the name, cost ~40 ns a uniquely mapped read).
pub fn choose_single(name: &[u8], hits: &[Hit], salt: u8) -> Option<usize> {
    match best_stratum(hits) {
        0 => None,
        1 => Some(0),
        best => Some((name_hash(name, salt) % best as u64) as usize),
    }
}

/// Primaries of both mates and whether they form a proper pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairChoice {
    /// Mate 1's primary.
    pub first: Option<usize>,
    /// Mate 2's primary.
    pub second: Option<usize>,
    /// Both mates have one best hit, and those are concordant.
    pub proper: bool,
}

/// Largest number of hit combinations examined for concordance.
const MAX_COMBINATIONS: usize = 1 << 16;

/// Chooses the primaries of a pair whose mates' hits are `hits1` and `hits2` (each
/// sorted, best stratum first).
pub fn choose_pair(
    name: &[u8],
    hits1: &[Hit],
    len1: u64,
    hits2: &[Hit],
    len2: u64,
    bounds: &ProperBounds,
) -> PairChoice {
    if !hits1.is_empty() && !hits2.is_empty() && hits1.len() * hits2.len() <= MAX_COMBINATIONS {
        let mut combos: Vec<(usize, usize)> = (0..hits1.len())
            .flat_map(|i| (0..hits2.len()).map(move |j| (i, j)))
            .filter(|&(i, j)| bounds.concordant(hits1[i], len1, hits2[j], len2))
            .collect();
        let mismatches = |&(i, j): &(usize, usize)| hits1[i].mismatches + hits2[j].mismatches;
        if let Some(fewest) = combos.iter().map(mismatches).min() {
            combos.retain(|c| mismatches(c) == fewest);
            let pick = match combos.len() {
                1 => 0,
                n => (name_hash(name, 0) % n as u64) as usize,
            };
            let (i, j) = combos[pick];
            let unique = best_stratum(hits1) == 1 && best_stratum(hits2) == 1;
            return PairChoice {
                first: Some(i),
                second: Some(j),
                proper: unique && (i, j) == (0, 0),
            };
        }
    }
    PairChoice {
        first: choose_single(name, hits1, 1),
        second: choose_single(name, hits2, 2),
        proper: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The old fixed rule: forward-reverse within 1000.
    const FIXED: ProperBounds = ProperBounds::Fixed { min: 0, max: 1000 };

    fn hit(contig: u32, pos: u64, reverse: bool) -> Hit {
        Hit {
            mismatches: 0,
            contig,
            pos,
            reverse,
        }
    }

    fn with_mismatches(mismatches: u8, h: Hit) -> Hit {
        Hit { mismatches, ..h }
    }

    /// The name is hashed only where the best stratum offers a choice; the choice is
    /// the hash's, as it always was.
    #[test]
    fn a_primary_is_the_name_hash_of_the_best_stratum() {
        for best in 1..6u8 {
            let mut hits: Vec<Hit> = (0..best).map(|i| hit(0, 10 * i as u64, false)).collect();
            hits.push(with_mismatches(1, hit(1, 7, true)));
            for name in [
                &b""[..],
                b"a",
                b"read7",
                b"HISEQ1:22:H9UJNADXX:2:2202:8957:28957/1",
            ] {
                for salt in 0..3 {
                    let hashed = (name_hash(name, salt) % best as u64) as usize;
                    assert_eq!(choose_single(name, &hits, salt), Some(hashed));
                }
            }
        }
        assert_eq!(choose_single(b"a", &[], 0), None);
    }

    #[test]
    fn the_best_stratum_decides() {
        let hits = [
            with_mismatches(1, hit(0, 10, false)),
            with_mismatches(1, hit(0, 20, false)),
            with_mismatches(2, hit(0, 30, false)),
        ];
        assert_eq!(best_stratum(&hits), 2);
        assert_eq!(best_stratum(&hits[2..]), 1);
        assert_eq!(best_stratum(&[]), 0);
        for name in [&b"a"[..], b"b", b"c", b"read7"] {
            assert!(choose_single(name, &hits, 0).unwrap() < 2);
        }
        // Of two concordant combinations the one with fewer mismatches wins, whatever
        // the name; a pair is proper only when both mates' best hits are unique.
        let mates = [
            with_mismatches(0, hit(0, 500, true)),
            with_mismatches(2, hit(0, 100, true)),
        ];
        let firsts = [
            with_mismatches(1, hit(0, 50, false)),
            with_mismatches(1, hit(0, 400, false)),
        ];
        for name in [&b"a"[..], b"b", b"c", b"read7"] {
            let c = choose_pair(name, &firsts, 50, &mates, 50, &FIXED);
            assert_eq!(c.second, Some(0), "{c:?}");
            assert!(!c.proper, "mate 1 has two best hits");
        }
        let c = choose_pair(b"a", &firsts[1..], 50, &mates, 50, &FIXED);
        assert_eq!((c.first, c.second, c.proper), (Some(0), Some(0), true));
    }

    #[test]
    fn concordance_rules() {
        assert!(concordant(
            hit(0, 100, false),
            50,
            hit(0, 300, true),
            50,
            500
        ));
        assert!(concordant(
            hit(0, 300, true),
            50,
            hit(0, 100, false),
            50,
            500
        ));
        assert!(
            !concordant(hit(0, 100, false), 50, hit(0, 300, false), 50, 500),
            "same strand"
        );
        assert!(
            !concordant(hit(0, 100, false), 50, hit(1, 300, true), 50, 500),
            "two contigs"
        );
        assert!(
            !concordant(hit(0, 100, false), 50, hit(0, 600, true), 50, 500),
            "too far"
        );
        assert!(
            !concordant(hit(0, 300, false), 50, hit(0, 100, true), 50, 500),
            "reverse-forward"
        );
    }

    #[test]
    fn unique_concordant_pairs_are_proper_and_choice_is_stable() {
        let c = choose_pair(
            b"r1",
            &[hit(0, 10, false)],
            50,
            &[hit(0, 200, true)],
            50,
            &FIXED,
        );
        assert_eq!(
            c,
            PairChoice {
                first: Some(0),
                second: Some(0),
                proper: true
            }
        );
        let many = [hit(0, 10, false), hit(0, 5000, false), hit(2, 7, true)];
        let a = choose_pair(b"r2", &many, 50, &[hit(0, 5100, true)], 50, &FIXED);
        assert_eq!((a.first, a.second, a.proper), (Some(1), Some(0), false));
        assert_eq!(choose_single(b"x", &many, 0), choose_single(b"x", &many, 0));
        assert_eq!(choose_single(b"x", &[], 0), None);
    }
}
