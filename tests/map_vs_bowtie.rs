//! The hit sets of `galign map -a` equal those of `bowtie -v 0 -a` (an independent
//! exact matcher) on every real read set: (read, strand, contig, position), compared as
//! sets, not counts.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use common::*;

/// bowtie's hits for `reads` against `reference` (built into `dir`).
fn bowtie_hits(reference: &Path, reads: &Path, dir: &Path) -> BTreeSet<HitKey> {
    let fasta = dir.join("ref.fa");
    let plain = run_ok(
        Command::new("sh")
            .arg("-c")
            .arg(format!("zcat -f '{}'", reference.display())),
    )
    .stdout;
    std::fs::write(&fasta, plain).unwrap();
    let bt = dir.join("bt");
    if !dir.join("bt.1.ebwt").exists() {
        run_ok(
            Command::new("bowtie-build")
                .args(["-q", "--threads", "2"])
                .arg(&fasta)
                .arg(&bt),
        );
    }
    let fq = dir.join("reads.fq");
    let plain = run_ok(
        Command::new("sh")
            .arg("-c")
            .arg(format!("zcat -f '{}'", reads.display())),
    )
    .stdout;
    std::fs::write(&fq, plain).unwrap();
    let out = run_ok(
        Command::new("bowtie")
            .args(["-v", "0", "-a", "-p", "2", "-x"])
            .arg(&bt)
            .arg("-q")
            .arg(&fq),
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let name = strip_mate(f[0].split_whitespace().next().unwrap()).to_string();
            (
                name,
                f[1] == "-",
                f[2].split_whitespace().next().unwrap().to_string(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

fn galign_hits(prefix: &Path, reads: &Path) -> BTreeSet<HitKey> {
    let out = run_ok(
        galign()
            .args(["map", "-a", "--device", "cpu"])
            .arg(prefix)
            .arg(reads),
    );
    sam_hits(&String::from_utf8(out.stdout).unwrap())
}

fn compare(reference: &Path, read_sets: &[&Path]) {
    let dir = tempfile::tempdir().unwrap();
    let prefix = index(reference, dir.path(), "ref", "cpu");
    for reads in read_sets {
        let expected = bowtie_hits(reference, reads, dir.path());
        let got = galign_hits(&prefix, reads);
        assert!(
            !expected.is_empty(),
            "bowtie found no hit for {}",
            reads.display()
        );
        let missing: Vec<_> = expected.difference(&got).take(5).collect();
        let extra: Vec<_> = got.difference(&expected).take(5).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{}: {} bowtie hits, {} galign hits; missing {missing:?}; extra {extra:?}",
            reads.display(),
            expected.len(),
            got.len()
        );
    }
}

#[test]
fn human_chrm_reads() {
    compare(
        &shared("ref/human_rCRS_chrM_NC_012920.fa.gz"),
        &[&shared("reads/NA12878_chrM_cnvkit.fq.gz")],
    );
}

#[test]
fn ecoli_paired_reads_each_mate() {
    compare(
        &shared("ref/ecoli_K12_MG1655.fa.gz"),
        &[
            &shared("reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz"),
            &shared("reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz"),
        ],
    );
}

#[test]
fn celegans_multi_contig_reads() {
    compare(
        &shared("ref/celegans_ce_htslib_1Mb.fa.gz"),
        &[&shared("reads/celegans_SRR065390_1000.fq.gz")],
    );
}

#[test]
fn samtools_ex1_short_reads() {
    compare(
        &shared("ref/samtools_ex1.fa.gz"),
        &[&shared("reads/samtools_ex1_35bp.fq.gz")],
    );
}

#[test]
fn human_chr20_reads() {
    compare(
        &shared("ref/human_GRCh37_chr20.fa.gz"),
        &[&shared("reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz")],
    );
}
