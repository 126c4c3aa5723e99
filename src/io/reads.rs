//! Reads in batches: single-end, paired from two inputs (read in lockstep), or paired
//! interleaved in one. Mate names are checked; any malformed record is an error that
//! names the input and the record.
//!
//! FASTQ, whatever its compression, is read in large blocks on a thread of its own
//! ([`super::blocks`]; BGZF is inflated in parallel) and parsed block by block, in
//! parallel ([`super::fastq`]); a batch's reads stay in the blocks, the batch holding
//! the blocks and where each read lies ([`ReadBatch`]). FASTA reads go through
//! needletail's parser, one record at a time, over the same decompressed stream, and
//! are copied into the batch.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use needletail::parser::FastxReader;
use rayon::prelude::*;

use super::blocks::{Block, Blocks, SharedBlock, HEADROOM};
use super::fastq::{self, Problem, Span};
use super::open::{self, Format, InputError, Opened, Role};
use super::records::{ReadBatch, ReadRecord, ReadSource, ReadSpan};

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

/// Pairs whose mates' names are compared per rayon task.
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
    /// Opens `path` (`-` for stdin); a gzip file may be inflated on `gzip_threads`.
    fn open(path: &Path, gzip_threads: usize) -> Result<ReadsFile, ReadsError> {
        let opened = open::open(path, Role::Reads, gzip_threads)?;
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

    /// Fills read slots `i * stride + offset` of `batch`, for `i` below `wanted`, with
    /// the next reads; returns how many were filled (fewer only at the end of the file).
    fn fill(
        &mut self,
        batch: &mut ReadBatch,
        wanted: usize,
        (stride, offset): (usize, usize),
    ) -> Result<usize, ReadsError> {
        match self {
            ReadsFile::Blocks(f) => f.fill(batch, wanted, (stride, offset)),
            ReadsFile::Needletail(f) => {
                let mut filled = 0;
                while filled < wanted && f.next_into(batch, filled * stride + offset)? {
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
    /// The current block (shared with the batches whose reads lie in it); its bytes in
    /// `view` were parsed into `spans`.
    block: Arc<SharedBlock>,
    view: Range<usize>,
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
            block: Arc::new(SharedBlock::default()),
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
                Some(Ok(block)) => {
                    let (data, view) = self.carried_into(block, carried)?;
                    self.block = self.blocks.share(data);
                    self.view = view;
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
            let view = &self.block.bytes()[self.view.clone()];
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

    /// The buffer of `block` with the current block's bytes `carried` (its incomplete
    /// last record) in front (in the headroom, or both joined in a buffer of their own
    /// when the record is longer), and where the two lie.
    fn carried_into(
        &self,
        mut block: Block,
        carried: Range<usize>,
    ) -> Result<(Vec<u8>, Range<usize>), ReadsError> {
        let n = carried.len();
        let carried = &self.block.bytes()[carried];
        if n <= HEADROOM {
            block.data[HEADROOM - n..HEADROOM].copy_from_slice(carried);
            return Ok((block.data, HEADROOM - n..HEADROOM + block.len));
        }
        if n > MAX_RECORD {
            return Err(ReadsError::Parse {
                path: self.path.clone(),
                msg: format!(
                    "record {} is longer than {} MiB, the longest FASTQ record galign reads \
                     (or the file is not FASTQ past this point)",
                    self.located + 1,
                    MAX_RECORD >> 20
                ),
            });
        }
        let mut data = Vec::with_capacity(n + block.len);
        data.extend_from_slice(carried);
        data.extend_from_slice(&block.data[HEADROOM..HEADROOM + block.len]);
        self.blocks.recycle(block.data);
        let len = data.len();
        Ok((data, 0..len))
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
        batch: &mut ReadBatch,
        wanted: usize,
        (stride, offset): (usize, usize),
    ) -> Result<usize, ReadsError> {
        let mut filled = 0;
        while filled < wanted {
            if self.next == self.spans.len() && !self.advance()? {
                break;
            }
            let n = (wanted - filled).min(self.spans.len() - self.next);
            let block = batch.block_index(&self.block);
            let spans = &self.spans[self.next..self.next + n];
            let slots = &mut batch.spans_mut()[filled * stride..(filled + n) * stride];
            place_reads(spans, slots, (block, self.view.start), (stride, offset));
            self.next += n;
            filled += n;
        }
        self.records += filled as u64;
        Ok(filled)
    }
}

/// Points `slots[i * stride + offset]` at the reads of `spans` (in the view of the
/// block that starts at `base` in block `block` of the batch). On this thread: the spans' ranges were
/// found while locating, so this is a copy; handed to the shared pool, it waited behind
/// the records' tasks (H200 host, 21 M reads, GPU path: 0.6-0.8 s of the reader's 2.1).
fn place_reads(
    spans: &[Span],
    slots: &mut [ReadSpan],
    (block, base): (usize, usize),
    (stride, offset): (usize, usize),
) {
    for (slots, span) in slots.chunks_mut(stride).zip(spans) {
        let [name, seq, qual] = span.ranges().map(|r| base + r.start..base + r.end);
        slots[offset] = ReadSpan {
            block: Some(block),
            name,
            seq,
            qual: Some(qual),
        };
    }
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

    /// The next read copied into read slot `i` of `batch`; `false` at the end of the
    /// file.
    fn next_into(&mut self, batch: &mut ReadBatch, i: usize) -> Result<bool, ReadsError> {
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
        let seq = record.seq();
        let read = ReadRecord {
            name,
            seq: &seq,
            qual: record.qual(),
        };
        batch.copy_into(i, read);
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
    pub fn open(source: &ReadSource, gzip_threads: usize) -> Result<BatchReader, ReadsError> {
        let open = |path| ReadsFile::open(path, gzip_threads);
        let (first, second) = match source {
            ReadSource::Single(p) | ReadSource::Interleaved(p) => (open(p)?, None),
            ReadSource::Paired(p1, p2) if p1.as_os_str() == "-" && p2.as_os_str() == "-" => {
                return Err(ReadsError::StdinTwice)
            }
            ReadSource::Paired(p1, p2) => (open(p1)?, Some(open(p2)?)),
        };
        Ok(BatchReader {
            first,
            second,
            paired: source.is_paired(),
            pairs_read: 0,
        })
    }

    /// Replaces `batch` with the next up to `size` reads or pairs (empty at the end of
    /// input), reusing its buffers.
    pub fn fill_batch(&mut self, size: usize, batch: &mut ReadBatch) -> Result<(), ReadsError> {
        let per_item = if self.paired { 2 } else { 1 };
        batch.clear();
        batch
            .spans_mut()
            .resize(size.saturating_mul(per_item), ReadSpan::default());
        let used = match &mut self.second {
            None => {
                let n = self.first.fill(batch, size * per_item, (1, 0))?;
                if self.paired && n % 2 == 1 {
                    return Err(ReadsError::OddInterleaved {
                        path: self.first.path().to_string(),
                        record: self.first.records(),
                    });
                }
                n
            }
            Some(second) => {
                let n1 = self.first.fill(batch, size, (2, 0))?;
                let n2 = second.fill(batch, n1, (2, 1))?;
                let mut probe = ReadBatch::default();
                probe.spans_mut().resize(1, ReadSpan::default());
                let (longer, shorter, pairs) = if n2 < n1 {
                    (&self.first, &*second, n2)
                } else if n1 < size && second.fill(&mut probe, 1, (1, 0))? > 0 {
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
        batch.spans_mut().truncate(used);
        if self.paired {
            self.check_mate_names(batch)?;
        }
        self.pairs_read += (used / per_item) as u64;
        Ok(())
    }

    /// An error naming the first pair of `batch` whose mates' names differ.
    fn check_mate_names(&self, batch: &ReadBatch) -> Result<(), ReadsError> {
        let mismatch = (0..batch.len() / 2)
            .into_par_iter()
            .with_min_len(FILL_TASK)
            .position_first(|i| batch.name(2 * i) != batch.name(2 * i + 1));
        match mismatch {
            None => Ok(()),
            Some(i) => Err(ReadsError::MateNames {
                path1: self.first.path().to_string(),
                path2: self
                    .second
                    .as_ref()
                    .unwrap_or(&self.first)
                    .path()
                    .to_string(),
                pair: self.pairs_read + i as u64 + 1,
                name1: String::from_utf8_lossy(batch.name(2 * i)).into_owned(),
                name2: String::from_utf8_lossy(batch.name(2 * i + 1)).into_owned(),
            }),
        }
    }
}
