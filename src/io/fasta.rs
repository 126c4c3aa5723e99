//! FASTA split into its pieces as blocks of it arrive: complete header lines and runs of
//! sequence bytes. The splitter keeps the state a block ends in (inside a header line,
//! at the start of a line, inside a sequence line), so blocks may end anywhere, and
//! hands out sequence bytes as slices of the block, newlines included: what a base is,
//! and where it goes, is the consumer's business (`reference` classifies and packs
//! them in parallel). Only header lines are copied.
//!
//! A header is a line starting with `>`; everything else is sequence. This is the
//! grammar of needletail's FASTA parser, which galign used before.

use memchr::{memchr, memchr_iter};
use rayon::prelude::*;

/// A piece of a FASTA stream, in stream order.
#[derive(Debug, PartialEq, Eq)]
pub enum FastaPiece<'a> {
    /// A header line without its `>` and its newline.
    Header(Vec<u8>),
    /// Sequence bytes, possibly with newlines (`\n`, `\r`) among them.
    Sequence(&'a [u8]),
}

/// Where the bytes seen so far end.
#[derive(Debug)]
enum State {
    /// At the start of a line (the stream's start included).
    LineStart,
    /// Inside a header line, whose bytes so far are held.
    Header(Vec<u8>),
    /// Inside a sequence line.
    Sequence,
}

/// Splits a FASTA stream, given block by block, into [`FastaPiece`]s.
#[derive(Debug)]
pub struct FastaSplitter {
    state: State,
}

impl Default for FastaSplitter {
    fn default() -> Self {
        FastaSplitter {
            state: State::LineStart,
        }
    }
}

impl FastaSplitter {
    /// The pieces of the next block of the stream. A header line that the block does
    /// not finish is held and comes out with the block that does.
    pub fn split<'a>(&mut self, bytes: &'a [u8]) -> Vec<FastaPiece<'a>> {
        let mut pieces = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            match &mut self.state {
                State::Header(line) => match memchr(b'\n', &bytes[at..]) {
                    Some(i) => {
                        line.extend_from_slice(&bytes[at..at + i]);
                        pieces.push(FastaPiece::Header(std::mem::take(line)));
                        self.state = State::LineStart;
                        at += i + 1;
                    }
                    None => {
                        line.extend_from_slice(&bytes[at..]);
                        at = bytes.len();
                    }
                },
                State::LineStart if bytes[at] == b'>' => {
                    self.state = State::Header(Vec::new());
                    at += 1;
                }
                State::LineStart | State::Sequence => {
                    let end = next_header(bytes, at).unwrap_or(bytes.len());
                    pieces.push(FastaPiece::Sequence(&bytes[at..end]));
                    self.state = match end < bytes.len() {
                        true => State::Header(Vec::new()),
                        false if bytes[end - 1] == b'\n' => State::LineStart,
                        false => State::Sequence,
                    };
                    at = (end + 1).min(bytes.len());
                }
            }
        }
        pieces
    }

    /// The header line the stream ended in, if it ended inside one.
    pub fn finish(self) -> Option<Vec<u8>> {
        match self.state {
            State::Header(line) => Some(line),
            _ => None,
        }
    }
}

/// The bytes searched for the next header on this thread first, and the rest from which
/// the search goes on in pieces of as many bytes on all threads: a reference's block is
/// mostly sequence, and one thread scanning it for `>` was half of reading 2.96 Gbp
/// (0.30-0.34 of 0.61-0.67 s, H200, 16 cores, 32 MiB blocks), while with many short
/// contigs the next header is near (searching the whole rest in parallel for each of
/// 300,000 headers of 100 bp took a reading of 33 MB from 0.31 to 5.0 s).
const SEARCH_PIECE: usize = 1 << 20;
const PARALLEL_SEARCH: usize = 4 << 20;

/// The first `>` after `from` that starts a line (`bytes[from]` itself is sequence).
fn next_header(bytes: &[u8], from: usize) -> Option<usize> {
    let start = from + 1;
    let near = (start + SEARCH_PIECE).min(bytes.len());
    first_header(bytes, start, near).or_else(|| match bytes.len() - near > PARALLEL_SEARCH {
        true => header_in_pieces(bytes, near, SEARCH_PIECE),
        false => first_header(bytes, near, bytes.len()),
    })
}

