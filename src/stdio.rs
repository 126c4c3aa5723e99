//! The standard streams as galign found them when it started. The Rust runtime opens
//! `/dev/null` on a standard descriptor that is closed when a program starts, after
//! which a closed stdout (`galign map I r.fq >&-`) cannot be told from `>/dev/null`:
//! output would go nowhere with status 0. [`note_closed_stdout`] runs before the runtime
//! starts (an `.init_array` entry of every program linked with this library), so that
//! writing to a closed stdout is an error instead.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether stdout was closed when the process started.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Notes whether stdout (descriptor 1) is closed; called before the Rust runtime starts
/// (an `.init_array` entry), when it is still as the parent left it.
pub extern "C" fn note_closed_stdout() {
    // SAFETY: F_GETFD only asks about the descriptor.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, Ordering::Relaxed);
}

/// Whether stdout was closed when the process started ([`note_closed_stdout`]).
pub fn stdout_was_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Runs [`note_closed_stdout`] before the Rust runtime starts, which opens `/dev/null` on
/// a closed standard descriptor.
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;
