//! GPU kernels: every kernel file under `kernels/` compiles with NVRTC for sm_80 and
//! sm_90 (needs only NVRTC, so CI runs it; with `GALIGN_REQUIRE_NVRTC=1` a missing NVRTC fails the test
//! instead of skipping it), and, where a GPU is present, the GPU suffix array and FM index
//! equal the CPU ones (with `GALIGN_REQUIRE_GPU=1` a missing GPU fails these tests), and
//! the GPU read search equals the CPU's: located positions, and the SAM/BAM bytes of
//! `map` on every real read set, exact and with up to 1, 2, 3 mismatches (`-v K`).
//! Ignored tests time the radix sort and compare builders
//! on FASTA files; run them on a GPU machine with `--ignored --nocapture`.

mod common;

use std::path::{Path, PathBuf};
use std::time::Instant;

use common::{nasty_contigs, revcomp, write_fasta, Rng};

use galign::device::DeviceChoice;
use galign::fm::{FmParts, Keep};
use galign::gpu::kernels::{compile_kernel, nvrtc_version, HEADERS, SOURCES};
use galign::gpu::prims::merge::merge_by_high_bits;
use galign::gpu::prims::radix::{KeyWidth, ScanOp, Workspace};
use galign::gpu::prims::scatter::{self, Pairs, Scratch};
use galign::gpu::sa::partition;
use galign::gpu::sa::Algorithm;
use galign::gpu::{fm, sa, DevBuf, Gpu};
use galign::io::ReadSource;
use galign::map::MapOptions;
use galign::progress::Reporter;
use galign::reference::PackedText;
use galign::sa::schedule::OnFailure;
use galign::sa::Width;

/// The files under `dir` whose extension is `ext` (`cu` or `cuh`), as paths relative to
/// `kernels/`.
fn kernel_files(dir: &Path, root: &Path, ext: &str) -> Vec<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(kernel_files(&path, root, ext));
        } else if path.extension().is_some_and(|e| e == ext) {
            let relative = path.strip_prefix(root).unwrap();
            files.push(relative.to_string_lossy().into_owned());
        }
    }
    files
}

#[test]
fn every_kernel_file_is_embedded() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    for (ext, table, what) in [("cu", SOURCES, "SOURCES"), ("cuh", HEADERS, "HEADERS")] {
        let mut on_disk = kernel_files(&root, &root, ext);
        on_disk.sort();
        let mut embedded: Vec<String> = table.iter().map(|(f, _)| f.to_string()).collect();
        embedded.sort();
        assert_eq!(
            embedded, on_disk,
            "src/gpu/runtime/kernels.rs {what} against kernels/"
        );
    }
}

#[test]
fn kernels_compile_for_sm80_and_sm90() {
    let version = match nvrtc_version() {
        Ok(v) => v,
        Err(e) if std::env::var("GALIGN_REQUIRE_NVRTC").as_deref() == Ok("1") => {
            panic!("GALIGN_REQUIRE_NVRTC=1 but NVRTC is unusable: {e}")
        }
        Err(e) => {
            eprintln!("skipping kernel compilation: {e} (set LD_LIBRARY_PATH to NVRTC's lib dir)");
            return;
        }
    };
    for arch in ["sm_80", "sm_90"] {
        for (file, source) in SOURCES {
            let cubin = compile_kernel(file, source, arch).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                cubin.starts_with(b"\x7fELF"),
                "{file} for {arch}: not a CUBIN"
            );
            eprintln!(
                "{file}: {arch}, {} bytes, NVRTC {}.{}",
                cubin.len(),
                version.0,
                version.1
            );
        }
    }
}

/// The GPU, or `None` (with a note) where there is none; a panic instead when
/// `GALIGN_REQUIRE_GPU=1`.
fn gpu() -> Option<Gpu> {
    match Gpu::open() {
        Ok(g) => Some(g),
        Err(e) if std::env::var("GALIGN_REQUIRE_GPU").as_deref() == Ok("1") => {
            panic!("GALIGN_REQUIRE_GPU=1 but the GPU is unusable: {e}")
        }
        Err(e) => {
            eprintln!("skipping GPU test: {e}");
            None
        }
    }
}

/// A deterministic pseudo-random generator (PCG-style LCG).
fn lcg(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s >> 17
    }
}

fn check(gpu: &Gpu, algorithm: Algorithm, codes: &[u8], what: &str) {
    check_text(gpu, algorithm, &PackedText::from_codes(codes), what);
}

fn check_text(gpu: &Gpu, algorithm: Algorithm, text: &PackedText, what: &str) {
    let want: Vec<u32> = galign::sa::suffix_array(text);
    let got = sa::suffix_array(gpu, text, algorithm)
        .unwrap_or_else(|e| panic!("{what} ({algorithm:?}): {e}"));
    if let Some(diff) = first_difference(&got, &want) {
        panic!(
            "{what} (n = {}, {algorithm:?}): GPU suffix array differs from the CPU's: {diff}",
            text.len()
        );
    }
}

#[test]
fn gpu_suffix_array_matches_cpu() {
    let Some(gpu) = gpu() else { return };
    suffix_array_cases(&gpu, Algorithm::Doubling);
}

#[test]
fn gpu_skew_suffix_array_matches_cpu() {
    let Some(gpu) = gpu() else { return };
    suffix_array_cases(&gpu, Algorithm::Skew);
    more_suffix_array_cases(&gpu, Algorithm::Skew);
}

#[test]
fn gpu_hybrid_suffix_array_matches_cpu() {
    let Some(gpu) = gpu() else { return };
    suffix_array_cases(&gpu, Algorithm::Hybrid);
    more_suffix_array_cases(&gpu, Algorithm::Hybrid);
}

/// `auto`'s build bounded to 20 bytes a base (doubling, or the hybrid where most 16-mers
/// repeat): on the usual cases (small texts leave it no room for chunks: skew sorts
/// those whose lists do not fit), and on 16 Mbp of 1%-mutated copies of 1 Mbp (groups of
/// about 16) and of 1 kb tandem repeats (groups of thousands), whose unsorted suffixes
/// would need 32 bytes a base in doubling rounds over the whole list: the suffix array
/// equals the CPU's and the peak stays in bounds; on 4 Mbp of all-A (one group: skew)
/// the peak stays in bounds too.
#[test]
fn gpu_bounded_doubling_matches_cpu_within_its_bound() {
    let Some(gpu) = gpu() else { return };
    suffix_array_cases(&gpu, Algorithm::Bounded);
    let n = 1 << 24;
    let mut rng = lcg(5);
    let mut mutated = |unit: &[u8], copies: usize, tail: bool| {
        let mut codes = Vec::with_capacity(n);
        for _ in 0..copies {
            codes.extend(unit.iter().map(|&c| match rng() % 100 {
                0 => (rng() % 4) as u8,
                _ => c,
            }));
            if tail {
                codes.push((rng() % 4) as u8);
            }
        }
        codes.truncate(n);
        codes
    };
    let mut unit_rng = lcg(6);
    let megabase: Vec<u8> = (0..1 << 20).map(|_| (unit_rng() % 4) as u8).collect();
    let kilobase: Vec<u8> = (0..1000).map(|_| (unit_rng() % 4) as u8).collect();
    let cases = [
        (mutated(&megabase, 16, false), "16 mutated copies of 1 Mbp"),
        (
            mutated(&kilobase, n / 1000 + 1, true),
            "1 kb tandem repeats, 16 Mbp",
        ),
        (vec![0u8; n / 4], "all A, 4 Mbp"),
    ];
    for (codes, what) in cases {
        gpu.reset_peak();
        check(&gpu, Algorithm::Bounded, &codes, what);
        let bound = sa::doubling::BOUNDED_BYTES_PER_BASE * codes.len() as u64;
        let peak = gpu.peak_bytes() as u64;
        assert!(peak <= bound, "{what}: peak {peak} bytes, bound {bound}");
    }
}

/// Periods 2 to 7 (long and at every short length), N-rich multi-contig references,
/// and the real references where the shared data holds them.
fn more_suffix_array_cases(gpu: &Gpu, algorithm: Algorithm) {
    for period in 2..=7usize {
        let unit: Vec<u8> = (0..period).map(|i| ((i * 7 + 1) % 4) as u8).collect();
        let periodic = |len: usize| (0..len).map(|i| unit[i % period]).collect::<Vec<u8>>();
        for len in 1..=40 {
            check(gpu, algorithm, &periodic(len), &format!("period {period}"));
        }
        check(
            gpu,
            algorithm,
            &periodic(200_003),
            &format!("period {period}, long"),
        );
    }
    let mut rng = lcg(11);
    for contigs in [1, 5, 40] {
        let text = n_rich_multi_contig(&mut rng, contigs);
        check_text(gpu, algorithm, &text, &format!("{contigs} N-rich contigs"));
    }
    let (_, shared) = data_dirs();
    for name in [
        "ecoli_K12_MG1655.fa.gz",
        "kpneumoniae_HS11286.fa.gz",
        "human_GRCh37_chr20.fa.gz",
    ] {
        let Some(path) = find_data(&shared, &format!("ref/{name}")) else {
            eprintln!("{name}: not present, skipped");
            continue;
        };
        let text = galign::reference::read_fasta(&path).unwrap().text;
        check_text(gpu, algorithm, &text, name);
    }
}

/// The inputs of the GPU suffix array checks: lengths 0 to 99 of all-A, all-T, periods 2
/// and 3; random texts over 1, 2 and 4 letters; long all-A, period 7, tandem repeats.
fn suffix_array_cases(gpu: &Gpu, algorithm: Algorithm) {
    let check = |codes: &[u8], what: &str| check(gpu, algorithm, codes, what);
    for len in 0..100 {
        check(&vec![0u8; len], "all A");
        check(&vec![3u8; len], "all T");
        check(
            &(0..len).map(|i| (i % 2) as u8).collect::<Vec<_>>(),
            "period 2",
        );
        check(
            &(0..len).map(|i| 3 - (i % 3) as u8).collect::<Vec<_>>(),
            "period 3",
        );
    }
    let mut rng = lcg(7);
    for len in [
        1,
        15,
        16,
        17,
        31,
        32,
        33,
        1000,
        2047,
        2048,
        2049,
        5000,
        70_000,
        1 << 20,
    ] {
        for alphabet in [1u64, 2, 4] {
            let codes: Vec<u8> = (0..len).map(|_| (rng() % alphabet) as u8).collect();
            check(&codes, &format!("random over {alphabet} letters"));
        }
    }
    let n = 300_000;
    check(&vec![0u8; n], "all A, long");
    check(
        &(0..n)
            .map(|i| [0u8, 1, 2, 3, 3, 2, 1][i % 7])
            .collect::<Vec<_>>(),
        "period 7, long",
    );
    let unit: Vec<u8> = (0..1000).map(|_| (rng() % 4) as u8).collect();
    let mut tandem: Vec<u8> = Vec::new();
    while tandem.len() < n {
        tandem.extend_from_slice(&unit);
        tandem.push((rng() % 4) as u8);
    }
    check(&tandem, "tandem repeats of 1 kb with mutations");
}

/// Where two arrays first differ, for messages; `None` when they are equal.
fn first_difference<T: PartialEq + std::fmt::Debug>(got: &[T], want: &[T]) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!("length {} instead of {}", got.len(), want.len()));
    }
    let i = got.iter().zip(want).position(|(a, b)| a != b)?;
    Some(format!(
        "element {i}: {:?} instead of {:?}",
        got[i], want[i]
    ))
}

