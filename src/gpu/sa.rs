//! Suffix array on the GPU by Larsson-Sadakane prefix doubling.
//!
//! 1. Initial sort of all suffixes by their first 16 bases (a 32-bit key read from the
//!    packed text) with the device radix sort, fed in decreasing position order so that
//!    among equal padded keys shorter suffixes come first, as the sentinel demands.
//!    Suffixes shorter than 16 bases are alone in their group.
//! 2. Ranks are group heads (SA index of the group's first suffix), from a max-scan of
//!    group starts. The unsorted suffixes (groups of two or more) are compacted into a
//!    work list; singletons drop out for good.
//! 3. Doubling rounds over the work list only: at step `h` each suffix gets the 64-bit
//!    key `head << bits | rank(p + h) + 1`, the list is radix sorted on it (which sorts
//!    every group by its second key without moving groups), new heads are computed
//!    from two max-scans, ranks are written (all keys were read before: two phases), and
//!    the list is compacted to the runs still unsorted. Work per round tracks the
//!    unsorted suffixes, not the text length.
//!
//! The initial sort's position array is the SA from the start: singletons are in place
//! and each round writes its suffixes' sorted positions into their groups' ranges.
//!
//! Device memory: 16 bytes a base during the initial sort; 8 bytes a base (SA, ranks)
//! plus 24 bytes per unsorted suffix during the rounds.

use super::radix::{KeyWidth, ScanOp, Workspace};
use super::{Arg, DevBuf, Gpu, GpuError};
use crate::reference::PackedText;

const FILE: &str = "sa.cu";
const THREADS: u32 = 256;
/// Bases in the initial sort key.
const INITIAL_PREFIX: u32 = 16;

fn blocks(len: usize) -> u32 {
    len.div_ceil(THREADS as usize) as u32
}

/// Builds the suffix array of `text` (sentinel position excluded) on the GPU; the result
/// is identical to [`crate::sa::suffix_array`]. Running out of device memory returns
/// [`GpuError::OutOfMemory`].
pub fn suffix_array(gpu: &Gpu, text: &PackedText) -> Result<Vec<u32>, GpuError> {
    let n = text.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    check_len(n)?;
    let mut prof = Profile::new(gpu, "gpu sa");
    // The output's pages are mapped on the CPU while the GPU works.
    let host_out = std::thread::spawn(move || super::prefaulted_vec::<u32>(n));
    let sa = on_device(gpu, text, &mut prof)?;
    let mut out = host_out.join().expect("host buffer thread");
    prof.mark("host buffer");
    sa.download_staged(&mut out)?;
    prof.mark("download");
    prof.report(n);
    Ok(out)
}

/// Fails for texts too long for 32-bit positions (row `n` and a sentinel rank must fit).
pub(crate) fn check_len(n: usize) -> Result<(), GpuError> {
    if n as u64 > u32::MAX as u64 - 2 {
        return Err(GpuError::TooLarge(n));
    }
    Ok(())
}

