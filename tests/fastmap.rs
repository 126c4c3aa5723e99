//! `galign fastmap` against `bwa fastmap` (0.7.17): byte-identical output on bwa's index
//! (built by `bwa index`) and on galign's (`galign index --format bwa`) of the same
//! FASTA, on every shared real read set against its reference and on generated nasty
//! references and reads (N runs, reads shorter than -l, 1 kbp reads, reads across
//! contig boundaries, all-A reads on an A-rich reference, lowercase bases, FASTA reads,
//! bwa's other options), with the defaults and with `-l 25 -w 5`; whatever the thread
//! count, to stdout or `-o`; `--device gpu` without a GPU a clear error.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{galign, revcomp, run_fail, run_ok, shared_file, shared_files, Rng};

/// Runs `bwa index -p PREFIX fasta` and `galign index --format bwa` into `dir`; returns
/// bwa's prefix and galign's.
fn both_indexes(fasta: &Path, dir: &Path) -> (PathBuf, PathBuf) {
    let (bwas, ours) = (dir.join("bwa"), dir.join("galign"));
    run_ok(
        Command::new("bwa")
            .arg("index")
            .arg("-p")
            .arg(&bwas)
            .arg(fasta),
    );
    run_ok(
        galign()
            .args(["index", "--format", "bwa", "--device", "cpu", "-p"])
            .arg(&ours)
            .arg(fasta),
    );
    (bwas, ours)
}

/// `bwa fastmap OPTIONS PREFIX reads`'s stdout.
fn bwa_fastmap(prefix: &Path, reads: &Path, options: &[&str]) -> Vec<u8> {
    run_ok(
        Command::new("bwa")
            .arg("fastmap")
            .args(options)
            .arg(prefix)
            .arg(reads),
    )
    .stdout
}

/// `galign fastmap OPTIONS PREFIX reads`'s stdout.
fn galign_fastmap(prefix: &Path, reads: &Path, options: &[&str]) -> Vec<u8> {
    run_ok(galign().arg("fastmap").args(options).arg(prefix).arg(reads)).stdout
}

/// Asserts that `galign fastmap` on either index prints what `bwa fastmap` prints on
/// bwa's, with each of `option_sets`.
fn assert_as_bwa(indexes: &(PathBuf, PathBuf), reads: &Path, option_sets: &[&[&str]]) {
    let (bwas, ours) = indexes;
    for &options in option_sets {
        let want = bwa_fastmap(bwas, reads, options);
        assert!(
            want.ends_with(b"//\n"),
            "{}: bwa printed nothing",
            reads.display()
        );
        for prefix in [bwas, ours] {
            let got = galign_fastmap(prefix, reads, options);
            assert!(
                got == want,
                "{} on {} {options:?}: differs from bwa fastmap at byte {} ({} vs {} bytes)",
                reads.display(),
                prefix.display(),
                got.iter()
                    .zip(&want)
                    .position(|(a, b)| a != b)
                    .unwrap_or(got.len().min(want.len())),
                got.len(),
                want.len()
            );
        }
    }
}

/// The defaults and `-l 25 -w 5`.
const DEFAULT_AND_STRICT: [&[&str]; 2] = [&[], &["-l", "25", "-w", "5"]];

/// Checks the shared read sets `reads` against the shared reference `reference`.
fn check_shared(reference: &str, reads: &[&str]) {
    let Some(fasta) = shared_file(&format!("ref/{reference}.fa.gz")) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let indexes = both_indexes(&fasta, dir.path());
    for name in reads {
        if let Some(reads) = shared_file(&format!("reads/{name}")) {
            assert_as_bwa(&indexes, &reads, &DEFAULT_AND_STRICT);
        }
    }
}

#[test]
fn samtools_ex1_reads_as_bwa() {
    check_shared("samtools_ex1", &["samtools_ex1_35bp.fq.gz"]);
}

#[test]
fn chrm_reads_as_bwa() {
    check_shared("human_rCRS_chrM_NC_012920", &["NA12878_chrM_cnvkit.fq.gz"]);
}

