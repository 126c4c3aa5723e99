//! Search and locate of read batches on the GPU, host side of `kernels/map.cuh`: exact
//! search here, k-mismatch search (`map -v K`) in `map/mismatch.rs`, behind one searcher.
//!
//! [`GpuSearcher::new`] uploads the FM index once (BWT/Occ blocks, jump table, sampled
//! suffix array, and the packed text), its rows and positions at the index's [`Width`]:
//! the kernels are compiled once per width (`map.cu`, `map64.cu`; their launchers take the
//! width), and the row and position arguments, device arrays and downloads take it. Its
//! [`BatchSearcher::search_batch`] packs a batch on the host (2-bit codes, 16 bases to a
//! u32, with a flag for reads that cannot match: empty or holding a non-ACGT base), sends
//! it, and runs
//! 1. `map_search`: one thread per read and strand, backward search from the jump table,
//!    giving each read-strand's row interval; as on the CPU, once the interval is one
//!    row, that row is located and the rest of the read compared with the text;
//! 2. an exclusive scan of the interval sizes: each read-strand's output offset;
//! 3. `map_locate`: one thread per row, LF steps to the nearest sampled row;
//!
//! and only the offsets and text positions come back, as the [`BatchPositions`] of the
//! [`BatchSearcher`] interface. Placement on the contigs and sorting stay on the CPU
//! ([`BatchPositions::hits`]), shared with the CPU path.

use std::ops::Range;
use std::time::Instant;

use rayon::prelude::*;

use super::radix::{ScanOp, Workspace};
use super::runtime::launchers;
use super::runtime::launchers::map::{DeviceFmIndex, DeviceSampledSa, LocateIndex, SearchIndex};
use super::tuning::{NOT_SEARCHABLE, THREADS};
use super::{DevBuf, DevPtr, Gpu, GpuError, Pos};
use crate::alphabet::{codes_of_eight, pack_two_bit, CODES, NOT_A_BASE};
use crate::fm::{Bidirectional, FmIndex};
use crate::io::{ReadBatch, ReadRecord};
use crate::sa::{PositionSlice, Positions, SaIndex, Width};
use crate::search::{BatchPositions, BatchSearcher};

mod mismatch;

/// Default most positions located in one pass; larger batches are split.
const MAX_POSITIONS: u64 = 1 << 28;
/// Reads per host packing task.
const PACK_CHUNK: usize = 4096;

/// The offsets and positions of one pass, in the [`BatchPositions`] layout.
type Located = (Vec<u32>, Positions);

/// The reads of one pass: records to pack, or packed ahead (how many, and the words).
enum PassReads<'r, 'a> {
    Records(&'r [ReadRecord<'a>]),
    Packed(usize, Vec<u32>),
}

impl PassReads<'_, '_> {
    /// How many reads.
    fn len(&self) -> usize {
        match self {
            PassReads::Records(reads) => reads.len(),
            PassReads::Packed(n, _) => *n,
        }
    }
}

/// How a [`GpuSearcher`] packs its reads, so that a batch can be packed on another
/// thread ([`ReadPacker::pack`]) while the searcher works on the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadPacker {
    /// For the k-mismatch search: k and the unique length that picks each read's
    /// scheme; `None` for exact search.
    mismatch: Option<(u8, usize)>,
}

/// A batch of reads packed by a [`ReadPacker`], for [`GpuSearcher::search_packed`].
#[derive(Debug)]
pub struct PackedReads {
    packer: ReadPacker,
    /// How many reads.
    reads: usize,
    words: Vec<u32>,
}

impl ReadPacker {
    /// The packing of [`GpuSearcher::with_mismatches`] with `max_mismatches` over an
    /// index of a text of `text_len` bases.
    pub fn new(text_len: usize, max_mismatches: u8) -> ReadPacker {
        ReadPacker {
            mismatch: (max_mismatches > 0).then(|| {
                (
                    max_mismatches,
                    crate::search::mismatch::unique_len(text_len),
                )
            }),
        }
    }

