//! bwa's index files, byte for byte as `bwa index` (0.7.17) writes them: `PREFIX.pac`
//! (the packed forward text, [`pac`]), `.ann` and `.amb` (contigs and holes, [`ann`]),
//! `.bwt` and `.sa` (the BWT of the forward text followed by its reverse complement with
//! its Occ checkpoints, and its suffix array sampled every 32 rows, [`bwt`]); bwa's names
//! and holes gathered beside a FASTA ([`records`]), its draws for the holes' bases
//! ([`rand48`]), the limits bwa reads its files back within ([`check_limits`]).
//!
//! A file-format layer only: it knows nothing of how the index is built. The build (the
//! FASTA read, the doubled text's FM index on the CPU or GPU, the files written) is the
//! index's job, `index::bwa_format`.

pub mod ann;
pub mod bwt;
pub mod pac;
pub mod rand48;
pub mod records;

use std::path::{Path, PathBuf};

use records::Header;

/// The longest contig name bwa reads back (`bns_restore_core` reads it into 8192 bytes).
pub const MAX_NAME: usize = 8191;
/// The longest prefix bwa opens its files under (`bns_restore` names them in 1024 bytes,
/// `.ann` and its NUL included).
pub const MAX_PREFIX: usize = 1019;

/// A prefix or contig name that bwa's limits refuse.
#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    /// A contig name longer than bwa reads back.
    #[error("{path}: contig name '{shown}...' (record {record}) has {len} bytes; bwa reads names of at most {MAX_NAME} bytes")]
    NameTooLong {
        /// The reference's path.
        path: String,
        /// The record's number, from 1.
        record: usize,
        /// The name's first bytes.
        shown: String,
        /// The name's length.
        len: usize,
    },
    /// A prefix longer than bwa opens.
    #[error("{prefix}...: the prefix has {len} bytes; bwa opens index files under prefixes of at most {MAX_PREFIX} bytes")]
    PrefixTooLong {
        /// The prefix's first bytes.
        prefix: String,
        /// Its length.
        len: usize,
    },
}

/// The five files of `prefix`, in the order bwa names them: `.amb`, `.ann`, `.bwt`,
/// `.pac`, `.sa`.
pub fn paths(prefix: &Path) -> [PathBuf; 5] {
    ["amb", "ann", "bwt", "pac", "sa"].map(|ext| {
        let mut p = prefix.as_os_str().to_owned();
        p.push(".");
        p.push(ext);
        PathBuf::from(p)
    })
}

/// Refuses a prefix or contig names (of the reference `fasta`) that bwa's limits refuse.
pub fn check_limits(fasta: &Path, prefix: &Path, headers: &[Header]) -> Result<(), LimitError> {
    let len = prefix.as_os_str().len();
    if len > MAX_PREFIX {
        let prefix = prefix.to_string_lossy().chars().take(40).collect();
        return Err(LimitError::PrefixTooLong { prefix, len });
    }
    match headers.iter().position(|h| h.name.len() > MAX_NAME) {
        Some(i) => Err(LimitError::NameTooLong {
            path: crate::io::shown_name(fasta),
            record: i + 1,
            shown: String::from_utf8_lossy(&headers[i].name[..40]).into_owned(),
            len: headers[i].name.len(),
        }),
        None => Ok(()),
    }
}
