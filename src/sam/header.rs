//! The SAM header: `@HD`, one `@SQ` per contig, an optional `@RG`, and `@PG`.

use std::ffi::OsString;

use rust_htslib::bam::header::{Header, HeaderRecord};

use crate::reference::Layout;

/// Why a `-R` read-group line was refused.
#[derive(Debug, thiserror::Error)]
pub enum ReadGroupError {
    /// It does not start with `@RG`.
    #[error("-R '{0}': a read group line must start with '@RG'")]
    NotRg(String),
    /// It lacks an `ID:` field.
    #[error("-R '{0}': the read group has no ID field")]
    NoId(String),
    /// A line break or another control character (a tab aside): it would break the
    /// header's lines.
    #[error(
        "-R '{line}': a read group line cannot hold a line break or control character ({found:?})"
    )]
    ControlCharacter {
        /// The `-R` line as given.
        line: String,
        /// The character found.
        found: char,
    },
    /// A tag given twice.
    #[error("-R '{line}': tag {tag} is given twice; a header line holds each tag once")]
    DuplicateTag {
        /// The `-R` line as given.
        line: String,
        /// The repeated tag.
        tag: String,
    },
    /// A field is not of the form `XX:value`.
    #[error("-R '{line}': field '{field}' is not of the form TAG:value")]
    BadField {
        /// The `-R` line as given.
        line: String,
        /// The field as given.
        field: String,
    },
}

/// A parsed `@RG` line: its ID and its tags in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGroup {
    /// The `ID` value, repeated as `RG:Z:` on every record.
    pub id: String,
    /// All tags (ID included), in the order given.
    pub tags: Vec<(String, String)>,
}

/// Parses a `-R` value; `\t` may be written literally (as bwa accepts).
pub fn parse_read_group(line: &str) -> Result<ReadGroup, ReadGroupError> {
    let unescaped = line.replace("\\t", "\t");
    if let Some(found) = unescaped.chars().find(|c| c.is_control() && *c != '\t') {
        return Err(ReadGroupError::ControlCharacter {
            line: line.escape_debug().to_string(),
            found,
        });
    }
    let mut fields = unescaped.split('\t');
    if fields.next() != Some("@RG") {
        return Err(ReadGroupError::NotRg(line.into()));
    }
    let mut tags = Vec::new();
    for field in fields.filter(|f| !f.is_empty()) {
        match field.split_once(':') {
            Some((tag, _)) if tags.iter().any(|(t, _)| t == tag) => {
                return Err(ReadGroupError::DuplicateTag {
                    line: line.into(),
                    tag: tag.into(),
                })
            }
            Some((tag, value)) if is_header_tag(tag) && !value.is_empty() => {
                tags.push((tag.to_string(), value.to_string()))
            }
            _ => {
                return Err(ReadGroupError::BadField {
                    line: line.into(),
                    field: field.into(),
                })
            }
        }
    }
    let id = tags
        .iter()
        .find(|(t, _)| t == "ID")
        .map(|(_, v)| v.clone())
        .ok_or_else(|| ReadGroupError::NoId(line.into()))?;
    Ok(ReadGroup { id, tags })
}

/// Whether `tag` is a header tag as SAM writes them: `[A-Za-z][A-Za-z0-9]`.
fn is_header_tag(tag: &str) -> bool {
    matches!(tag.as_bytes(), [a, b] if a.is_ascii_alphabetic() && b.is_ascii_alphanumeric())
}

/// `command_line` as a header value: control characters, which would end the field
/// (tab) or the line (newline), escaped as bwa reads them back (`\t`, `\n`, `\r`,
/// others as `\xHH`), every other character kept.
pub fn escape_header_value(command_line: &str) -> String {
    let mut escaped = String::with_capacity(command_line.len());
    for c in command_line.chars() {
        match c {
            '\t' => escaped.push_str("\\t"),
            '\n' => escaped.push_str("\\n"),
            '\r' => escaped.push_str("\\r"),
            c if c.is_control() => escaped.push_str(&format!("\\x{:02x}", c as u32)),
            c => escaped.push(c),
        }
    }
    escaped
}

