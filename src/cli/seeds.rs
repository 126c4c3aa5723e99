//! `galign seeds`'s arguments: bwa mem's seeding and chaining options (0.7.17), the
//! output format, and galign's `-t` and `-o`.

use std::path::PathBuf;

use super::SetupError;
use crate::mem::run::{SeedsError, SeedsFormat, SeedsRun};
use crate::mem::MemOptions;
use crate::progress::Reporter;

/// `galign seeds`'s arguments.
#[derive(clap::Args)]
pub struct SeedsArgs {
    /// Prefix of bwa's index files (PREFIX.bwt, .sa, .ann; PREFIX.alt if present).
    prefix: PathBuf,
    /// Reads (FASTQ, FASTA or unaligned BAM), or `-` for stdin.
    reads: PathBuf,
    /// Minimum seed length.
    #[arg(short = 'k', value_name = "INT", default_value_t = 19)]
    min_seed_len: i32,
    /// Band width.
    #[arg(short = 'w', value_name = "INT", default_value_t = 100)]
    band_width: i32,
    /// Look for internal seeds inside a seed longer than {-k} * FLOAT.
    #[arg(short = 'r', value_name = "FLOAT", default_value_t = 1.5)]
    split_factor: f32,
    /// Seed occurrence for the 3rd round seeding.
    #[arg(short = 'y', value_name = "INT", default_value_t = 20)]
    max_mem_intv: i64,
    /// Look for internal seeds inside a seed with at most INT occurrences.
    #[arg(short = 's', value_name = "INT", default_value_t = 10)]
    split_width: i32,
    /// Skip seeds with more than INT occurrences (sampled down to INT).
    #[arg(short = 'c', value_name = "INT", default_value_t = 500)]
    max_occ: i32,
    /// Drop chains shorter than FLOAT fraction of the longest overlapping chain.
    #[arg(short = 'D', value_name = "FLOAT", default_value_t = 0.5)]
    drop_ratio: f32,
    /// Discard a chain if seeded bases are shorter than INT.
    #[arg(short = 'W', value_name = "INT", default_value_t = 0)]
    min_chain_weight: i32,
    /// Longest gap inside a chain.
    #[arg(short = 'G', value_name = "INT", default_value_t = 10000)]
    max_chain_gap: i32,
    /// Most chains that overlap a better one kept.
    #[arg(short = 'N', value_name = "INT", default_value_t = 1 << 30)]
    max_chain_extend: i32,
    /// Share of the shorter chain two chains must overlap by to compete.
    #[arg(short = 'X', value_name = "FLOAT", default_value_t = 0.5)]
    mask_level: f32,
    /// Output: tsv (docs/SEEDS.md) or bwa-debug (`bwa mem -v 4`'s chain lines).
    #[arg(long, value_enum, default_value = "tsv")]
    format: SeedsFormat,
    /// Output file [default: stdout].
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    common: super::Common,
}

impl SeedsArgs {
    /// Applies the thread count and returns the run's reporter.
    pub fn setup(&self) -> Result<Reporter, SetupError> {
        self.common.setup(false)
    }

    /// Writes the chains of the reads, on the CPU (`--device gpu` refused).
    pub fn run(self, log: &Reporter) -> Result<(), SeedsError> {
        if self.common.device == crate::device::DeviceChoice::Gpu {
            return Err(SeedsError::GpuOnly);
        }
        let options = MemOptions {
            min_seed_len: self.min_seed_len,
            split_factor: self.split_factor,
            split_width: self.split_width,
            max_mem_intv: self.max_mem_intv,
            max_occ: self.max_occ,
            band_width: self.band_width,
            max_chain_gap: self.max_chain_gap,
            mask_level: self.mask_level,
            drop_ratio: self.drop_ratio,
            min_chain_weight: self.min_chain_weight,
            max_chain_extend: self.max_chain_extend,
        };
        let run = SeedsRun {
            prefix: self.prefix,
            reads: self.reads,
            output: self.output,
            format: self.format,
            options,
        };
        crate::mem::run::run(&run, log)
    }
}
