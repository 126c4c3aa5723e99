//! What bwa keeps of a FASTA besides the bases, gathered while galign reads it
//! ([`FastaObserver`]): each record's name and comment as bwa's `kseq` splits the header
//! line, and the holes: runs of one byte that is no `A`, `C`, `G` or `T` (either case),
//! which bwa lists in `.amb` and replaces by random bases. bwa starts a new hole where
//! the byte changes (`NNnn` is two holes) and at every record.

use rayon::prelude::*;

use crate::reference::{FastaObserver, Layout};

/// A run of one ambiguous byte, in text coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hole {
    /// Text position of its first base.
    pub offset: u64,
    /// Its bases.
    pub len: u64,
    /// The byte, as written in the FASTA.
    pub byte: u8,
}

/// A header line as bwa splits it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Up to the first whitespace (C's `isspace`).
    pub name: Vec<u8>,
    /// The rest of the line after that whitespace byte, one trailing `\r` removed where
    /// more precedes it; empty where the line had no whitespace.
    pub comment: Vec<u8>,
}

impl Header {
    /// `line` (without `>` and `\n`) split as bwa's `kseq_read` does.
    pub fn parse(line: &[u8]) -> Header {
        let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r');
        match line.iter().position(is_space) {
            None => Header {
                name: line.to_vec(),
                comment: Vec::new(),
            },
            Some(at) => {
                let mut comment = line[at + 1..].to_vec();
                if comment.len() > 1 && comment.last() == Some(&b'\r') {
                    comment.pop();
                }
                Header {
                    name: line[..at].to_vec(),
                    comment,
                }
            }
        }
    }
}

/// The headers and holes of a FASTA, gathered as it is read.
#[derive(Debug, Default)]
pub struct BwaRecords {
    /// The header lines, in file order.
    pub headers: Vec<Header>,
    /// The holes found so far, in text order; those of neighbouring slices not yet
    /// joined ([`BwaRecords::finish`]).
    holes: Vec<Hole>,
}

/// Whether bwa takes byte `b` for a base (`nst_nt4_table` below 4).
fn is_base(b: u8) -> bool {
    matches!(b, b'A' | b'C' | b'G' | b'T' | b'a' | b'c' | b'g' | b't')
}

/// The holes of one slice of sequence whose first base is at text position `start`
/// (`\n` and `\r` are skipped, as galign's text does).
fn slice_holes(bytes: &[u8], start: u64) -> Vec<Hole> {
    let mut holes: Vec<Hole> = Vec::new();
    let mut pos = start;
    for &b in bytes {
        if b == b'\n' || b == b'\r' {
            continue;
        }
        if !is_base(b) {
            match holes.last_mut() {
                Some(h) if h.byte == b && h.offset + h.len == pos => h.len += 1,
                _ => holes.push(Hole {
                    offset: pos,
                    len: 1,
                    byte: b,
                }),
            }
        }
        pos += 1;
    }
    holes
}

impl FastaObserver for BwaRecords {
    fn header(&mut self, line: &[u8]) {
        self.headers.push(Header::parse(line));
    }

    fn sequence(&mut self, slices: &[&[u8]], starts: &[u64]) {
        let found: Vec<Vec<Hole>> = slices
            .par_iter()
            .zip(starts)
            .map(|(bytes, &start)| slice_holes(bytes, start))
            .collect();
        self.holes.extend(found.into_iter().flatten());
    }
}

impl BwaRecords {
    /// The holes of the whole FASTA, whose contigs `layout` gives: runs of one byte
    /// split by slices joined again, except at a contig's start.
    pub fn finish(self, layout: &Layout) -> (Vec<Header>, Vec<Hole>) {
        let mut starts = layout.contigs.iter().map(|c| c.offset).peekable();
        let mut holes: Vec<Hole> = Vec::with_capacity(self.holes.len());
        for hole in self.holes {
            while starts.next_if(|&s| s < hole.offset).is_some() {}
            let at_contig_start = starts.peek() == Some(&hole.offset);
            match holes.last_mut() {
                Some(h)
                    if !at_contig_start
                        && h.byte == hole.byte
                        && h.offset + h.len == hole.offset =>
                {
                    h.len += hole.len
                }
                _ => holes.push(hole),
            }
        }
        (self.headers, holes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::Contig;

    #[test]
    fn headers_split_as_kseq_does() {
        let h = |line: &[u8]| {
            let h = Header::parse(line);
            (
                String::from_utf8(h.name).unwrap(),
                String::from_utf8(h.comment).unwrap(),
            )
        };
        assert_eq!(h(b"chr1"), ("chr1".into(), "".into()));
        assert_eq!(h(b"chr1\r"), ("chr1".into(), "".into()));
        assert_eq!(h(b"chr1 a  b\r"), ("chr1".into(), "a  b".into()));
        assert_eq!(h(b"chr1  two"), ("chr1".into(), " two".into()));
        assert_eq!(h(b"chr1\tx y"), ("chr1".into(), "x y".into()));
        assert_eq!(h(b"chr1 \r"), ("chr1".into(), "\r".into()));
    }

    #[test]
    fn holes_split_at_each_new_byte_and_contig_but_not_at_slices() {
        let mut records = BwaRecords::default();
        // Contig 1: positions 0..10, contig 2: 10..14.
        let slices: [&[u8]; 3] = [b"ANNn\nR", b"RUA\nCN", b"NNCA"];
        records.sequence(&slices, &[0, 5, 10]);
        let contig = |offset, len| Contig {
            name: String::new(),
            description: String::new(),
            offset,
            len,
        };
        let layout = Layout {
            contigs: vec![contig(0, 10), contig(10, 4)],
            ambiguous: Vec::new(),
        };
        let (_, holes) = records.finish(&layout);
        let hole = |offset, len, byte| Hole { offset, len, byte };
        assert_eq!(
            holes,
            [
                hole(1, 2, b'N'),
                hole(3, 1, b'n'),
                hole(4, 2, b'R'),
                hole(6, 1, b'U'),
                hole(9, 1, b'N'),
                hole(10, 2, b'N'),
            ]
        );
    }
}
