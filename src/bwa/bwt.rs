//! bwa's `.bwt` and `.sa` from galign's FM index of the forward text followed by its
//! reverse complement (whose rows are bwa's: row 0 the sentinel's suffix, `primary` the
//! row whose BWT symbol is the sentinel).
//!
//! `.bwt` (`bwt_dump_bwt` after `bwt_bwtupdate_core`): `primary`, `L2[1..=4]` (u64
//! each), then the BWT without the sentinel as u32 words of 16 bases (the first in the
//! top bits), every 128 bases preceded by the four symbol counts before them (u64 each),
//! and the totals at the end. `.sa` (`bwt_dump_sa`): `primary`, `L2[1..=4]`, the
//! interval 32, the text length, then the text position of every 32nd row from row 32
//! on (u64 each). Both are made a group of rows at a time on all cores and written in
//! order.

use std::io::Write;

use rayon::prelude::*;

use crate::fm::{FmIndex, FmParts, Occ};

/// bwa's Occ interval (`OCC_INTERVAL`): bases between two sets of counts.
const OCC_INTERVAL: u64 = 128;
/// bwa's suffix-array interval (`bwa index` passes 32 to `bwt_cal_sa`).
pub const SA_INTERVAL: u64 = 32;
/// Occ intervals made at once (64 Mi bases).
const GROUP: u64 = 1 << 19;

/// The header both files begin with: `primary` and `L2[1..=4]` (the symbols before
/// each one's first suffix, the sentinel left out; `L2[4]` the text length).
fn header(fm: &FmParts) -> Vec<u8> {
    let mut out = Vec::with_capacity(40);
    out.extend_from_slice(&fm.primary.to_le_bytes());
    for s in 1..=4 {
        out.extend_from_slice(&(fm.c[s] - 1).to_le_bytes());
    }
    out
}

/// The row of bwa's BWT symbol `i` (the sentinel's row left out).
fn row(i: u64, primary: u64) -> u64 {
    i + u64::from(i >= primary)
}

/// One Occ interval of bwa's BWT, from symbol `from` on (`len` symbols, at most 128):
/// its u32 words and its symbol counts.
fn interval(occ: &Occ, from: u64, len: u64) -> (Vec<u32>, [u64; 4]) {
    let mut words = vec![0u32; len.div_ceil(16) as usize];
    let mut counts = [0u64; 4];
    for i in 0..len {
        let s = occ.symbol(row(from + i, occ.primary()));
        counts[s as usize] += 1;
        words[(i / 16) as usize] |= u32::from(s) << (30 - 2 * (i % 16));
    }
    (words, counts)
}

/// Writes the `.bwt` file of `fm` to `out`.
pub fn write_bwt(fm: &FmParts, out: &mut dyn Write) -> std::io::Result<()> {
    let occ = Occ::new(&fm.occ, fm.n + 1, fm.primary);
    let n = fm.n;
    out.write_all(&header(fm))?;
    let mut before = [0u64; 4];
    let mut bytes = Vec::new();
    for group in (0..n.div_ceil(OCC_INTERVAL)).step_by(GROUP as usize) {
        let last = (group + GROUP).min(n.div_ceil(OCC_INTERVAL));
        let intervals: Vec<(Vec<u32>, [u64; 4])> = (group..last)
            .into_par_iter()
            .map(|k| {
                let from = k * OCC_INTERVAL;
                interval(&occ, from, OCC_INTERVAL.min(n - from))
            })
            .collect();
        bytes.clear();
        for (words, counts) in intervals {
            before
                .iter()
                .for_each(|c| bytes.extend_from_slice(&c.to_le_bytes()));
            words
                .iter()
                .for_each(|w| bytes.extend_from_slice(&w.to_le_bytes()));
            (0..4).for_each(|s| before[s] += counts[s]);
        }
        out.write_all(&bytes)?;
    }
    before
        .iter()
        .try_for_each(|c| out.write_all(&c.to_le_bytes()))
}

/// Writes the `.sa` file of `fm`, searchable as `index`, to `out`: each sampled row
/// located through `index`.
pub fn write_sa(fm: &FmParts, index: &FmIndex, out: &mut dyn Write) -> std::io::Result<()> {
    let n = fm.n;
    out.write_all(&header(fm))?;
    out.write_all(&SA_INTERVAL.to_le_bytes())?;
    out.write_all(&n.to_le_bytes())?;
    let sampled = (n + SA_INTERVAL) / SA_INTERVAL; // rows 0, 32, ... up to n
    let rows_per_group = GROUP * OCC_INTERVAL / SA_INTERVAL;
    for group in (1..sampled).step_by(rows_per_group as usize) {
        let last = (group + rows_per_group).min(sampled);
        let positions: Vec<u64> = (group..last)
            .into_par_iter()
            .map(|j| index.locate(j * SA_INTERVAL))
            .collect();
        let bytes: Vec<u8> = positions.iter().flat_map(|p| p.to_le_bytes()).collect();
        out.write_all(&bytes)?;
    }
    Ok(())
}
