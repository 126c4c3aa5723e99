//! `galign mem` against `bwa mem -t 1` (0.7.17), paired-end: the SAM records and `@SQ`
//! lines byte for byte (only the `@PG` lines left out), on bwa's index as `galign index
//! --format bwa` writes it, for the shared real E. coli pairs (R1, R2) and generated
//! pairs (known inserts, mismatches, indels, mates that only mate rescue places, mates
//! that do not map, pairs across contig boundaries, repeats, overlapping mates, rare
//! orientations, N runs); with the defaults and -P, -S, -I, -a, -M, -U, -A, -5, -K (bwa's
//! batches, each with its own insert size estimate), and interleaved with -p (smart
//! pairing, single reads among the pairs); whatever the thread count with -K fixed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{bwa_index, galign, revcomp, run_fail, run_ok, shared_file, without_pg, Rng};

/// `OPTIONS PREFIX INPUTS` through `bwa mem -t 1` and `galign mem -t THREADS`: both
/// outputs.
fn both(prefix: &Path, inputs: &[&Path], options: &[&str], threads: &str) -> (Vec<u8>, Vec<u8>) {
    let want = run_ok(
        Command::new("bwa")
            .args(["mem", "-t", "1"])
            .args(options)
            .arg(prefix)
            .args(inputs),
    )
    .stdout;
    let got = run_ok(
        galign()
            .args(["mem", "-t", threads])
            .args(options)
            .arg(prefix)
            .args(inputs),
    )
    .stdout;
    (want, got)
}

/// Asserts that `galign mem OPTIONS` writes what `bwa mem -t 1 OPTIONS` writes (but
/// `@PG`), naming the differing records and their count; returns bwa's output.
fn assert_as_bwa(prefix: &Path, inputs: &[&Path], options: &[&str], threads: &str) -> Vec<u8> {
    let (want_sam, got_sam) = both(prefix, inputs, options, threads);
    let (want, got) = (without_pg(&want_sam), without_pg(&got_sam));
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
        "{inputs:?} {options:?}: {} of {records} records differ from bwa mem ({} vs {} lines); \
         first: {:?}",
        differing.len(),
        want.len(),
        got.len(),
        differing.first()
    );
    eprintln!("{inputs:?} {options:?}: {records} records identical");
    want_sam
}

