//! The galign index: one file `PREFIX.galign` holding the reference layout, the packed
//! text, the FM index and the mirror index (the BWT/Occ of the reversed text, for the
//! bidirectional k-mismatch search; see `docs/FORMAT.md` and `docs/MISMATCHES.md`),
//! written atomically and read through a memory map.

pub(crate) mod build;
pub mod bwa_format;
mod check;
pub mod command;
pub mod devices;
pub mod format;
pub mod parts;
pub mod sa_file;
pub mod stages;

pub use build::{build_index, BuildError, BuildOptions};

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fm::jump::ShortSuffixes;
use crate::fm::{Bidirectional, FmIndex, FmParts, Lengths, Occ, SampledSa};
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

/// The prefix of the index that `prefix` names, as `map` reads it: `prefix` itself, or,
/// where `PREFIX.galign` does not exist but `prefix` is a file ending in `.galign` (the
/// index file named whole: `map idx/ecoli.galign`), `prefix` without that extension.
pub fn resolve_prefix(prefix: &Path) -> PathBuf {
    let named_whole = prefix.extension().is_some_and(|e| e == EXTENSION) && prefix.is_file();
    match named_whole && !index_path(prefix).exists() {
        true => prefix.with_extension(""),
        false => prefix.to_path_buf(),
    }
}

/// `error`, or [`IndexError::Missing`] when it says that the index file at `prefix`
/// does not exist.
fn missing(error: FormatError, prefix: &Path) -> IndexError {
    match error {
        FormatError::Io { path, error, .. } if error.kind() == std::io::ErrorKind::NotFound => {
            let prefix = prefix.display().to_string();
            IndexError::Missing {
                path,
                prefix,
                cause: error,
            }
        }
        other => IndexError::Format(other),
    }
}

/// Refuses an index prefix that names a device or pipe (`-p /dev/null`): the index is
/// the file `PREFIX.galign`, which would be made beside the device.
pub(crate) fn ensure_prefix(prefix: &Path) -> Result<(), TargetError> {
    let device = std::fs::metadata(prefix).is_ok_and(|m| !m.is_file() && !m.is_dir());
    match device {
        true => Err(TargetError::DevicePrefix {
            prefix: prefix.to_path_buf(),
            index: index_path(prefix),
        }),
        false => Ok(()),
    }
}

/// Checks, before a build starts, that its output (`what`: "index", "part file") at
/// `output` can be written: not one of its `inputs` (role, path), not a device or pipe
/// (a container is written at offsets), and its temporary can be created; so that a long
/// build does not end in an error it could have given at once.
pub(crate) fn ensure_output(
    inputs: &[(&str, &Path)],
    output: &Path,
    what: &str,
) -> Result<(), TargetError> {
    crate::atomic_file::ensure_distinct(inputs, &[(&format!("the {what}"), output)])?;
    crate::atomic_file::ensure_regular(output)?;
    crate::atomic_file::ensure_creatable(output).map_err(|source| TargetError::Uncreatable {
        what: what.to_string(),
        path: output.to_path_buf(),
        source,
    })
}

/// Why the output of a build is refused before the build starts.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// The index prefix names a device or pipe.
    #[error(
        "-p {}: the index prefix names a device or pipe, but the index is the file \
         PREFIX.galign ({}): give a path to name it after",
        .prefix.display(),
        .index.display()
    )]
    DevicePrefix {
        /// The prefix as given.
        prefix: PathBuf,
        /// The index file it would name.
        index: PathBuf,
    },
    /// The output is an input, or not a regular file.
    #[error(transparent)]
    Output(#[from] crate::atomic_file::OutputError),
    /// The output's temporary cannot be created.
    #[error("cannot write {what} {}", .path.display())]
    Uncreatable {
        /// What the output is ("index", "part file").
        what: String,
        /// The output's path.
        path: PathBuf,
        /// Why it cannot be created.
        source: std::io::Error,
    },
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
    write_unsynced(path, reference, fm, mirror)?.commit()
}

/// [`write`] but for its end: every byte handed to the file, so that the arrays written
/// may be freed while [`Written::commit`] syncs it and gives it its name.
pub(crate) fn write_unsynced(
    path: &Path,
    reference: &Reference,
    fm: &FmParts,
    mirror: &FmParts,
) -> std::io::Result<Written> {
    check_mirror(fm, mirror);
    let meta = meta_json(reference, &meta_of(fm), mirror.primary);
    let sections = sections(&meta, reference, fm, &mirror.occ);
    format::write_unfinished(&format::INDEX, path, &sections).map(Written)
}

/// An index file whose bytes are all written (to the page cache), not yet synced nor
/// under its final name.
pub(crate) struct Written(format::SectionWriter);

