//! The stream-ordered memory pool of one [`super::Gpu`]: buffers are taken from it and
//! given back in stream order (`cuMemAllocFromPoolAsync`, `cuMemFreeAsync`), and the
//! pool keeps what is given back for the next buffers instead of returning it to the
//! driver. A build takes and gives back tens of gigabytes (x31's forward index: ~75 GB
//! in ~40 buffers); `cuMemAlloc` and `cuMemFree` map and unmap every one of them (on an
//! H200 an allocation ~0.1 ms a GB, a free ~0.5 ms a GB after a wait for the stream),
//! where the pool maps a page once (~1.2 ms a GB, its first allocation ~13 ms more;
//! `.bench/pool.py` of session 40) and reuses it. Its unused memory goes back to the
//! driver when an allocation would otherwise fail and when the `Gpu` closes. A driver
//! or device without memory pools fails the `Gpu`'s opening (the CPU is used instead).

use std::sync::Arc;
use std::thread::JoinHandle;

use cudarc::driver::result::mem_pool;
use cudarc::driver::sys::{
    self, CUdevice, CUdeviceptr, CUmemAllocationType, CUmemLocationType, CUmemPool_attribute,
    CUmemoryPool, CUresult, CUstream,
};
use cudarc::driver::{CudaContext, DriverError};

use super::GpuError;

/// The pool's attribute of its most memory held (a u64).
const RESERVED_HIGH: CUmemPool_attribute = CUmemPool_attribute::CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH;

/// A pool of one device's memory that keeps everything given back to it.
#[derive(Clone, Copy)]
pub(super) struct Pool(CUmemoryPool);

// SAFETY: a pool handle is a plain driver handle, valid from any thread.
unsafe impl Send for Pool {}
unsafe impl Sync for Pool {}

impl Pool {
    /// A pool of device `device`'s memory (the context bound to this thread).
    pub(super) fn create(device: CUdevice) -> Result<Pool, GpuError> {
        // SAFETY: zeroed properties are valid (no handle types, no maximum); the fields
        // set name pinned device memory of `device`.
        let pool = unsafe {
            let mut props: sys::CUmemPoolProps = std::mem::zeroed();
            props.allocType = CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED;
            props.location.type_ = CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
            props.location.id = device;
            mem_pool::create(&props)
        }
        .map_err(|e| GpuError::driver("memory pool creation", e))?;
        let pool = Pool(pool);
        let keep_all = pool.set(
            CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
            u64::MAX,
        );
        if let Err(e) = keep_all {
            // SAFETY: nothing was taken from the new pool.
            unsafe { pool.destroy() };
            return Err(GpuError::driver("memory pool creation", e));
        }
        Ok(pool)
    }

    /// Grows the pool by one byte on `stream` ([`Pool::grow`]), on a thread of its own
    /// with `ctx` bound: the driver's first allocation from a pool costs ~13 ms (an
    /// H200), paid this way while the `Gpu` opens (a failure there shows again at the
    /// first buffer). Join the thread before the pool can go.
    pub(super) fn warm_up_beside(
        self,
        ctx: Arc<CudaContext>,
        stream: CUstream,
    ) -> JoinHandle<Result<(), GpuError>> {
        let (pool, stream) = (self, stream as usize);
        std::thread::spawn(move || {
            let pool = pool; // the whole `Pool` (Send), not its raw field
            ctx.bind_to_thread()
                .map_err(|e| GpuError::driver("context binding", e))?;
            pool.grow(stream as CUstream, 1);
            Ok(())
        })
    }

    /// Grows the pool by taking `bytes` on `stream` and giving them back at once (the
    /// pool keeps them): the driver maps new memory in the allocating call. Best effort:
    /// nothing where the device lacks the room.
    pub(super) fn grow(self, stream: CUstream, bytes: usize) {
        // SAFETY: a live pool and stream of the current context.
        if let Ok(ptr) = unsafe { mem_pool::alloc_async(self.0, bytes, stream) } {
            // SAFETY: taken on this stream just now, unused.
            unsafe { free(ptr, stream) };
        }
    }

    /// `bytes` from the pool, usable in `stream`'s order; where the device has no room
    /// left, the pool's unused memory goes back to the driver (after `sync`, so that the
    /// buffers given back are unused) and the allocation is tried once more. `Ok(None)`:
    /// out of memory still.
    pub(super) fn alloc(
        self,
        stream: CUstream,
        bytes: usize,
        sync: impl FnOnce() -> Result<(), GpuError>,
    ) -> Result<Option<CUdeviceptr>, GpuError> {
        let attempt = || {
            // SAFETY: a live pool and stream of the current context.
            match unsafe { mem_pool::alloc_async(self.0, bytes, stream) } {
                Ok(ptr) => Ok(Some(ptr)),
                Err(DriverError(CUresult::CUDA_ERROR_OUT_OF_MEMORY)) => Ok(None),
                Err(e) => Err(GpuError::driver("allocation", e)),
            }
        };
        if let Some(ptr) = attempt()? {
            return Ok(Some(ptr));
        }
        sync()?;
        // SAFETY: a live pool; only memory no buffer holds is released.
        unsafe { mem_pool::trim_to(self.0, 0) }.map_err(|e| GpuError::driver("allocation", e))?;
        attempt()
    }

    /// The most device memory the pool has held from the driver since the last
    /// [`Pool::reset_reserved_peak`] (what its buffers took, and what it kept between
    /// them).
    pub(super) fn reserved_peak(self) -> usize {
        self.get(RESERVED_HIGH) as usize
    }

    /// Bytes the pool holds from the driver that no buffer uses (those given back on a
    /// stream count once the stream has reached their frees).
    pub(super) fn unused(self) -> usize {
        let held = self.get(CUmemPool_attribute::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT);
        let used = self.get(CUmemPool_attribute::CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
        held.saturating_sub(used) as usize
    }

    /// Restarts [`Pool::reserved_peak`] from what the pool holds now.
    pub(super) fn reset_reserved_peak(self) {
        // Zero is the documented reset of the high watermark.
        let _ = self.set(RESERVED_HIGH, 0);
    }

    /// The u64 attribute `attr` (0 where the driver does not answer).
    fn get(self, attr: CUmemPool_attribute) -> u64 {
        let mut value = 0u64;
        // SAFETY: a live pool; the attributes read here are u64s.
        let _ = unsafe { mem_pool::get_attribute(self.0, attr, &mut value as *mut u64 as *mut _) };
        value
    }

    /// Sets the u64 attribute `attr` to `value`.
    fn set(self, attr: CUmemPool_attribute, mut value: u64) -> Result<(), DriverError> {
        // SAFETY: a live pool; the attributes set here are u64s.
        unsafe { mem_pool::set_attribute(self.0, attr, &mut value as *mut u64 as *mut _) }
    }

    /// Releases the pool and all its memory.
    ///
    /// # Safety
    /// Every buffer taken from the pool has been given back and no queued work uses one.
    pub(super) unsafe fn destroy(self) {
        let _ = mem_pool::destroy(self.0);
    }
}

/// Gives `ptr` back to its pool once the work queued on `stream` before now is done.
///
/// # Safety
/// `ptr` came from [`Pool::alloc`] with `stream` and is not used by work queued after
/// this.
pub(super) unsafe fn free(ptr: CUdeviceptr, stream: CUstream) {
    let _ = cudarc::driver::result::free_async(ptr, stream);
}
