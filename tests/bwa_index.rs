//! `galign index --format bwa` against `bwa index` (0.7.17): the five files cmp-identical
//! on every shared reference and on generated nasty ones (on the CPU, whole, within a
//! `--memory` budget and with 64-bit positions), `bwa mem` and `bwa aln`/`samse` giving
//! the same SAM on both on the shared real reads, and the limits' errors.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{galign, run_fail, run_ok, shared_file, Rng};

const EXTENSIONS: [&str; 5] = ["amb", "ann", "bwt", "pac", "sa"];

/// `PREFIX.EXT`.
fn file(prefix: &Path, ext: &str) -> PathBuf {
    let mut p = prefix.as_os_str().to_owned();
    p.push(format!(".{ext}"));
    PathBuf::from(p)
}

/// Runs `bwa index -p PREFIX fasta`.
fn bwa_index(fasta: &Path, prefix: &Path) {
    run_ok(
        Command::new("bwa")
            .arg("index")
            .arg("-p")
            .arg(prefix)
            .arg(fasta),
    );
}

/// Runs `galign index --format bwa --device cpu -v -p PREFIX fasta` with `extra` flags;
/// returns its stderr.
fn galign_bwa(fasta: &Path, prefix: &Path, extra: &[&str]) -> String {
    let out = run_ok(
        galign()
            .args(["index", "--format", "bwa", "--device", "cpu", "-v", "-p"])
            .arg(prefix)
            .args(extra)
            .arg(fasta),
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts that the five files of both prefixes are byte-identical.
fn assert_same_files(ours: &Path, bwas: &Path, what: &str) {
    for ext in EXTENSIONS {
        let a = std::fs::read(file(ours, ext)).unwrap();
        let b = std::fs::read(file(bwas, ext)).unwrap();
        assert!(
            a == b,
            "{what}: .{ext} differs ({} vs {} bytes)",
            a.len(),
            b.len()
        );
    }
}

/// bwa's index of `fasta` under `dir/bwa`, galign's under `dir/galign` (also built with
/// each of `variants`' flags, compared, then replaced; a `--memory` budget must have
/// sorted in parts); checks them equal and returns both prefixes.
fn both_indexes(fasta: &Path, dir: &Path, variants: &[&[&str]]) -> (PathBuf, PathBuf) {
    let (ours, bwas) = (dir.join("galign"), dir.join("bwa"));
    bwa_index(fasta, &bwas);
    for flags in variants.iter().chain([&[][..]].iter()) {
        let log = galign_bwa(fasta, &ours, flags);
        if flags.contains(&"--memory") {
            assert!(log.contains("in parts"), "{flags:?}: {log}");
        }
        assert_same_files(&ours, &bwas, &format!("{} {flags:?}", fasta.display()));
    }
    (ours, bwas)
}

/// SAM text without its @PG lines (they name the index path).
fn without_pg(sam: &[u8]) -> String {
    String::from_utf8_lossy(sam)
        .lines()
        .filter(|l| !l.starts_with("@PG"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `bwa mem` of `reads` (and `mates`) on `prefix`.
fn mem(prefix: &Path, reads: &[PathBuf]) -> String {
    let out = run_ok(
        Command::new("bwa")
            .args(["mem", "-t", "2"])
            .arg(prefix)
            .args(reads),
    );
    without_pg(&out.stdout)
}

/// `bwa aln` then `bwa samse` of `reads` on `prefix` (files in `dir`).
fn aln_samse(prefix: &Path, reads: &Path, dir: &Path) -> String {
    let sai = dir.join("reads.sai");
    let out = run_ok(
        Command::new("bwa")
            .args(["aln", "-t", "2"])
            .arg(prefix)
            .arg(reads),
    );
    std::fs::write(&sai, &out.stdout).unwrap();
    let out = run_ok(
        Command::new("bwa")
            .arg("samse")
            .arg(prefix)
            .arg(&sai)
            .arg(reads),
    );
    without_pg(&out.stdout)
}

/// Checks the indexes of the shared reference `name`, and bwa's alignments of the shared
/// `reads` on both.
fn check_shared(name: &str, reads: &[&str], variants: &[&[&str]]) {
    let Some(fasta) = shared_file(&format!("ref/{name}.fa.gz")) else {
        return;
    };
    let Some(reads) = reads
        .iter()
        .map(|r| shared_file(&format!("reads/{r}")))
        .collect::<Option<Vec<PathBuf>>>()
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (ours, bwas) = both_indexes(&fasta, dir.path(), variants);
    if reads.is_empty() {
        return;
    }
    let on_ours = mem(&ours, &reads);
    assert!(on_ours.lines().any(|l| !l.starts_with('@')), "no alignment");
    assert!(on_ours == mem(&bwas, &reads), "{name}: bwa mem differs");
    let on_ours = aln_samse(&ours, &reads[0], dir.path());
    assert!(
        on_ours == aln_samse(&bwas, &reads[0], dir.path()),
        "{name}: aln/samse differs"
    );
}

#[test]
fn phix_and_lambda_as_bwa() {
    check_shared("phiX174", &[], &[&["--force-u64-positions"]]);
    check_shared("lambda_virus", &[], &[]);
}

#[test]
fn samtools_ex1_as_bwa_and_its_reads() {
    check_shared("samtools_ex1", &["samtools_ex1_35bp.fq.gz"], &[]);
}

#[test]
fn chrm_as_bwa_and_its_reads() {
    check_shared(
        "human_rCRS_chrM_NC_012920",
        &["NA12878_chrM_cnvkit.fq.gz"],
        &[],
    );
}

#[test]
fn celegans_as_bwa_and_its_reads() {
    check_shared(
        "celegans_ce_htslib_1Mb",
        &["celegans_SRR065390_1000.fq.gz"],
        &[],
    );
}

#[test]
fn bacteria_as_bwa_and_their_reads() {
    check_shared(
        "ecoli_K12_MG1655",
        &[
            "ecoli_MG1655_first10kb_EAS20_R1.fq.gz",
            "ecoli_MG1655_first10kb_EAS20_R2.fq.gz",
        ],
        &[&["--memory", "100M"]],
    );
    check_shared("kpneumoniae_HS11286", &[], &[]);
}

/// chr20 (63 Mbp): bwa builds its BWT with BWT-SW here (past 50 Mbp), not SA-IS.
#[test]
fn chr20_as_bwa_and_its_reads() {
    check_shared(
        "human_GRCh37_chr20",
        &["HG002_chr20_10.0-10.1Mb_148bp.fq.gz"],
        &[],
    );
}

/// `bases` wrapped in lines of `width`, each ending with `eol`.
fn wrapped(bases: &str, width: usize, eol: &str) -> String {
    let lines: Vec<&str> = bases
        .as_bytes()
        .chunks(width)
        .map(|l| std::str::from_utf8(l).unwrap())
        .collect();
    lines.iter().map(|l| format!("{l}{eol}")).collect()
}

/// A reference of what bwa treats specially: N runs at a contig's start, middle and
/// end, runs of different ambiguous bytes and cases side by side, every IUPAC code and
/// U in either case, lowercase, hundreds of short contigs, contigs of one base, an
/// all-N contig, descriptions with several spaces and tabs; lines of `width`.
fn nasty_fasta(rng: &mut Rng, width: usize, eol: &str) -> String {
    let mut contigs: Vec<(String, String)> = Vec::new();
    let iupac = |rng: &mut Rng, n: usize| -> String {
        let codes = b"ACGTNRYSWKMBDHVUacgtnryswkmbdhvu";
        (0..n)
            .map(|_| codes[(rng.next() % 32) as usize] as char)
            .collect()
    };
    let bases = rng.bases(200);
    contigs.push((
        "chr1 a description  with\ttabs".into(),
        format!(
            "NNNN{}NNNnnnRRryKM{}NNNN",
            &bases[..100],
            bases[100..].to_lowercase()
        ),
    ));
    contigs.push(("one".into(), "G".into()));
    contigs.push(("oneN".into(), "N".into()));
    contigs.push(("allN  two spaces".into(), "N".repeat(77)));
    contigs.push(("iupac".into(), iupac(rng, 500)));
    for i in 0..300 {
        let len = 1 + (rng.next() % 40) as usize;
        contigs.push((format!("short{i}"), rng.bases(len)));
    }
    let (left, right) = (rng.bases(64), rng.bases(64));
    contigs.push((
        "middle".into(),
        format!("{left}{}{right}", "N".repeat(1000)),
    ));
    contigs.push(("end".into(), format!("{}NN", rng.bases(127))));
    contigs.push(("long".into(), rng.bases(20_000)));
    contigs
        .iter()
        .map(|(header, bases)| format!(">{header}{eol}{}", wrapped(bases, width, eol)))
        .collect()
}

#[test]
fn nasty_references_as_bwa() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(63);
    for (width, eol) in [(60, "\n"), (7, "\r\n"), (1000, "\n")] {
        let fasta = dir.path().join(format!("nasty{width}.fa"));
        std::fs::write(&fasta, nasty_fasta(&mut rng, width, eol)).unwrap();
        let sub = dir.path().join(format!("w{width}"));
        std::fs::create_dir(&sub).unwrap();
        both_indexes(&fasta, &sub, &[&["--force-u64-positions"]]);
    }
}

#[test]
fn lengths_at_every_remainder_as_bwa() {
    // Texts whose doubled length ends at each remainder of bwa's 16-base words, its
    // 128-base Occ intervals and its 32-row SA samples; the .pac's last bytes too.
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(7);
    for len in [
        1, 2, 3, 4, 5, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200,
    ] {
        let fasta = dir.path().join(format!("len{len}.fa"));
        std::fs::write(&fasta, format!(">x\n{}\n", rng.bases(len))).unwrap();
        let sub = dir.path().join(format!("l{len}"));
        std::fs::create_dir(&sub).unwrap();
        both_indexes(&fasta, &sub, &[]);
    }
}

#[test]
fn what_galign_refuses_stays_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (">a\nAC-GT\n", "'-' is not a nucleotide"),
        (
            ">a\nACGT\n>a\nACGT\n",
            "contig name 'a' is used by record 1 and again by record 2",
        ),
        (">a\n>b\nACGT\n", "contig 'a' (record 1) has no sequence"),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let fasta = dir.path().join(format!("bad{i}.fa"));
        std::fs::write(&fasta, text).unwrap();
        let prefix = dir.path().join(format!("bad{i}"));
        let err = run_fail(
            galign()
                .args(["index", "--format", "bwa", "-p"])
                .arg(&prefix)
                .arg(&fasta),
        );
        assert!(err.contains(message), "{text:?}: {err}");
        assert!(!file(&prefix, "bwt").exists() && !file(&prefix, "pac").exists());
    }
}

#[test]
fn bwas_limits_are_errors_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let fasta = dir.path().join("long_name.fa");
    std::fs::write(&fasta, format!(">{}\nACGT\n", "n".repeat(8192))).unwrap();
    let err = run_fail(
        galign()
            .args(["index", "--format", "bwa", "-p"])
            .arg(dir.path().join("x"))
            .arg(&fasta),
    );
    assert!(
        err.contains("record 1) has 8192 bytes; bwa reads names of at most 8191 bytes"),
        "{err}"
    );
    let fasta = dir.path().join("ok.fa");
    std::fs::write(&fasta, ">a\nACGT\n").unwrap();
    let prefix = dir.path().join("p".repeat(1020));
    let err = run_fail(
        galign()
            .args(["index", "--format", "bwa", "-p"])
            .arg(&prefix)
            .arg(&fasta),
    );
    assert!(
        err.contains("bwa opens index files under prefixes of at most 1019 bytes"),
        "{err}"
    );
}

/// The `.sa` (every 32nd row's position, kept as the suffix array's parts stream into
/// the FM builder) and the other files stay those of `bwa index` when the build is cut
/// into many parts (about the least `--memory` that works: parts of 65,536 to 82,000
/// suffixes, 30 and more; 32- and 64-bit positions) and on 1, 2 or 3 threads; a budget too small
/// fails the build before any file appears, though `.pac`, `.ann` and `.amb` are
/// written beside the build.
#[test]
fn many_parts_and_thread_counts_as_bwa() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(6332);
    let unit = rng.bases(40_000);
    let mut seq = rng.bases(1_000_000);
    for _ in 0..5 {
        seq.push_str(&unit); // long runs of equal 32-base keys in the sort
        seq.push_str(&rng.bases(1000));
    }
    seq.push_str(&"N".repeat(500));
    seq.push_str(&rng.bases(77_777));
    let fasta = dir.path().join("parts.fa");
    let b = rng.bases(33_333);
    let text = format!(
        ">a with a description\n{}>b\n{}",
        wrapped(&seq, 60, "\n"),
        wrapped(&b, 60, "\n")
    );
    std::fs::write(&fasta, text).unwrap();
    let prefix = dir.path().join("refused");
    let err = run_fail(
        galign()
            .args([
                "index", "--format", "bwa", "--device", "cpu", "--memory", "1M", "-p",
            ])
            .arg(&prefix)
            .arg(&fasta),
    );
    for ext in EXTENSIONS {
        assert!(!file(&prefix, ext).exists(), ".{ext} written: {err}");
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("refused"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // The least budget that works, as the error names it: "... (N bytes) is needed".
    let needed: u64 = err
        .rsplit(" bytes)")
        .nth(1)
        .and_then(|head| head.rsplit('(').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no least budget named: {err}"));
    let least = format!("{}K", needed.div_ceil(1024) + 320);
    let variants: [&[&str]; 5] = [
        &["--memory", &least, "-t", "1"],
        &["--memory", &least, "-t", "2"],
        &["--memory", &least, "-t", "3"],
        &["--memory", &least, "--force-u64-positions"],
        &["-t", "3"],
    ];
    both_indexes(&fasta, dir.path(), &variants);
}
