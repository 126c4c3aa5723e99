//! Helpers shared by the integration tests: the binary, the data folders, running
//! commands and reading SAM.
#![allow(dead_code)] // each test binary uses a different subset

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The galign binary under test.
pub fn galign() -> Command {
    Command::new(env!("CARGO_BIN_EXE_galign"))
}

/// `galign` with SIGINT, SIGTERM and SIGHUP set to `action` (`SIG_DFL`: as a shell's
/// foreground job has them, whatever the tests inherited, since galign keeps a signal
/// it inherits ignored, as under `nohup`; `SIG_IGN`: as under `nohup`).
pub fn galign_with_signals(action: libc::sighandler_t) -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = galign();
    // SAFETY: signal() is async-signal-safe, as code between fork and exec must be.
    unsafe {
        command.pre_exec(move || {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(signal, action);
            }
            Ok(())
        });
    }
    command
}

/// The repository's bundled data.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// The folder of the shared real data: `$GALIGN_SHARED_DATA` (as for the scripts), else
/// `../shared/data` beside the checkout; `None` where it does not exist (a fresh clone
/// alone).
pub fn shared_root() -> Option<PathBuf> {
    let root = std::env::var_os("GALIGN_SHARED_DATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
        PathBuf::from,
    );
    root.is_dir().then_some(root)
}

/// The shared data file `sub` (e.g. `ref/phiX174.fa.gz`): from [`shared_root`], else
/// its bundled copy in `data/` (the small references and read sets are both). `None`
/// where neither exists: the caller skips, and this says so on stderr; with
/// `GALIGN_REQUIRE_SHARED_DATA` set (CI, which has ../shared) that panics instead, so
/// no check is skipped there.
pub fn shared_file(sub: &str) -> Option<PathBuf> {
    if let Some(root) = shared_root() {
        let p = root.join(sub);
        assert!(p.exists(), "shared data {} is missing", p.display());
        return Some(p);
    }
    let bundled = data(
        Path::new(sub)
            .file_name()
            .expect("a file name")
            .to_str()
            .unwrap(),
    );
    if bundled.exists() {
        return Some(bundled);
    }
    assert!(
        std::env::var_os("GALIGN_REQUIRE_SHARED_DATA").is_none(),
        "shared data {sub} is missing (CI has ../shared beside the checkout; elsewhere set \
         GALIGN_SHARED_DATA)"
    );
    eprintln!("skipped: needs the shared data {sub} (../shared/data or $GALIGN_SHARED_DATA)");
    None
}

/// The shared data files `subs` ([`shared_file`]), or `None` (the caller skips) where
/// one is missing.
pub fn shared_files<const N: usize>(subs: [&str; N]) -> Option<[PathBuf; N]> {
    let found: Vec<PathBuf> = subs.iter().map(|s| shared_file(s)).collect::<Option<_>>()?;
    Some(found.try_into().expect("one path each"))
}

/// Runs a command, panicking with its stderr when it fails.
pub fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs a command that must fail; returns its stderr.
pub fn run_fail(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{cmd:?} should have failed");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{cmd:?} should exit 1, stderr: {stderr}"
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "{cmd:?} panicked: {stderr}"
    );
    stderr
}

/// Builds `PREFIX.galign` for a reference, returning the prefix.
pub fn index(reference: &Path, dir: &Path, name: &str, device: &str) -> PathBuf {
    let prefix = dir.join(name);
    run_ok(
        galign()
            .arg("index")
            .arg("--device")
            .arg(device)
            .arg("-p")
            .arg(&prefix)
            .arg(reference),
    );
    prefix
}

/// A mapped hit: (read name, reverse strand, contig, 0-based position).
pub type HitKey = (String, bool, String, u64);

/// The (name, strand, contig, pos) of every mapped record of a SAM text.
pub fn sam_hits(sam: &str) -> BTreeSet<HitKey> {
    sam.lines()
        .filter(|l| !l.starts_with('@'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let flag: u16 = f[1].parse().unwrap();
            (flag & 4 == 0).then(|| {
                (
                    f[0].to_string(),
                    flag & 16 != 0,
                    f[2].to_string(),
                    f[3].parse::<u64>().unwrap() - 1,
                )
            })
        })
        .collect()
}

