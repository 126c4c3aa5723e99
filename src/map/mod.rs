//! `galign map`: mapping of FASTQ reads to an index, exact or with up to `k` mismatches
//! (`-v K`, bowtie's meaning), as a pipeline of a reader thread, a packing thread (each
//! batch packed for the GPU while the GPU searches the one before), a search thread (on
//! the GPU: search and locate of whole batches), the records (rayon: CPU search where the
//! GPU is not used, placement, pairing, SAM lines or BAM records encoded; two batches at
//! once when the GPU searches), and a writer thread (BAM: BGZF blocks compressed on a
//! pool of its own), which puts the batches back in input order. While the GPU searches
//! batch i+1, the CPU builds the records of batch i and the writer compresses batch i-1.
//! The GPU opens on a thread of its own from the start, while the index loads (`auto`
//! chooses by the index's size before); under `--device auto` the batches read before it
//! is ready are searched on the CPU, one at a time, each as the CPU finishes the one
//! before (`GpuOpening`). Output is in input order and does not
//! depend on device, thread count or batch size, nor on how or from where the reads come:
//! they are read through [`crate::io`] (paths, `-` and pipes; every compression).
//!
//! The searching is [`crate::search`]'s: the GPU searcher, a [`BatchSearcher`], per
//! batch on the search thread; the CPU search inside the records task, fused with
//! building the reads' records: the task's reads searched at once, exact or with
//! mismatches ([`CpuSearcher::search_part`], interleaved so that their cache misses
//! overlap). Whether the GPU is used, and what a GPU
//! error means, is [`DeviceChoice::decide`]'s, for exact search and `-v K` alike (the
//! GPU searcher takes the mirror index when `K > 0`).

pub mod insert_size;
pub mod pairing;
pub mod read_outputs;
pub mod summary;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::atomic_file::AtomicFile;
use crate::device::{DeviceChoice, GpuRequiredError, NOT_USED};
use crate::fm::Bidirectional;
use crate::gpu::map::{GpuSearcher, PackedReads, ReadPacker};
use crate::gpu::GpuError;
use crate::index::devices::{Devices, GpuCount};
use crate::index::{Index, IndexError};
use crate::io::{BatchReader, ReadBatch, ReadRecord, ReadSource, ReadsError};
use crate::progress::{ReadProgress, Reporter};
use crate::sam::{
    self, Encoded, FormatRequest, MateContext, OutputFormat, RecordBuffers, RecordOptions,
    SamWriter,
};
use crate::search::{BatchPositions, BatchSearcher, CpuSearcher, Hit, Placement, Scratch};
use crate::units::with_si_prefix;
use insert_size::{InsertSizes, ProperBounds, Sampler, SAMPLE_PAIRS};
use read_outputs::{ReadOutputError, ReadOutputPaths, ReadOutputs, SortedReads, Wanted};

/// Settings of a mapping run.
#[derive(Clone, Debug)]
pub struct MapOptions {
    /// Reads to map.
    pub source: ReadSource,
    /// Output path; stdout when `None` or `-`.
    pub output: Option<PathBuf>,
    /// The output's format as `-O` asks; `None`: as the output's name says (`.bam`
    /// BAM, else SAM), see [`OutputFormat::resolve`].
    pub output_format: Option<FormatRequest>,
    /// The reads written back by how they mapped (`--un`, `--al`, `--un-conc`,
    /// `--al-conc`), if any.
    pub read_outputs: ReadOutputPaths,
    /// Where the run's summary goes as JSON (`--stats`), if anywhere: created with the
    /// output before the reads are mapped, renamed into place with it at the end.
    pub stats: Option<PathBuf>,
    /// Where the run's summary goes as bowtie2's alignment summary (`--summary-file`,
    /// which MultiQC reads), if anywhere; as `stats`.
    pub summary_file: Option<PathBuf>,
    /// The whole command line as given, for the `--stats` JSON.
    pub full_command_line: Vec<String>,
    /// `-R` read-group line.
    pub read_group: Option<String>,
    /// Alternatives listed in XA.
    pub max_alternatives: usize,
    /// Write every hit (secondaries) instead of XA.
    pub all_hits: bool,
    /// Which pairs are proper, as asked (`--min-insert`, `--max-insert`); `None`: as
    /// estimated from the first pairs of the input ([`insert_size`]).
    pub proper_bounds: Option<ProperBounds>,
    /// Most mismatches of a hit (`-v K`, at most
    /// [`MAX_MISMATCHES`](crate::search::schemes::MAX_MISMATCHES)); 0: exact hits only.
    pub max_mismatches: u8,
    /// Reads (or pairs) per batch.
    pub batch_size: usize,
    /// Threads that compress BAM.
    pub threads: usize,
    /// BAM compression level, zlib-style 0 (stored) to 9 (smallest), as samtools' `-l`
    /// ([`crate::sam::DEFAULT_BAM_LEVEL`] without `-l`).
    pub bam_level: u8,
    /// The command line for `@PG CL`.
    pub command_line: String,
    /// Where the search runs: `auto` uses the GPU when usable and finishes on the CPU
    /// after a GPU error; `gpu` fails instead.
    pub device: DeviceChoice,
}

