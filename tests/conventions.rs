//! What a bwa/bowtie2 user expects of the command line (issue 66): an empty reads input
//! maps to a header-only output (an empty reference stays an error), and `fastmap` of no
//! reads prints nothing, as bwa fastmap does; `map` takes the index file itself, and a
//! missing or old index names the command that builds it at its prefix; the device line
//! comes once, short, after the inputs are open; `--verbose` and `--quiet` on every
//! command; README and `--help` agree on the flags and the GPU's bytes a base; `-O sam|bam`
//! or the output's extension picks the format, and CRAM and compressed SAM are refused;
//! `--un`/`--al` and `--un-conc`/`--al-conc` write the reads back as bowtie2's do.

mod common;

use std::path::{Path, PathBuf};

use common::*;

/// The bundled chrM reference indexed (galign's index) in `dir`.
fn chrm_index(dir: &Path) -> PathBuf {
    index(&data("human_rCRS_chrM_NC_012920.fa.gz"), dir, "chrM", "cpu")
}

/// Whether `sam` is a header and nothing else, with its `@SQ` line.
fn header_only(sam: &str) -> bool {
    sam.starts_with("@HD") && sam.contains("@SQ\tSN:") && sam.lines().all(|l| l.starts_with('@'))
}

#[test]
fn empty_reads_give_a_header_only_sam_or_bam_and_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let empty = dir.path().join("empty.fq");
    std::fs::write(&empty, b"").unwrap();
    let sam = run_ok(galign().arg("map").arg(&prefix).arg(&empty)).stdout;
    assert!(header_only(&String::from_utf8(sam).unwrap()));
    // Pairs, to BAM: samtools reads the header and no record.
    let bam = dir.path().join("out.bam");
    let empty2 = dir.path().join("empty2.fq");
    std::fs::write(&empty2, b"").unwrap();
    let mut cmd = galign();
    cmd.args(["map", "-o"])
        .arg(&bam)
        .arg(&prefix)
        .arg(&empty)
        .arg(&empty2);
    run_ok(&mut cmd);
    let view = std::process::Command::new("samtools")
        .arg("view")
        .arg("-h")
        .arg(&bam)
        .output()
        .unwrap();
    assert!(view.status.success());
    assert!(header_only(&String::from_utf8(view.stdout).unwrap()));
    // One mate empty and the other not is still an error.
    let one = dir.path().join("one.fq");
    std::fs::write(&one, b"@r\nACGT\n+\nIIII\n").unwrap();
    let e = run_fail(galign().arg("map").arg(&prefix).arg(&one).arg(&empty));
    assert!(e.contains("has more reads than"), "{e}");
}

#[test]
fn an_empty_reference_is_still_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.fa");
    std::fs::write(&empty, b"").unwrap();
    let e = run_fail(galign().args(["index", "--device", "cpu"]).arg(&empty));
    assert!(e.contains("empty"), "{e}");
    assert_eq!(files_in(dir.path()), ["empty.fa".to_string()].into());
}

#[test]
fn fastmap_of_no_reads_prints_nothing_as_bwa_does() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("chrM");
    let mut cmd = galign();
    cmd.args(["index", "--device", "cpu", "--format", "bwa", "-p"])
        .arg(&prefix)
        .arg(data("human_rCRS_chrM_NC_012920.fa.gz"));
    run_ok(&mut cmd);
    let empty = dir.path().join("empty.fq.gz");
    std::fs::write(&empty, b"").unwrap();
    let out = run_ok(galign().arg("fastmap").arg(&prefix).arg(&empty));
    assert!(
        out.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Maps the bundled chrM reads (the first 400 records) to `prefix`; the SAM records.
fn map_records(prefix: &Path, dir: &Path) -> Vec<String> {
    let reads = dir.join("r.fq");
    if !reads.exists() {
        let text = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "zcat {} | head -400",
                data("NA12878_chrM_20k.fq.gz").display()
            ))
            .output()
            .unwrap()
            .stdout;
        std::fs::write(&reads, text).unwrap();
    }
    let sam = run_ok(
        galign()
            .args(["map", "--device", "cpu"])
            .arg(prefix)
            .arg(&reads),
    )
    .stdout;
    let sam = String::from_utf8(sam).unwrap();
    sam.lines()
        .filter(|l| !l.starts_with('@'))
        .map(str::to_string)
        .collect()
}

