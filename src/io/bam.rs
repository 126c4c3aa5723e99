//! Unaligned BAM (uBAM) as reads, as bowtie2's `-b` and `samtools fastq` take it: the
//! BAM records decoded from the input's decompressed bytes (BGZF inflated in parallel
//! by [`super::bgzf`], from a file or a stream alike), each copied into the batch.
//!
//! A record's bases are decoded from BAM's 4-bit codes, its qualities given Phred+33; a
//! record without qualities (`0xff`) is a read without them, as a FASTA read (QUAL `*`
//! in the output). A record on the reverse strand (flag 0x10, rare in a uBAM) is
//! reverse-complemented back to the read as sequenced, as `samtools fastq` does.
//! Secondary and supplementary records (flags 0x100, 0x800: an aligned BAM) are refused,
//! as is a truncated record. Read as pairs, records alternate mate 1 (flag 0x40) and
//! mate 2 (0x80), as `samtools import -1 -2` and `samtools collate` write them.

use std::io::Read;

use super::blocks::BlocksReader;
use super::fastq;
use super::names;
use super::open::Opened;
use super::records::{ReadBatch, ReadRecord};

/// Why a BAM input cannot be read as reads (the reads layer adds the input's name).
#[derive(Debug)]
pub(super) enum BamError {
    /// Reading or inflating failed.
    Read(std::io::Error),
    /// A header or record is malformed, or not a read galign takes; what and where.
    Malformed(String),
}

/// Flag bits of a BAM record read here.
const PAIRED: u16 = 0x1;
const REVERSE: u16 = 0x10;
const FIRST: u16 = 0x40;
const LAST: u16 = 0x80;
const SECONDARY: u16 = 0x100;
const SUPPLEMENTARY: u16 = 0x800;

/// The fixed part of a BAM record after its `block_size`.
const FIXED: usize = 32;

/// The largest record read (its `block_size`): a read of some 64 Mbp (as a FASTQ
/// record of the longest galign reads).
const MAX_BLOCK: usize = 128 << 20;

/// BAM's 4-bit base codes.
const BASES: &[u8; 16] = b"=ACMGRSVTWYHKDBN";

/// How a BAM input's records are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mates {
    /// Each record a read of its own.
    Single,
    /// Records alternate mate 1 (flag 0x40) and mate 2 (0x80).
    Pairs,
}

/// One record, decoded into buffers reused from record to record.
#[derive(Default)]
struct Decoded {
    flag: u16,
    name: Vec<u8>,
    seq: Vec<u8>,
    qual: Vec<u8>,
    has_qual: bool,
}

/// A BAM input read as reads.
pub(super) struct BamReads {
    input: BlocksReader,
    pub(super) path: String,
    /// Records read so far.
    pub(super) records: u64,
    mates: Mates,
    /// A record decoded ahead (the first, to tell whether the input holds pairs).
    ahead: Option<Decoded>,
    record: Vec<u8>,
    spare: Decoded,
    /// The header is read: the input's end is now an error in a record.
    header_read: bool,
}

impl BamReads {
    /// Opens a BAM input whose decompressed bytes `opened` gives (its header checked and
    /// skipped, its first record decoded ahead).
    pub(super) fn open(opened: Opened) -> Result<BamReads, BamError> {
        let path = opened.name.clone();
        let mut reads = BamReads {
            input: opened.into_reader(),
            path,
            records: 0,
            mates: Mates::Single,
            ahead: None,
            record: Vec::new(),
            spare: Decoded::default(),
            header_read: false,
        };
        reads.skip_header()?;
        reads.header_read = true;
        let mut first = Decoded::default();
        if reads.decode_next(&mut first)? {
            reads.ahead = Some(first);
        }
        Ok(reads)
    }

    /// Whether the first record is flagged as one of a pair (0x1).
    pub(super) fn holds_pairs(&self) -> bool {
        self.ahead.as_ref().is_some_and(|r| r.flag & PAIRED != 0)
    }

    /// Takes the records as `mates` says from now on.
    pub(super) fn set_mates(&mut self, mates: Mates) {
        self.mates = mates;
    }

    /// The next read copied into read slot `i` of `batch`; `false` at the end of the
    /// input.
    pub(super) fn next_into(&mut self, batch: &mut ReadBatch, i: usize) -> Result<bool, BamError> {
        let mut record = std::mem::take(&mut self.spare);
        let found = match self.ahead.take() {
            Some(ahead) => {
                record = ahead;
                true
            }
            None => self.decode_next(&mut record)?,
        };
        if found {
            self.check_mate(&record, i)?;
            let name = fastq::read_name(&record.name);
            let read = ReadRecord {
                name,
                seq: &record.seq,
                qual: record.has_qual.then_some(&record.qual[..]),
            };
            batch.copy_into(i, read, &record.name);
        }
        self.spare = record;
        Ok(found)
    }

