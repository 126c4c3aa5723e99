//! BGZF compression of the BAM stream on the worker threads: the stream is cut into
//! blocks exactly where htslib cuts it (at most [`BLOCK_SIZE`] bytes a block; a record
//! that would overflow the open block starts a new one, as `bam_write1` does; the
//! header ends its own block), the blocks of each write are compressed in parallel
//! (a rayon pool of the writer's own) while the caller goes on (up to [`IN_FLIGHT`]
//! writes at once), and written in order by a thread of their own (the caller's thread
//! only cuts and hands over), then the 28-byte end-of-file block. Level 1
//! ([`DEFAULT_LEVEL`]) is ISA-L's level-1 deflate, the others libdeflate at the level
//! htslib gives each zlib-style level. The cut points and each block's bytes depend on
//! the bytes alone, so the file is the same whatever the thread count or batch size;
//! at levels other than 1 it is the same as htslib's. ISA-L picks its code by the CPU:
//! its level-1 match finder is one source for SSE4.1, AVX and AVX2, so level 1 gives the
//! same bytes on every x86-64 CPU with SSE4.1 (its plain-C fallback and ARM code differ).
//! ISA-L is the crate's copy with a one-line fix (`vendor/isal-sys/GALIGN-PATCH.md`):
//! unpatched, one hash slot of each call came from the stream's address, and the same
//! block compressed to other (valid) bytes now and then.
//!
//! Kept: no BGZF crate gives these bytes at level 1 (ISA-L's deflate, the default), so
//! none can take its place without changing the output; against htslib's BAM writing
//! end to end (records and BGZF together, its thread pool on 2 cores) galign's took
//! 0.67x the time at level 1 (BENCHMARKS.md, "Hand-written components"; the figures in
//! `record.rs`'s header).

use std::cell::RefCell;
use std::io::{self, Write};
use std::ops::Range;
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender};

use isal_sys::igzip_lib as isal;
use libdeflater::{CompressionLvl, Compressor};
use rayon::prelude::*;

use super::RecordBuffers;

/// Most uncompressed bytes in a block (htslib's `BGZF_BLOCK_SIZE`).
const BLOCK_SIZE: usize = 0xff00;
/// Largest compressed block, header and footer included (`BGZF_MAX_BLOCK_SIZE`).
const MAX_BLOCK: usize = 0x10000;
/// The BAM compression level of `map` without `-l`: 1, the fastest that compresses, as
/// STAR writes its BAM and samtools its sort's temporary files: an aligner's BAM is
/// unsorted and is usually sorted next, and on real reads level 1 takes a third of the
/// CPU of htslib's default 6 (libdeflate 7) for a file 8% larger (BENCHMARKS.md).
pub const DEFAULT_LEVEL: u8 = 1;
/// The libdeflate level of each zlib-style level 2-9, as htslib's `bgzf_compress` maps
/// them (`lvl_map`); entries 0 and 1 are not used: level 0 is stored blocks, written as
/// htslib writes them, and level 1 ISA-L's (see [`isal_deflate`]).
const LIBDEFLATE_LEVEL: [i32; 10] = [0, 1, 2, 3, 5, 6, 7, 8, 10, 12];
/// A block's gzip header up to its compressed size: the `BC` extra field.
const HEADER: [u8; 16] = [31, 139, 8, 4, 0, 0, 0, 0, 0, 255, 6, 0, b'B', b'C', 2, 0];
/// Header bytes: [`HEADER`] and the two-byte compressed size.
const HEADER_LEN: usize = HEADER.len() + 2;
/// Footer bytes: CRC32 and uncompressed size.
const FOOTER_LEN: usize = 8;
/// Writes whose blocks may be compressing at once: the caller hands over the next
/// batch while earlier ones compress, so that compression is not bound by one batch's
/// last blocks, yet the memory held stays a few batches.
const IN_FLIGHT: usize = 4;
/// The empty block that ends a BGZF file.
const EOF_BLOCK: [u8; 28] = [
    31, 139, 8, 4, 0, 0, 0, 0, 0, 255, 6, 0, 66, 67, 2, 0, 27, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];

