//! Local (Smith-Waterman) alignment as bwa mem runs it for mate rescue and for short
//! seeds' checks (`ksw_align2` of bwa 0.7.17's `ksw.c`): a striped pass for the best
//! score and its ends ([`crate::align::striped`]), then, with [`XSTART`], a second pass
//! over the reversed prefixes for the start.

use crate::align::profile::{QueryProfile, Width};
use crate::align::scoring::{ScoreMatrix, Scoring};
use crate::align::striped::{self, Pass};

pub use crate::align::striped::{XSTOP, XSUBO};

/// Flag of `xtra`: one unsigned byte a score, 16 lanes (`KSW_XBYTE`); the best score
/// then reads 255 where it would reach `255 - bias` (bias: minus the matrix's lowest
/// cell), and no query end or start is found.
pub const XBYTE: u32 = 0x10000;
/// Flag of `xtra`: find the alignment's start too (`KSW_XSTART`).
pub const XSTART: u32 = 0x80000;

/// A local alignment (`kswr_t`): positions 0-based and inclusive, -1 where unset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocalAlignment {
    /// Best score (255 where the byte version saturated).
    pub score: i32,
    /// Target position of its end.
    pub te: i32,
    /// Query position of its end.
    pub qe: i32,
    /// Second best score ending away from `te` (with [`XSUBO`]), or -1.
    pub score2: i32,
    /// Target end of the second best, or -1.
    pub te2: i32,
    /// Target position of the start (with [`XSTART`]), or -1.
    pub tb: i32,
    /// Query position of the start (with [`XSTART`]), or -1.
    pub qb: i32,
}

impl From<Pass> for LocalAlignment {
    fn from(p: Pass) -> Self {
        LocalAlignment {
            score: p.score,
            te: p.te,
            qe: p.qe,
            score2: p.score2,
            te2: p.te2,
            tb: -1,
            qb: -1,
        }
    }
}

/// `ksw_align2(query, target, mat, o_del, e_del, o_ins, e_ins, xtra, NULL)`: aligns
/// `query` locally within `target` (codes below the matrix size) with `sc`'s gap
/// penalties; `xtra` holds [`XBYTE`], [`XSUBO`], [`XSTOP`], [`XSTART`] and the
/// [`XSUBO`]/[`XSTOP`] threshold in its low 16 bits.
pub fn align2(
    query: &[u8],
    target: &[u8],
    mat: &ScoreMatrix,
    sc: &Scoring,
    xtra: u32,
) -> LocalAlignment {
    let width = if xtra & XBYTE != 0 {
        Width::Byte
    } else {
        Width::Word
    };
    align2_with(
        &QueryProfile::new(width, query, mat),
        query,
        target,
        mat,
        sc,
        xtra,
    )
}

/// [`align2`] with a profile built once for several targets (`ksw_align2` given a
/// `kswq_t`): the profile's width is used, whatever `xtra`'s [`XBYTE`] says; `query`
/// must be the profile's query (the start pass reverses it).
pub fn align2_with(
    profile: &QueryProfile,
    query: &[u8],
    target: &[u8],
    mat: &ScoreMatrix,
    sc: &Scoring,
    xtra: u32,
) -> LocalAlignment {
    let mut r = LocalAlignment::from(striped::run(profile, target, sc, xtra));
    let below = xtra & XSUBO != 0 && r.score < (xtra & 0xffff) as i32;
    if xtra & XSTART != 0 && !below {
        find_start(&mut r, profile.width, query, target, mat, sc);
    }
    r
}

/// The start: the best alignment of the reversed query prefix `..=qe` along the
/// target with its prefix `..=te` reversed, stopped at the forward score; set only
/// where that pass reaches the same score.
fn find_start(
    r: &mut LocalAlignment,
    width: Width,
    query: &[u8],
    target: &[u8],
    mat: &ScoreMatrix,
    sc: &Scoring,
) {
    let (qn, tn) = ((r.qe + 1) as usize, (r.te + 1) as usize);
    let rq: Vec<u8> = query[..qn].iter().rev().copied().collect();
    let mut rt = target.to_vec();
    rt[..tn].reverse();
    let q = QueryProfile::new(width, &rq, mat);
    let rr = striped::run(&q, &rt, sc, XSTOP | r.score as u32);
    if rr.score == r.score {
        r.tb = r.te - rr.te;
        r.qb = r.qe - rr.qe;
    }
}
