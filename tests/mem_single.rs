//! `galign mem` against `bwa mem -t 1` (0.7.17), single-end: the SAM records and `@SQ`
//! lines byte for byte (only the `@PG` lines left out), on bwa's index as `galign index
//! --format bwa` writes it, for the bundled chrM reads, every shared real read set
//! against its reference (E. coli R1, C. elegans, samtools ex1, HG002 chr20 when
//! present) and generated nasty reads (indels, N runs, reads across contig boundaries,
//! all-A, reads shorter than -k, 1 kbp reads, chimeric reads, repeats); with the
//! defaults and with -a, -M, -Y, -T 20, -k 25, -A 2 -B 6 (the nasty reads with more:
//! -w -d -r -c -O -E -L -5 -q -h -D); whatever the thread count.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{bwa_index, data, galign, revcomp, run_fail, run_ok, shared_file, without_pg, Rng};

/// The option sets every read set is checked with.
const OPTION_SETS: [&[&str]; 7] = [
    &[],
    &["-a"],
    &["-M"],
    &["-Y"],
    &["-T", "20"],
    &["-k", "25"],
    &["-A", "2", "-B", "6"],
];

/// Asserts that `galign mem OPTIONS` writes what `bwa mem -t 1 OPTIONS` writes (but
/// `@PG`), naming the differing records and their count; returns the record count.
fn assert_as_bwa(prefix: &Path, reads: &Path, options: &[&str], threads: &str) -> usize {
    let want = run_ok(
        Command::new("bwa")
            .args(["mem", "-t", "1"])
            .args(options)
            .arg(prefix)
            .arg(reads),
    )
    .stdout;
    let got = run_ok(
        galign()
            .args(["mem", "-t", threads])
            .args(options)
            .arg(prefix)
            .arg(reads),
    )
    .stdout;
    let (want, got) = (without_pg(&want), without_pg(&got));
    let records = want.iter().filter(|l| !l.starts_with(b"@")).count();
    let differing: Vec<(usize, String, String)> = want
        .iter()
        .zip(&got)
        .enumerate()
        .filter(|(_, (w, g))| w != g)
        .map(|(i, (w, g))| {
            let text = |l: &[u8]| String::from_utf8_lossy(l).into_owned();
            (i, text(w), text(g))
        })
        .collect();
    assert!(
        differing.is_empty() && want.len() == got.len(),
        "{} {options:?}: {} of {records} records differ from bwa mem ({} vs {} lines); \
         first: {:?}",
        reads.display(),
        differing.len(),
        want.len(),
        got.len(),
        differing.first()
    );
    records
}

/// Checks `reads` against the index `prefix` with every option set.
fn check_all_options(prefix: &Path, reads: &Path) {
    for options in OPTION_SETS {
        let n = assert_as_bwa(prefix, reads, options, "2");
        eprintln!("{} {options:?}: {n} records identical", reads.display());
    }
}

/// Checks the shared read sets `reads` against the shared reference `reference`.
fn check_shared(reference: &str, reads: &[&str]) {
    let Some(fasta) = shared_file(&format!("ref/{reference}.fa.gz")) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let prefix = bwa_index(&fasta, dir.path());
    for name in reads {
        if let Some(reads) = shared_file(&format!("reads/{name}")) {
            check_all_options(&prefix, &reads);
        }
    }
}

/// The bundled 20,000 real NA12878 chrM reads: always.
#[test]
fn bundled_chrm_reads_as_bwa() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = bwa_index(&data("human_rCRS_chrM_NC_012920.fa.gz"), dir.path());
    check_all_options(&prefix, &data("NA12878_chrM_20k.fq.gz"));
}

#[test]
fn samtools_ex1_reads_as_bwa() {
    check_shared("samtools_ex1", &["samtools_ex1_35bp.fq.gz"]);
}

#[test]
fn celegans_reads_as_bwa() {
    check_shared("celegans_ce_htslib_1Mb", &["celegans_SRR065390_1000.fq.gz"]);
}

