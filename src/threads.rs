//! Threads as the process limits allow: the worker count checked and capped before the
//! pool starts, and a thread that cannot start (the process limit, `ulimit -u`, or
//! memory) reported as a clear error that removes the run's temporaries, wherever in
//! the code it was started. Rust's own thread starts (`std::thread::spawn`, scoped
//! spawns, rayon's pool) panic on that failure; [`stop_cleanly_when_threads_fail`]
//! turns the panic into the error.

use crate::atomic_file;

/// The most worker threads per CPU core that `-t` gives: more only add switching.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// The worker threads for `requested` (`-t`; `None`: one a core) on a machine of
/// `cores`, with a note to print when the request was capped.
pub fn worker_count(requested: Option<usize>, cores: usize) -> (usize, Option<String>) {
    let cores = cores.max(1);
    let most = MAX_THREADS_PER_CORE * cores;
    match requested {
        None => (cores, None),
        Some(n) if n > most => (
            most,
            Some(format!(
                "-t {n} is more than {MAX_THREADS_PER_CORE} threads a core on {cores} cores: \
                 using {most}"
            )),
        ),
        Some(n) => (n, None),
    }
}

/// What a refused thread start says besides its cause.
const ADVICE: &str = "the system's limit on processes (ulimit -u) or memory allows too few; \
    give fewer threads with -t (galign starts about 10 besides the workers)";

/// Why the worker threads could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot start the worker threads (-t {threads}): {cause}: {ADVICE}")]
pub struct PoolError {
    /// The workers asked for.
    threads: usize,
    /// The system's refusal.
    cause: String,
}

/// Starts rayon's global pool with `threads` workers.
pub fn start_pool(threads: usize) -> Result<(), PoolError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| PoolError {
            threads,
            cause: e.to_string(),
        })
}

/// What Rust's thread starts panic with when the system refuses a thread.
fn is_thread_start_failure(message: &str) -> bool {
    message.contains("failed to spawn thread") || message.contains("ThreadPoolBuildError")
}

/// The text of a panic's payload.
fn payload_text(info: &std::panic::PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// From now on, a thread that cannot start ends the process with a clear error and
/// status 1, its temporaries removed; every other panic goes to the hook installed
/// before.
pub fn stop_cleanly_when_threads_fail() {
    let outer = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = payload_text(info);
        if !is_thread_start_failure(&message) {
            return outer(info);
        }
        let cause = message
            .split_once("message: \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map_or(message.as_str(), |(cause, _)| cause);
        eprintln!("galign: error: cannot start a thread ({cause}): {ADVICE}");
        atomic_file::remove_pending();
        std::process::exit(1);
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_past_four_threads_a_core_are_capped_saying_so() {
        assert_eq!(worker_count(None, 16), (16, None));
        assert_eq!(worker_count(Some(3), 2), (3, None));
        assert_eq!(worker_count(Some(8), 2), (8, None));
        let (n, note) = worker_count(Some(100_000), 2);
        assert_eq!(n, 8);
        assert!(note.unwrap().contains("-t 100000"));
    }

    #[test]
    fn thread_start_failures_are_told_apart() {
        assert!(is_thread_start_failure(
            "failed to spawn thread: Os { code: 11, kind: WouldBlock, message: \"Resource temporarily unavailable\" }"
        ));
        assert!(!is_thread_start_failure("index out of bounds"));
    }
}
