//! The BWT with its Occ checkpoints, interleaved so that one rank query reads one
//! 64-byte cache line.
//!
//! Block layout (8 × u64 = 64 bytes, 192 rows):
//! - word 0: occurrences of A (low 32 bits) and C (high 32 bits) in all rows before the block,
//! - word 1: the same for G and T,
//! - words 2..8: the block's 192 BWT symbols, 2-bit, most significant first.
//!
//! The sentinel's row (the primary row) is stored as `A` and counted as `A` in the
//! headers; [`Occ::occ`] subtracts it again.

use rayon::prelude::*;

use crate::reference::packed::pack_eight;

/// Rows in one block.
pub const ROWS_PER_BLOCK: usize = 192;
/// `u64` words in one block.
pub const WORDS_PER_BLOCK: usize = 8;
const HEADER_WORDS: usize = 2;

/// Borrowed view of the interleaved BWT/Occ array.
#[derive(Clone, Copy, Debug)]
pub struct Occ<'a> {
    blocks: &'a [u64],
    rows: u64,
    primary: u64,
}

/// Builds the interleaved BWT/Occ blocks from rows given in order, a run at a time
/// (the FM builder streams the suffix array through it).
#[derive(Debug, Default)]
pub struct BlocksBuilder {
    /// The blocks, zero past `used` (room made ahead for all rows when their number is
    /// known: no reallocation, pages first touched by the parallel fill).
    blocks: Vec<u64>,
    /// Words of `blocks` built.
    used: usize,
    /// Occurrences of each symbol in the rows built so far.
    running: [u64; 4],
}

/// Words of the Occ blocks of `rows` rows, the totals' block included.
pub fn block_words(rows: usize) -> usize {
    (rows.div_ceil(ROWS_PER_BLOCK) + 1) * WORDS_PER_BLOCK
}

impl BlocksBuilder {
    /// A builder with room for the blocks of `rows` rows and the totals' block that
    /// [`BlocksBuilder::finish`] adds (finishing does not move the blocks).
    pub fn with_rows(rows: usize) -> Self {
        BlocksBuilder {
            blocks: vec![0; block_words(rows)],
            ..Self::default()
        }
    }

    /// Adds the rows whose flags ([`super::Rows::flags`]: the BWT symbol in the low two
    /// bits) are `flags` (a whole number of blocks, except in the last call).
    pub fn push(&mut self, flags: &[u8]) {
        let start = self.used;
        self.used += flags.len().div_ceil(ROWS_PER_BLOCK) * WORDS_PER_BLOCK;
        if self.blocks.len() < self.used {
            self.blocks.resize(self.used, 0);
        }
        // Fill each block's symbols and its own counts (in the header, for now).
        self.blocks[start..self.used]
            .par_chunks_mut(WORDS_PER_BLOCK)
            .zip(flags.par_chunks(ROWS_PER_BLOCK))
            .for_each(|(block, rows)| {
                let mut counts = [0u64; 4];
                for (w, rows) in rows.chunks(32).enumerate() {
                    let word = pack_symbols(rows);
                    block[HEADER_WORDS + w] = word;
                    for (c, count) in counts.iter_mut().enumerate() {
                        *count += count_in_word(word, c as u8, rows.len());
                    }
                }
                block[0] = counts[0] | counts[1] << 32;
                block[1] = counts[2] | counts[3] << 32;
            });
        // Turn the per-block counts into counts of everything before each block.
        for block in self.blocks[start..self.used].chunks_mut(WORDS_PER_BLOCK) {
            let own = [
                block[0] & 0xFFFF_FFFF,
                block[0] >> 32,
                block[1] & 0xFFFF_FFFF,
                block[1] >> 32,
            ];
            block[0] = self.running[0] | self.running[1] << 32;
            block[1] = self.running[2] | self.running[3] << 32;
            for (total, own) in self.running.iter_mut().zip(own) {
                *total += own;
            }
        }
    }

    /// The blocks, with a last one whose header holds the totals.
    pub fn finish(mut self) -> Vec<u64> {
        self.blocks.truncate(self.used);
        let r = self.running;
        self.blocks
            .extend([r[0] | r[1] << 32, r[2] | r[3] << 32, 0, 0, 0, 0, 0, 0]);
        self.blocks
    }
}

/// The BWT symbols of up to 32 rows' flags (the low two bits of each byte) as one word
/// of the block layout: the first row most significant, `A` past the rows.
#[inline]
fn pack_symbols(flags: &[u8]) -> u64 {
    let mut word = 0;
    for (g, rows) in flags.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        bytes[..rows.len()].copy_from_slice(rows);
        word |= pack_eight(u64::from_be_bytes(bytes)) << (48 - 16 * g);
    }
    word
}

/// The counts a block's header holds: A, C, G, T in the rows before it.
#[inline(always)]
fn block_header(block: &[u64]) -> [u64; 4] {
    [
        block[0] & 0xFFFF_FFFF,
        block[0] >> 32,
        block[1] & 0xFFFF_FFFF,
        block[1] >> 32,
    ]
}

