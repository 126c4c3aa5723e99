//! The ranks of the difference-cover sample ([`crate::sa::sample`]) on the GPU, as the
//! partitioned build needs them: the sampled suffixes (31 of every 256 positions) sorted
//! on their first 256 bases, then by Larsson-Sadakane prefix doubling over the sample
//! alone. The sample is closed under shifts by the period, and a shift by 256 bases is a
//! shift by 31 sample indexes, so the doubling rounds of [`crate::gpu::sa`] run unchanged on
//! sample indexes with a first step of 31 (the wang-baxter-owens hybrid, with a
//! difference cover of period 256 in place of DC3).
//!
//! 1. `sample_keys`: each sampled suffix with its 32-base key; the device radix sort;
//!    runs of equal keys sorted by their first 256 bases ([`super::runs`] with a base
//!    limit, the runs still tied after 256 bases on the CPU).
//! 2. `sample_starts`: groups of equal 256-base prefixes, each suffix's sample index; the
//!    group heads (max-scan), ranks and the list of unsorted suffixes (kernels of
//!    `sa/doubling.cu`).
//! 3. Doubling rounds from step 31 until every sampled suffix is alone.
//!
//! Positions are of the index's type (`u32`, or `u64` past 2^32 bases; sample indexes
//! stay `u32`). Device memory: 24 bytes per sampled suffix while sorting (3 bytes a base;
//! 32 and 3.9 with `u64` positions), then 8 plus 28 per unsorted one (at most 4.4 bytes a
//! base), besides the text.

use rayon::prelude::*;

use super::keys::{sort_by_keys, width, Position};
use super::runs::{sort_long_runs, sort_long_runs_on_device, sort_runs, Comparison};
use crate::gpu::prims::radix::{ScanOp, Workspace};
use crate::gpu::runtime::launchers;
use crate::gpu::sa::doubling::{self, doubling_rounds, init_ranks, List};
use crate::gpu::sa::Profile;
use crate::gpu::tuning::over;
use crate::gpu::{prefaulted_vec, DevBuf, DevPtr, Gpu, GpuError};
use crate::reference::PackedText;
use crate::sa::cover::{Cover, PERIOD};
use crate::sa::keysort::{compare_bases, KEY_BASES};

