//! The launchers of `kernels/partition.cuh`, compiled for 32-bit (`partition.cu`) and
//! 64-bit (`partition64.cu`) positions: the partitioned build's gathering, run sorting,
//! sample and FM rows.

use crate::gpu::runtime::launch::{kernels, params};
use crate::gpu::runtime::DevPtr;

params! {
    /// What comparing two suffixes of a part needs: the packed text and the
    /// difference-cover sample ranks (`Ranks` in the kernels).
    struct Comparison {
        /// The packed text's words.
        words: DevPtr,
        /// Its bases.
        n: u64,
        /// The sample's ranks.
        ranks: DevPtr,
        /// The cover's offset table.
        delta: DevPtr,
        /// Each residue's slot in the cover.
        slot: DevPtr,
        /// The cover's members.
        members: u32,
        /// Bases compared before the ranks decide.
        limit: u32,
    }
}

kernels! {
    in ["partition.cu", "partition64.cu"];
    /// The suffixes of buckets `b_lo..b_hi` (within `from..until` where given) with keys.
    fn part_gather(compare: Comparison, w: u32, b_lo: u32, b_hi: u32, has_from: u32,
        from: u64, has_until: u32, until: u64, keys: DevPtr, positions: DevPtr, count: DevPtr);
    /// The suffixes of each bucket of `w` bases.
    fn bucket_counts(words: DevPtr, n: u64, w: u32, counts: DevPtr);
    /// Flags where a run of equal keys starts.
    fn run_flags(keys: DevPtr, segments: DevPtr, m: u32, flags: DevPtr);
    /// Each run's bounds.
    fn run_bounds(keys: DevPtr, segments: DevPtr, idx: DevPtr, m: u32, lo: DevPtr, hi: DevPtr);
    /// Flags the runs of two suffixes or more.
    fn tied_flags(lo: DevPtr, hi: DevPtr, runs: u32, flags: DevPtr);
    /// The tied runs' indices.
    fn tied_compact(lo: DevPtr, hi: DevPtr, idx: DevPtr, runs: u32, tied: DevPtr);
    /// Sorts the runs of at most 32 suffixes, lists the medium and large ones.
    fn sort_small_runs(compare: Comparison, tied: DevPtr, ntied: u32, lo: DevPtr, hi: DevPtr,
        positions: DevPtr, medium: DevPtr, stride: u32, large: DevPtr, counts: DevPtr);
    /// Sorts the medium runs, a block each.
    fn sort_medium_runs(compare: Comparison, medium: DevPtr, lo: DevPtr, hi: DevPtr,
        positions: DevPtr);
    /// The members of the listed runs, with their run's number.
    fn run_members(positions: DevPtr, runs: DevPtr, offsets: DevPtr, members: DevPtr,
        segments: DevPtr);
    /// The sorted members back into their runs.
    fn put_run_members(members: DevPtr, runs: DevPtr, offsets: DevPtr, positions: DevPtr);
    /// The keys of `t` members at `offset` bases, and their order.
    fn offset_keys(words: DevPtr, n: u64, members: DevPtr, t: u32, offset: u32, keys: DevPtr,
        order: DevPtr);
    /// Permutes `t` values (and positions) by `order`.
    fn permute(order: DevPtr, t: u32, in32: DevPtr, out32: DevPtr, in_pos: DevPtr,
        out_pos: DevPtr);
    /// The keys and positions of the sample's `m` suffixes.
    fn sample_keys(words: DevPtr, member: DevPtr, count: u32, m: u32, keys: DevPtr,
        positions: DevPtr);
    /// Where the sample's groups of equal first bases start, and each suffix's index.
    fn sample_starts(words: DevPtr, n: u64, positions: DevPtr, m: u32, slot: DevPtr,
        count: u32, starts: DevPtr, index: DevPtr);
    /// A part's row flags, sampled and primary rows and k-mer counts.
    fn part_rows(words: DevPtr, positions: DevPtr, m: u32, rate: u32, k: u32, full: u64,
        flags: DevPtr, sampled: DevPtr, primary: DevPtr, kmer_counts: DevPtr);
    /// A part's sampled positions.
    fn part_sampled(positions: DevPtr, flags: DevPtr, before: DevPtr, m: u32, out: DevPtr);
    /// The listed runs' positions and the sampled rows before each.
    fn gather_runs(positions: DevPtr, runs: DevPtr, offsets: DevPtr, before: DevPtr,
        out: DevPtr, sampled_before: DevPtr);
    /// Every `stride`-th position from `first`, `count` of them.
    fn strided_positions(positions: DevPtr, first: u64, stride: u32, count: u64, out: DevPtr);
}
