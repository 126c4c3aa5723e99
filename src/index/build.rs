//! The `galign index` job: FASTA -> text -> suffix array -> FM index, and the same for
//! the reversed text (the mirror index of the k-mismatch search) -> index file.

use std::path::Path;

use super::devices::{Devices, ExpectedBuild, GpuOptions};
use super::format::beside_build_pool;
use super::stages;
use super::TargetError;
use super::{index_path, write_unsynced, IndexWriter, Written};
use crate::device::{DeviceChoice, GpuRequiredError};
use crate::fm::{FmParts, Keep};
use crate::progress::Reporter;
use crate::reference::{read_fasta, Layout, PackedText, Reference, ReferenceError};
use crate::sa::partition::{part_size_within, BudgetError};
use crate::sa::{SaIndex, Width};

/// Settings of an index build.
#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Suffix-array sampling rate.
    pub sample_rate: u32,
    /// Where the suffix array and the FM index are built.
    pub device: DeviceChoice,
    /// Host memory budget of the CPU build, in bytes: within it the suffix array is
    /// sorted in parts ([`crate::sa::partition`]); `None`: unbounded.
    pub memory: Option<u64>,
    /// The GPUs of the GPU build and their memory budget.
    pub gpu: GpuOptions,
    /// For tests only: 64-bit positions even when 32 bits fit ([`Width::for_text`]), so
    /// that the 64-bit index can be compared with the 32-bit one on small references.
    pub force_u64: bool,
}

/// The longest contig SAM and BAM positions can express (their POS is a signed 32-bit
/// integer).
pub const MAX_CONTIG: u64 = i32::MAX as u64;

/// The most occurrences of one base the Occ checkpoints count (32 bits a base, the
/// sentinel counted as `A`).
pub(crate) const MAX_BASE_COUNT: u64 = u32::MAX as u64 - 1;

/// Why an index (or one share of it) could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The output is refused before the build starts.
    #[error(transparent)]
    Target(#[from] TargetError),
    /// The reference could not be read.
    #[error(transparent)]
    Reference(#[from] ReferenceError),
    /// A contig longer than SAM and BAM positions reach.
    #[error(
        "{fasta}: contig {name} has {len} bases; SAM and BAM positions reach {most} bases at most"
    )]
    ContigTooLong {
        /// The reference as shown.
        fasta: String,
        /// The contig's name.
        name: String,
        /// Its length.
        len: u64,
        /// The longest contig allowed.
        most: u64,
    },
    /// A base more often in the text than the Occ checkpoints count.
    #[error("{fasta}: {count} bases {base}; the index counts at most {most} of each base")]
    BaseCount {
        /// The reference as shown.
        fasta: String,
        /// The base's occurrences.
        count: u64,
        /// The base.
        base: char,
        /// The most occurrences counted.
        most: u64,
    },
    /// A text too long for the 32-bit positions of part files.
    #[error(
        "{fasta}: {n} bases; --parts builds references of at most {} bases (32-bit \
         positions): build this one with a single `galign index`",
        u32::MAX_TEXT
    )]
    TooLongForParts {
        /// The reference as shown.
        fasta: String,
        /// The text's length.
        n: u64,
    },
    /// The GPU budget (`--gpu-memory`) is too small.
    #[error("{fasta}: --gpu-memory")]
    GpuBudget {
        /// The reference as shown.
        fasta: String,
        /// The budget and the least that works.
        source: BudgetError,
    },
    /// The host budget (`--memory`) is too small for one of the builds.
    #[error("{fasta}: --memory ({what})")]
    HostBudget {
        /// The reference as shown.
        fasta: String,
        /// The build refused ("forward index", "mirror index", "bwa index").
        what: String,
        /// The budget and the least that works.
        source: BudgetError,
    },
    /// A stage failed on the GPU under `--device gpu`.
    #[error(transparent)]
    Gpu(#[from] GpuRequiredError),
    /// Writing the output failed.
    #[error("cannot write {what} {}", .path.display())]
    Write {
        /// What the output is ("index", "part file").
        what: &'static str,
        /// Its path.
        path: std::path::PathBuf,
        /// The failure.
        source: std::io::Error,
    },
}

