//! Locating FASTQ records in a block of bytes, in parallel: the block is cut into
//! pieces, each piece starts at the first line that looks like a header (`@...`, the
//! line after next starting with `+`), and the pieces are parsed at once. A piece is
//! only trusted when the piece before it ends exactly where it starts; otherwise (a
//! malformed file, or a sequence line that fooled the guess) the block is parsed again
//! from its start, serially, so records and errors are always those of a plain
//! front-to-back parse.
//!
//! The grammar is needletail's FASTQ reader's, so the same files are accepted and
//! give the same reads: four lines per record, each without one trailing `\r`; the
//! header starts with `@`, the separator with `+`; sequence and quality of equal
//! length; the last quality line may lack its newline; blank lines may follow the last
//! record (up to two).

use std::ops::Range;

use memchr::memchr;
use rayon::prelude::*;

/// Bytes per piece parsed on one thread.
const PIECE: usize = 256 << 10;

/// Where one record's lines lie in the block: the header (at its `@`), the sequence,
/// separator and quality lines, and the end of the quality line (its newline, or the
/// end of the block for a last line without one).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    start: usize,
    seq: usize,
    sep: usize,
    qual: usize,
    end: usize,
}

impl Span {
    /// The header without its `@`.
    pub fn id<'a>(&self, block: &'a [u8]) -> &'a [u8] {
        trim_cr(&block[self.start + 1..self.seq - 1])
    }

    /// The sequence line.
    pub fn seq<'a>(&self, block: &'a [u8]) -> &'a [u8] {
        trim_cr(&block[self.seq..self.sep - 1])
    }

    /// The quality line.
    pub fn qual<'a>(&self, block: &'a [u8]) -> &'a [u8] {
        trim_cr(&block[self.qual..self.end])
    }

    /// Where the read name (as [`read_name`] gives it), the sequence line and the
    /// quality line lie in `block`.
    pub fn ranges(&self, block: &[u8]) -> [Range<usize>; 3] {
        let at = |part: &[u8]| {
            let start = part.as_ptr() as usize - block.as_ptr() as usize;
            start..start + part.len()
        };
        [
            at(read_name(self.id(block))),
            at(self.seq(block)),
            at(self.qual(block)),
        ]
    }
}

/// A record that cannot be read; `record` counts from 0 at the start of the block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Malformed; `line` is the line of the record (0 to 3) at fault.
    Malformed {
        record: usize,
        line: usize,
        what: String,
    },
    /// The read name is longer than SAM allows.
    LongName { record: usize, len: usize },
}

/// The longest read name SAM allows.
pub const MAX_NAME: usize = 254;

/// The read name of a header: its first word, a trailing `/1` or `/2` removed.
pub fn read_name(id: &[u8]) -> &[u8] {
    let first_word = id.split(|b| b.is_ascii_whitespace()).next().unwrap_or(b"");
    match first_word {
        [head @ .., b'/', b'1' | b'2'] => head,
        name => name,
    }
}

fn trim_cr(line: &[u8]) -> &[u8] {
    match line.split_last() {
        Some((b'\r', rest)) => rest,
        _ => line,
    }
}

/// The start of the line after the one holding `pos`.
fn next_line(block: &[u8], pos: usize) -> Option<usize> {
    memchr(b'\n', &block[pos..]).map(|i| pos + i + 1)
}

/// Finds the records of `block` into `spans` (cleared first); returns where the
/// bytes not yet parsed start: an incomplete last record, carried over to the next
/// block, or `block.len()` at the end of input (`eof`).
pub fn locate(block: &[u8], eof: bool, spans: &mut Vec<Span>) -> Result<usize, Problem> {
    spans.clear();
    let pieces = block.len() / PIECE;
    if pieces < 2 || rayon::current_num_threads() < 2 {
        return parse(block, 0, None, eof, spans);
    }
    let mut starts: Vec<usize> = (1..pieces)
        .into_par_iter()
        .filter_map(|i| header_guess(block, i * PIECE, (i + 1) * PIECE))
        .collect();
    starts.insert(0, 0);
    let parts: Vec<(Vec<Span>, Result<usize, Problem>)> = (0..starts.len())
        .into_par_iter()
        .map(|i| {
            let mut part = Vec::new();
            let end = parse(block, starts[i], starts.get(i + 1).copied(), eof, &mut part);
            (part, end)
        })
        .collect();
    let joined = parts
        .iter()
        .zip(starts.iter().skip(1).map(Some).chain([None]))
        .all(|((_, end), next)| match (end, next) {
            (Ok(end), Some(next)) => end == next,
            (Ok(_), None) => true,
            (Err(_), _) => false,
        });
    if !joined {
        return parse(block, 0, None, eof, spans);
    }
    let mut rest = 0;
    for (part, end) in parts {
        spans.extend(part);
        rest = end.expect("checked above");
    }
    Ok(rest)
}

/// The first line start in `from..to` that looks like a header: `@`, and the line
/// after next starts with `+`.
fn header_guess(block: &[u8], from: usize, to: usize) -> Option<usize> {
    let mut line = if block[from - 1] == b'\n' {
        from
    } else {
        next_line(block, from)?
    };
    while line < to {
        if block[line] == b'@' {
            let sep = next_line(block, line).and_then(|seq| next_line(block, seq));
            if sep.and_then(|sep| block.get(sep)) == Some(&b'+') {
                return Some(line);
            }
        }
        line = next_line(block, line)?;
    }
    None
}

