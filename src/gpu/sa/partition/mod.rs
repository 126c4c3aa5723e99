//! The FM index built within a GPU memory budget: bucket-partitioned suffix sorting
//! ([`crate::sa::partition`]) with each part sorted on the GPU, and the parts streamed,
//! in suffix-array order, into the FM builder on the CPU while the GPU sorts the next
//! (a build has at least 8 parts, for that overlap).
//!
//! The device holds the whole 2-bit text and the ranks of the difference-cover sample
//! (0.74 bytes a base, both uploaded once) and one part at a time (25 bytes a suffix).
//! Positions and sample ranks are of the index's type ([`Position`]): `u32`, or `u64` for
//! texts past 2^32 bases (1.22 and 33 bytes), whose kernels are compiled from the same
//! source (`kernels/partition64.cu`).
//! A part is sorted in four steps (kernels in `kernels/partition.cuh`):
//! 1. `part_gather`: every position whose bucket (and splitter bounds, for a bucket split
//!    over several parts) puts it in the part is appended with its first 32 bases;
//! 2. the device radix sort on those 64-bit keys;
//! 3. runs of equal keys found (flags, scan, bounds) and the runs of two or more listed;
//! 4. each run sorted by the bounded comparison of [`crate::sa::sample::SampleRanks`]
//!    (at most 256 bases, then two sample ranks) ([`runs`]): runs of up to
//!    [`MEDIUM_RUN`](runs::MEDIUM_RUN) on the device at once, longer ones (a repeat family) by the next 32
//!    bases at a time on the device, those still tied after [`MAX_KEY_BASES`](runs::MAX_KEY_BASES) bases (an
//!    all-`A` stretch, a long period) on the CPU after the download, beside the FM
//!    builder.
//!
//! The sample ranks are computed on the GPU first ([`sample`]; on the CPU where
//! the budget cannot hold that step); the result equals [`FmParts::build`] whatever the
//! part size.

use std::cmp::Ordering;
use std::ops::Range;
use std::sync::Mutex;

use rayon::prelude::*;

use super::{Algorithm, Profile};
use crate::fm::{FmBuilder, FmParts, Rows};
use crate::gpu::prims::radix::{ScanOp, Workspace};
use crate::gpu::runtime::launchers;
use crate::gpu::tuning::{
    blocks, GATHER_PER_THREAD, MAX_SHARED_BUCKET_BASES as MAX_DEVICE_BUCKET_BASES, THREADS,
};
use crate::gpu::{prefaulted_vec, DevBuf, DevPtr, Gpu, GpuError};
use crate::reference::PackedText;
use crate::sa::partition::{BudgetError, Part, Partitioner};
use crate::sa::sample::SampleRanks;
use crate::sa::schedule::{sort_parts, OnFailure, PartSort};
use keys::sort_by_keys;
use runs::{run_offsets, sort_long_runs, sort_long_runs_on_device, sort_runs, Comparison};

mod keys;
mod runs;
pub mod sample;

use keys::width;
pub use keys::Position;

/// Device bytes per suffix of the part being sorted with positions of type `I`: keys and
/// positions, twice (the radix sort's second buffers, reused for the runs), and the
/// scan's tile sums.
fn bytes_per_part_suffix<I: Position>() -> u64 {
    2 * (8 + I::BYTES as u64) + 1
}

/// Device bytes per base held through the build: the 2-bit text (0.25) and the sample
/// ranks (`I` for 31 of every 256 bases: 0.49 or 0.97), rounded up.
fn fixed_bytes_per_base<I: Position>() -> f64 {
    match I::BYTES {
        4 => 0.74,
        _ => 1.22,
    }
}
/// Device bytes besides: the cover's tables, radix counts, the CUDA context's own
/// allocations are outside the budget.
const RESERVE: u64 = 64 << 20;
/// Parts a build is cut into at least (while parts of MIN_PART remain), so that the
/// CPU's share of one part (long runs, FM builder) overlaps the GPU's of the next.
const PIPELINE_PARTS: usize = 8;
/// The smallest part a budget may leave room for.
const MIN_PART: u64 = 1 << 20;
/// The largest part: the device sorts and scans count elements in `u32`.
const MAX_PART: u64 = 1 << 31;

/// Device bytes of the k-mer counts of the jump table (at most half a byte a base at
/// 32 bits), held by each device through the parts.
fn kmer_count_bytes<I: Position>(n: usize) -> u64 {
    (I::BYTES as u64) << (2 * crate::fm::jump::choose_k(n))
}

