//! The records that inputs yield, shared by every stage that handles reads.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use super::blocks::SharedBlock;

/// One read as it came from the file: views into the bytes of its [`ReadBatch`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadRecord<'a> {
    /// Name: the first word of the header, a trailing `/1` or `/2` removed.
    pub name: &'a [u8],
    /// Bases as written in the file.
    pub seq: &'a [u8],
    /// Phred+33 qualities; `None` for FASTA input.
    pub qual: Option<&'a [u8]>,
}

impl<'a> ReadRecord<'a> {
    /// A read of bases `seq` alone: no name, no qualities.
    pub fn of_bases(seq: &'a [u8]) -> ReadRecord<'a> {
        ReadRecord {
            seq,
            ..Default::default()
        }
    }
}

/// Where one read lies: in block `block` of its batch (`None`: the batch's own bytes).
#[derive(Clone, Debug, Default)]
pub(super) struct ReadSpan {
    pub(super) block: Option<usize>,
    pub(super) name: Range<usize>,
    pub(super) seq: Range<usize>,
    pub(super) qual: Option<Range<usize>>,
    /// Bytes of the header's first word after the name (its `/1` or `/2`) copied with
    /// it into the batch's own bytes; 0 in a block, where the header is there to see.
    pub(super) dropped: u8,
}

/// A batch of reads, not copied out of the blocks they were read in: the blocks (each
/// shared with the batch before or after when a batch boundary falls inside it) and
/// where each read lies. Reads given one at a time (FASTA input, tests) are copied
/// into bytes of the batch's own. Copying every read of a 730 MB FASTQ into buffers of
/// its own took the reader 0.38 s of a 0.50 s `map` on 16 cores (H200 host).
#[derive(Debug, Default)]
pub struct ReadBatch {
    blocks: Vec<Arc<SharedBlock>>,
    own: Vec<u8>,
    spans: Vec<ReadSpan>,
}

impl ReadBatch {
    /// A batch of copies of `reads`.
    pub fn of<'r>(reads: impl IntoIterator<Item = ReadRecord<'r>>) -> ReadBatch {
        let mut batch = ReadBatch::default();
        for read in reads {
            batch.push(read);
        }
        batch
    }

    /// Reads in the batch.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the batch holds no reads.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The reads, in order.
    pub fn records(&self) -> Vec<ReadRecord<'_>> {
        self.records_in(0..self.len())
    }

    /// The reads of `range`, in order.
    pub fn records_in(&self, range: Range<usize>) -> Vec<ReadRecord<'_>> {
        self.spans[range]
            .iter()
            .map(|span| self.record(span))
            .collect()
    }

    /// The bases of read `i`.
    pub fn seq(&self, i: usize) -> &[u8] {
        let span = &self.spans[i];
        let bytes: &[u8] = match span.block {
            Some(b) => self.blocks[b].bytes(),
            None => &self.own,
        };
        &bytes[span.seq.clone()]
    }

    /// Appends a copy of `read`.
    pub fn push(&mut self, read: ReadRecord<'_>) {
        let span = self.copied(read);
        self.spans.push(span);
    }

    /// The first word of read `i`'s header as written, the read's name as kseq (and so
    /// bwa) takes it: [`ReadRecord::name`] with the `/1` or `/2` it drops.
    pub fn header_word(&self, i: usize) -> &[u8] {
        let span = &self.spans[i];
        let (bytes, end) = match span.block {
            Some(b) => {
                let bytes = self.blocks[b].bytes();
                (
                    bytes,
                    span.name.end + dropped_after(&bytes[span.name.end..]),
                )
            }
            None => (&self.own[..], span.name.end + usize::from(span.dropped)),
        };
        &bytes[span.name.start..end]
    }

    /// Makes read `i` a copy of `read` (appended when `i` is the batch's length), whose
    /// header's first word `word` (its name and the `/1` or `/2` dropped from it, if
    /// any) is copied with it.
    pub(super) fn copy_into(&mut self, i: usize, read: ReadRecord<'_>, word: &[u8]) {
        let dropped = word.len() - read.name.len();
        let mut span = self.copied(ReadRecord { name: word, ..read });
        span.name.end -= dropped;
        span.dropped = dropped as u8;
        match i == self.spans.len() {
            true => self.spans.push(span),
            false => self.spans[i] = span,
        }
    }

    /// `read` copied into the batch's own bytes.
    fn copied(&mut self, read: ReadRecord<'_>) -> ReadSpan {
        let mut copy = |bytes: &[u8]| {
            let start = self.own.len();
            self.own.extend_from_slice(bytes);
            start..self.own.len()
        };
        ReadSpan {
            block: None,
            name: copy(read.name),
            seq: copy(read.seq),
            qual: read.qual.map(copy),
            dropped: 0,
        }
    }

    /// The read of `span`.
    fn record(&self, span: &ReadSpan) -> ReadRecord<'_> {
        let bytes: &[u8] = match span.block {
            Some(b) => self.blocks[b].bytes(),
            None => &self.own,
        };
        ReadRecord {
            name: &bytes[span.name.clone()],
            seq: &bytes[span.seq.clone()],
            qual: span.qual.clone().map(|q| &bytes[q]),
        }
    }

    /// Empties the batch for reuse, keeping its buffers; its blocks go back to be read
    /// into again once no other batch holds them.
    pub fn clear(&mut self) {
        self.blocks.clear();
        self.own.clear();
        self.spans.clear();
    }

    /// The index of `block` among the batch's blocks, added if it is not the last one.
    pub(super) fn block_index(&mut self, block: &Arc<SharedBlock>) -> usize {
        if !self
            .blocks
            .last()
            .is_some_and(|last| Arc::ptr_eq(last, block))
        {
            self.blocks.push(Arc::clone(block));
        }
        self.blocks.len() - 1
    }

    /// The spans, to be filled in place.
    pub(super) fn spans_mut(&mut self) -> &mut Vec<ReadSpan> {
        &mut self.spans
    }

    /// The name of read `i`.
    pub(super) fn name(&self, i: usize) -> &[u8] {
        self.record(&self.spans[i]).name
    }
}