/// The records of a SAM text, split into fields.
fn records(sam: &[u8]) -> Vec<Vec<String>> {
    String::from_utf8_lossy(sam)
        .lines()
        .filter(|l| !l.starts_with('@'))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Records whose flag has all of `set` and none of `unset`.
fn count_flags(sam: &[u8], set: u32, unset: u32) -> usize {
    records(sam)
        .iter()
        .filter(|r| {
            let f: u32 = r[1].parse().unwrap();
            f & set == set && f & unset == 0
        })
        .count()
}

/// The shared E. coli pairs: 28,160 pairs of 101 bp against E. coli K-12.
#[test]
fn ecoli_pairs_as_bwa() {
    let Some(fasta) = shared_file("ref/ecoli_K12_MG1655.fa.gz") else {
        return;
    };
    let (Some(r1), Some(r2)) = (
        shared_file("reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz"),
        shared_file("reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz"),
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let prefix = bwa_index(&fasta, dir.path());
    let inputs = [r1.as_path(), r2.as_path()];
    let sam = assert_as_bwa(&prefix, &inputs, &[], "2");
    assert_eq!(count_flags(&sam, 0x1, 0x900), 2 * 28_160);
    assert!(count_flags(&sam, 0x3, 0x904) > 50_000, "proper pairs");
    for options in [
        &["-P"][..],
        &["-S"],
        &["-a"],
        &["-M"],
        &["-I", "214,10"],
        &["-I", "250"],
        &["-U", "5", "-A", "2"],
        &["-K", "300000"],
    ] {
        assert_as_bwa(&prefix, &inputs, options, "2");
    }
}

/// Reference contigs for the generated pairs: three long random ones, short ones side
/// by side, a copy of part of the first (repeats) and one with an N run.
fn reference(rng: &mut Rng) -> Vec<(String, String)> {
    let mut contigs = vec![
        ("chrA".to_string(), rng.bases(60_000)),
        ("chrB".into(), rng.bases(30_000)),
        ("chrC".into(), rng.bases(8_000)),
    ];
    for i in 0..5 {
        let len = 300 + (rng.next() % 500) as usize;
        contigs.push((format!("tiny{i}"), rng.bases(len)));
    }
    let copy = contigs[0].1[20_000..24_000].to_string();
    contigs.push(("rep".into(), copy));
    contigs.push((
        "gappy".into(),
        format!("{}{}{}", rng.bases(3000), "N".repeat(400), rng.bases(3000)),
    ));
    contigs
}

/// `bases` with about one mismatch every `every` bases.
fn mutate(rng: &mut Rng, bases: &mut [u8], every: usize) {
    let mut at = (rng.next() as usize) % every;
    while at < bases.len() {
        let b = bases[at];
        bases[at] = b"ACGT"[((b"ACGT".iter().position(|&c| c == b).unwrap_or(0) as u64
            + 1
            + rng.next() % 3)
            % 4) as usize];
        at += every / 2 + (rng.next() as usize) % every;
    }
}

/// `bases` with an insertion (`insert`) or deletion of 1 to 10 bases inside.
fn indel(rng: &mut Rng, bases: &mut Vec<u8>, insert: bool) {
    let len = 1 + (rng.next() % 10) as usize;
    let at = 25 + (rng.next() as usize) % (bases.len() - 50);
    match insert {
        true => {
            let extra = rng.bases(len).into_bytes();
            bases.splice(at..at, extra);
        }
        false => {
            bases.drain(at..at + len);
        }
    }
}

/// A fragment length near 300 (sum of uniforms: 300 +- about 90).
fn insert_size(rng: &mut Rng) -> usize {
    210 + (0..6).map(|_| (rng.next() % 31) as usize).sum::<usize>()
}

/// Generated pairs `(name, mate 1, mate 2)` from `contigs`' joined text: FR pairs of
/// known inserts with mismatches, indels, a mate placed only by mate rescue (a
/// mismatch every ~12 bases), a random mate, fragments across contig boundaries, from
/// the repeat, overlapping mates, a few FF and RF pairs, N runs, mates of 70 to 150 bp.
fn pairs(rng: &mut Rng, contigs: &[(String, String)]) -> Vec<(String, String, String)> {
    let text: String = contigs.iter().map(|(_, b)| b.as_str()).collect();
    let clean = |s: &str| s.replace(|c: char| !"ACGT".contains(c), "A");
    let mut bounds = Vec::new();
    let mut offset = 0;
    for (_, b) in contigs {
        offset += b.len();
        bounds.push(offset);
    }
    let mut out = Vec::new();
    for i in 0..3000 {
        let len = [100, 100, 150, 70, 125][i % 5];
        let frag_len = match i % 13 {
            9 => 60 + (rng.next() % 60) as usize,
            _ => insert_size(rng),
        };
        let start = match i % 13 {
            6 => bounds[(rng.next() as usize) % (bounds.len() - 1)] - frag_len / 2,
            7 => 20_000 + (rng.next() as usize) % 3_500,
            _ => (rng.next() as usize) % (text.len() - frag_len),
        };
        let frag = clean(&text[start..start + frag_len]);
        let l = len.min(frag_len);
        let mut m1 = frag[..l].as_bytes().to_vec();
        let mut m2 = revcomp(&frag[frag_len - l..]).into_bytes();
        match i % 13 {
            1 => {
                mutate(rng, &mut m1, 40);
                mutate(rng, &mut m2, 30);
            }
            2 if l >= 70 => indel(rng, &mut m1, true),
            3 if l >= 70 => indel(rng, &mut m2, false),
            4 => mutate(rng, &mut m2, 12),
            5 => m2 = rng.bases(l).into_bytes(),
            8 if i % 2 == 0 => m2 = revcomp(&String::from_utf8(m2).unwrap()).into_bytes(),
            8 => std::mem::swap(&mut m1, &mut m2),
            10 => {
                let at = (rng.next() as usize) % (l - 10);
                m1[at..at + 8].fill(b'N');
            }
            11 => mutate(rng, &mut m1, 14),
            _ => {}
        }
        if rng.next() % 2 == 0 {
            std::mem::swap(&mut m1, &mut m2);
        }
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        out.push((format!("p{i}"), text(m1), text(m2)));
    }
    out
}

/// A FASTQ record.
fn fastq(name: &str, bases: &str) -> String {
    format!("@{name}\n{bases}\n+\n{}\n", "I".repeat(bases.len()))
}

/// The generated reference's index and its pairs as two files (mates named `/1` and
/// `/2`) and interleaved with single reads among them, in `dir`.
fn generated(dir: &Path) -> (PathBuf, PathBuf, PathBuf, PathBuf) {
    let mut rng = Rng(6565);
    let contigs = reference(&mut rng);
    let pairs = pairs(&mut rng, &contigs);
    let fasta: String = contigs
        .iter()
        .map(|(h, b)| format!(">{h}\n{b}\n"))
        .collect();
    let fasta_path = dir.join("ref.fa");
    std::fs::write(&fasta_path, fasta).unwrap();
    let (mut r1, mut r2, mut inter) = (String::new(), String::new(), String::new());
    for (k, (name, m1, m2)) in pairs.iter().enumerate() {
        r1.push_str(&fastq(&format!("{name}/1"), m1));
        r2.push_str(&fastq(&format!("{name}/2"), m2));
        inter.push_str(&fastq(&format!("{name}/1"), m1));
        inter.push_str(&fastq(&format!("{name}/2"), m2));
        if k % 97 == 5 {
            inter.push_str(&fastq(
                &format!("single{k}"),
                &m1.chars().rev().collect::<String>(),
            ));
        }
    }
    let paths = [dir.join("r1.fq"), dir.join("r2.fq"), dir.join("inter.fq")];
    for (path, text) in paths.iter().zip([r1, r2, inter]) {
        std::fs::write(path, text).unwrap();
    }
    let [p1, p2, p3] = paths;
    (bwa_index(&fasta_path, dir), p1, p2, p3)
}

/// The generated pairs, each kind of them present, as bwa with every option set.
#[test]
fn generated_pairs_as_bwa() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, r1, r2, _) = generated(dir.path());
    let inputs = [r1.as_path(), r2.as_path()];
    let sam = assert_as_bwa(&prefix, &inputs, &[], "2");
    // mates placed, mates unmapped beside a mapped mate, pairs across contigs
    assert!(count_flags(&sam, 0x3, 0x900) > 4000, "proper pairs");
    assert!(
        count_flags(&sam, 0x9, 0x4) > 100,
        "mapped mates of unmapped ones"
    );
    assert!(
        count_flags(&sam, 0x5, 0x8) > 100,
        "unmapped mates of mapped ones"
    );
    let across = records(&sam)
        .iter()
        .filter(|r| r[6] != "=" && r[6] != "*")
        .count();
    assert!(
        across > 20,
        "{across} records with the mate on another contig"
    );
    assert!(count_flags(&sam, 0x800, 0) > 0, "supplementary lines");
    // mate rescue places mates the seeds miss
    let (no_rescue, _) = both(&prefix, &inputs, &["-S"], "1");
    let mapped_with = count_flags(&sam, 0, 0x904);
    let mapped_without = count_flags(&no_rescue, 0, 0x904);
    assert!(
        mapped_with > mapped_without + 100,
        "rescue: {mapped_with} mapped, without: {mapped_without}"
    );
    for options in [
        &["-S"][..],
        &["-P"],
        &["-I", "300,30"],
        &["-I", "300,30,420,250"],
        &["-I", "280"],
        &["-a"],
        &["-M", "-Y"],
        &["-5"],
        &["-U", "30", "-m", "3"],
        &["-A", "2", "-B", "6", "-O", "5,7"],
        &["-T", "10", "-k", "15"],
        &["-K", "60000"],
    ] {
        assert_as_bwa(&prefix, &inputs, options, "2");
    }
}

