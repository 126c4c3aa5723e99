//! SMEMs on the GPU: bwa's FMD index ([`crate::fmd`]) uploaded once, then, for each
//! batch of reads, the SMEM walk of every read (`smem_reads`, one thread a read, the
//! walk of `src/seed/smem.rs` step for step) and the locate of the rows the output
//! lists (`locate_rows`, bwa's `bwt_sa`), in `kernels/seed/smem.cu`. The results equal
//! the CPU's: a read whose walk outgrows its slots on the device ([`SMEM_CAP`],
//! [`SMEM_SLOTS`]) is marked and left to the CPU.

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
/// for): each read's, or `None` for a read left to the CPU (more than [`SMEM_CAP`]
/// intervals in a list of its walk, or more than [`SMEM_SLOTS`] SMEMs to keep).
pub struct BatchSmems {
    counts: Vec<u32>,
    slots: Vec<[u64; 4]>,
}

impl BatchSmems {
    /// Read `i`'s SMEMs in bwa's order, or `None` where the CPU must search it.
    pub fn of(&self, i: usize) -> Option<impl Iterator<Item = DeviceSmem> + '_> {
        let count = self.counts[i];
        if count == SMEM_OVERFLOW {
            return None;
        }
        let slots = &self.slots[i * SMEM_SLOTS..i * SMEM_SLOTS + count as usize];
        Some(slots.iter().map(|s| DeviceSmem {
            begin: s[0] as u32 as usize,
            end: (s[0] >> 32) as usize,
            k: s[1],
            l: s[2],
            size: s[3],
        }))
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
    /// cut-offs `min_intv` (`-i`) and `max_intv` (`-I`).
    pub fn smems(
        &self,
        reads: &[&[u8]],
        (min_intv, max_intv): (i32, u64),
        min_len: u32,
    ) -> Result<BatchSmems, GpuError> {
        let n = reads.len();
        if n == 0 {
            return Ok(BatchSmems {
                counts: Vec::new(),
                slots: Vec::new(),
            });
        }
        let (bases, offsets) = concatenated(reads);
        let gpu = self.gpu;
        let bases = gpu.upload_staged(&bases)?;
        let offsets = gpu.upload(&offsets)?;
        let slots_dev = gpu.alloc(n * SMEM_SLOTS * 32)?;
        let counts_dev = gpu.alloc(n * 4)?;
        launch::smem_reads(
            gpu,
            over(n),
            self.bwt(),
            bases.ptr(0),
            offsets.ptr(0),
            n as u32,
            min_intv.max(1) as u32,
            max_intv,
            min_len,
            slots_dev.ptr(0),
            counts_dev.ptr(0),
        )?;
        let mut counts = vec![0u32; n];
        counts_dev.download(&mut counts)?;
        let mut slots = vec![[0u64; 4]; n * SMEM_SLOTS];
        slots_dev.download(&mut slots)?;
        Ok(BatchSmems { counts, slots })
    }

    /// The text positions of `rows` (bwa's `bwt_sa` of each), in place.
    pub fn locate(&self, rows: &mut [u64]) -> Result<(), GpuError> {
        if rows.is_empty() {
            return Ok(());
        }
        let gpu = self.gpu;
        let dev = gpu.upload_staged(rows)?;
        launch::locate_rows(
            gpu,
            over(rows.len()),
            self.bwt(),
            self.positions.ptr(0),
            self.interval,
            dev.ptr(0),
            rows.len() as u64,
        )?;
        dev.download_staged(rows)
    }
}

/// The reads' bases one after another, and where each starts (with the end last).
fn concatenated(reads: &[&[u8]]) -> (Vec<u8>, Vec<u64>) {
    let total = reads.iter().map(|r| r.len()).sum();
    let mut bases = Vec::with_capacity(total);
    let mut offsets = Vec::with_capacity(reads.len() + 1);
    offsets.push(0);
    for read in reads {
        bases.extend_from_slice(read);
        offsets.push(bases.len() as u64);
    }
    (bases, offsets)
}

// The device walk's lists are sized for reads of ordinary repeats; the slots must at
// least hold the SMEMs of one `bwt_smem1a` call of such a read.
const _: () = assert!(SMEM_SLOTS <= SMEM_CAP);