#[test]
fn map_takes_the_index_file_itself_and_a_missing_or_old_index_names_its_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let file = dir.path().join("chrM.galign");
    let records = map_records(&prefix, dir.path());
    assert_eq!(records.len(), 100);
    assert_eq!(map_records(&file, dir.path()), records);
    // A missing index: the command that builds it, at the prefix given.
    let absent = dir.path().join("absent");
    let e = run_fail(
        galign()
            .arg("map")
            .arg(&absent)
            .arg(dir.path().join("r.fq")),
    );
    let build = format!("galign index -p {} REFERENCE.fa", absent.display());
    assert!(e.contains("no such index") && e.contains(&build), "{e}");
    // An index of an older format: the command that rebuilds it, at its own prefix.
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[8..12].copy_from_slice(&3u32.to_le_bytes());
    let old = dir.path().join("old.galign");
    std::fs::write(&old, bytes).unwrap();
    let e = run_fail(
        galign()
            .arg("map")
            .arg(dir.path().join("old"))
            .arg(dir.path().join("r.fq")),
    );
    let rebuild = format!(
        "galign index -p {} REFERENCE.fa",
        dir.path().join("old").display()
    );
    assert!(
        e.contains("format version 3") && e.contains(&rebuild),
        "{e}"
    );
}

/// The `[galign]` lines of `stderr`.
fn said(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("[galign]"))
        .collect()
}

#[test]
fn no_device_line_comes_before_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let missing = dir.path().join("missing.fq");
    for device in ["auto", "cpu"] {
        let e = run_fail(
            galign()
                .args(["map", "--device", device])
                .arg(&prefix)
                .arg(&missing),
        );
        assert!(e.contains("missing.fq: cannot open"), "{e}");
        assert!(said(&e).is_empty(), "{e}");
        let e = run_fail(
            galign()
                .args(["fastmap", "--device", device])
                .arg(&prefix)
                .arg(&missing),
        );
        assert!(said(&e).is_empty(), "{e}");
        let mut cmd = galign();
        cmd.args(["index", "--device", device, "-p"])
            .arg(dir.path().join("x"))
            .arg(&missing);
        let e = run_fail(&mut cmd);
        assert!(e.contains("cannot open") && said(&e).is_empty(), "{e}");
    }
}

#[test]
fn the_device_line_comes_once_short_with_threads_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    let out = run_ok(
        galign()
            .args(["map", "-t", "1", "-o", "/dev/null"])
            .arg(&prefix)
            .arg(&reads),
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines = said(&stderr);
    let device: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains("CPU") || l.contains("GPU"))
        .collect();
    assert_eq!(device.len(), 1, "{stderr}");
    assert!(
        device[0].contains("on 1 thread;") && device[0].len() < 160,
        "{stderr}"
    );
    // With mismatches the GPU is tried: where none is usable, one short line says so.
    let out = run_ok(
        galign()
            .args(["map", "-v", "1", "-o", "/dev/null"])
            .arg(&prefix)
            .arg(&reads),
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let device: Vec<&str> = said(&stderr)
        .into_iter()
        .filter(|l| l.contains("GPU"))
        .collect();
    assert!(device.len() <= 1, "{stderr}");
    assert!(
        device.iter().all(|l| l.len() < 120 && !l.contains("((")),
        "{stderr}"
    );
}