/// Compares two FM indexes field by field; `None` when equal, else what differs.
fn fm_difference(got: &FmParts, want: &FmParts) -> Option<String> {
    let mut diffs = Vec::new();
    let mut scalar = |name: &str, a: String, b: String| {
        if a != b {
            diffs.push(format!("{name}: {a} instead of {b}"));
        }
    };
    scalar("n", got.n.to_string(), want.n.to_string());
    scalar("primary", got.primary.to_string(), want.primary.to_string());
    scalar("c", format!("{:?}", got.c), format!("{:?}", want.c));
    scalar(
        "sample_rate",
        got.sample_rate.to_string(),
        want.sample_rate.to_string(),
    );
    scalar("k", got.k.to_string(), want.k.to_string());
    scalar(
        "width",
        format!("{:?}", got.width()),
        format!("{:?}", want.width()),
    );
    let (gs, ws) = (&got.sampled, &want.sampled);
    let values = |p: &galign::sa::Positions| p.as_slice().iter().collect::<Vec<u64>>();
    let arrays = [
        ("occ", first_difference(&got.occ, &want.occ)),
        ("sampled bits", first_difference(&gs.bits, &ws.bits)),
        (
            "sampled ranks",
            first_difference(&values(&gs.ranks), &values(&ws.ranks)),
        ),
        (
            "sampled positions",
            first_difference(&values(&gs.positions), &values(&ws.positions)),
        ),
        (
            "jump",
            first_difference(&values(&got.jump), &values(&want.jump)),
        ),
        (
            "row samples",
            first_difference(&got.row_samples, &want.row_samples),
        ),
    ];
    for (name, what) in arrays {
        if let Some(what) = what {
            diffs.push(format!("{name}: {what}"));
        }
    }
    assert_eq!(diffs.is_empty(), got == want);
    (!diffs.is_empty()).then(|| diffs.join("; "))
}

fn check_fm(gpu: &Gpu, text: &PackedText, rates: &[u32], what: &str) {
    check_fm_with(gpu, Algorithm::Doubling, text, rates, what);
}

fn check_fm_with(gpu: &Gpu, algorithm: Algorithm, text: &PackedText, rates: &[u32], what: &str) {
    let sa: Vec<u32> = galign::sa::suffix_array(text);
    for &rate in rates {
        let want = FmParts::build(text, &sa, rate);
        let got = fm::fm_index(gpu, text, Keep::Locate(rate), algorithm)
            .unwrap_or_else(|e| panic!("{what} ({algorithm:?}): {e}"));
        if let Some(diff) = fm_difference(&got, &want) {
            panic!(
                "{what} (n = {}, rate {rate}, {algorithm:?}): GPU FM index differs: {diff}",
                text.len()
            );
        }
    }
    // The mirror's build: the BWT/Occ alone, the locate arrays neither made nor copied.
    let mut want = FmParts::build(text, &sa, Keep::OccOnly.sample_rate());
    want.drop_locate_and_jump();
    let got = fm::fm_index(gpu, text, Keep::OccOnly, algorithm)
        .unwrap_or_else(|e| panic!("{what} ({algorithm:?}, Occ only): {e}"));
    if let Some(diff) = fm_difference(&got, &want) {
        panic!(
            "{what} (n = {}, Occ only, {algorithm:?}): GPU FM index differs: {diff}",
            text.len()
        );
    } // bwa's build: the BWT/Occ and the positions of every 32nd row (gathered on the
      // device), no locate arrays.
    want.row_samples = every_row(&sa, 32);
    let got = fm::fm_index(gpu, text, Keep::EveryRow(32), algorithm)
        .unwrap_or_else(|e| panic!("{what} ({algorithm:?}, every row): {e}"));
    if let Some(diff) = fm_difference(&got, &want) {
        panic!(
            "{what} (n = {}, every 32nd row, {algorithm:?}): GPU FM index differs: {diff}",
            text.len()
        );
    }
    assert!(
        got.row_samples == want.row_samples,
        "{what}: every 32nd row's position"
    );
}

/// The positions of rows `interval`, `2 * interval`, ... of the suffix array `sa` (rows
/// `1..=n`): [`FmParts::row_samples`].
fn every_row<I: galign::sa::SaIndex>(sa: &[I], interval: usize) -> Vec<u64> {
    (interval..=sa.len())
        .step_by(interval)
        .map(|row| sa[row - 1].to_usize() as u64)
        .collect()
}

/// Contigs with runs of N (which the reader replaces by pseudo-random bases) and soft
/// masking, read through the FASTA reader as `galign index` does.
fn n_rich_multi_contig(rng: &mut impl FnMut() -> u64, contigs: usize) -> PackedText {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n_rich.fa");
    let mut fasta = String::new();
    for c in 0..contigs {
        fasta.push_str(&format!(">contig{c}\n"));
        let len = 1 + (rng() % 40_000) as usize;
        let mut seq = String::new();
        while seq.len() < len {
            // Runs of N, of soft-masked bases, or of upper-case bases.
            let kind = rng() % 6;
            for _ in 0..(1 + (rng() % 3000) as usize).min(len - seq.len()) {
                let base = b"ACGT"[(rng() % 4) as usize] as char;
                seq.push(match kind {
                    0 | 1 => 'N',
                    2 => base.to_ascii_lowercase(),
                    _ => base,
                });
            }
        }
        for line in seq.as_bytes().chunks(60) {
            fasta.push_str(std::str::from_utf8(line).unwrap());
            fasta.push('\n');
        }
    }
    std::fs::write(&path, fasta).unwrap();
    galign::reference::read_fasta(&path).unwrap().text
}

#[test]
fn gpu_fm_index_matches_cpu() {
    let Some(gpu) = gpu() else { return };
    let rates = [1, 3, 16];
    for len in 0..100 {
        for (codes, what) in [
            (vec![0u8; len], "all A"),
            (vec![3u8; len], "all T"),
            ((0..len).map(|i| (i % 2) as u8).collect(), "period 2"),
            ((0..len).map(|i| 3 - (i % 3) as u8).collect(), "period 3"),
        ] {
            check_fm(&gpu, &PackedText::from_codes(&codes), &rates, what);
        }
    }
    let mut rng = lcg(11);
    for len in [
        1,
        31,
        32,
        33,
        191,
        192,
        193,
        511,
        512,
        513,
        2047,
        2048,
        2049,
        5000,
        70_000,
        1 << 20,
        3_000_001,
    ] {
        for alphabet in [1u64, 2, 4] {
            let codes: Vec<u8> = (0..len).map(|_| (rng() % alphabet) as u8).collect();
            let what = format!("random over {alphabet} letters");
            check_fm(&gpu, &PackedText::from_codes(&codes), &rates, &what);
        }
    }
    let n = 300_000;
    check_fm(
        &gpu,
        &PackedText::from_codes(&vec![0u8; n]),
        &rates,
        "all A, long",
    );
    let period7: Vec<u8> = (0..n).map(|i| [0u8, 1, 2, 3, 3, 2, 1][i % 7]).collect();
    check_fm(
        &gpu,
        &PackedText::from_codes(&period7),
        &rates,
        "period 7, long",
    );
    for contigs in [1, 3, 40] {
        let text = n_rich_multi_contig(&mut rng, contigs);
        check_fm(&gpu, &text, &rates, "N-rich multi-contig");
    }
}

/// `copies` copies of a random `unit`-base stretch, each base mutated with
/// probability 1/`mutate_every` (runs of equal 32-base keys about `copies` long).
fn mutated_copies(
    rng: &mut impl FnMut() -> u64,
    unit: usize,
    copies: usize,
    mutate_every: u64,
) -> Vec<u8> {
    let unit: Vec<u8> = (0..unit).map(|_| (rng() % 4) as u8).collect();
    (0..copies)
        .flat_map(|_| unit.clone())
        .map(|c| {
            if rng().is_multiple_of(mutate_every) {
                (rng() % 4) as u8
            } else {
                c
            }
        })
        .collect()
}

/// The GPU sample ranks equal the CPU's, and the partitioned GPU build equals the CPU's FM
/// index for part sizes from half the text to a few hundred suffixes: buckets split over several parts (all-A, periods), runs of
/// equal keys sorted in a warp (a few copies), in a block (hundreds of copies) and on
/// the CPU (thousands).
#[test]
fn gpu_partitioned_fm_index_matches_cpu() {
    let Some(gpu) = gpu() else { return };
    let mut rng = lcg(23);
    let mut texts: Vec<(String, PackedText)> = vec![
        (
            "random".into(),
            (0..200_000).map(|_| (rng() % 4) as u8).collect(),
        ),
        (
            "random over 2 letters".into(),
            (0..100_000).map(|_| (rng() % 2) as u8).collect(),
        ),
        ("all A".into(), vec![0u8; 50_000]),
        (
            "period 2".into(),
            (0..40_000).map(|i| (i % 2) as u8).collect(),
        ),
        (
            "period 7".into(),
            (0..40_000)
                .map(|i| [0u8, 1, 2, 3, 3, 2, 1][i % 7])
                .collect(),
        ),
        ("10 copies".into(), mutated_copies(&mut rng, 10_000, 10, 50)),
        ("50 copies".into(), mutated_copies(&mut rng, 2000, 50, 100)),
        ("300 copies".into(), mutated_copies(&mut rng, 500, 300, 100)),
        (
            "3000 copies".into(),
            mutated_copies(&mut rng, 60, 3000, 1000),
        ),
    ]
    .into_iter()
    .map(|(what, codes): (String, Vec<u8>)| (what, PackedText::from_codes(&codes)))
    .collect();
    texts.push((
        "N-rich multi-contig".into(),
        n_rich_multi_contig(&mut rng, 40),
    ));
    for (what, text) in &texts {
        check_partitioned::<u32>(&gpu, what, text);
        check_partitioned::<u64>(&gpu, what, text);
        eprintln!(
            "{what}: n = {}, partitioned GPU builds identical (1 and 3 devices, 32- and 64-bit)",
            text.len()
        );
    }
}

/// The GPU sample ranks and partitioned builds (positions of type `I`) of `text`, on one
/// device with parts from half the text to 700 suffixes and on three, equal the CPU's.
fn check_partitioned<I: partition::Position>(gpu: &Gpu, what: &str, text: &PackedText) {
    let n = text.len();
    let bits = 8 * I::BYTES;
    let words = gpu.upload_staged(text.words()).unwrap();
    let ranks = galign::gpu::sa::partition::sample::ranks::<I>(gpu, text, &words)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let want = galign::sa::sample::SampleRanks::<I>::build(text);
    if let Some(diff) = first_difference(&ranks, want.by_sample_index()) {
        panic!("{what} (n = {n}, {bits}-bit): GPU sample ranks differ: {diff}");
    }
    drop(words);
    let sa: Vec<I> = galign::sa::suffix_array(text);
    let want = FmParts::build(text, &sa, 16);
    let quiet = |_: &str| {};
    for max_part in [n / 2 + 1, n / 7, 5000, 700] {
        let one = std::slice::from_ref(gpu);
        let got = partition::fm_index::<I>(one, text, 16, max_part, (OnFailure::Stop, &quiet))
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        if let Some(diff) = fm_difference(&got, &want) {
            panic!("{what} (n = {n}, {bits}-bit, parts of {max_part}): partitioned GPU FM index differs: {diff}");
        } // bwa's build: every 32nd row's position kept as the parts stream by.
        let rows = (16, 32);
        let got = partition::fm_index_keeping_rows::<I>(
            one,
            text,
            rows,
            max_part,
            (OnFailure::Stop, &quiet),
        )
        .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            got.row_samples == every_row(&sa, 32),
            "{what} (n = {n}, {bits}-bit, parts of {max_part}): every 32nd row's position differs"
        );
        let got = FmParts {
            row_samples: Vec::new(),
            ..got
        };
        if let Some(diff) = fm_difference(&got, &want) {
            panic!("{what} (n = {n}, {bits}-bit, parts of {max_part}, rows kept): partitioned GPU FM index differs: {diff}");
        }
    }
    let several = several_gpus();
    let got = partition::fm_index::<I>(&several, text, 16, 2000, (OnFailure::Stop, &quiet))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    if let Some(diff) = fm_difference(&got, &want) {
        panic!("{what} (n = {n}, {bits}-bit): partitioned FM index on 3 devices differs: {diff}");
    }
    // Each device's thread sorts its long runs itself there: the rows kept too.
    let got = partition::fm_index_keeping_rows::<I>(
        &several,
        text,
        (16, 32),
        2000,
        (OnFailure::Stop, &quiet),
    )
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        got.row_samples == every_row(&sa, 32),
        "{what} (n = {n}, {bits}-bit): every 32nd row's position on 3 devices differs"
    );
}

