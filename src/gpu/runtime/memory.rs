//! Device buffers ([`DevBuf`]): allocation from the [`Gpu`]'s pool, plain copies to and
//! from the host and on the device, and host arrays ready to receive them.

use cudarc::driver::result as cu;
use rayon::prelude::*;

use super::context::MemStats;
use super::pool;
use super::{Gpu, GpuError};

impl Gpu {
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
}

/// A device address: a buffer's start or a place in it ([`DevBuf::ptr`]), or
/// [`DevPtr::NULL`] for an array a kernel goes without. Kernel launchers take it where
/// the kernel takes a pointer, apart from `u64` scalars.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DevPtr(u64);

impl DevPtr {
    /// No array (a null pointer).
    pub const NULL: DevPtr = DevPtr(0);

    /// The address `bytes` further on.
    pub fn offset(self, bytes: usize) -> DevPtr {
        DevPtr(self.0 + bytes as u64)
    }

    /// The address as the driver takes it.
    pub(super) fn address(self) -> u64 {
        self.0
    }
}

/// A device allocation, freed on drop.
pub struct DevBuf<'g> {
    pub(super) gpu: &'g Gpu,
    pub(super) ptr: u64,
    pub(super) bytes: usize,
}

impl DevBuf<'_> {
    /// The device address, `offset` bytes in.
    pub fn ptr(&self, offset: usize) -> DevPtr {
        debug_assert!(offset <= self.bytes);
        DevPtr(self.ptr + offset as u64)
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
    pub fn copy_from(&self, src: DevPtr, bytes: usize) -> Result<(), GpuError> {
        self.copy_from_at(0, src, bytes)
    }

    /// Copies `bytes` bytes from `src` (device address) to byte `offset` of this buffer.
    pub fn copy_from_at(&self, offset: usize, src: DevPtr, bytes: usize) -> Result<(), GpuError> {
        assert!(offset + bytes <= self.bytes);
        if bytes > 0 {
            // SAFETY: both ranges are live device memory of at least `bytes` bytes.
            unsafe {
                cu::memcpy_dtod_async(
                    self.ptr + offset as u64,
                    src.address(),
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
