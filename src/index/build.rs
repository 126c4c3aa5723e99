//! The `galign index` job: FASTA -> text -> suffix array -> FM index, and the same for
//! the reversed text (the mirror index of the k-mismatch search) -> index file.

use std::path::Path;

use anyhow::Context;

use super::{index_path, write};
use crate::device::{self, DeviceChoice};
use crate::progress::Reporter;
use crate::reference::read_fasta;
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
}

/// Builds the index of `fasta` and writes `PREFIX.galign`.
pub fn build_index(
    fasta: &Path,
    prefix: &Path,
    options: BuildOptions,
    log: &Reporter,
) -> anyhow::Result<()> {
    let reference = log.step("read reference", || read_fasta(fasta))?;
    let n = reference.text.len() as u64;
    anyhow::ensure!(
        n <= u32::MAX_TEXT,
        "{}: {n} bases; the index supports at most {} (u32 positions)",
        fasta.display(),
        u32::MAX_TEXT
    );
    // The mirror first, kept as its BWT/Occ alone: while it is built the text is held
    // beside its own (reversed) text, and while the forward index is built, only its
    // Occ; each build gets the budget that the held arrays leave.
    let part_within = |held: u64, what: &str| {
        options
            .memory
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
    };
    let text_bytes = 8 * reference.text.words().len() as u64;
    let mirror_part = part_within(text_bytes, "mirror index")?;
    let reversed = log.step("reverse the text", || reference.text.reversed());
    if log.verbose() {
        log.info("mirror index (the reversed text's):");
    }
    let mut mirror = device::fm_index(
        &reversed,
        MIRROR_SAMPLE_RATE,
        mirror_part,
        options.device,
        log,
    )?;
    drop(reversed);
    mirror.drop_locate_and_jump();
    let cpu_part = part_within(mirror.heap_bytes(), "forward index")?;
    if log.verbose() {
        log.info("forward index:");
    }
    let fm = device::fm_index(
        &reference.text,
        options.sample_rate,
        cpu_part,
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
