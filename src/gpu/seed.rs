//! SMEMs on the GPU: bwa's FMD index ([`crate::fmd`]) uploaded once, then, for each
//! batch of reads, the SMEM walk of every read (`smem_reads`, one thread a read, the
//! walk of `src/seed/smem.rs` step for step), the compaction of the slots used and of
//! the rows the output lists (`smem_compact`, after device scans of each read's counts)
//! and the locate of those rows (`locate_rows`, bwa's `bwt_sa`), in
//! `kernels/seed/smem.cu`; only the slots used and the positions cross back. The results
//! equal the CPU's: a read whose walk outgrows its slots on the device ([`SMEM_CAP`],
//! [`SMEM_SLOTS`], [`SMEM_LISTED_ROWS`](super::tuning::SMEM_LISTED_ROWS)) is marked and
//! left to the CPU.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::prims::radix::{ScanOp, Workspace};
use super::runtime::launchers::seed::{self as launch, DeviceBwt};
use super::tuning::{over, SMEM_CAP, SMEM_OVERFLOW, SMEM_SLOTS};
use super::{DevBuf, Gpu, GpuError};
use crate::fmd::BwaIndex;

/// One SMEM as the device found it: its bases `begin..end` of the read and its
/// bidirectional interval (`k`, `l`, `size`, as the CPU search gives them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceSmem {
    /// The first base of the match in the read.
    pub begin: usize,
    /// One past its last base.
    pub end: usize,
    /// The first row of the match.
    pub k: u64,
    /// The first row of its reverse complement.
    pub l: u64,
    /// Its rows.
    pub size: u64,
}

/// The SMEMs of a batch of reads from the device (those of at least the length asked
/// for) and the text positions of the rows of those listed (at most the hits asked
/// for): each read's, or `None` for a read left to the CPU (more than [`SMEM_CAP`]
/// intervals in a list of its walk, more than [`SMEM_SLOTS`] SMEMs to keep or more than
/// [`SMEM_LISTED_ROWS`](super::tuning::SMEM_LISTED_ROWS) rows to list).
#[derive(Default)]
pub struct BatchSmems {
    counts: Vec<u32>,
    slot_start: Vec<u32>,
    row_start: Vec<u32>,
    slots: Vec<u64>,
    positions: Vec<u64>,
    /// The time from the SMEM kernel's launch to the first scan's end (its walk, with a
    /// scan of the reads' counts).
    pub kernel_time: Duration,
}

impl BatchSmems {
    /// Read `i`'s SMEMs in bwa's order and the positions of the rows of its listed ones
    /// in output order (then those of later reads), or `None` where the CPU must search
    /// it.
    #[allow(clippy::type_complexity)]
    pub fn of(&self, i: usize) -> Option<(impl Iterator<Item = DeviceSmem> + '_, &[u64])> {
        let count = self.counts[i];
        if count == SMEM_OVERFLOW {
            return None;
        }
        let start = self.slot_start[i] as usize;
        let slots = &self.slots[4 * start..4 * (start + count as usize)];
        let smems = slots.chunks_exact(4).map(|s| DeviceSmem {
            begin: s[0] as u32 as usize,
            end: (s[0] >> 32) as usize,
            k: s[1],
            l: s[2],
            size: s[3],
        });
        Some((smems, &self.positions[self.row_start[i] as usize..]))
    }

    /// How many reads the device left to the CPU.
    pub fn left_to_cpu(&self) -> usize {
        self.counts.iter().filter(|&&c| c == SMEM_OVERFLOW).count()
    }
}

/// bwa's index on the device: the Occ intervals, `L2` and the sampled suffix array.
pub struct DeviceBwaIndex<'g> {
    gpu: &'g Gpu,
    occ: DevBuf<'g>,
    l2: DevBuf<'g>,
    positions: DevBuf<'g>,
    primary: u64,
    interval: u64,
}

