//! The FM index built within a GPU memory budget: bucket-partitioned suffix sorting
//! ([`crate::sa::partition`]) with each part sorted on the GPU, and the parts streamed,
//! in suffix-array order, into the FM builder on the CPU while the GPU sorts the next.
//!
//! The device holds the whole 2-bit text and the ranks of the difference-cover sample
//! (0.74 bytes a base, both uploaded once) and one part at a time (24 bytes a suffix).
//! A part is sorted in four steps (kernels in `kernels/partition.cu`):
//! 1. `part_gather`: every position whose bucket (and splitter bounds, for a bucket split
//!    over several parts) puts it in the part is appended with its first 32 bases;
//! 2. the device radix sort on those 64-bit keys;
//! 3. runs of equal keys found (flags, scan, bounds) and the runs of two or more listed;
//! 4. each run sorted by the bounded comparison of [`crate::sa::sample::SampleRanks`]
//!    (at most 256 bases, then two sample ranks): runs of up to 32 suffixes by a bitonic
//!    network in one warp, up to 1024 in shared memory by one block, longer ones (an
//!    all-`A` stretch, a long period) on the CPU after the download.
//!
//! The sample ranks are computed on the CPU ([`Partitioner::new`]); the result equals
//! [`FmParts::build`] whatever the part size.

use rayon::prelude::*;

use super::radix::{KeyWidth, ScanOp, Workspace};
use super::sa::Profile;
use super::{prefaulted_vec, Arg, DevBuf, Gpu, GpuError};
use crate::fm::{FmBuilder, FmParts};
use crate::reference::PackedText;
use crate::sa::partition::{BudgetError, Part, Partitioner};

const FILE: &str = "partition.cu";
const THREADS: u32 = 256;
/// Longest run sorted by one block (`MEDIUM_RUN` in the kernels).
const MEDIUM_RUN: u32 = 1024;
/// Device bytes per suffix of the part being sorted: keys and positions, twice (the
/// radix sort's second buffers, reused for the runs), and the scan's tile sums.
const BYTES_PER_PART_SUFFIX: u64 = 25;
/// Device bytes per base held through the build: the 2-bit text (0.25) and the sample
/// ranks (4 bytes for 31 of every 256 bases: 0.49).
const FIXED_BYTES_PER_BASE: f64 = 0.74;
/// Device bytes besides: the cover's tables, radix counts, the CUDA context's own
/// allocations are outside the budget.
const RESERVE: u64 = 64 << 20;
/// Device bytes per base of the unpartitioned build at its peak (16 on real DNA, 29.1
/// measured on repeat-rich copies), with some room.
const WHOLE_BYTES_PER_BASE: u64 = 30;
/// The smallest part a budget may leave room for.
const MIN_PART: u64 = 1 << 20;

fn blocks(threads: usize) -> u32 {
    threads.div_ceil(THREADS as usize) as u32
}

/// The part size (in suffixes) that keeps a GPU build of a text of `n` bases within
/// `budget` bytes of device memory; `None` when the unpartitioned build fits.
pub fn part_size_within(n: usize, budget: u64) -> Result<Option<usize>, BudgetError> {
    if budget >= RESERVE + WHOLE_BYTES_PER_BASE * n as u64 {
        return Ok(None);
    }
    let fixed = RESERVE + (FIXED_BYTES_PER_BASE * n as f64).ceil() as u64;
    let needed = fixed + BYTES_PER_PART_SUFFIX * MIN_PART;
    if budget < needed {
        return Err(BudgetError {
            budget,
            bases: n,
            needed,
        });
    }
    Ok(Some(((budget - fixed) / BYTES_PER_PART_SUFFIX) as usize))
}

/// Builds the FM index of `text` (at most `u32` positions, more than `max_part` bases)
/// sorting parts of at most `max_part` suffixes on the GPU; equal to
/// [`FmParts::build`].
pub fn fm_index(
    gpu: &Gpu,
    text: &PackedText,
    sample_rate: u32,
    max_part: usize,
) -> Result<FmParts, GpuError> {
    super::sa::check_len(text.len())?;
    let mut prof = Profile::new(gpu, "gpu parts");
    let partitioner = Partitioner::<u32>::new(text, max_part);
    let plan = partitioner.plan(max_part);
    prof.mark("sample ranks and plan (CPU)");
    let sorter = PartSorter::new(gpu, text, &partitioner)?;
    prof.mark("upload");
    let builder = std::thread::scope(|s| {
        let (to_builder, parts) = std::sync::mpsc::sync_channel::<Vec<u32>>(1);
        let builder = s.spawn(move || {
            let mut builder = FmBuilder::new(text, sample_rate);
            for sa in parts {
                builder.push(&sa);
            }
            builder
        });
        let sorted = plan.iter().try_for_each(|part| {
            let sa = sorter.sort(part)?;
            to_builder.send(sa).expect("the FM builder thread runs");
            Ok(())
        });
        prof.mark("parts sorted");
        drop(to_builder);
        let builder = builder.join().expect("FM builder thread");
        prof.mark("FM builder catching up");
        sorted.map(|()| builder)
    })?;
    let fm = builder.finish();
    prof.mark("FM builder finish");
    prof.parts = plan.len();
    prof.report(text.len());
    Ok(fm)
}

