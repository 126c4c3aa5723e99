//! FASTA ingest: the input opened by [`crate::io`] (a path, `-` or a pipe; plain, gzip,
//! BGZF, bzip2, zstd or xz, decompressed on a thread of its own), parsed by needletail,
//! wrapped or not.
//!
//! Soft-masked (lowercase) bases are upper-cased. N and the IUPAC ambiguity codes are
//! replaced by pseudo-random bases (a fixed-seed hash of the position; bwa uses a seeded
//! generator to the same end), so the text stays a 4-letter one, and each maximal run of
//! them is recorded so that no hit over it is ever reported. Conversion and packing run
//! in parallel.

use std::collections::HashMap;
use std::path::Path;

use needletail::errors::ParseErrorKind;
use rayon::prelude::*;

use crate::io::{self, InputError, Role};

use super::layout::{AmbiguousRun, Contig, Layout};
use super::{PackedText, Reference};
use crate::alphabet::BASES;

/// Why a FASTA file could not be turned into a reference. Every variant names the file
/// and, where there is one, the contig and 1-based position.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    /// The input cannot be opened or read, is empty, or is no FASTA at all.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The file could not be read.
    #[error("{path}: {msg}")]
    Io { path: String, msg: String },
    /// needletail rejected the file's structure.
    #[error("{path}: malformed FASTA: {msg}")]
    Malformed { path: String, msg: String },
    /// The file holds no record at all.
    #[error("{path}: the file is empty (no FASTA record)")]
    Empty { path: String },
    /// A FASTQ file was given where FASTA was expected.
    #[error("{path}: expected FASTA ('>' headers) but the file is FASTQ")]
    NotFasta { path: String },
    /// A header line with no name.
    #[error("{path}: record {record} has an empty name")]
    EmptyName { path: String, record: usize },
    /// A record without any base.
    #[error("{path}: contig '{name}' (record {record}) has no sequence")]
    EmptySequence {
        path: String,
        name: String,
        record: usize,
    },
    /// Two records share a name.
    #[error("{path}: contig name '{name}' is used by record {first} and again by record {second}")]
    DuplicateName {
        path: String,
        name: String,
        first: usize,
        second: usize,
    },
    /// A character that is neither a base nor an IUPAC ambiguity code.
    #[error("{path}: contig '{name}', position {position}: '{found}' is not a nucleotide (expected A, C, G, T or an IUPAC code)")]
    BadCharacter {
        path: String,
        name: String,
        position: u64,
        found: String,
    },
}

/// Seed of the generator that replaces ambiguity codes (bwa uses 11 as well).
const AMBIGUITY_SEED: u64 = 11;

/// What a FASTA byte means.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Base(u8),
    Ambiguous,
    Invalid,
}

fn class_table() -> [Class; 256] {
    let mut t = [Class::Invalid; 256];
    for (code, &b) in BASES.iter().enumerate() {
        t[b as usize] = Class::Base(code as u8);
        t[b.to_ascii_lowercase() as usize] = Class::Base(code as u8);
    }
    t[b'U' as usize] = Class::Base(3);
    t[b'u' as usize] = Class::Base(3);
    for &b in b"NRYSWKMBDHV" {
        t[b as usize] = Class::Ambiguous;
        t[b.to_ascii_lowercase() as usize] = Class::Ambiguous;
    }
    t
}

/// Reads a FASTA file (`-` for stdin) into a [`Reference`].
pub fn read_fasta(path: &Path) -> Result<Reference, ReferenceError> {
    let opened = io::open(path, Role::Reference)?;
    let shown = opened.name.clone();
    // The file's size, when it has one, bounds the bases (a compressed one's is a start).
    let capacity = opened.size_hint.unwrap_or(0) as usize;
    let mut reader =
        needletail::parse_fastx_reader(opened.into_reader()).map_err(|e| parse_error(&shown, e))?;

    let classes = class_table();
    // 2-bit codes, AMBIGUOUS for ambiguity codes; packed in parallel at the end.
    let mut codes: Vec<u8> = Vec::with_capacity(capacity);
    let mut layout = Layout::default();
    let mut names: HashMap<String, usize> = HashMap::new();

    while let Some(record) = reader.next() {
        let record = record.map_err(|e| parse_error(&shown, e))?;
        let number = layout.contigs.len() + 1;
        if record.format() != needletail::parser::Format::Fasta {
            return Err(ReferenceError::NotFasta { path: shown });
        }
        let header = String::from_utf8_lossy(record.id()).into_owned();
        let header = header.trim();
        let (name, description) = match header.split_once(char::is_whitespace) {
            Some((n, d)) => (n.to_string(), d.trim().to_string()),
            None => (header.to_string(), String::new()),
        };
        if name.is_empty() {
            return Err(ReferenceError::EmptyName {
                path: shown,
                record: number,
            });
        }
        if let Some(&first) = names.get(&name) {
            return Err(ReferenceError::DuplicateName {
                path: shown,
                name,
                first,
                second: number,
            });
        }
        let seq = record.seq();
        if seq.is_empty() {
            return Err(ReferenceError::EmptySequence {
                path: shown,
                name,
                record: number,
            });
        }
        let offset = codes.len();
        codes.resize(offset + seq.len(), 0);
        if let Some(i) = classify(&seq, &mut codes[offset..], &classes) {
            return Err(ReferenceError::BadCharacter {
                path: shown,
                name,
                position: i as u64 + 1,
                found: (seq[i] as char).escape_default().to_string(),
            });
        }
        layout
            .ambiguous
            .extend(ambiguous_runs(&codes[offset..], offset as u64));
        names.insert(name.clone(), number);
        layout.contigs.push(Contig {
            name,
            description,
            offset: offset as u64,
            len: seq.len() as u64,
        });
    }
    if layout.contigs.is_empty() {
        return Err(ReferenceError::Empty { path: shown });
    }
    Ok(Reference {
        layout,
        text: pack(&codes),
    })
}

