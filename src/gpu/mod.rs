//! NVIDIA GPU back end: a CUDA context and stream, run-time compiled kernels, device
//! buffers, device-wide primitives ([`prims`]), the GPU suffix-array builders
//! ([`sa::suffix_array`]), the FM-index builder
//! ([`fm::fm_index`]) and the read search ([`map::GpuSearcher`]).
//!
//! Everything goes through cudarc's driver API and NVRTC with dynamic loading, so the
//! binary builds and runs where no CUDA is installed; [`Gpu::open`] then returns an
//! error instead of panicking. Kernels (`kernels/**/*.cu`) are embedded in the binary,
//! compiled by NVRTC for the device's architecture on first use and cached on disk
//! (see [`kernels`]).

pub mod fm;
pub mod kernels;
pub mod map;
mod pool;
pub mod prims;
pub mod sa;
pub mod tuning;

/// The radix sort and scans under their former path, which the read search uses.
pub use prims::radix;

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};

use cudarc::driver::result as cu;
use cudarc::driver::sys::{CUdevice_attribute, CUfunction, CUmodule, CUresult};
use cudarc::driver::{CudaContext, CudaStream, DriverError};
use rayon::prelude::*;

use pool::Pool;

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

/// Why the GPU could not be used. `Display` is one line meant for the user.
#[derive(Clone, Debug, thiserror::Error)]
pub enum GpuError {
    /// libcuda could not be loaded.
    #[error("no NVIDIA driver found (libcuda.so could not be loaded)")]
    NoDriver,
    /// The driver loaded but reports no usable device.
    #[error("no CUDA device found ({0})")]
    NoDevice(String),
    /// The NVRTC runtime compiler could not be loaded.
    #[error(
        "NVRTC (libnvrtc.so.12 or .so.13) could not be loaded; install the CUDA runtime compiler"
    )]
    NoNvrtc,
    /// NVRTC rejected a kernel source.
    #[error("kernel {kernel} failed to compile for {arch}: {log}")]
    Compile {
        /// Kernel file name.
        kernel: String,
        /// Target, e.g. `sm_90`.
        arch: String,
        /// First line(s) of the compiler log.
        log: String,
    },
    /// A device allocation failed.
    #[error("out of GPU memory: {requested} MiB requested with {in_use} MiB in use")]
    OutOfMemory {
        /// MiB asked for.
        requested: usize,
        /// MiB already held by this builder.
        in_use: usize,
    },
    /// The device memory available cannot hold the build.
    #[error("GPU memory: {0}")]
    Budget(String),
    /// The text is too long for a GPU builder: the whole-text ones (32-bit positions), or
    /// the sample of the partitioned one (2^32 sampled suffixes).
    #[error("text of {0} bases is too long for this GPU builder")]
    TooLarge(usize),
    /// A raw suffix array of 64-bit positions (a text past 2^32 bases, or forced for
    /// tests), which `galign sa` sorts on the CPU (indexes of them are built on the GPU in
    /// parts, and searched there).
    #[error(
        "64-bit positions (past 2^32 - 3 bases, or forced): `galign sa` sorts them on the CPU only"
    )]
    WidePositions,
    /// One read has more hits than the GPU search can return at once.
    #[error("a read has {0} exact hits, more than the GPU search can return (2^32 - 1)")]
    TooManyHits(u64),
    /// One read's k-mismatch search needs more than the GPU work queues hold.
    #[error("a read's mismatch search needs more than the GPU work queues hold")]
    QueueFull,
    /// A read too long for the GPU search.
    #[error(
        "a read of {0} bases is too long for the GPU search (at most 2^26 - 1 with \
         mismatches, 2^31 - 1 exact)"
    )]
    ReadTooLong(usize),
    /// The failure of one of several devices in a build that used them together.
    #[error("GPU {ordinal}: {error}")]
    OnDevice {
        /// The device's ordinal.
        ordinal: usize,
        /// What failed there.
        error: Box<GpuError>,
    },
    /// Any other driver failure (kernel launch or execution, copies, context).
    #[error("CUDA error during {what}: {err}")]
    Driver {
        /// The step that failed.
        what: &'static str,
        /// The driver's error.
        err: String,
    },
}

