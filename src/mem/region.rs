//! bwa mem's alignment regions (`mem_alnreg_t`) and what bwa does with them before
//! output: `mem_sort_dedup_patch` (redundant hits dropped, colinear ones merged by
//! `mem_patch_reg`'s global alignment) and `mem_mark_primary_se` (primary, secondary
//! and ALT hits, ties broken by `hash_64` of the read's index), with klib's sorts.

use super::cigar::gen_cigar;
use super::ksort::introsort;
use super::pac::Pac;
use super::settings::AlignOptions;

/// An alignment region of a read (`mem_alnreg_t`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AlnReg {
    /// Reference start (forward-then-reverse text).
    pub rb: i64,
    /// Reference end.
    pub re: i64,
    /// Query start.
    pub qb: i32,
    /// Query end.
    pub qe: i32,
    /// Contig.
    pub rid: i32,
    /// Best local score.
    pub score: i32,
    /// Score of the region as aligned.
    pub truesc: i32,
    /// Second best score.
    pub sub: i32,
    /// Score of the ALT hit shadowing it.
    pub alt_sc: i32,
    /// Score of a tandem hit.
    pub csub: i32,
    /// Approximate count of suboptimal hits.
    pub sub_n: i32,
    /// Band width used in extension.
    pub w: i32,
    /// Read bases covered by seeds.
    pub seedcov: i32,
    /// The hit shadowing it (<0: primary; `i32::MAX`: an ALT hit's).
    pub secondary: i32,
    /// The hit shadowing it, ALT hits counted.
    pub secondary_all: i32,
    /// The length of the seed it was extended from.
    pub seedlen0: i32,
    /// Regions merged into it.
    pub n_comp: i32,
    /// Whether it lies on an ALT contig.
    pub is_alt: bool,
    /// The share of the read covered by frequent seeds.
    pub frac_rep: f32,
    /// The tie-breaking hash.
    pub hash: u64,
}

/// klib's `hash_64`.
pub fn hash_64(mut key: u64) -> u64 {
    key = key.wrapping_add(!(key << 32));
    key ^= key >> 22;
    key = key.wrapping_add(!(key << 13));
    key ^= key >> 8;
    key = key.wrapping_add(key << 3);
    key ^= key >> 15;
    key = key.wrapping_add(!(key << 27));
    key ^= key >> 31;
    key
}

/// `PATCH_MAX_R_BW` (a C float).
const PATCH_MAX_R_BW: f32 = 0.05;
/// `PATCH_MIN_SC_RATIO` (a C float).
const PATCH_MIN_SC_RATIO: f32 = 0.90;

/// `mem_patch_reg`: the score and band of `a` and `b` merged by global alignment, or
/// `None` where they are not to be merged.
fn patch_reg(
    opt: &AlignOptions,
    pac: &Pac,
    query: &[u8],
    a: &AlnReg,
    b: &AlnReg,
) -> Option<(i32, i32)> {
    let l_pac = pac.l_pac();
    if a.rb < l_pac && b.rb >= l_pac {
        return None;
    }
    if a.qb >= b.qb || a.qe >= b.qe || a.re >= b.re {
        return None;
    }
    let mut w = (((a.re - b.rb) - i64::from(a.qe - b.qb)) as i32).abs();
    let r = ((a.re - b.rb) as f64 / (b.re - a.rb) as f64
        - f64::from(a.qe - b.qb) / f64::from(b.qe - a.qb))
    .abs();
    let ow = opt.w();
    if a.re < b.rb || a.qe < b.qb {
        if w > ow << 1 || r >= f64::from(PATCH_MAX_R_BW) {
            return None;
        }
    } else if w > ow << 2 || r >= f64::from(PATCH_MAX_R_BW * 2.0) {
        return None;
    }
    w += a.w + b.w;
    w = w.min(ow << 2);
    let q = &query[a.qb as usize..b.qe as usize];
    let score = gen_cigar(opt, w, pac, q, a.rb, b.re, false)?.score;
    let sum = f64::from(b.score + a.score);
    let q_s =
        (f64::from(b.qe - a.qb) / f64::from((b.qe - b.qb) + (a.qe - a.qb)) * sum + 0.499) as i32;
    let r_s = ((b.re - a.rb) as f64 / ((b.re - b.rb) + (a.re - a.rb)) as f64 * sum + 0.499) as i32;
    if f64::from(score) / f64::from(q_s.max(r_s)) < f64::from(PATCH_MIN_SC_RATIO) {
        return None;
    }
    Some((score, w))
}

/// `alnreg_slt2`: by end.
fn by_end(a: &AlnReg, b: &AlnReg) -> bool {
    a.re < b.re
}

/// `alnreg_slt`: by score (descending), then start.
fn by_score(a: &AlnReg, b: &AlnReg) -> bool {
    a.score > b.score || (a.score == b.score && (a.rb < b.rb || (a.rb == b.rb && a.qb < b.qb)))
}

