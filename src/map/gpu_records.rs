//! Records of GPU-searched batches written by the GPU ([`crate::gpu::sam`]): the hits
//! placed and the primaries chosen on the CPU as for the CPU's formatter, the reads'
//! names, bases and qualities copied to the GPU straight from the input file's memory
//! map (registered with the GPU, [`RegisteredRegion`]: the CPU does not touch them), the
//! SAM lines written by the GPU. Only where the GPU writes exactly what
//! [`crate::sam::push_records`] would ([`formats_on_gpu`]) and the reads lie in a map.
//!
//! Session 32 gathered the reads' bytes into a pinned buffer on the CPU instead: the
//! records stage then read every byte the CPU's formatter reads and was no faster
//! (BENCHMARKS.md, session 32).

use std::ops::Range;

use rayon::prelude::*;

use super::{pairing, MapStats, TASK_SIZE};
use crate::device::DeviceChoice;
use crate::gpu::host_register::RegisteredRegion;
use crate::gpu::sam::{FormatHit, FormatRead, GpuFormatter, NO_QUALITIES, UNMAPPED};
use crate::gpu::GpuError;
use crate::io::{ReadBatch, ReadRecord};
use crate::sam::{self, Encoded};
use crate::search::{BatchPositions, Hit, Placement, Scratch};

/// Whether GPU-searched batches of a run get their records from the GPU: single-end
/// reads, exact search, SAM output, a GPU allowed, and `GALIGN_SAM_ON_CPU` not set
/// (which keeps the CPU's formatter, to compare the two).
pub(super) fn formats_on_gpu(paired: bool, text: bool, k: u8, device: DeviceChoice) -> bool {
    !paired
        && text
        && k == 0
        && device != DeviceChoice::Cpu
        && std::env::var_os("GALIGN_SAM_ON_CPU").is_none()
}

/// The bytes of `batch`'s reads as offsets in the file's map: from the first read's
/// name to the end of the last read's qualities (or bases). `None` when they do not lie
/// in one map or span 2^32 bytes or more.
pub(super) fn mapped_range(batch: &ReadBatch) -> Option<Range<usize>> {
    let base = batch.mapped_file()?.bytes().as_ptr() as usize;
    let records = batch.records_in(0..1.min(batch.len()));
    let first = records.first()?.name.as_ptr() as usize - base;
    let last = batch.records_in(batch.len() - 1..batch.len())[0];
    let end = last.qual.unwrap_or(last.seq).as_ptr_range().end as usize - base;
    (first < end && end - first < u32::MAX as usize).then_some(first..end)
}

/// One task's reads ready for the GPU: their hit starts relative to the task's hits.
struct TaskPart {
    reads: Vec<FormatRead>,
    hits: Vec<FormatHit>,
    stats: MapStats,
}

/// The records of `batch`, whose positions the GPU found and whose reads lie in
/// `range` of the file's map (registered as `region`), written by `formatter`, and the
/// batch's counts; `None` when the formatter declines the batch (the CPU writes it).
/// Adds to `seconds` those spent placing hits and waiting for the map's registration.
pub(super) fn gpu_records(
    formatter: &mut GpuFormatter<'_>,
    region: &RegisteredRegion,
    range: Range<usize>,
    placement: &Placement<'_>,
    batch: &ReadBatch,
    positions: &BatchPositions,
    seconds: &mut [f64; 2],
) -> Result<Option<(Vec<Encoded>, MapStats)>, GpuError> {
    let placing = std::time::Instant::now();
    let Some(map) = batch.mapped_file() else {
        return Ok(None);
    };
    // Where the batch's bytes start in memory: reads' offsets are taken from it.
    let start = map.bytes().as_ptr() as usize + range.start;
    let tasks: Vec<Range<usize>> = (0..batch.len())
        .step_by(TASK_SIZE)
        .map(|from| from..(from + TASK_SIZE).min(batch.len()))
        .collect();
    let parts: Vec<TaskPart> = tasks
        .into_par_iter()
        .map_init(
            || (Scratch::default(), Vec::new()),
            |(scratch, hits), task| {
                let reads = batch.records_in(task.clone());
                let mut part = TaskPart {
                    reads: Vec::with_capacity(reads.len()),
                    hits: Vec::new(),
                    stats: MapStats::default(),
                };
                for (i, read) in task.zip(&reads) {
                    positions.hits(placement, i, read.seq, scratch, hits);
                    part.stats.count(hits);
                    part.reads.push(format_read(read, start, hits, &part.hits));
                    part.hits.extend(hits.iter().map(format_hit));
                }
                part
            },
        )
        .collect();
    let (reads, hits, stats) = joined(parts);
    let waiting = std::time::Instant::now();
    seconds[0] += (waiting - placing).as_secs_f64();
    let source = region.acquire(range.clone())?;
    seconds[1] += waiting.elapsed().as_secs_f64();
    let text = formatter.format(&reads, &hits, &source);
    region.release(range);
    Ok(text?.map(|text| (vec![Encoded::SamBuffer(Box::new(text))], stats)))
}

/// What the GPU needs of `read`, whose batch's bytes start at address `start`, with
/// `hits` (sorted) appended after `earlier`, its task's hits so far.
fn format_read(read: &ReadRecord, start: usize, hits: &[Hit], earlier: &[FormatHit]) -> FormatRead {
    let offset = |field: &[u8]| (field.as_ptr() as usize - start) as u32;
    let primary = pairing::choose_single(read.name, hits, 0);
    FormatRead {
        name: offset(read.name),
        seq: offset(read.seq),
        qual: read.qual.map_or(0, offset),
        name_len: read.name.len() as u32,
        seq_len: read.seq.len() as u32,
        qual_len: read.qual.map_or(NO_QUALITIES, |q| q.len() as u32),
        hit_start: earlier.len() as u32,
        hit_count: hits.len() as u32,
        primary: primary.map_or(UNMAPPED, |p| p as u32),
        mapq: sam::mapq(hits) as u32,
    }
}

fn format_hit(hit: &Hit) -> FormatHit {
    debug_assert_eq!(hit.mismatches, 0, "exact search only");
    FormatHit {
        contig: hit.contig,
        reverse: hit.reverse as u32,
        pos: [hit.pos as u32, (hit.pos >> 32) as u32],
    }
}

/// The tasks' reads and hits as one batch (hit starts made absolute), and their counts.
fn joined(parts: Vec<TaskPart>) -> (Vec<FormatRead>, Vec<FormatHit>, MapStats) {
    let mut reads = Vec::with_capacity(parts.iter().map(|p| p.reads.len()).sum());
    let mut hits = Vec::with_capacity(parts.iter().map(|p| p.hits.len()).sum());
    let mut stats = MapStats::default();
    for part in parts {
        let base = hits.len() as u32;
        reads.extend(part.reads.iter().map(|r| FormatRead {
            hit_start: r.hit_start + base,
            ..*r
        }));
        hits.extend_from_slice(&part.hits);
        stats.add(&part.stats);
    }
    (reads, hits, stats)
}
