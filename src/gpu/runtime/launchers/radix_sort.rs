//! The launchers of `kernels/prims/radix_sort.cu`: the decoupled look-back scan and the
//! onesweep radix sort's histogram, bins and passes.

use crate::gpu::runtime::launch::kernels;
use crate::gpu::runtime::DevPtr;

kernels! {
    in ["prims/radix_sort.cu"];
    /// Scans `n` values of `input` into `output` with `op`, inclusive or not.
    fn scan_lookback(input: DevPtr, output: DevPtr, n: u32, op: u32, inclusive: u32, status: DevPtr);
    /// The digit counts of `passes` passes over `n` 32-bit keys from bit `shift`.
    fn radix_histogram_u32(keys: DevPtr, n: u32, shift: u32, passes: u32, hist: DevPtr);
    /// The digit counts of `passes` passes over `n` 64-bit keys from bit `shift`.
    fn radix_histogram_u64(keys: DevPtr, n: u32, shift: u32, passes: u32, hist: DevPtr)
        occupancy radix_histogram_u64_occupancy;
    /// Each pass's digit starts from its counts.
    fn radix_bins(hist: DevPtr, passes: u32, stride: u32, bins: DevPtr);
    /// One pass over 32-bit keys and 32-bit values.
    fn radix_onesweep_u32(ki: DevPtr, vi: DevPtr, ko: DevPtr, vo: DevPtr, n: u32, shift: u32,
        status: DevPtr, bins_in: DevPtr, bins_out: DevPtr);
    /// One pass over 64-bit keys and 32-bit values.
    fn radix_onesweep_u64(ki: DevPtr, vi: DevPtr, ko: DevPtr, vo: DevPtr, n: u32, shift: u32,
        status: DevPtr, bins_in: DevPtr, bins_out: DevPtr);
    /// One pass over 64-bit keys and 64-bit values.
    fn radix_onesweep_u64_v64(ki: DevPtr, vi: DevPtr, ko: DevPtr, vo: DevPtr, n: u32,
        shift: u32, status: DevPtr, bins_in: DevPtr, bins_out: DevPtr);
}
