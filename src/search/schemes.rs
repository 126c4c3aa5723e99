//! Search schemes for k-mismatch search (Kucherov, Salikhov and Tsur 2014): the read is
//! cut into `k + 1` pieces, and each search of a scheme matches the pieces in its own
//! `order` (each piece next to those matched before, so a bidirectional index can
//! extend the match to either side) while the mismatches after its `j`-th piece stay
//! within `lower[j]..=upper[j]`. A scheme is lossless when every way of spreading up to
//! `k` mismatches over the pieces satisfies the bounds of one of its searches (tested
//! below by enumeration): every occurrence is then found by some search, often
//! with most of the read matched exactly before the first mismatch is allowed.
//!
//! The schemes are the optimum search schemes of Kianfar, Pockrandt, Torkamandi, Luo and
//! Reinert (2018) for `k = 1, 2, 3` (as the Columba and search_schemes tools list
//! them). A read shorter than `k + 1` bases cannot be cut into pieces: it is searched
//! with plain backtracking, one piece with up to `k` mismatches.

/// One search of a scheme: the order in which the pieces are matched and the bounds on
/// the mismatches after each (cumulative, over the pieces matched so far).
#[derive(Clone, Copy, Debug)]
pub struct Search {
    /// The pieces, left to right numbered from 0, in the order they are matched.
    pub order: &'static [usize],
    /// Fewest mismatches after the `j`-th piece of `order`.
    pub lower: &'static [u8],
    /// Most mismatches after the `j`-th piece of `order`.
    pub upper: &'static [u8],
}

const fn search(order: &'static [usize], lower: &'static [u8], upper: &'static [u8]) -> Search {
    Search {
        order,
        lower,
        upper,
    }
}

/// The optimum search schemes for `k = 0..=3` (`k = 0`: one exact piece).
const OPTIMUM: [&[Search]; 4] = [
    &[search(&[0], &[0], &[0])],
    &[
        search(&[0, 1], &[0, 0], &[0, 1]),
        search(&[1, 0], &[0, 1], &[0, 1]),
    ],
    &[
        search(&[0, 1, 2], &[0, 0, 2], &[0, 1, 2]),
        search(&[2, 1, 0], &[0, 0, 0], &[0, 2, 2]),
        search(&[1, 2, 0], &[0, 1, 1], &[0, 1, 2]),
    ],
    &[
        search(&[0, 1, 2, 3], &[0, 0, 0, 3], &[0, 2, 3, 3]),
        search(&[1, 2, 3, 0], &[0, 0, 0, 0], &[1, 2, 3, 3]),
        search(&[2, 3, 1, 0], &[0, 0, 2, 2], &[0, 0, 3, 3]),
    ],
];

/// For pieces long enough to be unique in the text: four searches, each starting with
/// one piece matched exactly (one of the four has no mismatch), then anything up to 3.
/// The optimum scheme's second search allows a mismatch in its first piece, where the
/// intervals are widest; here every search narrows to one row within its exact piece
/// and the rest is a comparison with the text (measured: 0.83 s instead of 15.8 s for
/// 21,206 reads of 148 bp against chr20, one thread; with short pieces it is slower,
/// where [`HALVES_3`] takes over).
const PIGEONHOLE_3: &[Search] = &[
    search(&[0, 1, 2, 3], &[0, 0, 0, 0], &[0, 3, 3, 3]),
    search(&[1, 2, 3, 0], &[0, 0, 0, 0], &[0, 3, 3, 3]),
    search(&[2, 3, 1, 0], &[0, 0, 0, 0], &[0, 3, 3, 3]),
    search(&[3, 2, 1, 0], &[0, 0, 0, 0], &[0, 3, 3, 3]),
];

/// For `k = 3` when the pieces of the other schemes would be too short to be unique:
/// two halves, one of which has at most one mismatch (bowtie 1's way for `-v 3`). The
/// first search starts from the left half with at most one mismatch, the second from
/// the right half with at most one, for the spreads the first leaves out. With the
/// single-row verification of [`super::mismatch`], halves beat the optimum scheme at
/// every read length measured (HG002 reads cut to 16-44 bp against chr20, one thread:
/// 1.5-4.7x less CPU time), and the pigeonhole scheme takes over once its pieces are
/// nearly unique ([`scheme_for`]).
const HALVES_3: &[Search] = &[
    search(&[0, 1], &[0, 0], &[1, 3]),
    search(&[1, 0], &[0, 2], &[1, 3]),
];

/// Plain backtracking: one piece with up to `k` mismatches.
const BACKTRACKING: [&[Search]; 4] = [
    &[search(&[0], &[0], &[0])],
    &[search(&[0], &[0], &[1])],
    &[search(&[0], &[0], &[2])],
    &[search(&[0], &[0], &[3])],
];

/// Largest number of mismatches a scheme is given for.
pub const MAX_MISMATCHES: u8 = 3;

/// The searches for a read of `len` bases with up to `k` (at most [`MAX_MISMATCHES`])
/// mismatches in a text where strings of `unique_len` bases are mostly unique: for
/// `k = 1, 2` the optimum scheme; for `k = 3` the pigeonhole scheme when its pieces are
/// nearly unique (at least `unique_len - 1` bases), else the halves; backtracking when
/// the read has fewer bases than the scheme has pieces. (Every choice is lossless: it
/// changes the speed, never the hits.)
pub fn searches(k: u8, len: usize, unique_len: usize) -> &'static [Search] {
    schemes(k)[scheme_for(k, len, unique_len)]
}

