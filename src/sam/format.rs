//! The output's format: SAM or BAM, as `-O` asks or, without it, as the output's
//! extension says (SAM on stdout); what galign does not write (CRAM, compressed SAM) is
//! refused by name, with what to do instead, rather than written as SAM under its name.

use std::path::Path;

/// SAM text or BAM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// SAM text.
    Sam,
    /// BGZF-compressed BAM.
    Bam,
}

/// The format `-O` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatRequest {
    /// SAM text.
    Sam,
    /// BGZF-compressed BAM (to stdout too).
    Bam,
    /// Refused: galign writes SAM or BAM (convert BAM with `samtools view -C`).
    Cram,
}

/// An output format galign does not write, or `-O` and the extension at odds.
#[derive(Debug, thiserror::Error)]
pub enum OutputFormatError {
    /// CRAM, asked for by `-O cram` or a `.cram` output.
    #[error(
        "{asked}: galign writes SAM or BAM, not CRAM (CRAM needs the original reference); \
         write BAM and convert it: `samtools view -C -T REFERENCE.fa -o out.cram out.bam`"
    )]
    Cram {
        /// `-O cram` or the output's path.
        asked: String,
    },
    /// A compressed SAM name (`.sam.gz`, `.gz`, `.bz2`, ...).
    #[error(
        "{path}: galign writes SAM or BAM, not compressed SAM ({ext}); write BAM \
         (-o out.bam, BGZF-compressed) or pipe the SAM into a compressor"
    )]
    CompressedSam {
        /// The output's path.
        path: String,
        /// Its compression's extension.
        ext: String,
    },
    /// `-O` names one format and the output's extension the other.
    #[error(
        "-O {asked} but {path} ends in .{ext}: give the output a .{asked} name, or leave -O out"
    )]
    Conflict {
        /// The format `-O` names.
        asked: &'static str,
        /// The output's path.
        path: String,
        /// Its extension.
        ext: &'static str,
    },
}

/// Extensions of compressed files that galign does not write.
const COMPRESSED: [&str; 6] = ["gz", "bgz", "bgzf", "bz2", "xz", "zst"];

impl OutputFormat {
    /// The format of an output at `output` (`None` or `-`: stdout), as `asked` (`-O`)
    /// says, else as the extension says (`.bam` BAM, anything else SAM); CRAM, a
    /// compressed SAM name, or `-O` at odds with `.sam`/`.bam`, an error.
    pub fn resolve(
        output: Option<&Path>,
        asked: Option<FormatRequest>,
    ) -> Result<OutputFormat, OutputFormatError> {
        let file = output.filter(|p| p.as_os_str() != "-");
        let by_name = file.map(by_extension).transpose()?.flatten();
        let asked = match asked {
            Some(FormatRequest::Cram) => {
                let asked = "-O cram".to_string();
                return Err(OutputFormatError::Cram { asked });
            }
            Some(FormatRequest::Sam) => Some(OutputFormat::Sam),
            Some(FormatRequest::Bam) => Some(OutputFormat::Bam),
            None => None,
        };
        match (asked, by_name, file) {
            (Some(a), Some(n), Some(path)) if a != n => Err(OutputFormatError::Conflict {
                asked: a.name(),
                path: path.display().to_string(),
                ext: n.name(),
            }),
            (Some(a), _, _) => Ok(a),
            (None, Some(n), _) => Ok(n),
            (None, None, _) => Ok(OutputFormat::Sam),
        }
    }

    /// The format's name and extension: `sam` or `bam`.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Sam => "sam",
            OutputFormat::Bam => "bam",
        }
    }
}

/// The format the name of `path` says: `Some` for `.sam` and `.bam`, `None` for any
/// other name; CRAM and compressed names an error.
fn by_extension(path: &Path) -> Result<Option<OutputFormat>, OutputFormatError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("bam") => Ok(Some(OutputFormat::Bam)),
        Some("sam") => Ok(Some(OutputFormat::Sam)),
        Some("cram") => Err(OutputFormatError::Cram {
            asked: path.display().to_string(),
        }),
        Some(c) if COMPRESSED.contains(&c) => Err(OutputFormatError::CompressedSam {
            path: path.display().to_string(),
            ext: format!(".{c}"),
        }),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(path: Option<&str>, asked: Option<FormatRequest>) -> Result<OutputFormat, String> {
        OutputFormat::resolve(path.map(Path::new), asked).map_err(|e| e.to_string())
    }

    #[test]
    fn the_format_comes_from_o_then_the_extension() {
        use FormatRequest as R;
        use OutputFormat::{Bam, Sam};
        assert_eq!(resolve(None, None), Ok(Sam));
        assert_eq!(resolve(Some("-"), Some(R::Bam)), Ok(Bam));
        assert_eq!(resolve(None, Some(R::Bam)), Ok(Bam));
        assert_eq!(resolve(Some("x.BAM"), None), Ok(Bam));
        assert_eq!(resolve(Some("x.out"), Some(R::Bam)), Ok(Bam));
        assert_eq!(resolve(Some("/dev/stdout"), None), Ok(Sam));
        assert!(resolve(Some("x.cram"), None)
            .unwrap_err()
            .contains("samtools view -C"));
        assert!(resolve(None, Some(R::Cram))
            .unwrap_err()
            .starts_with("-O cram: "));
        let e = resolve(Some("x.sam.gz"), None).unwrap_err();
        assert!(e.contains("not compressed SAM (.gz)"), "{e}");
        let e = resolve(Some("x.bam"), Some(R::Sam)).unwrap_err();
        assert_eq!(
            e,
            "-O sam but x.bam ends in .bam: give the output a .sam name, or leave -O out"
        );
    }
}
