//! FASTA ingest: the input opened by [`crate::io`] (a path, `-` or a pipe; plain, gzip,
//! BGZF, bzip2, zstd or xz, decompressed on a thread of its own), wrapped or not, split
//! into header lines and sequence as its blocks arrive, the sequence of each block
//! encoded on all cores (`encode`), the records checked in order. Errors name the file
//! and, where there is one, the contig and 1-based position.

use std::collections::HashMap;
use std::path::Path;

use crate::io::{self, FastaPiece, InputError, Role};

use super::encode::{Appended, TextBuilder};
use super::layout::{Contig, Layout};
use super::Reference;

/// Why a FASTA file could not be turned into a reference. Every variant names the file
/// and, where there is one, the contig and 1-based position.
#[derive(Debug, thiserror::Error)]
pub enum ReferenceError {
    /// The input cannot be opened or read, is empty, or is no FASTA at all.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The file could not be read.
    #[error("{path}: {msg}")]
    Io {
        /// The reference's path.
        path: String,
        /// What is wrong, with the line.
        msg: String,
    },
    /// The file's structure is no FASTA.
    #[error("{path}: malformed FASTA: {msg}")]
    Malformed {
        /// The reference's path.
        path: String,
        /// What is wrong, with the line.
        msg: String,
    },
    /// The file holds no record at all.
    #[error("{path}: the file is empty (no FASTA record)")]
    Empty {
        /// The reference's path.
        path: String,
    },
    /// A FASTQ file was given where FASTA was expected.
    #[error("{path}: expected FASTA ('>' headers) but the file is FASTQ")]
    NotFasta {
        /// The reference's path.
        path: String,
    },
    /// A header line with no name.
    #[error("{path}: record {record} (line {line}) has an empty name")]
    EmptyName {
        /// The reference's path.
        path: String,
        /// The record's number, from 1.
        record: usize,
        /// The header's line, from 1.
        line: u64,
    },
    /// A name SAM cannot hold as a reference name.
    #[error("{path}: record {record} (line {line}): {msg}; rename the contig (SAM and BAM could not name it)")]
    BadName {
        /// The reference's path.
        path: String,
        /// The record's number, from 1.
        record: usize,
        /// The header's line, from 1.
        line: u64,
        /// What is wrong with the name.
        msg: String,
    },
    /// A record without any base.
    #[error("{path}: contig '{name}' (record {record}) has no sequence")]
    EmptySequence {
        /// The reference's path.
        path: String,
        /// The contig's name.
        name: String,
        /// The record's number, from 1.
        record: usize,
    },
    /// Two records share a name.
    #[error("{path}: contig name '{name}' is used by record {first} and again by record {second}")]
    DuplicateName {
        /// The reference's path.
        path: String,
        /// The contig's name.
        name: String,
        /// The first record with the name.
        first: usize,
        /// The record that repeats it.
        second: usize,
    },
    /// A character that is neither a base nor an IUPAC ambiguity code.
    #[error("{path}: contig '{name}', position {position} (line {line}): '{found}' is not a nucleotide (expected A, C, G, T or an IUPAC code)")]
    BadCharacter {
        /// The reference's path.
        path: String,
        /// The contig's name.
        name: String,
        /// The base's position in its contig, from 1.
        position: u64,
        /// The line it is on, from 1.
        line: u64,
        /// The character found.
        found: String,
    },
}

/// Bases of sequence encoded by one task.
const TASK: usize = 256 << 10;

/// Reads a FASTA file (`-` for stdin) into a [`Reference`].
///
/// The input's blocks are split into header lines and sequence bytes as they arrive
/// ([`io::FastaSplitter`]); each block's sequence is then counted and encoded in
/// parallel, straight into the packed text ([`TextBuilder`]), and its records are walked
/// in order to check them and lay out the contigs.
pub fn read_fasta(path: &Path) -> Result<Reference, ReferenceError> {
    read_fasta_observed(path, &mut ())
}

