//! The on-disk container: a header, a section table, and 64-byte-aligned sections,
//! each with a CRC-32. Documented in `docs/FORMAT.md`. All integers are little-endian;
//! sections of integers are raw arrays, so a memory map can be read in place.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

use rayon::prelude::*;

use crate::atomic_file::AtomicFile;

#[cfg(not(target_endian = "little"))]
compile_error!(
    "the index format is little-endian and read in place: big-endian hosts are not supported"
);

/// First eight bytes of every index file.
pub const MAGIC: &[u8; 8] = b"GALIGNIX";
/// Format version written by this build; only this version is read. Version 2 added
/// the mirror index (`MOCC`, `mirror_primary`) that `map -v K` searches with; version 3
/// the position width (`position_bytes`: 64-bit positions past 2^32 - 3 bases).
pub const VERSION: u32 = 3;
const HEADER_LEN: usize = 64;

/// What a container file holds: its magic bytes, the version written and read, and how
/// errors name it and the command that remakes it.
#[derive(Debug)]
pub struct Kind {
    /// First eight bytes.
    pub magic: &'static [u8; 8],
    /// Format version written; only this version is read.
    pub version: u32,
    /// What the file is, in errors ("index").
    pub noun: &'static str,
    /// The command that remakes it, in errors.
    pub remake: &'static str,
}

/// The index file.
pub const INDEX: Kind = Kind {
    magic: MAGIC,
    version: VERSION,
    noun: "index",
    remake: "galign index -p PREFIX REFERENCE.fa",
};
const ENTRY_LEN: usize = 32;
const ALIGN: usize = 64;

/// Why an index file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The file could not be opened or mapped. (The cause is in the message, not a
    /// `source`, which error chains would print a second time.)
    #[error("{path}: cannot open {}: {error}", kind.noun)]
    Io {
        kind: &'static Kind,
        path: String,
        error: std::io::Error,
    },
    /// Not an index file at all.
    #[error("{path}: not a galign {} (bad magic bytes)", kind.noun)]
    BadMagic { kind: &'static Kind, path: String },
    /// An index of another format version.
    #[error("{path}: {} format version {found}, this galign reads version {expected}; rebuild it with `{}`", kind.noun, kind.remake)]
    Version {
        kind: &'static Kind,
        path: String,
        found: u32,
        expected: u32,
    },
    /// The file is shorter than its table says, or the table is malformed.
    #[error("{path}: {} file is truncated or corrupt ({what})", kind.noun)]
    Truncated {
        kind: &'static Kind,
        path: String,
        what: String,
    },
    /// A section's checksum does not match its bytes.
    #[error("{path}: section {section} fails its checksum: the {} is corrupt; rebuild it with `{}`", kind.noun, kind.remake)]
    Checksum {
        kind: &'static Kind,
        path: String,
        section: String,
    },
    /// A required section is absent.
    #[error("{path}: {} lacks section {section}", kind.noun)]
    Missing {
        kind: &'static Kind,
        path: String,
        section: String,
    },
}

/// Views any plain integer slice as bytes.
pub fn as_bytes<T: Copy>(slice: &[T]) -> &[u8] {
    // SAFETY: only used with u8/u32/u64, which have no padding.
    unsafe { std::slice::from_raw_parts(slice.as_ptr() as *const u8, std::mem::size_of_val(slice)) }
}

/// Writes the index `sections` (name, bytes) to `path` through a temporary file that is
/// renamed into place only when complete.
pub fn write(path: &Path, sections: &[(&str, &[u8])]) -> std::io::Result<()> {
    write_kind(&INDEX, path, sections)
}

/// Writes a container of `kind` holding `sections` (name, bytes) to `path` through a
/// temporary file that is renamed into place only when complete. The checksums and
/// the writes run in parallel, a chunk at a time, each chunk written at its place.
pub fn write_kind(kind: &Kind, path: &Path, sections: &[(&str, &[u8])]) -> std::io::Result<()> {
    let mut table = Vec::with_capacity(sections.len());
    let mut offset = align(HEADER_LEN + ENTRY_LEN * sections.len());
    let checksums: Vec<u32> = sections
        .par_iter()
        .map(|(_, bytes)| checksum(bytes))
        .collect();
    for ((name, bytes), crc) in sections.iter().zip(checksums) {
        assert!(name.len() <= 8);
        table.push((*name, offset, bytes.len(), crc));
        offset = align(offset + bytes.len());
    }
    let mut head = Vec::with_capacity(HEADER_LEN + ENTRY_LEN * sections.len());
    head.extend_from_slice(kind.magic);
    head.extend_from_slice(&kind.version.to_le_bytes());
    head.extend_from_slice(&(sections.len() as u32).to_le_bytes());
    head.resize(HEADER_LEN, 0);
    for (name, off, len, crc) in &table {
        let mut entry = [0u8; ENTRY_LEN];
        entry[..name.len()].copy_from_slice(name.as_bytes());
        entry[8..16].copy_from_slice(&(*off as u64).to_le_bytes());
        entry[16..24].copy_from_slice(&(*len as u64).to_le_bytes());
        entry[24..28].copy_from_slice(&crc.to_le_bytes());
        head.extend_from_slice(&entry);
    }
    let file = AtomicFile::new(path);
    let out = file.create()?;
    // The gaps between sections stay the zeros the file is extended with.
    out.set_len(offset as u64)?;
    let pieces = std::iter::once((0, &head[..]))
        .chain(sections.iter().zip(&table).map(|((_, b), t)| (t.1, *b)))
        .flat_map(|(at, bytes)| {
            let chunks = bytes.chunks(CHUNK).enumerate();
            chunks.map(move |(i, chunk)| ((at + i * CHUNK) as u64, chunk))
        });
    pieces
        .collect::<Vec<_>>()
        .into_par_iter()
        .try_for_each(|(at, chunk)| out.write_all_at(chunk, at))?;
    out.sync_all()?;
    file.commit()
}