/// The error for what needletail reports on the input shown as `shown`: a read
/// (or decompression) error, no record, or a malformed one.
fn parse_error(shown: &str, e: needletail::errors::ParseError) -> ReferenceError {
    let path = shown.to_string();
    match e.kind {
        ParseErrorKind::EmptyFile => ReferenceError::Empty { path },
        ParseErrorKind::Io => ReferenceError::Io {
            path,
            msg: format!("cannot read: {}", e.msg),
        },
        _ => ReferenceError::Malformed {
            path,
            msg: e.to_string(),
        },
    }
}

/// Chunk of bases converted by one task.
const CHUNK: usize = 1 << 20;
/// The code of an ambiguity character before replacement.
const AMBIGUOUS: u8 = 4;
/// The code of a character that is no nucleotide.
const INVALID: u8 = 5;

/// Converts `seq` to codes in `out` (in parallel); the index of the first character
/// that is not a nucleotide, if any.
fn classify(seq: &[u8], out: &mut [u8], classes: &[Class; 256]) -> Option<usize> {
    out.par_chunks_mut(CHUNK)
        .zip(seq.par_chunks(CHUNK))
        .enumerate()
        .filter_map(|(c, (out, seq))| {
            let mut bad = None;
            for (i, (o, &b)) in out.iter_mut().zip(seq).enumerate() {
                *o = match classes[b as usize] {
                    Class::Base(code) => code,
                    Class::Ambiguous => AMBIGUOUS,
                    Class::Invalid => {
                        bad.get_or_insert(c * CHUNK + i);
                        INVALID
                    }
                };
            }
            bad
        })
        .min()
}

/// The maximal runs of ambiguity codes in one contig's codes starting at text `offset`.
fn ambiguous_runs(codes: &[u8], offset: u64) -> Vec<AmbiguousRun> {
    let pieces: Vec<Vec<AmbiguousRun>> = codes
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let mut runs: Vec<AmbiguousRun> = Vec::new();
            for (i, &code) in chunk.iter().enumerate() {
                if code == AMBIGUOUS {
                    let pos = offset + (c * CHUNK + i) as u64;
                    match runs.last_mut() {
                        Some(run) if run.end == pos => run.end += 1,
                        _ => runs.push(AmbiguousRun {
                            start: pos,
                            end: pos + 1,
                        }),
                    }
                }
            }
            runs
        })
        .collect();
    let mut runs: Vec<AmbiguousRun> = Vec::new();
    for run in pieces.into_iter().flatten() {
        match runs.last_mut() {
            Some(last) if last.end == run.start => last.end = run.end,
            _ => runs.push(run),
        }
    }
    runs
}

/// The replacement base of an ambiguity code at text position `pos`: a hash of the
/// position with a fixed seed, so it does not depend on how the work is split.
fn replacement_base(pos: u64) -> u8 {
    let mut z = (pos ^ AMBIGUITY_SEED).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) >> 62) as u8
}

/// Packs codes into a [`PackedText`] in parallel, replacing ambiguity codes.
fn pack(codes: &[u8]) -> PackedText {
    let mut words = vec![0u64; PackedText::word_count(codes.len())];
    words
        .par_iter_mut()
        .zip(codes.par_chunks(32))
        .enumerate()
        .for_each(|(w, (word, chunk))| {
            for (j, &code) in chunk.iter().enumerate() {
                let code = if code == AMBIGUOUS {
                    replacement_base((w * 32 + j) as u64)
                } else {
                    code
                };
                *word |= (code as u64) << (62 - 2 * j);
            }
        });
    PackedText::from_words(words, codes.len())
}
