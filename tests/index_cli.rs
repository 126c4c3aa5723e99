//! `galign index` and `galign sa`: suffix arrays against libsais on real genomes, the
//! BWT inverting to the text, and clear errors for bad input that leave no file behind.

mod common;

use std::path::Path;

use common::*;
use galign::index::Index;
use galign::reference::read_fasta;
use libsais::{SuffixArrayConstruction, ThreadCount};

fn libsais_sa(ascii: &[u8]) -> Vec<i64> {
    let sa: Vec<i32> = SuffixArrayConstruction::for_text(ascii)
        .in_owned_buffer()
        .multi_threaded(ThreadCount::fixed(2))
        .run()
        .expect("libsais")
        .into_vec();
    sa.into_iter().map(i64::from).collect()
}

/// The shared references (where present) and the bundled ones.
fn references() -> Vec<std::path::PathBuf> {
    let mut refs: Vec<_> = shared_root()
        .map(|root| std::fs::read_dir(root.join("ref")).unwrap())
        .into_iter()
        .flatten()
        .map(|e| e.unwrap().path())
        .collect();
    refs.extend(
        [
            "human_rCRS_chrM_NC_012920.fa.gz",
            "lambda_virus.fa.gz",
            "phiX174.fa.gz",
        ]
        .map(data),
    );
    refs.sort();
    refs
}

#[test]
fn suffix_arrays_of_real_references_equal_libsais() {
    for path in references() {
        let reference = read_fasta(&path).unwrap();
        let ours: Vec<u32> = galign::sa::suffix_array(&reference.text);
        let expected = libsais_sa(&reference.text.to_ascii());
        assert!(ours.len() == expected.len(), "{}", path.display());
        assert!(
            ours.iter().zip(&expected).all(|(&a, &b)| a as i64 == b),
            "{}: suffix array differs",
            path.display()
        );
    }
}

#[test]
fn sa_command_writes_the_libsais_array() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.sa");
    let reference = data("lambda_virus.fa.gz");
    run_ok(
        galign()
            .args(["sa", "--device", "cpu", "-o"])
            .arg(&out)
            .arg(&reference),
    );
    let bytes = std::fs::read(&out).unwrap();
    let written: Vec<i64> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()) as i64)
        .collect();
    let text = read_fasta(&reference).unwrap().text.to_ascii();
    assert_eq!(written, libsais_sa(&text));
    assert_eq!(files_in(dir.path()).len(), 1, "no temporary file left");
}

#[test]
fn index_bwt_inverts_to_the_text_and_records_layout() {
    let Some(reference) = shared_file("ref/kpneumoniae_HS11286.fa.gz") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let prefix = index(&reference, dir.path(), "kp", "cpu");
    let index = Index::open(&prefix).unwrap();
    let fm = index.fm();
    let text = index.text();
    let n = text.len();
    // Walk LF from the sentinel's row: it spells the text backwards.
    let mut row = 0u64;
    for i in (0..n).rev() {
        let symbol = fm.occ.symbol(row);
        assert_eq!(
            symbol,
            text.get(i),
            "BWT inversion differs at text position {i}"
        );
        row = fm.lf(row);
    }
    assert_eq!(
        row,
        fm.occ.primary(),
        "n LF steps reach the row of the whole text"
    );
    let layout = index.layout();
    assert_eq!(layout.contigs.len(), 7);
    assert_eq!(layout.text_len() as usize, n);
    assert_eq!(layout.ambiguous.len(), 1, "the one N of HS11286");
    assert_eq!(read_fasta(&reference).unwrap().text, text);
}

#[test]
fn index_is_byte_identical_across_thread_counts() {
    let dir = tempfile::tempdir().unwrap();
    let reference = data("celegans_ce_htslib_1Mb.fa.gz");
    for t in ["1", "2", "5"] {
        run_ok(
            galign()
                .args(["index", "--device", "cpu", "-t", t, "-p"])
                .arg(dir.path().join(t))
                .arg(&reference),
        );
    }
    let one = std::fs::read(dir.path().join("1.galign")).unwrap();
    assert_eq!(one, std::fs::read(dir.path().join("2.galign")).unwrap());
    assert_eq!(one, std::fs::read(dir.path().join("5.galign")).unwrap());
}

