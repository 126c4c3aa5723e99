//! `galign map -v K` (K = 1..3): every hit, with its mismatches, against a brute-force
//! scan of a nasty reference (contig boundaries, N and IUPAC runs, soft-masking,
//! homopolymers, short reads, reads with N), MD and XA checked against the reference
//! too; NM and MD as `samtools calmd` computes them on real reads; output byte-identical
//! whatever the threads or batch size; `-v 0` unchanged; K > 0 on the device `--device`
//! names, with the CPU's bytes; paired-end with K per mate.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use common::*;

/// Mismatches of `read` against `window` (a read base that is not ACGT mismatches).
fn mismatches(read: &[u8], window: &[u8]) -> usize {
    read.iter()
        .zip(window)
        .filter(|(r, w)| r != w || !b"ACGT".contains(r))
        .count()
}

/// Every (contig, strand, position) where `read` or its reverse complement lies within
/// `k` mismatches of the contig's upper-cased bases, never over a non-ACGT base.
fn brute_force(contigs: &[(String, String)], name: &str, read: &str, k: usize) -> BTreeSet<Scored> {
    let mut hits = BTreeSet::new();
    if read.is_empty() {
        return hits;
    }
    let rc = revcomp(read);
    for (cname, seq) in contigs {
        let seq = seq.to_ascii_uppercase().into_bytes();
        for pos in 0..(seq.len() + 1).saturating_sub(read.len()) {
            let window = &seq[pos..pos + read.len()];
            if window.iter().any(|b| !b"ACGT".contains(b)) {
                continue;
            }
            for (strand, reverse) in [(read, false), (&rc, true)] {
                let found = mismatches(strand.as_bytes(), window);
                if found <= k {
                    let hit = (name.to_string(), reverse, cname.clone(), pos as u64);
                    hits.insert((hit, found as u8));
                }
            }
        }
    }
    hits
}

/// The MD value of `read` (on the reference strand) against `window`.
fn md(read: &[u8], window: &[u8]) -> String {
    let (mut out, mut run) = (String::new(), 0);
    for (r, w) in read.iter().zip(window) {
        if r == w && b"ACGT".contains(r) {
            run += 1;
        } else {
            out += &format!("{run}{}", *w as char);
            run = 0;
        }
    }
    out + &run.to_string()
}

fn tag<'a>(fields: &[&'a str], name: &str) -> Option<&'a str> {
    fields[11..].iter().find_map(|t| t.strip_prefix(name))
}