/// The sample ranks of `text` (uploaded to `words`): `ranks[i]` is the rank (`1..=m`) of
/// sampled suffix `i` (in text order) among the sampled suffixes, as
/// [`crate::sa::sample::SampleRanks::build`] gives them (positions of type `I`).
pub fn ranks<I: Position>(
    gpu: &Gpu,
    text: &PackedText,
    words: &DevBuf,
) -> Result<Vec<I>, GpuError> {
    let n = text.len();
    let cover = Cover::new();
    let m = cover.sampled_count(n);
    if m == 0 {
        return Ok(Vec::new());
    }
    if m >= u32::MAX as usize {
        return Err(GpuError::TooLarge(n));
    }
    let mut prof = Profile::new(gpu, "gpu sample ranks");
    let members: Vec<u32> = cover.sampled_below(PERIOD).map(|p| p as u32).collect();
    let member = gpu.upload(&members)?;
    let slot = gpu.upload(cover.slot_table())?;
    let count = members.len() as u32;
    let ws = Workspace::new(gpu, m)?;

    // 1. Sorted on the first 256 bases.
    let mut keys = [gpu.alloc(8 * m)?, gpu.alloc(8 * m)?];
    let mut positions = [gpu.alloc(I::BYTES * m)?, gpu.alloc(I::BYTES * m)?];
    launchers::partition::sample_keys(
        gpu,
        width::<I>(),
        over(m),
        words.ptr(0),
        member.ptr(0),
        count,
        m as u32,
        keys[0].ptr(0),
        positions[0].ptr(0),
    )?;
    sort_by_keys::<I>(&ws, &mut keys, &mut positions, m)?;
    let by_bases = Comparison {
        words: words.ptr(0),
        n: n as u64,
        ranks: DevPtr::NULL,
        delta: DevPtr::NULL,
        slot: slot.ptr(0),
        members: count,
        limit: PERIOD as u32,
    };
    let sorted = (
        [keys[0].ptr(0), keys[1].ptr(0)],
        [positions[0].ptr(0), positions[1].ptr(0)],
    );
    let large = sort_runs::<I>(gpu, &ws, &by_bases, sorted, None, m)?;
    let scratch = [keys[0].ptr(0), keys[1].ptr(0), positions[1].ptr(0)];
    let large = sort_long_runs_on_device::<I>(
        gpu,
        &ws,
        (&by_bases, (words.ptr(0), n)),
        positions[0].ptr(0),
        scratch,
        (m, large),
    )?;
    prof.mark("sort on 256 bases");
    prof.large += sort_large_runs::<I>(gpu, text, &positions[0], &large)?;
    prof.mark("long runs (CPU)");

    // 2. Groups, sample indexes, ranks (group heads) and the unsorted list.
    let [sorted_keys, starts] = keys;
    let [sorted, index] = positions;
    launchers::partition::sample_starts(
        gpu,
        width::<I>(),
        over(m),
        words.ptr(0),
        n as u64,
        sorted.ptr(0),
        m as u32,
        slot.ptr(0),
        count,
        starts.ptr(0),
        index.ptr(0),
    )?;
    drop(sorted);
    ws.scan_queued(starts.ptr(0), starts.ptr(0), m, ScanOp::Max, true)?;
    let isa = gpu.alloc(4 * m)?;
    let keep = sorted_keys;
    let unsorted = init_ranks(gpu, &ws, (&index, &starts, m), &isa, &keep)?;
    drop(starts);
    let list = gpu.alloc(4 * unsorted.max(1))?;
    doubling::compact(gpu, (&index, &keep, m, unsorted), &list)?;
    drop(keep);
    prof.mark("groups");

    // 3. Doubling over the sample, one period (31 indexes) first.
    if unsorted > 0 {
        let step = cover.members();
        doubling_rounds(
            gpu,
            &ws,
            (&index, &isa, m),
            List {
                pos: list,
                heads: None,
                len: unsorted,
            },
            step,
            None,
            &mut prof,
        )?;
    }
    let mut ranks = prefaulted_vec::<u32>(m);
    isa.download_staged(&mut ranks)?;
    ranks.par_iter_mut().for_each(|r| *r += 1);
    // In place where `I` is `u32` (the same layout), else on all cores.
    let ranks = match I::BYTES {
        4 => ranks.into_iter().map(I::from).collect(),
        _ => ranks.into_par_iter().map(I::from).collect(),
    };
    prof.mark("rounds and download");
    prof.report(n);
    Ok(ranks)
}

/// Sorts on the CPU, on their first 256 bases, the runs (start, length pairs) of equal
/// 32-base keys too long for the device's run sorts.
/// Returns the number of suffixes so sorted.
fn sort_large_runs<I: Position>(
    gpu: &Gpu,
    text: &PackedText,
    sorted: &DevBuf,
    large: &[u32],
) -> Result<usize, GpuError> {
    let mut total = 0;
    for run in large.chunks(2) {
        let (start, len) = (run[0] as usize, run[1] as usize);
        let mut members = vec![I::default(); len];
        let part = gpu.alloc(I::BYTES * len)?;
        part.copy_from(sorted.ptr(I::BYTES * start), I::BYTES * len)?;
        part.download(&mut members)?;
        sort_long_runs(&mut members, &[0, len as u32], |a, b| {
            let (a, b) = (a.to_usize(), b.to_usize());
            let equal = if text.len() - a.max(b) >= KEY_BASES {
                KEY_BASES
            } else {
                0
            };
            compare_bases(text, a, b, equal, PERIOD)
        });
        part.write(&members)?;
        sorted.copy_from_at(I::BYTES * start, part.ptr(0), I::BYTES * len)?;
        total += len;
    }
    Ok(total)
}
