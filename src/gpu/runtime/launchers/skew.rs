//! The launchers of `kernels/sa/skew.cu`: the skew (DC3) recursion over the packed DNA
//! text (`_dna`) or a level's names (`_names`).

use super::merge::MergeInputs;
use crate::gpu::runtime::launch::{kernels, params};
use crate::gpu::runtime::DevPtr;

params! {
    /// The comparison of sample suffixes by text and ranks: the text (packed DNA words
    /// or names), its length, the sample's ranks and the mod-0 count.
    struct SuffixRanks {
        /// The text.
        text: DevPtr,
        /// Its length.
        n: u32,
        /// The sample's ranks.
        rank: DevPtr,
        /// Suffixes at positions 0 mod 3.
        n0: u32,
    }
}

params! {
    /// The comparison of records: the first input's keys, the second's one- and
    /// two-step records.
    struct RecordKeys {
        /// Keys of the first input.
        a_keys: DevPtr,
        /// One-step records of the second.
        b_one: DevPtr,
        /// Two-step records of the second.
        b_two: DevPtr,
    }
}

kernels! {
    in ["sa/skew.cu"];
    /// The window keys of `s` sample suffixes over the DNA text.
    fn window_keys_dna(words: DevPtr, n: u32, n0: u32, vals: DevPtr, s: u32, offset: u32,
        width: u32, base: u32, keys: DevPtr);
    /// The window keys of `s` sample suffixes over names.
    fn window_keys_names(names: DevPtr, n: u32, n0: u32, vals: DevPtr, s: u32, offset: u32,
        width: u32, base: u32, keys: DevPtr);
    /// `vals[k] = k` for `s` values.
    fn iota(vals: DevPtr, s: u32);
    /// Where the window (or key) changes, over the DNA text.
    fn window_changes_dna(words: DevPtr, n: u32, n0: u32, vals: DevPtr, keys: DevPtr, s: u32,
        by_key: u32, out: DevPtr);
    /// Where the window (or key) changes, over names.
    fn window_changes_names(names: DevPtr, n: u32, n0: u32, vals: DevPtr, keys: DevPtr, s: u32,
        by_key: u32, out: DevPtr);
    /// The names into the next level's text.
    fn scatter_names(vals: DevPtr, names: DevPtr, s: u32, text: DevPtr);
    /// The ranks of a sorted sample.
    fn rank_from_sa(sa: DevPtr, s: u32, rank: DevPtr);
    /// Flags the sample suffixes at positions 0 mod 3.
    fn mod0_flags(sa: DevPtr, s: u32, n0: u32, flags: DevPtr);
    /// The keys and values of the mod-0 suffixes, over the DNA text.
    fn mod0_gather_dna(words: DevPtr, n: u32, sa: DevPtr, idx: DevPtr, s: u32, n0: u32,
        keys: DevPtr, vals: DevPtr);
    /// The keys and values of the mod-0 suffixes, over names.
    fn mod0_gather_names(names: DevPtr, n: u32, sa: DevPtr, idx: DevPtr, s: u32, n0: u32,
        keys: DevPtr, vals: DevPtr);
    /// Sample indices to text positions.
    fn sample_positions(sa: DevPtr, s: u32, n0: u32);
    /// Merge tile boundaries by suffix, over the DNA text.
    fn merge_partition_dna(inputs: MergeInputs, compare: SuffixRanks);
    /// Merge tiles by suffix, over the DNA text.
    fn merge_tiles_dna(inputs: MergeInputs, out: DevPtr, compare: SuffixRanks);
    /// Merge tile boundaries by suffix, over names.
    fn merge_partition_names(inputs: MergeInputs, compare: SuffixRanks);
    /// Merge tiles by suffix, over names.
    fn merge_tiles_names(inputs: MergeInputs, out: DevPtr, compare: SuffixRanks);
    /// The record keys of `s` sample suffixes.
    fn sample_keys(words: DevPtr, n: u32, n0: u32, rank: DevPtr, s: u32, keys: DevPtr);
    /// The records of sorted sample suffixes and their positions.
    fn sample_records(by_index: DevPtr, n0: u32, sa: DevPtr, count: u32, keys: DevPtr);
    /// The one- and two-step records of the mod-0 suffixes.
    fn mod0_records(words: DevPtr, n: u32, n0: u32, rank: DevPtr, mod0: DevPtr, count: u32,
        one: DevPtr, two: DevPtr);
    /// Merge tile boundaries by records.
    fn merge_partition_records(inputs: MergeInputs, compare: RecordKeys);
    /// Merge tiles by records.
    fn merge_tiles_records(inputs: MergeInputs, out: DevPtr, compare: RecordKeys);
}
