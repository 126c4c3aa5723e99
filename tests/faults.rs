//! Faults while galign runs: SIGINT, SIGTERM and SIGHUP at the start of `index`, `map`
//! and `sa`, while they wait on input, and while they write their output (no file under
//! the final name, no temporary left, status 128 + the signal), and the same signals
//! inherited as ignored (`nohup`) staying ignored; a full disk (`/dev/full`)
//! and a file-size limit (`ulimit -f`) as clear errors naming the output, which is left
//! whole or absent (a device stays a device); compressed inputs cut short (zstd, bzip2,
//! xz; gzip and BGZF are in `input_cli` and `map_cli`); an index whose section table
//! lies. Truncated, checksum-failing and foreign indexes are in `index_cli`; every class
//! of forged index in `fuzz_replay`.

mod common;

use std::collections::BTreeSet;
use std::io::Write;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// The signals galign stops cleanly on, with the status a shell reports for each.
const SIGNALS: [(&str, i32); 3] = [("INT", 2), ("TERM", 15), ("HUP", 1)];

fn kill(child: &Child, signal: &str) {
    run_ok(Command::new("kill").args([format!("-{signal}"), child.id().to_string()]));
}

/// Waits for `child` and checks that it ended on `signal` (number `number`): status
/// 128 + the signal, or killed by it when it came before the handler was in place.
fn ended_by(child: &mut Child, signal: &str, number: i32) {
    let status = child.wait().unwrap();
    assert!(
        status.code() == Some(128 + number) || status.signal() == Some(number),
        "SIG{signal}: {status:?}"
    );
}

/// A random reference of `bases` bases in `dir`.
fn reference(dir: &Path, bases: usize) -> PathBuf {
    let fasta = dir.join("ref.fa");
    write_fasta(&[("chr1".into(), Rng(21).bases(bases))], &fasta);
    fasta
}

/// A folder holding a reference of `bases` random bases and its index (built on the
/// CPU): the folder, the FASTA, the index prefix.
fn indexed(bases: usize) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let fasta = reference(dir.path(), bases);
    let prefix = index(&fasta, dir.path(), "ref", "cpu");
    (dir, fasta, prefix)
}

/// `galign ARGS` (output `out` in `dir`), reading its input `-` from a pipe left open,
/// with SIGINT, SIGTERM and SIGHUP set to `signals` ([`galign_with_signals`]).
fn spawn_waiting(args: &[&str], signals: libc::sighandler_t) -> (Child, std::process::ChildStdin) {
    let mut child = galign_with_signals(signals)
        .args(args)
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    (child, stdin)
}

#[test]
fn signals_ignored_at_the_start_stay_ignored_as_under_nohup() {
    let (dir, _, _) = indexed(5000);
    let before = files_in(dir.path());
    let out = dir.path().join("out");
    let args = ["index", "--device", "cpu", "-p", out.to_str().unwrap(), "-"];
    let (mut child, mut stdin) = spawn_waiting(&args, libc::SIG_IGN);
    stdin.write_all(b">chr1\nACGTTGCA\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    kill(&child, "HUP");
    kill(&child, "INT");
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "still running");
    // SIGTERM was ignored too; the end of its input finishes it.
    kill(&child, "TERM");
    drop(stdin);
    assert!(child.wait().unwrap().success());
    assert!(dir.path().join("out.galign").exists());
    assert_eq!(files_in(dir.path()).len(), before.len() + 1);
}

#[test]
fn signals_at_the_start_or_while_waiting_on_input_leave_nothing() {
    let (dir, _, prefix) = indexed(5000);
    let before = files_in(dir.path());
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let commands: [Vec<&str>; 3] = [
        vec!["index", "--device", "cpu", "-p", out, "-"],
        vec!["sa", "--device", "cpu", "-o", out, "-"],
        vec![
            "map",
            "--device",
            "cpu",
            "-o",
            out,
            prefix.to_str().unwrap(),
            "-",
        ],
    ];
    let reads = b"@r\nACGTACGTAC\n+\nIIIIIIIIII\n".repeat(100);
    for args in &commands {
        for (signal, number) in SIGNALS {
            // At the start: before or as the handler is put in place.
            let (mut child, stdin) = spawn_waiting(args, libc::SIG_DFL);
            kill(&child, signal);
            ended_by(&mut child, signal, number);
            drop(stdin);
            assert_eq!(
                files_in(dir.path()),
                before,
                "{args:?}, SIG{signal} at the start"
            );
            // While waiting on input, part of it read.
            let (mut child, mut stdin) = spawn_waiting(args, libc::SIG_DFL);
            let part: &[u8] = if args[0] == "map" {
                &reads
            } else {
                b">chr1\nACGTTGCA\n"
            };
            stdin.write_all(part).unwrap();
            std::thread::sleep(Duration::from_millis(300));
            kill(&child, signal);
            ended_by(&mut child, signal, number);
            drop(stdin);
            assert_eq!(
                files_in(dir.path()),
                before,
                "{args:?}, SIG{signal} while reading"
            );
        }
    }
}

