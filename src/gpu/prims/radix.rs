//! Device-wide LSD radix sort (8-bit digits; 32- or 64-bit keys with 32-bit values, 64-bit
//! keys with 64-bit values) and u32 prefix scans, host side of `kernels/prims/radix_sort.cu`.
//!
//! The sort is onesweep (decoupled look-back, as CUB's): one pass over the keys counts
//! the digits of every pass, then each pass is one kernel per portion of the input that
//! ranks, looks back and scatters each tile once (no per-pass upsweep or count scan).
//! The scan is one kernel too (decoupled look-back over the tiles' totals): each value
//! read once and written once.

use crate::gpu::runtime::launchers::radix_sort::{
    radix_bins, radix_histogram_u32, radix_histogram_u64, radix_histogram_u64_occupancy,
    radix_onesweep_u32, radix_onesweep_u64, radix_onesweep_u64_v64, scan_lookback,
};
use crate::gpu::runtime::Grid;
use crate::gpu::tuning::{
    ITEMS_U32, ITEMS_U64, ITEMS_U64_V64, MAX_PASSES, RADIX, SCAN_TILE, THREADS,
};
use crate::gpu::{DevBuf, DevPtr, Gpu, GpuError};

/// The launcher of a digit-count kernel: `(gpu, (grid, block), keys, n, shift, passes, hist)`.
type Histogram = fn(&Gpu, Grid, DevPtr, u32, u32, u32, DevPtr) -> Result<(), GpuError>;
/// The launcher of a onesweep pass: `(gpu, (grid, block), keys in, values in, keys out,
/// values out, n, shift, status, bins in, bins out)`.
type Onesweep = fn(
    &Gpu,
    Grid,
    DevPtr,
    DevPtr,
    DevPtr,
    DevPtr,
    u32,
    u32,
    DevPtr,
    DevPtr,
    DevPtr,
) -> Result<(), GpuError>;
/// Elements of one onesweep launch at most: bounds the look-back words (one per tile and
/// digit) that are cleared before each launch.
const PORTION: usize = 1 << 24;

/// The combining operation of a scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanOp {
    /// Prefix sums.
    Sum = 0,
    /// Prefix maxima.
    Max = 1,
}

/// Width of radix-sort keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyWidth {
    /// `u32` keys.
    U32,
    /// `u64` keys.
    U64,
}

impl KeyWidth {
    /// Bytes per key.
    pub fn bytes(self) -> usize {
        self.kernels().key_bytes
    }

    /// The kernels that sort keys of this width with `u32` values.
    fn kernels(self) -> Kernels {
        match self {
            KeyWidth::U32 => Kernels::KEY32,
            KeyWidth::U64 => Kernels::KEY64,
        }
    }
}

/// The kernels of one kind of radix sort and what they move.
#[derive(Clone, Copy)]
struct Kernels {
    histogram: Histogram,
    onesweep: Onesweep,
    key_bytes: usize,
    value_bytes: usize,
    /// Elements per onesweep tile (THREADS x the kernel's ITEMS_*).
    tile: usize,
}

impl Kernels {
    const KEY32: Kernels = Kernels {
        histogram: radix_histogram_u32,
        onesweep: radix_onesweep_u32,
        key_bytes: 4,
        value_bytes: 4,
        tile: THREADS as usize * ITEMS_U32,
    };
    const KEY64: Kernels = Kernels {
        histogram: radix_histogram_u64,
        onesweep: radix_onesweep_u64,
        key_bytes: 8,
        value_bytes: 4,
        tile: THREADS as usize * ITEMS_U64,
    };
    const WIDE: Kernels = Kernels {
        histogram: radix_histogram_u64,
        onesweep: radix_onesweep_u64_v64,
        key_bytes: 8,
        value_bytes: 8,
        tile: THREADS as usize * ITEMS_U64_V64,
    };
    /// The smallest tile of any kind (sizes the look-back words).
    const MIN_TILE: usize = {
        let (a, b, c) = (Self::KEY32.tile, Self::KEY64.tile, Self::WIDE.tile);
        let ab = if a < b { a } else { b };
        if ab < c {
            ab
        } else {
            c
        }
    };
}

