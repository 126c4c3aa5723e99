//! `galign index`'s arguments, and the job they ask for ([`IndexJob`]).

use std::path::PathBuf;

use super::SetupError;
use crate::gpu::sa::Algorithm;
use crate::index::command::{IndexCommandError, IndexFormat, IndexJob};
use crate::index::devices::{GpuCount, GpuOptions};
use crate::index::parts::PartSpec;
use crate::index::BuildOptions;
use crate::progress::Reporter;

/// `galign index`'s arguments.
#[derive(clap::Args)]
pub struct IndexArgs {
    /// Reference FASTA, or `-` for stdin (plain, gzip, BGZF, bzip2, zstd or xz).
    reference: PathBuf,
    /// Index prefix: the index is written to PREFIX.galign [default: the FASTA path;
    /// required when the FASTA is `-` or a pipe].
    #[arg(short = 'p', long = "prefix", value_name = "PREFIX")]
    prefix: Option<PathBuf>,
    /// Keep the text position of one suffix in every N (larger: smaller index, slower locate).
    #[arg(long, value_name = "N", default_value_t = crate::fm::DEFAULT_SAMPLE_RATE,
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    sample_rate: u32,
    /// Several jobs (nodes): cut the suffix array into N shares, of which this job builds
    /// the one given with --part, into the part file given with -o; every job derives the
    /// same shares from the reference and N alone. Then `--assemble` builds the index
    /// from the N part files. Part files are sorted on the CPU.
    #[arg(long, value_name = "N", requires = "part", conflicts_with_all = ["memory", "gpu_memory", "prefix"],
          value_parser = clap::value_parser!(u32).range(1..))]
    parts: Option<u32>,
    /// The share to build with --parts N: 0 to N-1.
    #[arg(long, value_name = "I", requires_all = ["parts", "output"])]
    part: Option<u32>,
    /// The part file to write (with --parts and --part).
    #[arg(short = 'o', long = "output", value_name = "FILE", requires = "part")]
    output: Option<PathBuf>,
    /// Build PREFIX.galign from the part files PART... of REFERENCE (those of every share
    /// I of one --parts N, in any order): the same file as `galign index`. Part files of
    /// another reference or N, a missing or repeated share, or a corrupt file are errors
    /// that name the file; nothing is written then.
    #[arg(long, requires = "part_files", conflicts_with_all = ["parts", "memory", "gpu_memory", "sample_rate"])]
    assemble: bool,
    /// Part files, with --assemble.
    #[arg(value_name = "PART")]
    part_files: Vec<PathBuf>,
    /// Host memory budget of the build (e.g. 16G, 512M; suffixes K, M, G, T, powers of
    /// 1024): the suffix array is then sorted in parts that keep the build within it; too
    /// small a budget is an error that names the least that works. It bounds the CPU's
    /// suffix sorting (with `--device cpu`, or after a GPU failure) and the host side of
    /// a GPU build in parts (the CUDA driver's own host memory, about 100 MB, aside)
    /// [default: no limit]
    #[arg(long, value_name = "SIZE", value_parser = crate::units::parse_size)]
    memory: Option<u64>,
    /// Device memory budget of the GPU build (same units as --memory): the build runs
    /// whole where it fits (31 bytes a base with doubling, 20 with hybrid and auto, 12
    /// with skew, which auto takes in turn), else sorts the suffix array in parts
    /// on the GPU that keep it within the budget; too small a budget is an error that
    /// names the least that works [default: the device's free memory less 1 GiB]
    #[arg(long, value_name = "SIZE", value_parser = crate::units::parse_size)]
    gpu_memory: Option<u64>,
    /// GPUs to build on: the first N visible devices, or all (CUDA_VISIBLE_DEVICES
    /// chooses which are visible). A build that fits one GPU whole runs on the first
    /// (faster than parts); a build in parts (see --gpu-memory) spreads its parts over
    /// all of them, each within --gpu-memory, with the same output. Under --device auto
    /// a GPU that fails hands its parts to the others; under --device gpu it fails the
    /// build
    #[arg(long, value_name = "N|all", default_value = "all")]
    gpus: GpuCount,
    /// Suffix-array algorithm of a GPU build (the CPU has one); all give the same
    /// output. docs/GPU.md compares their speed and device memory
    #[arg(long, value_enum, value_name = "ALGORITHM", default_value = "auto")]
    sa_algorithm: Algorithm,
    /// Index files to write: galign (PREFIX.galign) or bwa (PREFIX.amb, .ann, .bwt, .pac
    /// and .sa, byte-identical to what `bwa index` 0.7.17 writes, built on the GPU or
    /// CPU as galign's own, within --memory and --gpu-memory)
    #[arg(long, value_enum, default_value = "galign", conflicts_with_all = ["parts", "assemble"])]
    format: IndexFormat,
    /// For tests only: 64-bit positions even when 32 bits fit (on the GPU, built in parts).
    #[arg(long, hide = true, conflicts_with_all = ["parts", "assemble"])]
    force_u64_positions: bool,
    /// --verbose's former spelling, kept for scripts (`-v K` is map's mismatch count).
    #[arg(short = 'v', hide = true)]
    short_verbose: bool,
    #[command(flatten)]
    common: super::Common,
}

impl IndexArgs {
    /// Applies the thread count and returns the run's reporter; more than one positional
    /// argument without `--assemble` is an error that says why.
    pub fn setup(&self) -> Result<Reporter, SetupError> {
        if let (false, Some(stray)) = (self.assemble, self.part_files.first()) {
            return Err(SetupError::StrayArgument(self.stray_argument(stray)));
        }
        self.common.setup(self.short_verbose)
    }

    /// The error for `stray`, a second positional argument without `--assemble`.
    fn stray_argument(&self, stray: &std::path::Path) -> String {
        let mut text = format!(
            "unexpected argument '{}': `galign index` takes one reference FASTA (part files \
             follow it only with --assemble)",
            stray.display()
        );
        let number = self
            .reference
            .to_str()
            .is_some_and(|r| r.parse::<u8>().is_ok());
        if self.short_verbose && number {
            text += &format!(
                "; `-v` here is --verbose and takes no value ('{}' was read as the \
                 reference): -v K, the mismatch count, is `galign map`'s",
                self.reference.display()
            );
        }
        text
    }

    /// Runs the job the arguments ask for.
    pub fn run(self, log: &Reporter) -> Result<(), IndexCommandError> {
        let (reference, prefix) = (self.reference.clone(), self.prefix.clone());
        let device = self.common.device;
        crate::index::command::run(&reference, prefix, device, self.job(), log)
    }

    /// The job of `galign index` that the arguments ask for.
    fn job(self) -> IndexJob {
        if let (Some(parts), Some(part), Some(output)) = (self.parts, self.part, self.output) {
            let spec = PartSpec { parts, part };
            let sample_rate = self.sample_rate;
            return IndexJob::Part {
                spec,
                sample_rate,
                output,
            };
        }
        if self.assemble {
            return IndexJob::Assemble {
                part_files: self.part_files,
            };
        }
        let gpu = GpuOptions {
            budget: self.gpu_memory,
            count: self.gpus,
            algorithm: self.sa_algorithm,
        };
        let options = BuildOptions {
            sample_rate: self.sample_rate,
            device: self.common.device,
            memory: self.memory,
            gpu,
            force_u64: self.force_u64_positions,
        };
        IndexJob::Whole {
            format: self.format,
            options,
        }
    }
}
