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
//!
//! Kept against needletail's reader (the crate galign keeps, for FASTA reads) swapped in
//! for FASTQ (scripts/ab/fastq_via_needletail.patch, the same records): `galign map` of
//! HG002 x40 (848,240 reads, 290 MB plain FASTQ) against chr20 to BAM on 2 cores took
//! 2.320 s (2.17 CPU-s) with this reader against 2.792 s (2.49 CPU-s) with needletail's,
//! 1.19x end to end (a second paired run on a busier machine 1.16x, CPU 1.13x). The
//! readers alone (`examples/fastq_vs_needletail.rs`): 0.581 against 0.685 s.
//! BENCHMARKS.md, "Hand-written components" (`scripts/bench_hand_written.sh`).

use std::ops::Range;

use memchr::memchr;

use super::names;
use rayon::prelude::*;

/// Bytes per piece parsed on one thread.
const PIECE: usize = 256 << 10;

/// Where one record's lines lie in the block: the header (at its `@`), the sequence,
/// separator and quality lines, and the end of the quality line (its newline, or the
/// end of the block for a last line without one); the read name, sequence and quality
/// as the reads take them (found while parsing, in parallel, so that placing the reads
/// is a copy of numbers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    start: usize,
    seq: usize,
    sep: usize,
    qual: usize,
    end: usize,
    /// The end of the read name (as [`read_name`] gives it).
    name_end: usize,
    /// The ends of the sequence and quality lines without a final `\r`.
    seq_end: usize,
    qual_end: usize,
}

impl Span {
    /// The record whose lines start at `start`, `seq`, `sep` and `qual` and end at `end`.
    fn new(block: &[u8], [start, seq, sep, qual, end]: [usize; 5]) -> Span {
        let trimmed_end = |from: usize, to: usize| from + trim_cr(&block[from..to]).len();
        let mut span = Span {
            start,
            seq,
            sep,
            qual,
            end,
            name_end: 0,
            seq_end: trimmed_end(seq, sep - 1),
            qual_end: trimmed_end(qual, end),
        };
        // A header without its '@' (refused by `check`) has no name.
        if block[start] == b'@' {
            span.name_end = start + 1 + read_name(span.id(block)).len();
        }
        span
    }

    /// The header without its `@`.
    pub fn id<'a>(&self, block: &'a [u8]) -> &'a [u8] {
        trim_cr(&block[self.start + 1..self.seq - 1])
    }

    /// The sequence line.
    pub fn seq<'a>(&self, block: &'a [u8]) -> &'a [u8] {
        &block[self.seq..self.seq_end]
    }

    /// The quality line.
    pub fn qual<'a>(&self, block: &'a [u8]) -> &'a [u8] {
        &block[self.qual..self.qual_end]
    }

    /// Where the read name (as [`read_name`] gives it), the sequence line and the
    /// quality line lie in the block.
    pub fn ranges(&self) -> [Range<usize>; 3] {
        [
            self.start + 1..self.name_end,
            self.seq..self.seq_end,
            self.qual..self.qual_end,
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
}

/// The read name of a header: its first word, a trailing `/1` or `/2` removed.
pub fn read_name(id: &[u8]) -> &[u8] {
    let first_word = &id[..first_whitespace(id)];
    match first_word {
        [head @ .., b'/', b'1' | b'2'] => head,
        name => name,
    }
}

/// Where the first ASCII whitespace byte of `bytes` is (`bytes.len()` if none).
fn first_whitespace(bytes: &[u8]) -> usize {
    let sixteens = bytes.chunks_exact(16);
    let tail = sixteens.remainder();
    for (i, sixteen) in sixteens.enumerate() {
        let found = whitespace_mask(sixteen.try_into().expect("16 bytes"));
        if found != 0 {
            return 16 * i + found.trailing_zeros() as usize;
        }
    }
    let done = bytes.len() - tail.len();
    done + tail
        .iter()
        .position(u8::is_ascii_whitespace)
        .unwrap_or(tail.len())
}

/// Bit `i` set where byte `i` of `sixteen` is ASCII whitespace (tab, newline, form
/// feed, carriage return, space), 16 bytes at once (SSE2): a name is found in a header
/// of ~40 bytes in three steps rather than forty.
#[cfg(target_arch = "x86_64")]
fn whitespace_mask(sixteen: &[u8; 16]) -> u32 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    // SAFETY: SSE2 is part of every x86-64 CPU; the load reads the 16 bytes of a
    // 16-byte array (unaligned loads allowed).
    unsafe {
        let bytes = _mm_loadu_si128(sixteen.as_ptr().cast());
        let is = |b: u8| _mm_cmpeq_epi8(bytes, _mm_set1_epi8(b as i8));
        let found = _mm_or_si128(
            _mm_or_si128(is(b' '), is(b'\t')),
            _mm_or_si128(_mm_or_si128(is(b'\n'), is(0x0C)), is(b'\r')),
        );
        _mm_movemask_epi8(found) as u32
    }
}