impl GpuError {
    /// Wraps the driver error `e` of step `what`.
    fn driver(what: &'static str, e: DriverError) -> GpuError {
        GpuError::Driver {
            what,
            err: format!("{e}"),
        }
    }
}

/// A loaded kernel module and its functions, looked up on first use.
struct Module {
    module: CUmodule,
    functions: HashMap<&'static str, CUfunction>,
}

/// Device-memory accounting of the buffers made through [`Gpu::alloc`].
#[derive(Default)]
struct MemStats {
    live: usize,
    peak: usize,
    limit: Option<usize>,
}

/// An open CUDA device: context, stream, kernels compiled for it, memory accounting.
pub struct Gpu {
    ordinal: usize,
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    name: String,
    arch: String,
    total_mem: usize,
    sm_count: u32,
    modules: Mutex<HashMap<&'static str, Module>>,
    /// The stream-ordered pool every buffer of this `Gpu` comes from ([`pool`]).
    pool: Pool,
    mem: Mutex<MemStats>,
    /// Pinned buffers of the staged copies, made when the GPU opens (`None` once it
    /// drops: freed while the context lives).
    staging: Mutex<Option<Staging>>,
}

// SAFETY: the raw module and function handles are plain driver handles, valid in the
// context from any thread; every entry point binds the context to the calling thread
// and the mutable state sits behind mutexes.
unsafe impl Send for Gpu {}
unsafe impl Sync for Gpu {}

