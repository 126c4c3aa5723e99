//! Device-wide stable merge of two sorted `u32` sequences by a comparison that the
//! caller's kernel file supplies (merge path partitioning), host side of
//! `kernels/prims/merge.cuh`.
//!
//! A kernel file that merges instantiates the header's two templates with its comparison
//! as a pair of kernels (see `kernels/prims/merge.cu` for plain keys); [`merge`] launches
//! them: one thread per output tile finds where the tile starts in each input (a binary
//! search along the tile's cross diagonal), then every thread of a tile's block finds its
//! own start inside the tile's ranges and merges its outputs sequentially.

use crate::gpu::runtime::launchers::merge::{merge_partition_u32, merge_tiles_u32};
use crate::gpu::runtime::Grid;
use crate::gpu::tuning::{MERGE_TILE as TILE, THREADS};
use crate::gpu::{DevPtr, Gpu, GpuError};

use crate::gpu::runtime::launchers::merge::MergeInputs;

/// The launcher of a `merge_partition_*` kernel whose comparison takes a `C`: `(gpu,
/// (grid, block), inputs, comparison)`.
type Partition<C> = fn(&Gpu, Grid, MergeInputs, C) -> Result<(), GpuError>;
/// The launcher of a `merge_tiles_*` kernel whose comparison takes a `C`: `(gpu, (grid,
/// block), inputs, output, comparison)`.
type Tiles<C> = fn(&Gpu, Grid, MergeInputs, DevPtr, C) -> Result<(), GpuError>;

/// A pair of merge kernels instantiated with one comparison, whose arguments are a `C`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MergeKernels<C> {
    /// The launcher of `merge_partition` (one thread per tile boundary).
    pub(crate) partition: Partition<C>,
    /// The launcher of `merge_tiles` (one block per tile), into its output.
    pub(crate) tiles: Tiles<C>,
}

/// The plain-key instantiation of `kernels/prims/merge.cu`: elements compare by their
/// bits above the shift given as its one comparison argument (below 32).
const BY_KEY_BITS: MergeKernels<u32> = MergeKernels {
    partition: merge_partition_u32,
    tiles: merge_tiles_u32,
};

/// Merges the sorted `u32` sequences `a` (`na` elements) and `b` (`nb`) at device
/// addresses into `out` (`na + nb` elements, apart from both) with `kernels`, whose
/// comparison takes the arguments `compare`. Stable: on ties `a`'s elements come first.
pub(crate) fn merge<C: Copy>(
    gpu: &Gpu,
    kernels: MergeKernels<C>,
    (a, na): (DevPtr, usize),
    (b, nb): (DevPtr, usize),
    out: DevPtr,
    compare: C,
) -> Result<(), GpuError> {
    let total = na + nb;
    assert!(total <= u32::MAX as usize);
    if total == 0 {
        return Ok(());
    }
    let tiles = total.div_ceil(TILE);
    let splits = gpu.alloc(4 * (tiles + 1))?;
    let inputs = MergeInputs {
        a,
        na: na as u32,
        b,
        nb: nb as u32,
        splits: splits.ptr(0),
    };
    let grid = (tiles + 1).div_ceil(THREADS as usize) as u32;
    (kernels.partition)(gpu, (grid, THREADS), inputs, compare)?;
    (kernels.tiles)(gpu, (tiles as u32, THREADS), inputs, out, compare)
}

/// Merges the sorted `u32` sequences in `a` and `b` (device addresses, `na` and `nb`
/// elements) into `out` by their bits from `shift` (below 32) up, stably.
pub fn merge_by_high_bits(
    gpu: &Gpu,
    (a, na): (DevPtr, usize),
    (b, nb): (DevPtr, usize),
    out: DevPtr,
    shift: u32,
) -> Result<(), GpuError> {
    assert!(shift < 32);
    merge(gpu, BY_KEY_BITS, (a, na), (b, nb), out, shift)
}
