//! Inputs as pipelines give them: reads and references from a file, `-`, `/dev/stdin`,
//! a pipe, a FIFO or a process substitution, in every compression, give the same output;
//! truncated streams, directories, BAM/CRAM/SAM and index files are clear errors that
//! leave nothing behind.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// How an input reaches galign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    /// Its path.
    File,
    /// `-`, from a pipe on stdin.
    Dash,
    /// `/dev/stdin`, a pipe.
    DevStdin,
    /// A FIFO, written by another process.
    Fifo,
    /// `<(cat FILE)`.
    ProcSub,
}

const WAYS: [Way; 5] = [Way::File, Way::Dash, Way::DevStdin, Way::Fifo, Way::ProcSub];

/// Quotes a word for bash.
fn quote(word: &Path) -> String {
    format!("'{}'", word.display().to_string().replace('\'', "'\\''"))
}

/// A bash command running `galign ARGS INPUTS...`, each input (a file) given its way.
fn galign_via(args: &[&str], inputs: &[(&Path, Way)], dir: &Path) -> Command {
    let mut words = vec![quote(Path::new(env!("CARGO_BIN_EXE_galign")))];
    words.extend(args.iter().map(|a| quote(Path::new(a))));
    let (mut before, mut pipe) = (String::new(), String::new());
    for (i, &(path, way)) in inputs.iter().enumerate() {
        words.push(match way {
            Way::File => quote(path),
            Way::Dash | Way::DevStdin => {
                pipe = format!("cat {} | ", quote(path));
                match way {
                    Way::Dash => "-".to_string(),
                    _ => "/dev/stdin".to_string(),
                }
            }
            Way::Fifo => {
                let fifo = quote(&dir.join(format!("fifo{i}")));
                // The writer's output is redirected before it blocks opening the FIFO, so
                // that it never holds the test's pipes; it is killed if galign never reads.
                before += &format!(
                    "rm -f {fifo}; mkfifo {fifo}; {{ cat {} > {fifo}; }} >/dev/null 2>&1 & ",
                    quote(path)
                );
                fifo
            }
            Way::ProcSub => format!("<(cat {})", quote(path)),
        });
    }
    let script = format!(
        "{before}{pipe}{}; s=$?; kill $(jobs -p) 2>/dev/null; exit $s",
        words.join(" ")
    );
    let mut cmd = Command::new("bash");
    cmd.arg("-c").arg(script);
    cmd
}

/// `text` in each compression galign reads: (name, bytes).
fn compressed(text: &[u8], dir: &Path) -> Vec<(&'static str, Vec<u8>)> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(text).unwrap();
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 1);
    xz.write_all(text).unwrap();
    vec![
        ("plain", text.to_vec()),
        ("gzip", gz.finish().unwrap()),
        ("bgzf", bgzf(text, dir)),
        ("zstd", zstd::encode_all(text, 3).unwrap()),
        ("bzip2", bz.finish().unwrap()),
        ("xz", xz.finish().unwrap()),
    ]
}

/// `text` as BGZF, written by htslib.
fn bgzf(text: &[u8], dir: &Path) -> Vec<u8> {
    let path = dir.join("bgzf.tmp");
    let mut w = rust_htslib::bgzf::Writer::from_path(&path).unwrap();
    w.write_all(text).unwrap();
    drop(w); // flushes, then the EOF block
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(bytes[12..16] == *b"BC\x02\x00", "BGZF");
    bytes
}

/// A bundled gzip file, decompressed.
fn gunzip(name: &str) -> Vec<u8> {
    let mut text = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(data(name)).unwrap())
        .read_to_end(&mut text)
        .unwrap();
    text
}

/// A SAM text without its `@PG` line, whose command line names the inputs.
fn without_pg(sam: &[u8]) -> String {
    String::from_utf8(sam.to_vec())
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("@PG"))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn chrm_index(dir: &Path) -> PathBuf {
    index(&data("human_rCRS_chrM_NC_012920.fa.gz"), dir, "chrM", "cpu")
}