/// Builds the header for `layout`'s contigs, a read group and the command line (written
/// escaped, [`escape_header_value`]).
pub fn build_header(layout: &Layout, read_group: Option<&ReadGroup>, command_line: &str) -> Header {
    let mut header = Header::new();
    header.push_record(
        HeaderRecord::new(b"HD")
            .push_tag(b"VN", "1.6")
            .push_tag(b"SO", "unsorted")
            .push_tag(b"GO", "query"),
    );
    for contig in &layout.contigs {
        header.push_record(
            HeaderRecord::new(b"SQ")
                .push_tag(b"SN", &contig.name)
                .push_tag(b"LN", contig.len),
        );
    }
    if let Some(rg) = read_group {
        let mut record = HeaderRecord::new(b"RG");
        for (tag, value) in &rg.tags {
            record.push_tag(tag.as_bytes(), value);
        }
        header.push_record(&record);
    }
    header.push_record(
        HeaderRecord::new(b"PG")
            .push_tag(b"ID", "galign")
            .push_tag(b"PN", "galign")
            .push_tag(b"VN", env!("CARGO_PKG_VERSION"))
            .push_tag(b"CL", escape_header_value(command_line)),
    );
    header
}

/// The command line for `@PG CL`, without the options that cannot change the output
/// (threads, device, batch size, verbosity (`--verbose`, `--quiet`), stats and summary files), so that output is byte-identical
/// whatever they are. (`-v K` of `map`, the mismatches, stays.) `args` are the
/// program's, its name first.
pub fn output_determining_command_line(args: impl IntoIterator<Item = OsString>) -> String {
    const WITH_VALUE: [&str; 6] = [
        "-t",
        "--threads",
        "--device",
        "--batch-size",
        "--stats",
        "--summary-file",
    ];
    const FLAGS: [&str; 3] = ["--verbose", "--quiet", "-q"];
    let mut words = Vec::new();
    // Arguments need not be UTF-8 (file names): any other byte is shown as U+FFFD.
    let mut args = args
        .into_iter()
        .map(|arg| arg.to_string_lossy().into_owned());
    while let Some(arg) = args.next() {
        if WITH_VALUE.contains(&arg.as_str()) {
            args.next();
            continue;
        }
        let dropped = FLAGS.contains(&arg.as_str())
            || WITH_VALUE.iter().any(|o| arg.starts_with(&format!("{o}=")))
            || (arg.starts_with("-t") && arg[2..].parse::<usize>().is_ok());
        if !dropped {
            words.push(arg);
        }
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pg_command_line_leaves_out_what_cannot_change_the_output() {
        let args = "galign map -t 4 --device=cpu -t8 --verbose --batch-size 10 --stats s.json \
                    -q --quiet -v 2 idx r.fq";
        let args = args.split_whitespace().map(OsString::from);
        assert_eq!(
            output_determining_command_line(args),
            "galign map -v 2 idx r.fq"
        );
    }

    #[test]
    fn read_group_lines() {
        let rg = parse_read_group(r"@RG\tID:s1\tSM:sample one\tPL:ILLUMINA").unwrap();
        assert_eq!(rg.id, "s1");
        assert_eq!(rg.tags.len(), 3);
        assert!(parse_read_group("@RG\tSM:x").is_err());
        assert!(parse_read_group("@XX\tID:x").is_err());
        assert!(parse_read_group("@RG\tIDx").is_err());
        assert!(matches!(
            parse_read_group("@RG\tID:x\n@CO:injected"),
            Err(ReadGroupError::ControlCharacter { found: '\n', .. })
        ));
        assert!(matches!(
            parse_read_group(r"@RG\tID:a\tID:b"),
            Err(ReadGroupError::DuplicateTag { ref tag, .. }) if tag == "ID"
        ));
        assert!(parse_read_group(r"@RG\tID:a\t1D:b").is_err());
    }

    #[test]
    fn command_lines_are_escaped() {
        assert_eq!(
            escape_header_value("galign map -o o\nx.bam I a\tb.fq \u{1}\\t é"),
            "galign map -o o\\nx.bam I a\\tb.fq \\x01\\t é"
        );
    }
}