impl<'g> DeviceBwaIndex<'g> {
    /// Uploads `index`'s BWT and sampled suffix array to `gpu`.
    pub fn upload(gpu: &'g Gpu, index: &BwaIndex) -> Result<DeviceBwaIndex<'g>, GpuError> {
        Ok(DeviceBwaIndex {
            gpu,
            occ: gpu.upload_staged(index.bwt.interval_words())?,
            l2: gpu.upload(&index.bwt.l2)?,
            positions: gpu.upload_staged(index.sa.positions())?,
            primary: index.bwt.primary,
            interval: index.sa.interval(),
        })
    }

    fn bwt(&self) -> DeviceBwt {
        DeviceBwt {
            occ: self.occ.ptr(0),
            l2: self.l2.ptr(0),
            primary: self.primary,
        }
    }

    /// The SMEMs of at least `min_len` bases of `reads` (bases as written) with bwa's
    /// cut-offs `min_intv` (`-i`) and `max_intv` (`-I`), and the positions of the rows of
    /// those of at most `max_hits` occurrences (`-w`).
    pub fn smems(
        &self,
        reads: &[&[u8]],
        (min_intv, max_intv): (i32, u64),
        min_len: u32,
        max_hits: u64,
    ) -> Result<BatchSmems, GpuError> {
        let n = reads.len();
        if n == 0 {
            return Ok(BatchSmems::default());
        }
        let gpu = self.gpu;
        let (packed, bases_at) = packed(reads);
        let input = gpu.upload_staged(&packed)?;
        drop(packed);
        let slots_dev = gpu.alloc(n * SMEM_SLOTS * 32)?;
        // counts, then the kept slots and listed rows of each read, then their scans
        let tallies = gpu.alloc(n * 4 * 5)?;
        let tally = |k: usize| tallies.ptr(k * n * 4);
        let scans = Workspace::new(gpu, n)?;
        let start = Instant::now();
        launch::smem_reads(
            gpu,
            over(n),
            self.bwt(),
            input.ptr(bases_at),
            input.ptr(0),
            n as u32,
            min_intv.max(1) as u32,
            max_intv,
            min_len,
            max_hits,
            slots_dev.ptr(0),
            tally(0),
            tally(1),
            tally(2),
        )?;
        let total_slots = scans.scan(tally(1), tally(3), n, ScanOp::Sum, false)? as usize;
        let kernel_time = start.elapsed();
        let total_rows = scans.scan(tally(2), tally(4), n, ScanOp::Sum, false)? as usize;
        let compact = gpu.alloc(total_slots.max(1) * 32)?;
        let rows = gpu.alloc(total_rows.max(1) * 8)?;
        launch::smem_compact(
            gpu,
            over(n),
            slots_dev.ptr(0),
            tally(0),
            tally(3),
            tally(4),
            n as u32,
            max_hits,
            compact.ptr(0),
            rows.ptr(0),
        )?;
        drop(slots_dev);
        self.locate_on_device(&rows, total_rows)?;
        let mut counts = vec![0u32; n * 5];
        tallies.download(&mut counts)?;
        let mut found = BatchSmems {
            slot_start: counts[3 * n..4 * n].to_vec(),
            row_start: counts[4 * n..].to_vec(),
            slots: vec![0; total_slots * 4],
            positions: vec![0; total_rows],
            kernel_time,
            counts,
        };
        found.counts.truncate(n);
        compact.download_staged(&mut found.slots)?;
        rows.download_staged(&mut found.positions)?;
        Ok(found)
    }

    /// The text positions of `rows` (bwa's `bwt_sa` of each), in place.
    pub fn locate(&self, rows: &mut [u64]) -> Result<(), GpuError> {
        if rows.is_empty() {
            return Ok(());
        }
        let dev = self.gpu.upload_staged(rows)?;
        self.locate_on_device(&dev, rows.len())?;
        dev.download_staged(rows)
    }

    /// The first `n` rows of `rows` on the device turned into their text positions.
    fn locate_on_device(&self, rows: &DevBuf<'_>, n: usize) -> Result<(), GpuError> {
        if n == 0 {
            return Ok(());
        }
        launch::locate_rows(
            self.gpu,
            over(n),
            self.bwt(),
            self.positions.ptr(0),
            self.interval,
            rows.ptr(0),
            n as u64,
        )
    }
}

/// Reads per task of [`packed`].
const PACK_CHUNK: usize = 4096;

/// The reads as one upload: where each starts in the bases (u64s, with the end last),
/// then the bases one after another (copied in parallel); and where the bases start.
fn packed(reads: &[&[u8]]) -> (Vec<u8>, usize) {
    let bases_at = (reads.len() + 1) * 8;
    let mut offsets = Vec::with_capacity(reads.len() + 1);
    let mut total = 0u64;
    offsets.push(0);
    for read in reads {
        total += read.len() as u64;
        offsets.push(total);
    }
    let mut packed = vec![0u8; bases_at + total as usize];
    let (head, mut rest) = packed.split_at_mut(bases_at);
    for (to, offset) in head.chunks_exact_mut(8).zip(&offsets) {
        to.copy_from_slice(&offset.to_le_bytes());
    }
    let mut parts = Vec::with_capacity(reads.len().div_ceil(PACK_CHUNK));
    for (c, group) in reads.chunks(PACK_CHUNK).enumerate() {
        let len = (offsets[c * PACK_CHUNK + group.len()] - offsets[c * PACK_CHUNK]) as usize;
        let (part, tail) = std::mem::take(&mut rest).split_at_mut(len);
        parts.push((group, part));
        rest = tail;
    }
    parts.into_par_iter().for_each(|(group, part)| {
        let mut at = 0;
        for read in group {
            part[at..at + read.len()].copy_from_slice(read);
            at += read.len();
        }
    });
    (packed, bases_at)
}

// The device walk's lists are sized for reads of ordinary repeats; the slots must at
// least hold the SMEMs of one `bwt_smem1a` call of such a read.
const _: () = assert!(SMEM_SLOTS <= SMEM_CAP);
