//! The `galign` command line: a thin layer over the `galign` library.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

use galign::device::{DeviceChoice, NOT_USED};
use galign::gpu::sa::Algorithm as SaAlgorithm;
use galign::gpu::GpuError;
use galign::io::ReadSource;
use galign::map::MapOptions;
use galign::progress::Reporter;
use galign::sa::Width;

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
}

/// Options every subcommand shares.
#[derive(Args)]
struct Common {
    /// Worker threads [default: all CPUs].
    #[arg(short = 't', long = "threads", value_name = "N")]
    threads: Option<usize>,
    /// Where to run the heavy stages: auto (GPU if usable, else CPU), cpu, or gpu.
    #[arg(long, value_enum, default_value = "auto")]
    device: DeviceChoice,
}

/// The index files `galign index` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum IndexFormat {
    /// PREFIX.galign.
    Galign,
    /// bwa's five files.
    Bwa,
}

#[derive(Args)]
struct IndexArgs {
    /// Reference FASTA, or `-` for stdin (plain, gzip, BGZF, bzip2, zstd or xz).
    reference: PathBuf,
    /// Index prefix: the index is written to PREFIX.galign [default: the FASTA path;
    /// required when the FASTA is `-` or a pipe].
    #[arg(short = 'p', long = "prefix", value_name = "PREFIX")]
    prefix: Option<PathBuf>,
    /// Keep the text position of one suffix in every N (larger: smaller index, slower locate).
    #[arg(long, value_name = "N", default_value_t = galign::fm::DEFAULT_SAMPLE_RATE,
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
    #[arg(value_name = "PART", requires = "assemble")]
    part_files: Vec<PathBuf>,
    /// Host memory budget of the build (e.g. 16G, 512M; suffixes K, M, G, T, powers of
    /// 1024): the suffix array is then sorted in parts that keep the build within it; too
    /// small a budget is an error that names the least that works. It bounds the CPU's
    /// suffix sorting (with `--device cpu`, or after a GPU failure) and the host side of
    /// a GPU build in parts (the CUDA driver's own host memory, about 100 MB, aside)
    /// [default: no limit]
    #[arg(long, value_name = "SIZE", value_parser = galign::units::parse_size)]
    memory: Option<u64>,
    /// Device memory budget of the GPU build (same units as --memory): the build runs
    /// whole where it fits (up to 30 bytes a base; 16 with skew, 24 with hybrid), else
    /// sorts the suffix array in parts
    /// on the GPU that keep it within the budget; too small a budget is an error that
    /// names the least that works [default: the device's free memory less 1 GiB]
    #[arg(long, value_name = "SIZE", value_parser = galign::units::parse_size)]
    gpu_memory: Option<u64>,
    /// GPUs to build on: the first N visible devices, or all (CUDA_VISIBLE_DEVICES
    /// chooses which are visible). A build that fits one GPU whole runs on the first
    /// (faster than parts); a build in parts (see --gpu-memory) spreads its parts over
    /// all of them, each within --gpu-memory, with the same output. Under --device auto
    /// a GPU that fails hands its parts to the others; under --device gpu it fails the
    /// build
    #[arg(long, value_name = "N|all", default_value = "all")]
    gpus: galign::device::GpuCount,
    /// Suffix-array algorithm of a GPU build (the CPU has one); all give the same
    /// output. docs/GPU.md compares their speed and device memory
    #[arg(long, value_enum, value_name = "ALGORITHM", default_value = "auto")]
    sa_algorithm: SaAlgorithm,
    /// Index files to write: galign (PREFIX.galign) or bwa (PREFIX.amb, .ann, .bwt, .pac
    /// and .sa, byte-identical to what `bwa index` 0.7.17 writes, built on the GPU or
    /// CPU as galign's own, within --memory and --gpu-memory)
    #[arg(long, value_enum, default_value = "galign", conflicts_with_all = ["parts", "assemble"])]
    format: IndexFormat,
    /// For tests only: 64-bit positions even when 32 bits fit (on the GPU, built in parts).
    #[arg(long, hide = true, conflicts_with_all = ["parts", "assemble"])]
    force_u64_positions: bool,
    /// Print per-step timings on stderr.
    #[arg(short = 'v', long)]
    verbose: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct MapArgs {
    /// Index prefix (the PREFIX of PREFIX.galign, as given to `galign index`).
    prefix: PathBuf,
    /// Reads: FASTQ (or FASTA), or `-` for stdin; plain, gzip, BGZF, bzip2, zstd or xz.
    reads: PathBuf,
    /// Mate 2 reads, in the same order as READS (paired-end).
    mates: Option<PathBuf>,
    /// Output file; BAM when it ends in .bam, SAM otherwise [default: SAM on stdout].
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Read group header line, e.g. '@RG\tID:s1\tSM:sample1'; every record gets RG:Z:<ID>.
    #[arg(short = 'R', long = "read-group", value_name = "STR")]
    read_group: Option<String>,
    /// List up to N alternative hits in the XA tag of the primary record.
    #[arg(
        short = 'k',
        long = "alternatives",
        value_name = "N",
        default_value_t = 5,
        conflicts_with = "all"
    )]
    alternatives: usize,
    /// Write every hit: the primary, then the others as secondary records (flag 0x100).
    #[arg(short = 'a', long = "all")]
    all: bool,
    /// READS is interleaved paired-end (mate 1, mate 2, mate 1, ...).
    #[arg(short = 'p', long = "interleaved", conflicts_with = "mates")]
    interleaved: bool,
    /// Largest insert (outer distance) of a proper pair.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_insert: u64,
    /// BAM compression level, 0 (stored, no compression) to 9 (smallest), as samtools'
    /// -l: lower levels compress faster into larger files. The default, 1, is the
    /// fastest that compresses (as STAR's BAM: unsorted output is usually sorted next);
    /// 6 is samtools' default (a file 8% smaller, compressed at a third of the speed).
    /// SAM output ignores it.
    #[arg(short = 'l', long = "compression-level", value_name = "LEVEL",
          default_value_t = galign::sam::DEFAULT_BAM_LEVEL,
          value_parser = clap::value_parser!(u8).range(0..=9))]
    compression_level: u8,
    /// Reads (or pairs) per batch; output does not depend on it.
    // 131,072: H200 hosts, 16 cores, seven rounds against 65,536 (BENCHMARKS.md, session
    // 28, r156): every row's median as fast or faster (HG002 -> SAM 0.369 against 0.395
    // s), peak memory alike.
    #[arg(long, value_name = "N", default_value_t = 131072, value_parser = clap::value_parser!(u64).range(1..))]
    batch_size: u64,
    /// Also write the run's summary as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    stats: Option<PathBuf>,
    /// Report alignments with at most K mismatches (0 to 3), end to end, no gaps, as
    /// bowtie's -v K; a non-ACGT read base is a mismatch. K > 0 searches on the CPU.
    #[arg(short = 'v', long = "mismatches", value_name = "K", default_value_t = 0,
          value_parser = clap::value_parser!(u8).range(0..=galign::search::schemes::MAX_MISMATCHES as i64))]
    mismatches: u8,
    /// Print per-step timings on stderr (-v is the mismatch count here, as in bowtie).
    #[arg(long)]
    verbose: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct SaArgs {
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
    sa_algorithm: SaAlgorithm,
    /// Print per-step timings on stderr.
    #[arg(short = 'v', long)]
    verbose: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct FastmapArgs {
    /// Prefix of bwa's index files (PREFIX.bwt, .sa, .ann).
    prefix: PathBuf,
    /// Reads (FASTQ or FASTA), or `-` for stdin (plain, gzip, BGZF, bzip2, zstd or xz).
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
    common: Common,
}

/// The system's allocator, watched so that running out of memory is a clear error.
#[global_allocator]
static ALLOCATOR: galign::out_of_memory::WatchedAllocator = galign::out_of_memory::WatchedAllocator;

fn main() -> ExitCode {
    galign::gpu::use_one_work_queue(); // first: no thread has started
    let cli = Cli::parse();
    galign::threads::stop_cleanly_when_threads_fail();
    if let Err(e) = stop_cleanly_on_signals() {
        eprintln!(
            "galign: warning: cannot handle signals ({e}); a killed run may leave temporary files"
        );
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of stdout left (`galign map ... | head`): stop quietly, as samtools
        // and bwa do.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("galign: error: {}", error_text(&e));
            ExitCode::FAILURE
        }
    }
}