impl Written {
    /// Writes the header, syncs the file to disk and renames it into place.
    pub(crate) fn commit(self) -> std::io::Result<()> {
        self.0.finish()
    }
}

/// The index file of a build written in pieces, so that the disk is busy while the
/// indexes are built: the text while the forward index is built (when the file was
/// started before it, [`IndexWriter::start_before_build`]), the forward index's sections
/// once those exist and the text if not yet written ([`IndexWriter::write_forward`]),
/// the mirror's Occ and the metadata (which holds the primary rows) at the end
/// ([`IndexWriter::finish`]). The file is the one [`write`] makes.
pub struct IndexWriter {
    sections: format::SectionWriter,
}

/// Where the sections written last sit among [`sections`].
const META_SECTION: usize = 0;
const TEXT_SECTION: usize = 1;
const MIRROR_OCC_SECTION: usize = 7;

impl IndexWriter {
    /// Starts the index file at `path` for `reference` and its FM index `fm`; `None` when
    /// the sections' places depend on the digits of the mirror's primary row (the
    /// metadata, of unknown length before it, could push them to the next 64 bytes):
    /// the caller then writes the file at the end with [`write`].
    pub fn start(
        path: &Path,
        reference: &Reference,
        fm: &FmParts,
    ) -> std::io::Result<Option<IndexWriter>> {
        // The mirror's primary row is at most n.
        let meta = |mirror_primary| meta_json(reference, &meta_of(fm), mirror_primary);
        let lengths = Lengths::of(fm.n as usize, fm.sample_rate);
        IndexWriter::create(
            path,
            reference,
            (meta(0), meta(fm.n)),
            (&lengths, fm.width()),
        )
    }

    /// Starts the index file at `path` for `reference` before its FM index is built
    /// (sampled every `sample_rate`, positions of `width`), so that the text can go to
    /// disk during the build ([`IndexWriter::write_text`]); `None` when the sections'
    /// places depend on the digits of the primary rows, not known yet.
    pub fn start_before_build(
        path: &Path,
        reference: &Reference,
        (sample_rate, width): (u32, Width),
    ) -> std::io::Result<Option<IndexWriter>> {
        let n = reference.text.len();
        let lengths = Lengths::of(n, sample_rate);
        let c = crate::fm::symbol_starts(&reference.text);
        let scalars = |primary| MetaScalars {
            n: n as u64,
            primary,
            c,
            sample_rate,
            k: lengths.k,
            width,
        };
        // Both primary rows are at most n.
        let (shortest, longest) = (
            meta_json(reference, &scalars(0), 0),
            meta_json(reference, &scalars(n as u64), n as u64),
        );
        IndexWriter::create(path, reference, (shortest, longest), (&lengths, width))
    }

    /// The file at `path` whose metadata is at least as long as `shortest` and at most
    /// as `longest`, and whose arrays have `lengths` at `width`.
    fn create(
        path: &Path,
        reference: &Reference,
        (shortest, longest): (Vec<u8>, Vec<u8>),
        (lengths, width): (&Lengths, Width),
    ) -> std::io::Result<Option<IndexWriter>> {
        let w = width.bytes();
        // The sections after META, in [`SECTION_NAMES`]' order.
        let arrays = [
            8 * reference.text.words().len(),
            8 * lengths.occ,
            8 * lengths.sampled_bits,
            w * lengths.sampled_ranks,
            w * lengths.sampled_positions,
            w * lengths.jump,
            8 * lengths.occ,
        ];
        let planned: Vec<_> = std::iter::once(shortest.len()..=longest.len())
            .chain(arrays.map(|len| len..=len))
            .zip(SECTION_NAMES)
            .map(|(lengths, name)| (name, lengths))
            .collect();
        let sections = format::SectionWriter::create(&format::INDEX, path, &planned)?;
        Ok(sections.map(|sections| IndexWriter { sections }))
    }

    /// Writes the text.
    pub fn write_text(&self, reference: &Reference) -> std::io::Result<()> {
        self.sections
            .write(TEXT_SECTION, as_bytes(reference.text.words()))
    }

    /// Writes the forward index's sections, and the text unless it is written.
    pub fn write_forward(&self, reference: &Reference, fm: &FmParts) -> std::io::Result<()> {
        let no_meta = [];
        let all = sections(&no_meta, reference, fm, &fm.occ);
        (0..all.len())
            .filter(|&i| i != META_SECTION && i != MIRROR_OCC_SECTION)
            .filter(|&i| i != TEXT_SECTION || !self.sections.is_written(i))
            .try_for_each(|i| self.sections.write(i, all[i].1))
    }

