//! `galign index --parts N --part I` and `galign index --assemble` (an index built on
//! several nodes): the assembled index is the file `galign index` writes, whatever N;
//! part files that do not belong together are refused, naming the file, and nothing is
//! written.

mod common;

use std::path::{Path, PathBuf};

use common::{data, files_in, galign, run_fail, run_ok};

/// Builds the `parts` part files of `reference` in `dir`, named `NAME.I-of-N.part`.
fn build_parts(
    reference: &Path,
    dir: &Path,
    name: &str,
    parts: u32,
    extra: &[&str],
) -> Vec<PathBuf> {
    (0..parts)
        .map(|part| {
            let output = dir.join(format!("{name}.{part}-of-{parts}.part"));
            run_ok(
                galign()
                    .args([
                        "index",
                        "--parts",
                        &parts.to_string(),
                        "--part",
                        &part.to_string(),
                    ])
                    .args(extra)
                    .arg("-o")
                    .arg(&output)
                    .arg(reference),
            );
            output
        })
        .collect()
}

/// `galign index --assemble -p PREFIX REFERENCE PARTS...`.
fn assemble(reference: &Path, prefix: &Path, parts: &[PathBuf]) -> std::process::Command {
    let mut cmd = galign();
    cmd.args(["index", "--assemble", "-p"])
        .arg(prefix)
        .arg(reference)
        .args(parts);
    cmd
}

/// The index `galign index --device cpu` writes for `reference`.
fn whole_index(reference: &Path, dir: &Path, name: &str) -> Vec<u8> {
    let prefix = dir.join(format!("{name}.whole"));
    run_ok(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(&prefix)
            .arg(reference),
    );
    std::fs::read(prefix.with_extension("whole.galign")).unwrap()
}

#[test]
fn assembled_parts_are_the_index_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let all_a = dir.path().join("all_a.fa");
    std::fs::write(
        &all_a,
        format!(">a\n{}\n>b\n{}\n", "A".repeat(30_000), "A".repeat(77)),
    )
    .unwrap();
    let cases: [(PathBuf, &[u32]); 3] = [
        (data("lambda_virus.fa.gz"), &[1, 2, 5]),
        (data("samtools_ex1.fa.gz"), &[3]),
        // One bucket, larger than any part.
        (all_a, &[2, 9]),
    ];
    for (reference, counts) in cases {
        let name = reference
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let whole = whole_index(&reference, dir.path(), &name);
        for &parts in counts {
            let mut files = build_parts(&reference, dir.path(), &name, parts, &[]);
            files.reverse(); // any order
            let prefix = dir.path().join(format!("{name}.{parts}"));
            run_ok(&mut assemble(&reference, &prefix, &files));
            let assembled =
                std::fs::read(prefix.with_extension(format!("{parts}.galign"))).unwrap();
            assert!(
                assembled == whole,
                "{name}: {parts} parts give another index"
            );
        }
    }
}

#[test]
fn several_parts_each_hold_a_share() {
    let dir = tempfile::tempdir().unwrap();
    let reference = data("lambda_virus.fa.gz"); // 48,502 bases
    let files = build_parts(&reference, dir.path(), "l", 4, &[]);
    let sizes: Vec<u64> = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .collect();
    // A balanced share each; nibble rows (0.5 byte per base), sampled positions (0.25)
    // and k-mer counts (0.34 here, 4 bytes per 6-mer): under 1.25 bytes per base in
    // all, where the suffix array takes 4.
    assert!(
        sizes.iter().all(|&s| s > 10_000 && s < 17_000),
        "part file sizes {sizes:?}"
    );
    assert!(
        sizes.iter().sum::<u64>() < 48_502 * 5 / 4,
        "part file sizes {sizes:?}"
    );
}

