//! The fuzz targets: each feeds bytes from outside to one of galign's parsers through
//! its public entry point, as `galign` itself does, and checks what comes back.
//!
//! Shared by the AFL++ harness (`fuzz/src/main.rs`) and by the corpus replay test
//! (`tests/fuzz_replay.rs`, which includes this file), so that every committed input is
//! replayed through exactly the code the fuzzer ran. A target returns `Ok` when the
//! input was accepted and `Err(message)` when galign refused it; it panics only when
//! galign broke a promise (a result that differs from the reference parser, a header
//! with an injected line), and galign itself must never panic.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use galign::device::DeviceChoice;
use galign::io::{names, BatchReader, ReadBatch, ReadSource};
use galign::map::MapOptions;
use galign::progress::Reporter;

/// The targets, by name (the AFL++ harness's first argument, a corpus folder's name).
pub const TARGETS: [&str; 8] = [
    "fasta",
    "fastq",
    "fastq_tiled",
    "fastq_paired",
    "compressed_reads",
    "index",
    "part",
    "read_group",
];

/// The reference whose part files the `part` target assembles (its seeds are this
/// reference's parts, made by `fuzz/seeds.sh` and by the replay test).
pub const PART_REFERENCE: &[u8] = include_bytes!("../../tests/fuzz/part_reference.fa");

/// Runs `target` on `data`, writing whatever files it needs into `dir` (empty, owned by
/// the caller). `Err` holds galign's error message.
pub fn run(target: &str, data: &[u8], dir: &Path) -> Result<(), String> {
    match target {
        "fasta" => fasta(data, dir),
        "fastq" => fastq(data, dir),
        "fastq_tiled" => fastq(&tiled(data), dir),
        "fastq_paired" => fastq_paired(data, dir),
        "compressed_reads" => compressed_reads(data, dir),
        "index" => index(data, dir),
        "part" => part(data, dir),
        "read_group" => read_group(data),
        _ => panic!("no fuzz target named {target}"),
    }
}

/// The file name each target's input is written to (errors must name it).
#[allow(dead_code)] // used by the replay test, not the harness
pub fn input_name(target: &str) -> Option<&'static str> {
    match target {
        "fasta" => Some("input.fa"),
        "fastq" | "fastq_tiled" | "fastq_paired" | "compressed_reads" => Some("input.fq"),
        "index" => Some("input.galign"),
        // The part file, and the reference beside it, which some errors name instead.
        "part" => Some("input.part"),
        _ => None,
    }
}

fn write(dir: &Path, name: &str, data: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, data).expect("cannot write the fuzz input");
    path
}

/// A reference FASTA (any compression), as `galign index` and `galign sa` read it.
fn fasta(data: &[u8], dir: &Path) -> Result<(), String> {
    let path = write(dir, "input.fa", data);
    let reference = galign::reference::read_fasta(&path).map_err(|e| e.to_string())?;
    let layout = &reference.layout;
    assert_eq!(layout.text_len(), reference.text.len() as u64);
    assert!(!layout.contigs.is_empty());
    for contig in &layout.contigs {
        let problem = names::contig_name_problem(contig.name.as_bytes());
        assert!(problem.is_none(), "a contig name SAM forbids: {problem:?}");
    }
    Ok(())
}

/// A read's name, bases and qualities, owned.
type Read = (Vec<u8>, Vec<u8>, Option<Vec<u8>>);

/// All reads of `source`, read in small batches as `galign map` reads them.
fn all_reads(source: &ReadSource) -> Result<Vec<Read>, String> {
    // 4 threads: a gzip file goes through the parallel inflater, as `map` to SAM takes it.
    let mut reader = BatchReader::open(source, 4).map_err(|e| e.to_string())?;
    let mut all = Vec::new();
    let mut batch = ReadBatch::default();
    loop {
        reader
            .fill_batch(7, &mut batch)
            .map_err(|e| e.to_string())?;
        if batch.is_empty() {
            return Ok(all);
        }
        all.extend(
            batch
                .records()
                .iter()
                .map(|r| (r.name.to_vec(), r.seq.to_vec(), r.qual.map(<[u8]>::to_vec))),
        );
    }
}

