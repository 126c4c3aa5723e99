//! NVIDIA GPU back end in three floors: the runtime ([`runtime`]: the device, its stream
//! and memory pool, buffers, errors and the typed launcher of every kernel), device-wide
//! primitives ([`prims`]), and the algorithms: the GPU suffix-array builders
//! ([`sa::suffix_array`]), the FM-index builder ([`fm::fm_index`]), the read search
//! ([`map::GpuSearcher`]) and the SMEM seeds over bwa's index ([`seed::DeviceBwaIndex`]).
//! This module is their face: the runtime's items keep their paths here (`gpu::Gpu`,
//! `gpu::DevBuf`, ...).
//!
//! Everything goes through cudarc's driver API and NVRTC with dynamic loading, so the
//! binary builds and runs where no CUDA is installed; [`Gpu::open`] then returns an
//! error instead of panicking. Kernels (`kernels/**/*.cu`) are embedded in the binary,
//! compiled by NVRTC for the device's architecture on first use and cached on disk
//! (see [`runtime::kernels`]).

pub mod fm;
pub mod map;
pub mod prims;
pub mod runtime;
pub mod sa;
pub mod seed;
pub mod tuning;

/// The radix sort and scans under their former path, which the read search uses.
pub use prims::radix;
/// NVRTC compilation and the kernel cache, under its former path.
pub use runtime::kernels;
pub use runtime::{prefaulted_vec, use_one_work_queue, DevBuf, DevPtr, Gpu, GpuError, Pos, Word};
