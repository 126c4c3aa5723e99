//! bwa mem's third seeding pass over one start (`bwt_seed_strategy1`, bwt.c 0.7.17): the
//! shortest match from a base that is longer than `min_len` and has fewer than
//! `max_intv` occurrences.

use super::smem::{base_interval, extend, Interval, Smem};
use crate::fmd::bwt::Bwt;

/// The match `bwt_seed_strategy1` finds from base `x` of `query` (bases coded as
/// [`super::nt4`] codes them), and where the next search starts. The match is the
/// first extension of `query[x..]` forward of more than `min_len` bases whose interval
/// is smaller than `max_intv` (compared unsigned, as bwa compares it); `None` where an
/// ambiguous base or the read's end comes first, or where that interval is empty (bwa
/// returns it and its caller drops it).
pub fn seed_strategy1(
    bwt: &Bwt,
    query: &[u8],
    x: usize,
    min_len: i32,
    max_intv: i32,
) -> (usize, Option<Smem>) {
    if query[x] > 3 {
        return (x + 1, None);
    }
    let mut ik = base_interval(bwt, query[x]);
    for i in x + 1..query.len() {
        if query[i] > 3 {
            return (i + 1, None);
        }
        let ok = extend(bwt, &ik, false)[usize::from(3 - query[i])];
        if ok[2] < max_intv as i64 as u64 && (i - x) as i64 >= i64::from(min_len) {
            let found = (ok[2] > 0).then_some(Smem {
                begin: x,
                end: i + 1,
                interval: Interval {
                    k: ok[0],
                    l: ok[1],
                    size: ok[2],
                },
            });
            return (i + 1, found);
        }
        ik = ok;
    }
    (query.len(), None)
}
