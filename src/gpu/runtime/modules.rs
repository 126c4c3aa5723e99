//! The kernel modules of a [`Gpu`]: each kernel file loaded from the disk cache or
//! compiled by NVRTC, its functions looked up on first use, their occupancy.

use std::collections::HashMap;
use std::ffi::{c_void, CString};

use cudarc::driver::result as cu;
use cudarc::driver::sys::{CUfunction, CUmodule};

use super::kernels;
use super::{Gpu, GpuError};

/// A loaded kernel module and its functions, looked up on first use.
pub(super) struct Module {
    pub(super) module: CUmodule,
    functions: HashMap<&'static str, CUfunction>,
}

impl Gpu {
    /// Loads `file`'s module (compiling it if not cached) unless already loaded.
    pub(super) fn module_loaded(&self, file: &'static str) -> Result<(), GpuError> {
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
    pub(super) fn function(
        &self,
        file: &'static str,
        func: &'static str,
    ) -> Result<CUfunction, GpuError> {
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
    pub(super) fn occupancy(
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
}