/// What a reader of the FASTA sees besides the [`Reference`]: each header line as
/// written (without `>` and the line's `\n`) and each block's sequence slices with the
/// text position of their first base (newlines among them; the slices follow each other
/// in the text). The bwa writer (module `bwa`) keeps bwa's names and holes this way.
pub trait FastaObserver {
    /// The next header line, in file order.
    fn header(&mut self, line: &[u8]);
    /// The sequence slices of one block, `starts[i]` the text position of `slices[i]`'s
    /// first base.
    fn sequence(&mut self, slices: &[&[u8]], starts: &[u64]);
}

/// Observes nothing: [`read_fasta`].
impl FastaObserver for () {
    fn header(&mut self, _: &[u8]) {}
    fn sequence(&mut self, _: &[&[u8]], _: &[u64]) {}
}

/// [`read_fasta`], showing the headers and sequence to `observer` as they are read.
pub fn read_fasta_observed(
    path: &Path,
    observer: &mut dyn FastaObserver,
) -> Result<Reference, ReferenceError> {
    let opened = io::open(path, Role::Reference, rayon::current_num_threads())?;
    let shown = opened.name.clone();
    if opened.format != io::Format::Fasta {
        return Err(ReferenceError::NotFasta { path: shown });
    }
    // The file's size, when it has one, bounds the bases (a compressed one's is a start).
    let capacity = opened.size_hint.unwrap_or(0) as usize;
    let mut text = TextBuilder::with_capacity(capacity);
    let mut records = Records::new(shown.clone());
    let mut splitter = io::FastaSplitter::default();
    let blocks = opened.into_blocks();
    while let Some(block) = blocks.next() {
        let block = block.map_err(|e| ReferenceError::Io {
            path: shown.clone(),
            msg: format!("cannot read: {e}"),
        })?;
        let pieces = splitter.split(&block.data[io::HEADROOM..io::HEADROOM + block.len]);
        encode_pieces(&pieces, &mut text, &mut records, observer)?;
        blocks.recycle(block.data);
    }
    if let Some(header) = splitter.finish() {
        observer.header(&header);
        records.header(&header)?;
    }
    let layout = records.finish()?;
    Ok(Reference {
        layout,
        text: text.into_packed(),
    })
}