#[test]
fn ecoli_r1_reads_as_bwa() {
    check_shared(
        "ecoli_K12_MG1655",
        &["ecoli_MG1655_first10kb_EAS20_R1.fq.gz"],
    );
}

/// chr20 (63 Mbp, 3.5 Mbp of N): the HG002 reads.
#[test]
fn chr20_reads_as_bwa() {
    check_shared(
        "human_GRCh37_chr20",
        &["HG002_chr20_10.0-10.1Mb_148bp.fq.gz"],
    );
}

/// A reference for the nasty reads: random contigs, one with N runs and IUPAC codes,
/// one lowercase, an A-rich one, short contigs side by side, a copy of part of another
/// (repeats: XA, secondary hits).
fn nasty_reference(rng: &mut Rng) -> Vec<(String, String)> {
    let mut a_rich = String::new();
    for run in 1..=120 {
        a_rich.push_str(&"A".repeat(run));
        a_rich.push_str(&rng.bases(1 + run % 7));
    }
    let mut contigs = vec![
        ("long".to_string(), rng.bases(40_000)),
        ("arich".into(), a_rich),
        (
            "ns".into(),
            format!(
                "NN{}NNNNNNNNNN{}RYK{}N",
                rng.bases(300),
                rng.bases(200),
                rng.bases(300)
            ),
        ),
        ("lower".into(), rng.bases(2000).to_lowercase()),
        ("other".into(), rng.bases(20_000)),
    ];
    for i in 0..20 {
        let len = 30 + (rng.next() % 90) as usize;
        contigs.push((format!("short{i} a comment"), rng.bases(len)));
    }
    let copy = contigs[0].1[5000..9000].to_string();
    contigs.push(("repeat".into(), copy));
    contigs
}

/// `bases` with an insertion or deletion of 1 to 12 bases somewhere inside.
fn with_indel(rng: &mut Rng, mut bases: Vec<u8>, insert: bool) -> Vec<u8> {
    let len = 1 + (rng.next() % 12) as usize;
    let at = 20 + (rng.next() as usize) % (bases.len() - 40);
    match insert {
        true => {
            let extra = rng.bases(len).into_bytes();
            bases.splice(at..at, extra);
        }
        false => {
            bases.drain(at..at + len);
        }
    }
    bases
}

/// Reads of `contigs`' text (joined, as bwa joins them): with indels, mismatches, N
/// runs, reverse complemented, lowercase, across contig boundaries, chimeric, of every
/// length from shorter than -k to 1 kbp, all-A; `(name, bases)`.
fn nasty_reads(rng: &mut Rng, contigs: &[(String, String)]) -> Vec<(String, String)> {
    let text: String = contigs.iter().map(|(_, b)| b.as_str()).collect();
    let clean = |s: &str| s.replace(|c: char| !"ACGTacgt".contains(c), "A");
    let mut reads = Vec::new();
    let piece = |rng: &mut Rng, len: usize| {
        let start = (rng.next() as usize) % (text.len() - len);
        clean(&text[start..start + len])
    };
    for i in 0..600 {
        let len = [12, 18, 19, 25, 36, 70, 100, 148, 250, 400, 1000][i % 11];
        let mut bases: Vec<u8> = piece(rng, len).into_bytes();
        match i % 8 {
            0 => bases = revcomp(&String::from_utf8(bases).unwrap()).into_bytes(),
            1 => {
                for _ in 0..1 + len / 40 {
                    let at = (rng.next() as usize) % len;
                    bases[at] = b"ACGT"[(rng.next() % 4) as usize];
                }
            }
            2 if len > 20 => {
                let at = (rng.next() as usize) % (len - 8);
                bases[at..at + 1 + i % 7].fill(b'N');
            }
            3 => bases.make_ascii_lowercase(),
            4 if len >= 70 => bases = with_indel(rng, bases, true),
            5 if len >= 70 => bases = with_indel(rng, bases, false),
            6 if len >= 70 => {
                let half = len / 2;
                let other = piece(rng, len - half).into_bytes();
                bases.truncate(half);
                bases.extend_from_slice(&revcomp(&String::from_utf8(other).unwrap()).into_bytes());
            }
            _ => {}
        }
        reads.push((format!("r{i}/1"), String::from_utf8(bases).unwrap()));
    }
    let mut offset = 0;
    for (name, bases) in contigs {
        if offset >= 60 {
            let start = offset - 40;
            reads.push((
                format!("across_{}", name.split(' ').next().unwrap()),
                clean(&text[start..start + 90]),
            ));
        }
        offset += bases.len();
    }
    for (name, bases) in [
        ("allA36", "A".repeat(36)),
        ("allA148", "A".repeat(148)),
        ("allA1000", "A".repeat(1000)),
        ("allN", "N".repeat(50)),
        (
            "nrun_ends",
            format!("NNNNN{}NNNNNNNNNNNN{}N", piece(rng, 60), piece(rng, 50)),
        ),
        ("one", "G".into()),
        ("empty", String::new()),
    ] {
        reads.push((name.to_string(), bases));
    }
    reads
}

