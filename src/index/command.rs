//! The `galign index` command: one of its jobs as the command line asks, a whole index
//! (galign's file, or bwa's five), one share of it (`--parts N --part I`), or the index
//! from the shares (`--assemble`).

use std::path::{Path, PathBuf};

use super::build::{build_index, BuildError, BuildOptions};
use super::bwa_format::BwaError;
use super::parts::{PartError, PartSpec};
use crate::device::DeviceChoice;
use crate::progress::Reporter;

/// The index files `galign index` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IndexFormat {
    /// PREFIX.galign.
    Galign,
    /// bwa's five files.
    Bwa,
}

/// What one `galign index` run builds.
#[derive(Clone, Debug)]
pub enum IndexJob {
    /// The whole index, in `format`, built with `options`.
    Whole {
        /// The files to write.
        format: IndexFormat,
        /// How to build it.
        options: BuildOptions,
    },
    /// One share of the index, written to a part file.
    Part {
        /// The share.
        spec: PartSpec,
        /// The suffix-array sampling rate.
        sample_rate: u32,
        /// The part file.
        output: PathBuf,
    },
    /// The index from the part files of every share.
    Assemble {
        /// The part files.
        part_files: Vec<PathBuf>,
    },
}

/// Why `galign index` failed.
#[derive(Debug, thiserror::Error)]
pub enum IndexCommandError {
    /// No prefix was given for a reference read from a stream.
    #[error(
        "{0}: the FASTA comes from a stream, which has no file name to name the index \
         after: give the index prefix with -p PREFIX"
    )]
    StreamPrefix(String),
    /// `--device gpu` with a job that runs on the CPU only.
    #[error("--device gpu: --parts and --assemble run on the CPU")]
    CpuOnly,
    /// Building galign's index failed.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// Building a share, or assembling the shares, failed.
    #[error(transparent)]
    Parts(#[from] PartError),
    /// Building bwa's index failed.
    #[error(transparent)]
    Bwa(#[from] BwaError),
}

/// Runs `job` on the FASTA `reference`, writing the index under `prefix` (default: the
/// FASTA's path, which a stream has not), on `device`.
pub fn run(
    reference: &Path,
    prefix: Option<PathBuf>,
    device: DeviceChoice,
    job: IndexJob,
    log: &Reporter,
) -> Result<(), IndexCommandError> {
    match job {
        IndexJob::Part {
            spec,
            sample_rate,
            output,
        } => {
            ensure_cpu(device)?;
            Ok(super::parts::build_part(
                reference,
                spec,
                sample_rate,
                &output,
                log,
            )?)
        }
        IndexJob::Assemble { part_files } => {
            let prefix = prefix_or_reference(prefix, reference)?;
            ensure_cpu(device)?;
            Ok(super::parts::assemble(
                reference,
                &prefix,
                &part_files,
                device,
                log,
            )?)
        }
        IndexJob::Whole { format, options } => {
            let prefix = prefix_or_reference(prefix, reference)?;
            match format {
                IndexFormat::Galign => Ok(build_index(reference, &prefix, options, log)?),
                IndexFormat::Bwa => Ok(super::bwa_format::build_bwa_index(
                    reference, &prefix, options, log,
                )?),
            }
        }
    }
}

/// The index prefix: `prefix` as given, else the FASTA's path `reference`; refused for
/// a stream, which has no path to name the index after.
fn prefix_or_reference(
    prefix: Option<PathBuf>,
    reference: &Path,
) -> Result<PathBuf, IndexCommandError> {
    match prefix {
        Some(prefix) => Ok(prefix),
        None if crate::io::is_stream(reference) => Err(IndexCommandError::StreamPrefix(
            crate::io::shown_name(reference),
        )),
        None => Ok(reference.to_path_buf()),
    }
}

/// Refuses `--device gpu` for the index jobs that run on the CPU only.
fn ensure_cpu(device: DeviceChoice) -> Result<(), IndexCommandError> {
    match device {
        DeviceChoice::Gpu => Err(IndexCommandError::CpuOnly),
        _ => Ok(()),
    }
}