/// Encodes one block's pieces into `text` in parallel, shows them to `observer`, then
/// walks them in order with `records`: the first error in stream order is the one
/// reported.
fn encode_pieces(
    pieces: &[FastaPiece<'_>],
    text: &mut TextBuilder,
    records: &mut Records,
    observer: &mut dyn FastaObserver,
) -> Result<(), ReferenceError> {
    let slices: Vec<&[u8]> = pieces
        .iter()
        .flat_map(|piece| match piece {
            FastaPiece::Sequence(bytes) => bytes.chunks(TASK).collect(),
            FastaPiece::Header(_) => Vec::new(),
        })
        .collect();
    let appended = text.append(&slices);
    let starts: Vec<u64> = appended.iter().map(|a| a.start).collect();
    observer.sequence(&slices, &starts);
    let mut appended = appended.into_iter().zip(&slices);
    for piece in pieces {
        match piece {
            FastaPiece::Header(line) => {
                observer.header(line);
                records.header(line)?
            }
            FastaPiece::Sequence(bytes) => {
                for (slice, slice_bytes) in appended.by_ref().take(bytes.len().div_ceil(TASK)) {
                    records.bases(&slice, slice_bytes)?;
                }
            }
        }
    }
    Ok(())
}

/// The lines that end in `bytes` before its base `base` (bases being every byte but
/// `\n` and `\r`).
fn lines_before_base(bytes: &[u8], base: u64) -> u64 {
    let mut bases = 0;
    let mut lines = 0;
    for &b in bytes {
        match b {
            b'\n' => lines += 1,
            b'\r' => {}
            _ if bases == base => break,
            _ => bases += 1,
        }
    }
    lines
}

/// The records of a FASTA stream, checked and laid out as they come.
struct Records {
    path: String,
    layout: Layout,
    names: HashMap<String, usize>,
    /// The line the next piece starts on, from 1.
    line: u64,
}

impl Records {
    fn new(path: String) -> Records {
        Records {
            path,
            layout: Layout::default(),
            names: HashMap::new(),
            line: 1,
        }
    }

    /// The next header line: the record before it is complete.
    fn header(&mut self, line: &[u8]) -> Result<(), ReferenceError> {
        self.check_last_has_bases()?;
        let number = self.layout.contigs.len() + 1;
        let line_number = self.line;
        self.line += 1;
        let header = line.trim_ascii();
        let name_bytes = &header[..header
            .iter()
            .position(u8::is_ascii_whitespace)
            .unwrap_or(header.len())];
        if name_bytes.is_empty() {
            return Err(ReferenceError::EmptyName {
                path: self.path.clone(),
                record: number,
                line: line_number,
            });
        }
        if let Some(msg) = io::names::contig_name_problem(name_bytes) {
            return Err(ReferenceError::BadName {
                path: self.path.clone(),
                record: number,
                line: line_number,
                msg,
            });
        }
        // The name is ASCII now; a description keeps its bytes, other than UTF-8 shown
        // as U+FFFD.
        let name = String::from_utf8_lossy(name_bytes).into_owned();
        let description =
            String::from_utf8_lossy(header[name_bytes.len()..].trim_ascii()).into_owned();
        if let Some(&first) = self.names.get(&name) {
            return Err(ReferenceError::DuplicateName {
                path: self.path.clone(),
                name,
                first,
                second: number,
            });
        }
        self.names.insert(name.clone(), number);
        let offset = self.layout.text_len();
        self.layout.contigs.push(Contig {
            name,
            description,
            offset,
            len: 0,
        });
        Ok(())
    }

    /// More bases of the current record (`bytes`, with their newlines), with what
    /// encoding them found.
    fn bases(&mut self, slice: &Appended, bytes: &[u8]) -> Result<(), ReferenceError> {
        let Appended {
            start,
            count,
            lines,
            ref found,
        } = *slice;
        let first_line = self.line;
        self.line += lines;
        let Some(contig) = self.layout.contigs.last_mut() else {
            return Err(ReferenceError::Malformed {
                path: self.path.clone(),
                msg: "sequence before the first '>' header".to_string(),
            });
        };
        if let Some((i, byte)) = found.invalid {
            return Err(ReferenceError::BadCharacter {
                path: self.path.clone(),
                name: contig.name.clone(),
                position: start + i - contig.offset + 1,
                line: first_line + lines_before_base(bytes, i),
                found: (byte as char).escape_default().to_string(),
            });
        }
        contig.len += count;
        let contig_start = contig.offset;
        for &run in &found.ambiguous {
            match self.layout.ambiguous.last_mut() {
                // Runs never cross a contig boundary.
                Some(last) if last.end == run.start && run.start != contig_start => {
                    last.end = run.end
                }
                _ => self.layout.ambiguous.push(run),
            }
        }
        Ok(())
    }

    fn check_last_has_bases(&self) -> Result<(), ReferenceError> {
        match self.layout.contigs.last() {
            Some(c) if c.len == 0 => Err(ReferenceError::EmptySequence {
                path: self.path.clone(),
                name: c.name.clone(),
                record: self.layout.contigs.len(),
            }),
            _ => Ok(()),
        }
    }

    /// The layout of the whole stream.
    fn finish(self) -> Result<Layout, ReferenceError> {
        self.check_last_has_bases()?;
        if self.layout.contigs.is_empty() {
            return Err(ReferenceError::Empty { path: self.path });
        }
        Ok(self.layout)
    }
}
