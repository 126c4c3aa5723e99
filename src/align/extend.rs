//! Banded extension from a seed's end with z-drop and an end bonus: `ksw_extend2` of
//! bwa 0.7.17's `ksw.c`, ported step for step (same band clamping, same row-range
//! shrinking, same tie-breaking), so every field equals bwa's.

use crate::align::scoring::{ScoreMatrix, Scoring};

/// What an extension found (the return value and out-parameters of `ksw_extend2`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extension {
    /// The best score of an alignment of a query prefix against a target prefix,
    /// counting the seed's `h0`; `h0` itself where no cell beats it.
    pub score: i32,
    /// The query prefix that best alignment covers (`qle`; 0 where none beat `h0`).
    pub qle: i32,
    /// The target prefix it covers (`tle`).
    pub tle: i32,
    /// The target prefix of the best alignment of the whole query (`gtle`; 0 if none).
    pub gtle: i32,
    /// The score of that end-to-end alignment (`gscore`), -1 where the band never
    /// reached the query's end.
    pub gscore: i32,
    /// The largest diagonal offset `|j - i|` at which the best score rose (`max_off`).
    pub max_off: i32,
}

/// One cell's carried scores: `h` = H(i-1, j-1) on entry, `e` = E(i, j) (`eh_t`).
#[derive(Clone, Copy, Default)]
struct Eh {
    h: i32,
    e: i32,
}

/// The best score so far and where (the `max*`, `gscore` and `max_off` of the C code).
struct Best {
    max: i32,
    max_i: i32,
    max_j: i32,
    max_ie: i32,
    gscore: i32,
    max_off: i32,
}

/// The best row maximum of one DP row: its score `m`, its column `mj` (the last
/// column reaching it), the last cell's H, and where the loop stopped (`j`).
struct RowMax {
    m: i32,
    mj: i32,
    h1: i32,
    j: i32,
}

/// Extends an alignment whose upstream part scored `h0` (> 0, as bwa asserts) along
/// `query` and `target` (base codes below the matrix size), with the gap penalties,
/// band, end bonus and z-drop of `sc` (bwa mem: `ksw_extend2(..., opt->o_del,
/// opt->e_del, opt->o_ins, opt->e_ins, w, pen_clip, opt->zdrop, h0, ...)`).
///
/// Panics where `h0 <= 0` (bwa's `assert`).
pub fn extend(query: &[u8], target: &[u8], mat: &ScoreMatrix, sc: &Scoring, h0: i32) -> Extension {
    assert!(h0 > 0, "ksw_extend2 needs h0 > 0, got {h0}");
    let qlen = query.len() as i32;
    let qp = mat.profile(query);
    let mut eh = vec![Eh::default(); query.len() + 1];
    fill_first_row(&mut eh, h0, sc);
    let w = clamp_band(sc, qlen, mat.max_or_zero());
    let mut best = Best {
        max: h0,
        max_i: -1,
        max_j: -1,
        max_ie: -1,
        gscore: -1,
        max_off: 0,
    };
    let (mut beg, mut end) = (0i32, qlen);
    for (i, &t) in target.iter().enumerate() {
        let i = i as i32;
        beg = beg.max(i - w);
        end = end.min(i + w + 1).min(qlen);
        let row = &qp[t as usize * query.len()..][..query.len()];
        let r = fill_row(&mut eh, row, sc, h0, i, beg, end);
        if !record_row(&mut best, &r, sc, i, qlen) {
            break;
        }
        (beg, end) = shrink_range(&eh, beg, end, qlen);
    }
    Extension {
        score: best.max,
        qle: best.max_j + 1,
        tle: best.max_i + 1,
        gtle: best.max_ie + 1,
        gscore: best.gscore,
        max_off: best.max_off,
    }
}

/// Row -1: H falls from `h0` by an insertion's cost and stops at the first cell that
/// would not stay positive. (bwa writes cell 1 even for an empty query, one past its
/// array; nothing reads it.)
fn fill_first_row(eh: &mut [Eh], h0: i32, sc: &Scoring) {
    let oe_ins = sc.o_ins + sc.e_ins;
    eh[0].h = h0;
    if let Some(c) = eh.get_mut(1) {
        c.h = if h0 > oe_ins { h0 - oe_ins } else { 0 };
    }
    let mut j = 2;
    while j < eh.len() && eh[j - 1].h > sc.e_ins {
        eh[j].h = eh[j - 1].h - sc.e_ins;
        j += 1;
    }
}

