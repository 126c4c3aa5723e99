//! The fuzz corpus replayed on stable Rust: every input under `tests/fuzz/corpus/TARGET/`
//! (the fuzzer's minimized corpus, seeded from the real data) and
//! `tests/fuzz/regressions/TARGET/` (each input that once crashed, hung or gave an
//! unclear error) goes through the same entry points as the AFL++ harness
//! (`fuzz/src/targets.rs`, included here), and must be accepted or refused with an
//! error that names the input file, without a panic on any thread. Index inputs are
//! built here by `galign index` (committed ones would turn into "old version" errors at
//! the next format version), then broken in the ways a copied or forged file can be.

#[path = "../fuzz/src/targets.rs"]
mod targets;

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, Once};

use common::{galign, run_ok};

/// Panics seen while an input is replayed, on any thread (the input layer reads on
/// threads of its own); a test's own failures elsewhere are not counted.
static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Held by each replay: the count moves for one input at a time.
static ONE_REPLAY_AT_A_TIME: Mutex<()> = Mutex::new(());

thread_local! {
    /// Whether this thread runs a test outside [`replay`] (its panics, the test's own
    /// failures, are not counted in [`PANICS`]).
    static TEST_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks the calling thread as a test's and counts the panics of every other thread.
/// Called first by every test: a test failing beside a replay does not fail it too.
fn count_panics() {
    TEST_THREAD.with(|t| t.set(true));
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !TEST_THREAD.with(|t| t.get()) {
                PANICS.fetch_add(1, Ordering::SeqCst);
            }
            default(info);
        }));
    });
}

/// Runs `target` on `data` (called `what` in failures): no panic, and an error names
/// the input file; nothing but the inputs and finished outputs is left behind.
fn replay(target: &str, what: &str, data: &[u8]) -> Result<(), String> {
    count_panics();
    let dir = tempfile::tempdir().unwrap();
    let _alone = ONE_REPLAY_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let before = PANICS.load(Ordering::SeqCst);
    // This input's panics count on this thread too, while it runs.
    TEST_THREAD.with(|t| t.set(false));
    let result = std::panic::catch_unwind(|| targets::run(target, data, dir.path()));
    TEST_THREAD.with(|t| t.set(true));
    assert!(
        result.is_ok() && PANICS.load(Ordering::SeqCst) == before,
        "{target}: {what} panicked"
    );
    let result = result.unwrap();
    if let (Err(message), Some(name)) = (&result, targets::input_name(target)) {
        let stem = name.split('.').next().unwrap();
        assert!(
            message.contains(stem),
            "{target}: {what}: the error does not name the input: {message}"
        );
    }
    let left = common::files_in(dir.path());
    assert!(
        left.iter().all(|f| !f.contains(".tmp-")),
        "{target}: {what}: a temporary file was left: {left:?}"
    );
    result
}

#[test]
fn every_corpus_and_regression_input_is_read_or_clearly_refused() {
    count_panics();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz");
    let mut replayed = 0;
    for kind in ["corpus", "regressions"] {
        for target in targets::TARGETS {
            let Ok(entries) = std::fs::read_dir(root.join(kind).join(target)) else {
                continue;
            };
            for entry in entries {
                let path = entry.unwrap().path();
                let mut data = std::fs::read(&path).unwrap();
                // Committed index and part inputs stay inputs of this format's loader.
                let version = match target {
                    "index" => Some(galign::index::format::VERSION),
                    "part" => Some(galign::index::parts::PART_FILE.version),
                    _ => None,
                };
                if let (Some(version), true) = (version, data.len() >= 12) {
                    data[8..12].copy_from_slice(&version.to_le_bytes());
                }
                let _ = replay(target, &path.display().to_string(), &data);
                replayed += 1;
            }
        }
    }
    assert!(
        replayed >= 50,
        "only {replayed} inputs found under {}",
        root.display()
    );
}

/// The sections (name, bytes) of an index file.
fn sections(file: &[u8]) -> Vec<(String, Vec<u8>)> {
    let count = u32::from_le_bytes(file[12..16].try_into().unwrap()) as usize;
    (0..count)
        .map(|i| {
            let e = &file[64 + 32 * i..96 + 32 * i];
            let name = String::from_utf8_lossy(&e[..8])
                .trim_end_matches('\0')
                .to_string();
            let off = u64::from_le_bytes(e[8..16].try_into().unwrap()) as usize;
            let len = u64::from_le_bytes(e[16..24].try_into().unwrap()) as usize;
            (name, file[off..off + len].to_vec())
        })
        .collect()
}

