//! Exact search of one read on both strands: backward search from the jump table,
//! locate through the sampled suffix array, and placement on the contigs (hits across
//! a contig boundary or over an ambiguous run are dropped).

use crate::fm::FmIndex;
use crate::reference::{base_code, Layout};

/// One exact occurrence of a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hit {
    /// Contig index.
    pub contig: u32,
    /// 0-based position in the contig.
    pub pos: u64,
    /// The read's reverse complement matches here.
    pub reverse: bool,
}

/// Encodes `seq` as 2-bit codes into `out`; `false` when a base is not A, C, G or T.
pub fn encode(seq: &[u8], out: &mut Vec<u8>) -> bool {
    out.clear();
    for &b in seq {
        match base_code(b) {
            Some(c) => out.push(c),
            None => return false,
        }
    }
    true
}

/// Reverse complement of 2-bit codes, in place.
pub fn reverse_complement_codes(codes: &mut [u8]) {
    codes.reverse();
    for c in codes.iter_mut() {
        *c = 3 - *c;
    }
}

/// The row intervals of a read's forward and reverse-complement strands.
pub fn strand_intervals(fm: &FmIndex<'_>, codes: &mut [u8]) -> [(u64, u64); 2] {
    let forward = fm.search(codes);
    reverse_complement_codes(codes);
    let reverse = fm.search(codes);
    reverse_complement_codes(codes);
    [forward, reverse]
}

/// Locates every row of both intervals, keeps the placeable hits, sorted.
pub fn place_hits(
    fm: &FmIndex<'_>,
    layout: &Layout,
    intervals: [(u64, u64); 2],
    len: usize,
    out: &mut Vec<Hit>,
) {
    out.clear();
    for (strand, (lo, hi)) in intervals.into_iter().enumerate() {
        for row in lo..hi {
            let pos = fm.locate(row);
            if let Some((contig, offset)) = layout.place_hit(pos, len as u64) {
                out.push(Hit {
                    contig: contig as u32,
                    pos: offset,
                    reverse: strand == 1,
                });
            }
        }
    }
    out.sort_unstable();
}

/// All exact hits of `seq` (any case); none when it holds a non-ACGT base or is empty.
pub fn find_hits(
    fm: &FmIndex<'_>,
    layout: &Layout,
    seq: &[u8],
    scratch: &mut Vec<u8>,
    out: &mut Vec<Hit>,
) {
    out.clear();
    if seq.is_empty() || !encode(seq, scratch) {
        return;
    }
    let intervals = strand_intervals(fm, scratch);
    place_hits(fm, layout, intervals, seq.len(), out);
}
