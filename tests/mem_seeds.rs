//! `galign seeds --format bwa-debug` against `bwa mem -v 4` (0.7.17, Debian's): for every
//! read, the `* Found CHAIN` lines bwa prints after its chain filter (`mem_print_chain`)
//! are compared byte for byte, read by read, with galign's. On the bundled and shared
//! real data (chrM, C. elegans, samtools ex1, E. coli, GRCh37 chr20 with HG002 reads),
//! with the defaults and with `-k 25`, `-r 2.0`, `-y 10`, `-c 100` and others; and on a
//! generated reference of tandem repeats, short contigs, N runs, an A-rich contig and ALT
//! contigs (a `.alt` file), with reads across contig boundaries, with N runs, all-A,
//! shorter than `-k`, chimeric, with indels, up to 700 bases. Reads long enough for bwa's
//! Smith-Waterman seed filter are refused clearly.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{data, galign, revcomp, run_fail, run_ok, shared_file, Rng};

/// `bwa index -p DIR/NAME fasta`; returns the prefix.
fn bwa_index(fasta: &Path, dir: &Path, name: &str) -> PathBuf {
    let prefix = dir.join(name);
    run_ok(Command::new("bwa").arg("index").arg("-p").arg(&prefix).arg(fasta));
    prefix
}

/// The reads' blocks of a `-v 4` text: per `=====> Processing read` line, that line and
/// the `* Found CHAIN` lines after it.
fn blocks(text: &[u8]) -> Vec<Vec<&[u8]>> {
    let mut out: Vec<Vec<&[u8]>> = Vec::new();
    for line in text.split(|&b| b == b'\n') {
        if line.starts_with(b"=====> Processing read '") {
            out.push(vec![line]);
        } else if line.starts_with(b"* Found CHAIN(") {
            out.last_mut().expect("a chain after its read").push(line);
        }
    }
    out
}

/// `bwa mem -t 1 -v 4 OPTIONS PREFIX READS`'s stdout.
fn bwa_mem_debug(prefix: &Path, reads: &Path, options: &[&str]) -> Vec<u8> {
    let mut cmd = Command::new("bwa");
    cmd.args(["mem", "-t", "1", "-v", "4"]).args(options).arg(prefix).arg(reads);
    run_ok(&mut cmd).stdout
}

/// `galign seeds --format bwa-debug OPTIONS PREFIX READS`'s stdout.
fn galign_debug(prefix: &Path, reads: &Path, options: &[&str]) -> Vec<u8> {
    let mut cmd = galign();
    cmd.args(["seeds", "--format", "bwa-debug"]).args(options).arg(prefix).arg(reads);
    run_ok(&mut cmd).stdout
}

/// Asserts that galign's chains of every read are bwa's; returns (reads, chains).
fn assert_chains_as_bwa(prefix: &Path, reads: &Path, options: &[&str]) -> (usize, usize) {
    let bwa_text = bwa_mem_debug(prefix, reads, options);
    let ours_text = galign_debug(prefix, reads, options);
    let (want, got) = (blocks(&bwa_text), blocks(&ours_text));
    for (w, g) in want.iter().zip(&got) {
        assert!(
            w == g,
            "{} {options:?}: read {} differs\nbwa:\n{}\ngalign:\n{}",
            reads.display(),
            String::from_utf8_lossy(w[0]),
            w.iter().map(|l| String::from_utf8_lossy(l) + "\n").collect::<String>(),
            g.iter().map(|l| String::from_utf8_lossy(l) + "\n").collect::<String>()
        );
    }
    assert_eq!(want.len(), got.len(), "{}: reads", reads.display());
    assert!(!want.is_empty(), "{}: bwa printed no read", reads.display());
    let chains = want.iter().map(|b| b.len() - 1).sum();
    eprintln!("{} {options:?}: {} reads, {chains} chains as bwa", reads.display(), want.len());
    (want.len(), chains)
}

/// The defaults and the options the seeding and chaining read.
const OPTION_SETS: [&[&str]; 8] = [
    &[],
    &["-k", "25"],
    &["-r", "2.0"],
    &["-y", "10"],
    &["-c", "100"],
    &["-y", "0", "-s", "30"],
    &["-D", "0.8", "-X", "0.3", "-w", "20"],
    &["-N", "1", "-G", "50", "-c", "7"],
];

/// Checks `reads` against `reference` (either may be bundled or shared) with `sets`.
fn check(reference: &str, reads: &[&str], sets: &[&[&str]]) {
    let Some(fasta) = shared_file(&format!("ref/{reference}.fa.gz")) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let prefix = bwa_index(&fasta, dir.path(), "ref");
    for name in reads {
        if let Some(reads) = shared_file(&format!("reads/{name}")) {
            for options in sets {
                assert_chains_as_bwa(&prefix, &reads, options);
            }
        }
    }
}

