//! One home for the GPU's launch geometry and the sizes its kernels share with the host:
//! block sizes, tiles, items per thread, the CPU layouts (FM index, difference cover)
//! that the kernels read, and the layouts of the read search's buffers (packed reads'
//! flags, scheme table, device counters).
//!
//! Each value is written once, here (or, for a layout, in the CPU module that owns it,
//! which this module passes on), and reaches the kernels as an NVRTC `-DNAME=VALUEu`
//! option ([`DEFINES`], added to every compilation by [`crate::gpu::kernels`], whose cache
//! key covers the options): no kernel file defines these names, so a value missing
//! from [`DEFINES`] fails the compilation (an undefined identifier) instead of taking a
//! default. The host code launches with the same constants ([`THREADS`], [`blocks`] and
//! the tiles below), so a change here changes both sides at once.

use crate::fm::occ::{ROWS_PER_BLOCK, WORDS_PER_BLOCK};
use crate::fm::sampled_sa::ROWS_PER_RANK;
use crate::sa::cover::PERIOD;
use crate::sa::keysort::KEY_BASES;

/// Threads a block of every kernel launched in blocks of a fixed size: the block-wide
/// scans and the radix sort (`SCAN_BLOCK_THREADS`), the merge (`MERGE_THREADS`),
/// `init_starts` (`INIT_THREADS`), the medium segment sort (`MEDIUM_THREADS`), the
/// partitioned gather (`GATHER_THREADS`), and the element-wise kernels (their block
/// size is not compiled in).
pub const THREADS: u32 = 256;

/// Blocks of [`THREADS`] that cover `len` threads.
pub fn blocks(len: usize) -> u32 {
    len.div_ceil(THREADS as usize) as u32
}

/// The launch of `len` threads in blocks of [`THREADS`]: ([`blocks`]`(len)`, [`THREADS`]).
pub fn over(len: usize) -> (u32, u32) {
    (blocks(len), THREADS)
}

/// Elements a thread of the device-wide scan takes (`SCAN_ITEMS`).
pub const SCAN_ITEMS: usize = 16;
/// Elements per scan tile.
pub const SCAN_TILE: usize = THREADS as usize * SCAN_ITEMS;
/// Digits of a radix-sort pass (8-bit digits, `RADIX`).
pub const RADIX: usize = 256;
/// Passes of a radix sort at most: 64-bit keys (`MAX_PASSES`).
pub const MAX_PASSES: usize = 8;
/// Items a thread of the onesweep pass of 32-bit keys with 32-bit values takes
/// (`ITEMS_U32`).
pub const ITEMS_U32: usize = 12;
/// Items a thread of the onesweep pass of 64-bit keys with 32-bit values takes
/// (`ITEMS_U64`).
pub const ITEMS_U64: usize = 8;
/// Items a thread of the onesweep pass of 64-bit keys with 64-bit values takes
/// (`ITEMS_U64_V64`).
pub const ITEMS_U64_V64: usize = 8;

/// Outputs a thread of the merge writes (`MERGE_ITEMS`).
pub const MERGE_ITEMS: usize = 8;
/// Outputs per block of the merge's tile kernel (`MERGE_TILE` in prims/merge.cuh).
pub const MERGE_TILE: usize = THREADS as usize * MERGE_ITEMS;

/// Index bits of the doubling builder's 16-mer sketch (`SKETCH_BITS`): 2^12 registers.
pub const SKETCH_BITS: u32 = 12;
/// Registers of the 16-mer sketch (`SKETCH_REGISTERS` in sa/doubling.cu).
pub const SKETCH_REGISTERS: usize = 1 << SKETCH_BITS;
/// Doubling rounds: groups up to this size are ranked by counting, one thread per suffix
/// (`SMALL_SEG`). 64 rather than 32: groups of 33-64 (47 copies of a text) cost
/// 155 - 74 = 81 ms by counting against 177 ms as warp bitonic sorts (2.96 Gbp of chr20
/// copies, H200; 1.95 Gbp of 31 copies the same).
pub const SMALL_SEG: usize = 64;
/// Doubling rounds: groups up to this size are sorted by a bitonic sort in shared
/// memory, one block per group (`MEDIUM_SEG`).
pub const MEDIUM_SEG: usize = 4096;
/// List elements scanned for group starts by one block of `seg_sort_medium`
/// (`MEDIUM_TILE`).
pub const MEDIUM_TILE: usize = 4096;
/// Elements a thread of `seg_rank_compact` takes (`RANK_ITEMS`): tiles of 1,024 elements
/// at most 32 registers a thread, 8 blocks an SM (sa/doubling.cu).
pub const RANK_ITEMS: usize = 4;
/// List elements of a tile of `seg_rank_compact` (`RANK_TILE` in sa/doubling.cu).
pub const RANK_TILE: usize = THREADS as usize * RANK_ITEMS;