/// `error` and its causes, each said once: a cause whose text its parent's message
/// already holds (an error that prints its source, then returns it as its source too)
/// is left out.
fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
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
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Index(args) if args.parts.is_some() => {
            let log = setup(&args.common, args.verbose)?;
            ensure_cpu(&args.common)?;
            let (Some(parts), Some(part), Some(output)) = (args.parts, args.part, &args.output)
            else {
                unreachable!("clap requires --part and -o with --parts");
            };
            let spec = galign::index::parts::PartSpec { parts, part };
            galign::index::parts::build_part(&args.reference, spec, args.sample_rate, output, &log)
        }
        Command::Index(args) => {
            let log = setup(&args.common, args.verbose)?;
            let prefix = match args.prefix {
                Some(prefix) => prefix,
                None if galign::io::is_stream(&args.reference) => anyhow::bail!(
                    "{}: the FASTA comes from a stream, which has no file name to name the \
                     index after: give the index prefix with -p PREFIX",
                    galign::io::shown_name(&args.reference)
                ),
                None => args.reference.clone(),
            };
            if args.assemble {
                ensure_cpu(&args.common)?;
                return galign::index::parts::assemble(
                    &args.reference,
                    &prefix,
                    &args.part_files,
                    args.common.device,
                    &log,
                );
            }
            let options = galign::index::BuildOptions {
                sample_rate: args.sample_rate,
                device: args.common.device,
                memory: args.memory,
                gpu: galign::device::GpuOptions {
                    budget: args.gpu_memory,
                    count: args.gpus,
                    algorithm: args.sa_algorithm,
                },
                force_u64: args.force_u64_positions,
            };
            match args.format {
                IndexFormat::Galign => {
                    galign::index::build_index(&args.reference, &prefix, options, &log)
                }
                IndexFormat::Bwa => {
                    galign::bwa::build_bwa_index(&args.reference, &prefix, options, &log)
                }
            }
        }
        Command::Map(args) => {
            let log = setup(&args.common, args.verbose)?;
            let source = match (args.mates, args.interleaved) {
                (Some(mates), _) => ReadSource::Paired(args.reads, mates),
                (None, true) => ReadSource::Interleaved(args.reads),
                (None, false) => ReadSource::Single(args.reads),
            };
            let options = MapOptions {
                source,
                output: args.output,
                stats: args.stats,
                read_group: args.read_group,
                max_alternatives: args.alternatives,
                all_hits: args.all,
                max_insert: args.max_insert,
                max_mismatches: args.mismatches,
                batch_size: args.batch_size as usize,
                threads: rayon::current_num_threads(),
                bam_level: args.compression_level,
                command_line: output_determining_command_line(),
                device: args.common.device,
            };
            let stats = galign::map::map_reads(&args.prefix, &options, &log)?;
            let percent = |x: u64| 100.0 * x as f64 / stats.reads.max(1) as f64;
            log.info(&format!(
                "{} reads: {} mapped ({:.1}%), {} unique, {} multi, {} unmapped{}; {:.2} s, {:.0} reads/s",
                stats.reads,
                stats.mapped,
                percent(stats.mapped),
                stats.unique,
                stats.multi,
                stats.unmapped,
                if options.source.is_paired() { format!(", {} proper pairs", stats.proper_pairs) } else { String::new() },
                stats.seconds,
                stats.reads_per_second
            ));
            Ok(())
        }
        Command::Fastmap(args) => {
            let log = setup(&args.common, false)?;
            let _ = args.max_len; // as in bwa 0.7.17, -L changes nothing
            let options = galign::seed::fastmap::FastmapOptions {
                min_len: args.min_len,
                max_hits: args.max_hits,
                config: galign::seed::SmemConfig {
                    min_intv: args.min_intv,
                    max_intv: args.max_intv,
                },
                print_seq: args.print_seq,
            };
            let run = galign::seed::fastmap::FastmapRun {
                prefix: args.prefix,
                reads: args.reads,
                output: args.output,
                device: args.common.device,
                options,
            };
            galign::seed::fastmap::run(&run, &log)
        }
        Command::Sa(args) => {
            let log = setup(&args.common, args.verbose)?;
            galign::atomic_file::ensure_distinct(
                &[("the reference", args.reference.as_path())],
                &[("the output", args.output.as_path())],
            )?;
            let reference = log.step("read reference", || {
                galign::reference::read_fasta(&args.reference)
            })?;
            let text = &reference.text;
            let width = Width::for_text(text.len() as u64, args.force_u64_positions);
            let bytes = match width {
                Width::U32 => to_le_bytes(&galign::device::suffix_array(
                    text,
                    args.common.device,
                    args.sa_algorithm,
                    &log,
                )?),
                Width::U64 => {
                    args.common
                        .device
                        .decide(|| Err::<(), _>(GpuError::WidePositions))
                        .resolve(NOT_USED, "sorting on the CPU", |m| log.info(m))?;
                    to_le_bytes(&log.step("suffix array (CPU, 64-bit)", || {
                        galign::sa::suffix_array::<u64>(text)
                    }))
                }
            };
            galign::atomic_file::write(&args.output, &bytes)
                .with_context(|| format!("cannot write {}", args.output.display()))
        }
    }
}