    /// The reads of `batch` packed as the searcher's passes pack them (in parallel, each
    /// read's bases taken from the batch's bytes), into `words` (its old words
    /// overwritten: a buffer of [`GpuSearcher::take_words`] to reuse, or a new one).
    /// `None` when a read is longer than the kernels take ([`ReadPacker::longest`]):
    /// such a batch is searched from its records, whose packing says why the GPU cannot.
    pub fn pack(&self, batch: &ReadBatch, mut words: Vec<u32>) -> Option<PackedReads> {
        self.pack_bases(batch.len(), |i| batch.seq(i), &mut words)
            .ok()?;
        Some(PackedReads {
            packer: *self,
            reads: batch.len(),
            words,
        })
    }

    /// Packs `reads` into `out`, as [`ReadPacker::pack`]; a read longer than the
    /// kernels take is [`GpuError::ReadTooLong`].
    fn pack_into(&self, reads: &[ReadRecord], out: &mut Vec<u32>) -> Result<(), GpuError> {
        self.pack_bases(reads.len(), |i| reads[i].seq, out)
            .map_err(GpuError::ReadTooLong)
    }

    /// The longest read the kernels take: the exact search's lengths must stay below
    /// its not-searchable flag, the k-mismatch search's below its length field.
    fn longest(&self) -> usize {
        match self.mismatch {
            None => NOT_SEARCHABLE as usize - 1,
            Some(_) => mismatch::MAX_READ_LEN - 1,
        }
    }

    /// Packs the `n` reads whose bases `seq` gives into `out` (for exact search, 2 bits a
    /// base and [`exact_length_word`]; for the k-mismatch search, 4 bits a base and the
    /// length word of [`mismatch::length_word`]); the length of a read longer than
    /// [`ReadPacker::longest`] instead, `out` left as it was.
    fn pack_bases<'r>(
        &self,
        n: usize,
        seq: impl Fn(usize) -> &'r [u8] + Sync,
        out: &mut Vec<u32>,
    ) -> Result<(), usize> {
        let longest = self.longest();
        match self.mismatch {
            None => pack_codes::<2>(n, seq, out, longest, exact_length_word),
            Some((k, unique_len)) => pack_codes::<4>(n, seq, out, longest, |len, unknown| {
                mismatch::length_word(k, unique_len, len, unknown)
            }),
        }
    }
}

/// Why a pass over some reads did not fit: they are searched in halves.
enum Overflow {
    /// This many positions are more than one pass locates.
    Positions(u64),
    /// The k-mismatch work queues cannot hold the pass.
    Queue,
}

/// Per-batch device buffers, grown as needed.
struct Buffers<'g> {
    packed: DevBuf<'g>,
    lo: DevBuf<'g>,
    direct: DevBuf<'g>,
    offsets: DevBuf<'g>,
    positions: DevBuf<'g>,
    total: DevBuf<'g>,
    scan: Workspace<'g>,
    /// Read-strands the scan workspace and `lo`/`offsets` hold.
    items: usize,
}

/// The FM index on the GPU and the buffers of the batch being searched.
pub struct GpuSearcher<'g> {
    gpu: &'g Gpu,
    /// The width of rows and positions, in the kernels and on the device.
    width: Width,
    text: DevBuf<'g>,
    occ: DevBuf<'g>,
    jump: DevBuf<'g>,
    /// The A-padded codes of the text's suffixes shorter than k (`jump::ShortSuffixes`).
    short: DevBuf<'g>,
    short_count: u32,
    sa_bits: DevBuf<'g>,
    sa_ranks: DevBuf<'g>,
    sa_positions: DevBuf<'g>,
    c: [u64; 5],
    primary: u64,
    /// The sampling rate: no sampled row is farther than `rate - 1` LF steps.
    rate: u32,
    k: u32,
    buffers: Option<Buffers<'g>>,
    /// The reads of the pass, packed.
    host_packed: Vec<u32>,
    kernel_seconds: f64,
    host_seconds: f64,
    max_positions: u64,
    /// The k-mismatch search's state (`None`: exact search).
    mismatch: Option<mismatch::MismatchState<'g>>,
}