/// Each symbol's count in the first `len` rows (at most [`ROWS_PER_BLOCK`]) of `block`,
/// as stored (the sentinel's row counted as `A`).
#[inline(always)]
fn counts_in_block(block: &[u64], len: usize) -> [u64; 4] {
    symbol_counts(&block[HEADER_WORDS..HEADER_WORDS + len.div_ceil(32)], len)
}

/// The counts of A, C, G and T among the first `symbols` 2-bit symbols of `words` (most
/// significant first): three bit counts a word, T's two bits, then the high and the
/// low bit (G and C are what is left of them, A what is left of the symbols).
/// `#[inline(always)]`, for the POPCNT copies of its callers.
#[inline(always)]
pub(super) fn symbol_counts(words: &[u64], symbols: usize) -> [u64; 4] {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let (mut c, mut g, mut t) = (0u64, 0u64, 0u64);
    for (j, &word) in words.iter().enumerate() {
        let len = (symbols - 32 * j).min(32);
        let word = if len == 32 {
            word
        } else {
            word & !(u64::MAX >> (2 * len))
        };
        let (high, low) = ((word >> 1) & LOW, word & LOW);
        let both = (high & low).count_ones() as u64;
        t += both;
        g += high.count_ones() as u64 - both;
        c += low.count_ones() as u64 - both;
    }
    [symbols as u64 - c - g - t, c, g, t]
}

/// Counts the symbols equal to `c` among the first `len` (0..=32) symbols of `word`.
#[inline(always)]
pub(super) fn count_in_word(word: u64, c: u8, len: usize) -> u64 {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let x = word ^ (LOW * c as u64); // a slot is 00 exactly where the symbol is c
    let same = !(x | x >> 1) & LOW;
    let mask = if len >= 32 {
        u64::MAX
    } else {
        !(u64::MAX >> (2 * len))
    };
    (same & mask).count_ones() as u64
}

/// Blocks that one task of [`Occ::check`] checks.
const CHECKED_TOGETHER: usize = 4096;

