//! The build stages on the chosen device: the suffix array (`galign sa`) and the FM
//! index (`galign index`, both formats), each on the GPU where [`DeviceChoice::decide`]
//! says, whole on the first device where it fits, else in parts spread over every
//! device ([`crate::gpu::sa::partition`]), and otherwise on the CPU, whole or in parts
//! within the host budget.

use super::devices::{Devices, GpuOptions};
use crate::device::{DeviceChoice, GpuRequiredError, NOT_USED};
use crate::fm::{FmParts, Keep};
use crate::gpu::sa::partition::Position;
use crate::gpu::sa::Algorithm;
use crate::gpu::{Gpu, GpuError};
use crate::progress::Reporter;
use crate::reference::PackedText;
use crate::sa::schedule::OnFailure;
use crate::sa::Width;

/// Builds the suffix array of `text` (u32 positions) on the chosen device (on the GPU
/// with `algorithm`).
pub fn suffix_array(
    text: &PackedText,
    choice: DeviceChoice,
    algorithm: Algorithm,
    log: &Reporter,
) -> Result<Vec<u32>, GpuRequiredError> {
    let decision = choice.decide(|| gpu_suffix_array(text, algorithm, log));
    if let Some(sa) = decision.resolve(NOT_USED, ON_CPU, |m| log.info(m))? {
        return Ok(sa);
    }
    Ok(log.step("suffix array (CPU)", || crate::sa::suffix_array(text)))
}

/// How the index builders say that they go on without the GPU.
const ON_CPU: &str = "building on the CPU";

fn gpu_suffix_array(
    text: &PackedText,
    algorithm: Algorithm,
    log: &Reporter,
) -> Result<Vec<u32>, GpuError> {
    let gpu = Gpu::open()?;
    log.info(&format!(
        "building the suffix array on the GPU ({algorithm:?}): {}",
        gpu.describe()
    ));
    log.step("suffix array (GPU)", || {
        crate::gpu::sa::suffix_array(&gpu, text, algorithm)
    })
}

/// Builds the FM index of `text` (suffix array, BWT, Occ, and what `keep` asks for: the
/// sampled SA and the jump table, or nothing more) with positions of `width` on the
/// chosen device. On the GPU the build uses
/// the algorithm of `gpu` and stays within its budget: whole, on the first device, with
/// the suffix array never leaving device memory, when it fits (32-bit positions only),
/// else in parts ([`crate::gpu::sa::partition`]) spread over all the `devices`. On the CPU
/// (or after a GPU failure under `auto`) it is built and derived here, in parts of at
/// most `cpu_part` suffixes when given (a host memory budget).
pub fn fm_index(
    text: &PackedText,
    (keep, width): (Keep, Width),
    (cpu_part, gpu): (Option<usize>, GpuOptions),
    devices: &Devices,
    log: &Reporter,
) -> Result<FmParts, GpuRequiredError> {
    let build = (text, keep, cpu_part, gpu);
    let mut fm = match width {
        Width::U32 => fm_index_of::<u32>(build, devices, log),
        Width::U64 => fm_index_of::<u64>(build, devices, log),
    }?;
    if !matches!(keep, Keep::Locate(_)) {
        fm.drop_locate_and_jump(); // the builders that made them anyway
    }
    Ok(fm)
}

fn fm_index_of<I: Position>(
    (text, keep, cpu_part, gpu): (&PackedText, Keep, Option<usize>, GpuOptions),
    devices: &Devices,
    log: &Reporter,
) -> Result<FmParts, GpuRequiredError> {
    let decision = devices
        .choice()
        .decide(|| gpu_fm_index::<I>(text, (keep, cpu_part), gpu, devices, log));
    if let Some(fm) = decision.resolve(NOT_USED, ON_CPU, |m| devices.say_fallback(m, log))? {
        return Ok(fm);
    }
    let (sample_rate, row_interval) = (keep.sample_rate(), keep.row_interval());
    let bits = if I::BYTES == 8 { ", 64-bit" } else { "" };
    let what = match keep {
        Keep::EveryRow(interval) => {
            format!("the positions of rows {interval}, {}, ...", 2 * interval)
        }
        _ => "sampled SA, jump table".to_string(),
    };
    if let Some(max_part) = cpu_part {
        return Ok(log.step(
            &format!("suffix array in parts, BWT, Occ, {what} (CPU{bits})"),
            || FmParts::build_in_parts_keeping_rows::<I>(text, sample_rate, max_part, row_interval),
        ));
    }
    let sorted = log.step(&format!("suffix array (CPU{bits})"), || {
        crate::sa::sorted_suffixes::<I>(text, crate::fm::jump::choose_k(text.len()))
    });
    Ok(log.step(&format!("BWT, Occ, {what} (CPU{bits})"), || {
        FmParts::from_sorted_keeping_rows(text, sorted, sample_rate, row_interval)
    }))
}

