//! Sorting the runs of equal 32-base keys that a key sort of suffixes leaves (the parts
//! of [`super`], the sample of [`super::sample`]) by the bounded suffix
//! comparison of `kernels/partition.cuh` ([`Comparison`]): runs of up to 32 suffixes in
//! one warp and of up to [`MEDIUM_RUN`] in one block ([`sort_runs`]); longer ones on the
//! device by the next 32 bases at a time, all at once as the segments of one array, their
//! shorter sub-runs sorted as above ([`sort_long_runs_on_device`]); what is still longer
//! after [`MAX_KEY_BASES`] bases (an all-`A` stretch, a long period) on the CPU
//! ([`sort_long_runs`]).

use std::cmp::Ordering;

use rayon::prelude::*;

use super::keys::{width, Position};
use crate::gpu::prims::radix::{KeyWidth, ScanOp, Workspace};
use crate::gpu::runtime::launchers;
use crate::gpu::tuning::{blocks, over, THREADS};
use crate::gpu::{DevPtr, Gpu, GpuError};

/// Longest run sorted by one block (`MEDIUM_RUN` in the kernels).
pub(crate) use crate::gpu::tuning::MEDIUM_RUN;
/// Bases of the keys by which the device sorts long runs at most: the comparison itself
/// looks at no more than 256 bases before the sample ranks decide.
pub(crate) const MAX_KEY_BASES: u32 = 256;

/// The comparison of suffixes that the run sorts use: the `Ranks` fields of the kernels
/// (text, length, sample ranks, cover tables, cover size, base limit).
pub(crate) use launchers::partition::Comparison;

/// The device addresses of two buffers of one kind: the data, then scratch.
pub(crate) type Pair = [DevPtr; 2];

