//! [`quietly`]: driver and NVRTC calls with cudarc's loading panics caught and kept off
//! the terminal.

use std::panic::AssertUnwindSafe;

thread_local! {
    /// Whether this thread is inside [`quietly`].
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with panics caught and the panic message kept off the terminal (cudarc's
/// dynamic loading panics when a library or symbol is missing). Safe on several threads
/// at once: the panic hook, installed once, stays silent on a thread inside `quietly`.
pub(crate) fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let outer = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(|quiet| quiet.get()) {
                outer(info)
            }
        }));
    });
    let was_quiet = QUIET.with(|quiet| quiet.replace(true));
    let r = std::panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|quiet| quiet.set(was_quiet));
    r.map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic".into())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quietly_catches_panics_on_many_threads_at_once() {
        let threads: Vec<_> = (0..8)
            .map(|i| {
                std::thread::spawn(move || {
                    let nested = quietly(|| quietly(|| -> u8 { panic!("inner {i}") }));
                    let outer = quietly(|| -> u8 { panic!("panic {i}") });
                    (nested, outer, QUIET.with(|q| q.get()))
                })
            })
            .collect();
        for (i, thread) in threads.into_iter().enumerate() {
            let (nested, outer, quiet_after) = thread.join().unwrap();
            assert_eq!(nested, Ok(Err(format!("inner {i}"))));
            assert_eq!(outer, Err(format!("panic {i}")));
            assert!(!quiet_after, "the hook speaks again after quietly");
        }
        assert_eq!(quietly(|| 7), Ok(7));
    }
}
