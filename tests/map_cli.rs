//! `galign map`: hits against a brute-force scan on a nasty reference (contig
//! boundaries, N and IUPAC runs, soft-masking, homopolymers, short reads), SAM/BAM
//! accepted by samtools, byte-identical output whatever the threads or batch size or
//! the reads' compression (plain, gzip, BGZF), paired-end fields, and clear errors for
//! bad input.

mod common;

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;

use common::*;

/// Every (contig, strand, position) where `read` or its reverse complement equals the
/// contig's upper-cased bases, never over a non-ACGT base.
fn brute_force(contigs: &[(String, String)], name: &str, read: &str) -> BTreeSet<HitKey> {
    let mut hits = BTreeSet::new();
    if read.is_empty() || read.bytes().any(|b| !b"ACGT".contains(&b)) {
        return hits;
    }
    let rc = revcomp(read);
    for (cname, seq) in contigs {
        let seq = seq.to_ascii_uppercase();
        for pos in 0..=seq.len().saturating_sub(read.len()) {
            let window = &seq[pos..(pos + read.len()).min(seq.len())];
            if window.len() < read.len() {
                continue;
            }
            if window == read {
                hits.insert((name.to_string(), false, cname.clone(), pos as u64));
            }
            if window == rc {
                hits.insert((name.to_string(), true, cname.clone(), pos as u64));
            }
        }
    }
    hits
}

#[test]
fn hits_equal_a_brute_force_scan_on_a_nasty_reference() {
    let mut rng = Rng(42);
    let contigs = nasty_contigs(&mut rng);
    let dir = tempfile::tempdir().unwrap();
    let ref_path = dir.path().join("nasty.fa");
    write_fasta(&contigs, &ref_path);
    // The text the index holds (ambiguity codes replaced), to build reads over N runs.
    let text = galign::reference::read_fasta(&ref_path)
        .unwrap()
        .text
        .to_ascii();
    let text = String::from_utf8(text).unwrap();
    let joined: String = contigs
        .iter()
        .map(|(_, s)| s.to_ascii_uppercase())
        .collect();

    let mut reads: Vec<(String, String)> = Vec::new();
    let mut add = |seq: String| reads.push((format!("r{}", reads.len()), seq));
    for _ in 0..300 {
        let len = [1, 2, 3, 5, 8, 12, 20, 33, 50][(rng.next() % 9) as usize];
        let start = (rng.next() as usize) % (text.len() - len);
        let from_text = text[start..start + len].to_string();
        let from_ref = joined[start..start + len].to_string();
        add(if rng.next().is_multiple_of(2) {
            from_text.clone()
        } else {
            revcomp(&from_text)
        });
        add(from_ref);
    }
    add("A".repeat(30));
    add("T".repeat(25));
    add("ACG".repeat(10));
    add("G".into());
    add(text[590..640].to_string()); // across chrA/chrB
    add(text[295..320].to_string()); // over chrA's N run, as replaced in the text
    add("ACGTNACGT".into());
    add(rng.bases(60));

    let fq_path = dir.path().join("reads.fq");
    write_fastq(&reads, &fq_path);
    let prefix = index(&ref_path, dir.path(), "nasty", "cpu");
    let out = run_ok(
        galign()
            .args(["map", "-a", "--device", "cpu"])
            .arg(&prefix)
            .arg(&fq_path),
    );
    let got = sam_hits(&String::from_utf8(out.stdout).unwrap());
    let expected: BTreeSet<HitKey> = reads
        .iter()
        .flat_map(|(n, s)| brute_force(&contigs, n, s))
        .collect();
    assert!(expected.len() > 500, "the test exercises many hits");
    let missing: Vec<_> = expected.difference(&got).take(5).collect();
    let extra: Vec<_> = got.difference(&expected).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}; extra {extra:?}"
    );
}

/// Asserts two texts are equal, reporting the first differing line.
fn assert_same_lines(got: &str, expected: &str) {
    let (g, e): (Vec<&str>, Vec<&str>) = (got.lines().collect(), expected.lines().collect());
    if let Some(i) = (0..g.len().max(e.len())).find(|&i| g.get(i) != e.get(i)) {
        panic!(
            "line {}: got {:?}, expected {:?}",
            i + 1,
            g.get(i),
            e.get(i)
        );
    }
}