/// The part size (in suffixes) that keeps a GPU build of a text of `n` bases, with
/// positions of type `I`, within `budget` bytes of device memory; `None` when the
/// unpartitioned build with `algorithm` fits (a 32-bit one: those builders are 32-bit).
/// (Parts are sorted by their keys and the sample ranks whatever the algorithm: a
/// per-part algorithm would be chosen in [`PartSorter::sort`].)
pub fn part_size_within<I: Position>(
    n: usize,
    budget: u64,
    algorithm: Algorithm,
) -> Result<Option<usize>, BudgetError> {
    if I::BYTES == 4 && whole_algorithm(n, budget, algorithm).is_some() {
        return Ok(None);
    }
    let fixed =
        RESERVE + (fixed_bytes_per_base::<I>() * n as f64).ceil() as u64 + kmer_count_bytes::<I>(n);
    let per_suffix = bytes_per_part_suffix::<I>();
    let needed = fixed + per_suffix * MIN_PART;
    if budget < needed {
        return Err(BudgetError {
            budget,
            bases: n,
            needed,
        });
    }
    let part = ((budget - fixed) / per_suffix).min(MAX_PART);
    Ok(Some(part as usize))
}

/// The algorithm of an unpartitioned build of `n` bases within `budget` bytes of
/// device memory ([`Algorithm::whole_within`]); `None` where it must be built in parts.
pub fn whole_algorithm(n: usize, budget: u64, algorithm: Algorithm) -> Option<Algorithm> {
    algorithm.whole_within(n, budget.saturating_sub(RESERVE))
}

/// Builds the FM index of `text` (positions of type `I`, more than `max_part` bases)
/// sorting parts of at most `max_part` suffixes on the `gpus` at once (each holds the
/// text and the sample ranks, and takes the next part when free; the sample ranks are
/// computed on the first); equal to [`FmParts::build`]. A device that fails hands its
/// parts to the others under [`OnFailure::HandOver`] (`say` tells), or fails the build
/// under [`OnFailure::Stop`]; with several devices the error names the one that failed.
pub fn fm_index<I: Position>(
    gpus: &[Gpu],
    text: &PackedText,
    sample_rate: u32,
    max_part: usize,
    failures: (OnFailure, &(dyn Fn(&str) + Sync)),
) -> Result<FmParts, GpuError> {
    fm_index_keeping_rows::<I>(gpus, text, (sample_rate, 0), max_part, failures)
}

/// [`fm_index`], keeping the positions of every `row_interval`-th row as well
/// ([`FmParts::row_samples`]; 0 keeps none): each part's share gathered on the device
/// from its sorted positions (its first row known from the plan), those in its long
/// runs put right on the CPU once the runs are sorted.
pub fn fm_index_keeping_rows<I: Position>(
    gpus: &[Gpu],
    text: &PackedText,
    (sample_rate, row_interval): (u32, u64),
    max_part: usize,
    (on_failure, say): (OnFailure, &(dyn Fn(&str) + Sync)),
) -> Result<FmParts, GpuError> {
    if text.len() as u64 > I::MAX_TEXT {
        return Err(GpuError::TooLarge(text.len()));
    }
    let named = |ordinal: usize, error: GpuError| match gpus.len() {
        1 => error,
        _ => GpuError::OnDevice {
            ordinal,
            error: Box::new(error),
        },
    };
    let first = &gpus[0];
    // Not more parts for more devices: each part scans the whole text.
    let parts_at_least = PIPELINE_PARTS.max(2 * gpus.len());
    let max_part = max_part.min(text.len().div_ceil(parts_at_least).max(MIN_PART as usize));
    let mut prof = Profile::new(first, "gpu parts");
    let words = first
        .upload_staged(text.words())
        .map_err(|e| named(first.ordinal(), e))?;
    prof.mark("upload");
    let ranks = match sample::ranks::<I>(first, text, &words) {
        Ok(ranks) => SampleRanks::from_ranks(text, ranks),
        Err(GpuError::OutOfMemory { .. } | GpuError::TooLarge(_)) => SampleRanks::build(text),
        Err(e) => return Err(named(first.ordinal(), e)),
    };
    prof.mark("sample ranks");
    let partitioner = Partitioner::with_ranks(text, max_part, ranks);
    let w = partitioner.bucket_bases();
    let plan = match bucket_counts::<I>(first, &words, text.len(), w) {
        Ok(Some(counts)) => partitioner.plan_from_counts(max_part, &counts),
        Ok(None) => partitioner.plan(max_part),
        Err(e) => return Err(named(first.ordinal(), e)),
    };
    prof.mark("plan (bucket counts on the GPU)");
    let mut builder = FmBuilder::new(text, sample_rate);
    builder.keep_rows_every(row_interval);
    let first_rows: Vec<u64> = plan
        .iter()
        .scan(1u64, |row, part| {
            let first = *row;
            *row += part.suffixes as u64;
            Some(first)
        })
        .collect();
    let shared = Shared {
        partitioner: &partitioner,
        sample_rate,
        k: builder.k(),
        buffers: RowBuffers::new(max_part),
        rows: RowSampling {
            interval: row_interval,
            plan: &plan,
            first_rows,
        },
    };
    let first_words = Mutex::new(Some(words));
    let open = |id: usize| {
        let gpu = &gpus[id];
        let uploaded = if id == 0 {
            first_words.lock().unwrap().take()
        } else {
            None
        };
        let words = match uploaded {
            Some(words) => words,
            None => gpu.upload_staged(text.words())?,
        };
        let finish_here = (gpus.len() > 1).then_some(text);
        DeviceSorter::new((id, gpu), words, &shared, finish_here)
    };
    let ranks = partitioner.ranks();
    // At most one part ahead per device and one more: bounded host memory.
    let policy = (on_failure, gpus.len() + 1);
    let mut host = Profile::on_host(first, "gpu parts: the FM builder's thread");
    let schedule = sort_parts(&plan, gpus.len(), open, policy, |part: OnDevice<I>| {
        host.mark("waiting for the GPUs");
        let compare = |a: I, b: I| ranks.compare(a.to_usize(), b.to_usize());
        host.large += part.long.len();
        let part = part.finish(text, (sample_rate, row_interval), compare);
        host.mark("long runs (CPU)");
        builder.push_rows(&part.rows);
        builder.add_row_samples(&part.row_samples);
        builder.add_kmer_counts(part.kmers.start, &part.kmer_counts);
        shared.buffers.give_back(part.rows);
        host.mark("FM builder");
    })
    .map_err(|f| named(gpus[f.sorter].ordinal(), f.error))?;
    for failure in &schedule.failures {
        let gpu = &gpus[failure.sorter];
        say(&format!(
            "GPU {} failed ({}); the other GPUs sorted its parts",
            gpu.ordinal(),
            failure.error
        ));
    }
    prof.mark("parts sorted (GPUs) and pushed to the FM builder (CPU)");
    let fm = builder.finish();
    prof.mark("FM builder finish");
    prof.parts = plan.len();
    prof.report(text.len());
    host.report(text.len());
    for sorter in schedule.sorters.iter().flatten() {
        sorter.prof.report(text.len());
    }
    Ok(fm)
}

