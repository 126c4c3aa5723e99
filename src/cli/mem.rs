//! `galign mem`'s arguments: bwa mem 0.7.17's options of single-end and paired-end
//! alignment (same letters, defaults and `-A` rescaling of the unset penalties), `-t`
//! and `-o`.

use std::path::PathBuf;

use super::SetupError;
use crate::mem::align_run::{MemError, MemRun};
use crate::mem::pestat::insert_option;
use crate::mem::settings::AlignOptions;
use crate::mem::MemOptions;
use crate::progress::Reporter;

/// `galign mem`'s arguments (`-h` is bwa's XA limit, so help is `--help` alone).
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub struct MemArgs {
    /// Print help.
    #[arg(long = "help", action = clap::ArgAction::Help)]
    help: Option<bool>,
    /// Prefix of bwa's index files (PREFIX.bwt, .sa, .ann, .pac; PREFIX.alt if present).
    prefix: PathBuf,
    /// Reads (FASTQ, FASTA or unaligned BAM), or `-` for stdin: single-end, mate 1 of
    /// pairs, or interleaved pairs with -p.
    reads: PathBuf,
    /// Mate 2 of the pairs (paired-end).
    mates: Option<PathBuf>,
    /// Smart pairing: the reads file holds pairs interleaved (consecutive reads of the
    /// same name; others single-end).
    #[arg(short = 'p')]
    interleaved: bool,
    /// Insert size distribution of FR pairs: FLOAT[,FLOAT[,INT[,INT]]] (mean, standard
    /// deviation [10% of the mean], max [mean+4sd], min [mean-4sd]); estimated per batch
    /// when not given.
    #[arg(short = 'I', value_name = "FLOAT[,FLOAT[,INT[,INT]]]")]
    insert: Option<String>,
    /// Skip pairing; mate rescue still performed unless -S.
    #[arg(short = 'P')]
    no_pairing: bool,
    /// Skip mate rescue.
    #[arg(short = 'S')]
    no_rescue: bool,
    /// Perform at most INT rounds of mate rescue for each read.
    #[arg(short = 'm', value_name = "INT", default_value_t = 50)]
    max_matesw: i32,
    /// Process INT input bases in each batch of pairs, whatever the threads [10000000
    /// times -t, bwa's rule: the insert size is estimated per batch].
    #[arg(short = 'K', value_name = "INT")]
    chunk_size: Option<i64>,
    /// Minimum seed length.
    #[arg(short = 'k', value_name = "INT", default_value_t = 19)]
    min_seed_len: i32,
    /// Band width for banded alignment.
    #[arg(short = 'w', value_name = "INT", default_value_t = 100)]
    band_width: i32,
    /// Off-diagonal X-dropoff [100, times -A when -A is given].
    #[arg(short = 'd', value_name = "INT")]
    zdrop: Option<i32>,
    /// Look for internal seeds inside a seed longer than {-k} * FLOAT.
    #[arg(short = 'r', value_name = "FLOAT", default_value_t = 1.5)]
    split_factor: f32,
    /// Seed occurrence for the 3rd round seeding.
    #[arg(short = 'y', value_name = "INT", default_value_t = 20)]
    max_mem_intv: i64,
    /// Look for internal seeds inside a seed with at most INT occurrences.
    #[arg(short = 's', value_name = "INT", default_value_t = 10)]
    split_width: i32,
    /// Skip seeds with more than INT occurrences.
    #[arg(short = 'c', value_name = "INT", default_value_t = 500)]
    max_occ: i32,
    /// Drop chains shorter than FLOAT fraction of the longest overlapping chain.
    #[arg(short = 'D', value_name = "FLOAT", default_value_t = 0.5)]
    drop_ratio: f32,
    /// Discard a chain if seeded bases are shorter than INT.
    #[arg(short = 'W', value_name = "INT", default_value_t = 0)]
    min_chain_weight: i32,
    /// Maximum gap inside a chain.
    #[arg(short = 'G', value_name = "INT", default_value_t = 10000)]
    max_chain_gap: i32,
    /// Most chains that overlap a better one extended.
    #[arg(short = 'N', value_name = "INT", default_value_t = 1 << 30)]
    max_chain_extend: i32,
    /// Share of the shorter hit two hits must overlap by to compete.
    #[arg(short = 'X', value_name = "FLOAT", default_value_t = 0.5)]
    mask_level: f32,
    /// Score for a sequence match; scales the unset -B, -O, -E, -L, -T, -d, -U.
    #[arg(short = 'A', value_name = "INT")]
    match_score: Option<i32>,
    /// Penalty for a mismatch [4].
    #[arg(short = 'B', value_name = "INT")]
    mismatch: Option<i32>,
    /// Gap open penalties for deletions and insertions [6,6].
    #[arg(short = 'O', value_name = "INT[,INT]")]
    gap_open: Option<String>,
    /// Gap extension penalties; a gap of size k costs {-O} + {-E}*k [1,1].
    #[arg(short = 'E', value_name = "INT[,INT]")]
    gap_extend: Option<String>,
    /// Penalty for 5'- and 3'-end clipping [5,5].
    #[arg(short = 'L', value_name = "INT[,INT]")]
    clip_penalty: Option<String>,
    /// Penalty for an unpaired read pair [17].
    #[arg(short = 'U', value_name = "INT")]
    unpaired: Option<i32>,
    /// Minimum score to output [30].
    #[arg(short = 'T', value_name = "INT")]
    min_score: Option<i32>,
    /// If there are <INT hits with score >80% of the max score, output all in XA [5,200].
    #[arg(short = 'h', value_name = "INT[,INT]")]
    max_xa: Option<String>,
    /// Output all alignments for SE or unpaired PE.
    #[arg(short = 'a')]
    all: bool,
    /// Mark shorter split hits as secondary.
    #[arg(short = 'M')]
    no_multi: bool,
    /// Use soft clipping for supplementary alignments.
    #[arg(short = 'Y')]
    softclip: bool,
    /// Don't modify mapQ of supplementary alignments.
    #[arg(short = 'q')]
    keep_supp_mapq: bool,
    /// For split alignment, take the alignment with the smallest coordinate on the read
    /// as primary (implies -q).
    #[arg(short = '5')]
    primary5: bool,
    /// Append FASTA/FASTQ comment to SAM output (not supported yet: refused).
    #[arg(short = 'C')]
    copy_comment: bool,
    /// Read group header line such as '@RG\tID:foo\tSM:bar'.
    #[arg(short = 'R', value_name = "STR")]
    read_group: Option<String>,
    /// Output file [default: stdout].
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    common: super::Common,
}

