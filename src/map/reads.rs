//! FASTQ input in batches (needletail): single-end, paired from two files, or paired
//! interleaved in one. Mate names are checked; any malformed record is an error that
//! names the file and the record.

use std::path::{Path, PathBuf};

use needletail::parser::FastxReader;

/// One read as it came from the file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadRecord {
    /// Name: the first word of the header, a trailing `/1` or `/2` removed.
    pub name: Vec<u8>,
    /// Bases as written in the file.
    pub seq: Vec<u8>,
    /// Phred+33 qualities; `None` for FASTA input.
    pub qual: Option<Vec<u8>>,
}

/// Where reads come from.
#[derive(Clone, Debug)]
pub enum ReadSource {
    /// Single-end reads from one file.
    Single(PathBuf),
    /// Mates 1 and 2 from two files, in the same order.
    Paired(PathBuf, PathBuf),
    /// Mates 1 and 2 alternating in one file.
    Interleaved(PathBuf),
}

impl ReadSource {
    /// Whether reads come in pairs.
    pub fn is_paired(&self) -> bool {
        !matches!(self, ReadSource::Single(_))
    }
}

/// Why reads could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadsError {
    /// Opening or parsing failed.
    #[error("{path}: {msg}")]
    Parse { path: String, msg: String },
    /// The file has no record.
    #[error("{path}: the file is empty (no reads)")]
    Empty { path: String },
    /// Mate names differ.
    #[error("{path1} and {path2}: pair {pair} has mates named '{name1}' and '{name2}'")]
    MateNames {
        path1: String,
        path2: String,
        pair: u64,
        name1: String,
        name2: String,
    },
    /// One mate file ended before the other.
    #[error("{longer}: has more reads than {shorter}, which ends after {pairs} reads")]
    MateCount {
        longer: String,
        shorter: String,
        pairs: u64,
    },
    /// An interleaved file with an odd number of records.
    #[error("{path}: interleaved file ends with an unpaired read (record {record})")]
    OddInterleaved { path: String, record: u64 },
    /// A read name too long for SAM.
    #[error("{path}: record {record}: read name is {len} characters; SAM allows at most 254")]
    LongName {
        path: String,
        record: u64,
        len: usize,
    },
}

/// One open FASTQ file.
struct FastqFile {
    reader: Box<dyn FastxReader>,
    path: String,
    records: u64,
}

impl FastqFile {
    fn open(path: &Path) -> Result<FastqFile, ReadsError> {
        let shown = path.display().to_string();
        if std::fs::metadata(path)
            .map(|m| m.len() == 0)
            .unwrap_or(false)
        {
            return Err(ReadsError::Empty { path: shown });
        }
        let reader = needletail::parse_fastx_file(path).map_err(|e| match e.kind {
            needletail::errors::ParseErrorKind::EmptyFile => ReadsError::Empty {
                path: shown.clone(),
            },
            _ => ReadsError::Parse {
                path: shown.clone(),
                msg: e.to_string(),
            },
        })?;
        Ok(FastqFile {
            reader,
            path: shown,
            records: 0,
        })
    }

    /// The next read into `out` (its buffers reused); `false` at the end of the file.
    fn next_into(&mut self, out: &mut ReadRecord) -> Result<bool, ReadsError> {
        let Some(record) = self.reader.next() else {
            return Ok(false);
        };
        let record = record.map_err(|e| ReadsError::Parse {
            path: self.path.clone(),
            msg: format!("malformed record after record {}: {e}", self.records),
        })?;
        self.records += 1;
        let id = record.id();
        let first_word = id.split(|b| b.is_ascii_whitespace()).next().unwrap_or(b"");
        let name = match first_word {
            [head @ .., b'/', b'1' | b'2'] => head,
            name => name,
        };
        if name.len() > 254 {
            return Err(ReadsError::LongName {
                path: self.path.clone(),
                record: self.records,
                len: name.len(),
            });
        }
        out.name.clear();
        out.name.extend_from_slice(name);
        out.seq.clear();
        out.seq.extend_from_slice(&record.seq());
        match (&mut out.qual, record.qual()) {
            (Some(qual), Some(q)) => {
                qual.clear();
                qual.extend_from_slice(q);
            }
            (slot, q) => *slot = q.map(|q| q.to_vec()),
        }
        Ok(true)
    }
}

/// Reads batches of reads (pairs as consecutive mate 1, mate 2).
pub struct BatchReader {
    first: FastqFile,
    second: Option<FastqFile>,
    paired: bool,
    pairs_read: u64,
}

impl BatchReader {
    /// Opens the source's files.
    pub fn open(source: &ReadSource) -> Result<BatchReader, ReadsError> {
        let (first, second) = match source {
            ReadSource::Single(p) | ReadSource::Interleaved(p) => (FastqFile::open(p)?, None),
            ReadSource::Paired(p1, p2) => (FastqFile::open(p1)?, Some(FastqFile::open(p2)?)),
        };
        Ok(BatchReader {
            first,
            second,
            paired: source.is_paired(),
            pairs_read: 0,
        })
    }

    /// Replaces `batch` with the next up to `size` reads or pairs (empty at the end of
    /// input), reusing its records' buffers: a batch handed back after use saves the
    /// allocations.
    pub fn fill_batch(
        &mut self,
        size: usize,
        batch: &mut Vec<ReadRecord>,
    ) -> Result<(), ReadsError> {
        let per_item = if self.paired { 2 } else { 1 };
        let wanted = size.saturating_mul(per_item);
        let mut used = 0;
        // The record at `i`, created when the batch has none to reuse.
        fn slot(batch: &mut Vec<ReadRecord>, i: usize) -> &mut ReadRecord {
            if i == batch.len() {
                batch.push(ReadRecord::default());
            }
            &mut batch[i]
        }
        let result = loop {
            if used >= wanted {
                break Ok(());
            }
            if !self.first.next_into(slot(batch, used))? {
                if let Some(second) = &mut self.second {
                    let mut extra = ReadRecord::default();
                    if second.next_into(&mut extra)? {
                        break Err(ReadsError::MateCount {
                            longer: second.path.clone(),
                            shorter: self.first.path.clone(),
                            pairs: self.pairs_read,
                        });
                    }
                }
                break Ok(());
            }
            if !self.paired {
                used += 1;
                continue;
            }
            let (mate_file, other_path) = match &mut self.second {
                Some(second) => (second, self.first.path.clone()),
                None => (&mut self.first, String::new()),
            };
            if !mate_file.next_into(slot(batch, used + 1))? {
                break Err(if other_path.is_empty() {
                    ReadsError::OddInterleaved {
                        path: mate_file.path.clone(),
                        record: mate_file.records,
                    }
                } else {
                    ReadsError::MateCount {
                        longer: other_path,
                        shorter: mate_file.path.clone(),
                        pairs: self.pairs_read,
                    }
                });
            }
            self.pairs_read += 1;
            if batch[used].name != batch[used + 1].name {
                let path2 = self.second.as_ref().unwrap_or(&self.first).path.clone();
                break Err(ReadsError::MateNames {
                    path1: self.first.path.clone(),
                    path2,
                    pair: self.pairs_read,
                    name1: String::from_utf8_lossy(&batch[used].name).into_owned(),
                    name2: String::from_utf8_lossy(&batch[used + 1].name).into_owned(),
                });
            }
            used += 2;
        };
        batch.truncate(used);
        result
    }
}