/// bwa's batches: with -K small (about a dozen pairs a batch, some batches too few for
/// an estimate), each batch has its own insert size estimate, and the output differs
/// from one batch's (so the batches are what is compared); with -K fixed the thread
/// count changes nothing.
#[test]
fn batches_as_bwa_and_threads_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, r1, r2, _) = generated(dir.path());
    let inputs = [r1.as_path(), r2.as_path()];
    let one = assert_as_bwa(&prefix, &inputs, &[], "1");
    let small = assert_as_bwa(&prefix, &inputs, &["-K", "2500"], "1");
    assert!(
        without_pg(&one) != without_pg(&small),
        "-K 2500 changes nothing"
    );
    for threads in ["2", "3"] {
        assert_as_bwa(&prefix, &inputs, &["-K", "2500"], threads);
    }
}

/// Interleaved pairs with `-p`: smart pairing, single reads among them written as
/// single-end, in bwa's batches too.
#[test]
fn interleaved_pairs_as_bwa() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, _, _, inter) = generated(dir.path());
    let sam = assert_as_bwa(&prefix, &[&inter], &["-p"], "2");
    let singles = records(&sam)
        .iter()
        .filter(|r| r[0].starts_with("single"))
        .map(|r| r[1].parse::<u32>().unwrap() & 0x1)
        .collect::<Vec<_>>();
    assert!(!singles.is_empty() && singles.iter().all(|&f| f == 0));
    assert_as_bwa(&prefix, &[&inter], &["-p", "-K", "30001"], "2");
}

