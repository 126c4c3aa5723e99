//! Messages, per-step timings and progress spinners on stderr. Spinners appear only
//! when stderr is a terminal; timings only with `--verbose`; nothing but warnings and
//! errors with `--quiet`.

use std::io::IsTerminal;
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
        }
    }

    /// A reporter that prints nothing but [`Reporter::info`] (for library callers and tests).
    pub fn quiet() -> Self {
        Reporter {
            verbose: false,
            says: true,
            terminal: false,
            start: Instant::now(),
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
