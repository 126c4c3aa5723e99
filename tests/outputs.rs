//! How outputs are created and committed, against hostile or mistaken surroundings
//! (issue 61): temporaries under random names created exclusively (a link planted at a
//! predictable name is never written through), an output that is an input refused, a
//! symbolic link written through, a file the user may not write never replaced, every
//! output created before the work, an index written in place during `map` detected, a
//! closed stdout an error, batch schedulers' signals cleaned up after.

mod common;

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// A folder with an index of phiX (`ix`) and reads (`r.fq`) from its text.
struct Setup {
    dir: tempfile::TempDir,
    prefix: PathBuf,
    reads: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let prefix = index(&data("phiX174.fa.gz"), dir.path(), "ix", "cpu");
        let reads = dir.path().join("r.fq");
        std::fs::write(&reads, reads_text(200)).unwrap();
        Setup { dir, prefix, reads }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn index_file(&self) -> PathBuf {
        self.path("ix.galign")
    }
}

/// `n` reads (FASTQ) of phiX's first bases, each mapping.
fn reads_text(n: usize) -> Vec<u8> {
    let phix = "GAGTTTTATCGCTTCCATGACGCAGAAGTTAACACTTTCGGATATTTCTGATGAGTCGAAAAATTATCTTGATAAAGCAGGAATTACTACTGCTTGTTTACGAATTAAATCGAAGTGGACTGCTGGCGGAAAATGAGAAAATTCGACCTATCCTTGCGCAGCTCGAGAAGCTCTTACTTTGCGACCTTTCGCCATCAACTAACGATTCTGTCAAAAACTGACGCGTTGGATGAGGAGAAGTGGCTTAATATGCTTGGCACGTTCGTCAAGGACTGGTTTAGATATGAGTCACATTTTGTTCATGGTAGAGATTCTCTTGTTGACATTTTAAAAGAGCGTGGATTACTATCTGAGTCCGATGCTGTTCAACCACTAATAGGTAAGAAATCATGAGTCAAGTTACTGAACAATCCGTACGTTTCCAGACCGCTTTGGCCTCTATTAAGCTCATTCAGGCTTCTGCCGTTTTGGATTTAACCGAAGATGATTTCGATTTTCTGACGAGTAACAAAGTTTGGATTGCTACTGACCGCTCTCGTGCTCGTCGCTGCGTTGAGGCTTGCGTTTATGGTACGCTGGACTTTGTGGGATACCCTCGCTTTCCTGCTCCTGTTGAGTTTATTGCTGCCGTCATTGCTTATTATGTTCATCCCGTCAACATTCAAACGGCCTGTCTCATCATGGAAGGCGCTGAATTTACGGAAAACATTATTAATGGCGTCGAGCGTCCGGTTAAAGCCGCTGAATTGTTCGCGTTTACCTTGCGTGTACGCGCAGGAAACACTGACGTTCTTACTGACGCAGAAGAAAACGTGCGTCAAAAATTACGTGCGGAAGGAGTGATGTAATGTCTAAAGGTAAAAAACGTTCTGGCGCTCGCCCTGGTCGTCCGCAGCCGTTGCGAGGTACTAAAGGCAAGCGTAAAGGCGCTCGTCTTTGGTATGTAGGTGGTCAACAATTTTAATTGCAGGGGCTTCGGCCCCTTACTTGAGGATAAATTATGTCTAATATTCAAACTGGCGCCGAGCGTATGCCGCATGACCTTTCCCATCTTGGCTTCCTTGCTGGTCAGATTGGTCGTCTTATTACCATTTCAACTACTCCGGTTATCGCTGGCGACTCCTTCGAGATGGACGCCGTTGGCGCTCTCCGTCTTTCTCCATTGCGTCGTGGCCTTGCTATTGACTCTACTGTAGACATTTTTACTTTTTATGTCCCTCATCGTCACGTTTATGGTGAACAGTGGATTAAGTTCATGAAGGATGGTGTTAATGCCACTCCTCTCCCGACTGTTAACACTACTGGTTATATTGACCATGCCGCTTTTCTTGGCACGATTAACCCTGATACCAATAAAATCCCTAAGCATTTGTTTCAGGGTTATTTGAATATCTATAACAACTATTTTAAAGCGCCGTGGATGCCTGACCGTACCGAGGCTAACCCTAATGAGCTTAATCAAGATGATGCTCGTTATGGTTTCCGTTGCTGCCATCTCAAAAACATTTGGACTGCTCCGCTTCCTCCTGAGACTGAGCTTTCTCGCCAAATGACGACTTCTACCACATCTATTGACATTATGGGTCTGCAAGCTGCTTATGCTAATTTGCATACTGACCAAGAACGTGATTACTTCATGCAGCGTTACCATGATGTTATTTCTTCATTTGGAGGTAAAACCTCATATGACGCTGACAACCGTCCTTTACTTGTCATGCGCTCTAATCTCTGGGCATCTGGCTATGATGTTGATGGAACTGACCAAACGTCGTTAGGCCAGTTTTCTGGTCGTGTTCAACAGACCTATAAACATTCTGTGCCGCGTTTCTTTGTTCCTGAGCATGGCACTATGTTTACTCTTGCGCTTGTTCGTTTTCCGCCTACTGCGACTAAAGAGATTCAGTACCTTAACGCTAAAGGTGCTTTGACTTATACCGATATTGCTGGCGACCCTGTTTTGTATGGCAACTTGCCGCCGCGTGAAATTTCTATGAAGGATGTTTTCCGTTCTGGTGATTCGTCTAAGAAGTTTAAGATTGCTGAGGGTCAGTGGTATCGTTATGCGCCTTCGTATGTTTCTCCTGCTTATCACCTTCTTGAAGGCTTCCCATTCATTCAGGAACCGCCTTCTGGTGATTTGCAAGAACGCGTAAAAAGCGGTTCGGCAAAAAGAAATTAAGCCAGAGTGATTGATGGT";
    let mut text = Vec::new();
    for i in 0..n {
        let at = (i * 37) % (phix.len() - 40);
        let bases = &phix[at..at + 40];
        writeln!(text, "@r{i}\n{bases}\n+\n{}", "I".repeat(40)).unwrap();
    }
    text
}