#[test]
fn verbose_and_quiet_are_spelled_alike_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let fasta = data("human_rCRS_chrM_NC_012920.fa.gz");
    let prefix = dir.path().join("chrM");
    let mut cmd = galign();
    cmd.args(["index", "--device", "cpu", "--quiet", "-p"])
        .arg(&prefix)
        .arg(&fasta);
    assert!(run_ok(&mut cmd).stderr.is_empty());
    let mut cmd = galign();
    cmd.args(["index", "--device", "cpu", "--verbose", "-p"])
        .arg(&prefix)
        .arg(&fasta);
    assert!(String::from_utf8(run_ok(&mut cmd).stderr)
        .unwrap()
        .contains(" s (ended at "));
    // The former `-v` still works for index and sa.
    let mut cmd = galign();
    cmd.args(["sa", "--device", "cpu", "-v", "-o"])
        .arg(dir.path().join("x.sa"))
        .arg(&fasta);
    assert!(String::from_utf8(run_ok(&mut cmd).stderr)
        .unwrap()
        .contains(" s (ended at "));
    let reads = data("NA12878_chrM_20k.fq.gz");
    let out = run_ok(
        galign()
            .args(["map", "-q", "-o", "/dev/null"])
            .arg(&prefix)
            .arg(&reads),
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run_ok(
        galign()
            .args(["map", "--verbose", "-o", "/dev/null"])
            .arg(&prefix)
            .arg(&reads),
    );
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("busy seconds per stage"));
    // `index -v 2 ref.fa` (map's -v K given to index): a clear error, not clap's about
    // --assemble.
    let e = run_fail(galign().args(["index", "-v", "2"]).arg(&fasta));
    assert!(
        e.contains("unexpected argument") && e.contains("-v K"),
        "{e}"
    );
    assert!(!e.contains("--assemble <"), "{e}");
}

/// The flags of `galign COMMAND --help` (each option's spellings, `-h` and `-V` aside).
fn help_flags(command: &str) -> Vec<Vec<String>> {
    let help = run_ok(galign().args([command, "--help"])).stdout;
    let help = String::from_utf8(help).unwrap();
    let mut options = Vec::new();
    for line in help.lines().map(str::trim_start) {
        let spellings: Vec<String> = line
            .split([',', ' '])
            .take_while(|w| {
                w.starts_with('-')
                    && w.chars()
                        .nth(1)
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == '-')
            })
            .map(str::to_string)
            .collect();
        let common = ["-h", "--help", "-V", "--version"];
        if !spellings.is_empty() && !spellings.iter().any(|s| common.contains(&s.as_str())) {
            options.push(spellings);
        }
    }
    options
}

/// The flags that README's command table lists for `galign COMMAND` (all its rows).
fn readme_flags(command: &str) -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = format!("| `galign {command} ");
    let mut flags = Vec::new();
    for row in readme.lines().filter(|l| l.starts_with(&start)) {
        let cell = &row[3..row[3..].find("` |").expect("a closed cell") + 3];
        let words = cell.split(|c: char| c.is_whitespace() || "[]|\\".contains(c));
        let words = words.filter(|w| {
            w.starts_with('-') && w[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '-')
        });
        flags.extend(words.map(str::to_string));
    }
    flags
}

#[test]
fn readme_and_help_list_the_same_flags() {
    for command in ["index", "map", "sa", "fastmap"] {
        let help = help_flags(command);
        let readme = readme_flags(command);
        assert!(!help.is_empty() && !readme.is_empty(), "{command}");
        for flag in &readme {
            assert!(
                help.iter().flatten().any(|h| h == flag),
                "README lists {flag} for {command}; --help does not"
            );
        }
        for option in &help {
            assert!(
                option.iter().any(|o| readme.contains(o)),
                "--help lists {option:?} for {command}; README does not"
            );
        }
    }
}

#[test]
fn readme_and_help_give_the_same_gpu_bytes_a_base() {
    use galign::gpu::sa::Algorithm;
    let [d, h, s] = [Algorithm::Doubling, Algorithm::Hybrid, Algorithm::Skew]
        .map(Algorithm::whole_bytes_per_base);
    let phrase = format!("{d} bytes a base with doubling, {h} with hybrid and auto, {s} with skew");
    let squeeze = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme = squeeze(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap(),
    );
    let help =
        squeeze(&String::from_utf8(run_ok(galign().args(["index", "--help"])).stdout).unwrap());
    assert!(readme.contains(&phrase), "README lacks '{phrase}'");
    assert!(
        help.contains(&phrase),
        "--gpu-memory's help lacks '{phrase}'"
    );
    // --sa-algorithm's values say the same figures, and no other.
    for (name, bytes) in [("doubling", d), ("hybrid", h), ("skew", s)] {
        let line = help
            .split(&format!("- {name}: "))
            .nth(1)
            .unwrap()
            .split(" - ")
            .next()
            .unwrap();
        assert!(
            line.contains(&format!("in {bytes} bytes a base")),
            "{name}: {line}"
        );
    }
}

