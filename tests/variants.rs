//! Downstream, as a user would run it: the real HG002 reads of chr20:10.0-10.1 Mb mapped
//! to a 300 kbp slice of GRCh37 chr20 around them, sorted BAM, `bcftools mpileup | bcftools
//! call -mv`. The variants called from `galign map -v K` (K = 2, 3) include every one
//! called from `bowtie -v K --best -k 1` on the same reads, and most of the SNVs called
//! from `bwa mem` (what ungapped alignment cannot reach: indels, and reads with more than
//! K mismatches or clipped ends; BENCHMARKS.md has the numbers).

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use common::*;

/// A called variant: position, reference and alternate alleles.
type Call = (u64, String, String);

/// Runs the shell pipeline `script` in `dir`.
fn sh(dir: &Path, script: &str) {
    run_ok(Command::new("sh").arg("-c").arg(script).current_dir(dir));
}

/// The variants bcftools calls from the sorted BAM `bam` against `slice.fa` in `dir`.
fn calls(dir: &Path, bam: &str) -> BTreeSet<Call> {
    let out = run_ok(
        Command::new("sh")
            .arg("-c")
            .arg(format!(
                "bcftools mpileup -f slice.fa {bam} 2>/dev/null | bcftools call -mv 2>/dev/null"
            ))
            .current_dir(dir),
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[1].parse().unwrap(), f[3].to_string(), f[4].to_string())
        })
        .collect()
}

fn is_snv(call: &Call) -> bool {
    call.1.len() == 1 && call.2.len() == 1
}

#[test]
fn variants_from_mismatch_mapping_include_bowtie_s_and_most_of_bwa_mem_s_snvs() {
    let Some([chr20, reads]) = shared_files([
        "ref/human_GRCh37_chr20.fa.gz",
        "reads/HG002_chr20_10.0-10.1Mb_148bp.fq.gz",
    ]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    sh(
        d,
        &format!(
            "zcat '{}' > chr20.fa && samtools faidx chr20.fa 20:9900000-10200000 \
             | sed 's/^>.*/>20_slice/' > slice.fa && samtools faidx slice.fa && rm chr20.fa* \
             && zcat '{}' > reads.fq",
            chr20.display(),
            reads.display()
        ),
    );
    run_ok(
        galign()
            .args(["index", "--device", "cpu", "-p", "g", "slice.fa"])
            .current_dir(d),
    );
    sh(
        d,
        "bowtie-build -q slice.fa bt && bwa index slice.fa 2>/dev/null",
    );
    let galign_bin = env!("CARGO_BIN_EXE_galign");
    for k in [2, 3] {
        sh(
            d,
            &format!(
                "'{galign_bin}' map --device cpu -v {k} g reads.fq | samtools sort -o g{k}.bam - \
                 && bowtie -v {k} --best -k 1 -S bt reads.fq 2>/dev/null | samtools sort -o b{k}.bam -"
            ),
        );
    }
    sh(
        d,
        "bwa mem -t 2 slice.fa reads.fq 2>/dev/null | samtools sort -o w.bam -",
    );
    let bwa = calls(d, "w.bam");
    let bwa_snvs: BTreeSet<&Call> = bwa.iter().filter(|c| is_snv(c)).collect();
    assert!(bwa_snvs.len() > 100, "bwa mem: {} SNVs", bwa_snvs.len());
    for k in [2, 3] {
        let ours = calls(d, &format!("g{k}.bam"));
        let bowtie = calls(d, &format!("b{k}.bam"));
        assert!(bowtie.len() > 100, "bowtie -v {k}: {} calls", bowtie.len());
        let missed: Vec<&Call> = bowtie.difference(&ours).collect();
        assert!(
            missed.is_empty(),
            "-v {k}: {} calls from bowtie's BAM missing from galign's ({} calls): {missed:?}",
            bowtie.len(),
            ours.len()
        );
        let recovered = bwa_snvs.iter().filter(|c| ours.contains(c)).count();
        assert!(
            recovered * 100 >= bwa_snvs.len() * 80,
            "-v {k}: {recovered} of bwa mem's {} SNVs",
            bwa_snvs.len()
        );
        eprintln!(
            "-v {k}: galign {} calls, bowtie {}, bwa mem {} ({} SNVs, {recovered} of them in galign's)",
            ours.len(),
            bowtie.len(),
            bwa.len(),
            bwa_snvs.len()
        );
    }
}
