//! What input can cost: a read of 1 Mbp, a million one-base contigs, headers of
//! megabytes, and a FASTQ record past the longest galign reads (an error naming the
//! limit, before the buffer grows further). Large inputs are streamed from a generator
//! into galign's stdin rather than written to disk.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::*;

/// Runs `cmd` with `input` written to its stdin by a thread of its own (the child may
/// stop reading early, which is not an error here).
fn with_stdin(cmd: &mut Command, input: impl FnOnce(&mut dyn Write) + Send + 'static) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || input(&mut stdin));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// The SAM records (header lines dropped) of `sam`.
fn records(sam: &[u8]) -> Vec<Vec<String>> {
    String::from_utf8_lossy(sam)
        .lines()
        .filter(|l| !l.starts_with('@'))
        .map(|l| l.split('\t').map(String::from).collect())
        .collect()
}

#[test]
fn a_read_of_one_megabase_maps_where_it_lies() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(13);
    let reference = rng.bases(1_200_000);
    let fasta = dir.path().join("ref.fa");
    write_fasta(&[("chr1".into(), reference.clone())], &fasta);
    let prefix = index(&fasta, dir.path(), "ref", "cpu");
    let read = &reference[100_000..1_100_000];
    let reads = dir.path().join("long.fq");
    write_fastq(&[("long".into(), read.into())], &reads);
    let out = run_ok(
        galign()
            .args(["map", "--device", "cpu"])
            .arg(&prefix)
            .arg(&reads),
    );
    let records = records(&out.stdout);
    assert_eq!(records.len(), 1);
    assert_eq!(
        records[0][..6],
        ["long", "0", "chr1", "100001", "60", "1000000M"].map(String::from)[..]
    );
    assert_eq!(records[0][9].len(), 1_000_000);
}

#[test]
fn a_million_one_base_contigs_index_and_map() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("many");
    let out = with_stdin(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(&prefix)
            .arg("-"),
        |stdin| {
            let mut text = Vec::with_capacity(12 << 20);
            for i in 0..1_000_000 {
                writeln!(text, ">c{i}\n{}", ["A", "C", "G", "T"][i % 4]).unwrap();
            }
            stdin.write_all(&text).unwrap();
        },
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reads = dir.path().join("r.fq");
    write_fastq(
        &[("one".into(), "G".into()), ("two".into(), "AC".into())],
        &reads,
    );
    let out = run_ok(
        galign()
            .args(["map", "--device", "cpu"])
            .arg(&prefix)
            .arg(&reads),
    );
    let sam = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        sam.lines().filter(|l| l.starts_with("@SQ")).count(),
        1_000_000
    );
    assert!(sam.contains("@SQ\tSN:c999999\tLN:1\n"));
    let records = records(&out.stdout);
    // "G" (or "C" on the reverse strand) is every fourth contig; no two-base read fits.
    let contig: usize = records[0][2][1..].parse().unwrap();
    let strand = if records[0][1] == "0" { 2 } else { 1 };
    assert_eq!((contig % 4, records[0][3].as_str()), (strand, "1"));
    assert_eq!(records[1][..3], ["two", "4", "*"].map(String::from)[..]);
}

/// Maps `fastq` (streamed) with the index at `prefix`; returns the output.
fn map_stream(prefix: &Path, fastq: impl FnOnce(&mut dyn Write) + Send + 'static) -> Output {
    with_stdin(
        galign()
            .args(["map", "--device", "cpu"])
            .arg(prefix)
            .arg("-"),
        fastq,
    )
}

#[test]
fn headers_of_megabytes_are_read_or_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(5);
    let bases = rng.bases(2000);
    // A reference header of 2 MB: the name is its first word, the rest a description.
    let fasta = dir.path().join("ref.fa");
    let header = format!(">chr1 {}", "d".repeat(2 << 20));
    std::fs::write(&fasta, format!("{header}\n{bases}\n")).unwrap();
    let prefix = index(&fasta, dir.path(), "ref", "cpu");
    // A read whose comment is 2 MB maps; one whose name is 2 MB is refused by name.
    let read = bases[100..150].to_string();
    let comment = read.clone();
    let out = map_stream(&prefix, move |stdin| {
        let text = format!(
            "@r1 {}\n{comment}\n+\n{}\n",
            "c".repeat(2 << 20),
            "I".repeat(50)
        );
        stdin.write_all(text.as_bytes()).unwrap();
    });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        records(&out.stdout)[0][..4],
        ["r1", "0", "chr1", "101"].map(String::from)[..]
    );
    let out = map_stream(&prefix, move |stdin| {
        let text = format!("@{}\n{read}\n+\n{}\n", "n".repeat(2 << 20), "I".repeat(50));
        let _ = stdin.write_all(text.as_bytes());
    });
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "stdin: record 1 (line 1): the read name is 2097152 characters; SAM allows at most 254"
        ),
        "{stderr}"
    );
}

#[test]
fn a_record_past_the_longest_read_is_an_error_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let fasta = dir.path().join("ref.fa");
    write_fasta(&[("chr1".into(), Rng(3).bases(1000))], &fasta);
    let prefix = index(&fasta, dir.path(), "ref", "cpu");
    // One good record, then a sequence line that never ends.
    let out = map_stream(&prefix, |stdin| {
        let _ = stdin.write_all(b"@ok\nACGT\n+\nIIII\n@endless\n");
        let chunk = vec![b'A'; 1 << 20];
        for _ in 0..(galign::io::MAX_RECORD >> 20) + 16 {
            if stdin.write_all(&chunk).is_err() {
                return; // galign stopped reading, as it should
            }
        }
    });
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("stdin: record 2 is longer than 64 MiB, the longest FASTQ record"),
        "{stderr}"
    );
}

