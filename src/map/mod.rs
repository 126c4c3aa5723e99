//! `galign map`: exact-match mapping of FASTQ reads to an index, as a pipeline of a
//! reader thread, the search (rayon), and a SAM/BAM writer thread. Output is in input
//! order and does not depend on thread count or batch size.

pub mod pairing;
pub mod reads;
pub mod search;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use rayon::prelude::*;
use rust_htslib::bam::Record;
use serde::Serialize;

use crate::fm::FmIndex;
use crate::index::Index;
use crate::progress::Reporter;
use crate::reference::Layout;
use crate::sam::{self, MateContext, RecordOptions, SamWriter};
pub use reads::{ReadRecord, ReadSource};
use search::{find_hits, Hit, Scratch};

/// Settings of a mapping run.
#[derive(Clone, Debug)]
pub struct MapOptions {
    /// Reads to map.
    pub source: ReadSource,
    /// Output path (`.bam` for BAM); stdout SAM when `None`.
    pub output: Option<PathBuf>,
    /// `-R` read-group line.
    pub read_group: Option<String>,
    /// Alternatives listed in XA.
    pub max_alternatives: usize,
    /// Write every hit (secondaries) instead of XA.
    pub all_hits: bool,
    /// Largest insert of a proper pair.
    pub max_insert: u64,
    /// Reads (or pairs) per batch.
    pub batch_size: usize,
    /// Threads for BAM compression.
    pub threads: usize,
    /// The command line for `@PG CL`.
    pub command_line: String,
}

/// Counts reported at the end of a run (and written by `--stats`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MapStats {
    /// Reads processed (mates counted separately).
    pub reads: u64,
    /// Reads with at least one exact hit.
    pub mapped: u64,
    /// Reads with exactly one hit.
    pub unique: u64,
    /// Reads with two or more hits.
    pub multi: u64,
    /// Reads with no hit.
    pub unmapped: u64,
    /// Pairs marked proper.
    pub proper_pairs: u64,
    /// Wall time of the run in seconds.
    pub seconds: f64,
    /// Reads per second.
    pub reads_per_second: f64,
}

impl MapStats {
    fn count(&mut self, hits: usize) {
        self.reads += 1;
        match hits {
            0 => self.unmapped += 1,
            1 => self.unique += 1,
            _ => self.multi += 1,
        }
        if hits > 0 {
            self.mapped += 1;
        }
    }

    fn add(&mut self, other: &MapStats) {
        self.reads += other.reads;
        self.mapped += other.mapped;
        self.unique += other.unique;
        self.multi += other.multi;
        self.unmapped += other.unmapped;
        self.proper_pairs += other.proper_pairs;
    }
}

/// Reads in flight between stages, in batches.
const CHANNEL_DEPTH: usize = 2;
/// Reads (or pairs) per rayon task.
const TASK_SIZE: usize = 256;

/// Maps the reads of `options.source` to the index at `prefix`.
pub fn map_reads(prefix: &Path, options: &MapOptions, log: &Reporter) -> anyhow::Result<MapStats> {
    let start = Instant::now();
    let index = log.step("load index", || Index::open(prefix))?;
    let read_group = options
        .read_group
        .as_deref()
        .map(sam::parse_read_group)
        .transpose()?;
    let header = sam::build_header(index.layout(), read_group.as_ref(), &options.command_line);
    let mut reader = reads::BatchReader::open(&options.source)?;
    let mut writer = SamWriter::create(options.output.as_deref(), &header, options.threads)?;

    let record_options = RecordOptions {
        layout: index.layout(),
        read_group: read_group.as_ref().map(|rg| rg.id.as_str()),
        max_alternatives: options.max_alternatives,
        all_hits: options.all_hits,
    };
    let fm = index.fm();
    let paired = options.source.is_paired();
    let mut stats = MapStats::default();

    std::thread::scope(|scope| -> anyhow::Result<()> {
        let (batch_tx, batch_rx) = crossbeam_channel::bounded(CHANNEL_DEPTH);
        let (out_tx, out_rx) = crossbeam_channel::bounded::<Vec<Record>>(CHANNEL_DEPTH);
        let batch_size = options.batch_size;
        scope.spawn(move || loop {
            let batch = reader.next_batch(batch_size);
            let done = matches!(&batch, Ok(b) if b.is_empty()) || batch.is_err();
            if batch_tx.send(batch).is_err() || done {
                break;
            }
        });
        let writer_thread = scope.spawn(move || -> anyhow::Result<SamWriter> {
            for records in out_rx {
                for record in &records {
                    writer.write(record)?;
                }
            }
            Ok(writer)
        });
        let mut failure = None;
        for batch in batch_rx {
            let batch = match batch {
                Ok(batch) if batch.is_empty() => break,
                Ok(batch) => batch,
                Err(e) => {
                    failure = Some(anyhow::Error::from(e));
                    break;
                }
            };
            let (records, batch_stats) = align_batch(
                &fm,
                index.layout(),
                &batch,
                paired,
                options,
                &record_options,
            );
            stats.add(&batch_stats);
            if out_tx.send(records).is_err() {
                break; // the writer failed; its error is reported below
            }
        }
        drop(out_tx);
        let writer = writer_thread
            .join()
            .expect("writer thread does not panic")?;
        match failure {
            Some(e) => Err(e), // dropping the writer removes its temporary file
            None => writer.finish(),
        }
    })?;
    stats.seconds = start.elapsed().as_secs_f64();
    stats.reads_per_second = stats.reads as f64 / stats.seconds.max(1e-9);
    Ok(stats)
}

