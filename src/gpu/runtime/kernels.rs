//! Kernel sources, NVRTC compilation and the on-disk CUBIN cache.
//!
//! Every kernel file under `kernels/` ([`SOURCES`]) and every header (`.cuh`,
//! [`HEADERS`]) is embedded with `include_str!`. A kernel file includes the headers it
//! uses by their path under `kernels/` (`#include "common/text.cuh"`); NVRTC is given
//! every header by that name, so nothing is read from disk. `map.cu` and `map64.cu` set
//! the position width of `map.cuh` before including it, `partition.cu` and
//! `partition64.cu` that of `partition.cuh`. The launch geometry and the shared sizes
//! come from [`crate::gpu::tuning`] as `-D` options. Each file is compiled at run time to a
//! CUBIN for the device's architecture (`--gpu-architecture=sm_XY`). CUBINs are cached
//! under `$GALIGN_KERNEL_CACHE`, else `$XDG_CACHE_HOME/galign/kernels`, else
//! `~/.cache/galign/kernels`, named by kernel, architecture, NVRTC version and a CRC of
//! everything else that makes the binary (the source, every header, every option), so
//! only the first run pays for compilation. Cache failures are ignored.

use std::ffi::{c_char, CString};
use std::path::PathBuf;

use cudarc::nvrtc::{result as rtc, sys as rtc_sys};

use super::{quietly, GpuError};
use crate::gpu::tuning;

/// The embedded headers: (name a kernel file includes it by, CUDA C++ source).
pub const HEADERS: &[(&str, &str)] = &[
    (
        "common/types.cuh",
        include_str!("../../../kernels/common/types.cuh"),
    ),
    (
        "common/text.cuh",
        include_str!("../../../kernels/common/text.cuh"),
    ),
    ("map.cuh", include_str!("../../../kernels/map.cuh")),
    (
        "partition.cuh",
        include_str!("../../../kernels/partition.cuh"),
    ),
    (
        "prims/merge.cuh",
        include_str!("../../../kernels/prims/merge.cuh"),
    ),
    (
        "prims/scan.cuh",
        include_str!("../../../kernels/prims/scan.cuh"),
    ),
];

/// The embedded kernel sources: (file name, CUDA C++ source).
pub const SOURCES: &[(&str, &str)] = &[
    ("fm.cu", include_str!("../../../kernels/fm.cu")),
    ("map.cu", include_str!("../../../kernels/map.cu")),
    ("map64.cu", include_str!("../../../kernels/map64.cu")),
    (
        "partition.cu",
        include_str!("../../../kernels/partition.cu"),
    ),
    (
        "partition64.cu",
        include_str!("../../../kernels/partition64.cu"),
    ),
    (
        "prims/radix_sort.cu",
        include_str!("../../../kernels/prims/radix_sort.cu"),
    ),
    (
        "prims/scatter.cu",
        include_str!("../../../kernels/prims/scatter.cu"),
    ),
    (
        "prims/merge.cu",
        include_str!("../../../kernels/prims/merge.cu"),
    ),
    (
        "sa/doubling.cu",
        include_str!("../../../kernels/sa/doubling.cu"),
    ),
    ("sa/skew.cu", include_str!("../../../kernels/sa/skew.cu")),
    (
        "seed/smem.cu",
        include_str!("../../../kernels/seed/smem.cu"),
    ),
];

/// NVRTC options besides the architecture and the definitions of [`tuning::DEFINES`].
const OPTIONS: &[&str] = &["-std=c++17", "--restrict"];

/// Every NVRTC option but the architecture: [`OPTIONS`], then the `-D` definitions.
fn options() -> Vec<String> {
    let mut options: Vec<String> = OPTIONS.iter().map(|s| s.to_string()).collect();
    options.extend(tuning::define_options());
    options
}

/// The source of embedded kernel file `file`.
pub(crate) fn source(file: &str) -> &'static str {
    SOURCES
        .iter()
        .find(|(f, _)| *f == file)
        .map(|(_, s)| *s)
        .expect("known kernel file")
}

/// Loads NVRTC and returns its version (major, minor).
pub fn nvrtc_version() -> Result<(i32, i32), GpuError> {
    quietly(|| {
        // SAFETY: only tries to dlopen the library.
        if !unsafe { rtc_sys::is_culib_present() } {
            return Err(GpuError::NoNvrtc);
        }
        let (mut major, mut minor) = (0, 0);
        // SAFETY: two valid out-pointers.
        unsafe { rtc_sys::nvrtcVersion(&mut major, &mut minor) }
            .result()
            .map_err(|_| GpuError::NoNvrtc)?;
        Ok((major, minor))
    })
    .unwrap_or(Err(GpuError::NoNvrtc))
}