#[test]
fn the_output_format_comes_from_o_or_the_extension_and_what_is_not_written_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    let bam = dir.path().join("x.bam");
    run_ok(
        galign()
            .args(["map", "-o"])
            .arg(&bam)
            .arg(&prefix)
            .arg(&reads),
    );
    let records = |path: &Path| {
        let view = std::process::Command::new("samtools")
            .arg("view")
            .arg(path)
            .output()
            .unwrap();
        assert!(view.status.success(), "{}", path.display());
        view.stdout
    };
    let want = records(&bam);
    assert!(!want.is_empty());
    // BAM to stdout with -O bam: the .bam file's records.
    let stdout = run_ok(galign().args(["map", "-O", "bam"]).arg(&prefix).arg(&reads)).stdout;
    assert_eq!(&stdout[..4], b"\x1f\x8b\x08\x04", "BGZF");
    let piped = dir.path().join("piped");
    std::fs::write(&piped, stdout).unwrap();
    assert!(records(&piped) == want);
    // -O bam whatever the name.
    let named = dir.path().join("x.out");
    run_ok(
        galign()
            .args(["map", "-O", "bam", "-o"])
            .arg(&named)
            .arg(&prefix)
            .arg(&reads),
    );
    assert!(records(&named) == want);
    // Refused, naming what to do, and nothing written.
    let refusals: [(&[&str], &str); 4] = [
        (&["-o", "y.cram"], "not CRAM"),
        (
            &["-O", "cram"],
            "-O cram: galign writes SAM or BAM, not CRAM",
        ),
        (&["-o", "y.sam.gz"], "not compressed SAM (.gz)"),
        (&["-O", "sam", "-o", "y.bam"], "-O sam but"),
    ];
    for (args, expected) in refusals {
        let mut cmd = galign();
        cmd.current_dir(dir.path())
            .arg("map")
            .args(args)
            .arg(&prefix)
            .arg(&reads);
        let e = run_fail(&mut cmd);
        assert!(e.contains(expected), "{args:?}: {e}");
        assert!(
            !files_in(dir.path()).iter().any(|f| f.starts_with('y')),
            "{args:?}"
        );
    }
}

/// The FASTQ records (4 lines each) of `path`, gzip or plain.
fn fastq_records(path: &Path) -> Vec<[String; 4]> {
    let text = std::process::Command::new("gzip")
        .args(["-dcf"])
        .arg(path)
        .output()
        .unwrap()
        .stdout;
    let text = String::from_utf8(text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len() % 4, 0, "{}", path.display());
    lines
        .chunks(4)
        .map(|r| std::array::from_fn(|i| r[i].to_string()))
        .collect()
}

/// The (name, flag) of each SAM record of `sam`.
fn names_and_flags(sam: &[u8]) -> Vec<(String, u32)> {
    let sam = String::from_utf8(sam.to_vec()).unwrap();
    let records = sam.lines().filter(|l| !l.starts_with('@'));
    records
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse().unwrap())
        })
        .filter(|(_, flag)| flag & 0x900 == 0)
        .collect()
}

