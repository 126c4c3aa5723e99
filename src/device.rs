//! Choosing where the heavy stages run: `--device auto|cpu|gpu`.
//!
//! `auto` uses a usable GPU and otherwise falls back to the CPU, saying so; `gpu`
//! insists and fails with a clear error; `cpu` never touches the GPU. Every stage that
//! may run on the GPU asks [`DeviceChoice::decide`] with its typed GPU result and acts
//! on the [`Decision`] through [`Decision::resolve`].

use std::sync::{Mutex, OnceLock};
use std::thread::JoinHandle;

use crate::fm::{FmParts, Keep};
use crate::gpu::sa::partition::Position;
use crate::gpu::sa::Algorithm;
use crate::gpu::{Gpu, GpuError};
use crate::progress::Reporter;
use crate::reference::PackedText;
use crate::sa::schedule::OnFailure;
use crate::sa::Width;

/// The `--device` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DeviceChoice {
    /// The GPU when one is usable, else the CPU; `map` searches exactly on the CPU where
    /// it measured faster (few reads; it says so).
    Auto,
    /// The CPU only.
    Cpu,
    /// The GPU only; an error when none is usable.
    Gpu,
}

impl DeviceChoice {
    /// Decides where a stage runs: `cpu` never calls `try_gpu`; otherwise the GPU's
    /// result is used when `try_gpu` succeeds, and its error (kept typed, out of memory
    /// included) means the CPU under `auto` and a failure under `gpu`.
    pub fn decide<T>(self, try_gpu: impl FnOnce() -> Result<T, GpuError>) -> Decision<T> {
        if self == DeviceChoice::Cpu {
            return Decision::Cpu;
        }
        match try_gpu() {
            Ok(result) => Decision::Gpu(result),
            Err(e) if self == DeviceChoice::Gpu => Decision::Fail(e),
            Err(e) => Decision::Fallback(e),
        }
    }
}

/// Where a stage runs, from [`DeviceChoice::decide`].
#[derive(Debug)]
pub enum Decision<T> {
    /// On the GPU, with this result of trying it.
    Gpu(T),
    /// On the CPU, as `--device cpu` asks (the GPU was not tried).
    Cpu,
    /// On the CPU after this GPU error, under `--device auto`.
    Fallback(GpuError),
    /// Nowhere: the GPU failed with this error under `--device gpu`.
    Fail(GpuError),
}

impl<T> Decision<T> {
    /// The GPU's result, or `None` to go on with the CPU; a fallback is announced through
    /// `say` as `"{lead} ({error}); {on_cpu}"` (e.g. "GPU not used (...); building on the
    /// CPU"), and a failure is the error `"--device gpu: {error}"`.
    pub fn resolve(
        self,
        lead: &str,
        on_cpu: &str,
        say: impl FnOnce(&str),
    ) -> anyhow::Result<Option<T>> {
        match self {
            Decision::Gpu(result) => Ok(Some(result)),
            Decision::Cpu => Ok(None),
            Decision::Fallback(e) => {
                say(&format!("{lead} ({e}); {on_cpu}"));
                Ok(None)
            }
            Decision::Fail(e) => anyhow::bail!("--device gpu: {e}"),
        }
    }
}

/// The message of a fallback before a stage starts: the GPU is not used at all.
pub const NOT_USED: &str = "GPU not used";

/// Builds the suffix array of `text` (u32 positions) on the chosen device (on the GPU
/// with `algorithm`).
pub fn suffix_array(
    text: &PackedText,
    choice: DeviceChoice,
    algorithm: Algorithm,
    log: &Reporter,
) -> anyhow::Result<Vec<u32>> {
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

/// Device memory left out of the default budget of a GPU build (other processes, the
/// CUDA context's growth).
const GPU_MARGIN: u64 = 1 << 30;

/// How many GPUs a build may use: `--gpus N|all`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuCount {
    /// Every visible device (`CUDA_VISIBLE_DEVICES` chooses which are visible).
    All,
    /// The first N visible devices.
    First(usize),
}

impl std::str::FromStr for GpuCount {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "all" => Ok(GpuCount::All),
            _ => match s.parse::<usize>() {
                Ok(n) if n > 0 => Ok(GpuCount::First(n)),
                _ => Err(format!("'{s}' is neither a positive number nor 'all'")),
            },
        }
    }
}

/// The GPU side of an index build: how many devices, and each one's memory budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuOptions {
    /// Device memory budget of each GPU, in bytes; `None`: its free memory less a
    /// margin.
    pub budget: Option<u64>,
    /// The devices to use.
    pub count: GpuCount,
    /// The suffix-array algorithm of a whole build.
    pub algorithm: Algorithm,
}

