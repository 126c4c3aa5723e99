//! Writing SAM (stdout or file) or BGZF BAM; files are written under a temporary name
//! and renamed when complete, so a killed run never leaves a finished-looking file.
//! Records come encoded ([`Encoded`]): SAM lines are written as they are, BAM records
//! go to the BGZF writer (module `bgzf`), which compresses them on the worker threads.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use rust_htslib::bam::{header::Header, HeaderView};

use super::bgzf::BgzfWriter;
use super::{Encoded, OutputFormat, RecordBuffers};
use crate::atomic_file::AtomicFile;

/// Output buffer of compressed BAM.
const BAM_BUFFER: usize = 4 << 20;
/// Output buffer of SAM text: smaller than the parts of a batch (a few hundred reads
/// each), which are then written as they are, without a copy into the buffer.
const SAM_BUFFER: usize = 64 << 10;

/// Where records go.
enum Sink {
    /// BGZF-compressed BAM (to a file or stdout).
    Bam(BgzfWriter<BufWriter<Box<dyn Write + Send>>>),
    /// SAM text.
    Sam(BufWriter<Box<dyn Write + Send>>),
}

/// Why alignments could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The output file could not be opened, or its header written.
    #[error("cannot write {}: {reason}", .path.display())]
    Open {
        /// The output file.
        path: PathBuf,
        /// Why.
        reason: OpenError,
    },
    /// Stdout could not be written to from the start.
    #[error("cannot write to stdout: {reason}")]
    OpenStdout {
        /// Why.
        reason: OpenError,
    },
    /// Writing records (or flushing them) failed; a closed pipe keeps its kind.
    #[error("cannot write alignments to {destination}")]
    Write {
        /// The output file, or stdout.
        destination: String,
        /// The failure.
        source: std::io::Error,
    },
    /// The complete output could not be given its name.
    #[error("cannot rename output to {}: {error}", .path.display())]
    Rename {
        /// The output file.
        path: PathBuf,
        /// The failure.
        error: std::io::Error,
    },
}

/// Why an output could not be opened ([`WriteError::Open`]).
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file could not be created or written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Stdout was closed when galign started.
    #[error("it is closed (give an output file with -o)")]
    StdoutClosed,
    /// BAM cannot hold the header.
    #[error(transparent)]
    Header(#[from] BamHeaderError),
}

/// A header that BAM cannot hold (SAM can).
#[derive(Debug, thiserror::Error)]
pub enum BamHeaderError {
    /// A contig longer than BAM positions reach.
    #[error("contig {name} has {len} bases; BAM positions stop at 2^31 - 1 (write SAM instead)")]
    ContigTooLong {
        /// The contig's name.
        name: String,
        /// Its length.
        len: u64,
    },
    /// A header text longer than BAM's 32-bit length.
    #[error(
        "the SAM header is {len} bytes; BAM holds at most {} (write SAM instead)",
        u32::MAX
    )]
    TextTooLong {
        /// The text's length.
        len: usize,
    },
}

/// An alignment writer to stdout or to a file.
pub struct SamWriter {
    inner: Option<Sink>,
    /// The output file, when not writing to stdout.
    file: Option<AtomicFile>,
    /// Where the parts' buffers go once written (SAM) or compressed (BAM).
    buffers: RecordBuffers,
}

impl SamWriter {
    /// Opens the output in `format` ([`OutputFormat::resolve`]) and writes the header:
    /// stdout when `path` is `None` or `-`; `threads` compress BAM at zlib-style `level`
    /// (0 to 9; SAM ignores it).
    pub fn create(
        (path, format): (Option<&Path>, OutputFormat),
        header: &Header,
        (threads, level): (usize, u8),
    ) -> Result<SamWriter, WriteError> {
        let path = path.filter(|p| p.as_os_str() != "-");
        let cannot = |reason: OpenError| match path {
            Some(path) => WriteError::Open {
                path: path.to_path_buf(),
                reason,
            },
            None => WriteError::OpenStdout { reason },
        };
        let (file, out) = match path {
            Some(path) => {
                let (file, out) = AtomicFile::open(path).map_err(|e| cannot(e.into()))?;
                (Some(file), Some(out))
            }
            None if crate::stdio::stdout_was_closed() => {
                return Err(cannot(OpenError::StdoutClosed))
            }
            None => (None, None),
        };
        let mut writer = SamWriter {
            inner: None,
            file,
            buffers: RecordBuffers::default(),
        };
        let out: Box<dyn Write + Send> = match out {
            Some(out) => Box::new(out),
            None => Box::new(std::io::stdout()),
        };
        writer.inner = Some(match format {
            OutputFormat::Bam => {
                let bam_header = bam_header(header).map_err(|e| cannot(e.into()))?;
                let out = BufWriter::with_capacity(BAM_BUFFER, out);
                let mut bam = BgzfWriter::new(out, threads, level).map_err(|e| cannot(e.into()))?;
                bam.recycle_into(writer.buffers.clone());
                bam.write_header(&bam_header)
                    .map_err(|e| cannot(e.into()))?;
                Sink::Bam(bam)
            }
            OutputFormat::Sam => {
                let mut out = BufWriter::with_capacity(SAM_BUFFER, out);
                out.write_all(&header_text(header))
                    .map_err(|e| cannot(e.into()))?;
                Sink::Sam(out)
            }
        });
        Ok(writer)
    }

