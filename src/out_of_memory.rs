//! Out of memory as a clear error: Rust ends a process whose allocation fails with
//! `abort` (SIGABRT, status 134, after a backtrace note), which would leave the
//! temporaries of unfinished outputs behind. [`WatchedAllocator`], the binary's global
//! allocator, is the system's, except that an allocation the system refuses ends the
//! process at once with an error message, the temporaries removed, and status 1. (galign
//! allocates nothing fallibly; a library's fallible allocation that fails ends the run
//! the same way, where the library would have failed it with its own error.)

use std::alloc::{GlobalAlloc, Layout, System};

use crate::atomic_file;

/// The system's allocator, ending the process when it refuses an allocation.
pub struct WatchedAllocator;

/// `ptr`, an allocation of `size` bytes; null ends the process ([`refused`]).
fn note(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() {
        refused(size);
    }
    ptr
}

// SAFETY: every call goes to `System` with the caller's arguments unchanged.
unsafe impl GlobalAlloc for WatchedAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(System.alloc(layout), layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(System.alloc_zeroed(layout), layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(System.realloc(ptr, layout, new_size), new_size)
    }
}

/// Writes `n` in decimal into `buf`, returning the digits (no allocation: for a
/// signal handler).
fn decimal(mut n: usize, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[at..];
        }
    }
}

/// Writes `bytes` to stderr (async-signal-safe).
fn say(bytes: &[u8]) {
    // SAFETY: write(2) of a valid buffer is async-signal-safe.
    unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
}

/// Ends the process after the system refused an allocation of `size` bytes: the
/// message, the temporaries removed, status 1. Allocates nothing (the allocator is
/// where this runs).
fn refused(size: usize) -> ! {
    let mut digits = [0; 20];
    say(b"galign: error: out of memory: an allocation of ");
    say(decimal(size, &mut digits));
    say(
        b" bytes was refused; give `galign index` a --memory budget, `galign map` fewer \
        threads (-t) or a smaller --batch-size, or run on a machine with more memory\n",
    );
    atomic_file::remove_pending_in_signal_handler();
    // SAFETY: ends the process at once; nothing may allocate any more.
    unsafe { libc::_exit(1) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_without_allocating() {
        let mut buf = [0; 20];
        assert_eq!(decimal(0, &mut buf), b"0");
        assert_eq!(decimal(1234567, &mut buf), b"1234567");
        assert_eq!(
            decimal(usize::MAX, &mut buf),
            usize::MAX.to_string().as_bytes()
        );
    }
}
