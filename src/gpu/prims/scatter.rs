//! Device-wide scatter `dst[index[i]] = value[i]` into an array larger than the L2 cache,
//! host side of `kernels/prims/scatter.cu`.
//!
//! Random 4-byte writes all over a large array each cost a DRAM read and write of a
//! whole sector. Sorted first by their indices' top 8 bits (one radix-sort pass), the
//! writes come window by window, each window (1/256 of the array: 2^23 entries up to
//! 2^31, 2^24 past it) within the L2 cache, where they fill sectors before those go out:
//! on an H100, 1.7 G writes into 2^31 entries took 132 ms at random and 15 + 52 ms
//! sorted first (libcubwt does the same, `libcubwt_scatter_values_uint32`). Small arrays
//! and few writes go at random.

use super::radix::{KeyWidth, Workspace};
use crate::gpu::{Arg, Gpu, GpuError};

const FILE: &str = "prims/scatter.cu";
const THREADS: u32 = 256;
/// Index bits of a window that the L2 cache holds (2^23 u32s: 32 MiB).
const WINDOW_BITS: u32 = 23;
/// Fewer writes than this go at random (the sort's launches would cost more).
const MIN_SORTED: usize = 1 << 20;

/// Pairs to scatter, at device addresses: `len` `u32` indices and `len` `u32` values.
#[derive(Clone, Copy, Debug)]
pub struct Pairs {
    /// The indices.
    pub indices: u64,
    /// The values.
    pub values: u64,
    /// How many pairs.
    pub len: usize,
}

/// Room for the sorted pairs: `len` `u32`s at `indices` and `len` at `values` (apart
/// from the pairs and from each other).
#[derive(Clone, Copy, Debug)]
pub struct Scratch {
    /// Where sorted indices go.
    pub indices: u64,
    /// Where sorted values go.
    pub values: u64,
    /// Pairs sorted at a time (the scatter goes over the pairs in slices of this many).
    pub len: usize,
}

/// Whether [`scatter`] sorts `writes` pairs into an array of `dst_len` entries first
/// (else it writes them at random, in their order).
pub fn sorts_first(writes: usize, dst_len: usize) -> bool {
    writes >= MIN_SORTED && index_bits(dst_len) > WINDOW_BITS
}

/// Bits of the largest index into `dst_len` entries.
fn index_bits(dst_len: usize) -> u32 {
    usize::BITS - dst_len.saturating_sub(1).leading_zeros()
}

/// `dst[index] = value` for every pair (indices distinct and below `dst_len`, `dst` an
/// array of `u32`s at a device address); sorted first (see [`sorts_first`]) slice by
/// slice through `scratch`, whose size must be non-zero then. The pairs stay as given.
pub fn scatter(
    gpu: &Gpu,
    ws: &Workspace,
    pairs: Pairs,
    (dst, dst_len): (u64, usize),
    scratch: Scratch,
) -> Result<(), GpuError> {
    if !sorts_first(pairs.len, dst_len) {
        return write(gpu, pairs, dst);
    }
    assert!(scratch.len > 0);
    let top = index_bits(dst_len);
    let mut start = 0;
    while start < pairs.len {
        let len = scratch.len.min(pairs.len - start);
        let slice = Pairs {
            indices: pairs.indices + 4 * start as u64,
            values: pairs.values + 4 * start as u64,
            len,
        };
        let at = ws.sort_digits_at(
            [slice.indices, scratch.indices],
            [slice.values, scratch.values],
            len,
            KeyWidth::U32,
            top - 8..top,
        )?;
        let sorted = if at == 0 {
            slice
        } else {
            Pairs {
                indices: scratch.indices,
                values: scratch.values,
                ..slice
            }
        };
        write(gpu, sorted, dst)?;
        start += len;
    }
    Ok(())
}

/// The writes of `pairs` in their order.
fn write(gpu: &Gpu, pairs: Pairs, dst: u64) -> Result<(), GpuError> {
    if pairs.len == 0 {
        return Ok(());
    }
    assert!(pairs.len <= u32::MAX as usize);
    gpu.launch(
        FILE,
        "scatter_u32",
        pairs.len.div_ceil(THREADS as usize) as u32,
        THREADS,
        &[
            Arg::U64(pairs.indices),
            Arg::U64(pairs.values),
            Arg::U32(pairs.len as u32),
            Arg::U64(dst),
        ],
    )
}
