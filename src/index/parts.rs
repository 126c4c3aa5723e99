//! An index built by several jobs (nodes of a cluster, through a workflow engine):
//! `galign index --parts N --part I` sorts job `I`'s share of the suffix array and
//! writes it as a part file; `galign index --assemble` builds the index from the `N`
//! part files. The index is byte-identical to `galign index` of the same reference,
//! whatever `N`.
//!
//! Every job derives the same plan on its own, from the reference and `N` alone: the
//! bucket-partitioned sorter ([`crate::sa::partition`]) cuts the suffixes into pieces
//! of at most `n / 2N`, and job `I` takes the pieces whose middle row is in
//! `[I n / N, (I + 1) n / N)`, a contiguous range of suffix-array rows (possibly none).
//! Nothing is shared between the jobs but the reference.
//!
//! A part file holds what the FM builder needs from its rows, not their text positions
//! (4 bytes a row): per row the BWT symbol and whether it is sampled (one nibble), the
//! sampled positions (4 bytes per `sample_rate` rows), and the counts of the k-mers its
//! rows start with (the jump table's share), about 1 byte per base in all. Its `PART`
//! section (JSON) names the reference (length and checksums of the text and the
//! layout), the plan (a checksum of `N`, the sampling rate, k and the pieces), which
//! text the rows are of (the forward text; a reverse index would scatter its own
//! text's parts the same way, with its own name there), which part of how many it
//! is, and its rows. The container is the index's ([`super::format`]): a CRC per
//! section, written under a temporary name.
//!
//! The assembler checks that the part files belong together before it writes
//! anything: the same reference as the FASTA given, the same plan, every part once,
//! rows that follow each other; each error names the file.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::build::{BuildError, BuildOptions};
use super::devices::{Devices, GpuCount, GpuOptions};
use super::format::{self, as_bytes, FormatError, Kind, MappedFile};
use crate::device::DeviceChoice;
use crate::fm::{jump, FmBuilder, FmParts, Rows, SAMPLED};
use crate::progress::Reporter;
use crate::reference::{read_fasta, Reference};
use crate::sa::partition::{Part, Partitioner};

/// The part file container.
pub const PART_FILE: Kind = Kind {
    magic: b"GALIGNPT",
    version: 1,
    noun: "index part",
    remake: "galign index --parts N --part I",
};

/// Which text a part file's rows belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PartText {
    /// The reference's text, as indexed by `galign index`.
    Forward,
}

/// Job `part` (0-based) of `parts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartSpec {
    /// Number of jobs.
    pub parts: u32,
    /// This job, `0..parts`.
    pub part: u32,
}

/// The `PART` section of a part file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartMeta {
    /// Which text the rows are of.
    pub text: PartText,
    /// This part, `0..parts`.
    pub part: u32,
    /// Number of parts.
    pub parts: u32,
    /// Fingerprint of the reference: text length, CRC-32 of the packed text, of the layout.
    pub reference: String,
    /// Fingerprint of the plan: CRC-32 of the parts, sampling rate, k and pieces.
    pub plan: String,
    /// Suffix-array sampling rate.
    pub sample_rate: u32,
    /// Jump-table k.
    pub k: u32,
    /// The first row held (row 0 is the sentinel's, in no part).
    pub first_row: u64,
    /// Rows held.
    pub rows: u64,
    /// The row (from `first_row`) whose position is 0, when it is held.
    pub primary: Option<u64>,
    /// Sampled rows held.
    pub sampled: u64,
    /// The first k-mer counted in `KMERS`.
    pub first_kmer: u64,
    /// K-mers counted in `KMERS`.
    pub kmers: u64,
}

/// The fingerprint of a reference: its text and layout.
fn reference_fingerprint(reference: &Reference) -> String {
    let layout = serde_json::to_vec(&reference.layout).expect("layout serializes");
    format!(
        "{}:{:08x}:{:08x}",
        reference.text.len(),
        crc32fast::hash(as_bytes(reference.text.words())),
        crc32fast::hash(&layout)
    )
}

/// One job's pieces of the plan, the first row they hold, and the plan's fingerprint.
struct Share {
    pieces: Vec<Part>,
    first_row: u64,
    plan: String,
}

