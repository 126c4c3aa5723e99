//! Search on the CPU, one read at a time on both strands ([`find_hits`]), a part of a
//! batch at a time ([`CpuSearcher::search_part`]; `map` runs both inside its parallel
//! records stage) or a batch at a time in parallel ([`CpuSearcher`], the
//! [`BatchSearcher`] on the CPU). Exact search (`k = 0`) is backward search from the
//! jump table with locate through the sampled suffix array on the forward index
//! ([`FmIndex::occurrences`](crate::fm::FmIndex::occurrences); for a part, all its
//! strands interleaved: [`FmIndex::occurrences_interleaved`](crate::fm::FmIndex::occurrences_interleaved));
//! with `k > 0` mismatches it is the search-scheme search of [`super::mismatch`] on the
//! bidirectional index.

use std::convert::Infallible;

use std::ops::Range;

use rayon::prelude::*;

use super::mismatch::{self, mismatches_at, Plans};
use super::positions::place_positions;
use super::{BatchPositions, BatchSearcher, Hit, Placement};
use crate::alphabet::{encode, reverse_complement_codes, NOT_A_BASE};
use crate::fm::Bidirectional;
use crate::io::ReadRecord;
use crate::sa::Positions;

/// Reads per part of a [`CpuSearcher`] batch (one rayon task each).
const PART_READS: usize = 256;

/// Reusable buffers of [`find_hits`] and [`CpuSearcher::search_part`].
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    pub(super) codes: Vec<u8>,
    positions: Vec<u64>,
    plans: Plans,
    part: PartScratch,
}

/// Buffers of an interleaved search of a part's strands: the strands searched (their
/// codes one after another), each strand's pattern, and what was found.
#[derive(Clone, Debug, Default)]
struct PartScratch {
    codes: Vec<u8>,
    /// Per strand (forward strands of the reads, then reverse): its codes in `codes`,
    /// `None` when it is not searched (empty, or not all ACGT).
    strands: Vec<Option<Range<usize>>>,
    found: Vec<u64>,
    ranges: Vec<Range<usize>>,
}

impl PartScratch {
    /// Encodes both strands of each of `reads` (all forward strands, then all reverse)
    /// that can have a hit with at most `k` mismatches (not empty, at most `k` non-ACGT
    /// bases).
    fn encode(&mut self, reads: &[ReadRecord], k: u8, read_codes: &mut Vec<u8>) {
        self.codes.clear();
        self.strands.clear();
        self.strands.resize(2 * reads.len(), None);
        for (i, read) in reads.iter().enumerate() {
            if !searchable(read.seq, k, read_codes) {
                continue;
            }
            let start = self.codes.len();
            self.codes.extend_from_slice(read_codes);
            self.strands[i] = Some(start..self.codes.len());
            reverse_complement_codes(read_codes);
            self.codes.extend_from_slice(read_codes);
            self.strands[reads.len() + i] =
                Some(self.codes.len() - read_codes.len()..self.codes.len());
        }
    }
}

/// Encodes `seq` into `codes`; whether it can have a hit with at most `k` mismatches:
/// not empty, and with at most `k` non-ACGT bases (each mismatches every base).
fn searchable(seq: &[u8], k: u8, codes: &mut Vec<u8>) -> bool {
    let exact = encode(seq, codes);
    let unknown = || codes.iter().filter(|&&c| c == NOT_A_BASE).count();
    !seq.is_empty() && (exact || (k > 0 && unknown() <= k as usize))
}

impl Scratch {
    /// Encodes `seq` and finds the text positions of its occurrences with at most `k`
    /// mismatches on each strand in turn, calling `strand_done(reverse, codes,
    /// positions)` after each strand with the strand's codes and its positions (sorted
    /// and distinct when `k > 0`); nothing when `seq` is empty or holds more non-ACGT
    /// bases than `k`.
    fn occurrences(
        &mut self,
        index: &Bidirectional<'_>,
        seq: &[u8],
        k: u8,
        mut strand_done: impl FnMut(bool, &[u8], &[u64]),
    ) {
        if !searchable(seq, k, &mut self.codes) {
            return;
        }
        for reverse in [false, true] {
            if reverse {
                reverse_complement_codes(&mut self.codes);
            }
            self.positions.clear();
            if k == 0 {
                index.forward.occurrences(&self.codes, &mut self.positions);
            } else {
                mismatch::occurrences(index, &self.codes, k, &mut self.plans, &mut self.positions);
            }
            strand_done(reverse, &self.codes, &self.positions);
        }
    }
}

/// All hits of `seq` (any case) with at most `placement.max_mismatches` mismatches on
/// both strands, sorted (best stratum first); none when it is empty or holds more
/// non-ACGT bases than that.
pub fn find_hits(
    index: &Bidirectional<'_>,
    placement: &Placement<'_>,
    seq: &[u8],
    scratch: &mut Scratch,
    out: &mut Vec<Hit>,
) {
    out.clear();
    let k = placement.max_mismatches;
    scratch.occurrences(index, seq, k, |reverse, codes, positions| {
        let mismatches = |pos| match k {
            0 => 0,
            _ => mismatches_at(placement.text, pos, codes, k),
        };
        place_positions(
            placement,
            positions.iter().copied(),
            codes.len(),
            reverse,
            mismatches,
            out,
        )
    });
    out.sort_unstable();
}