/// Partitioned builds of the real references (E. coli, K. pneumoniae, chr20, where the
/// shared data holds them) in 9 parts or more, on one device and on three, equal the
/// CPU build.
#[test]
fn gpu_partitioned_builds_of_real_references_match_cpu() {
    let Some(gpu) = gpu() else { return };
    let (_, shared) = data_dirs();
    let quiet = |_: &str| {};
    for name in [
        "ecoli_K12_MG1655.fa.gz",
        "kpneumoniae_HS11286.fa.gz",
        "human_GRCh37_chr20.fa.gz",
    ] {
        let Some(path) = find_data(&shared, &format!("ref/{name}")) else {
            eprintln!("{name}: not present, skipped");
            continue;
        };
        let text = galign::reference::read_fasta(&path).unwrap().text;
        let n = text.len();
        let sa: Vec<u32> = galign::sa::suffix_array(&text);
        let want = FmParts::build(&text, &sa, 16);
        for devices in [std::slice::from_ref(&gpu), &several_gpus()[..]] {
            let got =
                partition::fm_index::<u32>(devices, &text, 16, n / 9, (OnFailure::Stop, &quiet))
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            if let Some(diff) = fm_difference(&got, &want) {
                panic!(
                    "{name} on {} device(s): partitioned FM index differs: {diff}",
                    devices.len()
                );
            }
        }
        if name.starts_with("ecoli") {
            let sa: Vec<u64> = galign::sa::suffix_array(&text);
            let want = FmParts::build(&text, &sa, 16);
            let one = std::slice::from_ref(&gpu);
            let got = partition::fm_index::<u64>(one, &text, 16, n / 9, (OnFailure::Stop, &quiet))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            if let Some(diff) = fm_difference(&got, &want) {
                panic!("{name}: partitioned FM index of 64-bit positions differs: {diff}");
            }
        }
        eprintln!("{name}: n = {n}, partitioned GPU builds identical (1 and 3 devices)");
    }
}

/// Three devices for a partitioned build: the last visible one and two more contexts
/// on device 0 (where there is one GPU, three streams on it).
fn several_gpus() -> Vec<Gpu> {
    let last = Gpu::device_count().unwrap() - 1;
    [0, last, 0]
        .map(|ordinal| Gpu::open_device(ordinal).unwrap())
        .into()
}

/// A device that fails mid-build hands its parts to the others (`HandOver`, said), or
/// fails the build naming it (`Stop`).
#[test]
fn gpu_partitioned_build_survives_a_failing_device() {
    let Some(_) = gpu() else { return };
    let mut rng = lcg(17);
    let text = PackedText::from_codes(&mutated_copies(&mut rng, 30_000, 10, 100));
    let sa: Vec<u32> = galign::sa::suffix_array(&text);
    let want = FmParts::build(&text, &sa, 16);
    let several = several_gpus();
    std::env::set_var("GALIGN_TEST_GPU_FAIL", "1:2");
    let said = std::sync::Mutex::new(Vec::new());
    let say = |m: &str| said.lock().unwrap().push(m.to_string());
    let got = partition::fm_index::<u32>(&several, &text, 16, 5000, (OnFailure::HandOver, &say));
    let stopped = partition::fm_index::<u32>(&several, &text, 16, 5000, (OnFailure::Stop, &say));
    std::env::remove_var("GALIGN_TEST_GPU_FAIL");
    let got = got.unwrap();
    if let Some(diff) = fm_difference(&got, &want) {
        panic!("after a failed device the FM index differs: {diff}");
    }
    let said = said.into_inner().unwrap();
    let ordinal = several[1].ordinal();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with(&format!(
            "GPU {ordinal} failed (CUDA error during a part sort: failure injected"
        )),
        "{said:?}"
    );
    let err = stopped.expect_err("the build stops").to_string();
    assert!(
        err.starts_with(&format!("GPU {ordinal}: CUDA error during a part sort")),
        "{err}"
    );
}

#[test]
fn gpu_staged_copies_round_trip() {
    let Some(gpu) = gpu() else { return };
    let mut rng = lcg(5);
    // Two and a half staging chunks (16 MiB each), and a small copy after a large one.
    for len in [5 << 20, 1000, 3 << 20] {
        let data: Vec<u64> = (0..len).map(|_| rng() ^ rng() << 40).collect();
        let buf = gpu.upload_staged(&data).unwrap();
        let mut back = galign::gpu::prefaulted_vec::<u64>(len);
        buf.download_staged(&mut back).unwrap();
        assert!(back == data, "{len} words");
        let mut plain = vec![0u64; len];
        buf.download(&mut plain).unwrap();
        assert!(plain == data, "{len} words, plain download");
    }
}

#[test]
fn gpu_memory_kept_by_the_pool_leaves_room_for_a_larger_buffer() {
    let Some(gpu) = gpu() else { return };
    // The pool keeps half the device's free memory once its buffer is given back; a
    // buffer of 70% must still fit: the pool hands back what it keeps and tries again.
    let free = gpu.free_bytes().unwrap();
    let half = gpu.alloc(free / 2).unwrap();
    half.zero(free / 2).unwrap();
    drop(half);
    // What the pool keeps unused counts as free (builds size themselves by it).
    let after = gpu.free_bytes().unwrap();
    assert!(
        after + (1 << 30) >= free,
        "free {free} before, {after} after"
    );
    let larger = free / 10 * 7;
    let buf = gpu
        .alloc(larger)
        .expect("room once the pool gives back what it keeps");
    buf.zero(larger).unwrap();
    let mut tail = [1u8; 16];
    buf.download_at(larger - 16, &mut tail).unwrap();
    assert_eq!(tail, [0; 16]);
    assert!(gpu.reserved_peak_bytes() >= larger);
}

#[test]
fn out_of_memory_is_an_error() {
    let Some(gpu) = gpu() else { return };
    let text = PackedText::from_codes(&vec![1u8; 100_000]);
    for algorithm in [Algorithm::Doubling, Algorithm::Skew, Algorithm::Hybrid] {
        gpu.set_mem_limit(Some(1 << 20));
        let err =
            sa::suffix_array(&gpu, &text, algorithm).expect_err("1 MiB cannot hold this build");
        assert!(err.to_string().starts_with("out of GPU memory"), "{err}");
        let err = fm::fm_index(&gpu, &text, Keep::Locate(16), algorithm)
            .expect_err("1 MiB cannot hold this build");
        assert!(err.to_string().starts_with("out of GPU memory"), "{err}");
        gpu.set_mem_limit(None);
        check(
            &gpu,
            algorithm,
            &vec![1u8; 1000],
            "after an out-of-memory error",
        );
    }
    assert!(gpu.alloc(usize::MAX / 4).is_err());
    check_fm(
        &gpu,
        &PackedText::from_codes(&[1u8; 1000]),
        &[16],
        "after an out-of-memory error",
    );
}

/// Sorts `keys` (values: their indexes) on the GPU by the low `bits` bits (whole bytes)
/// and checks the result against a stable CPU sort: keys and values, so stability too.
fn check_radix_sort(gpu: &Gpu, ws: &Workspace, keys: &[u64], width: Option<KeyWidth>, bits: u32) {
    let n = keys.len();
    let mask = if bits.div_ceil(8) >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * bits.div_ceil(8))) - 1
    };
    let mut want: Vec<(u64, u64)> = keys
        .iter()
        .enumerate()
        .map(|(i, &k)| (k, i as u64))
        .collect();
    want.sort_by_key(|&(k, _)| k & mask);
    let key_bytes = if width == Some(KeyWidth::U32) { 4 } else { 8 };
    let bytes: Vec<u8> = keys
        .iter()
        .flat_map(|k| k.to_le_bytes()[..key_bytes].to_vec())
        .collect();
    let mut kbuf = [gpu.upload(&bytes).unwrap(), gpu.alloc(bytes.len()).unwrap()];
    let (got_keys, got_vals): (Vec<u64>, Vec<u64>) = match width {
        Some(width) => {
            let vals: Vec<u32> = (0..n as u32).collect();
            let mut vbuf = [gpu.upload(&vals).unwrap(), gpu.alloc(4 * n).unwrap()];
            ws.sort_pairs(&mut kbuf, &mut vbuf, n, width, bits).unwrap();
            let mut v = vec![0u32; n];
            vbuf[0].download(&mut v).unwrap();
            (
                download_keys(&kbuf[0], n, key_bytes),
                v.into_iter().map(u64::from).collect(),
            )
        }
        None => {
            let vals: Vec<u64> = (0..n as u64).collect();
            let mut vbuf = [gpu.upload(&vals).unwrap(), gpu.alloc(8 * n).unwrap()];
            ws.sort_wide_pairs(&mut kbuf, &mut vbuf, n, bits).unwrap();
            let mut v = vec![0u64; n];
            vbuf[0].download(&mut v).unwrap();
            (download_keys(&kbuf[0], n, key_bytes), v)
        }
    };
    let what = format!("{n} keys of {key_bytes} bytes, values {width:?}, {bits} bits");
    assert!(
        got_vals.iter().zip(&want).all(|(&v, &(_, w))| v == w),
        "values: {what}"
    );
    assert!(
        got_keys.iter().zip(&want).all(|(&k, &(w, _))| k == w),
        "keys: {what}"
    );
}

/// `n` keys of `key_bytes` bytes each from a device buffer.
fn download_keys(buf: &galign::gpu::DevBuf, n: usize, key_bytes: usize) -> Vec<u64> {
    let mut raw = vec![0u8; n * key_bytes];
    buf.download(&mut raw).unwrap();
    raw.chunks(key_bytes)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..key_bytes].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect()
}

