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

/// First eight bytes of every index file (the input layer's, which refuses an index
/// given as reads or reference).
pub const MAGIC: &[u8; 8] = crate::io::INDEX_MAGIC;
/// Format version written by this build; only this version is read. Version 2 added
/// the mirror index (`MOCC`, `mirror_primary`) that `map -v K` searches with; version 3
/// the position width (`position_bytes`: 64-bit positions past 2^32 - 3 bases); version
/// 4 one jump-table entry a k-mer (its first row) instead of two.
pub const VERSION: u32 = 4;
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
    /// The command that remakes it, in errors; `PREFIX` stands for the file's own
    /// prefix ([`Kind::remake_command`]).
    pub remake: &'static str,
}

impl Kind {
    /// The command that remakes the file at `path`: [`Kind::remake`] with `PREFIX`
    /// replaced by `path` without its `.galign` extension.
    pub fn remake_command(&self, path: &str) -> String {
        let suffix = format!(".{}", super::EXTENSION);
        let prefix = path.strip_suffix(&suffix).unwrap_or(path);
        self.remake.replace("PREFIX", prefix)
    }
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
        /// Which kind of file (index or part file), for the message.
        kind: &'static Kind,
        /// The file's path.
        path: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// Not an index file at all.
    #[error("{path}: not a galign {} (bad magic bytes)", kind.noun)]
    BadMagic {
        /// Which kind of file (index or part file), for the message.
        kind: &'static Kind,
        /// The file's path.
        path: String,
    },
    /// An index of another format version.
    #[error("{path}: {} format version {found}, this galign reads version {expected}; rebuild it with `{}`", kind.noun, kind.remake_command(path))]
    Version {
        /// Which kind of file (index or part file), for the message.
        kind: &'static Kind,
        /// The file's path.
        path: String,
        /// The version the file has.
        found: u32,
        /// The version this galign reads.
        expected: u32,
    },
    /// The file is shorter than its table says, or the table is malformed.
    #[error("{path}: {} file is truncated or corrupt ({what})", kind.noun)]
    Truncated {
        /// Which kind of file (index or part file), for the message.
        kind: &'static Kind,
        /// The file's path.
        path: String,
        /// What is wrong.
        what: String,
    },
    /// A section's checksum does not match its bytes.
    #[error("{path}: section {section} fails its checksum: the {} is corrupt; rebuild it with `{}`", kind.noun, kind.remake_command(path))]
    Checksum {
        /// Which kind of file (index or part file), for the message.
        kind: &'static Kind,
        /// The file's path.
        path: String,
        /// The section's name.
        section: String,
    },
    /// The file was written in place (by another program) while it was mapped: what was
    /// read from it may be wrong.
    #[error(
        "{path}: the {} was modified while in use (written in place by another program), \
         so what was read from it may be wrong and nothing is written; run again once \
         nothing else writes to it",
        kind.noun
    )]
    Changed {
        /// Which kind of file (index or part file), for the message.
        kind: &'static Kind,
        /// The file's path.
        path: String,
    },
    /// A required section is absent.
    #[error("{path}: {} lacks section {section}", kind.noun)]
    Missing {
        /// Which kind of file (index or part file), for the message.
        kind: &'static Kind,
        /// The file's path.
        path: String,
        /// The section's name.
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
/// temporary file that is renamed into place only when complete.
pub fn write_kind(
    kind: &'static Kind,
    path: &Path,
    sections: &[(&str, &[u8])],
) -> std::io::Result<()> {
    write_unfinished(kind, path, sections)?.finish()
}

/// [`write_kind`] up to its [`SectionWriter::finish`]: every section written (the
/// caller's arrays no longer needed), the header, sync and rename left to do.
pub fn write_unfinished(
    kind: &'static Kind,
    path: &Path,
    sections: &[(&str, &[u8])],
) -> std::io::Result<SectionWriter> {
    let lengths: Vec<_> = sections
        .iter()
        .map(|(name, b)| (*name, b.len()..=b.len()))
        .collect();
    let writer =
        SectionWriter::create(kind, path, &lengths)?.expect("exact lengths fix the layout");
    for (i, (_, bytes)) in sections.iter().enumerate() {
        writer.write(i, bytes)?;
    }
    Ok(writer)
}

/// A container written a section at a time, in any order and from any thread, at
/// offsets fixed when it is created: a section can go to disk as soon as it is made
/// while others are still being made. The lengths given may be ranges (a section
/// whose exact size is not known yet); the layout is fixed only when every length in
/// the ranges gives the same offsets. Each section's bytes are checksummed and written
/// in parallel chunks at their place, each chunk handed to the disk once written
/// (`sync_file_range`), so that the final `fsync` has little left to wait for; the
/// header and table go last, then the file is synced and renamed into place.
pub struct SectionWriter {
    kind: &'static Kind,
    file: AtomicFile,
    out: File,
    /// Each section's name, offset and the lengths it may have.
    plan: Vec<(String, usize, std::ops::RangeInclusive<usize>)>,
    /// Each section's length and CRC once written.
    written: std::sync::Mutex<Vec<Option<(usize, u32)>>>,
}

impl SectionWriter {
    /// Starts a container of `kind` at `path` (under a temporary name) for `sections`
    /// (name, possible lengths); `None` when their offsets depend on which lengths they
    /// take (nothing is created then).
    pub fn create(
        kind: &'static Kind,
        path: &Path,
        sections: &[(&str, std::ops::RangeInclusive<usize>)],
    ) -> std::io::Result<Option<SectionWriter>> {
        let offsets = |pick: fn(&std::ops::RangeInclusive<usize>) -> usize| {
            let mut offset = align(HEADER_LEN + ENTRY_LEN * sections.len());
            let mut all = Vec::with_capacity(sections.len());
            for (_, lengths) in sections {
                all.push(offset);
                offset = align(offset + pick(lengths));
            }
            all
        };
        let at = offsets(|r| *r.start());
        if at != offsets(|r| *r.end()) {
            return Ok(None);
        }
        let plan = sections
            .iter()
            .zip(at)
            .map(|((name, lengths), offset)| {
                assert!(name.len() <= 8);
                (name.to_string(), offset, lengths.clone())
            })
            .collect();
        let (file, out) = AtomicFile::open(path)?;
        Ok(Some(SectionWriter {
            kind,
            file,
            out,
            plan,
            written: std::sync::Mutex::new(vec![None; sections.len()]),
        }))
    }

    /// Writes section `index` (its bytes must have one of the lengths planned) and
    /// starts handing them to the disk.
    pub fn write(&self, index: usize, bytes: &[u8]) -> std::io::Result<()> {
        let (name, offset, lengths) = &self.plan[index];
        assert!(
            lengths.contains(&bytes.len()),
            "section {name}: unplanned length"
        );
        // Each chunk checksummed, written and handed to the disk by one task, so that the
        // disk starts on a section's first chunk, not once all of it is in the page cache.
        let hashers = beside_build_pool().install(|| {
            bytes
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(i, chunk)| {
                    let at = offset + i * CHUNK;
                    self.out.write_all_at(chunk, at as u64)?;
                    start_writeback(&self.out, at, chunk.len());
                    let mut hasher = crc32fast::Hasher::new();
                    hasher.update(chunk);
                    Ok(hasher)
                })
                .collect::<std::io::Result<Vec<_>>>()
        })?;
        let crc = combined(&hashers);
        self.written.lock().expect("no panic while held")[index] = Some((bytes.len(), crc));
        Ok(())
    }

    /// Whether section `index` is written.
    pub fn is_written(&self, index: usize) -> bool {
        self.written.lock().expect("no panic while held")[index].is_some()
    }

    /// Writes the header and table once every section is written, syncs the file and
    /// gives it its final name.
    pub fn finish(self) -> std::io::Result<()> {
        let written = self.written.into_inner().expect("no panic while held");
        let mut head = Vec::with_capacity(HEADER_LEN + ENTRY_LEN * self.plan.len());
        head.extend_from_slice(self.kind.magic);
        head.extend_from_slice(&self.kind.version.to_le_bytes());
        head.extend_from_slice(&(self.plan.len() as u32).to_le_bytes());
        head.resize(HEADER_LEN, 0);
        let mut end = align(HEADER_LEN + ENTRY_LEN * self.plan.len());
        for ((name, offset, _), done) in self.plan.iter().zip(&written) {
            let (len, crc) = done.unwrap_or_else(|| panic!("section {name} was not written"));
            let mut entry = [0u8; ENTRY_LEN];
            entry[..name.len()].copy_from_slice(name.as_bytes());
            entry[8..16].copy_from_slice(&(*offset as u64).to_le_bytes());
            entry[16..24].copy_from_slice(&(len as u64).to_le_bytes());
            entry[24..28].copy_from_slice(&crc.to_le_bytes());
            head.extend_from_slice(&entry);
            end = align(offset + len);
        }
        self.out.write_all_at(&head, 0)?;
        // The gaps between sections and the last one's padding read as zeros.
        self.out.set_len(end as u64)?;
        self.out.sync_all()?;
        drop(self.out);
        self.file.commit()
    }
}

