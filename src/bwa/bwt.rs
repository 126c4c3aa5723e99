//! bwa's `.bwt` and `.sa` from galign's FM index of the forward text followed by its
//! reverse complement (whose rows are bwa's: row 0 the sentinel's suffix, `primary` the
//! row whose BWT symbol is the sentinel).
//!
//! `.bwt` (`bwt_dump_bwt` after `bwt_bwtupdate_core`): `primary`, `L2[1..=4]` (u64
//! each), then the BWT without the sentinel as u32 words of 16 bases (the first in the
//! top bits), every 128 bases preceded by the four symbol counts before them (u64 each),
//! and the totals at the end. `.sa` (`bwt_dump_sa`): `primary`, `L2[1..=4]`, the
//! interval 32, the text length, then the text position of every 32nd row from row 32
//! on (u64 each), as the build kept them ([`crate::fm::Keep::EveryRow`]). The `.bwt`
//! is made a group of Occ intervals at a time on all cores and written in order.

use std::io::Write;

use rayon::prelude::*;

use crate::fm::{FmParts, Occ};

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

/// bwa's BWT symbols `from..from + 16` (those before `n`), the first in the top bits:
/// 16 consecutive rows, or one at a time where the sentinel's row lies among them.
fn bwa_word(occ: &Occ, from: u64, n: u64) -> u32 {
    let primary = occ.primary();
    let word = if from + 16 <= primary || from >= primary {
        (occ.symbols32(row(from, primary)) >> 32) as u32
    } else {
        (0..16).fold(0u32, |w, i| {
            w << 2 | u32::from(occ.symbol(row(from + i, primary)))
        })
    };
    match n - from {
        16.. => word,
        left => word & !(u32::MAX >> (2 * left)),
    }
}

/// Writes bwa's Occ interval `k` (its counts and words; `n` symbols in all) into `out`,
/// 64 bytes (fewer for the last, shorter interval).
fn write_interval(occ: &Occ, k: u64, n: u64, out: &mut [u8]) {
    let from = k * OCC_INTERVAL;
    let counts = occ.occ_all(row(from, occ.primary()));
    for (s, count) in counts.iter().enumerate() {
        out[8 * s..8 * s + 8].copy_from_slice(&count.to_le_bytes());
    }
    let words = (OCC_INTERVAL.min(n - from)).div_ceil(16);
    for w in 0..words {
        let at = 32 + 4 * w as usize;
        out[at..at + 4].copy_from_slice(&bwa_word(occ, from + 16 * w, n).to_le_bytes());
    }
}

/// Writes the `.bwt` file of `fm` to `out`: each Occ interval made on its own, its
/// counts read off galign's Occ checkpoints.
pub fn write_bwt(fm: &FmParts, out: &mut dyn Write) -> std::io::Result<()> {
    let occ = Occ::new(&fm.occ, fm.n + 1, fm.primary);
    let n = fm.n;
    out.write_all(&header(fm))?;
    let intervals = n.div_ceil(OCC_INTERVAL);
    let mut bytes = Vec::new();
    for group in (0..intervals).step_by(GROUP as usize) {
        let last = (group + GROUP).min(intervals);
        bytes.clear();
        bytes.resize(64 * (last - group) as usize, 0);
        bytes
            .par_chunks_mut(64)
            .enumerate()
            .for_each(|(i, chunk)| write_interval(&occ, group + i as u64, n, chunk));
        if last == intervals {
            let words = (n - (last - 1) * OCC_INTERVAL).div_ceil(16) as usize;
            bytes.truncate(64 * (last - group - 1) as usize + 32 + 4 * words);
        }
        out.write_all(&bytes)?;
    }
    let totals = occ.occ_all(n + 1);
    totals
        .iter()
        .try_for_each(|c| out.write_all(&c.to_le_bytes()))
}

