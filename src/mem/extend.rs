//! `mem_chain2aln` (bwamem.c 0.7.17): each chain's seeds, best first, extended left
//! and right from the seed with `ksw_extend2` ([`crate::align::extend`]) unless an
//! earlier region already covers the seed, into alignment regions; and
//! `mem_flt_chained_seeds`, which rescores the seeds of long reads by local alignment.

use super::chain::Chain;
use super::ksort::introsort;
use super::pac::Pac;
use super::region::AlnReg;
use super::settings::AlignOptions;
use crate::align::{align2, extend, XSTART};
use crate::fmd::ann::Contigs;

/// `MAX_BAND_TRY`.
const MAX_BAND_TRY: i32 = 2;
/// `MEM_SHORT_EXT`.
const MEM_SHORT_EXT: i64 = 50;
/// `MEM_SHORT_LEN`.
const MEM_SHORT_LEN: i64 = 200;

/// `cal_max_gap`: the longest gap a stretch of `qlen` read bases can pay for.
fn cal_max_gap(opt: &AlignOptions, qlen: i32) -> i32 {
    let l_del = (f64::from(qlen * opt.a - opt.o_del) / f64::from(opt.e_del) + 1.0) as i32;
    let l_ins = (f64::from(qlen * opt.a - opt.o_ins) / f64::from(opt.e_ins) + 1.0) as i32;
    l_del.max(l_ins).max(1).min(opt.w() << 1)
}

/// The reference span a chain's extension may reach (`rmax`), clamped to one strand.
fn max_span(opt: &AlignOptions, l_pac: i64, l_query: i32, c: &Chain) -> (i64, i64) {
    let (mut lo, mut hi) = (l_pac << 1, 0i64);
    for t in &c.seeds {
        let b = t.rbeg - i64::from(t.qbeg + cal_max_gap(opt, t.qbeg));
        let rest = l_query - t.qbeg - t.len;
        let e = t.rbeg + i64::from(t.len) + i64::from(rest + cal_max_gap(opt, rest));
        lo = lo.min(b);
        hi = hi.max(e);
    }
    lo = lo.max(0);
    hi = hi.min(l_pac << 1);
    if lo < l_pac && l_pac < hi {
        if c.seeds[0].rbeg < l_pac {
            hi = l_pac;
        } else {
            lo = l_pac;
        }
    }
    (lo, hi)
}

/// Whether seed `s` lies inside region `p` and near its diagonal, ahead or behind (the
/// test of `mem_chain2aln` whether extension has been made before).
fn covered_by(opt: &AlignOptions, l_query: i32, s: &super::Seed, p: &AlnReg) -> bool {
    let (sl, se) = (i64::from(s.len), s.rbeg + i64::from(s.len));
    if s.rbeg < p.rb || se > p.re || s.qbeg < p.qb || s.qbeg + s.len > p.qe {
        return false;
    }
    if f64::from(s.len - p.seedlen0) > 0.1 * f64::from(l_query) {
        return false;
    }
    let near = |qd: i32, rd: i64| {
        let max_gap = cal_max_gap(opt, i64::from(qd).min(rd) as i32);
        let w = i64::from(max_gap.min(p.w));
        i64::from(qd) - rd < w && rd - i64::from(qd) < w
    };
    let _ = sl;
    near(s.qbeg - p.qb, s.rbeg - p.rb) || near(p.qe - (s.qbeg + s.len), p.re - se)
}

/// Whether a longer seed of the chain overlapping `s` lies on another diagonal (so
/// that `s`, though covered, may lead elsewhere).
fn overlaps_other_diagonal(c: &Chain, srt: &[u64], k: usize, s: &super::Seed) -> bool {
    for &key in &srt[k + 1..] {
        if key == 0 {
            continue;
        }
        let t = &c.seeds[key as u32 as usize];
        if f64::from(t.len) < f64::from(s.len) * 0.95 {
            continue;
        }
        if s.qbeg <= t.qbeg
            && s.qbeg + s.len - t.qbeg >= s.len >> 2
            && i64::from(t.qbeg - s.qbeg) != t.rbeg - s.rbeg
        {
            return true;
        }
        if t.qbeg <= s.qbeg
            && t.qbeg + t.len - s.qbeg >= s.len >> 2
            && i64::from(s.qbeg - t.qbeg) != s.rbeg - t.rbeg
        {
            return true;
        }
    }
    false
}

