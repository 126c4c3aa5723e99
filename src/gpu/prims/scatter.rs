//! Device-wide scatter `dst[index[i]] = value[i]` into an array larger than the L2 cache,
//! host side of `kernels/prims/scatter.cu`.
//!
//! Random 4-byte writes all over a large array each cost a DRAM read and write of a
//! whole sector. Sorted first by their indices' top 8 bits (one radix-sort pass), the
//! writes come window by window, each window (1/256 of the array) within the L2 cache,
//! where they fill sectors before those go out. Past 2^31 entries a window (2^24 u32s,
//! 64 MiB) outgrows the L2: the sorted pairs are then written in two sweeps, each
//! writing the pairs of one half of every window (a second read of the pairs instead of
//! a second sort pass, which would also leave them in place of the input):
//! on an H100, 1.7 G writes into 2^31 entries took 132 ms at random and 15 + 52 ms
//! sorted first (libcubwt does the same, `libcubwt_scatter_values_uint32`). Small arrays
//! and few writes go at random.

use super::radix::{KeyWidth, Workspace};
use crate::gpu::runtime::launchers::scatter::scatter_u32;
use crate::gpu::tuning::THREADS;
use crate::gpu::{DevPtr, Gpu, GpuError};

/// Index bits of a window that the L2 cache holds (2^23 u32s: 32 MiB).
const WINDOW_BITS: u32 = 23;
/// Fewer writes than this go at random (the sort's launches would cost more).
const MIN_SORTED: usize = 1 << 20;

/// Pairs to scatter, at device addresses: `len` `u32` indices and `len` `u32` values.
#[derive(Clone, Copy, Debug)]
pub struct Pairs {
    /// The indices.
    pub indices: DevPtr,
    /// The values.
    pub values: DevPtr,
    /// How many pairs.
    pub len: usize,
}

/// Room for the sorted pairs: `len` `u32`s at `indices` and `len` at `values` (apart
/// from the pairs and from each other).
#[derive(Clone, Copy, Debug)]
pub struct Scratch {
    /// Where sorted indices go.
    pub indices: DevPtr,
    /// Where sorted values go.
    pub values: DevPtr,
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
    (dst, dst_len): (DevPtr, usize),
    scratch: Scratch,
) -> Result<(), GpuError> {
    if !sorts_first(pairs.len, dst_len) {
        return write(gpu, pairs, dst, Sweep::ALL);
    }
    assert!(scratch.len > 0);
    let top = index_bits(dst_len);
    let mut start = 0;
    while start < pairs.len {
        let len = scratch.len.min(pairs.len - start);
        let slice = Pairs {
            indices: pairs.indices.offset(4 * start),
            values: pairs.values.offset(4 * start),
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
        for sweep in sweeps(dst_len) {
            write(gpu, sorted, dst, sweep)?;
        }
        start += len;
    }
    Ok(())
}

/// Which pairs a write sweep takes: those whose index bits from `shift` up, masked by
/// `mask`, equal `part`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sweep {
    shift: u32,
    mask: u32,
    part: u32,
}

impl Sweep {
    /// Every pair.
    const ALL: Sweep = Sweep {
        shift: 0,
        mask: 0,
        part: 0,
    };
}

/// The sweeps over pairs sorted by the top 8 index bits into `dst_len` entries: one, or
/// past windows of 2^[`WINDOW_BITS`] entries one per value of the index bits between the
/// window and the sorted bits.
fn sweeps(dst_len: usize) -> Vec<Sweep> {
    let top = index_bits(dst_len);
    let extra = top.saturating_sub(8 + WINDOW_BITS);
    if extra == 0 {
        return vec![Sweep::ALL];
    }
    (0..1 << extra)
        .map(|part| Sweep {
            shift: WINDOW_BITS,
            mask: (1 << extra) - 1,
            part,
        })
        .collect()
}

/// The writes of `pairs` that `sweep` takes, in their order.
fn write(gpu: &Gpu, pairs: Pairs, dst: DevPtr, sweep: Sweep) -> Result<(), GpuError> {
    if pairs.len == 0 {
        return Ok(());
    }
    assert!(pairs.len <= u32::MAX as usize);
    scatter_u32(
        gpu,
        (pairs.len.div_ceil(THREADS as usize) as u32, THREADS),
        pairs.indices,
        pairs.values,
        pairs.len as u32,
        dst,
        sweep.shift,
        sweep.mask,
        sweep.part,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_keep_windows_within_the_l2_cache() {
        assert_eq!(sweeps(1 << 24), vec![Sweep::ALL]);
        assert_eq!(sweeps(1 << 31), vec![Sweep::ALL]);
        let two = sweeps((1 << 31) + 1);
        assert_eq!(two.len(), 2);
        for (part, sweep) in two.iter().enumerate() {
            assert_eq!((sweep.shift, sweep.mask, sweep.part), (23, 1, part as u32));
        }
        assert_eq!(sweeps(u32::MAX as usize).len(), 2);
    }
}