/// Grows `buf` to at least `bytes` (contents not kept), with a quarter more headroom.
fn ensure<'g>(gpu: &'g Gpu, buf: &mut DevBuf<'g>, bytes: usize) -> Result<(), GpuError> {
    if buf.bytes() < bytes {
        *buf = gpu.alloc(bytes + bytes / 4)?;
    }
    Ok(())
}

/// The length word of a read for exact search (shorter than the flag: checked before
/// packing): its length, or the not-searchable flag when it is empty or has a base
/// other than A, C, G or T.
fn exact_length_word(len: usize, unknown: usize) -> u32 {
    assert!(len < NOT_SEARCHABLE as usize, "checked before packing");
    if len > 0 && unknown == 0 {
        len as u32
    } else {
        NOT_SEARCHABLE
    }
}

/// Packs the `n` reads whose bases `seq` gives ([`PACK_CHUNK`] reads a task, in
/// parallel) into `out`: `2 n` meta words (first word, then `length_word(length,
/// non-ACGT bases)`; with 2 bits a count that is 0 exactly when there are none) then
/// the read codes, `BITS` bits each (base `j` of a word at bit `BITS j`; a non-ACGT
/// code is 4, cut to its low `BITS` bits), each read starting on a word. A read longer
/// than `longest` packs nothing: its length is returned.
fn pack_codes<'r, const BITS: usize>(
    n: usize,
    seq: impl Fn(usize) -> &'r [u8] + Sync,
    out: &mut Vec<u32>,
    longest: usize,
    length_word: impl Fn(usize, usize) -> u32 + Sync,
) -> Result<(), usize> {
    let per_word = 32 / BITS;
    let chunk = |c: usize| c * PACK_CHUNK..((c + 1) * PACK_CHUNK).min(n);
    // Each chunk's words, and its longest read.
    let chunks: Vec<(Range<usize>, usize, usize)> = (0..n.div_ceil(PACK_CHUNK))
        .into_par_iter()
        .map(|c| {
            let (words, most) = chunk(c)
                .map(|i| seq(i).len())
                .fold((0, 0), |(words, most), len| {
                    (words + len.div_ceil(per_word), most.max(len))
                });
            (chunk(c), words, most)
        })
        .collect();
    if let Some(&(_, _, len)) = chunks.iter().find(|(_, _, len)| *len > longest) {
        return Err(len);
    }
    let words: usize = chunks.iter().map(|(_, words, _)| words).sum();
    assert!(2 * n + words < u32::MAX as usize, "batch too large to pack");
    // Every word is written below: a recycled buffer keeps its old words rather than
    // being cleared (6 MB a batch, on the packing thread alone).
    out.truncate(2 * n + words);
    out.resize(2 * n + words, 0);
    let (meta, mut rest) = out.split_at_mut(2 * n);
    let mut word_chunks = Vec::with_capacity(chunks.len());
    let mut first_word = 0;
    for (_, words, _) in &chunks {
        let (mine, tail) = rest.split_at_mut(*words);
        word_chunks.push((first_word, mine));
        first_word += words;
        rest = tail;
    }
    meta.par_chunks_mut(2 * PACK_CHUNK)
        .zip(chunks.par_iter())
        .zip(word_chunks)
        .for_each(|((meta, (reads, _, _)), (first_word, words))| {
            let mut start = 0;
            for (i, read) in reads.clone().map(&seq).enumerate() {
                let own = &mut words[start..start + read.len().div_ceil(per_word)];
                let unknown = pack_read::<BITS>(read, own);
                meta[2 * i] = (first_word + start) as u32;
                meta[2 * i + 1] = length_word(read.len(), unknown);
                start += own.len();
            }
        });
    Ok(())
}

