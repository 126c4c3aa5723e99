//! `galign mem`: reads aligned as `bwa mem` 0.7.17 aligns single-end reads, written
//! as SAM. Reads come through [`crate::io`] in batches; each batch's reads are aligned
//! in parallel (rayon, a chunk of reads a task) and written in input order, each read
//! numbered from 0 across the run as bwa numbers it: the output does not depend on the
//! thread count.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::aligner::{align_read, bwa_name, MemIndex, MemIndexError, MemRead};
use super::pair_run::{align_batch, PairInput, PairSettings};
use super::pestat::PeStats;
use super::settings::AlignOptions;
use super::ChainFinder;
use crate::atomic_file::OutputError;
use crate::io::{BatchReader, ReadBatch, ReadSource, ReadsError};
use crate::progress::Reporter;

/// Reads per batch.
const BATCH: usize = 16_384;
/// Reads per task.
const CHUNK: usize = 32;

/// Why `galign mem` failed.
#[derive(Debug, thiserror::Error)]
pub enum MemError {
    /// `--device gpu`: the alignment runs on the CPU only.
    #[error("--device gpu: galign mem runs on the CPU only (use --device cpu or auto)")]
    GpuOnly,
    /// The output is an input.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// bwa's index could not be loaded.
    #[error(transparent)]
    Index(#[from] MemIndexError),
    /// The reads could not be read.
    #[error(transparent)]
    Reads(#[from] ReadsError),
    /// An option's value is not one bwa accepts, or the option is not supported.
    #[error("{0}")]
    Option(String),
    /// The read group line is not one bwa accepts.
    #[error("bad read group line: {0}")]
    ReadGroup(String),
    /// The records could not be written.
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
}

/// A `galign mem` run.
#[derive(Clone, Debug)]
pub struct MemRun {
    /// The prefix of bwa's index files.
    pub prefix: PathBuf,
    /// The reads (`-` for stdin): mate 1's with [`MemRun::mates`], interleaved pairs
    /// with [`MemRun::interleaved`].
    pub reads: PathBuf,
    /// Mate 2's reads.
    pub mates: Option<PathBuf>,
    /// `-p`: the reads are pairs interleaved (and reads without a mate of their name).
    pub interleaved: bool,
    /// `-I`: the insert size distribution (estimated per batch where `None`).
    pub insert: Option<PeStats>,
    /// Bases per batch of paired reads (bwa's `-K`, or 10,000,000 per thread).
    pub chunk_size: i64,
    /// Where the output goes (stdout when `None`).
    pub output: Option<PathBuf>,
    /// bwa mem's options.
    pub options: AlignOptions,
    /// `-R`: the read group line as given (`\t` escaped).
    pub read_group: Option<String>,
    /// The command line for the `@PG` line.
    pub command_line: String,
}

/// `bwa_set_rg`: the read group line with its escapes resolved, and its ID.
pub fn read_group(line: &str) -> Result<(String, String), MemError> {
    let bad = |why: &str| MemError::ReadGroup(format!("{why}: {line}"));
    if !line.starts_with("@RG") {
        return Err(bad("the read group line does not start with @RG"));
    }
    if line.contains('\t') {
        return Err(bad("literal <tab> in the read group line; write \\t"));
    }
    let mut text = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('t') => text.push('\t'),
                Some('n') => text.push('\n'),
                Some(other) => text.push(other),
                None => break,
            },
            c => text.push(c),
        }
    }
    let at = text
        .find("\tID:")
        .ok_or_else(|| bad("no ID in the read group line"))?;
    let id: String = text[at + 4..]
        .chars()
        .take_while(|&c| c != '\t' && c != '\n')
        .collect();
    if id.len() + 1 > 256 {
        return Err(bad("@RG ID is longer than 255 characters"));
    }
    Ok((text, id))
}

/// The SAM header: `@SQ` lines as bwa writes them, the read group, galign's `@PG`.
fn header(idx: &MemIndex, rg_line: Option<&str>, command_line: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for (rid, c) in idx.index.contigs.contigs.iter().enumerate() {
        out.extend_from_slice(b"@SQ\tSN:");
        out.extend_from_slice(&c.name);
        out.extend_from_slice(format!("\tLN:{}", c.len as i32).as_bytes());
        if idx.alt.get(rid).copied().unwrap_or(false) {
            out.extend_from_slice(b"\tAH:*");
        }
        out.push(b'\n');
    }
    if let Some(rg) = rg_line {
        out.extend_from_slice(rg.as_bytes());
        out.push(b'\n');
    }
    let version = env!("CARGO_PKG_VERSION");
    out.extend_from_slice(
        format!("@PG\tID:galign\tPN:galign\tVN:{version}\tCL:{command_line}\n").as_bytes(),
    );
    out
}