/// The bundled chrM reads (20,000) with every option set.
#[test]
fn chrm_chains_as_bwa() {
    let fasta = data("human_rCRS_chrM_NC_012920.fa.gz");
    let dir = tempfile::tempdir().unwrap();
    let prefix = bwa_index(&fasta, dir.path(), "chrM");
    let reads = data("NA12878_chrM_20k.fq.gz");
    let (n, _) = assert_chains_as_bwa(&prefix, &reads, &[]);
    assert_eq!(n, 20_000);
    for options in &OPTION_SETS[1..] {
        assert_chains_as_bwa(&prefix, &reads, options);
    }
}

/// C. elegans (7 contigs, repeats: about 100 chains a read) with every option set.
#[test]
fn celegans_chains_as_bwa() {
    let sets: Vec<&[&str]> = OPTION_SETS.iter().copied().chain([&["-W", "30"][..]]).collect();
    check("celegans_ce_htslib_1Mb", &["celegans_SRR065390_1000.fq.gz"], &sets);
}

/// samtools ex1 (2 contigs, 35 bp reads).
#[test]
fn samtools_ex1_chains_as_bwa() {
    check("samtools_ex1", &["samtools_ex1_35bp.fq.gz"], &OPTION_SETS);
}

/// E. coli (30-100 bp reads).
#[test]
fn ecoli_chains_as_bwa() {
    check(
        "ecoli_K12_MG1655",
        &["ecoli_MG1655_first10kb_EAS20_R1.fq.gz"],
        &OPTION_SETS[..3],
    );
}

/// GRCh37 chr20 (63 Mbp, N runs) with the HG002 reads (21,206 of 148 bp).
#[test]
fn chr20_hg002_chains_as_bwa() {
    check(
        "human_GRCh37_chr20",
        &["HG002_chr20_10.0-10.1Mb_148bp.fq.gz"],
        &[&[], &["-k", "25", "-c", "100"], &["-r", "2.0", "-y", "10"]],
    );
}

/// A reference bwa mem chains specially: a tandem repeat (many chains at equal
/// positions), copies of one piece on both strands, short contigs side by side (seeds
/// across their boundaries), N runs, an A-rich contig, and two ALT contigs (copies of
/// a primary one with a few changes).
fn nasty_reference(rng: &mut Rng) -> Vec<(String, String)> {
    let unit = rng.bases(37);
    let piece = rng.bases(300);
    let mut a_rich = String::new();
    for run in 1..=120 {
        a_rich.push_str(&"A".repeat(run));
        a_rich.push_str(&rng.bases(1 + run % 5));
    }
    let main = rng.bases(5000);
    let mut alt1 = main[1000..3000].to_string().into_bytes();
    for i in (50..alt1.len()).step_by(97) {
        alt1[i] = b"ACGT"[(rng.next() % 4) as usize];
    }
    let mut contigs = vec![
        ("main".to_string(), main.clone()),
        ("tandem".into(), format!("{}{}{}", rng.bases(200), unit.repeat(40), rng.bases(200))),
        ("copies".into(), format!("{piece}{}{}{piece}{}", rng.bases(150), revcomp(&piece), rng.bases(80))),
        ("ns".into(), format!("{}{}{}", rng.bases(400), "N".repeat(120), rng.bases(400))),
        ("arich".into(), a_rich),
        ("alt1".into(), String::from_utf8(alt1).unwrap()),
        ("alt2".into(), main[2500..4000].to_string()),
    ];
    for i in 0..30 {
        let len = 8 + (rng.next() % 40) as usize;
        contigs.push((format!("short{i}"), rng.bases(len)));
    }
    contigs
}

/// Reads of the reference's text (contigs joined): random pieces of many lengths (as
/// read, reverse complemented, with a mismatch, an N run, an insertion or a deletion),
/// chimeras, reads across each contig boundary, all-A, all-N, shorter than -k, empty.
fn nasty_reads(rng: &mut Rng, contigs: &[(String, String)]) -> Vec<(String, String)> {
    let text: String = contigs.iter().map(|(_, b)| b.as_str()).collect();
    let clean = |s: &str| s.replace(|c: char| !"ACGT".contains(c), "A");
    let piece = |rng: &mut Rng, len: usize| {
        let start = (rng.next() as usize) % (text.len() - len);
        clean(&text[start..start + len])
    };
    let mut reads = Vec::new();
    for i in 0..400 {
        let len = [10, 18, 19, 20, 25, 36, 51, 70, 100, 148, 250, 500, 700][i % 13];
        let mut bases = piece(rng, len);
        let at = (rng.next() as usize) % len;
        match i % 7 {
            0 => bases = revcomp(&bases),
            1 => bases.replace_range(at..at + 1, "C"),
            2 if len > 30 => bases.replace_range(at.min(len - 8)..at.min(len - 8) + 1 + i % 7, &"N".repeat(1 + i % 7)),
            3 => bases.insert_str(at, "GATTACA"),
            4 if len > 30 => bases.replace_range(at.min(len - 9)..at.min(len - 9) + 9, ""),
            5 => bases = format!("{}{}", &bases[..len / 2], piece(rng, len - len / 2)),
            _ => {}
        }
        reads.push((format!("r{i}/1"), bases));
    }
    let mut offset = 0;
    for (name, bases) in contigs {
        if offset >= 40 {
            reads.push((format!("across_{name}"), clean(&text[offset - 30..offset + 30])));
        }
        offset += bases.len();
    }
    for (name, bases) in [
        ("allA36", "A".repeat(36)),
        ("allA148", "A".repeat(148)),
        ("allA700", "A".repeat(700)),
        ("allN", "N".repeat(60)),
        ("nrun_ends", format!("NNNN{}NNNNNNNNNN{}N", piece(rng, 40), piece(rng, 30))),
        ("iupac", format!("{}RY-K{}", piece(rng, 30), piece(rng, 30))),
        ("one", "G".into()),
        ("empty", String::new()),
    ] {
        reads.push((name.to_string(), bases));
    }
    reads
}