fn chrm_index(dir: &Path) -> std::path::PathBuf {
    index(&data("human_rCRS_chrM_NC_012920.fa.gz"), dir, "chrM", "cpu")
}

#[test]
fn output_is_identical_across_threads_and_batch_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    for ext in ["sam", "bam"] {
        let mut outputs = Vec::new();
        for (t, batch) in [("1", "65536"), ("2", "1000"), ("8", "333"), ("2", "1")] {
            // The same output name each time: `-o` is part of @PG CL.
            let out = dir.path().join(format!("out.{ext}"));
            run_ok(
                galign()
                    .args([
                        "map",
                        "-R",
                        "@RG\\tID:g\\tSM:s",
                        "-t",
                        t,
                        "--batch-size",
                        batch,
                        "-o",
                    ])
                    .arg(&out)
                    .arg(&prefix)
                    .arg(&reads),
            );
            outputs.push(std::fs::read(&out).unwrap());
            std::fs::remove_file(&out).unwrap();
        }
        assert!(
            outputs.iter().all(|o| o == &outputs[0]),
            "{ext} output differs with threads or batch size"
        );
    }
}

/// `text` as gzip, one member.
/// `galign map ... | head`: when the reader of stdout leaves early, galign stops
/// quietly (exit status 0, or killed by SIGPIPE as the shell's 141), as samtools does.
#[test]
fn a_closed_stdout_pipe_ends_the_run_quietly() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let mut child = galign()
        .args(["map", "-a"])
        .arg(&prefix)
        .arg(data("NA12878_chrM_20k.fq.gz"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Several megabytes of SAM follow: far more than a pipe holds.
    let mut stdout = child.stdout.take().unwrap();
    let mut head = [0u8; 4096];
    stdout.read_exact(&mut head).unwrap();
    assert!(head.starts_with(b"@HD"));
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let quiet_exit =
        matches!(out.status.code(), Some(0) | Some(141)) || out.status.signal() == Some(13); // SIGPIPE
    assert!(quiet_exit, "exit status {:?}, stderr: {stderr}", out.status);
    assert!(
        !stderr.contains("Broken pipe") && !stderr.contains("error"),
        "stderr: {stderr}"
    );
}

/// `galign map -o DIR/out.sam PREFIX -` (default signal handling, stderr to `stderr`)
/// given reads on stdin that then stays open, once its output's temporary exists: the
/// run waits with its output unfinished. Its stdin is returned to be kept open.
fn map_waiting_on_stdin(
    dir: &Path,
    prefix: &Path,
    stderr: std::process::Stdio,
) -> (std::process::Child, std::process::ChildStdin) {
    let mut child = galign_with_signals(libc::SIG_DFL)
        .args(["map", "-o"])
        .arg(dir.join("out.sam"))
        .arg(prefix)
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&chrm_reads_text()).unwrap();
    // out.sam.tmp-PID-RANDOM
    let temporary = format!("out.sam.tmp-{}-", child.id());
    let waited = std::time::Instant::now();
    while !files_in(dir).iter().any(|f| f.starts_with(&temporary)) {
        assert!(waited.elapsed().as_secs() < 30, "no {temporary}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    (child, stdin)
}

#[test]
fn a_signal_ends_the_run_without_leaving_its_temporary() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let before = files_in(dir.path());
    for (signal, number) in [("TERM", libc::SIGTERM), ("INT", libc::SIGINT)] {
        use std::os::unix::process::ExitStatusExt;
        let (mut child, stdin) = map_waiting_on_stdin(dir.path(), &prefix, Stdio::null());
        run_ok(Command::new("kill").args([format!("-{signal}"), child.id().to_string()]));
        let status = child.wait().unwrap();
        drop(stdin);
        // Killed by the signal (a shell says 128 + it), as without a handler.
        assert_eq!(status.signal(), Some(number), "SIG{signal}: {status:?}");
        assert_eq!(
            files_in(dir.path()),
            before,
            "SIG{signal} left files behind"
        );
    }
}

/// SIGBUS, which a FASTQ file or index that shrinks while mapped raises, ends the run
/// with status 1, a message, and no temporary left.
#[test]
fn a_bus_error_is_a_clear_error_that_leaves_nothing() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let before = files_in(dir.path());
    let (mut child, stdin) = map_waiting_on_stdin(dir.path(), &prefix, Stdio::piped());
    run_ok(Command::new("kill").args(["-BUS".to_string(), child.id().to_string()]));
    let code = child.wait().unwrap().code();
    drop(stdin);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(code, Some(1), "stderr: {stderr}");
    assert!(
        stderr.contains("shrank while it was being read"),
        "{stderr}"
    );
    assert_eq!(files_in(dir.path()), before, "SIGBUS left files behind");
}