/// `alnreg_hlt`: by score (descending), non-ALT first, then hash.
fn by_hash(a: &AlnReg, b: &AlnReg) -> bool {
    a.score > b.score
        || (a.score == b.score
            && (a.is_alt < b.is_alt || (a.is_alt == b.is_alt && a.hash < b.hash)))
}

/// `alnreg_hlt2`: non-ALT first, then by score (descending), then hash.
fn by_hash2(a: &AlnReg, b: &AlnReg) -> bool {
    a.is_alt < b.is_alt
        || (a.is_alt == b.is_alt && (a.score > b.score || (a.score == b.score && a.hash < b.hash)))
}

/// Keeps the regions with `qe > qb` (from `from` on), in order.
fn keep_nonempty(a: &mut Vec<AlnReg>, from: usize) {
    let mut m = from;
    for i in from..a.len() {
        if a[i].qe > a[i].qb {
            a[m] = a[i];
            m += 1;
        }
    }
    a.truncate(m);
}

/// `mem_sort_dedup_patch` over the regions of read `query` (base codes).
pub fn sort_dedup_patch(opt: &AlignOptions, pac: &Pac, query: &[u8], a: &mut Vec<AlnReg>) {
    sort_dedup(opt, Some((pac, query)), a);
}

/// `mem_sort_dedup_patch`, colinear regions merged where `patch` gives the text and the
/// read, never where it is `None` (bwa's call without them, after mate rescue).
pub fn sort_dedup(opt: &AlignOptions, patch: Option<(&Pac, &[u8])>, a: &mut Vec<AlnReg>) {
    if a.len() <= 1 {
        return;
    }
    introsort(a, by_end);
    for r in a.iter_mut() {
        r.n_comp = 1;
    }
    let gap = i64::from(opt.chain.max_chain_gap);
    for i in 1..a.len() {
        if a[i].rid != a[i - 1].rid || a[i].rb >= a[i - 1].re + gap {
            continue;
        }
        let mut j = i;
        while j > 0 && a[i].rid == a[j - 1].rid && a[i].rb < a[j - 1].re + gap {
            j -= 1;
            if dedup_pair(opt, patch, a, i, j) {
                break;
            }
        }
    }
    keep_nonempty(a, 0);
    introsort(a, by_score);
    for i in 1..a.len() {
        if a[i].score == a[i - 1].score && a[i].rb == a[i - 1].rb && a[i].qb == a[i - 1].qb {
            a[i].qe = a[i].qb;
        }
    }
    keep_nonempty(a, 1);
}

/// One step of the inner loop of `mem_sort_dedup_patch`: `p = a[i]` against an
/// earlier `q = a[j]`; true where the loop breaks (`p` dropped).
fn dedup_pair(
    opt: &AlignOptions,
    patch: Option<(&Pac, &[u8])>,
    a: &mut [AlnReg],
    i: usize,
    j: usize,
) -> bool {
    let (p, q) = (a[i], a[j]);
    if q.qe == q.qb {
        return false;
    }
    let or = q.re - p.rb;
    let oq = i64::from(if q.qb < p.qb {
        q.qe - p.qb
    } else {
        p.qe - q.qb
    });
    let mr = (q.re - q.rb).min(p.re - p.rb);
    let mq = i64::from((q.qe - q.qb).min(p.qe - p.qb));
    let lvl = opt.mask_level_redun;
    if (or as f32) > lvl * mr as f32 && (oq as f32) > lvl * mq as f32 {
        if p.score < q.score {
            a[i].qe = a[i].qb;
            return true;
        }
        a[j].qe = a[j].qb;
    } else if let (true, Some((pac, query))) = (q.rb < p.rb, patch) {
        if let Some((score, w)) = patch_reg(opt, pac, query, &q, &p) {
            let p = &mut a[i];
            p.n_comp += q.n_comp + 1;
            p.seedcov = p.seedcov.max(q.seedcov);
            p.sub = p.sub.max(q.sub);
            p.csub = p.csub.max(q.csub);
            p.qb = q.qb;
            p.rb = q.rb;
            p.score = score;
            p.truesc = score;
            p.w = w;
            a[j].qb = a[j].qe;
        }
    }
    false
}

