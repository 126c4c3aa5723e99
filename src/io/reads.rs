//! Reads in batches: single-end, paired from two inputs (read in lockstep), or paired
//! interleaved in one. Mate names are checked; any malformed record is an error that
//! names the input and the record.
//!
//! FASTQ, whatever its compression, is read in large blocks on a thread of its own
//! ([`super::blocks`]; BGZF is inflated in parallel) and parsed block by block, in
//! parallel ([`super::fastq`]); the batch's reads are filled in parallel too. FASTA
//! reads go through needletail's parser, one record at a time, over the same
//! decompressed stream.

use std::path::Path;

use needletail::parser::FastxReader;
use rayon::prelude::*;

use super::blocks::{Block, Blocks, HEADROOM};
use super::fastq::{self, Problem, Span};
use super::open::{self, Format, InputError, Opened, Role};
use super::records::{ReadRecord, ReadSource};

/// Why reads could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadsError {
    /// The input cannot be opened, read or is no reads at all.
    #[error(transparent)]
    Input(#[from] InputError),
    /// Parsing failed.
    #[error("{path}: {msg}")]
    Parse { path: String, msg: String },
    /// `-` given for both mates: stdin can be read once.
    #[error("stdin given for both mates: stdin can be read once; give at most one input as `-`")]
    StdinTwice,
    /// Mate names differ.
    #[error("{path1} and {path2}: pair {pair} has mates named '{name1}' and '{name2}'")]
    MateNames {
        path1: String,
        path2: String,
        pair: u64,
        name1: String,
        name2: String,
    },
    /// One mate file ended before the other.
    #[error("{longer}: has more reads than {shorter}, which ends after {pairs} reads")]
    MateCount {
        longer: String,
        shorter: String,
        pairs: u64,
    },
    /// An interleaved file with an odd number of records.
    #[error("{path}: interleaved file ends with an unpaired read (record {record})")]
    OddInterleaved { path: String, record: u64 },
    /// A read name too long for SAM.
    #[error("{path}: record {record}: read name is {len} characters; SAM allows at most 254")]
    LongName {
        path: String,
        record: u64,
        len: usize,
    },
}

/// Reads (or pairs) filled per rayon task.
const FILL_TASK: usize = 512;

/// The longest FASTQ record read (header, bases, separator and qualities together): a
/// read of some 32 Mbp. A longer one is an error rather than a buffer that grows with
/// whatever the input holds.
pub const MAX_RECORD: usize = 64 << 20;

/// One open reads input.
enum ReadsFile {
    /// FASTQ, parsed in blocks.
    Blocks(BlockFastq),
    /// FASTA, through needletail.
    Needletail(NeedletailFile),
}

impl ReadsFile {
    /// Opens `path` (`-` for stdin).
    fn open(path: &Path) -> Result<ReadsFile, ReadsError> {
        let opened = open::open(path, Role::Reads)?;
        match opened.format {
            Format::Fastq => {
                let name = opened.name.clone();
                Ok(ReadsFile::Blocks(BlockFastq::new(
                    opened.into_blocks(),
                    name,
                )))
            }
            Format::Fasta => NeedletailFile::open(opened).map(ReadsFile::Needletail),
        }
    }

    fn path(&self) -> &str {
        match self {
            ReadsFile::Blocks(f) => &f.path,
            ReadsFile::Needletail(f) => &f.path,
        }
    }

    /// Records read so far.
    fn records(&self) -> u64 {
        match self {
            ReadsFile::Blocks(f) => f.records,
            ReadsFile::Needletail(f) => f.records,
        }
    }

    /// Fills `out[i * stride + offset]` with the next reads, as many as there are such
    /// slots; returns how many were filled (fewer only at the end of the file).
    fn fill(
        &mut self,
        out: &mut [ReadRecord],
        stride: usize,
        offset: usize,
    ) -> Result<usize, ReadsError> {
        match self {
            ReadsFile::Blocks(f) => f.fill(out, stride, offset),
            ReadsFile::Needletail(f) => {
                let mut filled = 0;
                for slots in out.chunks_mut(stride) {
                    if !f.next_into(&mut slots[offset])? {
                        break;
                    }
                    filled += 1;
                }
                Ok(filled)
            }
        }
    }
}

/// A FASTQ input read in blocks: the records of the current block, located, are handed
/// out in order.
struct BlockFastq {
    blocks: Blocks,
    path: String,
    /// The current block; its bytes in `view` were parsed into `spans`.
    block: Block,
    view: std::ops::Range<usize>,
    spans: Vec<Span>,
    /// The next span to hand out.
    next: usize,
    /// Where the bytes not parsed yet (an incomplete record) start in `block`.
    rest: usize,
    /// The end of the file was reached (and the rest parsed).
    done: bool,
    /// Records handed out.
    records: u64,
    /// Records located before the current block.
    located: u64,
}