/// Sorts the parts of one partitioned build on the GPU.
pub struct PartSorter<'g, 'p, 't> {
    gpu: &'g Gpu,
    partitioner: &'p Partitioner<'t, u32>,
    n: usize,
    words: DevBuf<'g>,
    ranks: DevBuf<'g>,
    delta: DevBuf<'g>,
    slot: DevBuf<'g>,
    members: u32,
}

impl<'g, 'p, 't> PartSorter<'g, 'p, 't> {
    /// Uploads `text` and the partitioner's sample ranks.
    pub fn new(
        gpu: &'g Gpu,
        text: &PackedText,
        partitioner: &'p Partitioner<'t, u32>,
    ) -> Result<Self, GpuError> {
        let sample = partitioner.ranks();
        let cover = sample.cover();
        Ok(PartSorter {
            gpu,
            partitioner,
            n: text.len(),
            words: gpu.upload_staged(text.words())?,
            ranks: gpu.upload_staged(sample.by_sample_index())?,
            delta: gpu.upload(cover.delta_table())?,
            slot: gpu.upload(cover.slot_table())?,
            members: cover.members() as u32,
        })
    }

    /// The arguments every comparing kernel starts with (the `Ranks` of the kernels).
    fn ranks_args(&self) -> [Arg; 6] {
        [
            Arg::U64(self.words.ptr(0)),
            Arg::U64(self.n as u64),
            Arg::U64(self.ranks.ptr(0)),
            Arg::U64(self.delta.ptr(0)),
            Arg::U64(self.slot.ptr(0)),
            Arg::U32(self.members),
        ]
    }

    /// The sorted suffixes of `part`, as [`Partitioner::sort`] gives them.
    pub fn sort(&self, part: &Part) -> Result<Vec<u32>, GpuError> {
        let m = part.suffixes;
        if m == 0 {
            return Ok(Vec::new());
        }
        let gpu = self.gpu;
        let ws = Workspace::new(gpu, m)?;
        let mut keys = [gpu.alloc(8 * m)?, gpu.alloc(8 * m)?];
        let mut positions = [gpu.alloc(4 * m)?, gpu.alloc(4 * m)?];
        self.gather(part, &keys[0], &positions[0])?;
        ws.sort_pairs(&mut keys, &mut positions, m, KeyWidth::U64, 64)?;
        let large = self.sort_runs(&ws, &keys, &positions, m)?;
        let mut out = prefaulted_vec::<u32>(m);
        positions[0].download_staged(&mut out)?;
        let ranks = self.partitioner.ranks();
        for run in large.chunks(2) {
            let (start, len) = (run[0] as usize, run[1] as usize);
            out[start..start + len]
                .par_sort_unstable_by(|&a, &b| ranks.compare(a as usize, b as usize));
        }
        Ok(out)
    }

    /// Appends the part's suffixes and their 32-base keys to `keys` and `positions`.
    fn gather(&self, part: &Part, keys: &DevBuf, positions: &DevBuf) -> Result<(), GpuError> {
        let count = self.gpu.alloc(4)?;
        count.zero(4)?;
        let bound = |b: Option<usize>| {
            [
                Arg::U32(b.is_some() as u32),
                Arg::U32(b.unwrap_or(0) as u32),
            ]
        };
        let mut args = self.ranks_args().to_vec();
        args.extend([
            Arg::U32(self.partitioner.bucket_bases() as u32),
            Arg::U32(part.buckets.start as u32),
            Arg::U32(part.buckets.end as u32),
        ]);
        args.extend(bound(part.from));
        args.extend(bound(part.until));
        args.extend([
            Arg::U64(keys.ptr(0)),
            Arg::U64(positions.ptr(0)),
            Arg::U64(count.ptr(0)),
        ]);
        self.gpu
            .launch(FILE, "part_gather", blocks(self.n), THREADS, &args)?;
        let got = count.read_u32(0)? as usize;
        assert_eq!(got, part.suffixes, "suffixes gathered for {part:?}");
        Ok(())
    }