/// [`whitespace_mask`] a byte at a time.
#[cfg(not(target_arch = "x86_64"))]
fn whitespace_mask(sixteen: &[u8; 16]) -> u32 {
    sixteen.iter().enumerate().fold(0, |mask, (i, b)| {
        mask | (u32::from(b.is_ascii_whitespace()) << i)
    })
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

/// The positions of the newlines of `bytes` from `from` on, in order, found 64 bytes
/// at a time as a bit mask: a record's four lines cost four bit scans instead of four
/// `memchr` calls, each starting up again on a line of ~100 bytes. Kept over `memchr`
/// because it measured faster: the reads of 584 MB of FASTQ on one thread, three pairs
/// alternating on the CI-class machine, 0.177 / 0.226 / 0.156 s against 0.287 / 0.242 /
/// 0.225 s with `memchr` per line.
struct Newlines<'a> {
    bytes: &'a [u8],
    /// Where the 64 bytes of `mask` start.
    chunk: usize,
    /// The newlines of the chunk not handed out yet.
    mask: u64,
}

impl<'a> Newlines<'a> {
    fn new(bytes: &'a [u8], from: usize) -> Newlines<'a> {
        Newlines {
            bytes,
            chunk: from,
            mask: newline_mask(&bytes[from.min(bytes.len())..]),
        }
    }
}

impl Iterator for Newlines<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            self.chunk += 64;
            if self.chunk >= self.bytes.len() {
                return None;
            }
            self.mask = newline_mask(&self.bytes[self.chunk..]);
        }
        let at = self.chunk + self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(at)
    }
}

/// Bit `i` set where byte `i` of the first 64 of `bytes` is a newline.
fn newline_mask(bytes: &[u8]) -> u64 {
    match bytes.first_chunk::<64>() {
        Some(chunk) => wide_newline_mask(chunk),
        None => bytes
            .iter()
            .enumerate()
            .fold(0, |mask, (i, &b)| mask | (u64::from(b == b'\n') << i)),
    }
}

/// [`newline_mask`] of 64 bytes, 16 at a time (SSE2, part of every x86-64).
#[cfg(target_arch = "x86_64")]
fn wide_newline_mask(chunk: &[u8; 64]) -> u64 {
    use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
    let mut mask = 0;
    for (i, sixteen) in chunk.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is part of every x86-64 CPU; the load reads the 16 bytes of a
        // 16-byte slice (unaligned loads allowed).
        let found = unsafe {
            let bytes = _mm_loadu_si128(sixteen.as_ptr().cast());
            _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(b'\n' as i8))) as u16
        };
        mask |= u64::from(found) << (16 * i);
    }
    mask
}