/// Cuts the suffixes of a text of `n` bases into the plan's pieces and gives job
/// `spec.part` its share.
fn share(
    partitioner: &Partitioner<u32>,
    n: usize,
    max_piece: usize,
    spec: PartSpec,
    sample_rate: u32,
) -> Share {
    let plan = partitioner.plan(max_piece);
    let mut described = format!("{} {sample_rate} {}", spec.parts, jump::choose_k(n));
    let mut start = 0usize;
    let mut share = Share {
        pieces: Vec::new(),
        first_row: 1,
        plan: String::new(),
    };
    for piece in plan {
        let middle = start as u128 + piece.suffixes as u128 / 2;
        let job = (middle * spec.parts as u128 / n as u128) as u32;
        described += &format!(
            ";{:?} {:?} {:?} {}",
            piece.buckets, piece.from, piece.until, piece.suffixes
        );
        if job < spec.part {
            share.first_row += piece.suffixes as u64;
        } else if job == spec.part {
            share.pieces.push(piece.clone());
        }
        start += piece.suffixes;
    }
    share.plan = format!("{:08x}", crc32fast::hash(described.as_bytes()));
    share
}

/// K-mer runs `(code, count)` in increasing code order, as the first code and the
/// counts of every code from it to the last.
fn dense_counts(runs: &[(u32, u32)]) -> (u64, Vec<u32>) {
    let (Some(&(first, _)), Some(&(last, _))) = (runs.first(), runs.last()) else {
        return (0, Vec::new());
    };
    let mut counts = vec![0u32; (last - first) as usize + 1];
    for &(code, count) in runs {
        counts[(code - first) as usize] += count;
    }
    (first as u64, counts)
}

/// The rows of one part, with their k-mer counts, as written to a part file.
#[derive(Debug, PartialEq, Eq)]
pub struct PartContent {
    /// The `PART` section.
    pub meta: PartMeta,
    /// The rows.
    pub rows: Rows<u32>,
    /// Counts of the k-mers `meta.first_kmer..`.
    pub kmers: Vec<u32>,
}

impl PartContent {
    /// Sorts job `spec`'s share of the suffixes of `reference` (sampling rate
    /// `sample_rate`) into its rows, saying each step's time to `log`.
    pub fn build(
        reference: &Reference,
        spec: PartSpec,
        sample_rate: u32,
        log: &Reporter,
    ) -> PartContent {
        let text = &reference.text;
        let n = text.len();
        let k = jump::choose_k(n);
        let max_piece = n.div_ceil(2 * spec.parts as usize).max(1);
        let (partitioner, share) = log.step("plan: sample ranks, bucket counts (CPU)", || {
            let partitioner = Partitioner::<u32>::new(text, max_piece);
            let share = share(&partitioner, n, max_piece, spec, sample_rate);
            (partitioner, share)
        });
        let (rows, runs) = log.step("sort the share, rows and k-mers (CPU)", || {
            let mut rows = Rows::default();
            let mut runs = Vec::new();
            for piece in &share.pieces {
                let positions = partitioner.sort(piece);
                let (piece_rows, piece_runs) =
                    Rows::with_kmer_runs(text, sample_rate, &positions, k);
                rows.append(&piece_rows);
                runs.extend(piece_runs);
            }
            (rows, runs)
        });
        let (first_kmer, kmers) = dense_counts(&runs);
        let meta = PartMeta {
            text: PartText::Forward,
            part: spec.part,
            parts: spec.parts,
            reference: reference_fingerprint(reference),
            plan: share.plan,
            sample_rate,
            k,
            first_row: share.first_row,
            rows: rows.len() as u64,
            primary: rows.primary.map(|p| p as u64),
            sampled: rows.sampled.len() as u64,
            first_kmer,
            kmers: kmers.len() as u64,
        };
        PartContent { meta, rows, kmers }
    }

    /// Writes the part file (atomically).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let meta = serde_json::to_vec(&self.meta).expect("metadata serializes");
        let nibbles: Vec<u8> = self
            .rows
            .flags
            .par_chunks(2)
            .map(|pair| pair[0] | pair.get(1).map_or(0, |f| f << 4))
            .collect();
        format::write_kind(
            &PART_FILE,
            path,
            &[
                ("PART", &meta),
                ("ROWS", &nibbles),
                ("SAMPLED", as_bytes(&self.rows.sampled)),
                ("KMERS", as_bytes(&self.kmers)),
            ],
        )
    }
}

