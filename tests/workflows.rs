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
//! * `nextflow_processes_run_the_shared_scripts` checks statically that every
//!   Nextflow process runs scripts that exist in `workflows/scripts` (and are
//!   executable), the same scripts the Snakefile runs. Nextflow itself cannot
//!   be installed here.
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

/// `${moduleDir}/...` and `${projectDir}/...` paths in a .nf file, resolved.
fn nf_script_refs(nf: &Path, project_dir: &Path) -> Vec<(String, PathBuf)> {
    let text = fs::read_to_string(nf).unwrap();
    let module_dir = nf.parent().unwrap();
    let mut refs = Vec::new();
    for (var, base) in [("moduleDir", module_dir), ("projectDir", project_dir)] {
        for pat in [format!("${{{var}}}"), format!("${var}")] {
            let mut rest = text.as_str();
            while let Some(at) = rest.find(&pat) {
                let after = &rest[at + pat.len()..];
                // `$moduleDir` must not be the start of a longer identifier.
                if pat.ends_with(var)
                    && after.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                {
                    rest = after;
                    continue;
                }
                let end = after
                    .find(|c: char| c.is_whitespace() || "\"'`\\;)}".contains(c))
                    .unwrap_or(after.len());
                let rel = &after[..end];
                if let Some(rel) = rel.strip_prefix('/') {
                    refs.push((format!("{pat}/{rel}"), base.join(rel)));
                }
                rest = after;
            }
        }
    }
    refs
}

/// The `process NAME { ... }` blocks of a .nf file: (name, script section).
fn nf_process_scripts(text: &str) -> Vec<(String, String)> {
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
        let script = match block.find("\n    script:") {
            Some(i) => {
                let sec = &block[i..];
                match sec.find("\n    stub:") {
                    Some(j) => &sec[..j],
                    None => sec,
                }
            }
            None => "",
        };
        out.push((name, script.to_string()));
    }
    out
}

fn nf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            nf_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "nf") {
            out.push(p);
        }
    }
}

#[test]
fn nextflow_processes_run_the_shared_scripts() {
    let root = repo();
    let project_dir = root.join("workflows/nextflow");
    let scripts_dir = root.join("workflows/scripts").canonicalize().unwrap();
    let mut files = Vec::new();
    nf_files(&project_dir, &mut files);
    files.sort();
    assert!(
        files.len() >= 3,
        "expected main.nf and module files, found {files:?}"
    );

    let mut problems = Vec::new();
    let mut used = std::collections::BTreeSet::new();
    let mut processes = BTreeMap::new();
    for nf in &files {
        let shown = nf.strip_prefix(&root).unwrap().display().to_string();
        for (written, path) in nf_script_refs(nf, &project_dir) {
            match path.canonicalize() {
                Err(e) => problems.push(format!(
                    "{shown}: {written} -> {} does not exist ({e})",
                    path.display()
                )),
                Ok(real) => {
                    if real.parent() != Some(scripts_dir.as_path()) {
                        problems.push(format!("{shown}: {written} is not in workflows/scripts"));
                    } else if !real.is_file()
                        || fs::metadata(&real).unwrap().permissions().mode() & 0o111 == 0
                    {
                        problems.push(format!("{shown}: {written} is not an executable file"));
                    } else {
                        used.insert(real.file_name().unwrap().to_string_lossy().into_owned());
                    }
                }
            }
        }
        let text = fs::read_to_string(nf).unwrap();
        for (name, script) in nf_process_scripts(&text) {
            // Every process's shell must be a shared script, not inline commands.
            let refs: Vec<_> = nf_script_refs_in(&script)
                .into_iter()
                .filter(|s| s.ends_with(".sh"))
                .collect();
            if refs.is_empty() {
                problems.push(format!(
                    "{shown}: process {name} runs no script from workflows/scripts"
                ));
            }
            processes.insert(name, (shown.clone(), refs));
        }
        // include { X } from './path' must point to an existing module.
        for line in text
            .lines()
            .filter(|l| l.trim_start().starts_with("include "))
        {
            if let Some(q) = line.split(['\'', '"']).nth(1) {
                let target = nf.parent().unwrap().join(q);
                let target = if target.extension().is_some() {
                    target
                } else {
                    target.with_extension("nf")
                };
                if !target.is_file() {
                    problems.push(format!("{shown}: include target {q} does not exist"));
                }
            }
        }
    }

    for (process, script) in [
        ("GALIGN_INDEX", "galign_index.sh"),
        ("GALIGN_INDEX_PART", "galign_index_part.sh"),
        ("GALIGN_INDEX_ASSEMBLE", "galign_index_assemble.sh"),
        ("GALIGN_MAP", "galign_map.sh"),
        ("SPLIT_FASTQ", "split_fastq.sh"),
        ("MERGE_BAMS", "merge_bams.sh"),
    ] {
        match processes.get(process) {
            None => problems.push(format!("no Nextflow process {process}")),
            Some((file, refs)) if !refs.iter().any(|r| r == script) => problems.push(format!(
                "{file}: {process} does not run {script} (runs {refs:?})"
            )),
            _ => {}
        }
    }

    // The Snakemake rules run the very same scripts.
    let snakefile = fs::read_to_string(root.join("workflows/snakemake/Snakefile")).unwrap();
    for script in [
        "galign_index.sh",
        "galign_index_part.sh",
        "galign_index_assemble.sh",
        "galign_map.sh",
        "split_fastq.sh",
        "merge_bams.sh",
    ] {
        if !snakefile.contains(&format!("{{SCRIPTS_Q}}/{script}")) {
            problems.push(format!("Snakefile does not run {script}"));
        }
    }

    // And every shared script at least parses.
    for entry in fs::read_dir(&scripts_dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|x| x == "sh") {
            let out = Command::new("bash").arg("-n").arg(&p).output().unwrap();
            if !out.status.success() {
                problems.push(format!(
                    "bash -n {}: {}",
                    p.display(),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
        }
    }

    assert!(
        problems.is_empty(),
        "Nextflow/shared-script problems:\n  {}",
        problems.join("\n  ")
    );
    assert!(
        used.len() >= 7,
        "too few shared scripts referenced: {used:?}"
    );
}

/// Names of the shared scripts a process script section refers to
/// (`${moduleDir}/.../scripts/NAME`).
fn nf_script_refs_in(script: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (i, _) in script.match_indices("/scripts/") {
        let before = &script[..i];
        let token_start = before
            .rfind(|c: char| c.is_whitespace() || c == '"' || c == '\'')
            .map_or(0, |j| j + 1);
        if !before[token_start..].contains("moduleDir")
            && !before[token_start..].contains("projectDir")
        {
            continue;
        }
        let after = &script[i + "/scripts/".len()..];
        let end = after
            .find(|c: char| c.is_whitespace() || "\"'`\\;)}".contains(c))
            .unwrap_or(after.len());
        names.push(after[..end].to_string());
    }
    names
}

#[test]
fn split_fastq_scatters_whole_records() {
    let script = repo().join("workflows/scripts/split_fastq.sh");
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