impl BuildError {
    /// Writing the index file `path` failed with `source`.
    pub(crate) fn cannot_write(path: &Path, source: std::io::Error) -> BuildError {
        BuildError::Write {
            what: "index",
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Refuses a reference the index cannot hold: a contig longer than SAM/BAM can express
/// ([`MAX_CONTIG`]), or a base occurring more often than the Occ checkpoints count.
pub(crate) fn check_reference(fasta: &Path, reference: &Reference) -> Result<(), BuildError> {
    check_contigs(fasta, &reference.layout, MAX_CONTIG)?;
    check_base_counts(fasta, &reference.text, MAX_BASE_COUNT)
}

/// Refuses a contig of `layout` (read from `fasta`) longer than `most` bases.
fn check_contigs(fasta: &Path, layout: &Layout, most: u64) -> Result<(), BuildError> {
    match layout.contigs.iter().find(|c| c.len > most) {
        Some(c) => Err(BuildError::ContigTooLong {
            fasta: fasta.display().to_string(),
            name: c.name.clone(),
            len: c.len,
            most,
        }),
        None => Ok(()),
    }
}

/// Refuses a text (read from `fasta`) in which a base occurs more than `most` times.
pub(crate) fn check_base_counts(
    fasta: &Path,
    text: &PackedText,
    most: u64,
) -> Result<(), BuildError> {
    if text.len() as u64 <= most {
        return Ok(()); // no base can occur more often: skip the count
    }
    let c = crate::fm::symbol_starts(text);
    for (s, base) in "ACGT".chars().enumerate() {
        let count = c[s + 1] - c[s];
        if count > most {
            return Err(BuildError::BaseCount {
                fasta: fasta.display().to_string(),
                count,
                base,
                most,
            });
        }
    }
    Ok(())
}

/// Refuses a reference too long for the part files of a build on several nodes, whose
/// positions are 32-bit.
pub(super) fn check_fits_parts(fasta: &Path, reference: &Reference) -> Result<(), BuildError> {
    let n = reference.text.len() as u64;
    match n <= u32::MAX_TEXT {
        true => Ok(()),
        false => Err(BuildError::TooLongForParts {
            fasta: fasta.display().to_string(),
            n,
        }),
    }
}

/// Builds the index of `fasta` and writes `PREFIX.galign`.
pub fn build_index(
    fasta: &Path,
    prefix: &Path,
    options: BuildOptions,
    log: &Reporter,
) -> Result<(), BuildError> {
    super::ensure_prefix(prefix)?;
    let path = index_path(prefix);
    super::ensure_output(&[("the reference", fasta)], &path, "index")?;
    // A FASTA file holds about 60/61 of its bytes as bases (lines of 60 or more).
    let expected = crate::io::estimated_size(fasta).map(|bytes| ExpectedBuild {
        bases: bytes / 61 * 60,
        gpu: options.gpu,
    });
    let devices = Devices::start_for(options.device, options.gpu.count, expected);
    let reference = log.step("read reference", || read_fasta(fasta))?;
    check_reference(fasta, &reference)?;
    let n = reference.text.len() as u64;
    let width = Width::for_text(n, options.force_u64);
    if let Some(budget) = options.gpu.budget {
        check_gpu_budget(n as usize, budget, (width, options.gpu.algorithm)).map_err(|source| {
            BuildError::GpuBudget {
                fasta: fasta.display().to_string(),
                source,
            }
        })?;
    }
    let summary = format!(
        "{}: {} contigs, {} bases, {} ambiguous runs",
        path.display(),
        reference.layout.contigs.len(),
        n,
        reference.layout.ambiguous.len(),
    );
    let build = (&options, devices);
    let k = match options.memory {
        Some(_) => build_within_budget(fasta, reference, width, &path, build, log)?,
        None => build_writing_early(fasta, reference, width, &path, build, log)?,
    };
    if log.verbose() {
        log.info(&format!("{summary}, k = {k}"));
    }
    Ok(())
}

/// The index file under a host budget: the mirror index first, while only the text is
/// held (its Occ is then held during the forward build), the file at the end (the GPUs
/// closed meanwhile). Returns the forward FM index's k.
fn build_within_budget(
    fasta: &Path,
    reference: Reference,
    width: Width,
    path: &Path,
    (options, devices): (&BuildOptions, Devices),
    log: &Reporter,
) -> Result<u32, BuildError> {
    check_host_budget(fasta, &reference, width, options.memory)?;
    let build = (options, &devices);
    let mirror = mirror_index(fasta, &reference, width, build, log)?;
    let fm = forward_index(fasta, &reference, (width, mirror.heap_bytes()), build, log)?;
    let k = fm.k;
    write_while_closing(devices, log, || {
        let written = write_unsynced(path, &reference, &fm, &mirror)?;
        commit_while_freeing(written, (reference, fm, mirror))
    })
    .map_err(|source| BuildError::cannot_write(path, source))?;
    Ok(k)
}

/// The index's last step, `write`, run while the GPUs of `devices` close on a thread of
/// their own (their contexts take ~0.1 s to destroy); both are done on return.
fn write_while_closing<T>(devices: Devices, log: &Reporter, write: impl FnOnce() -> T) -> T {
    let closing = devices.close_in_background();
    let written = log.step("write index", write);
    closing.join().expect("closing the GPUs does not panic");
    written
}

/// Syncs `written` and gives it its name while `arrays`, the host arrays it was written
/// from, are freed on a thread of their own: freeing them came after the write and took
/// the process's last 0.06-0.10 s at 252 Mbp, 0.2-0.4 s at 3 Gbp (H200 host), while the
/// sync mostly waits for the disk.
fn commit_while_freeing<A: Send>(written: Written, arrays: A) -> std::io::Result<()> {
    std::thread::scope(|scope| {
        scope.spawn(move || drop(arrays));
        written.commit()
    })
}

/// The index file without a host budget: the forward index first, and beside it, on
/// the pool beside the build, the text reversed for the mirror (0.05-0.08 s of 3 Gbp on
/// 16 cores, a few times that on its 4), then the text written where the file's layout
/// is fixed before the build; then the forward index's sections (and the text, if not yet)
/// go to disk on a thread of their own while the mirror index is built; the mirror's
/// Occ and the metadata at the end ([`IndexWriter`]; all at the end where the layout
/// cannot be fixed early), while the GPUs close and the host arrays are freed. Returns
/// the forward FM index's k.
fn build_writing_early(
    fasta: &Path,
    reference: Reference,
    width: Width,
    path: &Path,
    (options, devices): (&BuildOptions, Devices),
    log: &Reporter,
) -> Result<u32, BuildError> {
    let build = (options, &devices);
    let cannot_write = |source| BuildError::cannot_write(path, source);
    let (fm, (reversed, early)) = std::thread::scope(|scope| {
        // The reversal first: the mirror's build waits for it, nothing for the text.
        let beside = scope.spawn(|| {
            beside_build_pool().install(|| {
                let reversed = reversed_text(&reference, log);
                (
                    reversed,
                    text_before_build(path, &reference, (options, width)),
                )
            })
        });
        let fm = forward_index(fasta, &reference, (width, 0), build, log);
        (
            fm,
            beside.join().expect("reversing and writing do not panic"),
        )
    });
    let fm = fm?;
    let writer = match early.map_err(cannot_write)? {
        Some(writer) => {
            if log.verbose() {
                log.info("the text went to disk during the forward index's build");
            }
            Some(writer)
        }
        None => IndexWriter::start(path, &reference, &fm).map_err(cannot_write)?,
    };
    let mirror = std::thread::scope(|scope| -> Result<FmParts, BuildError> {
        let early = writer
            .as_ref()
            .map(|w| scope.spawn(|| w.write_forward(&reference, &fm)));
        let mirror = mirror_index_of(fasta, &reference, &reversed, width, build, log);
        if let Some(early) = early {
            let written = early.join().expect("the index writer does not panic");
            written.map_err(cannot_write)?;
        }
        mirror
    })?;
    let k = fm.k;
    write_while_closing(devices, log, || {
        let written = match writer {
            Some(writer) => writer.finish(&reference, &fm, &mirror),
            None => write_unsynced(path, &reference, &fm, &mirror),
        }?;
        commit_while_freeing(written, (reference, reversed, fm, mirror))
    })
    .map_err(cannot_write)?;
    Ok(k)
}

/// The index file at `path` started and the text of `reference` written, where the file's
/// layout is fixed before the FM index (of `options`' sampling rate and positions of
/// `width`) is built ([`IndexWriter::start_before_build`]); `None` otherwise.
fn text_before_build(
    path: &Path,
    reference: &Reference,
    (options, width): (&BuildOptions, Width),
) -> std::io::Result<Option<IndexWriter>> {
    let writer = IndexWriter::start_before_build(path, reference, (options.sample_rate, width))?;
    if let Some(writer) = &writer {
        writer.write_text(reference)?;
    }
    Ok(writer)
}

/// The FM index of `reference` (read from `fasta`), within the budgets of `options` while
/// `held` bytes are held besides, on `devices`, sorted with positions of `width`.
fn forward_index(
    fasta: &Path,
    reference: &Reference,
    (width, held): (Width, u64),
    (options, devices): (&BuildOptions, &Devices),
    log: &Reporter,
) -> Result<FmParts, BuildError> {
    let n = reference.text.len() as u64;
    let cpu_part = cpu_part_within(fasta, (n, width), options.memory, held, "forward index")?;
    Ok(stages::fm_index(
        &reference.text,
        (Keep::Locate(options.sample_rate), width),
        (cpu_part, options.gpu),
        devices,
        &log.labelled("forward index"),
    )?)
}

/// The mirror index of `reference` (read from `fasta`): the reversed text's BWT and Occ,
/// all that `map -v K` needs of it, within the budgets of `options` while the text is
/// held, on `devices`, sorted with positions of `width`.
pub(crate) fn mirror_index(
    fasta: &Path,
    reference: &Reference,
    width: Width,
    build: (&BuildOptions, &Devices),
    log: &Reporter,
) -> Result<FmParts, BuildError> {
    let reversed = reversed_text(reference, log);
    mirror_index_of(fasta, reference, &reversed, width, build, log)
}

/// `reference`'s text reversed, the mirror index's text.
fn reversed_text(reference: &Reference, log: &Reporter) -> PackedText {
    log.step("reverse the text", || reference.text.reversed())
}

/// [`mirror_index`] of `reference` whose text reversed is `reversed`.
fn mirror_index_of(
    fasta: &Path,
    reference: &Reference,
    reversed: &PackedText,
    width: Width,
    (options, devices): (&BuildOptions, &Devices),
    log: &Reporter,
) -> Result<FmParts, BuildError> {
    let n = reference.text.len() as u64;
    let held = text_bytes(reference);
    let mirror_part = cpu_part_within(fasta, (n, width), options.memory, held, "mirror index")?;
    Ok(stages::fm_index(
        reversed,
        (Keep::OccOnly, width),
        (mirror_part, options.gpu),
        devices,
        &log.labelled("mirror index (the reversed text's)"),
    )?)
}

/// Checks that a GPU build of `n` bases with positions of `width` fits `budget` bytes.
pub(crate) fn check_gpu_budget(
    n: usize,
    budget: u64,
    (width, algorithm): (Width, crate::gpu::sa::Algorithm),
) -> Result<(), BudgetError> {
    let within = match width {
        Width::U32 => crate::gpu::sa::partition::part_size_within::<u32>,
        Width::U64 => crate::gpu::sa::partition::part_size_within::<u64>,
    };
    within(n, budget, algorithm).map(|_| ())
}

/// Checks the host budget `memory` of [`build_within_budget`] before either of its
/// builds starts: the mirror index is built while the text is held, the forward index
/// while the mirror's Occ is, so a budget too small for either is refused naming the
/// least that works for both (the mirror's own check would name a budget the forward
/// build then refuses).
fn check_host_budget(
    fasta: &Path,
    reference: &Reference,
    width: Width,
    memory: Option<u64>,
) -> Result<(), BuildError> {
    let n = reference.text.len() as u64;
    let steps = [
        (text_bytes(reference), "mirror index"),
        (mirror_occ_bytes(n), "forward index"),
    ];
    let needed = |e: &BuildError| match e {
        BuildError::HostBudget { source, .. } => source.needed,
        _ => 0,
    };
    let refused = steps
        .iter()
        .filter_map(|&(held, what)| cpu_part_within(fasta, (n, width), memory, held, what).err());
    match refused.max_by_key(needed) {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// Bytes of `reference`'s packed text, held while the mirror index is built.
fn text_bytes(reference: &Reference) -> u64 {
    8 * reference.text.words().len() as u64
}

/// Bytes of the mirror index's arrays for a text of `n` bases: its BWT/Occ alone
/// ([`FmParts::heap_bytes`] after [`Keep::OccOnly`]).
fn mirror_occ_bytes(n: u64) -> u64 {
    8 * crate::fm::Lengths::of(n as usize, Keep::OccOnly.sample_rate()).occ as u64
}

/// The part size of a CPU build of `n` bases with positions of `width` within the host
/// budget `memory` while `held` bytes are held besides (`None`: the whole-text sorter
/// fits, or no budget).
pub(crate) fn cpu_part_within(
    fasta: &Path,
    (n, width): (u64, Width),
    memory: Option<u64>,
    held: u64,
    what: &str,
) -> Result<Option<usize>, BuildError> {
    let within = match width {
        Width::U32 => part_size_within::<u32>,
        Width::U64 => part_size_within::<u64>,
    };
    memory
        .map(|budget| {
            within(n as usize, budget.saturating_sub(held)).map_err(|e| BudgetError {
                budget,
                needed: e.needed + held,
                ..e
            })
        })
        .transpose()
        .map_err(|source| BuildError::HostBudget {
            fasta: fasta.display().to_string(),
            what: what.to_string(),
            source,
        })
        .map(Option::flatten)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::Contig;

    #[test]
    fn the_mirror_arrays_are_the_size_the_budget_check_counts() {
        for len in [1, 63, 64, 1000, 100_000] {
            let text = PackedText::from_codes(&crate::test_support::random_codes(len, 3, 4));
            let sa: Vec<u32> = crate::sa::suffix_array(&text);
            let mut mirror = FmParts::build(&text, &sa, Keep::OccOnly.sample_rate());
            mirror.drop_locate_and_jump();
            assert_eq!(
                mirror.heap_bytes(),
                mirror_occ_bytes(len as u64),
                "{len} bases"
            );
        }
    }

    #[test]
    fn a_contig_past_sam_positions_is_refused_naming_it_and_the_file() {
        let contig = |name: &str, offset, len| Contig {
            name: name.into(),
            description: String::new(),
            offset,
            len,
        };
        let layout = |len| Layout {
            contigs: vec![contig("chr1", 0, 1000), contig("huge", 1000, len)],
            ambiguous: Vec::new(),
        };
        let fasta = Path::new("ref.fa");
        assert!(check_contigs(fasta, &layout(MAX_CONTIG), MAX_CONTIG).is_ok());
        let e = check_contigs(fasta, &layout(MAX_CONTIG + 1), MAX_CONTIG)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "ref.fa: contig huge has 2147483648 bases; SAM and BAM positions reach \
             2147483647 bases at most"
        );
    }

    #[test]
    fn a_base_counted_past_the_occ_checkpoints_is_refused() {
        let text = PackedText::from_codes(&[0, 0, 0, 1, 2, 3, 3]);
        let fasta = Path::new("ref.fa");
        assert!(check_base_counts(fasta, &text, 3).is_ok());
        let e = check_base_counts(fasta, &text, 2).unwrap_err().to_string();
        assert_eq!(
            e,
            "ref.fa: 3 bases A; the index counts at most 2 of each base"
        );
    }
}