thread_local! {
    /// Where each compressing thread makes a block, [`MAX_BLOCK`] bytes once grown.
    static ROOM: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// ISA-L's stream and level-1 buffer of each compressing thread, made once.
    static ISAL: RefCell<Option<IsalDeflater>> = const { RefCell::new(None) };
    /// The compressor of each compressing thread and its libdeflate level, made once:
    /// libdeflate allocates hundreds of KB for one at level 7, which a compressor per
    /// rayon split (`map_init`) paid again and again, in fresh pages the kernel had to
    /// clear.
    static COMPRESSOR: RefCell<Option<(i32, Compressor)>> = const { RefCell::new(None) };
}

/// A BGZF writer for BAM: header, then records, then [`BgzfWriter::finish`].
pub struct BgzfWriter<W: Write + Send + 'static> {
    /// Uncompressed bytes not yet compressed, as given (not copied): the open block
    /// carried from the writes before, then the parts of this one.
    pending: Segments,
    /// Where each closed block ends in `pending`.
    cuts: Vec<usize>,
    /// Bytes in the open block.
    open: usize,
    /// The threads that compress.
    pool: rayon::ThreadPool,
    /// The zlib-style compression level, 0 to 9.
    level: u8,
    /// Each write's compressed blocks, in order, to the writing thread (at most
    /// [`IN_FLIGHT`] waiting); `None` once finished.
    to_out: Option<Sender<Receiver<Compressed>>>,
    /// The thread that writes the blocks to the output, which it gives back at the end.
    writing: Option<JoinHandle<io::Result<W>>>,
    /// Where the given parts' buffers go once compressed (`None`: freed).
    recycle: Option<RecordBuffers>,
}

/// The compressed blocks of one write.
type Compressed = io::Result<Vec<Vec<u8>>>;

/// Bytes in pieces, read as one stream: the uncompressed BAM stream of a write, kept
/// in the buffers the records were encoded in. Handed over as they are, the stream is
/// no longer copied whole on the caller's thread (a serial step of some 200 ns a read,
/// 0.15-0.22 s for 848 k reads on 2 cores); a block lying across two pieces (most
/// blocks: a piece is a rayon task's 256 reads, ~70 KB) is gathered by the thread that
/// compresses it, in parallel.
#[derive(Default)]
struct Segments {
    pieces: Vec<Vec<u8>>,
    /// Where each piece starts in the stream.
    starts: Vec<usize>,
    /// Bytes in all pieces.
    len: usize,
}

impl Segments {
    /// Appends `piece` (unless empty).
    fn push(&mut self, piece: Vec<u8>) {
        if !piece.is_empty() {
            self.starts.push(self.len);
            self.len += piece.len();
            self.pieces.push(piece);
        }
    }

    /// Calls `f` with the bytes of `range`: borrowed where they lie in one piece, else
    /// gathered into `scratch`.
    fn with_bytes<T>(
        &self,
        range: Range<usize>,
        scratch: &mut Vec<u8>,
        f: impl FnOnce(&[u8]) -> T,
    ) -> T {
        let first = self.starts.partition_point(|&s| s <= range.start) - 1;
        let at = range.start - self.starts[first];
        if at + range.len() <= self.pieces[first].len() {
            return f(&self.pieces[first][at..at + range.len()]);
        }
        scratch.clear();
        let mut from = range.start;
        for (piece, &start) in self.pieces[first..].iter().zip(&self.starts[first..]) {
            let end = range.end.min(start + piece.len());
            scratch.extend_from_slice(&piece[from - start..end - start]);
            from = end;
            if from == range.end {
                break;
            }
        }
        f(scratch)
    }
}

