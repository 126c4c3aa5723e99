//! MultiQC reads galign's logs (issue 66, item 6): `map --summary-file` writes
//! bowtie2's alignment summary, which MultiQC's bowtie2 module finds in a folder and
//! parses; its numbers in `multiqc_data` are the run's (`--stats`). MultiQC (1.35, from
//! PyPI; `.ci/run` installs it) is found as `multiqc` on the PATH or `$GALIGN_MULTIQC`;
//! without it the test says so and skips, unless `GALIGN_REQUIRE_MULTIQC` is set (CI).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// The MultiQC command, if installed.
fn multiqc() -> Option<PathBuf> {
    let candidate =
        std::env::var_os("GALIGN_MULTIQC").map_or_else(|| "multiqc".into(), PathBuf::from);
    let works = Command::new(&candidate)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if works {
        return Some(candidate);
    }
    assert!(
        std::env::var_os("GALIGN_REQUIRE_MULTIQC").is_none(),
        "GALIGN_REQUIRE_MULTIQC is set but multiqc does not run (pip install multiqc==1.35)"
    );
    eprintln!(
        "skipped: MultiQC is not installed (pip install multiqc==1.35, or set GALIGN_MULTIQC)"
    );
    None
}

/// The value of `field` in the row of `sample` in MultiQC's tab-separated `table`.
fn cell(table: &str, sample: &str, field: &str) -> String {
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let column = header
        .iter()
        .position(|h| *h == field)
        .unwrap_or_else(|| panic!("no {field} in {header:?}"));
    let row = lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|r| r[0] == sample)
        .unwrap_or_else(|| panic!("no sample {sample} in\n{table}"));
    row[column].to_string()
}

/// A number of MultiQC's table (which may write integers as `596.0`).
fn number(text: &str) -> f64 {
    text.parse()
        .unwrap_or_else(|_| panic!("not a number: {text}"))
}

/// Runs `galign map` with `args`, its summary to `logs/NAME.log` and its stats to
/// `NAME.json`; returns the stats.
fn map_with_logs(dir: &Path, name: &str, args: &[&Path]) -> serde_json::Value {
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let json = dir.join(format!("{name}.json"));
    run_ok(
        galign()
            .arg("map")
            .arg("-o")
            .arg(dir.join(format!("{name}.bam")))
            .arg("--summary-file")
            .arg(logs.join(format!("{name}.log")))
            .arg("--stats")
            .arg(&json)
            .args(args),
    );
    serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap()
}

/// The reads of the gzip FASTQ `path`, records 2k and 2k + 1 renamed `pk`.
fn as_pairs(path: &Path) -> String {
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::MultiGzDecoder::new(std::fs::File::open(path).unwrap()),
        &mut text,
    )
    .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let records = lines.len() / 4 / 2 * 2;
    (0..records)
        .map(|r| {
            let l = &lines[4 * r..4 * r + 4];
            format!("@p{}\n{}\n+\n{}\n", r / 2, l[1], l[3])
        })
        .collect()
}

#[test]
fn multiqc_finds_the_summary_and_its_numbers_are_the_runs() {
    let Some(multiqc) = multiqc() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let prefix = index(&data("human_rCRS_chrM_NC_012920.fa.gz"), d, "chrM", "cpu");
    let reads = data("NA12878_chrM_20k.fq.gz");
    let single = map_with_logs(d, "na12878", &[&prefix, &reads]);
    // Pairs: the same reads, two by two renamed as mates 1 and 2 of an interleaved file.
    let interleaved = d.join("pairs.fq");
    std::fs::write(&interleaved, as_pairs(&reads)).unwrap();
    let paired = map_with_logs(
        d,
        "na12878_pairs",
        &[Path::new("-p"), &prefix, &interleaved],
    );
    assert_eq!(paired["paired"], true);
    let report = d.join("report");
    run_ok(
        Command::new(&multiqc)
            .arg("--no-ansi")
            .arg("-o")
            .arg(&report)
            .arg(d.join("logs")),
    );
    let table = std::fs::read_to_string(report.join("multiqc_data/multiqc_bowtie2.txt"))
        .expect("MultiQC found the bowtie2-style summaries");
    let html = std::fs::read_to_string(report.join("multiqc_report.html")).unwrap();
    assert!(
        html.contains("Bowtie 2"),
        "the report has a Bowtie 2 section"
    );
    let reads_of = |stats: &serde_json::Value, key: &str| stats[key].as_u64().unwrap() as f64;
    assert_eq!(
        number(&cell(&table, "na12878", "total_reads")),
        reads_of(&single, "reads")
    );
    assert_eq!(
        number(&cell(&table, "na12878", "unpaired_aligned_one")),
        reads_of(&single, "unique")
    );
    assert_eq!(
        number(&cell(&table, "na12878", "unpaired_aligned_multi")),
        reads_of(&single, "multi")
    );
    assert_eq!(
        number(&cell(&table, "na12878", "unpaired_aligned_none")),
        reads_of(&single, "unmapped")
    );
    let rate = 100.0 * reads_of(&single, "mapped") / reads_of(&single, "reads");
    let parsed = number(&cell(&table, "na12878", "overall_alignment_rate"));
    assert!((parsed - rate).abs() < 0.006, "{parsed} against {rate}");
    // Pairs: as many as half the reads; concordant ones are the proper pairs.
    let pairs = &paired["pair_counts"];
    let count = |key: &str| pairs[key].as_u64().unwrap() as f64;
    assert_eq!(
        number(&cell(&table, "na12878_pairs", "paired_total")),
        reads_of(&paired, "reads") / 2.0
    );
    let concordant = number(&cell(&table, "na12878_pairs", "paired_aligned_one"))
        + number(&cell(&table, "na12878_pairs", "paired_aligned_multi"));
    assert_eq!(concordant, reads_of(&paired, "proper_pairs"));
    assert_eq!(
        number(&cell(&table, "na12878_pairs", "paired_aligned_discord_one")),
        count("discordant_once")
    );
    assert_eq!(
        number(&cell(&table, "na12878_pairs", "paired_aligned_mate_none")),
        count("mates_unmapped")
    );
    // The JSON says what ran, where and how long.
    assert_eq!(single["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(single["inputs"][0], reads.display().to_string());
    assert_eq!(
        single["index"],
        prefix.with_extension("galign").display().to_string()
    );
    assert_eq!(single["device"], "cpu");
    assert!(single["threads"].as_u64().unwrap() >= 1);
    assert!(single["command_line"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "--summary-file"));
    let total = single["timings"]["total"].as_f64().unwrap();
    let load = single["timings"]["load_index"].as_f64().unwrap();
    assert!(
        total > 0.0 && load >= 0.0 && load <= total,
        "{}",
        single["timings"]
    );
}
