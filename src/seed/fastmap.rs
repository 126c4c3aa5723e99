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

use super::{locate, nt4, Smem, SmemConfig, SmemFinder};
use crate::atomic_file::OutputError;
use crate::device::DeviceChoice;
use crate::fmd::{BwaIndex, BwaIndexError};
use crate::io::{BatchReader, ReadBatch, ReadSource, ReadsError};
use crate::progress::Reporter;

/// Reads per batch.
const BATCH: usize = 16_384;
/// Reads per task.
const CHUNK: usize = 64;

/// Why `galign fastmap` failed.
#[derive(Debug, thiserror::Error)]
pub enum FastmapError {
    /// `--device gpu`: the search is not on the GPU yet.
    #[error("--device gpu: fastmap is not yet on the GPU (issue 64); use --device cpu or auto")]
    Gpu,
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

/// Runs `galign fastmap`: the device checked, the index loaded, the output written to
/// stdout or, complete, to the output file.
pub fn run(run: &FastmapRun, log: &Reporter) -> Result<(), FastmapError> {
    if run.device == DeviceChoice::Gpu {
        return Err(FastmapError::Gpu);
    }
    if let Some(output) = &run.output {
        let inputs = [("the reads", run.reads.as_path())];
        crate::atomic_file::ensure_distinct(&inputs, &[("the output", output.as_path())])?;
    }
    let index = log.step("load bwa index", || BwaIndex::load(&run.prefix))?;
    let source = ReadSource::Single(run.reads.clone());
    let reader = BatchReader::open(&source, rayon::current_num_threads())?;
    // Said once the inputs are open: an input error comes first, alone.
    if run.device == DeviceChoice::Auto {
        log.info("searching on the CPU (fastmap has no GPU search yet)");
    }
    let write = |out: &mut dyn Write| fastmap(&index, reader, &run.options, out);
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

/// `error` as an I/O error: a write's own, any other wrapped (its sources kept).
fn io_error(error: FastmapError) -> std::io::Error {
    match error {
        FastmapError::Write(io) => io,
        other => std::io::Error::other(other),
    }
}

/// Writes the fastmap records of the reads of `reader` against `index` to `out`;
/// returns how many reads there were.
pub fn fastmap(
    index: &BwaIndex,
    mut reader: BatchReader,
    options: &FastmapOptions,
    out: &mut dyn Write,
) -> Result<u64, FastmapError> {
    std::thread::scope(|scope| {
        let (sender, receiver) = crossbeam_channel::bounded::<Vec<Vec<u8>>>(2);
        let searching = scope.spawn(move || -> Result<u64, FastmapError> {
            let mut batch = ReadBatch::default();
            let mut total = 0;
            loop {
                reader.fill_batch(BATCH, &mut batch)?;
                if batch.is_empty() || sender.send(batch_output(index, &batch, options)).is_err() {
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

/// The output of the reads of `batch`, a piece a chunk of reads, searched in parallel.
fn batch_output(index: &BwaIndex, batch: &ReadBatch, options: &FastmapOptions) -> Vec<Vec<u8>> {
    let chunks: Vec<Range<usize>> = (0..batch.len())
        .step_by(CHUNK)
        .map(|start| start..(start + CHUNK).min(batch.len()))
        .collect();
    chunks
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
            write_em(out, index, smem, options);
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

/// Appends the `EM` line of `smem`, if it is long enough, with its hits or `*`.
#[inline(always)]
fn write_em(out: &mut Vec<u8>, index: &BwaIndex, smem: &Smem, options: &FastmapOptions) {
    let len = smem.end - smem.begin;
    if (len as u32) < options.min_len as u32 {
        return;
    }
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
        let hit = locate(index, row, len);
        out.push(b'\t');
        out.extend_from_slice(&index.contigs.contigs[hit.contig].name);
        out.extend_from_slice(if hit.reverse { b":-" } else { b":+" });
        out.extend_from_slice(number.format(hit.pos + 1).as_bytes());
    }
    out.push(b'\n');
}
