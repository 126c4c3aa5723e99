//! The `galign index` job: FASTA -> text -> suffix array -> FM index -> index file.

use std::path::Path;

use anyhow::Context;

use super::{index_path, write};
use crate::device::{self, DeviceChoice};
use crate::progress::Reporter;
use crate::reference::{read_fasta, Reference};
use crate::sa::partition::part_size_within;
use crate::sa::SaIndex;

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
    /// Device memory budget of the GPU build, in bytes; `None`: the device's free
    /// memory less a margin.
    pub gpu_memory: Option<u64>,
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
    let cpu_part = options
        .memory
        .map(|budget| part_size_within::<u32>(n as usize, budget))
        .transpose()
        .with_context(|| format!("{}: --memory", fasta.display()))?
        .flatten();
    if let Some(budget) = options.gpu_memory {
        crate::gpu::partition::part_size_within(n as usize, budget)
            .with_context(|| format!("{}: --gpu-memory", fasta.display()))?;
    }
    let fm = device::fm_index(
        &reference.text,
        options.sample_rate,
        (cpu_part, options.gpu_memory),
        options.device,
        log,
    )?;
    let path = index_path(prefix);
    log.step("write index", || write(&path, &reference, &fm))
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
