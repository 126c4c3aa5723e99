//! The position types of a partitioned GPU build and what depends on them alone: the
//! position width of the kernel file compiled for them and the key sort of their pairs.

use crate::gpu::prims::radix::{KeyWidth, Workspace};
use crate::gpu::{DevBuf, GpuError, Word};
use crate::sa::{SaIndex, Width};

/// The position types of a partitioned GPU build: `u32` and `u64`.
pub trait Position: SaIndex + Word {}
impl<T: SaIndex + Word> Position for T {}

/// The position width of `I`, which picks the file of `kernels/partition.cuh` compiled
/// for it (`partition.cu` or `partition64.cu`).
pub(crate) fn width<I: Position>() -> Width {
    Width::from_bytes(I::BYTES as u64).expect("positions of 4 or 8 bytes")
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