#[test]
fn a_file_size_limit_is_a_clear_error_that_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let before = files_in(dir.path());
    let script = format!(
        "ulimit -f 100; exec '{}' map -o '{}' '{}' '{}'",
        env!("CARGO_BIN_EXE_galign"),
        dir.path().join("out.sam").display(),
        prefix.display(),
        data("NA12878_chrM_20k.fq.gz").display()
    );
    let err = run_fail(Command::new("bash").args(["-c", &script]));
    assert!(err.contains("File too large"), "{err}");
    assert_eq!(files_in(dir.path()), before);
}

fn gzip(text: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text).unwrap();
    e.finish().unwrap()
}

/// `text` as BGZF, written by htslib at `level`.
fn bgzf(text: &[u8], level: i8, dir: &Path) -> Vec<u8> {
    use rust_htslib::bgzf::{CompressionLevel, Writer};
    let path = dir.join("bgzf.tmp");
    let mut w = Writer::from_path_with_level(&path, CompressionLevel::Level(level)).unwrap();
    w.write_all(text).unwrap();
    drop(w); // flushes, then the EOF block
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    bytes
}

/// The byte offsets of a BGZF file's members.
fn bgzf_members(bytes: &[u8]) -> Vec<usize> {
    let mut at = 0;
    let mut offsets = Vec::new();
    while at < bytes.len() {
        assert_eq!(&bytes[at + 12..at + 16], b"BC\x02\x00");
        offsets.push(at);
        at += u16::from_le_bytes([bytes[at + 16], bytes[at + 17]]) as usize + 1;
    }
    offsets
}

/// The bundled NA12878 chrM reads, decompressed.
fn chrm_reads_text() -> Vec<u8> {
    let mut text = Vec::new();
    flate2::read::MultiGzDecoder::new(std::fs::File::open(data("NA12878_chrM_20k.fq.gz")).unwrap())
        .read_to_end(&mut text)
        .unwrap();
    text
}

#[test]
fn plain_gzip_and_bgzf_reads_give_identical_output() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let text = chrm_reads_text();
    assert!(text.len() > 4 << 20, "more than one block of reads");
    let (a, b) = (text.len() / 3 + 17, 2 * text.len() / 3 + 5); // inside records
    let multi = [gzip(&text[..a]), gzip(&text[a..b]), gzip(&text[b..])].concat();
    let mixed = [
        bgzf(&text[..a], 6, dir.path()),
        gzip(&text[a..b]),
        bgzf(&text[b..], 1, dir.path()),
    ]
    .concat();
    let inputs: [(&str, Vec<u8>); 6] = [
        ("plain", text.clone()),
        ("gzip", gzip(&text)),
        ("multi-member gzip", multi),
        ("bgzf", bgzf(&text, 6, dir.path())),
        ("bgzf level 0", bgzf(&text, 0, dir.path())),
        ("bgzf, gzip, bgzf", mixed),
    ];
    // The same reads and output names each time: both are in @PG CL. On 4 threads a
    // gzip file is inflated in parallel, on 2 by one thread.
    let reads = dir.path().join("reads.fq.gz");
    for (ext, threads) in [("sam", "2"), ("bam", "2"), ("sam", "4")] {
        let out = dir.path().join(format!("out.{ext}"));
        let mut first: Option<Vec<u8>> = None;
        for (name, bytes) in &inputs {
            std::fs::write(&reads, bytes).unwrap();
            run_ok(
                galign()
                    .args(["map", "-t", threads, "-o"])
                    .arg(&out)
                    .arg(&prefix)
                    .arg(&reads),
            );
            let output = std::fs::read(&out).unwrap();
            std::fs::remove_file(&out).unwrap();
            match &first {
                None => first = Some(output),
                Some(f) => assert!(
                    f == &output,
                    "{ext} output on {threads} threads differs for {name} reads"
                ),
            }
        }
    }
}