/// Runs `galign ARGS` until its temporary output appears in `dir`, then sends `signal`;
/// `false` when the run ended before the temporary was seen.
fn signal_while_writing(args: &[&str], dir: &Path, signal: &str, number: i32) -> bool {
    let before = files_in(dir);
    let mut child = galign_with_signals(libc::SIG_DFL)
        .args(args)
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // NAME.tmp-PID-RANDOM
    let temporary = format!(".tmp-{}-", child.id());
    let start = Instant::now();
    loop {
        if files_in(dir).iter().any(|f| f.contains(&temporary)) {
            kill(&child, signal);
            let status = child.wait().unwrap();
            let left = files_in(dir);
            if status.success() {
                // It finished as the signal came: whole, under its final name only.
                assert!(
                    !left.iter().any(|f| f.contains(".tmp-")),
                    "{args:?}: {left:?}"
                );
                for name in left.difference(&before) {
                    std::fs::remove_file(dir.join(name)).unwrap();
                }
                return false;
            }
            assert!(
                status.code() == Some(128 + number) || status.signal() == Some(number),
                "{args:?}, SIG{signal}: {status:?}"
            );
            assert_complete_if_left(args, dir, &before, &left, signal);
            return true;
        }
        if child.try_wait().unwrap().is_some() || start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            for name in files_in(dir).difference(&before) {
                std::fs::remove_file(dir.join(name)).unwrap();
            }
            return false;
        }
        std::thread::sleep(Duration::from_micros(500));
    }
}

/// After a run ended by `signal`: nothing new in `dir` (`left` against `before`), unless
/// the signal came after the output was renamed into place, between the rename and the
/// exit: then no temporary, and the file under the final name is the whole output, byte
/// for byte what a run to the end writes.
fn assert_complete_if_left(
    args: &[&str],
    dir: &Path,
    before: &BTreeSet<String>,
    left: &BTreeSet<String>,
    signal: &str,
) {
    let new: Vec<&String> = left.difference(before).collect();
    assert!(
        !new.iter().any(|f| f.contains(".tmp-")),
        "{args:?}, SIG{signal} while writing: {new:?}"
    );
    let got: Vec<Vec<u8>> = new
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect();
    for name in &new {
        std::fs::remove_file(dir.join(name)).unwrap();
    }
    if new.is_empty() {
        return;
    }
    let status = galign()
        .args(args)
        .stderr(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{args:?}: {status:?}");
    for (name, bytes) in new.iter().zip(got) {
        let whole = std::fs::read(dir.join(name)).unwrap();
        assert!(
            whole == bytes,
            "{args:?}, SIG{signal}: {name} left incomplete"
        );
        std::fs::remove_file(dir.join(name)).unwrap();
    }
}

#[test]
fn signals_while_writing_the_output_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let fasta = reference(dir.path(), 3_000_000);
    let prefix = index(&fasta, dir.path(), "ref", "cpu");
    let reads = dir.path().join("reads.fq");
    let mut rng = Rng(8);
    let many: Vec<(String, String)> = (0..40_000)
        .map(|i| (format!("r{i}"), rng.bases(60)))
        .collect();
    write_fastq(&many, &reads);
    let out = work.join("out");
    let (out, fasta, prefix, reads) = (
        out.to_str().unwrap(),
        fasta.to_str().unwrap(),
        prefix.to_str().unwrap(),
        reads.to_str().unwrap(),
    );
    let commands: [Vec<&str>; 3] = [
        vec!["index", "--device", "cpu", "-p", out, fasta],
        vec!["sa", "--device", "cpu", "-o", out, fasta],
        vec!["map", "--device", "cpu", "-o", out, prefix, reads],
    ];
    for args in &commands {
        let caught = SIGNALS
            .iter()
            .filter(|(signal, number)| signal_while_writing(args, &work, signal, *number))
            .count();
        assert!(caught >= 1, "{args:?}: never caught while writing");
    }
}

#[test]
fn a_full_disk_is_a_clear_error_and_the_device_stays() {
    let (dir, fasta, prefix) = indexed(5000);
    let reads = dir.path().join("r.fq");
    write_fastq(&[("r".into(), "ACGTACGTAC".into())], &reads);
    let full = Path::new("/dev/full");
    let is_device = || {
        std::fs::metadata(full)
            .unwrap()
            .file_type()
            .is_char_device()
    };
    assert!(is_device());
    let e = run_fail(
        galign()
            .args(["sa", "--device", "cpu", "-o", "/dev/full"])
            .arg(&fasta),
    );
    assert!(
        e.contains("cannot write /dev/full") && e.contains("No space left"),
        "{e}"
    );
    let e = run_fail(
        galign()
            .args(["map", "--device", "cpu", "-o", "/dev/full"])
            .arg(&prefix)
            .arg(&reads),
    );
    assert!(
        e.contains("/dev/full") && e.contains("No space left"),
        "{e}"
    );
    // BAM (its blocks written by a thread of their own) to the full disk, through a
    // `.bam` link to it: the same error, not a panic or a hang.
    let bam = dir.path().join("full.bam");
    std::os::unix::fs::symlink(full, &bam).unwrap();
    let e = run_fail(
        galign()
            .args(["map", "--device", "cpu", "-o"])
            .arg(&bam)
            .arg(&prefix)
            .arg(&reads),
    );
    assert!(e.contains("full.bam") && e.contains("No space left"), "{e}");
    assert!(is_device(), "/dev/full is still a device");
    // Through /dev/null both succeed, and it stays a device too.
    run_ok(
        galign()
            .args(["sa", "--device", "cpu", "-o", "/dev/null"])
            .arg(&fasta),
    );
    run_ok(
        galign()
            .args(["map", "--device", "cpu", "-o", "/dev/null"])
            .arg(&prefix)
            .arg(&reads),
    );
    let null = std::fs::metadata("/dev/null").unwrap().file_type();
    assert!(null.is_char_device(), "/dev/null is still a device");
}

