//! The FMD index as bwa stores it (`bwa index`'s `.bwt`, `.sa` and `.ann`, which
//! `galign index --format bwa` writes byte for byte): the BWT of the forward text
//! followed by its reverse complement ([`bwt`]), its sampled suffix array ([`sa`]) and
//! the contigs ([`ann`]), read back for searching both strands at once
//! ([`crate::seed`]).

pub mod ann;
pub mod bwt;
pub mod sa;

use std::path::{Path, PathBuf};

use anyhow::{ensure, Context};

use ann::Contigs;
use bwt::Bwt;
use sa::SampledSa;

/// bwa's index of a reference, as `bwa_idx_load(.., BWA_IDX_BWT | BWA_IDX_BNS)` loads it.
pub struct BwaIndex {
    /// The BWT with its Occ intervals.
    pub bwt: Bwt,
    /// The sampled suffix array.
    pub sa: SampledSa,
    /// The contigs.
    pub contigs: Contigs,
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
    pub fn load(hint: &Path) -> anyhow::Result<BwaIndex> {
        let prefix = inferred_prefix(hint);
        let file = |ext: &str| with_extension(&prefix, ext);
        let named = |path: PathBuf| format!("cannot read bwa index file {}", path.display());
        let bwt = Bwt::read(&file("bwt")).with_context(|| named(file("bwt")))?;
        let sa = SampledSa::read(&file("sa"), &bwt).with_context(|| named(file("sa")))?;
        let ann = std::fs::read(file("ann")).with_context(|| named(file("ann")))?;
        let contigs = Contigs::parse(&ann)
            .with_context(|| format!("{}: not a bwa .ann file", file("ann").display()))?;
        ensure!(
            contigs.l_pac.checked_mul(2) == Some(bwt.seq_len()) && !contigs.contigs.is_empty(),
            "{}: {} contigs of {} bases, but the .bwt holds {} (forward and reverse)",
            file("ann").display(),
            contigs.contigs.len(),
            contigs.l_pac,
            bwt.seq_len()
        );
        Ok(BwaIndex { bwt, sa, contigs })
    }
}