/// Occ blocks per thread block of `bwt_occ` (`OCC_PER_CTA`).
pub const OCC_PER_CTA: usize = 4;

/// Text positions each thread of `part_gather` tests (`GATHER_PER_THREAD`).
pub const GATHER_PER_THREAD: usize = 8;
/// Bases of the buckets that `bucket_counts` counts in shared memory at most
/// (`MAX_SHARED_BUCKET_BASES`: 4^6 counters).
pub const MAX_SHARED_BUCKET_BASES: usize = 6;
/// Longest run of equal keys sorted by one block (`MEDIUM_RUN`, also that block's
/// threads).
pub const MEDIUM_RUN: u32 = 1024;

/// The flag of a packed read's length word that marks a read the search skips (empty,
/// or not searchable: `NOT_SEARCHABLE`).
pub const NOT_SEARCHABLE: u32 = 1 << 31;
/// Searches per scheme in the k-mismatch search's uploaded scheme table, the most any
/// scheme has (`SEARCH_SLOTS`).
pub const SEARCH_SLOTS: usize = 4;
/// u32 words of one search in the scheme table: pieces, then order, lower and upper
/// bounds, [`SEARCH_SLOTS`] each (`SEARCH_WORDS`).
pub const SEARCH_WORDS: usize = 1 + 3 * SEARCH_SLOTS;
/// Bit of a packed read's length word where its scheme starts in the k-mismatch search
/// (`MM_SCHEME_SHIFT`; the length is the bits below).
pub const SCHEME_SHIFT: u32 = 28;
/// u32 counters of the k-mismatch search kept on the device (`MM_COUNTERS`): the
/// stack's top ([`MM_TOP`]), the chunk's start ([`MM_FIRST`]), the overflow flag
/// ([`MM_OVERFLOW`]), the finished entries ([`MM_FINISHED`]), their rows (u64,
/// [`MM_TOTAL`]) and two child counts ([`MM_CHILDREN`]).
pub const MM_COUNTERS: usize = 8;
/// Counter of the stack's top (`MM_TOP`).
pub const MM_TOP: usize = 0;
/// Counter of where the chunk expanded by the last step starts (`MM_FIRST`).
pub const MM_FIRST: usize = 1;
/// Counter set when a step's children would not fit the stack (`MM_OVERFLOW`).
pub const MM_OVERFLOW: usize = 2;
/// Counter of the finished entries (`MM_FINISHED`).
pub const MM_FINISHED: usize = 3;
/// First of the two counters of the finished entries' rows, a u64 (`MM_TOTAL`).
pub const MM_TOTAL: usize = 4;
/// First of the two child counts, one per step parity (`MM_CHILDREN`).
pub const MM_CHILDREN: usize = 6;

/// Intervals one list of a read's SMEM walk holds on the GPU (`SMEM_CAP`): a read whose
/// walk needs more (long repeats: each entry is a drop of the interval's size) is
/// searched on the CPU.
pub const SMEM_CAP: usize = 48;
/// SMEMs a read's slots hold on the GPU (`SMEM_SLOTS`); a read with more is searched on
/// the CPU.
pub const SMEM_SLOTS: usize = 32;
/// The count of a read that the GPU left to the CPU (`SMEM_OVERFLOW`).
pub const SMEM_OVERFLOW: u32 = u32::MAX;
/// The most rows a read's listed SMEMs may print for the read to be located on the GPU
/// (`SMEM_LISTED_ROWS`: every slot with bwa fastmap's default `-w 20`); a read with
/// more (a larger `-w`) is searched on the CPU, so that a batch's rows stay countable
/// in 32 bits.
pub const SMEM_LISTED_ROWS: usize = SMEM_SLOTS * 20;

