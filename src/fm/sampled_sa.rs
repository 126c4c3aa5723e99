//! The sampled suffix array: the text position of every row whose position is a
//! multiple of the sampling rate, found by rank over a bitvector of sampled rows.
//! Locating a row walks LF at most `rate - 1` steps to a sampled row.
//!
//! Layout: `bits` marks sampled rows (row `i` is bit `i % 64` of word `i / 64`); `ranks[j]` is the number of marks before row
//! `512 * j`; `positions` holds the sampled positions in row order. Ranks and positions
//! are of the index's [`crate::sa::Width`].

use rayon::prelude::*;

use crate::sa::{PositionSlice, Positions, SaIndex};

/// The flag of a row whose text position is sampled.
pub const SAMPLED: u8 = 0b100;

/// Rows covered by one rank entry.
pub const ROWS_PER_RANK: usize = 512;
const WORDS_PER_RANK: usize = ROWS_PER_RANK / 64;

/// Borrowed view of a sampled suffix array.
#[derive(Clone, Copy, Debug)]
pub struct SampledSa<'a> {
    /// Sampling rate (positions that are multiples of it are kept).
    pub rate: u32,
    /// Sampled-row marks.
    pub bits: &'a [u64],
    /// Marks before each 512-row block.
    pub ranks: PositionSlice<'a>,
    /// Sampled positions, in row order.
    pub positions: PositionSlice<'a>,
}

/// The owned arrays of a sampled suffix array, as built.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SampledSaParts {
    /// See [`SampledSa::bits`].
    pub bits: Vec<u64>,
    /// See [`SampledSa::ranks`].
    pub ranks: Positions,
    /// See [`SampledSa::positions`].
    pub positions: Positions,
}

impl SampledSaParts {
    /// A borrowed view, sampling positions that are multiples of `rate`.
    pub fn view(&self, rate: u32) -> SampledSa<'_> {
        SampledSa {
            rate,
            bits: &self.bits,
            ranks: self.ranks.as_slice(),
            positions: self.positions.as_slice(),
        }
    }
}

/// Builds a sampled suffix array of positions of type `I` from rows given in order, a
/// run at a time.
#[derive(Debug, Default)]
pub struct SampleBuilder<I> {
    /// Marks, zero past the rows pushed (room made ahead for all rows when their number
    /// is known, as for the positions: no reallocation, pages first touched by the
    /// parallel fill).
    bits: Vec<u64>,
    ranks: Vec<I>,
    /// Sampled positions, the first `filled` of them pushed.
    positions: Vec<I>,
    filled: usize,
    /// Rows pushed.
    rows: usize,
    /// Sampled rows so far.
    total: u64,
}

/// Rank entries of the sampled-row bits of `rows` rows (one per [`ROWS_PER_RANK`] rows,
/// and the total).
pub fn rank_entries(rows: usize) -> usize {
    rows.div_ceil(ROWS_PER_RANK) + 1
}

/// Words of the sampled-row bits of `rows` rows.
pub fn bit_words(rows: usize) -> usize {
    rank_entries(rows) * WORDS_PER_RANK
}

/// Positions sampled in a text of `n` bases every `rate` (0 to n: row 0 holds n).
pub fn sampled_positions(n: usize, rate: u32) -> usize {
    n / rate as usize + 1
}

impl<I: SaIndex> SampleBuilder<I> {
    /// A builder with room for `rows` rows, `sampled` of them sampled.
    pub fn with_rows(rows: usize, sampled: usize) -> Self {
        let groups = rank_entries(rows);
        SampleBuilder {
            bits: vec![0; bit_words(rows)],
            ranks: Vec::with_capacity(groups),
            positions: vec![I::default(); sampled],
            ..Self::default()
        }
    }

    /// Adds the rows whose flags ([`super::Rows::flags`]) are `flags`, with `sampled`
    /// the text positions of those flagged as sampled, in row order (a whole number of
    /// rank blocks of [`ROWS_PER_RANK`] rows, except in the last call).
    pub fn push(&mut self, flags: &[u8], sampled: &[I]) {
        let start = self.rows / 64;
        let end = start + flags.len().div_ceil(ROWS_PER_RANK) * WORDS_PER_RANK;
        if self.bits.len() < end + WORDS_PER_RANK {
            self.bits.resize(end + WORDS_PER_RANK, 0);
        }
        self.bits[start..end]
            .par_chunks_mut(64)
            .zip(flags.par_chunks(64 * 64))
            .for_each(|(words, rows)| {
                for (word, rows) in words.iter_mut().zip(rows.chunks(64)) {
                    *word = sampled_marks(rows);
                }
            });
        for group in self.bits[start..end].chunks(WORDS_PER_RANK) {
            self.ranks.push(I::from_usize(self.total as usize));
            self.total += group.iter().map(|w| w.count_ones() as u64).sum::<u64>();
        }
        let at = self.filled;
        self.filled += sampled.len();
        if self.positions.len() < self.filled {
            self.positions.resize(self.filled, I::default());
        }
        self.positions[at..self.filled]
            .par_chunks_mut(1 << 16)
            .zip(sampled.par_chunks(1 << 16))
            .for_each(|(to, from)| to.copy_from_slice(from));
        self.rows += flags.len();
    }

    /// The arrays, with a last rank block that holds the total.
    pub fn finish(mut self) -> SampledSaParts {
        self.ranks.push(I::from_usize(self.total as usize));
        self.bits.truncate(self.ranks.len() * WORDS_PER_RANK);
        self.positions.truncate(self.filled);
        SampledSaParts {
            bits: self.bits,
            ranks: I::into_positions(self.ranks),
            positions: I::into_positions(self.positions),
        }
    }
}