/// Packs one read's bases into its words `own`, `BITS` bits a base (as [`pack_codes`]);
/// how many are not A, C, G or T (with 2 bits, 1 for any: the exact search asks only
/// whether).
fn pack_read<const BITS: usize>(seq: &[u8], own: &mut [u32]) -> usize {
    if BITS == 2 {
        return usize::from(!pack_two_bit(seq, own));
    }
    let mut unknown = 0;
    for (bases, word) in seq.chunks(8).zip(own.iter_mut()) {
        let (x, others) = match bases.try_into() {
            Ok(eight) => four_bit_word(u64::from_le_bytes(eight)),
            Err(_) => four_bit_tail(bases),
        };
        unknown += others as usize;
        *word = x;
    }
    unknown
}

/// Eight bases packed four bits each (base `j` at bit `4 j`), and how many are not A,
/// C, G or T.
fn four_bit_word(bytes: u64) -> (u32, u32) {
    let (codes, others) = codes_of_eight(bytes);
    (four_bit_codes(codes), others)
}

/// A word's last bases (fewer than eight) packed, as [`four_bit_word`].
fn four_bit_tail(bases: &[u8]) -> (u32, u32) {
    let mut word = 0u32;
    let mut others = 0;
    for (j, &b) in bases.iter().enumerate() {
        let code = CODES[b as usize];
        others += u32::from(code == NOT_A_BASE);
        word |= u32::from(code & 15) << (4 * j);
    }
    (word, others)
}

/// The low 4 bits of each byte of `codes`, gathered: byte `j` to bits `4 j`.
fn four_bit_codes(codes: u64) -> u32 {
    let x = codes & 0x0F0F_0F0F_0F0F_0F0F;
    let x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF;
    let x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    (x | (x >> 16)) as u32
}

impl<'g> GpuSearcher<'g> {
    /// Uploads `fm` to `gpu`, through pinned staging buffers: a human-scale index (4 GB
    /// at 3.1 Gbp) moves at pinned speed, its pages read from the mapped file in parallel.
    pub fn new(gpu: &'g Gpu, fm: &FmIndex<'_>) -> Result<Self, GpuError> {
        let width = fm.sampled.positions.width();
        assert!(
            fm.jump.width() == width && fm.sampled.ranks.width() == width,
            "an index has one position width"
        );
        let rows = fm.c[4];
        if width == Width::U32 && rows >= u32::MAX as u64 {
            return Err(GpuError::TooLarge(rows as usize - 1));
        }
        Ok(GpuSearcher {
            gpu,
            width,
            text: gpu.upload_staged(fm.text.words())?,
            occ: gpu.upload_staged(fm.occ.blocks())?,
            jump: upload_positions(gpu, fm.jump)?,
            short: gpu.upload(fm.short.codes())?,
            short_count: fm.short.codes().len() as u32,
            sa_bits: gpu.upload_staged(fm.sampled.bits)?,
            sa_ranks: upload_positions(gpu, fm.sampled.ranks)?,
            sa_positions: upload_positions(gpu, fm.sampled.positions)?,
            c: fm.c,
            primary: fm.occ.primary(),
            rate: fm.sampled.rate,
            k: fm.k,
            buffers: None,
            host_packed: Vec::new(),
            kernel_seconds: 0.0,
            host_seconds: 0.0,
            max_positions: MAX_POSITIONS,
            mismatch: None,
        })
    }

    /// A searcher for occurrences with at most `max_mismatches` (0 to
    /// [`MAX_MISMATCHES`](crate::search::schemes::MAX_MISMATCHES)) mismatches: with 0 the
    /// exact searcher of [`GpuSearcher::new`] on `index.forward`, otherwise that upload
    /// plus the mirror's BWT/Occ and the search schemes (the k-mismatch search).
    pub fn with_mismatches(
        gpu: &'g Gpu,
        index: &Bidirectional<'_>,
        max_mismatches: u8,
    ) -> Result<Self, GpuError> {
        let mut searcher = GpuSearcher::new(gpu, &index.forward)?;
        if max_mismatches > 0 {
            searcher.mismatch = Some(mismatch::MismatchState::new(
                gpu,
                &index.mirror,
                max_mismatches,
                index.forward.text.len(),
                searcher.width,
            )?);
        }
        Ok(searcher)
    }

