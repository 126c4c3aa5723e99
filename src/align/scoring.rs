//! The scores an alignment is measured by: the substitution matrix ([`ScoreMatrix`],
//! bwa's `mat`, built as `bwa_fill_scmat` builds it) and the gap, band and clipping
//! parameters of one extension ([`Scoring`]).

/// An `m` x `m` substitution matrix over base codes `0..m` (bwa's `int8_t mat[m*m]`,
/// row = target base, column = query base, as `ksw.c` indexes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreMatrix {
    m: usize,
    cells: Vec<i8>,
}

impl ScoreMatrix {
    /// bwa mem's 5 x 5 matrix (`bwa_fill_scmat`): `a` where two of A, C, G, T (codes
    /// 0-3) agree, `-b` where they differ, -1 wherever either base is ambiguous (code 4).
    pub fn bwa(a: i8, b: i8) -> Self {
        let mut cells = Vec::with_capacity(25);
        for i in 0..4 {
            for j in 0..4 {
                cells.push(if i == j { a } else { -b });
            }
            cells.push(-1);
        }
        cells.extend([-1; 5]);
        ScoreMatrix { m: 5, cells }
    }

    /// A matrix from its `m * m` cells, row by row; `None` unless there are `m * m`.
    pub fn from_cells(m: usize, cells: Vec<i8>) -> Option<Self> {
        (m > 0 && cells.len() == m * m).then_some(ScoreMatrix { m, cells })
    }

    /// The alphabet size: sequences hold codes `0..m`.
    pub fn size(&self) -> usize {
        self.m
    }

    /// The cells, row by row (bwa's `mat`).
    pub fn cells(&self) -> &[i8] {
        &self.cells
    }

    /// The score of target base `t` against query base `q`.
    #[inline(always)]
    pub fn score(&self, t: u8, q: u8) -> i8 {
        self.cells[t as usize * self.m + q as usize]
    }

    /// The row of target base `t`: its score against each query base.
    #[inline(always)]
    pub fn row(&self, t: u8) -> &[i8] {
        let start = t as usize * self.m;
        &self.cells[start..start + self.m]
    }

    /// The highest cell, or 0 where every cell is negative (the `max` of `ksw_extend2`).
    pub fn max_or_zero(&self) -> i32 {
        self.cells.iter().fold(0, |max, &c| max.max(c as i32))
    }

    /// The query profile `ksw_extend2` and `ksw_global2` build: for each target base
    /// `t`, its score against each query base in turn (`m * query.len()` scores).
    pub fn profile(&self, query: &[u8]) -> Vec<i8> {
        let mut qp = Vec::with_capacity(self.m * query.len());
        for t in 0..self.m as u8 {
            qp.extend(query.iter().map(|&q| self.score(t, q)));
        }
        qp
    }
}

/// bwa mem's scoring of one alignment call: the match score and mismatch penalty the
/// matrix is built from, affine gap penalties (a gap of length `l` costs `o + l * e`)
/// for deletions (from the query; bases of the target only) and insertions (bases of
/// the query only), and for an extension its end bonus (`pen_clip5`/`pen_clip3`), its
/// z-drop and its band width. Penalties are positive numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// Score of a match (`-A`, bwa's `a`).
    pub match_score: i32,
    /// Penalty of a mismatch (`-B`, bwa's `b`).
    pub mismatch: i32,
    /// Deletion open penalty (`o_del`).
    pub o_del: i32,
    /// Deletion extension penalty (`e_del`), at least 1.
    pub e_del: i32,
    /// Insertion open penalty (`o_ins`).
    pub o_ins: i32,
    /// Insertion extension penalty (`e_ins`), at least 1.
    pub e_ins: i32,
    /// Bonus of an extension that reaches the query's end (`pen_clip5` or `pen_clip3`).
    pub end_bonus: i32,
    /// Z-drop (`-d`): an extension stops once its score falls this far below its best
    /// (with the diagonal difference charged as gap extensions); 0 or less: never.
    pub zdrop: i32,
    /// Band width (`-w`): cells more than this many diagonals off are not computed.
    pub band: i32,
}

impl Scoring {
    /// bwa mem 0.7.17's defaults: `-A 1 -B 4 -O 6,6 -E 1,1 -L 5,5 -d 100 -w 100`.
    pub fn bwa_mem() -> Self {
        Scoring {
            match_score: 1,
            mismatch: 4,
            o_del: 6,
            e_del: 1,
            o_ins: 6,
            e_ins: 1,
            end_bonus: 5,
            zdrop: 100,
            band: 100,
        }
    }

    /// The 5 x 5 matrix of these scores, as `bwa_fill_scmat` builds it.
    pub fn matrix(&self) -> ScoreMatrix {
        ScoreMatrix::bwa(self.match_score as i8, self.mismatch as i8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bwa_matrix_matches_bwa_fill_scmat() {
        let m = ScoreMatrix::bwa(1, 4);
        assert_eq!(m.cells()[..5], [1, -4, -4, -4, -1]);
        assert_eq!(m.cells()[20..], [-1; 5]);
        assert_eq!(m.score(3, 3), 1);
        assert_eq!(m.score(2, 4), -1);
        assert_eq!(m.max_or_zero(), 1);
    }
}
