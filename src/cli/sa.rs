//! `galign sa`'s arguments.

use std::path::PathBuf;

use super::SetupError;
use crate::gpu::sa::Algorithm;
use crate::index::sa_file::SaFileError;
use crate::progress::Reporter;

/// `galign sa`'s arguments.
#[derive(clap::Args)]
pub struct SaArgs {
    /// Reference FASTA, or `-` for stdin (plain, gzip, BGZF, bzip2, zstd or xz).
    reference: PathBuf,
    /// Output file: the suffix array of the concatenated contigs (ambiguity codes
    /// replaced as in the index), sentinel excluded, u32 little-endian (u64
    /// little-endian when the text has 2^32 - 2 bases or more, built on the CPU).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: PathBuf,
    /// For tests only: u64 output even when u32 fits (built on the CPU).
    #[arg(long, hide = true)]
    force_u64_positions: bool,
    /// Suffix-array algorithm of a GPU build (the CPU has one); all give the same
    /// output. docs/GPU.md compares their speed and device memory
    #[arg(long, value_enum, value_name = "ALGORITHM", default_value = "auto")]
    sa_algorithm: Algorithm,
    /// --verbose's former spelling, kept for scripts.
    #[arg(short = 'v', hide = true)]
    short_verbose: bool,
    #[command(flatten)]
    common: super::Common,
}

impl SaArgs {
    /// Applies the thread count and returns the run's reporter.
    pub fn setup(&self) -> Result<Reporter, SetupError> {
        self.common.setup(self.short_verbose)
    }

    /// Writes the suffix array the arguments ask for.
    pub fn run(self, log: &Reporter) -> Result<(), SaFileError> {
        let device = (self.common.device, self.sa_algorithm);
        crate::index::sa_file::write_suffix_array(
            &self.reference,
            &self.output,
            device,
            self.force_u64_positions,
            log,
        )
    }
}