/// The FM index of `text` on the GPUs of `devices`, whole on the first where it fits,
/// else in parts that every device's budget holds and, where the host has a budget
/// (`host_part`: the CPU build's part size within it), no larger than the CPU build's
/// parts: a GPU part holds less host memory than a CPU part (its rows, 1.25 bytes a
/// suffix, for at most one part per device and two more, against 20 bytes a suffix),
/// and the rest (text, sample ranks, the FM index as it grows) is the same.
fn gpu_fm_index<I: Position>(
    text: &PackedText,
    (keep, host_part): (Keep, Option<usize>),
    options: GpuOptions,
    devices: &Devices,
    log: &Reporter,
) -> Result<FmParts, GpuError> {
    let n = text.len();
    let gpus = devices.get(log)?;
    let mut fits = Vec::with_capacity(gpus.len());
    let mut budgets = Vec::with_capacity(gpus.len());
    for gpu in gpus {
        let budget = options.budget_on(gpu)?;
        budgets.push(budget);
        fits.push(
            crate::gpu::sa::partition::part_size_within::<I>(n, budget, options.algorithm)
                .map_err(|e| GpuError::Budget(e.to_string()))?,
        );
        gpu.set_mem_limit(Some(budget as usize));
        log.info(&format!(
            "GPU {}: {}, within {} MiB",
            gpu.ordinal(),
            gpu.describe(),
            budget >> 20
        ));
    }
    match part_size_on_all(&fits, n, host_part) {
        None => {
            let algorithm =
                crate::gpu::sa::partition::whole_algorithm(n, budgets[0], options.algorithm)
                    .unwrap_or(options.algorithm);
            log.step(
                &format!("suffix array ({algorithm:?}), BWT, Occ, sampled SA, jump table (GPU)"),
                || crate::gpu::fm::fm_index(&gpus[0], text, keep, algorithm),
            )
        }
        Some(max_part) => {
            log.info(&format!(
                "building the FM index on {} GPU(s) in parts of at most {max_part} suffixes",
                gpus.len()
            ));
            let on_failure = match devices.choice() {
                DeviceChoice::Gpu => OnFailure::Stop,
                _ => OnFailure::HandOver,
            };
            let say = |m: &str| log.info(m);
            log.step(
                "suffix array in parts (GPU), BWT, Occ, sampled SA, jump table (CPU)",
                || {
                    let failures = (on_failure, &say as &(dyn Fn(&str) + Sync));
                    crate::gpu::sa::partition::fm_index_keeping_rows::<I>(
                        gpus,
                        text,
                        (keep.sample_rate(), keep.row_interval()),
                        max_part,
                        failures,
                    )
                },
            )
        }
    }
}

/// The part size of a build over devices whose budgets allow `fits` (per device, as
/// [`crate::gpu::sa::partition::part_size_within`] says: `None` where the whole build fits):
/// `None` for the whole build, on the first device, where it fits there; else the
/// largest part that every device holds, and at most `host_part` where given.
fn part_size_on_all(fits: &[Option<usize>], n: usize, host_part: Option<usize>) -> Option<usize> {
    fits[0]?;
    let part = fits.iter().map(|f| f.unwrap_or(n)).min()?;
    Some(part.min(host_part.unwrap_or(part)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_build_needs_the_first_device_and_parts_fit_every_device() {
        let n = 1000;
        assert_eq!(part_size_on_all(&[None], n, None), None);
        assert_eq!(part_size_on_all(&[None, Some(10)], n, None), None);
        assert_eq!(part_size_on_all(&[Some(300), None], n, None), Some(300));
        assert_eq!(
            part_size_on_all(&[Some(300), Some(200)], n, None),
            Some(200)
        );
        assert_eq!(part_size_on_all(&[Some(300)], n, None), Some(300));
        // A host budget caps the parts, not the whole build (whose host side is the
        // FM index alone).
        assert_eq!(part_size_on_all(&[Some(300)], n, Some(120)), Some(120));
        assert_eq!(
            part_size_on_all(&[Some(100), Some(200)], n, Some(120)),
            Some(100)
        );
        assert_eq!(part_size_on_all(&[None], n, Some(120)), None);
    }
}
