//! A read-only host region (a plain input file's memory map) registered with the GPU
//! piece by piece, so that batches copy their bytes straight from it to the device at
//! the link's pace (50-55 GB/s measured on H100/H200 hosts, against 6.6 GB/s from
//! pageable memory; BENCHMARKS.md, session 32, r22), with no copy on the CPU.
//!
//! A thread of the region's own registers the pieces (64 MiB each, `cuMemHostRegister`
//! with the read-only flag, which a read-only map needs) a few ahead of the furthest
//! piece asked for, and unregisters those that no batch holds once they lie well behind
//! it; a piece asked for again after that is registered again. At most about
//! [`AHEAD`] + [`BEHIND`] pieces and those of the batches in flight are pinned at once.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use cudarc::driver::sys::{self, CUresult, CU_MEMHOSTREGISTER_READ_ONLY};
use cudarc::driver::CudaContext;

use super::{Gpu, GpuError};

/// Bytes of a piece, registered at once.
const PIECE: usize = 64 << 20;
/// Pieces registered past the furthest piece asked for.
const AHEAD: usize = 3;
/// Pieces kept registered behind the furthest piece asked for (batches come in about
/// file order, a few at once).
const BEHIND: usize = 4;

/// A region registered with a GPU as batches need it (see the module's notes).
pub struct RegisteredRegion {
    shared: Arc<Shared>,
    registrar: Option<JoinHandle<()>>,
}

/// What the callers and the registering thread share.
struct Shared {
    /// The region: its address and length.
    base: usize,
    len: usize,
    state: Mutex<State>,
    /// Signalled whenever the state changes.
    changed: Condvar,
}

/// The pieces' state.
#[derive(Default)]
struct State {
    registered: BTreeSet<usize>,
    /// Batches holding each piece (absent: none).
    users: HashMap<usize, usize>,
    /// One past the furthest piece asked for.
    frontier: usize,
    /// Why registering failed, if it did (every later request fails too).
    failed: Option<String>,
    /// Set on drop: everything is unregistered and the thread ends.
    done: bool,
}

/// What the registering thread does next.
enum Work {
    Register(usize),
    Unregister(usize),
    Stop,
}

impl RegisteredRegion {
    /// Registers `bytes` (which `keep` owns and keeps alive, mapped read-only) with
    /// `gpu`'s context as [`RegisteredRegion::acquire`] asks.
    pub fn new(gpu: &Gpu, bytes: &[u8], keep: Arc<dyn Send + Sync>) -> RegisteredRegion {
        let shared = Arc::new(Shared {
            base: bytes.as_ptr() as usize,
            len: bytes.len(),
            state: Mutex::default(),
            changed: Condvar::new(),
        });
        let ctx = Arc::clone(&gpu.ctx);
        let worker = Arc::clone(&shared);
        let registrar = std::thread::spawn(move || {
            let _keep = keep; // the bytes outlive their registration
            worker.register_as_asked(&ctx)
        });
        RegisteredRegion {
            shared,
            registrar: Some(registrar),
        }
    }

    /// Whether the region is `bytes`.
    pub fn is_of(&self, bytes: &[u8]) -> bool {
        (self.shared.base, self.shared.len) == (bytes.as_ptr() as usize, bytes.len())
    }

    /// Waits until the bytes of `range` (offsets in the region) are registered and holds
    /// them so until [`RegisteredRegion::release`] of the same range; the range split
    /// where pieces meet (a copy must not span two registrations).
    pub fn acquire(&self, range: Range<usize>) -> Result<Vec<&[u8]>, GpuError> {
        let shared = &self.shared;
        assert!(range.start < range.end && range.end <= shared.len);
        let pieces = range.start / PIECE..(range.end - 1) / PIECE + 1;
        let mut state = shared.lock();
        for k in pieces.clone() {
            *state.users.entry(k).or_insert(0) += 1;
        }
        state.frontier = state.frontier.max(pieces.end);
        shared.changed.notify_all();
        while state.failed.is_none() && !pieces.clone().all(|k| state.registered.contains(&k)) {
            state = shared.changed.wait(state).unwrap();
        }
        if let Some(why) = state.failed.clone() {
            drop(state);
            self.release(range);
            return Err(GpuError::Driver {
                what: "registering the input with the GPU",
                err: why,
            });
        }
        // SAFETY: `range` lies in the region (asserted), which `keep` keeps mapped.
        let bytes = unsafe { std::slice::from_raw_parts(shared.base as *const u8, shared.len) };
        Ok(pieces
            .map(|k| &bytes[(k * PIECE).max(range.start)..((k + 1) * PIECE).min(range.end)])
            .collect())
    }