impl BlockFastq {
    fn new(blocks: Blocks, path: String) -> BlockFastq {
        BlockFastq {
            blocks,
            path,
            block: Block {
                data: Vec::new(),
                len: 0,
            },
            view: 0..0,
            spans: Vec::new(),
            next: 0,
            rest: 0,
            done: false,
            records: 0,
            located: 0,
        }
    }

    /// Parses the next block with records, the current one's incomplete record in
    /// front; `false` at the end of the file.
    fn advance(&mut self) -> Result<bool, ReadsError> {
        while !self.done {
            self.located += self.spans.len() as u64;
            self.spans.clear();
            self.next = 0;
            let carried = self.rest..self.view.end;
            let eof = match self.blocks.next() {
                Some(Ok(mut block)) => {
                    let n = carried.len();
                    if n <= HEADROOM {
                        block.data[HEADROOM - n..HEADROOM]
                            .copy_from_slice(&self.block.data[carried]);
                        self.view = HEADROOM - n..HEADROOM + block.len;
                    } else if n > MAX_RECORD {
                        return Err(ReadsError::Parse {
                            path: self.path.clone(),
                            msg: format!(
                                "record {} is longer than {} MiB, the longest FASTQ record \
                                 galign reads (or the file is not FASTQ past this point)",
                                self.located + 1,
                                MAX_RECORD >> 20
                            ),
                        });
                    } else {
                        // A record longer than the headroom: joined in a buffer of its own.
                        let mut data = Vec::with_capacity(n + block.len);
                        data.extend_from_slice(&self.block.data[carried]);
                        data.extend_from_slice(&block.data[HEADROOM..HEADROOM + block.len]);
                        self.view = 0..data.len();
                        self.blocks
                            .recycle(std::mem::replace(&mut block.data, data));
                    }
                    let old = std::mem::replace(&mut self.block, block);
                    self.blocks.recycle(old.data);
                    false
                }
                Some(Err(error)) => {
                    return Err(ReadsError::Input(InputError::Read {
                        name: self.path.clone(),
                        error,
                    }))
                }
                None => {
                    // The end: only the incomplete record is left to parse.
                    self.view = carried;
                    self.done = true;
                    true
                }
            };
            let view = &self.block.data[self.view.clone()];
            match fastq::locate(view, eof, &mut self.spans) {
                Ok(rest) => self.rest = self.view.start + rest,
                Err(problem) => return Err(self.problem(problem)),
            }
            if !self.spans.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The error for a problem found in the current block.
    fn problem(&self, problem: Problem) -> ReadsError {
        match problem {
            Problem::Malformed { record, line, what } => {
                let record = self.located + record as u64;
                ReadsError::Parse {
                    path: self.path.clone(),
                    msg: format!(
                        "record {} (line {}): {what}",
                        record + 1,
                        record * 4 + line as u64 + 1
                    ),
                }
            }
            Problem::LongName { record, len } => ReadsError::LongName {
                path: self.path.clone(),
                record: self.located + record as u64 + 1,
                len,
            },
        }
    }

    /// See [`ReadsFile::fill`].
    fn fill(
        &mut self,
        out: &mut [ReadRecord],
        stride: usize,
        offset: usize,
    ) -> Result<usize, ReadsError> {
        let wanted = out.len() / stride;
        let mut filled = 0;
        while filled < wanted {
            if self.next == self.spans.len() && !self.advance()? {
                break;
            }
            let n = (wanted - filled).min(self.spans.len() - self.next);
            let view = &self.block.data[self.view.clone()];
            let spans = &self.spans[self.next..self.next + n];
            let slots = &mut out[filled * stride..(filled + n) * stride];
            copy_reads(view, spans, slots, (stride, offset));
            self.next += n;
            filled += n;
        }
        self.records += filled as u64;
        Ok(filled)
    }
}

/// Copies the reads of `spans` (in `view`) into `slots[i * stride + offset]`, reusing
/// the slots' buffers; in parallel when the pool has more than one thread.
fn copy_reads(
    view: &[u8],
    spans: &[Span],
    slots: &mut [ReadRecord],
    (stride, offset): (usize, usize),
) {
    let copy = |(slots, span): (&mut [ReadRecord], &Span)| {
        let read = &mut slots[offset];
        read.name.clear();
        read.name.extend_from_slice(fastq::read_name(span.id(view)));
        read.seq.clear();
        read.seq.extend_from_slice(span.seq(view));
        let qual = read.qual.get_or_insert_with(Vec::new);
        qual.clear();
        qual.extend_from_slice(span.qual(view));
    };
    if rayon::current_num_threads() < 2 {
        // One thread: copy here rather than hand the work to it.
        return slots.chunks_mut(stride).zip(spans).for_each(copy);
    }
    slots
        .par_chunks_mut(stride)
        .zip(spans)
        .with_min_len(FILL_TASK)
        .for_each(copy);
}

/// A FASTA reads input read through needletail.
struct NeedletailFile {
    reader: Box<dyn FastxReader>,
    path: String,
    records: u64,
}

impl NeedletailFile {
    fn open(opened: Opened) -> Result<NeedletailFile, ReadsError> {
        let path = opened.name.clone();
        let reader = needletail::parse_fastx_reader(opened.into_reader()).map_err(|e| {
            ReadsError::Parse {
                path: path.clone(),
                msg: e.to_string(),
            }
        })?;
        Ok(NeedletailFile {
            reader,
            path,
            records: 0,
        })
    }

    /// The next read into `out` (its buffers reused); `false` at the end of the file.
    fn next_into(&mut self, out: &mut ReadRecord) -> Result<bool, ReadsError> {
        let Some(record) = self.reader.next() else {
            return Ok(false);
        };
        let record = record.map_err(|e| ReadsError::Parse {
            path: self.path.clone(),
            msg: format!("malformed record after record {}: {e}", self.records),
        })?;
        self.records += 1;
        let name = fastq::read_name(record.id());
        if name.len() > fastq::MAX_NAME {
            return Err(ReadsError::LongName {
                path: self.path.clone(),
                record: self.records,
                len: name.len(),
            });
        }
        out.name.clear();
        out.name.extend_from_slice(name);
        out.seq.clear();
        out.seq.extend_from_slice(&record.seq());
        match (&mut out.qual, record.qual()) {
            (Some(qual), Some(q)) => {
                qual.clear();
                qual.extend_from_slice(q);
            }
            (slot, q) => *slot = q.map(|q| q.to_vec()),
        }
        Ok(true)
    }
}

/// Reads batches of reads (pairs as consecutive mate 1, mate 2).
pub struct BatchReader {
    first: ReadsFile,
    second: Option<ReadsFile>,
    paired: bool,
    pairs_read: u64,
}

impl BatchReader {
    /// Opens the source's inputs.
    pub fn open(source: &ReadSource) -> Result<BatchReader, ReadsError> {
        let (first, second) = match source {
            ReadSource::Single(p) | ReadSource::Interleaved(p) => (ReadsFile::open(p)?, None),
            ReadSource::Paired(p1, p2) if p1.as_os_str() == "-" && p2.as_os_str() == "-" => {
                return Err(ReadsError::StdinTwice)
            }
            ReadSource::Paired(p1, p2) => (ReadsFile::open(p1)?, Some(ReadsFile::open(p2)?)),
        };
        Ok(BatchReader {
            first,
            second,
            paired: source.is_paired(),
            pairs_read: 0,
        })
    }

    /// Replaces `batch` with the next up to `size` reads or pairs (empty at the end of
    /// input), reusing its records' buffers: a batch handed back after use saves the
    /// allocations.
    pub fn fill_batch(
        &mut self,
        size: usize,
        batch: &mut Vec<ReadRecord>,
    ) -> Result<(), ReadsError> {
        let per_item = if self.paired { 2 } else { 1 };
        batch.resize_with(size.saturating_mul(per_item), ReadRecord::default);
        let used = match &mut self.second {
            None => {
                let n = self.first.fill(batch, 1, 0)?;
                if self.paired && n % 2 == 1 {
                    return Err(ReadsError::OddInterleaved {
                        path: self.first.path().to_string(),
                        record: self.first.records(),
                    });
                }
                n
            }
            Some(second) => {
                let n1 = self.first.fill(batch, 2, 0)?;
                let n2 = second.fill(&mut batch[..2 * n1], 2, 1)?;
                let (longer, shorter, pairs) = if n2 < n1 {
                    (&self.first, &*second, n2)
                } else if n1 < size && second.fill(&mut [ReadRecord::default()], 1, 0)? > 0 {
                    (&*second, &self.first, n1)
                } else {
                    (&self.first, &*second, usize::MAX)
                };
                if pairs != usize::MAX {
                    return Err(ReadsError::MateCount {
                        longer: longer.path().to_string(),
                        shorter: shorter.path().to_string(),
                        pairs: self.pairs_read + pairs as u64,
                    });
                }
                2 * n1
            }
        };
        batch.truncate(used);
        if self.paired {
            let mismatch = batch
                .par_chunks(2)
                .with_min_len(FILL_TASK)
                .position_first(|pair| pair[0].name != pair[1].name);
            if let Some(i) = mismatch {
                let path2 = self.second.as_ref().unwrap_or(&self.first).path();
                return Err(ReadsError::MateNames {
                    path1: self.first.path().to_string(),
                    path2: path2.to_string(),
                    pair: self.pairs_read + i as u64 + 1,
                    name1: String::from_utf8_lossy(&batch[2 * i].name).into_owned(),
                    name2: String::from_utf8_lossy(&batch[2 * i + 1].name).into_owned(),
                });
            }
        }
        self.pairs_read += (used / per_item) as u64;
        Ok(())
    }
}