/// Every `-D` definition the kernels are compiled with: (macro, value), passed as an
/// unsigned literal (`-DNAME=VALUEu`). The values are the constants above and the CPU
/// layouts the kernels read: the Occ blocks of
/// [`crate::fm::occ`] (`ROWS_PER_BLOCK`, `WORDS_PER_BLOCK`), the rank blocks of the
/// sampled SA ([`crate::fm::sampled_sa`], `ROWS_PER_RANK`), the difference cover's period
/// ([`crate::sa::cover`], `PERIOD`) and the bases of a sort key of the partitioned
/// sorter ([`crate::sa::keysort`], `KEY_BASES`).
pub const DEFINES: &[(&str, usize)] = &[
    ("SCAN_BLOCK_THREADS", THREADS as usize),
    ("MERGE_THREADS", THREADS as usize),
    ("INIT_THREADS", THREADS as usize),
    ("MEDIUM_THREADS", THREADS as usize),
    ("GATHER_THREADS", THREADS as usize),
    ("SCAN_ITEMS", SCAN_ITEMS),
    ("RADIX", RADIX),
    ("MAX_PASSES", MAX_PASSES),
    ("ITEMS_U32", ITEMS_U32),
    ("ITEMS_U64", ITEMS_U64),
    ("ITEMS_U64_V64", ITEMS_U64_V64),
    ("MERGE_ITEMS", MERGE_ITEMS),
    ("SKETCH_BITS", SKETCH_BITS as usize),
    ("SMALL_SEG", SMALL_SEG),
    ("MEDIUM_SEG", MEDIUM_SEG),
    ("MEDIUM_TILE", MEDIUM_TILE),
    ("RANK_ITEMS", RANK_ITEMS),
    ("OCC_PER_CTA", OCC_PER_CTA),
    ("GATHER_PER_THREAD", GATHER_PER_THREAD),
    ("MAX_SHARED_BUCKET_BASES", MAX_SHARED_BUCKET_BASES),
    ("MEDIUM_RUN", MEDIUM_RUN as usize),
    ("ROWS_PER_BLOCK", ROWS_PER_BLOCK),
    ("WORDS_PER_BLOCK", WORDS_PER_BLOCK),
    ("ROWS_PER_RANK", ROWS_PER_RANK),
    ("PERIOD", PERIOD),
    ("KEY_BASES", KEY_BASES),
    ("NOT_SEARCHABLE", NOT_SEARCHABLE as usize),
    ("SEARCH_SLOTS", SEARCH_SLOTS),
    ("SEARCH_WORDS", SEARCH_WORDS),
    ("MM_SCHEME_SHIFT", SCHEME_SHIFT as usize),
    ("MM_COUNTERS", MM_COUNTERS),
    ("MM_TOP", MM_TOP),
    ("MM_FIRST", MM_FIRST),
    ("MM_OVERFLOW", MM_OVERFLOW),
    ("MM_FINISHED", MM_FINISHED),
    ("MM_TOTAL", MM_TOTAL),
    ("MM_CHILDREN", MM_CHILDREN),
    ("SMEM_CAP", SMEM_CAP),
    ("SMEM_SLOTS", SMEM_SLOTS),
    ("SMEM_OVERFLOW", SMEM_OVERFLOW as usize),
    ("SMEM_LISTED_ROWS", SMEM_LISTED_ROWS),
];

// What the kernels take for granted of these sizes, checked at compile time: one warp on
// each 32 rows of an Occ block (bwt_occ) and 64 rows to a word of sampled-row marks;
// blocks of whole warps; the medium segment sort's groups shared evenly by its warps.
const _: () = assert!(ROWS_PER_BLOCK.is_multiple_of(32) && ROWS_PER_RANK.is_multiple_of(64));
const _: () = assert!(THREADS.is_multiple_of(32) && MEDIUM_RUN.is_multiple_of(32));
const _: () = assert!(MEDIUM_SEG.is_multiple_of(THREADS as usize / 32) && SMALL_SEG <= MEDIUM_SEG);

/// The NVRTC options of [`DEFINES`]: `-DNAME=VALUEu` each (every value unsigned, as
/// the kernels take sizes and flags).
pub fn define_options() -> Vec<String> {
    DEFINES
        .iter()
        .map(|(name, value)| format!("-D{name}={value}u"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_define_is_named_once() {
        let mut names: Vec<&str> = DEFINES.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), DEFINES.len());
    }
}