/// The number of suffixes of each bucket of `w` bases of the text of `n` bases in
/// `words`, counted on `gpu` (the plan's counting pass); `None` for buckets too long
/// for the device's histograms.
fn bucket_counts<I: Position>(
    gpu: &Gpu,
    words: &DevBuf,
    n: usize,
    w: usize,
) -> Result<Option<Vec<usize>>, GpuError> {
    if w > MAX_DEVICE_BUCKET_BASES {
        return Ok(None);
    }
    let buckets = 1 << (2 * w);
    let counts = gpu.alloc(8 * buckets)?;
    counts.zero(8 * buckets)?;
    let grid = (8 * gpu.sm_count()).min(blocks(n).max(1));
    let (words, counts_at) = (words.ptr(0), counts.ptr(0));
    let (n, w) = (n as u64, w as u32);
    launchers::partition::bucket_counts(
        gpu,
        width::<I>(),
        (grid, THREADS),
        words,
        n,
        w,
        counts_at,
    )?;
    let mut host = vec![0u64; buckets];
    counts.download(&mut host)?;
    Ok(Some(host.into_iter().map(|c| c as usize).collect()))
}

/// The sorter of one device in a partitioned build, with its own timings.
struct DeviceSorter<'g, 'p, 't, I> {
    sorter: PartSorter<'g, 'p, 't, I>,
    prof: Profile<'g>,
    /// The part (counted from 1) on which a test makes this device fail.
    fail_at: Option<usize>,
    sorted: usize,
    /// The text, when this device's thread sorts the long runs of its parts itself:
    /// with several devices, so that this CPU work runs in parallel (with one, the FM
    /// builder's thread does while the device sorts the next part).
    finish_here: Option<&'t PackedText>,
}

impl<'g, 'p, 't, I: Position> DeviceSorter<'g, 'p, 't, I> {
    fn new(
        (id, gpu): (usize, &'g Gpu),
        words: DevBuf<'g>,
        shared: &'p Shared<'p, 't, I>,
        finish_here: Option<&'t PackedText>,
    ) -> Result<Self, GpuError> {
        Ok(DeviceSorter {
            sorter: PartSorter::new(gpu, words, shared)?,
            prof: Profile::new(gpu, format!("gpu parts on GPU {}", gpu.ordinal())),
            fail_at: injected_failure(id),
            sorted: 0,
            finish_here,
        })
    }
}

/// `GALIGN_TEST_GPU_FAIL=I:K` (for tests only) makes the I-th device of a build (from
/// 0) fail on the K-th part it sorts, to exercise the hand-over of its parts.
fn injected_failure(id: usize) -> Option<usize> {
    let spec = std::env::var("GALIGN_TEST_GPU_FAIL").ok()?;
    let (device, part) = spec.split_once(':')?;
    (device.parse() == Ok(id)).then(|| part.parse().ok())?
}

impl<I: Position> PartSort for DeviceSorter<'_, '_, '_, I> {
    type Sorted = OnDevice<I>;
    type Error = GpuError;