/// Runs `galign map -o OUT PREFIX INPUTS` and returns OUT without `@PG`.
fn mapped(prefix: &Path, inputs: &[(&Path, Way)], dir: &Path) -> String {
    mapped_on(prefix, inputs, dir, "2")
}

/// [`mapped`] on `threads` threads (from 4 a gzip file, or a gzip stream held in memory,
/// is inflated in parallel).
fn mapped_on(prefix: &Path, inputs: &[(&Path, Way)], dir: &Path, threads: &str) -> String {
    let out = dir.join("out.sam");
    let (out_name, prefix) = (out.to_str().unwrap(), prefix.to_str().unwrap());
    let args = ["map", "-t", threads, "-o", out_name, prefix];
    run_ok(&mut galign_via(&args, inputs, dir));
    let sam = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    without_pg(&sam)
}

#[test]
fn reads_from_stdin_pipes_fifos_and_process_substitution_match_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let text = gunzip("NA12878_chrM_20k.fq.gz");
    assert!(text.len() > 4 << 20, "more than one block of reads");
    let expected = mapped(
        &prefix,
        &[(&data("NA12878_chrM_20k.fq.gz"), Way::File)],
        dir.path(),
    );
    assert_eq!(
        expected.lines().filter(|l| !l.starts_with('@')).count(),
        20_000
    );
    let reads = dir.path().join("reads");
    for (compression, bytes) in compressed(&text, dir.path()) {
        std::fs::write(&reads, bytes).unwrap();
        for way in WAYS {
            let got = mapped(&prefix, &[(&reads, way)], dir.path());
            assert!(got == expected, "{compression} reads given as {way:?}");
            let got = mapped_on(&prefix, &[(&reads, way)], dir.path(), "4");
            assert!(
                got == expected,
                "{compression} reads given as {way:?}, 4 threads"
            );
        }
    }
}

/// The chrM reads as two mate files: mate 2 of each pair holds the next read's bases.
fn mates(dir: &Path) -> (PathBuf, PathBuf) {
    let text = String::from_utf8(gunzip("NA12878_chrM_20k.fq.gz")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let records: Vec<&[&str]> = lines.chunks(4).collect();
    let mut mate2 = String::new();
    for (i, r) in records.iter().enumerate() {
        let next = records[(i + 1) % records.len()];
        mate2 += &format!("{}\n{}\n+\n{}\n", r[0], next[1], next[3]);
    }
    let (m1, m2) = (dir.join("m1.fq"), dir.join("m2.fq"));
    std::fs::write(&m1, &text).unwrap();
    std::fs::write(&m2, mate2).unwrap();
    (m1, m2)
}

#[test]
fn paired_reads_with_one_or_both_mates_from_a_pipe_match_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let (m1, m2) = mates(dir.path());
    let expected = mapped(&prefix, &[(&m1, Way::File), (&m2, Way::File)], dir.path());
    assert_eq!(
        expected.lines().filter(|l| !l.starts_with('@')).count(),
        40_000
    );
    for ways in [
        [Way::Dash, Way::File],
        [Way::File, Way::DevStdin],
        [Way::ProcSub, Way::ProcSub],
        [Way::Fifo, Way::Dash],
    ] {
        let got = mapped(&prefix, &[(&m1, ways[0]), (&m2, ways[1])], dir.path());
        assert!(got == expected, "mates given as {ways:?}");
    }
    let e = run_fail(galign().arg("map").arg(&prefix).args(["-", "-"]));
    assert!(e.contains("stdin can be read once"), "{e}");
}

