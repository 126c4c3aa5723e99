//! The position types of a partitioned GPU build and what depends on them alone: the
//! kernel file compiled for them and the key sort of their pairs.

use crate::gpu::prims::radix::{KeyWidth, Workspace};
use crate::gpu::{DevBuf, GpuError, Word};
use crate::sa::SaIndex;

/// The position types of a partitioned GPU build: `u32` and `u64`.
pub trait Position: SaIndex + Word {}
impl<T: SaIndex + Word> Position for T {}

/// The kernels of `kernels/partition.cuh` compiled for positions of type `I`.
pub(crate) fn kernel_file<I: Position>() -> &'static str {
    match I::BYTES {
        4 => "partition.cu",
        _ => "partition64.cu",
    }
}

/// Sorts the `m` pairs of 64-bit keys and positions of type `I` in `keys[0]` and
/// `positions[0]` by key ([`Workspace::sort_pairs`]).
pub(crate) fn sort_by_keys<'g, I: Position>(
    ws: &Workspace<'g>,
    keys: &mut [DevBuf<'g>; 2],
    positions: &mut [DevBuf<'g>; 2],
    m: usize,
) -> Result<(), GpuError> {
    match I::BYTES {
        4 => ws.sort_pairs(keys, positions, m, KeyWidth::U64, 64),
        _ => ws.sort_wide_pairs(keys, positions, m, 64),
    }
}
