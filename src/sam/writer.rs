//! Writing SAM (stdout or file) or BGZF BAM; files are written under a temporary name
//! and renamed when complete, so a killed run never leaves a finished-looking file.
//! BAM goes through htslib (its threads compress); SAM lines come formatted
//! ([`Encoded::Sam`]) and are written as they are.

use std::io::{BufWriter, Write};
use std::path::Path;

use rust_htslib::bam::{self, header::Header};

use super::Encoded;
use crate::atomic_file::AtomicFile;

/// SAM text or BAM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// SAM text.
    Sam,
    /// BGZF-compressed BAM.
    Bam,
}

impl OutputFormat {
    /// BAM for a path ending in `.bam`, SAM otherwise.
    pub fn for_path(path: &Path) -> OutputFormat {
        match path.extension() {
            Some(ext) if ext.eq_ignore_ascii_case("bam") => OutputFormat::Bam,
            _ => OutputFormat::Sam,
        }
    }
}

/// Output buffer of SAM text.
const SAM_BUFFER: usize = 4 << 20;

/// Where records go.
enum Sink {
    /// BAM through htslib.
    Bam(bam::Writer),
    /// SAM text.
    Sam(BufWriter<Box<dyn Write + Send>>),
}

/// An alignment writer to stdout or to a file.
pub struct SamWriter {
    inner: Option<Sink>,
    /// The output file, when not writing to stdout.
    file: Option<AtomicFile>,
}

impl SamWriter {
    /// Opens the output: stdout (SAM) when `path` is `None` or `-`; `threads`
    /// compress BAM.
    pub fn create(
        path: Option<&Path>,
        header: &Header,
        threads: usize,
    ) -> anyhow::Result<SamWriter> {
        let path = path.filter(|p| p.as_os_str() != "-");
        let format = path.map_or(OutputFormat::Sam, OutputFormat::for_path);
        let cannot = |e: &dyn std::fmt::Display| match path {
            Some(path) => anyhow::anyhow!("cannot write {}: {e}", path.display()),
            None => anyhow::anyhow!("cannot write to stdout: {e}"),
        };
        let mut writer = SamWriter {
            inner: None,
            file: path.map(AtomicFile::new),
        };
        let target = writer.file.as_ref();
        writer.inner = Some(match format {
            OutputFormat::Bam => {
                let tmp = target.expect("BAM goes to a file").temporary();
                let mut bam = bam::Writer::from_path(tmp, header, bam::Format::Bam)
                    .map_err(|e| cannot(&e))?;
                if threads > 1 {
                    bam.set_threads(threads)?;
                }
                Sink::Bam(bam)
            }
            OutputFormat::Sam => {
                let out: Box<dyn Write + Send> = match target {
                    Some(file) => Box::new(file.create().map_err(|e| cannot(&e))?),
                    None => Box::new(std::io::stdout()),
                };
                let mut out = BufWriter::with_capacity(SAM_BUFFER, out);
                // The header as htslib writes it: its text, ending in a newline.
                let mut text = header.to_bytes();
                if text.last().is_some_and(|&b| b != b'\n') {
                    text.push(b'\n');
                }
                out.write_all(&text).map_err(|e| cannot(&e))?;
                Sink::Sam(out)
            }
        });
        Ok(writer)
    }

    /// Whether records are to be encoded as SAM text rather than htslib records.
    pub fn wants_text(&self) -> bool {
        matches!(self.inner, Some(Sink::Sam(_)))
    }

    /// Writes records encoded for this writer (see [`SamWriter::wants_text`]).
    pub fn write(&mut self, records: &Encoded) -> anyhow::Result<()> {
        let sink = self
            .inner
            .as_mut()
            .expect("writer is open until finish or drop");
        let result = match (sink, records) {
            (Sink::Bam(bam), Encoded::Bam(records)) => records
                .iter()
                .try_for_each(|r| bam.write(r).map_err(|e| e.to_string())),
            (Sink::Sam(out), Encoded::Sam(text)) => out.write_all(text).map_err(|e| e.to_string()),
            _ => panic!("records encoded for the other output format"),
        };
        result.map_err(|e| anyhow::anyhow!("cannot write alignments: {e}"))
    }

    /// Flushes and closes the output, giving a file its final name.
    pub fn finish(mut self) -> anyhow::Result<()> {
        if let Some(Sink::Sam(out)) = &mut self.inner {
            out.flush()
                .map_err(|e| anyhow::anyhow!("cannot write alignments: {e}"))?;
        }
        drop(self.inner.take());
        if let Some(file) = self.file.take() {
            let path = file.path().to_path_buf();
            file.commit()
                .map_err(|e| anyhow::anyhow!("cannot rename output to {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

impl Drop for SamWriter {
    /// A writer dropped without [`SamWriter::finish`] (an error, a panic) removes its
    /// temporary file.
    fn drop(&mut self) {
        drop(self.inner.take()); // closed before its temporary file is removed
        drop(self.file.take());
    }
}