/// `mem_mark_primary_se_core` over the first `n` regions; `z` the primary ones' indices.
fn mark_primary_core(opt: &AlignOptions, a: &mut [AlnReg], n: usize, z: &mut Vec<usize>) {
    let tmp = (opt.a + opt.b)
        .max(opt.o_del + opt.e_del)
        .max(opt.o_ins + opt.e_ins);
    z.clear();
    z.push(0);
    for i in 1..n {
        let mut shadow = None;
        for &j in z.iter() {
            let b_max = a[j].qb.max(a[i].qb);
            let e_min = a[j].qe.min(a[i].qe);
            if e_min > b_max {
                let min_l = (a[i].qe - a[i].qb).min(a[j].qe - a[j].qb);
                if (e_min - b_max) as f32 >= min_l as f32 * opt.chain.mask_level {
                    if a[j].sub == 0 {
                        a[j].sub = a[i].score;
                    }
                    if a[j].score - a[i].score <= tmp && (a[j].is_alt || !a[i].is_alt) {
                        a[j].sub_n += 1;
                    }
                    shadow = Some(j);
                    break;
                }
            }
        }
        match shadow {
            None => z.push(i),
            Some(j) => a[i].secondary = j as i32,
        }
    }
}

/// `mem_mark_primary_se` for read number `id` (from 0 across the run); returns the
/// count of non-ALT regions.
pub fn mark_primary_se(opt: &AlignOptions, a: &mut [AlnReg], id: u64) -> usize {
    let n = a.len();
    if n == 0 {
        return 0;
    }
    let mut n_pri = 0;
    for (i, r) in a.iter_mut().enumerate() {
        r.sub = 0;
        r.alt_sc = 0;
        r.secondary = -1;
        r.secondary_all = -1;
        r.hash = hash_64(id.wrapping_add(i as u64));
        n_pri += usize::from(!r.is_alt);
    }
    introsort(a, by_hash);
    let mut z = Vec::new();
    mark_primary_core(opt, a, n, &mut z);
    for i in 0..n {
        a[i].secondary_all = i as i32;
        let s = a[i].secondary;
        if !a[i].is_alt && s >= 0 && a[s as usize].is_alt {
            a[i].alt_sc = a[s as usize].score;
        }
    }
    if n_pri < n {
        if n_pri > 0 {
            introsort(a, by_hash2);
        }
        let mut rank = vec![0usize; n];
        for i in 0..n {
            rank[a[i].secondary_all as usize] = i;
        }
        for r in a.iter_mut() {
            if r.secondary >= 0 {
                r.secondary_all = rank[r.secondary as usize] as i32;
                if r.is_alt {
                    r.secondary = i32::MAX;
                }
            } else {
                r.secondary_all = -1;
            }
        }
        if n_pri > 0 {
            for r in a[..n_pri].iter_mut() {
                r.sub = 0;
                r.secondary = -1;
            }
            mark_primary_core(opt, a, n_pri, &mut z);
        }
    } else {
        for r in a.iter_mut() {
            r.secondary_all = r.secondary;
        }
    }
    n_pri
}

/// `mem_reorder_primary5` (`-5`): of the primary non-ALT hits scoring at least `t`,
/// the one starting first on the read swapped to the front.
pub fn reorder_primary5(t: i32, a: &mut [AlnReg]) {
    let counts = |p: &AlnReg| p.secondary < 0 && !p.is_alt && p.score >= t;
    if a.iter().filter(|p| counts(p)).count() <= 1 {
        return;
    }
    let (mut left_st, mut left_k) = (i32::MAX, 0);
    for (k, p) in a.iter().enumerate() {
        if counts(p) && p.qb < left_st {
            (left_st, left_k) = (p.qb, k);
        }
    }
    if left_k == 0 {
        return;
    }
    a.swap(0, left_k);
    let swap = |x: &mut i32| {
        if *x == 0 {
            *x = left_k as i32;
        } else if *x == left_k as i32 {
            *x = 0;
        }
    };
    for p in a[1..].iter_mut() {
        swap(&mut p.secondary);
        swap(&mut p.secondary_all);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// klib's `hash_64`, values from bwa's C code.
    #[test]
    fn hash_64_as_bwa() {
        assert_eq!(hash_64(0), 7654268697807496793);
        assert_eq!(hash_64(1), 2320827452992767577);
        assert_eq!(hash_64(123456789), 1734215268924325803);
    }

    /// Primary first, an overlapping lower hit shadowed by it and counted as its sub.
    #[test]
    fn mark_primary_shadows_overlapping_hits() {
        let opt = AlignOptions::default();
        let reg = |score, qb, qe, rb| AlnReg {
            score,
            qb,
            qe,
            rb,
            re: rb + i64::from(qe - qb),
            ..AlnReg::default()
        };
        let mut a = vec![
            reg(40, 0, 50, 1000),
            reg(90, 0, 100, 0),
            reg(50, 100, 150, 5000),
        ];
        assert_eq!(mark_primary_se(&opt, &mut a, 7), 3);
        assert_eq!(a.iter().map(|r| r.score).collect::<Vec<_>>(), [90, 50, 40]);
        assert_eq!(
            a.iter().map(|r| r.secondary).collect::<Vec<_>>(),
            [-1, -1, 0]
        );
        assert_eq!(a[0].sub, 40);
    }
}
