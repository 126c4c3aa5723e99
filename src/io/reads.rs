//! Reads in batches: single-end, paired from two inputs (read in lockstep), or paired
//! interleaved in one. Mate names are checked; any malformed record is an error that
//! names the input and the record.
//!
//! FASTQ, whatever its compression, is read in large blocks on a thread of its own
//! ([`super::blocks`]; BGZF is inflated in parallel), or, a plain regular file, mapped
//! into memory and taken in windows of a block's size, and its records located block by
//! block, in parallel ([`super::fastq`]), on another, one block ahead of the reader;
//! a batch's reads stay in the blocks (or the map), the batch holding them and where
//! each read lies ([`ReadBatch`]). FASTA reads go through
//! needletail's parser, one record at a time, over the same decompressed stream, and
//! are copied into the batch.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use needletail::parser::FastxReader;
use rayon::prelude::*;

use super::blocks::{Block, BlockInput, SharedBlock, BLOCK, HEADROOM};
use super::fastq::{self, Problem, Span};
use super::names;
use super::open::{self, Format, InputError, Opened, Role};
use super::record_cap::RecordCap;
use super::records::{ReadBatch, ReadRecord, ReadSource, ReadSpan};

/// Why reads could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadsError {
    /// The input cannot be opened or read, or is no reads (FASTQ or FASTA) at all.
    #[error(transparent)]
    Input(#[from] InputError),
    /// Parsing failed.
    #[error("{path}: {msg}")]
    Parse {
        /// The input's path.
        path: String,
        /// What is wrong, with the record or line.
        msg: String,
    },
    /// One file (or FIFO) given for both mates.
    #[error("{path1} and {path2} are the same file: give mate 1 and mate 2 as two files, or one interleaved file with -p")]
    SameMates {
        /// The first mate's input.
        path1: String,
        /// The second mate's input.
        path2: String,
    },
    /// `-` given for both mates: stdin can be read once.
    #[error("stdin given for both mates: stdin can be read once; give at most one input as `-`")]
    StdinTwice,
    /// Mate names differ.
    #[error("{path1} and {path2}: pair {pair} has mates named '{name1}' and '{name2}'")]
    MateNames {
        /// The first mate's input.
        path1: String,
        /// The second mate's input.
        path2: String,
        /// The pair's number, from 1.
        pair: u64,
        /// The first mate's name.
        name1: String,
        /// The second mate's name.
        name2: String,
    },
    /// One mate file ended before the other.
    #[error("{longer}: has more reads than {shorter}, which ends after {pairs} reads")]
    MateCount {
        /// The input with more reads.
        longer: String,
        /// The input that ends first.
        shorter: String,
        /// The pairs both inputs hold.
        pairs: u64,
    },
    /// An interleaved file with an odd number of records.
    #[error("{path}: interleaved file ends with an unpaired read (record {record})")]
    OddInterleaved {
        /// The input's path.
        path: String,
        /// The record's number, from 1.
        record: u64,
    },
}

/// Pairs whose mates' names are compared per rayon task.
const FILL_TASK: usize = 512;

/// The longest FASTQ record read (header, bases, separator and qualities together): a
/// read of some 32 Mbp. A longer one is an error rather than a buffer that grows with
/// whatever the input holds.
pub const MAX_RECORD: usize = 64 << 20;

/// The longest FASTA record read as reads (header, bases and newlines together): twice
/// [`MAX_RECORD`], as FASTA has no qualities, a read of some 128 Mbp. (needletail holds
/// a whole record in memory.)
pub const MAX_FASTA_RECORD: usize = 2 * MAX_RECORD;

// Every read fits one BAM CIGAR operation (28 bits of length) and `l_seq` (32 bits).
const _: () = assert!(MAX_FASTA_RECORD < 1 << 28 && MAX_RECORD < 1 << 28);

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
                    opened.into_block_input(),
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

/// Blocks whose records are located, passed from the locating thread to the reader.
const LOCATED_DEPTH: usize = 2;

/// One block's records, located: the block (shared with the batches whose reads lie in
/// it), where in it the bytes parsed start, and the records' spans.
struct LocatedBlock {
    block: Arc<SharedBlock>,
    base: usize,
    spans: Vec<Span>,
}

/// A FASTQ input read in blocks. Its records are located block by block on a thread of
/// their own ([`Locator`]), one block ahead of the reader, which hands them out in
/// order: locating (in parallel on the shared pool, where it waits behind the records'
/// tasks) no longer holds the reader up. H200 host, 21 M reads, GPU path: the reader
/// was busy 1.4-2.0 s of a 1.8-2.2 s run, 0.9-1.5 s of it locating.
struct BlockFastq {
    located: crossbeam_channel::Receiver<Result<LocatedBlock, ReadsError>>,
    /// Spent spans' buffers, handed back to the locating thread for reuse.
    spent: crossbeam_channel::Sender<Vec<Span>>,
    /// The locating thread, joined when it ends (a panic there is not an end of file).
    locating: Option<std::thread::JoinHandle<()>>,
    path: String,
    /// The current block; the next span to hand out.
    current: Option<LocatedBlock>,
    next: usize,
    /// Records handed out.
    records: u64,
}

