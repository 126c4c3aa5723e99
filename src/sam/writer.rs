//! Writing SAM (stdout or file) or BGZF BAM; files are written under a temporary name
//! and renamed when complete, so a killed run never leaves a finished-looking file.

use std::path::{Path, PathBuf};

use rust_htslib::bam::{self, header::Header, Record};

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

/// An alignment writer to stdout or to a file.
pub struct SamWriter {
    inner: Option<bam::Writer>,
    /// (temporary, final) names when writing a file.
    rename: Option<(PathBuf, PathBuf)>,
}

impl SamWriter {
    /// Opens the output: stdout (SAM) when `path` is `None` or `-`.
    pub fn create(
        path: Option<&Path>,
        header: &Header,
        threads: usize,
    ) -> anyhow::Result<SamWriter> {
        let (inner, rename) = match path.filter(|p| p.as_os_str() != "-") {
            None => (bam::Writer::from_stdout(header, bam::Format::Sam)?, None),
            Some(path) => {
                let format = match OutputFormat::for_path(path) {
                    OutputFormat::Sam => bam::Format::Sam,
                    OutputFormat::Bam => bam::Format::Bam,
                };
                let tmp = crate::index::format::temporary_name(path);
                let writer = bam::Writer::from_path(&tmp, header, format)
                    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
                (writer, Some((tmp, path.to_path_buf())))
            }
        };
        let mut writer = SamWriter {
            inner: Some(inner),
            rename,
        };
        if threads > 1 {
            writer.htslib().set_threads(threads)?;
        }
        Ok(writer)
    }

    fn htslib(&mut self) -> &mut bam::Writer {
        self.inner
            .as_mut()
            .expect("writer is open until finish or abort")
    }

    /// Writes one record.
    pub fn write(&mut self, record: &Record) -> anyhow::Result<()> {
        self.htslib()
            .write(record)
            .map_err(|e| anyhow::anyhow!("cannot write alignments: {e}"))
    }

    /// Flushes and closes the output, giving a file its final name.
    pub fn finish(mut self) -> anyhow::Result<()> {
        drop(self.inner.take());
        if let Some((tmp, path)) = self.rename.take() {
            std::fs::rename(&tmp, &path)
                .map_err(|e| anyhow::anyhow!("cannot rename output to {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

impl Drop for SamWriter {
    /// A writer dropped without [`SamWriter::finish`] (an error, a panic) removes its
    /// temporary file.
    fn drop(&mut self) {
        drop(self.inner.take());
        if let Some((tmp, _)) = self.rename.take() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}