impl GpuOptions {
    /// The device memory a build may take on `gpu`: the budget given, else its free
    /// memory less [`GPU_MARGIN`].
    fn budget_on(self, gpu: &Gpu) -> Result<u64, GpuError> {
        match self.budget {
            Some(b) => Ok(b),
            None => Ok((gpu.free_bytes()? as u64).saturating_sub(GPU_MARGIN)),
        }
    }
}

/// A whole GPU build to come: about `bases` bases (the reference's size, estimated before
/// it is read) with `gpu`'s algorithm and budget.
#[derive(Clone, Copy, Debug)]
pub struct ExpectedBuild {
    /// Bases, about.
    pub bases: u64,
    /// The build's GPU options.
    pub gpu: GpuOptions,
}

impl ExpectedBuild {
    /// Grows `gpu`'s memory pool to the room the build would be given there, less a
    /// byte a base (the builds peak below their room; growing the pool to all of it, the
    /// text's buffer and the pool's rounding then took it past the room, 20.1 bytes a
    /// base at 20).
    fn grow_pool(self, gpu: &Gpu) {
        // 64-bit positions are sorted in parts, whose room is their own.
        if crate::gpu::sa::check_len(self.bases as usize).is_err() {
            return;
        }
        let Ok(budget) = self.gpu.budget_on(gpu) else {
            return;
        };
        let room = self.gpu.algorithm.whole_room(self.bases as usize, budget);
        gpu.grow_pool(room.saturating_sub(self.bases) as usize);
    }
}

/// The GPUs of a run, opened on a thread of their own from its start, so that creating
/// the contexts and loading the kernels (0.2-0.5 s a device) overlaps reading the
/// reference (`index`: every FM index of the build, mirror and forward, then uses the
/// same devices) or loading the index (`map`: the first device). Under `cpu` nothing is
/// opened.
pub struct Devices {
    choice: DeviceChoice,
    opening: Mutex<Option<JoinHandle<Opening>>>,
    opened: OnceLock<Result<Vec<Gpu>, GpuError>>,
    /// The fallbacks to the CPU said so far (each is said once).
    fallbacks: Mutex<Vec<String>>,
}

/// The devices opened, or why none, and what was said on the way.
type Opening = (Result<Vec<Gpu>, GpuError>, Vec<String>);

impl Devices {
    /// Starts opening the devices of `count` unless `choice` is `cpu`.
    pub fn start(choice: DeviceChoice, count: GpuCount) -> Devices {
        Self::start_for(choice, count, None)
    }

    /// [`Devices::start`]; then, for a whole build `expected` on the first device, its
    /// memory pool grown to the build's room on the same thread (while the caller reads
    /// the reference: 20-110 ms of the driver's at 2 Gbp that the build's first
    /// allocations would pay).
    pub fn start_for(
        choice: DeviceChoice,
        count: GpuCount,
        expected: Option<ExpectedBuild>,
    ) -> Devices {
        let opening = (choice != DeviceChoice::Cpu).then(|| {
            std::thread::spawn(move || {
                let mut said = Vec::new();
                let gpus = open_gpus(count, choice, &mut |m| said.push(m));
                if let (Ok([gpu, ..]), Some(expected)) = (gpus.as_deref(), expected) {
                    expected.grow_pool(gpu);
                }
                (gpus, said)
            })
        });
        Devices {
            choice,
            opening: Mutex::new(opening),
            opened: OnceLock::new(),
            fallbacks: Mutex::new(Vec::new()),
        }
    }

    /// Where the build runs.
    pub fn choice(&self) -> DeviceChoice {
        self.choice
    }

    /// Whether the devices have opened (or failed to), so that [`Devices::first`] no
    /// longer waits.
    pub fn is_open(&self) -> bool {
        self.opened.get().is_some()
    }

    /// The opened devices (waiting for them), or why there are none; what opening
    /// them had to say is said through `log` the first time.
    fn get(&self, log: &Reporter) -> Result<&[Gpu], GpuError> {
        let opened = self.opened.get_or_init(|| {
            let Some(opening) = self.opening.lock().unwrap().take() else {
                return Err(GpuError::NoDevice("--device cpu".into()));
            };
            let joined = log.step("the GPU opened (the wait for it)", || opening.join());
            let (gpus, said) = joined.unwrap_or_else(|_| {
                let err = "the thread opening the devices panicked".to_string();
                let what = "initialisation";
                (Err(GpuError::Driver { what, err }), Vec::new())
            });
            said.iter().for_each(|m| log.info(m));
            gpus
        });
        opened.as_deref().map_err(Clone::clone)
    }

