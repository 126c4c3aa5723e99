//! galign's FASTQ reader (`BatchReader`: blocks read on a thread of their own, records
//! located in parallel by `src/io/fastq.rs`) against needletail's FASTQ reader (the
//! crate galign already keeps, for FASTA reads) on the same file, each turning every
//! record into a read of a `ReadBatch` with the same checks (read name, qualities): the
//! comparison behind the FASTQ parser's row of BENCHMARKS.md, "Hand-written components".
//!
//! `cargo run --release --example fastq_vs_needletail -- reads.fq [galign|needletail] [ROUNDS]`
//! prints, for each round, the reads, a checksum of names, bases and qualities (equal for
//! both parsers) and the seconds taken; `-t` as galign's threads is `RAYON_NUM_THREADS`.

use std::path::PathBuf;
use std::time::Instant;

use galign::io::names::{bad_quality, read_name_problem};
use galign::io::{BatchReader, ReadBatch, ReadRecord, ReadSource};

/// Reads a batch holds, as `galign map`'s default batch.
const BATCH: usize = 1 << 18;

/// A checksum of a read: its name, bases and qualities, position-weighted.
fn digest(read: &ReadRecord<'_>) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for byte in read
        .name
        .iter()
        .chain(read.seq)
        .chain(read.qual.unwrap_or(&[]))
    {
        h = (h ^ u64::from(*byte)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// Every read of `path` through galign's reader: (reads, checksum).
fn with_galign(path: &PathBuf) -> (u64, u64) {
    let source = ReadSource::Single(path.clone());
    let mut reader = BatchReader::open(&source, 1).expect("opens");
    let mut batch = ReadBatch::default();
    let (mut reads, mut sum) = (0u64, 0u64);
    loop {
        reader.fill_batch(BATCH, &mut batch).expect("parses");
        if batch.is_empty() {
            return (reads, sum);
        }
        reads += batch.len() as u64;
        for read in batch.records() {
            sum = sum.wrapping_add(digest(&read));
        }
    }
}

/// The read name of a header as galign takes it: the first word, `/1` or `/2` removed.
fn read_name(id: &[u8]) -> &[u8] {
    let end = id
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(id.len());
    match &id[..end] {
        [head @ .., b'/', b'1' | b'2'] => head,
        name => name,
    }
}

/// Every read of `path` through needletail, copied into batches as galign's reader
/// fills them: (reads, checksum).
fn with_needletail(path: &PathBuf) -> (u64, u64) {
    let mut reader = needletail::parse_fastx_file(path).expect("opens");
    let mut batch = ReadBatch::default();
    let (mut reads, mut sum) = (0u64, 0u64);
    let flush = |batch: &mut ReadBatch, sum: &mut u64| {
        for read in batch.records() {
            *sum = sum.wrapping_add(digest(&read));
        }
        batch.clear();
    };
    while let Some(record) = reader.next() {
        let record = record.expect("parses");
        let name = read_name(record.id());
        let qual = record.qual();
        assert!(read_name_problem(name).is_none() && qual.and_then(bad_quality).is_none());
        let seq = record.seq();
        batch.push(ReadRecord {
            name,
            seq: &seq,
            qual,
        });
        reads += 1;
        if batch.len() == BATCH {
            flush(&mut batch, &mut sum);
        }
    }
    flush(&mut batch, &mut sum);
    (reads, sum)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = PathBuf::from(
        args.get(1)
            .expect("usage: reads.fq [galign|needletail] [ROUNDS]"),
    );
    let which = args.get(2).map_or("galign", String::as_str);
    let rounds: usize = args
        .get(3)
        .map_or(1, |r| r.parse().expect("a number of rounds"));
    for _ in 0..rounds {
        let start = Instant::now();
        let (reads, sum) = match which {
            "needletail" => with_needletail(&path),
            _ => with_galign(&path),
        };
        let secs = start.elapsed().as_secs_f64();
        println!("{which}\treads {reads}\tchecksum {sum:016x}\t{secs:.3} s");
    }
}