/// Writes `fasta` to a file, runs `galign index` on it, and returns the stderr of the
/// failure after checking that only the input is left in the directory.
fn index_error(fasta: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.fa");
    std::fs::write(&path, fasta).unwrap();
    let stderr = run_fail(galign().args(["index", "--device", "cpu"]).arg(&path));
    assert_eq!(
        files_in(dir.path()),
        ["bad.fa".to_string()].into(),
        "no index files left behind"
    );
    assert!(stderr.contains("bad.fa"), "error names the file: {stderr}");
    stderr
}

#[test]
fn bad_references_are_clear_errors() {
    assert!(index_error(b"").contains("empty"));
    let e = index_error(b">a\nACGT\n>b\n>c\nAC\n");
    assert!(e.contains("'b'") && e.contains("no sequence"), "{e}");
    let e = index_error(b">a\nACGT\n>b x\nAC\n>a\nGG\n");
    assert!(
        e.contains("'a'") && e.contains("record 1") && e.contains("record 3"),
        "{e}"
    );
    let e = index_error(b">chr1\nACGT\nAC-T\n");
    assert!(
        e.contains("'chr1'") && e.contains("position 7") && e.contains("'-'"),
        "{e}"
    );
    let e = index_error(b">chr1\nAC1T\n");
    assert!(e.contains("position 3"), "{e}");
    let e = index_error(b"@r\nACGT\n+\nIIII\n");
    assert!(e.contains("FASTQ"), "{e}");
    let e = index_error(b"hello\n");
    assert!(e.contains("malformed"), "{e}");
    let missing = run_fail(galign().args(["index", "/nonexistent/ref.fa"]));
    assert!(missing.contains("/nonexistent/ref.fa"), "{missing}");
}

#[test]
fn corrupt_or_foreign_indexes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = index(&data("phiX174.fa.gz"), dir.path(), "phix", "cpu");
    let path = dir.path().join("phix.galign");
    let good = std::fs::read(&path).unwrap();
    let reads = data("samtools_ex1_35bp.fq.gz");
    let map_error = || run_fail(galign().arg("map").arg(&prefix).arg(&reads));

    let mut flipped = good.clone();
    let last = flipped.len() - 100;
    flipped[last] ^= 0x40;
    std::fs::write(&path, &flipped).unwrap();
    assert!(map_error().contains("checksum"));

    let mut version = good.clone();
    version[8] = 99;
    std::fs::write(&path, &version).unwrap();
    assert!(map_error().contains("version 99"));
    // An index of format 1 (before the mirror index) names the command that rebuilds it.
    version[8] = 1;
    std::fs::write(&path, &version).unwrap();
    let e = map_error();
    assert!(
        e.contains("version 1,") && e.contains("galign index -p"),
        "{e}"
    );
    // So do those of format 2 (before 64-bit positions) and 3 (two jump-table entries a
    // k-mer).
    for old in [2, 3] {
        version[8] = old;
        std::fs::write(&path, &version).unwrap();
        let e = map_error();
        assert!(
            e.contains(&format!("version {old},"))
                && e.contains("reads version 4")
                && e.contains("galign index -p"),
            "{e}"
        );
    }

    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    assert!(map_error().contains("truncated"));

    std::fs::write(&path, b"not an index").unwrap();
    assert!(map_error().contains("not a galign index"));

    std::fs::remove_file(&path).unwrap();
    assert!(map_error().contains("phix.galign"));
}

#[test]
fn device_gpu_without_a_gpu_is_a_clear_error_and_auto_falls_back() {
    if Path::new("/dev/nvidia0").exists() {
        return; // a GPU machine: the GPU check script covers this host
    }
    let dir = tempfile::tempdir().unwrap();
    let reference = data("phiX174.fa.gz");
    let e = run_fail(
        galign()
            .args(["index", "--device", "gpu", "-p"])
            .arg(dir.path().join("x"))
            .arg(&reference),
    );
    assert!(e.contains("--device gpu"), "{e}");
    assert!(files_in(dir.path()).is_empty());
    let out = run_ok(
        galign()
            .args(["index", "--device", "auto", "-p"])
            .arg(dir.path().join("x"))
            .arg(&reference),
    );
    let said = String::from_utf8_lossy(&out.stderr);
    // Said once, though the mirror's index and the forward one each fall back.
    assert_eq!(said.matches("GPU not used").count(), 1, "{said}");
    assert!(said.contains("CPU"));
    assert!(dir.path().join("x.galign").exists());
}

