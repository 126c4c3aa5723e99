//! Mate rescue as bwa mem 0.7.17 does it (`mem_matesw` of bwamem_pair.c): for a hit of
//! one mate, each orientation of the insert size distribution without a consistent hit
//! of the other mate gets a local alignment (`ksw_align2`) of the other mate in the
//! window that orientation allows; hits found join the other mate's regions, which are
//! then deduplicated without patching.

use super::pac::Pac;
use super::pestat::{infer_dir, PeStats};
use super::region::{sort_dedup, AlnReg};
use super::settings::AlignOptions;
use crate::align::{align2, XBYTE, XSTART, XSUBO};
use crate::fmd::ann::Contigs;

/// The reverse complement of read codes `ms` (N stays N).
fn revcomp(ms: &[u8]) -> Vec<u8> {
    ms.iter()
        .rev()
        .map(|&c| if c < 4 { 3 - c } else { 4 })
        .collect()
}

/// The window, on the forward-then-reverse text, where the mate of hit `a` lies in
/// orientation `r` with the distribution `pes`, for a mate of `l_ms` bases.
fn window(pes: &PeStats, r: usize, a: &AlnReg, l_ms: i64, l_pac: i64) -> (i64, i64) {
    let is_rev = (r >> 1) != (r & 1);
    let is_larger = r >> 1 == 0;
    let (low, high) = (i64::from(pes[r].low), i64::from(pes[r].high));
    let (near, far) = match is_larger {
        true => (a.rb + low, a.rb + high),
        false => (a.rb - high, a.rb - low),
    };
    let (rb, re) = match is_rev {
        false => (near, far + l_ms),
        true => (near - l_ms, far),
    };
    (rb.max(0), re.min(l_pac << 1))
}

/// `mem_matesw`: rescues the mate (codes `ms`) of hit `a` into `ma`, the mate's
/// regions; returns how many windows were aligned.
pub fn matesw(
    opt: &AlignOptions,
    contigs: &Contigs,
    pac: &Pac,
    pes: &PeStats,
    a: &AlnReg,
    ms: &[u8],
    ma: &mut Vec<AlnReg>,
) -> usize {
    let l_pac = pac.l_pac();
    let mut skip = pes.map(|p| p.failed);
    for m in ma.iter() {
        let (r, dist) = infer_dir(l_pac, a.rb, m.rb);
        if dist >= i64::from(pes[r].low) && dist <= i64::from(pes[r].high) {
            skip[r] = true;
        }
    }
    if skip.iter().all(|&s| s) {
        return 0;
    }
    let l_ms = ms.len() as i64;
    let mut n = 0;
    for r in 0..4 {
        if skip[r] {
            continue;
        }
        let is_rev = (r >> 1) != (r & 1);
        let rev;
        let seq = match is_rev {
            true => {
                rev = revcomp(ms);
                &rev[..]
            }
            false => ms,
        };
        let (rb, re) = window(pes, r, a, l_ms, l_pac);
        if rb < re {
            let (rb, re, rid, target) = pac.fetch_seq(contigs, rb, (rb + re) >> 1, re);
            if a.rid == rid as i32 && re - rb >= i64::from(opt.chain.min_seed_len) {
                if let Some(b) = rescue_hit(opt, a, seq, &target, rb, is_rev, l_pac) {
                    insert_by_score(ma, b);
                }
                n += 1;
            }
        }
        if n > 0 {
            sort_dedup(opt, None, ma);
        }
    }
    n
}

/// The local alignment of `seq` (the mate, reverse complemented where `is_rev`) in
/// `target` (text from `rb`) as a region, if it scores at least the least seed's score.
fn rescue_hit(
    opt: &AlignOptions,
    a: &AlnReg,
    seq: &[u8],
    target: &[u8],
    rb: i64,
    is_rev: bool,
    l_pac: i64,
) -> Option<AlnReg> {
    let l_ms = seq.len() as i32;
    let min_sc = opt.chain.min_seed_len * opt.a;
    let byte = if l_ms * opt.a < 250 { XBYTE } else { 0 };
    let xtra = XSUBO | XSTART | byte | min_sc as u32;
    let aln = align2(seq, target, &opt.matrix(), &opt.scoring(0, 0), xtra);
    if aln.score < opt.chain.min_seed_len || aln.qb < 0 {
        return None;
    }
    let (tb, te) = (i64::from(aln.tb), i64::from(aln.te));
    let mut b = AlnReg {
        rid: a.rid,
        is_alt: a.is_alt,
        qb: if is_rev { l_ms - (aln.qe + 1) } else { aln.qb },
        qe: if is_rev { l_ms - aln.qb } else { aln.qe + 1 },
        rb: if is_rev {
            (l_pac << 1) - (rb + te + 1)
        } else {
            rb + tb
        },
        re: if is_rev {
            (l_pac << 1) - (rb + tb)
        } else {
            rb + te + 1
        },
        score: aln.score,
        csub: aln.score2,
        secondary: -1,
        ..AlnReg::default()
    };
    b.seedcov = ((b.re - b.rb).min(i64::from(b.qe - b.qb)) >> 1) as i32;
    Some(b)
}

/// Inserts `b` into `ma` (sorted by score, highest first) before the first lower one.
fn insert_by_score(ma: &mut Vec<AlnReg>, b: AlnReg) {
    let at = ma
        .iter()
        .position(|m| m.score < b.score)
        .unwrap_or(ma.len());
    ma.insert(at, b);
}
