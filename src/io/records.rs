//! The records that inputs yield, shared by every stage that handles reads.

use std::path::PathBuf;

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