/// Searches one batch and builds its records, in input order.
fn align_batch(
    fm: &FmIndex<'_>,
    layout: &Layout,
    batch: &[ReadRecord],
    paired: bool,
    options: &MapOptions,
    record_options: &RecordOptions<'_>,
) -> (Vec<Record>, MapStats) {
    let per_item = if paired { 2 } else { 1 };
    let parts: Vec<(Vec<Record>, MapStats)> = batch
        .par_chunks(TASK_SIZE * per_item)
        .map_init(
            || (Scratch::default(), Vec::new(), Vec::new()),
            |(scratch, hits1, hits2): &mut (Scratch, Vec<Hit>, Vec<Hit>), chunk| {
                let mut records = Vec::with_capacity(chunk.len());
                let mut stats = MapStats::default();
                for item in chunk.chunks(per_item) {
                    find_hits(fm, layout, &item[0].seq, scratch, hits1);
                    stats.count(hits1.len());
                    if !paired {
                        let primary = pairing::choose_single(&item[0].name, hits1, 0);
                        sam::push_records(
                            &item[0],
                            hits1,
                            primary,
                            None,
                            record_options,
                            &mut records,
                        );
                        continue;
                    }
                    find_hits(fm, layout, &item[1].seq, scratch, hits2);
                    stats.count(hits2.len());
                    let (len1, len2) = (item[0].seq.len() as u64, item[1].seq.len() as u64);
                    let choice = pairing::choose_pair(
                        &item[0].name,
                        hits1,
                        len1,
                        hits2,
                        len2,
                        options.max_insert,
                    );
                    stats.proper_pairs += choice.proper as u64;
                    let hit1 = choice.first.map(|i| hits1[i]);
                    let hit2 = choice.second.map(|i| hits2[i]);
                    let mate1 = MateContext {
                        first: true,
                        mate_hit: hit2,
                        mate_len: len2,
                        proper: choice.proper,
                    };
                    let mate2 = MateContext {
                        first: false,
                        mate_hit: hit1,
                        mate_len: len1,
                        proper: choice.proper,
                    };
                    sam::push_records(
                        &item[0],
                        hits1,
                        choice.first,
                        Some(mate1),
                        record_options,
                        &mut records,
                    );
                    sam::push_records(
                        &item[1],
                        hits2,
                        choice.second,
                        Some(mate2),
                        record_options,
                        &mut records,
                    );
                }
                (records, stats)
            },
        )
        .collect();
    let mut stats = MapStats::default();
    let mut records = Vec::with_capacity(batch.len());
    for (part, part_stats) in parts {
        records.extend(part);
        stats.add(&part_stats);
    }
    (records, stats)
}

/// Writes `stats` as JSON to `path` (atomically).
pub fn write_stats(path: &Path, stats: &MapStats) -> anyhow::Result<()> {
    let tmp = crate::index::format::temporary_name(path);
    let mut json = serde_json::to_vec_pretty(stats)?;
    json.push(b'\n');
    std::fs::write(&tmp, json)
        .and_then(|()| std::fs::rename(&tmp, path))
        .with_context(|| format!("cannot write {}", path.display()))
}