/// Parses records from `from` (a record start) until `stop` (a middle piece: returns
/// where it ended, which should be `stop`) or the end of the block.
fn parse(
    block: &[u8],
    from: usize,
    stop: Option<usize>,
    eof: bool,
    spans: &mut Vec<Span>,
) -> Result<usize, Problem> {
    let first = spans.len();
    let mut pos = from;
    while stop.is_none_or(|stop| pos < stop) {
        let span = (|| {
            let seq = next_line(block, pos)?;
            let sep = next_line(block, seq)?;
            let qual = next_line(block, sep)?;
            let end = next_line(block, qual)? - 1;
            Some(Span {
                start: pos,
                seq,
                sep,
                qual,
                end,
            })
        })();
        let Some(span) = span else { break };
        check(block, &span, spans.len() - first)?;
        spans.push(span);
        pos = span.end + 1;
    }
    if stop.is_some() || !eof || pos == block.len() {
        return Ok(pos);
    }
    // The end of input: a last record without its final newline, or blank lines.
    let rest = &block[pos..];
    let record = spans.len() - first;
    let newlines = memchr::memchr_iter(b'\n', rest).count();
    if newlines == 3 {
        let seq = next_line(block, pos).expect("counted");
        let sep = next_line(block, seq).expect("counted");
        let qual = next_line(block, sep).expect("counted");
        let span = Span {
            start: pos,
            seq,
            sep,
            qual,
            end: block.len(),
        };
        check(block, &span, record)?;
        spans.push(span);
    } else if !rest.split(|&b| b == b'\n').all(|l| trim_cr(l).is_empty()) {
        return Err(Problem::Malformed {
            record,
            line: newlines,
            what: "the file ends inside this record (truncated)".into(),
        });
    }
    Ok(block.len())
}

/// Checks one record (number `record` of the parse).
fn check(block: &[u8], span: &Span, record: usize) -> Result<(), Problem> {
    let malformed = |line, what: String| Problem::Malformed { record, line, what };
    if block[span.start] != b'@' {
        return Err(malformed(
            0,
            "the header line does not start with '@'".into(),
        ));
    }
    if block[span.sep] != b'+' {
        return Err(malformed(
            2,
            "the separator line does not start with '+'".into(),
        ));
    }
    let (seq, qual) = (span.seq(block).len(), span.qual(block).len());
    if seq != qual {
        return Err(malformed(
            3,
            format!("{seq} bases but {qual} quality values"),
        ));
    }
    let id = span.id(block);
    if id.len() > MAX_NAME {
        let len = read_name(id).len();
        if len > MAX_NAME {
            return Err(Problem::LongName { record, len });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Header, sequence and quality of each record.
    type Fields = Vec<(Vec<u8>, Vec<u8>, Vec<u8>)>;

    fn records(text: &[u8], eof: bool) -> Result<(Fields, usize), Problem> {
        let mut spans = Vec::new();
        let rest = locate(text, eof, &mut spans)?;
        let recs = spans
            .iter()
            .map(|s| {
                (
                    s.id(text).to_vec(),
                    s.seq(text).to_vec(),
                    s.qual(text).to_vec(),
                )
            })
            .collect();
        Ok((recs, rest))
    }

    #[test]
    fn records_lines_and_ends() {
        let text = b"@a x\r\nAC\r\n+\r\nII\r\n@b\nG\n+\nI";
        let (r, rest) = records(text, true).unwrap();
        assert_eq!(r[0], (b"a x".to_vec(), b"AC".to_vec(), b"II".to_vec()));
        assert_eq!(r[1], (b"b".to_vec(), b"G".to_vec(), b"I".to_vec()));
        assert_eq!(rest, text.len());
        let (r, rest) = records(b"@a\nAC\n+\nII\n@b\nG\n+", false).unwrap();
        assert_eq!((r.len(), rest), (1, 11));
        assert!(records(b"@a\nAC\n+\nII\n\n\n", true).is_ok());
        assert!(records(b"@a\nAC\n+\nII\n\n\n\n", true).is_err());
        assert!(records(b"@a\nAC\n+\nII\n@b\nAC", true).is_err());
        assert!(records(b"@a\nAC\n-\nII\n", true).is_err());
        assert!(records(b"@a\nAC\n+\nI\n", true).is_err());
        assert_eq!(read_name(b"r1/2 extra"), b"r1");
    }

    #[test]
    fn pieces_agree_with_a_serial_parse() {
        let mut text = Vec::new();
        for i in 0..40_000 {
            // Quality lines starting with '@' and sequences of varying length.
            let len = 20 + i % 50;
            text.extend_from_slice(format!("@r{i} d\n").as_bytes());
            text.extend(std::iter::repeat_n(b'A', len));
            text.extend_from_slice(b"\n+\n@");
            text.extend(std::iter::repeat_n(b'I', len - 1));
            text.push(b'\n');
        }
        text.extend_from_slice(b"@tail\nAC");
        let mut serial = Vec::new();
        let end = parse(&text, 0, None, false, &mut serial).unwrap();
        let mut spans = Vec::new();
        assert!(text.len() > 4 * PIECE);
        assert_eq!(locate(&text, false, &mut spans).unwrap(), end);
        assert_eq!(spans, serial);
        assert_eq!(spans.len(), 40_000);
    }
}
