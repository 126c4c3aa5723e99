//! 64-bit positions (references past 2^32 - 3 bases), checked on small references
//! through the test-only switch that forces them (`--force-u64-positions`,
//! `BuildOptions::force_u64`): the suffix order is that of the 32-bit build and of brute
//! force, `galign sa` writes it as u64, and `galign map` on the 64-bit index writes the
//! SAM of the 32-bit index byte for byte, on either device (the GPU search takes such an
//! index: tests/gpu_kernels.rs compares its SAM where a GPU is present). The GPU index
//! builders refuse 64-bit positions cleanly.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use galign::reference::{read_fasta, PackedText};
use galign::sa::partition::suffix_array_in_parts;
use galign::sa::suffix_array;

/// Texts that are hard on suffix sorting: the nasty reference's text, all-A, periods 2
/// and 7, a tandem repeat with one change, random bases.
fn nasty_texts(dir: &Path) -> Vec<(String, PackedText)> {
    let mut rng = Rng(16);
    let fasta = dir.join("nasty.fa");
    write_fasta(&nasty_contigs(&mut rng), &fasta);
    let mut tandem = rng.bases(23).repeat(40);
    tandem.replace_range(400..401, "T");
    let texts = [
        "A".repeat(3000),
        "AC".repeat(1500),
        "ACGTTGA".repeat(400),
        tandem,
        rng.bases(5000),
    ];
    let codes = |s: &str| {
        let codes: Vec<u8> = s
            .bytes()
            .map(|b| b"ACGT".iter().position(|&x| x == b).unwrap() as u8)
            .collect();
        PackedText::from_codes(&codes)
    };
    let mut out = vec![(
        "nasty reference".to_string(),
        read_fasta(&fasta).unwrap().text,
    )];
    out.extend(texts.iter().map(|t| (format!("{}...", &t[..10]), codes(t))));
    out
}

/// The suffix array by sorting the suffixes as strings (the sentinel convention: a
/// proper prefix sorts first).
fn brute_force(text: &PackedText) -> Vec<u64> {
    let codes: Vec<u8> = (0..text.len()).map(|i| text.get(i)).collect();
    let mut sa: Vec<u64> = (0..codes.len() as u64).collect();
    sa.sort_by(|&a, &b| codes[a as usize..].cmp(&codes[b as usize..]));
    sa
}

#[test]
fn u64_suffix_order_is_the_u32_order_and_brute_force() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in nasty_texts(dir.path()) {
        let wide: Vec<u64> = suffix_array(&text);
        let narrow: Vec<u32> = suffix_array(&text);
        let widened: Vec<u64> = narrow.iter().map(|&p| p as u64).collect();
        assert_eq!(wide, widened, "{name}: u64 against u32");
        assert_eq!(wide, brute_force(&text), "{name}: u64 against brute force");
        for max_part in [text.len(), 700, 64] {
            let mut parts: Vec<u64> = Vec::new();
            suffix_array_in_parts::<u64>(&text, max_part, |part| parts.extend(part));
            assert_eq!(parts, wide, "{name}: u64 in parts of {max_part}");
        }
    }
}

/// Writes the nasty reference plus lambda to `dir/ref.fa`; returns its path and its
/// contigs' bases.
fn reference(dir: &Path) -> (PathBuf, Vec<String>) {
    let mut contigs = nasty_contigs(&mut Rng(7));
    let lambda = read_fasta(&data("lambda_virus.fa.gz")).unwrap();
    contigs.push((
        "lambda".into(),
        String::from_utf8(lambda.text.to_ascii()).unwrap(),
    ));
    let path = dir.join("ref.fa");
    write_fasta(&contigs, &path);
    (path, contigs.into_iter().map(|(_, s)| s).collect())
}

/// Up to `mutations` random substitutions in `s`.
fn mutated(s: &str, mutations: u64, rng: &mut Rng) -> String {
    let mut bytes = s.as_bytes().to_vec();
    for _ in 0..rng.next() % (mutations + 1) {
        let i = (rng.next() % bytes.len() as u64) as usize;
        bytes[i] = b"ACGT"[(rng.next() % 4) as usize];
    }
    String::from_utf8(bytes).unwrap()
}