/// Why reads could not be mapped.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// An output is one of the inputs or the other output.
    #[error(transparent)]
    Output(#[from] crate::atomic_file::OutputError),
    /// The reads could not be written back (`--un`, `--al`, ...).
    #[error(transparent)]
    ReadOutputs(#[from] ReadOutputError),
    /// The output's format is one galign does not write.
    #[error(transparent)]
    OutputFormat(#[from] crate::sam::OutputFormatError),
    /// More mismatches than the search schemes cover.
    #[error("-v {k}: at most {most} mismatches are supported")]
    Mismatches {
        /// The mismatches asked for.
        k: u8,
        /// The most supported.
        most: u8,
    },
    /// The index could not be loaded, or changed while it was read.
    #[error(transparent)]
    Index(#[from] IndexError),
    /// The `-R` line is not a read group.
    #[error(transparent)]
    ReadGroup(#[from] crate::sam::ReadGroupError),
    /// The reads could not be read.
    #[error(transparent)]
    Reads(#[from] ReadsError),
    /// The alignments could not be written.
    #[error(transparent)]
    Write(#[from] crate::sam::WriteError),
    /// The search failed on the GPU under `--device gpu`.
    #[error(transparent)]
    Gpu(#[from] GpuRequiredError),
    /// The `--stats` file could not be written.
    #[error("cannot write {path}")]
    Stats {
        /// The file.
        path: String,
        /// The failure.
        source: std::io::Error,
    },
    /// The summary could not be put into JSON.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A complete output could not be given its name.
    #[error("cannot rename {what} to {path}")]
    Rename {
        /// "output", "reads" or "the stats".
        what: &'static str,
        /// The file.
        path: String,
        /// The failure.
        source: std::io::Error,
    },
}

/// Counts reported at the end of a run (and written by `--stats`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MapStats {
    /// Reads processed (mates counted separately).
    pub reads: u64,
    /// Reads with at least one hit.
    pub mapped: u64,
    /// Reads with exactly one hit in their best stratum (the fewest mismatches).
    pub unique: u64,
    /// Reads with two or more hits in their best stratum.
    pub multi: u64,
    /// Reads with no hit.
    pub unmapped: u64,
    /// Pairs marked proper.
    pub proper_pairs: u64,
    /// Wall time of the run in seconds.
    pub seconds: f64,
    /// Reads per second.
    pub reads_per_second: f64,
    /// Pairs in bowtie2's classes (`--summary-file`); none for single-end reads.
    pub pair_counts: summary::PairCounts,
    /// galign's version.
    pub version: String,
    /// The command line as given.
    pub command_line: Vec<String>,
    /// The reads' inputs as given (`-` for stdin).
    pub inputs: Vec<String>,
    /// The index file.
    pub index: String,
    /// Whether the reads were mapped as pairs.
    pub paired: bool,
    /// Worker threads.
    pub threads: usize,
    /// Where the reads were searched: `cpu`, `gpu`, or `gpu+cpu` (part on each: the
    /// CPU while the GPU opened, or after a GPU error).
    pub device: String,
    /// The GPU that searched, if any.
    pub gpu: Option<String>,
    /// Reads searched on the GPU.
    pub gpu_reads: u64,
    /// What was said about the device: why the CPU was chosen, a GPU not usable, a GPU
    /// error and the fallback to the CPU.
    pub device_notes: Vec<String>,
    /// Wall seconds of the run's parts.
    pub timings: Timings,
    /// Paired-end runs: the insert sizes estimated and the bounds of proper pairs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub insert_size: Option<InsertSizes>,
}

/// Wall seconds of a run's parts, and each pipeline stage's busy seconds (waits on the
/// other stages excluded; the stages run at once).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Timings {
    /// Loading (mapping and checking) the index.
    pub load_index: f64,
    /// From the index loaded to the outputs written.
    pub mapping: f64,
    /// The whole run.
    pub total: f64,
    /// The reader thread's busy seconds.
    pub read_busy: f64,
    /// The packing thread's (reads packed for the GPU).
    pub pack_busy: f64,
    /// The search thread's (the GPU's search).
    pub search_busy: f64,
    /// The records threads' (CPU search, placement, records), summed.
    pub records_busy: f64,
    /// The writer thread's.
    pub write_busy: f64,
}

impl MapStats {
    /// Counts a read whose hits are `hits` (sorted, best stratum first).
    fn count(&mut self, hits: &[Hit]) {
        self.reads += 1;
        match pairing::best_stratum(hits) {
            0 => self.unmapped += 1,
            1 => self.unique += 1,
            _ => self.multi += 1,
        }
        if !hits.is_empty() {
            self.mapped += 1;
        }
    }

    /// The run's summary, as `galign map` says it on stderr: the insert sizes' lines
    /// (paired-end runs), then the counts (`paired`: with the proper pairs).
    pub fn summary_lines(&self, paired: bool) -> Vec<String> {
        let mut lines = self
            .insert_size
            .as_ref()
            .map(InsertSizes::summary)
            .unwrap_or_default();
        lines.push(self.summary(paired));
        lines
    }

    /// The run's summary line of counts (`paired`: with the proper pairs).
    pub fn summary(&self, paired: bool) -> String {
        let percent = |x: u64| 100.0 * x as f64 / self.reads.max(1) as f64;
        format!(
            "{} reads: {} mapped ({:.1}%), {} unique, {} multi, {} unmapped{}; {:.2} s, {:.0} reads/s",
            self.reads,
            self.mapped,
            percent(self.mapped),
            self.unique,
            self.multi,
            self.unmapped,
            if paired { format!(", {} proper pairs", self.proper_pairs) } else { String::new() },
            self.seconds,
            self.reads_per_second
        )
    }

    fn add(&mut self, other: &MapStats) {
        self.pair_counts.add(&other.pair_counts);
        self.reads += other.reads;
        self.mapped += other.mapped;
        self.unique += other.unique;
        self.multi += other.multi;
        self.unmapped += other.unmapped;
        self.proper_pairs += other.proper_pairs;
    }
}

/// Reads in flight between stages, in batches.
const CHANNEL_DEPTH: usize = 4;
/// Reads (or pairs) per rayon task.
const TASK_SIZE: usize = 256;

/// Batches whose records are built at once, each by a thread of its own on the shared
/// rayon pool: while one batch's last tasks finish and its records go out, the other's
/// keep the cores busy. Batches searched on the CPU go one at a time
/// ([`CpuTurns`]). H200 hosts, HG002 x1000 (21.2 M reads) against chr20
/// and 3 Gbp of random DNA, `-a`, four rounds alternating each: GPU path 2.106-2.525 s
/// against 2.275-2.824 s with one batch (r160), 2.091-2.190 against 2.127-2.238 s
/// (r163); CPU path with two CPU batches at once 3.898-4.616 s against 3.610-4.026 s
/// (r160; system time 2.7-3.4 -> 5.4-6.5 s), one at a time as before (r163).
const RECORDS_IN_FLIGHT: usize = 2;

/// Maps the reads of `options.source` to the index at `prefix`.
pub fn map_reads(
    prefix: &Path,
    options: &MapOptions,
    log: &Reporter,
) -> Result<MapStats, MapError> {
    let start = Instant::now();
    let prefix = &crate::index::resolve_prefix(prefix);
    let output = OutputFormat::resolve(options.output.as_deref(), options.output_format)?;
    ensure_distinct_files(prefix, options)?;
    let device = search_device(options)?;
    // `auto` chooses by the index's size (and the reads') before the index loads (its metadata read
    // unverified), so that a GPU to be tried opens while it loads: a context takes
    // ~0.2 s, verifying a human-scale index as long.
    let text_len = Index::peek_text_len(prefix);
    let reads_size = options.source.estimated_size();
    let threads = rayon::current_num_threads();
    let (device, cpu_note) = auto_device(
        device,
        options.max_mismatches,
        (text_len, reads_size),
        threads,
    );
    let devices = Devices::start(device, GpuCount::First(1));
    let index = log.step("load index", || Index::open(prefix))?;
    let load_index = start.elapsed().as_secs_f64();
    let read_group = options
        .read_group
        .as_deref()
        .map(sam::parse_read_group)
        .transpose()?;
    let header = sam::build_header(index.layout(), read_group.as_ref(), &options.command_line);
    // The progress line counts the input's bytes from here.
    let progress = log.read_progress(input_bytes(&options.source), crate::io::consumed::consumed);
    let threads_for_gzip = gzip_threads(output, options.bam_level);
    let mut reader = BatchReader::open(&options.source, threads_for_gzip)?;
    let writer = SamWriter::create(
        (options.output.as_deref(), output),
        &header,
        (options.threads, options.bam_level),
    )?;
    let paired = reader.is_paired();
    let level = (options.threads, options.bam_level);
    let read_outputs = ReadOutputs::open(&options.read_outputs, paired, level)?;
    let reports = Reports::open(options)?;
    let device_record = DeviceRecord::default();
    // Said once the inputs and outputs are open: an input error comes first, alone.
    if let Some(note) = cpu_note {
        log.info(&note);
        device_record.note(&note);
    }
    if let Some(note) = reader.pairs_read_single() {
        eprintln!("galign: warning: {note}");
    }

    let fm = index.fm();
    let bidirectional = index.bidirectional();
    let placement = Placement {
        layout: index.layout(),
        text: fm.text,
        max_mismatches: options.max_mismatches,
    };
    let (prefix_batches, proper_bounds, insert_size) = match (paired, options.proper_bounds) {
        (false, _) => (Vec::new(), ProperBounds::fixed(None, None), None),
        (true, Some(bounds)) => (Vec::new(), bounds, Some(InsertSizes::from_options(bounds))),
        (true, None) => {
            let searcher = CpuSearcher::new(&bidirectional, options.max_mismatches);
            let (batches, bounds, report) = log.step("estimate insert sizes", || {
                sample_inserts(&mut reader, options.batch_size, &searcher, &placement)
            })?;
            (batches, bounds, Some(report))
        }
    };
    let record_options = RecordOptions {
        layout: index.layout(),
        text: fm.text,
        read_group: read_group.as_ref().map(|rg| rg.id.as_str()),
        max_alternatives: options.max_alternatives,
        all_hits: options.all_hits,
    };
    let text = writer.wants_text();
    let aligner = BatchAligner {
        buffers: writer.buffers(),
        index: &bidirectional,
        placement: &placement,
        paired,
        proper_bounds,
        text,
        record_options: &record_options,
        cpu_turns: CpuTurns::default(),
        wanted: read_outputs.wanted(),
        progress: &progress,
    };
    let mut stats = MapStats {
        insert_size,
        ..MapStats::default()
    };
    // `searching` tells the GPU's opener whether the index is still worth uploading.
    let searching = AtomicBool::new(true);
    let files = std::thread::scope(|scope| -> Result<OutputFiles, MapError> {
        let (batch_tx, batch_rx) = crossbeam_channel::bounded(CHANNEL_DEPTH);
        let (hits_tx, hits_rx) = crossbeam_channel::bounded(CHANNEL_DEPTH);
        let (out_tx, out_rx) = crossbeam_channel::bounded(CHANNEL_DEPTH);
        // Used batches go back to the reader, which refills their buffers.
        let (spare_tx, spare_rx) = crossbeam_channel::bounded::<ReadBatch>(CHANNEL_DEPTH);
        let batch_size = options.batch_size;
        // Each stage's busy seconds (waits on the channels excluded), shown with -v.
        let reader_thread = scope.spawn(move || {
            let mut busy = 0.0;
            // The pairs read ahead for the insert sizes come first.
            for batch in prefix_batches {
                let done = batch.is_empty();
                if batch_tx.send(Ok(batch)).is_err() || done {
                    return busy;
                }
            }
            loop {
                let start = Instant::now();
                let mut batch = spare_rx.try_recv().unwrap_or_default();
                let batch = reader.fill_batch(batch_size, &mut batch).map(|()| batch);
                busy += start.elapsed().as_secs_f64();
                let done = matches!(&batch, Ok(b) if b.is_empty()) || batch.is_err();
                if batch_tx.send(batch).is_err() || done {
                    return busy;
                }
            }
        });
        let (index_ref, flag, turns) = (&bidirectional, &searching, &aligner.cpu_turns);
        let record = &device_record;
        let k = options.max_mismatches;
        // Batches are packed for the GPU on a thread of their own, ahead of the search.
        let (packed_tx, packed_rx) = crossbeam_channel::bounded(CHANNEL_DEPTH);
        // The search thread gives the packed words' buffers back.
        let (words_tx, words_rx) = crossbeam_channel::bounded(CHANNEL_DEPTH);
        let packer = (device != DeviceChoice::Cpu).then(|| ReadPacker::new(fm.text.len(), k));
        let packer_thread =
            scope.spawn(move || pack_stage(packer, batch_rx, (packed_tx, words_rx)));
        // The search thread owns the devices. The GPU opens and takes the index on a
        // thread of its own (a CUDA context takes ~0.3 s, a human-scale index ~0.1 s
        // more), and closes in the background (~0.07 s) once the search is over, while
        // the records stage and the writer finish.
        let search_thread = scope.spawn(move || {
            let busy = std::thread::scope(|opener| {
                let (gpu_tx, gpu_rx) = crossbeam_channel::bounded(1);
                let devices = &devices;
                opener.spawn(move || {
                    // Fails only when the search has ended; the searcher is then dropped.
                    let _ = gpu_tx.send(open_searcher(devices, index_ref, k, flag, (log, record)));
                });
                let opening = GpuOpening::new(gpu_rx, devices, turns);
                let busy = search_stage(opening, packed_rx, (hits_tx, words_tx), (log, record));
                flag.store(false, Ordering::Relaxed);
                busy
            });
            (busy, devices.close_in_background())
        });
        let writer_thread = scope.spawn(move || write_stage((writer, read_outputs), out_rx));
        let records_threads: Vec<_> = (0..RECORDS_IN_FLIGHT)
            .map(|_| {
                let (aligner, batches) = (&aligner, hits_rx.clone());
                let (spare, out) = (spare_tx.clone(), out_tx.clone());
                scope.spawn(move || aligner.records_stage(batches, spare, out))
            })
            .collect();
        drop((hits_rx, spare_tx, out_tx));
        let mut failure = None;
        let mut records_busy = 0.0;
        for thread in records_threads {
            let (thread_stats, busy, error) = thread.join().expect("records thread does not panic");
            stats.add(&thread_stats);
            records_busy += busy;
            failure = failure.or(error);
        }
        let ((search_busy, gpu_reads), closing) =
            search_thread.join().expect("search thread does not panic");
        stats.gpu_reads = gpu_reads;
        let pack_busy = packer_thread.join().expect("packer thread does not panic");
        let read_busy = reader_thread.join().expect("reader thread does not panic");
        let ((writer, read_outputs), write_busy) = writer_thread
            .join()
            .expect("writer thread does not panic")?;
        if log.verbose() {
            log.info(&format!(
                "busy seconds per stage: read {read_busy:.3}, pack {pack_busy:.3}, search \
                 thread {search_busy:.3}, records {records_busy:.3}, write {write_busy:.3}"
            ));
        }
        stats.timings = Timings {
            read_busy,
            pack_busy,
            search_busy,
            records_busy,
            write_busy,
            ..Timings::default()
        };
        let written = match failure {
            Some(e) => Err(e), // dropping the writers removes their temporary files
            None => close_outputs(writer, read_outputs),
        };
        closing.join().expect("closing the GPU does not panic");
        written
    })?;
    progress.finish();
    stats.seconds = start.elapsed().as_secs_f64();
    stats.reads_per_second = stats.reads as f64 / stats.seconds.max(1e-9);
    stats.timings.load_index = load_index;
    stats.timings.mapping = stats.seconds - load_index;
    stats.timings.total = stats.seconds;
    describe_run(&mut stats, (prefix, paired), options, device_record);
    commit_outputs(&index, files, reports, &stats)?;
    Ok(stats)
}

/// The size of the input files in all (compressed bytes where compressed), for the
/// progress line's share; `None` where one is a stream.
fn input_bytes(source: &ReadSource) -> Option<u64> {
    let size = |path: &Path| {
        let metadata = std::fs::metadata(path)
            .ok()
            .filter(|_| path.as_os_str() != "-");
        metadata.filter(|m| m.is_file()).map(|m| m.len())
    };
    match source {
        ReadSource::Single(path) | ReadSource::Interleaved(path) => size(path),
        ReadSource::Paired(first, second) => Some(size(first)? + size(second)?),
    }
}

/// Reads the first [`SAMPLE_PAIRS`] pairs from `reader` (in batches of at most
/// `batch_size` pairs, an empty one last where the input ended), searches them on the
/// CPU with `searcher` and `placement` (the GPU finds the same hits), and estimates the
/// insert sizes from them. Returns the batches (to be mapped first), the bounds of
/// proper pairs and the report.
fn sample_inserts(
    reader: &mut BatchReader,
    batch_size: usize,
    searcher: &CpuSearcher,
    placement: &Placement,
) -> Result<(Vec<ReadBatch>, ProperBounds, InsertSizes), MapError> {
    let (mut batches, mut pairs) = (Vec::new(), 0);
    let mut sampler = Sampler::default();
    while pairs < SAMPLE_PAIRS {
        let mut batch = ReadBatch::default();
        reader.fill_batch(batch_size.min(SAMPLE_PAIRS - pairs), &mut batch)?;
        pairs += batch.len() / 2;
        let task = 2 * TASK_SIZE;
        let samplers: Vec<Sampler> = (0..batch.len().div_ceil(task))
            .into_par_iter()
            .map_init(TaskScratch::default, |scratch, c| {
                let reads = batch.records_in(c * task..((c + 1) * task).min(batch.len()));
                let positions = searcher.search_part(&reads, &mut scratch.search);
                let mut part = Sampler::default();
                for i in (0..reads.len()).step_by(2) {
                    let (seq1, seq2) = (reads[i].seq, reads[i + 1].seq);
                    positions.hits(placement, i, seq1, &mut scratch.search, &mut scratch.hits1);
                    positions.hits(
                        placement,
                        i + 1,
                        seq2,
                        &mut scratch.search,
                        &mut scratch.hits2,
                    );
                    let (len1, len2) = (seq1.len() as u64, seq2.len() as u64);
                    part.add((&scratch.hits1, len1), (&scratch.hits2, len2));
                }
                part
            })
            .collect();
        samplers.into_iter().for_each(|part| sampler.merge(part));
        let end = batch.is_empty();
        batches.push(batch);
        if end {
            break;
        }
    }
    let (bounds, report) = sampler.finish();
    Ok((batches, bounds, report))
}

/// The run's output files, complete under their temporary names: the alignments (none
/// on stdout), then the reads written back.
type OutputFiles = (Option<AtomicFile>, Vec<AtomicFile>);

/// Flushes and closes the alignments' writer and the read outputs.
fn close_outputs(writer: SamWriter, read_outputs: ReadOutputs) -> Result<OutputFiles, MapError> {
    let sam_file = writer.close()?;
    Ok((sam_file, read_outputs.close()?))
}

/// Refuses a run whose output or `--stats` file is one of its inputs (reads, index) or
/// the other output.
fn ensure_distinct_files(prefix: &Path, options: &MapOptions) -> Result<(), MapError> {
    let index = crate::index::index_path(prefix);
    let mut inputs = vec![("the index", index.as_path())];
    match &options.source {
        ReadSource::Single(reads) | ReadSource::Interleaved(reads) => {
            inputs.push(("the reads", reads.as_path()))
        }
        ReadSource::Paired(first, second) => {
            inputs.push(("the mate 1 reads", first.as_path()));
            inputs.push(("the mate 2 reads", second.as_path()));
        }
    }
    let read_outputs = read_outputs::output_paths(&options.read_outputs);
    let outputs: Vec<(&str, &Path)> = [
        ("the output", &options.output),
        ("the --stats file", &options.stats),
        ("the --summary-file", &options.summary_file),
    ]
    .into_iter()
    .chain(read_outputs.iter().map(|path| ("a read output", path)))
    .filter_map(|(role, path)| path.as_deref().map(|path| (role, path)))
    .collect();
    Ok(crate::atomic_file::ensure_distinct(&inputs, &outputs)?)
}

/// The run's reports, opened with the outputs before the reads are mapped (an
/// unwritable one fails the run at once): the `--stats` JSON and the `--summary-file`.
struct Reports {
    stats: Option<(AtomicFile, std::fs::File)>,
    summary: Option<(AtomicFile, std::fs::File)>,
}

impl Reports {
    /// Creates the reports `options` asks for under temporary names.
    fn open(options: &MapOptions) -> Result<Reports, MapError> {
        let open = |path: &Option<PathBuf>| match path {
            Some(path) => AtomicFile::open(path)
                .map(Some)
                .map_err(|source| MapError::Stats {
                    path: path.display().to_string(),
                    source,
                }),
            None => Ok(None),
        };
        Ok(Reports {
            stats: open(&options.stats)?,
            summary: open(&options.summary_file)?,
        })
    }

    /// Writes the reports of `stats` (still under their temporary names).
    fn write(self, stats: &MapStats) -> Result<Vec<AtomicFile>, MapError> {
        let mut written = Vec::new();
        for (report, bytes) in [
            (self.stats, json(stats)?),
            (
                self.summary,
                summary::bowtie2_summary(stats, stats.paired).into_bytes(),
            ),
        ] {
            let Some((file, mut out)) = report else {
                continue;
            };
            let path = file.path().display().to_string();
            std::io::Write::write_all(&mut out, &bytes)
                .and_then(|()| file.sync(&out))
                .map_err(|source| MapError::Stats { path, source })?;
            written.push(file);
        }
        Ok(written)
    }
}

/// `stats` as pretty JSON, with a final newline.
fn json(stats: &MapStats) -> Result<Vec<u8>, MapError> {
    let mut json = serde_json::to_vec_pretty(stats)?;
    json.push(b'\n');
    Ok(json)
}

/// Fills in what `stats` says of the run besides its counts: version, command line,
/// inputs, index, pairing, threads and device.
fn describe_run(
    stats: &mut MapStats,
    (prefix, paired): (&Path, bool),
    options: &MapOptions,
    device: DeviceRecord,
) {
    stats.version = env!("CARGO_PKG_VERSION").to_string();
    stats.command_line = options.full_command_line.clone();
    stats.inputs = match &options.source {
        ReadSource::Single(p) | ReadSource::Interleaved(p) => vec![p.display().to_string()],
        ReadSource::Paired(p1, p2) => vec![p1.display().to_string(), p2.display().to_string()],
    };
    stats.index = crate::index::index_path(prefix).display().to_string();
    stats.paired = paired;
    stats.threads = rayon::current_num_threads();
    stats.device = match stats.gpu_reads {
        0 => "cpu",
        n if n == stats.reads => "gpu",
        _ => "gpu+cpu",
    }
    .to_string();
    stats.gpu = device.gpu.into_inner().expect("not poisoned");
    stats.device_notes = device.notes.into_inner().expect("not poisoned");
}

/// What the run said about its device, kept for the `--stats` JSON.
#[derive(Default)]
struct DeviceRecord {
    notes: Mutex<Vec<String>>,
    gpu: Mutex<Option<String>>,
}

impl DeviceRecord {
    /// Keeps a message about the device.
    fn note(&self, message: &str) {
        self.notes
            .lock()
            .expect("not poisoned")
            .push(message.to_string());
    }
}

/// Gives the run's outputs their final names once the mapping is done: first the index
/// is checked unchanged (nothing is committed when another program wrote it in place
/// meanwhile), and the reports written; then the alignments, the reads written back,
/// then the reports, are renamed into place.
fn commit_outputs(
    index: &Index,
    (sam_file, read_files): OutputFiles,
    reports: Reports,
    stats: &MapStats,
) -> Result<(), MapError> {
    index.ensure_unchanged()?;
    let report_files = reports.write(stats)?;
    let named = |what| move |file: AtomicFile| (what, file);
    let files = sam_file
        .into_iter()
        .map(named("output"))
        .chain(read_files.into_iter().map(named("reads")))
        .chain(report_files.into_iter().map(named("the stats")));
    for (what, file) in files {
        let path = file.path().display().to_string();
        file.commit()
            .map_err(|source| MapError::Rename { what, path, source })?;
    }
    Ok(())
}

/// Where the search of this run may go: `options.device`; more mismatches than the
/// search schemes cover are an error.
fn search_device(options: &MapOptions) -> Result<DeviceChoice, MapError> {
    let k = options.max_mismatches;
    let most = crate::search::schemes::MAX_MISMATCHES;
    match k <= most {
        true => Ok(options.device),
        false => Err(MapError::Mismatches { k, most }),
    }
}

/// Threads a gzip reads file may be inflated on: the pool's when the output is SAM or
/// BAM at level 1 or less; one (ISA-L) for BAM at higher levels, whose compression keeps
/// the cores busy (H200, 16 threads, gzip -6 FASTQ of 2.12 M reads: to SAM 0.81-0.91 s in
/// parallel against 1.09-1.37 s on one thread, to BAM at level 6 2.08-2.23 s against
/// 1.82-1.87 s; at level 1, three rounds, 1.39 / 1.44 / 1.49 s against 1.34 / 1.59 /
/// 1.62 s, and 1.05-1.23 against 1.16-1.40 s for 2.35 M reads of 100 bp).
fn gzip_threads(output: OutputFormat, bam_level: u8) -> usize {
    match output {
        OutputFormat::Bam if bam_level > 1 => 1,
        OutputFormat::Sam | OutputFormat::Bam => rayon::current_num_threads(),
    }
}

/// Text length from which `auto` searches exactly (`-v 0`) on the GPU with fewer reads
/// than [`AUTO_EXACT_ON_GPU_READS_FROM`]: with [`AUTO_LARGE_INDEX_GPU_READS_PER_THREAD`]
/// bytes of reads a worker thread or more, or reads of unknown size. Below it the CPU's
/// exact search (interleaved, the index largely in cache) is faster end to end on real
/// reads unless they are many; for every mismatch search the GPU is (BENCHMARKS.md,
/// session 14, H200, 16 cores, HG002 148 bp x100, `-a`: against chr20 CPU 0.55 s, GPU
/// 0.61 s; `-v 1` against chr20 + 3 Gbp CPU 1.52-1.58 s, GPU 0.87-0.89 s).
const AUTO_EXACT_ON_GPU_FROM: u64 = 1_000_000_000;

/// Bytes of reads a worker thread from which `auto` searches exactly on the GPU against
/// an index of [`AUTO_EXACT_ON_GPU_FROM`] bases or more. The GPU costs some 0.28 s more a
/// run (the driver's start and teardown) and then maps faster; the CPU's share scales
/// with the threads. H200 host, 16 threads, chr20 + 3 Gbp of random DNA, HG002 148 bp,
/// `-a`, SAM, medians of three (BENCHMARKS.md, session 39, r2 and r3): 0.73 GB CPU 0.59 s,
/// GPU 0.76; 1.09 GB 0.68 / 0.67; 1.46 GB 0.83 / 0.68; 2.19 GB 1.26 / 0.98: the lines
/// cross near 1.1 GB, 70 MB a thread (90 MB before the context's start fell in session
/// 38); session 14, x100 with 4 and 8 threads (0.73 GB, 180 and 90 MB a thread): GPU
/// 1.41-1.48 and 0.96-0.98 s, CPU 2.06-2.20 and 1.28-1.30 s.
const AUTO_LARGE_INDEX_GPU_READS_PER_THREAD: u64 = 70_000_000;

/// Reads (their decompressed bytes, as estimated from the files) from which `auto`
/// searches exactly on the GPU whatever the index's size. The GPU costs some 0.28 s more
/// a run (the driver's start and teardown) and then maps faster (BENCHMARKS.md, session
/// 39, r2 and r3, H200, 16 cores, `-a`, SAM, medians of three): HG002 148 bp reads
/// against chr20, 0.73 GB CPU 0.46 s, GPU 0.52; 1.09 GB 0.50 / 0.51; 1.46 GB 0.67 /
/// 0.58: the lines cross near 1.1 GB; NA12878 101 bp reads against chrM, where the
/// CPU's search runs from cache, 1.48 GB 0.65 / 0.64, 2.23 GB 0.92 / 0.80: near 1.45 GB.
/// At 1.2 GB either choice is within ~6% of the faster (1.5 GB before session 38's
/// faster context). Streams (sizes unknown) stay on the CPU.
const AUTO_EXACT_ON_GPU_READS_FROM: u64 = 1_200_000_000;

/// Where `auto` searches, for an index of `text_len` bases (`None`: unknown) and reads of
/// `reads_size` bytes (`None`: unknown) on `threads` worker threads: the CPU for an
/// exact search with reads under [`AUTO_EXACT_ON_GPU_READS_FROM`] bytes where the index
/// is under [`AUTO_EXACT_ON_GPU_FROM`] bases, or the index larger and the reads known
/// and under [`AUTO_LARGE_INDEX_GPU_READS_PER_THREAD`] a thread, with the line that
/// says so; else `device` as chosen, and no line.
fn auto_device(
    device: DeviceChoice,
    k: u8,
    (text_len, reads_size): (Option<u64>, Option<u64>),
    threads: usize,
) -> (DeviceChoice, Option<String>) {
    let Some(text_len) = text_len else {
        return (device, None);
    };
    let large_index = text_len >= AUTO_EXACT_ON_GPU_FROM;
    let reads_for_gpu = match large_index {
        true => AUTO_LARGE_INDEX_GPU_READS_PER_THREAD.saturating_mul(threads as u64),
        false => AUTO_EXACT_ON_GPU_READS_FROM,
    };
    // A stream's size is unknown: small indexes keep it on the CPU, large ones on the GPU.
    let many_reads = reads_size.map_or(large_index, |size| size >= reads_for_gpu);
    if device != DeviceChoice::Auto || k > 0 || many_reads {
        return (device, None);
    }
    (
        DeviceChoice::Cpu,
        Some(cpu_note(text_len, reads_size, reads_for_gpu, threads)),
    )
}

/// The line that says `auto` maps on the CPU: an exact search of reads of `reads_size`
/// bytes (`None`: a stream) against an index of `text_len` bases, under
/// `reads_for_gpu` bytes on `threads` threads.
fn cpu_note(text_len: u64, reads_size: Option<u64>, reads_for_gpu: u64, threads: usize) -> String {
    let reads = match reads_size {
        Some(bytes) => format!("~{} of reads", with_si_prefix(bytes, "B")),
        None => "streamed reads".to_string(),
    };
    let threads = match threads {
        1 => "1 thread".to_string(),
        n => format!("{n} threads"),
    };
    format!(
        "mapping on the CPU: exact search, {} index, {reads} (the GPU pays off from {} on \
         {threads}; --device gpu insists)",
        with_si_prefix(text_len, "bp"),
        with_si_prefix(reads_for_gpu, "B"),
    )
}

/// How `map` says that it goes on without the GPU from the start.
const ON_CPU: &str = "mapping on the CPU";

/// The first of `devices` (opened on a thread from the start of the run) with the index
/// uploaded to it (the mirror too when `k > 0`: the k-mismatch search), unless the run
/// is on the CPU; under `auto`, `None` (with a message) when either fails. The upload
/// is skipped once `searching` is false (the input was over before the GPU was ready).
fn open_searcher<'g>(
    devices: &'g Devices,
    index: &Bidirectional<'_>,
    k: u8,
    searching: &AtomicBool,
    (log, record): (&Reporter, &DeviceRecord),
) -> Result<Option<GpuSearcher<'g>>, GpuRequiredError> {
    let device = devices.choice();
    let say = |m: &str| {
        log.info(m);
        record.note(m);
    };
    let opened = device
        .decide(|| devices.first(log))
        .resolve(NOT_USED, ON_CPU, say)?;
    let Some(gpu) = opened else {
        return Ok(None);
    };
    if !searching.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let searcher = device
        .decide(|| {
            log.step("index to the GPU", || {
                GpuSearcher::with_mismatches(gpu, index, k)
            })
        })
        .resolve(NOT_USED, ON_CPU, say)?;
    if searcher.is_some() {
        log.info(&format!("searching on the GPU: {}", gpu.describe()));
        *record.gpu.lock().expect("not poisoned") = Some(gpu.describe());
    }
    Ok(searcher)
}

/// A batch as read, and packed for the GPU when it may be searched there.
type PackedBatch = (Result<ReadBatch, ReadsError>, Option<PackedReads>);

/// The packing thread: passes batches on through `out`, each packed by `packer` (when
/// the GPU may search, into a buffer from `spare_words` where there is one) while the
/// search thread works on the one before. Returns its busy seconds.
fn pack_stage(
    packer: Option<ReadPacker>,
    batches: crossbeam_channel::Receiver<Result<ReadBatch, ReadsError>>,
    (out, spare_words): (
        crossbeam_channel::Sender<PackedBatch>,
        crossbeam_channel::Receiver<Vec<u32>>,
    ),
) -> f64 {
    let mut busy = 0.0;
    for batch in batches {
        let start = Instant::now();
        let packed = match (&batch, packer) {
            (Ok(reads), Some(packer)) if !reads.is_empty() => {
                packer.pack(reads, spare_words.try_recv().unwrap_or_default())
            }
            _ => None,
        };
        busy += start.elapsed().as_secs_f64();
        let last = !matches!(&batch, Ok(b) if !b.is_empty());
        if out.send((batch, packed)).is_err() || last {
            break;
        }
    }
    busy
}

/// A batch with its GPU search results (`None`: search it on the CPU), numbered in
/// input order.
type SearchedBatch = (usize, Result<(ReadBatch, Option<BatchPositions>), MapError>);

/// Batches the CPU searches at once while the GPU opens (under `auto`): one, the next
/// passed on as the records stage finishes it, so that the GPU, once open, waits for
/// one CPU batch at most (131,072 reads take the CPU ~18 ms exact at human scale on 16
/// cores). Passing on every batch read before the GPU was ready held the rest up: the
/// reader is ahead of the CPU's search (H200 host, HG002 x100 against chr20 + 3 Gbp,
/// `-v 1`: `auto` 2.27-2.31 s against `gpu` 1.59-1.68 s). Human scale, HG002 x1000
/// (BENCHMARKS.md, session 35, H200 hosts, medians): 5-7 batches go to the CPU, `auto`
/// 1.794 / 1.583 s against `gpu` 1.801 / 1.605 s: a little, the CPU's share of ~0.13 s.
const CPU_BATCHES_WHILE_GPU_OPENS: usize = 1;

/// The GPU searcher while it opens, as the search thread sees it: under `gpu` (or with
/// `GALIGN_GPU_WAIT` set) the first batch waits for it; under `auto` batches go to the
/// CPU, [`CPU_BATCHES_WHILE_GPU_OPENS`] at a time, until the GPU has opened. While the
/// index goes up to it they wait: the upload copies the mapped index on every core at
/// the memory's pace, and CPU batches beside it slowed it ten times (H200 host, human
/// scale: 0.08 s alone, 1.07 s beside them).
struct GpuOpening<'d, 'g> {
    devices: &'d Devices,
    opening: crossbeam_channel::Receiver<Result<Option<GpuSearcher<'g>>, GpuRequiredError>>,
    /// Under `auto`, where the records stage says each CPU batch done; `None`: wait.
    cpu_done: Option<crossbeam_channel::Receiver<()>>,
    /// Batches passed on to the CPU and not yet said done.
    on_cpu: usize,
}

impl<'d, 'g> GpuOpening<'d, 'g> {
    /// The searcher that `opening` will give, on `devices`; `turns` says when the CPU
    /// has finished a batch.
    fn new(
        opening: crossbeam_channel::Receiver<Result<Option<GpuSearcher<'g>>, GpuRequiredError>>,
        devices: &'d Devices,
        turns: &CpuTurns,
    ) -> Self {
        // GALIGN_GPU_WAIT: `auto` waits from the first batch too (to test its error path).
        let wait =
            devices.choice() == DeviceChoice::Gpu || std::env::var_os("GALIGN_GPU_WAIT").is_some();
        GpuOpening {
            devices,
            opening,
            cpu_done: (!wait).then(|| turns.done.1.clone()),
            on_cpu: 0,
        }
    }

    /// Where the search runs (what a GPU error means).
    fn device(&self) -> DeviceChoice {
        self.devices.choice()
    }

    /// For the next batch: the GPU searcher once it is ready (`None` inside: not used; a
    /// channel closed counts as such), or `None`: search the batch on the CPU. Waits
    /// for whichever comes first, the GPU or the CPU's batch, when the CPU has its
    /// share; for the searcher once the GPU has opened.
    fn next(&mut self) -> Option<Result<Option<GpuSearcher<'g>>, GpuRequiredError>> {
        let searcher = |opened: Result<_, _>| Some(opened.unwrap_or(Ok(None)));
        let Some(done) = &self.cpu_done else {
            return searcher(self.opening.recv());
        };
        loop {
            self.on_cpu = self.on_cpu.saturating_sub(done.try_iter().count());
            if self.devices.is_open() {
                return searcher(self.opening.recv());
            }
            if self.on_cpu < CPU_BATCHES_WHILE_GPU_OPENS {
                if let Ok(opened) = self.opening.try_recv() {
                    return Some(opened);
                }
                self.on_cpu += 1;
                return None;
            }
            crossbeam_channel::select! {
                recv(self.opening) -> opened => return searcher(opened),
                recv(done) -> _ => self.on_cpu = self.on_cpu.saturating_sub(1),
            }
        }
    }
}

/// Batches searched on the CPU go one at a time (their tasks search, and fill the cores
/// alone; two at once were slower, see [`RECORDS_IN_FLIGHT`]), each said done to the
/// search thread ([`GpuOpening`]).
struct CpuTurns {
    one_at_a_time: std::sync::Mutex<()>,
    done: (
        crossbeam_channel::Sender<()>,
        crossbeam_channel::Receiver<()>,
    ),
}

impl Default for CpuTurns {
    fn default() -> Self {
        CpuTurns {
            one_at_a_time: std::sync::Mutex::new(()),
            done: crossbeam_channel::unbounded(),
        }
    }
}

/// The search thread: passes batches on through `out` with their GPU results, if any
/// (the buffers of their packed reads back to the packer through `spare_words`). The
/// GPU searcher comes from `opening`; until it is ready, batches are passed on without
/// results (searched on the CPU) as [`GpuOpening`] says. After a GPU error the rest goes
/// to the CPU (with one message), or, under `gpu`, the run fails. An empty batch (end
/// of input) or an error is the last item sent. Returns its busy seconds and the reads it searched on the GPU.
fn search_stage(
    mut opening: GpuOpening<'_, '_>,
    batches: crossbeam_channel::Receiver<PackedBatch>,
    (out, spare_words): (
        crossbeam_channel::Sender<SearchedBatch>,
        crossbeam_channel::Sender<Vec<u32>>,
    ),
    (log, record): (&Reporter, &DeviceRecord),
) -> (f64, u64) {
    let mut searcher = None;
    let mut opened = false;
    let (mut reads, mut stage_seconds) = (0u64, 0.0);
    let mut cpu_batches = 0; // while the GPU opened
    for (seen, (batch, packed)) in batches.into_iter().enumerate() {
        let start = Instant::now();
        if !opened {
            if let Some(result) = opening.next() {
                opened = true;
                match result {
                    Ok(s) => searcher = s,
                    Err(e) => {
                        let _ = out.send((seen, Err(e.into())));
                        break;
                    }
                }
            }
        }
        let item = match batch {
            Ok(batch) if batch.is_empty() => Ok((batch, None)),
            Ok(batch) => match searcher.as_mut() {
                None => {
                    cpu_batches += usize::from(!opened);
                    Ok((batch, None))
                }
                Some(s) => match opening
                    .device()
                    .decide(|| search(s, &batch, packed))
                    .resolve("GPU error", "mapping the rest on the CPU", |m| {
                        log.info(m);
                        record.note(m);
                    }) {
                    Ok(Some(positions)) => {
                        reads += batch.len() as u64;
                        let _ = spare_words.try_send(s.take_words());
                        Ok((batch, Some(positions)))
                    }
                    Ok(None) => {
                        searcher = None;
                        Ok((batch, None))
                    }
                    Err(e) => Err(e.into()),
                },
            },
            Err(e) => Err(e.into()),
        };
        stage_seconds += start.elapsed().as_secs_f64();
        let last = !matches!(&item, Ok((b, _)) if !b.is_empty());
        if out.send((seen, item)).is_err() || last {
            break;
        }
    }
    if log.verbose() && cpu_batches > 0 {
        log.info(&format!(
            "{cpu_batches} batches searched on the CPU while the GPU opened"
        ));
    }
    if let Some(s) = searcher.filter(|_| log.verbose()) {
        let rate = |seconds: f64| reads as f64 / seconds.max(1e-9);
        let seconds = s.kernel_seconds();
        log.info(&format!(
            "GPU search+locate kernels: {reads} reads in {seconds:.3} s, {:.0} reads/s",
            rate(seconds)
        ));
        log.info(&format!(
            "GPU stage (transfers, kernels, host work): {stage_seconds:.3} s, {:.0} reads/s; \
             of which host work (packing not done ahead, grouping hits) {:.3} s",
            rate(stage_seconds),
            s.host_seconds()
        ));
    }
    (stage_seconds, reads)
}

/// The GPU search of `batch`, packed ahead as `packed` where it was.
fn search(
    searcher: &mut GpuSearcher,
    batch: &ReadBatch,
    packed: Option<PackedReads>,
) -> Result<BatchPositions, GpuError> {
    match packed {
        Some(packed) => searcher.search_packed(batch, packed),
        None => searcher.search_batch(&batch.records()),
    }
}

/// One batch's records, numbered in input order.
type BatchRecords = (usize, (Vec<Encoded>, Vec<SortedReads>));

/// The writing thread: writes the batches' records, and their reads to the read
/// outputs, in input order, whatever order they come in. Returns the writers and its
/// busy seconds.
fn write_stage(
    (mut writer, mut read_outputs): (SamWriter, ReadOutputs),
    batches: crossbeam_channel::Receiver<BatchRecords>,
) -> Result<((SamWriter, ReadOutputs), f64), MapError> {
    let mut busy = 0.0;
    let mut in_order = InOrder::default();
    for (number, batch) in batches {
        for (records, reads) in in_order.take(number, batch) {
            let start = Instant::now();
            writer.write(records)?;
            read_outputs.write(reads)?;
            busy += start.elapsed().as_secs_f64();
        }
    }
    Ok(((writer, read_outputs), busy))
}

/// Items numbered 0, 1, 2, ... taken in any order and given back in number order.
struct InOrder<T> {
    waiting: BTreeMap<usize, T>,
    next: usize,
}

impl<T> Default for InOrder<T> {
    fn default() -> Self {
        InOrder {
            waiting: BTreeMap::new(),
            next: 0,
        }
    }
}

impl<T> InOrder<T> {
    /// Takes item `number`; returns the items it completes, in order (none while an
    /// earlier one is missing).
    fn take(&mut self, number: usize, item: T) -> Vec<T> {
        self.waiting.insert(number, item);
        let mut ready = Vec::new();
        while let Some(item) = self.waiting.remove(&self.next) {
            ready.push(item);
            self.next += 1;
        }
        ready
    }
}

/// What building a batch's records takes, shared by the records threads.
struct BatchAligner<'a> {
    index: &'a Bidirectional<'a>,
    placement: &'a Placement<'a>,
    paired: bool,
    /// Which pairs are proper.
    proper_bounds: ProperBounds,
    /// SAM text (else BAM records).
    text: bool,
    record_options: &'a RecordOptions<'a>,
    /// Where the records are encoded: buffers the writer gave back, or new ones.
    buffers: RecordBuffers,
    /// Batches searched on the CPU: one at a time, each said done.
    cpu_turns: CpuTurns,
    /// The read outputs written (`--un`, `--al`, ...).
    wanted: Wanted,
    /// The progress line (drawn on a terminal only).
    progress: &'a ReadProgress,
}

impl BatchAligner<'_> {
    /// A records thread: builds the records of the batches it takes from `batches`,
    /// sends them to the writer through `out` and the emptied batches back to the
    /// reader through `spare`, until the end of input, an error, or a writer that
    /// failed. Returns its reads' counts, busy seconds and the error that ended it.
    fn records_stage(
        &self,
        batches: crossbeam_channel::Receiver<SearchedBatch>,
        spare: crossbeam_channel::Sender<ReadBatch>,
        out: crossbeam_channel::Sender<BatchRecords>,
    ) -> (MapStats, f64, Option<MapError>) {
        let (mut stats, mut busy) = (MapStats::default(), 0.0);
        for (number, item) in batches {
            let start = Instant::now();
            let (mut batch, positions) = match item {
                Ok((batch, _)) if batch.is_empty() => break,
                Ok(item) => item,
                Err(e) => return (stats, busy, Some(e)),
            };
            let on_cpu = positions.is_none();
            let one_at_a_time = on_cpu.then(|| self.cpu_turns.one_at_a_time.lock());
            let (records, batch_stats) = self.align_batch(&batch, positions.as_ref());
            drop(one_at_a_time);
            if on_cpu {
                let _ = self.cpu_turns.done.0.send(()); // unbounded: never waits
            }
            stats.add(&batch_stats);
            self.progress.add(batch_stats.reads);
            drop(positions);
            batch.clear(); // its blocks go back to the reading thread
            let _ = spare.try_send(batch); // dropped when the reader has enough
            busy += start.elapsed().as_secs_f64();
            if out.send((number, records)).is_err() {
                break; // the writer failed; its error is reported by the caller
            }
        }
        (stats, busy, None)
    }

    /// Builds one batch's records, in input order and in parts (SAM text or BAM
    /// records), from the GPU's `positions` or, without them, searching on the CPU.
    /// Each rayon task builds its own reads' part (not the records thread for the whole
    /// batch, which the cores would wait for).
    fn align_batch(
        &self,
        batch: &ReadBatch,
        positions: Option<&BatchPositions>,
    ) -> ((Vec<Encoded>, Vec<SortedReads>), MapStats) {
        let task = TASK_SIZE * self.reads_per_item();
        let searcher = CpuSearcher::new(self.index, self.placement.max_mismatches);
        let parts: Vec<(Encoded, MapStats, SortedReads)> = (0..batch.len().div_ceil(task))
            .into_par_iter()
            .map_init(TaskScratch::default, |scratch, c| {
                let reads = batch.records_in(c * task..((c + 1) * task).min(batch.len()));
                let hits = match positions {
                    Some(batch_positions) => TaskHits::Batch(batch_positions, c * task),
                    // Searched on the CPU: the task's reads at once, interleaved.
                    None => TaskHits::Own(searcher.search_part(&reads, &mut scratch.search)),
                };
                self.align_task(&reads, &hits, scratch)
            })
            .collect();
        let mut stats = MapStats::default();
        let mut records = Vec::with_capacity(parts.len());
        let mut sorted = Vec::with_capacity(parts.len());
        for (part, part_stats, reads) in parts {
            records.push(part);
            stats.add(&part_stats);
            sorted.push(reads);
        }
        ((records, sorted), stats)
    }

    /// The records of one task's `reads` (single reads, or mates one after the other)
    /// whose positions `hits` holds, encoded into a buffer of the writer's; and the
    /// reads for the read outputs.
    fn align_task(
        &self,
        reads: &[ReadRecord],
        hits: &TaskHits,
        scratch: &mut TaskScratch,
    ) -> (Encoded, MapStats, SortedReads) {
        let mut sorted = SortedReads::default();
        let capacity = reads.len() * (2 * reads[0].seq.len() + 128);
        let mut records = self.buffers.take(self.text, capacity);
        let mut stats = MapStats::default();
        let TaskScratch {
            search,
            hits1,
            hits2,
        } = scratch;
        let (positions, first_read) = hits.positions();
        let mut place = |i: usize, out: &mut Vec<Hit>| {
            positions.hits(self.placement, first_read + i, reads[i].seq, search, out);
        };
        let per_item = self.reads_per_item();
        for (j, item) in reads.chunks(per_item).enumerate() {
            let first = j * per_item;
            place(first, hits1);
            stats.count(hits1);
            if !self.paired {
                let primary = pairing::choose_single(item[0].name, hits1, 0);
                sam::push_records(
                    &item[0],
                    hits1,
                    primary,
                    None,
                    self.record_options,
                    &mut records,
                );
                sorted.single(self.wanted, &item[0], !hits1.is_empty());
                continue;
            }
            place(first + 1, hits2);
            stats.count(hits2);
            let proper = self.push_pair(item, (hits1, hits2), &mut records);
            stats.proper_pairs += proper as u64;
            let best = |hits: &[Hit]| pairing::best_stratum(hits);
            stats.pair_counts.count(proper, best(hits1), best(hits2));
            sorted.pair(self.wanted, item, proper);
        }
        (records, stats, sorted)
    }

    /// Reads in an item: a read, or a pair's two mates.
    fn reads_per_item(&self) -> usize {
        if self.paired {
            2
        } else {
            1
        }
    }

    /// Writes the records of the mates `pair` whose hits are `hits1` and `hits2`, with
    /// their primaries chosen together; whether they are a proper pair.
    fn push_pair(
        &self,
        pair: &[ReadRecord],
        (hits1, hits2): (&[Hit], &[Hit]),
        records: &mut Encoded,
    ) -> bool {
        let (len1, len2) = (pair[0].seq.len() as u64, pair[1].seq.len() as u64);
        let choice =
            pairing::choose_pair(pair[0].name, hits1, len1, hits2, len2, &self.proper_bounds);
        let mate = |first: bool, mate_hit: Option<usize>, mate_len: u64, of: &[Hit]| MateContext {
            first,
            mate_hit: mate_hit.map(|i| of[i]),
            mate_len,
            proper: choice.proper,
        };
        let mate1 = mate(true, choice.second, len2, hits2);
        let mate2 = mate(false, choice.first, len1, hits1);
        let options = self.record_options;
        sam::push_records(&pair[0], hits1, choice.first, Some(mate1), options, records);
        sam::push_records(
            &pair[1],
            hits2,
            choice.second,
            Some(mate2),
            options,
            records,
        );
        choice.proper
    }
}