/// Asks the kernel to start writing `len` bytes at `offset` of `file` to disk now, not
/// waiting for them (Linux; elsewhere the final sync writes everything).
fn start_writeback(file: &File, offset: usize, len: usize) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: a plain system call on an open descriptor; failure only loses the hint.
        unsafe {
            libc::sync_file_range(
                file.as_raw_fd(),
                offset as libc::off64_t,
                len as libc::off64_t,
                libc::SYNC_FILE_RANGE_WRITE,
            )
        };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, offset, len);
}

/// Bytes checksummed or written by one task.
const CHUNK: usize = 16 << 20;

/// Threads of [`beside_build_pool`].
const WRITING_THREADS: usize = 4;

/// The threads for work beside an index build: sections checksummed and written (`galign
/// index` writes the forward index during the mirror's build), the text reversed for the
/// mirror during the forward's build. A pool of their own leaves the shared pool to the
/// build: there, the blocking writes held up the GPU builder's parallel copies into its
/// staging buffers (3 Gbp on an H200: the mirror's text upload 164-211 ms against the
/// forward's 66-71), and the reversal slowed the forward's upload (67-80 ms against the
/// mirror's 20-28).
pub(crate) fn beside_build_pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(WRITING_THREADS)
            .thread_name(|i| format!("galign-write-{i}"))
            .build()
            .expect("the writing threads start")
    })
}

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
    combined(&hashers)
}

