//! bwa's index (`galign index --format bwa`) built as galign's own is: the FASTA read
//! ([`read_fasta_observed`]) with bwa's names and holes gathered beside it
//! ([`crate::bwa::records`]), the holes' bases replaced by bwa's draws, the text with its
//! reverse complement indexed by [`stages::fm_index`] (the same builders, CPU or GPU,
//! whole or in parts, within `--memory` and `--gpu-memory`, 64-bit positions where the
//! doubled text needs them), and the five files written in [`crate::bwa`]'s formats.
//!
//! The `.sa` rows (every 32nd) are kept as the suffix array's rows stream into the FM
//! builder ([`Keep::EveryRow`]), the sampled suffix array and jump table of galign's own
//! index left unmade. `.pac`, `.ann` and `.amb`, which depend on the text alone, are
//! written on a thread of their own while the index is built, `.bwt` and `.sa` beside
//! each other after; all five are renamed into place only once every one is complete.

use std::path::{Path, PathBuf};

use super::build::{
    check_base_counts, check_gpu_budget, check_reference, cpu_part_within, BuildError,
    BuildOptions, MAX_BASE_COUNT,
};
use super::devices::{Devices, ExpectedBuild};
use super::stages;
use crate::atomic_file::AtomicFile;
use crate::bwa::records::{BwaRecords, Header, Hole};
use crate::bwa::{ann, bwt, check_limits, pac, paths, LimitError};
use crate::fm::{FmParts, Keep};
use crate::progress::Reporter;
use crate::reference::{read_fasta_observed, Layout, PackedText, Reference};
use crate::sa::Width;

/// The sampling rate that the host budget of the sort counts the FM index at
/// ([`crate::fm::DEFAULT_SAMPLE_RATE`]).
const BUDGETED_RATE: u64 = crate::fm::DEFAULT_SAMPLE_RATE as u64;

