//! Suffix-array builders on the GPU: the algorithms ([`doubling`], [`skew`] and its
//! hybrid with doubling) composed of the device-wide primitives of
//! [`crate::gpu::prims`], the choice between them ([`Algorithm`]), and what they share
//! (the length check, phase timings). Every algorithm gives the same suffix array.

pub mod doubling;
pub mod partition;
pub mod skew;

use super::{DevBuf, Gpu, GpuError};
use crate::reference::PackedText;

/// The GPU suffix-array algorithm (`--sa-algorithm`); all give the same suffix array.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    /// Within 20 bytes a base: doubling, or the hybrid where most 16-mers repeat
    /// (copies of a genome; the rounds over the unsorted suffixes in chunks where they
    /// do not fit at once), skew for periodic texts such as all-A; else skew where that
    /// fits the device memory (12 bytes a base; docs/GPU.md); the build in parts where
    /// neither fits.
    #[default]
    Auto,
    /// Larsson-Sadakane prefix doubling over all suffixes, groups sorted by size class:
    /// the fastest, in 31 bytes a base of device memory (its peak on repeat-rich text).
    Doubling,
    /// DC3 (skew): the suffixes at positions i mod 3 != 0 sorted by recursion on the
    /// names of their first symbols, the others by one symbol and the next one's rank,
    /// then a merge: 1.5-3.5x doubling's time in 12 bytes a base on any text.
    Skew,
    /// The DC3 sample sorted by prefix doubling instead of recursion, then skew's mod-0
    /// sort and a merge by records (wang-baxter-owens): faster than doubling where most
    /// 16-mers repeat (0.83-0.88x its time on 1.95 Gbp of 1%-mutated chromosome
    /// copies), slower on other DNA (1.0-1.1x), in 20 bytes a base.
    Hybrid,
    /// What `auto` runs (not an option of its own): within
    /// [`doubling::BOUNDED_BYTES_PER_BASE`] bytes a base, doubling, or the hybrid where
    /// its sketch finds most 16-mers repeated ([`doubling::Repeats::initial_passes`]);
    /// skew where a group of equal prefixes is too large for that, or at once where the
    /// text is periodic (all-A, short periods; [`doubling::Repeats::periodic`]).
    #[value(skip)]
    Bounded,
}

impl Algorithm {
    /// Device bytes a base that a whole (unpartitioned) FM-index build with this
    /// algorithm is given room for: its peak measured on an H100 (docs/GPU.md) with a
    /// margin. `Auto` has the least room of the three (see [`Algorithm::whole_within`]).
    pub fn whole_bytes_per_base(self) -> u64 {
        match self {
            // 16.0 on real DNA, 30.2 on 2.0 Gbp of 1%-mutated copies.
            Algorithm::Doubling => 31,
            // 10.9 on every input measured.
            Algorithm::Skew | Algorithm::Auto => 12,
            // 18.9-19.0 on every input measured (its merge's records).
            Algorithm::Hybrid => 20,
            Algorithm::Bounded => doubling::BOUNDED_BYTES_PER_BASE,
        }
    }

    /// Device bytes a whole build of `n` bases with this algorithm is given within
    /// `bytes` ([`Algorithm::whole_within`]); 0 where it would not be built whole.
    pub fn whole_room(self, n: usize, bytes: u64) -> u64 {
        self.whole_within(n, bytes)
            .map_or(0, |a| a.whole_bytes_per_base() * n as u64)
    }

    /// The algorithm a whole build of `n` bases runs with in `bytes` of device memory:
    /// this one where it fits, for `Auto` the fastest that fits; `None` where none does.
    pub fn whole_within(self, n: usize, bytes: u64) -> Option<Algorithm> {
        let fits = |a: Algorithm| bytes >= a.whole_bytes_per_base() * n as u64;
        match self {
            Algorithm::Auto => [Algorithm::Bounded, Algorithm::Skew]
                .into_iter()
                .find(|&a| fits(a)),
            a => fits(a).then_some(a),
        }
    }
}