#[test]
fn index_within_a_memory_budget_is_the_same_file() {
    let Some(ecoli) = shared_file("ref/ecoli_K12_MG1655.fa.gz") else {
        return; // 4.64 Mbp
    };
    let dir = tempfile::tempdir().unwrap();
    let build = |name: &str, extra: &[&str]| {
        let prefix = dir.path().join(name);
        let out = run_ok(
            galign()
                .args(["index", "-v", "--device", "cpu", "-p"])
                .arg(&prefix)
                .args(extra)
                .arg(&ecoli),
        );
        let log = String::from_utf8_lossy(&out.stderr).into_owned();
        (std::fs::read(prefix.with_extension("galign")).unwrap(), log)
    };
    let (whole, _) = build("whole", &[]);
    // Room for the whole-text sorter, a few parts, many parts.
    for (budget, partitioned) in [("1G", false), ("120M", true), ("80M", true)] {
        let (bytes, log) = build(budget, &["--memory", budget]);
        assert_eq!(log.contains("in parts"), partitioned, "{budget}: {log}");
        assert!(bytes == whole, "--memory {budget}: index differs");
    }
    let err = run_fail(
        galign()
            .args(["index", "--device", "cpu", "--memory", "60M", "-p"])
            .arg(dir.path().join("small"))
            .arg(&ecoli),
    );
    assert!(
        err.contains("--memory") && err.contains("at least"),
        "{err}"
    );
    assert!(!dir.path().join("small.galign").exists());
    // The least budget named (in --memory's units) works when given back.
    let least = err
        .split("at least ")
        .nth(1)
        .and_then(|s| s.split(' ').next());
    let least = least.unwrap_or_else(|| panic!("no size in: {err}"));
    let (bytes, _) = build("least", &["--memory", least]);
    assert!(bytes == whole, "--memory {least}: index differs");
    // A device budget too small for the text is refused before any device is opened.
    let err = run_fail(
        galign()
            .args(["index", "--device", "auto", "--gpu-memory", "60M", "-p"])
            .arg(dir.path().join("small"))
            .arg(&ecoli),
    );
    assert!(
        err.contains("--gpu-memory") && err.contains("at least 93.3M (97805200 bytes)"),
        "{err}"
    );
    assert!(!dir.path().join("small.galign").exists());
    // The size the message names, given back, passes the check (then `auto` builds on
    // whatever device it finds).
    run_ok(
        galign()
            .args(["index", "--device", "auto", "--gpu-memory", "93.3M", "-p"])
            .arg(dir.path().join("small"))
            .arg(&ecoli),
    );
    assert!(dir.path().join("small.galign").exists());
    let out = galign()
        .args(["index", "--memory", "lots", "-p", "x"])
        .arg(&ecoli)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "a usage error: {err}");
    assert!(err.contains("expected a size such as 16G"), "{err}");
}

/// An output that cannot be created (its directory is a regular file, as for a mistyped
/// path; a read-only directory does not stop root, which CI runs as) is a clear error
/// naming it, with nothing written beside it, for `index` and `map` alike.
#[test]
fn outputs_that_cannot_be_created_are_clear_errors_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let not_a_dir = dir.path().join("afile");
    std::fs::write(&not_a_dir, b"").unwrap();
    let err = run_fail(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(not_a_dir.join("x"))
            .arg(data("phiX174.fa.gz")),
    );
    assert!(
        err.contains(&format!(
            "cannot write index {}",
            not_a_dir.join("x.galign").display()
        )),
        "{err}"
    );
    let prefix = dir.path().join("phix");
    run_ok(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(&prefix)
            .arg(data("phiX174.fa.gz")),
    );
    let err = run_fail(
        galign()
            .args(["map", "--device", "cpu"])
            .arg(&prefix)
            .arg(data("samtools_ex1_35bp.fq.gz"))
            .arg("-o")
            .arg(not_a_dir.join("out.sam")),
    );
    assert!(
        err.contains(&format!(
            "cannot write {}",
            not_a_dir.join("out.sam").display()
        )),
        "{err}"
    );
    assert_eq!(
        files_in(dir.path()).into_iter().collect::<Vec<_>>(),
        ["afile", "phix.galign"]
    );
}

