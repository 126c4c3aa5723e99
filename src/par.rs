//! Parallel writes into disjoint places of one slice.
//!
//! The suffix sorters scatter into arrays from many rayon tasks at once, each task
//! owning a set of indices no other task touches (a bucket, a group, the suffixes of a
//! group). Rust cannot see that disjointness, so this wrapper states it once.

use std::marker::PhantomData;

/// Hints the CPU to load `slice[index]` (if in bounds) into the cache.
#[inline]
pub fn prefetch<T>(slice: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(x) = slice.get(index) {
        // SAFETY: prefetching a valid address has no effect beyond the cache.
        #[allow(unused_unsafe)]
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                x as *const T as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (slice, index);
}

/// A slice that many threads may write at indices each of them owns exclusively.
pub struct DisjointSlice<'a, T> {
    ptr: *mut T,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: callers of `write`/`get` promise that no two threads touch the same index
// concurrently; under that promise sharing the pointer is sound.
unsafe impl<T: Send> Send for DisjointSlice<'_, T> {}
unsafe impl<T: Send> Sync for DisjointSlice<'_, T> {}

impl<'a, T: Copy> DisjointSlice<'a, T> {
    /// Wraps a mutable slice for the duration of a parallel phase.
    pub fn new(slice: &'a mut [T]) -> Self {
        DisjointSlice {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _borrow: PhantomData,
        }
    }

    /// Writes `value` at `index`.
    ///
    /// # Safety
    /// No other thread may read or write `index` during this phase.
    #[inline]
    pub unsafe fn write(&self, index: usize, value: T) {
        assert!(index < self.len);
        unsafe { self.ptr.add(index).write(value) }
    }

    /// Hints the CPU to load the cache line of `index` (no effect out of bounds).
    #[inline]
    pub fn prefetch(&self, index: usize) {
        #[cfg(target_arch = "x86_64")]
        if index < self.len {
            // SAFETY: the address is in bounds; a prefetch neither reads nor writes memory
            // as far as the program can observe.
            #[allow(unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    self.ptr.add(index) as *const i8,
                    std::arch::x86_64::_MM_HINT_T0,
                )
            };
        }
    }

    /// Reads the value at `index`.
    ///
    /// # Safety
    /// No other thread may write `index` during this phase.
    #[inline]
    pub unsafe fn get(&self, index: usize) -> T {
        assert!(index < self.len);
        unsafe { self.ptr.add(index).read() }
    }
}