/// Compiles one CUDA source to a CUBIN for `arch` (e.g. `sm_90`) with NVRTC, with the
/// embedded [`HEADERS`] to include and the definitions of [`tuning::DEFINES`]. Needs no
/// device, only NVRTC; this is what CI runs for every kernel and architecture.
pub fn compile_kernel(file: &str, source: &str, arch: &str) -> Result<Vec<u8>, GpuError> {
    nvrtc_version()?;
    let fail = |log: String| GpuError::Compile {
        kernel: file.to_string(),
        arch: arch.to_string(),
        log,
    };
    let src = CString::new(source).map_err(|_| fail("source contains a NUL byte".into()))?;
    let name = CString::new(file).map_err(|_| fail("name contains a NUL byte".into()))?;
    let mut options: Vec<String> = vec![format!("--gpu-architecture={arch}")];
    options.extend(self::options());
    let header_sources: Vec<CString> = HEADERS
        .iter()
        .map(|(_, s)| CString::new(*s))
        .collect::<Result<_, _>>()
        .map_err(|_| fail("a header contains a NUL byte".into()))?;
    let header_names: Vec<CString> = HEADERS
        .iter()
        .map(|(n, _)| CString::new(*n))
        .collect::<Result<_, _>>()
        .map_err(|_| fail("a header name contains a NUL byte".into()))?;
    let header_ptrs: Vec<*const c_char> = header_sources.iter().map(|s| s.as_ptr()).collect();
    let name_ptrs: Vec<*const c_char> = header_names.iter().map(|s| s.as_ptr()).collect();
    quietly(|| {
        let mut prog = std::mem::MaybeUninit::uninit();
        // SAFETY: every pointer is a NUL-terminated string alive for the call, the two
        // arrays hold `HEADERS.len()` of them each; NVRTC copies what it keeps.
        unsafe {
            rtc_sys::nvrtcCreateProgram(
                prog.as_mut_ptr(),
                src.as_ptr(),
                name.as_ptr(),
                HEADERS.len() as i32,
                header_ptrs.as_ptr(),
                name_ptrs.as_ptr(),
            )
        }
        .result()
        .map_err(|e| fail(format!("{e:?}")))?;
        // SAFETY: created above.
        let prog = unsafe { prog.assume_init() };
        // SAFETY: `prog` is live until destroyed at the end of this block.
        let result = unsafe {
            match rtc::compile_program(prog, &options) {
                Ok(()) => {
                    let mut size = 0usize;
                    rtc_sys::nvrtcGetCUBINSize(prog, &mut size)
                        .result()
                        .map_err(|e| fail(format!("{e:?}")))?;
                    let mut cubin = vec![0u8; size];
                    rtc_sys::nvrtcGetCUBIN(prog, cubin.as_mut_ptr() as *mut c_char)
                        .result()
                        .map_err(|e| fail(format!("{e:?}")))?;
                    Ok(cubin)
                }
                Err(e) => {
                    let log = rtc::get_program_log(prog)
                        .map(|l| {
                            let bytes: Vec<u8> = l
                                .iter()
                                .take_while(|&&c| c != 0)
                                .map(|&c| c as u8)
                                .collect();
                            String::from_utf8_lossy(&bytes)
                                .lines()
                                .take(3)
                                .collect::<Vec<_>>()
                                .join(" | ")
                        })
                        .unwrap_or_default();
                    Err(fail(if log.is_empty() {
                        format!("{e:?}")
                    } else {
                        log
                    }))
                }
            }
        };
        // SAFETY: created above, destroyed once.
        let _ = unsafe { rtc::destroy_program(prog) };
        result
    })
    .unwrap_or_else(|msg| Err(fail(msg)))
}

/// The cache directory, if one can be named.
fn cache_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    env("GALIGN_KERNEL_CACHE")
        .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("galign/kernels")))
        .or_else(|| env("HOME").map(|d| d.join(".cache/galign/kernels")))
}

/// The cache file of `file` compiled for `arch` by the loaded NVRTC.
fn cache_path(file: &str, source: &str, arch: &str) -> Option<PathBuf> {
    let (major, minor) = nvrtc_version().ok()?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(source.as_bytes());
    for (name, header) in HEADERS {
        crc.update(name.as_bytes());
        crc.update(&[0]);
        crc.update(header.as_bytes());
        crc.update(&[0]);
    }
    crc.update(options().join(" ").as_bytes());
    let stem = file.trim_end_matches(".cu").replace('/', "-");
    Some(cache_dir()?.join(format!(
        "{stem}-{arch}-nvrtc{major}.{minor}-{:08x}.cubin",
        crc.finalize()
    )))
}

/// A cached CUBIN of `file` for `arch`, if present.
pub(crate) fn cached_cubin(file: &str, source: &str, arch: &str) -> Option<Vec<u8>> {
    std::fs::read(cache_path(file, source, arch)?)
        .ok()
        .filter(|b| !b.is_empty())
}

/// Compiles `file` for `arch` and stores the CUBIN in the cache (best effort).
pub(crate) fn compile_and_cache(file: &str, source: &str, arch: &str) -> Result<Vec<u8>, GpuError> {
    let cubin = compile_kernel(file, source, arch)?;
    if let Some(path) = cache_path(file, source, arch) {
        if path
            .parent()
            .is_some_and(|d| std::fs::create_dir_all(d).is_ok())
        {
            let _ = crate::atomic_file::write(&path, &cubin);
        }
    }
    Ok(cubin)
}