/// Read pairs from `contigs` (mate 2 the reverse complement of a window downstream of
/// mate 1, when it fits), with up to 2 substitutions each; written as `dir/r1.fq` and
/// `dir/r2.fq`.
fn read_pairs(contigs: &[String], dir: &Path) -> (PathBuf, PathBuf) {
    const LEN: usize = 36;
    let mut rng = Rng(99);
    let (mut mates1, mut mates2) = (Vec::new(), Vec::new());
    for i in 0..600 {
        let contig = &contigs[i % contigs.len()].to_ascii_uppercase();
        if contig.len() < LEN {
            continue;
        }
        let start = (rng.next() % (contig.len() - LEN + 1) as u64) as usize;
        let end2 = (start + LEN + 150).min(contig.len());
        let window2 = &contig[end2 - LEN..end2];
        let name = format!("p{i}");
        mates1.push((
            name.clone(),
            mutated(&contig[start..start + LEN], 2, &mut rng),
        ));
        mates2.push((name, mutated(&revcomp(window2), 2, &mut rng)));
    }
    let (r1, r2) = (dir.join("r1.fq"), dir.join("r2.fq"));
    write_fastq(&mates1, &r1);
    write_fastq(&mates2, &r2);
    (r1, r2)
}

/// Builds `dir/ref.galign` from `fasta` on the CPU, with `extra` options.
fn build(fasta: &Path, dir: &Path, extra: &[&str]) {
    std::fs::create_dir_all(dir).unwrap();
    run_ok(
        galign()
            .current_dir(dir)
            .args([
                "index",
                "--device",
                "cpu",
                "--sample-rate",
                "4",
                "-p",
                "ref",
            ])
            .args(extra)
            .arg(fasta),
    );
}

/// The SAM of `galign map ref ARGS` run in `dir` (the same command line in either
/// directory, so the same @PG line).
fn map(dir: &Path, args: &[&Path], options: &[&str]) -> Vec<u8> {
    run_ok(
        galign()
            .current_dir(dir)
            .args(["map", "--device", "cpu"])
            .args(options)
            .arg("ref")
            .args(args),
    )
    .stdout
}

#[test]
fn map_on_a_u64_index_gives_the_sam_of_the_u32_index() {
    let tmp = tempfile::tempdir().unwrap();
    let (fasta, contigs) = reference(tmp.path());
    let (r1, r2) = read_pairs(&contigs, tmp.path());
    let (narrow, wide) = (tmp.path().join("u32"), tmp.path().join("u64"));
    build(&fasta, &narrow, &[]);
    build(&fasta, &wide, &["--force-u64-positions"]);
    let (narrow_file, wide_file) = (narrow.join("ref.galign"), wide.join("ref.galign"));
    let len = |p: &Path| std::fs::metadata(p).unwrap().len();
    assert!(
        len(&wide_file) > len(&narrow_file),
        "the u64 index is wider"
    );
    let runs: [(&[&Path], &[&str]); 6] = [
        (&[&r1], &[]),
        (&[&r1], &["-v", "1"]),
        (&[&r1], &["-v", "2", "-a"]),
        (&[&r2], &["-v", "2", "-k", "20"]),
        (&[&r1, &r2], &[]),
        (&[&r1, &r2], &["-v", "2"]),
    ];
    for (args, options) in runs {
        let want = map(&narrow, args, options);
        let mapped = String::from_utf8_lossy(&want)
            .lines()
            .filter(|l| !l.starts_with('@'))
            .filter(|l| l.split('\t').nth(1).unwrap().parse::<u16>().unwrap() & 4 == 0)
            .count();
        assert!(mapped > 100, "{options:?}: {mapped} records mapped");
        assert!(map(&wide, args, options) == want, "{args:?} {options:?}");
    }
}

#[test]
fn sa_writes_u64_little_endian_when_forced() {
    let dir = tempfile::tempdir().unwrap();
    let (fasta, _) = reference(dir.path());
    let sa = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        run_ok(
            galign()
                .args(["sa", "--device", "cpu", "-o"])
                .arg(&out)
                .args(extra)
                .arg(&fasta),
        );
        std::fs::read(out).unwrap()
    };
    let narrow = sa("u32.sa", &[]);
    let wide = sa("u64.sa", &["--force-u64-positions"]);
    let narrow: Vec<u64> = narrow
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()) as u64)
        .collect();
    assert_eq!(wide.len(), 8 * narrow.len());
    let wide: Vec<u64> = wide
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(wide, narrow);
    assert_eq!(wide, brute_force(&read_fasta(&fasta).unwrap().text));
    let e = run_fail(
        galign()
            .args(["sa", "--device", "gpu", "--force-u64-positions", "-o"])
            .arg(dir.path().join("gpu.sa"))
            .arg(&fasta),
    );
    assert!(e.contains("--device gpu: 64-bit positions"), "{e}");
}

