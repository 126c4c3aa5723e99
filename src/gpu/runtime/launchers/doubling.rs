//! The launchers of `kernels/sa/doubling.cu`: prefix doubling's first keys, segments,
//! their sorts and ranks.

use crate::gpu::runtime::launch::{kernels, params};
use crate::gpu::runtime::DevPtr;

params! {
    /// The text and the elements of the initial sort, the first parameters of its key
    /// kernels.
    struct KeyInputs {
        /// The packed text's words.
        words: DevPtr,
        /// Its bases.
        n: u32,
        /// The elements sorted.
        count: u32,
        /// The elements of the first kind (the layout of `element_pos`).
        n0: u32,
    }
}

kernels! {
    in ["sa/doubling.cu"];
    /// The first 16 bases (from `offset`) of the elements as keys, the elements as values.
    fn init_keys(elements: KeyInputs, offset: u32, keys: DevPtr, vals: DevPtr);
    /// The first 16 bases of the elements in `vals` as keys.
    fn gather_keys(elements: KeyInputs, vals: DevPtr, keys: DevPtr);
    /// Where each group of equal first keys starts.
    fn init_starts(words: DevPtr, keys: DevPtr, vals: DevPtr, n: u32, count: u32, n0: u32,
        short_from: u32, second: u32, starts: DevPtr);
    /// The sketch of the text's 16-mers: per register, the most leading zeros plus one
    /// over the hashes that pick it.
    fn kmer_sketch(words: DevPtr, n: u32, regs: DevPtr);
    /// Flags the elements whose group (run of equal heads) has two members or more.
    fn init_keep(heads: DevPtr, n: u32, keep: DevPtr);
    /// The kept of `n` values (`total` of them), by the scan of their flags.
    fn compact(input: DevPtr, idx: DevPtr, n: u32, total: u32, out: DevPtr);
    /// A round's packed keys (the rank at offset `h` and the position), the heads, and
    /// the group starts the previous round left.
    fn seg_keys(pos_heads: DevPtr, carried: DevPtr, carried_starts: DevPtr, m: u32, isa: DevPtr,
        n: u32, h: u32, packed: DevPtr, starts: DevPtr);
    /// Where a chunk of the list from group start `lo` may end at most at `hi`.
    fn list_cut(list: DevPtr, isa: DevPtr, lo: u32, hi: u32, cut: DevPtr);
    /// The segment starts of `m` heads.
    fn seg_starts(heads: DevPtr, m: u32, starts: DevPtr);
    /// Flags the elements of groups larger than a block sorts.
    fn seg_large_flags(starts: DevPtr, m: u32, flags: DevPtr);
    /// The keys and values of the large segments.
    fn seg_large_gather(idx: DevPtr, m: u32, total: u32, heads: DevPtr, packed: DevPtr,
        bits: u32, keys: DevPtr, vals: DevPtr, at: DevPtr);
    /// The sorted large segments back in place.
    fn seg_large_scatter(keys: DevPtr, vals: DevPtr, at: DevPtr, count: u32, bits: u32,
        sorted: DevPtr);
    /// Sorts the small segments, a warp each.
    fn seg_sort_small(packed: DevPtr, starts: DevPtr, m: u32, sorted: DevPtr);
    /// Sorts the medium segments, a block each.
    fn seg_sort_medium(packed: DevPtr, starts: DevPtr, m: u32, sorted: DevPtr);
    /// The new ranks of the sorted segments and the next round's list.
    fn seg_rank_compact(sorted: DevPtr, heads: DevPtr, starts: DevPtr, m: u32, isa: DevPtr,
        sa: DevPtr, next_pos: DevPtr, next_heads: DevPtr, next_starts: DevPtr, status: DevPtr);
    /// The keys of a round sorted whole.
    fn seg_whole_keys(packed: DevPtr, heads: DevPtr, m: u32, bits: u32, keys: DevPtr,
        vals: DevPtr);
    /// A round sorted whole back to sorted values and heads.
    fn seg_whole_unpack(keys: DevPtr, vals: DevPtr, m: u32, bits: u32, sorted: DevPtr,
        heads: DevPtr);
}