#[test]
fn hits_with_mismatches_equal_a_brute_force_scan_on_a_nasty_reference() {
    let mut rng = Rng(7);
    let contigs = nasty_contigs(&mut rng);
    let dir = tempfile::tempdir().unwrap();
    let ref_path = dir.path().join("nasty.fa");
    write_fasta(&contigs, &ref_path);
    let joined: String = contigs
        .iter()
        .map(|(_, s)| s.to_ascii_uppercase())
        .collect();
    let mut reads: Vec<(String, String)> = Vec::new();
    let mut add = |seq: String| reads.push((format!("r{}", reads.len()), seq));
    for i in 0..240 {
        let len = [1, 2, 3, 4, 5, 8, 12, 20, 33, 50][i % 10];
        let start = (rng.next() as usize) % (joined.len() - len);
        let mut read = joined.as_bytes()[start..start + len].to_vec();
        for _ in 0..rng.next() % 5 {
            let at = (rng.next() as usize) % len;
            read[at] = b"ACGTN"[(rng.next() % 5) as usize];
        }
        let read = String::from_utf8(read).unwrap();
        add(if rng.next().is_multiple_of(2) {
            revcomp(&read)
        } else {
            read
        });
    }
    add("A".repeat(30));
    add(format!("{}C{}", "A".repeat(20), "A".repeat(9)));
    add("ACG".repeat(10));
    add("NNNAC".into());
    add(joined[590..640].to_string()); // across chrA/chrB
    add(rng.bases(60));
    let fq_path = dir.path().join("reads.fq");
    write_fastq(&reads, &fq_path);
    let prefix = index(&ref_path, dir.path(), "nasty", "cpu");
    let by_name: BTreeMap<&str, &str> = reads.iter().map(|(n, s)| (&n[..], &s[..])).collect();
    let contig_seq: BTreeMap<&str, String> = contigs
        .iter()
        .map(|(n, s)| (&n[..], s.to_ascii_uppercase()))
        .collect();

    for k in 1..=3 {
        let expected: BTreeSet<Scored> = reads
            .iter()
            .flat_map(|(n, s)| brute_force(&contigs, n, s, k))
            .collect();
        let map = |all: bool| {
            let mut cmd = galign();
            cmd.args(["map", "--device", "cpu", "-v", &k.to_string()]);
            if all {
                cmd.arg("-a");
            } else {
                cmd.args(["-k", "1000"]);
            }
            String::from_utf8(run_ok(cmd.arg(&prefix).arg(&fq_path)).stdout).unwrap()
        };
        // -a: every hit, with its NM; MD from the reference.
        let sam = map(true);
        let got = sam_mismatches(&sam);
        assert!(expected.len() > 1000, "k {k}: the test exercises many hits");
        let missing: Vec<_> = expected.difference(&got).take(5).collect();
        let extra: Vec<_> = got.difference(&expected).take(5).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "k {k}: missing {missing:?}; extra {extra:?}"
        );
        for line in sam.lines().filter(|l| !l.starts_with('@')) {
            let f: Vec<&str> = line.split('\t').collect();
            let flag: u16 = f[1].parse().unwrap();
            if flag & 4 != 0 {
                continue;
            }
            let read = by_name[f[0]];
            let oriented = if flag & 16 != 0 {
                revcomp(read)
            } else {
                read.to_string()
            };
            let pos = f[3].parse::<usize>().unwrap() - 1;
            let window = &contig_seq[f[2]].as_bytes()[pos..pos + read.len()];
            assert_eq!(
                tag(&f, "MD:Z:"),
                Some(&md(oriented.as_bytes(), window)[..]),
                "{line}"
            );
        }
        // Without -a: the primary is in the best stratum, XA lists the others with NM.
        let best: BTreeMap<&str, u8> = expected.iter().fold(BTreeMap::new(), |mut m, (h, nm)| {
            let e = m.entry(&h.0[..]).or_insert(*nm);
            *e = (*e).min(*nm);
            m
        });
        let sam = map(false);
        let mut alternatives = 0;
        for line in sam.lines().filter(|l| !l.starts_with('@')) {
            let f: Vec<&str> = line.split('\t').collect();
            let Some(nm) = tag(&f, "NM:i:") else {
                assert!(!best.contains_key(f[0]), "{line}");
                continue;
            };
            assert_eq!(nm.parse::<u8>().unwrap(), best[f[0]], "{line}");
            for alt in tag(&f, "XA:Z:").unwrap_or("").split_terminator(';') {
                let a: Vec<&str> = alt.split(',').collect();
                let hit = (
                    f[0].to_string(),
                    a[1].starts_with('-'),
                    a[0].to_string(),
                    a[1][1..].parse::<u64>().unwrap() - 1,
                );
                assert!(
                    expected.contains(&(hit, a[3].parse().unwrap())),
                    "{alt} in {line}"
                );
                alternatives += 1;
            }
        }
        assert!(
            alternatives > 100,
            "k {k}: {alternatives} alternatives checked"
        );
    }
}

fn chrm_index(dir: &Path) -> std::path::PathBuf {
    index(&data("human_rCRS_chrM_NC_012920.fa.gz"), dir, "chrM", "cpu")
}

/// The records of a SAM text (header lines dropped).
fn records(sam: &str) -> Vec<&str> {
    sam.lines().filter(|l| !l.starts_with('@')).collect()
}

#[test]
fn samtools_calmd_finds_nm_and_md_right_and_output_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    let sam = dir.path().join("out.sam");
    let mut outputs = Vec::new();
    for (t, batch) in [("2", "65536"), ("1", "777"), ("2", "1")] {
        run_ok(
            galign()
                .args(["map", "-v", "3", "-t", t, "--batch-size", batch, "-o"])
                .arg(&sam)
                .arg(&prefix)
                .arg(&reads),
        );
        outputs.push(std::fs::read_to_string(&sam).unwrap());
    }
    assert!(
        outputs.iter().all(|o| o == &outputs[0]),
        "-v 3 output differs with threads or batch size"
    );
    let text = &outputs[0];
    let with_mismatches = records(text)
        .iter()
        .filter(|l| l.contains("\tNM:i:") && !l.contains("\tNM:i:0"))
        .count();
    assert!(
        with_mismatches > 2000,
        "{with_mismatches} records with mismatches"
    );
    let fasta = dir.path().join("chrM.fa");
    let plain = run_ok(Command::new("sh").arg("-c").arg(format!(
        "zcat '{}'",
        data("human_rCRS_chrM_NC_012920.fa.gz").display()
    )))
    .stdout;
    std::fs::write(&fasta, plain).unwrap();
    run_ok(Command::new("samtools").arg("quickcheck").arg(&sam));
    let calmd = run_ok(
        Command::new("samtools")
            .args(["calmd", "--no-PG"])
            .arg(&sam)
            .arg(&fasta),
    );
    let stderr = String::from_utf8_lossy(&calmd.stderr);
    assert!(!stderr.contains("different"), "calmd: {stderr}");
    let recomputed = String::from_utf8(calmd.stdout).unwrap();
    assert!(
        records(&recomputed) == records(text),
        "calmd changed records"
    );
}