/// An index file of `sections` with the header of `like` (checksums are fixed later).
fn container(like: &[u8], sections: &[(String, Vec<u8>)]) -> Vec<u8> {
    let align = |x: usize| x.div_ceil(64) * 64;
    let mut out = like[..64].to_vec();
    out[12..16].copy_from_slice(&(sections.len() as u32).to_le_bytes());
    let mut offset = align(64 + 32 * sections.len());
    let mut body = Vec::new();
    for (name, bytes) in sections {
        let mut entry = [0u8; 32];
        entry[..name.len()].copy_from_slice(name.as_bytes());
        entry[8..16].copy_from_slice(&(offset as u64).to_le_bytes());
        entry[16..24].copy_from_slice(&(bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(&entry);
        body.resize(offset - align(64 + 32 * sections.len()), 0);
        body.extend_from_slice(bytes);
        offset = align(offset + bytes.len());
    }
    out.resize(align(out.len()), 0);
    out.extend_from_slice(&body);
    out.resize(align(out.len()), 0);
    out
}

/// `file` with section `name` replaced by `edit` of it.
fn with_section(file: &[u8], name: &str, edit: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let mut parts = sections(file);
    let part = parts.iter_mut().find(|(n, _)| n == name).unwrap();
    part.1 = edit(&part.1);
    container(file, &parts)
}

/// `file` whose JSON metadata (section `section`) has `key` set to `value` (a JSON value).
fn with_json(file: &[u8], section: &str, key: &str, value: &str) -> Vec<u8> {
    with_section(file, section, |meta| {
        let mut json: serde_json::Value = serde_json::from_slice(meta).unwrap();
        let mut slot = &mut json;
        for part in key.split('.') {
            slot = match part.parse::<usize>() {
                Ok(i) => &mut slot[i],
                Err(_) => &mut slot[part],
            };
        }
        *slot = serde_json::from_str(value).unwrap();
        serde_json::to_vec(&json).unwrap()
    })
}

/// A small index built by `galign index`, as the fuzzer's seeds are.
fn small_index(dir: &Path) -> Vec<u8> {
    let fasta = dir.join("small.fa");
    std::fs::write(
        &fasta,
        ">a first\nACGTACGTTAGCATCGATCGATCGGGCTAACGTTGCA\n>b\nTTTTGGGGCCCCAAAANNNACGTGATTACA\n>c\nG\n",
    )
    .unwrap();
    let prefix = dir.join("small");
    run_ok(
        galign()
            .args(["index", "--device", "cpu", "-p"])
            .arg(&prefix)
            .arg(&fasta),
    );
    std::fs::read(dir.join("small.galign")).unwrap()
}

#[test]
fn indexes_that_are_cut_or_lie_about_their_sizes_are_clearly_refused() {
    count_panics();
    let dir = tempfile::tempdir().unwrap();
    let good = small_index(dir.path());
    replay("index", "the index as built", &good).expect("a good index loads and maps");

    let mut bad: Vec<(String, Vec<u8>)> = Vec::new();
    for len in (0..good.len()).step_by(61).chain([good.len() - 1]) {
        bad.push((format!("cut to {len} bytes"), good[..len].to_vec()));
    }
    // The section table: counts, offsets and lengths that point past the end or overlap.
    let table_lies = [
        (12, u64::from(u32::MAX)),
        (12, 65),
        (64 + 8, 1),
        (64 + 8, u64::MAX - 63),
        (64 + 16, u64::MAX),
        (64 + 16, 1 << 40),
        (96 + 8, 0),
    ];
    for (at, value) in table_lies {
        let mut file = good.clone();
        let width = if at == 12 { 4 } else { 8 };
        file[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
        bad.push((format!("table field at {at} set to {value}"), file));
    }
    // Metadata that passes its checksum but does not fit the sections.
    let meta_lies = [
        ("text_len", "1000000000000"),
        ("text_len", "0"),
        ("k", "40"),
        ("k", "4294967295"),
        ("sample_rate", "0"),
        ("sample_rate", "4294967295"),
        ("primary", "1000000"),
        ("mirror_primary", "18446744073709551615"),
        ("c", "[0, 1, 2, 3, 18446744073709551615]"),
        ("c", "[5, 3, 2, 1, 0]"),
        ("layout.contigs.0.len", "1000000"),
        ("layout.contigs.0.offset", "18446744073709551615"),
        ("layout.ambiguous", "[{\"start\": 5, \"len\": 1000000}]"),
        ("layout.contigs", "[]"),
    ];
    for (key, value) in meta_lies {
        bad.push((
            format!("META {key} = {value}"),
            with_json(&good, "META", key, value),
        ));
    }
    for section in ["SABITS", "SARANK", "SAPOS", "JUMP", "OCC", "MOCC", "TEXT"] {
        bad.push((
            format!("{section} empty"),
            with_section(&good, section, |_| Vec::new()),
        ));
        bad.push((
            format!("{section} one word longer"),
            with_section(&good, section, |s| [s, &[0u8; 8][..]].concat()),
        ));
    }
    bad.push((
        "SARANK past the text".into(),
        with_section(&good, "SARANK", |s| vec![0xff; s.len()]),
    ));
    bad.push((
        "SAPOS past the text".into(),
        with_section(&good, "SAPOS", |s| vec![0xff; s.len()]),
    ));
    bad.push((
        "META not JSON".into(),
        with_section(&good, "META", |_| b"{".to_vec()),
    ));
    for (what, file) in &bad {
        if let Err(message) = replay("index", what, file) {
            assert!(
                message.contains("corrupt")
                    || message.contains("truncated")
                    || message.contains("not a galign"),
                "{what}: {message}"
            );
        }
    }
}

/// Part file `part` of `parts` of the `part` target's reference, built by `galign index
/// --parts`, as the fuzzer's seeds are.
fn reference_part(dir: &Path, parts: u32, part: u32) -> Vec<u8> {
    let fasta = dir.join("reference.fa");
    std::fs::write(&fasta, targets::PART_REFERENCE).unwrap();
    let out = dir.join(format!("{part}_of_{parts}.part"));
    run_ok(
        galign()
            .args(["index", "--device", "cpu", "--parts", &parts.to_string()])
            .args(["--part", &part.to_string(), "-o"])
            .arg(&out)
            .arg(&fasta),
    );
    std::fs::read(out).unwrap()
}

#[test]
fn part_files_that_are_cut_lie_or_hold_foreign_values_are_clearly_refused() {
    count_panics();
    let dir = tempfile::tempdir().unwrap();
    let whole = reference_part(dir.path(), 1, 0);
    replay("part", "the one part, as built", &whole).expect("the part assembles and maps");
    let half = reference_part(dir.path(), 2, 1);
    let message = replay("part", "one part of two", &half).unwrap_err();
    assert!(
        message.contains("part 0 of 2") && message.contains("missing"),
        "{message}"
    );

    let mut bad: Vec<(String, Vec<u8>)> = Vec::new();
    for len in (0..whole.len()).step_by(37).chain([whole.len() - 1]) {
        bad.push((format!("cut to {len} bytes"), whole[..len].to_vec()));
    }
    let meta_lies = [
        ("rows", "0"),
        ("rows", "18446744073709551615"),
        ("first_row", "0"),
        ("first_row", "2"),
        ("primary", "1000"),
        ("primary", "null"),
        ("sampled", "0"),
        ("sample_rate", "0"),
        ("sample_rate", "4294967295"),
        ("k", "0"),
        ("k", "40"),
        ("first_kmer", "18446744073709551615"),
        ("kmers", "0"),
        ("part", "1"),
        ("parts", "0"),
        ("parts", "2"),
        ("reference", "\"x\""),
        ("text", "\"mirror\""),
    ];
    for (key, value) in meta_lies {
        bad.push((
            format!("PART {key} = {value}"),
            with_json(&whole, "PART", key, value),
        ));
    }
    for section in ["ROWS", "SAMPLED", "KMERS"] {
        bad.push((
            format!("{section} empty"),
            with_section(&whole, section, |_| Vec::new()),
        ));
        bad.push((
            format!("{section} all ones"),
            with_section(&whole, section, |s| vec![0xff; s.len()]),
        ));
        bad.push((
            format!("{section} all zeros"),
            with_section(&whole, section, |s| vec![0; s.len()]),
        ));
    }
    for (what, file) in &bad {
        if let Err(message) = replay("part", what, file) {
            assert!(
                ["corrupt", "truncated", "not a galign", "another", "missing"]
                    .iter()
                    .any(|w| message.contains(w)),
                "{what}: {message}"
            );
        }
    }
}