/// `galign map -o OUTPUT PREFIX READS`.
fn map_to(setup: &Setup, output: &Path) -> Command {
    let mut cmd = galign();
    cmd.args(["map", "--device", "cpu", "-o"])
        .arg(output)
        .arg(&setup.prefix)
        .arg(&setup.reads);
    cmd
}

/// Whether `dir` holds a temporary of galign's.
fn has_temporary(dir: &Path) -> bool {
    files_in(dir).iter().any(|f| f.contains(".tmp-"))
}

/// Item 3: a link planted at the name the old scheme predicted (`NAME.tmp-PID`) is never
/// written through; the output is complete under its name.
#[test]
fn a_link_planted_at_a_predictable_temporary_name_is_not_written_through() {
    let setup = Setup::new();
    let victim = setup.path("victim");
    std::fs::write(&victim, b"precious\n").unwrap();
    let script = format!(
        "ln -s {} out.sam.tmp-$$ && exec {} map --device cpu -o out.sam {} {}",
        victim.display(),
        env!("CARGO_BIN_EXE_galign"),
        setup.prefix.display(),
        setup.reads.display()
    );
    run_ok(
        Command::new("sh")
            .arg("-c")
            .arg(script)
            .current_dir(setup.dir.path()),
    );
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious\n");
    let sam = std::fs::read_to_string(setup.path("out.sam")).unwrap();
    assert_eq!(sam.lines().filter(|l| !l.starts_with('@')).count(), 200);
}