impl<W: Write + Send + 'static> BgzfWriter<W> {
    /// A writer to `out` that compresses on `threads` threads at zlib-style `level` (0:
    /// stored, 1 fastest to 9 smallest; at most 9).
    pub fn new(out: W, threads: usize, level: u8) -> io::Result<BgzfWriter<W>> {
        assert!(level <= 9, "BGZF level {level}");
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("bgzf-{i}"))
            .build()
            .map_err(io::Error::other)?;
        let (to_out, compressed) = crossbeam_channel::bounded(IN_FLIGHT);
        let writing = std::thread::Builder::new()
            .name("bgzf-out".into())
            .spawn(move || write_in_order(out, compressed))?;
        Ok(BgzfWriter {
            pending: Segments::default(),
            cuts: Vec::new(),
            open: 0,
            pool,
            level,
            to_out: Some(to_out),
            writing: Some(writing),
            recycle: None,
        })
    }

    /// Gives the buffers of the parts written to `buffers` once they are compressed.
    pub fn recycle_into(&mut self, buffers: RecordBuffers) {
        self.recycle = Some(buffers);
    }

    /// Writes the BAM header, which ends its block (htslib flushes after it).
    pub fn write_header(&mut self, header: &[u8]) -> io::Result<()> {
        self.append(header.len());
        self.pending.push(header.to_vec());
        self.close_block();
        self.compress_closed()
    }

    /// Writes parts of whole BAM records (each led by its `block_size`), compressing
    /// the blocks they fill; the open block waits for more.
    pub fn write_records(&mut self, parts: impl IntoIterator<Item = Vec<u8>>) -> io::Result<()> {
        for records in parts {
            let mut rest = &records[..];
            while let Some(size) = rest.get(..4) {
                let len = 4 + u32::from_le_bytes(size.try_into().expect("4 bytes")) as usize;
                if self.open + len > BLOCK_SIZE {
                    self.close_block(); // bgzf_flush_try
                }
                self.append(len);
                rest = &rest[len..];
            }
            self.pending.push(records);
        }
        self.compress_closed()
    }

    /// Writes bytes that are not BAM records (text, as `bgzip` compresses it): they fill
    /// blocks, the open block waits for more.
    pub fn write_bytes(&mut self, bytes: Vec<u8>) -> io::Result<()> {
        self.append(bytes.len());
        self.pending.push(bytes);
        self.compress_closed()
    }

    /// Compresses what is left, writes the end-of-file block and flushes.
    pub fn finish(mut self) -> io::Result<W> {
        self.close_block();
        self.compress_closed()?;
        let mut out = self.stop_writing()?;
        out.write_all(&EOF_BLOCK)?;
        out.flush()?;
        Ok(out)
    }

    /// Ends the writing thread once it has written all it was given: the output, or
    /// the thread's error.
    fn stop_writing(&mut self) -> io::Result<W> {
        drop(self.to_out.take());
        let writing = self
            .writing
            .take()
            .expect("the writing thread runs until stopped");
        writing
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("BGZF writing thread panicked")))
    }

    /// Counts `len` more bytes into the open block, closing it each time it is full
    /// (as `bgzf_write` does).
    fn append(&mut self, mut len: usize) {
        while len > 0 {
            let take = len.min(BLOCK_SIZE - self.open);
            self.open += take;
            len -= take;
            if self.open == BLOCK_SIZE {
                self.close_block();
            }
        }
    }

    /// Closes the open block unless it is empty.
    fn close_block(&mut self) {
        if self.open > 0 {
            let end = self.cuts.last().copied().unwrap_or(0) + self.open;
            self.cuts.push(end);
            self.open = 0;
        }
    }

    /// Hands the closed blocks to the pool, which compresses them in parallel, and
    /// their place in the output to the writing thread, waiting while it holds
    /// [`IN_FLIGHT`] writes; its error, if it stopped on one. The open block's bytes
    /// (less than a block) are copied to begin the next write's stream.
    fn compress_closed(&mut self) -> io::Result<()> {
        let Some(&done) = self.cuts.last() else {
            return Ok(());
        };
        let open = match self.open {
            0 => Vec::new(),
            _ => (self.pending).with_bytes(done..self.pending.len, &mut Vec::new(), <[u8]>::to_vec),
        };
        let closed = std::mem::take(&mut self.pending);
        self.pending.push(open);
        let ranges: Vec<Range<usize>> = std::iter::once(0)
            .chain(self.cuts.iter().copied())
            .zip(self.cuts.iter().copied())
            .map(|(start, end)| start..end)
            .collect();
        self.cuts.clear();
        let (sender, receiver) = crossbeam_channel::bounded(1);
        let (level, recycle) = (self.level, self.recycle.clone());
        self.pool.spawn(move || {
            let blocks = ranges
                .into_par_iter()
                .map_init(Vec::new, |scratch, range| {
                    closed.with_bytes(range, scratch, |data| compress_block(level, data))
                })
                .collect();
            // Given back before the blocks are written: once the output holds them, the
            // buffers are back in the pool.
            if let Some(buffers) = recycle {
                closed
                    .pieces
                    .into_iter()
                    .for_each(|piece| buffers.give(piece));
            }
            let _ = sender.send(blocks); // the writer is gone after an error
        });
        let to_out = self.to_out.as_ref().expect("writing until finished");
        match to_out.send(receiver) {
            Ok(()) => Ok(()),
            // The writing thread stopped on an error: that error.
            Err(_) => Err(self
                .stop_writing()
                .err()
                .unwrap_or_else(|| io::Error::other("BGZF writing thread ended"))),
        }
    }
}

