//! galign inside workflows: many `map` processes on one index give what one gives; two
//! `index` runs writing one prefix at once leave one complete index and nothing else; an
//! index replaced (by another build's rename) under a running `map` does not disturb it:
//! the mapped old file stays valid and the run's output is the old index's.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

/// `galign map --device cpu -t 1 PREFIX READS` (SAM on stdout).
fn map_command(prefix: &Path, reads: &Path) -> Command {
    let mut cmd = galign();
    cmd.args(["map", "--device", "cpu", "-t", "1"])
        .arg(prefix)
        .arg(reads);
    cmd
}

#[test]
fn sixteen_maps_on_one_index_give_the_output_of_one() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("chrM");
    let reads = data("NA12878_chrM_20k.fq.gz");
    run_ok(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(&prefix)
            .arg(data("human_rCRS_chrM_NC_012920.fa.gz")),
    );
    let alone = run_ok(&mut map_command(&prefix, &reads)).stdout;
    let children: Vec<_> = (0..16)
        .map(|_| {
            map_command(&prefix, &reads)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (i, child) in children.into_iter().enumerate() {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "map {i}: {:?}", out.status);
        assert!(
            out.stdout == alone,
            "map {i}: output differs from a lone run's"
        );
    }
}

#[test]
fn two_index_runs_on_one_prefix_leave_one_complete_index() {
    let dir = tempfile::tempdir().unwrap();
    let fasta = data("celegans_ce_htslib_1Mb.fa.gz");
    let alone = dir.path().join("alone");
    run_ok(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(&alone)
            .arg(&fasta),
    );
    let shared_dir = dir.path().join("shared");
    std::fs::create_dir(&shared_dir).unwrap();
    let prefix = shared_dir.join("ce");
    let runs: Vec<_> = (0..2)
        .map(|_| {
            galign()
                .args(["index", "--device", "cpu", "-p"])
                .arg(&prefix)
                .arg(&fasta)
                .spawn()
                .unwrap()
        })
        .collect();
    for mut run in runs {
        assert!(run.wait().unwrap().success());
    }
    assert_eq!(
        files_in(&shared_dir).into_iter().collect::<Vec<_>>(),
        ["ce.galign"],
        "only the index is left"
    );
    let index = std::fs::read(prefix.with_extension("galign")).unwrap();
    assert!(
        index == std::fs::read(alone.with_extension("galign")).unwrap(),
        "the index is the complete file a lone run writes"
    );
}

/// Waits until process `pid` has `file` memory-mapped (Linux `/proc/PID/maps`).
fn wait_until_mapped(pid: u32, file: &Path) {
    let name = file.to_string_lossy().into_owned();
    let start = Instant::now();
    loop {
        let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
        if maps.contains(&name) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "map never mapped {name}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_index_replaced_under_a_running_map_does_not_disturb_it() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("ref");
    let build = |fasta: &str| {
        run_ok(
            galign()
                .args(["index", "--device", "cpu", "-p"])
                .arg(&prefix)
                .arg(data(fasta)),
        )
    };
    build("human_rCRS_chrM_NC_012920.fa.gz");
    let reads = data("NA12878_chrM_20k.fq.gz");
    let expected = run_ok(&mut map_command(&prefix, &reads)).stdout;
    // A map that reads its reads from a FIFO, so that it waits with the index open.
    let fifo = dir.path().join("reads.fifo");
    run_ok(Command::new("mkfifo").arg(&fifo));
    let child = map_command(&prefix, &fifo)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut writer = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    wait_until_mapped(child.id(), &prefix.with_extension("galign"));
    // Another reference's index now takes the name (written aside, renamed over it).
    build("phiX174.fa.gz");
    let plain = run_ok(Command::new("gzip").arg("-dc").arg(&reads)).stdout;
    writer.write_all(&plain).unwrap();
    drop(writer);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The run mapped against the index it opened (only the @PG command line, which names
    // the FIFO, differs).
    let without_pg = |sam: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(sam)
            .lines()
            .filter(|l| !l.starts_with("@PG"))
            .map(str::to_string)
            .collect()
    };
    assert!(
        without_pg(&out.stdout) == without_pg(&expected),
        "the output is not the old index's"
    );
}