/// Mates named differently, inputs of different lengths, `-p` with two inputs and a bad
/// `-I` are clear errors; `--device gpu` is refused for pairs too.
#[test]
fn bad_pairs_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let (prefix, r1, r2, _) = generated(dir.path());
    let text = std::fs::read_to_string(&r2).unwrap();
    let renamed = dir.path().join("renamed.fq");
    std::fs::write(&renamed, text.replacen("@p2/2", "@q2/2", 1)).unwrap();
    let err = run_fail(galign().arg("mem").arg(&prefix).arg(&r1).arg(&renamed));
    assert!(
        err.contains("pair 3 has mates named 'p2' and 'q2'"),
        "{err}"
    );
    let short = dir.path().join("short.fq");
    let lines: Vec<&str> = text.lines().take(400).collect();
    std::fs::write(&short, lines.join("\n") + "\n").unwrap();
    let err = run_fail(galign().arg("mem").arg(&prefix).arg(&r1).arg(&short));
    assert!(
        err.contains("has more reads than") && err.contains("short.fq"),
        "{err}"
    );
    let err = run_fail(galign().args(["mem", "-p"]).arg(&prefix).arg(&r1).arg(&r2));
    assert!(
        err.contains("-p: the pairs come interleaved in one file"),
        "{err}"
    );
    let err = run_fail(
        galign()
            .args(["mem", "-I", "x"])
            .arg(&prefix)
            .arg(&r1)
            .arg(&r2),
    );
    assert!(err.contains("-I 'x'"), "{err}");
    let err = run_fail(
        galign()
            .args(["mem", "--device", "gpu"])
            .arg(&prefix)
            .arg(&r1)
            .arg(&r2),
    );
    assert!(
        err.contains("--device gpu: galign mem runs on the CPU only"),
        "{err}"
    );
}