    /// Sets the device memory of the k-mismatch work queues of one pass (default 1 GiB);
    /// a batch that does not fit is searched in parts. No effect on exact search.
    pub fn set_queue_bytes(&mut self, bytes: usize) {
        if let Some(state) = self.mismatch.as_mut() {
            state.set_queue_bytes(bytes);
        }
    }

    /// Caps the positions located in one pass (default 2^28, 1 GiB of device memory);
    /// a batch with more is searched in parts. A single read may exceed the cap.
    pub fn set_max_positions(&mut self, max: u64) {
        self.max_positions = max.clamp(1, u32::MAX as u64);
    }

    /// Seconds spent in the search, scan and locate kernels so far (host-timed between
    /// the batch's upload and its download).
    pub fn kernel_seconds(&self) -> f64 {
        self.kernel_seconds
    }

    /// Seconds of host work on the search's thread so far besides transfers: packing
    /// the reads not packed ahead by [`ReadPacker::pack`] and, in the k-mismatch
    /// search, grouping the located positions by read-strand.
    pub fn host_seconds(&self) -> f64 {
        self.host_seconds
    }

    /// The buffer of the last pass's packed reads (sent by then), for
    /// [`ReadPacker::pack`] to reuse: a batch's words (6 MB for 131,072 reads of 148
    /// bp) freshly allocated were freshly faulted in too.
    pub fn take_words(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.host_packed)
    }

    /// How this searcher packs reads.
    pub fn packer(&self) -> ReadPacker {
        ReadPacker {
            mismatch: self.mismatch.as_ref().map(|m| (m.k, m.unique_len)),
        }
    }

    /// [`BatchSearcher::search_batch`] of `batch`, packed ahead as `packed` (by
    /// [`ReadPacker::pack`] of this searcher's [`GpuSearcher::packer`]): one pass from
    /// the packed words; a batch too large for one pass (2^28 positions, or the
    /// k-mismatch work queues) is searched from its records, in parts.
    pub fn search_packed(
        &mut self,
        batch: &ReadBatch,
        packed: PackedReads,
    ) -> Result<BatchPositions, GpuError> {
        assert_eq!(
            packed.packer,
            self.packer(),
            "reads packed for another search"
        );
        assert_eq!(packed.reads, batch.len(), "the batch packed");
        let mut out = BatchPositions::default();
        match self.one_pass(PassReads::Packed(packed.reads, packed.words))? {
            Ok((offsets, positions)) => out.push_part(offsets, positions),
            Err(overflow) => self.search_halves(&batch.records(), overflow, &mut out)?,
        }
        Ok(out)
    }

    /// Packs the pass's reads into its host buffer, unless packed ahead; a read longer
    /// than the kernels take is [`GpuError::ReadTooLong`].
    fn pack_pass(&mut self, reads: PassReads) -> Result<(), GpuError> {
        match reads {
            PassReads::Packed(_, words) => self.host_packed = words,
            PassReads::Records(reads) => {
                let packing = Instant::now();
                let packed = self.packer().pack_into(reads, &mut self.host_packed);
                self.host_seconds += packing.elapsed().as_secs_f64();
                packed?;
            }
        }
        Ok(())
    }

    /// Searches `reads` (which follow those already in `out`) in one pass, or in
    /// halves when their positions (or k-mismatch work queues) would not fit one pass.
    fn search_range(
        &mut self,
        reads: &[ReadRecord],
        out: &mut BatchPositions,
    ) -> Result<(), GpuError> {
        match self.one_pass(PassReads::Records(reads))? {
            Ok((offsets, positions)) => out.push_part(offsets, positions),
            Err(overflow) => self.search_halves(reads, overflow, out)?,
        }
        Ok(())
    }

    /// Searches `reads`, too many for one pass (`overflow` says why), in halves; a
    /// single read that does not fit is an error.
    fn search_halves(
        &mut self,
        reads: &[ReadRecord],
        overflow: Overflow,
        out: &mut BatchPositions,
    ) -> Result<(), GpuError> {
        match overflow {
            Overflow::Positions(total) if reads.len() == 1 => Err(GpuError::TooManyHits(total)),
            Overflow::Queue if reads.len() == 1 => Err(GpuError::QueueFull),
            _ => {
                let half = reads.len() / 2;
                self.search_range(&reads[..half], out)?;
                self.search_range(&reads[half..], out)
            }
        }
    }

    /// One pass over `reads`, exact or k-mismatch: their offsets and positions, or why
    /// they do not fit one pass.
    fn one_pass(&mut self, reads: PassReads) -> Result<Result<Located, Overflow>, GpuError> {
        match self.mismatch {
            None => Ok(self.pass(reads)?.map_err(Overflow::Positions)),
            Some(_) => self.mismatch_pass(reads),
        }
    }

    /// The index on the device, as the search and locate kernels take it.
    fn device_index(&self) -> DeviceFmIndex {
        let [c0, c1, c2, c3, rows] = self.c.map(Pos);
        DeviceFmIndex {
            occ: self.occ.ptr(0),
            jump: self.jump.ptr(0),
            k: self.k,
            shorts: self.short.ptr(0),
            nshort: self.short_count,
            c: [c0, c1, c2, c3],
            rows,
            primary: Pos(self.primary),
            text: self.text.ptr(0),
            sa: DeviceSampledSa {
                bits: self.sa_bits.ptr(0),
                ranks: self.sa_ranks.ptr(0),
                positions: self.sa_positions.ptr(0),
                rate: self.rate,
            },
        }
    }

    /// One exact pass over `reads`: their offsets and positions in the
    /// [`BatchPositions`] layout, or `Ok(Err(total))` when their `total` positions are
    /// too many.
    fn pass(&mut self, reads: PassReads) -> Result<Result<Located, u64>, GpuError> {
        let (gpu, width, w) = (self.gpu, self.width, self.width.bytes());
        let n = reads.len();
        let items = 2 * n;
        self.pack_pass(reads)?;
        if self.buffers.as_ref().is_none_or(|b| b.items < items) {
            let cap = items + items / 4;
            self.buffers = None; // free the old ones first
            self.buffers = Some(Buffers {
                packed: gpu.alloc(4 * self.host_packed.len())?,
                lo: gpu.alloc(w * cap)?,
                direct: gpu.alloc(w * cap)?,
                offsets: gpu.alloc(4 * (cap + 1))?,
                positions: gpu.alloc(w * (cap + 1))?,
                total: gpu.alloc(8)?,
                scan: Workspace::new(gpu, cap + 1)?,
                items: cap,
            });
        }
        let index = self.device_index();
        let b = self.buffers.as_mut().expect("allocated above");
        ensure(gpu, &mut b.packed, 4 * self.host_packed.len())?;
        b.packed.write(&self.host_packed)?;
        b.total.write(&[0u64])?;
        gpu.sync()?;
        let start = Instant::now();
        launchers::map::map_search(
            gpu,
            width,
            (items.div_ceil(THREADS as usize) as u32, THREADS),
            b.packed.ptr(0),
            b.packed.ptr(4 * items),
            n as u32,
            SearchIndex(index),
            b.lo.ptr(0),
            b.direct.ptr(0),
            b.offsets.ptr(0),
            b.total.ptr(0),
        )?;
        let offsets = b.offsets.ptr(0);
        b.scan
            .scan_queued(offsets, offsets, items + 1, ScanOp::Sum, false)?;
        let mut total = [0u64];
        b.total.download(&mut total)?;
        let total = total[0];
        let limit = if n == 1 {
            u32::MAX as u64
        } else {
            MAX_POSITIONS
        };
        if total > limit {
            self.kernel_seconds += start.elapsed().as_secs_f64();
            return Ok(Err(total));
        }
        let intervals = (offsets, b.lo.ptr(0), b.direct.ptr(0));
        locate_into(
            gpu,
            index,
            intervals,
            (items, total),
            &mut b.positions,
            self.width,
        )?;
        self.kernel_seconds += start.elapsed().as_secs_f64();
        let mut offsets = vec![0; items + 1];
        b.offsets.download(&mut offsets)?;
        let positions = download_positions(&b.positions, total as usize, self.width)?;
        Ok(Ok((offsets, positions)))
    }
}