#[test]
fn v0_is_exact_mapping_unchanged_and_k_grows_the_mapped_reads() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    let map = |args: &[&str]| {
        let out = run_ok(galign().arg("map").args(args).arg(&prefix).arg(&reads));
        String::from_utf8(out.stdout).unwrap()
    };
    let default = map(&[]);
    assert!(
        records(&map(&["-v", "0"])) == records(&default),
        "-v 0 is the default"
    );
    let mapped = |sam: &str| {
        records(sam)
            .iter()
            .filter(|l| l.split('\t').nth(1).unwrap().parse::<u16>().unwrap() & 4 == 0)
            .count()
    };
    let counts: Vec<usize> = (0..=3)
        .map(|k| mapped(&map(&["-v", &k.to_string()])))
        .collect();
    assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
    let v9 = galign()
        .args(["map", "-v", "4"])
        .arg(&prefix)
        .arg(&reads)
        .output()
        .unwrap();
    assert_eq!(v9.status.code(), Some(2), "-v 4 is a usage error");
}

/// `-v K` goes where exact search goes: `auto` uses the GPU when usable and the CPU
/// otherwise (with the same bytes), `gpu` maps on the GPU or fails for want of one, and
/// neither says that the mismatch search has no GPU kernel.
#[test]
fn mismatches_search_where_the_device_choice_says() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    let map = |k: &str, device: &str| {
        galign()
            .args(["map", "-v", k, "--device", device])
            .arg(&prefix)
            .arg(&reads)
            .output()
            .unwrap()
    };
    for k in ["1", "2", "3"] {
        let cpu = map(k, "cpu");
        assert!(cpu.status.success());
        for device in ["auto", "gpu"] {
            let out = map(k, device);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.contains("runs on the CPU"), "{stderr}");
            assert!(!stderr.contains("no mismatch search"), "{stderr}");
            if device == "gpu" && !out.status.success() {
                // No usable GPU here: the error is about the GPU, not about -v, and
                // nothing went to stdout (not even the header).
                assert!(
                    stderr.contains("--device gpu") && !stderr.contains("-v"),
                    "{stderr}"
                );
                assert!(out.stdout.is_empty(), "stdout of a failed run: {stderr}");
                continue;
            }
            assert!(out.status.success(), "-v {k} --device {device}: {stderr}");
            assert!(out.stdout == cpu.stdout, "-v {k} --device {device}");
            if !Path::new("/dev/nvidia0").exists() {
                // The GPU opened while the index loaded failed: said once, then the CPU.
                assert_eq!(stderr.matches("GPU not used").count(), 1, "{stderr}");
            }
        }
    }
}

#[test]
fn pairs_map_each_mate_with_k_mismatches() {
    let Some([ecoli, r1, r2]) = shared_files([
        "ref/ecoli_K12_MG1655.fa.gz",
        "reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz",
        "reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz",
    ]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let prefix = index(&ecoli, dir.path(), "ecoli", "cpu");
    let single = |reads: &Path| {
        let out = run_ok(
            galign()
                .args(["map", "-a", "-v", "2"])
                .arg(&prefix)
                .arg(reads),
        );
        sam_mismatches(&String::from_utf8(out.stdout).unwrap())
    };
    let singles: BTreeSet<Scored> = single(&r1).into_iter().chain(single(&r2)).collect();
    let out = run_ok(
        galign()
            .args(["map", "-v", "2"])
            .arg(&prefix)
            .arg(&r1)
            .arg(&r2),
    );
    let sam = String::from_utf8(out.stdout).unwrap();
    let (mut proper, mut with_mismatches) = (0, 0);
    for line in records(&sam) {
        let f: Vec<&str> = line.split('\t').collect();
        let flag: u16 = f[1].parse().unwrap();
        assert!(flag & 1 != 0, "{line}");
        proper += (flag & 2 != 0) as usize;
        if flag & 4 == 0 {
            let nm: u8 = tag(&f, "NM:i:").unwrap().parse().unwrap();
            with_mismatches += (nm > 0) as usize;
            let hit = (
                strip_mate(f[0]).to_string(),
                flag & 16 != 0,
                f[2].to_string(),
                f[3].parse::<u64>().unwrap() - 1,
            );
            assert!(singles.contains(&(hit, nm)), "{line}");
        }
    }
    assert!(
        proper > 40_000 && with_mismatches > 100,
        "{proper} proper, {with_mismatches} with mismatches"
    );
}