/// `auto` decides from the index's size, read before the index loads: an exact search
/// of a small index goes to the CPU, says so, and never opens the GPU (so never says
/// that it is not used), on any machine.
#[test]
fn auto_maps_exact_reads_on_a_small_index_on_the_cpu_without_opening_the_gpu() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    let out = run_ok(galign().arg("map").arg(&prefix).arg(&reads));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("mapping on the CPU: exact search"),
        "{stderr}"
    );
    assert!(!stderr.contains("GPU not used"), "{stderr}");
    let cpu = run_ok(
        galign()
            .args(["map", "--device", "cpu"])
            .arg(&prefix)
            .arg(&reads),
    );
    assert!(out.stdout == cpu.stdout);
}

#[test]
fn bad_bgzf_reads_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let text = chrm_reads_text();
    let good = bgzf(&text, 6, dir.path());
    let members = bgzf_members(&good);
    let middle = members[members.len() / 2];
    let truncated = &good[..middle + 1000];
    map_error(
        &prefix,
        &[("r.fq.gz", truncated)],
        &[
            "r.fq.gz",
            &format!("truncated BGZF block at byte offset {middle}"),
        ],
    );
    let mut corrupt = good.clone();
    corrupt[middle + 1000] ^= 0x40;
    map_error(
        &prefix,
        &[("r.fq.gz", &corrupt)],
        &[
            "r.fq.gz",
            &format!("corrupt BGZF block at byte offset {middle}"),
        ],
    );
    // Only the EOF block: no reads, as an empty gzip or plain file holds (a header-only
    // output, as bwa and bowtie2 write).
    let eof = bgzf(b"", 6, dir.path());
    assert_eq!(bgzf_members(&eof), [0]);
    for empty in [eof, gzip(b""), Vec::new()] {
        let reads = dir.path().join("empty.fq.gz");
        std::fs::write(&reads, &empty).unwrap();
        let sam = run_ok(galign().arg("map").arg(&prefix).arg(&reads)).stdout;
        let sam = String::from_utf8(sam).unwrap();
        assert!(sam.lines().all(|l| l.starts_with('@')), "{sam}");
        assert!(sam.contains("@SQ\tSN:"), "{sam}");
    }
}

#[test]
fn samtools_accepts_sam_and_bam_and_sorts_and_indexes() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    let bam = dir.path().join("out.bam");
    let sam = dir.path().join("out.sam");
    run_ok(
        galign()
            .args(["map", "-R", "@RG\\tID:g\\tSM:s", "-o"])
            .arg(&bam)
            .arg(&prefix)
            .arg(&reads),
    );
    run_ok(
        galign()
            .args(["map", "-R", "@RG\\tID:g\\tSM:s", "-o"])
            .arg(&sam)
            .arg(&prefix)
            .arg(&reads),
    );
    run_ok(
        Command::new("samtools")
            .arg("quickcheck")
            .arg(&bam)
            .arg(&sam),
    );
    // SAM round-trips through samtools unchanged; BAM decodes to the same text.
    let sam_text = std::fs::read_to_string(&sam).unwrap();
    let via_samtools = run_ok(
        Command::new("samtools")
            .args(["view", "-h", "--no-PG"])
            .arg(&sam),
    )
    .stdout;
    assert_same_lines(&String::from_utf8(via_samtools).unwrap(), &sam_text);
    // The BAM differs only in @PG CL, which names the other output file.
    let from_bam = run_ok(
        Command::new("samtools")
            .args(["view", "-h", "--no-PG"])
            .arg(&bam),
    )
    .stdout;
    let without_pg = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("@PG"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_same_lines(
        &without_pg(&String::from_utf8(from_bam).unwrap()),
        &without_pg(&sam_text),
    );
    let sorted = dir.path().join("sorted.bam");
    run_ok(
        Command::new("samtools")
            .args(["sort", "-o"])
            .arg(&sorted)
            .arg(&bam),
    );
    run_ok(Command::new("samtools").arg("index").arg(&sorted));
    let region = run_ok(
        Command::new("samtools")
            .args(["view", "-c"])
            .arg(&sorted)
            .arg("NC_012920_1:1000-2000"),
    )
    .stdout;
    assert!(
        String::from_utf8(region)
            .unwrap()
            .trim()
            .parse::<u64>()
            .unwrap()
            > 100
    );
    // Every record carries the read group, unmapped reads keep bases and qualities.
    for line in sam_text.lines().filter(|l| !l.starts_with('@')) {
        assert!(line.ends_with("RG:Z:g"), "{line}");
        let f: Vec<&str> = line.split('\t').collect();
        assert!(f[9].len() > 1 && f[9].len() == f[10].len(), "{line}");
        let mapq: u8 = f[4].parse().unwrap();
        assert!(mapq == 0 || mapq == 60, "{line}");
    }
}