/// Scratch for sorts and scans of up to `max_len` elements.
pub struct Workspace<'g> {
    gpu: &'g Gpu,
    max_len: usize,
    /// Blocks of the digit-count kernel: those resident at once.
    histogram_grid: u32,
    /// Digit counts of every pass of a sort.
    histogram: DevBuf<'g>,
    /// Per pass, per portion (and one past the last): each digit's next output index.
    bins: DevBuf<'g>,
    /// A tile counter and one look-back word per (tile, digit) of a portion.
    status: DevBuf<'g>,
    /// A scan's tile counter and one look-back word per tile (flag and value).
    scan_status: DevBuf<'g>,
}

impl<'g> Workspace<'g> {
    /// Scratch for inputs of up to `max_len` elements.
    pub fn new(gpu: &'g Gpu, max_len: usize) -> Result<Self, GpuError> {
        let blocks = gpu.sm_count() * radix_histogram_u64_occupancy(gpu, THREADS)?;
        let portions = max_len.div_ceil(PORTION).max(1);
        let tiles = max_len.min(PORTION).div_ceil(Kernels::MIN_TILE).max(1);
        Ok(Workspace {
            gpu,
            max_len,
            histogram_grid: blocks,
            histogram: gpu.alloc(MAX_PASSES * RADIX * 4)?,
            bins: gpu.alloc(MAX_PASSES * (portions + 1) * RADIX * 4)?,
            status: gpu.alloc((1 + tiles * RADIX) * 4)?,
            scan_status: gpu.alloc((1 + max_len.max(1).div_ceil(SCAN_TILE)) * 8)?,
        })
    }

    /// Scans `len` u32s at `input` into `output` (may be the same address) with `op`,
    /// inclusive or exclusive; returns the reduction of all `len` values.
    pub fn scan(
        &self,
        input: DevPtr,
        output: DevPtr,
        len: usize,
        op: ScanOp,
        inclusive: bool,
    ) -> Result<u32, GpuError> {
        if len == 0 {
            return Ok(0);
        }
        self.scan_queued(input, output, len, op, inclusive)?;
        // The low half of the last tile's word: its prefix, the reduction of all.
        self.scan_status.read_u32(2 * len.div_ceil(SCAN_TILE))
    }

    /// [`Workspace::scan`] without reading the total back (no host wait).
    pub fn scan_queued(
        &self,
        input: DevPtr,
        output: DevPtr,
        len: usize,
        op: ScanOp,
        inclusive: bool,
    ) -> Result<(), GpuError> {
        if len == 0 {
            return Ok(());
        }
        let tiles = len.div_ceil(SCAN_TILE);
        assert!(len < u32::MAX as usize && (1 + tiles) * 8 <= self.scan_status.bytes());
        self.scan_status.zero((1 + tiles) * 8)?;
        scan_lookback(
            self.gpu,
            (tiles as u32, THREADS),
            input,
            output,
            len as u32,
            op as u32,
            inclusive as u32,
            self.scan_status.ptr(0),
        )
    }