/// On SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2 or SIGXCPU (what batch
/// schedulers send before they kill a job) the temporaries of unfinished outputs are
/// removed and the process dies of the signal (status 128 + it, as a shell reports it);
/// SIGXFSZ (a file size limit reached) makes the write fail with a clear error instead
/// of killing the process, so that its temporary is removed too. A signal ignored when galign starts
/// stays ignored: `nohup` ignores SIGHUP, a shell's background job SIGINT.
fn stop_cleanly_on_signals() -> std::io::Result<()> {
    use signal_hook::consts::{
        SIGALRM, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ,
    };
    // A flag nobody reads: having a handler is what matters.
    let reached = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    signal_hook::flag::register(SIGXFSZ, reached)?;
    let stopping = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU,
    ]
    .into_iter()
    .filter(|&s| !ignored(s));
    on_bus_error_stop_cleanly();
    let mut signals = signal_hook::iterator::Signals::new(stopping)?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            galign::atomic_file::remove_pending();
            // Then die of it, as without a handler: the parent sees the signal (a shell
            // says 128 + it), a batch scheduler its own kill.
            // SAFETY: restoring the default action and raising the signal are plain
            // system calls; the default ends the whole process.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
            std::process::exit(128 + signal); // not reached
        }
    });
    Ok(())
}

