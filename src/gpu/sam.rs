//! SAM lines formatted on the GPU, host side of `kernels/sam.cu`. Where the kernel can
//! write every record of a run (single-end reads, exact search, SAM output), the records
//! stage gives the GPU each batch's input bytes as the file holds them (copied straight
//! from a memory map registered with the GPU, [`super::host_register`]), where each
//! read's name, bases and qualities lie in them, its hits and primary ([`FormatRead`],
//! [`FormatHit`]); the GPU counts each read's bytes, scans the
//! counts and writes the lines, which come back in a pinned buffer that the writer writes
//! as it is ([`FormattedText`]). This takes the records' formatting, a third of the CPU
//! time of a GPU-searched run (BENCHMARKS.md, session 28), off the CPU. The CPU's
//! formatter ([`crate::sam`]) is the reference: the GPU writes the same bytes
//! (`tests/gpu_kernels.rs`).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::radix::{ScanOp, Workspace};
use super::{Arg, DevBuf, Gpu, GpuError, PinnedBytes};

const FILE: &str = "sam.cu";
const THREADS: u32 = 256;

/// [`FormatRead::primary`] of a read without hits: its unmapped record.
pub const UNMAPPED: u32 = u32::MAX;
/// [`FormatRead::qual_len`] of a read without qualities (FASTA).
pub const NO_QUALITIES: u32 = u32::MAX;

/// Most output buffers kept for reuse once the writer is done with them.
const POOL: usize = 8;

/// One read of a batch, as `kernels/sam.cu` takes it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatRead {
    /// Where its name starts in the batch's bytes.
    pub name: u32,
    /// Where its bases start.
    pub seq: u32,
    /// Where its qualities start (any value without them).
    pub qual: u32,
    /// Bytes of its name.
    pub name_len: u32,
    /// Its bases.
    pub seq_len: u32,
    /// Its qualities, or [`NO_QUALITIES`].
    pub qual_len: u32,
    /// Where its hits start in the batch's hits.
    pub hit_start: u32,
    /// Its hits.
    pub hit_count: u32,
    /// The primary hit's index among its hits, or [`UNMAPPED`].
    pub primary: u32,
    /// MAPQ of its records.
    pub mapq: u32,
}

/// One exact hit, as `kernels/sam.cu` takes it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatHit {
    /// Contig index.
    pub contig: u32,
    /// 1 where the read's reverse complement matches.
    pub reverse: u32,
    /// 0-based position in the contig: low and high 32 bits.
    pub pos: [u32; 2],
}

/// SAM text made by the GPU, in a pinned buffer that goes back to its formatter's pool
/// when dropped.
pub struct FormattedText {
    buf: Option<PinnedBytes>,
    len: usize,
    pool: Arc<Mutex<Vec<PinnedBytes>>>,
}

impl AsRef<[u8]> for FormattedText {
    fn as_ref(&self) -> &[u8] {
        &self.buf.as_ref().expect("held until dropped").as_slice()[..self.len]
    }
}

impl Drop for FormattedText {
    fn drop(&mut self) {
        let mut pool = self.pool.lock().unwrap();
        if pool.len() < POOL {
            pool.extend(self.buf.take());
        }
    }
}

/// What every record of a run shares, on the device.
struct RunTables<'g> {
    /// Contig names back to back, and where each starts (one offset past the last).
    names: DevBuf<'g>,
    name_offsets: DevBuf<'g>,
    /// [`crate::sam::sam_base_tables`].
    tables: DevBuf<'g>,
    read_group: DevBuf<'g>,
}