#[test]
fn references_from_stdin_pipes_fifos_and_process_substitution_match_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = gunzip("human_rCRS_chrM_NC_012920.fa.gz");
    let fasta = dir.path().join("ref.fa");
    std::fs::write(&fasta, &text).unwrap();
    // On 4 threads a gzip FASTA, file or stream, is inflated in parallel.
    let built_on = |inputs: &[(&Path, Way)], threads| {
        let prefix = dir.path().join("idx");
        let args = [
            "index",
            "-t",
            threads,
            "--device",
            "cpu",
            "-p",
            prefix.to_str().unwrap(),
        ];
        run_ok(&mut galign_via(&args, inputs, dir.path()));
        let file = dir.path().join("idx.galign");
        let bytes = std::fs::read(&file).unwrap();
        std::fs::remove_file(&file).unwrap();
        bytes
    };
    let built = |inputs: &[(&Path, Way)]| built_on(inputs, "2");
    let sorted_on = |inputs: &[(&Path, Way)], threads| {
        let out = dir.path().join("out.sa");
        let args = [
            "sa",
            "-t",
            threads,
            "--device",
            "cpu",
            "-o",
            out.to_str().unwrap(),
        ];
        run_ok(&mut galign_via(&args, inputs, dir.path()));
        let bytes = std::fs::read(&out).unwrap();
        std::fs::remove_file(&out).unwrap();
        bytes
    };
    let sorted = |inputs: &[(&Path, Way)]| sorted_on(inputs, "2");
    let expected_index = built(&[(&fasta, Way::File)]);
    let expected_sa = sorted(&[(&fasta, Way::File)]);
    assert_eq!(expected_sa.len(), 4 * 16_569, "the chrM suffix array, u32");
    let input = dir.path().join("input");
    for (compression, bytes) in compressed(&text, dir.path()) {
        std::fs::write(&input, bytes).unwrap();
        for way in WAYS {
            let what = format!("{compression} FASTA given as {way:?}");
            assert!(built(&[(&input, way)]) == expected_index, "index of {what}");
            assert!(sorted(&[(&input, way)]) == expected_sa, "sa of {what}");
            if compression == "gzip" {
                let index = built_on(&[(&input, way)], "4");
                assert!(index == expected_index, "index of {what}, 4 threads");
                let sa = sorted_on(&[(&input, way)], "4");
                assert!(sa == expected_sa, "sa of {what}, 4 threads");
            }
        }
    }
}

#[test]
fn an_index_of_stdin_needs_a_prefix_and_a_whole_stream() {
    let dir = tempfile::tempdir().unwrap();
    let fasta = data("phiX174.fa.gz");
    for way in [Way::Dash, Way::ProcSub] {
        let e = run_fail(&mut galign_via(&["index"], &[(&fasta, way)], dir.path()));
        assert!(e.contains("-p PREFIX"), "{e}");
    }
    assert!(files_in(dir.path()).is_empty(), "nothing written");
    // A gzip FASTA cut short, through a pipe: at its start (the bytes read to tell what
    // it holds) and past the first block.
    let text = String::from_utf8(gunzip("celegans_ce_htslib_1Mb.fa.gz")).unwrap();
    let text: String = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|copy| text.replace('>', &format!(">{copy}")))
        .collect();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let cut = dir.path().join("cut.fa.gz");
    for end in [gz.len() / 100, 9 * gz.len() / 10] {
        std::fs::write(&cut, &gz[..end]).unwrap();
        check_cut_reference(&cut, dir.path());
    }
}

/// Checks that `index` and `sa` of the cut gzip FASTA `cut` through a pipe fail naming
/// stdin and leave nothing in `dir` but `cut`.
fn check_cut_reference(cut: &Path, dir: &Path) {
    let out = dir.join("out");
    for args in [
        ["index", "-p", out.to_str().unwrap()],
        ["sa", "-o", out.to_str().unwrap()],
    ] {
        let e = run_fail(&mut galign_via(&args, &[(cut, Way::Dash)], dir));
        assert!(e.contains("galign: error: stdin: cannot read: "), "{e}");
        assert_eq!(files_in(dir), ["cut.fa.gz".to_string()].into());
    }
}

