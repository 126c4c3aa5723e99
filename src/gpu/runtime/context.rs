//! The open device, [`Gpu`]: its CUDA context and stream, opening and closing, the device
//! query, the wait for queued work and the accounting of the device memory its buffers hold.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cudarc::driver::result as cu;
use cudarc::driver::sys::{CUdevice_attribute, CUresult};
use cudarc::driver::{CudaContext, CudaStream, DriverError};

use super::kernels;
use super::modules::Module;
use super::pool::Pool;
use super::quiet::quietly;
use super::staging::Staging;
use super::GpuError;

/// The driver's variable for the hardware work queues of each context.
const MAX_CONNECTIONS: &str = "CUDA_DEVICE_MAX_CONNECTIONS";

/// Asks the CUDA driver for one hardware work queue a context instead of its default
/// eight, unless the environment sets [`MAX_CONNECTIONS`] already. Each [`Gpu`] works on
/// one stream, which one queue serves alone; the driver makes every queue while the
/// context opens and drops them while it closes. With one, on an H200 host, the
/// context opened ~0.05 s and closed ~0.03 s sooner, and a whole `galign map` (human
/// scale) or `galign index` (252 Mbp) took 0.10-0.16 s less (BENCHMARKS.md, session 38).
///
/// Sets an environment variable: call it before any thread starts.
pub fn use_one_work_queue() {
    if std::env::var_os(MAX_CONNECTIONS).is_none() {
        std::env::set_var(MAX_CONNECTIONS, "1");
    }
}

/// Device-memory accounting of the buffers made through [`Gpu::alloc`].
#[derive(Default)]
pub(super) struct MemStats {
    pub(super) live: usize,
    pub(super) peak: usize,
    pub(super) limit: Option<usize>,
}

/// An open CUDA device: context, stream, kernels compiled for it, memory accounting.
pub struct Gpu {
    pub(super) ordinal: usize,
    pub(super) ctx: Arc<CudaContext>,
    pub(super) stream: Arc<CudaStream>,
    pub(super) name: String,
    pub(super) arch: String,
    pub(super) total_mem: usize,
    pub(super) sm_count: u32,
    pub(super) modules: Mutex<HashMap<&'static str, Module>>,
    /// The stream-ordered pool every buffer of this `Gpu` comes from ([`super::pool`]).
    pub(super) pool: Pool,
    pub(super) mem: Mutex<MemStats>,
    /// Pinned buffers of the staged copies, made when the GPU opens (`None` once it
    /// drops: freed while the context lives).
    pub(super) staging: Mutex<Option<Staging>>,
}

// SAFETY: the raw module and function handles are plain driver handles, valid in the
// context from any thread; every entry point binds the context to the calling thread
// and the mutable state sits behind mutexes.
unsafe impl Send for Gpu {}
unsafe impl Sync for Gpu {}

impl Gpu {
    /// Opens device 0 and compiles (or loads from the disk cache) every kernel. Never
    /// panics: no driver, no device, no NVRTC or a failed compile give an error.
    ///
    /// `GALIGN_GPU_MEM_LIMIT` (bytes) caps what the builders may allocate, to exercise
    /// the out-of-memory path.
    pub fn open() -> Result<Gpu, GpuError> {
        Self::open_device(0)
    }

    /// [`Gpu::open`] for device `ordinal` of those visible (`CUDA_VISIBLE_DEVICES`).
    /// The same device may be opened more than once: each `Gpu` has its own stream.
    pub fn open_device(ordinal: usize) -> Result<Gpu, GpuError> {
        quietly(|| Self::open_inner(ordinal)).unwrap_or_else(|msg| {
            Err(GpuError::Driver {
                what: "initialisation",
                err: msg,
            })
        })
    }

    /// How many devices are visible; an error where there is no driver or none.
    pub fn device_count() -> Result<usize, GpuError> {
        quietly(Self::init_driver).unwrap_or_else(|msg| {
            Err(GpuError::Driver {
                what: "initialisation",
                err: msg,
            })
        })
    }