/// The CRC-32 of consecutive chunks from each chunk's hasher, in order.
fn combined(hashers: &[crc32fast::Hasher]) -> u32 {
    let mut all = crc32fast::Hasher::new();
    hashers.iter().for_each(|h| all.combine(h));
    all.finalize()
}

fn align(x: usize) -> usize {
    x.div_ceil(ALIGN) * ALIGN
}

/// A memory-mapped container file whose header, table and (unless mapped with
/// [`MappedFile::map_kind`]) checksums have been verified.
pub struct MappedFile {
    kind: &'static Kind,
    map: memmap2::Mmap,
    /// The mapped file, open, and its [`Stamp`] when it was mapped.
    file: File,
    stamp: Stamp,
    sections: Vec<Section>,
    path: String,
}

/// What tells that an open file was written: its size, its modification time, and its
/// change time with the links that name it (a rename over it, as galign replaces an
/// index, unlinks it: its change time moves with its link count, its contents stay).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    size: u64,
    modified: (i64, i64),
    changed: (i64, i64),
    links: u64,
}

impl Stamp {
    /// The stamp of the open `file` now.
    fn of(file: &File) -> std::io::Result<Stamp> {
        use std::os::unix::fs::MetadataExt;
        let m = file.metadata()?;
        Ok(Stamp {
            size: m.size(),
            modified: (m.mtime(), m.mtime_nsec()),
            changed: (m.ctime(), m.ctime_nsec()),
            links: m.nlink(),
        })
    }

    /// Whether this stamp, taken after `before`, shows a write (`cp -p` restores the
    /// modification time, not the change time).
    fn written_since(&self, before: &Stamp) -> bool {
        self.size != before.size
            || self.modified != before.modified
            || (self.links == before.links && self.changed != before.changed)
    }
}

