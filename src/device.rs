//! Choosing where the heavy stages run: `--device auto|cpu|gpu`.
//!
//! `auto` uses a usable GPU and otherwise falls back to the CPU, saying so; `gpu`
//! insists and fails with a clear error; `cpu` never touches the GPU.

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