#[test]
fn gpu_radix_sort_is_a_stable_sort() {
    let Some(gpu) = gpu() else { return };
    let longest = (1 << 24) + 5000;
    let ws = Workspace::new(&gpu, longest).unwrap();
    let mut rng = lcg(7);
    // Lengths around the tile sizes (2048, 3072) and past one launch's portion (2^24).
    for n in [2, 3, 2047, 2048, 2049, 3071, 3073, 100_003, longest] {
        let random: Vec<u64> = (0..n).map(|_| rng() ^ (rng() << 40)).collect();
        // Few distinct keys (long runs of one digit), all equal, descending.
        let few: Vec<u64> = random.iter().map(|k| (k % 5) << 33 | (k % 3)).collect();
        let descending: Vec<u64> = (0..n as u64).rev().map(|k| k << 30).collect();
        for keys in [&random, &few, &descending, &vec![9u64 << 50; n]] {
            check_radix_sort(&gpu, &ws, keys, Some(KeyWidth::U64), 64);
            check_radix_sort(&gpu, &ws, keys, None, 64);
            check_radix_sort(&gpu, &ws, keys, Some(KeyWidth::U64), 36);
            let low: Vec<u64> = keys.iter().map(|&k| k & 0xffff_ffff).collect();
            check_radix_sort(&gpu, &ws, &low, Some(KeyWidth::U32), 32);
            check_radix_sort(&gpu, &ws, &low, Some(KeyWidth::U32), 20);
        }
    }
}

/// The scan of `values` with `op` on the CPU: inclusive or exclusive, and the reduction.
fn cpu_scan(values: &[u32], op: ScanOp, inclusive: bool) -> (Vec<u32>, u32) {
    let fold = |a: u32, b: u32| match op {
        ScanOp::Sum => a.wrapping_add(b),
        ScanOp::Max => a.max(b),
    };
    let mut run = 0;
    let scanned = values
        .iter()
        .map(|&v| {
            let before = run;
            run = fold(run, v);
            if inclusive {
                run
            } else {
                before
            }
        })
        .collect();
    (scanned, run)
}

#[test]
fn gpu_scan_matches_a_cpu_scan() {
    let Some(gpu) = gpu() else { return };
    let longest = 20_000_005;
    let ws = Workspace::new(&gpu, longest).unwrap();
    let mut rng = lcg(11);
    // Around the 4096-element tile, past one 32-tile look-back window, many tiles.
    for n in [1, 2, 4095, 4096, 4097, 123_457, 40 * 4096 + 5, longest] {
        let small: Vec<u32> = (0..n).map(|_| (rng() % 7) as u32).collect();
        let wide: Vec<u32> = (0..n).map(|_| rng() as u32).collect();
        let sparse: Vec<u32> = (0..n)
            .map(|i| {
                if rng().is_multiple_of(1000) {
                    i as u32
                } else {
                    0
                }
            })
            .collect();
        for values in [&small, &wide, &sparse] {
            for (op, inclusive) in [
                (ScanOp::Sum, false),
                (ScanOp::Sum, true),
                (ScanOp::Max, false),
                (ScanOp::Max, true),
            ] {
                let (want, total) = cpu_scan(values, op, inclusive);
                let input = gpu.upload(values).unwrap();
                let output = gpu.alloc(4 * n).unwrap();
                let got_total = ws
                    .scan(input.ptr(0), output.ptr(0), n, op, inclusive)
                    .unwrap();
                let mut got = vec![0u32; n];
                output.download(&mut got).unwrap();
                assert_eq!(got_total, total, "{n} {op:?} inclusive {inclusive}: total");
                assert!(
                    got == want,
                    "{n} {op:?} inclusive {inclusive}: scan differs"
                );
                // In place, without the host reading the total.
                ws.scan_queued(input.ptr(0), input.ptr(0), n, op, inclusive)
                    .unwrap();
                input.download(&mut got).unwrap();
                assert!(
                    got == want,
                    "{n} {op:?} inclusive {inclusive}: in-place scan differs"
                );
            }
        }
    }
}

/// The scatter primitive, at random and sorted by address first (arrays past the L2
/// window, in slices smaller than the pairs), equals the CPU's writes; the pairs stay
/// as given.
#[test]
fn gpu_scatter_matches_a_cpu_scatter() {
    let Some(gpu) = gpu() else { return };
    let mut rng = lcg(5);
    for (dst_len, writes, slice) in [
        (1000, 700, 0),
        (3 << 24, 1 << 19, 0),
        (3 << 24, (1 << 21) + 7, 1 << 20),
        ((1 << 25) + 1, 3_000_001, 3_000_001),
    ] {
        assert_eq!(
            scatter::sorts_first(writes, dst_len),
            slice > 0,
            "{dst_len} {writes}"
        );
        // Distinct indices: a stride through the array coprime with its length.
        let gcd = |mut a: usize, mut b: usize| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let mut stride = 2_654_435_761usize % dst_len;
        while gcd(stride, dst_len) != 1 {
            stride += 1;
        }
        let start = rng() as usize % dst_len;
        let indices: Vec<u32> = (0..writes)
            .map(|i| ((start + i * stride) % dst_len) as u32)
            .collect();
        let mut distinct = indices.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), writes, "test indices not distinct");
        let values: Vec<u32> = (0..writes).map(|_| rng() as u32).collect();
        let before: Vec<u32> = (0..dst_len).map(|i| i as u32 ^ 0x5555).collect();
        let mut want = before.clone();
        for (&i, &v) in indices.iter().zip(&values) {
            want[i as usize] = v;
        }
        let dst = gpu.upload(&before).unwrap();
        let got = scatter_on_gpu(&gpu, (&indices, &values), (&dst, dst_len), slice);
        assert!(got == want, "{dst_len} {writes}: scatter differs");
    }
}

/// `scatter::scatter` of the pairs `indices`, `values` into `dst` (`dst_len` u32s) in
/// slices of `slice` pairs (0: at random); checks that the pairs stay as given and
/// returns `dst`.
fn scatter_on_gpu(
    gpu: &Gpu,
    (indices, values): (&[u32], &[u32]),
    (dst, dst_len): (&DevBuf, usize),
    slice: usize,
) -> Vec<u32> {
    let writes = indices.len();
    let ws = Workspace::new(gpu, writes).unwrap();
    let (idx, vals) = (gpu.upload(indices).unwrap(), gpu.upload(values).unwrap());
    let scratch_idx = gpu.alloc(4 * slice.max(1)).unwrap();
    let scratch_vals = gpu.alloc(4 * slice.max(1)).unwrap();
    let pairs = Pairs {
        indices: idx.ptr(0),
        values: vals.ptr(0),
        len: writes,
    };
    let scratch = Scratch {
        indices: scratch_idx.ptr(0),
        values: scratch_vals.ptr(0),
        len: slice,
    };
    scatter::scatter(gpu, &ws, pairs, (dst.ptr(0), dst_len), scratch).unwrap();
    let mut got = vec![0u32; dst_len];
    dst.download(&mut got).unwrap();
    let mut after = vec![0u32; writes];
    vals.download(&mut after).unwrap();
    assert!(after == values, "{dst_len}: values moved");
    idx.download(&mut after).unwrap();
    assert!(after == indices, "{dst_len}: indices moved");
    got
}

/// The scatter into more than 2^31 entries (its sorted pairs written in two sweeps, a
/// half of every window each, so that the writes stay within the L2 cache) equals the
/// CPU's writes; the pairs stay as given.
#[test]
fn gpu_scatter_past_2_31_entries() {
    let Some(gpu) = gpu() else { return };
    let dst_len = (1usize << 31) + 3_000_017;
    let writes = (1usize << 22) + 11;
    assert!(scatter::sorts_first(writes, dst_len));
    let Ok(dst) = gpu.alloc(4 * dst_len) else {
        eprintln!(
            "skipped: {} GB of device memory not free",
            (4 * dst_len) >> 30
        );
        return;
    };
    dst.zero(4 * dst_len).unwrap();
    // Distinct indices over the whole array, both halves of bit 31; values never zero.
    let stride = 2_654_435_761usize;
    let indices: Vec<u32> = (0..writes)
        .map(|i| ((17 + i * stride) % dst_len) as u32)
        .collect();
    let mut rng = lcg(9);
    let values: Vec<u32> = (0..writes).map(|_| (rng() as u32) | 1).collect();
    let got = scatter_on_gpu(&gpu, (&indices, &values), (&dst, dst_len), writes / 2 + 1);
    for (&i, &v) in indices.iter().zip(&values) {
        assert_eq!(got[i as usize], v, "entry {i}");
    }
    let written = got.iter().filter(|&&v| v != 0).count();
    assert_eq!(written, writes, "entries written that no pair names");
}