/// Uploads an array of rows or positions at its width.
fn upload_positions<'g>(gpu: &'g Gpu, values: PositionSlice<'_>) -> Result<DevBuf<'g>, GpuError> {
    match values {
        PositionSlice::U32(v) => gpu.upload_staged(v),
        PositionSlice::U64(v) => gpu.upload_staged(v),
    }
}

/// The first `len` rows or positions of `buf`, at `width`.
fn download_positions(buf: &DevBuf<'_>, len: usize, width: Width) -> Result<Positions, GpuError> {
    fn download<T: SaIndex>(buf: &DevBuf<'_>, len: usize) -> Result<Positions, GpuError> {
        let mut values = vec![T::default(); len];
        buf.download(&mut values)?;
        Ok(T::into_positions(values))
    }
    match width {
        Width::U32 => download::<u32>(buf, len),
        Width::U64 => download::<u64>(buf, len),
    }
}

/// Locates the `total` positions of `count` intervals (as [`locate`] takes them) into
/// `positions`, grown to hold them at `width`, and waits for the GPU.
fn locate_into<'g>(
    gpu: &'g Gpu,
    index: DeviceFmIndex,
    intervals: (DevPtr, DevPtr, DevPtr),
    (count, total): (usize, u64),
    positions: &mut DevBuf<'g>,
    width: Width,
) -> Result<(), GpuError> {
    ensure(gpu, positions, width.bytes() * total as usize)?;
    if total > 0 {
        let out = positions.ptr(0);
        locate(gpu, (index, width), intervals, (count, total), out)?;
    }
    gpu.sync()
}

