//! Kernel sources, NVRTC compilation and the on-disk CUBIN cache.
//!
//! Every kernel file under `kernels/` is embedded with `include_str!`, with the headers
//! (`.cuh`) it uses: after them, or before one that it parameterizes (`map.cu` and
//! `map64.cu` set the position width of `map.cuh`, `partition.cu` and `partition64.cu`
//! that of `partition.cuh`), and compiled at run time to
//! a CUBIN for the device's architecture (`--gpu-architecture=sm_XY`). CUBINs are cached
//! under `$GALIGN_KERNEL_CACHE`, else `$XDG_CACHE_HOME/galign/kernels`, else
//! `~/.cache/galign/kernels`, named by kernel, architecture, NVRTC version and a CRC of
//! the source and options, so only the first run pays for compilation. Cache failures
//! are ignored.

use std::ffi::{c_char, CString};
use std::path::PathBuf;

use cudarc::nvrtc::{result as rtc, sys as rtc_sys};

use super::{quietly, GpuError};

/// The embedded kernel sources: (file name, CUDA C++ source).
pub const SOURCES: &[(&str, &str)] = &[
    ("fm.cu", include_str!("../../kernels/fm.cu")),
    (
        "map.cu",
        concat!(
            include_str!("../../kernels/map.cu"),
            include_str!("../../kernels/map.cuh")
        ),
    ),
    (
        "map64.cu",
        concat!(
            include_str!("../../kernels/map64.cu"),
            include_str!("../../kernels/map.cuh")
        ),
    ),
    (
        "partition.cu",
        concat!(
            include_str!("../../kernels/partition.cu"),
            include_str!("../../kernels/partition.cuh")
        ),
    ),
    (
        "partition64.cu",
        concat!(
            include_str!("../../kernels/partition64.cu"),
            include_str!("../../kernels/partition.cuh")
        ),
    ),
    (
        "prims/radix_sort.cu",
        concat!(
            include_str!("../../kernels/prims/scan.cuh"),
            include_str!("../../kernels/prims/radix_sort.cu")
        ),
    ),
    (
        "prims/scatter.cu",
        include_str!("../../kernels/prims/scatter.cu"),
    ),
    (
        "prims/merge.cu",
        concat!(
            include_str!("../../kernels/prims/merge.cuh"),
            include_str!("../../kernels/prims/merge.cu")
        ),
    ),
    (
        "sa/doubling.cu",
        concat!(
            include_str!("../../kernels/prims/scan.cuh"),
            include_str!("../../kernels/sa/doubling.cu")
        ),
    ),
    (
        "sa/skew.cu",
        concat!(
            include_str!("../../kernels/prims/merge.cuh"),
            include_str!("../../kernels/sa/skew.cu")
        ),
    ),
];

/// NVRTC options besides the architecture.
const OPTIONS: &[&str] = &["-std=c++17", "--restrict"];

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

/// Compiles one CUDA source to a CUBIN for `arch` (e.g. `sm_90`) with NVRTC. Needs no
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
    options.extend(OPTIONS.iter().map(|s| s.to_string()));
    quietly(|| {
        let prog = rtc::create_program(&src, Some(&name)).map_err(|e| fail(format!("{e:?}")))?;
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
    crc.update(OPTIONS.join(" ").as_bytes());
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