/// The bytes that [`super::fastq::read_name`] dropped from a header's first word, of the
/// header's bytes `after` the name: 2 where they start with the `/` of `/1` or `/2` (a
/// name ends at whitespace or before a final `/1` or `/2`, so a `/` after it is one).
pub(super) fn dropped_after(after: &[u8]) -> usize {
    match after.first() {
        Some(b'/') => 2,
        _ => 0,
    }
}

/// Where reads come from.
#[derive(Clone, Debug)]
pub enum ReadSource {
    /// Single-end reads from one file.
    Single(PathBuf),
    /// Mates 1 and 2 from two files, in the same order.
    Paired(PathBuf, PathBuf),
    /// Mates 1 and 2 alternating in one file.
    Interleaved(PathBuf),
}

impl ReadSource {
    /// Whether reads come in pairs.
    pub fn is_paired(&self) -> bool {
        !matches!(self, ReadSource::Single(_))
    }

    /// The bytes of the reads once decompressed, estimated
    /// ([`super::estimated_size`] of each input); `None` when an input is a stream.
    pub fn estimated_size(&self) -> Option<u64> {
        match self {
            ReadSource::Single(p) | ReadSource::Interleaved(p) => super::estimated_size(p),
            ReadSource::Paired(p1, p2) => {
                Some(super::estimated_size(p1)? + super::estimated_size(p2)?)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_gives_back_its_reads_in_order_after_reuse() {
        let reads = [
            ReadRecord {
                name: b"r1",
                seq: b"ACGT",
                qual: Some(b"IIII"),
            },
            ReadRecord::of_bases(b"GGN"),
            ReadRecord {
                name: b"",
                seq: b"",
                qual: Some(b""),
            },
        ];
        let mut batch = ReadBatch::of(reads);
        assert_eq!((batch.len(), batch.records()), (3, reads.to_vec()));
        batch.clear();
        assert!(batch.is_empty() && batch.records().is_empty());
        batch.push(reads[1]);
        assert_eq!(batch.records(), [reads[1]]);
        assert_eq!(batch.name(0), b"");
    }

    #[test]
    fn a_copied_read_keeps_the_first_word_of_its_header() {
        let mut batch = ReadBatch::default();
        let read = |name| ReadRecord {
            name,
            seq: b"AC",
            qual: None,
        };
        batch.copy_into(0, read(b"r1"), b"r1/2");
        batch.copy_into(1, read(b"r2"), b"r2");
        assert_eq!(
            (batch.name(0), batch.header_word(0)),
            (&b"r1"[..], &b"r1/2"[..])
        );
        assert_eq!(
            (batch.name(1), batch.header_word(1)),
            (&b"r2"[..], &b"r2"[..])
        );
        assert_eq!(batch.seq(0), b"AC");
    }
}
