//! Banded global alignment with a CIGAR: `ksw_global2` of bwa 0.7.17's `ksw.c`, which
//! bwa mem's `bwa_gen_cigar2` runs once an alignment's ends are known. Ported step for
//! step: the same band, the same direction bits per cell, the same backtrack (so the
//! same placement of gaps among equal-scoring alignments).

use crate::align::cigar::{Cigar, CigarOp};
use crate::align::scoring::{ScoreMatrix, Scoring};

/// `ksw.c`'s minus infinity: low enough never to win, high enough not to overflow.
const MINUS_INF: i32 = -0x4000_0000;

/// A global alignment: its score and its CIGAR.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobalAlignment {
    /// The score (`ksw_global2`'s return value).
    pub score: i32,
    /// The CIGAR, query order, M/I/D only.
    pub cigar: Cigar,
}

/// One cell's carried scores: `h` = H(i-1, j-1) on entry, `e` = E(i, j) (`eh_t`).
#[derive(Clone, Copy)]
struct Eh {
    h: i32,
    e: i32,
}

/// The backtrack matrix: per target row, one direction byte per band column
/// (`f << 4 | e << 2 | h`), `cols` of them.
struct Directions {
    cols: usize,
    cells: Vec<u8>,
}

/// Aligns all of `query` to all of `target` (base codes below the matrix size) within
/// `sc.band` diagonals, with `sc`'s gap penalties; returns the score and CIGAR.
///
/// The band must reach both corners (`band >= |target.len() - query.len()|`; bwa mem
/// passes at least that plus 3). Otherwise the score is bwa's (very negative where the
/// last cell lies outside the band) but bwa's backtrack reads cells it never wrote;
/// here those read as 0 (a match step) instead.
/// Panics where `sc.band` is negative.
pub fn global(query: &[u8], target: &[u8], mat: &ScoreMatrix, sc: &Scoring) -> GlobalAlignment {
    assert!(sc.band >= 0, "ksw_global2 needs a band >= 0");
    let cols = query.len().min(2 * sc.band as usize + 1);
    let mut z = Directions {
        cols,
        cells: vec![0; cols * target.len()],
    };
    let score = fill(query, target, mat, sc, Some(&mut z));
    let cigar = backtrack(&z, query.len() as i64, target.len() as i64, sc.band as i64);
    GlobalAlignment { score, cigar }
}

/// The score [`global`] would return, without the backtrack matrix (`ksw_global2`
/// called with no CIGAR pointers).
pub fn global_score(query: &[u8], target: &[u8], mat: &ScoreMatrix, sc: &Scoring) -> i32 {
    assert!(sc.band >= 0, "ksw_global2 needs a band >= 0");
    fill(query, target, mat, sc, None)
}

/// The DP over the band, row by row of the target; records directions into `z` when
/// given; returns H of the last cell of the last row.
fn fill(
    query: &[u8],
    target: &[u8],
    mat: &ScoreMatrix,
    sc: &Scoring,
    mut z: Option<&mut Directions>,
) -> i32 {
    let (qlen, w) = (query.len() as i32, sc.band);
    let qp = mat.profile(query);
    let mut eh = first_row(qlen, w, sc);
    for (i, &t) in target.iter().enumerate() {
        let ii = i as i32;
        let beg = if ii > w { ii - w } else { 0 };
        let end = (ii + w + 1).min(qlen);
        let row = &qp[t as usize * query.len()..][..query.len()];
        let zi = z
            .as_deref_mut()
            .map(|z| &mut z.cells[i * z.cols..(i + 1) * z.cols]);
        let h1 = fill_row(&mut eh, row, sc, ii, beg, end, zi);
        eh[end as usize] = Eh {
            h: h1,
            e: MINUS_INF,
        };
    }
    eh[query.len()].h
}

/// Row -1: insertions of the first `j <= band` query bases; minus infinity beyond.
fn first_row(qlen: i32, w: i32, sc: &Scoring) -> Vec<Eh> {
    (0..=qlen)
        .map(|j| match j {
            0 => Eh { h: 0, e: MINUS_INF },
            j if j <= w => Eh {
                h: -(sc.o_ins + sc.e_ins * j),
                e: MINUS_INF,
            },
            _ => Eh {
                h: MINUS_INF,
                e: MINUS_INF,
            },
        })
        .collect()
}

/// Computes row `i` over columns `beg..end`; writes each cell's direction byte into
/// `zi` (indexed from `beg`) when given; returns the row's last H.
fn fill_row(
    eh: &mut [Eh],
    row: &[i8],
    sc: &Scoring,
    i: i32,
    beg: i32,
    end: i32,
    mut zi: Option<&mut [u8]>,
) -> i32 {
    let (oe_del, oe_ins) = (sc.o_del + sc.e_del, sc.o_ins + sc.e_ins);
    let mut h1 = if beg == 0 {
        -(sc.o_del + sc.e_del * (i + 1))
    } else {
        MINUS_INF
    };
    let mut f = MINUS_INF;
    for j in beg..end {
        let p = &mut eh[j as usize];
        let (m, mut e) = (p.h + row[j as usize] as i32, p.e);
        p.h = h1;
        let mut d: u8 = if m >= e { 0 } else { 1 };
        let mut h = m.max(e);
        if h < f {
            (d, h) = (2, f);
        }
        h1 = h;
        let t = m - oe_del;
        e -= sc.e_del;
        d |= if e > t { 1 << 2 } else { 0 };
        p.e = e.max(t);
        let t = m - oe_ins;
        f -= sc.e_ins;
        d |= if f > t { 2 << 4 } else { 0 };
        f = f.max(t);
        if let Some(zi) = zi.as_deref_mut() {
            zi[(j - beg) as usize] = d;
        }
    }
    h1
}

/// Walks the directions back from the last cell of the band's last row; gaps left at
/// either start become a leading deletion or insertion.
fn backtrack(z: &Directions, qlen: i64, tlen: i64, w: i64) -> Cigar {
    let mut runs = Cigar::default();
    let (mut i, mut k, mut which) = (tlen - 1, (tlen + w).min(qlen) - 1, 0u8);
    while i >= 0 && k >= 0 {
        let beg = if i > w { i - w } else { 0 };
        let at = i * z.cols as i64 + (k - beg);
        let d = usize::try_from(at)
            .ok()
            .and_then(|a| z.cells.get(a))
            .copied()
            .unwrap_or(0);
        which = d >> (which << 1) & 3;
        let op = match which {
            0 => CigarOp::Match,
            1 => CigarOp::Del,
            _ => CigarOp::Ins,
        };
        runs.push(op, 1);
        i -= (op != CigarOp::Ins) as i64;
        k -= (op != CigarOp::Del) as i64;
    }
    if i >= 0 {
        runs.push(CigarOp::Del, (i + 1) as u32);
    }
    if k >= 0 {
        runs.push(CigarOp::Ins, (k + 1) as u32);
    }
    runs.0.reverse();
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_deletion() {
        let (mat, sc) = (ScoreMatrix::bwa(1, 4), Scoring::bwa_mem());
        let t = [0u8, 1, 2, 3, 3, 0, 1, 2, 3, 0, 1, 2];
        let q = [0u8, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2];
        let g = global(&q, &t, &mat, &Scoring { band: 5, ..sc });
        assert_eq!(g.score, 11 - 7);
        assert_eq!(g.cigar.to_string(), "3M1D8M");
    }
}