/// `-l` (samtools' BAM compression level): every level gives a BAM that samtools
/// accepts with the same records; lower levels give larger files; out of range is a
/// clear error.
#[test]
fn bam_compression_levels_give_the_same_records() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    let map = |level: Option<&str>| {
        let bam = dir
            .path()
            .join(format!("l{}.bam", level.unwrap_or("default")));
        let mut command = galign();
        command.args(["map", "-o"]).arg(&bam);
        if let Some(level) = level {
            command.args(["-l", level]);
        }
        run_ok(command.arg(&prefix).arg(&reads));
        run_ok(Command::new("samtools").arg("quickcheck").arg(&bam));
        let view = run_ok(
            Command::new("samtools")
                .args(["view", "-h", "--no-PG"])
                .arg(&bam),
        )
        .stdout;
        let records: Vec<String> = String::from_utf8(view)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("@PG"))
            .map(str::to_owned)
            .collect();
        (std::fs::metadata(&bam).unwrap().len(), records)
    };
    let (default_size, default_records) = map(None);
    assert!(default_records.len() > 1000);
    // `-l 1` is the default (the files differ only in @PG CL, which names -l).
    let (_, one_records) = map(Some("1"));
    assert!(one_records == default_records);
    let mut sizes = Vec::new();
    for level in ["0", "6", "9"] {
        let (size, records) = map(Some(level));
        assert!(records == default_records, "-l {level}: records differ");
        sizes.push(size);
    }
    assert!(sizes[0] > default_size && default_size > sizes[1] && sizes[2] <= sizes[1]);
    let out = galign()
        .args(["map", "-l", "10", "-o"])
        .arg(dir.path().join("x.bam"))
        .arg(&prefix)
        .arg(&reads)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--compression-level"), "{stderr}");
    assert!(!dir.path().join("x.bam").exists());
}

/// BAM at the default level (ISA-L's level-1 deflate, which picks its code by the CPU
/// it runs on) is the same file on every x86-64 CPU level ISA-L has code for: the
/// binary run natively and under `qemu-x86_64` as an SSE4.2-only CPU (Westmere, ISA-L's
/// `_01` code) and an AVX2 one (Haswell, `_04`, without AVX-512's encoder).
#[cfg(target_arch = "x86_64")]
#[test]
fn default_level_bam_is_the_same_on_every_x86_64_cpu_level() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let reads = data("NA12878_chrM_20k.fq.gz");
    let bam = dir.path().join("out.bam");
    let map = |cpu: Option<&str>| {
        let mut command = match cpu {
            Some(cpu) => {
                let mut qemu = Command::new("qemu-x86_64");
                qemu.args(["-cpu", cpu, env!("CARGO_BIN_EXE_galign")]);
                qemu
            }
            None => Command::new(env!("CARGO_BIN_EXE_galign")),
        };
        command.args(["map", "-a", "-t", "2", "-o"]).arg(&bam);
        run_ok(command.arg(&prefix).arg(&reads));
        std::fs::read(&bam).unwrap()
    };
    let native = map(None);
    assert!(
        native.len() > 4 * 0x10000,
        "{} bytes: too few blocks",
        native.len()
    );
    for cpu in ["Westmere", "Haswell"] {
        assert!(
            map(Some(cpu)) == native,
            "BAM under {cpu} differs from the native one"
        );
    }
}