/// One entry of a container's section table.
struct Section {
    name: String,
    /// Byte offset and length in the file.
    off: usize,
    len: usize,
    crc: u32,
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
        let file = Self::map_kind(kind, path)?;
        file.verify()?;
        Ok(file)
    }

    /// Maps `path`, a container of `kind`, and verifies magic, version and table, but
    /// not the sections' checksums: for a glance at a section (its bytes may be
    /// corrupt) before [`MappedFile::open_kind`].
    pub fn map_kind(kind: &'static Kind, path: &Path) -> Result<MappedFile, FormatError> {
        let shown = path.display().to_string();
        let io = |error| FormatError::Io {
            kind,
            path: shown.clone(),
            error,
        };
        let file = File::open(path).map_err(io)?;
        let stamp = Stamp::of(&file).map_err(io)?;
        // SAFETY: the index is treated as read-only; galign replaces it by rename, never
        // in place. Another program writing it in place changes what is read (never out
        // of bounds: the readers clamp what they index with), which
        // [`MappedFile::ensure_unchanged`] then finds.
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
            sections.push(Section {
                name,
                off,
                len,
                crc,
            });
        }
        Ok(MappedFile {
            kind,
            map,
            file,
            stamp,
            sections,
            path: shown,
        })
    }

    /// Checks that no program has written the file in place since it was mapped
    /// ([`FormatError::Changed`]). Replacing it by rename, as galign does, leaves the
    /// mapped file as it was and passes.
    pub fn ensure_unchanged(&self) -> Result<(), FormatError> {
        match Stamp::of(&self.file) {
            Ok(now) if !now.written_since(&self.stamp) => Ok(()),
            _ => Err(FormatError::Changed {
                kind: self.kind,
                path: self.path.clone(),
            }),
        }
    }

    /// Verifies every section's checksum (the sections in parallel).
    fn verify(&self) -> Result<(), FormatError> {
        let bad = self
            .sections
            .par_iter()
            .find_first(|s| checksum(&self.map[s.off..s.off + s.len]) != s.crc);
        match bad {
            Some(section) => Err(FormatError::Checksum {
                kind: self.kind,
                path: self.path.clone(),
                section: section.name.clone(),
            }),
            None => Ok(()),
        }
    }

    /// The bytes of section `name`.
    pub fn bytes(&self, name: &str) -> Result<&[u8], FormatError> {
        let section = self
            .sections
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| FormatError::Missing {
                kind: self.kind,
                path: self.path.clone(),
                section: name.into(),
            })?;
        Ok(&self.map[section.off..section.off + section.len])
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

    /// Sections of `lengths` bytes with distinct contents.
    fn contents(lengths: &[usize]) -> Vec<Vec<u8>> {
        let mut x = 7u64;
        let mut byte = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            (x >> 56) as u8
        };
        lengths
            .iter()
            .map(|&len| (0..len).map(|_| byte()).collect())
            .collect()
    }

    #[test]
    fn sections_written_in_any_order_make_the_file_written_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let names = ["META", "TEXT", "BIG", "LAST"];
        let bytes = contents(&[100, 64, CHUNK + 70, 3]);
        let sections: Vec<(&str, &[u8])> = names
            .iter()
            .copied()
            .zip(bytes.iter().map(|b| &b[..]))
            .collect();
        let whole = dir.path().join("whole");
        write_kind(&INDEX, &whole, &sections).unwrap();
        // The first section's length known only within 90..=110 bytes; the others are
        // written first, from threads of their own.
        let early = dir.path().join("early");
        let mut lengths: Vec<_> = sections
            .iter()
            .map(|(n, b)| (*n, b.len()..=b.len()))
            .collect();
        lengths[0].1 = 90..=110;
        let writer = SectionWriter::create(&INDEX, &early, &lengths)
            .unwrap()
            .unwrap();
        std::thread::scope(|scope| {
            for i in [3, 1, 2] {
                let (writer, bytes) = (&writer, sections[i].1);
                scope.spawn(move || writer.write(i, bytes).unwrap());
            }
        });
        writer.write(0, sections[0].1).unwrap();
        writer.finish().unwrap();
        assert_eq!(
            std::fs::read(&early).unwrap(),
            std::fs::read(&whole).unwrap()
        );
        let file = MappedFile::open(&early).unwrap();
        for (name, bytes) in &sections {
            assert_eq!(file.bytes(name).unwrap(), *bytes);
        }
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "no temporary left: {names:?}");
    }

    #[test]
    fn lengths_that_may_move_a_section_leave_the_layout_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        // The table ends at 64 + 2 * 32 = 128; 10 or 80 bytes of META put TEXT at 192 or 256.
        let lengths = [("META", 10..=80), ("TEXT", 5..=5)];
        assert!(SectionWriter::create(&INDEX, &path, &lengths)
            .unwrap()
            .is_none());
        assert!(
            std::fs::read_dir(dir.path()).unwrap().next().is_none(),
            "nothing created"
        );
        let fixed = [("META", 10..=60), ("TEXT", 5..=5)];
        assert!(SectionWriter::create(&INDEX, &path, &fixed)
            .unwrap()
            .is_some());
    }

    #[test]
    fn an_unfinished_container_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        let writer = SectionWriter::create(&INDEX, &path, &[("META", 4..=4)])
            .unwrap()
            .unwrap();
        writer.write(0, b"meta").unwrap();
        drop(writer);
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
    }
}
