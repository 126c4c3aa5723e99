//! The reference reader against a plain line-by-line reading of the same FASTA: large
//! inputs that span many of the reader's blocks, with every shape a FASTA file takes
//! (wrapped and unwrapped lines, CRLF, blank lines, lowercase, U, IUPAC codes and N
//! runs, one huge contig, thousands of tiny ones, long headers), in every compression.

use std::io::Write;

use galign::reference::{read_fasta, AmbiguousRun, Reference};

fn lcg(seed: u64) -> impl FnMut() -> u64 {
    let mut x = seed;
    move || {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        x >> 33
    }
}

/// A FASTA file of many shapes, about `bases` bases.
fn many_shapes(bases: usize, seed: u64) -> Vec<u8> {
    let mut rng = lcg(seed);
    let mut out = Vec::new();
    let mut contig = 0;
    let mut written = 0;
    while written < bases {
        let len = match contig % 5 {
            0 => 1 + rng() as usize % 3,     // tiny
            1 => 5_000_000,                  // huge, across many blocks
            2 => 10 + rng() as usize % 2000, // small
            _ => 50_000 + rng() as usize % 200_000,
        };
        let header_len = if contig == 3 { 200_000 } else { 10 };
        out.extend_from_slice(format!(">c{contig} ").as_bytes());
        out.extend(std::iter::repeat_n(b'd', header_len));
        out.extend_from_slice(if contig % 2 == 0 { b"\r\n" } else { b"\n" });
        let width = [60, 80, 1 << 30, 7][contig % 4];
        for i in 0..len {
            let base = match rng() % 100 {
                0..=3 => b"NNNNRYKMSWBDHVn"[rng() as usize % 15],
                4 => b'u',
                5..=20 => b"acgt"[rng() as usize % 4],
                _ => b"ACGT"[rng() as usize % 4],
            };
            out.push(base);
            if (i + 1) % width == 0 || i + 1 == len {
                out.extend_from_slice(if contig % 2 == 0 { b"\r\n" } else { b"\n" });
            }
        }
        if contig % 7 == 0 {
            out.extend_from_slice(b"\n\n"); // blank lines
        }
        written += len;
        contig += 1;
    }
    out
}

/// The contigs (name, bases upper-cased, U as T) and ambiguous runs of `fasta`, read
/// line by line.
fn plain_reading(fasta: &[u8]) -> (Vec<(String, Vec<u8>)>, Vec<AmbiguousRun>) {
    let mut contigs: Vec<(String, Vec<u8>)> = Vec::new();
    for line in fasta.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match line.strip_prefix(b">") {
            Some(h) => {
                let h = String::from_utf8_lossy(h);
                contigs.push((h.split_whitespace().next().unwrap().to_string(), vec![]))
            }
            None => contigs.last_mut().unwrap().1.extend(
                line.iter()
                    .map(|b| b.to_ascii_uppercase())
                    .map(|b| if b == b'U' { b'T' } else { b }),
            ),
        }
    }
    let mut runs: Vec<AmbiguousRun> = Vec::new();
    let mut offset = 0u64;
    for (_, bases) in &contigs {
        for (i, b) in bases.iter().enumerate() {
            let pos = offset + i as u64;
            if !b"ACGT".contains(b) {
                match runs.last_mut() {
                    Some(r) if r.end == pos && i > 0 => r.end += 1,
                    _ => runs.push(AmbiguousRun {
                        start: pos,
                        end: pos + 1,
                    }),
                }
            }
        }
        offset += bases.len() as u64;
    }
    (contigs, runs)
}

fn check(reference: &Reference, fasta: &[u8]) {
    let (contigs, runs) = plain_reading(fasta);
    let layout = &reference.layout;
    assert_eq!(layout.contigs.len(), contigs.len());
    let text = reference.text.to_ascii();
    for (got, (name, bases)) in layout.contigs.iter().zip(&contigs) {
        assert_eq!(&got.name, name);
        assert_eq!(got.len as usize, bases.len(), "{name}");
        let placed = &text[got.offset as usize..(got.offset + got.len) as usize];
        for (i, (&t, &b)) in placed.iter().zip(bases).enumerate() {
            assert!(t == b || !b"ACGT".contains(&b), "{name}:{i}: {t} for {b}");
        }
    }
    assert_eq!(layout.ambiguous, runs);
}

fn read(bytes: &[u8], name: &str) -> Reference {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    read_fasta(&path).unwrap()
}

#[test]
fn large_fasta_of_every_shape_reads_as_line_by_line_in_every_compression() {
    let fasta = many_shapes(14_000_000, 7);
    let plain = read(&fasta, "ref.fa");
    check(&plain, &fasta);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&fasta).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    bz.write_all(&fasta).unwrap();
    let zst = zstd::encode_all(&fasta[..], 1).unwrap();
    let gz = gz.finish().unwrap();
    for (name, bytes) in [
        ("ref.fa.gz", gz.clone()),
        ("ref.fa.bz2", bz.finish().unwrap()),
        ("ref.fa.zst", zst),
    ] {
        let other = read(&bytes, name);
        assert_eq!(other.layout, plain.layout, "{name}");
        assert!(other.text == plain.text, "{name}");
    }
    // On 4 threads a gzip file is inflated in parallel.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let other = pool.install(|| read(&gz, "ref.fa.gz"));
    assert_eq!(other.layout, plain.layout, "gzip on 4 threads");
    assert!(other.text == plain.text, "gzip on 4 threads");
}