/// Runs `galign mem`: the index loaded, the SAM written to stdout or, complete, to
/// the output file.
pub fn run(run: &MemRun, log: &Reporter) -> Result<(), MemError> {
    if let Some(output) = &run.output {
        let mut inputs = vec![("the reads", run.reads.as_path())];
        if let Some(mates) = &run.mates {
            inputs.push(("the mates", mates.as_path()));
        }
        crate::atomic_file::ensure_distinct(&inputs, &[("the output", output.as_path())])?;
    }
    let rg = run.read_group.as_deref().map(read_group).transpose()?;
    let idx = log.step("load bwa index", || MemIndex::load(&run.prefix))?;
    crate::atomic_file::write_output(run.output.as_deref(), |out| {
        let head = header(&idx, rg.as_ref().map(|r| r.0.as_str()), &run.command_line);
        out.write_all(&head).map_err(MemError::Write)?;
        let rg_id = rg.as_ref().map(|r| r.1.as_bytes());
        match run.mates.is_some() || run.interleaved {
            true => pair_records(&idx, run, rg_id, out, log),
            false => records(&idx, run, rg_id, out),
        }
    })
}

impl crate::atomic_file::OutputErrors for MemError {
    fn file(path: &Path, source: std::io::Error) -> MemError {
        MemError::WriteFile {
            path: path.to_path_buf(),
            source,
        }
    }

    fn stdout(source: std::io::Error) -> MemError {
        MemError::Write(source)
    }

    fn into_write(self) -> Result<std::io::Error, MemError> {
        match self {
            MemError::Write(io) => Ok(io),
            other => Err(other),
        }
    }
}

/// Writes the records of every read of `run.reads` to `out`: batches read, aligned in
/// parallel and written in order, overlapped ([`crate::pipeline`]).
fn records(
    idx: &MemIndex,
    run: &MemRun,
    rg_id: Option<&[u8]>,
    out: &mut dyn Write,
) -> Result<(), MemError> {
    let source = ReadSource::Single(run.reads.clone());
    let mut reader = BatchReader::open(&source, rayon::current_num_threads())?;
    let mut first_id = 0u64;
    crate::pipeline::ordered(
        || Ok(reader.next_batch(BATCH)?),
        |batch| {
            let pieces: Vec<Vec<u8>> = crate::pipeline::chunks(batch.len(), CHUNK)
                .into_par_iter()
                .map(|reads| align_reads(idx, &run.options, rg_id, &batch, reads, first_id))
                .collect();
            first_id += batch.len() as u64;
            Ok(pieces)
        },
        |pieces| crate::pipeline::write_pieces(out, &pieces).map_err(MemError::Write),
    )
}

/// The SAM lines of reads `reads` of `batch`, whose first read is number `first_id`.
fn align_reads(
    idx: &MemIndex,
    opt: &AlignOptions,
    rg_id: Option<&[u8]>,
    batch: &ReadBatch,
    reads: Range<usize>,
    first_id: u64,
) -> Vec<u8> {
    let mut finder = ChainFinder::default();
    let mut out = Vec::with_capacity(reads.len() * 700);
    for (i, rec) in reads.clone().zip(batch.records_in(reads)) {
        let read = MemRead {
            name: bwa_name(batch.header_word(i)),
            seq: rec.seq,
            // kseq keeps no qualities for an empty read: bwa writes `*`
            qual: rec.qual.filter(|q| !q.is_empty()),
        };
        align_read(
            &mut finder,
            idx,
            opt,
            rg_id,
            first_id + i as u64,
            read,
            &mut out,
        );
    }
    out
}

/// Writes the records of every pair of `run`'s inputs to `out`, in bwa's batches.
fn pair_records(
    idx: &MemIndex,
    run: &MemRun,
    rg_id: Option<&[u8]>,
    out: &mut dyn Write,
    log: &Reporter,
) -> Result<(), MemError> {
    let mut input = PairInput::open(&run.reads, run.mates.as_deref())?;
    let set = PairSettings {
        opt: &run.options,
        rg_id,
        insert: run.insert.as_ref(),
        smart: run.interleaved,
    };
    let mut n_processed = 0u64;
    loop {
        let reads = input.next_batch(run.chunk_size)?;
        if reads.is_empty() {
            return Ok(());
        }
        let (sam, messages) = align_batch(idx, set, &reads, n_processed);
        if log.verbose() {
            for m in messages {
                eprintln!("[M::mem_pestat] {m}");
            }
        }
        out.write_all(&sam).map_err(MemError::Write)?;
        n_processed += reads.len() as u64;
    }
}