/// Writes the `.sa` file of `fm` to `out`: the positions of every 32nd row, kept as the
/// index was built ([`crate::fm::Keep::EveryRow`]).
///
/// # Panics
/// If `fm` has not kept them (a caller's bug).
pub fn write_sa(fm: &FmParts, out: &mut dyn Write) -> std::io::Result<()> {
    let n = fm.n;
    assert_eq!(
        fm.row_samples.len() as u64,
        n / SA_INTERVAL,
        "the positions of every {SA_INTERVAL}th row"
    );
    out.write_all(&header(fm))?;
    out.write_all(&SA_INTERVAL.to_le_bytes())?;
    out.write_all(&n.to_le_bytes())?;
    let mut bytes = Vec::with_capacity(8 * SA_CHUNK);
    for chunk in fm.row_samples.chunks(SA_CHUNK) {
        bytes.clear();
        chunk
            .iter()
            .for_each(|p| bytes.extend_from_slice(&p.to_le_bytes()));
        out.write_all(&bytes)?;
    }
    Ok(())
}

/// `.sa` positions encoded (little-endian, as bwa writes them on x86) per write.
const SA_CHUNK: usize = 1 << 16;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::PackedText;
    use crate::test_support::random_codes;

    /// bwa's `.bwt` and `.sa` of `codes`, the slow way: the suffixes sorted, the sentinel
    /// smallest.
    fn naive(codes: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let n = codes.len();
        let mut sa: Vec<usize> = (0..=n).collect();
        sa.sort_by(|&a, &b| codes[a..].cmp(&codes[b..]));
        let primary = sa.iter().position(|&p| p == 0).unwrap() as u64;
        let bwt: Vec<u8> = sa
            .iter()
            .filter(|&&p| p > 0)
            .map(|&p| codes[p - 1])
            .collect();
        let mut l2 = [0u64; 5];
        codes.iter().for_each(|&c| l2[c as usize + 1] += 1);
        (1..5).for_each(|s| l2[s] += l2[s - 1]);
        let mut head: Vec<u8> = primary.to_le_bytes().to_vec();
        l2[1..]
            .iter()
            .for_each(|c| head.extend_from_slice(&c.to_le_bytes()));
        let mut file = head.clone();
        let mut counts = [0u64; 4];
        for (i, &c) in bwt.iter().enumerate() {
            if i % 128 == 0 {
                counts
                    .iter()
                    .for_each(|c| file.extend_from_slice(&c.to_le_bytes()));
            }
            if i % 16 == 0 {
                let word = bwt[i..(i + 16).min(n)]
                    .iter()
                    .enumerate()
                    .fold(0u32, |w, (j, &s)| w | u32::from(s) << (30 - 2 * j));
                file.extend_from_slice(&word.to_le_bytes());
            }
            counts[c as usize] += 1;
        }
        counts
            .iter()
            .for_each(|c| file.extend_from_slice(&c.to_le_bytes()));
        let mut sa_file = head;
        sa_file.extend_from_slice(&32u64.to_le_bytes());
        sa_file.extend_from_slice(&(n as u64).to_le_bytes());
        for row in (32..=n).step_by(32) {
            sa_file.extend_from_slice(&(sa[row] as u64).to_le_bytes());
        }
        (file, sa_file)
    }

    #[test]
    fn bwt_and_sa_files_are_those_of_the_sorted_suffixes() {
        for (len, alphabet) in [
            (1, 4),
            (15, 4),
            (16, 4),
            (127, 4),
            (128, 4),
            (129, 4),
            (1000, 4),
            (700, 1),
            (5000, 2),
        ] {
            let codes = random_codes(len, len as u64, alphabet);
            let text = PackedText::from_codes(&codes);
            let sa: Vec<u32> = crate::sa::suffix_array(&text);
            let mut builder = crate::fm::FmBuilder::new(&text, 1024);
            builder.keep_rows_every(SA_INTERVAL);
            builder.push(&sa);
            let fm = builder.finish();
            let (mut bwt, mut sa_file) = (Vec::new(), Vec::new());
            write_bwt(&fm, &mut bwt).unwrap();
            write_sa(&fm, &mut sa_file).unwrap();
            let (want_bwt, want_sa) = naive(&codes);
            assert!(bwt == want_bwt, "{len} bases of {alphabet}: .bwt differs");
            assert!(sa_file == want_sa, "{len} bases of {alphabet}: .sa differs");
        }
    }
}
