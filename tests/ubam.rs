//! Unaligned BAM as reads (issue 66, item 10): a uBAM made by `samtools import` from
//! FASTQ maps to the SAM the FASTQ maps to (`@PG`, whose command line names the inputs,
//! aside), single-end and paired (`-p`), from a file and from stdin; a truncated uBAM,
//! an aligned BAM's secondary record, records not flagged as the pairs asked for and
//! CRAM are refused with the file and the record.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::*;

/// The chrM reference (bundled), indexed in `dir`, and its bases.
fn chrm(dir: &Path) -> (PathBuf, String) {
    let prefix = index(&data("human_rCRS_chrM_NC_012920.fa.gz"), dir, "chrM", "cpu");
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(
        std::fs::File::open(data("human_rCRS_chrM_NC_012920.fa.gz")).unwrap(),
    )
    .read_to_string(&mut text)
    .unwrap();
    let bases = text.lines().skip(1).collect::<String>().to_uppercase();
    (prefix, bases)
}

/// `samtools import ARGS -o OUT`.
fn import(args: &[&Path], flags: &[&str], out: &Path) {
    let mut cmd = Command::new("samtools");
    cmd.arg("import");
    for (flag, path) in flags.iter().zip(args) {
        cmd.arg(flag).arg(path);
    }
    run_ok(cmd.arg("-o").arg(out));
}

/// `galign map ARGS` with `stdin` (a file) on its standard input, if any; its SAM
/// output without `@PG`, and its stderr.
fn map(args: &[&str], stdin: Option<&Path>) -> (String, String) {
    let mut cmd = galign();
    cmd.arg("map").args(args);
    if let Some(path) = stdin {
        cmd.stdin(Stdio::from(std::fs::File::open(path).unwrap()));
    }
    let out = run_ok(&mut cmd);
    let sam = String::from_utf8(out.stdout).unwrap();
    let without_pg = sam
        .lines()
        .filter(|l| !l.starts_with("@PG"))
        .collect::<Vec<_>>();
    (
        without_pg.join("\n"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn a_single_end_ubam_maps_as_its_fastq_from_a_file_and_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, _) = chrm(dir.path());
    // The first 2,000 reads of the bundled NA12878 chrM set (names ending /1 or /2).
    let mut text = String::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(data("NA12878_chrM_20k.fq.gz")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let fastq = dir.path().join("r.fq");
    let lines: Vec<&str> = text.lines().take(8000).collect();
    std::fs::write(&fastq, lines.join("\n") + "\n").unwrap();
    let bam = dir.path().join("r.bam");
    import(&[&fastq], &["-0"], &bam);
    let (from_fastq, _) = map(&["-t", "2", s(&prefix), s(&fastq)], None);
    assert!(from_fastq.lines().filter(|l| !l.starts_with('@')).count() >= 2000);
    let (from_bam, said) = map(&["-t", "2", s(&prefix), s(&bam)], None);
    assert_eq!(from_bam, from_fastq);
    // samtools flags reads named /1 and /2 as mates: they map as single reads, and
    // galign says how to map them as pairs.
    assert!(
        said.contains("flagged paired") && said.contains("-p"),
        "{said}"
    );
    let (from_stdin, _) = map(&["-t", "2", s(&prefix), "-"], Some(&bam));
    assert_eq!(from_stdin, from_fastq);
}

/// 500 pairs of 100 bp mates from `bases` (fragments of 250-400 bp, mate 2 on the reverse
/// strand, a mismatch in every seventh mate 1), as two FASTQ files in `dir`.
fn pairs(bases: &str, dir: &Path) -> (PathBuf, PathBuf) {
    let mut rng = Rng(66);
    let (mut r1, mut r2) = (Vec::new(), Vec::new());
    for i in 0..500 {
        let fragment = 250 + (rng.next() % 151) as usize;
        let at = (rng.next() as usize) % (bases.len() - fragment);
        let mut m1 = bases[at..at + 100].to_string();
        if i % 7 == 0 {
            let flipped = if m1.as_bytes()[50] == b'A' { "C" } else { "A" };
            m1.replace_range(50..51, flipped);
        }
        let m2 = revcomp(&bases[at + fragment - 100..at + fragment]);
        r1.push((format!("pair{i}"), m1));
        r2.push((format!("pair{i}"), m2));
    }
    let (p1, p2) = (dir.join("r1.fq"), dir.join("r2.fq"));
    write_fastq(&r1, &p1);
    write_fastq(&r2, &p2);
    (p1, p2)
}

#[test]
fn a_paired_ubam_maps_with_p_as_its_two_fastq_files() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, bases) = chrm(dir.path());
    let (r1, r2) = pairs(&bases, dir.path());
    let bam = dir.path().join("pairs.bam");
    import(&[&r1, &r2], &["-1", "-2"], &bam);
    let summary = |name: &str| dir.path().join(name);
    let (from_fastq, _) = map(
        &[
            s(&prefix),
            s(&r1),
            s(&r2),
            "--summary-file",
            s(&summary("fq.log")),
        ],
        None,
    );
    assert!(from_fastq.contains("\t99\tNC_012920") || from_fastq.contains("\t99\tchrM"));
    let (from_bam, said) = map(
        &[
            "-p",
            s(&prefix),
            s(&bam),
            "--summary-file",
            s(&summary("bam.log")),
        ],
        None,
    );
    assert_eq!(from_bam, from_fastq);
    assert!(!said.contains("warning"), "{said}");
    let read = |name| std::fs::read_to_string(summary(name)).unwrap();
    assert_eq!(read("bam.log"), read("fq.log"));
    assert!(read("bam.log").starts_with("500 reads; of these:\n  500 (100.00%) were paired"));
    let (from_stdin, _) = map(&["-p", s(&prefix), "-"], Some(&bam));
    assert_eq!(from_stdin, from_fastq);
    // Two uBAMs, a mate each, map as the two FASTQ files too.
    let (b1, b2) = (dir.path().join("r1.bam"), dir.path().join("r2.bam"));
    import(&[&r1], &["-0"], &b1);
    import(&[&r2], &["-0"], &b2);
    let (from_two, _) = map(&[s(&prefix), s(&b1), s(&b2)], None);
    assert_eq!(from_two, from_fastq);
}

