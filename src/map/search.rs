//! Exact search of one read on both strands: backward search from the jump table,
//! locate through the sampled suffix array, and placement on the contigs (hits across
//! a contig boundary or over an ambiguous run are dropped). The GPU search
//! ([`crate::gpu::map`]) produces located positions and shares the placement.

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

/// The text positions of the rows `lo..hi`, located through the sampled suffix array.
pub fn locate_rows<'a>(fm: FmIndex<'a>, (lo, hi): (u64, u64)) -> impl Iterator<Item = u64> + 'a {
    (lo..hi).map(move |row| fm.locate(row))
}

/// Places the located text positions of a read's forward and reverse-complement
/// strands (any order) on the contigs; keeps the placeable hits, sorted. Shared by the
/// CPU and GPU searches.
pub fn place_hits<I: Iterator<Item = u64>>(
    layout: &Layout,
    strands: [I; 2],
    len: usize,
    out: &mut Vec<Hit>,
) {
    out.clear();
    for (strand, positions) in strands.into_iter().enumerate() {
        for pos in positions {
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
    place_hits(
        layout,
        intervals.map(|i| locate_rows(*fm, i)),
        seq.len(),
        out,
    );
}