/// The band no wider than the longest gap a perfect query (plus the end bonus) could
/// pay for, on either side; at least 1.
fn clamp_band(sc: &Scoring, qlen: i32, max: i32) -> i32 {
    let longest = |o: i32, e: i32| {
        let n = ((qlen * max + sc.end_bonus - o) as f64 / e as f64 + 1.0) as i32;
        n.max(1)
    };
    sc.band
        .min(longest(sc.o_ins, sc.e_ins))
        .min(longest(sc.o_del, sc.e_del))
}

/// Computes row `i` over columns `beg..end` (H, E in `eh`, F carried along the row).
fn fill_row(
    eh: &mut [Eh],
    row: &[i8],
    sc: &Scoring,
    h0: i32,
    i: i32,
    beg: i32,
    end: i32,
) -> RowMax {
    let (oe_del, oe_ins) = (sc.o_del + sc.e_del, sc.o_ins + sc.e_ins);
    let mut h1 = if beg == 0 {
        (h0 - (sc.o_del + sc.e_del * (i + 1))).max(0)
    } else {
        0
    };
    let (mut f, mut m, mut mj) = (0i32, 0i32, -1i32);
    for j in beg..end {
        let p = &mut eh[j as usize];
        let (mut mm, mut e) = (p.h, p.e);
        p.h = h1;
        mm = if mm != 0 {
            mm + row[j as usize] as i32
        } else {
            0
        };
        let h = mm.max(e).max(f);
        h1 = h;
        if h >= m {
            (m, mj) = (h, j);
        }
        e = (e - sc.e_del).max((mm - oe_del).max(0));
        p.e = e;
        f = (f - sc.e_ins).max((mm - oe_ins).max(0));
    }
    eh[end as usize] = Eh { h: h1, e: 0 };
    RowMax {
        m,
        mj,
        h1,
        j: beg.max(end),
    }
}

/// Records row `i`'s maximum; false where the extension stops here (an all-zero row,
/// or a z-drop).
fn record_row(best: &mut Best, r: &RowMax, sc: &Scoring, i: i32, qlen: i32) -> bool {
    if r.j == qlen {
        if best.gscore <= r.h1 {
            best.max_ie = i;
        }
        best.gscore = best.gscore.max(r.h1);
    }
    if r.m == 0 {
        return false;
    }
    if r.m > best.max {
        (best.max, best.max_i, best.max_j) = (r.m, i, r.mj);
        best.max_off = best.max_off.max((r.mj - i).abs());
        return true;
    }
    sc.zdrop <= 0 || !z_dropped(best, r, sc, i)
}

/// Whether row `i` fell more than z-drop below the best, its diagonal offset from the
/// best cell charged as gap extensions.
fn z_dropped(best: &Best, r: &RowMax, sc: &Scoring, i: i32) -> bool {
    let (di, dj) = (i - best.max_i, r.mj - best.max_j);
    let drop = if di > dj {
        (di - dj) * sc.e_del
    } else {
        (dj - di) * sc.e_ins
    };
    best.max - r.m - drop > sc.zdrop
}

/// The next row's column range: the cells whose H or E is non-zero, plus one column
/// to the right (two past the last live cell), at most the query's length.
fn shrink_range(eh: &[Eh], beg: i32, end: i32, qlen: i32) -> (i32, i32) {
    let dead = |j: i32| eh[j as usize].h == 0 && eh[j as usize].e == 0;
    let mut b = beg;
    while b < end && dead(b) {
        b += 1;
    }
    let mut e = end;
    while e >= b && dead(e) {
        e -= 1;
    }
    (b, (e + 2).min(qlen))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_match_extends_to_the_end() {
        let (mat, sc) = (ScoreMatrix::bwa(1, 4), Scoring::bwa_mem());
        let s = [0u8, 1, 2, 3, 0, 1, 2, 3];
        let x = extend(&s, &s, &mat, &sc, 10);
        assert_eq!(
            (x.score, x.qle, x.tle, x.gtle, x.gscore, x.max_off),
            (18, 8, 8, 8, 18, 0)
        );
    }

    #[test]
    fn empty_sides_keep_h0() {
        let (mat, sc) = (ScoreMatrix::bwa(1, 4), Scoring::bwa_mem());
        let x = extend(&[], &[0, 1], &mat, &sc, 7);
        assert_eq!((x.score, x.qle, x.tle, x.gtle, x.gscore), (7, 0, 0, 1, 0));
        let y = extend(&[0, 1], &[], &mat, &sc, 7);
        assert_eq!((y.score, y.qle, y.tle, y.gtle, y.gscore), (7, 0, 0, 0, -1));
    }
}
