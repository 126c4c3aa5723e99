//! Pairing of the mates' hits as bwa mem 0.7.17 does it (`mem_pair` of
//! bwamem_pair.c): the primary hits of both mates sorted by contig and position, every
//! two of different mates whose orientation is in use and whose distance lies within
//! its bounds scored as the sum of their scores plus the insert size's log-likelihood,
//! ties broken by `hash_64`; the best pair, the second best score and the count of
//! pairs near it.

use super::ksort::introsort;
use super::pestat::PeStats;
use super::region::{hash_64, AlnReg};
use super::settings::AlignOptions;
use crate::fmd::ann::Contigs;

extern "C" {
    /// The C library's `erfc`, which bwa calls (Rust's standard library has none).
    fn erfc(x: f64) -> f64;
}

/// `erfc(x)`.
fn c_erfc(x: f64) -> f64 {
    // SAFETY: `erfc` is a pure function of a double, defined for every input.
    unsafe { erfc(x) }
}

/// The best pair `mem_pair` finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairHit {
    /// Its score (`o`).
    pub score: i32,
    /// The second best pair's score (0: none).
    pub sub: i32,
    /// Pairs scoring within a gap's or mismatch's cost below the second best.
    pub n_sub: i32,
    /// The hit of each mate in the pair.
    pub z: [usize; 2],
}

/// klib's `pair64_t` ordering: by `x`, then `y`.
fn pair_lt(a: &(u64, u64), b: &(u64, u64)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// `mem_pair` for pair number `id`, over the first `n_pri[r]` hits of each mate
/// `a[r]`; `None` where no two hits make a proper pair (bwa's score 0).
pub fn pair(
    opt: &AlignOptions,
    contigs: &Contigs,
    l_pac: i64,
    pes: &PeStats,
    a: [&[AlnReg]; 2],
    id: u64,
    n_pri: [usize; 2],
) -> Option<PairHit> {
    let mut v: Vec<(u64, u64)> = Vec::new();
    for r in 0..2 {
        for (i, e) in a[r][..n_pri[r]].iter().enumerate() {
            let fwd = if e.rb < l_pac {
                e.rb
            } else {
                (l_pac << 1) - 1 - e.rb
            };
            let offset = contigs.contigs[e.rid as usize].offset as i64;
            let x = (e.rid as u64) << 32 | (fwd - offset) as u64;
            let y = (e.score as u64) << 32
                | ((i as u32) << 2) as u64
                | u64::from(e.rb >= l_pac) << 1
                | r as u64;
            v.push((x, y));
        }
    }
    introsort(&mut v, pair_lt);
    let id_key = ((id as i32).wrapping_shl(8)) as i64 as u64;
    let mut u: Vec<(u64, u64)> = Vec::new();
    let mut last = [-1i64; 4];
    for i in 0..v.len() {
        for r in 0..2u64 {
            let dir = (r << 1 | (v[i].1 >> 1 & 1)) as usize;
            if pes[dir].failed {
                continue;
            }
            let which = (r << 1 | ((v[i].1 & 1) ^ 1)) as usize;
            let mut k = last[which];
            while k >= 0 {
                let vk = v[k as usize];
                k -= 1;
                if (vk.1 & 3) as usize != which {
                    continue;
                }
                let dist = v[i].0.wrapping_sub(vk.0) as i64;
                if dist > i64::from(pes[dir].high) {
                    break;
                }
                if dist < i64::from(pes[dir].low) {
                    continue;
                }
                let ns = (dist as f64 - pes[dir].avg) / pes[dir].std;
                let like = 0.721 * (2.0 * c_erfc(ns.abs() * std::f64::consts::FRAC_1_SQRT_2)).ln();
                let q =
                    ((v[i].1 >> 32) as f64 + (vk.1 >> 32) as f64 + like * f64::from(opt.a) + 0.499)
                        as i32;
                let y = ((k + 1) as u64) << 32 | i as u64;
                let x = (q.max(0) as u64) << 32 | (hash_64(y ^ id_key) & 0xffff_ffff);
                u.push((x, y));
            }
        }
        last[(v[i].1 & 3) as usize] = i as i64;
    }
    best_pair(opt, &v, u)
}

/// The best of the candidate pairs `u` (over the sorted hits `v`), its runner-up and
/// the count of pairs close to that.
fn best_pair(opt: &AlignOptions, v: &[(u64, u64)], mut u: Vec<(u64, u64)>) -> Option<PairHit> {
    if u.is_empty() {
        return None;
    }
    let tmp = (opt.a + opt.b)
        .max(opt.o_del + opt.e_del)
        .max(opt.o_ins + opt.e_ins);
    introsort(&mut u, pair_lt);
    let best = u[u.len() - 1];
    let (i, k) = ((best.1 >> 32) as usize, (best.1 & 0xffff_ffff) as usize);
    let mut z = [0usize; 2];
    z[(v[i].1 & 1) as usize] = (v[i].1 << 32 >> 34) as usize;
    z[(v[k].1 & 1) as usize] = (v[k].1 << 32 >> 34) as usize;
    let sub = if u.len() > 1 {
        (u[u.len() - 2].0 >> 32) as i32
    } else {
        0
    };
    let n_sub = u[..u.len() - 1]
        .iter()
        .filter(|p| sub - (p.0 >> 32) as i32 <= tmp)
        .count() as i32;
    Some(PairHit {
        score: (best.0 >> 32) as i32,
        sub,
        n_sub,
        z,
    })
}