/// Times the 64-bit-key / 32-bit-value radix sort (and 32-bit keys) on random keys.
/// `GALIGN_SORT_N` sets the element count (default 2^28).
#[test]
#[ignore]
fn radix_sort_throughput() {
    let Some(gpu) = gpu() else { return };
    let n: usize = std::env::var("GALIGN_SORT_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1 << 28);
    let mut rng = lcg(42);
    let keys: Vec<u64> = (0..n).map(|_| rng() ^ (rng() << 40)).collect();
    let vals: Vec<u32> = (0..n as u32).collect();
    let ws = Workspace::new(&gpu, n).unwrap();
    for width in [KeyWidth::U64, KeyWidth::U32] {
        let kb = width.bytes();
        let src_keys: Vec<u8> = match width {
            KeyWidth::U64 => keys.iter().flat_map(|k| k.to_le_bytes()).collect(),
            KeyWidth::U32 => keys
                .iter()
                .flat_map(|&k| (k as u32).to_le_bytes())
                .collect(),
        };
        let pristine = gpu.upload(&src_keys).unwrap();
        let pristine_vals = gpu.upload(&vals).unwrap();
        let mut kbuf = [gpu.alloc(kb * n).unwrap(), gpu.alloc(kb * n).unwrap()];
        let mut vbuf = [gpu.alloc(4 * n).unwrap(), gpu.alloc(4 * n).unwrap()];
        let mut times = Vec::new();
        for _ in 0..7 {
            kbuf[0].copy_from(pristine.ptr(0), kb * n).unwrap();
            vbuf[0].copy_from(pristine_vals.ptr(0), 4 * n).unwrap();
            let mut probe = [0u32];
            vbuf[0].download(&mut probe).unwrap();
            let t = Instant::now();
            ws.sort_pairs(&mut kbuf, &mut vbuf, n, width, 8 * kb as u32)
                .unwrap();
            vbuf[0].download(&mut probe).unwrap();
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let med = times[times.len() / 2];
        let t = Instant::now();
        let mut out_vals = vec![0u32; n];
        vbuf[0].download(&mut out_vals).unwrap();
        let pageable = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut staged = galign::gpu::prefaulted_vec::<u32>(n);
        let prefault = t.elapsed().as_secs_f64();
        vbuf[0].download_staged(&mut staged).unwrap();
        println!(
            "DOWNLOAD {} MB: pageable {:.1} ms; prefault {:.1} ms + pinned-staged {:.1} ms",
            (4 * n) >> 20,
            pageable * 1e3,
            prefault * 1e3,
            (t.elapsed().as_secs_f64() - prefault) * 1e3
        );
        assert!(staged == out_vals);
        let mut out_keys = vec![0u8; kb * n];
        kbuf[0].download(&mut out_keys).unwrap();
        let key_at = |i: usize| -> u64 {
            let mut b = [0u8; 8];
            b[..kb].copy_from_slice(&out_keys[kb * i..kb * i + kb]);
            u64::from_le_bytes(b)
        };
        let orig = |v: u32| -> u64 {
            match width {
                KeyWidth::U64 => keys[v as usize],
                KeyWidth::U32 => keys[v as usize] as u32 as u64,
            }
        };
        for i in 0..n {
            assert_eq!(key_at(i), orig(out_vals[i]), "pair {i} broken");
            if i > 0 {
                let (a, b) = (key_at(i - 1), key_at(i));
                assert!(
                    a < b || (a == b && out_vals[i - 1] < out_vals[i]),
                    "not sorted/stable at {i}"
                );
            }
        }
        println!(
            "RADIX {}-bit keys + 32-bit values: n={n} median {:.2} ms, {:.0} Mpairs/s",
            8 * kb,
            med * 1e3,
            n as f64 / med / 1e6
        );
    }
}

/// Builds the suffix array and the FM index of each FASTA in `GALIGN_CHECK_FASTA` (space
/// separated) on both, compares, and prints `CHECK name bases gpu_s cpu_s ratio GB/s
/// peak_bytes_per_base OK|MISMATCH` (suffix array) and `FMCHECK name bases gpu_s cpu_s
/// ratio peak_bytes_per_base OK|MISMATCH` (FM index: GPU suffix array and derivation
/// against the CPU derivation alone).
#[test]
#[ignore]
fn check_fasta_files() {
    let Some(gpu) = gpu() else { return };
    eprintln!("device: {}", gpu.describe());
    let list = std::env::var("GALIGN_CHECK_FASTA").unwrap_or_default();
    let algorithms: Vec<Algorithm> = std::env::var("GALIGN_CHECK_ALGORITHMS")
        .unwrap_or_else(|_| "doubling skew hybrid".into())
        .split_whitespace()
        .map(|a| clap::ValueEnum::from_str(a, true).expect("an --sa-algorithm name"))
        .collect();
    let mut failed = false;
    let mut verdict = |ok: Result<bool, String>| match ok {
        Ok(true) => "OK".to_string(),
        Ok(false) => {
            failed = true;
            "MISMATCH".to_string()
        }
        Err(e) => {
            failed = true;
            format!("ERROR {e}")
        }
    };
    for path in list.split_whitespace() {
        let reference = galign::reference::read_fasta(std::path::Path::new(path)).unwrap();
        let text = &reference.text;
        let n = text.len();
        let name = std::path::Path::new(path)
            .file_name()
            .unwrap()
            .to_string_lossy();
        let t = Instant::now();
        let want: Vec<u32> = galign::sa::suffix_array(text);
        let cpu_s = t.elapsed().as_secs_f64();
        for &algorithm in &algorithms {
            let warm = PackedText::from_codes(&[0, 1, 2, 3]);
            let _warm = sa::suffix_array(&gpu, &warm, algorithm).unwrap();
            gpu.reset_peak();
            let t = Instant::now();
            let got = sa::suffix_array(&gpu, text, algorithm);
            let gpu_s = t.elapsed().as_secs_f64();
            let peak = gpu.peak_bytes();
            let status = verdict(got.map(|sa| sa == want).map_err(|e| e.to_string()));
            println!(
                "CHECK {name} {} {n} {gpu_s:.4} {cpu_s:.4} {:.1} {:.3} {:.2} {status}",
                format!("{algorithm:?}").to_lowercase(),
                cpu_s / gpu_s,
                n as f64 / gpu_s / 1e9,
                peak as f64 / n.max(1) as f64
            );
        }
        // The FM index: GPU (suffix array included) against FmParts::build of the CPU's
        // suffix array (derivation only).
        let rate = galign::fm::DEFAULT_SAMPLE_RATE;
        let t = Instant::now();
        let fm_want = FmParts::build(text, &want, rate);
        let cpu_s = t.elapsed().as_secs_f64();
        for &algorithm in &algorithms {
            gpu.reset_peak();
            let t = Instant::now();
            let got = fm::fm_index(&gpu, text, Keep::Locate(rate), algorithm);
            let gpu_s = t.elapsed().as_secs_f64();
            let peak = gpu.peak_bytes();
            let same = got.map_err(|e| e.to_string()).map(|fm| {
                let diff = fm_difference(&fm, &fm_want);
                if let Some(diff) = &diff {
                    eprintln!("{name} ({algorithm:?}): {diff}");
                }
                diff.is_none()
            });
            let status = verdict(same);
            println!(
                "FMCHECK {name} {} {n} {gpu_s:.4} {cpu_s:.4} {:.1} {:.2} {status}",
                format!("{algorithm:?}").to_lowercase(),
                cpu_s / gpu_s,
                peak as f64 / n.max(1) as f64
            );
        }
    }
    assert!(
        !failed,
        "a GPU suffix array or FM index differed from the CPU's"
    );
}

/// The CPU's located positions of both strands of `seq`, each sorted.
fn cpu_positions(fm: &galign::fm::FmIndex<'_>, seq: &[u8]) -> [Vec<u64>; 2] {
    use galign::alphabet::{encode, reverse_complement_codes};
    let mut codes = Vec::new();
    if seq.is_empty() || !encode(seq, &mut codes) {
        return [Vec::new(), Vec::new()];
    }
    [false, true].map(|reverse| {
        if reverse {
            reverse_complement_codes(&mut codes);
        }
        let mut p = Vec::new();
        fm.occurrences(&codes, &mut p);
        p.sort_unstable();
        p
    })
}

/// `GpuSearcher` locates exactly the CPU's positions on both strands, for substrings,
/// reverse complements, random, short, empty, lower-case and N-holding reads, on random
/// and repetitive texts, several sampling rates, indexes of 32-bit and of 64-bit
/// positions (returned at that width), and with batches split into passes.
#[test]
fn gpu_search_matches_cpu_search() {
    use galign::gpu::map::GpuSearcher;
    use galign::io::ReadRecord;
    use galign::search::BatchSearcher;
    let Some(gpu) = gpu() else { return };
    let mut rng = lcg(11);
    let texts: Vec<(&str, Vec<u8>)> = vec![
        ("random", (0..200_000).map(|_| (rng() % 4) as u8).collect()),
        (
            "period 7",
            (0..50_000)
                .map(|i| [0u8, 1, 2, 3, 3, 2, 1][i % 7])
                .collect(),
        ),
        ("all A", vec![0u8; 5000]),
        ("tiny", vec![2, 0, 3]),
    ];
    for (name, codes) in texts {
        let text = PackedText::from_codes(&codes);
        let sa: Vec<u32> = galign::sa::suffix_array(&text);
        let wide_sa: Vec<u64> = galign::sa::suffix_array(&text);
        let n = codes.len();
        let mut reads = galign::io::ReadBatch::default();
        for i in 0..3000usize {
            let len = [1, 2, 5, 11, 12, 13, 14, 20, 35, 100, 150, 151, 250][i % 13].min(n);
            let start = (rng() as usize) % (n - len + 1);
            let mut seq: Vec<u8> = codes[start..start + len]
                .iter()
                .map(|&c| b"ACGT"[c as usize])
                .collect();
            match i % 7 {
                0 => {
                    seq = seq
                        .iter()
                        .rev()
                        .map(|&b| b"TGCA"[b"ACGT".iter().position(|&x| x == b).unwrap()])
                        .collect()
                }
                1 => seq.make_ascii_lowercase(),
                2 => seq
                    .iter_mut()
                    .for_each(|b| *b = b"ACGT"[(rng() % 4) as usize]),
                3 if len > 3 => seq[len / 2] = b'N',
                4 if i % 91 == 4 => seq.clear(),
                _ => {}
            }
            reads.push(ReadRecord {
                name: format!("r{i}").as_bytes(),
                seq: &seq,
                qual: None,
            });
        }
        // The k-mers on either side of each suffix shorter than k (which the jump
        // table's intervals leave out), as whole reads and behind each base.
        let k = galign::fm::jump::choose_k(n);
        let short = galign::fm::jump::ShortSuffixes::of(text.as_ref(), k);
        for code in short.codes().iter().flat_map(|&c| [c.wrapping_sub(1), c]) {
            if code as usize >= galign::fm::jump::kmers(k) {
                continue;
            }
            let kmer: Vec<u8> = (0..k)
                .rev()
                .map(|i| b"ACGT"[(code >> (2 * i) & 3) as usize])
                .collect();
            for before in ["", "A", "C", "G", "T"] {
                let seq = [before.as_bytes(), &kmer].concat();
                reads.push(ReadRecord {
                    name: b"short",
                    seq: &seq,
                    qual: None,
                });
            }
        }
        for (rate, wide) in [1, 5, 16].into_iter().flat_map(|r| [(r, false), (r, true)]) {
            let parts = match wide {
                false => FmParts::build(&text, &sa, rate),
                true => FmParts::build(&text, &wide_sa, rate),
            };
            let fm = parts.view(&text);
            let width = fm.sampled.positions.width();
            let mut searcher = GpuSearcher::new(&gpu, &fm).unwrap();
            for max_positions in [u64::MAX, 1000] {
                searcher.set_max_positions(max_positions);
                let got = searcher.search_batch(&reads.records()).unwrap();
                // Packed ahead, as `map` searches: the same positions (under the cap,
                // searched again from the batch's records, in parts).
                let packed = searcher.packer().pack(&reads, Vec::new()).unwrap();
                let ahead = searcher.search_packed(&reads, packed).unwrap();
                for i in 0..reads.len() {
                    for strand in 0..2 {
                        let of = |b: &galign::search::BatchPositions| -> Vec<u64> {
                            b.strand(i, strand).iter().collect()
                        };
                        assert_eq!(
                            of(&ahead),
                            of(&got),
                            "{name}, cap {max_positions}: read {i} packed ahead"
                        );
                    }
                }
                for (i, read) in reads.records().iter().enumerate() {
                    let want = cpu_positions(&fm, read.seq);
                    for (strand, want) in want.iter().enumerate() {
                        let got = got.strand(i, strand);
                        assert_eq!(got.width(), width, "{name}: positions at the index's width");
                        let mut p: Vec<u64> = got.iter().collect();
                        p.sort_unstable();
                        assert!(
                            p == *want,
                            "{name}, rate {rate}, {width:?}, cap {max_positions}: read {i} ({}) strand {strand}",
                            String::from_utf8_lossy(read.seq)
                        );
                    }
                }
            }
        }
        eprintln!(
            "{name}: {} reads, GPU positions equal the CPU's",
            reads.len()
        );
    }
}

/// `name` under the first of `dirs` that holds it.
fn find_data(dirs: &[PathBuf], name: &str) -> Option<PathBuf> {
    dirs.iter().map(|d| d.join(name)).find(|p| p.exists())
}

/// The folders searched for data: the checkout's `data/` and the shared real data
/// (`$GALIGN_SHARED_DATA`, else `../shared/data`), relative to the working directory
/// (the GPU machine runs the test binary from the repository root) or to the source.
fn data_dirs() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let local = vec![PathBuf::from("data"), manifest.join("data")];
    let mut shared: Vec<PathBuf> = std::env::var_os("GALIGN_SHARED_DATA")
        .map(PathBuf::from)
        .into_iter()
        .collect();
    shared.extend([
        PathBuf::from("../shared/data"),
        manifest.join("../shared/data"),
    ]);
    (local, shared)
}

/// Maps `source` against `prefix` on `device` with up to `max_mismatches` mismatches,
/// returning the output's bytes.
fn map_bytes(
    prefix: &Path,
    source: &ReadSource,
    all_hits: bool,
    max_mismatches: u8,
    device: DeviceChoice,
    batch_size: usize,
    output: PathBuf,
) -> Vec<u8> {
    let options = MapOptions {
        source: source.clone(),
        output: Some(output.clone()),
        output_format: None,
        read_outputs: Default::default(),
        stats: None,
        summary_file: None,
        full_command_line: vec!["galign".into(), "map".into()],
        read_group: Some("@RG\tID:g\tSM:s".into()),
        max_alternatives: 5,
        all_hits,
        proper_bounds: None, // estimated from the pairs (on the CPU, whatever the device)
        max_mismatches,
        batch_size,
        threads: 4,
        bam_level: galign::sam::DEFAULT_BAM_LEVEL,
        command_line: "galign map test".into(),
        device,
    };
    galign::map::map_reads(prefix, &options, &Reporter::quiet())
        .unwrap_or_else(|e| panic!("map on {device:?}: {e:#}"));
    std::fs::read(output).unwrap()
}

/// `map` of `source` against `prefix` (`-a` as `all_hits`, `-v k`) on the GPU, in batches
/// of each of `batches`, writes the bytes that the CPU writes (to the paths `out` gives
/// for tags `c` and `g`); returns them. `what` names the case in a failure.
fn gpu_map_equals_cpu(
    prefix: &Path,
    source: &ReadSource,
    (all_hits, k): (bool, u8),
    batches: &[usize],
    out: impl Fn(&str) -> PathBuf,
    what: &str,
) -> Vec<u8> {
    let cpu = map_bytes(
        prefix,
        source,
        all_hits,
        k,
        DeviceChoice::Cpu,
        65536,
        out("c"),
    );
    for &batch in batches {
        let gpu = map_bytes(
            prefix,
            source,
            all_hits,
            k,
            DeviceChoice::Gpu,
            batch,
            out("g"),
        );
        if let Some(diff) = first_difference(&gpu, &cpu) {
            panic!("{what}, batch {batch}: GPU output differs from the CPU's: {diff}");
        }
        assert_eq!(gpu.len(), cpu.len(), "{what}, batch {batch}");
    }
    cpu
}

/// SAM (and, for one set, BAM) from `--device gpu` equals `--device cpu` byte for byte on
/// every real read set present (single and paired, -k 5 and -a, several batch sizes),
/// exact and with `-v 1`, `-v 2`, `-v 3`.
#[test]
fn gpu_map_matches_cpu_on_real_reads() {
    let Some(gpu) = gpu() else { return };
    drop(gpu);
    let (local, shared) = data_dirs();
    let reads = |name: &str| find_data(&shared, &format!("reads/{name}"));
    let reference = |name: &str| find_data(&shared, &format!("ref/{name}"));
    let chrm = "human_rCRS_chrM_NC_012920.fa.gz";
    // (name, reference, mate 1, mate 2, sampling rate)
    let sets = [
        (
            "NA12878 chrM 20k",
            find_data(&local, chrm),
            find_data(&local, "NA12878_chrM_20k.fq.gz"),
            None,
            3,
        ),
        (
            "NA12878 chrM cnvkit",
            reference(chrm),
            reads("NA12878_chrM_cnvkit.fq.gz"),
            None,
            16,
        ),
        (
            "HG002 chr20",
            reference("human_GRCh37_chr20.fa.gz"),
            reads("HG002_chr20_10.0-10.1Mb_148bp.fq.gz"),
            None,
            16,
        ),
        (
            "C. elegans",
            reference("celegans_ce_htslib_1Mb.fa.gz"),
            reads("celegans_SRR065390_1000.fq.gz"),
            None,
            32,
        ),
        (
            "samtools ex1",
            reference("samtools_ex1.fa.gz"),
            reads("samtools_ex1_35bp.fq.gz"),
            None,
            1,
        ),
        (
            "E. coli paired",
            reference("ecoli_K12_MG1655.fa.gz"),
            reads("ecoli_MG1655_first10kb_EAS20_R1.fq.gz"),
            reads("ecoli_MG1655_first10kb_EAS20_R2.fq.gz"),
            16,
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut compared = 0;
    for (i, (name, fasta, mate1, mate2, rate)) in sets.into_iter().enumerate() {
        let (Some(fasta), Some(mate1)) = (fasta, mate1) else {
            eprintln!("{name}: data not present, skipped");
            continue;
        };
        let prefix = dir.path().join(format!("ref{i}"));
        let build = build_options(rate, DeviceChoice::Auto);
        galign::index::build_index(&fasta, &prefix, build, &Reporter::quiet()).unwrap();
        let source = match mate2 {
            Some(mate2) => ReadSource::Paired(mate1, mate2),
            None => ReadSource::Single(mate1),
        };
        for (k, all_hits) in (0..=3).flat_map(|k| [(k, false), (k, true)]) {
            let ext = if i == 0 { "bam" } else { "sam" };
            let out = |tag: &str| dir.path().join(format!("{i}-{tag}.{ext}"));
            let what = format!("{name} (-v {k}, -a {all_hits}, {ext})");
            let cpu =
                gpu_map_equals_cpu(&prefix, &source, (all_hits, k), &[65536, 777], out, &what);
            eprintln!(
                "{name}: -v {k} -a {all_hits}: {} bytes of {ext} identical",
                cpu.len()
            );
            compared += 1;
        }
    }
    assert!(compared > 0, "no read set found");
}

/// The device merge equals a stable CPU merge: sorted inputs of many lengths (one or
/// both empty, one much longer, tile boundaries), keys with many ties compared by their
/// high bits, so that the order of equal keys (the first input's first) shows in the low
/// bits.
#[test]
fn gpu_merge_matches_cpu_merge() {
    let Some(gpu) = gpu() else { return };
    let mut rng = lcg(5);
    let shift = 8;
    let sorted = |rng: &mut dyn FnMut() -> u64, len: usize, keys: u64, tag: u32| {
        let mut v: Vec<u32> = (0..len)
            .map(|i| (((rng() % keys) as u32) << shift) | (i as u32 & 0x7f) | tag)
            .collect();
        v.sort_by_key(|x| x >> shift);
        v
    };
    let sizes = [
        (0, 0),
        (0, 5),
        (7, 0),
        (1, 1),
        (2047, 1),
        (2048, 2048),
        (2049, 4095),
        (100_000, 3),
        (3, 100_000),
        (300_001, 299_999),
    ];
    for (na, nb) in sizes {
        for keys in [1u64, 10, 1 << 20] {
            // The first input's elements have bit 7 set, the second's not.
            let a = sorted(&mut rng, na, keys, 0x80);
            let b = sorted(&mut rng, nb, keys, 0);
            let mut want = Vec::with_capacity(na + nb);
            let (mut i, mut j) = (0, 0);
            while i < na || j < nb {
                if j == nb || (i < na && a[i] >> shift <= b[j] >> shift) {
                    want.push(a[i]);
                    i += 1;
                } else {
                    want.push(b[j]);
                    j += 1;
                }
            }
            let (da, db) = (gpu.upload(&a).unwrap(), gpu.upload(&b).unwrap());
            let out = gpu.alloc(4 * (na + nb)).unwrap();
            merge_by_high_bits(&gpu, (da.ptr(0), na), (db.ptr(0), nb), out.ptr(0), shift).unwrap();
            let mut got = vec![0u32; na + nb];
            out.download(&mut got).unwrap();
            if let Some(diff) = first_difference(&got, &want) {
                panic!("merge of {na} and {nb} over {keys} keys: {diff}");
            }
        }
    }
}

/// The FM index built with skew and with the hybrid equals the CPU's.
#[test]
fn gpu_fm_index_with_skew_and_hybrid_matches_cpu() {
    let Some(gpu) = gpu() else { return };
    let mut rng = lcg(23);
    for algorithm in [Algorithm::Skew, Algorithm::Hybrid] {
        for len in [0usize, 1, 2, 3, 4, 5, 6, 7, 100, 70_000] {
            let codes: Vec<u8> = (0..len).map(|_| (rng() % 4) as u8).collect();
            let text = PackedText::from_codes(&codes);
            check_fm_with(&gpu, algorithm, &text, &[1, 16], "random");
            let text = PackedText::from_codes(&vec![0u8; len]);
            check_fm_with(&gpu, algorithm, &text, &[1, 16], "all A");
        }
        let text = n_rich_multi_contig(&mut rng, 12);
        check_fm_with(&gpu, algorithm, &text, &[16], "N-rich contigs");
    }
}

/// `galign sa` and `galign index` write the same bytes with every `--sa-algorithm`
/// (on the GPU) as on the CPU.
#[test]
fn gpu_cli_outputs_are_identical_for_every_sa_algorithm() {
    let Some(_gpu) = gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let fasta = dir.path().join("ref.fa");
    let mut rng = lcg(31);
    let mut text = String::new();
    for c in 0..4 {
        text.push_str(&format!(">c{c}\n"));
        let unit: String = (0..700)
            .map(|_| b"ACGTN"[(rng() % 5) as usize] as char)
            .collect();
        for _ in 0..(3 + c) {
            text.push_str(&unit);
            text.push('\n');
        }
    }
    std::fs::write(&fasta, text).unwrap();
    let galign = |args: &[&str]| {
        let status = std::process::Command::new(galign_binary())
            .args(args)
            .status()
            .unwrap();
        assert!(status.success(), "galign {args:?} failed");
    };
    let fa = fasta.to_str().unwrap();
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    galign(&["sa", fa, "-o", &out("cpu.sa"), "--device", "cpu"]);
    galign(&["index", fa, "-p", &out("cpu"), "--device", "cpu"]);
    let want_sa = std::fs::read(out("cpu.sa")).unwrap();
    let want_index = std::fs::read(out("cpu.galign")).unwrap();
    for algorithm in ["doubling", "skew", "hybrid"] {
        let (sa, prefix) = (out(&format!("{algorithm}.sa")), out(algorithm));
        galign(&[
            "sa",
            fa,
            "-o",
            &sa,
            "--device",
            "gpu",
            "--sa-algorithm",
            algorithm,
        ]);
        galign(&[
            "index",
            fa,
            "-p",
            &prefix,
            "--device",
            "gpu",
            "--sa-algorithm",
            algorithm,
        ]);
        assert!(
            std::fs::read(&sa).unwrap() == want_sa,
            "sa --sa-algorithm {algorithm}"
        );
        let index = std::fs::read(format!("{prefix}.galign")).unwrap();
        assert!(index == want_index, "index --sa-algorithm {algorithm}");
    }
}

/// The `galign` binary: beside the test binary's folder (`target/release/deps/..`), where
/// the test binary was copied with it, else where cargo built it.
fn galign_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let beside = exe
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("galign"));
    beside
        .filter(|b| b.exists())
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_galign")))
}

/// The settings of an index build with sampling rate `rate` on `device`, unbounded.
fn build_options(rate: u32, device: DeviceChoice) -> galign::index::BuildOptions {
    galign::index::BuildOptions {
        sample_rate: rate,
        device,
        memory: None,
        gpu: galign::index::devices::GpuOptions {
            budget: None,
            count: galign::index::devices::GpuCount::All,
            algorithm: Algorithm::Doubling,
        },
        force_u64: false,
    }
}

/// Builds the index of `fasta` at `prefix` on the CPU, sampling rate `rate`, with
/// positions of `width` (64-bit forced on a small text).
fn build_index_of(fasta: &Path, prefix: &Path, rate: u32, width: Width) {
    let build = galign::index::BuildOptions {
        force_u64: width == Width::U64,
        ..build_options(rate, DeviceChoice::Cpu)
    };
    galign::index::build_index(fasta, prefix, build, &Reporter::quiet()).unwrap();
}

/// Builds the index of `contigs` at `dir/name` (on the CPU, sampling rate `rate`,
/// positions of `width`).
fn build_index(
    dir: &Path,
    name: &str,
    contigs: &[(String, String)],
    rate: u32,
    width: Width,
) -> PathBuf {
    let fasta = dir.join(format!("{name}.fa"));
    write_fasta(contigs, &fasta);
    let prefix = dir.join(name);
    build_index_of(&fasta, &prefix, rate, width);
    prefix
}

/// Reads of `text` (upper case, N and IUPAC runs included): substrings of many lengths
/// (1 base to 151, shorter and longer than the scheme pieces) with up to 4 planted
/// mismatches, some of them N, either strand, some lower case; random, all-N and empty
/// reads.
fn planted_reads(text: &str, count: usize, rng: &mut Rng) -> galign::io::ReadBatch {
    let lengths = [
        1, 2, 3, 4, 5, 7, 8, 11, 12, 13, 20, 33, 36, 50, 100, 148, 151,
    ];
    let mut reads = galign::io::ReadBatch::default();
    for i in 0..count {
        let len = lengths[i % lengths.len()].min(text.len());
        let start = (rng.next() as usize) % (text.len() - len + 1);
        let mut read = text.as_bytes()[start..start + len].to_vec();
        for _ in 0..rng.next() % 5 {
            let at = (rng.next() as usize) % len;
            read[at] = b"ACGTN"[(rng.next() % 5) as usize];
        }
        let mut read = String::from_utf8(read).unwrap();
        match rng.next() % 6 {
            0 | 1 => read = revcomp(&read),
            2 => read.make_ascii_lowercase(),
            3 if i % 50 == 3 => read = rng.bases(len),
            4 if i % 97 == 4 => read.clear(),
            5 if i % 89 == 5 => read = "N".repeat(len),
            _ => {}
        }
        reads.push(galign::io::ReadRecord {
            name: format!("r{i}").as_bytes(),
            seq: read.as_bytes(),
            qual: None,
        });
    }
    reads
}

/// Asserts that the GPU k-mismatch searcher of `prefix` gives exactly the CPU searcher's
/// positions (per read and strand, in order) for `reads`, K = 1..3, with the default work
/// queues and with small ones (steps in chunks, batches in parts), and positions capped
/// per pass; returns the hits compared.
fn check_mismatch_search(
    gpu: &Gpu,
    prefix: &Path,
    reads: &[galign::io::ReadRecord],
    what: &str,
) -> usize {
    use galign::gpu::map::GpuSearcher;
    use galign::search::{BatchSearcher, CpuSearcher};
    let index = galign::index::Index::open(prefix).unwrap();
    let bi = index.bidirectional();
    let mut compared = 0;
    for k in 1..=3u8 {
        let want = CpuSearcher::new(&bi, k).search_batch(reads).unwrap();
        let mut searcher = GpuSearcher::with_mismatches(gpu, &bi, k).unwrap();
        for (queue_bytes, max_positions) in [(None, u64::MAX), (Some(1 << 20), 1000)] {
            if let Some(bytes) = queue_bytes {
                searcher.set_queue_bytes(bytes);
            }
            searcher.set_max_positions(max_positions);
            let start = Instant::now();
            let got = searcher.search_batch(reads).unwrap();
            let seconds = start.elapsed().as_secs_f64();
            let mut hits = 0;
            for (i, read) in reads.iter().enumerate() {
                for strand in 0..2 {
                    let g: Vec<u64> = got.strand(i, strand).iter().collect();
                    let w: Vec<u64> = want.strand(i, strand).iter().collect();
                    assert!(
                        g == w,
                        "{what}, -v {k}, queues {queue_bytes:?}: read {i} ({}) strand {strand}: GPU {g:?}, CPU {w:?}",
                        String::from_utf8_lossy(read.seq)
                    );
                    hits += w.len();
                }
            }
            eprintln!(
                "{what}: -v {k}, queues {queue_bytes:?}: {} reads, {hits} positions equal the CPU's ({seconds:.3} s)",
                reads.len()
            );
            compared += hits;
        }
    }
    compared
}

/// The GPU k-mismatch search (K = 1..3) locates exactly the CPU's positions: on the nasty
/// reference of the mapping tests (contig boundaries, N runs, IUPAC, homopolymers,
/// repeats, a one-base contig) and on a random text with repeats, indexed with 32-bit and
/// with 64-bit positions, for reads of 1 to 151 bases (shorter than the scheme's pieces
/// included), with planted mismatches and N.
#[test]
fn gpu_mismatch_search_matches_cpu_search() {
    let Some(gpu) = gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(23);
    let nasty = nasty_contigs(&mut rng);
    let mut random = vec![
        ("random".to_string(), rng.bases(200_000)),
        ("period7".to_string(), "ACGTTGC".repeat(3000)),
        ("polyA".to_string(), "A".repeat(5000)),
    ];
    random.push(("copy".to_string(), random[0].1[1000..21000].to_string()));
    let mut compared = 0;
    for (name, contigs, rate) in [("nasty", &nasty, 3), ("random", &random, 16)] {
        let text: String = contigs
            .iter()
            .map(|(_, s)| s.to_ascii_uppercase())
            .collect();
        let reads = planted_reads(&text, 3000, &mut rng);
        for width in [Width::U32, Width::U64] {
            let name = format!("{name}-{width:?}");
            let prefix = build_index(dir.path(), &name, contigs, rate, width);
            compared += check_mismatch_search(&gpu, &prefix, &reads.records(), &name);
        }
    }
    assert!(compared > 20_000, "{compared} positions compared");
}

/// The GPU k-mismatch search locates exactly the CPU's positions for real reads: E. coli
/// and HG002 chr20 (the shared data), where present.
#[test]
fn gpu_mismatch_search_matches_cpu_on_real_reads() {
    let Some(gpu) = gpu() else { return };
    let (_, shared) = data_dirs();
    let dir = tempfile::tempdir().unwrap();
    let sets = [
        (
            "E. coli",
            "ecoli_K12_MG1655.fa.gz",
            "ecoli_MG1655_first10kb_EAS20_R1.fq.gz",
        ),
        (
            "HG002 chr20",
            "human_GRCh37_chr20.fa.gz",
            "HG002_chr20_10.0-10.1Mb_148bp.fq.gz",
        ),
    ];
    let mut compared = 0;
    for (i, (name, reference, reads)) in sets.into_iter().enumerate() {
        let (Some(fasta), Some(fastq)) = (
            find_data(&shared, &format!("ref/{reference}")),
            find_data(&shared, &format!("reads/{reads}")),
        ) else {
            eprintln!("{name}: data not present, skipped");
            continue;
        };
        let prefix = dir.path().join(format!("real{i}"));
        let build = build_options(16, DeviceChoice::Auto);
        galign::index::build_index(&fasta, &prefix, build, &Reporter::quiet()).unwrap();
        let mut reader = galign::io::BatchReader::open(&ReadSource::Single(fastq), 1).unwrap();
        let mut reads = galign::io::ReadBatch::default();
        reader.fill_batch(1 << 22, &mut reads).unwrap();
        compared += check_mismatch_search(&gpu, &prefix, &reads.records(), name);
    }
    assert!(compared > 0, "no read set found");
}

/// `GALIGN_CHECK_INDEX=PREFIX` (run by the GPU checks on genome-scale indexes, where no
/// second build fits the time): checks the index `PREFIX.galign` on a sample of its
/// suffix array, independently of how it was built. The sampled positions are every
/// multiple of the rate up to n once, in increasing suffix order (each pair of
/// neighbours compared base by base); each sampled row's BWT symbol is the base before
/// its suffix; and for a million sampled rows, LF leads to a row that locates to the
/// position before (the Occ and C of the whole walk).
#[test]
#[ignore]
fn check_index_on_a_sample() {
    use rayon::prelude::*;
    let Ok(prefix) = std::env::var("GALIGN_CHECK_INDEX") else {
        panic!("set GALIGN_CHECK_INDEX to an index prefix");
    };
    let t = Instant::now();
    let index = galign::index::Index::open(Path::new(&prefix)).unwrap();
    let (fm, text) = (index.fm(), index.text());
    let (n, rate) = (text.len(), fm.sampled.rate as usize);
    let positions = fm.sampled.positions;
    let count = positions.len();
    assert_eq!(count, n / rate + 1, "sampled positions");
    let mut seen = vec![false; count];
    for i in 0..count {
        let p = positions.get(i) as usize;
        assert!(
            p.is_multiple_of(rate) && p <= n && !seen[p / rate],
            "sampled position {p}"
        );
        seen[p / rate] = true;
    }
    let misordered = (1..count)
        .into_par_iter()
        .filter(|&i| !suffix_less(&text, positions.get(i - 1), positions.get(i)))
        .count();
    assert_eq!(misordered, 0, "sampled suffixes out of order");
    let wrong_bwt = (0..=n as u64)
        .into_par_iter()
        .filter(|&row| match fm.sampled.get(row) {
            Some(0) => row != fm.occ.primary(),
            Some(p) => fm.occ.symbol(row) != text.get(p as usize - 1),
            None => false,
        })
        .count();
    assert_eq!(wrong_bwt, 0, "BWT symbols of sampled rows");
    let stride = (n as u64 / 32_000_000).max(1);
    let (walked, wrong_lf) = (0..=n as u64 / stride)
        .into_par_iter()
        .map(|j| j * stride)
        .filter_map(|row| fm.sampled.get(row).filter(|&p| p > 0).map(|p| (row, p)))
        .map(|(row, p)| (1, (fm.locate(fm.lf(row)) != p - 1) as usize))
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    assert_eq!(wrong_lf, 0, "LF of sampled rows (of {walked})");
    println!(
        "CHECKINDEX {prefix}: n = {n}, {count} sampled suffixes in order, BWT of sampled rows right, LF of {walked} right ({:.1} s)",
        t.elapsed().as_secs_f64()
    );
}

/// Whether the suffix of `text` at `a` sorts before the one at `b` (a suffix that is a
/// prefix of the other is the smaller), compared 32 bases at a time.
fn suffix_less(text: &PackedText, a: u64, b: u64) -> bool {
    let (n, mut a, mut b) = (text.len(), a as usize, b as usize);
    loop {
        let (la, lb) = (n - a, n - b);
        let step = la.min(lb).min(32);
        if step > 0 {
            let shift = 64 - 2 * step as u32;
            let (ka, kb) = (text.key64(a) >> shift, text.key64(b) >> shift);
            if ka != kb {
                return ka < kb;
            }
        }
        if step < 32 {
            return la < lb;
        }
        (a, b) = (a + 32, b + 32);
    }
}

/// Whether the SAM `sam` has more than `least` mapped records.
fn maps_more_than(sam: &[u8], least: usize) -> bool {
    let mapped = String::from_utf8_lossy(sam)
        .lines()
        .filter(|l| !l.starts_with('@'))
        .filter(|l| l.split('\t').nth(1).unwrap().parse::<u16>().unwrap() & 4 == 0)
        .count();
    mapped > least
}

/// `map --device gpu` on an index of 64-bit positions (forced on a small reference)
/// writes the SAM of `--device cpu` on it and of both devices on the 32-bit index, byte
/// for byte: the nasty reference with planted reads and E. coli with its paired reads
/// (where present), exact and `-v 1` to `-v 3`, default reporting and `-a`, batches in
/// one pass and in several.
#[test]
fn gpu_map_on_a_u64_index_gives_the_sam_of_the_u32_index() {
    let Some(gpu) = gpu() else { return };
    drop(gpu);
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(41);
    let nasty = nasty_contigs(&mut rng);
    let nasty_fasta = dir.path().join("nasty.fa");
    write_fasta(&nasty, &nasty_fasta);
    let text: String = nasty.iter().map(|(_, s)| s.to_ascii_uppercase()).collect();
    let planted: Vec<(String, String)> = planted_reads(&text, 1000, &mut rng)
        .records()
        .iter()
        .filter(|r| !r.seq.is_empty())
        .map(|r| {
            let name = String::from_utf8(r.name.to_vec()).unwrap();
            (name, String::from_utf8(r.seq.to_vec()).unwrap())
        })
        .collect();
    let nasty_reads = dir.path().join("nasty.fq");
    common::write_fastq(&planted, &nasty_reads);
    let (_, shared) = data_dirs();
    let ecoli = (
        find_data(&shared, "ref/ecoli_K12_MG1655.fa.gz"),
        find_data(&shared, "reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz"),
        find_data(&shared, "reads/ecoli_MG1655_first10kb_EAS20_R2.fq.gz"),
    );
    let mut sets = vec![("nasty", nasty_fasta, ReadSource::Single(nasty_reads), 3)];
    match ecoli {
        (Some(fasta), Some(r1), Some(r2)) => {
            sets.push(("E. coli", fasta, ReadSource::Paired(r1, r2), 16))
        }
        _ => eprintln!("E. coli: data not present, skipped"),
    }
    for (i, (name, fasta, source, rate)) in sets.into_iter().enumerate() {
        let narrow = dir.path().join(format!("u32-{i}"));
        let wide = dir.path().join(format!("u64-{i}"));
        build_index_of(&fasta, &narrow, rate, Width::U32);
        build_index_of(&fasta, &wide, rate, Width::U64);
        let width = |prefix: &Path| galign::index::Index::open(prefix).unwrap().width();
        assert_eq!((width(&narrow), width(&wide)), (Width::U32, Width::U64));
        for (k, all_hits) in (0..=3).flat_map(|k| [(k, false), (k, true)]) {
            let out = |tag: &str| dir.path().join(format!("{i}-{tag}.sam"));
            let map = |prefix: &Path, device, batch, tag: &str| {
                map_bytes(prefix, &source, all_hits, k, device, batch, out(tag))
            };
            let want = map(&narrow, DeviceChoice::Cpu, 65536, "c32");
            assert!(maps_more_than(&want, 100), "{name} -v {k}: too few mapped");
            let what = format!("{name} (-v {k}, -a {all_hits})");
            assert!(
                map(&narrow, DeviceChoice::Gpu, 65536, "g32") == want,
                "{what}: GPU on the u32 index differs from the CPU"
            );
            assert!(
                map(&wide, DeviceChoice::Cpu, 65536, "c64") == want,
                "{what}: CPU on the u64 index differs from the u32 index"
            );
            for batch in [65536, 777] {
                assert!(
                    map(&wide, DeviceChoice::Gpu, batch, "g64") == want,
                    "{what}, batch {batch}: GPU on the u64 index differs from the CPU"
                );
            }
            eprintln!("{what}: {} bytes of SAM identical", want.len());
        }
    }
}

/// `map`'s SAM of single-end reads on the GPU equals the CPU's on the nasty reference:
/// reads cut from every contig on both strands, lower-cased, with an N, across contig
/// ends, empty, with qualities below `!`, as FASTQ (read through a memory map) and as
/// FASTA (no qualities); `-a` and not; one batch and batches of 7.
#[test]
fn gpu_map_sam_of_nasty_single_reads_equals_cpu() {
    let Some(gpu) = gpu() else { return };
    drop(gpu);
    let mut rng = Rng(5);
    let contigs = nasty_contigs(&mut rng);
    let whole: String = contigs.iter().map(|(_, s)| s.as_str()).collect();
    let mut reads = Vec::new();
    for i in 0..400 {
        let len = 1 + (rng.next() % 60) as usize;
        let start = (rng.next() as usize) % whole.len().saturating_sub(len).max(1);
        let cut = &whole[start..(start + len).min(whole.len())];
        let mut seq = match i % 4 {
            0 => cut.to_string(),
            1 => revcomp(cut),
            2 => cut.to_lowercase(),
            _ => format!("{}N{}", &cut[..cut.len() / 2], &cut[cut.len() / 2..]),
        };
        if i % 50 == 0 {
            seq.clear();
        }
        // Any quality SAM can hold ('!' to '~'): others are refused since issue 61.
        let qual: Vec<u8> = (0..seq.len())
            .map(|_| b'!' + (rng.next() % 94) as u8)
            .collect();
        reads.push((format!("r{i}"), seq, qual));
    }
    let dir = tempfile::tempdir().unwrap();
    let fasta = dir.path().join("ref.fa");
    write_fasta(&contigs, &fasta);
    let prefix = dir.path().join("ref");
    galign::index::build_index(
        &fasta,
        &prefix,
        build_options(4, DeviceChoice::Cpu),
        &Reporter::quiet(),
    )
    .unwrap();
    let mut fastq = Vec::new();
    let mut fasta_reads = Vec::new();
    for (name, seq, qual) in &reads {
        fastq.extend_from_slice(format!("@{name}\n{seq}\n+\n").as_bytes());
        fastq.extend_from_slice(qual);
        fastq.push(b'\n');
        fasta_reads.extend_from_slice(format!(">{name}\n{seq}\n").as_bytes());
    }
    let (fq, fa) = (dir.path().join("reads.fq"), dir.path().join("reads.fa"));
    std::fs::write(&fq, fastq).unwrap();
    std::fs::write(&fa, fasta_reads).unwrap();
    for input in [fq, fa] {
        let source = ReadSource::Single(input.clone());
        for all_hits in [false, true] {
            let out = |tag: &str| dir.path().join(format!("{tag}.sam"));
            let what = format!("{input:?} -a {all_hits}");
            let cpu = gpu_map_equals_cpu(&prefix, &source, (all_hits, 0), &[65536, 7], out, &what);
            assert!(maps_more_than(&cpu, 100), "{input:?}: reads map");
        }
    }
}

/// The SMEMs of reads on the GPU (`galign::gpu::seed`) equal the CPU's (bwa's walk, in
/// src/seed/smem.rs), read by read, where the device did not leave the read to the CPU,
/// and the device's locate of every row equals bwa's `bwt_sa` on the CPU: over bwa's
/// index (written by `galign index --format bwa`) of references with repeats, short
/// periods, an all-`A` contig, N runs and contig boundaries; reads of 1 to 1,000 bases
/// from either strand, mutated, with N runs, all-`A`, across boundaries, and with bwa
/// fastmap's `-i`/`-I` cut-offs. All-`A` reads against the all-`A` contig must overflow
/// the device's lists (the CPU takes them), so that path is seen too.
#[test]
fn gpu_smems_match_cpu() {
    use galign::fmd::BwaIndex;
    use galign::gpu::seed::DeviceBwaIndex;
    use galign::seed::{nt4, Smem, SmemConfig, SmemFinder};
    let Some(gpu) = gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(7);
    let mut contigs = nasty_contigs(&mut rng);
    let unit = rng.bases(400);
    contigs.push((
        "repeats".into(),
        format!("{}{}{}{}", unit, rng.bases(3000), unit, unit),
    ));
    contigs.push(("period3".into(), "ACG".repeat(700)));
    contigs.push(("allA".into(), "A".repeat(2000)));
    contigs.push(("random".into(), rng.bases(60_000)));
    let fasta = dir.path().join("ref.fa");
    write_fasta(&contigs, &fasta);
    let prefix = dir.path().join("bwa");
    let status = std::process::Command::new(galign_binary())
        .args(["index", "--format", "bwa", "--device", "cpu", "-p"])
        .arg(&prefix)
        .arg(&fasta)
        .status()
        .unwrap();
    assert!(status.success());
    let index = BwaIndex::load(&prefix).unwrap();
    let device = DeviceBwaIndex::upload(&gpu, &index).unwrap();
    let all: String = contigs
        .iter()
        .map(|(_, s)| s.as_str())
        .collect::<Vec<_>>()
        .join("");
    let mut reads: Vec<Vec<u8>> = Vec::new();
    for i in 0..6000usize {
        let len = [1, 2, 17, 19, 36, 100, 148, 150, 151, 250, 1000][i % 11].min(all.len());
        let start = (rng.next() as usize) % (all.len() - len + 1);
        let mut seq = all.as_bytes()[start..start + len].to_vec();
        match i % 6 {
            0 => seq = revcomp(std::str::from_utf8(&seq).unwrap()).into_bytes(),
            1 => {
                for _ in 0..1 + len / 30 {
                    let at = (rng.next() as usize) % len;
                    seq[at] = b"ACGTN"[(rng.next() % 5) as usize];
                }
            }
            2 => seq.make_ascii_lowercase(),
            _ => {}
        }
        reads.push(seq);
    }
    reads.push(b"A".repeat(150));
    reads.push(b"A".repeat(1000));
    reads.push(Vec::new());
    reads.push(b"NNNNNACGTNNNN".to_vec());
    let seqs: Vec<&[u8]> = reads.iter().map(|r| r.as_slice()).collect();
    for (min_intv, max_intv, min_len) in [(1, 0, 17), (5, 0, 17), (1, 20, 17), (1, 0, 0)] {
        let config = SmemConfig { min_intv, max_intv };
        let max_hits = 20;
        let found = device
            .smems(&seqs, (min_intv, max_intv), min_len, max_hits)
            .unwrap();
        let mut finder = SmemFinder::new(config);
        let (mut on_gpu, mut rows) = (0, Vec::new());
        for (i, seq) in seqs.iter().enumerate() {
            let codes: Vec<u8> = seq.iter().map(|&b| nt4(b)).collect();
            let mut want: Vec<Smem> = Vec::new();
            finder.smems(&index.bwt, &codes, &mut want);
            want.retain(|m| (m.end - m.begin) as u32 >= min_len);
            rows.extend(
                want.iter()
                    .flat_map(|m| m.interval.k..m.interval.k + m.interval.size.min(50)),
            );
            let Some((got, positions)) = found.of(i) else {
                continue;
            };
            on_gpu += 1;
            let got: Vec<(usize, usize, u64, u64, u64)> =
                got.map(|m| (m.begin, m.end, m.k, m.l, m.size)).collect();
            // the positions of the rows of the SMEMs listed (at most -w hits), in order
            let listed: Vec<u64> = want
                .iter()
                .filter(|m| m.interval.size <= max_hits)
                .flat_map(|m| m.interval.k..m.interval.k + m.interval.size)
                .map(|r| index.sa.locate(&index.bwt, r))
                .collect();
            let want: Vec<(usize, usize, u64, u64, u64)> = want
                .iter()
                .map(|m| (m.begin, m.end, m.interval.k, m.interval.l, m.interval.size))
                .collect();
            assert_eq!(
                got,
                want,
                "read {i} ({} bases), -i {min_intv} -I {max_intv} -l {min_len}",
                seq.len()
            );
            assert_eq!(
                &positions[..listed.len()],
                &listed[..],
                "read {i}: the positions of its listed rows"
            );
        }
        assert!(
            found.left_to_cpu() >= 1,
            "the all-A reads overflow the device's lists"
        );
        if min_len > 0 {
            assert!(
                on_gpu > seqs.len() * 9 / 10,
                "{on_gpu} of {} reads on the GPU",
                seqs.len()
            );
        }
        let want: Vec<u64> = rows
            .iter()
            .map(|&r| index.sa.locate(&index.bwt, r))
            .collect();
        device.locate(&mut rows).unwrap();
        assert_eq!(rows, want, "located rows");
    }
}