impl BlockFastq {
    fn new(input: BlockInput, path: String) -> BlockFastq {
        let (located_tx, located) = crossbeam_channel::bounded(LOCATED_DEPTH);
        let (spent, spent_rx) = crossbeam_channel::bounded(LOCATED_DEPTH + 2);
        let locator = Locator {
            input,
            path: path.clone(),
            block: Arc::new(SharedBlock::default()),
            view: 0..0,
            rest: 0,
            records: 0,
            ended: false,
        };
        let locating = std::thread::spawn(move || locator.run(located_tx, spent_rx));
        BlockFastq {
            located,
            spent,
            locating: Some(locating),
            path,
            current: None,
            next: 0,
            records: 0,
        }
    }

    /// Moves to the next located block; `false` at the end of the file.
    fn advance(&mut self) -> Result<bool, ReadsError> {
        if let Some(done) = self.current.take() {
            let _ = self.spent.try_send(done.spans);
        }
        self.next = 0;
        match self.located.recv() {
            Ok(Ok(block)) => {
                self.current = Some(block);
                Ok(true)
            }
            Ok(Err(e)) => Err(e),
            Err(_) => {
                // The locating thread ended: the end of the file.
                if let Err(panic) = self.locating.take().map_or(Ok(()), |t| t.join()) {
                    std::panic::resume_unwind(panic);
                }
                Ok(false)
            }
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
            let left = self
                .current
                .as_ref()
                .map_or(0, |c| c.spans.len() - self.next);
            if left == 0 && !self.advance()? {
                break;
            }
            let current = self.current.as_ref().expect("advanced");
            let n = (wanted - filled).min(current.spans.len() - self.next);
            let block = batch.block_index(&current.block);
            let spans = &current.spans[self.next..self.next + n];
            let at = (block, current.base);
            if stride == 1 {
                // One input: the slots are appended, each written once (not made
                // first, then written). With the located parts joined in parallel
                // (`fastq::locate`), the reader of the human-scale GPU path (H200, r165)
                // was busy 1.09 s, not 1.5-2.1, and the run took 1.854-2.078 s, not
                // 1.999-2.162.
                let slots = batch.spans_mut();
                debug_assert_eq!(slots.len(), filled, "slots filled so far");
                slots.extend(spans.iter().map(|span| read_span(span, at)));
            } else {
                let slots = &mut batch.spans_mut()[filled * stride..(filled + n) * stride];
                place_reads(spans, slots, at, (stride, offset));
            }
            self.next += n;
            filled += n;
        }
        self.records += filled as u64;
        Ok(filled)
    }
}

/// The locating thread's state: the blocks of a FASTQ input parsed in order, each
/// block's incomplete last record carried in front of the next.
struct Locator {
    input: BlockInput,
    path: String,
    /// The last block sent; its bytes in `view` were parsed, up to `rest` (the start of
    /// its incomplete record).
    block: Arc<SharedBlock>,
    view: Range<usize>,
    rest: usize,
    /// Records located before the last block sent.
    records: u64,
    /// The input's last bytes were parsed.
    ended: bool,
}

impl Locator {
    /// Sends each block's located records to `out` (buffers for the spans from
    /// `spent`), then ends: at the end of the file, after an error (sent), or when the
    /// reader is gone.
    fn run(
        mut self,
        out: crossbeam_channel::Sender<Result<LocatedBlock, ReadsError>>,
        spent: crossbeam_channel::Receiver<Vec<Span>>,
    ) {
        loop {
            let spans = spent.try_recv().unwrap_or_default();
            let located = match self.next_block(spans) {
                Ok(Some(located)) => Ok(located),
                Ok(None) => return, // the end
                Err(e) => Err(e),
            };
            let failed = located.is_err();
            if out.send(located).is_err() || failed {
                return;
            }
        }
    }

    /// Locates the records of the next block with any (the current one's incomplete
    /// record in front) into `spans`; `None` at the end of the file.
    fn next_block(&mut self, mut spans: Vec<Span>) -> Result<Option<LocatedBlock>, ReadsError> {
        loop {
            let Some(eof) = self.next_view()? else {
                return Ok(None);
            };
            let view = &self.block.bytes()[self.view.clone()];
            match fastq::locate(view, eof, &mut spans) {
                Ok(rest) => self.rest = self.view.start + rest,
                Err(problem) => return Err(self.problem(problem)),
            }
            if self.view.end - self.rest > MAX_RECORD {
                return Err(self.too_long(self.records + spans.len() as u64 + 1));
            }
            if eof || !spans.is_empty() {
                let records = spans.len() as u64;
                let located = LocatedBlock {
                    block: Arc::clone(&self.block),
                    base: self.view.start,
                    spans,
                };
                self.records += records;
                if eof {
                    self.view = 0..0;
                    self.rest = 0;
                    self.ended = true;
                }
                // At the end, blank lines only leave nothing to send.
                return Ok(Some(located).filter(|l| !l.spans.is_empty()));
            }
        }
    }

