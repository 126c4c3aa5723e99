//! Signals end a run cleanly: the temporaries of unfinished outputs are removed before
//! the process dies of the signal, as it would without a handler; a file size limit
//! reached is a write error, and an input file that shrank under its memory map a clear
//! error, instead of a kill.

/// On SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2 or SIGXCPU (what batch
/// schedulers send before they kill a job) the temporaries of unfinished outputs are
/// removed and the process dies of the signal (status 128 + it, as a shell reports it);
/// SIGXFSZ (a file size limit reached) makes the write fail with a clear error instead
/// of killing the process, so that its temporary is removed too. A signal ignored when galign starts
/// stays ignored: `nohup` ignores SIGHUP, a shell's background job SIGINT.
pub fn stop_cleanly_on_signals() -> std::io::Result<()> {
    use signal_hook::consts::{
        SIGALRM, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ,
    };
    // A flag nobody reads: having a handler is what matters.
    let reached = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    signal_hook::flag::register(SIGXFSZ, reached)?;
    let stopping = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU,
    ]
    .into_iter()
    .filter(|&s| !ignored(s));
    on_bus_error_stop_cleanly();
    let mut signals = signal_hook::iterator::Signals::new(stopping)?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            crate::atomic_file::remove_pending();
            // Then die of it, as without a handler: the parent sees the signal (a shell
            // says 128 + it), a batch scheduler its own kill.
            // SAFETY: restoring the default action and raising the signal are plain
            // system calls; the default ends the whole process.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
            std::process::exit(128 + signal); // not reached
        }
    });
    Ok(())
}

/// On SIGBUS (a file read through a memory map, such as a FASTQ file or the index,
/// shrank while it was read) the error is said, the temporaries of unfinished outputs are
/// removed and the process ends with status 1. The handler runs on the faulting thread
/// (a fault cannot wait for another thread), so it only writes and unlinks.
fn on_bus_error_stop_cleanly() {
    extern "C" fn on_bus_error(_: libc::c_int) {
        const MESSAGE: &[u8] = b"galign: error: an input file (FASTQ or index) shrank while \
            it was being read; run again once nothing else writes to it\n";
        // SAFETY: write and _exit are async-signal-safe; the message is a static buffer.
        unsafe { libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len()) };
        crate::atomic_file::remove_pending_in_signal_handler();
        // SAFETY: ends the process at once, as a fault handler must.
        unsafe { libc::_exit(1) };
    }
    // SAFETY: a zeroed sigaction with a handler of the plain (int) kind and an empty mask.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_bus_error as extern "C" fn(libc::c_int) as usize;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
    }
}

/// Whether `signal` is ignored (inherited as ignored from the parent: `nohup`, `trap ''`).
fn ignored(signal: i32) -> bool {
    // SAFETY: with no new action sigaction only writes the current one into `current`,
    // a plain struct that zeroed bytes initialise.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}