#[test]
fn shared_paired_reads_map_alike_from_ubam() {
    let Some([reference, r1, r2]) = shared_files([
        "ref/ecoli_K12_MG1655.fa.gz",
        "reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz",
        "reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz",
    ]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let prefix = index(&reference, dir.path(), "ecoli", "cpu");
    let bam = dir.path().join("pairs.bam");
    import(&[&r1, &r2], &["-1", "-2"], &bam);
    let (from_fastq, _) = map(&[s(&prefix), s(&r1), s(&r2)], None);
    let (from_bam, _) = map(&["-p", s(&prefix), s(&bam)], None);
    assert_eq!(from_bam, from_fastq);
}

/// `galign map PREFIX [-p] INPUT`, which must fail; its stderr.
fn refused(prefix: &Path, input: &Path, pairs: bool) -> String {
    let mut cmd = galign();
    cmd.args(["map", "-o"]).arg(input.with_extension("out.sam"));
    if pairs {
        cmd.arg("-p");
    }
    let e = run_fail(cmd.arg(prefix).arg(input));
    assert!(!input.with_extension("out.sam").exists());
    e
}

/// BAM from SAM text through `samtools view -b`.
fn bam_of(sam: &str, dir: &Path, name: &str) -> PathBuf {
    let (sam_path, bam) = (dir.join(format!("{name}.sam")), dir.join(name));
    std::fs::write(&sam_path, sam).unwrap();
    run_ok(
        Command::new("samtools")
            .args(["view", "-b", "-o"])
            .arg(&bam)
            .arg(&sam_path),
    );
    bam
}

#[test]
fn bad_ubams_are_refused_with_the_file_and_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (prefix, bases) = chrm(d);
    let (r1, r2) = pairs(&bases, d);
    let bam = d.join("pairs.bam");
    import(&[&r1, &r2], &["-1", "-2"], &bam);
    // Cut inside a record (the BAM inflated, cut, gzipped again: whole members).
    let mut inflated = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(&bam).unwrap())
        .read_to_end(&mut inflated)
        .unwrap();
    let cut = d.join("cut.bam");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &inflated[..inflated.len() / 2]).unwrap();
    std::fs::write(&cut, gz.finish().unwrap()).unwrap();
    let e = refused(&prefix, &cut, true);
    assert!(
        e.contains(&format!("{}: BAM record", cut.display())) && e.contains("is truncated"),
        "{e}"
    );
    // Cut inside a BGZF block.
    let bytes = std::fs::read(&bam).unwrap();
    let cut_block = d.join("cut_block.bam");
    std::fs::write(&cut_block, &bytes[..bytes.len() - 5000]).unwrap();
    let e = refused(&prefix, &cut_block, true);
    assert!(
        e.contains(&cut_block.display().to_string()) && e.contains("truncated"),
        "{e}"
    );
    // An aligned BAM with a secondary record.
    let header = "@HD\tVN:1.6\n@SQ\tSN:chrM\tLN:16569\n";
    let record = |name: &str, flag: u16, pos: u32| {
        format!("{name}\t{flag}\tchrM\t{pos}\t60\t8M\t*\t0\t0\tACGTACGT\tIIIIIIII\n")
    };
    let aligned = bam_of(
        &format!("{header}{}{}", record("a", 0, 10), record("a", 256, 500)),
        d,
        "aligned.bam",
    );
    let e = refused(&prefix, &aligned, false);
    assert!(
        e.contains(&format!(
            "{}: record 2 ('a') is a secondary alignment",
            aligned.display()
        )) && e.contains("samtools fastq"),
        "{e}"
    );
    // Single reads asked for as pairs.
    let unmapped = |name: &str| format!("{name}\t4\t*\t0\t0\t*\t*\t0\t0\tACGTACGT\tIIIIIIII\n");
    let single = bam_of(
        &format!("{header}{}{}", unmapped("s1"), unmapped("s2")),
        d,
        "single.bam",
    );
    let e = refused(&prefix, &single, true);
    assert!(e.contains("record 1 ('s1', flag 0x4) is not mate 1"), "{e}");
    // CRAM: refused, with the conversion to give.
    let cram = d.join("pairs.cram");
    run_ok(
        Command::new("samtools")
            .args(["view", "-C", "-o"])
            .arg(&cram)
            .arg(&bam),
    );
    let e = refused(&prefix, &cram, true);
    assert!(
        e.contains("this is a CRAM file") && e.contains("samtools"),
        "{e}"
    );
}