    /// The first opened device (waiting for it), or why there is none; what opening
    /// the devices had to say is said through `log` the first time.
    pub fn first(&self, log: &Reporter) -> Result<&Gpu, GpuError> {
        let gpus = self.get(log)?;
        gpus.first()
            .ok_or_else(|| GpuError::NoDevice("no device opened".into()))
    }

    /// Closes the devices (their contexts: ~0.1 s) on a thread of their own, so that the
    /// caller's last step (writing the index) runs meanwhile; join it before the process
    /// ends.
    pub fn close_in_background(self) -> JoinHandle<()> {
        std::thread::spawn(move || drop(self))
    }

    /// Says `fallback` (why a build went to the CPU) through `log` unless it was said
    /// already: an index of two FM indexes (the mirror's, then the forward one) falls
    /// back twice for the same reason.
    fn say_fallback(&self, fallback: &str, log: &Reporter) {
        let mut said = self.fallbacks.lock().unwrap();
        if !said.iter().any(|m| m == fallback) {
            log.info(fallback);
            said.push(fallback.to_string());
        }
    }
}

impl Drop for Devices {
    /// Waits for a thread still opening the devices, so that no CUDA call runs while
    /// the process exits.
    fn drop(&mut self) {
        if let Some(opening) = self.opening.lock().unwrap().take() {
            let _ = opening.join();
        }
    }
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
) -> anyhow::Result<FmParts> {
    let build = (text, keep, cpu_part, gpu);
    let mut fm = match width {
        Width::U32 => fm_index_of::<u32>(build, devices, log),
        Width::U64 => fm_index_of::<u64>(build, devices, log),
    }?;
    if keep == Keep::OccOnly {
        fm.drop_locate_and_jump(); // the builders that made them anyway
    }
    Ok(fm)
}

