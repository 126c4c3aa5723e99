//! Workflows (issue 6): the Snakemake and Nextflow pipelines in `workflows/`.
//!
//! * `snakemake_scatter_gather_equals_single_run` runs the real Snakemake
//!   workflow end to end (index once, split every sample into chunks, map each
//!   chunk, sort, merge, index) on real data from `data/`, and checks that each
//!   merged BAM holds exactly the records (and header, @PG aside) of mapping the
//!   same reads in one go with `galign map` and sorting with samtools.
//!   Needs `snakemake` (pip install snakemake) and `samtools` on PATH; it FAILS,
//!   it does not skip, when they are missing.
//! * `snakemake_index_in_parts_equals_galign_index` runs the Snakemake workflow
//!   with `index: {parts: 3}` and no samples on a real reference: three part jobs
//!   (scatter) and the assembly (gather) must give the very file `galign index`
//!   writes.
//! * The Nextflow side is checked statically (Nextflow, nf-test, Docker and
//!   conda cannot be run here; CI runs these checks with the rest):
//!   `nextflow_modules_are_self_contained` (every process runs only scripts of
//!   its own module's `resources/usr/bin`, nothing outside the module folder,
//!   the Snakemake rules run the same files),
//!   `nextflow_modules_have_meta_software_and_nf_tests` (meta.yml, conda and
//!   container directives, nf-test files), `nextflow_schema_lists_every_param`,
//!   `workflow_descriptions_do_not_say_exact_match` and
//!   `container_recipes_build_galign_from_this_repository` (the Dockerfile and
//!   conda recipe against Cargo.toml, `.ci/run` and README.md).
//! * `split_fastq_scatters_whole_records` checks the scatter script directly on
//!   edge cases (more chunks than reads, gzip and plain input, mates in step,
//!   truncated input rejected).

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

const GALIGN: &str = env!("CARGO_BIN_EXE_galign");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tail(bytes: &[u8], max: usize) -> String {
    let s = String::from_utf8_lossy(bytes);
    if s.len() <= max {
        return s.into_owned();
    }
    let mut start = s.len() - max;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    format!("[...]{}", &s[start..])
}

/// Run a command; panic with its output if it cannot start or fails.
fn run(cmd: &mut Command, what: &str) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start {cmd:?}: {e}"));
    if !out.status.success() {
        panic!(
            "{what} failed ({}):\n{cmd:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            out.status,
            tail(&out.stdout, 8000),
            tail(&out.stderr, 8000)
        );
    }
    out
}

fn bash(script: &str, what: &str) -> Output {
    run(
        Command::new("bash").args(["-euo", "pipefail", "-c", script]),
        what,
    )
}

/// The tool must be on PATH: the test fails (never skips) without it.
fn require_tool(name: &str, hint: &str) -> String {
    match Command::new(name).arg("--version").output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string(),
        Ok(o) => panic!(
            "`{name} --version` failed ({}): {}\n{hint}",
            o.status,
            tail(&o.stderr, 2000)
        ),
        Err(e) => {
            panic!("`{name}` is required on PATH for this test but cannot be run: {e}\n{hint}")
        }
    }
}

/// Single-quote a path for YAML.
fn yq(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "''"))
}

