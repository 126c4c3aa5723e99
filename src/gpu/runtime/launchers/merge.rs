//! The launchers of `kernels/prims/merge.cu` (the merge of plain keys), and the inputs
//! that every merge kernel pair takes first.

use crate::gpu::runtime::launch::{kernels, params};
use crate::gpu::runtime::DevPtr;

params! {
    /// The two sorted inputs of a merge and the tile boundaries between them, the first
    /// parameters of every `merge_partition_*` and `merge_tiles_*` kernel.
    struct MergeInputs {
        /// The first input.
        a: DevPtr,
        /// Its elements.
        na: u32,
        /// The second input.
        b: DevPtr,
        /// Its elements.
        nb: u32,
        /// Where each output tile starts in each input.
        splits: DevPtr,
    }
}

kernels! {
    in ["prims/merge.cu"];
    /// The tile boundaries of a merge of keys compared by their bits from `shift` up.
    fn merge_partition_u32(inputs: MergeInputs, shift: u32);
    /// The tiles of that merge into `out`.
    fn merge_tiles_u32(inputs: MergeInputs, out: DevPtr, shift: u32);
}
