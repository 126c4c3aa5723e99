//! The sampled suffix array: the text position of every row whose position is a
//! multiple of the sampling rate, found by rank over a bitvector of sampled rows.
//! Locating a row walks LF at most `rate - 1` steps to a sampled row.
//!
//! Layout: `bits` marks sampled rows (row `i` is bit `i % 64` of word `i / 64`); `ranks[j]` is the number of marks before row
//! `512 * j`; `positions` holds the sampled positions in row order.

use rayon::prelude::*;

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
    pub ranks: &'a [u32],
    /// Sampled positions, in row order.
    pub positions: &'a [u32],
}

/// The owned arrays of a sampled suffix array, as built.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SampledSaParts {
    /// See [`SampledSa::bits`].
    pub bits: Vec<u64>,
    /// See [`SampledSa::ranks`].
    pub ranks: Vec<u32>,
    /// See [`SampledSa::positions`].
    pub positions: Vec<u32>,
}

/// Samples `rows` rows whose positions are given by `position(row)`.
pub fn build(rows: usize, rate: u32, position: impl Fn(usize) -> u32 + Sync) -> SampledSaParts {
    let nwords = rows.div_ceil(ROWS_PER_RANK) * WORDS_PER_RANK + WORDS_PER_RANK;
    let mut bits = vec![0u64; nwords];
    bits.par_chunks_mut(WORDS_PER_RANK)
        .enumerate()
        .for_each(|(j, words)| {
            for (w, word) in words.iter_mut().enumerate() {
                let first = (j * WORDS_PER_RANK + w) * 64;
                for row in first..(first + 64).min(rows) {
                    if position(row).is_multiple_of(rate) {
                        *word |= 1 << (row % 64);
                    }
                }
            }
        });
    let mut ranks = Vec::with_capacity(nwords / WORDS_PER_RANK);
    let mut total = 0u32;
    for words in bits.chunks(WORDS_PER_RANK) {
        ranks.push(total);
        total += words.iter().map(|w| w.count_ones()).sum::<u32>();
    }
    let mut positions = vec![0u32; total as usize];
    {
        // Each rank block writes its own contiguous slice of `positions`.
        let mut slices = Vec::with_capacity(ranks.len());
        let mut rest = positions.as_mut_slice();
        for (j, words) in bits.chunks(WORDS_PER_RANK).enumerate() {
            let count = words.iter().map(|w| w.count_ones() as usize).sum::<usize>();
            let (mine, tail) = rest.split_at_mut(count);
            slices.push((j, mine));
            rest = tail;
        }
        slices.into_par_iter().for_each(|(j, out)| {
            let mut k = 0;
            for row in j * ROWS_PER_RANK..((j + 1) * ROWS_PER_RANK).min(rows) {
                let p = position(row);
                if p.is_multiple_of(rate) {
                    out[k] = p;
                    k += 1;
                }
            }
        });
    }
    SampledSaParts {
        bits,
        ranks,
        positions,
    }
}

impl<'a> SampledSa<'a> {
    /// The sampled position of `row`, if that row is sampled.
    #[inline]
    pub fn get(&self, row: u64) -> Option<u32> {
        let row = row as usize;
        let word = self.bits[row / 64];
        if word >> (row % 64) & 1 == 0 {
            return None;
        }
        let block = row / ROWS_PER_RANK;
        let mut rank = self.ranks[block] as usize;
        for w in block * WORDS_PER_RANK..row / 64 {
            rank += self.bits[w].count_ones() as usize;
        }
        rank += (word & ((1u64 << (row % 64)) - 1)).count_ones() as usize;
        Some(self.positions[rank])
    }
}