    /// Under [`Mates::Pairs`], an error unless `record` (read slot `i`: even for mate 1,
    /// odd for mate 2) is flagged as the mate it stands for.
    fn check_mate(&self, record: &Decoded, i: usize) -> Result<(), BamError> {
        if self.mates == Mates::Single {
            return Ok(());
        }
        let (want, which) = match i % 2 {
            0 => (FIRST, "mate 1 (flag 0x40)"),
            _ => (LAST, "mate 2 (flag 0x80)"),
        };
        if record.flag & PAIRED != 0 && record.flag & (FIRST | LAST) == want {
            return Ok(());
        }
        Err(self.error(format!(
            "record {} ('{}', flag {:#x}) is not {which}: read as pairs, records alternate \
             mate 1 and mate 2 (group a BAM by name with `samtools collate`; an unpaired \
             uBAM maps without -p)",
            self.records,
            record.name.escape_ascii(),
            record.flag
        )))
    }

    /// Reads the BAM header (magic, text, references) and checks its magic.
    fn skip_header(&mut self) -> Result<(), BamError> {
        let mut fixed = [0u8; 8];
        if !self.read_exact_or_end(&mut fixed, 0)? || &fixed[..4] != b"BAM\x01" {
            return Err(self.error("the BAM header is truncated or has no BAM magic".into()));
        }
        self.skip(le32(&fixed[4..8]) as u64, "header text")?;
        let mut n = [0u8; 4];
        self.header_bytes(&mut n)?;
        for _ in 0..le32(&n) {
            self.header_bytes(&mut n)?;
            self.skip(le32(&n) as u64 + 4, "reference")?;
        }
        Ok(())
    }

    /// Fills `out` from the header; the input ending first is an error.
    fn header_bytes(&mut self, out: &mut [u8]) -> Result<(), BamError> {
        match self.read_exact_or_end(out, 0)? {
            true => Ok(()),
            false => Err(self.error("the BAM header is truncated".into())),
        }
    }

    /// Skips `n` bytes of the header (`what`).
    fn skip(&mut self, n: u64, what: &str) -> Result<(), BamError> {
        let skipped = std::io::copy(&mut (&mut self.input).take(n), &mut std::io::sink())
            .map_err(|e| self.read_error(e))?;
        match skipped == n {
            true => Ok(()),
            false => Err(self.error(format!("the BAM header is truncated (in its {what})"))),
        }
    }

    /// Decodes the next record into `out`; `false` at the end of the input.
    fn decode_next(&mut self, out: &mut Decoded) -> Result<bool, BamError> {
        let mut size = [0u8; 4];
        if !self.read_exact_or_end(&mut size, 1)? {
            return Ok(false);
        }
        self.records += 1;
        let size = le32(&size) as usize;
        if !(FIXED..=MAX_BLOCK).contains(&size) {
            return Err(self.at_record(format!("has a block size of {size} bytes")));
        }
        let mut record = std::mem::take(&mut self.record);
        record.resize(size, 0);
        let decoded = match self.read_exact_or_end(&mut record, 0) {
            Ok(true) => decode(&record, out).map_err(|what| self.at_record(what)),
            Ok(false) => Err(self.at_record("is truncated: the file ends inside it".into())),
            Err(e) => Err(e),
        };
        self.record = record;
        decoded?;
        self.check_record(out)?;
        Ok(true)
    }

    /// An error unless `record` is a read galign takes: a primary record with a name SAM
    /// allows and qualities in SAM's range.
    fn check_record(&self, record: &Decoded) -> Result<(), BamError> {
        let kind = match record.flag {
            f if f & SECONDARY != 0 => Some("a secondary alignment (flag 0x100)"),
            f if f & SUPPLEMENTARY != 0 => Some("a supplementary alignment (flag 0x800)"),
            _ => None,
        };
        if let Some(kind) = kind {
            return Err(self.error(format!(
                "record {} ('{}') is {kind}: this is an aligned BAM, not reads; give unaligned \
                 BAM, or convert it first, e.g. `samtools fastq {} | galign map INDEX -`",
                self.records,
                record.name.escape_ascii(),
                self.path
            )));
        }
        let problem = names::read_name_problem(fastq::read_name(&record.name)).or_else(|| {
            let qual = record.has_qual.then_some(&record.qual[..])?;
            names::bad_quality(qual).map(names::quality_problem)
        });
        match problem {
            Some(what) => Err(self.error(format!("record {}: {what}", self.records))),
            None => Ok(()),
        }
    }

    /// Fills `out` whole (`true`), or finds the input at its end before its first byte
    /// (`false`); ending inside it is an error, naming the header, or the record
    /// `records + ahead` (`ahead`: 1 for the size of the next, 0 inside the current).
    fn read_exact_or_end(&mut self, out: &mut [u8], ahead: u64) -> Result<bool, BamError> {
        let mut filled = 0;
        while filled < out.len() {
            match self.input.read(&mut out[filled..]) {
                Ok(0) if filled == 0 => return Ok(false),
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.read_error(e)),
            }
        }
        match filled == out.len() {
            true => Ok(true),
            false if !self.header_read => Err(self.error("the BAM header is truncated".into())),
            false => Err(self.error(format!(
                "BAM record {} is truncated: the file ends inside it",
                self.records + ahead
            ))),
        }
    }

    fn read_error(&self, error: std::io::Error) -> BamError {
        BamError::Read(error)
    }

    fn error(&self, msg: String) -> BamError {
        BamError::Malformed(msg)
    }

    /// An error about the current record (`what` says what is wrong with it).
    fn at_record(&self, what: String) -> BamError {
        self.error(format!("BAM record {} {what}", self.records))
    }
}