/// Where a task's hits come from: the batch's positions (searched on the GPU) with the
/// batch's number of the task's first read, or the task's own (searched on the CPU).
enum TaskHits<'b> {
    Batch(&'b BatchPositions, usize),
    Own(BatchPositions),
}

impl TaskHits<'_> {
    /// The positions, and the number in them of the task's first read.
    fn positions(&self) -> (&BatchPositions, usize) {
        match self {
            TaskHits::Batch(positions, first) => (positions, *first),
            TaskHits::Own(positions) => (positions, 0),
        }
    }
}

/// What a records task keeps between its parts: the CPU search's room, and its reads'
/// hits.
#[derive(Default)]
struct TaskScratch {
    search: Scratch,
    hits1: Vec<Hit>,
    hits2: Vec<Hit>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_finished_in_any_order_are_written_in_input_order() {
        let mut in_order = InOrder::default();
        let mut written = Vec::new();
        for number in [2, 0, 1, 5, 3, 4, 7, 6] {
            written.extend(in_order.take(number, number * 10));
        }
        assert_eq!(written, [0, 10, 20, 30, 40, 50, 60, 70]);
        assert!(in_order.take(9, 90).is_empty(), "8 is missing");
        assert_eq!(in_order.take(8, 80), [80, 90]);
    }