thread_local! {
    /// Whether this thread is inside [`quietly`].
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with panics caught and the panic message kept off the terminal (cudarc's
/// dynamic loading panics when a library or symbol is missing). Safe on several threads
/// at once: the panic hook, installed once, stays silent on a thread inside `quietly`.
fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let outer = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|quiet| quiet.get()) {
                outer(info)
            }
        }));
    });
    let was_quiet = QUIET.with(|quiet| quiet.replace(true));
    let r = std::panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|quiet| quiet.set(was_quiet));
    r.map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic".into())
    })
}

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

    fn bind(&self) -> Result<(), GpuError> {
        self.ctx
            .bind_to_thread()
            .map_err(|e| GpuError::driver("context binding", e))
    }

    /// Loads `file`'s module (compiling it if not cached) unless already loaded.
    fn module_loaded(&self, file: &'static str) -> Result<(), GpuError> {
        self.bind()?;
        let mut modules = self.modules.lock().unwrap();
        if modules.contains_key(file) {
            return Ok(());
        }
        let source = kernels::source(file);
        let load = |image: &[u8]| {
            // SAFETY: the image is a complete CUBIN for this device's architecture.
            unsafe { cu::module::load_data(image.as_ptr() as *const c_void) }
        };
        let module = match kernels::cached_cubin(file, source, &self.arch) {
            Some(image) => match load(&image) {
                Ok(m) => m,
                Err(_) => load(&kernels::compile_and_cache(file, source, &self.arch)?)
                    .map_err(|e| GpuError::driver("module load", e))?,
            },
            None => load(&kernels::compile_and_cache(file, source, &self.arch)?)
                .map_err(|e| GpuError::driver("module load", e))?,
        };
        modules.insert(
            file,
            Module {
                module,
                functions: HashMap::new(),
            },
        );
        Ok(())
    }

    /// The handle of kernel `func` in module `file`.
    fn function(&self, file: &'static str, func: &'static str) -> Result<CUfunction, GpuError> {
        self.module_loaded(file)?;
        let mut modules = self.modules.lock().unwrap();
        let m = modules.get_mut(file).expect("module loaded above");
        if let Some(&f) = m.functions.get(func) {
            return Ok(f);
        }
        let name = CString::new(func).expect("kernel names have no NUL");
        // SAFETY: the module is loaded in this context.
        let f = unsafe { cu::module::get_function(m.module, name) }
            .map_err(|e| GpuError::driver("kernel lookup", e))?;
        m.functions.insert(func, f);
        Ok(f)
    }

    /// How many `block`-thread blocks of `func` fit on one multiprocessor at once.
    pub(crate) fn occupancy(
        &self,
        file: &'static str,
        func: &'static str,
        block: u32,
    ) -> Result<u32, GpuError> {
        let f = self.function(file, func)?;
        // SAFETY: a valid function handle of this context.
        let blocks =
            unsafe { cu::occupancy::max_active_block_per_multiprocessor(f, block as i32, 0) }
                .map_err(|e| GpuError::driver("occupancy query", e))?;
        Ok(blocks.max(1) as u32)
    }

    /// Launches `func` of module `file` on the stream with a 1-D grid.
    pub(crate) fn launch(
        &self,
        file: &'static str,
        func: &'static str,
        grid: u32,
        block: u32,
        args: &[Arg],
    ) -> Result<(), GpuError> {
        let f = self.function(file, func)?;
        let mut params: Vec<*mut c_void> = args
            .iter()
            .map(|a| match a {
                Arg::U32(x) => x as *const u32 as *mut c_void,
                Arg::U64(x) => x as *const u64 as *mut c_void,
            })
            .collect();
        // SAFETY: the argument list matches the kernel's signature (u32 scalars and u64
        // device pointers to live buffers); the values are copied at launch.
        unsafe {
            cu::launch_kernel(
                f,
                (grid.max(1), 1, 1),
                (block, 1, 1),
                0,
                self.stream.cu_stream(),
                &mut params,
            )
        }
        .map_err(|e| GpuError::driver("kernel launch", e))
    }

    /// Waits for all queued work; a kernel fault surfaces here.
    pub(crate) fn sync(&self) -> Result<(), GpuError> {
        self.stream
            .synchronize()
            .map_err(|e| GpuError::driver("kernel execution", e))
    }

    /// Allocates `bytes` of device memory (at least one byte).
    pub fn alloc(&self, bytes: usize) -> Result<DevBuf<'_>, GpuError> {
        self.bind()?;
        let bytes = bytes.max(1);
        let oom = |m: &MemStats| GpuError::OutOfMemory {
            requested: bytes >> 20,
            in_use: m.live >> 20,
        };
        let mut m = self.mem.lock().unwrap();
        if m.limit.is_some_and(|l| m.live + bytes > l) {
            return Err(oom(&m));
        }
        let stream = self.stream.cu_stream();
        let Some(ptr) = self.pool.alloc(stream, bytes, || self.sync())? else {
            return Err(oom(&m));
        };
        m.live += bytes;
        m.peak = m.peak.max(m.live);
        Ok(DevBuf {
            gpu: self,
            ptr,
            bytes,
        })
    }

    /// Allocates a buffer holding a copy of `data`.
    pub fn upload<T: Copy>(&self, data: &[T]) -> Result<DevBuf<'_>, GpuError> {
        let buf = self.alloc(std::mem::size_of_val(data))?;
        if !data.is_empty() {
            // SAFETY: the buffer holds at least size_of_val(data) bytes; the copy is waited for.
            unsafe { cu::memcpy_htod_async(buf.ptr, data, self.stream.cu_stream()) }
                .map_err(|e| GpuError::driver("upload", e))?;
            self.sync()?;
        }
        Ok(buf)
    }

    /// [`Gpu::upload`] through the two pinned staging buffers: the (parallel) copy of one
    /// chunk into pinned memory overlaps the transfer of the previous one, so a large
    /// array moves at pinned speed instead of pageable speed.
    pub fn upload_staged<T: Word>(&self, data: &[T]) -> Result<DevBuf<'_>, GpuError> {
        let len = std::mem::size_of_val(data);
        if len <= STAGE_CHUNK {
            return self.upload(data);
        }
        let buf = self.alloc(len)?;
        // SAFETY: `T` is a plain integer type without padding.
        let src = unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, len) };
        self.with_staging(|staging| {
            let stream = self.stream.cu_stream();
            for (c, chunk) in src.chunks(STAGE_CHUNK).enumerate() {
                let i = c % 2;
                if c >= 2 {
                    // SAFETY: a live event of this context, recorded after the last copy out
                    // of this staging buffer.
                    unsafe { cu::event::synchronize(staging.events[i].0) }
                        .map_err(|e| GpuError::driver("upload", e))?;
                }
                // SAFETY: the staging buffer holds STAGE_CHUNK bytes and no copy reads it now.
                let dst = unsafe {
                    std::slice::from_raw_parts_mut(staging.bufs[i].ptr as *mut u8, chunk.len())
                };
                dst.par_chunks_mut(1 << 18)
                    .zip(chunk.par_chunks(1 << 18))
                    .for_each(|(d, s)| d.copy_from_slice(s));
                // SAFETY: the destination range lies in `buf`; the pinned source stays untouched
                // until the event recorded next has completed.
                unsafe {
                    cu::memcpy_htod_async(buf.ptr + (c * STAGE_CHUNK) as u64, &*dst, stream)
                        .map_err(|e| GpuError::driver("upload", e))?;
                    cu::event::record(staging.events[i].0, stream)
                        .map_err(|e| GpuError::driver("upload", e))?;
                }
            }
            self.sync()
        })?;
        Ok(buf)
    }

    /// Runs `copy` with the staging buffers (made when the GPU opened), one staged copy
    /// at a time.
    fn with_staging<R>(
        &self,
        copy: impl FnOnce(&Staging) -> Result<R, GpuError>,
    ) -> Result<R, GpuError> {
        let guard = self.staging.lock().unwrap();
        copy(
            guard
                .as_ref()
                .expect("made when the GPU opened, kept until it drops"),
        )
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

/// A kernel argument: a `u32` scalar or a `u64` (scalar or device pointer).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arg {
    U32(u32),
    U64(u64),
}