/// A packed text in device memory: the words of a [`PackedText`] (2-bit codes, 32 to a
/// word, the zero word after the last) and its length in bases.
#[derive(Clone, Copy)]
pub(crate) struct DeviceText<'a, 'g> {
    /// The words.
    pub(crate) words: &'a DevBuf<'g>,
    /// Bases.
    pub(crate) len: usize,
}

/// Builds the suffix array of the non-empty `text` (at most [`check_len`] bases) with
/// `algorithm` and leaves it in device memory (`n` u32s); every temporary is freed on
/// return.
pub(crate) fn on_device<'g>(
    gpu: &'g Gpu,
    text: DeviceText<'_, 'g>,
    algorithm: Algorithm,
    prof: &mut Profile,
) -> Result<DevBuf<'g>, GpuError> {
    let algorithm = match algorithm {
        Algorithm::Auto => Algorithm::Auto
            .whole_within(text.len, gpu.free_bytes()? as u64)
            .unwrap_or(Algorithm::Skew),
        a => a,
    };
    match algorithm {
        Algorithm::Auto => unreachable!("resolved above"),
        Algorithm::Doubling => {
            let repeats = doubling::Repeats::of(gpu, text, prof)?;
            doubling::on_device(gpu, text, (None, repeats), prof)
        }
        Algorithm::Bounded => {
            // A periodic text, or a group too large for the bound: skew instead.
            let repeats = doubling::Repeats::of(gpu, text, prof)?;
            if repeats.periodic() {
                return skew::on_device(gpu, text, skew::Sampler::Recursion, prof);
            }
            let bound = Some(doubling::BOUNDED_BYTES_PER_BASE * text.len as u64);
            let passes = repeats.initial_passes();
            let built = if passes == 2 {
                let sampler = skew::Sampler::Doubling { passes, bound };
                skew::on_device(gpu, text, sampler, prof)
            } else {
                doubling::on_device(gpu, text, (bound, repeats), prof)
            };
            match built {
                Err(GpuError::OutOfMemory { .. }) => {
                    skew::on_device(gpu, text, skew::Sampler::Recursion, prof)
                }
                built => built,
            }
        }
        Algorithm::Skew => skew::on_device(gpu, text, skew::Sampler::Recursion, prof),
        Algorithm::Hybrid => {
            let repeats = doubling::Repeats::of(gpu, text, prof)?;
            let passes = repeats.initial_passes();
            let sampler = skew::Sampler::Doubling {
                passes,
                bound: None,
            };
            skew::on_device(gpu, text, sampler, prof)
        }
    }
}