    /// Loads and initialises the driver; the number of visible devices (at least one).
    fn init_driver() -> Result<usize, GpuError> {
        // SAFETY: only tries to dlopen the library.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(GpuError::NoDriver);
        }
        match cu::init() {
            Ok(()) => {}
            Err(DriverError(CUresult::CUDA_ERROR_NO_DEVICE)) => {
                return Err(GpuError::NoDevice("none visible".into()))
            }
            Err(e) => return Err(GpuError::NoDevice(format!("{e}"))),
        }
        let count = cu::device::get_count().map_err(|e| GpuError::NoDevice(format!("{e}")))?;
        if count < 1 {
            return Err(GpuError::NoDevice("none visible".into()));
        }
        Ok(count as usize)
    }

    fn open_inner(ordinal: usize) -> Result<Gpu, GpuError> {
        let count = Self::init_driver()?;
        if ordinal >= count {
            return Err(GpuError::NoDevice(format!(
                "device {ordinal} asked for, {count} visible"
            )));
        }
        kernels::nvrtc_version()?;
        let ctx = CudaContext::new(ordinal).map_err(|e| GpuError::driver("context creation", e))?;
        let stream = ctx
            .new_stream()
            .map_err(|e| GpuError::driver("stream creation", e))?;
        let (major, minor) = ctx
            .compute_capability()
            .map_err(|e| GpuError::driver("device query", e))?;
        let name = ctx
            .name()
            .map_err(|e| GpuError::driver("device query", e))?;
        let total_mem = ctx
            .total_mem()
            .map_err(|e| GpuError::driver("device query", e))?;
        let sm_count = ctx
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(|e| GpuError::driver("device query", e))? as u32;
        let limit = std::env::var("GALIGN_GPU_MEM_LIMIT")
            .ok()
            .and_then(|v| v.parse().ok());
        ctx.bind_to_thread()
            .map_err(|e| GpuError::driver("context binding", e))?;
        let pool = Pool::create(ctx.cu_device())?;
        let warm_up = pool.warm_up_beside(Arc::clone(&ctx), stream.cu_stream());
        let gpu = Gpu {
            ordinal,
            ctx,
            stream,
            name,
            arch: format!("sm_{major}{minor}"),
            total_mem,
            sm_count,
            modules: Mutex::new(HashMap::new()),
            pool,
            mem: Mutex::new(MemStats::default()),
            staging: Mutex::new(None),
        };
        gpu.set_mem_limit(limit);
        let ready = gpu.load_modules_and_staging();
        // Joined whatever happened: the pool goes with `gpu` on an error.
        let warmed = warm_up.join().expect("pool warm-up thread");
        ready.and(warmed)?;
        Ok(gpu)
    }

    /// Loads every kernel module and makes the pinned staging buffers (5-10 ms), while
    /// the caller reads its input.
    fn load_modules_and_staging(&self) -> Result<(), GpuError> {
        for &(file, _) in kernels::SOURCES {
            self.module_loaded(file)?;
        }
        self.bind()?;
        *self.staging.lock().unwrap() = Some(Staging::new()?);
        Ok(())
    }

    /// The device in words, e.g. `NVIDIA H100 80GB HBM3 (sm_90, 79 GiB)`.
    pub fn describe(&self) -> String {
        format!(
            "{} ({}, {} GiB)",
            self.name,
            self.arch,
            self.total_mem >> 30
        )
    }

    /// The device's ordinal among those visible.
    pub fn ordinal(&self) -> usize {
        self.ordinal
    }

    /// Device memory free now for this `Gpu`'s buffers, in bytes: what the driver has
    /// free (other processes' allocations and this context's own excluded) and what the
    /// pool keeps unused (once the work queued so far, its frees included, is done).
    pub fn free_bytes(&self) -> Result<usize, GpuError> {
        self.bind()?;
        self.sync()?;
        let free = cu::mem_get_info()
            .map(|(free, _)| free)
            .map_err(|e| GpuError::driver("memory query", e))?;
        Ok(free + self.pool.unused())
    }

    /// Grows this `Gpu`'s memory pool to hold `bytes` unused, where it holds less: the
    /// driver maps device memory in the allocating call (~1.2 ms a GB on an H200, up to
    /// ~3 on some hosts), which a build's first allocations pay otherwise. For a thread
    /// that has time now (e.g. while the reference is read). Nothing under a
    /// `GALIGN_GPU_MEM_LIMIT`.
    pub fn grow_pool(&self, bytes: usize) {
        let limited = self.mem.lock().unwrap().limit.is_some();
        if limited || bytes <= self.pool.unused() || self.bind().is_err() {
            return;
        }
        self.pool.grow(self.stream.cu_stream(), bytes);
    }

    /// Peak bytes held at once in buffers from [`Gpu::alloc`] since the last reset.
    pub fn peak_bytes(&self) -> usize {
        self.mem.lock().unwrap().peak
    }

    /// Peak device memory held by this `Gpu`'s pool since the last reset: the buffers'
    /// [`Gpu::peak_bytes`] and what the pool kept between them.
    pub fn reserved_peak_bytes(&self) -> usize {
        self.pool.reserved_peak()
    }

    /// Bytes held now in buffers from [`Gpu::alloc`].
    pub fn held_bytes(&self) -> usize {
        self.mem.lock().unwrap().live
    }

    /// Caps the bytes the builders may hold at once (`None`: only the device's memory).
    pub fn set_mem_limit(&self, limit: Option<usize>) {
        self.mem.lock().unwrap().limit = limit;
    }

    /// Restarts peak accounting from the bytes held now.
    pub fn reset_peak(&self) {
        let mut m = self.mem.lock().unwrap();
        m.peak = m.live;
        self.pool.reset_reserved_peak();
    }

    /// Number of streaming multiprocessors.
    pub(crate) fn sm_count(&self) -> u32 {
        self.sm_count
    }

    pub(super) fn bind(&self) -> Result<(), GpuError> {
        self.ctx
            .bind_to_thread()
            .map_err(|e| GpuError::driver("context binding", e))
    }

    /// Loads `file`'s module (compiling it if not cached) unless already loaded.
    /// Waits for all queued work; a kernel fault surfaces here.
    pub(crate) fn sync(&self) -> Result<(), GpuError> {
        self.stream
            .synchronize()
            .map_err(|e| GpuError::driver("kernel execution", e))
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        if self.bind().is_ok() {
            let _ = self.sync();
            // Pinned memory and events go while the context lives.
            self.staging.lock().unwrap().take();
            for (_, m) in self.modules.lock().unwrap().drain() {
                // SAFETY: no work is pending; the module is not used again.
                let _ = unsafe { cu::module::unload(m.module) };
            }
            // SAFETY: every buffer borrows this `Gpu` and has been given back; no work
            // is pending.
            unsafe { self.pool.destroy() };
        }
    }
}