fn fm_index_of<I: Position>(
    (text, keep, cpu_part, gpu): (&PackedText, Keep, Option<usize>, GpuOptions),
    devices: &Devices,
    log: &Reporter,
) -> anyhow::Result<FmParts> {
    let decision = devices
        .choice
        .decide(|| gpu_fm_index::<I>(text, (keep, cpu_part), gpu, devices, log));
    if let Some(fm) = decision.resolve(NOT_USED, ON_CPU, |m| devices.say_fallback(m, log))? {
        return Ok(fm);
    }
    let sample_rate = keep.sample_rate();
    let bits = if I::BYTES == 8 { ", 64-bit" } else { "" };
    if let Some(max_part) = cpu_part {
        return Ok(log.step(
            &format!("suffix array in parts, BWT, Occ, sampled SA, jump table (CPU{bits})"),
            || FmParts::build_in_parts::<I>(text, sample_rate, max_part),
        ));
    }
    let sorted = log.step(&format!("suffix array (CPU{bits})"), || {
        crate::sa::sorted_suffixes::<I>(text, crate::fm::jump::choose_k(text.len()))
    });
    Ok(log.step(
        &format!("BWT, Occ, sampled SA, jump table (CPU{bits})"),
        || FmParts::from_sorted(text, sorted, sample_rate),
    ))
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
            let on_failure = match devices.choice {
                DeviceChoice::Gpu => OnFailure::Stop,
                _ => OnFailure::HandOver,
            };
            let say = |m: &str| log.info(m);
            log.step(
                "suffix array in parts (GPU), BWT, Occ, sampled SA, jump table (CPU)",
                || {
                    let failures = (on_failure, &say as &(dyn Fn(&str) + Sync));
                    crate::gpu::sa::partition::fm_index::<I>(
                        gpus,
                        text,
                        keep.sample_rate(),
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

/// Opens the devices `count` asks for. Under `--device gpu` every one must open; under
/// `auto` those that open are used (the others are named), as long as one does.
fn open_gpus(
    count: GpuCount,
    choice: DeviceChoice,
    say: &mut dyn FnMut(String),
) -> Result<Vec<Gpu>, GpuError> {
    // NVRTC loads (~20 ms) on a thread of its own while the driver starts (~0.1 s); its
    // error, if any, comes again from each device's opening.
    let nvrtc = std::thread::spawn(crate::gpu::kernels::nvrtc_version);
    let visible = Gpu::device_count();
    let _ = nvrtc.join();
    let visible = visible?;
    let wanted = match count {
        GpuCount::All => visible,
        GpuCount::First(n) if n > visible && choice == DeviceChoice::Gpu => {
            return Err(GpuError::NoDevice(format!(
                "--gpus {n} asked for, {visible} visible"
            )))
        }
        GpuCount::First(n) => n.min(visible),
    };
    let mut gpus = Vec::with_capacity(wanted);
    let mut last_error = None;
    for ordinal in 0..wanted {
        match Gpu::open_device(ordinal) {
            Ok(gpu) => gpus.push(gpu),
            Err(e) if choice == DeviceChoice::Gpu => {
                return Err(GpuError::OnDevice {
                    ordinal,
                    error: Box::new(e),
                })
            }
            Err(e) => {
                say(format!("GPU {ordinal} not used ({e})"));
                last_error = Some(e);
            }
        }
    }
    match last_error {
        Some(e) if gpus.is_empty() => Err(e),
        _ => Ok(gpus),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out_of_memory() -> GpuError {
        GpuError::OutOfMemory {
            requested: 512,
            in_use: 1024,
        }
    }

    /// What `choice` makes of a GPU attempt that gives `result()`: the decision, and
    /// (deciding again) the outcome of resolving it, the messages said, and whether the
    /// GPU was tried.
    fn run(
        choice: DeviceChoice,
        result: impl Fn() -> Result<u32, GpuError>,
    ) -> (
        Decision<u32>,
        Result<Option<u32>, String>,
        Vec<String>,
        bool,
    ) {
        let mut tried = false;
        let decision = choice.decide(|| {
            tried = true;
            result()
        });
        let mut said = Vec::new();
        let resolved = choice
            .decide(&result)
            .resolve(NOT_USED, "building on the CPU", |m| {
                said.push(m.to_string())
            })
            .map_err(|e| e.to_string());
        (decision, resolved, said, tried)
    }

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

    #[test]
    fn cpu_never_tries_the_gpu() {
        let results: [fn() -> Result<u32, GpuError>; 3] = [
            || Ok(7),
            || Err(GpuError::NoDriver),
            || Err(out_of_memory()),
        ];
        for result in results {
            let (decision, resolved, said, tried) = run(DeviceChoice::Cpu, result);
            assert!(matches!(decision, Decision::Cpu));
            assert_eq!(resolved, Ok(None));
            assert!(said.is_empty() && !tried);
        }
    }

    #[test]
    fn a_working_gpu_is_used_under_auto_and_gpu() {
        for choice in [DeviceChoice::Auto, DeviceChoice::Gpu] {
            let (decision, resolved, said, tried) = run(choice, || Ok(7));
            assert!(matches!(decision, Decision::Gpu(7)));
            assert_eq!(resolved, Ok(Some(7)));
            assert!(said.is_empty() && tried);
        }
    }

    #[test]
    fn auto_falls_back_to_the_cpu_saying_why() {
        let (decision, resolved, said, _) = run(DeviceChoice::Auto, || Err(GpuError::NoDriver));
        assert!(matches!(decision, Decision::Fallback(GpuError::NoDriver)));
        assert_eq!(resolved, Ok(None));
        assert_eq!(
            said,
            [
                "GPU not used (no NVIDIA driver found (libcuda.so could not be loaded)); \
              building on the CPU"
            ]
        );
    }

    #[test]
    fn gpu_fails_with_the_gpu_error() {
        let (decision, resolved, said, _) = run(DeviceChoice::Gpu, || Err(GpuError::NoDriver));
        assert!(matches!(decision, Decision::Fail(GpuError::NoDriver)));
        assert_eq!(
            resolved,
            Err("--device gpu: no NVIDIA driver found (libcuda.so could not be loaded)".into())
        );
        assert!(said.is_empty());
    }

    #[test]
    fn out_of_memory_stays_typed() {
        let oom = "out of GPU memory: 512 MiB requested with 1024 MiB in use";
        let (decision, resolved, said, _) = run(DeviceChoice::Auto, || Err(out_of_memory()));
        assert!(matches!(
            decision,
            Decision::Fallback(GpuError::OutOfMemory {
                requested: 512,
                in_use: 1024
            })
        ));
        assert_eq!(resolved, Ok(None));
        assert_eq!(said, [format!("GPU not used ({oom}); building on the CPU")]);
        let (decision, resolved, _, _) = run(DeviceChoice::Gpu, || Err(out_of_memory()));
        assert!(matches!(
            decision,
            Decision::Fail(GpuError::OutOfMemory { .. })
        ));
        assert_eq!(resolved, Err(format!("--device gpu: {oom}")));
    }
}