/// `mem_chain2aln`: appends the regions of chain `c` of read `query` (base codes) to
/// `av`.
pub fn chain2aln(
    opt: &AlignOptions,
    contigs: &Contigs,
    pac: &Pac,
    query: &[u8],
    c: &Chain,
    av: &mut Vec<AlnReg>,
) {
    if c.seeds.is_empty() {
        return;
    }
    let l_query = query.len() as i32;
    let (lo, hi) = max_span(opt, pac.l_pac(), l_query, c);
    let (lo, hi, rid, rseq) = pac.fetch_seq(contigs, lo, c.seeds[0].rbeg, hi);
    debug_assert_eq!(rid, c.rid);
    let rmax = (lo, hi);
    let mut srt: Vec<u64> = c
        .seeds
        .iter()
        .enumerate()
        .map(|(i, s)| (s.score as u32 as u64) << 32 | i as u64)
        .collect();
    introsort(&mut srt, |a, b| a < b);
    for k in (0..srt.len()).rev() {
        let s = c.seeds[srt[k] as u32 as usize];
        if av.iter().any(|p| covered_by(opt, l_query, &s, p))
            && !overlaps_other_diagonal(c, &srt, k, &s)
        {
            srt[k] = 0;
            continue;
        }
        let mut a = extend_seed(opt, query, &rseq, rmax, &s);
        a.rid = c.rid as i32;
        a.seedcov = c
            .seeds
            .iter()
            .filter(|t| {
                t.qbeg >= a.qb
                    && t.qbeg + t.len <= a.qe
                    && t.rbeg >= a.rb
                    && t.rbeg + i64::from(t.len) <= a.re
            })
            .map(|t| t.len)
            .sum();
        a.seedlen0 = s.len;
        a.frac_rep = c.frac_rep;
        av.push(a);
    }
}

/// One extension with the band retry: `ksw_extend2` with band `w`, then `2w` where the
/// score changed and the best path strayed far from the diagonal; returns the last
/// extension and band.
fn extend_with_retry(
    opt: &AlignOptions,
    q: &[u8],
    t: &[u8],
    end_bonus: i32,
    h0: i32,
    mut prev: i32,
) -> (crate::align::Extension, i32) {
    let mat = opt.matrix();
    let mut i = 0;
    loop {
        let aw = opt.w() << i;
        let x = extend(q, t, &mat, &opt.scoring(aw, end_bonus), h0);
        i += 1;
        if x.score == prev || x.max_off < (aw >> 1) + (aw >> 2) || i >= MAX_BAND_TRY {
            return (x, aw);
        }
        prev = x.score;
    }
}

