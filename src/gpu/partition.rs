//! The FM index built within a GPU memory budget: bucket-partitioned suffix sorting
//! ([`crate::sa::partition`]) with each part sorted on the GPU, and the parts streamed,
//! in suffix-array order, into the FM builder on the CPU while the GPU sorts the next
//! (a build has at least 8 parts, for that overlap).
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
//!    network in one warp, up to 1024 in shared memory by one block (of 64, 256 or 1024
//!    threads, by the run's length), longer ones (an all-`A` stretch, a long period,
//!    a repeat family) on the CPU after the download, beside the FM builder.
//!
//! The sample ranks are computed on the GPU first ([`super::sample`]; on the CPU where
//! the budget cannot hold that step); the result equals [`FmParts::build`] whatever the
//! part size.

use std::cmp::Ordering;

use rayon::prelude::*;

use super::radix::{KeyWidth, ScanOp, Workspace};
use super::sa::Profile;
use super::{prefaulted_vec, Arg, DevBuf, Gpu, GpuError};
use crate::fm::{FmBuilder, FmParts};
use crate::reference::PackedText;
use crate::sa::partition::{BudgetError, Part, Partitioner};
use crate::sa::sample::SampleRanks;

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
/// Parts a build is cut into at least (while parts of MIN_PART remain), so that the
/// CPU's share of one part (long runs, FM builder) overlaps the GPU's of the next.
const PIPELINE_PARTS: usize = 8;
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
    let max_part = max_part.min(text.len().div_ceil(PIPELINE_PARTS).max(MIN_PART as usize));
    let mut prof = Profile::new(gpu, "gpu parts");
    let words = gpu.upload_staged(text.words())?;
    prof.mark("upload");
    let ranks = match super::sample::ranks(gpu, text, &words) {
        Ok(ranks) => SampleRanks::from_ranks(text, ranks),
        Err(GpuError::OutOfMemory { .. }) => SampleRanks::build(text),
        Err(e) => return Err(e),
    };
    prof.mark("sample ranks");
    let partitioner = Partitioner::with_ranks(text, max_part, ranks);
    let plan = partitioner.plan(max_part);
    prof.mark("plan (CPU)");
    let sorter = PartSorter::new(gpu, words, &partitioner)?;
    prof.mark("upload");
    let ranks = partitioner.ranks();
    let (builder, long) = std::thread::scope(|s| {
        let (to_builder, parts) = std::sync::mpsc::sync_channel::<OnDevice>(1);
        let builder = s.spawn(move || {
            let mut builder = FmBuilder::new(text, sample_rate);
            let mut long = 0;
            for mut part in parts {
                long += sort_long_runs(&mut part.suffixes, &part.long_runs, |a, b| {
                    ranks.compare(a as usize, b as usize)
                });
                builder.push(&part.suffixes);
            }
            (builder, long)
        });
        let sorted = plan.iter().try_for_each(|part| {
            let sorted = sorter.sort(part, &mut prof)?;
            to_builder.send(sorted).expect("the FM builder thread runs");
            Ok(())
        });
        drop(to_builder);
        let done = builder.join().expect("FM builder thread");
        prof.mark("long runs (CPU) and FM builder catching up");
        sorted.map(|()| done)
    })?;
    prof.large = long;
    let fm = builder.finish();
    prof.mark("FM builder finish");
    prof.parts = plan.len();
    prof.report(text.len());
    Ok(fm)
}

/// A part as the device leaves it: its suffixes in order but within the runs listed
/// (start, length pairs), which the CPU sorts.
pub(crate) struct OnDevice {
    suffixes: Vec<u32>,
    long_runs: Vec<u32>,
}

/// Sorts the parts of one partitioned build on the GPU.
pub(crate) struct PartSorter<'g, 'p, 't> {
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
    /// A sorter over the text uploaded to `words`; uploads the partitioner's sample
    /// ranks.
    pub(crate) fn new(
        gpu: &'g Gpu,
        words: DevBuf<'g>,
        partitioner: &'p Partitioner<'t, u32>,
    ) -> Result<Self, GpuError> {
        let sample = partitioner.ranks();
        let cover = sample.cover();
        Ok(PartSorter {
            gpu,
            partitioner,
            n: partitioner.text_len(),
            words,
            ranks: gpu.upload_staged(sample.by_sample_index())?,
            delta: gpu.upload(cover.delta_table())?,
            slot: gpu.upload(cover.slot_table())?,
            members: cover.members() as u32,
        })
    }

    /// The arguments every comparing kernel starts with (the `Ranks` of the kernels):
    /// comparisons by the sample ranks.
    fn ranks_args(&self) -> Comparison {
        [
            Arg::U64(self.words.ptr(0)),
            Arg::U64(self.n as u64),
            Arg::U64(self.ranks.ptr(0)),
            Arg::U64(self.delta.ptr(0)),
            Arg::U64(self.slot.ptr(0)),
            Arg::U32(self.members),
            Arg::U32(0),
        ]
    }

    /// The sorted suffixes of `part`, as [`Partitioner::sort`] gives them.
    /// The suffixes of `part` sorted on the device but for the long runs left to the CPU;
    /// the phases are timed into `prof`.
    pub(crate) fn sort(&self, part: &Part, prof: &mut Profile) -> Result<OnDevice, GpuError> {
        let m = part.suffixes;
        if m == 0 {
            return Ok(OnDevice {
                suffixes: Vec::new(),
                long_runs: Vec::new(),
            });
        }
        let gpu = self.gpu;
        let ws = Workspace::new(gpu, m)?;
        let mut keys = [gpu.alloc(8 * m)?, gpu.alloc(8 * m)?];
        let mut positions = [gpu.alloc(4 * m)?, gpu.alloc(4 * m)?];
        self.gather(part, &keys[0], &positions[0])?;
        prof.mark("parts: gather");
        ws.sort_pairs(&mut keys, &mut positions, m, KeyWidth::U64, 64)?;
        prof.mark("parts: key sort");
        let long_runs = sort_runs(gpu, &ws, &self.ranks_args(), &keys, &positions, m)?;
        prof.mark("parts: run sorts");
        let mut suffixes = prefaulted_vec::<u32>(m);
        positions[0].download_staged(&mut suffixes)?;
        prof.mark("parts: download");
        Ok(OnDevice {
            suffixes,
            long_runs,
        })
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
}