    /// Moves `view` on to the next bytes to parse, the current incomplete record first:
    /// the next block read, or the map's next window; whether they are the input's
    /// last; `None` at the end.
    fn next_view(&mut self) -> Result<Option<bool>, ReadsError> {
        let carried = self.rest..self.view.end;
        let blocks = match &self.input {
            BlockInput::Read(blocks) => blocks,
            BlockInput::Mapped(_) if self.ended => return Ok(None),
            BlockInput::Mapped(map) => {
                let len = map.bytes().len();
                self.block = Arc::clone(map);
                let end = (self.view.end + BLOCK).min(len);
                super::consumed::add(end - self.view.end);
                self.view = self.rest..end;
                return Ok(Some(self.view.end == len));
            }
        };
        match blocks.next() {
            Some(Ok(block)) => {
                let (data, view) = self.carried_into(block, carried)?;
                self.block = blocks.share(data);
                self.view = view;
                Ok(Some(false))
            }
            Some(Err(error)) => Err(ReadsError::Input(InputError::Read {
                name: self.path.clone(),
                error,
            })),
            // The end: only the incomplete record is left to parse.
            None if carried.is_empty() => Ok(None),
            None => {
                self.view = carried;
                Ok(Some(true))
            }
        }
    }

    /// The buffer of `block` with the current block's bytes `carried` (its incomplete
    /// last record, at most [`MAX_RECORD`] bytes) in front (in the headroom, or both
    /// joined in a buffer of their own when the record is longer), and where the two lie.
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
        let mut data = Vec::with_capacity(n + block.len);
        data.extend_from_slice(carried);
        data.extend_from_slice(&block.data[HEADROOM..HEADROOM + block.len]);
        if let BlockInput::Read(blocks) = &self.input {
            blocks.recycle(block.data);
        }
        let len = data.len();
        Ok((data, 0..len))
    }

    /// The error for record `record` (counted from 1), incomplete and already longer
    /// than [`MAX_RECORD`].
    fn too_long(&self, record: u64) -> ReadsError {
        ReadsError::Parse {
            path: self.path.clone(),
            msg: format!(
                "record {record} is longer than {} MiB, the longest FASTQ record galign reads \
                 (or the file is not FASTQ past this point)",
                MAX_RECORD >> 20
            ),
        }
    }

    /// The error for a problem found in the current block.
    fn problem(&self, problem: Problem) -> ReadsError {
        let Problem::Malformed { record, line, what } = problem;
        let record = self.records + record as u64;
        ReadsError::Parse {
            path: self.path.clone(),
            msg: format!(
                "record {} (line {}): {what}",
                record + 1,
                record * 4 + line as u64 + 1
            ),
        }
    }
}

/// Points `slots[i * stride + offset]` at the reads of `spans` (in the view of the
/// block that starts at `base` in block `block` of the batch). On this thread: the
/// spans' ranges were found while locating, so this is a copy; handed to the shared
/// pool, it waited behind the records' tasks (H200 host, 21 M reads, GPU path: 0.6-0.8 s
/// of the reader's 2.1).
fn place_reads(
    spans: &[Span],
    slots: &mut [ReadSpan],
    at: (usize, usize),
    (stride, offset): (usize, usize),
) {
    for (slots, span) in slots.chunks_mut(stride).zip(spans) {
        slots[offset] = read_span(span, at);
    }
}