/// A device allocation, freed on drop.
pub struct DevBuf<'g> {
    gpu: &'g Gpu,
    ptr: u64,
    bytes: usize,
}

impl DevBuf<'_> {
    /// The device address, `offset` bytes in.
    pub fn ptr(&self, offset: usize) -> u64 {
        debug_assert!(offset <= self.bytes);
        self.ptr + offset as u64
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Copies the buffer's first `out.len()` elements to the host (waits for queued work).
    pub fn download<T: Copy>(&self, out: &mut [T]) -> Result<(), GpuError> {
        self.download_at(0, out)
    }

    /// [`DevBuf::download`] from byte `offset` of the buffer.
    pub fn download_at<T: Copy>(&self, offset: usize, out: &mut [T]) -> Result<(), GpuError> {
        assert!(offset + std::mem::size_of_val(out) <= self.bytes);
        if !out.is_empty() {
            let src = self.ptr + offset as u64;
            // SAFETY: in bounds (asserted); the copy is waited for.
            unsafe { cu::memcpy_dtoh_async(out, src, self.gpu.stream.cu_stream()) }
                .map_err(|e| GpuError::driver("download", e))?;
        }
        self.gpu.sync()
    }

    /// Copies `data` from the host to the start of the buffer (queued on the stream; the
    /// host data may be reused when this returns).
    pub fn write<T: Copy>(&self, data: &[T]) -> Result<(), GpuError> {
        assert!(std::mem::size_of_val(data) <= self.bytes);
        if !data.is_empty() {
            // SAFETY: in bounds (asserted); a pageable source is staged before return.
            unsafe { cu::memcpy_htod_async(self.ptr, data, self.gpu.stream.cu_stream()) }
                .map_err(|e| GpuError::driver("upload", e))?;
        }
        Ok(())
    }

    /// Copies `bytes` bytes from `src` (device address) to the start of this buffer.
    pub fn copy_from(&self, src: u64, bytes: usize) -> Result<(), GpuError> {
        self.copy_from_at(0, src, bytes)
    }

    /// Copies `bytes` bytes from `src` (device address) to byte `offset` of this buffer.
    pub fn copy_from_at(&self, offset: usize, src: u64, bytes: usize) -> Result<(), GpuError> {
        assert!(offset + bytes <= self.bytes);
        if bytes > 0 {
            // SAFETY: both ranges are live device memory of at least `bytes` bytes.
            unsafe {
                cu::memcpy_dtod_async(
                    self.ptr + offset as u64,
                    src,
                    bytes,
                    self.gpu.stream.cu_stream(),
                )
            }
            .map_err(|e| GpuError::driver("device copy", e))?;
        }
        Ok(())
    }

    /// Sets the first `bytes` bytes to zero (queued, no wait).
    pub fn zero(&self, bytes: usize) -> Result<(), GpuError> {
        self.zero_at(0, bytes)
    }

    /// Sets `bytes` bytes from byte `offset` to zero (queued, no wait).
    pub fn zero_at(&self, offset: usize, bytes: usize) -> Result<(), GpuError> {
        assert!(offset + bytes <= self.bytes);
        let ptr = self.ptr + offset as u64;
        // SAFETY: the range is live device memory of this buffer.
        unsafe { cu::memset_d8_async(ptr, 0, bytes, self.gpu.stream.cu_stream()) }
            .map_err(|e| GpuError::driver("memset", e))
    }

    /// Fills `out` from the start of the buffer through two pinned staging buffers, so
    /// that the transfer runs at pinned speed and overlaps the (parallel) copy into
    /// `out`. Fastest when `out`'s pages are already mapped (see [`prefaulted_vec`]).
    pub fn download_staged<T: Word>(&self, out: &mut [T]) -> Result<(), GpuError> {
        self.download_staged_at(0, out)
    }

    /// [`DevBuf::download_staged`] from byte `offset` of the buffer.
    pub fn download_staged_at<T: Word>(
        &self,
        offset: usize,
        out: &mut [T],
    ) -> Result<(), GpuError> {
        let len = std::mem::size_of_val(out);
        assert!(offset + len <= self.bytes);
        if len <= STAGE_CHUNK {
            return self.download_at(offset, out);
        }
        // SAFETY: `T` is a plain integer type: any bytes are a valid value.
        let out = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, len) };
        self.gpu.with_staging(|staging| {
            let stream = self.gpu.stream.cu_stream();
            let chunks = len.div_ceil(STAGE_CHUNK);
            let span = |c: usize| (c * STAGE_CHUNK, ((c + 1) * STAGE_CHUNK).min(len));
            let issue = |c: usize| -> Result<(), GpuError> {
                let (s, e) = span(c);
                // SAFETY: the staging buffer holds STAGE_CHUNK bytes and is not read until the
                // event recorded after the copy completes; the source range is in bounds.
                unsafe {
                    let dst =
                        std::slice::from_raw_parts_mut(staging.bufs[c % 2].ptr as *mut u8, e - s);
                    cu::memcpy_dtoh_async(dst, self.ptr + (offset + s) as u64, stream)
                        .map_err(|e| GpuError::driver("download", e))?;
                    cu::event::record(staging.events[c % 2].0, stream)
                        .map_err(|e| GpuError::driver("download", e))
                }
            };
            issue(0)?;
            for c in 0..chunks {
                if c + 1 < chunks {
                    issue(c + 1)?;
                }
                // SAFETY: a live event of this context.
                unsafe { cu::event::synchronize(staging.events[c % 2].0) }
                    .map_err(|e| GpuError::driver("download", e))?;
                let (s, e) = span(c);
                // SAFETY: the copy into this staging buffer has completed (event above).
                let src = unsafe {
                    std::slice::from_raw_parts(staging.bufs[c % 2].ptr as *const u8, e - s)
                };
                out[s..e]
                    .par_chunks_mut(1 << 18)
                    .zip(src.par_chunks(1 << 18))
                    .for_each(|(d, s)| d.copy_from_slice(s));
            }
            Ok(())
        })
    }

    /// Reads the `u32` at element index `i`.
    pub(crate) fn read_u32(&self, i: usize) -> Result<u32, GpuError> {
        let mut v = [0u32];
        assert!(4 * (i + 1) <= self.bytes);
        // SAFETY: in bounds (asserted); the copy is waited for.
        unsafe {
            cu::memcpy_dtoh_async(
                &mut v[..],
                self.ptr + 4 * i as u64,
                self.gpu.stream.cu_stream(),
            )
        }
        .map_err(|e| GpuError::driver("download", e))?;
        self.gpu.sync()?;
        Ok(v[0])
    }
}

