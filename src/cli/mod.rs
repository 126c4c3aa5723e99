//! The command line's arguments, a file a command ([`index`], [`map`], [`sa`],
//! [`fastmap`], [`seeds`], [`mem`]): each
//! turns its clap arguments into the library's options and runs its command; the options
//! every command shares (threads, device) and their setup here.

pub mod fastmap;
pub mod index;
pub mod map;
pub mod mem;
pub mod sa;
pub mod seeds;

use crate::device::DeviceChoice;
use crate::progress::{Reporter, Verbosity};
use crate::threads::PoolError;

/// Options every subcommand shares.
#[derive(clap::Args)]
struct Common {
    /// Worker threads [default: all CPUs].
    #[arg(short = 't', long = "threads", value_name = "N")]
    threads: Option<usize>,
    /// Where to run the heavy stages: auto (GPU if usable, else CPU), cpu, or gpu.
    #[arg(long, value_enum, default_value = "auto")]
    device: DeviceChoice,
    /// Print per-step timings on stderr.
    #[arg(long, conflicts_with = "quiet")]
    verbose: bool,
    /// Print only warnings and errors on stderr (no device line, summary, spinner or
    /// progress line; spinners and progress show on a terminal only).
    #[arg(short = 'q', long)]
    quiet: bool,
}

/// Why a command could not start.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// `-t 0`.
    #[error("-t must be at least 1")]
    NoThreads,
    /// The worker threads could not start.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// `galign index` given more than one reference without `--assemble` (as `index -v
    /// 2 ref.fa` gives, `-v` being `--verbose` there).
    #[error("{0}")]
    StrayArgument(String),
}

impl Common {
    /// Applies the thread count and returns the reporter for the run (`verbose`: with
    /// per-step timings, as `--verbose` asks; a command's own `-v` for it).
    fn setup(&self, verbose: bool) -> Result<Reporter, SetupError> {
        if self.threads == Some(0) {
            return Err(SetupError::NoThreads);
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (threads, note) = crate::threads::worker_count(self.threads, cores);
        if let Some(note) = note {
            eprintln!("galign: warning: {note}");
        }
        crate::threads::start_pool(threads)?;
        Ok(Reporter::with_verbosity(self.verbosity(verbose)))
    }

    /// What `--quiet` and `--verbose` (or `verbose`, a command's own `-v`) ask for.
    fn verbosity(&self, verbose: bool) -> Verbosity {
        match (self.quiet, self.verbose || verbose) {
            (true, _) => Verbosity::Quiet,
            (false, true) => Verbosity::Verbose,
            (false, false) => Verbosity::Normal,
        }
    }
}
