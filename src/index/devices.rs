//! The GPUs of a run (`--gpus N|all`), opened on a thread of their own from its start
//! under the [`DeviceChoice`] of the run, and the GPU side of an index build: each
//! device's memory budget and the suffix-array algorithm ([`GpuOptions`]).

use std::sync::{Mutex, OnceLock};
use std::thread::JoinHandle;

use crate::device::DeviceChoice;
use crate::gpu::sa::Algorithm;
use crate::gpu::{Gpu, GpuError};
use crate::progress::Reporter;

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
    pub(super) fn budget_on(self, gpu: &Gpu) -> Result<u64, GpuError> {
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
    pub(super) fn get(&self, log: &Reporter) -> Result<&[Gpu], GpuError> {
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
    pub(super) fn say_fallback(&self, fallback: &str, log: &Reporter) {
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