impl<W: Write + Send + 'static> Drop for BgzfWriter<W> {
    /// Lets the writing thread end (after an error, or without `finish`).
    fn drop(&mut self) {
        if self.writing.is_some() {
            let _ = self.stop_writing();
        }
    }
}

/// The writing thread: each write's blocks to `out` in the order given, once
/// compressed. Ends when the writer stops sending, or at the first error.
fn write_in_order<W: Write>(
    mut out: W,
    compressed: Receiver<Receiver<Compressed>>,
) -> io::Result<W> {
    for write in compressed {
        let blocks = write
            .recv()
            .map_err(|_| io::Error::other("BGZF compression thread ended"))?;
        for block in &blocks? {
            out.write_all(block)?;
        }
    }
    Ok(out)
}

/// One BGZF block holding `data` (at most [`BLOCK_SIZE`] bytes) at zlib-style `level`,
/// as htslib's `bgzf_compress` makes it but for level 1's encoder.
fn compress_block(level: u8, data: &[u8]) -> io::Result<Vec<u8>> {
    // Made in the thread's room, then copied out at its size: a fresh zeroed 64 KiB
    // a block cost page faults and clearing (~2% of a BAM run's CPU, perf, 2 cores).
    ROOM.with_borrow_mut(|room| {
        room.resize(MAX_BLOCK, 0);
        let body = &mut room[HEADER_LEN..MAX_BLOCK - FOOTER_LEN];
        let deflated = match level {
            0 => stored(data, body),
            1 => isal_deflate(data, body).unwrap_or_else(|| stored(data, body)),
            _ => libdeflate(level, data, body)?,
        };
        let len = HEADER_LEN + deflated + FOOTER_LEN;
        let block = &mut room[..len];
        block[..HEADER.len()].copy_from_slice(&HEADER);
        block[HEADER.len()..HEADER_LEN].copy_from_slice(&((len - 1) as u16).to_le_bytes());
        block[len - 8..len - 4].copy_from_slice(&libdeflater::crc32(data).to_le_bytes());
        block[len - 4..].copy_from_slice(&(data.len() as u32).to_le_bytes());
        Ok(block.to_vec())
    })
}

/// `data` as one stored deflate block in `body` (BFINAL = 1, BTYPE = 00, LEN, NLEN, the
/// bytes), as htslib writes level 0; returns its length.
fn stored(data: &[u8], body: &mut [u8]) -> usize {
    let len = data.len() as u16;
    body[0] = 1;
    body[1..3].copy_from_slice(&len.to_le_bytes());
    body[3..5].copy_from_slice(&(!len).to_le_bytes());
    body[5..5 + data.len()].copy_from_slice(data);
    5 + data.len()
}

/// ISA-L's stateless deflate state of a thread: the stream and its level-1 buffer.
struct IsalDeflater {
    stream: Box<isal::isal_zstream>,
    level_buf: Vec<u8>,
}

impl IsalDeflater {
    /// A deflater with its level-1 buffer.
    fn new() -> IsalDeflater {
        IsalDeflater {
            // SAFETY: an all-zero `isal_zstream` is plain data (integers and null
            // pointers); `isal_deflate_stateless_init` sets it up before each use.
            stream: Box::new(unsafe { std::mem::zeroed() }),
            level_buf: vec![0; isal::ISAL_DEF_LVL1_DEFAULT as usize],
        }
    }