    /// Writes the mirror's Occ and the metadata; the file is then complete but for its
    /// [`Written::commit`].
    pub(crate) fn finish(
        self,
        reference: &Reference,
        fm: &FmParts,
        mirror: &FmParts,
    ) -> std::io::Result<Written> {
        check_mirror(fm, mirror);
        let meta = meta_json(reference, &meta_of(fm), mirror.primary);
        let all = sections(&meta, reference, fm, &mirror.occ);
        for i in [META_SECTION, MIRROR_OCC_SECTION] {
            self.sections.write(i, all[i].1)?;
        }
        Ok(Written(self.sections))
    }
}

/// Panics unless `mirror` is an index of the same text length as `fm`.
fn check_mirror(fm: &FmParts, mirror: &FmParts) {
    assert_eq!(
        (mirror.n, mirror.c),
        (fm.n, fm.c),
        "the mirror of the same text"
    );
}

/// The `META` section of the index of `reference` whose FM index is `fm` and whose
/// mirror's primary row is `mirror_primary`.
fn meta_json(reference: &Reference, scalars: &MetaScalars, mirror_primary: u64) -> Vec<u8> {
    let meta = Meta {
        text_len: scalars.n,
        primary: scalars.primary,
        c: scalars.c,
        sample_rate: scalars.sample_rate,
        k: scalars.k,
        layout: reference.layout.clone(),
        mirror_primary,
        position_bytes: scalars.width.bytes() as u64,
    };
    serde_json::to_vec(&meta).expect("metadata serializes")
}

/// The forward FM index's values that the metadata holds.
struct MetaScalars {
    n: u64,
    primary: u64,
    c: [u64; 5],
    sample_rate: u32,
    k: u32,
    width: Width,
}

/// The metadata's values of `fm`.
fn meta_of(fm: &FmParts) -> MetaScalars {
    MetaScalars {
        n: fm.n,
        primary: fm.primary,
        c: fm.c,
        sample_rate: fm.sample_rate,
        k: fm.k,
        width: fm.width(),
    }
}

/// The sections of an index file, in their order: `meta`, the text, the FM index `fm`
/// and the mirror's Occ `mirror_occ`.
fn sections<'a>(
    meta: &'a [u8],
    reference: &'a Reference,
    fm: &'a FmParts,
    mirror_occ: &'a [u64],
) -> [(&'static str, &'a [u8]); 8] {
    let bytes = [
        meta,
        as_bytes(reference.text.words()),
        as_bytes(&fm.occ),
        as_bytes(&fm.sampled.bits),
        fm.sampled.ranks.as_slice().as_bytes(),
        fm.sampled.positions.as_slice().as_bytes(),
        fm.jump.as_slice().as_bytes(),
        as_bytes(mirror_occ),
    ];
    std::array::from_fn(|i| (SECTION_NAMES[i], bytes[i]))
}

/// The index file's sections, in their order ([`sections`]).
const SECTION_NAMES: [&str; 8] = [
    "META", "TEXT", "OCC", "SABITS", "SARANK", "SAPOS", "JUMP", "MOCC",
];

/// A loaded (memory-mapped, verified) index.
pub struct Index {
    file: MappedFile,
    meta: Meta,
    width: Width,
    /// The text's suffixes shorter than the jump table's k.
    short: ShortSuffixes,
}

/// Why an index could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The container is unreadable or corrupt.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// No index file at the prefix: the command that builds one.
    #[error(
        "{path}: no such index ({cause}); build it with `galign index -p {prefix} REFERENCE.fa`"
    )]
    Missing {
        /// The index file's path.
        path: String,
        /// The prefix it was looked for at.
        prefix: String,
        /// The error of opening it (not found).
        cause: std::io::Error,
    },
    /// The metadata is malformed, or it and the sections do not fit together.
    #[error(
        "{path}: index is corrupt ({msg}); rebuild it with `{}`",
        format::INDEX.remake_command(path)
    )]
    Meta {
        /// The index file's path.
        path: String,
        /// What is wrong.
        msg: String,
    },
}

impl Index {
    /// Opens `PREFIX.galign`, checking version and checksums, and that its metadata and
    /// sections fit together (`check`).
    pub fn open(prefix: &Path) -> Result<Index, IndexError> {
        let path = index_path(prefix);
        let file = MappedFile::open(&path).map_err(|e| missing(e, prefix))?;
        let bad = |msg: String| IndexError::Meta {
            path: path.display().to_string(),
            msg,
        };
        let meta: Meta =
            serde_json::from_slice(file.bytes("META")?).map_err(|e| bad(e.to_string()))?;
        let width = check::sizes(&meta, &file, &path)?;
        let text = PackedRef::new(file.ints::<u64>("TEXT")?, meta.text_len as usize);
        let short = ShortSuffixes::of(text, meta.k);
        let index = Index {
            file,
            meta,
            width,
            short,
        };
        check::contents(&index, &path)?;
        Ok(index)
    }

