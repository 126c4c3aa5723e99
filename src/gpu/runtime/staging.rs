//! Staged copies: large arrays moved between host and device through two pinned buffers
//! that alternate, at pinned speed, with the copy into them running in parallel.

use std::ffi::c_void;

use cudarc::driver::result as cu;
use rayon::prelude::*;

use super::{DevBuf, Gpu, GpuError, Word};

/// Bytes of one staged copy chunk (and of each pinned staging buffer).
const STAGE_CHUNK: usize = 16 << 20;

/// Two page-locked buffers and their events for chunked copies that alternate between
/// them, kept by the [`Gpu`] for all its staged copies.
pub(super) struct Staging {
    bufs: [PinnedBuf; 2],
    events: [Event; 2],
}

impl Staging {
    /// The buffers and events, in the context bound to this thread.
    pub(super) fn new() -> Result<Self, GpuError> {
        Ok(Staging {
            bufs: [PinnedBuf::new(STAGE_CHUNK)?, PinnedBuf::new(STAGE_CHUNK)?],
            events: [Event::new()?, Event::new()?],
        })
    }
}

/// Page-locked host memory, freed on drop.
struct PinnedBuf {
    ptr: *mut c_void,
}

impl PinnedBuf {
    fn new(bytes: usize) -> Result<Self, GpuError> {
        // SAFETY: a plain pinned allocation, freed in Drop.
        let ptr = unsafe { cu::malloc_host(bytes, 0) }
            .map_err(|e| GpuError::driver("pinned allocation", e))?;
        Ok(PinnedBuf { ptr })
    }
}

impl Drop for PinnedBuf {
    fn drop(&mut self) {
        // SAFETY: allocated by malloc_host; every copy into it was waited for.
        let _ = unsafe { cu::free_host(self.ptr) };
    }
}

/// A CUDA event, destroyed on drop.
struct Event(cudarc::driver::sys::CUevent);

impl Event {
    fn new() -> Result<Self, GpuError> {
        let flags = cudarc::driver::sys::CUevent_flags::CU_EVENT_DISABLE_TIMING;
        cu::event::create(flags)
            .map(Event)
            .map_err(|e| GpuError::driver("event creation", e))
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: created by event::create, destroyed once.
        let _ = unsafe { cu::event::destroy(self.0) };
    }
}

impl Gpu {
    /// [`Gpu::upload`] through the two pinned staging buffers: the (parallel) copy of one
    /// chunk into pinned memory overlaps the transfer of the previous one, so a large
    /// array moves at pinned speed instead of pageable speed.
    pub fn upload_staged<T: Word>(&self, data: &[T]) -> Result<DevBuf<'_>, GpuError> {
        let len = std::mem::size_of_val(data);
        if len <= STAGE_CHUNK {
            return self.upload(data);
        }
        let buf = self.alloc(len)?;
        // SAFETY: `T` is a plain integer type without padding.
        let src = unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, len) };
        self.with_staging(|staging| {
            let stream = self.stream.cu_stream();
            for (c, chunk) in src.chunks(STAGE_CHUNK).enumerate() {
                let i = c % 2;
                if c >= 2 {
                    // SAFETY: a live event of this context, recorded after the last copy out
                    // of this staging buffer.
                    unsafe { cu::event::synchronize(staging.events[i].0) }
                        .map_err(|e| GpuError::driver("upload", e))?;
                }
                // SAFETY: the staging buffer holds STAGE_CHUNK bytes and no copy reads it now.
                let dst = unsafe {
                    std::slice::from_raw_parts_mut(staging.bufs[i].ptr as *mut u8, chunk.len())
                };
                dst.par_chunks_mut(1 << 18)
                    .zip(chunk.par_chunks(1 << 18))
                    .for_each(|(d, s)| d.copy_from_slice(s));
                // SAFETY: the destination range lies in `buf`; the pinned source stays untouched
                // until the event recorded next has completed.
                unsafe {
                    cu::memcpy_htod_async(buf.ptr + (c * STAGE_CHUNK) as u64, &*dst, stream)
                        .map_err(|e| GpuError::driver("upload", e))?;
                    cu::event::record(staging.events[i].0, stream)
                        .map_err(|e| GpuError::driver("upload", e))?;
                }
            }
            self.sync()
        })?;
        Ok(buf)
    }

    /// Runs `copy` with the staging buffers (made when the GPU opened), one staged copy
    /// at a time.
    fn with_staging<R>(
        &self,
        copy: impl FnOnce(&Staging) -> Result<R, GpuError>,
    ) -> Result<R, GpuError> {
        let guard = self.staging.lock().unwrap();
        copy(
            guard
                .as_ref()
                .expect("made when the GPU opened, kept until it drops"),
        )
    }
}

impl DevBuf<'_> {
    /// Fills `out` from the start of the buffer through two pinned staging buffers, so
    /// that the transfer runs at pinned speed and overlaps the (parallel) copy into
    /// `out`. Fastest when `out`'s pages are already mapped (see [`super::prefaulted_vec`]).
    pub fn download_staged<T: Word>(&self, out: &mut [T]) -> Result<(), GpuError> {
        self.download_staged_at(0, out)
    }

    /// [`DevBuf::download_staged`] from byte `offset` of the buffer.
    pub fn download_staged_at<T: Word>(
        &self,
        offset: usize,
        out: &mut [T],
    ) -> Result<(), GpuError> {
        let len = std::mem::size_of_val(out);
        assert!(offset + len <= self.bytes);
        if len <= STAGE_CHUNK {
            return self.download_at(offset, out);
        }
        // SAFETY: `T` is a plain integer type: any bytes are a valid value.
        let out = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u8, len) };
        self.gpu.with_staging(|staging| {
            let stream = self.gpu.stream.cu_stream();
            let chunks = len.div_ceil(STAGE_CHUNK);
            let span = |c: usize| (c * STAGE_CHUNK, ((c + 1) * STAGE_CHUNK).min(len));
            let issue = |c: usize| -> Result<(), GpuError> {
                let (s, e) = span(c);
                // SAFETY: the staging buffer holds STAGE_CHUNK bytes and is not read until the
                // event recorded after the copy completes; the source range is in bounds.
                unsafe {
                    let dst =
                        std::slice::from_raw_parts_mut(staging.bufs[c % 2].ptr as *mut u8, e - s);
                    cu::memcpy_dtoh_async(dst, self.ptr + (offset + s) as u64, stream)
                        .map_err(|e| GpuError::driver("download", e))?;
                    cu::event::record(staging.events[c % 2].0, stream)
                        .map_err(|e| GpuError::driver("download", e))
                }
            };
            issue(0)?;
            for c in 0..chunks {
                if c + 1 < chunks {
                    issue(c + 1)?;
                }
                // SAFETY: a live event of this context.
                unsafe { cu::event::synchronize(staging.events[c % 2].0) }
                    .map_err(|e| GpuError::driver("download", e))?;
                let (s, e) = span(c);
                // SAFETY: the copy into this staging buffer has completed (event above).
                let src = unsafe {
                    std::slice::from_raw_parts(staging.bufs[c % 2].ptr as *const u8, e - s)
                };
                out[s..e]
                    .par_chunks_mut(1 << 18)
                    .zip(src.par_chunks(1 << 18))
                    .for_each(|(d, s)| d.copy_from_slice(s));
            }
            Ok(())
        })
    }
}
