//! Which contigs are ALT contigs: bwa's `PREFIX.alt` as `bns_restore` reads it (each
//! line's text up to its first tab or line end, lines starting with `@` skipped, names
//! not among the contigs ignored; no file: none).

use std::path::{Path, PathBuf};

use crate::fmd::ann::Contigs;

/// Why `PREFIX.alt` could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}", path.display())]
pub struct AltError {
    /// The `.alt` file.
    pub path: PathBuf,
    /// The failure.
    pub source: std::io::Error,
}

/// `alt[rid]`: whether contig `rid` is named in `PREFIX.alt` (`prefix` as bwa infers it:
/// `HINT.64` where `HINT.64.bwt` exists).
pub fn alt_contigs(hint: &Path, contigs: &Contigs) -> Result<Vec<bool>, AltError> {
    let mut wide = hint.as_os_str().to_owned();
    wide.push(".64");
    let mut probe = wide.clone();
    probe.push(".bwt");
    let mut path = match Path::new(&probe).exists() {
        true => wide,
        false => hint.as_os_str().to_owned(),
    };
    path.push(".alt");
    let path = PathBuf::from(path);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(source) => return Err(AltError { path, source }),
    };
    Ok(flags(&bytes, contigs))
}

/// The flags `bytes` (a `.alt` file) set.
fn flags(bytes: &[u8], contigs: &Contigs) -> Vec<bool> {
    let mut alt = vec![false; contigs.contigs.len()];
    let mut at = 0;
    while let Some(end) = bytes[at..]
        .iter()
        .position(|&c| matches!(c, b'\t' | b'\n' | b'\r'))
    {
        let name = &bytes[at..at + end];
        if name.first() != Some(&b'@') {
            // bwa's hash keeps the last contig of a name
            if let Some(rid) = contigs.contigs.iter().rposition(|c| c.name == name) {
                alt[rid] = true;
            }
        }
        at += end;
        match bytes[at..].iter().position(|&c| c == b'\n') {
            Some(newline) => at += newline + 1,
            None => break,
        }
    }
    alt
}
