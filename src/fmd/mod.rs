//! The FMD index as bwa stores it (`bwa index`'s `.bwt`, `.sa` and `.ann`, which
//! `galign index --format bwa` writes byte for byte): the BWT of the forward text
//! followed by its reverse complement ([`bwt`]), its sampled suffix array ([`sa`]) and
//! the contigs ([`ann`]), read back for searching both strands at once
//! (by the SMEM search in `src/seed/`).

pub mod ann;
pub mod bwt;
pub mod sa;

use std::path::{Path, PathBuf};

use ann::{AnnError, Contigs};
use bwt::{Bwt, BwtError};
use sa::{SaError, SampledSa};

/// bwa's index of a reference, as `bwa_idx_load(.., BWA_IDX_BWT | BWA_IDX_BNS)` loads it.
pub struct BwaIndex {
    /// The BWT with its Occ intervals.
    pub bwt: Bwt,
    /// The sampled suffix array.
    pub sa: SampledSa,
    /// The contigs.
    pub contigs: Contigs,
}

/// Why bwa's index could not be loaded; each names the file at fault.
#[derive(Debug, thiserror::Error)]
pub enum BwaIndexError {
    /// The `.bwt` could not be read, or is not bwa's.
    #[error("cannot read bwa index file {}", path.display())]
    Bwt {
        /// The `.bwt` file.
        path: PathBuf,
        /// What is wrong.
        source: BwtError,
    },
    /// The `.sa` could not be read, or is not bwa's or not the `.bwt`'s.
    #[error("cannot read bwa index file {}", path.display())]
    Sa {
        /// The `.sa` file.
        path: PathBuf,
        /// What is wrong.
        source: SaError,
    },
    /// The `.ann` could not be read.
    #[error("cannot read bwa index file {}", path.display())]
    ReadAnn {
        /// The `.ann` file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The `.ann` is not bwa's.
    #[error("{}: not a bwa .ann file", path.display())]
    Ann {
        /// The `.ann` file.
        path: PathBuf,
        /// What is wrong.
        source: AnnError,
    },
    /// The `.ann`'s contigs are not the text of the `.bwt` (or there are none).
    #[error(
        "{}: {contigs} contigs of {bases} bases, but the .bwt holds {bwt_bases} (forward and \
         reverse)",
        path.display()
    )]
    OtherText {
        /// The `.ann` file.
        path: PathBuf,
        /// Its contigs.
        contigs: usize,
        /// Its forward text length (`l_pac`).
        bases: u64,
        /// The `.bwt`'s text length (forward and reverse complement).
        bwt_bases: u64,
    },
}

/// `PREFIX.EXT`.
fn with_extension(prefix: &Path, ext: &str) -> PathBuf {
    let mut path = prefix.as_os_str().to_owned();
    path.push(".");
    path.push(ext);
    PathBuf::from(path)
}

/// The prefix bwa opens for `hint` (`bwa_idx_infer_prefix`): `HINT.64` where
/// `HINT.64.bwt` exists, else `hint`.
fn inferred_prefix(hint: &Path) -> PathBuf {
    let wide = with_extension(hint, "64");
    match with_extension(&wide, "bwt").exists() {
        true => wide,
        false => hint.to_path_buf(),
    }
}

impl BwaIndex {
    /// Loads bwa's index under `hint` (`PREFIX.bwt`, `.sa`, `.ann`; `PREFIX.64.*` where
    /// they exist, as bwa).
    pub fn load(hint: &Path) -> Result<BwaIndex, BwaIndexError> {
        let prefix = inferred_prefix(hint);
        let file = |ext: &str| with_extension(&prefix, ext);
        let path = file("bwt");
        let bwt = Bwt::read(&path).map_err(|source| BwaIndexError::Bwt { path, source })?;
        let path = file("sa");
        let sa =
            SampledSa::read(&path, &bwt).map_err(|source| BwaIndexError::Sa { path, source })?;
        let path = file("ann");
        let ann = match std::fs::read(&path) {
            Ok(ann) => ann,
            Err(source) => return Err(BwaIndexError::ReadAnn { path, source }),
        };
        let contigs = match Contigs::parse(&ann) {
            Ok(contigs) => contigs,
            Err(source) => return Err(BwaIndexError::Ann { path, source }),
        };
        if contigs.l_pac.checked_mul(2) != Some(bwt.seq_len()) || contigs.contigs.is_empty() {
            return Err(BwaIndexError::OtherText {
                path,
                contigs: contigs.contigs.len(),
                bases: contigs.l_pac,
                bwt_bases: bwt.seq_len(),
            });
        }
        Ok(BwaIndex { bwt, sa, contigs })
    }
}