/// `galign` run as a user that cannot write into a read-only directory: the unprivileged
/// `nobody` (through `setpriv`) where the tests run as root, as CI does (root writes
/// into read-only directories anyway), else the user running the tests.
fn galign_without_write_access(dir: &Path) -> std::process::Command {
    use std::os::unix::fs::MetadataExt;
    let probe = dir.join("owner");
    std::fs::write(&probe, b"").unwrap();
    let root = std::fs::metadata(&probe).unwrap().uid() == 0;
    std::fs::remove_file(&probe).unwrap();
    if !root {
        return galign();
    }
    // A copy of the binary where `nobody` reaches it (the checkout may be in a private
    // directory).
    let binary = dir.join("galign");
    if !binary.exists() {
        std::fs::copy(env!("CARGO_BIN_EXE_galign"), &binary).unwrap();
    }
    let mut cmd = std::process::Command::new("setpriv");
    cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(binary);
    cmd
}

/// An output in a read-only directory is a clear error naming it (`index` and `map`),
/// with nothing written there.
#[test]
fn a_read_only_output_directory_is_a_clear_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |path: &Path, mode| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    mode(dir.path(), 0o755);
    let fasta = dir.path().join("phix.fa.gz");
    std::fs::copy(data("phiX174.fa.gz"), &fasta).unwrap();
    let reads = dir.path().join("reads.fq.gz");
    std::fs::copy(data("samtools_ex1_35bp.fq.gz"), &reads).unwrap();
    let prefix = dir.path().join("phix");
    run_ok(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(&prefix)
            .arg(&fasta),
    );
    let read_only = dir.path().join("ro");
    std::fs::create_dir(&read_only).unwrap();
    mode(&read_only, 0o555);
    let err = run_fail(
        galign_without_write_access(dir.path())
            .args(["index", "--device", "cpu", "-p"])
            .arg(read_only.join("x"))
            .arg(&fasta),
    );
    let index = read_only.join("x.galign");
    assert!(
        err.contains(&format!("cannot write index {}", index.display())),
        "{err}"
    );
    let out = read_only.join("out.sam");
    let err = run_fail(
        galign_without_write_access(dir.path())
            .args(["map", "--device", "cpu"])
            .arg(&prefix)
            .arg(&reads)
            .arg("-o")
            .arg(&out),
    );
    assert!(
        err.contains(&format!("cannot write {}", out.display())),
        "{err}"
    );
    assert!(
        files_in(&read_only).is_empty(),
        "{:?}",
        files_in(&read_only)
    );
}

/// `--gpus` takes a positive number or `all` (a usage error otherwise) and does not
/// change a CPU build.
#[test]
fn gpus_option_is_checked_and_leaves_the_cpu_build_alone() {
    for bad in ["0", "two", "1.5"] {
        let out = galign()
            .args(["index", "--gpus", bad, "-p", "x"])
            .arg(data("phiX174.fa.gz"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--gpus {bad}: {err}");
        assert!(err.contains("--gpus") && err.contains("'all'"), "{err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let build = |name: &str, gpus: &[&str]| {
        let prefix = dir.path().join(name);
        run_ok(
            galign()
                .args(["index", "--device", "cpu", "-p"])
                .arg(&prefix)
                .args(gpus)
                .arg(data("phiX174.fa.gz")),
        );
        std::fs::read(prefix.with_extension("galign")).unwrap()
    };
    let plain = build("plain", &[]);
    assert!(build("two", &["--gpus", "2"]) == plain);
    assert!(build("all", &["--gpus", "all"]) == plain);
}

#[test]
fn sa_algorithm_option_is_checked_and_leaves_the_cpu_build_alone() {
    for command in ["sa", "index"] {
        let out = galign()
            .args([command, "--sa-algorithm", "quick", "-o", "x", "-p", "x"])
            .arg(data("phiX174.fa.gz"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        assert!(
            err.contains("--sa-algorithm") && err.contains("skew"),
            "{err}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let build = |command: &str, name: &str, algorithm: &[&str]| {
        let path = dir.path().join(name);
        let to = if command == "sa" { "-o" } else { "-p" };
        run_ok(
            galign()
                .args([command, "--device", "cpu", to])
                .arg(&path)
                .args(algorithm)
                .arg(data("phiX174.fa.gz")),
        );
        let file = if command == "sa" {
            path
        } else {
            path.with_extension("galign")
        };
        std::fs::read(file).unwrap()
    };
    for command in ["sa", "index"] {
        let plain = build(command, &format!("{command}-plain"), &[]);
        for algorithm in ["doubling", "skew", "hybrid"] {
            let name = format!("{command}-{algorithm}");
            let with = build(command, &name, &["--sa-algorithm", algorithm]);
            assert!(with == plain, "{command} --sa-algorithm {algorithm}");
        }
    }
}
