//! `galign sa`: the suffix array of a reference's text, sentinel excluded, written as
//! little-endian integers (u32; u64 from 2^32 - 2 bases on, built on the CPU), for
//! checking against other suffix sorters (libsais, divsufsort).

use std::path::{Path, PathBuf};

use super::stages;
use crate::atomic_file::OutputError;
use crate::device::{DeviceChoice, GpuRequiredError, NOT_USED};
use crate::gpu::sa::Algorithm;
use crate::gpu::GpuError;
use crate::progress::Reporter;
use crate::reference::ReferenceError;
use crate::sa::{SaIndex, Width};

/// Why the suffix array could not be written.
#[derive(Debug, thiserror::Error)]
pub enum SaFileError {
    /// The output is the reference.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The reference could not be read.
    #[error(transparent)]
    Reference(#[from] ReferenceError),
    /// The suffix array could not be built on the GPU under `--device gpu`.
    #[error(transparent)]
    Gpu(#[from] GpuRequiredError),
    /// Writing the file failed.
    #[error("cannot write {}", .path.display())]
    Write {
        /// The output file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
}

/// Writes the suffix array of the text of `reference` to `output`, built on `device`
/// (on the GPU with `algorithm`); `force_u64`, for tests: u64 positions even where u32
/// fit.
pub fn write_suffix_array(
    reference: &Path,
    output: &Path,
    (device, algorithm): (DeviceChoice, Algorithm),
    force_u64: bool,
    log: &Reporter,
) -> Result<(), SaFileError> {
    crate::atomic_file::ensure_distinct(
        &[("the reference", reference)],
        &[("the output", output)],
    )?;
    let reference = log.step("read reference", || crate::reference::read_fasta(reference))?;
    let text = &reference.text;
    let width = Width::for_text(text.len() as u64, force_u64);
    let bytes = match width {
        Width::U32 => to_le_bytes(&stages::suffix_array(text, device, algorithm, log)?),
        Width::U64 => {
            device
                .decide(|| Err::<(), _>(GpuError::WidePositions))
                .resolve(NOT_USED, "sorting on the CPU", |m| log.info(m))?;
            to_le_bytes(&log.step("suffix array (CPU, 64-bit)", || {
                crate::sa::suffix_array::<u64>(text)
            }))
        }
    };
    crate::atomic_file::write(output, &bytes).map_err(|source| SaFileError::Write {
        path: output.to_path_buf(),
        source,
    })
}

/// `sa` as little-endian integers of its width.
fn to_le_bytes<I: SaIndex>(sa: &[I]) -> Vec<u8> {
    let mut out = Vec::with_capacity(sa.len() * I::BYTES);
    for &x in sa {
        x.extend_le(&mut out);
    }
    out
}