/// The reads needletail's parser finds in plain `data`, named as galign names them;
/// `None` when it refuses the file.
fn needletail_reads(data: &[u8]) -> Option<Vec<Read>> {
    let mut reader = needletail::parse_fastx_reader(Cursor::new(data.to_vec())).ok()?;
    let mut reads = Vec::new();
    while let Some(record) = reader.next() {
        let record = record.ok()?;
        let first_word = record
            .id()
            .split(|b| b.is_ascii_whitespace())
            .next()
            .unwrap_or(b"");
        let name = match first_word {
            [head @ .., b'/', b'1' | b'2'] => head,
            name => name,
        };
        reads.push((
            name.to_vec(),
            record.seq().to_vec(),
            record.qual().map(|q| q.to_vec()),
        ));
    }
    Some(reads)
}

/// Single-end reads: galign's block-parallel FASTQ reader (needletail for FASTA), and for
/// a plain FASTQ file the same reads as needletail's record parser finds, or an error
/// where it refuses the file.
fn fastq(data: &[u8], dir: &Path) -> Result<(), String> {
    let path = write(dir, "input.fq", data);
    let got = all_reads(&ReadSource::Single(path));
    if data.first() == Some(&b'@') {
        let expected = needletail_reads(data);
        match (&got, &expected) {
            (Ok(got), Some(expected)) => assert!(got == expected, "reads differ from needletail's"),
            (Ok(_), None) => panic!("galign accepts a FASTQ file that needletail refuses"),
            // Refused only for a read SAM cannot hold (its name or qualities).
            (Err(e), Some(expected)) => assert!(
                expected.iter().any(|(name, _, qual)| {
                    names::read_name_problem(name).is_some()
                        || qual.as_deref().and_then(names::bad_quality).is_some()
                }),
                "galign refuses a FASTQ file that needletail accepts: {e}"
            ),
            (Err(_), None) => {}
        }
    }
    got.map(|_| ())
}

/// `data` repeated past two of the FASTQ parser's parallel pieces (256 KiB each), so
/// that records are found by the parallel path and the guess of where records start.
fn tiled(data: &[u8]) -> Vec<u8> {
    const LEN: usize = 600 << 10;
    if data.is_empty() {
        return Vec::new();
    }
    data.iter()
        .copied()
        .cycle()
        .take(LEN.max(data.len()))
        .collect()
}

/// Paired reads: the first byte picks interleaved (even) or two files (odd), the second
/// where the rest is cut into the two mates' files.
fn fastq_paired(data: &[u8], dir: &Path) -> Result<(), String> {
    let (mode, cut, rest) = match data {
        [mode, cut, rest @ ..] => (*mode, *cut as usize, rest),
        _ => (0, 0, data),
    };
    let source = if mode % 2 == 0 {
        ReadSource::Interleaved(write(dir, "input.fq", rest))
    } else {
        let at = rest.len() * cut / 256;
        ReadSource::Paired(
            write(dir, "input.fq", &rest[..at]),
            write(dir, "input2.fq", &rest[at..]),
        )
    };
    let reads = all_reads(&source)?;
    assert!(reads.len() % 2 == 0);
    for pair in reads.chunks(2) {
        assert_eq!(pair[0].0, pair[1].0, "mates with different names");
    }
    Ok(())
}

/// Reads in any compression (gzip, BGZF, bzip2, zstd, xz), decompressed by the input
/// layer (BGZF in parallel).
fn compressed_reads(data: &[u8], dir: &Path) -> Result<(), String> {
    let path = write(dir, "input.fq", data);
    all_reads(&ReadSource::Single(path)).map(|_| ())
}

/// Makes every in-bounds section of an index file pass its checksum, so that the
/// fuzzer reaches what lies behind them: the metadata and the sizes it claims.
pub fn fix_checksums(data: &mut [u8]) {
    const HEADER: usize = 64;
    const ENTRY: usize = 32;
    let Some(count) = data.get(12..16) else {
        return;
    };
    let count = u32::from_le_bytes(count.try_into().unwrap()) as usize;
    for i in 0..count.min(64) {
        let at = HEADER + i * ENTRY;
        let Some(entry) = data.get(at..at + ENTRY) else {
            return;
        };
        let word = |r: std::ops::Range<usize>| u64::from_le_bytes(entry[r].try_into().unwrap());
        let (off, len) = (word(8..16), word(16..24));
        let Some(end) = off.checked_add(len).filter(|&end| end <= data.len() as u64) else {
            continue;
        };
        let crc = crc32fast::hash(&data[off as usize..end as usize]);
        data[at + 24..at + 28].copy_from_slice(&crc.to_le_bytes());
    }
}