/// Why bwa's index could not be built: a reference or prefix that bwa's own limits
/// refuse, or the build's own errors.
#[derive(Debug, thiserror::Error)]
pub enum BwaError {
    /// The build failed as galign's own index would: its reference unreadable or unfit,
    /// a budget too small, the GPU under `--device gpu`.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The text with its reverse complement is unfit for the index.
    #[error("the text with its reverse complement")]
    Doubled(#[source] BuildError),
    /// Writing the files failed.
    #[error("cannot write bwa index {}.*", .prefix.display())]
    Write {
        /// The files' prefix.
        prefix: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// A contig name or prefix longer than bwa reads back.
    #[error(transparent)]
    Limit(#[from] LimitError),
}

/// Builds bwa's index of `fasta` and writes its five files under `prefix`, with the
/// devices and budgets of `options` (its sampling rate is bwa's, 32).
pub fn build_bwa_index(
    fasta: &Path,
    prefix: &Path,
    options: BuildOptions,
    log: &Reporter,
) -> Result<(), BwaError> {
    let expected = crate::io::estimated_size(fasta).map(|bytes| ExpectedBuild {
        bases: bytes / 61 * 60 * 2,
        gpu: options.gpu,
    });
    let devices = Devices::start_for(options.device, options.gpu.count, expected);
    let mut records = BwaRecords::default();
    let reference = log
        .step("read reference", || {
            read_fasta_observed(fasta, &mut records)
        })
        .map_err(BuildError::from)?;
    check_reference(fasta, &reference)?;
    let (headers, holes) = records.finish(&reference.layout);
    check_limits(fasta, prefix, &headers)?;
    let Reference { layout, text } = reference;
    let forward = log.step("replace holes (bwa's draws)", || {
        pac::replace_holes(text, &holes)
    });
    let doubled = log.step("reverse complement", || {
        pac::with_reverse_complement(&forward)
    });
    check_base_counts(fasta, &doubled, MAX_BASE_COUNT).map_err(BwaError::Doubled)?;
    let cannot_write = |source| BwaError::Write {
        prefix: prefix.to_path_buf(),
        source,
    };
    let sources = (&layout, &headers[..], &holes[..]);
    let written = std::thread::scope(|s| {
        let text_files = s.spawn(|| {
            log.step("write .pac, .ann, .amb (beside the index build)", || {
                write_text_files(prefix, sources, &forward)
            })
        });
        let fm = doubled_index(fasta, &doubled, &options, &devices, log);
        let closing = devices.close_in_background();
        let index_files = match fm {
            Ok(fm) => write_index_files(prefix, &fm, log).map_err(cannot_write),
            Err(e) => Err(e.into()),
        };
        let text_files = text_files.join().expect("writing .pac does not panic");
        closing.join().expect("closing the GPUs does not panic");
        Ok::<_, BwaError>((index_files?, text_files.map_err(cannot_write)?))
    })?;
    let (index_files, text_files) = written;
    text_files
        .into_iter()
        .chain(index_files)
        .try_for_each(AtomicFile::commit)
        .map_err(cannot_write)
}

/// The FM index of `doubled` (read from `fasta`) on `devices`, within the budgets of
/// `options`.
fn doubled_index(
    fasta: &Path,
    doubled: &PackedText,
    options: &BuildOptions,
    devices: &Devices,
    log: &Reporter,
) -> Result<FmParts, BuildError> {
    let n = doubled.len() as u64;
    let width = Width::for_text(n, options.force_u64);
    if let Some(budget) = options.gpu.budget {
        check_gpu_budget(n as usize, budget, (width, options.gpu.algorithm)).map_err(|source| {
            BuildError::GpuBudget {
                fasta: crate::io::shown_name(fasta),
                source,
            }
        })?;
    }
    // Held besides the sort's own: both texts, the `.pac` bytes while they are written,
    // and the positions of every 32nd row beyond the sampled ones the budget counts.
    let rows_kept = 8 * (n / bwt::SA_INTERVAL);
    let extra = rows_kept.saturating_sub(width.bytes() as u64 * (n / BUDGETED_RATE));
    let held = 8 * (doubled.words().len() as u64 + n / 64) + n / 8 + extra;
    let cpu_part = cpu_part_within(fasta, (n, width), options.memory, held, "bwa index")?;
    Ok(stages::fm_index(
        doubled,
        (Keep::EveryRow(bwt::SA_INTERVAL as u32), width),
        (cpu_part, options.gpu),
        devices,
        &log.labelled("bwa index (the text and its reverse complement)"),
    )?)
}

/// Writes `.pac` of `forward`, `.ann` and `.amb` of the reference's contigs with their
/// `headers` and `holes`, under `prefix`, each to its temporary (to be committed).
fn write_text_files(
    prefix: &Path,
    (layout, headers, holes): (&Layout, &[Header], &[Hole]),
    forward: &PackedText,
) -> std::io::Result<Vec<AtomicFile>> {
    let [amb, ann, _, pac_path, _] = paths(prefix);
    let l_pac = forward.len() as u64;
    Ok(vec![
        crate::atomic_file::write_uncommitted(&pac_path, &pac::pac_bytes(forward))?,
        crate::atomic_file::write_uncommitted(
            &ann,
            &ann::ann_bytes(l_pac, layout, headers, holes),
        )?,
        crate::atomic_file::write_uncommitted(
            &amb,
            &ann::amb_bytes(l_pac, layout.contigs.len(), holes),
        )?,
    ])
}

/// Writes `.bwt` and `.sa` of `fm` (the FM index of the doubled text, with the positions
/// of every 32nd row) under `prefix`, each on its own thread to its temporary (to be
/// committed).
fn write_index_files(
    prefix: &Path,
    fm: &FmParts,
    log: &Reporter,
) -> std::io::Result<Vec<AtomicFile>> {
    let [_, _, bwt_path, _, sa] = paths(prefix);
    let (bwt_file, sa_file) = std::thread::scope(|s| {
        let sa_file = s.spawn(|| {
            log.step("write .sa", || {
                crate::atomic_file::write_with_uncommitted(&sa, |out| bwt::write_sa(fm, out))
            })
        });
        let bwt_file = log.step("write .bwt", || {
            crate::atomic_file::write_with_uncommitted(&bwt_path, |out| bwt::write_bwt(fm, out))
        });
        (
            bwt_file,
            sa_file.join().expect("writing .sa does not panic"),
        )
    });
    Ok(vec![bwt_file?, sa_file?])
}
