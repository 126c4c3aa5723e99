//! Progress on stderr (issue 66, item 5): off a terminal (as the tests run) `map` and
//! `index` print no progress at all; on a terminal (a pseudo-terminal from `script`,
//! where it is installed) `map` shows reads, reads/s and the share of the input read,
//! and `index`'s spinners name the index whose suffix array they build.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

/// The E. coli pairs five times over (for a run long enough to draw progress), as
/// gzip files in `dir`.
fn pairs_five_times(r1: &Path, r2: &Path, dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (o1, o2) = (dir.join("r1.fq.gz"), dir.join("r2.fq.gz"));
    for (from, to) in [(r1, &o1), (r2, &o2)] {
        let script = format!(
            "for i in 1 2 3 4 5; do zcat '{}'; done | gzip -1 > '{}'",
            from.display(),
            to.display()
        );
        run_ok(Command::new("bash").arg("-c").arg(script));
    }
    (o1, o2)
}

/// Whether `script` (util-linux) can give a command a pseudo-terminal here.
fn has_script() -> bool {
    Command::new("script")
        .args(["-qc", "true", "/dev/null"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn progress_is_shown_on_a_terminal_only() {
    let Some([ecoli, r1, r2]) = shared_files([
        "ref/ecoli_K12_MG1655.fa.gz",
        "reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz",
        "reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz",
    ]) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("ecoli");
    // Off a terminal: the index's stderr has no spinner, the map's only its lines.
    let out = run_ok(galign().arg("index").arg("-p").arg(&prefix).arg(&ecoli));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        !stderr.contains("suffix array") && !stderr.contains('\r'),
        "{stderr}"
    );
    let (big1, big2) = pairs_five_times(&r1, &r2, dir.path());
    let sam = dir.path().join("out.sam");
    let map = |cmd: &mut Command| {
        cmd.arg("map")
            .args(["--batch-size", "2000", "-o"])
            .arg(&sam)
            .arg(&prefix)
            .arg(&big1)
            .arg(&big2);
    };
    let mut plain = galign();
    map(&mut plain);
    let stderr = String::from_utf8(run_ok(&mut plain).stderr).unwrap();
    for line in stderr.lines() {
        assert!(
            line.starts_with("[galign] mapping on the CPU")
                || line.starts_with("[galign] insert size")
                || line.starts_with("[galign] 281600 reads: "),
            "unexpected line off a terminal: {line:?} in {stderr}"
        );
    }
    assert!(
        !stderr.contains('\r') && !stderr.contains('\x1b'),
        "{stderr}"
    );
    if !has_script() {
        eprintln!("skipped the terminal half: no `script` to give a pseudo-terminal");
        return;
    }
    // On a terminal: the progress line, then cleared before the summary.
    let mut command = galign();
    map(&mut command);
    let shown = format!("{command:?}"); // the program and its arguments, quoted
    let out = run_ok(
        Command::new("script")
            .arg("-qc")
            .arg(&shown)
            .arg("/dev/null"),
    );
    let terminal = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(terminal.contains("[galign] mapping: "), "{terminal}");
    assert!(
        terminal.contains("reads/s, ") && terminal.contains("% of the input read"),
        "{terminal}"
    );
    let summary = terminal
        .rfind("[galign] 281600 reads: ")
        .expect("the summary");
    assert!(
        !terminal[summary..].contains("[galign] mapping: "),
        "{terminal}"
    );
    // `index` on a terminal: its spinners name the suffix array they build.
    let mut index = galign();
    index
        .arg("index")
        .arg("-p")
        .arg(dir.path().join("again"))
        .arg(&ecoli);
    let out = run_ok(
        Command::new("script")
            .arg("-qc")
            .arg(format!("{index:?}"))
            .arg("/dev/null"),
    );
    let terminal = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        terminal.contains("forward index: suffix array"),
        "{terminal}"
    );
    assert!(
        terminal.contains("mirror index (the reversed text's): suffix array"),
        "{terminal}"
    );
}