#[test]
fn the_width_is_no_reason_to_leave_the_gpu_to_map_or_to_build() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("u64");
    let fasta = data("phiX174.fa.gz");
    build(&fasta, &dir, &["--force-u64-positions"]);
    let reads = data("samtools_ex1_35bp.fq.gz");
    let why = "64-bit positions";
    // Mapping: the width is no reason to leave the GPU (without one, another reason is
    // given); the output is the CPU's.
    let on = |device: &str| {
        galign()
            .current_dir(&dir)
            .args(["map", "-v", "1", "--device", device, "ref"])
            .arg(&reads)
            .output()
            .unwrap()
    };
    let gpu = on("gpu");
    let said = String::from_utf8_lossy(&gpu.stderr);
    assert!(!said.contains(why), "{said}");
    let (auto, cpu) = (on("auto"), on("cpu"));
    let said = String::from_utf8_lossy(&auto.stderr);
    assert!(auto.status.success() && !said.contains(why), "{said}");
    assert!(cpu.status.success() && auto.stdout == cpu.stdout);
    assert!(!gpu.status.success() || gpu.stdout == cpu.stdout);
    // Building: the GPU builds 64-bit positions in parts (without one, another reason is
    // given); the index is the CPU's.
    let index = |device: &str| {
        let out = galign()
            .current_dir(&dir)
            .args(["index", "--device", device, "--force-u64-positions", "-p"])
            .arg(device)
            .arg(&fasta)
            .output()
            .unwrap();
        let built = std::fs::read(dir.join(format!("{device}.galign"))).ok();
        (out, built)
    };
    let ((gpu, on_gpu), (_, on_cpu)) = (index("gpu"), index("cpu"));
    let said = String::from_utf8_lossy(&gpu.stderr);
    assert!(!said.contains(why), "{said}");
    assert!(on_cpu.is_some());
    assert!(if gpu.status.success() {
        on_gpu == on_cpu
    } else {
        on_gpu.is_none()
    });
}

/// Rewrites the index `path` with `edit` applied to its metadata (checksums remade, so
/// that only the loader's own checks can catch it).
fn rewrite_meta(path: &Path, edit: impl Fn(&str) -> String) {
    use galign::index::format::{write, MappedFile};
    let file = MappedFile::open(path).unwrap();
    let names = [
        "META", "TEXT", "OCC", "SABITS", "SARANK", "SAPOS", "JUMP", "MOCC",
    ];
    let meta = edit(std::str::from_utf8(file.bytes("META").unwrap()).unwrap());
    let mut sections: Vec<(&str, Vec<u8>)> = names
        .iter()
        .map(|&n| (n, file.bytes(n).unwrap().to_vec()))
        .collect();
    sections[0].1 = meta.into_bytes();
    drop(file);
    let borrowed: Vec<(&str, &[u8])> = sections.iter().map(|(n, b)| (*n, b.as_slice())).collect();
    write(path, &borrowed).unwrap();
}

#[test]
fn the_loader_checks_the_width_against_the_sections() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("u64");
    build(&data("phiX174.fa.gz"), &dir, &["--force-u64-positions"]);
    let path = dir.join("ref.galign");
    let good = std::fs::read(&path).unwrap();
    let reads = data("samtools_ex1_35bp.fq.gz");
    let map_error = || {
        run_fail(
            galign()
                .current_dir(&dir)
                .args(["map", "--device", "cpu", "ref"])
                .arg(&reads),
        )
    };
    let width = "\"position_bytes\":8";
    for (bytes, says) in [
        ("4", "section JUMP has the wrong size"),
        ("16", "position width of 16 bytes"),
    ] {
        std::fs::write(&path, &good).unwrap();
        rewrite_meta(&path, |meta| {
            assert!(meta.contains(width), "{meta}");
            meta.replace(width, &format!("\"position_bytes\":{bytes}"))
        });
        let e = map_error();
        assert!(
            e.contains("ref.galign: index is corrupt") && e.contains(says),
            "{e}"
        );
    }
    std::fs::write(&path, good).unwrap();
    run_ok(
        galign()
            .current_dir(&dir)
            .args(["map", "--device", "cpu", "ref"])
            .arg(&reads),
    );
}