/// Why a part file cannot be built, or part files assembled.
#[derive(Debug, thiserror::Error)]
pub enum PartError {
    /// The share asked for is not one of the plan's.
    #[error("--part {part} of --parts {parts}: parts are numbered 0 to {}", .parts.saturating_sub(1))]
    PartNumber {
        /// The share asked for.
        part: u32,
        /// The number of shares of the plan.
        parts: u32,
    },
    /// The build failed: its output refused, the reference unreadable or unfit, the
    /// mirror index on the GPU, or the writing.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// Unreadable, truncated or corrupt (as a container).
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The content does not hold together.
    #[error("{path}: index part is corrupt ({what}); rebuild it with `{}`", PART_FILE.remake)]
    Corrupt {
        /// The part file's path.
        path: String,
        /// What is wrong.
        what: String,
    },
    /// Made from another reference than the one given.
    #[error("{path}: a part of the index of another reference than {fasta} (or of an older version of it)")]
    OtherReference {
        /// The part file's path.
        path: String,
        /// The reference given.
        fasta: String,
    },
    /// Made with another plan than the first part file given.
    #[error("{path}: a part of another plan than {first} (parts built with other --parts or --sample-rate, or of another text)")]
    OtherPlan {
        /// The part file's path.
        path: String,
        /// The first part file given, whose plan the others must share.
        first: String,
    },
    /// The same part twice.
    #[error("{path}: part {part} of {parts} again (also in {other})")]
    Duplicate {
        /// The part file's path.
        path: String,
        /// The share's number.
        part: u32,
        /// The number of shares of the plan.
        parts: u32,
        /// The part file that holds the same share.
        other: String,
    },
    /// A part not given.
    #[error("part {part} of {parts} of the index of {fasta} is missing (the part files given hold parts {held})")]
    Missing {
        /// The share's number.
        part: u32,
        /// The number of shares of the plan.
        parts: u32,
        /// The reference given.
        fasta: String,
        /// The shares the part files given hold.
        held: String,
    },
}

/// A part file, mapped, with its metadata checked against its sections.
pub struct PartFile {
    file: MappedFile,
    meta: PartMeta,
    path: String,
}

impl PartFile {
    /// Opens and checks a part file.
    pub fn open(path: &Path) -> Result<PartFile, PartError> {
        let file = MappedFile::open_kind(&PART_FILE, path)?;
        let shown = path.display().to_string();
        let corrupt = |what: String| PartError::Corrupt {
            path: shown.clone(),
            what,
        };
        let meta: PartMeta = serde_json::from_slice(file.bytes("PART")?)
            .map_err(|e| corrupt(format!("metadata: {e}")))?;
        let nibbles = file.bytes("ROWS")?;
        let sampled = file.ints::<u32>("SAMPLED")?;
        if nibbles.len() as u64 != meta.rows.div_ceil(2)
            || sampled.len() as u64 != meta.sampled
            || file.ints::<u32>("KMERS")?.len() as u64 != meta.kmers
            || meta.first_kmer.saturating_add(meta.kmers) > 1 << (2 * meta.k.min(16))
        {
            return Err(corrupt("sections of the wrong size".into()));
        }
        let flagged = nibbles
            .par_iter()
            .map(|b| ((b & SAMPLED != 0) as u64) + ((b >> 4 & SAMPLED != 0) as u64))
            .sum::<u64>();
        if flagged != meta.sampled
            || nibbles.par_iter().any(|b| b & 0x88 != 0)
            || meta.primary.is_some_and(|p| p >= meta.rows)
        {
            return Err(corrupt("rows and sampled positions disagree".into()));
        }
        Ok(PartFile {
            file,
            meta,
            path: shown,
        })
    }

    /// The metadata.
    pub fn meta(&self) -> &PartMeta {
        &self.meta
    }

    /// The rows held.
    pub fn rows(&self) -> Rows<u32> {
        let nibbles = self.file.bytes("ROWS").expect("checked at open");
        let mut flags: Vec<u8> = nibbles
            .par_iter()
            .flat_map_iter(|&b| [b & 15, b >> 4])
            .collect();
        flags.truncate(self.meta.rows as usize);
        Rows {
            flags,
            sampled: self.file.ints::<u32>("SAMPLED").expect("checked").to_vec(),
            primary: self.meta.primary.map(|p| p as usize),
        }
    }

    /// Counts of the k-mers from `meta().first_kmer` on.
    pub fn kmers(&self) -> &[u32] {
        self.file.ints::<u32>("KMERS").expect("checked at open")
    }
}