impl Drop for DevBuf<'_> {
    fn drop(&mut self) {
        // The context current on this thread, as every driver call here has it.
        let _ = self.gpu.bind();
        // SAFETY: taken from the pool on this stream, given back once; work queued
        // before now may still use it, none after.
        unsafe { pool::free(self.ptr, self.gpu.stream.cu_stream()) };
        self.gpu.mem.lock().unwrap().live -= self.bytes;
    }
}

/// Plain integer element types of host arrays filled from device memory byte for byte.
pub trait Word: Copy + Default + Send + Sync + private::Sealed {}
impl Word for u8 {}
impl Word for u32 {}
impl Word for u64 {}

mod private {
    /// Keeps [`super::Word`] to the integer types above.
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// A vector of `len` zeros whose pages are all mapped (written in parallel), so that a
/// later copy into it runs at memory speed instead of page-fault speed. Run it on a
/// helper thread while the GPU works.
pub fn prefaulted_vec<T: Word>(len: usize) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    v.spare_capacity_mut()
        .par_chunks_mut(1 << 16)
        .for_each(|c| {
            for x in c {
                x.write(T::default());
            }
        });
    // SAFETY: every element was written above.
    unsafe { v.set_len(len) };
    v
}

/// Bytes of one staged copy chunk (and of each pinned staging buffer).
const STAGE_CHUNK: usize = 16 << 20;

