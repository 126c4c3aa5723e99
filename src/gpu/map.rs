//! Search and locate of read batches on the GPU, host side of `kernels/map.cu`: exact
//! search here, k-mismatch search (`map -v K`) in `map/mismatch.rs`, behind one searcher.
//!
//! [`GpuSearcher::new`] uploads the FM index once (BWT/Occ blocks, jump table, sampled
//! suffix array, and the packed text). Its [`BatchSearcher::search_batch`] packs a
//! batch on the host (2-bit codes, 16 bases to a u32, with a flag for reads that cannot
//! match: empty or holding a non-ACGT base), sends it, and runs
//! 1. `map_search`: one thread per read and strand, backward search from the jump table,
//!    giving each read-strand's row interval; as on the CPU, once the interval is one
//!    row, that row is located and the rest of the read compared with the text;
//! 2. an exclusive scan of the interval sizes: each read-strand's output offset;
//! 3. `map_locate`: one thread per row, LF steps to the nearest sampled row;
//!
//! and only the offsets and text positions come back, as the [`BatchPositions`] of the
//! [`BatchSearcher`] interface. Placement on the contigs and sorting stay on the CPU
//! ([`BatchPositions::hits`]), shared with the CPU path.

use std::time::Instant;

use rayon::prelude::*;

use super::radix::{ScanOp, Workspace};
use super::{Arg, DevBuf, Gpu, GpuError};
use crate::alphabet::CODES;
use crate::fm::{Bidirectional, FmIndex};
use crate::io::ReadRecord;
use crate::sa::{PositionSlice, Positions};
use crate::search::{BatchPositions, BatchSearcher};

mod mismatch;

const FILE: &str = "map.cu";
const THREADS: u32 = 256;
/// Length flag of a read that cannot match.
const NOT_SEARCHABLE: u32 = 1 << 31;
/// Default most positions located in one pass; larger batches are split.
const MAX_POSITIONS: u64 = 1 << 28;
/// Reads per host packing task.
const PACK_CHUNK: usize = 4096;

/// The offsets and positions of one pass, in the [`BatchPositions`] layout.
type Located = (Vec<u32>, Vec<u32>);

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
    text: DevBuf<'g>,
    occ: DevBuf<'g>,
    jump: DevBuf<'g>,
    sa_bits: DevBuf<'g>,
    sa_ranks: DevBuf<'g>,
    sa_positions: DevBuf<'g>,
    c: [u32; 5],
    primary: u32,
    /// The sampling rate: no sampled row is farther than `rate - 1` LF steps.
    rate: u32,
    k: u32,
    buffers: Option<Buffers<'g>>,
    host_packed: Vec<u32>,
    kernel_seconds: f64,
    pack_seconds: f64,
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

/// Packs `reads` into `out` for exact search: `2 n` meta words (first word, length or
/// the not-searchable flag) then the 2-bit words, each read starting on a word.
fn pack(reads: &[ReadRecord], out: &mut Vec<u32>) {
    pack_codes::<2>(reads, out, |len, unknown| {
        if len > 0 && len < NOT_SEARCHABLE as usize && unknown == 0 {
            len as u32
        } else {
            NOT_SEARCHABLE
        }
    });
}

/// Packs `reads` into `out`: `2 n` meta words (first word, then `length_word(length,
/// non-ACGT bases)`) then the read codes, `BITS` bits each (base `j` of a word at bit
/// `BITS j`; a non-ACGT code is 4, cut to its low `BITS` bits), each read starting on a
/// word.
fn pack_codes<const BITS: usize>(
    reads: &[ReadRecord],
    out: &mut Vec<u32>,
    length_word: impl Fn(usize, usize) -> u32 + Sync,
) {
    let per_word = 32 / BITS;
    let n = reads.len();
    let mut starts = Vec::with_capacity(n + 1);
    let mut words = 0usize;
    for r in reads {
        starts.push(words);
        words += r.seq.len().div_ceil(per_word);
    }
    starts.push(words);
    assert!(2 * n + words < u32::MAX as usize, "batch too large to pack");
    out.clear();
    out.resize(2 * n + words, 0);
    let (meta, mut rest) = out.split_at_mut(2 * n);
    let mut word_chunks = Vec::with_capacity(n.div_ceil(PACK_CHUNK));
    for c in (0..n).step_by(PACK_CHUNK) {
        let end = (c + PACK_CHUNK).min(n);
        let (mine, tail) = rest.split_at_mut(starts[end] - starts[c]);
        word_chunks.push(mine);
        rest = tail;
    }
    let mask = (1u8 << BITS) - 1;
    meta.par_chunks_mut(2 * PACK_CHUNK)
        .zip(reads.par_chunks(PACK_CHUNK))
        .zip(word_chunks)
        .enumerate()
        .for_each(|(c, ((meta, reads), words))| {
            let base = starts[c * PACK_CHUNK];
            for (i, read) in reads.iter().enumerate() {
                let start = starts[c * PACK_CHUNK + i];
                let own =
                    &mut words[start - base..start - base + read.seq.len().div_ceil(per_word)];
                let mut unknown = 0;
                for (chunk, word) in read.seq.chunks(per_word).zip(own) {
                    let mut x = 0u32;
                    for (j, &b) in chunk.iter().enumerate() {
                        let code = CODES[b as usize];
                        unknown += (code >= 4) as usize;
                        x |= ((code & mask) as u32) << (BITS * j);
                    }
                    *word = x;
                }
                meta[2 * i] = start as u32;
                meta[2 * i + 1] = length_word(read.seq.len(), unknown);
            }
        });
}

