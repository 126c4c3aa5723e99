//! Records of GPU-searched batches written by the GPU ([`crate::gpu::sam`]): the hits
//! placed and the primaries chosen on the CPU as for the CPU's formatter, each read's
//! name, bases and qualities gathered into the formatter's pinned buffer by the task
//! that places its hits, the SAM lines written by the GPU. Only where the GPU writes
//! exactly what [`crate::sam::push_records`] would ([`formats_on_gpu`]).

use std::ops::Range;

use rayon::prelude::*;

use super::{pairing, MapStats, TASK_SIZE};
use crate::device::DeviceChoice;
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

/// One task's reads ready for the GPU: their hit starts relative to the task's hits.
struct TaskPart {
    reads: Vec<FormatRead>,
    hits: Vec<FormatHit>,
    stats: MapStats,
}

/// The records of `batch`, whose positions the GPU found, written by `formatter`, and
/// the batch's counts; `None` when the formatter declines the batch (the CPU writes it).
pub(super) fn gpu_records(
    formatter: &mut GpuFormatter<'_>,
    placement: &Placement<'_>,
    batch: &ReadBatch,
    positions: &BatchPositions,
) -> Result<Option<(Vec<Encoded>, MapStats)>, GpuError> {
    let tasks: Vec<Range<usize>> = (0..batch.len())
        .step_by(TASK_SIZE)
        .map(|start| start..(start + TASK_SIZE).min(batch.len()))
        .collect();
    // Where each task's bytes start in the staging buffer (a serial pass over the reads'
    // lengths: a parallel one waited behind other stages' tasks on the pool).
    let records = batch.records();
    let sizes: Vec<usize> = tasks
        .iter()
        .map(|range| records[range.clone()].iter().map(staged_len).sum())
        .collect();
    drop(records);
    let total: usize = sizes.iter().sum();
    if total >= u32::MAX as usize {
        return Ok(None);
    }
    let mut slices = Vec::with_capacity(tasks.len());
    let mut rest = formatter.staging(total)?;
    for &size in &sizes {
        let (slice, tail) = std::mem::take(&mut rest).split_at_mut(size);
        slices.push(slice);
        rest = tail;
    }
    let starts = sizes.iter().scan(0, |at, &size| {
        let start = *at;
        *at += size;
        Some(start as u32)
    });
    let parts: Vec<TaskPart> = tasks
        .into_par_iter()
        .zip(slices)
        .zip(starts.collect::<Vec<u32>>())
        .map_init(
            || (Scratch::default(), Vec::new()),
            |(scratch, hits), ((range, slice), start)| {
                let reads = batch.records_in(range.clone());
                let mut part = TaskPart {
                    reads: Vec::with_capacity(reads.len()),
                    hits: Vec::new(),
                    stats: MapStats::default(),
                };
                let mut at = 0;
                for (i, read) in range.zip(&reads) {
                    positions.hits(placement, i, read.seq, scratch, hits);
                    part.stats.count(hits);
                    part.reads
                        .push(format_read(read, hits, start + at as u32, &part.hits));
                    part.hits.extend(hits.iter().map(format_hit));
                    at += stage(read, &mut slice[at..]);
                }
                part
            },
        )
        .collect();
    let (reads, hits, stats) = joined(parts);
    let text = formatter.format(&reads, &hits, total)?;
    Ok(text.map(|text| (vec![Encoded::SamBuffer(Box::new(text))], stats)))
}

/// Bytes of `read` staged for the GPU: name, bases, qualities.
fn staged_len(read: &ReadRecord) -> usize {
    read.name.len() + read.seq.len() + read.qual.map_or(0, <[u8]>::len)
}

/// Copies `read`'s name, bases and qualities to the start of `to`; their length.
fn stage(read: &ReadRecord, to: &mut [u8]) -> usize {
    let mut at = 0;
    for field in [read.name, read.seq, read.qual.unwrap_or(&[])] {
        to[at..at + field.len()].copy_from_slice(field);
        at += field.len();
    }
    at
}

/// What the GPU needs of `read`, staged at `bytes`, with `hits` (sorted) appended after
/// `earlier`, its task's hits so far.
fn format_read(read: &ReadRecord, hits: &[Hit], bytes: u32, earlier: &[FormatHit]) -> FormatRead {
    let primary = pairing::choose_single(read.name, hits, 0);
    FormatRead {
        bytes,
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