    #[test]
    fn auto_searches_exactly_on_the_gpu_only_for_many_reads_a_thread() {
        let (small, large) = (Some(63_000_000), Some(3_000_000_000));
        let (few, many) = (Some(730_000_000), Some(7_300_000_000));
        let auto = |k, sizes, threads| auto_device(DeviceChoice::Auto, k, sizes, threads).0;
        // Against a small index the GPU pays off from 1.2 GB of reads whatever the threads.
        assert_eq!(auto(0, (small, few), 16), DeviceChoice::Cpu);
        assert_eq!(auto(0, (small, Some(1_150_000_000)), 16), DeviceChoice::Cpu);
        assert_eq!(
            auto(0, (small, Some(1_250_000_000)), 16),
            DeviceChoice::Auto
        );
        assert_eq!(auto(0, (small, few), 4), DeviceChoice::Cpu);
        assert_eq!(auto(0, (small, None), 16), DeviceChoice::Cpu);
        assert_eq!(auto(0, (small, many), 16), DeviceChoice::Auto);
        // Against a large one from 70 MB a thread, and for a stream.
        assert_eq!(auto(0, (large, few), 16), DeviceChoice::Cpu);
        assert_eq!(auto(0, (large, Some(1_100_000_000)), 16), DeviceChoice::Cpu);
        assert_eq!(
            auto(0, (large, Some(1_150_000_000)), 16),
            DeviceChoice::Auto
        );
        assert_eq!(auto(0, (large, few), 8), DeviceChoice::Auto);
        assert_eq!(auto(0, (large, many), 16), DeviceChoice::Auto);
        assert_eq!(auto(0, (large, None), 16), DeviceChoice::Auto);
        assert_eq!(auto(0, (None, few), 16), DeviceChoice::Auto);
        // Mismatch searches go to the GPU; a device named is kept.
        assert_eq!(auto(1, (small, few), 16), DeviceChoice::Auto);
        assert_eq!(auto(1, (large, few), 16), DeviceChoice::Auto);
        for chosen in [DeviceChoice::Gpu, DeviceChoice::Cpu] {
            assert_eq!(auto_device(chosen, 0, (small, few), 16), (chosen, None));
            assert_eq!(auto_device(chosen, 0, (large, few), 16), (chosen, None));
        }
    }