    /// The text length that `PREFIX.galign`'s metadata states, read without verifying
    /// the file (so to be trusted only for choices that [`Index::open`] then makes safe);
    /// `None` where it cannot be read.
    pub fn peek_text_len(prefix: &Path) -> Option<u64> {
        let file = MappedFile::map_kind(&format::INDEX, &index_path(prefix)).ok()?;
        let meta: Meta = serde_json::from_slice(file.bytes("META").ok()?).ok()?;
        Some(meta.text_len)
    }

    /// Checks that no program has written the index file in place since it was opened
    /// (replacing it by rename leaves the open file as it was): what was read from it
    /// is then what was checked at open.
    pub fn ensure_unchanged(&self) -> Result<(), IndexError> {
        Ok(self.file.ensure_unchanged()?)
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
            short: self.short,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::read_fasta;
    use crate::sa::suffix_array;
    use crate::test_support::random_codes;

    /// The FM index of `text` sampled every `rate` positions (CPU).
    fn fm_of(text: &PackedText, rate: u32) -> FmParts {
        FmParts::build(text, &suffix_array::<u32>(text), rate)
    }

    #[test]
    fn the_index_written_in_pieces_is_the_one_written_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let (mut early_layouts, mut before_layouts) = (0, 0);
        for (i, len) in [1usize, 77, 5000, 70_000, 300_000].into_iter().enumerate() {
            let bases: Vec<u8> = random_codes(len, i as u64, 4)
                .iter()
                .map(|&c| b"ACGT"[c as usize])
                .collect();
            let (a, b) = bases.split_at(len.div_ceil(3));
            let mut fasta = format!(">one\n{}\n", String::from_utf8_lossy(a)).into_bytes();
            if !b.is_empty() {
                fasta.extend(format!(">two\nNNNN{}\n", String::from_utf8_lossy(b)).bytes());
            }
            let fasta_path = dir.path().join(format!("r{i}.fa"));
            std::fs::write(&fasta_path, fasta).unwrap();
            let reference = read_fasta(&fasta_path).unwrap();
            let fm = fm_of(&reference.text, 32);
            let mut mirror = fm_of(&reference.text.reversed(), 1024);
            mirror.drop_locate_and_jump();
            let whole = dir.path().join(format!("whole{i}.galign"));
            write(&whole, &reference, &fm, &mirror).unwrap();
            let before = dir.path().join(format!("before{i}.galign"));
            let started = IndexWriter::start_before_build(&before, &reference, (32, Width::U32));
            if let Some(writer) = started.unwrap() {
                before_layouts += 1;
                writer.write_text(&reference).unwrap();
                writer.write_forward(&reference, &fm).unwrap();
                let written = writer.finish(&reference, &fm, &mirror).unwrap();
                written.commit().unwrap();
                let (got, want) = (std::fs::read(&before), std::fs::read(&whole));
                assert!(got.unwrap() == want.unwrap(), "{len} bases, started before");
            }
            let early = dir.path().join(format!("early{i}.galign"));
            let Some(writer) = IndexWriter::start(&early, &reference, &fm).unwrap() else {
                continue;
            };
            early_layouts += 1;
            writer.write_forward(&reference, &fm).unwrap();
            writer
                .finish(&reference, &fm, &mirror)
                .unwrap()
                .commit()
                .unwrap();
            assert_eq!(
                std::fs::read(&early).unwrap(),
                std::fs::read(&whole).unwrap(),
                "{len} bases"
            );
        }
        assert!(
            early_layouts >= 3 && before_layouts >= 2,
            "only {early_layouts} layouts fixed early, {before_layouts} before the build"
        );
    }

    #[test]
    fn a_peek_reads_the_text_length_of_an_index_and_nothing_of_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let fasta_path = dir.path().join("r.fa");
        std::fs::write(&fasta_path, b">a\nACGTTGCA\n>b\nNNGGA\n").unwrap();
        let reference = read_fasta(&fasta_path).unwrap();
        let fm = fm_of(&reference.text, 4);
        let mut mirror = fm_of(&reference.text.reversed(), 4);
        mirror.drop_locate_and_jump();
        let prefix = dir.path().join("r");
        write(&index_path(&prefix), &reference, &fm, &mirror).unwrap();
        let opened = Index::open(&prefix).unwrap();
        assert_eq!(Index::peek_text_len(&prefix), Some(opened.meta().text_len));
        assert_eq!(Index::peek_text_len(&dir.path().join("missing")), None);
        std::fs::write(index_path(&dir.path().join("fasta")), b">a\nACGT\n").unwrap();
        assert_eq!(Index::peek_text_len(&dir.path().join("fasta")), None);
    }
}
