//! The `galign` command line: a thin layer over the `galign` library that parses the
//! arguments ([`galign::cli`]), hands each command to the library, and prints its error.

use std::error::Error;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use galign::cli::{
    fastmap::FastmapArgs, index::IndexArgs, map::MapArgs, mem::MemArgs, sa::SaArgs,
    seeds::SeedsArgs,
};

/// GPU-accelerated read aligner (exact or up to 3 mismatches): FM-index construction
/// and mapping.
#[derive(Parser)]
#[command(name = "galign", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the index of a FASTA reference (writes PREFIX.galign); on several nodes, one
    /// share of it per job (--parts N --part I), then the index from the shares (--assemble).
    Index(IndexArgs),
    /// Map reads (FASTQ) to an index, exactly or with up to K mismatches (-v K); writes
    /// SAM or BAM.
    Map(MapArgs),
    /// Write the suffix array of a FASTA reference's text (little-endian integers).
    Sa(SaArgs),
    /// The super-maximal exact matches of reads and their hits, byte-identical to `bwa
    /// fastmap` (0.7.17) on bwa's index (`galign index --format bwa` or `bwa index`).
    Fastmap(FastmapArgs),
    /// Each read's seeds and chains as bwa mem (0.7.17) builds them before extension, on
    /// bwa's index: TSV, or `bwa mem -v 4`'s chain lines (--format bwa-debug).
    Seeds(SeedsArgs),
    /// Align single-end reads as `bwa mem` (0.7.17) does, on bwa's index; writes SAM
    /// whose records equal bwa's.
    Mem(MemArgs),
}

/// The system's allocator, watched so that running out of memory is a clear error.
#[global_allocator]
static ALLOCATOR: galign::out_of_memory::WatchedAllocator = galign::out_of_memory::WatchedAllocator;

fn main() -> ExitCode {
    galign::gpu::use_one_work_queue(); // first: no thread has started
    let cli = Cli::parse();
    galign::threads::stop_cleanly_when_threads_fail();
    if let Err(e) = galign::signals::stop_cleanly_on_signals() {
        eprintln!(
            "galign: warning: cannot handle signals ({e}); a killed run may leave temporary files"
        );
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of stdout left (`galign map ... | head`): stop quietly, as samtools
        // and bwa do.
        Err(e) if is_broken_pipe(&*e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("galign: error: {}", error_text(&*e));
            ExitCode::FAILURE
        }
    }
}

/// `error` and its causes, each said once: a cause whose text its parent's message
/// already holds (an error that prints its source, then returns it as its source too)
/// is left out.
fn error_text(error: &(dyn Error + 'static)) -> String {
    let mut text = String::new();
    for cause in causes(error) {
        let said = cause.to_string();
        if text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

/// Whether `error` comes from writing to a pipe whose reader has closed it.
fn is_broken_pipe(error: &(dyn Error + 'static)) -> bool {
    causes(error).any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `error`, then its source, the source's source, and so on.
fn causes<'e>(error: &'e (dyn Error + 'static)) -> impl Iterator<Item = &'e (dyn Error + 'static)> {
    std::iter::successors(Some(error), |&e| e.source())
}

fn run(cli: Cli) -> Result<(), Box<dyn Error>> {
    match cli.command {
        Command::Index(args) => {
            let log = args.setup()?;
            Ok(args.run(&log)?)
        }
        Command::Map(args) => {
            let log = args.setup()?;
            Ok(args.run(&log)?)
        }
        Command::Sa(args) => {
            let log = args.setup()?;
            Ok(args.run(&log)?)
        }
        Command::Fastmap(args) => {
            let log = args.setup()?;
            Ok(args.run(&log)?)
        }
        Command::Seeds(args) => {
            let log = args.setup()?;
            Ok(args.run(&log)?)
        }
        Command::Mem(args) => {
            let log = args.setup()?;
            Ok(args.run(&log)?)
        }
    }
}