    fn sort(&mut self, part: &Part) -> Result<OnDevice<I>, GpuError> {
        self.prof.mark("waiting for a part");
        self.sorted += 1;
        if self.fail_at == Some(self.sorted) {
            return Err(GpuError::Driver {
                what: "a part sort",
                err: "failure injected by GALIGN_TEST_GPU_FAIL".into(),
            });
        }
        self.prof.parts += 1;
        let sorted = self.sorter.sort(part, &mut self.prof)?;
        let Some(text) = self.finish_here else {
            return Ok(sorted);
        };
        self.prof.large += sorted.long.len();
        let ranks = self.sorter.shared.partitioner.ranks();
        let compare = |a: I, b: I| ranks.compare(a.to_usize(), b.to_usize());
        let shared = self.sorter.shared;
        let part = sorted.finish(text, (shared.sample_rate, shared.rows.interval), compare);
        self.prof.mark("parts: long runs (CPU)");
        Ok(OnDevice::finished(part))
    }
}

/// A part's FM rows and the counts of the k-mers its rows start with.
struct PartRows<I> {
    rows: Rows<I>,
    /// The row of the part's first in the index.
    first_row: u64,
    /// The positions of its rows that are multiples of the row interval
    /// ([`FmParts::row_samples`]), where one is asked for.
    row_samples: Vec<I>,
    /// The k-mer codes counted in `kmer_counts` (those the part can hold).
    kmers: Range<usize>,
    kmer_counts: Vec<I>,
}

impl<I: Position> PartRows<I> {
    /// A part without rows.
    fn empty() -> PartRows<I> {
        PartRows {
            rows: Rows::default(),
            first_row: 0,
            row_samples: Vec::new(),
            kmers: 0..0,
            kmer_counts: Vec::new(),
        }
    }
}

/// A part's FM rows as the device leaves them: right but within its runs of more than
/// [`MEDIUM_RUN`](runs::MEDIUM_RUN) equal keys, left unsorted for the CPU, whose
/// positions come along (the k-mer counts are right already: a long run's suffixes
/// share their first 32 bases).
struct OnDevice<I> {
    part: PartRows<I>,
    /// The positions of the long runs, one run after the other.
    long: Vec<I>,
    /// Per long run: its first row in the part, its length, and the sampled rows of the
    /// part before it.
    long_runs: Vec<[u32; 3]>,
}

impl<I: Position> OnDevice<I> {
    /// A part whose rows are final.
    fn finished(part: PartRows<I>) -> OnDevice<I> {
        OnDevice {
            part,
            long: Vec::new(),
            long_runs: Vec::new(),
        }
    }

    /// The part once its long runs are sorted by `compare` (the suffix order) and their
    /// rows redone ([`Rows::of`]), and their rows among those of every `row_interval`-th
    /// (where 0 < `row_interval`) given their positions.
    fn finish(
        mut self,
        text: &PackedText,
        (sample_rate, row_interval): (u32, u64),
        compare: impl Fn(I, I) -> Ordering + Sync,
    ) -> PartRows<I> {
        let mut offsets = Vec::with_capacity(2 * self.long_runs.len());
        let mut at = 0;
        for &[_, len, _] in &self.long_runs {
            offsets.extend([at, len]);
            at += len;
        }
        sort_long_runs(&mut self.long, &offsets, compare);
        let redone: Vec<Rows<I>> = offsets
            .par_chunks(2)
            .map(|r| {
                let run = &self.long[r[0] as usize..(r[0] + r[1]) as usize];
                Rows::of(text, sample_rate, run)
            })
            .collect();
        let rows = &mut self.part.rows;
        for (&[start, len, before], run) in self.long_runs.iter().zip(redone) {
            let (start, before) = (start as usize, before as usize);
            rows.flags[start..start + len as usize].copy_from_slice(&run.flags);
            rows.sampled[before..before + run.sampled.len()].copy_from_slice(&run.sampled);
            if let Some(p) = run.primary {
                rows.primary = Some(start + p);
            }
        }
        if row_interval > 0 {
            let first_row = self.part.first_row;
            // The part's first kept row, counted in the part.
            let phase = (row_interval - first_row % row_interval) % row_interval;
            for (&[start, len, _], pair) in self.long_runs.iter().zip(offsets.chunks(2)) {
                let (start, len, at) = (u64::from(start), u64::from(len), pair[0] as usize);
                let first_kept =
                    phase + start.saturating_sub(phase).div_ceil(row_interval) * row_interval;
                for row in (first_kept..start + len).step_by(row_interval as usize) {
                    self.part.row_samples[((row - phase) / row_interval) as usize] =
                        self.long[at + (row - start) as usize];
                }
            }
        }
        self.part
    }
}

/// What the sorters of every device of one build share.
struct Shared<'p, 't, I> {
    partitioner: &'p Partitioner<'t, I>,
    /// The FM index's sampling rate.
    sample_rate: u32,
    /// k of the jump table.
    k: u32,
    buffers: RowBuffers<I>,
    rows: RowSampling<'p>,
}

/// Which rows' positions a partitioned build keeps besides ([`FmParts::row_samples`]),
/// and where each part of its plan starts.
struct RowSampling<'p> {
    /// The row interval (0: none kept).
    interval: u64,
    plan: &'p [Part],
    /// The index row of each part's first.
    first_rows: Vec<u64>,
}

