//! The hit layout of a searched batch: per read and strand, the text positions of its
//! occurrences, as offsets into one array (the layout the GPU downloads as it is).

use super::mismatch::mismatches_at;
use super::{Hit, Placement, Scratch};
use crate::alphabet::{encode, reverse_complement_codes};
use crate::sa::{PositionSlice, Positions};

/// The located text positions of one batch's reads, per read and strand, in the order
/// the searcher found them (each position once per strand). Mismatches are not stored:
/// placing a hit counts them against the text, so a searcher (the GPU's included) only
/// has to find the positions.
#[derive(Clone, Debug, Default)]
pub struct BatchPositions {
    /// Consecutive runs of reads located in one piece each (one per GPU pass).
    parts: Vec<Part>,
}

/// The positions of `reads` consecutive reads from `first`.
#[derive(Clone, Debug)]
struct Part {
    first: usize,
    reads: usize,
    /// `2 * reads + 1` offsets into `positions`: forward strands, then reverse strands.
    offsets: Vec<u32>,
    /// 32-bit from the GPU (whose indexes are), 64-bit from the CPU.
    positions: Positions,
}

impl BatchPositions {
    /// Appends the positions of the reads that follow those already held: `offsets`
    /// (`2 n + 1` of them, for `n` reads) delimit in `positions` the forward strands of
    /// the `n` reads, then their reverse strands.
    pub fn push_part(&mut self, offsets: Vec<u32>, positions: Positions) {
        assert!(offsets.len() % 2 == 1, "2 n + 1 offsets");
        let first = self.parts.last().map_or(0, |p| p.first + p.reads);
        let reads = offsets.len() / 2;
        self.parts.push(Part {
            first,
            reads,
            offsets,
            positions,
        });
    }

    /// The text positions of read `read`'s strand `strand` (0 forward, 1 reverse
    /// complement), in the order the searcher found them.
    pub fn strand(&self, read: usize, strand: usize) -> PositionSlice<'_> {
        let p = &self.parts[self.parts.partition_point(|p| p.first + p.reads <= read)];
        let item = strand * p.reads + (read - p.first);
        let range = p.offsets[item] as usize..p.offsets[item + 1] as usize;
        p.positions.as_slice().slice(range)
    }

    /// The hits of read `read`, whose bases are `seq`, into `out`: its positions on both
    /// strands placed through `placement`, sorted, as [`super::find_hits`] gives them.
    pub fn hits(
        &self,
        placement: &Placement<'_>,
        read: usize,
        seq: &[u8],
        scratch: &mut Scratch,
        out: &mut Vec<Hit>,
    ) {
        out.clear();
        let k = placement.max_mismatches;
        let len = seq.len();
        if k == 0 {
            // Exact positions need only the read's length, not its codes.
            for (strand, reverse) in [(0, false), (1, true)] {
                let positions = self.strand(read, strand).iter();
                place_positions(placement, positions, len, reverse, |_| 0, out);
            }
        } else {
            let codes = &mut scratch.codes;
            encode(seq, codes);
            for (strand, reverse) in [(0, false), (1, true)] {
                if reverse {
                    reverse_complement_codes(codes);
                }
                let positions = self.strand(read, strand).iter();
                let counted = |pos| mismatches_at(placement.text, pos, codes, k);
                place_positions(placement, positions, len, reverse, counted, out);
            }
        }
        out.sort_unstable();
    }
}

/// Appends the placeable hits among the text positions of one strand's occurrences of
/// a read of `len` bases, with their mismatches (`mismatches` of a text position: 0
/// when the search was exact); a position with more than `placement.max_mismatches` is
/// no hit.
pub(super) fn place_positions(
    placement: &Placement<'_>,
    positions: impl IntoIterator<Item = u64>,
    len: usize,
    reverse: bool,
    mismatches: impl Fn(usize) -> u8,
    out: &mut Vec<Hit>,
) {
    for pos in positions {
        let Some((contig, offset)) = placement.layout.place_hit(pos, len as u64) else {
            continue;
        };
        let mismatches = mismatches(pos as usize);
        if mismatches <= placement.max_mismatches {
            out.push(Hit {
                mismatches,
                contig: contig as u32,
                pos: offset,
                reverse,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_follow_one_another() {
        let mut batch = BatchPositions::default();
        // Reads 0 and 1: forward [5], [], reverse [7, 8], [9].
        batch.push_part(vec![0, 1, 1, 3, 4], Positions::U32(vec![5, 7, 8, 9]));
        // Read 2: forward [], reverse [1 << 40] (parts of either width mix).
        batch.push_part(vec![0, 0, 1], Positions::U64(vec![1 << 40]));
        let strand = |read, strand| batch.strand(read, strand).iter().collect::<Vec<u64>>();
        assert_eq!(strand(0, 0), [5]);
        assert_eq!(strand(1, 0), [0u64; 0]);
        assert_eq!(strand(0, 1), [7, 8]);
        assert_eq!(strand(1, 1), [9]);
        assert_eq!(strand(2, 0), [0u64; 0]);
        assert_eq!(strand(2, 1), [1 << 40]);
    }
}