/// Two page-locked buffers and their events for chunked copies that alternate between
/// them, kept by the [`Gpu`] for all its staged copies.
struct Staging {
    bufs: [PinnedBuf; 2],
    events: [Event; 2],
}

impl Staging {
    /// The buffers and events, in the context bound to this thread.
    fn new() -> Result<Self, GpuError> {
        Ok(Staging {
            bufs: [PinnedBuf::new(STAGE_CHUNK)?, PinnedBuf::new(STAGE_CHUNK)?],
            events: [Event::new()?, Event::new()?],
        })
    }
}

/// Page-locked host memory, freed on drop.
struct PinnedBuf {
    ptr: *mut c_void,
}

impl PinnedBuf {
    fn new(bytes: usize) -> Result<Self, GpuError> {
        // SAFETY: a plain pinned allocation, freed in Drop.
        let ptr = unsafe { cu::malloc_host(bytes, 0) }
            .map_err(|e| GpuError::driver("pinned allocation", e))?;
        Ok(PinnedBuf { ptr })
    }
}

impl Drop for PinnedBuf {
    fn drop(&mut self) {
        // SAFETY: allocated by malloc_host; every copy into it was waited for.
        let _ = unsafe { cu::free_host(self.ptr) };
    }
}

/// A CUDA event, destroyed on drop.
struct Event(cudarc::driver::sys::CUevent);

impl Event {
    fn new() -> Result<Self, GpuError> {
        let flags = cudarc::driver::sys::CUevent_flags::CU_EVENT_DISABLE_TIMING;
        cu::event::create(flags)
            .map(Event)
            .map_err(|e| GpuError::driver("event creation", e))
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: created by event::create, destroyed once.
        let _ = unsafe { cu::event::destroy(self.0) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quietly_catches_panics_on_many_threads_at_once() {
        let threads: Vec<_> = (0..8)
            .map(|i| {
                std::thread::spawn(move || {
                    let nested = quietly(|| quietly(|| -> u8 { panic!("inner {i}") }));
                    let outer = quietly(|| -> u8 { panic!("panic {i}") });
                    (nested, outer, QUIET.with(|q| q.get()))
                })
            })
            .collect();
        for (i, thread) in threads.into_iter().enumerate() {
            let (nested, outer, quiet_after) = thread.join().unwrap();
            assert_eq!(nested, Ok(Err(format!("inner {i}"))));
            assert_eq!(outer, Err(format!("panic {i}")));
            assert!(!quiet_after, "the hook speaks again after quietly");
        }
        assert_eq!(quietly(|| 7), Ok(7));
    }
}