/// Item 7: an output that is an input (the reads, the index, the reference, another
/// output; by name, hard link or symbolic link) is refused, the input left as it was.
#[test]
fn an_output_that_is_an_input_or_another_output_is_refused() {
    let setup = Setup::new();
    let index_bytes = std::fs::read(setup.index_file()).unwrap();
    let reads_bytes = std::fs::read(&setup.reads).unwrap();
    let hard = setup.path("hard.fq");
    std::fs::hard_link(&setup.reads, &hard).unwrap();
    let cases: Vec<(PathBuf, &str)> = vec![
        (setup.reads.clone(), "is both the reads and the output"),
        (hard, "is both the reads and the output"),
        (setup.index_file(), "is both the index and the output"),
    ];
    for (output, message) in cases {
        let err = run_fail(&mut map_to(&setup, &output));
        assert!(err.contains(message), "{output:?}: {err}");
    }
    let stats = setup.path("o.sam");
    let err = run_fail(map_to(&setup, &stats).arg("--stats").arg(&stats));
    assert!(
        err.contains("is both the output and the --stats file"),
        "{err}"
    );
    let err = run_fail(
        galign()
            .args(["map", "--device", "cpu", "--stats"])
            .arg(&setup.reads)
            .arg(&setup.prefix)
            .arg(&setup.reads),
    );
    assert!(
        err.contains("is both the reads and the --stats file"),
        "{err}"
    );
    // A FASTA named `.galign`: its index would replace it.
    let fasta = setup.path("x.galign");
    std::fs::copy(data("phiX174.fa.gz"), &fasta).unwrap();
    let err = run_fail(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(setup.path("x"))
            .arg(&fasta),
    );
    assert!(err.contains("is both the reference and the index"), "{err}");
    let err = run_fail(
        galign()
            .args(["sa", "--device", "cpu", "-o"])
            .arg(&fasta)
            .arg(&fasta),
    );
    assert!(
        err.contains("is both the reference and the output"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&fasta).unwrap(),
        std::fs::read(data("phiX174.fa.gz")).unwrap()
    );
    assert_eq!(std::fs::read(setup.index_file()).unwrap(), index_bytes);
    assert_eq!(std::fs::read(&setup.reads).unwrap(), reads_bytes);
    assert!(!stats.exists() && !has_temporary(setup.dir.path()));
}

/// Item 15: an output that is a symbolic link is written through it: the link stays,
/// its target gets the output (a dangling link's target is created).
#[test]
fn an_output_that_is_a_symbolic_link_is_written_through_it() {
    let setup = Setup::new();
    let real = setup.path("real");
    std::fs::create_dir(&real).unwrap();
    let link = setup.path("out.sam");
    std::os::unix::fs::symlink("real/target.sam", &link).unwrap();
    for round in 0..2 {
        run_ok(&mut map_to(&setup, &link));
        let kind = std::fs::symlink_metadata(&link).unwrap().file_type();
        assert!(kind.is_symlink(), "round {round}: the link was replaced");
        let sam = std::fs::read_to_string(real.join("target.sam")).unwrap();
        assert!(sam.starts_with("@HD"), "round {round}");
    }
    assert_eq!(files_in(&real).len(), 1);
    assert!(!has_temporary(setup.dir.path()));
}

/// Item 15: an existing output the user may not write is refused, not replaced (run as
/// `nobody` through `setpriv` where the tests run as root, who may write anything; else
/// on a read-only file of the user's own).
#[test]
fn an_output_the_user_may_not_write_is_not_replaced() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let setup = Setup::new();
    let mode = |path: &Path, mode| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    let output = setup.path("theirs.sam");
    std::fs::write(&output, b"not yours\n").unwrap();
    let root = std::fs::metadata(&output).unwrap().uid() == 0;
    let mut cmd = if root {
        // A folder anyone may write (no sticky bit: the rename itself would succeed).
        mode(setup.dir.path(), 0o777);
        let binary = setup.path("galign");
        std::fs::copy(env!("CARGO_BIN_EXE_galign"), &binary).unwrap();
        let mut cmd = Command::new("setpriv");
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(binary);
        cmd
    } else {
        mode(&output, 0o444);
        galign()
    };
    cmd.args(["map", "--device", "cpu", "-o"])
        .arg(&output)
        .arg(&setup.prefix)
        .arg(&setup.reads);
    let err = run_fail(&mut cmd);
    assert!(
        err.contains("theirs.sam") && err.contains("no permission to write it"),
        "{err}"
    );
    assert_eq!(std::fs::read(&output).unwrap(), b"not yours\n");
    assert!(!has_temporary(setup.dir.path()));
}

/// Item 16: an output that cannot be created (`--stats` into a missing folder) is an
/// error before the work, with no SAM written.
#[test]
fn every_output_is_created_before_the_work_starts() {
    let setup = Setup::new();
    let sam = setup.path("o.sam");
    let err = run_fail(
        map_to(&setup, &sam)
            .arg("--stats")
            .arg(setup.path("no/s.json")),
    );
    assert!(
        err.contains("cannot write") && err.contains("no/s.json"),
        "{err}"
    );
    assert!(
        !sam.exists(),
        "the SAM was committed before the --stats error"
    );
    assert!(!has_temporary(setup.dir.path()));
    // Both written when both can be.
    let stats = setup.path("s.json");
    run_ok(map_to(&setup, &sam).arg("--stats").arg(&stats));
    assert!(std::fs::read_to_string(&stats)
        .unwrap()
        .contains("\"reads\": 200"));
    assert!(sam.exists() && !has_temporary(setup.dir.path()));
}