/// `INT[,INT]` as bwa reads it (`strtol`, then a punctuation mark and a second number):
/// the two values, the second defaulting to the first.
fn pair(text: &str) -> Result<(i32, i32), MemError> {
    let bad = || MemError::Option(format!("'{text}' is not INT[,INT]"));
    let (a, b) = match text.split_once(|c: char| c.is_ascii_punctuation()) {
        Some((a, b)) => (a, Some(b)),
        None => (text, None),
    };
    let a: i32 = a.trim().parse().map_err(|_| bad())?;
    let b = match b {
        Some(b) => b.parse().map_err(|_| bad())?,
        None => a,
    };
    Ok((a, b))
}

impl MemArgs {
    /// Applies the thread count and returns the run's reporter.
    pub fn setup(&self) -> Result<Reporter, SetupError> {
        self.common.setup(false)
    }

    /// bwa mem's options from the arguments (`update_a` included).
    fn options(&self) -> Result<AlignOptions, MemError> {
        let mut o = AlignOptions {
            chain: MemOptions {
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
            },
            all: self.all,
            no_multi: self.no_multi,
            softclip: self.softclip,
            keep_supp_mapq: self.keep_supp_mapq || self.primary5,
            primary5: self.primary5,
            max_matesw: self.max_matesw,
            rescue: !self.no_rescue,
            pairing: !self.no_pairing,
            ..AlignOptions::default()
        };
        let a = self.match_score.unwrap_or(1);
        let scale = |v: i32| if self.match_score.is_some() { v * a } else { v };
        o.a = a;
        o.b = self.mismatch.unwrap_or_else(|| scale(o.b));
        o.min_out_score = self.min_score.unwrap_or_else(|| scale(o.min_out_score));
        o.zdrop = self.zdrop.unwrap_or_else(|| scale(o.zdrop));
        o.pen_unpaired = self.unpaired.unwrap_or_else(|| scale(o.pen_unpaired));
        (o.o_del, o.o_ins) = match &self.gap_open {
            Some(t) => pair(t)?,
            None => (scale(o.o_del), scale(o.o_ins)),
        };
        (o.e_del, o.e_ins) = match &self.gap_extend {
            Some(t) => pair(t)?,
            None => (scale(o.e_del), scale(o.e_ins)),
        };
        (o.pen_clip5, o.pen_clip3) = match &self.clip_penalty {
            Some(t) => pair(t)?,
            None => (scale(o.pen_clip5), scale(o.pen_clip3)),
        };
        if let Some(t) = &self.max_xa {
            (o.max_xa_hits, o.max_xa_hits_alt) = pair(t)?;
        }
        Ok(o)
    }

    /// Aligns the reads and writes SAM, on the CPU (`--device gpu` refused).
    pub fn run(self, log: &Reporter) -> Result<(), MemError> {
        if self.common.device == crate::device::DeviceChoice::Gpu {
            return Err(MemError::GpuOnly);
        }
        if self.copy_comment {
            return Err(MemError::Option("-C is not supported yet".into()));
        }
        if self.interleaved && self.mates.is_some() {
            return Err(MemError::Option(
                "-p: the pairs come interleaved in one file; give one reads file".into(),
            ));
        }
        let options = self.options()?;
        let insert = match &self.insert {
            Some(text) => Some(insert_option(text).ok_or_else(|| {
                MemError::Option(format!("-I '{text}' is not FLOAT[,FLOAT[,INT[,INT]]]"))
            })?),
            None => None,
        };
        let chunk_size = match self.chunk_size {
            Some(k) if k > 0 => k,
            _ => 10_000_000 * self.common.threads.unwrap_or(1) as i64,
        };
        let command_line = std::env::args().collect::<Vec<_>>().join(" ");
        let run = MemRun {
            prefix: self.prefix,
            reads: self.reads,
            mates: self.mates,
            interleaved: self.interleaved,
            insert,
            chunk_size,
            output: self.output,
            options,
            read_group: self.read_group,
            command_line,
        };
        crate::mem::align_run::run(&run, log)
    }
}
