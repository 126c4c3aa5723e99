//! [`GpuError`]: why the GPU could not be used or what failed on it, one line for the user.

use cudarc::driver::DriverError;

/// Why the GPU could not be used. `Display` is one line meant for the user.
#[derive(Clone, Debug, thiserror::Error)]
pub enum GpuError {
    /// libcuda could not be loaded.
    #[error("no NVIDIA driver (libcuda.so not found)")]
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
    pub(crate) fn driver(what: &'static str, e: DriverError) -> GpuError {
        GpuError::Driver {
            what,
            err: format!("{e}"),
        }
    }
}