/// Sorts the runs (start, length pairs, disjoint) of `sorted` by `compare` on the CPU,
/// in parallel over the runs; returns the suffixes sorted.
pub(crate) fn sort_long_runs<I: Position>(
    sorted: &mut [I],
    runs: &[u32],
    compare: impl Fn(I, I) -> Ordering + Sync,
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

/// Sorts the runs of equal keys among the `m` sorted keys and positions (at `keys[0]`,
/// `positions[0]`; runs end at the bounds of the `segments` when given) by `compare`, on
/// the device, but for those longer than [`MEDIUM_RUN`], returned as (start, length)
/// pairs. `keys[1]` (8 bytes an element), `positions[1]` (4) and, once the runs are
/// known, the keys are the scratch.
pub(crate) fn sort_runs<I: Position>(
    gpu: &Gpu,
    ws: &Workspace,
    compare: &Comparison,
    (keys, positions): (Pair, Pair),
    segments: Option<DevPtr>,
    m: usize,
) -> Result<Vec<u32>, GpuError> {
    let m32 = m as u32;
    let segments = segments.unwrap_or(DevPtr::NULL);
    // Runs: start flags scanned (inclusive) into run numbers, then each run's bounds.
    let index = positions[1];
    let (lo, hi) = (keys[1], keys[1].offset(4 * m));
    launchers::partition::run_flags(gpu, width::<I>(), over(m), keys[0], segments, m32, index)?;
    let runs = ws.scan(index, index, m, ScanOp::Sum, true)? as usize;
    launchers::partition::run_bounds(
        gpu,
        width::<I>(),
        over(m),
        keys[0],
        segments,
        index,
        m32,
        lo,
        hi,
    )?;
    // The runs of two or more into `tied` (the keys are not needed any more).
    let runs32 = runs as u32;
    let tied = keys[0];
    // Tied runs (at most m / 2), then three lists of longer ones (each at most m / 33),
    // then pairs for at most m / 1025, at aligned offsets in the 8 m bytes.
    let stride = m / 32 + 1;
    let (medium, large) = (tied.offset(4 * m), tied.offset(4 * (m + 3 * stride)));
    let flags = positions[1];
    launchers::partition::tied_flags(gpu, width::<I>(), over(runs), lo, hi, runs32, flags)?;
    let ntied = ws.scan(flags, flags, runs, ScanOp::Sum, false)? as usize;
    if ntied == 0 {
        return Ok(Vec::new());
    }
    launchers::partition::tied_compact(gpu, width::<I>(), over(runs), lo, hi, flags, runs32, tied)?;
    let counts = gpu.alloc(16)?;
    counts.zero(16)?;
    launchers::partition::sort_small_runs(
        gpu,
        width::<I>(),
        over(32 * ntied),
        *compare,
        tied,
        ntied as u32,
        lo,
        hi,
        positions[0],
        medium,
        stride as u32,
        large,
        counts.ptr(0),
    )?;
    let mut found = [0u32; 4];
    counts.download(&mut found)?;
    for (class, threads) in [64, 256, MEDIUM_RUN].into_iter().enumerate() {
        if found[class] > 0 {
            launchers::partition::sort_medium_runs(
                gpu,
                width::<I>(),
                (found[class], threads),
                *compare,
                medium.offset(4 * class * stride),
                lo,
                hi,
                positions[0],
            )?;
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

/// Where each run (start, length pairs) starts when the runs are laid one after the
/// other, and their total length.
pub(crate) fn run_offsets(runs: &[u32]) -> (Vec<u32>, usize) {
    let mut total = 0;
    let offsets = runs
        .chunks(2)
        .map(|r| {
            total += r[1];
            total - r[1]
        })
        .collect();
    (offsets, total as usize)
}

/// The text the keys are read from: the device address of its 2-bit words, its length.
pub(crate) type Text = (DevPtr, usize);

/// Sorts, on the device, the `runs` (start, length pairs) of the `m` key-sorted suffixes
/// at `positions` that [`sort_runs`] left (more than [`MEDIUM_RUN`] equal 32-base keys):
/// by the next 32 bases of `text`, a round per 32, every run at once as a segment of one
/// array, sub-runs sorted by [`sort_runs`]. `scratch` are three free buffers of 8, 8 and
/// `I::BYTES` bytes per suffix; runs of more than `m / 2` suffixes, and those still tied
/// after [`MAX_KEY_BASES`] bases, are returned for the CPU.
pub(crate) fn sort_long_runs_on_device<I: Position>(
    gpu: &Gpu,
    ws: &Workspace,
    (compare, text): (&Comparison, Text),
    positions: DevPtr,
    scratch: [DevPtr; 3],
    (m, runs): (usize, Vec<u32>),
) -> Result<Vec<u32>, GpuError> {
    let cap = m / 2;
    let rounds = LongRuns {
        gpu,
        ws,
        compare,
        text,
        positions,
        scratch,
        cap,
    };
    let (mut pending, mut left) = (runs, Vec::new());
    let mut offset = 32;
    while !pending.is_empty() {
        if offset >= MAX_KEY_BASES {
            left.extend(pending);
            break;
        }
        let (mut next, mut chunk, mut total) = (Vec::new(), Vec::new(), 0);
        for run in pending.chunks(2) {
            let len = run[1] as usize;
            if len > cap {
                left.extend_from_slice(run);
                continue;
            }
            if total + len > cap {
                next.extend(rounds.round::<I>(&chunk, offset)?);
                (chunk, total) = (Vec::new(), 0);
            }
            chunk.extend_from_slice(run);
            total += len;
        }
        if !chunk.is_empty() {
            next.extend(rounds.round::<I>(&chunk, offset)?);
        }
        (pending, offset) = (next, offset + 32);
    }
    Ok(left)
}

/// One round of [`sort_long_runs_on_device`] over some of the runs.
struct LongRuns<'a, 'g> {
    gpu: &'g Gpu,
    ws: &'a Workspace<'g>,
    compare: &'a Comparison,
    text: Text,
    positions: DevPtr,
    scratch: [DevPtr; 3],
    /// The most suffixes in one round.
    cap: usize,
}

impl LongRuns<'_, '_> {
    /// Sorts the suffixes of `runs` (start, length pairs, at most `cap` suffixes in all,
    /// equal in their first `offset` bases) by their bases `offset..offset + 32`, then
    /// the sub-runs of equal ones by [`sort_runs`]; returns the sub-runs still longer than
    /// [`MEDIUM_RUN`], unsorted.
    fn round<I: Position>(&self, runs: &[u32], offset: u32) -> Result<Vec<u32>, GpuError> {
        let gpu = self.gpu;
        let count = runs.len() / 2;
        let (offsets, t) = run_offsets(runs);
        let (runs_buf, offsets_buf) = (gpu.upload(runs)?, gpu.upload(&offsets)?);
        let (runs_at, offsets_at) = (runs_buf.ptr(0), offsets_buf.ptr(0));
        let cap = self.cap;
        let [k, w, p] = self.scratch;
        let keys = [k, k.offset(8 * cap)];
        let order = [w, w.offset(4 * cap)];
        let segments = [w.offset(8 * cap), w.offset(12 * cap)];
        let members = [p, p.offset(I::BYTES * cap)];
        launchers::partition::run_members(
            gpu,
            width::<I>(),
            (count as u32, THREADS),
            self.positions,
            runs_at,
            offsets_at,
            members[0],
            segments[0],
        )?;
        self.offset_keys::<I>(members[0], t, offset, keys[0], Some(order[0]))?;
        let at = self.ws.sort_pairs_at(keys, order, t, KeyWidth::U64, 64)?;
        let order = [order[at], order[1 - at]];
        self.permute::<I>(order[0], t, Some((segments[0], segments[1])), None)?;
        let bits = (u32::BITS - (count as u32).leading_zeros()).next_multiple_of(8);
        let by_segment = [segments[1], segments[0]];
        let at = self
            .ws
            .sort_pairs_at(by_segment, order, t, KeyWidth::U32, bits)?;
        let (order, segments) = (order[at], by_segment[at]);
        self.permute::<I>(order, t, None, Some((members[0], members[1])))?;
        self.offset_keys::<I>(members[1], t, offset, keys[0], None)?;
        let sorted = (keys, [members[1], members[0]]);
        let large = sort_runs::<I>(gpu, self.ws, self.compare, sorted, Some(segments), t)?;
        launchers::partition::put_run_members(
            gpu,
            width::<I>(),
            (count as u32, THREADS),
            members[1],
            runs_at,
            offsets_at,
            self.positions,
        )?;
        // Back to positions in the part: a sub-run lies in one run.
        Ok(large
            .chunks(2)
            .flat_map(|sub| {
                let r = offsets.partition_point(|&o| o <= sub[0]) - 1;
                [runs[2 * r] + sub[0] - offsets[r], sub[1]]
            })
            .collect())
    }

    /// `keys[i]` = the 32 bases from `members[i] + offset` (and `order[i] = i`).
    fn offset_keys<I: Position>(
        &self,
        members: DevPtr,
        t: usize,
        offset: u32,
        keys: DevPtr,
        order: Option<DevPtr>,
    ) -> Result<(), GpuError> {
        launchers::partition::offset_keys(
            self.gpu,
            width::<I>(),
            over(t),
            self.text.0,
            self.text.1 as u64,
            members,
            t as u32,
            offset,
            keys,
            order.unwrap_or(DevPtr::NULL),
        )
    }

    /// `out[i] = in[order[i]]` for the (in, out) pairs of `u32` and of positions given.
    fn permute<I: Position>(
        &self,
        order: DevPtr,
        t: usize,
        words: Option<(DevPtr, DevPtr)>,
        positions: Option<(DevPtr, DevPtr)>,
    ) -> Result<(), GpuError> {
        let none = (DevPtr::NULL, DevPtr::NULL);
        let (w_in, w_out) = words.unwrap_or(none);
        let (p_in, p_out) = positions.unwrap_or(none);
        let t32 = t as u32;
        let grid = blocks(t);
        launchers::partition::permute(
            self.gpu,
            width::<I>(),
            (grid, THREADS),
            order,
            t32,
            w_in,
            w_out,
            p_in,
            p_out,
        )
    }
}
