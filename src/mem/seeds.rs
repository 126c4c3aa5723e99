//! bwa mem's seeding (`mem_collect_intv`, bwamem.c 0.7.17): the SMEMs of a read of at
//! least `-k` bases; inside each long one with few occurrences, the SMEMs from its middle
//! with more occurrences (re-seeding); the third pass's matches (`-y`); all sorted by
//! their start and end.
//!
//! bwa sorts with klib's unstable `ks_introsort` by `info` (start << 32 | end). Two
//! matches with the same start and end are the same bases of the read, hence the same
//! interval of the index: they are equal in every field, so the order of ties cannot
//! show, and any sort by (start, end) gives bwa's order.

use super::MemOptions;
use crate::fmd::bwt::Bwt;
use crate::seed::{seed_strategy1, Smem, SmemFinder};

/// The seeding's buffers, kept from read to read (bwa's `smem_aux_t`).
#[derive(Default)]
pub struct SeedFinder {
    finder: SmemFinder,
    found: Vec<Smem>,
}

impl SeedFinder {
    /// The seeds of `query` (bases coded as [`crate::seed::nt4`] codes them) into `out`
    /// (cleared first), in bwa's order.
    pub fn collect(&mut self, bwt: &Bwt, query: &[u8], opt: &MemOptions, out: &mut Vec<Smem>) {
        out.clear();
        self.smems(bwt, query, opt, out);
        self.reseed(bwt, query, opt, out);
        if opt.max_mem_intv > 0 {
            third_pass(bwt, query, opt, out);
        }
        out.sort_unstable_by_key(|m| (m.begin, m.end));
    }

    /// Pass 1: every SMEM (`bwt_smem1`, min_intv 1) of at least `-k` bases.
    fn smems(&mut self, bwt: &Bwt, query: &[u8], opt: &MemOptions, out: &mut Vec<Smem>) {
        let mut x = 0;
        while x < query.len() {
            if query[x] > 3 {
                x += 1;
                continue;
            }
            self.found.clear();
            x = self.finder.smems_at(bwt, query, x, 1, &mut self.found);
            out.extend(self.found.iter().filter(|m| long_enough(m, opt)));
        }
    }

    /// Pass 2: from the middle of each SMEM of pass 1 at least `-k * -r` long (rounded
    /// as bwa rounds it) with at most `-s` occurrences, the SMEMs with more occurrences.
    fn reseed(&mut self, bwt: &Bwt, query: &[u8], opt: &MemOptions, out: &mut Vec<Smem>) {
        let split_len = (f64::from(opt.min_seed_len as f32 * opt.split_factor) + 0.499) as i32;
        for k in 0..out.len() {
            let p = out[k];
            let (start, end) = (p.begin as i32, p.end as i32);
            if end - start < split_len || p.interval.size > opt.split_width as i64 as u64 {
                continue;
            }
            self.found.clear();
            let middle = ((start + end) >> 1) as usize;
            let min_intv = (p.interval.size + 1) as i32;
            self.finder
                .smems_at(bwt, query, middle, min_intv, &mut self.found);
            out.extend(self.found.iter().filter(|m| long_enough(m, opt)));
        }
    }
}

/// Whether `m` has at least `-k` bases.
fn long_enough(m: &Smem, opt: &MemOptions) -> bool {
    (m.end - m.begin) as i64 >= i64::from(opt.min_seed_len)
}

/// Pass 3 (`-y`): `bwt_seed_strategy1` from each start in turn.
fn third_pass(bwt: &Bwt, query: &[u8], opt: &MemOptions, out: &mut Vec<Smem>) {
    let mut x = 0;
    while x < query.len() {
        if query[x] > 3 {
            x += 1;
            continue;
        }
        let (next, found) =
            seed_strategy1(bwt, query, x, opt.min_seed_len, opt.max_mem_intv as i32);
        out.extend(found);
        x = next;
    }
}