/// The index output is a device (`x.galign` a link to `/dev/null`): one clear error, as
/// an index is written at offsets.
#[test]
fn an_index_output_that_is_a_device_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/dev/null", dir.path().join("x.galign")).unwrap();
    let err = run_fail(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(dir.path().join("x"))
            .arg(data("phiX174.fa.gz")),
    );
    assert!(err.contains("x.galign: is a device or pipe"), "{err}");
    assert_eq!(files_in(dir.path()).len(), 1);
    // The prefix itself a device: the index would be the file `/dev/null.galign`.
    let err = run_fail(
        galign()
            .args(["index", "--device", "cpu", "-p", "/dev/null"])
            .arg(data("phiX174.fa.gz")),
    );
    assert!(
        err.contains("-p /dev/null: the index prefix names a device"),
        "{err}"
    );
    assert!(!Path::new("/dev/null.galign").exists());
}

/// Item 11: `map` to a closed stdout is an error, not output sent nowhere.
#[test]
fn a_closed_stdout_is_an_error() {
    let setup = Setup::new();
    let mut cmd = galign();
    cmd.args(["map", "--device", "cpu"])
        .arg(&setup.prefix)
        .arg(&setup.reads);
    // SAFETY: close is async-signal-safe, as code between fork and exec must be.
    unsafe {
        cmd.pre_exec(|| {
            libc::close(1);
            Ok(())
        });
    }
    let err = run_fail(&mut cmd);
    assert!(
        err.contains("cannot write to stdout: it is closed"),
        "{err}"
    );
}