    /// `data` deflated at ISA-L's level 1 into `body`; the deflated length, or `None`
    /// when it does not fit (incompressible data).
    fn deflate(&mut self, data: &[u8], body: &mut [u8]) -> Option<usize> {
        let stream = &mut *self.stream;
        // SAFETY: `stream` is a valid `isal_zstream`; the pointers set below stay valid
        // (and the lengths true) for the call; ISA-L reads `data` only and writes at most
        // `avail_out` bytes of `body` and the level buffer.
        unsafe {
            isal::isal_deflate_stateless_init(stream);
            stream.level = 1;
            stream.level_buf = self.level_buf.as_mut_ptr();
            stream.level_buf_size = self.level_buf.len() as u32;
            stream.gzip_flag = isal::IGZIP_DEFLATE as u16;
            stream.end_of_stream = 1;
            stream.flush = isal::NO_FLUSH as u16;
            stream.next_in = data.as_ptr().cast_mut();
            stream.avail_in = data.len() as u32;
            stream.next_out = body.as_mut_ptr();
            stream.avail_out = body.len() as u32;
            let code = isal::isal_deflate_stateless(stream);
            (code == isal::COMP_OK as i32).then_some(stream.total_out as usize)
        }
    }
}

/// `data` deflated by ISA-L at its level 1 into `body` with the thread's deflater;
/// returns the deflated length, or `None` when it does not fit (incompressible data: a
/// stored block then). Written by hand over `isal-sys` (no crate wraps ISA-L's
/// compression): on HG002's BAM records (2 cores, 64 KB blocks) it deflates at 495 MB/s
/// into 21.0 MB, libdeflate's level 1 at 268 MB/s into 19.8 MB (BENCHMARKS.md), which
/// makes it the default level's encoder: compression is the largest CPU stage of a BAM
/// run.
fn isal_deflate(data: &[u8], body: &mut [u8]) -> Option<usize> {
    ISAL.with_borrow_mut(|slot| {
        slot.get_or_insert_with(IsalDeflater::new)
            .deflate(data, body)
    })
}

