//! bwa mem's chain filter (`mem_chain_flt`, bwamem.c 0.7.17): chains lighter than `-W`
//! dropped, the rest sorted by weight (klib's unstable introsort, ties as bwa leaves
//! them), and a chain dropped where it overlaps a much heavier kept one; and the seed
//! filter that follows (`mem_flt_chained_seeds`), which does nothing for reads short
//! enough, and is not ported for longer ones.

use super::chain::{weight, Chain};
use super::ksort::introsort;
use super::MemOptions;

/// `mem_flt_chained_seeds` would re-score seeds by Smith-Waterman: not ported yet.
#[derive(Debug, thiserror::Error)]
#[error(
    "a read of {len} bases: bwa mem re-scores its seeds by Smith-Waterman \
     (mem_flt_chained_seeds), which galign does not do yet (reads up to about 700 bases \
     with -W 0 are exact)"
)]
pub struct LongReadError {
    /// The read's length.
    pub len: usize,
}

/// The filtered chains of `chains` (as [`super::chain::chains`] lists them), in bwa's
/// order (heaviest first), with their weights and verdicts set.
pub fn filter(mut chains: Vec<Chain>, opt: &MemOptions) -> Vec<Chain> {
    for c in &mut chains {
        c.first = -1;
        c.kept = 0;
        c.w = weight(c);
    }
    chains.retain(|c| i64::from(c.w) >= i64::from(opt.min_chain_weight));
    if chains.is_empty() {
        return chains;
    }
    let mut order: Vec<(u32, usize)> = chains.iter().map(|c| c.w).zip(0..).collect();
    introsort(&mut order, |a, b| a.0 > b.0);
    let mut slots: Vec<Option<Chain>> = chains.into_iter().map(Some).collect();
    let mut a: Vec<Chain> = order
        .iter()
        .map(|&(_, i)| slots[i].take().expect("once"))
        .collect();
    mark_overlaps(&mut a, opt);
    limit_extensions(&mut a, opt);
    a.retain(|c| c.kept != 0);
    a
}

/// The read's span of a chain (`chn_beg`, `chn_end`).
fn span(c: &Chain) -> (i32, i32) {
    let last = c.seeds[c.seeds.len() - 1];
    (c.seeds[0].qbeg, last.qbeg + last.len)
}

/// The pairwise comparisons: each chain against those kept before it.
fn mark_overlaps(a: &mut [Chain], opt: &MemOptions) {
    let mut kept: Vec<usize> = vec![0];
    a[0].kept = 3;
    for i in 1..a.len() {
        let mut large_ovlp = false;
        let mut dropped = false;
        for &j in &kept {
            let ((bi, ei), (bj, ej)) = (span(&a[i]), span(&a[j]));
            let (b_max, e_min) = (bi.max(bj), ei.min(ej));
            if !(e_min > b_max && (!a[j].is_alt || a[i].is_alt)) {
                continue;
            }
            let min_l = (ei - bi).min(ej - bj);
            if (e_min - b_max) as f32 >= min_l as f32 * opt.mask_level && min_l < opt.max_chain_gap
            {
                large_ovlp = true;
                if a[j].first < 0 {
                    a[j].first = i as i32;
                }
                let (wi, wj) = (a[i].w, a[j].w);
                if (wi as f32) < wj as f32 * opt.drop_ratio
                    && i64::from(wj) - i64::from(wi) >= i64::from(opt.min_seed_len << 1)
                {
                    dropped = true;
                    break;
                }
            }
        }
        if !dropped {
            kept.push(i);
            a[i].kept = if large_ovlp { 2 } else { 3 };
        }
    }
    for &j in &kept {
        if a[j].first >= 0 {
            let first = a[j].first as usize;
            a[first].kept = 1;
        }
    }
}

/// At most `-N` chains of verdict 1 or 2 kept: those after the `-N`th dropped.
fn limit_extensions(a: &mut [Chain], opt: &MemOptions) {
    let mut k = 0;
    let mut i = 0;
    while i < a.len() {
        if a[i].kept != 0 && a[i].kept != 3 {
            k += 1;
            if k >= opt.max_chain_extend {
                break;
            }
        }
        i += 1;
    }
    for c in &mut a[i..] {
        if c.kept < 3 {
            c.kept = 0;
        }
    }
}

/// `mem_flt_chained_seeds` for a read of `len` bases: nothing to do where bwa returns
/// at once (its minimal HSP length above 5% of the read), else an error.
pub fn check_seed_filter(len: usize, opt: &MemOptions) -> Result<(), LongReadError> {
    // bwa's constants are C floats: `MEM_HSP_COEF * w` and `MEM_SEEDSW_COEF * l_query`
    // are float products.
    let min_l = match opt.min_chain_weight {
        0 => 5.5 * (len as f64).ln(),
        w => f64::from(1.1f32 * w as f32),
    };
    match min_l > f64::from(0.05f32 * len as f32) {
        true => Ok(()),
        false => Err(LongReadError { len }),
    }
}