#[test]
fn pairs_from_two_files_or_interleaved_agree_and_carry_mate_fields() {
    let Some([ecoli, r1, r2]) = shared_files([
        "ref/ecoli_K12_MG1655.fa.gz",
        "reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz",
        "reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz",
    ]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let prefix = index(&ecoli, dir.path(), "ecoli", "cpu");
    let two = run_ok(galign().arg("map").arg(&prefix).arg(&r1).arg(&r2)).stdout;
    let interleaved_fq = dir.path().join("il.fq");
    let script = format!(
        "paste <(zcat '{}' | paste - - - -) <(zcat '{}' | paste - - - -) | tr '\\t' '\\n' > '{}'",
        r1.display(),
        r2.display(),
        interleaved_fq.display()
    );
    run_ok(Command::new("bash").arg("-c").arg(script));
    let one = run_ok(
        galign()
            .args(["map", "-p"])
            .arg(&prefix)
            .arg(&interleaved_fq),
    )
    .stdout;
    let records = |sam: &[u8]| -> Vec<String> {
        String::from_utf8(sam.to_vec())
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('@'))
            .map(String::from)
            .collect()
    };
    assert_eq!(records(&two), records(&one));
    let lines = records(&two);
    assert_eq!(lines.len(), 2 * 28160);
    let mut proper = 0;
    for pair in lines.chunks(2) {
        let a: Vec<&str> = pair[0].split('\t').collect();
        let b: Vec<&str> = pair[1].split('\t').collect();
        let (fa, fb): (u16, u16) = (a[1].parse().unwrap(), b[1].parse().unwrap());
        assert_eq!(a[0], b[0]);
        assert!(
            fa & 0x41 == 0x41 && fb & 0x81 == 0x81,
            "mate flags {fa} {fb}"
        );
        assert_eq!(fa & 0x2, fb & 0x2, "both or neither proper");
        assert_eq!(
            fa & 0x8 != 0,
            fb & 0x4 != 0,
            "mate-unmapped flag mirrors the mate"
        );
        assert_eq!(
            fa & 0x20 != 0,
            fb & 0x10 != 0,
            "mate-reverse flag mirrors the mate"
        );
        if fa & 0x2 != 0 {
            proper += 1;
            assert_eq!((a[6], b[6]), ("=", "="));
            assert_eq!((a[7], b[7]), (b[3], a[3]));
            let (ta, tb): (i64, i64) = (a[8].parse().unwrap(), b[8].parse().unwrap());
            assert!(ta == -tb && ta != 0 && ta.abs() <= 1000);
        }
    }
    assert!(
        proper > 20_000,
        "most pairs of this library are proper: {proper}"
    );
}

/// Runs `galign map` on reads written from `fastq`, checking the error names `name`
/// and that no output file is left.
fn map_error(prefix: &Path, files: &[(&str, &[u8])], expect: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = galign();
    cmd.arg("map")
        .arg("-o")
        .arg(dir.path().join("out.bam"))
        .arg(prefix);
    for (name, content) in files {
        std::fs::write(dir.path().join(name), content).unwrap();
        cmd.arg(dir.path().join(name));
    }
    let stderr = run_fail(&mut cmd);
    for e in expect {
        assert!(stderr.contains(e), "expected '{e}' in: {stderr}");
    }
    let left: BTreeSet<String> = files_in(dir.path())
        .into_iter()
        .filter(|f| f.contains("out"))
        .collect();
    assert!(left.is_empty(), "output left behind: {left:?}");
}