/// Bytes checksummed or written by one task.
const CHUNK: usize = 16 << 20;

/// The CRC-32 of `bytes`, its chunks checksummed in parallel and combined.
pub fn checksum(bytes: &[u8]) -> u32 {
    let hashers: Vec<crc32fast::Hasher> = bytes
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut hasher = crc32fast::Hasher::new();
            hasher.update(chunk);
            hasher
        })
        .collect();
    let mut all = crc32fast::Hasher::new();
    hashers.iter().for_each(|h| all.combine(h));
    all.finalize()
}

fn align(x: usize) -> usize {
    x.div_ceil(ALIGN) * ALIGN
}

/// A memory-mapped container file whose header, table and checksums have been verified.
pub struct MappedFile {
    kind: &'static Kind,
    map: memmap2::Mmap,
    sections: Vec<(String, usize, usize)>,
    path: String,
}

impl MappedFile {
    /// Maps the index `path` and verifies magic, version, table and every section's
    /// checksum.
    pub fn open(path: &Path) -> Result<MappedFile, FormatError> {
        Self::open_kind(&INDEX, path)
    }

    /// Maps `path`, a container of `kind`, and verifies magic, version, table and every
    /// section's checksum.
    pub fn open_kind(kind: &'static Kind, path: &Path) -> Result<MappedFile, FormatError> {
        let shown = path.display().to_string();
        let io = |error| FormatError::Io {
            kind,
            path: shown.clone(),
            error,
        };
        let file = File::open(path).map_err(io)?;
        // SAFETY: the index is treated as read-only; a concurrent writer would replace it
        // by rename, never modify it in place.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        let truncated = |what: &str| FormatError::Truncated {
            kind,
            path: shown.clone(),
            what: what.into(),
        };
        if map.len() < HEADER_LEN || &map[..8] != kind.magic {
            return Err(FormatError::BadMagic { kind, path: shown });
        }
        let version = u32::from_le_bytes(map[8..12].try_into().unwrap());
        if version != kind.version {
            return Err(FormatError::Version {
                kind,
                path: shown,
                found: version,
                expected: kind.version,
            });
        }
        let count = u32::from_le_bytes(map[12..16].try_into().unwrap()) as usize;
        if count > 64 || map.len() < HEADER_LEN + count * ENTRY_LEN {
            return Err(truncated("section table"));
        }
        let mut sections = Vec::with_capacity(count);
        let mut crcs = Vec::with_capacity(count);
        for i in 0..count {
            let e = &map[HEADER_LEN + i * ENTRY_LEN..HEADER_LEN + (i + 1) * ENTRY_LEN];
            let name = String::from_utf8_lossy(&e[..8])
                .trim_end_matches('\0')
                .to_string();
            let off = u64::from_le_bytes(e[8..16].try_into().unwrap()) as usize;
            let len = u64::from_le_bytes(e[16..24].try_into().unwrap()) as usize;
            let crc = u32::from_le_bytes(e[24..28].try_into().unwrap());
            if !off.is_multiple_of(ALIGN) || off.checked_add(len).is_none_or(|end| end > map.len())
            {
                return Err(truncated(&format!("section {name}")));
            }
            sections.push((name, off, len));
            crcs.push(crc);
        }
        let bad = sections
            .par_iter()
            .zip(&crcs)
            .find_first(|((_, off, len), &crc)| checksum(&map[*off..off + len]) != crc);
        if let Some(((name, _, _), _)) = bad {
            return Err(FormatError::Checksum {
                kind,
                path: shown,
                section: name.clone(),
            });
        }
        Ok(MappedFile {
            kind,
            map,
            sections,
            path: shown,
        })
    }

    /// The bytes of section `name`.
    pub fn bytes(&self, name: &str) -> Result<&[u8], FormatError> {
        let (_, off, len) = self
            .sections
            .iter()
            .find(|(n, _, _)| n == name)
            .ok_or_else(|| FormatError::Missing {
                kind: self.kind,
                path: self.path.clone(),
                section: name.into(),
            })?;
        Ok(&self.map[*off..off + len])
    }

    /// Section `name` as a slice of `u32` or `u64` (sections are 64-byte aligned).
    pub fn ints<T: Copy>(&self, name: &str) -> Result<&[T], FormatError> {
        let bytes = self.bytes(name)?;
        // SAFETY: integers have no invalid bit patterns; alignment is checked below.
        let (pre, ints, post) = unsafe { bytes.align_to::<T>() };
        if !pre.is_empty() || !post.is_empty() {
            return Err(FormatError::Truncated {
                kind: self.kind,
                path: self.path.clone(),
                what: format!("section {name} size"),
            });
        }
        Ok(ints)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checksum_in_chunks_is_the_crc_of_the_whole() {
        let mut x = 1u64;
        let bytes: Vec<u8> = (0..2 * CHUNK + 12_345)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                (x >> 56) as u8
            })
            .collect();
        for len in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, bytes.len()] {
            assert_eq!(
                checksum(&bytes[..len]),
                crc32fast::hash(&bytes[..len]),
                "{len}"
            );
        }
    }
}