/// Shell-quote for bash -c scripts.
fn sq(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// `samtools view -h` of a BAM: the header without @PG lines (their command
/// lines necessarily differ) plus all records, as sorted lines.
fn bam_lines(bam: &Path) -> Vec<String> {
    let out = run(
        Command::new("samtools").arg("view").arg("-h").arg(bam),
        &format!("samtools view -h {}", bam.display()),
    );
    let mut lines: Vec<String> = String::from_utf8(out.stdout)
        .expect("SAM text is UTF-8")
        .lines()
        .filter(|l| !l.starts_with("@PG\t"))
        .map(str::to_string)
        .collect();
    lines.sort_unstable();
    lines
}

fn count_fastq_records(path: &Path) -> usize {
    let out = bash(
        &format!("gzip -cdf -- {} | wc -l", sq(&path.display().to_string())),
        "count FASTQ lines",
    );
    let lines: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    assert_eq!(
        lines % 4,
        0,
        "{} is not whole 4-line records",
        path.display()
    );
    lines / 4
}

/// Differences between two sorted line lists, for a readable failure.
fn diff_report(expected: &[String], got: &[String]) -> String {
    let mut e = BTreeMap::<&str, i64>::new();
    for l in expected {
        *e.entry(l).or_default() += 1;
    }
    for l in got {
        *e.entry(l).or_default() -= 1;
    }
    let only_expected: Vec<_> = e.iter().filter(|(_, &n)| n > 0).map(|(l, _)| *l).collect();
    let only_got: Vec<_> = e.iter().filter(|(_, &n)| n < 0).map(|(l, _)| *l).collect();
    let show = |v: &[&str]| {
        v.iter()
            .take(8)
            .map(|l| format!("    {l}\n"))
            .collect::<String>()
    };
    format!(
        "whole-run lines: {}, workflow lines: {}\n  {} only in the whole run, e.g.:\n{}  {} only in the workflow's merged BAM, e.g.:\n{}",
        expected.len(),
        got.len(),
        only_expected.len(),
        show(&only_expected),
        only_got.len(),
        show(&only_got)
    )
}

/// A sample with fewer reads than `chunks` (issue 66): its empty chunks map to
/// header-only BAMs and the run completes, its merged BAM holding every read.
#[test]
fn snakemake_sample_with_fewer_reads_than_chunks_completes() {
    require_tool("snakemake", "Install it with `pip install snakemake`.");
    require_tool(
        "samtools",
        "Install samtools (e.g. apt-get install samtools).",
    );
    let tmp = tempfile::tempdir().expect("temp dir");
    let t = tmp.path();
    let reads = t.join("tiny.fq.gz");
    let all = repo().join("data/NA12878_chrM_20k.fq.gz");
    let (all_q, reads_q) = (
        sq(&all.display().to_string()),
        sq(&reads.display().to_string()),
    );
    bash(
        &format!("gzip -cd {all_q} | awk 'NR <= 8' | gzip -c > {reads_q}"),
        "two reads",
    );
    let reference = repo().join("data/human_rCRS_chrM_NC_012920.fa.gz");
    let config = format!(
        "outdir: results\nreferences:\n  chrM: {}\nchunks: 4\n\
         threads:\n  index: 1\n  map: 1\n  merge: 1\ngpu: 0\n\
         samples:\n  tiny:\n    reference: chrM\n    fq1: {}\n",
        yq(&reference),
        yq(&reads)
    );
    let config_path = t.join("config.yaml");
    fs::write(&config_path, config).unwrap();
    run(
        Command::new("snakemake")
            .args(["--cores", "1", "--snakefile"])
            .arg(repo().join("workflows/snakemake/Snakefile"))
            .arg("--configfile")
            .arg(&config_path)
            .arg("--directory")
            .arg(t.join("run"))
            .env("GALIGN", GALIGN)
            .env_remove("GALIGN_DEVICE"),
        "snakemake run of a two-read sample in 4 chunks",
    );
    let merged = t.join("run/results/merged/tiny.bam");
    let count = run(
        Command::new("samtools").args(["view", "-c"]).arg(&merged),
        "samtools view -c",
    );
    assert_eq!(String::from_utf8_lossy(&count.stdout).trim(), "2");
}

#[test]
fn snakemake_scatter_gather_equals_single_run() {
    let started = Instant::now();
    let smk_version = require_tool(
        "snakemake",
        "Install it with `pip install snakemake` (the CI does this in .ci/run).",
    );
    let samtools_version = require_tool(
        "samtools",
        "Install samtools (e.g. apt-get install samtools).",
    );
    eprintln!("snakemake {smk_version}; {samtools_version}; galign {GALIGN}");

    let root = repo();
    let data = root.join("data");
    let reference = data.join("human_rCRS_chrM_NC_012920.fa.gz");
    let all_reads = data.join("NA12878_chrM_20k.fq.gz");
    assert!(
        reference.is_file() && all_reads.is_file(),
        "test data missing in {}",
        data.display()
    );

    let tmp = tempfile::tempdir().expect("temp dir");
    let t = tmp.path();
    let p = |name: &str| t.join(name);
    let q = |path: &Path| sq(&path.display().to_string());

    // Real reads (NA12878 chrM, 20,000 reads): two single-end samples of
    // 10,000 reads each, one gzip-compressed and one plain, and a paired-end
    // sample made of the reads whose mate (/1 and /2) is also in the file.
    let src = q(&all_reads);
    bash(
        &format!(
            "gzip -cd {src} | awk 'NR <= 40000' | gzip -c > {a}\n\
             gzip -cd {src} | awk 'NR > 40000' > {b}\n\
             gzip -cd {src} | paste - - - - \\\n\
               | awk -F '\\t' 'BEGIN {{ OFS = \"\\t\" }} {{ n = $1; m = substr(n, length(n)); sub(/\\/[12]$/, \"\", n); print n, m, $0 }}' \\\n\
               | LC_ALL=C sort -t \"$(printf '\\t')\" -k1,1 -k2,2 \\\n\
               | awk -F '\\t' -v r1={r1} -v r2={r2} '\n\
                   $1 == pk && pm == \"1\" && $2 == \"2\" {{ print prev > r1; print $3 \"\\n\" $4 \"\\n\" $5 \"\\n\" $6 > r2 }}\n\
                   {{ pk = $1; pm = $2; prev = $3 \"\\n\" $4 \"\\n\" $5 \"\\n\" $6 }}'\n\
             gzip {r1} {r2}",
            a = q(&p("NA12878_a.fq.gz")),
            b = q(&p("NA12878_b.fq")),
            r1 = q(&p("pairs_R1.fq")),
            r2 = q(&p("pairs_R2.fq")),
        ),
        "make the samples",
    );
    let samples: Vec<(&str, Vec<PathBuf>)> = vec![
        ("NA12878_a", vec![p("NA12878_a.fq.gz")]),
        ("NA12878_b", vec![p("NA12878_b.fq")]),
        (
            "NA12878_pairs",
            vec![p("pairs_R1.fq.gz"), p("pairs_R2.fq.gz")],
        ),
    ];
    let mut n_reads = BTreeMap::new();
    for (name, fqs) in &samples {
        let counts: Vec<usize> = fqs.iter().map(|f| count_fastq_records(f)).collect();
        assert!(
            counts.iter().all(|&c| c == counts[0] && c > 1000),
            "{name}: {counts:?}"
        );
        n_reads.insert(*name, counts.iter().sum::<usize>());
    }
    assert_eq!(n_reads["NA12878_a"], 10_000);
    assert_eq!(n_reads["NA12878_b"], 10_000);

    let chunks = 4;
    let mut config = format!(
        "outdir: results\n\
         references:\n  chrM: {}\n\
         chunks: {chunks}\n\
         threads:\n  index: 2\n  map: 2\n  merge: 1\n\
         gpu: 1\n\
         map:\n  read_group: '@RG\\tID:{{sample}}\\tSM:{{sample}}\\tPL:ILLUMINA'\n\
         samples:\n",
        yq(&reference)
    );
    for (name, fqs) in &samples {
        config += &format!("  {name}:\n    reference: chrM\n    fq1: {}\n", yq(&fqs[0]));
        if let Some(fq2) = fqs.get(1) {
            config += &format!("    fq2: {}\n", yq(fq2));
        }
    }
    let config_path = p("config.yaml");
    fs::write(&config_path, &config).unwrap();

    let workdir = p("run");
    let smk_started = Instant::now();
    run(
        Command::new("snakemake")
            .arg("--cores")
            .arg("2")
            .arg("--snakefile")
            .arg(root.join("workflows/snakemake/Snakefile"))
            .arg("--configfile")
            .arg(&config_path)
            .arg("--directory")
            .arg(&workdir)
            // keep the chunk FASTQs and BAMs (temp() outputs) for the checks below
            .arg("--notemp")
            .arg("--printshellcmds")
            .env("GALIGN", GALIGN)
            .env_remove("GALIGN_DEVICE"),
        "snakemake run of workflows/snakemake/Snakefile",
    );
    let smk_secs = smk_started.elapsed().as_secs_f64();
    let results = workdir.join("results");

    // The reference ("whole") runs: an index of their own, then one
    // `galign map` per sample over all its reads, sorted by samtools.
    let whole = p("whole");
    fs::create_dir_all(&whole).unwrap();
    let prefix = whole.join("chrM");
    run(
        Command::new(GALIGN)
            .arg("index")
            .arg("-p")
            .arg(&prefix)
            .arg(&reference),
        "galign index (whole run)",
    );
    assert!(
        whole.join("chrM.galign").is_file(),
        "galign index -p did not write PREFIX.galign"
    );

    for (name, fqs) in &samples {
        let rg = format!(r"@RG\tID:{name}\tSM:{name}\tPL:ILLUMINA");
        let out = run(
            Command::new(GALIGN)
                .arg("map")
                .arg("-t")
                .arg("2")
                .arg("-R")
                .arg(&rg)
                .args(["--max-insert", "1000"]) // as the workflow's config gives each chunk
                .arg(&prefix)
                .args(fqs),
            &format!("galign map of the whole sample {name}"),
        );
        let sam = whole.join(format!("{name}.sam"));
        fs::write(&sam, &out.stdout).unwrap();
        let whole_bam = whole.join(format!("{name}.bam"));
        run(
            Command::new("samtools")
                .arg("sort")
                .arg("-o")
                .arg(&whole_bam)
                .arg(&sam),
            "samtools sort (whole run)",
        );

        // The workflow's outputs for this sample.
        let merged = results.join(format!("merged/{name}.bam"));
        assert!(
            merged.is_file(),
            "workflow did not write {}",
            merged.display()
        );
        assert!(
            results.join(format!("merged/{name}.bam.bai")).is_file(),
            "workflow did not index {}",
            merged.display()
        );
        // The scatter really split: every chunk holds reads, all chunks
        // together hold every read once, and each chunk was mapped.
        let mut chunk_records = 0usize;
        let mut chunk_reads = 0usize;
        for i in 0..chunks {
            for mate in ["R1", "R2"].iter().take(fqs.len()) {
                let fq_chunk = results.join(format!("chunks/{name}/{mate}/{i:03}.fq.gz"));
                let reads = count_fastq_records(&fq_chunk);
                assert!(
                    reads > 0,
                    "chunk {} is empty: the scatter did not split",
                    fq_chunk.display()
                );
                chunk_reads += reads;
            }
            let bam = results.join(format!("mapped/{name}/{i:03}.bam"));
            assert!(bam.is_file(), "missing chunk BAM {}", bam.display());
            let n = run(
                Command::new("samtools").arg("view").arg("-c").arg(&bam),
                "samtools view -c",
            );
            chunk_records += String::from_utf8_lossy(&n.stdout)
                .trim()
                .parse::<usize>()
                .unwrap();
        }
        assert_eq!(
            chunk_reads, n_reads[name],
            "{name}: the chunks do not hold every read exactly once"
        );

        let expected = bam_lines(&whole_bam);
        let got = bam_lines(&merged);
        let body: Vec<&String> = got.iter().filter(|l| !l.starts_with('@')).collect();
        assert_eq!(
            body.len(),
            chunk_records,
            "{name}: merged BAM != sum of its chunk BAMs"
        );

        // Sanity of the comparison itself: one record per read at least,
        // reads actually mapped, the sample's read group everywhere.
        let rg_header = format!("@RG\tID:{name}\tSM:{name}\tPL:ILLUMINA");
        assert_eq!(
            got.iter()
                .filter(|l| l.starts_with("@RG\t"))
                .collect::<Vec<_>>(),
            vec![&rg_header],
            "{name}: merged BAM must carry exactly the sample's @RG"
        );
        assert!(
            body.len() >= n_reads[name],
            "{name}: {} records for {} reads",
            body.len(),
            n_reads[name]
        );
        let rg_tag = format!("\tRG:Z:{name}");
        assert!(
            body.iter().all(|l| l.contains(&rg_tag)),
            "{name}: some records lack RG:Z:{name}"
        );
        let flags: Vec<u32> = body
            .iter()
            .map(|l| l.split('\t').nth(1).unwrap().parse().unwrap())
            .collect();
        let mapped = flags.iter().filter(|&&f| f & 0x4 == 0).count();
        assert!(mapped > 0, "{name}: no read mapped at all");
        if fqs.len() == 2 {
            assert!(
                flags.iter().all(|&f| f & 0x1 != 0),
                "{name}: paired-end sample has records not flagged as paired"
            );
        }

        if expected != got {
            panic!(
                "{name}: the workflow's merged BAM differs from mapping the whole sample in one go \
                 (scatter/gather must not change any record)\n{}",
                diff_report(&expected, &got)
            );
        }
        eprintln!(
            "{name}: {} records ({mapped} mapped) identical between the {chunks}-chunk workflow and one whole run",
            body.len()
        );
    }

    eprintln!(
        "snakemake workflow: {smk_secs:.1} s; whole test: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn snakemake_index_in_parts_equals_galign_index() {
    require_tool(
        "snakemake",
        "Install it with `pip install snakemake` (the CI does this in .ci/run).",
    );
    let reference = repo().join("data/celegans_ce_htslib_1Mb.fa.gz"); // real, 1 Mbp, 7 contigs
    let tmp = tempfile::tempdir().expect("temp dir");
    let t = tmp.path();
    let config = t.join("config.yaml");
    let parts = 3;
    fs::write(
        &config,
        format!(
            "outdir: results\nreferences:\n  ce: {}\nindex:\n  parts: {parts}\nthreads:\n  index: 1\n",
            yq(&reference)
        ),
    )
    .unwrap();
    let workdir = t.join("run");
    let out = run(
        Command::new("snakemake")
            .args([
                "--cores",
                "2",
                "--notemp",
                "--printshellcmds",
                "--snakefile",
            ])
            .arg(repo().join("workflows/snakemake/Snakefile"))
            .arg("--configfile")
            .arg(&config)
            .arg("--directory")
            .arg(&workdir)
            .env("GALIGN", GALIGN),
        "snakemake run of the index in parts",
    );
    let log =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let index = workdir.join("results/index/ce");
    for part in 0..parts {
        let file = index.join(format!("parts/ce.{part}-of-{parts}.part"));
        assert!(
            fs::metadata(&file).is_ok_and(|m| m.len() > 100_000),
            "part job {part} wrote no part file {}",
            file.display()
        );
    }
    assert_eq!(
        log.matches("galign_index_part.sh").count(),
        parts,
        "one part job each: {log}"
    );
    assert!(
        !log.contains("galign_index.sh"),
        "no whole index job: {log}"
    );
    run(
        Command::new(GALIGN)
            .args(["index", "--device", "cpu", "-p"])
            .arg(t.join("whole"))
            .arg(&reference),
        "galign index",
    );
    let whole = fs::read(t.join("whole.galign")).unwrap();
    let assembled = fs::read(index.join("ce.galign")).expect("the workflow wrote the index");
    assert!(
        assembled == whole,
        "the index assembled from {parts} parts differs from galign index's"
    );
}

/// The Nextflow modules: (process, module folder under modules/local, the script
/// in its resources/usr/bin that the process runs, the Snakemake rule running it).
const NF_MODULES: [(&str, &str, &str, &str); 6] = [
    (
        "GALIGN_INDEX",
        "galign/index",
        "galign_index.sh",
        "galign_index",
    ),
    (
        "GALIGN_INDEX_PART",
        "galign/index_part",
        "galign_index_part.sh",
        "galign_index_part",
    ),
    (
        "GALIGN_INDEX_ASSEMBLE",
        "galign/index_assemble",
        "galign_index_assemble.sh",
        "galign_index_assemble",
    ),
    ("GALIGN_MAP", "galign/map", "galign_map.sh", "galign_map"),
    (
        "SPLIT_FASTQ",
        "split_fastq",
        "split_fastq.sh",
        "split_fastq",
    ),
    ("MERGE_BAMS", "merge_bams", "merge_bams.sh", "merge_bams"),
];

fn nf_root() -> PathBuf {
    repo().join("workflows/nextflow")
}

/// A module's scripts folder, which Nextflow puts on PATH for its processes
/// (`nextflow.enable.moduleBinaries = true`).
fn module_bin(module: &str) -> PathBuf {
    nf_root()
        .join("modules/local")
        .join(module)
        .join("resources/usr/bin")
}

/// The package version in Cargo.toml: the image tag and the conda version.
fn cargo_version() -> String {
    let toml = fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let line = toml
        .lines()
        .find(|l| l.starts_with("version = "))
        .expect("Cargo.toml has a version");
    line.split('"').nth(1).unwrap().to_string()
}

/// The image every module's `container` directive must name (built from
/// workflows/container/Dockerfile).
fn galign_image() -> String {
    format!("ghcr.io/galign/galign:{}", cargo_version())
}

/// The `process NAME { ... }` blocks of a .nf file: (name, whole block, the
/// `script:` and `stub:` sections together).
fn nf_processes(text: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let starts: Vec<usize> = text
        .match_indices("process ")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || text[..i].ends_with('\n'))
        .collect();
    for (k, &s) in starts.iter().enumerate() {
        let block = &text[s..starts.get(k + 1).copied().unwrap_or(text.len())];
        let name = block["process ".len()..]
            .split(|c: char| c.is_whitespace() || c == '{')
            .next()
            .unwrap()
            .to_string();
        let shell = block
            .find("\n    script:")
            .map_or("", |i| &block[i..])
            .to_string();
        out.push((name, block.to_string(), shell));
    }
    out
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The words of a shell text (split on white space, quotes and shell operators).
fn shell_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || "\"'`;(){}|&<>".contains(c))
        .filter(|w| !w.is_empty())
}