#[test]
fn bad_reads_and_outputs_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = chrm_index(dir.path());
    let good = b"@a\nGATCACAGGTCTATCACCC\n+\nIIIIIIIIIIIIIIIIIII\n";
    map_error(&prefix, &[("r.fq", b"@a\nACGT\nIIII\n")], &["r.fq"]);
    map_error(&prefix, &[("r.fq", b"@a\nACGT\n+\nIII\n")], &["r.fq"]);
    map_error(
        &prefix,
        &[("r.fq", b"@a\nACGT\n+\nIIII\n@b\nACG")],
        &["r.fq"],
    );
    map_error(
        &prefix,
        &[
            ("r1.fq", good),
            ("r2.fq", b"@a\nACGT\n+\nIIII\n@b\nACGT\n+\nIIII\n"),
        ],
        &["r2.fq", "more reads"],
    );
    map_error(
        &prefix,
        &[
            ("r1.fq", b"@a\nACGT\n+\nIIII\n@b\nACGT\n+\nIIII\n"),
            ("r2.fq", good),
        ],
        &["r1.fq", "more reads"],
    );
    map_error(
        &prefix,
        &[("r1.fq", good), ("r2.fq", b"@z\nACGT\n+\nIIII\n")],
        &["'a'", "'z'"],
    );
    // To stdout, a run that fails at its first reads writes nothing, not a header alone.
    std::fs::write(dir.path().join("bad.fq"), b"@a\nACGT\nIIII\n").unwrap();
    let out = galign()
        .arg("map")
        .arg(&prefix)
        .arg(dir.path().join("bad.fq"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.is_empty(), "stdout of a failed run: {stdout}");
    let e = run_fail(
        galign()
            .arg("map")
            .arg(dir.path().join("nope"))
            .arg(data("samtools_ex1_35bp.fq.gz")),
    );
    assert!(e.contains("nope.galign"), "{e}");
    let e = run_fail(
        galign()
            .args(["map", "-o", "/nonexistent/dir/out.sam"])
            .arg(&prefix)
            .arg(data("samtools_ex1_35bp.fq.gz")),
    );
    assert!(e.contains("/nonexistent/dir/out.sam"), "{e}");
    let e = run_fail(
        galign()
            .args(["map", "-R", "ID:x"])
            .arg(&prefix)
            .arg(data("samtools_ex1_35bp.fq.gz")),
    );
    assert!(e.contains("@RG"), "{e}");
}

#[test]
fn unique_and_multi_hits_get_mapq_xs_and_xa() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(7);
    let unique = rng.bases(100);
    let repeat = rng.bases(40);
    let fasta = format!(
        ">c1\n{unique}{repeat}\n>c2\n{}{repeat}{}\n",
        rng.bases(30),
        rng.bases(30)
    );
    std::fs::write(dir.path().join("r.fa"), fasta).unwrap();
    let prefix = index(&dir.path().join("r.fa"), dir.path(), "r", "cpu");
    let fq = format!(
        "@u\n{}\n+\n{}\n@m\n{}\n+\n{}\n",
        &unique[10..50],
        "I".repeat(40),
        revcomp(&repeat),
        "I".repeat(40)
    );
    std::fs::write(dir.path().join("q.fq"), fq).unwrap();
    let sam = String::from_utf8(
        run_ok(
            galign()
                .arg("map")
                .arg(&prefix)
                .arg(dir.path().join("q.fq")),
        )
        .stdout,
    )
    .unwrap();
    let recs: Vec<Vec<&str>> = sam
        .lines()
        .filter(|l| !l.starts_with('@'))
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(&recs[0][1..6], &["0", "c1", "11", "60", "40M"]);
    assert!(
        recs[0].contains(&"NM:i:0") && recs[0].contains(&"MD:Z:40") && recs[0].contains(&"AS:i:40")
    );
    assert!(!recs[0]
        .iter()
        .any(|f| f.starts_with("XS") || f.starts_with("XA")));
    assert_eq!(recs[1][1], "16");
    assert_eq!(recs[1][4], "0");
    assert_eq!(
        recs[1][9], repeat,
        "reverse-strand SEQ is the reference strand"
    );
    assert!(recs[1].contains(&"XS:i:40"));
    let xa = recs[1].iter().find(|f| f.starts_with("XA:Z:")).unwrap();
    assert!(
        xa == &"XA:Z:c2,-31,40M,0;" || xa == &"XA:Z:c1,-101,40M,0;",
        "{xa}"
    );
    let all = String::from_utf8(
        run_ok(
            galign()
                .args(["map", "-a"])
                .arg(&prefix)
                .arg(dir.path().join("q.fq")),
        )
        .stdout,
    )
    .unwrap();
    let secondary: Vec<&str> = all
        .lines()
        .filter(|l| l.split('\t').nth(1) == Some("272"))
        .collect();
    assert_eq!(secondary.len(), 1, "{all}");
}
