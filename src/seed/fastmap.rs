//! `galign fastmap`: the SMEMs of each read and their hits, printed as `bwa fastmap`
//! (0.7.17) prints them, byte for byte. Per read: `SQ\tNAME\tLENGTH` (with `-p`, the
//! bases as written after a tab), then `EM\tBEGIN\tEND\tN` for each SMEM of at least
//! `-l` bases (0-based, end exclusive; `N` its occurrences on both strands) followed by
//! each hit as `\tCONTIG:+POS` or `\tCONTIG:-POS` (the 1-based leftmost forward base, in
//! suffix-array order) when `N <= -w`, else by `\t*` and an empty line, then `//`.
//!
//! Reads come through [`crate::io`] in batches (every format and compression `map`
//! reads, `-` for stdin) through [`crate::pipeline`]: a batch is read while the one
//! before is searched (on the CPU, a chunk of reads a rayon task, its records written
//! by the same task; on the GPU, the device's work, then the records written in
//! parallel on the CPU while the device searches the next batch) and the batches
//! before are written, in input order: the output does not depend on the thread count
//! or the batch size.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;

use super::{hit_at, nt4, Interval, Smem, SmemConfig, SmemFinder};
use crate::atomic_file::OutputError;
use crate::device::{DeviceChoice, GpuRequiredError, NOT_USED};
use crate::fmd::{BwaIndex, BwaIndexError};
use crate::gpu::seed::{BatchSmems, DeviceBwaIndex};
use crate::gpu::{Gpu, GpuError};
use crate::io::{BatchReader, ReadBatch, ReadSource, ReadsError};
use crate::progress::Reporter;

/// Reads per batch on the CPU.
const BATCH: usize = 16_384;
/// Reads per batch on the GPU.
const GPU_BATCH: usize = 262_144;
/// What a fallback to the CPU says it does.
const ON_CPU: &str = "searching on the CPU";
/// Reads per task.
const CHUNK: usize = 64;

