//! The launchers of `kernels/seed/smem.cu`: the SMEMs of reads over bwa's FMD index and
//! the locate of their rows, with the device BWT they read ([`DeviceBwt`]).

use crate::gpu::runtime::launch::{kernels, params};
use crate::gpu::runtime::DevPtr;

params! {
    /// bwa's BWT on the device: its Occ intervals as the `.bwt` holds them, `L2` and the
    /// primary row.
    struct DeviceBwt {
        /// The Occ intervals (64 bytes a 128 rows).
        occ: DevPtr,
        /// bwa's `L2[0..=4]` (u64).
        l2: DevPtr,
        /// The row whose symbol is the sentinel.
        primary: u64,
    }
}

kernels! {
    in ["seed/smem.cu"];
    /// The SMEMs of at least `min_len` bases of each read (one thread a read) into its
    /// slots, their count (or the overflow mark) into `counts`, the slots it keeps and the
    /// rows its SMEMs of at most `max_hits` occurrences list into `used` and `rows`.
    fn smem_reads(bwt: DeviceBwt, bases: DevPtr, offsets: DevPtr, nreads: u32, min_intv: u32,
        max_intv: u64, min_len: u32, max_hits: u64, smems: DevPtr, counts: DevPtr, used: DevPtr,
        rows: DevPtr);
    /// Each kept read's slots to `slot_start[i]` of `compact`, its listed rows to
    /// `row_start[i]` of `rows`.
    fn smem_compact(smems: DevPtr, counts: DevPtr, slot_start: DevPtr, row_start: DevPtr,
        nreads: u32, max_hits: u64, compact: DevPtr, rows: DevPtr);
    /// bwa's `bwt_sa` of each row of `rows`, in place.
    fn locate_rows(bwt: DeviceBwt, positions: DevPtr, interval: u64, rows: DevPtr, n: u64);
}
