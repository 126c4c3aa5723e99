//! `galign seeds`: each read's chains as bwa mem 0.7.17 builds them, written as TSV
//! (docs/SEEDS.md) or as the text `bwa mem -v 4` prints for them.
//!
//! Reads come through [`crate::io`] in batches; each batch's reads are chained in
//! parallel (rayon, a chunk of reads a task) and written in input order: the output does
//! not depend on the thread count.

use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{read_chains, AltError, ChainFinder, LongReadError, MemOptions};
use crate::atomic_file::OutputError;
use crate::fmd::{BwaIndex, BwaIndexError};
use crate::io::{BatchReader, ReadBatch, ReadSource, ReadsError};
use crate::progress::Reporter;

/// Reads per batch.
const BATCH: usize = 16_384;
/// Reads per task.
const CHUNK: usize = 64;

/// What `galign seeds` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SeedsFormat {
    /// galign's TSV of reads, chains and seeds (docs/SEEDS.md).
    Tsv,
    /// `bwa mem -v 4`'s lines for them: `=====> Processing read` and `* Found CHAIN`.
    BwaDebug,
}

/// Why `galign seeds` failed.
#[derive(Debug, thiserror::Error)]
pub enum SeedsError {
    /// `--device gpu`: the seeds are found on the CPU only.
    #[error("--device gpu: galign seeds runs on the CPU only (use --device cpu or auto)")]
    GpuOnly,
    /// The output is the reads file.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// bwa's index could not be loaded.
    #[error(transparent)]
    Index(#[from] BwaIndexError),
    /// `PREFIX.alt` could not be read.
    #[error(transparent)]
    Alt(#[from] AltError),
    /// The reads could not be read.
    #[error(transparent)]
    Reads(#[from] ReadsError),
    /// A read is too long for what is ported.
    #[error("read {name}")]
    LongRead {
        /// The read's name.
        name: String,
        /// Why.
        source: LongReadError,
    },
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

/// A `galign seeds` run.
#[derive(Clone, Debug)]
pub struct SeedsRun {
    /// The prefix of bwa's index files.
    pub prefix: PathBuf,
    /// The reads (`-` for stdin).
    pub reads: PathBuf,
    /// Where the output goes (stdout when `None`).
    pub output: Option<PathBuf>,
    /// What to write.
    pub format: SeedsFormat,
    /// bwa mem's options.
    pub options: MemOptions,
}

/// The index with its ALT flags.
struct Loaded {
    index: BwaIndex,
    alt: Vec<bool>,
}

/// Runs `galign seeds`: the index loaded, the output written to stdout or, complete, to
/// the output file.
pub fn run(run: &SeedsRun, log: &Reporter) -> Result<(), SeedsError> {
    if let Some(output) = &run.output {
        let inputs = [("the reads", run.reads.as_path())];
        crate::atomic_file::ensure_distinct(&inputs, &[("the output", output.as_path())])?;
    }
    let index = log.step("load bwa index", || BwaIndex::load(&run.prefix))?;
    let alt = super::alt_contigs(&run.prefix, &index.contigs)?;
    let loaded = Loaded { index, alt };
    crate::atomic_file::write_output(run.output.as_deref(), |out| seeds(&loaded, run, out))
}

impl crate::atomic_file::OutputErrors for SeedsError {
    fn file(path: &Path, source: std::io::Error) -> SeedsError {
        SeedsError::WriteFile {
            path: path.to_path_buf(),
            source,
        }
    }

    fn stdout(source: std::io::Error) -> SeedsError {
        SeedsError::Write(source)
    }

    fn into_write(self) -> Result<std::io::Error, SeedsError> {
        match self {
            SeedsError::Write(io) => Ok(io),
            other => Err(other),
        }
    }
}

/// Writes the records of every read of `run.reads` to `out`: batches read, chained in
/// parallel and written in order, overlapped ([`crate::pipeline`]).
fn seeds(loaded: &Loaded, run: &SeedsRun, out: &mut dyn Write) -> Result<(), SeedsError> {
    let source = ReadSource::Single(run.reads.clone());
    let mut reader = BatchReader::open(&source, rayon::current_num_threads())?;
    crate::pipeline::ordered(
        || Ok(reader.next_batch(BATCH)?),
        |batch| batch_output(loaded, &batch, run),
        |pieces| crate::pipeline::write_pieces(out, &pieces).map_err(SeedsError::Write),
    )
}

/// The output of the reads of `batch`, a piece a chunk of reads, chained in parallel.
fn batch_output(
    loaded: &Loaded,
    batch: &ReadBatch,
    run: &SeedsRun,
) -> Result<Vec<Vec<u8>>, SeedsError> {
    crate::pipeline::chunks(batch.len(), CHUNK)
        .into_par_iter()
        .map(|reads| write_reads(loaded, batch, reads, run))
        .collect()
}

/// The records of reads `reads` of `batch`.
fn write_reads(
    loaded: &Loaded,
    batch: &ReadBatch,
    reads: Range<usize>,
    run: &SeedsRun,
) -> Result<Vec<u8>, SeedsError> {
    let mut finder = ChainFinder::default();
    let mut out = Vec::with_capacity(reads.len() * 512);
    for i in reads {
        let name = bwa_name(batch.header_word(i));
        let seq = batch.seq(i);
        let chains = read_chains(&mut finder, &loaded.index, &loaded.alt, seq, &run.options)
            .map_err(|source| SeedsError::LongRead {
                name: String::from_utf8_lossy(name).into_owned(),
                source,
            })?;
        match run.format {
            SeedsFormat::Tsv => {
                super::print::tsv(&mut out, &loaded.index, name, seq.len(), &chains)
            }
            SeedsFormat::BwaDebug => {
                super::print::bwa_debug(&mut out, &loaded.index, name, &chains)
            }
        }
    }
    Ok(out)
}

/// The read's name as bwa mem keeps it: a trailing `/` and digit cut (`trim_readno`).
fn bwa_name(word: &[u8]) -> &[u8] {
    match word {
        [rest @ .., b'/', d] if !rest.is_empty() && d.is_ascii_digit() => rest,
        _ => word,
    }
}