/// [`newline_mask`] of 64 bytes, eight at a time.
#[cfg(not(target_arch = "x86_64"))]
fn wide_newline_mask(chunk: &[u8; 64]) -> u64 {
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut mask = 0;
    for (i, eight) in chunk.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(eight.try_into().expect("8 bytes"))
            ^ (u64::from(b'\n') * 0x0101_0101_0101_0101);
        let zero = !(((x & !HIGHS) + !HIGHS) | x) & HIGHS;
        // The eight high bits gathered into the top byte.
        mask |= (zero.wrapping_mul(0x0002_0408_1020_4081) >> 56) << (8 * i);
    }
    mask
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
    join_parts(&parts, spans);
    Ok(*parts
        .last()
        .expect("a part or more")
        .1
        .as_ref()
        .expect("checked above"))
}

/// Appends the spans of `parts` to `spans`, in order, each part copied on a thread of
/// the pool: on one thread this copy was a millisecond of each 32 MiB block, on the
/// locating thread, which the 16-core GPU path waits for.
fn join_parts<E: Sync>(parts: &[(Vec<Span>, E)], spans: &mut Vec<Span>) {
    let total: usize = parts.iter().map(|(part, _)| part.len()).sum();
    spans.reserve(total);
    let mut free = &mut spans.spare_capacity_mut()[..total];
    let mut slots = Vec::with_capacity(parts.len());
    for (part, _) in parts {
        let (slot, rest) = free.split_at_mut(part.len());
        slots.push(slot);
        free = rest;
    }
    parts.par_iter().zip(slots).for_each(|((part, _), slot)| {
        for (slot, span) in slot.iter_mut().zip(part) {
            slot.write(*span);
        }
    });
    let len = spans.len() + total;
    // SAFETY: the `total` slots after the spans held were each written above (the
    // slots split the free capacity part by part, each part's as long as the part).
    unsafe { spans.set_len(len) };
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
    let mut newlines = Newlines::new(block, from);
    while stop.is_none_or(|stop| pos < stop) {
        let (Some(header), Some(seq), Some(sep), Some(end)) = (
            newlines.next(),
            newlines.next(),
            newlines.next(),
            newlines.next(),
        ) else {
            break;
        };
        let span = Span::new(block, [pos, header + 1, seq + 1, sep + 1, end]);
        check(block, &span, spans.len() - first)?;
        spans.push(span);
        pos = end + 1;
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
        let span = Span::new(block, [pos, seq, sep, qual, block.len()]);
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
    if let Some(what) = names::read_name_problem(read_name(span.id(block))) {
        return Err(malformed(0, what));
    }
    if let Some(bad) = names::bad_quality(span.qual(block)) {
        return Err(malformed(3, names::quality_problem(bad)));
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
        // Into spans that held a block's before (the locating thread reuses them).
        assert_eq!(locate(&text, false, &mut spans).unwrap(), end);
        assert_eq!(spans, serial);
    }

    #[test]
    fn newlines_are_every_newline_from_the_start_in_order() {
        let mut text = Vec::new();
        for i in 0..3_000usize {
            text.push(if i % 7 == 0 || i % 64 == 63 || i % 97 == 0 {
                b'\n'
            } else {
                b'a'
            });
        }
        for from in [0, 1, 63, 64, 65, 700, 2_999, 3_000] {
            let want: Vec<usize> = (from..text.len()).filter(|&i| text[i] == b'\n').collect();
            assert_eq!(
                Newlines::new(&text, from).collect::<Vec<_>>(),
                want,
                "from {from}"
            );
        }
        assert_eq!(Newlines::new(b"", 0).next(), None);
    }

    #[test]
    fn the_first_whitespace_is_found_wherever_it_is() {
        for len in 0..70 {
            for at in 0..=len {
                for ws in [b' ', b'\t', b'\n', 0x0C, b'\r'] {
                    let mut bytes = vec![b'x'; len];
                    if at < len {
                        bytes[at] = ws;
                        bytes[len - 1 - (len - 1 - at) / 2] = ws; // a later one too
                    }
                    let want = bytes
                        .iter()
                        .position(u8::is_ascii_whitespace)
                        .unwrap_or(len);
                    assert_eq!(first_whitespace(&bytes), want, "{bytes:?}");
                }
            }
        }
        assert_eq!(first_whitespace(&[0x0B; 20]), 20); // vertical tab is not whitespace
    }
}
