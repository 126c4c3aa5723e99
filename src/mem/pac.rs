//! bwa's 2-bit packed forward text (`PREFIX.pac`) and the reference stretches bwa mem
//! reads from it: `bns_get_seq` (either strand) and `bns_fetch_seq` (clamped to one
//! contig).

use std::path::{Path, PathBuf};

use super::chain::depos;
use crate::fmd::ann::Contigs;

/// Why `PREFIX.pac` could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PacError {
    /// The file could not be opened or mapped.
    #[error("cannot read bwa index file {}", path.display())]
    Read {
        /// The `.pac` file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The file is too short for the text the `.ann` describes.
    #[error("{}: {len} bytes, too short for {l_pac} bases", path.display())]
    Short {
        /// The `.pac` file.
        path: PathBuf,
        /// Its size.
        len: u64,
        /// The text length.
        l_pac: u64,
    },
}

/// The packed forward text, memory-mapped.
pub struct Pac {
    bytes: memmap2::Mmap,
    l_pac: i64,
}

impl Pac {
    /// Maps `PREFIX.pac` (`PREFIX.64.pac` where `PREFIX.64.bwt` exists, as bwa) for a
    /// text of `l_pac` bases.
    pub fn load(hint: &Path, l_pac: u64) -> Result<Pac, PacError> {
        let mut wide = hint.as_os_str().to_owned();
        wide.push(".64");
        let mut probe = wide.clone();
        probe.push(".bwt");
        let mut path = match Path::new(&probe).exists() {
            true => wide,
            false => hint.as_os_str().to_owned(),
        };
        path.push(".pac");
        let path = PathBuf::from(path);
        let read = |source| PacError::Read {
            path: path.clone(),
            source,
        };
        let file = std::fs::File::open(&path).map_err(read)?;
        // SAFETY: the index files are not modified while galign runs.
        let bytes = unsafe { memmap2::Mmap::map(&file) }.map_err(read)?;
        if (bytes.len() as u64) < l_pac.div_ceil(4) {
            return Err(PacError::Short {
                path,
                len: bytes.len() as u64,
                l_pac,
            });
        }
        Ok(Pac {
            bytes,
            l_pac: l_pac as i64,
        })
    }

    /// The forward text's length.
    pub fn l_pac(&self) -> i64 {
        self.l_pac
    }

    /// Forward base `k` (`_get_pac`).
    fn base(&self, k: i64) -> u8 {
        (self.bytes[(k >> 2) as usize] >> ((!k & 3) << 1)) & 3
    }

    /// `bns_get_seq`: the bases of `beg..end` of the forward-then-reverse-complement
    /// text (swapped if reversed, clamped to it); empty where it crosses the strands.
    pub fn get_seq(&self, mut beg: i64, mut end: i64) -> Vec<u8> {
        let l_pac = self.l_pac;
        if end < beg {
            std::mem::swap(&mut beg, &mut end);
        }
        end = end.min(l_pac << 1);
        beg = beg.max(0);
        if beg >= l_pac {
            let (beg_f, end_f) = ((l_pac << 1) - 1 - end, (l_pac << 1) - 1 - beg);
            ((beg_f + 1)..=end_f)
                .rev()
                .map(|k| 3 - self.base(k))
                .collect()
        } else if end <= l_pac {
            (beg..end).map(|k| self.base(k)).collect()
        } else {
            Vec::new()
        }
    }

    /// `bns_fetch_seq`: `beg..end` clamped to the contig (and strand) of `mid`; returns
    /// the clamped `beg`, `end`, that contig and the bases.
    pub fn fetch_seq(
        &self,
        contigs: &Contigs,
        mut beg: i64,
        mid: i64,
        mut end: i64,
    ) -> (i64, i64, usize, Vec<u8>) {
        if end < beg {
            std::mem::swap(&mut beg, &mut end);
        }
        let (pos, is_rev) = depos(self.l_pac, mid);
        let rid = contigs.contig_of(pos as u64);
        let c = &contigs.contigs[rid];
        let (mut far_beg, mut far_end) = (c.offset as i64, (c.offset + c.len) as i64);
        if is_rev {
            (far_beg, far_end) = ((self.l_pac << 1) - far_end, (self.l_pac << 1) - far_beg);
        }
        beg = beg.max(far_beg);
        end = end.min(far_end);
        let seq = self.get_seq(beg, end);
        (beg, end, rid, seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reverse half of the text is the forward half's reverse complement; a
    /// stretch across the strands is empty, one past the ends clamped.
    #[test]
    fn both_strands_as_bns_get_seq() {
        let dir = tempfile::tempdir().unwrap();
        let forward = [0u8, 1, 2, 3, 3, 2, 1];
        let mut packed = vec![0u8; 2];
        for (k, &b) in forward.iter().enumerate() {
            packed[k >> 2] |= b << ((!k & 3) << 1);
        }
        std::fs::write(dir.path().join("x.pac"), &packed).unwrap();
        let pac = Pac::load(&dir.path().join("x"), 7).unwrap();
        assert_eq!(pac.get_seq(0, 7), forward);
        let rc: Vec<u8> = forward.iter().rev().map(|b| 3 - b).collect();
        assert_eq!(pac.get_seq(7, 14), rc);
        assert_eq!(pac.get_seq(9, 8), rc[1..2]);
        assert!(pac.get_seq(5, 9).is_empty());
        assert_eq!(pac.get_seq(-3, 2), forward[..2]);
    }
}
