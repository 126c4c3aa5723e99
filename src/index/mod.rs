//! The galign index: one file `PREFIX.galign` holding the reference layout, the packed
//! text, the FM index and the mirror index (the BWT/Occ of the reversed text, for the
//! bidirectional k-mismatch search; see `docs/FORMAT.md` and `docs/MISMATCHES.md`),
//! written atomically and read through a memory map.

mod build;
mod check;
pub mod format;
pub mod parts;

pub use build::{build_index, BuildOptions};

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fm::{Bidirectional, FmIndex, FmParts, Occ, SampledSa};
use crate::reference::{Layout, PackedRef, PackedText, Reference};
use crate::sa::{PositionSlice, Width};
use format::{as_bytes, FormatError, MappedFile};

/// File name extension of an index.
pub const EXTENSION: &str = "galign";

/// The index file for a prefix: `PREFIX.galign`.
pub fn index_path(prefix: &Path) -> PathBuf {
    let mut p = prefix.as_os_str().to_owned();
    p.push(".");
    p.push(EXTENSION);
    PathBuf::from(p)
}

/// Scalars and tables stored as JSON in the `META` section.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// Text length in bases.
    pub text_len: u64,
    /// BWT row of the sentinel.
    pub primary: u64,
    /// C array (first row of each symbol, then the row count).
    pub c: [u64; 5],
    /// Suffix-array sampling rate.
    pub sample_rate: u32,
    /// Jump-table k.
    pub k: u32,
    /// Contigs and ambiguous runs.
    pub layout: Layout,
    /// BWT row of the sentinel in the mirror index (that of the reversed text).
    pub mirror_primary: u64,
    /// Bytes of each text position and row number in `SARANK`, `SAPOS` and `JUMP`: 4,
    /// or 8 past 2^32 - 3 bases ([`Width`]).
    pub position_bytes: u64,
}

/// Writes the index of `reference`, whose FM index is `fm` and that of its reversed text
/// `mirror` (of which only the BWT/Occ is kept), to `path` (atomically).
pub fn write(
    path: &Path,
    reference: &Reference,
    fm: &FmParts,
    mirror: &FmParts,
) -> std::io::Result<()> {
    assert_eq!(
        (mirror.n, mirror.c),
        (fm.n, fm.c),
        "the mirror of the same text"
    );
    let meta = Meta {
        text_len: fm.n,
        primary: fm.primary,
        c: fm.c,
        sample_rate: fm.sample_rate,
        k: fm.k,
        layout: reference.layout.clone(),
        mirror_primary: mirror.primary,
        position_bytes: fm.width().bytes() as u64,
    };
    let meta = serde_json::to_vec(&meta).expect("metadata serializes");
    format::write(
        path,
        &[
            ("META", &meta),
            ("TEXT", as_bytes(reference.text.words())),
            ("OCC", as_bytes(&fm.occ)),
            ("SABITS", as_bytes(&fm.sampled.bits)),
            ("SARANK", fm.sampled.ranks.as_slice().as_bytes()),
            ("SAPOS", fm.sampled.positions.as_slice().as_bytes()),
            ("JUMP", fm.jump.as_slice().as_bytes()),
            ("MOCC", as_bytes(&mirror.occ)),
        ],
    )
}

/// A loaded (memory-mapped, verified) index.
pub struct Index {
    file: MappedFile,
    meta: Meta,
    width: Width,
}

/// Why an index could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The container is unreadable or corrupt.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The metadata is malformed, or it and the sections do not fit together.
    #[error(
        "{path}: index is corrupt ({msg}); rebuild it with `galign index -p PREFIX REFERENCE.fa`"
    )]
    Meta { path: String, msg: String },
}

impl Index {
    /// Opens `PREFIX.galign`, checking version and checksums, and that its metadata and
    /// sections fit together (`check`).
    pub fn open(prefix: &Path) -> Result<Index, IndexError> {
        let path = index_path(prefix);
        let file = MappedFile::open(&path)?;
        let bad = |msg: String| IndexError::Meta {
            path: path.display().to_string(),
            msg,
        };
        let meta: Meta =
            serde_json::from_slice(file.bytes("META")?).map_err(|e| bad(e.to_string()))?;
        let width = check::sizes(&meta, &file, &path)?;
        let index = Index { file, meta, width };
        check::contents(&index, &path)?;
        Ok(index)
    }

    /// The metadata.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    /// Contigs and ambiguous runs.
    pub fn layout(&self) -> &Layout {
        &self.meta.layout
    }

    /// The width of the index's positions and rows.
    pub fn width(&self) -> Width {
        self.width
    }

    /// The FM index, reading the mapped file in place.
    pub fn fm(&self) -> FmIndex<'_> {
        let ints = |name| match self.width {
            Width::U32 => PositionSlice::U32(self.file.ints(name).expect("checked at open")),
            Width::U64 => PositionSlice::U64(self.file.ints(name).expect("checked at open")),
        };
        FmIndex {
            text: PackedRef::new(
                self.file.ints::<u64>("TEXT").expect("checked"),
                self.meta.text_len as usize,
            ),
            occ: Occ::new(
                self.file.ints::<u64>("OCC").expect("checked"),
                self.meta.text_len + 1,
                self.meta.primary,
            ),
            c: self.meta.c,
            sampled: SampledSa {
                rate: self.meta.sample_rate,
                bits: self.file.ints::<u64>("SABITS").expect("checked"),
                ranks: ints("SARANK"),
                positions: ints("SAPOS"),
            },
            k: self.meta.k,
            jump: ints("JUMP"),
        }
    }

    /// The FM index with the mirror's BWT/Occ, for searching with mismatches.
    pub fn bidirectional(&self) -> Bidirectional<'_> {
        Bidirectional {
            forward: self.fm(),
            mirror: Occ::new(
                self.file.ints::<u64>("MOCC").expect("checked"),
                self.meta.text_len + 1,
                self.meta.mirror_primary,
            ),
        }
    }

    /// A copy of the packed text.
    pub fn text(&self) -> PackedText {
        let words = self.file.ints::<u64>("TEXT").expect("checked").to_vec();
        PackedText::from_words(words, self.meta.text_len as usize)
    }
}