/// The nasty reference, its index and the nasty reads (FASTQ, FASTA) in `dir`.
fn nasty_files(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let mut rng = Rng(65);
    let contigs = nasty_reference(&mut rng);
    let reads = nasty_reads(&mut rng, &contigs);
    let fasta: String = contigs
        .iter()
        .map(|(h, b)| format!(">{h}\n{b}\n"))
        .collect();
    let fasta_path = dir.join("ref.fa");
    std::fs::write(&fasta_path, fasta).unwrap();
    let fq: String = reads
        .iter()
        .map(|(n, b)| format!("@{n} comment\n{b}\n+\n{}\n", "I".repeat(b.len())))
        .collect();
    let fa: String = reads
        .iter()
        .filter(|(_, b)| !b.is_empty())
        .map(|(n, b)| format!(">{n}\n{b}\n"))
        .collect();
    let (fq_path, fa_path) = (dir.join("reads.fq"), dir.join("reads.fa"));
    std::fs::write(&fq_path, fq).unwrap();
    std::fs::write(&fa_path, fa).unwrap();
    (bwa_index(&fasta_path, dir), fq_path, fa_path)
}

#[test]
fn nasty_reads_as_bwa() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, fq, fa) = nasty_files(dir.path());
    check_all_options(&prefix, &fq);
    assert_as_bwa(&prefix, &fa, &[], "2");
    assert_as_bwa(
        &prefix,
        &fq,
        &["-w", "20", "-d", "30", "-r", "2.5", "-c", "50"],
        "2",
    );
    assert_as_bwa(
        &prefix,
        &fq,
        &["-O", "4,7", "-E", "2,1", "-L", "0,20", "-T", "10"],
        "2",
    );
    for options in [
        &["-5"][..],
        &["-q"],
        &["-5", "-M", "-h", "2"],
        &["-h", "20,30", "-D", "0.3"],
    ] {
        assert_as_bwa(&prefix, &fq, options, "2");
    }
}

/// The output does not depend on the thread count; `-R` adds the read group as bwa.
#[test]
fn threads_and_read_group_as_bwa() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, fq, _) = nasty_files(dir.path());
    for threads in ["1", "3"] {
        assert_as_bwa(&prefix, &fq, &[], threads);
    }
    assert_as_bwa(&prefix, &fq, &["-R", r"@RG\tID:grp1\tSM:s"], "2");
}

#[test]
fn device_gpu_is_refused_as_mem_runs_on_the_cpu_only() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = bwa_index(&data("human_rCRS_chrM_NC_012920.fa.gz"), dir.path());
    let err = run_fail(
        galign()
            .args(["mem", "--device", "gpu"])
            .arg(&prefix)
            .arg(data("NA12878_chrM_20k.fq.gz")),
    );
    assert!(
        err.contains("--device gpu: galign mem runs on the CPU only"),
        "{err}"
    );
}