/// Puts part files in order after checking that they are the parts, each once, of the
/// index of `reference` (shown as `fasta`) by one plan.
fn in_order<'p>(
    reference: &Reference,
    fasta: &str,
    parts: &'p [PartFile],
) -> Result<Vec<&'p PartFile>, PartError> {
    let fingerprint = reference_fingerprint(reference);
    let first = parts.first().ok_or_else(|| PartError::Missing {
        part: 0,
        parts: 1,
        fasta: fasta.into(),
        held: "none".into(),
    })?;
    let plan = |m: &PartMeta| (m.text, m.parts, m.plan.clone(), m.sample_rate, m.k);
    let count = first.meta.parts;
    let mut slots: std::collections::BTreeMap<u32, &PartFile> = Default::default();
    for part in parts {
        let m = &part.meta;
        if m.reference != fingerprint {
            return Err(PartError::OtherReference {
                path: part.path.clone(),
                fasta: fasta.into(),
            });
        }
        if m.k != jump::choose_k(reference.text.len()) || m.sample_rate == 0 {
            return Err(PartError::Corrupt {
                path: part.path.clone(),
                what: "k or sampling rate out of place".into(),
            });
        }
        if plan(m) != plan(&first.meta) || m.part >= count {
            return Err(PartError::OtherPlan {
                path: part.path.clone(),
                first: first.path.clone(),
            });
        }
        if let Some(other) = slots.insert(m.part, part) {
            return Err(PartError::Duplicate {
                path: part.path.clone(),
                part: m.part,
                parts: count,
                other: other.path.clone(),
            });
        }
    }
    // Parts are numbered 0..count: the first gap, or the one after the last held.
    let missing = (0..count)
        .zip(slots.keys())
        .find(|(i, held)| i != *held)
        .map(|(i, _)| i)
        .or((slots.len() < count as usize).then_some(slots.len() as u32));
    if let Some(part) = missing {
        let held: Vec<String> = slots.keys().map(|i| i.to_string()).collect();
        return Err(PartError::Missing {
            part,
            parts: count,
            fasta: fasta.into(),
            held: held.join(", "),
        });
    }
    let ordered: Vec<&PartFile> = slots.into_values().collect();
    let mut next_row = 1;
    for part in &ordered {
        if part.meta.first_row != next_row {
            return Err(PartError::Corrupt {
                path: part.path.clone(),
                what: format!("its rows start at {}, not {next_row}", part.meta.first_row),
            });
        }
        next_row += part.meta.rows;
    }
    if next_row != reference.text.len() as u64 + 1 {
        return Err(PartError::Corrupt {
            path: ordered.last().expect("one part at least").path.clone(),
            what: "the parts do not hold every row".into(),
        });
    }
    Ok(ordered)
}

/// Checks what the index built from the `ordered` parts of a text of `n` bases needs of
/// their contents before it is built: one part holds the sentinel's row, the sampled
/// positions are the text's multiples of the sampling rate, and one k-mer is counted per
/// suffix of k bases or more (the built index then passes the loader's checks too,
/// [`assemble_fm`]).
fn check_contents(ordered: &[&PartFile], n: u64) -> Result<(), PartError> {
    let meta = &ordered.first().expect("one part at least").meta;
    check_one_primary(ordered)?;
    check_sampled(ordered, n, meta.sample_rate)?;
    check_kmer_total(ordered, n, meta.k)
}

/// Checks that the `ordered` parts of a text of `n` bases count one k-mer (of `k`
/// bases) for each suffix of `k` bases or more, as the jump table's row intervals need.
/// (Counts moved between k-mers, like samples moved between rows, would pass: the
/// container's checksums are what catch a part damaged by accident.)
fn check_kmer_total(ordered: &[&PartFile], n: u64, k: u32) -> Result<(), PartError> {
    let counted: u64 = ordered
        .iter()
        .map(|p| p.kmers().par_iter().map(|&c| u64::from(c)).sum::<u64>())
        .sum();
    let suffixes = (n + 1).saturating_sub(u64::from(k));
    if counted != suffixes {
        return Err(PartError::Corrupt {
            path: ordered.last().expect("one part at least").path.clone(),
            what: format!("the parts count {counted} k-mers, not {suffixes}"),
        });
    }
    Ok(())
}