impl RowSampling<'_> {
    /// The index row of the first of `part`, a part of the plan.
    fn first_row(&self, part: &Part) -> u64 {
        let i = self
            .plan
            .iter()
            .position(|p| std::ptr::eq(p, part))
            .or_else(|| self.plan.iter().position(|p| p == part))
            .expect("a part of the plan");
        self.first_rows[i]
    }

    /// Of a part of `m` rows from index row `first_row`: the first of its rows kept
    /// (counted in the part) and how many are kept.
    fn kept(&self, first_row: u64, m: usize) -> (u64, usize) {
        let interval = self.interval;
        let phase = (interval - first_row % interval) % interval;
        let count = (m as u64).saturating_sub(phase).div_ceil(interval);
        (phase, count as usize)
    }
}

/// Host buffers of the rows of parts that the FM builder has read, used again for the
/// next parts: a fresh buffer a part (1 byte a row) cost page faults to make and an
/// unmapping to drop, on the FM builder's thread, which bounds the build.
struct RowBuffers<I> {
    /// Rows a part has at most.
    max_part: usize,
    free: Mutex<Vec<Rows<I>>>,
}

impl<I: Position> RowBuffers<I> {
    /// An empty pool for parts of at most `max_part` rows.
    fn new(max_part: usize) -> Self {
        RowBuffers {
            max_part,
            free: Mutex::new(Vec::new()),
        }
    }

    /// Rows of `len` flags and `sampled` sampled positions (their values to be
    /// overwritten).
    fn take(&self, len: usize, sampled: usize) -> Rows<I> {
        let reused = self.free.lock().unwrap().pop();
        let mut rows = reused.unwrap_or_else(|| Rows {
            flags: prefaulted_vec(self.max_part),
            ..Rows::default()
        });
        rows.flags.resize(len, 0);
        rows.sampled.resize(sampled, I::default());
        rows.primary = None;
        rows
    }

    /// Hands `rows` back for another part (those of an empty part are dropped).
    fn give_back(&self, rows: Rows<I>) {
        if rows.flags.capacity() >= self.max_part {
            self.free.lock().unwrap().push(rows);
        }
    }
}

/// Sorts the parts of one partitioned build on the GPU.
struct PartSorter<'g, 'p, 't, I> {
    gpu: &'g Gpu,
    shared: &'p Shared<'p, 't, I>,
    n: usize,
    words: DevBuf<'g>,
    ranks: DevBuf<'g>,
    delta: DevBuf<'g>,
    slot: DevBuf<'g>,
    members: u32,
    /// Counts of the k-mers at the start of a part's rows (4^k of them, zero between
    /// parts).
    kmer_counts: DevBuf<'g>,
}

impl<'g, 'p, 't, I: Position> PartSorter<'g, 'p, 't, I> {
    /// A sorter over the text uploaded to `words` for the build `shared` describes;
    /// uploads the partitioner's sample ranks.
    fn new(
        gpu: &'g Gpu,
        words: DevBuf<'g>,
        shared: &'p Shared<'p, 't, I>,
    ) -> Result<Self, GpuError> {
        let partitioner = shared.partitioner;
        let sample = partitioner.ranks();
        let cover = sample.cover();
        let kmer_bytes = I::BYTES << (2 * shared.k);
        let kmer_counts = gpu.alloc(kmer_bytes)?;
        kmer_counts.zero(kmer_bytes)?;
        Ok(PartSorter {
            gpu,
            shared,
            n: partitioner.text_len(),
            words,
            ranks: gpu.upload_staged(sample.by_sample_index())?,
            delta: gpu.upload(cover.delta_table())?,
            slot: gpu.upload(cover.slot_table())?,
            members: cover.members() as u32,
            kmer_counts,
        })
    }

    /// The arguments every comparing kernel starts with (the `Ranks` of the kernels):
    /// comparisons by the sample ranks.
    fn ranks_args(&self) -> Comparison {
        Comparison {
            words: self.words.ptr(0),
            n: self.n as u64,
            ranks: self.ranks.ptr(0),
            delta: self.delta.ptr(0),
            slot: self.slot.ptr(0),
            members: self.members,
            limit: 0,
        }
    }