/// An index file (checksums made to pass): loaded as `galign map` loads it, then a few
/// reads taken from its own text mapped with it, exactly and with mismatches.
fn index(data: &[u8], dir: &Path) -> Result<(), String> {
    let mut data = data.to_vec();
    fix_checksums(&mut data);
    write(dir, "input.galign", &data);
    map_own_text(&dir.join("input"), dir)
}

/// The index at `prefix` loaded as `galign map` loads it, then a few reads taken from its
/// own text mapped with it, exactly and with mismatches.
fn map_own_text(prefix: &Path, dir: &Path) -> Result<(), String> {
    let index = galign::index::Index::open(prefix).map_err(|e| e.to_string())?;
    let text = index.text().to_ascii();
    drop(index);
    let mut reads = String::new();
    for (i, start) in [0, text.len() / 3, text.len() / 2].into_iter().enumerate() {
        let read = &text[start.min(text.len())..(start + 12).min(text.len())];
        let read = if read.is_empty() { &b"ACGT"[..] } else { read };
        let read = String::from_utf8_lossy(read);
        reads += &format!("@r{i}\n{read}\n+\n{}\n", "I".repeat(read.len()));
    }
    let reads = write(dir, "reads.fq", reads.as_bytes());
    for mismatches in [0, 2] {
        let options = MapOptions {
            source: ReadSource::Single(reads.clone()),
            output: Some(dir.join(format!("out{mismatches}.sam"))),
            output_format: None,
            read_outputs: Default::default(),
            stats: None,
            summary_file: None,
            full_command_line: Vec::new(),
            read_group: None,
            max_alternatives: 3,
            all_hits: mismatches > 0,
            proper_bounds: Some(galign::map::insert_size::ProperBounds::fixed(
                None,
                Some(500),
            )),
            max_mismatches: mismatches,
            batch_size: 2,
            threads: 1,
            bam_level: galign::sam::DEFAULT_BAM_LEVEL,
            command_line: "galign-fuzz".into(),
            device: DeviceChoice::Cpu,
        };
        galign::map::map_reads(prefix, &options, &Reporter::quiet())
            .map_err(|e| with_causes(&e))?;
    }
    Ok(())
}

/// A part file of `galign index --parts` (checksums made to pass), assembled alone into
/// the index of [`PART_REFERENCE`] as `galign index --assemble` does. An index it
/// assembles must load and map as any other: assembling must refuse a part that would
/// make an index the loader refuses.
fn part(data: &[u8], dir: &Path) -> Result<(), String> {
    let mut data = data.to_vec();
    fix_checksums(&mut data);
    let part = write(dir, "input.part", &data);
    let fasta = write(dir, "input.fa", PART_REFERENCE);
    let prefix = dir.join("assembled");
    let quiet = Reporter::quiet();
    galign::index::parts::assemble(&fasta, &prefix, &[part], DeviceChoice::Cpu, &quiet)
        .map_err(|e| with_causes(&e))?;
    if let Err(e) = galign::index::Index::open(&prefix) {
        panic!("an index assembled from a part does not load: {e}");
    }
    map_own_text(&prefix, dir)
}

/// A `-R` read-group line: parsed, then put in a SAM header, which must hold exactly one
/// more line than the header without it (no line can be injected).
fn read_group(data: &[u8]) -> Result<(), String> {
    let line = String::from_utf8_lossy(data);
    let group = galign::sam::parse_read_group(&line).map_err(|e| e.to_string())?;
    let layout = galign::reference::Layout::default();
    let lines = |group| {
        let header = galign::sam::build_header(&layout, group, "galign-fuzz");
        header.to_bytes().split(|&b| b == b'\n').count()
    };
    assert_eq!(
        lines(Some(&group)),
        lines(None) + 1,
        "a read group injected a header line"
    );
    Ok(())
}

/// `error` and its causes, each after a colon: "error: cause: cause".
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}
