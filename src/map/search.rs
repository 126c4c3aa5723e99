//! Exact search of one read on both strands: backward search from the jump table,
//! locate through the sampled suffix array, and placement on the contigs (hits across
//! a contig boundary or over an ambiguous run are dropped). The GPU search
//! ([`crate::gpu::map`]) returns located positions, placed by [`hits_from_positions`]
//! with the same code.

use crate::fm::FmIndex;
use crate::reference::Layout;

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

/// 2-bit code of each ASCII byte; 4 for anything but A, C, G, T (either case).
const CODES: [u8; 256] = {
    let mut t = [4u8; 256];
    let mut i = 0;
    while i < 4 {
        t[b"ACGT"[i] as usize] = i as u8;
        t[b"acgt"[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// Encodes `seq` as 2-bit codes into `out`; `false` when a base is not A, C, G or T.
pub fn encode(seq: &[u8], out: &mut Vec<u8>) -> bool {
    out.clear();
    out.extend(seq.iter().map(|&b| CODES[b as usize]));
    out.iter().all(|&c| c < 4)
}

/// Reverse complement of 2-bit codes, in place.
pub fn reverse_complement_codes(codes: &mut [u8]) {
    codes.reverse();
    for c in codes.iter_mut() {
        *c = 3 - *c;
    }
}

/// Keeps the placeable hits among text positions of one strand's occurrences.
pub fn place_positions(
    layout: &Layout,
    positions: impl IntoIterator<Item = u64>,
    len: usize,
    reverse: bool,
    out: &mut Vec<Hit>,
) {
    for pos in positions {
        if let Some((contig, offset)) = layout.place_hit(pos, len as u64) {
            out.push(Hit {
                contig: contig as u32,
                pos: offset,
                reverse,
            });
        }
    }
}

/// All exact hits of `seq` (any case) on both strands, sorted; none when it holds a
/// non-ACGT base or is empty.
pub fn find_hits(
    fm: &FmIndex<'_>,
    layout: &Layout,
    seq: &[u8],
    scratch: &mut Scratch,
    out: &mut Vec<Hit>,
) {
    out.clear();
    if seq.is_empty() || !encode(seq, &mut scratch.codes) {
        return;
    }
    for reverse in [false, true] {
        if reverse {
            reverse_complement_codes(&mut scratch.codes);
        }
        scratch.positions.clear();
        fm.occurrences(&scratch.codes, &mut scratch.positions);
        place_positions(
            layout,
            scratch.positions.iter().copied(),
            seq.len(),
            reverse,
            out,
        );
    }
    out.sort_unstable();
}

/// The hits of a read of `len` bases from the text positions of its forward and
/// reverse-complement occurrences (any order), as [`find_hits`] gives them: placed, sorted.
pub fn hits_from_positions(
    layout: &Layout,
    forward: &[u32],
    reverse: &[u32],
    len: usize,
    out: &mut Vec<Hit>,
) {
    out.clear();
    for (positions, reverse) in [(forward, false), (reverse, true)] {
        let positions = positions.iter().map(|&p| p as u64);
        place_positions(layout, positions, len, reverse, out);
    }
    out.sort_unstable();
}

/// Reusable buffers of [`find_hits`].
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    codes: Vec<u8>,
    positions: Vec<u64>,
}