/// Where the read of `span` lies in the batch: in block `block`, whose view starts at
/// `base`.
fn read_span(span: &Span, (block, base): (usize, usize)) -> ReadSpan {
    let [name, seq, qual] = span.ranges().map(|r| base + r.start..base + r.end);
    ReadSpan {
        block: Some(block),
        name,
        seq,
        qual: Some(qual),
        dropped: 0,
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
        let reader =
            needletail::parse_fastx_reader(RecordCap::new(opened.into_reader(), MAX_FASTA_RECORD))
                .map_err(|e| ReadsError::Parse {
                    path: path.clone(),
                    msg: e.to_string(),
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
        let problem = names::read_name_problem(name).or_else(|| {
            let qual = record.qual()?;
            names::bad_quality(qual).map(names::quality_problem)
        });
        if let Some(what) = problem {
            return Err(ReadsError::Parse {
                path: self.path.clone(),
                msg: format!("record {}: {what}", self.records),
            });
        }
        let seq = record.seq();
        let id = record.id();
        let read = ReadRecord {
            name,
            seq: &seq,
            qual: record.qual(),
        };
        let word = &id[..name.len() + super::records::dropped_after(&id[name.len()..])];
        batch.copy_into(i, read, word);
        Ok(true)
    }
}

/// Whether `a` and `b` (`-` for stdin) name one file, FIFO or device (the same device
/// and inode); `false` where either cannot be looked at (opening it then says why).
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let identity = |path: &Path| {
        let metadata = match path.as_os_str() == "-" {
            true => std::fs::metadata("/dev/stdin"),
            false => std::fs::metadata(path),
        };
        metadata.ok().map(|m| (m.dev(), m.ino()))
    };
    matches!((identity(a), identity(b)), (Some(x), Some(y)) if x == y)
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
            ReadSource::Paired(p1, p2) if same_file(p1, p2) => {
                return Err(ReadsError::SameMates {
                    path1: open::shown_name(p1),
                    path2: open::shown_name(p2),
                })
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
        let used = match &mut self.second {
            // One input appends its reads.
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
            // Two take turns in slots made beforehand.
            Some(second) => {
                batch
                    .spans_mut()
                    .resize(size.saturating_mul(2), ReadSpan::default());
                let n1 = self.first.fill(batch, size, (2, 0))?;
                let n2 = second.fill(batch, n1, (2, 1))?;
                let mut probe = ReadBatch::default();
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

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::super::blocks::{Blocks, Source};
    use super::*;

    /// The records of a FASTQ input as (name, bases, qualities), or its error.
    type Records = Result<Vec<(Vec<u8>, Vec<u8>, Vec<u8>)>, String>;

    fn read_all(input: BlockInput) -> Records {
        let mut fastq = BlockFastq::new(input, "test.fq".into());
        let mut out = Vec::new();
        loop {
            let mut batch = ReadBatch::default();
            let n = fastq
                .fill(&mut batch, 10_000, (1, 0))
                .map_err(|e| e.to_string())?;
            for r in batch.records() {
                out.push((r.name.to_vec(), r.seq.to_vec(), r.qual.unwrap().to_vec()));
            }
            if n < 10_000 {
                return Ok(out);
            }
        }
    }

    fn mapped(bytes: &[u8]) -> BlockInput {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(bytes).unwrap();
        // SAFETY: a private temporary file, not changed while mapped.
        let map = unsafe { memmap2::Mmap::map(&file) }.unwrap();
        BlockInput::Mapped(SharedBlock::mapped(map))
    }

    fn streamed(bytes: &[u8]) -> BlockInput {
        let stream = Box::new(std::io::Cursor::new(bytes.to_vec()));
        BlockInput::Read(Blocks::spawn(Source::Stream(stream), Vec::new()))
    }

    /// ~80 MB of FASTQ (three windows of the map, records across their ends) with one
    /// read of 20 Mbp (its record longer than a window) and no newline at the end.
    fn big_fastq() -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut x = 7u64;
        for i in 0..250_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let len = match i {
                77_777 => 20 << 20,
                _ => 1 + (x >> 33) as usize % 300,
            };
            let seq: Vec<u8> = (0..len).map(|j| b"ACGTN"[(j * 7 + i) % 5]).collect();
            let qual: Vec<u8> = (0..len).map(|j| b'!' + ((j + i) % 60) as u8).collect();
            writeln!(bytes, "@read{i} x").unwrap();
            bytes.extend_from_slice(&seq);
            bytes.extend_from_slice(b"\n+\n");
            bytes.extend_from_slice(&qual);
            bytes.push(b'\n');
        }
        bytes.pop();
        bytes
    }

    #[test]
    fn a_mapped_file_gives_the_records_and_errors_of_its_bytes_read_in_blocks() {
        let bytes = big_fastq();
        assert!(
            bytes.len() > 2 * BLOCK + (20 << 20),
            "{} bytes",
            bytes.len()
        );
        let records = read_all(mapped(&bytes)).unwrap();
        assert_eq!(records.len(), 250_000);
        assert_eq!(records[77_777].1.len(), 20 << 20);
        assert!(records == read_all(streamed(&bytes)).unwrap());
        // A malformed record past the first window: the same error either way.
        let mut bad = bytes.clone();
        let at = 3 * BLOCK / 2
            + bad[3 * BLOCK / 2..]
                .windows(3)
                .position(|w| w == b"\n+\n")
                .unwrap();
        bad[at + 1] = b'x';
        let error = read_all(mapped(&bad)).unwrap_err();
        assert!(
            error.contains("test.fq") && error.contains("record"),
            "{error}"
        );
        assert_eq!(error, read_all(streamed(&bad)).unwrap_err());
    }
}
