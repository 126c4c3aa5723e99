//! bwa's index (`galign index --format bwa`) built as galign's own is: the FASTA read
//! ([`read_fasta_observed`]) with bwa's names and holes gathered beside it
//! ([`crate::bwa::records`]), the holes' bases replaced by bwa's draws, the text with its
//! reverse complement indexed by [`stages::fm_index`] (the same builders, CPU or GPU,
//! whole or in parts, within `--memory` and `--gpu-memory`, 64-bit positions where the
//! doubled text needs them), and the five files written in [`crate::bwa`]'s formats.

use std::path::{Path, PathBuf};

use super::build::{
    check_base_counts, check_gpu_budget, check_reference, cpu_part_within, BuildError,
    BuildOptions, MAX_BASE_COUNT,
};
use super::devices::{Devices, ExpectedBuild};
use super::stages;
use crate::bwa::records::{BwaRecords, Header, Hole};
use crate::bwa::{ann, bwt, check_limits, pac, paths, LimitError};
use crate::fm::{FmParts, Keep};
use crate::progress::Reporter;
use crate::reference::{read_fasta_observed, PackedText, Reference};
use crate::sa::Width;

/// The sampling rate of the FM index the `.sa` rows are located through: each of them at
/// most 3 LF steps from a sampled one (a quarter of the positions held meanwhile; at 8,
/// locating took 4x as long, chr20 on 2 cores: 1.8 s against 0.47 s).
const LOCATE_RATE: u32 = 4;
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
    let forward = log.step("replace holes (bwa's draws)", || {
        pac::replace_holes(&reference.text, &holes)
    });
    let doubled = log.step("reverse complement", || {
        pac::with_reverse_complement(&forward)
    });
    check_base_counts(fasta, &doubled, MAX_BASE_COUNT).map_err(BwaError::Doubled)?;
    let fm = doubled_index(fasta, &doubled, &options, &devices, log)?;
    let closing = devices.close_in_background();
    let sources = (&reference, &headers[..], &holes[..]);
    write_files(prefix, sources, (&forward, &doubled), &fm, log).map_err(|source| {
        BwaError::Write {
            prefix: prefix.to_path_buf(),
            source,
        }
    })?;
    closing.join().expect("closing the GPUs does not panic");
    Ok(())
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
    // Held besides the sort's own: both texts, and the sampled positions beyond those
    // the budget counts.
    let extra_positions = n / u64::from(LOCATE_RATE) - n / BUDGETED_RATE;
    let held = 8 * (doubled.words().len() as u64 + n / 64) + width.bytes() as u64 * extra_positions;
    let cpu_part = cpu_part_within(fasta, (n, width), options.memory, held, "bwa index")?;
    Ok(stages::fm_index(
        doubled,
        (Keep::Locate(LOCATE_RATE), width),
        (cpu_part, options.gpu),
        devices,
        &log.labelled("bwa index (the text and its reverse complement)"),
    )?)
}

/// Writes the five files under `prefix`: `.pac` of `forward`, `.ann` and `.amb` of the
/// reference's contigs with their `headers` and `holes`, `.bwt` and `.sa` of `fm`, the
/// FM index of `doubled`.
fn write_files(
    prefix: &Path,
    (reference, headers, holes): (&Reference, &[Header], &[Hole]),
    (forward, doubled): (&PackedText, &PackedText),
    fm: &FmParts,
    log: &Reporter,
) -> std::io::Result<()> {
    let [amb, ann, bwt_path, pac_path, sa] = paths(prefix);
    let l_pac = forward.len() as u64;
    let layout = &reference.layout;
    log.step("write .pac, .ann, .amb", || {
        crate::atomic_file::write(&pac_path, &pac::pac_bytes(forward))?;
        crate::atomic_file::write(&ann, &ann::ann_bytes(l_pac, layout, headers, holes))?;
        crate::atomic_file::write(&amb, &ann::amb_bytes(l_pac, layout.contigs.len(), holes))
    })?;
    log.step("write .bwt", || {
        crate::atomic_file::write_with(&bwt_path, |out| bwt::write_bwt(fm, out))
    })?;
    let index = fm.view(doubled);
    log.step("locate and write .sa", || {
        crate::atomic_file::write_with(&sa, |out| bwt::write_sa(fm, &index, out))
    })
}