/// Builds the suffix array of the non-empty `text` (at most [`check_len`] bases) and
/// leaves it in device memory (`n` u32s); every temporary is freed on return.
pub(crate) fn on_device<'g>(
    gpu: &'g Gpu,
    text: &PackedText,
    prof: &mut Profile,
) -> Result<DevBuf<'g>, GpuError> {
    let n = text.len();
    debug_assert!(n > 0 && check_len(n).is_ok());
    let n32 = Arg::U32(n as u32);
    let ws = Workspace::new(gpu, n)?;

    // 1. Initial sort by the first 16 bases.
    let (sa, isa, pos, mut m) = {
        let k0 = gpu.alloc(4 * n)?;
        let v0 = gpu.alloc(4 * n)?;
        {
            let words = gpu.upload_staged(text.words())?;
            gpu.launch(
                FILE,
                "init_keys",
                blocks(n),
                THREADS,
                &[
                    Arg::U64(words.ptr(0)),
                    n32,
                    Arg::U64(k0.ptr(0)),
                    Arg::U64(v0.ptr(0)),
                ],
            )?;
        }
        let mut keys = [k0, gpu.alloc(4 * n)?];
        let mut vals = [v0, gpu.alloc(4 * n)?];
        prof.mark("upload");
        ws.sort_pairs(&mut keys, &mut vals, n, KeyWidth::U32, 2 * INITIAL_PREFIX)?;
        prof.mark("initial sort");

        // 2. Heads (into keys[1]), ranks (vals[1]), keep flags then their scan (keys[0]).
        let [sorted_keys, heads] = &keys;
        let [sorted_pos, isa] = &vals;
        let short_from = (n as u32).saturating_sub(INITIAL_PREFIX - 1);
        gpu.launch(
            FILE,
            "init_starts",
            blocks(n),
            THREADS,
            &[
                Arg::U64(sorted_keys.ptr(0)),
                Arg::U64(sorted_pos.ptr(0)),
                n32,
                Arg::U32(short_from),
                Arg::U64(heads.ptr(0)),
            ],
        )?;
        ws.scan_queued(heads.ptr(0), heads.ptr(0), n, ScanOp::Max, true)?;
        let keep = sorted_keys;
        gpu.launch(
            FILE,
            "init_ranks",
            blocks(n),
            THREADS,
            &[
                Arg::U64(sorted_pos.ptr(0)),
                Arg::U64(heads.ptr(0)),
                n32,
                Arg::U64(isa.ptr(0)),
                Arg::U64(keep.ptr(0)),
            ],
        )?;
        let m = ws.scan(keep.ptr(0), keep.ptr(0), n, ScanOp::Sum, false)? as usize;
        gpu.launch(
            FILE,
            "compact",
            blocks(n),
            THREADS,
            &[
                Arg::U64(sorted_pos.ptr(0)),
                Arg::U64(keep.ptr(0)),
                n32,
                Arg::U32(m as u32),
                Arg::U64(heads.ptr(0)),
            ],
        )?;
        // The sorted positions are the SA but for the order inside unsorted groups,
        // which the rounds write. The key buffers make way for the exactly sized list.
        let [sa, isa] = vals;
        let pos = gpu.alloc(4 * m)?;
        pos.copy_from(keys[1].ptr(0), 4 * m)?;
        drop(keys);
        prof.mark("initial ranks");
        (sa, isa, pos, m)
    };
    let unsorted = m;

    // 3. Doubling rounds over the unsorted suffixes.
    if m > 0 {
        let bits = 32 - (n as u32).leading_zeros();
        let mut keys = [gpu.alloc(8 * m)?, gpu.alloc(8 * m)?];
        let mut vals = [pos, gpu.alloc(4 * m)?];
        let mut h = INITIAL_PREFIX as usize;
        while m > 0 {
            let m32 = Arg::U32(m as u32);
            gpu.launch(
                FILE,
                "round_keys",
                blocks(m),
                THREADS,
                &[
                    Arg::U64(vals[0].ptr(0)),
                    m32,
                    Arg::U64(isa.ptr(0)),
                    n32,
                    Arg::U32(h.min(n) as u32),
                    Arg::U32(bits),
                    Arg::U64(keys[0].ptr(0)),
                ],
            )?;
            ws.sort_pairs(&mut keys, &mut vals, m, KeyWidth::U64, 2 * bits)?;
            let (gstart, rstart) = (keys[1].ptr(0), keys[1].ptr(4 * m));
            gpu.launch(
                FILE,
                "round_starts",
                blocks(m),
                THREADS,
                &[
                    Arg::U64(keys[0].ptr(0)),
                    m32,
                    Arg::U32(bits),
                    Arg::U64(gstart),
                    Arg::U64(rstart),
                ],
            )?;
            ws.scan_queued(gstart, gstart, m, ScanOp::Max, true)?;
            ws.scan_queued(rstart, rstart, m, ScanOp::Max, true)?;
            let keep = vals[1].ptr(0);
            gpu.launch(
                FILE,
                "round_update",
                blocks(m),
                THREADS,
                &[
                    Arg::U64(keys[0].ptr(0)),
                    Arg::U64(vals[0].ptr(0)),
                    m32,
                    Arg::U32(bits),
                    Arg::U64(gstart),
                    Arg::U64(rstart),
                    Arg::U64(isa.ptr(0)),
                    Arg::U64(sa.ptr(0)),
                    Arg::U64(keep),
                ],
            )?;
            let next = ws.scan(keep, keep, m, ScanOp::Sum, false)? as usize;
            gpu.launch(
                FILE,
                "compact",
                blocks(m),
                THREADS,
                &[
                    Arg::U64(vals[0].ptr(0)),
                    Arg::U64(keep),
                    m32,
                    Arg::U32(next as u32),
                    Arg::U64(gstart),
                ],
            )?;
            vals[0].copy_from(gstart, 4 * next)?;
            m = next;
            h = h.saturating_mul(2);
            prof.rounds += 1;
        }
    }
    prof.mark("rounds");
    prof.unsorted = unsorted;
    Ok(sa)
}

/// Phase timings printed to stderr when `GALIGN_GPU_PROFILE` is set (each mark waits for
/// the GPU, so profiling slows the build slightly).
pub(crate) struct Profile<'g> {
    gpu: Option<&'g Gpu>,
    what: &'static str,
    last: std::time::Instant,
    start: std::time::Instant,
    phases: Vec<(&'static str, f64)>,
    rounds: usize,
    unsorted: usize,
}

impl<'g> Profile<'g> {
    /// Starts timing a build reported as `what`.
    pub(crate) fn new(gpu: &'g Gpu, what: &'static str) -> Self {
        let now = std::time::Instant::now();
        let on = std::env::var_os("GALIGN_GPU_PROFILE").is_some();
        Profile {
            gpu: on.then_some(gpu),
            what,
            last: now,
            start: now,
            phases: Vec::new(),
            rounds: 0,
            unsorted: 0,
        }
    }

    /// Ends the current phase, named `phase` (waits for the GPU when profiling).
    pub(crate) fn mark(&mut self, phase: &'static str) {
        if let Some(gpu) = self.gpu {
            let _ = gpu.sync();
            let now = std::time::Instant::now();
            self.phases
                .push((phase, (now - self.last).as_secs_f64() * 1e3));
            self.last = now;
        }
    }

    /// Prints the phases of a build over `n` bases.
    pub(crate) fn report(&self, n: usize) {
        if let Some(gpu) = self.gpu {
            let phases: Vec<String> = self
                .phases
                .iter()
                .map(|(p, ms)| format!("{p} {ms:.1}"))
                .collect();
            eprintln!(
                "{}: n={n} total {:.1} ms [{}] ms; {} unsorted after the initial sort, {} rounds; peak {:.2} B/base",
                self.what,
                self.start.elapsed().as_secs_f64() * 1e3,
                phases.join(", "),
                self.unsorted,
                self.rounds,
                gpu.peak_bytes() as f64 / n as f64
            );
        }
    }
}