/// Checks that the `ordered` parts of a text of `n` bases sample exactly its positions
/// that are multiples of `rate` (position `n`'s row, the sentinel's, is in no part), so
/// that the index written from them has the sampled suffix array the loader expects.
fn check_sampled(ordered: &[&PartFile], n: u64, rate: u32) -> Result<(), PartError> {
    let corrupt = |part: &PartFile, what: String| PartError::Corrupt {
        path: part.path.clone(),
        what,
    };
    let last = ordered.last().expect("one part at least");
    let sampled: u64 = ordered.iter().map(|p| p.meta.sampled).sum();
    if sampled != n.div_ceil(u64::from(rate)) {
        return Err(corrupt(
            last,
            format!("the parts sample {sampled} rows, not one in {rate}"),
        ));
    }
    for part in ordered {
        let positions = part.file.ints::<u32>("SAMPLED").expect("checked at open");
        if positions
            .par_iter()
            .any(|&p| u64::from(p) >= n || p % rate != 0)
        {
            return Err(corrupt(
                part,
                format!("a sampled position is past the text or no multiple of {rate}"),
            ));
        }
    }
    Ok(())
}

/// Checks that exactly one of the `ordered` parts holds the row of the text's first
/// suffix (the BWT's sentinel), without which the index would be written and then
/// refused by the loader.
fn check_one_primary(ordered: &[&PartFile]) -> Result<(), PartError> {
    let mut holders = ordered.iter().filter(|p| p.meta.primary.is_some());
    match (holders.next(), holders.next()) {
        (Some(_), None) => Ok(()),
        (None, _) => Err(PartError::Corrupt {
            path: all_paths(ordered),
            what: "no part holds the row of the text's first suffix".into(),
        }),
        (Some(_), Some(second)) => Err(PartError::Corrupt {
            path: second.path.clone(),
            what: "a second part holds the row of the text's first suffix".into(),
        }),
    }
}

/// The FM index of `reference` (shown as `fasta`) from its part files.
pub fn assemble_fm(
    reference: &Reference,
    fasta: &str,
    part_files: &[PathBuf],
) -> Result<FmParts, PartError> {
    let parts = part_files
        .iter()
        .map(|p| PartFile::open(p))
        .collect::<Result<Vec<_>, _>>()?;
    let ordered = in_order(reference, fasta, &parts)?;
    check_contents(&ordered, reference.text.len() as u64)?;
    let mut builder = FmBuilder::new(&reference.text, ordered[0].meta.sample_rate);
    for part in &ordered {
        builder.push_rows(&part.rows());
        builder.add_kmer_counts(part.meta.first_kmer as usize, part.kmers());
    }
    let fm = builder.finish();
    // What the loader will check, checked before anything is written: the BWT's symbols
    // held by the parts against the text's counts, above all.
    fm.view(&reference.text)
        .check()
        .map_err(|what| PartError::Corrupt {
            path: all_paths(&ordered),
            what,
        })?;
    Ok(fm)
}