/// The [`BatchSearcher`] on the CPU: the reads of a batch searched in parallel parts.
pub struct CpuSearcher<'a> {
    index: &'a Bidirectional<'a>,
    max_mismatches: u8,
}

impl<'a> CpuSearcher<'a> {
    /// A searcher of `index` for occurrences with at most `max_mismatches` mismatches
    /// (at most [`super::schemes::MAX_MISMATCHES`]).
    pub fn new(index: &'a Bidirectional<'a>, max_mismatches: u8) -> Self {
        assert!(max_mismatches <= super::schemes::MAX_MISMATCHES);
        CpuSearcher {
            index,
            max_mismatches,
        }
    }

    /// The positions of `reads`, a part of a batch, as one part of [`BatchPositions`]
    /// (read `i` of the part is read `i` there).
    pub fn search_part(&self, reads: &[ReadRecord], scratch: &mut Scratch) -> BatchPositions {
        let (offsets, positions) = self.locate_part(reads, scratch);
        let mut part = BatchPositions::default();
        part.push_part(offsets, positions);
        part
    }

    /// The offsets and positions of one part of a batch, in the [`BatchPositions`]
    /// layout: every strand of the part searched at once, interleaved
    /// ([`crate::fm::FmIndex::occurrences_interleaved`] exact,
    /// [`mismatch::occurrences_interleaved`] with mismatches).
    fn locate_part(&self, reads: &[ReadRecord], scratch: &mut Scratch) -> (Vec<u32>, Positions) {
        let k = self.max_mismatches;
        let part = &mut scratch.part;
        part.encode(reads, k, &mut scratch.codes);
        let patterns: Vec<&[u8]> = part
            .strands
            .iter()
            .flatten()
            .map(|r| &part.codes[r.clone()])
            .collect();
        let (found, ranges) = (&mut part.found, &mut part.ranges);
        match k {
            0 => self
                .index
                .forward
                .occurrences_interleaved(&patterns, found, ranges),
            _ => mismatch::occurrences_interleaved(
                self.index,
                &patterns,
                k,
                &mut scratch.plans,
                found,
                ranges,
            ),
        }
        let mut positions = Vec::with_capacity(found.len());
        let mut offsets = Vec::with_capacity(part.strands.len() + 1);
        offsets.push(0);
        let mut searched = ranges.iter();
        for strand in &part.strands {
            if strand.is_some() {
                let range = searched.next().expect("a range per pattern");
                positions.extend_from_slice(&found[range.clone()]);
            }
            offsets
                .push(u32::try_from(positions.len()).expect("fewer than 2^32 positions in a part"));
        }
        (offsets, Positions::U64(positions))
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
    use crate::fm::TestIndex;
    use crate::reference::{Contig, Layout};
    use crate::test_support::random_codes;

    #[test]
    fn batch_positions_place_as_find_hits() {
        let noise = random_codes(10_000, 5, 4);
        let codes: Vec<u8> = random_codes(3000, 7, 4)
            .into_iter()
            .enumerate()
            .map(|(i, c)| if i % 5 == 0 { 1 } else { c })
            .collect();
        let index = TestIndex::new(&codes, 4);
        let bi = index.bidirectional();
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
        let seqs: Vec<Vec<u8>> = (0..1000)
            .map(|i| {
                let len = [1, 3, 8, 20][i % 4];
                let start = (noise[i] as usize * 1000 + i * 7) % (codes.len() - len);
                let mut seq: Vec<u8> = codes[start..start + len]
                    .iter()
                    .map(|&c| b"ACGT"[c as usize])
                    .collect();
                if i % 9 == 0 {
                    seq[0] = b'N';
                }
                if i % 3 == 0 {
                    let at = noise[i + 1] as usize % len;
                    seq[at] = b"ACGT"[noise[i + 2] as usize];
                }
                seq
            })
            .collect();
        let reads: Vec<ReadRecord> = seqs.iter().map(|s| ReadRecord::of_bases(s)).collect();
        for k in 0..=3 {
            let placement = Placement {
                layout: &layout,
                text: bi.forward.text,
                max_mismatches: k,
            };
            let batch = CpuSearcher::new(&bi, k).search_batch(&reads).unwrap();
            let (mut scratch, mut want, mut got) = (Scratch::default(), Vec::new(), Vec::new());
            let (mut found, mut scratch2) = (0, Scratch::default());
            for (i, read) in reads.iter().enumerate() {
                find_hits(&bi, &placement, read.seq, &mut scratch, &mut want);
                batch.hits(&placement, i, read.seq, &mut scratch2, &mut got);
                assert_eq!(got, want, "read {i}");
                assert!(want.iter().all(|h| h.mismatches <= k));
                found += want.len();
            }
            assert!(found > reads.len(), "{found} hits");
        }
    }
}
