//! A pair's output as bwa mem 0.7.17 writes it (`mem_sam_pe` of bwamem_pair.c): mate
//! rescue from each mate's good hits, primary hits marked, the mates paired; a pair
//! preferred to the unpaired hits is written with the proper-pair flag, the pair's
//! mapping quality blended into each mate's and capped by tandem repeats; otherwise
//! each mate is written as single-end, its mate's primary hit as its mate.

use super::mapq::approx_mapq_se;
use super::matesw::matesw;
use super::pac::Pac;
use super::pair::{pair, PairHit};
use super::pestat::{infer_dir, PeStats};
use super::region::{mark_primary_se, reorder_primary5, AlnReg};
use super::sam::{aln2sam, gen_alt, reg2aln, reg2sam, Aln, Pairing, SamRead};
use super::settings::AlignOptions;
use crate::fmd::ann::Contigs;

/// `raw_mapq`.
fn raw_mapq(diff: i32, a: i32) -> i32 {
    (6.02 * f64::from(diff) / f64::from(a) + 0.499) as i32
}

/// The text and contigs a pair is aligned against.
#[derive(Clone, Copy)]
pub struct Target<'a> {
    /// The contigs.
    pub contigs: &'a Contigs,
    /// The packed text.
    pub pac: &'a Pac,
}

/// `mem_sam_pe` for pair number `id` (from 0 across the run) with mates `s` and their
/// regions `a` (as `mem_align1_core` leaves them): appends mate 1's lines, then mate
/// 2's, to `out`.
pub fn sam_pe(
    opt: &AlignOptions,
    t: Target,
    pes: &PeStats,
    id: u64,
    s: [&SamRead; 2],
    mut a: [Vec<AlnReg>; 2],
    out: &mut Vec<u8>,
) {
    if opt.rescue {
        rescue(opt, t, pes, s, &mut a);
    }
    let n_pri = [
        mark_primary_se(opt, &mut a[0], id << 1),
        mark_primary_se(opt, &mut a[1], id << 1 | 1),
    ];
    if opt.primary5 {
        reorder_primary5(opt.min_out_score, &mut a[0]);
        reorder_primary5(opt.min_out_score, &mut a[1]);
    }
    if opt.pairing && n_pri[0] > 0 && n_pri[1] > 0 {
        let hit = pair(
            opt,
            t.contigs,
            t.pac.l_pac(),
            pes,
            [&a[0], &a[1]],
            id,
            n_pri,
        );
        if let Some(hit) = hit.filter(|h| h.score > 0) {
            let multi = |i: usize| {
                a[i][1..n_pri[i]]
                    .iter()
                    .any(|r| r.secondary < 0 && r.score >= opt.min_out_score)
            };
            if !multi(0) && !multi(1) {
                return paired(opt, t, s, a, hit, n_pri, out);
            }
        }
    }
    unpaired(opt, t, pes, s, &a, n_pri, out);
}

/// Mate rescue: each mate's hits within `-U` of its best (at most `-m` of them) look for
/// the other mate.
fn rescue(
    opt: &AlignOptions,
    t: Target,
    pes: &PeStats,
    s: [&SamRead; 2],
    a: &mut [Vec<AlnReg>; 2],
) {
    let good: [Vec<AlnReg>; 2] = [0, 1].map(|i| {
        a[i].iter()
            .filter(|r| r.score >= a[i][0].score - opt.pen_unpaired)
            .copied()
            .collect()
    });
    for i in 0..2 {
        let max = opt.max_matesw.max(0) as usize;
        for b in good[i].iter().take(max) {
            matesw(opt, t.contigs, t.pac, pes, b, s[1 - i].seq, &mut a[1 - i]);
        }
    }
}

