//! Exact search on the CPU: backward search from the jump table and locate through the
//! sampled suffix array ([`FmIndex::occurrences`]), one read at a time on both strands
//! ([`find_hits`], which `map` runs inside its parallel records stage) or a batch at a
//! time in parallel ([`CpuSearcher`], the [`BatchSearcher`] on the CPU).

use std::convert::Infallible;

use rayon::prelude::*;

use super::positions::place_positions;
use super::{BatchPositions, BatchSearcher, Hit};
use crate::alphabet::{encode, reverse_complement_codes};
use crate::fm::FmIndex;
use crate::io::ReadRecord;
use crate::reference::Layout;

/// Reads per part of a [`CpuSearcher`] batch (one rayon task each).
const PART_READS: usize = 256;

/// Reusable buffers of [`find_hits`].
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    codes: Vec<u8>,
    positions: Vec<u64>,
}

impl Scratch {
    /// Encodes `seq` and finds the text positions of its occurrences on each strand in
    /// turn, calling `strand_done(reverse, positions)` after
    /// each strand; nothing when `seq` is empty or holds a non-ACGT base.
    fn occurrences(
        &mut self,
        fm: &FmIndex<'_>,
        seq: &[u8],
        mut strand_done: impl FnMut(bool, &[u64]),
    ) {
        if seq.is_empty() || !encode(seq, &mut self.codes) {
            return;
        }
        for reverse in [false, true] {
            if reverse {
                reverse_complement_codes(&mut self.codes);
            }
            self.positions.clear();
            fm.occurrences(&self.codes, &mut self.positions);
            strand_done(reverse, &self.positions);
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
    scratch.occurrences(fm, seq, |reverse, positions| {
        place_positions(layout, positions.iter().copied(), seq.len(), reverse, out)
    });
    out.sort_unstable();
}

/// The [`BatchSearcher`] on the CPU: the reads of a batch searched in parallel parts.
pub struct CpuSearcher<'a> {
    fm: &'a FmIndex<'a>,
}

impl<'a> CpuSearcher<'a> {
    /// A searcher of `fm`.
    pub fn new(fm: &'a FmIndex<'a>) -> Self {
        CpuSearcher { fm }
    }

    /// The offsets and positions of one part of a batch, in the [`BatchPositions`] layout.
    fn locate_part(&self, reads: &[ReadRecord], scratch: &mut Scratch) -> (Vec<u32>, Vec<u32>) {
        // Per strand: the end offset of each read's positions, and the positions.
        let mut strands: [(Vec<usize>, Vec<u32>); 2] = Default::default();
        for read in reads {
            scratch.occurrences(self.fm, &read.seq, |reverse, positions| {
                let positions = positions.iter().map(|&p| p as u32);
                strands[reverse as usize].1.extend(positions);
            });
            for (ends, positions) in &mut strands {
                ends.push(positions.len());
            }
        }
        let [(forward_ends, mut positions), (reverse_ends, reverse)] = strands;
        let forward_total = positions.len();
        positions.extend(reverse);
        let ends = forward_ends
            .into_iter()
            .chain(reverse_ends.into_iter().map(|e| forward_total + e));
        let offsets = std::iter::once(0)
            .chain(ends)
            .map(|o| u32::try_from(o).expect("fewer than 2^32 positions in a part"))
            .collect();
        (offsets, positions)
    }
}

impl BatchSearcher for CpuSearcher<'_> {
    type Error = Infallible;

    fn search_batch(&mut self, reads: &[ReadRecord]) -> Result<BatchPositions, Infallible> {
        let parts: Vec<_> = reads
            .par_chunks(PART_READS)
            .map_init(Scratch::default, |scratch, part| {
                self.locate_part(part, scratch)
            })
            .collect();
        let mut batch = BatchPositions::default();
        for (offsets, positions) in parts {
            batch.push_part(offsets, positions);
        }
        Ok(batch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fm::FmParts;
    use crate::reference::{Contig, PackedText};

    #[test]
    fn batch_positions_place_as_find_hits() {
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let codes: Vec<u8> = (0..3000)
            .map(|i| if i % 5 == 0 { 1 } else { (next() % 4) as u8 })
            .collect();
        let text = PackedText::from_codes(&codes);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let parts = FmParts::build(&text, &sa, 4);
        let fm = parts.view(&text);
        let contig = |name: &str, offset: u64, len: u64| Contig {
            name: name.into(),
            description: String::new(),
            offset,
            len,
        };
        let layout = Layout {
            contigs: vec![contig("a", 0, 1000), contig("b", 1000, 2000)],
            ambiguous: Vec::new(),
        };
        let reads: Vec<ReadRecord> = (0..1000)
            .map(|i| {
                let len = [1, 3, 8, 20][i % 4];
                let start = next() % (codes.len() - len);
                let mut seq: Vec<u8> = codes[start..start + len]
                    .iter()
                    .map(|&c| b"ACGT"[c as usize])
                    .collect();
                if i % 9 == 0 {
                    seq[0] = b'N';
                }
                ReadRecord {
                    seq,
                    ..Default::default()
                }
            })
            .collect();
        let batch = CpuSearcher::new(&fm).search_batch(&reads).unwrap();
        let (mut scratch, mut want, mut got) = (Scratch::default(), Vec::new(), Vec::new());
        let mut found = 0;
        for (i, read) in reads.iter().enumerate() {
            find_hits(&fm, &layout, &read.seq, &mut scratch, &mut want);
            batch.hits(&layout, i, read.seq.len(), &mut got);
            assert_eq!(got, want, "read {i}");
            found += want.len();
        }
        assert!(found > reads.len(), "{found} hits");
    }
}