/// Formats batches of SAM records on one GPU; one per thread that formats.
pub struct GpuFormatter<'g> {
    gpu: &'g Gpu,
    run: RunTables<'g>,
    read_group_len: Option<u32>,
    all_hits: bool,
    max_alternatives: u32,
    longest_name: u64,
    reads: DevBuf<'g>,
    hits: DevBuf<'g>,
    bytes: DevBuf<'g>,
    /// Each read's byte count, then where its lines start.
    at: DevBuf<'g>,
    out: DevBuf<'g>,
    scan: Workspace<'g>,
    scan_len: usize,
    /// The batch's reads and hits as bytes, page-locked: copied without a staging copy
    /// (and without the driver's lock on pageable copies, which the search shares).
    meta: PinnedBytes,
    pool: Arc<Mutex<Vec<PinnedBytes>>>,
    /// Seconds in [`GpuFormatter::format`]: uploads and counting, writing and download.
    seconds: [f64; 2],
}

impl<'g> GpuFormatter<'g> {
    /// A formatter of records against contigs named `contigs`, with `RG:Z:read_group` on
    /// every record if set, every hit written (`all_hits`, `-a`) or up to
    /// `max_alternatives` listed in XA.
    pub fn new(
        gpu: &'g Gpu,
        contigs: &[&str],
        read_group: Option<&str>,
        all_hits: bool,
        max_alternatives: usize,
    ) -> Result<Self, GpuError> {
        let mut offsets = vec![0u32];
        for name in contigs {
            offsets.push(offsets.last().unwrap() + name.len() as u32);
        }
        let run = RunTables {
            names: gpu.upload(contigs.concat().as_bytes())?,
            name_offsets: gpu.upload(&offsets)?,
            tables: gpu.upload(&crate::sam::sam_base_tables())?,
            read_group: gpu.upload(read_group.unwrap_or("").as_bytes())?,
        };
        Ok(GpuFormatter {
            gpu,
            run,
            read_group_len: read_group.map(|rg| rg.len() as u32),
            all_hits,
            max_alternatives: max_alternatives.min(u32::MAX as usize) as u32,
            longest_name: contigs.iter().map(|c| c.len()).max().unwrap_or(0) as u64,
            reads: gpu.alloc(1)?,
            hits: gpu.alloc(1)?,
            bytes: gpu.alloc(1)?,
            at: gpu.alloc(1)?,
            out: gpu.alloc(1)?,
            scan: Workspace::new(gpu, 1)?,
            scan_len: 1,
            meta: PinnedBytes::new(gpu, 1)?,
            pool: Arc::default(),
            seconds: [0.0; 2],
        })
    }

    /// The SAM lines of `reads`, whose names, bases and qualities lie in `source` (the
    /// concatenation of its pieces; page-locked or registered memory is copied without
    /// a staging copy) and whose hits are `hits`; `None` when they might not fit one
    /// pass (2^32 bytes): the caller formats them on the CPU.
    pub fn format(
        &mut self,
        reads: &[FormatRead],
        hits: &[FormatHit],
        source: &[&[u8]],
    ) -> Result<Option<FormattedText>, GpuError> {
        let bytes: usize = source.iter().map(|piece| piece.len()).sum();
        if reads.is_empty() || self.most_bytes(reads) >= u32::MAX as u64 {
            return Ok(None);
        }
        let n = reads.len();
        let start = Instant::now();
        self.reads.grow(std::mem::size_of_val(reads))?;
        self.hits.grow(std::mem::size_of_val(hits))?;
        self.bytes.grow(bytes)?;
        self.at.grow(4 * n)?;
        if self.scan_len < n {
            self.scan = Workspace::new(self.gpu, n + n / 4)?;
            self.scan_len = n + n / 4;
        }
        let (reads_len, hits_len) = (std::mem::size_of_val(reads), std::mem::size_of_val(hits));
        if self.meta.len() < reads_len + hits_len {
            self.meta = PinnedBytes::new(self.gpu, (reads_len + hits_len) * 5 / 4)?;
        }
        let meta = self.meta.as_mut_slice();
        meta[..reads_len].copy_from_slice(as_bytes(reads));
        meta[reads_len..reads_len + hits_len].copy_from_slice(as_bytes(hits));
        self.reads.write_at(0, &self.meta.as_slice()[..reads_len])?;
        self.hits
            .write_at(0, &self.meta.as_slice()[reads_len..reads_len + hits_len])?;
        let mut at = 0;
        for piece in source {
            self.bytes.write_at(at, piece)?;
            at += piece.len();
        }
        self.launch(n, None)?;
        let at = self.at.ptr(0);
        let total = self.scan.scan(at, at, n, ScanOp::Sum, false)? as usize;
        let counted = Instant::now();
        self.out.grow(total)?;
        self.launch(n, Some(self.out.ptr(0)))?;
        let mut buf = self.output_buffer(total)?;
        self.out.download(&mut buf.as_mut_slice()[..total])?;
        self.seconds[0] += (counted - start).as_secs_f64();
        self.seconds[1] += counted.elapsed().as_secs_f64();
        Ok(Some(FormattedText {
            buf: Some(buf),
            len: total,
            pool: Arc::clone(&self.pool),
        }))
    }