/// The region of seed `s` extended both ways over `rseq` (the reference `rmax.0 ..
/// rmax.1`).
fn extend_seed(
    opt: &AlignOptions,
    query: &[u8],
    rseq: &[u8],
    rmax: (i64, i64),
    s: &super::Seed,
) -> AlnReg {
    let l_query = query.len() as i32;
    let mut a = AlnReg {
        score: -1,
        truesc: -1,
        ..AlnReg::default()
    };
    let mut aw = [opt.w(), opt.w()];
    if s.qbeg > 0 {
        let qs: Vec<u8> = query[..s.qbeg as usize].iter().rev().copied().collect();
        let tmp = (s.rbeg - rmax.0) as usize;
        let rs: Vec<u8> = rseq[..tmp].iter().rev().copied().collect();
        let (x, w) = extend_with_retry(opt, &qs, &rs, opt.pen_clip5, s.len * opt.a, a.score);
        aw[0] = w;
        a.score = x.score;
        if x.gscore <= 0 || x.gscore <= a.score - opt.pen_clip5 {
            a.qb = s.qbeg - x.qle;
            a.rb = s.rbeg - i64::from(x.tle);
            a.truesc = a.score;
        } else {
            a.qb = 0;
            a.rb = s.rbeg - i64::from(x.gtle);
            a.truesc = x.gscore;
        }
    } else {
        a.score = s.len * opt.a;
        a.truesc = a.score;
        a.qb = 0;
        a.rb = s.rbeg;
    }
    if s.qbeg + s.len != l_query {
        let sc0 = a.score;
        let qe = s.qbeg + s.len;
        let re = (s.rbeg + i64::from(s.len) - rmax.0) as usize;
        let (x, w) = extend_with_retry(
            opt,
            &query[qe as usize..],
            &rseq[re..],
            opt.pen_clip3,
            sc0,
            a.score,
        );
        aw[1] = w;
        a.score = x.score;
        if x.gscore <= 0 || x.gscore <= a.score - opt.pen_clip3 {
            a.qe = qe + x.qle;
            a.re = rmax.0 + re as i64 + i64::from(x.tle);
            a.truesc += a.score - sc0;
        } else {
            a.qe = l_query;
            a.re = rmax.0 + re as i64 + i64::from(x.gtle);
            a.truesc += x.gscore - sc0;
        }
    } else {
        a.qe = l_query;
        a.re = s.rbeg + i64::from(s.len);
    }
    a.w = aw[0].max(aw[1]);
    a
}

/// `mem_seed_sw`: the local alignment score around seed `s`, or -1 where the seed or
/// its surroundings are long enough not to need it.
fn seed_sw(opt: &AlignOptions, contigs: &Contigs, pac: &Pac, query: &[u8], s: &super::Seed) -> i32 {
    let (l_pac, l_query) = (pac.l_pac(), query.len() as i64);
    if i64::from(s.len) >= MEM_SHORT_LEN {
        return -1;
    }
    let qb = (i64::from(s.qbeg) - MEM_SHORT_EXT).max(0);
    let qe = (i64::from(s.qbeg + s.len) + MEM_SHORT_EXT).min(l_query);
    let mid = (s.rbeg + s.rbeg + i64::from(s.len)) >> 1;
    let mut rb = (s.rbeg - MEM_SHORT_EXT).max(0);
    let mut re = (s.rbeg + i64::from(s.len) + MEM_SHORT_EXT).min(l_pac << 1);
    if rb < l_pac && l_pac < re {
        if mid < l_pac {
            re = l_pac;
        } else {
            rb = l_pac;
        }
    }
    if qe - qb >= MEM_SHORT_LEN || re - rb >= MEM_SHORT_LEN {
        return -1;
    }
    let (_, _, _, rseq) = pac.fetch_seq(contigs, rb, mid, re);
    let q = &query[qb as usize..qe as usize];
    align2(q, &rseq, &opt.matrix(), &opt.scoring(0, 0), XSTART).score
}

/// `mem_flt_chained_seeds`: for reads long enough, each seed rescored by
/// [`seed_sw`] and those scoring below the minimal HSP score dropped.
pub fn filter_chained_seeds(
    opt: &AlignOptions,
    contigs: &Contigs,
    pac: &Pac,
    query: &[u8],
    chains: &mut [Chain],
) {
    let l_query = query.len();
    let min_l = match opt.chain.min_chain_weight {
        0 => 5.5f32 as f64 * (l_query as f64).ln(),
        w => f64::from(1.1f32 * w as f32),
    };
    let min_hsp = (f64::from(opt.a) * min_l + 0.499) as i32;
    if min_l > f64::from(0.05f32 * l_query as f32) {
        return;
    }
    for c in chains.iter_mut() {
        let mut kept = Vec::with_capacity(c.seeds.len());
        for s in &c.seeds {
            let score = seed_sw(opt, contigs, pac, query, s);
            if score < 0 || score >= min_hsp {
                let mut s = *s;
                s.score = if score < 0 { s.len * opt.a } else { score };
                kept.push(s);
            }
        }
        c.seeds = kept;
    }
}