#[test]
fn a_file_size_limit_during_index_and_sa_is_a_clear_error_that_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fasta = reference(dir.path(), 200_000);
    let before = files_in(dir.path());
    let out = dir.path().join("out");
    for command in ["index --device cpu -p", "sa --device cpu -o"] {
        let script = format!(
            "ulimit -f 100; exec '{}' {command} '{}' '{}'",
            env!("CARGO_BIN_EXE_galign"),
            out.display(),
            fasta.display()
        );
        let e = run_fail(Command::new("bash").args(["-c", &script]));
        assert!(
            e.contains("File too large") && e.contains("out"),
            "{command}: {e}"
        );
        assert_eq!(files_in(dir.path()), before, "{command}");
    }
}

/// A compressor of whole texts.
type Compress = fn(&[u8]) -> Vec<u8>;

#[test]
fn compressed_inputs_cut_short_are_clear_errors() {
    let (dir, fasta, prefix) = indexed(50_000);
    let mut rng = Rng(4);
    let reads: String = (0..2000)
        .map(|i| format!("@r{i}\n{}\n+\n{}\n", rng.bases(50), "I".repeat(50)))
        .collect();
    let reference_text = std::fs::read(&fasta).unwrap();
    let kinds: [(&str, Compress); 3] = [
        ("zst", |t| zstd::encode_all(t, 3).unwrap()),
        ("bz2", |t| {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            e.write_all(t).unwrap();
            e.finish().unwrap()
        }),
        ("xz", |t| {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
            e.write_all(t).unwrap();
            e.finish().unwrap()
        }),
    ];
    for (ext, compress) in kinds {
        let cut = |text: &[u8]| {
            let whole = compress(text);
            whole[..whole.len() * 2 / 3].to_vec()
        };
        let name = format!("reads.fq.{ext}");
        std::fs::write(dir.path().join(&name), cut(reads.as_bytes())).unwrap();
        let e = run_fail(
            galign()
                .args(["map", "--device", "cpu", "-o"])
                .arg(dir.path().join("out.sam"))
                .arg(&prefix)
                .arg(dir.path().join(&name)),
        );
        assert!(
            e.contains(&name) && (e.contains("cannot read") || e.contains("truncated")),
            "{ext}: {e}"
        );
        let name = format!("ref.fa.{ext}");
        std::fs::write(dir.path().join(&name), cut(&reference_text)).unwrap();
        let e = run_fail(
            galign()
                .args(["index", "--device", "cpu", "-p"])
                .arg(dir.path().join("out"))
                .arg(dir.path().join(&name)),
        );
        assert!(e.contains(&name) && e.contains("cannot read"), "{ext}: {e}");
        assert!(
            !files_in(dir.path()).iter().any(|f| f.starts_with("out")),
            "{ext}"
        );
    }
}

#[test]
fn an_index_whose_section_table_lies_is_refused() {
    let (dir, _, prefix) = indexed(5000);
    let path = dir.path().join("ref.galign");
    let good = std::fs::read(&path).unwrap();
    let reads = dir.path().join("r.fq");
    write_fastq(&[("r".into(), "ACGTACGTAC".into())], &reads);
    // The first section's length past the end of the file; then an offset off alignment.
    for (at, value) in [(64 + 16, good.len() as u64), (64 + 8, 65)] {
        let mut lying = good.clone();
        lying[at..at + 8].copy_from_slice(&value.to_le_bytes());
        std::fs::write(&path, &lying).unwrap();
        let e = run_fail(
            galign()
                .args(["map", "--device", "cpu"])
                .arg(&prefix)
                .arg(&reads),
        );
        assert!(
            e.contains("ref.galign: index file is truncated or corrupt (section META)"),
            "{e}"
        );
    }
}

#[test]
fn a_missing_input_is_named_with_its_cause_once() {
    let (dir, fasta, prefix) = indexed(5000);
    let missing = dir.path().join("missing");
    let errors = [
        run_fail(galign().arg("map").arg(&prefix).arg(&missing)),
        run_fail(galign().arg("index").arg("-p").arg(&missing).arg(&missing)),
        run_fail(galign().arg("map").arg(&missing).arg(&fasta)),
    ];
    for e in errors {
        assert!(e.contains("missing"), "{e}");
        assert_eq!(e.matches("No such file or directory").count(), 1, "{e}");
    }
}
