//! The SAM specification's rules for what galign copies into SAM fields: read names
//! (QNAME), contig names (RNAME, `@SQ SN`) and base qualities (QUAL). Inputs are checked
//! against them where they are read, so that an input SAM cannot hold is refused with
//! the record at fault, never written as a file samtools rejects.

/// The longest read name SAM allows (BAM stores it with its NUL in one byte).
pub const MAX_READ_NAME: usize = 254;

/// Why a read name cannot be a SAM QNAME (`[!-?A-~]{1,254}`).
pub fn read_name_problem(name: &[u8]) -> Option<String> {
    if name.is_empty() {
        return Some("the read has no name (SAM requires one)".into());
    }
    if name.len() > MAX_READ_NAME {
        return Some(format!(
            "the read name is {} characters; SAM allows at most {MAX_READ_NAME}",
            name.len()
        ));
    }
    let bad = name
        .iter()
        .position(|&b| !(b'!'..=b'~').contains(&b) || b == b'@')?;
    Some(format!(
        "read name '{}' holds {} at character {}; SAM read names are printable ASCII without '@'",
        name.escape_ascii(),
        shown_byte(name[bad]),
        bad + 1
    ))
}

/// Why a contig name cannot be a SAM reference name (SAM 1.6:
/// `[0-9A-Za-z!#$%&+./:;?@^_|~-][0-9A-Za-z!#$%&*+./:;=?@^_|~-]*`): `*` alone would read
/// as "no reference", a leading `=` as "the mate's", a comma would make `XA`/`SA`
/// ambiguous, and anything but printable ASCII would not survive as written.
pub fn contig_name_problem(name: &[u8]) -> Option<String> {
    let Some(&first) = name.first() else {
        return Some("the contig has no name".into());
    };
    if first == b'*' || first == b'=' {
        return Some(format!(
            "contig name '{}' starts with '{}', which SAM forbids there",
            name.escape_ascii(),
            first as char
        ));
    }
    let bad = name.iter().position(|&b| !is_rname_byte(b))?;
    Some(format!(
        "contig name '{}' holds {} at character {}; SAM reference names are printable ASCII \
         without \\ , \" ' ` ( ) [ ] {{ }} < >",
        name.escape_ascii(),
        shown_byte(name[bad]),
        bad + 1
    ))
}

/// Whether `byte` may appear in a SAM reference name (past its first character).
fn is_rname_byte(byte: u8) -> bool {
    (b'!'..=b'~').contains(&byte) && !b"\\,\"'`()[]{}<>".contains(&byte)
}

/// The first byte of `qual` outside SAM's quality range (`!` to `~`, Phred+33), and
/// where.
pub fn bad_quality(qual: &[u8]) -> Option<(usize, u8)> {
    // A test of the whole slice first: it vectorizes, the search runs on failure only.
    let all_valid = qual
        .iter()
        .fold(true, |ok, &q| ok & (b'!'..=b'~').contains(&q));
    if all_valid {
        return None;
    }
    qual.iter()
        .position(|&q| !(b'!'..=b'~').contains(&q))
        .map(|i| (i, qual[i]))
}

/// What a quality problem says: the byte and its position.
pub fn quality_problem((at, byte): (usize, u8)) -> String {
    format!(
        "quality {} at base {} is outside SAM's range '!' to '~' (Phred+33)",
        shown_byte(byte),
        at + 1
    )
}

/// A byte as an error names it: printable ones quoted, others in hex.
fn shown_byte(byte: u8) -> String {
    match byte {
        b'!'..=b'~' => format!("'{}'", byte as char),
        b' ' => "' ' (a space)".into(),
        b'\t' => "a tab".into(),
        _ => format!("byte 0x{byte:02x}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_names_follow_the_qname_rule() {
        assert_eq!(read_name_problem(b"r1:2:3/x#0"), None);
        assert_eq!(read_name_problem(&[b'a'; 254]), None);
        assert!(read_name_problem(b"").unwrap().contains("no name"));
        assert!(read_name_problem(&[b'a'; 255]).unwrap().contains("255"));
        assert!(read_name_problem(b"@r1")
            .unwrap()
            .contains("'@' at character 1"));
        assert!(read_name_problem(b"r\x01").unwrap().contains("0x01"));
        assert!(read_name_problem("rÅ".as_bytes()).unwrap().contains("0xc3"));
    }

    #[test]
    fn contig_names_follow_the_rname_rule() {
        for good in [&b"chr1"[..], b"HLA-A*01:01", b"a=b", b"x|y@z", b"1"] {
            assert_eq!(contig_name_problem(good), None, "{}", good.escape_ascii());
        }
        for bad in [
            &b""[..],
            b"*",
            b"=x",
            b"a,b",
            b"a(b)",
            b"caf\xc3\xa9",
            b"a\x7f",
        ] {
            assert!(contig_name_problem(bad).is_some(), "{}", bad.escape_ascii());
        }
    }

    #[test]
    fn qualities_in_range() {
        assert_eq!(bad_quality(b"!~IIII"), None);
        assert_eq!(bad_quality(b"II\x7fI"), Some((2, 0x7f)));
        assert_eq!(bad_quality(b"I I"), Some((1, b' ')));
        assert!(quality_problem((2, 0x7f)).contains("base 3"));
    }
}