/// Writes the generated reference, its `.alt` (after `bwa index`) and reads into `dir`;
/// returns the prefix and the FASTQ.
fn nasty_files(dir: &Path) -> (PathBuf, PathBuf) {
    let mut rng = Rng(65);
    let contigs = nasty_reference(&mut rng);
    let reads = nasty_reads(&mut rng, &contigs);
    let fasta: String = contigs.iter().map(|(h, b)| format!(">{h}\n{b}\n")).collect();
    let (fa, fq) = (dir.join("ref.fa"), dir.join("reads.fq"));
    std::fs::write(&fa, fasta).unwrap();
    let fastq: String = reads
        .iter()
        .map(|(n, b)| format!("@{n} c\n{b}\n+\n{}\n", "I".repeat(b.len())))
        .collect();
    std::fs::write(&fq, fastq).unwrap();
    let prefix = bwa_index(&fa, dir, "ref");
    let alt = "@SQ\tSN:alt1\nalt1\t0\tmain\t1001\n alt2\t0\nalt2\r\nnot_a_contig\t0\n";
    std::fs::write(dir.join("ref.alt"), alt).unwrap();
    (prefix, fq)
}

#[test]
fn nasty_reads_on_a_nasty_reference_as_bwa() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, fq) = nasty_files(dir.path());
    let sets: Vec<&[&str]> = OPTION_SETS.iter().copied().chain([&["-k", "12", "-y", "3"][..]]).collect();
    let mut total = 0;
    for options in &sets {
        total += assert_chains_as_bwa(&prefix, &fq, options).1;
    }
    assert!(total > 3000, "only {total} chains");
    std::fs::remove_file(dir.path().join("ref.alt")).unwrap();
    assert_chains_as_bwa(&prefix, &fq, &[]);
}

/// The TSV lists the same chains; neither format depends on the thread count.
#[test]
fn tsv_and_threads() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, fq) = nasty_files(dir.path());
    let debug = galign_debug(&prefix, &fq, &["-t", "1"]);
    assert_eq!(galign_debug(&prefix, &fq, &["-t", "3"]), debug);
    let tsv = |threads: &str| run_ok(galign().args(["seeds", "-t", threads]).arg(&prefix).arg(&fq)).stdout;
    let one = tsv("1");
    assert_eq!(tsv("3"), one);
    let text = String::from_utf8(one).unwrap();
    let count = |tag: &str| text.lines().filter(|l| l.starts_with(tag)).count();
    let chains: usize = blocks(&debug).iter().map(|b| b.len() - 1).sum();
    assert_eq!(count("R\t"), blocks(&debug).len());
    assert_eq!(count("C\t"), chains);
    let seeds: usize = blocks(&debug)
        .iter()
        .flat_map(|b| &b[1..])
        .map(|l| l.iter().filter(|&&c| c == b'\t').count())
        .sum();
    assert_eq!(count("S\t"), seeds);
}

/// A read long enough for bwa's Smith-Waterman seed filter is refused, named.
#[test]
fn long_reads_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(7);
    let reference = rng.bases(5000);
    std::fs::write(dir.path().join("ref.fa"), format!(">r\n{reference}\n")).unwrap();
    let prefix = bwa_index(&dir.path().join("ref.fa"), dir.path(), "ref");
    let fq = dir.path().join("long.fq");
    let read = &reference[1000..2000];
    std::fs::write(&fq, format!("@long1\n{read}\n+\n{}\n", "I".repeat(1000))).unwrap();
    let err = run_fail(galign().arg("seeds").arg(&prefix).arg(&fq));
    assert!(err.contains("long1") && err.contains("Smith-Waterman"), "{err}");
}