#[test]
fn truncated_streams_through_a_pipe_name_stdin_and_the_record_and_an_empty_one_maps() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let text = gunzip("NA12878_chrM_20k.fq.gz");
    let fail_on = |bytes: &[u8], threads| {
        let input = dir.path().join("input");
        std::fs::write(&input, bytes).unwrap();
        let out = dir.path().join("out.bam");
        let (out, prefix) = (out.to_str().unwrap(), prefix.to_str().unwrap());
        let args = ["map", "-t", threads, "-o", out, prefix];
        let e = run_fail(&mut galign_via(&args, &[(&input, Way::Dash)], dir.path()));
        assert!(!files_in(dir.path()).iter().any(|f| f.contains("out")));
        e
    };
    let fail = |bytes: &[u8]| fail_on(bytes, "2");
    // Cut inside the sequence line of record 18,000 (line 71,998), past the first block.
    let line_start = |n: usize| {
        let newline = text
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .nth(n - 1);
        newline.unwrap().0 + 1
    };
    let cut = line_start(4 * 17_999 + 1) + 10;
    assert!(cut > 4 << 20);
    let e = fail(&text[..cut]);
    assert!(e.contains("stdin: record 18000 (line 71998)"), "{e}");
    assert!(e.contains("truncated"), "{e}");
    // A gzip stream cut short.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    let e = fail(&gz[..gz.len() / 2]);
    assert!(e.contains("galign: error: stdin: cannot read: "), "{e}");
    // The same, held in memory and inflated in parallel.
    let e = fail_on(&gz[..gz.len() / 2], "4");
    assert!(e.contains("galign: error: stdin: cannot read: "), "{e}");
    assert!(e.contains("truncated"), "{e}");
    // No reads through a pipe: a header-only output (as bwa and bowtie2 write), exit 0.
    let input = dir.path().join("input");
    std::fs::write(&input, b"").unwrap();
    let args = ["map", prefix.to_str().unwrap()];
    let sam = run_ok(&mut galign_via(&args, &[(&input, Way::Dash)], dir.path())).stdout;
    let sam = String::from_utf8(sam).unwrap();
    assert!(
        sam.starts_with("@HD") && sam.lines().all(|l| l.starts_with('@')),
        "{sam}"
    );
}

/// Runs a command that must fail and leave no file starting with `out` in `dir`;
/// returns its stderr.
fn refused(cmd: &mut Command, dir: &Path) -> String {
    let e = run_fail(cmd);
    let left: Vec<String> = files_in(dir)
        .into_iter()
        .filter(|f| f.starts_with("out"))
        .collect();
    assert!(left.is_empty(), "output left behind: {left:?}");
    e
}