/// The module folders: every folder under modules/ holding a main.nf.
fn nf_module_dirs() -> Vec<PathBuf> {
    let mut files = Vec::new();
    files_under(&nf_root().join("modules"), &mut files);
    let mut dirs: Vec<PathBuf> = files
        .iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "main.nf"))
        .map(|p| p.parent().unwrap().to_path_buf())
        .collect();
    dirs.sort();
    dirs
}

/// Every Nextflow module is self-contained: its processes run only the scripts
/// in its own `resources/usr/bin` (by name, from PATH), the file names nothing
/// outside the module (no `..`, projectDir, baseDir, launchDir), moduleBinaries
/// is on, sourced helpers sit next to their scripts, a helper carried by several
/// modules is byte-identical in each, and the Snakemake rules run the very same
/// module scripts (so both engines do the same work). Every script parses.
#[test]
fn nextflow_modules_are_self_contained() {
    let root = repo();
    let mut problems = Vec::new();
    let config = fs::read_to_string(nf_root().join("nextflow.config")).unwrap();
    if !config
        .lines()
        .any(|l| l.split("//").next().unwrap().trim() == "nextflow.enable.moduleBinaries = true")
    {
        problems.push("nextflow.config does not set nextflow.enable.moduleBinaries = true".into());
    }
    if root.join("workflows/scripts").exists() {
        problems.push("workflows/scripts exists: the scripts belong in the modules".into());
    }

    let mut processes = BTreeMap::new();
    let mut helpers: BTreeMap<String, Vec<(PathBuf, Vec<u8>)>> = BTreeMap::new();
    let dirs = nf_module_dirs();
    assert!(dirs.len() >= NF_MODULES.len(), "modules: {dirs:?}");
    for dir in &dirs {
        let nf = dir.join("main.nf");
        let shown = nf.strip_prefix(&root).unwrap().display().to_string();
        let text = fs::read_to_string(&nf).unwrap();
        for bad in ["../", "/..", "projectDir", "baseDir", "launchDir"] {
            if text.contains(bad) {
                problems.push(format!(
                    "{shown}: names `{bad}`: a module may use only its own folder"
                ));
            }
        }
        // ${moduleDir}/X must be a file of the module.
        for (at, _) in text.match_indices("${moduleDir}/") {
            let rest = &text[at + "${moduleDir}/".len()..];
            let rel = &rest[..rest.find(['"', '\'', ' ', '\n']).unwrap_or(rest.len())];
            if !dir.join(rel).is_file() {
                problems.push(format!("{shown}: ${{moduleDir}}/{rel} does not exist"));
            }
        }
        let bin = dir.join("resources/usr/bin");
        for (name, _, shell) in nf_processes(&text) {
            let mut runs = Vec::new();
            for w in shell_words(&shell).filter(|w| w.ends_with(".sh")) {
                let file = bin.join(w);
                if w.contains('/') {
                    problems.push(format!(
                        "{shown}: {name} runs {w} by a path, not from its resources/usr/bin"
                    ));
                } else if !file.is_file()
                    || fs::metadata(&file).unwrap().permissions().mode() & 0o111 == 0
                {
                    problems.push(format!(
                        "{shown}: {name} runs {w}, not an executable file of {}",
                        bin.display()
                    ));
                } else {
                    runs.push(w.to_string());
                }
            }
            processes.insert(name, (dir.clone(), runs));
        }
        // The module's scripts: they parse, and what they source is beside them.
        if !bin.is_dir() {
            continue;
        }
        for e in fs::read_dir(&bin).unwrap() {
            let p = e.unwrap().path();
            let fname = p.file_name().unwrap().to_string_lossy().into_owned();
            let body = fs::read(&p).unwrap();
            helpers
                .entry(fname.clone())
                .or_default()
                .push((p.clone(), body.clone()));
            let out = Command::new("bash").arg("-n").arg(&p).output().unwrap();
            if !out.status.success() {
                problems.push(format!(
                    "bash -n {}: {}",
                    p.display(),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            // Run as a task runs it: by name, from PATH, in another folder (what
            // it sources must be found beside it). `-h` prints the usage.
            if fname.ends_with(".sh") && fs::metadata(&p).unwrap().permissions().mode() & 0o111 != 0
            {
                let cwd = tempfile::tempdir().unwrap();
                let path = format!(
                    "{}:{}",
                    bin.display(),
                    std::env::var("PATH").unwrap_or_default()
                );
                let out = Command::new("bash")
                    .args(["-c", &format!("{fname} -h")])
                    .env("PATH", path)
                    .current_dir(cwd.path())
                    .output()
                    .unwrap();
                if !out.status.success() || !String::from_utf8_lossy(&out.stderr).contains("Usage:")
                {
                    problems.push(format!(
                        "{fname} -h, run from PATH as a Nextflow task runs it, failed ({}): {}",
                        out.status,
                        tail(&out.stderr, 400)
                    ));
                }
            }
            for line in String::from_utf8_lossy(&body).lines() {
                if let Some(src) = line.trim().strip_prefix("source \"$here/") {
                    let dep = src.trim_end_matches('"');
                    if !bin.join(dep).is_file() {
                        problems.push(format!(
                            "{}: sources {dep}, which is not in {}",
                            p.display(),
                            bin.display()
                        ));
                    }
                } else if line.trim_start().starts_with("source ")
                    || line.trim_start().starts_with(". ")
                {
                    problems.push(format!(
                        "{}: `{}` sources a file outside its folder",
                        p.display(),
                        line.trim()
                    ));
                }
            }
        }
    }
    // A helper that several modules carry must be the same file in each.
    for (fname, copies) in &helpers {
        for (path, body) in &copies[1..] {
            if body != &copies[0].1 {
                problems.push(format!(
                    "{} differs from {}: the copies of {fname} must be byte-identical",
                    path.display(),
                    copies[0].0.display()
                ));
            }
        }
    }

    let snakefile = fs::read_to_string(root.join("workflows/snakemake/Snakefile")).unwrap();
    for (process, module, script, rule) in NF_MODULES {
        match processes.get(process) {
            None => problems.push(format!("no Nextflow process {process}")),
            Some((dir, runs)) => {
                if !dir.ends_with(module) || runs != &[script.to_string()] {
                    problems.push(format!(
                        "{process} (in {}) must run {script} of modules/local/{module}, runs {runs:?}",
                        dir.display()
                    ));
                }
            }
        }
        // The Snakemake rule runs the very same file.
        let call = format!("_module_script(\"{module}\", \"{script}\")");
        let var = snakefile
            .lines()
            .find(|l| l.contains(&call))
            .and_then(|l| l.split(" = ").next())
            .map(str::trim);
        let rule_at = snakefile.find(&format!("rule {rule}:"));
        match (var, rule_at) {
            (Some(var), Some(at)) => {
                let body = &snakefile[at..];
                let body = &body[..body[1..].find("\nrule ").map_or(body.len(), |i| i + 1)];
                if !body.contains(&format!("{{{var}}}")) {
                    problems.push(format!(
                        "Snakefile: rule {rule} does not run {{{var}}} ({call})"
                    ));
                }
            }
            _ => problems.push(format!("Snakefile: no {call} or no rule {rule}")),
        }
        if !module_bin(module).join(script).is_file() {
            problems.push(format!(
                "missing {}",
                module_bin(module).join(script).display()
            ));
        }
    }

    // include { X } from './path' must point to an existing module.
    let main = fs::read_to_string(nf_root().join("main.nf")).unwrap();
    for line in main
        .lines()
        .filter(|l| l.trim_start().starts_with("include "))
    {
        if let Some(q) = line.split(['\'', '"']).nth(1) {
            let target = nf_root().join(q);
            if !target.join("main.nf").is_file() && !target.with_extension("nf").is_file() {
                problems.push(format!("main.nf: include target {q} does not exist"));
            }
        }
    }

    assert!(
        problems.is_empty(),
        "Nextflow modules are not self-contained:\n  {}",
        problems.join("\n  ")
    );
}

/// Every module has its meta.yml (named after its process), a `conda` directive
/// naming its environment.yml (galign at Cargo.toml's version, samtools where
/// the module runs it) and a `container` directive naming the image of
/// workflows/container/Dockerfile, and an nf-test file `tests/main.nf.test` with
/// a test of its process whose data and setup scripts exist. The pipeline has
/// nf-test.config and a pipeline test. nf-test cannot run here; this is what can
/// be checked without it.
#[test]
fn nextflow_modules_have_meta_software_and_nf_tests() {
    let root = repo();
    let version = cargo_version();
    let image = galign_image();
    let mut problems = Vec::new();
    for dir in nf_module_dirs() {
        let shown = dir.strip_prefix(&root).unwrap().display().to_string();
        let text = fs::read_to_string(dir.join("main.nf")).unwrap();
        let procs = nf_processes(&text);
        if procs.len() != 1 {
            problems.push(format!("{shown}: {} processes; one a module", procs.len()));
            continue;
        }
        let (name, block, _) = &procs[0];
        let meta = fs::read_to_string(dir.join("meta.yml")).unwrap_or_default();
        if !meta.contains(&format!("name: \"{}\"", name.to_lowercase())) {
            problems.push(format!(
                "{shown}: no meta.yml named \"{}\"",
                name.to_lowercase()
            ));
        }
        let directive = |key: &str| {
            block.lines().find_map(|l| {
                l.trim()
                    .strip_prefix(&format!("{key} "))
                    .map(|v| v.trim_matches('"').to_string())
            })
        };
        if directive("container").as_deref() != Some(image.as_str()) {
            problems.push(format!(
                "{shown}: {name} container {:?}, expected {image:?}",
                directive("container")
            ));
        }
        if directive("conda").as_deref() != Some("${moduleDir}/environment.yml") {
            problems.push(format!(
                "{shown}: {name} has no conda \"${{moduleDir}}/environment.yml\""
            ));
        }
        let env = fs::read_to_string(dir.join("environment.yml")).unwrap_or_default();
        let deps: Vec<&str> = env
            .lines()
            .filter_map(|l| l.trim().strip_prefix("- "))
            .collect();
        let shell_and_bin = {
            let mut s = block.clone();
            if let Ok(rd) = fs::read_dir(dir.join("resources/usr/bin")) {
                for e in rd {
                    s += &fs::read_to_string(e.unwrap().path()).unwrap();
                }
            }
            s
        };
        if shell_and_bin.contains("$GALIGN")
            && !deps.contains(&format!("galign={version}").as_str())
        {
            problems.push(format!(
                "{shown}: runs galign, environment.yml lacks galign={version}: {deps:?}"
            ));
        }
        if shell_and_bin.contains("samtools ") && !deps.iter().any(|d| d.contains("samtools")) {
            problems.push(format!(
                "{shown}: runs samtools, environment.yml lacks it: {deps:?}"
            ));
        }
        // nf-test: the module's test file names its process and has a test.
        let test_file = dir.join("tests/main.nf.test");
        let nft = fs::read_to_string(&test_file).unwrap_or_default();
        for need in [
            "nextflow_process {".to_string(),
            "script \"../main.nf\"".to_string(),
            format!("process \"{name}\""),
            "test(\"".to_string(),
            "assert process.success".to_string(),
        ] {
            if !nft.contains(&need) {
                problems.push(format!("{}: lacks `{need}`", test_file.display()));
            }
        }
        problems.extend(nf_test_refs(&test_file, &nft));
    }
    let pipeline_test = nf_root().join("tests/main.nf.test");
    let nft = fs::read_to_string(&pipeline_test).unwrap_or_default();
    if !nft.contains("nextflow_pipeline {")
        || !nft.contains("script \"../main.nf\"")
        || !nft.contains("assert workflow.success")
    {
        problems.push(format!(
            "{}: no pipeline test of main.nf",
            pipeline_test.display()
        ));
    }
    problems.extend(nf_test_refs(&pipeline_test, &nft));
    let cfg = fs::read_to_string(nf_root().join("nf-test.config")).unwrap_or_default();
    if !cfg.contains("configFile \"tests/nextflow.config\"")
        || !nf_root().join("tests/nextflow.config").is_file()
    {
        problems.push(
            "workflows/nextflow/nf-test.config must name tests/nextflow.config, which must exist"
                .into(),
        );
    }
    assert!(
        problems.is_empty(),
        "Nextflow modules:\n  {}",
        problems.join("\n  ")
    );
}

/// What an nf-test file refers to: `${baseDir}/...` data (baseDir is the
/// folder of nf-test.config, workflows/nextflow) and the `script "..."` of its
/// setup processes must exist.
fn nf_test_refs(file: &Path, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (at, _) in text.match_indices("${baseDir}/") {
        let rest = &text[at + "${baseDir}/".len()..];
        let rel = &rest[..rest.find(['"', '\'', ',', ' ', '\n']).unwrap_or(rest.len())];
        if !nf_root().join(rel).exists() {
            problems.push(format!(
                "{}: ${{baseDir}}/{rel} does not exist",
                file.display()
            ));
        }
    }
    for line in text.lines() {
        if let Some(s) = line.trim().strip_prefix("script \"") {
            let s = s.trim_end_matches('"');
            if !file.parent().unwrap().join(s).is_file() {
                problems.push(format!("{}: script {s} does not exist", file.display()));
            }
        }
    }
    problems
}

/// `name = value` assignments at the top of the `params { }` block of
/// nextflow.config: (name, value as written).
fn nf_config_params(config: &str) -> Vec<(String, String)> {
    let start = config
        .find("\nparams {")
        .expect("nextflow.config has params { }");
    let mut out = Vec::new();
    for line in config[start..].lines().skip(1) {
        let line = line.split("//").next().unwrap().trim();
        if line == "}" {
            break;
        }
        if let Some((name, value)) = line.split_once('=') {
            out.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    out
}

/// nextflow_schema.json is valid JSON (draft 2020-12, nf-core layout: groups in
/// `$defs`, each in `allOf`), describes exactly the params nextflow.config
/// declares, with the same defaults, and every `params.X` that main.nf, the
/// modules or the config use is declared. The required ones are those main.nf
/// refuses to run without.
#[test]
fn nextflow_schema_lists_every_param() {
    let schema_text = fs::read_to_string(nf_root().join("nextflow_schema.json")).unwrap();
    let schema: serde_json::Value =
        serde_json::from_str(&schema_text).expect("nextflow_schema.json is JSON");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let defs = schema["$defs"].as_object().expect("$defs groups");
    let refs: Vec<&str> = schema["allOf"]
        .as_array()
        .expect("allOf")
        .iter()
        .map(|r| r["$ref"].as_str().unwrap())
        .collect();
    let mut in_schema = BTreeMap::new();
    let mut required = Vec::new();
    for (group, def) in defs {
        assert!(
            refs.contains(&format!("#/$defs/{group}").as_str()),
            "group {group} not in allOf"
        );
        for (name, prop) in def["properties"].as_object().unwrap() {
            assert!(prop["description"].is_string(), "{name}: no description");
            assert!(
                in_schema.insert(name.clone(), prop.clone()).is_none(),
                "{name} twice"
            );
        }
        if let Some(r) = def["required"].as_array() {
            required.extend(r.iter().map(|v| v.as_str().unwrap().to_string()));
        }
    }
    let config = fs::read_to_string(nf_root().join("nextflow.config")).unwrap();
    let declared = nf_config_params(&config);
    let names: Vec<&String> = declared.iter().map(|(n, _)| n).collect();
    assert_eq!(
        in_schema.keys().collect::<Vec<_>>(),
        {
            let mut n = names.clone();
            n.sort();
            n
        },
        "the schema's params and nextflow.config's params {{ }} differ"
    );
    for (name, value) in &declared {
        let prop = &in_schema[name];
        let want = if let Ok(i) = value.parse::<i64>() {
            assert_eq!(prop["type"], "integer", "{name}");
            Some(serde_json::json!(i))
        } else if let Some(s) = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
            assert_eq!(prop["type"], "string", "{name}");
            Some(serde_json::json!(s.replace("\\\\", "\\")))
        } else {
            None // null or an expression: no fixed default to compare
        };
        if let Some(want) = want {
            assert_eq!(
                prop["default"], want,
                "{name}: schema default != nextflow.config's"
            );
        }
    }
    // Every params.X used anywhere in the pipeline is declared.
    let mut files = vec![nf_root().join("main.nf"), nf_root().join("nextflow.config")];
    nf_module_dirs()
        .iter()
        .for_each(|d| files.push(d.join("main.nf")));
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        for (at, _) in text.match_indices("params.") {
            if at > 0 && text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &text[at + "params.".len()..];
            let name = &rest[..rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())];
            assert!(
                in_schema.contains_key(name),
                "{} uses params.{name}, which nextflow_schema.json lacks",
                f.display()
            );
        }
    }
    let main = fs::read_to_string(nf_root().join("main.nf")).unwrap();
    for p in &required {
        assert!(
            main.contains(&format!("if (!params.{p})")),
            "{p} is required but main.nf does not check it"
        );
    }
    assert!(required.contains(&"input".to_string()) && required.contains(&"fasta".to_string()));
}

/// galign is not only an exact matcher (k mismatches, and gapped alignment to
/// come): nothing in workflows/ (modules' meta.yml, manifest, schema, recipes,
/// READMEs) may describe it as one.
#[test]
fn workflow_descriptions_do_not_say_exact_match() {
    let mut files = Vec::new();
    files_under(&repo().join("workflows"), &mut files);
    let mut found = Vec::new();
    for f in files {
        let Ok(text) = fs::read_to_string(&f) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            let l = line.to_lowercase();
            if l.contains("exact-match") || l.contains("exact match") {
                found.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "\"exact-match\" in workflows/:\n  {}",
        found.join("\n  ")
    );
}

/// The packages of the `apt-get install` command in a shell text (continuation
/// lines joined; options and redirections left out).
fn apt_packages(text: &str) -> Vec<String> {
    let joined = text.replace("\\\n", " ");
    let mut pkgs = Vec::new();
    for line in joined.lines() {
        if let Some(at) = line.find("apt-get install") {
            let rest = &line[at + "apt-get install".len()..];
            let rest = rest.split("&&").next().unwrap();
            pkgs.extend(
                rest.split_whitespace()
                    .take_while(|w| !w.starts_with('>'))
                    .filter(|w| !w.starts_with('-'))
                    .map(str::to_string),
            );
        }
    }
    pkgs
}

/// The container and conda recipes cannot be built here (no Docker, no conda,
/// no network); what is checked without building them:
/// * the Dockerfile's build stage starts from rust >= Cargo.toml's
///   rust-version, copies the repository and runs `cargo build --release
///   --locked`, and installs every package `.ci/run` installs for building
///   (and README's build line); the runtime stage is debian-slim with samtools,
///   bash, gzip, awk and ps, and galign from the build stage. Every package of
///   `.ci/run` is either in the image or a test-only tool named here;
/// * the image tag in the Dockerfile's build command, its version label, the
///   modules' container directives and workflows/README.md agree, at Cargo.toml's
///   version; the build context's ignore file keeps target/ out;
/// * the conda recipe has Cargo.toml's version, the build tools, samtools at run
///   time, and a build.sh running `cargo install --locked --path .`.
#[test]
fn container_recipes_build_galign_from_this_repository() {
    let root = repo();
    let version = cargo_version();
    let image = galign_image();
    let docker = fs::read_to_string(root.join("workflows/container/Dockerfile")).unwrap();
    let stages: Vec<&str> = docker.split("\nFROM ").skip(1).collect();
    assert!(
        stages.len() >= 2,
        "a multi-stage Dockerfile: {} stages",
        stages.len()
    );
    let build = stages[0];
    let runtime = stages[stages.len() - 1];

    let toml = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let msrv = toml
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .unwrap()
        .trim_matches('"');
    let from = build.split_whitespace().next().unwrap();
    let rust = from
        .strip_prefix("rust:")
        .expect("the build stage is FROM rust:<version>");
    let num = |v: &str| -> Vec<u32> { v.split(['-', '.']).map_while(|p| p.parse().ok()).collect() };
    assert!(
        num(rust) >= num(msrv),
        "FROM {from}: Cargo.toml needs rust >= {msrv}"
    );
    assert!(
        build.contains("COPY . .") && build.contains("cargo build --release --locked"),
        "build stage: {build}"
    );

    let build_pkgs = apt_packages(build);
    let runtime_pkgs = apt_packages(runtime);
    let ci = fs::read_to_string(root.join(".ci/run")).unwrap();
    let ci_pkgs = apt_packages(&ci);
    assert!(ci_pkgs.len() > 10, ".ci/run packages: {ci_pkgs:?}");
    // Tools the tests compare galign with (or run it under), not needed by the image.
    let test_only = ["bowtie", "bcftools", "bwa", "qemu-user"];
    for p in &ci_pkgs {
        assert!(
            build_pkgs.contains(p) || runtime_pkgs.contains(p) || test_only.contains(&p.as_str()),
            ".ci/run installs {p}; the Dockerfile installs it in neither stage (build: {build_pkgs:?}, runtime: {runtime_pkgs:?})"
        );
    }
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let readme_build = apt_packages(
        readme
            .lines()
            .find(|l| l.contains("apt-get install clang"))
            .expect("README's build line"),
    );
    for p in readme_build.iter().chain(
        [
            "clang",
            "libclang-dev",
            "nasm",
            "autoconf",
            "automake",
            "libtool",
        ]
        .map(String::from)
        .iter(),
    ) {
        assert!(
            build_pkgs.contains(p),
            "build stage lacks {p} (README's build dependencies): {build_pkgs:?}"
        );
        assert!(ci_pkgs.contains(p), ".ci/run lacks build dependency {p}");
    }
    assert!(
        runtime.starts_with("debian:")
            && runtime
                .split_whitespace()
                .next()
                .unwrap()
                .ends_with("-slim"),
        "runtime FROM {}",
        runtime.lines().next().unwrap()
    );
    for p in ["samtools", "bash", "gzip", "gawk", "procps"] {
        assert!(
            runtime_pkgs.iter().any(|q| q == p),
            "runtime stage lacks {p}: {runtime_pkgs:?}"
        );
    }
    assert!(
        runtime.contains("COPY --from=build /out/galign /usr/local/bin/galign"),
        "runtime stage must take galign from the build stage"
    );
    assert!(
        docker.contains(&format!("-t {image} .")),
        "Dockerfile's build command must tag {image}"
    );
    assert!(
        docker.contains(&format!("ARG GALIGN_VERSION={version}")),
        "Dockerfile's version label must be {version}"
    );
    let ignore =
        fs::read_to_string(root.join("workflows/container/Dockerfile.dockerignore")).unwrap();
    assert!(
        ignore.lines().any(|l| l.trim() == "target/"),
        "the build context must leave target/ out"
    );
    let wf_readme = fs::read_to_string(root.join("workflows/README.md")).unwrap();
    assert!(
        wf_readme.contains(&format!(
            "docker build -f workflows/container/Dockerfile -t {image} ."
        )),
        "workflows/README.md must give the image's build command with the tag {image}"
    );

    let recipe = fs::read_to_string(root.join("workflows/conda/meta.yaml")).unwrap();
    assert!(
        recipe.contains(&format!("{{% set version = \"{version}\" %}}")),
        "conda recipe version != {version}"
    );
    let section = |name: &str| -> Vec<String> {
        let start = recipe
            .find(&format!("\n  {name}:\n"))
            .unwrap_or_else(|| panic!("requirements {name}"));
        recipe[start..]
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with("    - "))
            .map(|l| l.trim_start_matches("    - ").to_string())
            .collect()
    };
    let conda_build = section("build");
    assert!(
        conda_build.iter().any(|d| d.contains("compiler('rust')"))
            && conda_build
                .iter()
                .any(|d| d.starts_with(&format!("rust >={msrv}"))),
        "conda build requirements: the rust compiler, rust >= {msrv}: {conda_build:?}"
    );
    for p in [
        "clang", "libclang", "nasm", "autoconf", "automake", "libtool",
    ] {
        assert!(
            conda_build.iter().any(|d| d == p),
            "conda build requirements lack {p}: {conda_build:?}"
        );
    }
    assert!(
        section("run").iter().any(|d| d.starts_with("samtools")),
        "conda run requirements lack samtools"
    );
    let build_sh = root.join("workflows/conda/build.sh");
    let text = fs::read_to_string(&build_sh).unwrap();
    assert!(
        text.contains("cargo install --locked") && text.contains("--path ."),
        "build.sh: {text}"
    );
    assert!(
        fs::metadata(&build_sh).unwrap().permissions().mode() & 0o111 != 0,
        "build.sh is not executable"
    );
    run(
        Command::new("bash").arg("-n").arg(&build_sh),
        "bash -n build.sh",
    );
}

#[test]
fn split_fastq_scatters_whole_records() {
    let script = module_bin("split_fastq").join("split_fastq.sh");
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let records: Vec<String> = (0..7)
        .map(|i| {
            format!(
                "@read{i} extra\n{}\n+\n{}\n",
                "ACGT".repeat(i + 1),
                "I".repeat(4 * (i + 1))
            )
        })
        .collect();
    fs::write(t.join("r1.fq"), records.concat()).unwrap();
    // gzip-compressed mates, named /2.
    fs::write(t.join("r2.fq"), records.concat().replace(" extra", "/2")).unwrap();
    bash(
        &format!("gzip {}", sq(&t.join("r2.fq").display().to_string())),
        "gzip",
    );

    // 9 chunks for 7 records: two chunks must exist and be empty.
    let outs = |mate: &str| -> Vec<PathBuf> {
        (0..9)
            .map(|i| t.join(format!("out/{mate}.{i}.fq.gz")))
            .collect()
    };
    for (input, mate) in [("r1.fq", "R1"), ("r2.fq.gz", "R2")] {
        run(
            Command::new(&script).arg(t.join(input)).args(outs(mate)),
            "split_fastq.sh",
        );
    }
    let read = |p: &Path| -> String {
        String::from_utf8(
            bash(
                &format!("gzip -cd {}", sq(&p.display().to_string())),
                "gunzip",
            )
            .stdout,
        )
        .unwrap()
    };
    let mut seen = Vec::new();
    for (c, (a, b)) in outs("R1").iter().zip(outs("R2").iter()).enumerate() {
        let (ra, rb) = (read(a), read(b));
        assert_eq!(ra.lines().count() % 4, 0, "chunk {c} holds partial records");
        assert_eq!(
            ra,
            rb.replace("/2", " extra"),
            "chunk {c}: R1 and R2 out of step"
        );
        let expect: String = (c..7).step_by(9).map(|i| records[i].as_str()).collect();
        assert_eq!(ra, expect, "chunk {c} content");
        seen.push(ra);
    }
    assert!(seen[7].is_empty() && seen[8].is_empty());
    let mut all: Vec<&str> = seen.iter().flat_map(|s| s.split_inclusive('\n')).collect();
    let mut want: Vec<&str> = records
        .iter()
        .flat_map(|s| s.split_inclusive('\n'))
        .collect();
    all.sort_unstable();
    want.sort_unstable();
    assert_eq!(
        all, want,
        "chunks together must hold every record exactly once"
    );

    // Truncated input is an error, not a silently shorter chunk.
    fs::write(t.join("bad.fq"), "@r1\nACGT\n+\nIIII\n@r2\nAC\n").unwrap();
    let out = Command::new(&script)
        .arg(t.join("bad.fq"))
        .arg(t.join("bad.0.fq.gz"))
        .output()
        .unwrap();
    assert!(!out.status.success(), "truncated FASTQ must fail");
    assert!(String::from_utf8_lossy(&out.stderr).contains("truncated"));
}