/// The first `>` from `start` (at least 1) on that starts a line, searched in pieces of
/// `piece` bytes on all threads, the first piece holding one giving it.
fn header_in_pieces(bytes: &[u8], start: usize, piece: usize) -> Option<usize> {
    let pieces = (bytes.len() - start).div_ceil(piece);
    (0..pieces).into_par_iter().find_map_first(|p| {
        let begin = start + p * piece;
        first_header(bytes, begin, (begin + piece).min(bytes.len()))
    })
}

/// The first `>` in `bytes[begin..end]` that starts a line (`begin` at least 1: the
/// byte before is looked at).
fn first_header(bytes: &[u8], begin: usize, end: usize) -> Option<usize> {
    memchr_iter(b'>', &bytes[begin..end])
        .map(|i| begin + i)
        .find(|&j| bytes[j - 1] == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces of `stream` split into blocks at `cuts`, sequence pieces merged as
    /// (headers, sequence bytes between them).
    fn pieces(stream: &[u8], cuts: &[usize]) -> Vec<(Option<Vec<u8>>, Vec<u8>)> {
        let mut splitter = FastaSplitter::default();
        let mut out: Vec<(Option<Vec<u8>>, Vec<u8>)> = vec![(None, Vec::new())];
        let mut from = 0;
        for &cut in cuts.iter().chain([&stream.len()]) {
            for piece in splitter.split(&stream[from..cut]) {
                match piece {
                    FastaPiece::Header(h) => out.push((Some(h), Vec::new())),
                    FastaPiece::Sequence(s) => out.last_mut().unwrap().1.extend_from_slice(s),
                }
            }
            from = cut;
        }
        if let Some(h) = splitter.finish() {
            out.push((Some(h), Vec::new()));
        }
        out
    }

    #[test]
    fn headers_are_found_alike_in_pieces() {
        // `>` at line starts and inside lines, at and around piece boundaries (pieces of
        // 7 bytes), and a stretch without any.
        let stream = b"ACGT>AC\n>h1\nACGTACG\n>h2\nAC>\nACGTAC>\n>ACGTACGTACGTACGTACGTAC\n>h3\n";
        for from in 0..stream.len() - 1 {
            for piece in [1, 2, 7, 8, 64] {
                assert_eq!(
                    header_in_pieces(stream, from + 1, piece),
                    first_header(stream, from + 1, stream.len()),
                    "from {from}, pieces of {piece}"
                );
            }
        }
        // Past the first piece and past the parallel threshold; and a header in the first.
        let far = SEARCH_PIECE + PARALLEL_SEARCH + 5;
        let long = [b"A".repeat(far), b"\n>x\n".to_vec()].concat();
        assert_eq!(next_header(&long, 0), Some(far + 1));
        assert_eq!(next_header(&long[..far + 1], 0), None);
        assert_eq!(
            next_header(&long[SEARCH_PIECE..], 0),
            Some(PARALLEL_SEARCH + 6)
        );
        assert_eq!(next_header(b"A\n>h\nAC", 0), Some(2));
    }

    #[test]
    fn headers_start_lines_and_blocks_may_end_anywhere() {
        let stream = b">chr1 first\nAC>G\nTT\r\n>chr2\n\n>\nA\n>last";
        let want = vec![
            (None, vec![]),
            (Some(b"chr1 first".to_vec()), b"AC>G\nTT\r\n".to_vec()),
            (Some(b"chr2".to_vec()), b"\n".to_vec()),
            (Some(b"".to_vec()), b"A\n".to_vec()),
            (Some(b"last".to_vec()), vec![]),
        ];
        for a in 0..=stream.len() {
            for b in a..=stream.len() {
                assert_eq!(pieces(stream, &[a, b]), want, "cut at {a} and {b}");
            }
        }
    }

    #[test]
    fn a_header_line_may_span_many_blocks() {
        let mut stream = b">".to_vec();
        stream.extend(std::iter::repeat_n(b'x', 1000));
        stream.extend_from_slice(b"\nACGT\n");
        let cuts: Vec<usize> = (1..stream.len()).step_by(7).collect();
        let got = pieces(&stream, &cuts);
        assert_eq!(got.len(), 2);
        assert_eq!(got[1].0.as_deref(), Some(&stream[1..1001]));
        assert_eq!(got[1].1, b"ACGT\n");
    }
}