#[test]
fn directories_alignments_and_indexes_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let fasta = dir.path().join("ref.fa");
    std::fs::write(&fasta, gunzip("human_rCRS_chrM_NC_012920.fa.gz")).unwrap();
    let sam = dir.path().join("x.sam");
    let reads = data("NA12878_chrM_20k.fq.gz");
    run_ok(
        galign()
            .arg("map")
            .arg("-o")
            .arg(&sam)
            .arg(&prefix)
            .arg(&reads),
    );
    let (bam, cram) = (dir.path().join("x.bam"), dir.path().join("x.cram"));
    run_ok(
        Command::new("samtools")
            .args(["view", "-b", "-o"])
            .arg(&bam)
            .arg(&sam),
    );
    run_ok(
        Command::new("samtools")
            .args(["view", "-C", "-T"])
            .arg(&fasta)
            .arg("-o")
            .arg(&cram)
            .arg(&sam),
    );
    let subdir = dir.path().join("reads_dir");
    std::fs::create_dir(&subdir).unwrap();
    let index_file = prefix.with_extension("galign");
    let alignments = [
        (&sam, "a SAM file"),
        (&bam, "a BAM file"),
        (&cram, "a CRAM file"),
    ];
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // As reads: the alignments with the `samtools fastq` hint.
    let map = |input: &Path, way| {
        let args = ["map", "-o", &out("out.bam"), prefix.to_str().unwrap()];
        refused(
            &mut galign_via(&args, &[(input, way)], dir.path()),
            dir.path(),
        )
    };
    // BAM is read as reads (unaligned BAM, tests/ubam.rs); SAM and CRAM are refused.
    for (file, what) in alignments
        .into_iter()
        .filter(|(_, what)| *what != "a BAM file")
    {
        let e = map(file, Way::File);
        let name = file.display();
        assert!(
            e.contains(&format!("{name}: this is {what}, not reads")),
            "{e}"
        );
        assert!(e.contains(&format!("samtools fastq {name}")), "{e}");
    }
    let e = map(&cram, Way::Dash);
    assert!(
        e.contains("stdin: this is a CRAM file") && e.contains("samtools fastq"),
        "{e}"
    );
    let e = map(&subdir, Way::File);
    assert!(
        e.contains(&format!("{}: is a directory", subdir.display())),
        "{e}"
    );
    let e = map(&index_file, Way::File);
    assert!(
        e.contains(&format!(
            "{}: this is a galign index, not reads",
            index_file.display()
        )),
        "{e}"
    );
    // As references, for `index` and `sa`.
    let reference_commands = [["index", "-p", &out("out")], ["sa", "-o", &out("out.sa")]];
    for args in &reference_commands {
        let build = |input: &Path| {
            refused(
                &mut galign_via(args, &[(input, Way::File)], dir.path()),
                dir.path(),
            )
        };
        for (file, what) in alignments {
            let e = build(file);
            let expected = format!("{}: this is {what}, not a FASTA reference", file.display());
            assert!(e.contains(&expected), "{e}");
        }
        let e = build(&subdir);
        assert!(
            e.contains(&format!("{}: is a directory", subdir.display())),
            "{e}"
        );
        let e = build(&index_file);
        assert!(
            e.contains("this is a galign index") && e.contains("the FASTA it was built from"),
            "{e}"
        );
    }
}

#[test]
fn one_file_given_as_both_mates_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let (m1, _) = mates(dir.path());
    let link = dir.path().join("link.fq");
    std::os::unix::fs::symlink(&m1, &link).unwrap();
    for second in [&m1, &link] {
        let e = run_fail(galign().arg("map").arg(&prefix).arg(&m1).arg(second));
        assert!(e.contains("are the same file"), "{e}");
    }
    // One FIFO for both mates: refused, not a hang (nothing ever writes into it).
    let fifo = dir.path().join("mates.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let e = run_fail(galign().arg("map").arg(&prefix).arg(&fifo).arg(&fifo));
    assert!(e.contains("are the same file"), "{e}");
    // `-` and /dev/stdin are one input too.
    let e = run_fail(
        galign()
            .arg("map")
            .arg(&prefix)
            .args(["-", "/dev/stdin"])
            .stdin(std::fs::File::open(&m1).unwrap()),
    );
    assert!(e.contains("stdin and /dev/stdin are the same file"), "{e}");
}

#[test]
fn bgzf_without_its_end_of_file_block_is_read_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let text = gunzip("NA12878_chrM_20k.fq.gz");
    let whole = bgzf(&text, dir.path());
    const EOF_BLOCK: usize = 28;
    let (reads, cut) = (dir.path().join("r.fq.gz"), dir.path().join("cut.fq.gz"));
    std::fs::write(&reads, &whole).unwrap();
    std::fs::write(&cut, &whole[..whole.len() - EOF_BLOCK]).unwrap();
    let map = |input: &Path| {
        run_ok(
            galign()
                .args(["map", "--device", "cpu"])
                .arg(&prefix)
                .arg(input),
        )
    };
    let (complete, truncated) = (map(&reads), map(&cut));
    let warning = "cut.fq.gz: the BGZF end-of-file block is missing";
    assert!(String::from_utf8_lossy(&truncated.stderr).contains(warning));
    assert!(!String::from_utf8_lossy(&complete.stderr).contains("end-of-file block"));
    // Every read of the cut file is still mapped (as htslib, which warns and reads on).
    let records = |out: &std::process::Output| {
        out.stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty() && l[0] != b'@')
            .count()
    };
    assert_eq!(records(&truncated), 20_000);
    assert_eq!(records(&complete), 20_000);
}
