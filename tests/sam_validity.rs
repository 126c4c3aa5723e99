//! Inputs whose bytes would end up in SAM fields that cannot hold them (issue 61): a tab
//! or newline in the command line (`@PG CL`), read names and qualities outside SAM's
//! ranges, contig names SAM forbids, a read-group line with a tag twice, and a FASTA
//! read longer than galign reads. Each is escaped (the command line) or refused with an
//! error naming the input and the record; whatever is written, samtools reads.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// A small reference indexed on the CPU, and 20 reads of it, in `dir`.
fn setup(dir: &Path) -> (PathBuf, PathBuf) {
    let reference = Rng(61).bases(5000);
    let fasta = dir.join("ref.fa");
    write_fasta(&[("chr1".into(), reference.clone())], &fasta);
    let prefix = index(&fasta, dir, "ref", "cpu");
    let reads: Vec<(String, String)> = (0..20)
        .map(|i| {
            (
                format!("r{i}"),
                reference[i * 100..i * 100 + 50].to_string(),
            )
        })
        .collect();
    let fastq = dir.join("r.fq");
    write_fastq(&reads, &fastq);
    (prefix, fastq)
}

/// Whether samtools is installed (the CI installs it; a bare machine skips the reads
/// back, saying so).
fn samtools() -> bool {
    let found = Command::new("samtools").arg("--version").output().is_ok();
    if !found {
        eprintln!("samtools not found: the output is not read back");
    }
    found
}

#[test]
fn tabs_and_newlines_in_arguments_are_escaped_in_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, fastq) = setup(dir.path());
    let odd_reads = dir.path().join("a\tb.fq");
    std::fs::copy(&fastq, &odd_reads).unwrap();
    for output in ["o\nx.sam", "o\tx.bam", "plain.bam"] {
        let out = dir.path().join(output);
        run_ok(
            galign()
                .args(["map", "--device", "cpu", "-o"])
                .arg(&out)
                .arg(&prefix)
                .arg(&odd_reads),
        );
        if !samtools() {
            continue;
        }
        let header = run_ok(Command::new("samtools").arg("view").arg("-H").arg(&out));
        let header = String::from_utf8_lossy(&header.stdout);
        let pg = header
            .lines()
            .find(|l| l.starts_with("@PG\tID:galign"))
            .expect("@PG");
        assert!(pg.contains("a\\tb.fq"), "{pg}");
        assert_eq!(pg.matches('\t').count(), 4, "{pg}");
        let records = run_ok(Command::new("samtools").arg("view").arg("-c").arg(&out));
        assert_eq!(String::from_utf8_lossy(&records.stdout).trim(), "20");
    }
}

/// Maps a FASTQ file holding `text` and returns the error.
fn map_fails(prefix: &Path, dir: &Path, text: &[u8]) -> String {
    let fastq = dir.join("bad.fq");
    std::fs::write(&fastq, text).unwrap();
    run_fail(
        galign()
            .args(["map", "--device", "cpu"])
            .arg(prefix)
            .arg(&fastq),
    )
}

#[test]
fn read_names_sam_forbids_are_errors_naming_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, _) = setup(dir.path());
    let good = "@ok\nACGT\n+\nIIII\n";
    for (record, expected) in [
        (
            "@@r1\nACGT\n+\nIIII\n",
            "read name '@r1' holds '@' at character 1",
        ),
        ("@\nACGT\n+\nIIII\n", "the read has no name"),
        ("@\tx\nACGT\n+\nIIII\n", "the read has no name"),
        ("@r\x01x\nACGT\n+\nIIII\n", "byte 0x01 at character 2"),
    ] {
        let error = map_fails(&prefix, dir.path(), format!("{good}{record}").as_bytes());
        assert!(error.contains("bad.fq: record 2 (line 5): "), "{error}");
        assert!(error.contains(expected), "{error}");
    }
    // The same rule for FASTA reads.
    let error = map_fails(&prefix, dir.path(), b">ok\nACGT\n>@r2\nACGT\n");
    assert!(
        error.contains("bad.fq: record 2: read name '@r2'"),
        "{error}"
    );
}

#[test]
fn qualities_outside_phred33_are_errors_naming_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, _) = setup(dir.path());
    for (qual, expected) in [
        (&b"II\x7fI"[..], "byte 0x7f at base 3"),
        (b"I I ", "' ' (a space) at base 2"),
        (b"\x1fIII", "byte 0x1f at base 1"),
    ] {
        let mut text = b"@ok\nACGT\n+\nIIII\n@r2\nACGT\n+\n".to_vec();
        text.extend_from_slice(qual);
        text.push(b'\n');
        let error = map_fails(&prefix, dir.path(), &text);
        assert!(
            error.contains("bad.fq: record 2 (line 8): quality "),
            "{error}"
        );
        assert!(error.contains(expected), "{error}");
    }
}

/// Indexes `fasta` into `dir/odd`, which must fail; returns the error.
fn index_fails(dir: &Path, fasta: &Path) -> String {
    run_fail(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(dir.join("odd"))
            .arg(fasta),
    )
}

#[test]
fn contig_names_sam_forbids_are_refused_naming_the_contig_and_line() {
    let dir = tempfile::tempdir().unwrap();
    for (name, expected) in [
        (&b"*"[..], "starts with '*'"),
        (b"=x", "starts with '='"),
        (b"b,c", "holds ',' at character 2"),
        (b"caf\xc3\xa9", "holds byte 0xc3 at character 4"),
        (b"a(1)", "holds '(' at character 2"),
    ] {
        let fasta = dir.path().join("odd.fa");
        let mut text = b">ok first\nACGT\nACGT\n>".to_vec();
        text.extend_from_slice(name);
        text.extend_from_slice(b" description\nACGT\n");
        std::fs::write(&fasta, &text).unwrap();
        let error = index_fails(dir.path(), &fasta);
        assert!(
            error.contains("odd.fa: record 2 (line 4): contig name"),
            "{error}"
        );
        assert!(error.contains(expected), "{error}");
        assert!(!dir.path().join("odd.galign").exists());
    }
}

#[test]
fn a_bad_base_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let fasta = dir.path().join("odd.fa");
    std::fs::write(&fasta, ">a\nACGT\r\nAC\r\n>b\nACGT\nAC-T\n").unwrap();
    let error = index_fails(dir.path(), &fasta);
    assert!(
        error.contains("contig 'b', position 7 (line 6): '-'"),
        "{error}"
    );
}

#[test]
fn a_read_group_with_a_tag_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, fastq) = setup(dir.path());
    let error = run_fail(
        galign()
            .args(["map", "--device", "cpu", "-R", r"@RG\tID:a\tSM:x\tID:b"])
            .arg(&prefix)
            .arg(&fastq),
    );
    assert!(error.contains("tag ID is given twice"), "{error}");
}

#[test]
fn a_fasta_read_past_the_longest_record_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, _) = setup(dir.path());
    let fasta = dir.path().join("genome.fa");
    let mut text = b">small\nACGTACGT\n>huge\n".to_vec();
    let line = [b"ACGTTGCA".repeat(10).as_slice(), b"\n"].concat();
    while text.len() <= galign::io::MAX_FASTA_RECORD + 100 {
        text.extend_from_slice(&line);
    }
    std::fs::write(&fasta, &text).unwrap();
    let error = run_fail(
        galign()
            .args(["map", "--device", "cpu"])
            .arg(&prefix)
            .arg(&fasta),
    );
    assert!(error.contains("genome.fa"), "{error}");
    assert!(error.contains("record 2 is longer than 128 MiB"), "{error}");
}
