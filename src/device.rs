//! Choosing where the heavy stages run: `--device auto|cpu|gpu`.
//!
//! `auto` uses a usable GPU and otherwise falls back to the CPU, saying so; `gpu`
//! insists and fails with a clear error; `cpu` never touches the GPU.

use crate::fm::FmParts;
use crate::progress::Reporter;
use crate::reference::PackedText;

/// The `--device` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DeviceChoice {
    /// The GPU when one is usable, else the CPU.
    Auto,
    /// The CPU only.
    Cpu,
    /// The GPU only; an error when none is usable.
    Gpu,
}

/// Builds the suffix array of `text` (u32 positions) on the chosen device.
pub fn suffix_array(
    text: &PackedText,
    choice: DeviceChoice,
    log: &Reporter,
) -> anyhow::Result<Vec<u32>> {
    if choice != DeviceChoice::Cpu {
        match gpu_suffix_array(text, log) {
            Ok(sa) => return Ok(sa),
            Err(e) if choice == DeviceChoice::Gpu => anyhow::bail!("--device gpu: {e}"),
            Err(e) => log.info(&format!("GPU not used ({e}); building on the CPU")),
        }
    }
    Ok(log.step("suffix array (CPU)", || crate::sa::suffix_array(text)))
}

fn gpu_suffix_array(text: &PackedText, log: &Reporter) -> Result<Vec<u32>, String> {
    let gpu = crate::gpu::Gpu::open().map_err(|e| e.to_string())?;
    log.info(&format!(
        "building the suffix array on the GPU: {}",
        gpu.describe()
    ));
    log.step("suffix array (GPU)", || {
        crate::gpu::sa::suffix_array(&gpu, text)
    })
    .map_err(|e| e.to_string())
}

/// Builds the FM index of `text` (suffix array, BWT, Occ, sampled SA with `sample_rate`,
/// jump table) on the chosen device. On the GPU the suffix array never leaves device
/// memory; on the CPU (or after a GPU failure under `auto`) it is built and derived here.
pub fn fm_index(
    text: &PackedText,
    sample_rate: u32,
    choice: DeviceChoice,
    log: &Reporter,
) -> anyhow::Result<FmParts> {
    if choice != DeviceChoice::Cpu {
        match gpu_fm_index(text, sample_rate, log) {
            Ok(fm) => return Ok(fm),
            Err(e) if choice == DeviceChoice::Gpu => anyhow::bail!("--device gpu: {e}"),
            Err(e) => log.info(&format!("GPU not used ({e}); building on the CPU")),
        }
    }
    let sa = log.step("suffix array (CPU)", || crate::sa::suffix_array(text));
    Ok(log.step("BWT, Occ, sampled SA, jump table (CPU)", || {
        FmParts::build(text, &sa, sample_rate)
    }))
}

fn gpu_fm_index(text: &PackedText, sample_rate: u32, log: &Reporter) -> Result<FmParts, String> {
    let gpu = crate::gpu::Gpu::open().map_err(|e| e.to_string())?;
    log.info(&format!(
        "building the FM index on the GPU: {}",
        gpu.describe()
    ));
    log.step(
        "suffix array, BWT, Occ, sampled SA, jump table (GPU)",
        || crate::gpu::fm::fm_index(&gpu, text, sample_rate),
    )
    .map_err(|e| e.to_string())
}
