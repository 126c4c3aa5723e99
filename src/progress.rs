//! Messages, per-step timings, progress spinners and a mapping run's progress line on
//! stderr. Spinners and the progress line appear only when stderr is a terminal;
//! timings only with `--verbose`; nothing but warnings and errors with `--quiet`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How much a run says on stderr (`--quiet`, the default, `--verbose`); warnings and
/// errors are said whatever it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verbosity {
    /// Nothing but warnings and errors: no device line, summary or spinner.
    Quiet,
    /// The device line, the summary, and spinners on a terminal.
    Normal,
    /// [`Verbosity::Normal`], and per-step timings.
    Verbose,
}

/// Reports what a long job is doing.
#[derive(Clone, Copy, Debug)]
pub struct Reporter {
    verbose: bool,
    /// Whether [`Reporter::info`] prints.
    says: bool,
    terminal: bool,
    /// When the reporter was made (the job's start, for the timeline of `-v`).
    start: Instant,
    /// What the steps are part of (e.g. "mirror index"), put before their names.
    label: Option<&'static str>,
}

impl Reporter {
    /// A reporter; `verbose` turns on per-step timings.
    pub fn new(verbose: bool) -> Self {
        match verbose {
            true => Self::with_verbosity(Verbosity::Verbose),
            false => Self::with_verbosity(Verbosity::Normal),
        }
    }

    /// A reporter that says what `verbosity` asks for.
    pub fn with_verbosity(verbosity: Verbosity) -> Self {
        let says = verbosity != Verbosity::Quiet;
        Reporter {
            verbose: verbosity == Verbosity::Verbose,
            says,
            terminal: says && std::io::stderr().is_terminal(),
            start: Instant::now(),
            label: None,
        }
    }

    /// A reporter that prints nothing but [`Reporter::info`] (for library callers and tests).
    pub fn quiet() -> Self {
        Reporter {
            verbose: false,
            says: true,
            terminal: false,
            start: Instant::now(),
            label: None,
        }
    }

    /// This reporter with its steps named as part of `label` (`label: step`), e.g. which
    /// suffix array a step of `index` builds.
    pub fn labelled(&self, label: &'static str) -> Self {
        Reporter {
            label: Some(label),
            ..*self
        }
    }

    /// A mapping run's progress line over input files of `input_bytes` in all (`None`:
    /// a stream), of which `consumed` says how many bytes have been read so far; drawn
    /// only on a terminal.
    pub fn read_progress(&self, input_bytes: Option<u64>, consumed: fn() -> u64) -> ReadProgress {
        let bar = self.terminal.then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{msg}").expect("valid template"));
            bar
        });
        let now = Instant::now();
        ReadProgress {
            bar,
            start: now,
            input: input_bytes.map(|total| (total, consumed(), consumed)),
            reads: AtomicU64::new(0),
            drawn: Mutex::new(now),
        }
    }

    /// Whether per-step timings are printed.
    pub fn verbose(&self) -> bool {
        self.verbose
    }

    /// Prints a message that the user should see unless `--quiet`.
    pub fn info(&self, msg: &str) {
        if self.says {
            eprintln!("[galign] {msg}");
        }
    }

    /// Runs one named step, with a spinner on a terminal and, under `-v`, its time and
    /// when it ended (seconds since the reporter was made: a timeline of the job).
    pub fn step<T>(&self, name: &str, work: impl FnOnce() -> T) -> T {
        let labelled;
        let name = match self.label {
            Some(label) => {
                labelled = format!("{label}: {name}");
                labelled.as_str()
            }
            None => name,
        };
        let spinner = self.terminal.then(|| {
            let bar = ProgressBar::new_spinner().with_message(name.to_string());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("valid template"),
            );
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        let start = Instant::now();
        let out = work();
        if let Some(bar) = spinner {
            bar.finish_and_clear();
        }
        if self.verbose {
            let (took, at) = (start.elapsed(), self.start.elapsed());
            let (took, at) = (took.as_secs_f64(), at.as_secs_f64());
            eprintln!("[galign] {name}: {took:.3} s (ended at {at:.3} s)");
        }
        out
    }
}

/// Least time between two draws of the progress line.
const REDRAW: Duration = Duration::from_millis(250);

/// A mapping run's progress line on a terminal: reads done, reads a second, and the
/// share of the input's bytes read (compressed bytes for compressed files; none for a
/// stream). Redrawn at most four times a second, cleared at the end.
pub struct ReadProgress {
    /// The line, on a terminal only.
    bar: Option<ProgressBar>,
    start: Instant,
    /// The input's size, the bytes read before the run, and what counts the bytes read.
    input: Option<(u64, u64, fn() -> u64)>,
    reads: AtomicU64,
    /// When the line was last drawn.
    drawn: Mutex<Instant>,
}

impl ReadProgress {
    /// Counts `reads` more reads done, and redraws the line when it is due.
    pub fn add(&self, reads: u64) {
        let done = self.reads.fetch_add(reads, Ordering::Relaxed) + reads;
        let Some(bar) = &self.bar else {
            return;
        };
        let now = Instant::now();
        {
            let mut drawn = self.drawn.lock().unwrap_or_else(|e| e.into_inner());
            if now.duration_since(*drawn) < REDRAW {
                return;
            }
            *drawn = now;
        }
        let share = self.input.map(|(total, before, consumed)| {
            consumed().saturating_sub(before) as f64 / total.max(1) as f64
        });
        let seconds = now.duration_since(self.start).as_secs_f64();
        bar.set_message(progress_line(done, seconds, share));
    }

    /// Clears the line.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Drop for ReadProgress {
    /// Clears the line, also when the run fails.
    fn drop(&mut self) {
        self.finish();
    }
}

/// The progress line: `done` reads in `seconds`, and `share` (0 to 1) of the input read
/// where it is known.
pub fn progress_line(done: u64, seconds: f64, share: Option<f64>) -> String {
    let rate = done as f64 / seconds.max(1e-9);
    let share = match share {
        Some(share) => format!(", {:.0}% of the input read", 100.0 * share.min(1.0)),
        None => String::new(),
    };
    format!("[galign] mapping: {done} reads, {rate:.0} reads/s{share}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_says_reads_rate_and_share() {
        assert_eq!(
            progress_line(1_500_000, 2.0, Some(0.4261)),
            "[galign] mapping: 1500000 reads, 750000 reads/s, 43% of the input read"
        );
        // A stream: no share; never more than all of the input.
        assert_eq!(
            progress_line(10, 4.0, None),
            "[galign] mapping: 10 reads, 2 reads/s"
        );
        assert!(progress_line(10, 0.0, Some(1.7)).ends_with(", 100% of the input read"));
    }

    #[test]
    fn off_a_terminal_nothing_is_drawn_and_steps_are_labelled() {
        fn consumed() -> u64 {
            7
        }
        let log = Reporter::quiet();
        let progress = log.read_progress(Some(100), consumed);
        assert!(progress.bar.is_none());
        progress.add(5);
        progress.add(6);
        assert_eq!(progress.reads.load(Ordering::Relaxed), 11);
        assert_eq!(
            progress.input.map(|(total, before, _)| (total, before)),
            Some((100, 7))
        );
        progress.finish();
        let mirror = log.labelled("mirror index");
        assert_eq!(mirror.label, Some("mirror index"));
        assert_eq!(mirror.step("suffix array", || 3), 3);
    }
}
