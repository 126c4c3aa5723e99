//! The hit sets of `galign map -v K -a` equal those of `bowtie -v K -a` (an independent
//! matcher) for K = 0 (exact) to 3 on every real read set: (read, strand, contig,
//! position, mismatches), compared as sets, not counts. (bowtie and galign agreed on
//! every set when this was written, so no brute-force referee is needed here; the
//! brute-force checks are in `map_cli.rs` and `map_mismatches.rs`.)

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use common::*;

/// bowtie's hits for `reads` against `reference` (built into `dir`) with up to `k`
/// mismatches.
fn bowtie_hits(reference: &Path, reads: &Path, dir: &Path, k: u8) -> BTreeSet<Scored> {
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
    if k == 0 {
        let plain = run_ok(
            Command::new("sh")
                .arg("-c")
                .arg(format!("zcat -f '{}'", reads.display())),
        )
        .stdout;
        std::fs::write(&fq, plain).unwrap();
    }
    let out = run_ok(
        Command::new("bowtie")
            .args(["-v", &k.to_string(), "-a", "-p", "2", "-x"])
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
            // Field 8 lists the mismatches, comma-separated (empty: none).
            let mismatches = f[7].split(',').filter(|m| !m.is_empty()).count() as u8;
            let hit = (
                name,
                f[1] == "-",
                f[2].split_whitespace().next().unwrap().to_string(),
                f[3].parse().unwrap(),
            );
            (hit, mismatches)
        })
        .collect()
}

fn galign_hits(prefix: &Path, reads: &Path, k: u8) -> BTreeSet<Scored> {
    let mut map = galign();
    map.args(["map", "-a", "--device", "cpu"]);
    if k > 0 {
        map.args(["-v", &k.to_string()]);
    }
    let sam = String::from_utf8(run_ok(map.arg(prefix).arg(reads)).stdout).unwrap();
    let hits = sam_hits(&sam);
    let scored = sam_mismatches(&sam);
    assert_eq!(scored.len(), hits.len(), "every hit has one NM");
    assert!(scored.iter().all(|(h, _)| hits.contains(h)));
    scored
}

fn compare(reference: &Path, read_sets: &[&Path]) {
    let dir = tempfile::tempdir().unwrap();
    let prefix = index(reference, dir.path(), "ref", "cpu");
    for reads in read_sets {
        let mut found = Vec::new();
        for k in 0..=3 {
            let expected = bowtie_hits(reference, reads, dir.path(), k);
            let got = galign_hits(&prefix, reads, k);
            assert!(
                !expected.is_empty(),
                "bowtie found no hit for {}",
                reads.display()
            );
            let missing: Vec<_> = expected.difference(&got).take(5).collect();
            let extra: Vec<_> = got.difference(&expected).take(5).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{} -v {k}: {} bowtie hits, {} galign hits; missing {missing:?}; extra {extra:?}",
                reads.display(),
                expected.len(),
                got.len()
            );
            found.push(got.len());
        }
        assert!(
            found.windows(2).all(|w| w[0] < w[1]),
            "{}: each K finds more hits: {found:?}",
            reads.display()
        );
    }
}

#[test]
fn human_chrm_reads() {
    let Some([reference, reads]) = shared_files([
        "ref/human_rCRS_chrM_NC_012920.fa.gz",
        "reads/NA12878_chrM_cnvkit.fq.gz",
    ]) else {
        return;
    };
    compare(&reference, &[reads.as_path()]);
}

#[test]
fn ecoli_paired_reads_each_mate() {
    let Some([reference, reads1, reads2]) = shared_files([
        "ref/ecoli_K12_MG1655.fa.gz",
        "reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz",
        "reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz",
    ]) else {
        return;
    };
    compare(&reference, &[reads1.as_path(), reads2.as_path()]);
}

#[test]
fn celegans_multi_contig_reads() {
    let Some([reference, reads]) = shared_files([
        "ref/celegans_ce_htslib_1Mb.fa.gz",
        "reads/celegans_SRR065390_1000.fq.gz",
    ]) else {
        return;
    };
    compare(&reference, &[reads.as_path()]);
}

#[test]
fn samtools_ex1_short_reads() {
    let Some([reference, reads]) =
        shared_files(["ref/samtools_ex1.fa.gz", "reads/samtools_ex1_35bp.fq.gz"])
    else {
        return;
    };
    compare(&reference, &[reads.as_path()]);
}

#[test]
fn human_chr20_reads() {
    let Some([reference, reads]) = shared_files([
        "ref/human_GRCh37_chr20.fa.gz",
        "reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz",
    ]) else {
        return;
    };
    compare(&reference, &[reads.as_path()]);
}