#[test]
fn un_and_al_write_the_reads_by_how_they_mapped_as_bowtie2() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    let (un, al) = (dir.path().join("un.fq"), dir.path().join("al.fq.gz"));
    let mut cmd = galign();
    cmd.arg("map")
        .arg("--un")
        .arg(&un)
        .arg("--al")
        .arg(&al)
        .arg(&prefix)
        .arg(&reads);
    let sam = run_ok(&mut cmd).stdout;
    let records = names_and_flags(&sam);
    let input = fastq_records(&reads);
    let (un, al) = (fastq_records(&un), fastq_records(&al));
    assert_eq!(un.len() + al.len(), input.len());
    assert!(!un.is_empty() && !al.is_empty());
    let unmapped: Vec<&String> = records
        .iter()
        .filter(|r| r.1 & 4 != 0)
        .map(|r| &r.0)
        .collect();
    let names = |reads: &[[String; 4]]| -> Vec<String> {
        reads.iter().map(|r| r[0][1..].to_string()).collect()
    };
    assert_eq!(names(&un).iter().collect::<Vec<_>>(), unmapped);
    // Bases and qualities as read, names as in the SAM output.
    let key = |r: &[String; 4], name: &str| (name.to_string(), r[1].clone(), r[3].clone());
    let mut written: Vec<_> = un.iter().chain(&al).map(|r| key(r, &r[0][1..])).collect();
    let sam_name = |r: &[String; 4]| {
        let name = r[0][1..].split_whitespace().next().unwrap().to_string();
        name.strip_suffix("/1")
            .or(name.strip_suffix("/2"))
            .map_or(name.clone(), str::to_string)
    };
    let mut read: Vec<_> = input.iter().map(|r| key(r, &sam_name(r))).collect();
    written.sort();
    read.sort();
    assert!(
        written == read,
        "the reads written back differ from those read"
    );
    // Pairs: --un for single reads is refused, naming --un-conc.
    let mates = dir.path().join("mates.fq.gz");
    std::fs::copy(&reads, &mates).unwrap();
    let e = run_fail(
        galign()
            .arg("map")
            .arg("--un")
            .arg(dir.path().join("u.fq"))
            .arg(&prefix)
            .arg(&reads)
            .arg(&mates),
    );
    assert!(e.contains("use --un-conc"), "{e}");
    assert!(!dir.path().join("u.fq").exists());
}

#[test]
fn un_conc_and_al_conc_write_each_mate_to_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    // Mate 2 of each pair is mate 1 reverse-complemented: a proper pair where mate 1
    // maps uniquely.
    let input = fastq_records(&data("NA12878_chrM_20k.fq.gz"));
    let mates = |second: bool| -> String {
        input
            .iter()
            .take(2000)
            .map(|r| {
                let seq = if second { revcomp(&r[1]) } else { r[1].clone() };
                let qual: String = if second {
                    r[3].chars().rev().collect()
                } else {
                    r[3].clone()
                };
                format!("{}\n{seq}\n+\n{qual}\n", r[0])
            })
            .collect()
    };
    let (r1, r2) = (dir.path().join("r1.fq"), dir.path().join("r2.fq"));
    std::fs::write(&r1, mates(false)).unwrap();
    std::fs::write(&r2, mates(true)).unwrap();
    let mut cmd = galign();
    cmd.arg("map")
        .arg("--un-conc")
        .arg(dir.path().join("un_%.fq.gz"));
    cmd.arg("--al-conc")
        .arg(dir.path().join("al.fq"))
        .arg(&prefix)
        .arg(&r1)
        .arg(&r2);
    let records = names_and_flags(&run_ok(&mut cmd).stdout);
    let proper: Vec<&String> = records
        .iter()
        .filter(|r| r.1 & 0x42 == 0x42)
        .map(|r| &r.0)
        .collect();
    let [un1, un2, al1, al2] = ["un_1.fq.gz", "un_2.fq.gz", "al.1.fq", "al.2.fq"]
        .map(|f| fastq_records(&dir.path().join(f)));
    assert_eq!(al1.len(), proper.len());
    assert_eq!(un1.len() + al1.len(), 2000);
    assert!(!un1.is_empty() && !al1.is_empty());
    assert_eq!(
        al1.iter().map(|r| &r[0][1..]).collect::<Vec<_>>(),
        proper.iter().map(|s| s.as_str()).collect::<Vec<_>>()
    );
    for (m1, m2) in [(&un1, &un2), (&al1, &al2)] {
        assert_eq!(m1.len(), m2.len());
        for (a, b) in m1.iter().zip(m2.iter()) {
            assert_eq!((&a[0], revcomp(&a[1])), (&b[0], b[1].clone()));
        }
    }
    // Single reads with --al-conc: refused, naming --al.
    let e = run_fail(
        galign()
            .arg("map")
            .arg("--al-conc")
            .arg(dir.path().join("x.fq"))
            .arg(&prefix)
            .arg(&r1),
    );
    assert!(e.contains("use --al"), "{e}");
}