/// `data` deflated by libdeflate into `body` at the level htslib gives zlib-style
/// `level` (2-9); returns the deflated length.
fn libdeflate(level: u8, data: &[u8], body: &mut [u8]) -> io::Result<usize> {
    let wanted = LIBDEFLATE_LEVEL[level as usize];
    COMPRESSOR
        .with_borrow_mut(|slot| {
            if slot.as_ref().is_none_or(|(at, _)| *at != wanted) {
                let lvl = CompressionLvl::new(wanted).expect("a libdeflate level");
                *slot = Some((wanted, Compressor::new(lvl)));
            }
            let (_, compressor) = slot.as_mut().expect("made above");
            compressor.deflate_compress(data, body)
        })
        .map_err(|e| io::Error::other(format!("BGZF block compression failed: {e:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BAM-like records of `sizes` bytes each (block_size included), filled with a
    /// pattern that compresses.
    fn records(sizes: &[usize]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, &size) in sizes.iter().enumerate() {
            out.extend_from_slice(&(size as u32 - 4).to_le_bytes());
            out.extend((0..size - 4).map(|j| (i * 7 + j % 13) as u8));
        }
        out
    }

    /// The uncompressed sizes of the blocks of a BGZF file, checking each block's
    /// header, size field and CRC on the way.
    fn block_sizes(file: &[u8]) -> Vec<usize> {
        let mut sizes = Vec::new();
        let mut rest = file;
        while !rest.is_empty() {
            assert_eq!(rest[..HEADER.len()], HEADER);
            let len = u16::from_le_bytes([rest[16], rest[17]]) as usize + 1;
            let block = &rest[..len];
            let data = libdeflater::Decompressor::new()
                .deflate_decompress(&block[HEADER_LEN..len - FOOTER_LEN], &mut vec![0; 0x10000])
                .map(|n| n as u32);
            let isize = u32::from_le_bytes(block[len - 4..].try_into().unwrap());
            assert_eq!(data.unwrap(), isize);
            sizes.push(isize as usize);
            rest = &rest[len..];
        }
        sizes
    }

    /// An output that takes `room` bytes, then fails as a full disk does.
    struct Full {
        room: usize,
    }

    impl Write for Full {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            match self.room.checked_sub(bytes.len()) {
                Some(left) => {
                    self.room = left;
                    Ok(bytes.len())
                }
                None => Err(io::Error::new(io::ErrorKind::StorageFull, "disk full")),
            }
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failing_output_is_an_error_of_a_later_write_or_of_finish() {
        // Incompressible records: many blocks, most of them past the room.
        let mut state = 7u32;
        let mut body = Vec::new();
        for _ in 0..500 {
            body.extend_from_slice(&3996u32.to_le_bytes());
            body.extend((0..3996).map(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 24) as u8
            }));
        }
        let mut writer = BgzfWriter::new(Full { room: 100_000 }, 2, DEFAULT_LEVEL).unwrap();
        let failed = (0..20)
            .map(|_| writer.write_records([body.clone()]))
            .find_map(Result::err)
            .or_else(|| writer.finish().err())
            .expect("the full output fails a write or the finish");
        assert_eq!(failed.kind(), io::ErrorKind::StorageFull, "{failed}");
    }

    #[test]
    fn records_start_a_block_when_they_would_overflow_it() {
        let header = vec![b'h'; 100];
        let body = records(&[30_000, 30_000, 10_000, 70_000, 5]);
        let mut writer = BgzfWriter::new(Vec::new(), 2, DEFAULT_LEVEL).unwrap();
        writer.write_header(&header).unwrap();
        writer.write_records([body.clone()]).unwrap();
        let file = writer.finish().unwrap();
        assert!(file.ends_with(&EOF_BLOCK));
        // The header alone; two records that fit; one that the next would overflow; a
        // record larger than a block fills one and spills into the next, where the
        // last record fits; the end-of-file block.
        let sizes = block_sizes(&file);
        let spill = 70_000 - BLOCK_SIZE;
        assert_eq!(sizes, [100, 60_000, 10_000, BLOCK_SIZE, spill + 5, 0]);
    }

    #[test]
    fn every_level_holds_the_same_bytes_and_lower_levels_are_larger() {
        // Records of pseudo-random bases (what a level's effort shows on).
        let mut state = 1u32;
        let mut body = Vec::new();
        for i in 0..2000 {
            let size = 40 + i * 37 % 700;
            body.extend_from_slice(&(size as u32 - 4).to_le_bytes());
            body.extend((0..size - 4).map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                b"ACGT"[(state >> 16) as usize % 4]
            }));
        }
        let write = |level| {
            let mut writer = BgzfWriter::new(Vec::new(), 2, level).unwrap();
            writer.write_header(b"BAM\x01").unwrap();
            writer.write_records([body.clone()]).unwrap();
            writer.finish().unwrap()
        };
        let files: Vec<Vec<u8>> = (0..=9).map(write).collect();
        // Same block cuts at every level (block_sizes decompresses each block and checks
        // its size), and the same bytes inside.
        let cuts = block_sizes(&files[DEFAULT_LEVEL as usize]);
        for (level, file) in files.iter().enumerate() {
            assert_eq!(block_sizes(file), cuts, "level {level}");
            let mut inflated = Vec::new();
            let mut rest = &file[..];
            while !rest.is_empty() {
                let len = u16::from_le_bytes([rest[16], rest[17]]) as usize + 1;
                let mut out = vec![0; 0x10000];
                let n = libdeflater::Decompressor::new()
                    .deflate_decompress(&rest[HEADER_LEN..len - FOOTER_LEN], &mut out)
                    .unwrap();
                inflated.extend_from_slice(&out[..n]);
                rest = &rest[len..];
            }
            assert_eq!(inflated[4..], body[..], "level {level}");
        }
        // Stored blocks at 0 are the largest; 1 is larger than htslib's default 6; 9 smallest.
        assert!(files[0].len() > files[1].len());
        assert!(files[1].len() > files[6].len());
        assert!(files[9].len() <= files[6].len());
    }

    /// ISA-L's level 1 gives the same bytes for the same input whatever the address of
    /// its stream: unpatched, `.write_first_byte` hashed the third position from the
    /// stream pointer left in rcx (vendor/isal-sys/GALIGN-PATCH.md), and deflaters at
    /// different addresses disagreed on some 1 in 10 short inputs of a few symbols.
    #[test]
    fn isal_level_1_does_not_depend_on_where_its_stream_lies() {
        // Streams ~82 KB apart and more: their addresses differ above bit 16, which
        // the defect read.
        let mut deflaters: Vec<IsalDeflater> = (0..48).map(|_| IsalDeflater::new()).collect();
        let mut state = 7u32;
        let (mut out, mut first) = (vec![0u8; 1024], vec![0u8; 1024]);
        for i in 0..400 {
            let len = 16 + i % 49;
            // Quality-like runs, mostly `#`: early repeats, which a hash slot decides.
            let input: Vec<u8> = (0..len)
                .map(|_| {
                    state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                    b"####$#F$"[(state >> 16) as usize % 8]
                })
                .collect();
            let n = deflaters[0].deflate(&input, &mut first).expect("fits");
            for (k, deflater) in deflaters.iter_mut().enumerate().skip(1) {
                let m = deflater.deflate(&input, &mut out).expect("fits");
                assert_eq!(out[..m], first[..n], "input {i} ({input:?}), deflater {k}");
            }
        }
    }

    /// Bytes that do not compress (ISA-L's deflate then does not fit in a block's room)
    /// are written as stored blocks at level 1, as libdeflate writes them at level 6.
    #[test]
    fn incompressible_bytes_are_stored_at_level_1() {
        let mut body = Vec::new();
        for seed in 0..3 {
            body.extend_from_slice(&(60_000u32 - 4).to_le_bytes());
            body.extend(crate::test_support::random_codes(60_000 - 4, seed, 256));
        }
        for level in [1, 6] {
            let mut writer = BgzfWriter::new(Vec::new(), 2, level).unwrap();
            writer.write_header(b"BAM\x01").unwrap();
            writer.write_records([body.clone()]).unwrap();
            let file = writer.finish().unwrap();
            let sizes = block_sizes(&file);
            assert_eq!(sizes, [4, 60_000, 60_000, 60_000, 0], "level {level}");
            // Each record's block is one stored deflate block: BFINAL = 1, BTYPE = 00.
            let mut rest = &file[..];
            for i in 0..4 {
                let len = u16::from_le_bytes([rest[16], rest[17]]) as usize + 1;
                if i > 0 {
                    assert_eq!(len, HEADER_LEN + 5 + 60_000 + FOOTER_LEN, "level {level}");
                    assert_eq!(rest[HEADER_LEN], 1, "level {level}");
                }
                rest = &rest[len..];
            }
        }
    }

    #[test]
    fn bytes_do_not_depend_on_writes_or_threads() {
        let sizes: Vec<usize> = (0..3000).map(|i| 40 + i * 37 % 700).collect();
        let body = records(&sizes);
        let write = |splits: &[usize], threads| {
            let mut writer = BgzfWriter::new(Vec::new(), threads, DEFAULT_LEVEL).unwrap();
            writer.write_header(b"BAM\x01").unwrap();
            let mut start = 0;
            for &end in splits.iter().chain([&body.len()]) {
                writer.write_records([body[start..end].to_vec()]).unwrap();
                start = end;
            }
            writer.finish().unwrap()
        };
        // Split points at record boundaries.
        let boundary = |n: usize| sizes[..n].iter().sum::<usize>();
        let whole = write(&[], 1);
        assert_eq!(
            write(&[boundary(1), boundary(1000), boundary(2999)], 3),
            whole
        );
        let many: Vec<usize> = (1..3000).step_by(7).map(boundary).collect();
        assert_eq!(write(&many, 2), whole);
        // Parts of one write, blocks lying across them, and parts across writes.
        let parts = |cuts: &[usize]| -> Vec<Vec<u8>> {
            let ends = cuts.iter().copied().chain([body.len()]);
            let starts = std::iter::once(0).chain(cuts.iter().copied());
            starts.zip(ends).map(|(s, e)| body[s..e].to_vec()).collect()
        };
        let mut writer = BgzfWriter::new(Vec::new(), 3, DEFAULT_LEVEL).unwrap();
        writer.write_header(b"BAM\x01").unwrap();
        let all = parts(&many);
        let (first, rest) = all.split_at(200);
        writer.write_records(first.to_vec()).unwrap();
        writer.write_records(rest.to_vec()).unwrap();
        assert_eq!(writer.finish().unwrap(), whole);
        assert!(block_sizes(&whole).len() > 10);
    }
}