    /// The FM rows of `part`, sorted on the device but for the long runs left to the
    /// CPU; the phases are timed into `prof`.
    fn sort(&self, part: &Part, prof: &mut Profile) -> Result<OnDevice<I>, GpuError> {
        let m = part.suffixes;
        if m == 0 {
            return Ok(OnDevice::finished(PartRows::empty()));
        }
        let gpu = self.gpu;
        let ws = Workspace::new(gpu, m)?;
        // Keys: 8 bytes a suffix and the room for the scan's `before` after `flags`.
        let key_bytes = 8 * m + 64;
        let mut keys = [gpu.alloc(key_bytes)?, gpu.alloc(key_bytes)?];
        let mut positions = [gpu.alloc(I::BYTES * m)?, gpu.alloc(I::BYTES * m)?];
        self.gather(part, &keys[0], &positions[0])?;
        prof.mark("parts: gather");
        sort_by_keys::<I>(&ws, &mut keys, &mut positions, m)?;
        prof.mark("parts: key sort");
        let compare = self.ranks_args();
        let sorted = (
            [keys[0].ptr(0), keys[1].ptr(0)],
            [positions[0].ptr(0), positions[1].ptr(0)],
        );
        let long_runs = sort_runs::<I>(gpu, &ws, &compare, sorted, None, m)?;
        prof.mark("parts: run sorts");
        let scratch = [keys[0].ptr(0), keys[1].ptr(0), positions[1].ptr(0)];
        let text = (self.words.ptr(0), self.n);
        let long_runs = sort_long_runs_on_device::<I>(
            gpu,
            &ws,
            (&compare, text),
            positions[0].ptr(0),
            scratch,
            (m, long_runs),
        )?;
        prof.mark("parts: long runs (GPU)");
        let kmers = part.kmer_codes(
            self.shared.partitioner.bucket_bases(),
            self.shared.k as usize,
        );
        let first_row = match self.shared.rows.interval {
            0 => 0,
            _ => self.shared.rows.first_row(part),
        };
        let rows = self.rows(&ws, [&keys[0], &keys[1]], &positions, (m, kmers), long_runs);
        let mut rows = rows?;
        rows.part.first_row = first_row;
        rows.part.row_samples = self.row_samples(&keys[1], &positions[0], (first_row, m))?;
        prof.mark("parts: rows and download");
        Ok(rows)
    }

    /// The FM rows of the `m` sorted positions in `positions[0]` of a part (but for
    /// `long_runs`, start and length pairs), with the positions of the long runs, and
    /// the counts of the `kmers` its suffixes can start with. The sort's other buffers
    /// are no longer needed: the sampled positions go to `out`, the row flags and the
    /// scan of sampled rows to `scratch`, the long runs' positions to `positions[1]`.
    fn rows(
        &self,
        ws: &Workspace,
        [out, scratch]: [&DevBuf; 2],
        positions: &[DevBuf; 2],
        (m, kmers): (usize, Range<usize>),
        long_runs: Vec<u32>,
    ) -> Result<OnDevice<I>, GpuError> {
        let gpu = self.gpu;
        let (flags, before) = (scratch.ptr(0), scratch.ptr(m.next_multiple_of(8)));
        let (m32, all) = (m as u32, blocks(m));
        let primary = gpu.alloc(4)?;
        primary.write(&[u32::MAX])?;
        let sorted = positions[0].ptr(0);
        let k = self.shared.k;
        let full = (self.n + 1).saturating_sub(k as usize);
        launchers::partition::part_rows(
            gpu,
            width::<I>(),
            (all, THREADS),
            self.words.ptr(0),
            sorted,
            m32,
            self.shared.sample_rate,
            k,
            full as u64,
            flags,
            before,
            primary.ptr(0),
            self.kmer_counts.ptr(0),
        )?;
        let sampled = ws.scan(before, before, m, ScanOp::Sum, false)? as usize;
        launchers::partition::part_sampled(
            gpu,
            width::<I>(),
            (all, THREADS),
            sorted,
            flags,
            before,
            m32,
            out.ptr(0),
        )?;
        let (long, long_runs) = self.gather_long_runs(positions, before, long_runs)?;
        let mut rows = self.shared.buffers.take(m, sampled);
        scratch.download_staged(&mut rows.flags)?;
        out.download_staged(&mut rows.sampled)?;
        let at = primary.read_u32(0)?;
        rows.primary = (at != u32::MAX).then_some(at as usize);
        let kmer_counts = self.take_kmer_counts(kmers.clone())?;
        Ok(OnDevice {
            part: PartRows {
                rows,
                first_row: 0,
                row_samples: Vec::new(),
                kmers,
                kmer_counts,
            },
            long,
            long_runs,
        })
    }

    /// The positions of the part's rows (`m` from index row `first_row`, sorted in
    /// `sorted` but for its long runs) that are multiples of the row interval, gathered
    /// on the device past the flags and the scan in `scratch` (or in a buffer of their
    /// own where a tiny part leaves no room there).
    fn row_samples(
        &self,
        scratch: &DevBuf,
        sorted: &DevBuf,
        (first_row, m): (u64, usize),
    ) -> Result<Vec<I>, GpuError> {
        let rows = &self.shared.rows;
        if rows.interval == 0 {
            return Ok(Vec::new());
        }
        let (phase, count) = rows.kept(first_row, m);
        let mut out = prefaulted_vec::<I>(count);
        if count == 0 {
            return Ok(out);
        }
        let at = (m.next_multiple_of(8) + 4 * m).next_multiple_of(256);
        let bytes = I::BYTES * count;
        let own;
        let (buf, at) = if at + bytes <= scratch.bytes() {
            (scratch, at)
        } else {
            own = self.gpu.alloc(bytes)?;
            (&own, 0)
        };
        launchers::partition::strided_positions(
            self.gpu,
            width::<I>(),
            (blocks(count), THREADS),
            sorted.ptr(0),
            phase,
            rows.interval as u32,
            count as u64,
            buf.ptr(at),
        )?;
        buf.download_staged_at(at, &mut out)?;
        Ok(out)
    }