/// The pair `hit` written as a pair (`mem_sam_pe` past `mem_pair`).
fn paired(
    opt: &AlignOptions,
    t: Target,
    s: [&SamRead; 2],
    mut a: [Vec<AlnReg>; 2],
    hit: PairHit,
    n_pri: [usize; 2],
    out: &mut Vec<u8>,
) {
    let mut z = hit.z;
    let score_un = a[0][0].score + a[1][0].score - opt.pen_unpaired;
    let subo = hit.sub.max(score_un);
    let mut q_pe = raw_mapq(hit.score - subo, opt.a);
    if hit.n_sub > 0 {
        q_pe -= (4.343 * f64::from(hit.n_sub + 1).ln() + 0.499) as i32;
    }
    q_pe = q_pe.clamp(0, 60);
    let rep = f64::from(a[0][0].frac_rep + a[1][0].frac_rep);
    q_pe = (f64::from(q_pe) * (1.0 - 0.5 * rep) + 0.499) as i32;
    let mut q_se = [0; 2];
    let mut extra_flag = 1;
    if hit.score > score_un {
        for i in 0..2 {
            let sec = a[i][z[i]].secondary;
            if sec >= 0 {
                a[i][z[i]].sub = a[i][sec as usize].score;
                a[i][z[i]].secondary = -2;
            }
            let c = &a[i][z[i]];
            let q = approx_mapq_se(opt, c);
            q_se[i] = if q > q_pe { q } else { q_pe.min(q + 40) };
            q_se[i] = q_se[i].min(raw_mapq(c.score - c.csub, opt.a));
        }
        extra_flag |= 2;
    } else {
        z = [0, 0];
        q_se = [approx_mapq_se(opt, &a[0][0]), approx_mapq_se(opt, &a[1][0])];
    }
    for i in 0..2 {
        let k = a[i][z[i]].secondary_all;
        if k >= 0 && (k as usize) < n_pri[i] {
            for j in 0..a[i].len() {
                if a[i][j].secondary_all == k || j == k as usize {
                    a[i][j].secondary_all = z[i] as i32;
                }
            }
            a[i][z[i]].secondary_all = -1;
        }
    }
    let xa: [Option<Vec<Option<String>>>; 2] = [0, 1].map(|i| match opt.all {
        false => gen_alt(opt, t.contigs, t.pac, &a[i], s[i].seq),
        true => None,
    });
    let xa_of = |i: usize, k: usize| xa[i].as_ref().and_then(|x| x[k].clone());
    let mut h: [Aln; 2] = Default::default();
    let mut aa: [Vec<Aln>; 2] = Default::default();
    for i in 0..2 {
        h[i] = reg2aln(opt, t.contigs, t.pac, s[i].seq, Some(&a[i][z[i]]));
        h[i].mapq = q_se[i];
        h[i].flag |= 0x40 << i | extra_flag;
        h[i].xa = xa_of(i, z[i]);
        aa[i].push(h[i].clone());
        if n_pri[i] < a[i].len() {
            let p = &a[i][n_pri[i]];
            if p.score < opt.min_out_score || p.secondary >= 0 || !p.is_alt {
                continue;
            }
            let mut g = reg2aln(opt, t.contigs, t.pac, s[i].seq, Some(p));
            g.flag |= 0x800 | 0x40 << i | extra_flag;
            g.xa = xa_of(i, n_pri[i]);
            aa[i].push(g);
        }
    }
    for i in 0..2 {
        for k in 0..aa[i].len() {
            aln2sam(opt, t.contigs, out, s[i], &aa[i], k, Some(&h[1 - i]));
        }
    }
}

/// The mates written each as single-end, with the mate's best hit as its mate, flagged
/// a proper pair where the two best hits make one (`mem_sam_pe`'s `no_pairing`).
fn unpaired(
    opt: &AlignOptions,
    t: Target,
    pes: &PeStats,
    s: [&SamRead; 2],
    a: &[Vec<AlnReg>; 2],
    n_pri: [usize; 2],
    out: &mut Vec<u8>,
) {
    let h: [Aln; 2] = [0, 1].map(|i| {
        let which = if a[i].is_empty() {
            None
        } else if a[i][0].score >= opt.min_out_score {
            Some(0)
        } else if n_pri[i] < a[i].len() && a[i][n_pri[i]].score >= opt.min_out_score {
            Some(n_pri[i])
        } else {
            None
        };
        reg2aln(opt, t.contigs, t.pac, s[i].seq, which.map(|w| &a[i][w]))
    });
    let mut extra_flag = 0;
    if opt.pairing && h[0].rid == h[1].rid && h[0].rid >= 0 {
        let (d, dist) = infer_dir(t.pac.l_pac(), a[0][0].rb, a[1][0].rb);
        if !pes[d].failed && dist >= i64::from(pes[d].low) && dist <= i64::from(pes[d].high) {
            extra_flag |= 2;
        }
    }
    for i in 0..2 {
        let pairing = Pairing {
            extra_flag: [0x41, 0x81][i] | extra_flag,
            mate: Some(&h[1 - i]),
        };
        reg2sam(opt, t.contigs, t.pac, s[i], &a[i], pairing, out);
    }
}