    /// Lets go of the pieces of `range` (once every copy from them is done).
    pub fn release(&self, range: Range<usize>) {
        let mut state = self.shared.lock();
        for k in range.start / PIECE..(range.end - 1) / PIECE + 1 {
            if let Some(users) = state.users.get_mut(&k) {
                *users -= 1;
                if *users == 0 {
                    state.users.remove(&k);
                }
            }
        }
        self.shared.changed.notify_all();
    }
}

impl Drop for RegisteredRegion {
    fn drop(&mut self) {
        self.shared.lock().done = true;
        self.shared.changed.notify_all();
        if let Some(thread) = self.registrar.take() {
            let _ = thread.join();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap()
    }

    /// The registering thread: registers and unregisters pieces as the state asks, until
    /// the region is dropped; then unregisters what is left.
    fn register_as_asked(&self, ctx: &CudaContext) {
        let bound = ctx.bind_to_thread().map_err(|e| e.to_string());
        let mut state = self.lock();
        if let Err(why) = bound {
            state.failed = Some(why);
            self.changed.notify_all();
        }
        loop {
            let Some(work) = next_work(&state, self.len.div_ceil(PIECE)) else {
                state = self.changed.wait(state).unwrap();
                continue;
            };
            match work {
                Work::Register(k) => {
                    drop(state);
                    let result = self.register(k);
                    state = self.lock();
                    match result {
                        Ok(()) => state.registered.insert(k),
                        Err(why) => state.failed.replace(why).is_some(),
                    };
                }
                Work::Unregister(k) => {
                    // Not registered from now on: a batch asking for it waits for it
                    // to be registered again.
                    state.registered.remove(&k);
                    drop(state);
                    self.unregister(k);
                    state = self.lock();
                }
                Work::Stop => {
                    let left = std::mem::take(&mut state.registered);
                    drop(state);
                    left.into_iter().for_each(|k| self.unregister(k));
                    return;
                }
            }
            self.changed.notify_all();
        }
    }

    /// Piece `k`'s address and registered length (whole pages: the map covers them).
    fn piece(&self, k: usize) -> (usize, usize) {
        let start = k * PIECE;
        let end = ((k + 1) * PIECE).min(self.len);
        let page = page_size();
        (self.base + start, (end - start).div_ceil(page) * page)
    }

    fn register(&self, k: usize) -> Result<(), String> {
        let (ptr, len) = self.piece(k);
        // SAFETY: whole pages of a live read-only mapping (kept by `keep`), registered
        // once (the state says which are).
        let result =
            unsafe { sys::cuMemHostRegister_v2(ptr as *mut _, len, CU_MEMHOSTREGISTER_READ_ONLY) };
        match result {
            CUresult::CUDA_SUCCESS => Ok(()),
            e => Err(format!("{e:?}")),
        }
    }

    fn unregister(&self, k: usize) {
        let (ptr, _) = self.piece(k);
        // SAFETY: registered by `register` and no copy from it is pending (no users).
        let _ = unsafe { sys::cuMemHostUnregister(ptr as *mut _) };
    }
}

/// The registering thread's next step: stop once dropped; first the pieces that
/// batches wait for, then those ahead of the frontier, then unregister pieces no batch
/// holds well behind it. `None`: nothing to do.
fn next_work(state: &State, pieces: usize) -> Option<Work> {
    if state.done {
        return Some(Work::Stop);
    }
    if state.failed.is_none() {
        let mut waited = state.users.keys().filter(|k| !state.registered.contains(k));
        if let Some(&k) = waited.next() {
            return Some(Work::Register(k));
        }
        let ahead = state.frontier..(state.frontier + AHEAD).min(pieces);
        if let Some(k) = ahead.into_iter().find(|k| !state.registered.contains(k)) {
            return Some(Work::Register(k));
        }
    }
    let behind = state.frontier.saturating_sub(BEHIND + 1);
    state
        .registered
        .range(..behind)
        .find(|k| !state.users.contains_key(k))
        .map(|&k| Work::Unregister(k))
}

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096).max(1)
}
