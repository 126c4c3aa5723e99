//! `galign fastmap`: the SMEMs of each read and their hits, printed as `bwa fastmap`
//! (0.7.17) prints them, byte for byte. Per read: `SQ\tNAME\tLENGTH` (with `-p`, the
//! bases as written after a tab), then `EM\tBEGIN\tEND\tN` for each SMEM of at least
//! `-l` bases (0-based, end exclusive; `N` its occurrences on both strands) followed by
//! each hit as `\tCONTIG:+POS` or `\tCONTIG:-POS` (the 1-based leftmost forward base, in
//! suffix-array order) when `N <= -w`, else by `\t*` and an empty line, then `//`.
//!
//! Reads come through [`crate::io`] in batches (every format and compression `map`
//! reads, `-` for stdin); each batch's reads are searched in parallel (rayon, a chunk
//! of reads a task) on a thread of its own while the calling thread writes the batch
//! before, in input order: the output does not depend on the thread count.

use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;

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
    let index = log.step("load bwa index", || BwaIndex::load(&run.prefix))?;
    let source = ReadSource::Single(run.reads.clone());
    let reader = BatchReader::open(&source, rayon::current_num_threads())?;
    // The device is said once the inputs are open: an input error comes first, alone.
    let gpu = run
        .device
        .decide(Gpu::open)
        .resolve(NOT_USED, ON_CPU, |m| log.info(m))?;
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
    };
    let write = |out: &mut dyn Write| fastmap(searcher, reader, &run.options, out);
    match &run.output {
        Some(path) => {
            crate::atomic_file::write_with(path, |out| write(out).map(drop).map_err(io_error))
                .map_err(|source| FastmapError::WriteFile {
                    path: path.clone(),
                    source,
                })
        }
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
            write(&mut out)?;
            out.flush().map_err(FastmapError::Stdout)
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
}

impl Searcher<'_, '_> {
    /// The output of `batch`: on the GPU while it works; after a GPU failure, on the CPU
    /// from then on under `auto` (said once), or the failure under `--device gpu`.
    fn output(
        &mut self,
        batch: &ReadBatch,
        options: &FastmapOptions,
    ) -> Result<Vec<Vec<u8>>, FastmapError> {
        if let Some((device, choice)) = &self.device {
            match gpu_batch_output(self.index, device, batch, options) {
                Ok(pieces) => return Ok(pieces),
                Err(e) if *choice == DeviceChoice::Gpu => return Err(GpuRequiredError(e).into()),
                Err(e) => {
                    self.log
                        .info(&format!("GPU failed ({e}); searching on the CPU"));
                    self.device = None;
                }
            }
        }
        Ok(batch_output(self.index, batch, options))
    }
}

/// `error` as an I/O error: a write's own, any other wrapped (its sources kept).
fn io_error(error: FastmapError) -> std::io::Error {
    match error {
        FastmapError::Write(io) => io,
        other => std::io::Error::other(other),
    }
}

/// Writes the fastmap records of the reads of `reader` searched by `searcher` to `out`;
/// returns how many reads there were. The bytes are the same whatever the device.
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
    std::thread::scope(|scope| {
        let (sender, receiver) = crossbeam_channel::bounded::<Vec<Vec<u8>>>(2);
        let searching = scope.spawn(move || -> Result<u64, FastmapError> {
            let mut batch = ReadBatch::default();
            let mut total = 0;
            loop {
                reader.fill_batch(batch_size, &mut batch)?;
                if batch.is_empty() || sender.send(searcher.output(&batch, options)?).is_err() {
                    return Ok(total);
                }
                total += batch.len() as u64;
            }
        });
        let written = receiver
            .iter()
            .try_for_each(|pieces| pieces.iter().try_for_each(|piece| out.write_all(piece)));
        drop(receiver); // a failed write stops the search
        let searched = searching.join().expect("the search does not panic");
        written.map_err(FastmapError::Write)?;
        searched
    })
}