/// On SIGBUS (a file read through a memory map, such as a FASTQ file or the index,
/// shrank while it was read) the error is said, the temporaries of unfinished outputs are
/// removed and the process ends with status 1. The handler runs on the faulting thread
/// (a fault cannot wait for another thread), so it only writes and unlinks.
fn on_bus_error_stop_cleanly() {
    extern "C" fn on_bus_error(_: libc::c_int) {
        const MESSAGE: &[u8] = b"galign: error: an input file (FASTQ or index) shrank while \
            it was being read; run again once nothing else writes to it\n";
        // SAFETY: write and _exit are async-signal-safe; the message is a static buffer.
        unsafe { libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len()) };
        galign::atomic_file::remove_pending_in_signal_handler();
        // SAFETY: ends the process at once, as a fault handler must.
        unsafe { libc::_exit(1) };
    }
    // SAFETY: a zeroed sigaction with a handler of the plain (int) kind and an empty mask.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_bus_error as extern "C" fn(libc::c_int) as usize;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

/// Whether `signal` is ignored (inherited as ignored from the parent: `nohup`, `trap ''`).
fn ignored(signal: i32) -> bool {
    // SAFETY: with no new action sigaction only writes the current one into `current`,
    // a plain struct that zeroed bytes initialise.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}

/// The command line for `@PG CL`, without the options that cannot change the output
/// (threads, device, batch size, verbosity, stats file), so that output is byte-identical
/// whatever they are. (`-v K` of `map`, the mismatches, stays.)
fn output_determining_command_line() -> String {
    const WITH_VALUE: [&str; 5] = ["-t", "--threads", "--device", "--batch-size", "--stats"];
    const FLAGS: [&str; 1] = ["--verbose"];
    let mut words = Vec::new();
    // Arguments need not be UTF-8 (file names): any other byte is shown as U+FFFD.
    let mut args = std::env::args_os().map(|arg| arg.to_string_lossy().into_owned());
    while let Some(arg) = args.next() {
        if WITH_VALUE.contains(&arg.as_str()) {
            args.next();
            continue;
        }
        let dropped = FLAGS.contains(&arg.as_str())
            || WITH_VALUE.iter().any(|o| arg.starts_with(&format!("{o}=")))
            || (arg.starts_with("-t") && arg[2..].parse::<usize>().is_ok());
        if !dropped {
            words.push(arg);
        }
    }
    words.join(" ")
}

/// Applies the thread count and returns the reporter for the run (`verbose`: with
/// per-step timings).
fn setup(common: &Common, verbose: bool) -> anyhow::Result<Reporter> {
    anyhow::ensure!(common.threads != Some(0), "-t must be at least 1");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (threads, note) = galign::threads::worker_count(common.threads, cores);
    if let Some(note) = note {
        eprintln!("galign: warning: {note}");
    }
    galign::threads::start_pool(threads)?;
    Ok(Reporter::new(verbose))
}

fn to_le_bytes<I: galign::sa::SaIndex>(sa: &[I]) -> Vec<u8> {
    let mut out = Vec::with_capacity(sa.len() * I::BYTES);
    for &x in sa {
        x.extend_le(&mut out);
    }
    out
}

/// Refuses `--device gpu` for the index steps that run on the CPU only.
fn ensure_cpu(common: &Common) -> anyhow::Result<()> {
    anyhow::ensure!(
        common.device != DeviceChoice::Gpu,
        "--device gpu: --parts and --assemble run on the CPU"
    );
    Ok(())
}

/// Notes whether stdout is closed before the Rust runtime starts, which opens `/dev/null`
/// on a closed standard descriptor (`galign::stdio`).
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STDOUT: extern "C" fn() = galign::stdio::note_closed_stdout;
