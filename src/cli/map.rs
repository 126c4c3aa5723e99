//! `galign map`'s arguments, and the run they ask for ([`MapOptions`]).

use std::path::PathBuf;

use super::SetupError;
use crate::io::ReadSource;
use crate::map::insert_size::ProperBounds;
use crate::map::read_outputs::ReadOutputPaths;
use crate::map::{MapError, MapOptions};
use crate::progress::Reporter;
use crate::sam::FormatRequest;

/// `galign map`'s arguments.
#[derive(clap::Args)]
pub struct MapArgs {
    /// Index prefix (the PREFIX of PREFIX.galign, as given to `galign index`), or the
    /// index file PREFIX.galign itself.
    prefix: PathBuf,
    /// Reads: FASTQ, FASTA or unaligned BAM, or `-` for stdin; plain, gzip, BGZF, bzip2,
    /// zstd or xz. An unaligned BAM's records are single reads, or pairs with -p.
    reads: PathBuf,
    /// Mate 2 reads, in the same order as READS (paired-end).
    mates: Option<PathBuf>,
    /// Output file; BAM when it ends in .bam, SAM otherwise (.cram and compressed names
    /// such as .sam.gz are refused) [default: stdout].
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Output format, whatever the output's name: sam, or bam (to stdout too); cram is
    /// refused (convert BAM with `samtools view -C`) [default: by -o's extension, SAM
    /// on stdout].
    #[arg(short = 'O', long = "output-format", value_enum, value_name = "FORMAT")]
    output_format: Option<FormatRequest>,
    // `<ID>` is help text (clap shows the doc comment), not HTML.
    #[allow(rustdoc::invalid_html_tags)]
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
    /// READS is interleaved paired-end (mate 1, mate 2, mate 1, ...); in an unaligned
    /// BAM, records flagged mate 1 (0x40) and mate 2 (0x80) alternating, as `samtools
    /// import -1 -2` writes them (bowtie2's -b --align-paired-reads).
    #[arg(short = 'p', long = "interleaved", conflicts_with = "mates")]
    interleaved: bool,
    /// Largest insert (outer distance) of a proper pair, forward-reverse, instead of the
    /// bounds estimated from the first 65,536 pairs (bwa mem's rules; 1000 where too
    /// few pairs map uniquely).
    #[arg(long, value_name = "N")]
    max_insert: Option<u64>,
    /// Smallest insert of a proper pair, forward-reverse, instead of the estimate [default:
    /// 0 with --max-insert].
    #[arg(long, value_name = "N")]
    min_insert: Option<u64>,
    /// BAM compression level, 0 (stored, no compression) to 9 (smallest), as samtools'
    /// -l: lower levels compress faster into larger files. The default, 1, is the
    /// fastest that compresses (as STAR's BAM: unsorted output is usually sorted next);
    /// 6 is samtools' default (a file 8% smaller, compressed at a third of the speed).
    /// SAM output ignores it; .gz read outputs (--un, --al, ...) take it too.
    #[arg(short = 'l', long = "compression-level", value_name = "LEVEL",
          default_value_t = crate::sam::DEFAULT_BAM_LEVEL,
          value_parser = clap::value_parser!(u8).range(0..=9))]
    compression_level: u8,
    /// Reads (or pairs) per batch; output does not depend on it.
    // 131,072: H200 hosts, 16 cores, seven rounds against 65,536 (BENCHMARKS.md, session
    // 28, r156): every row's median as fast or faster (HG002 -> SAM 0.369 against 0.395
    // s), peak memory alike.
    #[arg(long, value_name = "N", default_value_t = 131072, value_parser = clap::value_parser!(u64).range(1..))]
    batch_size: u64,
    /// Write the single reads that map nowhere to FILE (bowtie2's --un): FASTQ, or
    /// FASTA for FASTA reads, in input order; gzip (BGZF) when FILE ends in .gz.
    #[arg(long = "un", value_name = "FILE")]
    un: Option<PathBuf>,
    /// Write the single reads that map to FILE (bowtie2's --al), as --un.
    #[arg(long = "al", value_name = "FILE")]
    al: Option<PathBuf>,
    /// Write the pairs that are not a proper pair to two files (bowtie2's --un-conc):
    /// `%` in FILE replaced by 1 and 2, else .1 and .2 put before the extension
    /// (un.fq.gz: un.1.fq.gz, un.2.fq.gz); as --un.
    #[arg(long = "un-conc", value_name = "FILE")]
    un_conc: Option<PathBuf>,
    /// Write the proper pairs to two files (bowtie2's --al-conc), named as --un-conc's.
    #[arg(long = "al-conc", value_name = "FILE")]
    al_conc: Option<PathBuf>,
    /// Also write the run's summary as JSON to FILE: counts, version, command line,
    /// inputs, index, device, threads and timings.
    #[arg(long, value_name = "FILE")]
    stats: Option<PathBuf>,
    /// Also write the run's counts to FILE as bowtie2's alignment summary (what bowtie2
    /// prints on stderr), which MultiQC's bowtie2 module reads.
    #[arg(long = "summary-file", value_name = "FILE")]
    summary_file: Option<PathBuf>,
    /// Report alignments with at most K mismatches (0 to 3), end to end, no gaps, as
    /// bowtie's -v K; a non-ACGT read base is a mismatch. On the GPU, as exact search, where one is usable.
    #[arg(short = 'v', long = "mismatches", value_name = "K", default_value_t = 0,
          value_parser = clap::value_parser!(u8).range(0..=crate::search::schemes::MAX_MISMATCHES as i64))]
    mismatches: u8,
    #[command(flatten)]
    common: super::Common,
}

impl MapArgs {
    /// Applies the thread count and returns the run's reporter.
    pub fn setup(&self) -> Result<Reporter, SetupError> {
        self.common.setup(false)
    }

    /// Maps the reads as the arguments ask, and says the run's summary through `log`.
    pub fn run(self, log: &Reporter) -> Result<(), MapError> {
        let source = match (self.mates, self.interleaved) {
            (Some(mates), _) => ReadSource::Paired(self.reads, mates),
            (None, true) => ReadSource::Interleaved(self.reads),
            (None, false) => ReadSource::Single(self.reads),
        };
        let options = MapOptions {
            source,
            output: self.output,
            output_format: self.output_format,
            read_outputs: ReadOutputPaths {
                un: self.un,
                al: self.al,
                un_conc: self.un_conc,
                al_conc: self.al_conc,
            },
            stats: self.stats,
            summary_file: self.summary_file,
            full_command_line: std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            read_group: self.read_group,
            max_alternatives: self.alternatives,
            all_hits: self.all,
            proper_bounds: (self.min_insert.is_some() || self.max_insert.is_some())
                .then(|| ProperBounds::fixed(self.min_insert, self.max_insert)),
            max_mismatches: self.mismatches,
            batch_size: self.batch_size as usize,
            threads: rayon::current_num_threads(),
            bam_level: self.compression_level,
            command_line: crate::sam::output_determining_command_line(std::env::args_os()),
            device: self.common.device,
        };
        let stats = crate::map::map_reads(&self.prefix, &options, log)?;
        for line in stats.summary_lines(stats.paired) {
            log.info(&line);
        }
        Ok(())
    }
}