/// The output of `batch` searched on the GPU: the SMEMs of every read on the device
/// (those it leaves to the CPU searched here), the rows each printed SMEM lists located
/// on the device, then the records written in parallel, a piece a chunk of reads.
fn gpu_batch_output(
    index: &BwaIndex,
    device: &DeviceBwaIndex<'_>,
    batch: &ReadBatch,
    options: &FastmapOptions,
) -> Result<Vec<Vec<u8>>, GpuError> {
    let seqs: Vec<&[u8]> = (0..batch.len()).map(|i| batch.seq(i)).collect();
    let cut_offs = (options.config.min_intv, options.config.max_intv);
    let found = device.smems(&seqs, cut_offs, options.min_len as u32)?;
    let smems = read_smems(index, &seqs, &found, options.config);
    let mut rows = listed_rows(&smems, options);
    device.locate(&mut rows)?;
    let chunks = chunk_ranges(batch.len());
    let mut starts = Vec::with_capacity(chunks.len());
    let mut at = 0;
    for reads in &chunks {
        starts.push(at);
        at += smems[reads.clone()]
            .iter()
            .flatten()
            .filter(|m| listed(m, options))
            .map(|m| m.interval.size as usize)
            .sum::<usize>();
    }
    Ok(chunks
        .into_par_iter()
        .zip(starts)
        .map(|(reads, start)| {
            let mut out = Vec::with_capacity(reads.len() * 256);
            let mut positions = rows[start..].iter().copied();
            for i in reads {
                write_sq(&mut out, batch.header_word(i), seqs[i], options.print_seq);
                for smem in &smems[i] {
                    write_em(&mut out, index, smem, options, |_| {
                        positions.next().expect("a position a listed row")
                    });
                }
                out.extend_from_slice(b"//\n");
            }
            out
        })
        .collect())
}

/// Each read's SMEMs: the device's, or the CPU's where the device left the read to it.
fn read_smems(
    index: &BwaIndex,
    seqs: &[&[u8]],
    found: &BatchSmems,
    config: SmemConfig,
) -> Vec<Vec<Smem>> {
    (0..seqs.len())
        .into_par_iter()
        .map_init(
            || (SmemFinder::new(config), Vec::new()),
            |(finder, codes), i| match found.of(i) {
                Some(smems) => smems
                    .map(|m| Smem {
                        begin: m.begin,
                        end: m.end,
                        interval: Interval {
                            k: m.k,
                            l: m.l,
                            size: m.size,
                        },
                    })
                    .collect(),
                None => {
                    codes.clear();
                    codes.extend(seqs[i].iter().map(|&b| nt4(b)));
                    let mut smems = Vec::new();
                    finder.smems(&index.bwt, codes, &mut smems);
                    smems
                }
            },
        )
        .collect()
}

/// Whether `smem`'s hits are listed: long enough to print, and no more than `-w`.
fn listed(smem: &Smem, options: &FastmapOptions) -> bool {
    printed(smem, options) && smem.interval.size <= options.max_hits as u64
}

/// Whether `smem` is printed: at least `-l` bases (compared as bwa compares, unsigned).
fn printed(smem: &Smem, options: &FastmapOptions) -> bool {
    ((smem.end - smem.begin) as u32) >= options.min_len as u32
}

/// The rows of every listed SMEM, in output order.
fn listed_rows(smems: &[Vec<Smem>], options: &FastmapOptions) -> Vec<u64> {
    smems
        .iter()
        .flatten()
        .filter(|m| listed(m, options))
        .flat_map(|m| m.interval.k..m.interval.k + m.interval.size)
        .collect()
}

/// The reads of a batch of `len` in chunks of [`CHUNK`].
fn chunk_ranges(len: usize) -> Vec<Range<usize>> {
    (0..len)
        .step_by(CHUNK)
        .map(|start| start..(start + CHUNK).min(len))
        .collect()
}

/// The output of the reads of `batch`, a piece a chunk of reads, searched in parallel.
fn batch_output(index: &BwaIndex, batch: &ReadBatch, options: &FastmapOptions) -> Vec<Vec<u8>> {
    chunk_ranges(batch.len())
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
