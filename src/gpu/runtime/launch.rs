//! The raw kernel launch: a function of a loaded module on the [`Gpu`]'s stream.

use std::ffi::c_void;

use cudarc::driver::result as cu;

use super::{Gpu, GpuError};

/// A kernel argument: a `u32` scalar or a `u64` (scalar or device pointer).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arg {
    U32(u32),
    U64(u64),
}

impl Gpu {
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
}
