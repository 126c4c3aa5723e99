//! Device-wide LSD radix sort (8-bit digits; 32- or 64-bit keys with 32-bit values, 64-bit
//! keys with 64-bit values) and
//! u32 prefix scans, host side of `kernels/prims/radix_sort.cu`.
//!
//! Each sort pass is upsweep (per-block digit counts), an exclusive scan of the counts,
//! and a stable downsweep scatter staged through shared memory.

use crate::gpu::{Arg, DevBuf, Gpu, GpuError};

const FILE: &str = "prims/radix_sort.cu";
/// Threads per block of every kernel here.
const THREADS: u32 = 256;
/// Elements per radix tile (256 threads x 8).
const SORT_TILE: usize = 2048;
/// Elements per scan tile (256 threads x 16).
const SCAN_TILE: usize = 4096;

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
    upsweep: &'static str,
    downsweep: &'static str,
    key_bytes: usize,
    value_bytes: usize,
    /// Index in [`Workspace`]'s `grid`.
    grid: usize,
}

impl Kernels {
    const KEY32: Kernels = Kernels {
        upsweep: "radix_upsweep_u32",
        downsweep: "radix_downsweep_u32",
        key_bytes: 4,
        value_bytes: 4,
        grid: 0,
    };
    const KEY64: Kernels = Kernels {
        upsweep: "radix_upsweep_u64",
        downsweep: "radix_downsweep_u64",
        key_bytes: 8,
        value_bytes: 4,
        grid: 1,
    };
    const WIDE: Kernels = Kernels {
        upsweep: "radix_upsweep_u64",
        downsweep: "radix_downsweep_u64_v64",
        key_bytes: 8,
        value_bytes: 8,
        grid: 2,
    };
}

/// Scratch for sorts and scans of up to `max_len` elements.
pub struct Workspace<'g> {
    gpu: &'g Gpu,
    max_len: usize,
    /// Radix grid (blocks resident at once) for 32- and 64-bit keys with 32-bit values,
    /// and for 64-bit keys with 64-bit values: one wave.
    grid: [usize; 3],
    /// Per-(digit, block) counts of a radix pass, then their offsets.
    counts: DevBuf<'g>,
    /// Per-tile totals of a scan.
    tile_sums: DevBuf<'g>,
}

impl<'g> Workspace<'g> {
    /// Scratch for inputs of up to `max_len` elements.
    pub fn new(gpu: &'g Gpu, max_len: usize) -> Result<Self, GpuError> {
        let resident = |f| -> Result<usize, GpuError> {
            Ok((gpu.sm_count() * gpu.occupancy(FILE, f, THREADS)?) as usize)
        };
        let grid = [
            resident("radix_downsweep_u32")?,
            resident("radix_downsweep_u64")?,
            resident("radix_downsweep_u64_v64")?,
        ];
        let max_grid = grid.into_iter().max().unwrap_or(1);
        let counts = gpu.alloc(256 * max_grid * 4)?;
        let longest_scan = max_len.max(256 * max_grid);
        let tile_sums = gpu.alloc(longest_scan.div_ceil(SCAN_TILE) * 4)?;
        Ok(Workspace {
            gpu,
            max_len,
            grid,
            counts,
            tile_sums,
        })
    }

    /// Scans `len` u32s at `input` into `output` (may be the same address) with `op`,
    /// inclusive or exclusive; returns the reduction of all `len` values.
    pub fn scan(
        &self,
        input: u64,
        output: u64,
        len: usize,
        op: ScanOp,
        inclusive: bool,
    ) -> Result<u32, GpuError> {
        if len == 0 {
            return Ok(0);
        }
        self.scan_queued(input, output, len, op, inclusive)?;
        self.tile_sums.read_u32(len.div_ceil(SCAN_TILE) - 1)
    }

    /// [`Workspace::scan`] without reading the total back (no host wait).
    pub fn scan_queued(
        &self,
        input: u64,
        output: u64,
        len: usize,
        op: ScanOp,
        inclusive: bool,
    ) -> Result<(), GpuError> {
        if len == 0 {
            return Ok(());
        }
        assert!(len < u32::MAX as usize && len.div_ceil(SCAN_TILE) * 4 <= self.tile_sums.bytes());
        let tiles = len.div_ceil(SCAN_TILE) as u32;
        let sums = self.tile_sums.ptr(0);
        let (n, op) = (Arg::U32(len as u32), Arg::U32(op as u32));
        self.gpu.launch(
            FILE,
            "scan_reduce",
            tiles,
            THREADS,
            &[Arg::U64(input), n, op, Arg::U64(sums)],
        )?;
        self.gpu.launch(
            FILE,
            "scan_spine",
            1,
            THREADS,
            &[Arg::U64(sums), Arg::U32(tiles), op],
        )?;
        self.gpu.launch(
            FILE,
            "scan_down",
            tiles,
            THREADS,
            &[
                Arg::U64(input),
                Arg::U64(output),
                n,
                op,
                Arg::U32(inclusive as u32),
                Arg::U64(sums),
            ],
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
            bits,
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
        keys: [u64; 2],
        vals: [u64; 2],
        len: usize,
        width: KeyWidth,
        bits: u32,
    ) -> Result<usize, GpuError> {
        self.sort_with(keys, vals, len, width.kernels(), bits)
    }

    fn sort_with(
        &self,
        keys: [u64; 2],
        vals: [u64; 2],
        len: usize,
        kernels: Kernels,
        bits: u32,
    ) -> Result<usize, GpuError> {
        assert!(len <= self.max_len && len < u32::MAX as usize);
        assert!(bits as usize <= 8 * kernels.key_bytes);
        if len < 2 {
            return Ok(0);
        }
        let tiles = len.div_ceil(SORT_TILE);
        let max_grid = self.grid[kernels.grid];
        let tiles_per_block = tiles.div_ceil(max_grid);
        let grid = tiles.div_ceil(tiles_per_block) as u32;
        let (up, down) = (kernels.upsweep, kernels.downsweep);
        let counts = self.counts.ptr(0);
        let n = Arg::U32(len as u32);
        let tpb = Arg::U32(tiles_per_block as u32);
        let mut at = 0;
        for shift in (0..bits).step_by(8) {
            let shift = Arg::U32(shift);
            self.gpu.launch(
                FILE,
                up,
                grid,
                THREADS,
                &[Arg::U64(keys[at]), n, shift, tpb, Arg::U64(counts)],
            )?;
            self.scan_queued(counts, counts, 256 * grid as usize, ScanOp::Sum, false)?;
            self.gpu.launch(
                FILE,
                down,
                grid,
                THREADS,
                &[
                    Arg::U64(keys[at]),
                    Arg::U64(vals[at]),
                    Arg::U64(keys[1 - at]),
                    Arg::U64(vals[1 - at]),
                    n,
                    shift,
                    tpb,
                    Arg::U64(counts),
                ],
            )?;
            at = 1 - at;
        }
        Ok(at)
    }
}