#[test]
fn part_files_that_do_not_belong_together_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let parts_dir = dir.path().join("parts");
    std::fs::create_dir(&parts_dir).unwrap();
    let lambda = data("lambda_virus.fa.gz");
    let phix = data("phiX174.fa.gz");
    let p = build_parts(&lambda, &parts_dir, "l", 3, &[]);
    let four = build_parts(&lambda, &parts_dir, "l", 4, &[]);
    let rate = build_parts(&lambda, &parts_dir, "rate", 3, &["--sample-rate", "8"]);
    let truncated = parts_dir.join("truncated.part");
    let bytes = std::fs::read(&p[1]).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let corrupt = parts_dir.join("corrupt.part");
    let mut flipped = bytes.clone();
    // The second entry of the section table (64-byte header, 32-byte entries) is ROWS.
    let entry = &bytes[64 + 32..64 + 64];
    assert_eq!(&entry[..4], b"ROWS");
    let rows_at = u64::from_le_bytes(entry[8..16].try_into().unwrap()) as usize;
    flipped[rows_at] ^= 1;
    std::fs::write(&corrupt, &flipped).unwrap();
    let index = dir.path().join("lambda");
    run_ok(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(&index)
            .arg(&lambda),
    );
    let index_file = index.with_extension("galign");

    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let prefix = out.join("x");
    let shown = |f: &Path| f.display().to_string();
    let cases: Vec<(&str, &Path, Vec<PathBuf>, String)> = vec![
        (
            "another reference",
            &phix,
            p.clone(),
            format!(
                "{}: a part of the index of another reference than {}",
                shown(&p[0]),
                shown(&phix)
            ),
        ),
        (
            "another plan",
            &lambda,
            vec![p[0].clone(), p[1].clone(), four[2].clone()],
            format!(
                "{}: a part of another plan than {}",
                shown(&four[2]),
                shown(&p[0])
            ),
        ),
        (
            "another sampling rate",
            &lambda,
            vec![p[0].clone(), rate[1].clone(), p[2].clone()],
            format!("{}: a part of another plan", shown(&rate[1])),
        ),
        (
            "a missing part",
            &lambda,
            vec![p[0].clone(), p[2].clone()],
            format!(
                "part 1 of 3 of the index of {} is missing (the part files given hold parts 0, 2)",
                shown(&lambda)
            ),
        ),
        (
            "a missing last part",
            &lambda,
            vec![p[1].clone(), p[0].clone()],
            format!(
                "part 2 of 3 of the index of {} is missing (the part files given hold parts 0, 1)",
                shown(&lambda)
            ),
        ),
        (
            "a duplicate",
            &lambda,
            vec![p[0].clone(), p[1].clone(), p[2].clone(), p[1].clone()],
            format!("{}: part 1 of 3 again", shown(&p[1])),
        ),
        (
            "a truncated part",
            &lambda,
            vec![p[0].clone(), truncated.clone(), p[2].clone()],
            format!(
                "{}: index part file is truncated or corrupt",
                shown(&truncated)
            ),
        ),
        (
            "a corrupt part",
            &lambda,
            vec![p[0].clone(), corrupt.clone(), p[2].clone()],
            format!("{}: section ROWS fails its checksum", shown(&corrupt)),
        ),
        (
            "an index given as a part",
            &lambda,
            vec![p[0].clone(), index_file.clone(), p[2].clone()],
            format!("{}: not a galign index part", shown(&index_file)),
        ),
        (
            "a missing file",
            &lambda,
            vec![p[0].clone(), parts_dir.join("nope.part")],
            format!(
                "{}: cannot open index part",
                shown(&parts_dir.join("nope.part"))
            ),
        ),
    ];
    for (what, reference, files, expected) in cases {
        let err = run_fail(&mut assemble(reference, &prefix, &files));
        assert!(err.contains(&expected), "{what}: {err}");
        assert!(
            files_in(&out).is_empty(),
            "{what}: wrote {:?}",
            files_in(&out)
        );
    }
    // The right parts still assemble.
    run_ok(&mut assemble(&lambda, &prefix, &p));
    assert!(
        std::fs::read(prefix.with_extension("galign")).unwrap()
            == std::fs::read(&index_file).unwrap()
    );
}

#[test]
fn part_options_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let lambda = data("lambda_virus.fa.gz");
    let out = dir.path().join("x.part");
    let err = run_fail(
        galign()
            .args(["index", "--parts", "3", "--part", "3", "-o"])
            .arg(&out)
            .arg(&lambda),
    );
    assert!(
        err.contains("--part 3 of --parts 3: parts are numbered 0 to 2"),
        "{err}"
    );
    let err = run_fail(
        galign()
            .args([
                "index", "--device", "gpu", "--parts", "3", "--part", "0", "-o",
            ])
            .arg(&out)
            .arg(&lambda),
    );
    assert!(
        err.contains("--device gpu: --parts and --assemble run on the CPU"),
        "{err}"
    );
    for usage in [
        vec!["index", "--parts", "3", "--part", "0"], // no -o
        vec!["index", "--parts", "0", "--part", "0", "-o", "x"],
        vec!["index", "--assemble", "-p", "x"], // no part files
        vec![
            "index", "--parts", "2", "--part", "0", "-o", "x", "--memory", "1G",
        ],
        vec!["index", "--parts", "2", "--part", "0", "-o", "x", "-p", "y"],
        vec![
            "index",
            "--parts",
            "2",
            "--part",
            "0",
            "-o",
            "x",
            "--gpu-memory",
            "1G",
        ],
    ] {
        let out = galign().args(&usage).arg(&lambda).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{usage:?} is a usage error");
    }
    assert!(files_in(dir.path()).is_empty());
}