    /// The counts of the k-mers `codes` since the last take, zeroed on the device after.
    fn take_kmer_counts(&self, codes: Range<usize>) -> Result<Vec<I>, GpuError> {
        let (at, bytes) = (I::BYTES * codes.start, I::BYTES * codes.len());
        let mut counts = prefaulted_vec::<I>(codes.len());
        self.kmer_counts.download_staged_at(at, &mut counts)?;
        self.kmer_counts.zero_at(at, bytes)?;
        Ok(counts)
    }

    /// The positions of the `runs` (start, length pairs) of `positions[0]`, one after the
    /// other (gathered in `positions[1]`), and per run its start, length and the sampled
    /// rows before it (from the scan at `before`).
    fn gather_long_runs(
        &self,
        positions: &[DevBuf; 2],
        before: DevPtr,
        runs: Vec<u32>,
    ) -> Result<(Vec<I>, Vec<[u32; 3]>), GpuError> {
        if runs.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        let gpu = self.gpu;
        let count = runs.len() / 2;
        let (offsets, total) = run_offsets(&runs);
        let (runs_buf, offsets_buf) = (gpu.upload(&runs)?, gpu.upload(&offsets)?);
        let sampled_before = gpu.alloc(4 * count)?;
        launchers::partition::gather_runs(
            gpu,
            width::<I>(),
            (count as u32, THREADS),
            positions[0].ptr(0),
            runs_buf.ptr(0),
            offsets_buf.ptr(0),
            before,
            positions[1].ptr(0),
            sampled_before.ptr(0),
        )?;
        let mut long = prefaulted_vec::<I>(total);
        let mut befores = vec![0u32; count];
        sampled_before.download(&mut befores)?;
        positions[1].download_staged(&mut long)?;
        let runs = runs
            .chunks(2)
            .zip(befores)
            .map(|(r, b)| [r[0], r[1], b])
            .collect();
        Ok((long, runs))
    }