    /// Seconds spent in [`GpuFormatter::format`] so far: uploading and counting bytes,
    /// then writing the lines and downloading them.
    pub fn seconds(&self) -> [f64; 2] {
        self.seconds
    }

    /// At least the bytes of `reads`' lines.
    fn most_bytes(&self, reads: &[FormatRead]) -> u64 {
        let per_record = self.longest_name + 160 + self.read_group_len.unwrap_or(0) as u64;
        let per_alternative = self.longest_name + 60;
        reads
            .iter()
            .map(|r| {
                let others = r.hit_count.saturating_sub(1) as u64;
                let (records, alternatives) = match self.all_hits {
                    true => (1 + others, 0),
                    false => (1, others.min(self.max_alternatives as u64)),
                };
                let read = r.seq_len as u64 + r.qual_len.min(r.seq_len) as u64;
                records * (r.name_len as u64 + per_record) + read + alternatives * per_alternative
            })
            .sum()
    }

    /// A pinned buffer of at least `len` bytes: one the writer gave back, or a new one.
    fn output_buffer(&self, len: usize) -> Result<PinnedBytes, GpuError> {
        let mut pool = self.pool.lock().unwrap();
        match pool.iter().position(|b| b.len() >= len) {
            Some(i) => Ok(pool.swap_remove(i)),
            None => {
                pool.pop(); // too small: replaced
                drop(pool);
                PinnedBytes::new(self.gpu, len + len / 4)
            }
        }
    }

    /// `sam_records` over `n` reads: counting (`out` none) or writing.
    fn launch(&self, n: usize, out: Option<u64>) -> Result<(), GpuError> {
        let run = &self.run;
        self.gpu.launch(
            FILE,
            "sam_records",
            n.div_ceil(THREADS as usize) as u32,
            THREADS,
            &[
                Arg::U64(self.reads.ptr(0)),
                Arg::U32(n as u32),
                Arg::U64(self.hits.ptr(0)),
                Arg::U64(self.bytes.ptr(0)),
                Arg::U64(run.names.ptr(0)),
                Arg::U64(run.name_offsets.ptr(0)),
                Arg::U64(run.tables.ptr(0)),
                Arg::U64(run.read_group.ptr(0)),
                Arg::U32(self.read_group_len.unwrap_or(0)),
                Arg::U32(self.read_group_len.is_some() as u32),
                Arg::U32(self.all_hits as u32),
                Arg::U32(self.max_alternatives),
                Arg::U64(self.at.ptr(0)),
                Arg::U64(out.unwrap_or(0)),
            ],
        )
    }
}

/// The bytes of `items` (plain `u32` fields, no padding).
fn as_bytes<T: Copy>(items: &[T]) -> &[u8] {
    // SAFETY: `FormatRead` and `FormatHit` are `repr(C)` structs of `u32`s: every byte
    // is initialised; the slice covers exactly the items' memory.
    unsafe { std::slice::from_raw_parts(items.as_ptr() as *const u8, std::mem::size_of_val(items)) }
}