    /// Sorts `len` pairs stably by the low `bits` bits of their keys (values of `u32`).
    /// The data starts in `keys[0]`/`vals[0]`; `keys[1]`/`vals[1]` are scratch of the same
    /// size. The buffers are swapped as needed so that the sorted data ends in index 0.
    pub fn sort_pairs(
        &self,
        keys: &mut [DevBuf<'g>; 2],
        vals: &mut [DevBuf<'g>; 2],
        len: usize,
        width: KeyWidth,
        bits: u32,
    ) -> Result<(), GpuError> {
        self.sort_buffers(keys, vals, len, width.kernels(), bits)
    }

    /// [`Workspace::sort_pairs`] of `u64` keys with `u64` values.
    pub fn sort_wide_pairs(
        &self,
        keys: &mut [DevBuf<'g>; 2],
        vals: &mut [DevBuf<'g>; 2],
        len: usize,
        bits: u32,
    ) -> Result<(), GpuError> {
        self.sort_buffers(keys, vals, len, Kernels::WIDE, bits)
    }

    fn sort_buffers(
        &self,
        keys: &mut [DevBuf<'g>; 2],
        vals: &mut [DevBuf<'g>; 2],
        len: usize,
        kernels: Kernels,
        bits: u32,
    ) -> Result<(), GpuError> {
        assert!(
            keys.iter().all(|b| b.bytes() >= len * kernels.key_bytes)
                && vals.iter().all(|b| b.bytes() >= len * kernels.value_bytes)
        );
        let at = self.sort_with(
            [keys[0].ptr(0), keys[1].ptr(0)],
            [vals[0].ptr(0), vals[1].ptr(0)],
            len,
            kernels,
            0..bits,
        )?;
        if at == 1 {
            keys.swap(0, 1);
            vals.swap(0, 1);
        }
        Ok(())
    }

    /// [`Workspace::sort_pairs`] on device addresses: the pairs start at `keys[0]` and
    /// `vals[0]`, `keys[1]`/`vals[1]` are scratch of `len` elements each; returns the index
    /// (0 or 1) of the buffers that hold the sorted pairs.
    pub fn sort_pairs_at(
        &self,
        keys: [DevPtr; 2],
        vals: [DevPtr; 2],
        len: usize,
        width: KeyWidth,
        bits: u32,
    ) -> Result<usize, GpuError> {
        self.sort_with(keys, vals, len, width.kernels(), 0..bits)
    }

    /// [`Workspace::sort_pairs_at`] by the key bits `digits` (from `digits.start` up) alone.
    pub fn sort_digits_at(
        &self,
        keys: [DevPtr; 2],
        vals: [DevPtr; 2],
        len: usize,
        width: KeyWidth,
        digits: std::ops::Range<u32>,
    ) -> Result<usize, GpuError> {
        self.sort_with(keys, vals, len, width.kernels(), digits)
    }

    fn sort_with(
        &self,
        keys: [DevPtr; 2],
        vals: [DevPtr; 2],
        len: usize,
        kernels: Kernels,
        digits: std::ops::Range<u32>,
    ) -> Result<usize, GpuError> {
        assert!(len <= self.max_len && len < u32::MAX as usize);
        assert!(digits.end as usize <= 8 * kernels.key_bytes);
        if len < 2 || digits.is_empty() {
            return Ok(0);
        }
        let passes = digits.len().div_ceil(8);
        let portions = len.div_ceil(PORTION);
        // Per pass: the bins of portion 0, 1, ..., one past the last.
        let stride = (portions + 1) * RADIX;
        self.histogram.zero(passes * RADIX * 4)?;
        let grid = (len.div_ceil(THREADS as usize) as u32).min(self.histogram_grid);
        let (n, hist) = (len as u32, self.histogram.ptr(0));
        let passes32 = passes as u32;
        (kernels.histogram)(
            self.gpu,
            (grid, THREADS),
            keys[0],
            n,
            digits.start,
            passes32,
            hist,
        )?;
        let bins = self.bins.ptr(0);
        radix_bins(self.gpu, (1, THREADS), hist, passes32, stride as u32, bins)?;
        let mut at = 0;
        for pass in 0..passes {
            for portion in 0..portions {
                let bins_in = (pass * stride + portion * RADIX) * 4;
                let shift = digits.start + 8 * pass as u32;
                self.onesweep(kernels, [keys, vals], at, len, (shift, portion), bins_in)?;
            }
            at = 1 - at;
        }
        Ok(at)
    }

    /// One pass (the 8 bits from `shift` up) of one portion: from buffers `at` to
    /// `1 - at`, the portion's bins at byte `bins_in` of `bins`, the next portion's right
    /// after.
    fn onesweep(
        &self,
        kernels: Kernels,
        [keys, vals]: [[DevPtr; 2]; 2],
        at: usize,
        len: usize,
        (shift, portion): (u32, usize),
        bins_in: usize,
    ) -> Result<(), GpuError> {
        let start = portion * PORTION;
        let count = PORTION.min(len - start);
        let tiles = count.div_ceil(kernels.tile);
        self.status.zero((1 + tiles * RADIX) * 4)?;
        (kernels.onesweep)(
            self.gpu,
            (tiles as u32, THREADS),
            keys[at].offset(start * kernels.key_bytes),
            vals[at].offset(start * kernels.value_bytes),
            keys[1 - at],
            vals[1 - at],
            count as u32,
            shift,
            self.status.ptr(0),
            self.bins.ptr(bins_in),
            self.bins.ptr(bins_in + RADIX * 4),
        )
    }
}