#[test]
fn celegans_reads_as_bwa() {
    check_shared("celegans_ce_htslib_1Mb", &["celegans_SRR065390_1000.fq.gz"]);
}

#[test]
fn ecoli_reads_as_bwa() {
    check_shared(
        "ecoli_K12_MG1655",
        &[
            "ecoli_MG1655_first10kb_EAS20_R1.fq.gz",
            "ecoli_MG1655_first10kb_EAS20_R2.fq.gz",
        ],
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

/// A reference of contigs bwa fastmap reports specially: an A-rich one (runs of A of
/// every length up to 300), contigs shorter than a read side by side (hits across
/// their boundaries), N runs, IUPAC codes, lowercase bases, one contig of one base.
fn nasty_reference(rng: &mut Rng) -> Vec<(String, String)> {
    let mut a_rich = String::new();
    for run in 1..=300 {
        a_rich.push_str(&"A".repeat(run));
        a_rich.push_str(&rng.bases(1 + run % 7));
    }
    let mut contigs = vec![
        ("arich".to_string(), a_rich),
        ("one".into(), "C".into()),
        (
            "ns".into(),
            format!(
                "NN{}NNNNNNNNNN{}RYK{}N",
                rng.bases(90),
                rng.bases(60),
                rng.bases(70)
            ),
        ),
        ("lower".into(), rng.bases(400).to_lowercase()),
        ("long".into(), rng.bases(30_000)),
    ];
    for i in 0..40 {
        let len = 5 + (rng.next() % 60) as usize;
        contigs.push((format!("short{i} a comment"), rng.bases(len)));
    }
    contigs.push(("repeat".into(), contigs[4].1[1000..3000].to_string()));
    contigs
}

/// Reads of `contigs`' text (the contigs joined, as bwa joins them): across contig
/// boundaries, 1 kbp, with N runs, shorter than -l, all-A, lowercase, reverse
/// complemented, with mismatches, of one base and none; `(name, bases)`.
fn nasty_reads(rng: &mut Rng, contigs: &[(String, String)]) -> Vec<(String, String)> {
    let text: String = contigs.iter().map(|(_, b)| b.as_str()).collect();
    let clean = |s: &str| s.replace(|c: char| !"ACGTacgt".contains(c), "A");
    let mut reads = Vec::new();
    let piece = |rng: &mut Rng, len: usize| {
        let start = (rng.next() as usize) % (text.len() - len);
        clean(&text[start..start + len])
    };
    for i in 0..300 {
        let len = [10, 16, 17, 24, 25, 36, 70, 100, 148, 250, 1000][i % 11];
        let mut bases: Vec<u8> = piece(rng, len).into_bytes();
        match i % 6 {
            0 => bases = revcomp(&String::from_utf8(bases).unwrap()).into_bytes(),
            1 => {
                let at = (rng.next() as usize) % len;
                bases[at] = b"ACGT"[(rng.next() % 4) as usize];
            }
            2 if len > 20 => {
                let at = (rng.next() as usize) % (len - 8);
                bases[at..at + 1 + i % 7].fill(b'N');
            }
            3 => bases.make_ascii_lowercase(),
            _ => {}
        }
        reads.push((format!("r{i}/1"), String::from_utf8(bases).unwrap()));
    }
    let mut offset = 0;
    for (name, bases) in contigs {
        if offset >= 30 {
            let start = offset - 20;
            reads.push((
                format!("across_{}", name.split(' ').next().unwrap()),
                clean(&text[start..start + 45]),
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
            format!("NNNNN{}NNNNNNNNNNNN{}N", piece(rng, 40), piece(rng, 30)),
        ),
        (
            "iupac_dash",
            format!("{}RY-K{}", piece(rng, 30), piece(rng, 30)),
        ),
        ("one", "G".into()),
        ("empty", String::new()),
    ] {
        reads.push((name.to_string(), bases));
    }
    reads
}

/// `reads` as FASTQ.
fn fastq(reads: &[(String, String)]) -> String {
    reads
        .iter()
        .map(|(name, bases)| format!("@{name} comment\n{bases}\n+\n{}\n", "I".repeat(bases.len())))
        .collect()
}

/// The generated reference and reads in `dir`: (FASTA, FASTQ, FASTA reads).
fn nasty_files(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let mut rng = Rng(64);
    let contigs = nasty_reference(&mut rng);
    let reads = nasty_reads(&mut rng, &contigs);
    let fasta: String = contigs
        .iter()
        .map(|(h, b)| format!(">{h}\n{b}\n"))
        .collect();
    let paths = ["ref.fa", "reads.fq", "reads.fa"].map(|n| dir.join(n));
    std::fs::write(&paths[0], fasta).unwrap();
    std::fs::write(&paths[1], fastq(&reads)).unwrap();
    let as_fasta: String = reads
        .iter()
        .filter(|(_, b)| !b.is_empty())
        .map(|(n, b)| format!(">{n}\n{b}\n"))
        .collect();
    std::fs::write(&paths[2], as_fasta).unwrap();
    let (fasta, fq, fa) = paths.into();
    (fasta, fq, fa)
}

#[test]
fn nasty_reads_on_a_nasty_reference_as_bwa() {
    let dir = tempfile::tempdir().unwrap();
    let (fasta, fq, fa) = nasty_files(dir.path());
    let indexes = both_indexes(&fasta, dir.path());
    let others: [&[&str]; 5] = [
        &["-l", "0", "-w", "1000"],
        &["-p"],
        &["-i", "3"],
        &["-I", "10", "-w", "50"],
        &["-L", "30"],
    ];
    assert_as_bwa(&indexes, &fq, &DEFAULT_AND_STRICT);
    assert_as_bwa(&indexes, &fq, &others);
    assert_as_bwa(&indexes, &fa, &DEFAULT_AND_STRICT);
}

/// The output does not depend on the thread count; `-o FILE` holds what stdout gets;
/// `-` reads stdin (gzip too).
#[test]
fn threads_output_file_and_stdin_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (fasta, fq, _) = nasty_files(dir.path());
    let (_, ours) = both_indexes(&fasta, dir.path());
    let want = galign_fastmap(&ours, &fq, &["-t", "1"]);
    assert_eq!(galign_fastmap(&ours, &fq, &["-t", "2"]), want);
    let out = dir.path().join("out.txt");
    let o = out.to_str().unwrap();
    run_ok(
        galign()
            .args(["fastmap", "-t", "3", "-o", o])
            .arg(&ours)
            .arg(&fq),
    );
    assert!(std::fs::read(&out).unwrap() == want, "-o differs");
    let gz = dir.path().join("reads.fq.gz");
    let gzip = Command::new("gzip").arg("-c").arg(&fq).output().unwrap();
    std::fs::write(&gz, gzip.stdout).unwrap();
    let child = galign()
        .arg("fastmap")
        .arg(&ours)
        .arg("-")
        .stdin(std::fs::File::open(&gz).unwrap())
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    assert!(
        child.status.success() && child.stdout == want,
        "stdin differs"
    );
}

#[test]
fn no_gpu_is_a_clear_error_under_device_gpu_and_a_missing_index_named() {
    let Some([fasta, reads]) = shared_files(["ref/phiX174.fa.gz", "reads/samtools_ex1_35bp.fq.gz"])
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (_, ours) = both_indexes(&fasta, dir.path());
    let err = run_fail(
        galign()
            .args(["fastmap", "--device", "gpu"])
            .arg(&ours)
            .arg(&reads),
    );
    // No GPU on the test machine: `--device gpu` fails, naming the device choice.
    assert!(err.contains("--device gpu:"), "{err}");
    let auto = run_ok(
        galign()
            .args(["fastmap", "--device", "auto"])
            .arg(&ours)
            .arg(&reads),
    );
    assert!(String::from_utf8_lossy(&auto.stderr).contains("on the CPU"));
    let err = run_fail(
        galign()
            .arg("fastmap")
            .arg(dir.path().join("none"))
            .arg(&reads),
    );
    assert!(err.contains("none.bwt"), "{err}");
}