crate::popcnt::with_popcnt! {
    /// Sets `first` to the first of `blocks` whose next block's header is not its own
    /// header plus its rows' counts (`None`: they all add up). Counted with POPCNT where
    /// the CPU has it (BENCHMARKS.md, session 34: the load of a 3 Gbp index).
    fn first_unsummed(occ: &Occ<'_>, blocks: std::ops::Range<usize>, first: &mut Option<usize>) => first_unsummed_inline
}

/// [`first_unsummed`]'s body, compiled into each of its copies (plain loops: iterator
/// adapters are not inlined into the POPCNT copy).
#[inline(always)]
fn first_unsummed_inline(occ: &Occ<'_>, blocks: std::ops::Range<usize>, first: &mut Option<usize>) {
    let header = |b: usize| block_header(&occ.blocks[b * WORDS_PER_BLOCK..]);
    for b in blocks {
        let (this, next, own) = (header(b), header(b + 1), occ.block_counts(b));
        for s in 0..4 {
            if next[s] != this[s] + own[s] {
                *first = Some(b);
                return;
            }
        }
    }
    *first = None;
}

impl<'a> Occ<'a> {
    /// Wraps blocks built by [`BlocksBuilder`] for `rows` rows with the sentinel at `primary`.
    pub fn new(blocks: &'a [u64], rows: u64, primary: u64) -> Self {
        Occ {
            blocks,
            rows,
            primary,
        }
    }

    /// Number of BWT rows (text length + 1).
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The sentinel's row.
    pub fn primary(&self) -> u64 {
        self.primary
    }

    /// The blocks, as stored.
    pub fn blocks(&self) -> &'a [u64] {
        self.blocks
    }

    /// Asks for the block that [`Occ::occ`] and [`Occ::symbol`] read for row `i`.
    #[inline]
    pub fn prefetch(&self, i: u64) {
        let b = (i / ROWS_PER_BLOCK as u64) as usize;
        super::interleaved::prefetch(self.blocks.as_ptr().wrapping_add(b * WORDS_PER_BLOCK));
    }

    /// `i`, or the row count where `i` lies past it: a row read from a file written in
    /// place while mapped (the index checks it at the end,
    /// `Index::ensure_unchanged` of the index module) reads a wrong count, never out of
    /// bounds. One comparison, beside a cache miss.
    #[inline(always)]
    fn clamped(&self, i: u64) -> u64 {
        i.min(self.rows)
    }

    /// Occurrences of symbol `c` in rows `0..i` (the sentinel never counts).
    #[inline(always)]
    pub fn occ(&self, c: u8, i: u64) -> u64 {
        let i = self.clamped(i);
        let b = (i / ROWS_PER_BLOCK as u64) as usize;
        let r = (i % ROWS_PER_BLOCK as u64) as usize;
        let block = &self.blocks[b * WORDS_PER_BLOCK..(b + 1) * WORDS_PER_BLOCK];
        let header = block[(c >> 1) as usize];
        let mut count = if c & 1 == 0 {
            header & 0xFFFF_FFFF
        } else {
            header >> 32
        };
        let full = r / 32;
        for w in 0..full {
            count += count_in_word(block[HEADER_WORDS + w], c, 32);
        }
        count += count_in_word(block[HEADER_WORDS + full], c, r % 32);
        if c == 0 && self.primary < i {
            count = count.saturating_sub(1);
        }
        count
    }

    /// Occurrences of each symbol in rows `0..i` (the sentinel never counts): one block
    /// read for all four, as a bidirectional extension needs them.
    #[inline(always)]
    pub fn occ_all(&self, i: u64) -> [u64; 4] {
        let i = self.clamped(i);
        let b = (i / ROWS_PER_BLOCK as u64) as usize;
        let r = (i % ROWS_PER_BLOCK as u64) as usize;
        let block = &self.blocks[b * WORDS_PER_BLOCK..(b + 1) * WORDS_PER_BLOCK];
        let mut counts = block_header(block);
        for (total, n) in counts.iter_mut().zip(counts_in_block(block, r)) {
            *total += n;
        }
        if self.primary < i {
            counts[0] = counts[0].saturating_sub(1);
        }
        counts
    }

    /// Checks blocks read from a file: each block's header counts the symbols of the
    /// rows before it, the totals are those of the C array `c` (the sentinel's row
    /// counted as `A`, as stored) and the sentinel's row holds `A`; then every rank is a
    /// row of the index. The blocks' number must already match the rows. `Err` says what
    /// is wrong.
    pub fn check(&self, c: &[u64; 5]) -> Result<(), String> {
        let header = |b: usize| block_header(&self.blocks[b * WORDS_PER_BLOCK..]);
        // Block b's header counts the rows before it iff block 0's is zero and each
        // next header is this one's plus this block's own counts: one parallel pass
        // that names the same first bad block as a running sum would (a serial pass
        // and a vector of counts took 0.3 s of a 3 Gbp index's load).
        let blocks = self.rows.div_ceil(ROWS_PER_BLOCK as u64) as usize;
        let bad = (header(0) != [0; 4]).then_some(0).or_else(|| {
            (0..blocks.div_ceil(CHECKED_TOGETHER))
                .into_par_iter()
                .find_map_first(|chunk| {
                    let end = ((chunk + 1) * CHECKED_TOGETHER).min(blocks);
                    let mut first = None;
                    first_unsummed(self, chunk * CHECKED_TOGETHER..end, &mut first);
                    first
                })
                .map(|b| b + 1)
        });
        if let Some(b) = bad {
            return Err(format!("the counts of BWT block {b} do not add up"));
        }
        let running = header(blocks);
        let sizes = c.windows(2).map(|w| w[1].checked_sub(w[0]));
        let expected: Option<Vec<u64>> = sizes.collect();
        if expected.is_none_or(|e| running != [e[0] + 1, e[1], e[2], e[3]]) {
            return Err("the BWT's symbol counts differ from the C array".into());
        }
        if self.primary >= self.rows || self.symbol(self.primary) != 0 {
            return Err("the sentinel's row is not in the BWT".into());
        }
        Ok(())
    }

    /// The symbols of block `b`'s rows as stored (the sentinel's row as `A`).
    #[inline(always)]
    fn block_counts(&self, b: usize) -> [u64; 4] {
        let len = (self.rows as usize - b * ROWS_PER_BLOCK).min(ROWS_PER_BLOCK);
        counts_in_block(&self.blocks[b * WORDS_PER_BLOCK..], len)
    }

    /// The BWT symbols of rows `i..i + 32` as one integer, the first most significant
    /// (0 at the primary row and past the last row): a block's six symbol words follow
    /// the previous block's, so this is a shift of two words.
    #[inline]
    pub fn symbols32(&self, i: u64) -> u64 {
        let data_words = (ROWS_PER_BLOCK / 32) as u64;
        let word = |k: u64| {
            let at = (k / data_words) as usize * WORDS_PER_BLOCK + HEADER_WORDS;
            self.blocks
                .get(at + (k % data_words) as usize)
                .copied()
                .unwrap_or(0)
        };
        let shift = 2 * (i % 32) as u32;
        match shift {
            0 => word(i / 32),
            _ => word(i / 32) << shift | word(i / 32 + 1) >> (64 - shift),
        }
    }

    /// The BWT symbol of row `i` (0 at the primary row, where the sentinel is).
    #[inline]
    pub fn symbol(&self, i: u64) -> u8 {
        let i = self.clamped(i);
        let b = (i / ROWS_PER_BLOCK as u64) as usize;
        let r = (i % ROWS_PER_BLOCK as u64) as usize;
        let word = self.blocks[b * WORDS_PER_BLOCK + HEADER_WORDS + r / 32];
        ((word >> (62 - 2 * (r % 32))) & 3) as u8
    }
}