/// The little-endian `u32` of 4 bytes.
fn le32(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes"))
}

/// Decodes a record (its bytes after `block_size`) into `out`: name, flag, bases and
/// qualities (reverse-complemented back when flag 0x10 says so); what is wrong if its
/// fields do not fit its size.
fn decode(record: &[u8], out: &mut Decoded) -> Result<(), String> {
    let l_name = record[8] as usize;
    let n_cigar = u16::from_le_bytes([record[12], record[13]]) as usize;
    out.flag = u16::from_le_bytes([record[14], record[15]]);
    let l_seq = le32(&record[16..20]) as usize;
    let seq_at = FIXED + l_name + 4 * n_cigar;
    let qual_at = seq_at + l_seq.div_ceil(2);
    if l_name == 0 || qual_at + l_seq > record.len() {
        return Err(format!(
            "is malformed: its fields (name {l_name} bytes, {n_cigar} CIGAR operations, \
             {l_seq} bases) do not fit its {} bytes",
            record.len()
        ));
    }
    out.name.clear();
    out.name
        .extend_from_slice(&record[FIXED..FIXED + l_name - 1]);
    out.seq.clear();
    out.seq.extend(
        (0..l_seq).map(|i| BASES[((record[seq_at + i / 2] >> (4 * (1 - i % 2))) & 0xf) as usize]),
    );
    let qual = &record[qual_at..qual_at + l_seq];
    out.has_qual = qual.first() != Some(&0xff);
    out.qual.clear();
    if out.has_qual {
        out.qual.extend(qual.iter().map(|&q| q.saturating_add(33)));
    }
    if out.flag & REVERSE != 0 {
        out.seq.reverse();
        out.seq.iter_mut().for_each(|b| *b = complement(*b));
        out.qual.reverse();
    }
    Ok(())
}

/// The IUPAC complement of a base as BAM codes it (`=` and `N` their own).
fn complement(base: u8) -> u8 {
    match base {
        b'A' => b'T',
        b'C' => b'G',
        b'G' => b'C',
        b'T' => b'A',
        b'M' => b'K',
        b'K' => b'M',
        b'R' => b'Y',
        b'Y' => b'R',
        b'V' => b'B',
        b'B' => b'V',
        b'H' => b'D',
        b'D' => b'H',
        other => other, // = S W N
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record's bytes after `block_size`.
    fn record(name: &[u8], flag: u16, seq: &[u8], qual: Option<&[u8]>) -> Vec<u8> {
        let mut r = Vec::new();
        r.extend_from_slice(&(-1i32).to_le_bytes());
        r.extend_from_slice(&(-1i32).to_le_bytes());
        r.push(name.len() as u8 + 1);
        r.push(0);
        r.extend_from_slice(&4680u16.to_le_bytes());
        r.extend_from_slice(&0u16.to_le_bytes());
        r.extend_from_slice(&flag.to_le_bytes());
        r.extend_from_slice(&(seq.len() as u32).to_le_bytes());
        for _ in 0..3 {
            r.extend_from_slice(&(-1i32).to_le_bytes());
        }
        r.extend_from_slice(name);
        r.push(0);
        let code = |b: u8| BASES.iter().position(|&c| c == b).unwrap() as u8;
        for pair in seq.chunks(2) {
            r.push(code(pair[0]) << 4 | pair.get(1).map_or(0, |&b| code(b)));
        }
        match qual {
            Some(q) => r.extend(q.iter().map(|&c| c - 33)),
            None => r.extend(std::iter::repeat_n(0xff, seq.len())),
        }
        r.extend_from_slice(b"RGZs1\0");
        r
    }

    #[test]
    fn records_decode_to_the_reads_samtools_fastq_gives() {
        let mut out = Decoded::default();
        decode(&record(b"r1", 4, b"ACGTN", Some(b"ABCDE")), &mut out).unwrap();
        assert_eq!(
            (&out.name[..], &out.seq[..], &out.qual[..]),
            (&b"r1"[..], &b"ACGTN"[..], &b"ABCDE"[..])
        );
        assert!(out.has_qual);
        // Reverse strand: reverse-complemented back; no qualities: none.
        decode(&record(b"r2", 0x14, b"AACGM", None), &mut out).unwrap();
        assert_eq!((&out.seq[..], out.has_qual), (&b"KCGTT"[..], false));
        decode(&record(b"r3", 0x14, b"AAC", Some(b"#5I")), &mut out).unwrap();
        assert_eq!((&out.seq[..], &out.qual[..]), (&b"GTT"[..], &b"I5#"[..]));
        // Fields that overrun the record.
        let mut short = record(b"r4", 4, b"ACGT", Some(b"IIII"));
        short.truncate(FIXED + 3 + 2);
        assert!(decode(&short, &mut out).unwrap_err().contains("do not fit"));
    }
}