impl<'g> GpuSearcher<'g> {
    /// Uploads `fm` to `gpu`, through pinned staging buffers: a human-scale index (4 GB
    /// at 3.1 Gbp) moves at pinned speed, its pages read from the mapped file in parallel.
    /// An index of 64-bit positions is refused ([`GpuError::WidePositions`]).
    pub fn new<'a>(gpu: &'g Gpu, fm: &FmIndex<'a>) -> Result<Self, GpuError> {
        let narrow =
            |positions: PositionSlice<'a>| positions.as_u32().ok_or(GpuError::WidePositions);
        let (jump, ranks, positions) = (
            narrow(fm.jump)?,
            narrow(fm.sampled.ranks)?,
            narrow(fm.sampled.positions)?,
        );
        let rows = fm.c[4];
        if rows >= u32::MAX as u64 {
            return Err(GpuError::TooLarge(rows as usize - 1));
        }
        Ok(GpuSearcher {
            gpu,
            text: gpu.upload_staged(fm.text.words())?,
            occ: gpu.upload_staged(fm.occ.blocks())?,
            jump: gpu.upload_staged(jump)?,
            sa_bits: gpu.upload_staged(fm.sampled.bits)?,
            sa_ranks: gpu.upload_staged(ranks)?,
            sa_positions: gpu.upload_staged(positions)?,
            c: fm.c.map(|c| c as u32),
            primary: fm.occ.primary() as u32,
            rate: fm.sampled.rate,
            k: fm.k,
            buffers: None,
            host_packed: Vec::new(),
            kernel_seconds: 0.0,
            pack_seconds: 0.0,
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
                index.mirror.blocks(),
                index.mirror.primary(),
                max_mismatches,
                index.forward.text.len(),
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

    /// Seconds spent packing reads on the host so far.
    pub fn pack_seconds(&self) -> f64 {
        self.pack_seconds
    }

    /// Searches `reads` (which follow those already in `out`) in one pass, or in halves
    /// when their positions (or k-mismatch work queues) would not fit one pass.
    fn search_range(
        &mut self,
        reads: &[ReadRecord],
        out: &mut BatchPositions,
    ) -> Result<(), GpuError> {
        let pass = match self.mismatch {
            None => self.pass(reads)?.map_err(Overflow::Positions),
            Some(_) => self.mismatch_pass(reads)?,
        };
        match pass {
            Ok((offsets, positions)) => out.push_part(offsets, Positions::U32(positions)),
            Err(Overflow::Positions(total)) if reads.len() == 1 => {
                return Err(GpuError::TooManyHits(total))
            }
            Err(Overflow::Queue) if reads.len() == 1 => return Err(GpuError::QueueFull),
            Err(_) => {
                let half = reads.len() / 2;
                self.search_range(&reads[..half], out)?;
                self.search_range(&reads[half..], out)?;
            }
        }
        Ok(())
    }

    /// The index's arguments of `map_locate` (Occ, C, primary row, sampled SA, rate,
    /// rows), for [`locate`].
    fn locate_index(&self) -> [Arg; 11] {
        let [c0, c1, c2, c3, rows] = self.c.map(Arg::U32);
        [
            Arg::U64(self.occ.ptr(0)),
            c0,
            c1,
            c2,
            c3,
            Arg::U32(self.primary),
            Arg::U64(self.sa_bits.ptr(0)),
            Arg::U64(self.sa_ranks.ptr(0)),
            Arg::U64(self.sa_positions.ptr(0)),
            Arg::U32(self.rate),
            rows,
        ]
    }

    /// One pass over `reads`: their offsets and positions in the [`BatchPositions`]
    /// layout, or `Ok(Err(total))` when their `total` positions are too many.
    fn pass(&mut self, reads: &[ReadRecord]) -> Result<Result<Located, u64>, GpuError> {
        let gpu = self.gpu;
        let n = reads.len();
        let items = 2 * n;
        let packing = Instant::now();
        pack(reads, &mut self.host_packed);
        self.pack_seconds += packing.elapsed().as_secs_f64();
        if self.buffers.as_ref().is_none_or(|b| b.items < items) {
            let cap = items + items / 4;
            self.buffers = None; // free the old ones first
            self.buffers = Some(Buffers {
                packed: gpu.alloc(4 * self.host_packed.len())?,
                lo: gpu.alloc(4 * cap)?,
                direct: gpu.alloc(4 * cap)?,
                offsets: gpu.alloc(4 * (cap + 1))?,
                positions: gpu.alloc(4 * (cap + 1))?,
                total: gpu.alloc(8)?,
                scan: Workspace::new(gpu, cap + 1)?,
                items: cap,
            });
        }
        let index = self.locate_index();
        let b = self.buffers.as_mut().expect("allocated above");
        ensure(gpu, &mut b.packed, 4 * self.host_packed.len())?;
        b.packed.write(&self.host_packed)?;
        b.total.write(&[0u64])?;
        gpu.sync()?;
        let start = Instant::now();
        let [c0, c1, c2, c3, rows] = self.c.map(Arg::U32);
        gpu.launch(
            FILE,
            "map_search",
            items.div_ceil(THREADS as usize) as u32,
            THREADS,
            &[
                Arg::U64(b.packed.ptr(0)),
                Arg::U64(b.packed.ptr(4 * items)),
                Arg::U32(n as u32),
                Arg::U64(self.occ.ptr(0)),
                Arg::U64(self.jump.ptr(0)),
                Arg::U32(self.k),
                c0,
                c1,
                c2,
                c3,
                rows,
                Arg::U32(self.primary),
                Arg::U64(self.text.ptr(0)),
                Arg::U64(self.sa_bits.ptr(0)),
                Arg::U64(self.sa_ranks.ptr(0)),
                Arg::U64(self.sa_positions.ptr(0)),
                Arg::U32(self.rate),
                Arg::U64(b.lo.ptr(0)),
                Arg::U64(b.direct.ptr(0)),
                Arg::U64(b.offsets.ptr(0)),
                Arg::U64(b.total.ptr(0)),
            ],
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
        ensure(gpu, &mut b.positions, 4 * total as usize)?;
        if total > 0 {
            let (lo, direct) = (b.lo.ptr(0), b.direct.ptr(0));
            locate(
                gpu,
                &index,
                (offsets, lo, direct),
                (items, total),
                b.positions.ptr(0),
            )?;
        }
        gpu.sync()?;
        self.kernel_seconds += start.elapsed().as_secs_f64();
        let mut offsets = vec![0; items + 1];
        let mut positions = vec![0; total as usize];
        b.offsets.download(&mut offsets)?;
        b.positions.download(&mut positions)?;
        Ok(Ok((offsets, positions)))
    }
}

/// Launches `map_locate` over the index of `index` ([`GpuSearcher::locate_index`]): the
/// `total` text positions of `items` located intervals (`offsets`: where each one's
/// positions start; `lo`: its first row, or `DIRECT` with its one position in `direct`)
/// into `out`.
fn locate(
    gpu: &Gpu,
    index: &[Arg; 11],
    (offsets, lo, direct): (u64, u64, u64),
    (items, total): (usize, u64),
    out: u64,
) -> Result<(), GpuError> {
    let mut args = vec![
        Arg::U64(offsets),
        Arg::U64(lo),
        Arg::U64(direct),
        Arg::U32(items as u32),
        Arg::U32(total as u32),
    ];
    args.extend_from_slice(index);
    args.push(Arg::U64(out));
    let blocks = total.div_ceil(THREADS as u64) as u32;
    gpu.launch(FILE, "map_locate", blocks, THREADS, &args)
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

    #[test]
    fn packing_is_two_bits_per_base_with_a_flag() {
        let read = |s: &[u8]| ReadRecord {
            seq: s.to_vec(),
            ..Default::default()
        };
        let seq17 = b"ACGTACGTACGTACGTT";
        let reads: Vec<ReadRecord> = [&seq17[..], b"", b"ACNT", b"tg"]
            .iter()
            .map(|s| read(s))
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
}