#[test]
fn a_read_past_the_gpu_mismatch_search_s_longest_maps_as_on_the_cpu() {
    // 2^26 bases, one more than the GPU's k-mismatch kernels take: under `auto` its
    // batch goes to the CPU (its packing for the GPU once panicked, GPU or not).
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(17);
    let reference = rng.bases(20_000);
    let fasta = dir.path().join("ref.fa");
    write_fasta(&[("chr1".into(), reference.clone())], &fasta);
    let prefix = index(&fasta, dir.path(), "ref", "cpu");
    let mut read = reference.into_bytes();
    read.resize(1 << 26, b'A');
    let input = [b">huge\n".as_slice(), &read, b"\n"].concat();
    let map = |device: &str| {
        let input = input.clone();
        with_stdin(
            galign()
                .args(["map", "-v", "1", "--device", device])
                .arg(&prefix)
                .arg("-"),
            move |stdin| stdin.write_all(&input).unwrap(),
        )
    };
    let (auto, cpu) = (map("auto"), map("cpu"));
    let stderr = String::from_utf8_lossy(&auto.stderr);
    assert!(auto.status.success(), "{stderr}");
    assert!(cpu.status.success());
    assert_eq!(records(&auto.stdout), records(&cpu.stdout));
    assert_eq!(records(&cpu.stdout).len(), 1);
}

/// A 2 kbp reference indexed on the CPU in `dir`, and one read of it: the prefix and the
/// FASTQ file.
fn one_read_of_a_small_reference(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let reference = Rng(5).bases(2000);
    let fasta = dir.join("ref.fa");
    write_fasta(&[("chr1".into(), reference.clone())], &fasta);
    let prefix = index(&fasta, dir, "ref", "cpu");
    let reads = dir.join("r.fq");
    write_fastq(&[("r1".into(), reference[100..150].into())], &reads);
    (prefix, reads)
}

/// The galign binary, copied where any user may run it (a test run as root runs it as
/// `nobody`, for whom the process limit counts).
fn runnable_copy(dir: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let copy = dir.join("galign");
    std::fs::copy(env!("CARGO_BIN_EXE_galign"), &copy).unwrap();
    for path in [dir, copy.as_path()] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    copy
}

#[test]
fn too_few_processes_allowed_is_an_error_not_a_panic() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let (prefix, reads) = one_read_of_a_small_reference(dir.path());
    let output = dir.path().join("out.sam");
    let galign = runnable_copy(dir.path());
    // 1: the workers' pool is refused; 3: the pool starts, a later thread is refused
    // (a panic inside Rust's thread start, before).
    for limit in [1, 3] {
        let mut map = Command::new(&galign);
        map.args(["map", "-t", "1", "--device", "cpu", "-o"])
            .arg(&output)
            .arg(&prefix)
            .arg(&reads);
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            map.pre_exec(move || {
                if libc::getuid() == 0 {
                    let nobody = 65534;
                    if libc::setgroups(0, std::ptr::null()) != 0
                        || libc::setgid(nobody) != 0
                        || libc::setuid(nobody) != 0
                    {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                let two = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_NPROC, &two) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let stderr = run_fail(&mut map);
        assert!(
            stderr.contains("galign: error: cannot start"),
            "{limit}: {stderr}"
        );
        assert!(stderr.contains("ulimit -u"), "{stderr}");
        // The cause once (it was printed twice: an error that shows its source, then
        // the source again).
        assert_eq!(
            stderr.matches("Resource temporarily unavailable").count(),
            1,
            "{stderr}"
        );
        assert_eq!(
            files_in(dir.path())
                .iter()
                .filter(|f| f.contains("out.sam"))
                .count(),
            0
        );
    }
}

#[test]
fn thread_counts_past_four_a_core_are_capped_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, reads) = one_read_of_a_small_reference(dir.path());
    let capped = run_ok(
        galign()
            .args(["map", "-t", "100000", "--device", "cpu"])
            .arg(&prefix)
            .arg(&reads),
    );
    let stderr = String::from_utf8_lossy(&capped.stderr);
    assert!(
        stderr.contains("-t 100000 is more than 4 threads a core"),
        "{stderr}"
    );
    let one = run_ok(
        galign()
            .args(["map", "-t", "1", "--device", "cpu"])
            .arg(&prefix)
            .arg(&reads),
    );
    assert_eq!(capped.stdout, one.stdout);
}

#[test]
fn running_out_of_memory_is_an_error_that_leaves_nothing() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let fasta = dir.path().join("ref.fa");
    write_fasta(&[("chr1".into(), Rng(7).bases(20_000_000))], &fasta);
    let mut build = galign();
    build
        .env_remove("RUST_BACKTRACE")
        .args(["index", "--device", "cpu", "-t", "2", "-p"])
        .arg(dir.path().join("ref"))
        .arg(&fasta);
    // SAFETY: only setrlimit between fork and exec. 300 MB of address space: the
    // program starts, the suffix sort's arrays do not fit.
    unsafe {
        build.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 300 << 20,
                rlim_max: 300 << 20,
            };
            match libc::setrlimit(libc::RLIMIT_AS, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let stderr = run_fail(&mut build);
    assert!(
        stderr.contains("galign: error: out of memory: an allocation of"),
        "{stderr}"
    );
    assert_eq!(files_in(dir.path()), ["ref.fa".to_string()].into());
}