/// The paths of `parts`, for an error that none of them alone is to blame for.
fn all_paths(parts: &[&PartFile]) -> String {
    parts
        .iter()
        .map(|p| p.path.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `galign index --parts N --part I` job: sorts job `spec`'s share of the suffixes
/// of `fasta` and writes it to the part file `output`.
pub fn build_part(
    fasta: &Path,
    spec: PartSpec,
    sample_rate: u32,
    output: &Path,
    log: &Reporter,
) -> Result<(), PartError> {
    if !(spec.parts >= 1 && spec.part < spec.parts) {
        let PartSpec { part, parts } = spec;
        return Err(PartError::PartNumber { part, parts });
    }
    super::ensure_output(&[("the reference", fasta)], output, "part file")
        .map_err(BuildError::from)?;
    let reference = log
        .step("read reference", || read_fasta(fasta))
        .map_err(BuildError::from)?;
    super::build::check_reference(fasta, &reference)?;
    super::build::check_fits_parts(fasta, &reference)?;
    let content = PartContent::build(&reference, spec, sample_rate, log);
    log.step("write part file", || content.write(output))
        .map_err(|source| BuildError::Write {
            what: "part file",
            path: output.to_path_buf(),
            source,
        })?;
    if log.verbose() {
        log.info(&format!(
            "{}: part {} of {}, rows {}..{}",
            output.display(),
            spec.part,
            spec.parts,
            content.meta.first_row,
            content.meta.first_row + content.meta.rows
        ));
    }
    Ok(())
}

/// The `galign index --assemble` job: builds `PREFIX.galign` for `fasta` from its part
/// files, byte-identical to `galign index`.
/// The mirror index (issue 14's reversed text) is built here, whole, on `device`: part
/// files hold the forward text's shares only.
pub fn assemble(
    fasta: &Path,
    prefix: &Path,
    part_files: &[PathBuf],
    device: DeviceChoice,
    log: &Reporter,
) -> Result<(), PartError> {
    super::ensure_prefix(prefix).map_err(BuildError::from)?;
    let path = super::index_path(prefix);
    let mut inputs = vec![("the reference", fasta)];
    inputs.extend(
        part_files
            .iter()
            .map(|part| ("a part file", part.as_path())),
    );
    super::ensure_output(&inputs, &path, "index").map_err(BuildError::from)?;
    let devices = Devices::start(device, GpuCount::All);
    let reference = log
        .step("read reference", || read_fasta(fasta))
        .map_err(BuildError::from)?;
    let shown = fasta.display().to_string();
    let fm = log.step("assemble BWT, Occ, sampled SA, jump table", || {
        assemble_fm(&reference, &shown, part_files)
    })?;
    let options = BuildOptions {
        sample_rate: fm.sample_rate,
        device,
        memory: None,
        gpu: GpuOptions {
            budget: None,
            count: GpuCount::All,
            algorithm: Default::default(),
        },
        force_u64: false,
    };
    let mirror =
        super::build::mirror_index(fasta, &reference, fm.width(), (&options, &devices), log)?;
    log.step("write index", || {
        super::write(&path, &reference, &fm, &mirror)
    })
    .map_err(|source| BuildError::cannot_write(&path, source).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{Contig, Layout, PackedText};

    fn reference(codes: &[u8]) -> Reference {
        Reference {
            layout: Layout {
                contigs: vec![Contig {
                    name: "t".into(),
                    description: String::new(),
                    offset: 0,
                    len: codes.len() as u64,
                }],
                ambiguous: vec![],
            },
            text: PackedText::from_codes(codes),
        }
    }

    /// Writes the `parts` part files of `reference` into `dir`.
    fn write_parts(reference: &Reference, parts: u32, dir: &Path) -> Vec<PathBuf> {
        (0..parts)
            .map(|part| {
                let path = dir.join(format!("{part}-of-{parts}.part"));
                let spec = PartSpec { parts, part };
                PartContent::build(reference, spec, 16, &Reporter::quiet())
                    .write(&path)
                    .unwrap();
                path
            })
            .collect()
    }

    #[test]
    fn part_files_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let reference = reference(&crate::test_support::random_codes(9999, 3, 4));
        for part in 0..3 {
            let content = PartContent::build(
                &reference,
                PartSpec { parts: 3, part },
                16,
                &Reporter::quiet(),
            );
            assert!(content.meta.rows > 0 && content.meta.kmers > 0);
            let path = dir.path().join("p");
            content.write(&path).unwrap();
            let file = PartFile::open(&path).unwrap();
            assert_eq!(file.meta(), &content.meta);
            assert_eq!(file.rows(), content.rows);
            assert_eq!(file.kmers(), content.kmers);
        }
    }

    #[test]
    fn assembled_parts_are_the_index_whatever_their_number() {
        let dir = tempfile::tempdir().unwrap();
        let unit = crate::test_support::random_codes(700, 5, 4);
        let texts: Vec<Vec<u8>> = vec![
            crate::test_support::random_codes(30_000, 1, 4),
            vec![0; 5000], // one bucket, larger than any part
            [1u8, 3].repeat(2000),
            [unit.clone(), unit.clone(), unit].concat(),
            vec![2],
        ];
        for codes in &texts {
            let reference = reference(codes);
            let sa: Vec<u32> = crate::sa::suffix_array(&reference.text);
            let whole = FmParts::build(&reference.text, &sa, 16);
            for parts in [1, 2, 7, 40] {
                let files = write_parts(&reference, parts, dir.path());
                let fm = assemble_fm(&reference, "ref.fa", &files).unwrap();
                assert!(fm == whole, "{} bases, {parts} parts", codes.len());
            }
        }
    }

    #[test]
    fn a_bucket_larger_than_a_part_is_shared_by_several_parts() {
        let dir = tempfile::tempdir().unwrap();
        let reference = reference(&[0; 5000]);
        let files = write_parts(&reference, 7, dir.path());
        let rows: Vec<u64> = files
            .iter()
            .map(|f| PartFile::open(f).unwrap().meta().rows)
            .collect();
        assert!(rows.iter().filter(|&&r| r > 0).count() >= 6, "{rows:?}");
        assert_eq!(rows.iter().sum::<u64>(), 5000);
    }
}