    /// The pool that this writer gives the parts' buffers back to, for encoding the
    /// next records into.
    pub fn buffers(&self) -> RecordBuffers {
        self.buffers.clone()
    }

    /// Whether records are to be encoded as SAM text rather than BAM records.
    pub fn wants_text(&self) -> bool {
        matches!(self.inner, Some(Sink::Sam(_)))
    }

    /// Writes the parts of a batch, in order, encoded for this writer (see
    /// [`SamWriter::wants_text`]). An I/O error keeps its kind (a closed pipe is told
    /// apart by the caller).
    pub fn write(&mut self, parts: Vec<Encoded>) -> Result<(), WriteError> {
        let sink = self
            .inner
            .as_mut()
            .expect("writer is open until finish or drop");
        let bam = matches!(sink, Sink::Bam(_));
        let parts = parts.into_iter().map(|part| match part {
            Encoded::Bam(bytes) if bam => bytes,
            Encoded::Sam(text) if !bam => text,
            _ => panic!("records encoded for the other output format"),
        });
        let result = match sink {
            Sink::Bam(bam) => bam.write_records(parts),
            Sink::Sam(out) => parts.into_iter().try_for_each(|text| {
                out.write_all(&text)?;
                self.buffers.give(text);
                Ok(())
            }),
        };
        result.map_err(|source| self.cannot_write(source))
    }

    /// Writing to the output failed with `source`; the error names where the
    /// alignments go: the output file, or stdout.
    fn cannot_write(&self, source: std::io::Error) -> WriteError {
        let destination = self
            .file
            .as_ref()
            .map_or("stdout".into(), |file| file.path().display().to_string());
        WriteError::Write {
            destination,
            source,
        }
    }

    /// Flushes and closes the output, giving a file its final name.
    pub fn finish(self) -> Result<(), WriteError> {
        if let Some(file) = self.close()? {
            let path = file.path().to_path_buf();
            file.commit()
                .map_err(|error| WriteError::Rename { path, error })?;
        }
        Ok(())
    }

    /// Flushes and closes the output; a file is handed back under its temporary name,
    /// for the caller to commit once the run's other checks pass (dropping it removes
    /// it).
    pub fn close(mut self) -> Result<Option<AtomicFile>, WriteError> {
        match self.inner.take() {
            Some(Sink::Bam(bam)) => bam.finish().map(drop),
            Some(Sink::Sam(mut out)) => out.flush(),
            None => Ok(()),
        }
        .map_err(|source| self.cannot_write(source))?;
        Ok(self.file.take())
    }
}

/// The header text as htslib writes it: ending in a newline.
fn header_text(header: &Header) -> Vec<u8> {
    let mut text = header.to_bytes();
    if text.last().is_some_and(|&b| b != b'\n') {
        text.push(b'\n');
    }
    text
}

/// The BAM header as htslib's `bam_hdr_write` lays it out: magic, text, then each
/// reference's name and length; refused when a contig is longer than BAM positions
/// reach.
fn bam_header(header: &Header) -> Result<Vec<u8>, BamHeaderError> {
    let text = header_text(header);
    let text_len = bam_text_len(text.len())?;
    let view = HeaderView::from_header(header);
    let mut out = b"BAM\x01".to_vec();
    out.extend_from_slice(&text_len.to_le_bytes());
    out.extend_from_slice(&text);
    out.extend_from_slice(&view.target_count().to_le_bytes());
    for tid in 0..view.target_count() {
        let name = view.tid2name(tid);
        out.extend_from_slice(&(name.len() as u32 + 1).to_le_bytes());
        out.extend_from_slice(name);
        out.push(0);
        let len = view.target_len(tid).expect("every target has a length");
        if len > i32::MAX as u64 {
            let name = String::from_utf8_lossy(name).into_owned();
            return Err(BamHeaderError::ContigTooLong { name, len });
        }
        out.extend_from_slice(&(len as u32).to_le_bytes());
    }
    Ok(out)
}