/// Launches `map_locate` for positions `width` over `index`
/// ([`GpuSearcher::device_index`]): the `total` text positions of `items` located
/// intervals (`offsets`: where each one's positions start; `lo`: its first row, or
/// `DIRECT` with its one position in `direct`) into `out`.
fn locate(
    gpu: &Gpu,
    (index, width): (DeviceFmIndex, Width),
    (offsets, lo, direct): (DevPtr, DevPtr, DevPtr),
    (items, total): (usize, u64),
    out: DevPtr,
) -> Result<(), GpuError> {
    let blocks = total.div_ceil(THREADS as u64) as u32;
    launchers::map::map_locate(
        gpu,
        width,
        (blocks, THREADS),
        offsets,
        lo,
        direct,
        items as u32,
        total as u32,
        LocateIndex(index),
        out,
    )
}

impl BatchSearcher for GpuSearcher<'_> {
    type Error = GpuError;

    /// Searches both strands of every read of `reads` and locates every row.
    fn search_batch(&mut self, reads: &[ReadRecord]) -> Result<BatchPositions, GpuError> {
        let mut out = BatchPositions::default();
        self.search_range(reads, &mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs `reads` into `out` for exact search: `2 n` meta words (first word, length or
    /// the not-searchable flag) then the 2-bit words, each read starting on a word.
    fn pack(reads: &[ReadRecord], out: &mut Vec<u32>) {
        let longest = NOT_SEARCHABLE as usize - 1;
        pack_codes::<2>(
            reads.len(),
            |i| reads[i].seq,
            out,
            longest,
            exact_length_word,
        )
        .expect("short reads");
    }

    #[test]
    fn packing_is_two_bits_per_base_with_a_flag() {
        let seq17 = b"ACGTACGTACGTACGTT";
        let reads: Vec<ReadRecord> = [&seq17[..], b"", b"ACNT", b"tg"]
            .iter()
            .map(|s| ReadRecord::of_bases(s))
            .cycle()
            .take(4 * PACK_CHUNK + 3)
            .collect();
        let mut out = Vec::new();
        pack(&reads, &mut out);
        let n = reads.len();
        let mut word = 0;
        for (i, r) in reads.iter().enumerate() {
            assert_eq!(out[2 * i] as usize, word, "read {i}");
            let expected_len = match i % 4 {
                0 => 17,
                3 => 2,
                _ => NOT_SEARCHABLE,
            };
            assert_eq!(out[2 * i + 1], expected_len, "read {i}");
            if i % 4 == 0 {
                assert_eq!(out[2 * n + word], 0xE4E4_E4E4);
                assert_eq!(out[2 * n + word + 1], 3);
            }
            if i % 4 == 3 {
                assert_eq!(out[2 * n + word], 3 | 2 << 2);
            }
            word += r.seq.len().div_ceil(16);
        }
        assert_eq!(out.len(), 2 * n + word);
    }

    #[test]
    fn a_batch_packs_as_its_records_do() {
        let seqs: [&[u8]; 5] = [
            b"ACGTACGTACGTACGTT",
            b"",
            b"ACNT",
            b"tg",
            b"GATTACAGATTACAGATTACA",
        ];
        let batch = ReadBatch::of(
            seqs.iter()
                .cycle()
                .take(3 * PACK_CHUNK + 7)
                .map(|s| ReadRecord::of_bases(s)),
        );
        for k in [0, 2] {
            let packer = ReadPacker::new(1_000_000, k);
            // A stale buffer larger than the batch's words: every word is written.
            let packed = packer
                .pack(&batch, vec![u32::MAX; 64 * PACK_CHUNK])
                .expect("short reads");
            let mut want = Vec::new();
            packer.pack_into(&batch.records(), &mut want).unwrap();
            assert_eq!(packed.reads, batch.len());
            assert_eq!(packed.words, want, "k = {k}");
        }
        // Chunk by chunk, the words each chunk packs follow the chunk before.
        let mut whole = Vec::new();
        pack(&batch.records(), &mut whole);
        let mut word = 0;
        for (i, read) in batch.records().iter().enumerate() {
            assert_eq!(whole[2 * i] as usize, word, "read {i}");
            word += read.seq.len().div_ceil(16);
        }
    }

    #[test]
    fn a_read_too_long_for_the_mismatch_kernels_leaves_its_batch_unpacked() {
        let longest = vec![b'A'; mismatch::MAX_READ_LEN - 1];
        let too_long = vec![b'C'; mismatch::MAX_READ_LEN];
        let batch =
            |long: &[u8]| ReadBatch::of([b"ACGT".as_slice(), long].map(ReadRecord::of_bases));
        let mismatches = ReadPacker::new(1_000_000, 1);
        assert!(mismatches.pack(&batch(&longest), Vec::new()).is_some());
        assert!(mismatches.pack(&batch(&too_long), Vec::new()).is_none());
        let mut words = vec![7];
        assert!(matches!(
            mismatches.pack_into(&batch(&too_long).records(), &mut words),
            Err(GpuError::ReadTooLong(len)) if len == mismatch::MAX_READ_LEN
        ));
        assert_eq!(words, [7], "nothing packed");
        // Exact search takes reads of up to 2^31 - 1 bases.
        let exact = ReadPacker::new(1_000_000, 0);
        assert!(exact.pack(&batch(&too_long), Vec::new()).is_some());
    }

    #[test]
    fn four_bit_words_pack_as_base_by_base() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..5_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let bases: Vec<u8> = state
                .to_le_bytes()
                .iter()
                .chain(&(state.rotate_left(29) ^ round).to_le_bytes())
                .map(|&b| {
                    if round % 2 == 0 {
                        b"ACGTacgtNn-"[(b % 11) as usize]
                    } else {
                        b
                    }
                })
                .collect();
            let eight = u64::from_le_bytes(bases[..8].try_into().expect("8 bytes"));
            assert_eq!(
                four_bit_word(eight),
                four_bit_tail(&bases[..8]),
                "{bases:?}"
            );
        }
    }
}
