//! The `galign index` job: FASTA -> text -> suffix array -> FM index, and the same for
//! the reversed text (the mirror index of the k-mismatch search) -> index file.

use std::path::Path;

use anyhow::Context;

use super::{index_path, write};
use crate::device::{self, DeviceChoice, GpuOptions};
use crate::fm::FmParts;
use crate::progress::Reporter;
use crate::reference::{read_fasta, Reference};
use crate::sa::partition::{part_size_within, BudgetError};
use crate::sa::SaIndex;

/// The mirror's sampled suffix array is not kept (positions are located through the
/// forward index): the sparsest sampling makes it cheapest to build.
const MIRROR_SAMPLE_RATE: u32 = 1024;

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
}

/// Refuses a reference longer than the index supports.
pub(super) fn check_size(fasta: &Path, reference: &Reference) -> anyhow::Result<()> {
    let n = reference.text.len() as u64;
    anyhow::ensure!(
        n <= u32::MAX_TEXT,
        "{}: {n} bases; the index supports at most {} (u32 positions)",
        fasta.display(),
        u32::MAX_TEXT
    );
    Ok(())
}

/// Builds the index of `fasta` and writes `PREFIX.galign`.
pub fn build_index(
    fasta: &Path,
    prefix: &Path,
    options: BuildOptions,
    log: &Reporter,
) -> anyhow::Result<()> {
    let reference = log.step("read reference", || read_fasta(fasta))?;
    check_size(fasta, &reference)?;
    let n = reference.text.len() as u64;
    if let Some(budget) = options.gpu.budget {
        crate::gpu::partition::part_size_within(n as usize, budget)
            .with_context(|| format!("{}: --gpu-memory", fasta.display()))?;
    }
    let mirror = mirror_index(fasta, &reference, &options, log)?;
    let cpu_part = cpu_part_within(
        fasta,
        n,
        options.memory,
        mirror.heap_bytes(),
        "forward index",
    )?;
    if log.verbose() {
        log.info("forward index:");
    }
    let fm = device::fm_index(
        &reference.text,
        options.sample_rate,
        (cpu_part, options.gpu),
        options.device,
        log,
    )?;
    let path = index_path(prefix);
    log.step("write index", || write(&path, &reference, &fm, &mirror))
        .with_context(|| format!("cannot write index {}", path.display()))?;
    if log.verbose() {
        log.info(&format!(
            "{}: {} contigs, {} bases, {} ambiguous runs, k = {}",
            path.display(),
            reference.layout.contigs.len(),
            n,
            reference.layout.ambiguous.len(),
            fm.k
        ));
    }
    Ok(())
}

/// The mirror index of `reference` (read from `fasta`): the reversed text's BWT and Occ,
/// all that `map -v K` needs of it, built first, while only the text is held, within
/// the budgets of `options`.
pub(crate) fn mirror_index(
    fasta: &Path,
    reference: &Reference,
    options: &BuildOptions,
    log: &Reporter,
) -> anyhow::Result<FmParts> {
    let n = reference.text.len() as u64;
    let text_bytes = 8 * reference.text.words().len() as u64;
    let mirror_part = cpu_part_within(fasta, n, options.memory, text_bytes, "mirror index")?;
    let reversed = log.step("reverse the text", || reference.text.reversed());
    if log.verbose() {
        log.info("mirror index (the reversed text's):");
    }
    let mut mirror = device::fm_index(
        &reversed,
        MIRROR_SAMPLE_RATE,
        (mirror_part, options.gpu),
        options.device,
        log,
    )?;
    mirror.drop_locate_and_jump();
    Ok(mirror)
}

/// The part size of a CPU build of `n` bases within the host budget `memory` while
/// `held` bytes are held besides (`None`: the whole-text sorter fits, or no budget).
fn cpu_part_within(
    fasta: &Path,
    n: u64,
    memory: Option<u64>,
    held: u64,
    what: &str,
) -> anyhow::Result<Option<usize>> {
    memory
        .map(|budget| {
            part_size_within::<u32>(n as usize, budget.saturating_sub(held)).map_err(|e| {
                BudgetError {
                    budget,
                    needed: e.needed + held,
                    ..e
                }
            })
        })
        .transpose()
        .with_context(|| format!("{}: --memory ({what})", fasta.display()))
        .map(Option::flatten)
}