/// A hit and its mismatches.
pub type Scored = (HitKey, u8);

/// The (hit, NM) of every mapped record of a SAM text.
pub fn sam_mismatches(sam: &str) -> BTreeSet<Scored> {
    sam.lines()
        .filter(|l| !l.starts_with('@'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let flag: u16 = f[1].parse().unwrap();
            let nm = f[11..].iter().find_map(|t| t.strip_prefix("NM:i:"));
            (flag & 4 == 0).then(|| {
                let hit = (
                    f[0].to_string(),
                    flag & 16 != 0,
                    f[2].to_string(),
                    f[3].parse::<u64>().unwrap() - 1,
                );
                (hit, nm.expect("NM on every hit").parse().unwrap())
            })
        })
        .collect()
}

/// Removes `/1` or `/2` from a read name.
pub fn strip_mate(name: &str) -> &str {
    name.strip_suffix("/1")
        .or_else(|| name.strip_suffix("/2"))
        .unwrap_or(name)
}

/// Lists a directory's file names (to check nothing was left behind).
pub fn files_in(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// A small deterministic generator of test data (an LCG).
pub struct Rng(pub u64);

impl Rng {
    /// The next pseudo-random number (31 bits).
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// `n` random bases `ACGT`.
    pub fn bases(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| b"ACGT"[(self.next() % 4) as usize] as char)
            .collect()
    }
}

/// The reverse complement of `s` (letters other than `ACGT` become `N`).
pub fn revcomp(s: &str) -> String {
    s.bytes()
        .rev()
        .map(|b| match b {
            b'A' => 'T',
            b'C' => 'G',
            b'G' => 'C',
            b'T' => 'A',
            _ => 'N',
        })
        .collect()
}

/// The nasty reference of the mapping tests, as (name, bases) contigs: an N run and a
/// soft-masked stretch, IUPAC codes, a homopolymer, a period-3 contig, a tandem repeat,
/// a one-base contig, and N at both ends of a contig.
pub fn nasty_contigs(rng: &mut Rng) -> Vec<(String, String)> {
    vec![
        (
            "chrA".to_string(),
            format!(
                "{}NNNNNNNNNN{}{}",
                rng.bases(300),
                rng.bases(50).to_lowercase(),
                rng.bases(200)
            ),
        ),
        (
            "chrB".to_string(),
            format!("{}RYK{}", rng.bases(120), rng.bases(90)),
        ),
        ("polyA".to_string(), "A".repeat(70)),
        ("per3".to_string(), "ACG".repeat(40)),
        ("tandem".to_string(), rng.bases(17).repeat(9)),
        ("tiny".to_string(), "G".to_string()),
        ("nstart".to_string(), format!("NNNN{}NN", rng.bases(40))),
    ]
}

/// Writes `contigs` as the FASTA file `path` (headers `>NAME test contig`).
pub fn write_fasta(contigs: &[(String, String)], path: &Path) {
    let fasta: String = contigs
        .iter()
        .map(|(n, s)| format!(">{n} test contig\n{s}\n"))
        .collect();
    std::fs::write(path, fasta).unwrap();
}

/// Writes `reads` as (name, bases) to the FASTQ file `path`, every quality `I`.
pub fn write_fastq(reads: &[(String, String)], path: &Path) {
    let fq: String = reads
        .iter()
        .map(|(n, s)| format!("@{n}\n{s}\n+\n{}\n", "I".repeat(s.len())))
        .collect();
    std::fs::write(path, fq).unwrap();
}

/// bwa's index of `fasta` in `dir`, written by `galign index --format bwa`.
pub fn bwa_index(fasta: &Path, dir: &Path) -> PathBuf {
    let prefix = dir.join("idx");
    run_ok(
        galign()
            .args(["index", "--format", "bwa", "--device", "cpu", "-p"])
            .arg(&prefix)
            .arg(fasta),
    );
    prefix
}

/// The output without its `@PG` lines.
pub fn without_pg(sam: &[u8]) -> Vec<&[u8]> {
    sam.split_inclusive(|&b| b == b'\n')
        .filter(|line| !line.starts_with(b"@PG\t"))
        .collect()
}