    /// Sorts the runs of equal keys in `positions[0]` on the device, but for those longer
    /// than [`MEDIUM_RUN`], returned as (start, length) pairs. The second buffers and,
    /// once the runs are known, the keys are the scratch.
    fn sort_runs(
        &self,
        ws: &Workspace,
        keys: &[DevBuf; 2],
        positions: &[DevBuf; 2],
        m: usize,
    ) -> Result<Vec<u32>, GpuError> {
        let gpu = self.gpu;
        let m32 = Arg::U32(m as u32);
        // Runs: start flags scanned (inclusive) into run numbers, then each run's bounds.
        let index = positions[1].ptr(0);
        let (lo, hi) = (keys[1].ptr(0), keys[1].ptr(4 * m));
        gpu.launch(
            FILE,
            "run_flags",
            blocks(m),
            THREADS,
            &[Arg::U64(keys[0].ptr(0)), m32, Arg::U64(index)],
        )?;
        let runs = ws.scan(index, index, m, ScanOp::Sum, true)? as usize;
        gpu.launch(
            FILE,
            "run_bounds",
            blocks(m),
            THREADS,
            &[
                Arg::U64(keys[0].ptr(0)),
                Arg::U64(index),
                m32,
                Arg::U64(lo),
                Arg::U64(hi),
            ],
        )?;
        // The runs of two or more into `tied` (the keys are not needed any more).
        let runs32 = Arg::U32(runs as u32);
        let tied = keys[0].ptr(0);
        // Tied runs (at most m / 2), then the longer ones (at most m / 33, and pairs for
        // at most m / 1025), at aligned offsets in the 8 m bytes.
        let (medium, large) = (keys[0].ptr(4 * m), keys[0].ptr(4 * (m + m / 32 + 1)));
        let flags = positions[1].ptr(0);
        gpu.launch(
            FILE,
            "tied_flags",
            blocks(runs),
            THREADS,
            &[Arg::U64(lo), Arg::U64(hi), runs32, Arg::U64(flags)],
        )?;
        let ntied = ws.scan(flags, flags, runs, ScanOp::Sum, false)? as usize;
        if ntied == 0 {
            return Ok(Vec::new());
        }
        gpu.launch(
            FILE,
            "tied_compact",
            blocks(runs),
            THREADS,
            &[
                Arg::U64(lo),
                Arg::U64(hi),
                Arg::U64(flags),
                runs32,
                Arg::U64(tied),
            ],
        )?;
        let counts = gpu.alloc(8)?;
        counts.zero(8)?;
        let mut args = self.ranks_args().to_vec();
        args.extend([
            Arg::U64(tied),
            Arg::U32(ntied as u32),
            Arg::U64(lo),
            Arg::U64(hi),
            Arg::U64(positions[0].ptr(0)),
            Arg::U64(medium),
            Arg::U64(large),
            Arg::U64(counts.ptr(0)),
        ]);
        gpu.launch(FILE, "sort_small_runs", blocks(32 * ntied), THREADS, &args)?;
        let (nmedium, nlarge) = (counts.read_u32(0)?, counts.read_u32(1)?);
        if nmedium > 0 {
            let mut args = self.ranks_args().to_vec();
            args.extend([
                Arg::U64(medium),
                Arg::U64(lo),
                Arg::U64(hi),
                Arg::U64(positions[0].ptr(0)),
            ]);
            gpu.launch(FILE, "sort_medium_runs", nmedium, MEDIUM_RUN, &args)?;
        }
        let mut large_runs = vec![0u32; 2 * nlarge as usize];
        if nlarge > 0 {
            let list = gpu.alloc(large_runs.len() * 4)?;
            list.copy_from(large, large_runs.len() * 4)?;
            list.download(&mut large_runs)?;
        }
        Ok(large_runs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_choose_the_whole_build_or_parts_or_refuse() {
        let n = 10_000_000;
        let whole = RESERVE + WHOLE_BYTES_PER_BASE * n as u64;
        assert_eq!(part_size_within(n, whole).unwrap(), None);
        let fixed = RESERVE + 7_400_000;
        let part = part_size_within(n, whole - 1).unwrap().unwrap();
        assert_eq!(part as u64, (whole - 1 - fixed) / BYTES_PER_PART_SUFFIX);
        let needed = fixed + BYTES_PER_PART_SUFFIX * MIN_PART;
        assert_eq!(
            part_size_within(n, needed).unwrap(),
            Some(MIN_PART as usize)
        );
        let err = part_size_within(n, needed - 1).unwrap_err();
        assert_eq!(err.needed, needed);
        assert!(
            err.to_string()
                .contains(&format!("at least {needed} bytes")),
            "{err}"
        );
    }
}