    #[test]
    fn the_cpu_line_is_short_and_counts_threads_in_words() {
        let note =
            |size, threads| auto_device(DeviceChoice::Auto, 0, (Some(16_569), size), threads).1;
        let one = note(Some(1_000_000), 1).unwrap();
        assert!(
            one.starts_with("mapping on the CPU: exact search, 16.6 kbp index"),
            "{one}"
        );
        assert!(
            one.contains("on 1 thread;") && one.contains("~1.0 MB of reads"),
            "{one}"
        );
        assert!(note(None, 2).unwrap().contains("streamed reads"));
        assert!(note(None, 2).unwrap().contains("on 2 threads;"));
    }

    /// Sends `item` through `to` on a thread of its own, 20 ms from now.
    fn sent_a_little_later<T: Send + 'static>(
        to: crossbeam_channel::Sender<T>,
        item: T,
    ) -> std::thread::JoinHandle<()> {
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            to.send(item).unwrap();
        })
    }

    #[test]
    fn while_the_gpu_opens_auto_passes_the_cpu_one_batch_at_a_time() {
        let turns = CpuTurns::default();
        // Devices that open only when asked (as `auto` would, without waiting).
        let devices = Devices::start(DeviceChoice::Cpu, GpuCount::First(1));
        let (gpu_tx, gpu_rx) = crossbeam_channel::bounded(1);
        let mut opening = GpuOpening::new(gpu_rx, &devices, &turns);
        assert!(opening.next().is_none(), "the first batch goes to the CPU");
        // The CPU has its batch: the next waits for it to be done, then goes too.
        let finishing = sent_a_little_later(turns.done.0.clone(), ());
        assert!(opening.next().is_none(), "after the CPU's batch, the next");
        finishing.join().unwrap();
        assert_eq!(opening.on_cpu, 1);
        // The GPU ready (here: none) while the CPU has its share: taken at once.
        gpu_tx.send(Ok(None)).unwrap();
        assert!(matches!(opening.next(), Some(Ok(None))));
    }

    #[test]
    fn once_the_gpu_has_opened_batches_wait_for_its_searcher() {
        let turns = CpuTurns::default();
        let devices = Devices::start(DeviceChoice::Cpu, GpuCount::First(1));
        let (gpu_tx, gpu_rx) = crossbeam_channel::bounded(1);
        let mut opening = GpuOpening::new(gpu_rx, &devices, &turns);
        assert!(
            devices.first(&Reporter::quiet()).is_err(),
            "opened: none under cpu"
        );
        // The CPU is free, yet the batch waits for the searcher (the index going up).
        let uploading = sent_a_little_later(gpu_tx, Ok(None));
        assert!(matches!(opening.next(), Some(Ok(None))));
        uploading.join().unwrap();
        assert_eq!(opening.on_cpu, 0, "no batch went to the CPU");
    }
}