/// Sorts the runs (start, length pairs, disjoint) of `sorted` by `compare` on the CPU,
/// in parallel over the runs; returns the suffixes sorted.
pub(crate) fn sort_long_runs(
    sorted: &mut [u32],
    runs: &[u32],
    compare: impl Fn(u32, u32) -> Ordering + Sync,
) -> usize {
    let mut bounds: Vec<(usize, usize)> = runs
        .chunks(2)
        .map(|r| (r[0] as usize, r[1] as usize))
        .collect();
    bounds.sort_unstable();
    let mut slices = Vec::with_capacity(bounds.len());
    let (mut rest, mut offset) = (sorted, 0);
    for &(start, len) in &bounds {
        let (_, tail) = std::mem::take(&mut rest).split_at_mut(start - offset);
        let (run, tail) = tail.split_at_mut(len);
        slices.push(run);
        (rest, offset) = (tail, start + len);
    }
    slices.into_par_iter().for_each(|run| {
        if run.len() >= 1 << 16 {
            run.par_sort_unstable_by(|&a, &b| compare(a, b));
        } else {
            run.sort_unstable_by(|&a, &b| compare(a, b));
        }
    });
    bounds.iter().map(|&(_, len)| len).sum()
}

/// The comparison of suffixes that the run sorts use: the `Ranks` fields of the kernels
/// (text, length, sample ranks, cover tables, cover size, base limit).
pub(crate) type Comparison = [Arg; 7];

/// Sorts the runs of equal keys among the `m` sorted keys and positions (in `keys[0]`,
/// `positions[0]`) by `compare`, on the device, but for those longer than
/// [`MEDIUM_RUN`], returned as (start, length) pairs. The second buffers and, once the
/// runs are known, the keys are the scratch.
pub(crate) fn sort_runs(
    gpu: &Gpu,
    ws: &Workspace,
    compare: &Comparison,
    keys: &[DevBuf; 2],
    positions: &[DevBuf; 2],
    m: usize,
) -> Result<Vec<u32>, GpuError> {
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
    // Tied runs (at most m / 2), then three lists of longer ones (each at most m / 33),
    // then pairs for at most m / 1025, at aligned offsets in the 8 m bytes.
    let stride = m / 32 + 1;
    let (medium, large) = (keys[0].ptr(4 * m), keys[0].ptr(4 * (m + 3 * stride)));
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
    let counts = gpu.alloc(16)?;
    counts.zero(16)?;
    let mut args = compare.to_vec();
    args.extend([
        Arg::U64(tied),
        Arg::U32(ntied as u32),
        Arg::U64(lo),
        Arg::U64(hi),
        Arg::U64(positions[0].ptr(0)),
        Arg::U64(medium),
        Arg::U32(stride as u32),
        Arg::U64(large),
        Arg::U64(counts.ptr(0)),
    ]);
    gpu.launch(FILE, "sort_small_runs", blocks(32 * ntied), THREADS, &args)?;
    let mut found = [0u32; 4];
    counts.download(&mut found)?;
    for (class, threads) in [64, 256, MEDIUM_RUN].into_iter().enumerate() {
        if found[class] > 0 {
            let mut args = compare.to_vec();
            args.extend([
                Arg::U64(medium + (4 * class * stride) as u64),
                Arg::U64(lo),
                Arg::U64(hi),
                Arg::U64(positions[0].ptr(0)),
            ]);
            gpu.launch(FILE, "sort_medium_runs", found[class], threads, &args)?;
        }
    }
    let nlarge = found[3];
    let mut large_runs = vec![0u32; 2 * nlarge as usize];
    if nlarge > 0 {
        let list = gpu.alloc(large_runs.len() * 4)?;
        list.copy_from(large, large_runs.len() * 4)?;
        list.download(&mut large_runs)?;
    }
    Ok(large_runs)
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