/// Schemes a read may be searched with, for one `k` (a GPU searcher uploads them):
/// `[short pieces, long pieces, backtracking]`: for `k = 3` the halves and the
/// pigeonhole scheme, else the optimum scheme twice.
pub fn schemes(k: u8) -> [&'static [Search]; 3] {
    let optimum = OPTIMUM[k as usize];
    if k == 3 {
        [HALVES_3, PIGEONHOLE_3, BACKTRACKING[3]]
    } else {
        [optimum, optimum, BACKTRACKING[k as usize]]
    }
}

/// Which of [`schemes`]`(k)` searches a read of `len` bases in a text where strings of
/// `unique_len` bases are mostly unique (see [`searches`]).
pub fn scheme_for(k: u8, len: usize, unique_len: usize) -> usize {
    let [short, long, _] = schemes(k);
    let pieces = |scheme: &[Search]| scheme[0].order.len();
    if len < pieces(short) {
        2
    } else if k == 3 && len >= pieces(long) && len / pieces(long) + 1 >= unique_len {
        1
    } else {
        0
    }
}

/// One step of a search over a read: which read position it matches, on which side of
/// the part matched so far, and the mismatch bounds after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Read position matched by this step.
    pub pos: u32,
    /// The match grows to the right (else to the left).
    pub right: bool,
    /// Fewest mismatches after this step (0 but at the end of a piece).
    pub lower: u8,
    /// Most mismatches after this step.
    pub upper: u8,
    /// First read position of the part matched after this step.
    pub first: u32,
}

/// The steps of `search` over a read of `len` bases (at least one base per piece) into
/// `out`: piece `i` is `[i len / p, (i + 1) len / p)` of `p` pieces; the first piece is
/// matched right to left, each next piece from the side it touches.
pub fn plan(search: &Search, len: usize, out: &mut Vec<Step>) {
    out.clear();
    let pieces = search.order.len();
    assert!(len >= pieces, "{len} bases for {pieces} pieces");
    let bounds = |i: usize| (i * len / pieces, (i + 1) * len / pieces);
    let (mut first, mut end) = (0, 0);
    for (j, &piece) in search.order.iter().enumerate() {
        let (start, stop) = bounds(piece);
        let right = j > 0 && start == end;
        assert!(
            j == 0 || right || stop == first,
            "pieces in order are adjacent"
        );
        if j == 0 {
            (first, end) = (stop, stop);
        }
        let positions: Box<dyn Iterator<Item = usize>> = if right {
            Box::new(start..stop)
        } else {
            Box::new((start..stop).rev())
        };
        for pos in positions {
            if right {
                end = pos + 1;
            } else {
                first = pos;
            }
            out.push(Step {
                pos: pos as u32,
                right,
                lower: if pos == if right { stop - 1 } else { start } {
                    search.lower[j]
                } else {
                    0
                },
                upper: search.upper[j],
                first: first as u32,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every spread of at most `k` mismatches over `pieces` pieces.
    fn spreads(pieces: usize, k: u8) -> Vec<Vec<u8>> {
        let mut all = vec![vec![]];
        for _ in 0..pieces {
            all = all
                .into_iter()
                .flat_map(|s: Vec<u8>| {
                    (0..=k).filter_map(move |e| {
                        let mut t = s.clone();
                        t.push(e);
                        (t.iter().sum::<u8>() <= k).then_some(t)
                    })
                })
                .collect();
        }
        all
    }

    fn covers(search: &Search, spread: &[u8]) -> bool {
        let mut total = 0;
        search.order.iter().enumerate().all(|(j, &piece)| {
            total += spread[piece];
            (search.lower[j]..=search.upper[j]).contains(&total)
        })
    }

    #[test]
    fn every_scheme_is_lossless() {
        for k in 0..=MAX_MISMATCHES {
            let mut schemes = vec![OPTIMUM[k as usize], BACKTRACKING[k as usize]];
            if k == 3 {
                schemes.extend([PIGEONHOLE_3, HALVES_3]);
            }
            for scheme in schemes {
                let pieces = scheme[0].order.len();
                for spread in spreads(pieces, k) {
                    assert!(
                        scheme.iter().any(|s| covers(s, &spread)),
                        "k {k}: {spread:?} is found by no search"
                    );
                }
            }
        }
    }

    #[test]
    fn plans_visit_every_position_once_growing_one_interval() {
        for k in 0..=MAX_MISMATCHES {
            for len in 1..40 {
                for search in searches(k, len, 5) {
                    let mut steps = Vec::new();
                    plan(search, len, &mut steps);
                    let mut seen: Vec<u32> = steps.iter().map(|s| s.pos).collect();
                    seen.sort_unstable();
                    assert_eq!(seen, (0..len as u32).collect::<Vec<_>>());
                    let (mut lo, mut hi) = (steps[0].pos, steps[0].pos + 1);
                    for s in &steps[1..] {
                        if s.right {
                            assert_eq!(s.pos, hi);
                            hi += 1;
                        } else {
                            assert_eq!(s.pos + 1, lo);
                            lo -= 1;
                        }
                        assert_eq!(s.first, lo);
                    }
                    assert_eq!(steps.last().unwrap().upper, k);
                }
            }
        }
    }
}