    /// Appends the part's suffixes and their 32-base keys to `keys` and `positions`.
    fn gather(&self, part: &Part, keys: &DevBuf, positions: &DevBuf) -> Result<(), GpuError> {
        let count = self.gpu.alloc(4)?;
        count.zero(4)?;
        // Whether a bound is given (a u32 flag), and the bound.
        let bound = |b: Option<usize>| (b.is_some() as u32, b.unwrap_or(0) as u64);
        let ((has_from, from), (has_until, until)) = (bound(part.from), bound(part.until));
        let grid = self.n.div_ceil(GATHER_PER_THREAD * THREADS as usize) as u32;
        launchers::partition::part_gather(
            self.gpu,
            width::<I>(),
            (grid, THREADS),
            self.ranks_args(),
            self.shared.partitioner.bucket_bases() as u32,
            part.buckets.start as u32,
            part.buckets.end as u32,
            has_from,
            from,
            has_until,
            until,
            keys.ptr(0),
            positions.ptr(0),
            count.ptr(0),
        )?;
        let got = count.read_u32(0)? as usize;
        assert_eq!(got, part.suffixes, "suffixes gathered for {part:?}");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CPU's redo of the long runs: the device's rows of a part whose runs are in
    /// the wrong order (as `part_rows` makes them) become the rows of the sorted part,
    /// the sentinel's row and the sampled positions included.
    #[test]
    fn long_runs_are_sorted_and_their_rows_redone() {
        let codes: Vec<u8> = (0..6000)
            .map(|i| [0, 0, 1, 3, 0, 2, 1][i % 7] ^ (i % 911 == 0) as u8)
            .collect();
        let text = PackedText::from_codes(&codes);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let mut isa = vec![0u32; sa.len() + 1];
        for (row, &p) in sa.iter().enumerate() {
            isa[p as usize] = row as u32;
        }
        let compare = |a: u32, b: u32| isa[a as usize].cmp(&isa[b as usize]);
        // Runs (start in the part, length) around the sentinel's row and apart from it.
        let at_zero = isa[0] as usize;
        let far = if at_zero < 3000 { 3100 } else { 0 };
        for (part, runs, rate) in [
            (0..sa.len(), vec![(at_zero - 10, 30), (far, 1500)], 4),
            (1000..4000, vec![(5, 2990)], 1),
            (100..5000, vec![(0, 2), (7, 1100)], 16),
        ] {
            let mut device = sa[part.clone()].to_vec();
            let mut long = Vec::new();
            let mut long_runs = Vec::new();
            for &(start, len) in &runs {
                let run = &mut device[start..start + len];
                run.reverse();
                run.rotate_left(len / 3);
                long.extend_from_slice(run);
                long_runs.push((start, len));
            }
            let rows = Rows::of(&text, rate, &device);
            let before = |row: usize| rows.flags[..row].iter().filter(|&&f| f & 4 != 0).count();
            let long_runs: Vec<[u32; 3]> = long_runs
                .iter()
                .map(|&(s, l)| [s as u32, l as u32, before(s) as u32])
                .collect();
            // The part's rows in the index from row 1 + part.start; kept every 32nd (and
            // every 7th), as the device gathers them from its unsorted runs.
            let first_row = 1 + part.start as u64;
            for interval in [32u64, 7] {
                let kept =
                    |positions: &[u32]| crate::fm::rows_every(positions, first_row, interval);
                let on_device = OnDevice {
                    part: PartRows {
                        rows: rows.clone(),
                        first_row,
                        row_samples: kept(&device).into_iter().map(|p| p as u32).collect(),
                        ..PartRows::empty()
                    },
                    long: long.clone(),
                    long_runs: long_runs.clone(),
                };
                let want = Rows::of(&text, rate, &sa[part.clone()]);
                assert!(rows != want, "the runs were out of order");
                let want_kept: Vec<u32> = kept(&sa[part.clone()])
                    .into_iter()
                    .map(|p| p as u32)
                    .collect();
                assert_ne!(kept(&device), kept(&sa[part.clone()]), "part {part:?}");
                let finished = on_device.finish(&text, (rate, interval), compare);
                assert!(finished.rows == want, "part {part:?}");
                assert_eq!(
                    finished.row_samples, want_kept,
                    "part {part:?}, every {interval}"
                );
            }
        }
    }

    /// Buffers handed back are used again at any length up to the part size, those of
    /// an empty part are not kept, and a taken buffer has the lengths asked for.
    #[test]
    fn row_buffers_are_used_again() {
        let pool = RowBuffers::<u32>::new(1000);
        let mut rows = pool.take(700, 40);
        assert_eq!((rows.flags.len(), rows.sampled.len()), (700, 40));
        rows.primary = Some(3);
        let at = rows.flags.as_ptr();
        pool.give_back(rows);
        pool.give_back(Rows::default());
        let rows = pool.take(900, 60);
        assert_eq!((rows.flags.len(), rows.sampled.len()), (900, 60));
        assert_eq!((rows.flags.as_ptr(), rows.primary), (at, None));
        pool.give_back(rows);
        let rows = pool.take(10, 1);
        assert_eq!(
            (rows.flags.len(), rows.sampled.len(), rows.flags.as_ptr()),
            (10, 1, at)
        );
        assert!(pool.free.lock().unwrap().is_empty());
    }

    #[test]
    fn budgets_choose_the_whole_build_or_parts_or_refuse() {
        let n = 10_000_000;
        let within = |budget| part_size_within::<u32>(n, budget, Algorithm::Doubling);
        let whole = RESERVE + 31 * n as u64;
        assert_eq!(within(whole).unwrap(), None);
        // Skew needs less room for the whole build; auto takes doubling bounded to 20
        // bytes a base where that fits, else skew.
        let skew_whole = RESERVE + 12 * n as u64;
        let bounded_whole = RESERVE + 20 * n as u64;
        let auto = |budget| whole_algorithm(n, budget, Algorithm::Auto);
        assert_eq!(auto(whole), Some(Algorithm::Bounded));
        assert_eq!(auto(bounded_whole), Some(Algorithm::Bounded));
        assert_eq!(auto(bounded_whole - 1), Some(Algorithm::Skew));
        assert_eq!(auto(skew_whole - 1), None);
        assert_eq!(
            part_size_within::<u32>(n, skew_whole, Algorithm::Skew).unwrap(),
            None
        );
        assert!(within(skew_whole).unwrap().is_some());
        assert!(part_size_within::<u32>(n, skew_whole - 1, Algorithm::Skew)
            .unwrap()
            .is_some());
        // 64-bit positions are always sorted in parts, of 33 bytes a suffix.
        let wide = part_size_within::<u64>(n, 2 * whole, Algorithm::Doubling).unwrap();
        let wide_fixed = RESERVE + 12_200_000 + (8 << 20);
        assert_eq!(wide, Some(((2 * whole - wide_fixed) / 33) as usize));
        let fixed = RESERVE + 7_400_000 + (4 << 20); // k-mer counts: k = 10
        let part = within(whole - 1).unwrap().unwrap();
        let per_suffix = bytes_per_part_suffix::<u32>();
        assert_eq!(per_suffix, 25);
        assert_eq!(part as u64, (whole - 1 - fixed) / per_suffix);
        let needed = fixed + per_suffix * MIN_PART;
        assert_eq!(within(needed).unwrap(), Some(MIN_PART as usize));
        let err = within(needed - 1).unwrap_err();
        assert_eq!(err.needed, needed);
        assert!(
            err.to_string().contains(&format!(
                "at least {} ({needed} bytes)",
                crate::units::size_to_give(needed)
            )),
            "{err}"
        );
    }
}