/// Why `galign fastmap` failed.
#[derive(Debug, thiserror::Error)]
pub enum FastmapError {
    /// `--device gpu` and the GPU failed.
    #[error(transparent)]
    Gpu(#[from] GpuRequiredError),
    /// The output is the reads file.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// bwa's index could not be loaded.
    #[error(transparent)]
    Index(#[from] BwaIndexError),
    /// The reads could not be read.
    #[error(transparent)]
    Reads(#[from] ReadsError),
    /// The records could not be written (the I/O error kept as the source, so that a
    /// closed pipe is seen as one).
    #[error("{0}")]
    Write(#[source] std::io::Error),
    /// The output file could not be written.
    #[error("cannot write {}", path.display())]
    WriteFile {
        /// The output file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The records could not be flushed to stdout.
    #[error("cannot write to stdout")]
    Stdout(#[source] std::io::Error),
}

/// What bwa fastmap's options set.
#[derive(Clone, Copy, Debug)]
pub struct FastmapOptions {
    /// The shortest SMEM printed (`-l`; compared as bwa compares it, unsigned).
    pub min_len: i32,
    /// The most hits an SMEM's are listed for (`-w`; more print `*`).
    pub max_hits: i64,
    /// The search's cut-offs (`-i`, `-I`).
    pub config: SmemConfig,
    /// Whether `SQ` lines hold the bases too (`-p`).
    pub print_seq: bool,
}

impl Default for FastmapOptions {
    /// bwa fastmap's defaults: `-l 17 -w 20 -i 1 -I 0`, no `-p`.
    fn default() -> FastmapOptions {
        FastmapOptions {
            min_len: 17,
            max_hits: 20,
            config: SmemConfig::default(),
            print_seq: false,
        }
    }
}

/// A `galign fastmap` run.
#[derive(Clone, Debug)]
pub struct FastmapRun {
    /// The prefix of bwa's index files.
    pub prefix: PathBuf,
    /// The reads (`-` for stdin).
    pub reads: PathBuf,
    /// Where the output goes (stdout when `None`).
    pub output: Option<PathBuf>,
    /// Where the search may run.
    pub device: DeviceChoice,
    /// bwa fastmap's options.
    pub options: FastmapOptions,
}

/// Runs `galign fastmap`: the output checked against the inputs, the index loaded (and
/// uploaded to the GPU unless the run is on the CPU), the output written to stdout or,
/// complete, to the output file.
pub fn run(run: &FastmapRun, log: &Reporter) -> Result<(), FastmapError> {
    if let Some(output) = &run.output {
        let inputs = [("the reads", run.reads.as_path())];
        crate::atomic_file::ensure_distinct(&inputs, &[("the output", output.as_path())])?;
    }
    // The GPU opens (a CUDA context takes tenths of a second) while the index loads.
    let (inputs, opened) = std::thread::scope(|scope| {
        let opening = scope.spawn(|| run.device.decide(Gpu::open));
        let inputs = open_inputs(run, log);
        let opened = opening
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (inputs, opened)
    });
    let (index, reader) = inputs?;
    // The device is said once the inputs are open: an input error comes first, alone.
    let gpu = opened.resolve(NOT_USED, ON_CPU, |m| log.info(m))?;
    let device_index = match &gpu {
        Some(gpu) => run
            .device
            .decide(|| log.step("index to the GPU", || DeviceBwaIndex::upload(gpu, &index)))
            .resolve(NOT_USED, ON_CPU, |m| log.info(m))?,
        None => None,
    };
    if let (Some(gpu), Some(_)) = (&gpu, &device_index) {
        log.info(&format!("searching on the GPU: {}", gpu.describe()));
    }
    let searcher = Searcher {
        index: &index,
        device: device_index.map(|d| (d, run.device)),
        log,
        kernel_time: Duration::ZERO,
    };
    crate::atomic_file::write_output(run.output.as_deref(), |out| {
        fastmap(searcher, reader, &run.options, out).map(drop)
    })
}

/// bwa's index loaded and the reads opened.
fn open_inputs(run: &FastmapRun, log: &Reporter) -> Result<(BwaIndex, BatchReader), FastmapError> {
    let index = log.step("load bwa index", || BwaIndex::load(&run.prefix))?;
    let source = ReadSource::Single(run.reads.clone());
    let reader = BatchReader::open(&source, rayon::current_num_threads())?;
    Ok((index, reader))
}

impl crate::atomic_file::OutputErrors for FastmapError {
    fn file(path: &Path, source: std::io::Error) -> FastmapError {
        FastmapError::WriteFile {
            path: path.to_path_buf(),
            source,
        }
    }

    fn stdout(source: std::io::Error) -> FastmapError {
        FastmapError::Stdout(source)
    }

    fn into_write(self) -> Result<std::io::Error, FastmapError> {
        match self {
            FastmapError::Write(io) => Ok(io),
            other => Err(other),
        }
    }
}

/// Where the reads are searched: bwa's index in memory, and on the GPU where it was
/// uploaded (with the `--device` choice that decides what a GPU failure means).
pub struct Searcher<'a, 'g> {
    /// The index in memory (the CPU's search, and the output's contig names).
    pub index: &'a BwaIndex,
    /// The index on the GPU, if the search runs there.
    pub device: Option<(DeviceBwaIndex<'g>, DeviceChoice)>,
    /// Where a fallback to the CPU is said.
    pub log: &'a Reporter,
    /// The SMEM kernel's time over the batches searched on the GPU (said with `-v`).
    pub kernel_time: Duration,
}

/// A batch searched: on the GPU (its records still to write), or its records written.
enum Searched {
    /// The batch and what the GPU found.
    Device(ReadBatch, BatchSmems),
    /// The batch's records, a piece a chunk of reads.
    Written(usize, Vec<Vec<u8>>),
}

impl Searcher<'_, '_> {
    /// `batch` searched: on the GPU while it works; after a GPU failure, on the CPU from
    /// then on under `auto` (said once), or the failure under `--device gpu`.
    fn search(
        &mut self,
        batch: ReadBatch,
        options: &FastmapOptions,
    ) -> Result<Searched, FastmapError> {
        if let Some((device, choice)) = &self.device {
            match device_search(device, &batch, options) {
                Ok(found) => {
                    self.kernel_time += found.kernel_time;
                    return Ok(Searched::Device(batch, found));
                }
                Err(e) if *choice == DeviceChoice::Gpu => return Err(GpuRequiredError(e).into()),
                Err(e) => {
                    self.log
                        .info(&format!("GPU failed ({e}); searching on the CPU"));
                    self.device = None;
                }
            }
        }
        Ok(Searched::Written(
            batch.len(),
            batch_output(self.index, &batch, options),
        ))
    }
}

/// Writes the fastmap records of the reads of `reader` searched by `searcher` to `out`;
/// returns how many reads there were. The bytes are the same whatever the device. The
/// reading, the search (on the GPU, the device's work), the writing of the records (in
/// parallel) and the output overlap ([`crate::pipeline`]).
pub fn fastmap(
    mut searcher: Searcher<'_, '_>,
    mut reader: BatchReader,
    options: &FastmapOptions,
    out: &mut dyn Write,
) -> Result<u64, FastmapError> {
    let batch_size = match searcher.device {
        Some(_) => GPU_BATCH,
        None => BATCH,
    };
    let (index, log) = (searcher.index, searcher.log);
    let mut total = 0;
    crate::pipeline::ordered2(
        || Ok(reader.next_batch(batch_size)?),
        |batch| searcher.search(batch, options),
        |searched| {
            Ok(match searched {
                Searched::Device(batch, found) => {
                    (batch.len(), device_output(index, &batch, &found, options))
                }
                Searched::Written(len, pieces) => (len, pieces),
            })
        },
        |(len, pieces)| {
            total += len as u64;
            crate::pipeline::write_pieces(out, &pieces).map_err(FastmapError::Write)
        },
    )?;
    if searcher.kernel_time > Duration::ZERO && log.verbose() {
        let seconds = searcher.kernel_time.as_secs_f64();
        log.info(&format!(
            "SMEM kernel: {seconds:.3} s, {:.0} reads/s",
            total as f64 / seconds
        ));
    }
    Ok(total)
}

/// `batch` searched on the GPU: the SMEMs of every read and the positions of the rows
/// each printed SMEM lists (the reads the device leaves to the CPU excepted).
fn device_search(
    device: &DeviceBwaIndex<'_>,
    batch: &ReadBatch,
    options: &FastmapOptions,
) -> Result<BatchSmems, GpuError> {
    let seqs: Vec<&[u8]> = (0..batch.len()).map(|i| batch.seq(i)).collect();
    let cut_offs = (options.config.min_intv, options.config.max_intv);
    device.smems(
        &seqs,
        cut_offs,
        options.min_len as u32,
        options.max_hits as u64,
    )
}

/// The output of `batch` searched on the GPU (`found`), a piece a chunk of reads
/// written in parallel; the reads the device left to the CPU searched here.
fn device_output(
    index: &BwaIndex,
    batch: &ReadBatch,
    found: &BatchSmems,
    options: &FastmapOptions,
) -> Vec<Vec<u8>> {
    crate::pipeline::chunks(batch.len(), CHUNK)
        .into_par_iter()
        .map(|reads| {
            let mut out = Vec::with_capacity(reads.len() * 256);
            for i in reads {
                let Some((smems, positions)) = found.of(i) else {
                    write_reads(index, batch, i..i + 1, options, &mut out);
                    continue;
                };
                let mut positions = positions.iter().copied();
                write_sq(
                    &mut out,
                    batch.header_word(i),
                    batch.seq(i),
                    options.print_seq,
                );
                for m in smems {
                    let smem = Smem {
                        begin: m.begin,
                        end: m.end,
                        interval: Interval {
                            k: m.k,
                            l: m.l,
                            size: m.size,
                        },
                    };
                    write_em(&mut out, index, &smem, options, |_| {
                        positions.next().expect("a position a listed row")
                    });
                }
                out.extend_from_slice(b"//\n");
            }
            out
        })
        .collect()
}

/// Whether `smem` is printed: at least `-l` bases (compared as bwa compares, unsigned).
fn printed(smem: &Smem, options: &FastmapOptions) -> bool {
    ((smem.end - smem.begin) as u32) >= options.min_len as u32
}

/// The output of the reads of `batch`, a piece a chunk of reads, searched in parallel.
fn batch_output(index: &BwaIndex, batch: &ReadBatch, options: &FastmapOptions) -> Vec<Vec<u8>> {
    crate::pipeline::chunks(batch.len(), CHUNK)
        .into_par_iter()
        .map(|reads| {
            let mut out = Vec::with_capacity(reads.len() * 256);
            write_reads(index, batch, reads, options, &mut out);
            out
        })
        .collect()
}

crate::popcnt::with_popcnt! {
    /// The records of reads `reads` of `batch` appended to `out`, counted with POPCNT
    /// where the CPU has it.
    fn write_reads(
        index: &BwaIndex,
        batch: &ReadBatch,
        reads: Range<usize>,
        options: &FastmapOptions,
        out: &mut Vec<u8>,
    ) => write_reads_any_cpu
}

/// See [`write_reads`].
#[inline(always)]
fn write_reads_any_cpu(
    index: &BwaIndex,
    batch: &ReadBatch,
    reads: Range<usize>,
    options: &FastmapOptions,
    out: &mut Vec<u8>,
) {
    let mut finder = SmemFinder::new(options.config);
    let (mut codes, mut smems) = (Vec::new(), Vec::new());
    for i in reads {
        let seq = batch.seq(i);
        write_sq(out, batch.header_word(i), seq, options.print_seq);
        codes.clear();
        codes.extend(seq.iter().map(|&b| nt4(b)));
        smems.clear();
        finder.smems(&index.bwt, &codes, &mut smems);
        for smem in &smems {
            write_em(out, index, smem, options, |row| {
                index.sa.locate(&index.bwt, row)
            });
        }
        out.extend_from_slice(b"//\n");
    }
}

/// Appends a read's `SQ` line.
#[inline(always)]
fn write_sq(out: &mut Vec<u8>, name: &[u8], seq: &[u8], print_seq: bool) {
    out.extend_from_slice(b"SQ\t");
    out.extend_from_slice(name);
    out.push(b'\t');
    out.extend_from_slice(itoa::Buffer::new().format(seq.len()).as_bytes());
    if print_seq {
        out.push(b'\t');
        out.extend_from_slice(seq);
    }
    out.push(b'\n');
}

/// Appends the `EM` line of `smem`, if it is long enough, with its hits (the text
/// position of each row from `position_of`) or `*`.
#[inline(always)]
fn write_em(
    out: &mut Vec<u8>,
    index: &BwaIndex,
    smem: &Smem,
    options: &FastmapOptions,
    mut position_of: impl FnMut(u64) -> u64,
) {
    if !printed(smem, options) {
        return;
    }
    let len = smem.end - smem.begin;
    let mut number = itoa::Buffer::new();
    for (lead, n) in [(&b"EM\t"[..], smem.begin as u64), (b"\t", smem.end as u64)] {
        out.extend_from_slice(lead);
        out.extend_from_slice(number.format(n).as_bytes());
    }
    let size = smem.interval.size;
    out.push(b'\t');
    out.extend_from_slice(number.format(size).as_bytes());
    if size > options.max_hits as u64 {
        out.extend_from_slice(b"\t*\n\n");
        return;
    }
    for row in smem.interval.k..smem.interval.k + size {
        let hit = hit_at(index, position_of(row), len);
        out.push(b'\t');
        out.extend_from_slice(&index.contigs.contigs[hit.contig].name);
        out.extend_from_slice(if hit.reverse { b":-" } else { b":+" });
        out.extend_from_slice(number.format(hit.pos + 1).as_bytes());
    }
    out.push(b'\n');
}