/// Builds the suffix array of `text` (sentinel position excluded) on the GPU with
/// `algorithm`; the result
/// is identical to [`crate::sa::suffix_array`]. Running out of device memory returns
/// [`GpuError::OutOfMemory`].
pub fn suffix_array(
    gpu: &Gpu,
    text: &PackedText,
    algorithm: Algorithm,
) -> Result<Vec<u32>, GpuError> {
    let n = text.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    check_len(n)?;
    let mut prof = Profile::new(gpu, "gpu sa");
    let words = gpu.upload_staged(text.words())?;
    prof.mark("upload");
    // The output's pages are mapped on the CPU while the GPU works (after the upload,
    // which the page faults would slow).
    let host_out = std::thread::spawn(move || super::prefaulted_vec::<u32>(n));
    let text = DeviceText {
        words: &words,
        len: n,
    };
    let sa = on_device(gpu, text, algorithm, &mut prof)?;
    drop(words);
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

/// Phase timings printed to stderr when `GALIGN_GPU_PROFILE` is set (each mark waits for
/// the GPU, so profiling slows the build slightly).
pub(crate) struct Profile<'g> {
    gpu: Option<&'g Gpu>,
    what: String,
    /// Whether a phase ends only once the GPU's queued work is done.
    waits: bool,
    last: std::time::Instant,
    start: std::time::Instant,
    phases: Vec<(&'static str, f64)>,
    /// Facts of the build worth printing (the text's estimated repeats).
    notes: Vec<String>,
    /// Each doubling round's list length and milliseconds.
    round_log: Vec<(usize, f64)>,
    last_round: std::time::Instant,
    rounds: usize,
    unsorted: usize,
    /// Members of large groups, summed over the rounds (of long runs, in a partitioned
    /// build).
    pub(crate) large: usize,
    /// Rounds that sorted the whole list at once.
    whole_rounds: usize,
    /// Rounds that went over the list in chunks (to stay within a bound).
    pub(crate) chunked_rounds: usize,
    /// Parts of a partitioned build.
    pub(crate) parts: usize,
}

impl<'g> Profile<'g> {
    /// Starts timing a build reported as `what`.
    pub(crate) fn new(gpu: &'g Gpu, what: impl Into<String>) -> Self {
        let now = std::time::Instant::now();
        let on = std::env::var_os("GALIGN_GPU_PROFILE").is_some();
        Profile {
            gpu: on.then_some(gpu),
            what: what.into(),
            waits: true,
            last: now,
            start: now,
            phases: Vec::new(),
            notes: Vec::new(),
            round_log: Vec::new(),
            last_round: now,
            rounds: 0,
            unsorted: 0,
            large: 0,
            whole_rounds: 0,
            chunked_rounds: 0,
            parts: 0,
        }
    }

    /// [`Profile::new`] for work on the host beside the GPU's: phases do not wait for
    /// the GPU.
    pub(crate) fn on_host(gpu: &'g Gpu, what: impl Into<String>) -> Self {
        Profile {
            waits: false,
            ..Self::new(gpu, what)
        }
    }

    /// Ends the current phase, named `phase` (waits for the GPU when profiling, unless
    /// [`Profile::on_host`]); phases of the same name add up.
    pub(crate) fn mark(&mut self, phase: &'static str) {
        if let Some(gpu) = self.gpu {
            if self.waits {
                let _ = gpu.sync();
            }
            let now = std::time::Instant::now();
            let ms = (now - self.last).as_secs_f64() * 1e3;
            match self.phases.iter_mut().find(|(p, _)| *p == phase) {
                Some((_, total)) => *total += ms,
                None => self.phases.push((phase, ms)),
            }
            self.last = now;
        }
    }

    /// Records `note` for the report (when profiling).
    pub(crate) fn note(&mut self, note: String) {
        if self.gpu.is_some() {
            self.notes.push(note);
        }
    }

    /// Counts a doubling round over `listed` elements, ended now (after its last mark).
    pub(crate) fn round(&mut self, listed: usize) {
        self.rounds += 1;
        if self.gpu.is_some() {
            let ms = (self.last - self.last_round).as_secs_f64() * 1e3;
            self.round_log.push((listed, ms));
            self.last_round = self.last;
        }
    }

    /// Marks where the doubling rounds start (for [`Profile::round`]'s times).
    pub(crate) fn rounds_start(&mut self) {
        self.last_round = self.last;
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
                "{}: n={n} total {:.1} ms [{}] ms; {} unsorted after the initial sort, {} rounds ({} whole-list, {} chunked), {} in large groups, {} parts; peak {:.2} B/base ({} MiB), pool held {:.2} B/base",
                self.what,
                self.start.elapsed().as_secs_f64() * 1e3,
                phases.join(", "),
                self.unsorted,
                self.rounds,
                self.whole_rounds,
                self.chunked_rounds,
                self.large,
                self.parts,
                gpu.peak_bytes() as f64 / n as f64,
                gpu.peak_bytes() >> 20,
                gpu.reserved_peak_bytes() as f64 / n as f64
            );
            if !self.notes.is_empty() || !self.round_log.is_empty() {
                let rounds: Vec<String> = self
                    .round_log
                    .iter()
                    .map(|(m, ms)| format!("{m}:{ms:.1}"))
                    .collect();
                eprintln!(
                    "{}: {}; rounds (list:ms) {}",
                    self.what,
                    self.notes.join("; "),
                    rounds.join(" ")
                );
            }
        }
    }
}