/// The sampled marks of up to 64 rows' flags: bit `i` for row `i`.
#[inline]
fn sampled_marks(flags: &[u8]) -> u64 {
    const _: () = assert!(SAMPLED == 1 << 2);
    let mut word = 0;
    for (g, rows) in flags.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        bytes[..rows.len()].copy_from_slice(rows);
        // Bit 2 of each byte to bit 0, then the eight bits side by side.
        let x = u64::from_le_bytes(bytes) >> 2 & 0x0101_0101_0101_0101;
        let x = (x | x >> 7) & 0x0003_0003_0003_0003;
        let x = (x | x >> 14) & 0x0000_000F_0000_000F;
        word |= ((x | x >> 28) & 0xFF) << (8 * g);
    }
    word
}

/// Rank blocks that one task of [`SampledSa::check`] checks.
const CHECKED_TOGETHER: usize = 4096;

crate::popcnt::with_popcnt! {
    /// Sets `counted` to whether each rank block `i` of `blocks` has the next rank entry
    /// equal to its own plus its marks, counted with POPCNT where the CPU has it.
    fn ranks_count_marks(sampled: &SampledSa<'_>, blocks: std::ops::Range<usize>, counted: &mut bool) => ranks_count_marks_inline
}

/// [`ranks_count_marks`]' body, compiled into each of its copies (plain loops: iterator
/// adapters are not inlined into the POPCNT copy).
#[inline(always)]
fn ranks_count_marks_inline(
    sampled: &SampledSa<'_>,
    blocks: std::ops::Range<usize>,
    counted: &mut bool,
) {
    let ranks = sampled.ranks;
    for i in blocks {
        if ranks.get(i).checked_add(marks_inline(sampled, i)) != Some(ranks.get(i + 1)) {
            *counted = false;
            return;
        }
    }
    *counted = true;
}

/// The marks of rank block `i`.
#[inline(always)]
fn marks_inline(sampled: &SampledSa<'_>, i: usize) -> u64 {
    let words = &sampled.bits[i * WORDS_PER_RANK..(i + 1) * WORDS_PER_RANK];
    let mut marks = 0;
    for &word in words {
        marks += u64::from(word.count_ones());
    }
    marks
}

impl<'a> SampledSa<'a> {
    /// Checks arrays read from a file: a rank entry per block of marks (and one for the
    /// end), each counting the marks before its block, one position per mark, and every
    /// position in a text of `text_len` bases (`text_len` itself being the sentinel's).
    /// `Err` says what is wrong.
    pub fn check(&self, text_len: u64) -> Result<(), String> {
        if self.rate == 0 || self.bits.len() != self.ranks.len() * WORDS_PER_RANK {
            return Err("the sampled suffix array's marks and ranks differ in size".into());
        }
        // Entry i counts the marks before its block iff entry 0 is zero and each next
        // entry is this one plus this block's marks: one parallel pass, no running sum.
        let blocks = self.ranks.len();
        let counted = blocks == 0
            || self.ranks.get(0) == 0
                && (0..(blocks - 1).div_ceil(CHECKED_TOGETHER))
                    .into_par_iter()
                    .all(|chunk| {
                        let end = ((chunk + 1) * CHECKED_TOGETHER).min(blocks - 1);
                        let mut counted = false;
                        ranks_count_marks(self, chunk * CHECKED_TOGETHER..end, &mut counted);
                        counted
                    });
        if !counted {
            return Err("the sampled suffix array's ranks do not count its marks".into());
        }
        let total = match blocks {
            0 => Some(0),
            _ => self
                .ranks
                .get(blocks - 1)
                .checked_add(marks_inline(self, blocks - 1)),
        };
        if total != Some(self.positions.len() as u64) {
            return Err("the sampled suffix array has not one position per mark".into());
        }
        fn past<T: Copy + Into<u64> + Sync>(positions: &[T], text_len: u64) -> bool {
            positions
                .par_chunks(1 << 16)
                .any(|chunk| chunk.iter().any(|&p| p.into() > text_len))
        }
        let past_text = match self.positions {
            PositionSlice::U32(positions) => past(positions, text_len),
            PositionSlice::U64(positions) => past(positions, text_len),
        };
        if past_text {
            return Err("a sampled position lies past the text".into());
        }
        Ok(())
    }

    /// Asks for the mark word that [`SampledSa::rank`] reads first for `row`.
    #[inline]
    pub fn prefetch(&self, row: u64) {
        super::interleaved::prefetch(self.bits.as_ptr().wrapping_add(row as usize / 64));
    }

    /// The sampled position of `row`, if that row is sampled.
    #[inline]
    pub fn get(&self, row: u64) -> Option<u64> {
        self.rank(row).map(|rank| self.positions.get(rank))
    }

    /// Whether `row` is sampled (its mark, as [`SampledSa::rank`] reads it first).
    #[inline(always)]
    pub fn marked(&self, row: u64) -> bool {
        self.bits[row as usize / 64] >> (row % 64) & 1 == 1
    }

    /// Where `row`'s position lies in [`SampledSa::positions`], if that row is sampled.
    #[inline]
    pub fn rank(&self, row: u64) -> Option<usize> {
        let row = row as usize;
        let word = self.bits[row / 64];
        if word >> (row % 64) & 1 == 0 {
            return None;
        }
        let block = row / ROWS_PER_RANK;
        let mut rank = self.ranks.get(block) as usize;
        for w in block * WORDS_PER_RANK..row / 64 {
            rank += self.bits[w].count_ones() as usize;
        }
        rank += (word & ((1u64 << (row % 64)) - 1)).count_ones() as usize;
        Some(rank)
    }
}
