//! The GPU runtime floor: the open device and its stream ([`Gpu`]), device buffers and
//! copies ([`DevBuf`], staged through pinned memory), the stream-ordered memory pool,
//! errors ([`GpuError`]), the loaded kernel modules and the typed kernel launchers
//! (`launchers`: one declaration a kernel, checked against its CUDA signature).
//! Primitives and algorithms build on it; it imports none of them.

mod context;
mod error;
pub mod kernels;
mod launch;
pub(crate) mod launchers;
mod memory;
mod modules;
mod pool;
mod quiet;
mod staging;

pub use context::{use_one_work_queue, Gpu};
pub use error::GpuError;
pub use launch::{Grid, Pos};
pub use memory::{prefaulted_vec, DevBuf, DevPtr, Word};
pub(crate) use quiet::quietly;