/// BAM's `l_text` for a header text of `len` bytes: refused past 2^32 - 1, which BAM's
/// 32-bit field cannot hold (a header of millions of contigs; write SAM instead).
fn bam_text_len(len: usize) -> Result<u32, BamHeaderError> {
    u32::try_from(len).map_err(|_| BamHeaderError::TextTooLong { len })
}

impl Drop for SamWriter {
    /// A writer dropped without [`SamWriter::finish`] (an error, a panic) removes its
    /// temporary file, and drops the SAM text still in its buffer unwritten: a run that
    /// fails before its first records (no GPU under `--device gpu`, bad reads at the
    /// start) leaves nothing on stdout, not a header that looks like an empty result.
    fn drop(&mut self) {
        // Closed before its temporary file is removed.
        match self.inner.take() {
            Some(Sink::Sam(out)) => drop(out.into_parts()),
            sink => drop(sink),
        }
        drop(self.file.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A BAM output at `path`.
    fn bam(path: &Path) -> (Option<&Path>, OutputFormat) {
        (Some(path), OutputFormat::Bam)
    }
    use crate::reference::{Contig, Layout};
    use crate::sam::DEFAULT_BAM_LEVEL as DEFAULT_LEVEL;

    #[test]
    fn bam_refuses_contigs_past_its_positions() {
        let contig = |name: &str, len| Contig {
            name: name.into(),
            description: String::new(),
            offset: 0,
            len,
        };
        let layout = |len| Layout {
            contigs: vec![contig("chr1", 1000), contig("huge", len)],
            ambiguous: Vec::new(),
        };
        let header = |len| crate::sam::build_header(&layout(len), None, "galign map test");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.bam");
        let error = SamWriter::create(bam(&path), &header(1 << 31), (1, DEFAULT_LEVEL))
            .err()
            .expect("a 2^31-base contig is refused");
        let message = format!("{error:#}");
        assert!(
            message.contains("out.bam") && message.contains("huge"),
            "{message}"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let writer =
            SamWriter::create(bam(&path), &header((1 << 31) - 1), (1, DEFAULT_LEVEL)).unwrap();
        writer.finish().unwrap();
        assert!(path.is_file());
    }

    #[test]
    fn bam_refuses_a_header_text_past_its_32_bit_length() {
        assert_eq!(bam_text_len(12).unwrap(), 12);
        assert_eq!(bam_text_len(u32::MAX as usize).unwrap(), u32::MAX);
        let error = bam_text_len(1 << 32).unwrap_err().to_string();
        assert!(error.contains("4294967296 bytes"), "{error}");
    }

    /// A part's buffer goes back to the writer's pool once written (SAM) or compressed
    /// (BAM), for the next records to be encoded into.
    #[test]
    fn written_parts_buffers_go_back_to_the_pool() {
        let layout = Layout {
            contigs: vec![Contig {
                name: "chr1".into(),
                description: String::new(),
                offset: 0,
                len: 1000,
            }],
            ambiguous: Vec::new(),
        };
        let header = crate::sam::build_header(&layout, None, "galign map test");
        let dir = tempfile::tempdir().unwrap();
        for name in ["out.sam", "out.bam"] {
            let path = dir.path().join(name);
            let format = OutputFormat::resolve(Some(&path), None).unwrap();
            let mut writer =
                SamWriter::create((Some(&path), format), &header, (2, DEFAULT_LEVEL)).unwrap();
            let buffers = writer.buffers();
            let mut part = buffers.take(writer.wants_text(), 1000);
            let bytes = match &mut part {
                Encoded::Sam(bytes) | Encoded::Bam(bytes) => bytes,
            };
            // One line, or one record led by its size (the BAM writer reads no further).
            bytes.extend_from_slice(match writer.wants_text() {
                true => &b"r\t4\t*\t0\t0\t*\t*\t0\t0\tA\tI\n"[..],
                false => &[4, 0, 0, 0, 1, 2, 3, 4][..],
            });
            let at = bytes.as_ptr();
            writer.write(vec![part]).unwrap();
            writer.finish().unwrap();
            let mut back = Vec::new();
            loop {
                let (Encoded::Sam(bytes) | Encoded::Bam(bytes)) = buffers.take(true, 0);
                if bytes.capacity() == 0 {
                    break; // a new one: the pool is empty
                }
                assert!(bytes.is_empty(), "{name}: given back emptied");
                back.push(bytes.as_ptr());
            }
            assert!(back.contains(&at), "{name}: the part's buffer is back");
        }
    }
}
