//! Device-wide stable merge of two sorted `u32` sequences by a comparison that the
//! caller's kernel file supplies (merge path partitioning), host side of
//! `kernels/prims/merge.cuh`.
//!
//! A kernel file that merges instantiates the header's two templates with its comparison
//! as a pair of kernels (see `kernels/prims/merge.cu` for plain keys); [`merge`] launches
//! them: one thread per output tile finds where the tile starts in each input (a binary
//! search along the tile's cross diagonal), then every thread of a tile's block finds its
//! own start inside the tile's ranges and merges its outputs sequentially.

use crate::gpu::tuning::{MERGE_TILE as TILE, THREADS};
use crate::gpu::{Arg, Gpu, GpuError};

/// A pair of merge kernels instantiated with one comparison.
#[derive(Clone, Copy, Debug)]
pub struct MergeKernels {
    /// The kernel file.
    pub file: &'static str,
    /// The kernel of `merge_partition` (one thread per tile boundary).
    pub partition: &'static str,
    /// The kernel of `merge_tiles` (one block per tile).
    pub tiles: &'static str,
}

/// The plain-key instantiation of `kernels/prims/merge.cu`: elements compare by their
/// bits above the shift given as its one comparison argument (below 32).
const BY_KEY_BITS: MergeKernels = MergeKernels {
    file: "prims/merge.cu",
    partition: "merge_partition_u32",
    tiles: "merge_tiles_u32",
};

/// Merges the sorted `u32` sequences `a` (`na` elements) and `b` (`nb`) at device
/// addresses into `out` (`na + nb` elements, apart from both) with `kernels`, whose
/// comparison takes the arguments `compare` (after the kernels' own). Stable: on ties
/// `a`'s elements come first.
pub(crate) fn merge(
    gpu: &Gpu,
    kernels: MergeKernels,
    (a, na): (u64, usize),
    (b, nb): (u64, usize),
    out: u64,
    compare: &[Arg],
) -> Result<(), GpuError> {
    let total = na + nb;
    assert!(total <= u32::MAX as usize);
    if total == 0 {
        return Ok(());
    }
    let tiles = total.div_ceil(TILE);
    let splits = gpu.alloc(4 * (tiles + 1))?;
    let inputs = [
        Arg::U64(a),
        Arg::U32(na as u32),
        Arg::U64(b),
        Arg::U32(nb as u32),
        Arg::U64(splits.ptr(0)),
    ];
    let args: Vec<Arg> = inputs.iter().chain(compare).copied().collect();
    gpu.launch(
        kernels.file,
        kernels.partition,
        (tiles + 1).div_ceil(THREADS as usize) as u32,
        THREADS,
        &args,
    )?;
    let args: Vec<Arg> = inputs
        .iter()
        .chain(&[Arg::U64(out)])
        .chain(compare)
        .copied()
        .collect();
    gpu.launch(kernels.file, kernels.tiles, tiles as u32, THREADS, &args)
}

/// Merges the sorted `u32` sequences in `a` and `b` (device addresses, `na` and `nb`
/// elements) into `out` by their bits from `shift` (below 32) up, stably.
pub fn merge_by_high_bits(
    gpu: &Gpu,
    (a, na): (u64, usize),
    (b, nb): (u64, usize),
    out: u64,
    shift: u32,
) -> Result<(), GpuError> {
    assert!(shift < 32);
    merge(gpu, BY_KEY_BITS, (a, na), (b, nb), out, &[Arg::U32(shift)])
}
