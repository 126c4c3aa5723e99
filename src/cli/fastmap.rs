//! `galign fastmap`'s arguments: bwa fastmap's options (0.7.17), and galign's `-t`,
//! `--device` and `-o`.

use std::path::PathBuf;

use super::SetupError;
use crate::progress::Reporter;
use crate::seed::fastmap::{FastmapError, FastmapOptions, FastmapRun};
use crate::seed::SmemConfig;

/// `galign fastmap`'s arguments.
#[derive(clap::Args)]
pub struct FastmapArgs {
    /// Prefix of bwa's index files (PREFIX.bwt, .sa, .ann).
    prefix: PathBuf,
    /// Reads (FASTQ, FASTA or unaligned BAM), or `-` for stdin (plain, gzip, BGZF, bzip2,
    /// zstd or xz).
    reads: PathBuf,
    /// Shortest SMEM printed.
    #[arg(short = 'l', value_name = "MIN_LEN", default_value_t = 17)]
    min_len: i32,
    /// Most hits listed for an SMEM; one with more prints `*`.
    #[arg(short = 'w', value_name = "MAX_HITS", default_value_t = 20)]
    max_hits: i64,
    /// Least interval size an SMEM is extended to (bwa's -i).
    #[arg(short = 'i', value_name = "INT", default_value_t = 1)]
    min_intv: i32,
    /// Stop extending a match longer than -l with fewer occurrences than INT (bwa's -I).
    #[arg(short = 'I', value_name = "INT", default_value_t = 0)]
    max_intv: u64,
    /// Longest MEM: accepted as bwa 0.7.17 accepts it, with no effect there either.
    #[arg(short = 'L', value_name = "INT")]
    max_len: Option<i32>,
    /// Print each read's bases on its SQ line.
    #[arg(short = 'p')]
    print_seq: bool,
    /// Output file [default: stdout].
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    common: super::Common,
}

impl FastmapArgs {
    /// Applies the thread count and returns the run's reporter.
    pub fn setup(&self) -> Result<Reporter, SetupError> {
        self.common.setup(false)
    }

    /// Prints the SMEMs of the reads (`-L`, as in bwa 0.7.17, changes nothing).
    pub fn run(self, log: &Reporter) -> Result<(), FastmapError> {
        let options = FastmapOptions {
            min_len: self.min_len,
            max_hits: self.max_hits,
            config: SmemConfig {
                min_intv: self.min_intv,
                max_intv: self.max_intv,
            },
            print_seq: self.print_seq,
        };
        let run = FastmapRun {
            prefix: self.prefix,
            reads: self.reads,
            output: self.output,
            device: self.common.device,
            options,
        };
        crate::seed::fastmap::run(&run, log)
    }
}
