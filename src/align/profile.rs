//! The striped query profile of bwa's SSE2 Smith-Waterman (`ksw_qinit` of bwa 0.7.17's
//! `ksw.c`): the query's scores against each target base, laid out in Farrar's striped
//! order, as 16 unsigned bytes (biased by the matrix's lowest score) or 8 signed 16-bit
//! scores a vector.

use crate::align::scoring::ScoreMatrix;

/// How many bits a score takes in the striped kernel (`ksw_qinit`'s `size`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// Unsigned bytes, 16 a vector, biased; scores saturate at `255 - bias`.
    Byte,
    /// Signed 16-bit scores, 8 a vector.
    Word,
}

impl Width {
    /// Scores a 128-bit vector holds.
    pub fn lanes(self) -> usize {
        match self {
            Width::Byte => 16,
            Width::Word => 8,
        }
    }
}

/// A query prepared for the striped kernel (`kswq_t`). Lane `l` of vector `s` stands
/// for query base `s + l * segments`; bases past the query's end score 0.
#[derive(Clone, Debug)]
pub struct QueryProfile {
    /// The score width.
    pub width: Width,
    /// The query's length.
    pub qlen: usize,
    /// Vectors a target base's profile takes (`slen`).
    pub segments: usize,
    /// The bias added to every byte score (`shift`: minus the lowest matrix cell, as a
    /// byte); 0 for [`Width::Word`].
    pub bias: i32,
    /// The highest matrix cell, or 0 (`max`).
    pub max: i32,
    /// Per target base, per vector, per lane: the score (biased for bytes).
    pub(crate) scores: Vec<i32>,
}

impl QueryProfile {
    /// Builds the profile of `query` (codes below the matrix size) under `mat`.
    pub fn new(width: Width, query: &[u8], mat: &ScoreMatrix) -> Self {
        let p = width.lanes();
        let segments = query.len().div_ceil(p);
        let (low, max) = extremes(mat.cells());
        // ksw_qinit keeps `shift` in a byte: 256 - (the lowest cell as a byte).
        let bias = match width {
            Width::Byte => (256 - (low as u8 as i32)) & 0xff,
            Width::Word => 0,
        };
        let mut scores = Vec::with_capacity(mat.size() * segments * p);
        for t in 0..mat.size() as u8 {
            let row = mat.row(t);
            for s in 0..segments {
                for lane in 0..p {
                    let k = s + lane * segments;
                    let sc = query.get(k).map_or(0, |&q| row[q as usize] as i32);
                    scores.push(match width {
                        Width::Byte => (sc + bias) & 0xff,
                        Width::Word => sc,
                    });
                }
            }
        }
        QueryProfile {
            width,
            qlen: query.len(),
            segments,
            bias,
            max,
            scores,
        }
    }

    /// The `segments * lanes` scores of target base `t`.
    pub(crate) fn of(&self, t: u8) -> &[i32] {
        let n = self.segments * self.width.lanes();
        &self.scores[t as usize * n..][..n]
    }
}

/// The lowest cell, at most 127, and the highest, at least 0 (`ksw_qinit`'s search).
fn extremes(cells: &[i8]) -> (i8, i32) {
    let low = cells.iter().fold(127i8, |a, &c| a.min(c));
    let high = cells.iter().fold(0i8, |a, &c| a.max(c));
    (low, high as i32)
}
