//! `mem_approx_mapq_se` (bwamem.c 0.7.17): a single-end hit's mapping quality from its
//! score, the second best, seed coverage, suboptimal hits and repetitiveness.

use super::region::AlnReg;
use super::settings::AlignOptions;

/// `MEM_MAPQ_COEF`.
const MEM_MAPQ_COEF: f64 = 30.0;

/// `mem_approx_mapq_se` of region `a`.
pub fn approx_mapq_se(opt: &AlignOptions, a: &AlnReg) -> i32 {
    let mut sub = if a.sub != 0 {
        a.sub
    } else {
        opt.chain.min_seed_len * opt.a
    };
    sub = sub.max(a.csub);
    if sub >= a.score {
        return 0;
    }
    let l = (a.qe - a.qb).max((a.re - a.rb) as i32);
    let identity = 1.0 - f64::from(l * opt.a - a.score) / f64::from(opt.a + opt.b) / f64::from(l);
    let mut mapq = if a.score == 0 {
        0
    } else if opt.mapq_coef_len > 0.0 {
        let mut tmp = if (l as f32) < opt.mapq_coef_len {
            1.0
        } else {
            f64::from(opt.mapq_coef_fac) / f64::from(l).ln()
        };
        tmp *= identity * identity;
        (6.02 * f64::from(a.score - sub) / f64::from(opt.a) * tmp * tmp + 0.499) as i32
    } else {
        let m = (MEM_MAPQ_COEF
            * (1.0 - f64::from(sub) / f64::from(a.score))
            * f64::from(a.seedcov).ln()
            + 0.499) as i32;
        if identity < 0.95 {
            (f64::from(m) * identity * identity + 0.499) as i32
        } else {
            m
        }
    };
    if a.sub_n > 0 {
        mapq -= (4.343 * f64::from(a.sub_n + 1).ln() + 0.499) as i32;
    }
    mapq = mapq.clamp(0, 60);
    (f64::from(mapq) * (1.0 - f64::from(a.frac_rep)) + 0.499) as i32
}