/// `galign map -o out.sam PREFIX -` with every stopping signal at its default, reading
/// the first reads from stdin, returned once its temporary exists (so mid-run).
fn map_waiting(setup: &Setup) -> (Child, ChildStdin) {
    let mut cmd = galign();
    cmd.args(["map", "--device", "cpu", "-o"])
        .arg(setup.path("out.sam"))
        .arg(&setup.prefix)
        .arg("-")
        .stdin(Stdio::piped())
        .stderr(Stdio::null());
    // SAFETY: signal() and setrlimit() are async-signal-safe, as code between fork and
    // exec must be. No core file from SIGQUIT or SIGXCPU, whose default dumps core.
    unsafe {
        cmd.pre_exec(|| {
            for signal in STOPPING {
                libc::signal(signal, libc::SIG_DFL);
            }
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // More than the reader takes in before it starts (a few MB).
    stdin.write_all(&reads_text(READS_BEFORE)).unwrap();
    let waited = Instant::now();
    while !has_temporary(setup.dir.path()) {
        assert!(waited.elapsed() < Duration::from_secs(30), "no temporary");
        std::thread::sleep(Duration::from_millis(10));
    }
    (child, stdin)
}

/// Reads written to a `map` reading stdin before its temporary is waited for.
const READS_BEFORE: usize = 60_000;

/// The signals after which galign removes its temporaries and ends.
const STOPPING: [i32; 8] = [
    libc::SIGINT,
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGQUIT,
    libc::SIGALRM,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGXCPU,
];

/// Item 12: what batch schedulers send before the kill (SIGXCPU, SIGUSR1, SIGUSR2), and
/// SIGALRM and SIGQUIT, end the run as SIGTERM does: killed by the signal once its
/// temporary is removed, nothing left.
#[test]
fn scheduler_signals_remove_the_temporary() {
    let setup = Setup::new();
    let before = files_in(setup.dir.path());
    for signal in [
        libc::SIGQUIT,
        libc::SIGALRM,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGXCPU,
    ] {
        let (mut child, stdin) = map_waiting(&setup);
        // SAFETY: a plain system call on the child's process id.
        unsafe { libc::kill(child.id() as i32, signal) };
        let status = child.wait().unwrap();
        drop(stdin);
        assert_eq!(status.signal(), Some(signal), "signal {signal}: {status:?}");
        assert_eq!(files_in(setup.dir.path()), before, "signal {signal}");
    }
}

/// Item 4: the index written over in place while `map` runs (same size, random bytes
/// past the header: jump table and all) is found at the end: a clear error naming it,
/// status 1, no panic, nothing committed, no temporary.
#[test]
fn an_index_written_in_place_during_map_is_an_error() {
    let setup = Setup::new();
    let before = files_in(setup.dir.path());
    let (child, mut stdin) = map_waiting(&setup);
    let index = setup.index_file();
    let size = std::fs::metadata(&index).unwrap().len() as usize;
    let mut rng = Rng(61);
    let junk: Vec<u8> = (0..size - 64).map(|_| rng.next() as u8).collect();
    {
        use std::os::unix::fs::FileExt;
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&index)
            .unwrap();
        file.write_all_at(&junk, 64).unwrap();
    }
    stdin.write_all(&reads_text(500)).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{:?}", out.status);
    assert_eq!(files_in(setup.dir.path()), before);
}

/// Item 4 as the error shows it, and without the in-place write the same run passes.
#[test]
fn an_index_written_in_place_is_named_and_an_untouched_one_passes() {
    let setup = Setup::new();
    let run = |touch: bool| {
        let mut child = galign()
            .args(["map", "--device", "cpu", "-o"])
            .arg(setup.path("out.sam"))
            .arg(&setup.prefix)
            .arg("-")
            .stdin(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&reads_text(READS_BEFORE)).unwrap();
        let waited = Instant::now();
        while !has_temporary(setup.dir.path()) {
            assert!(waited.elapsed() < Duration::from_secs(30), "no temporary");
            std::thread::sleep(Duration::from_millis(10));
        }
        if touch {
            // The same bytes written back in place (never shorter: no SIGBUS), as
            // `cp other.galign I.galign` writes a same-size index.
            use std::os::unix::fs::FileExt;
            let bytes = std::fs::read(setup.index_file()).unwrap();
            std::thread::sleep(Duration::from_millis(20));
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(setup.index_file());
            file.unwrap().write_all_at(&bytes, 0).unwrap();
        }
        drop(stdin);
        child.wait_with_output().unwrap()
    };
    let clean = run(false);
    assert!(
        clean.status.success(),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    std::fs::remove_file(setup.path("out.sam")).unwrap();
    let written = run(true);
    let err = String::from_utf8_lossy(&written.stderr);
    assert_eq!(written.status.code(), Some(1), "{err}");
    assert!(
        err.contains("ix.galign: the index was modified while in use"),
        "{err}"
    );
    assert!(!setup.path("out.sam").exists() && !has_temporary(setup.dir.path()));
}

/// Item 2: two `index` runs on one prefix, each in a PID namespace of its own (both
/// galign processes are PID 1 there, as in two containers): each writes its own
/// temporary, so the index left is one of the two, whole (it loads: its checksums
/// pass), and no temporary is left. Skipped where `unshare -pf` is not permitted (it
/// needs root or user namespaces).
#[test]
fn two_runs_with_the_same_pid_never_share_a_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let probe = Command::new("unshare")
        .args(["-pf", "--mount-proc", "true"])
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("skipped: unshare -pf is not permitted here");
        return;
    }
    let prefix = dir.path().join("ix");
    let run = |reference: &str| {
        let script = format!(
            "exec {} index --device cpu -p {} {}",
            env!("CARGO_BIN_EXE_galign"),
            prefix.display(),
            data(reference).display()
        );
        Command::new("unshare")
            .args(["-pf", "--mount-proc", "sh", "-c", &script])
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    for round in 0..3 {
        let mut big = run("celegans_ce_htslib_1Mb.fa.gz");
        let mut small = run("lambda_virus.fa.gz");
        assert!(small.wait().unwrap().success(), "round {round}");
        assert!(big.wait().unwrap().success(), "round {round}");
        assert_eq!(files_in(dir.path()), ["ix.galign".to_string()].into());
        let reads = dir.path().join("r.fq");
        std::fs::write(&reads, reads_text(10)).unwrap();
        run_ok(
            galign()
                .args(["map", "--device", "cpu", "-o"])
                .arg(dir.path().join("out.sam"))
                .arg(&prefix)
                .arg(&reads),
        );
        for name in ["ix.galign", "r.fq", "out.sam"] {
            std::fs::remove_file(dir.path().join(name)).unwrap();
        }
    }
}
