//! The FM index on the GPU: suffix array, then BWT with Occ blocks, sampled suffix array
//! and k-mer jump table derived in device memory, and only those arrays copied back.
//! The result is identical to [`FmParts::build`] (kernels in `kernels/fm.cu`).
//!
//! 1. The suffix array is built with [`super::sa`] (any of its algorithms) and stays on the device; the text is
//!    uploaded again (0.25 bytes a base) once the builder's temporaries are freed.
//! 2. `bwt_occ`: one thread per row reads its position, the base before it in the text,
//!    and whether the position is sampled; each warp packs 32 symbols into one Occ word
//!    and 32 marks into the sampled-row bits; per-block symbol counts are scanned into the
//!    block headers. The same thread reads its suffix's first k bases (the words beside
//!    the one it read) and counts its k-mer where a run of rows of one k-mer starts or
//!    ends (neighbours by warp shuffles).
//! 3. Sampled SA: marks per 512 rows scanned into the ranks, then every sampled row writes
//!    its position at its rank. The suffix array is freed here.
//! 4. Jump table: the k-mer counts of step 2, an inclusive scan, and the suffixes
//!    shorter than k (sorted on the host) added in. (Counted over the text instead, with
//!    an atomic add a position, they took 116 ms of 1.95 G on an H100.)
//!
//! Device memory: the suffix-array build's peak (about 16 bytes a base), then about
//! 5 bytes a base. The host arrays are allocated and their pages mapped by a CPU thread
//! while the GPU works, and filled through pinned staging buffers.

use super::prims::radix::{ScanOp, Workspace};
use super::runtime::launchers;
use super::sa::{self, Profile};
use super::tuning::{over, OCC_PER_CTA};
use super::{prefaulted_vec, DevBuf, Gpu, GpuError};
use crate::fm::occ::{ROWS_PER_BLOCK, WORDS_PER_BLOCK};
use crate::fm::{jump, FmParts, Keep, Lengths, SampledSaParts};
use crate::reference::PackedText;
use crate::sa::Positions;

/// Threads of `bwt_occ`: one per row of its Occ blocks.
const OCC_THREADS: u32 = (OCC_PER_CTA * ROWS_PER_BLOCK) as u32;

/// The host arrays the FM index is copied into (those of the sampled SA and the jump
/// table empty where they are not kept).
struct HostArrays {
    occ: Vec<u64>,
    bits: Vec<u64>,
    ranks: Vec<u32>,
    positions: Vec<u32>,
    jump: Vec<u32>,
}

/// The sizes of an FM index's arrays for a text of `n` bases sampled every `rate`.
#[derive(Clone, Copy)]
struct Shape {
    n: usize,
    rate: u32,
    /// Occ blocks.
    nblocks: usize,
    /// Rank entries of the sampled rows.
    groups: usize,
    /// Words of sampled-row bits.
    nwords: usize,
    /// Sampled positions: 0..=n (row 0 holds n) that are multiples of the rate.
    sampled: usize,
    /// k of the jump table and its k-mers.
    k: u32,
    kmers: usize,
}

impl Shape {
    fn new(n: usize, rate: u32) -> Shape {
        let lengths = Lengths::of(n, rate);
        Shape {
            n,
            rate,
            nblocks: lengths.occ / WORDS_PER_BLOCK,
            groups: lengths.sampled_ranks,
            nwords: lengths.sampled_bits,
            sampled: lengths.sampled_positions,
            k: lengths.k,
            kmers: jump::kmers(lengths.k),
        }
    }

    /// The host arrays, their pages mapped (on the caller's thread); those of the
    /// sampled SA and the jump table only where `locate`.
    fn host_arrays(self, locate: bool) -> HostArrays {
        let kept = |len: usize| if locate { len } else { 0 };
        HostArrays {
            occ: prefaulted_vec(self.nblocks * WORDS_PER_BLOCK),
            bits: prefaulted_vec(kept(self.nwords)),
            ranks: prefaulted_vec(kept(self.groups)),
            positions: prefaulted_vec(kept(self.sampled)),
            jump: prefaulted_vec(kept(jump::entries(self.k))),
        }
    }
}

/// The device arrays of the sampled SA and the jump table.
struct LocateArrays<'g> {
    ranks: DevBuf<'g>,
    positions: DevBuf<'g>,
    table: DevBuf<'g>,
}

/// Builds the FM index of `text` on the GPU, with the sampled suffix array and the jump
/// table where `keep` asks for them: the suffix array is built with `algorithm` and used
/// in device memory, and the result equals [`FmParts::build`] of the text and its suffix
/// array (its locate arrays dropped under [`Keep::OccOnly`], which neither makes nor
/// copies them back). Running out of device memory returns [`GpuError::OutOfMemory`].
pub fn fm_index(
    gpu: &Gpu,
    text: &PackedText,
    keep: Keep,
    algorithm: sa::Algorithm,
) -> Result<FmParts, GpuError> {
    let sample_rate = keep.sample_rate();
    assert!(sample_rate > 0, "sampling rate must be positive");
    let n = text.len();
    if n == 0 {
        let mut fm = FmParts::build::<u32>(text, &[], sample_rate);
        if !matches!(keep, Keep::Locate(_)) {
            fm.drop_locate_and_jump();
        }
        return Ok(fm);
    }
    sa::check_len(n)?;
    let shape = Shape::new(n, sample_rate);
    let locate = matches!(keep, Keep::Locate(_));
    let mut prof = Profile::new(gpu, "gpu fm");
    // The text's upload (for the suffix array and the FM derivation both) goes first:
    // page faults in another thread slow it (1.95 Gbp on an H200: 104-242 ms beside
    // them, 24-43 ms for the same words after them).
    let words = gpu.upload_staged(text.words())?;
    prof.mark("upload");
    let host = std::thread::spawn(move || shape.host_arrays(locate));

    let device_text = sa::DeviceText {
        words: &words,
        len: n,
    };
    let sa = sa::on_device(gpu, device_text, algorithm, &mut prof)?;
    let ws = Workspace::new(gpu, shape.nblocks.max(shape.groups).max(shape.kmers))?;
    prof.mark("sa temporaries freed");
    let (occ, bits, primary, row_kmers) = bwt_occ(gpu, &ws, (&words, &sa), shape)?;
    prof.mark("bwt occ");
    let row_samples = every_row(gpu, &sa, n, keep.row_interval())?;
    if keep.row_interval() > 0 {
        prof.mark("every row's position");
    }
    let located = if locate {
        let (ranks, positions) = sampled_sa(gpu, &ws, (&sa, &bits), shape)?;
        drop(sa);
        prof.mark("sampled sa");
        let table = jump_table(gpu, &ws, text, row_kmers, shape)?;
        prof.mark("jump table");
        Some(LocateArrays {
            ranks,
            positions,
            table,
        })
    } else {
        None
    };
    drop(words);
    drop(ws);

    // Copy back, once per array.
    let mut out = host.join().expect("host buffer thread");
    prof.mark("host buffers");
    occ.download_staged(&mut out.occ)?;
    if let Some(located) = located {
        bits.download_staged(&mut out.bits)?;
        located.ranks.download_staged(&mut out.ranks)?;
        located.positions.download_staged(&mut out.positions)?;
        located.table.download_staged(&mut out.jump)?;
    }
    let primary = primary.read_u32(0)? as u64;
    prof.mark("download");
    prof.report(n);
    let mut fm = parts(shape, primary, out);
    fm.row_samples = row_samples.into_iter().map(u64::from).collect();
    Ok(fm)
}

/// The positions of rows `interval`, `2 * interval`, ... up to `n` of the suffix array
/// `sa` (of rows `1..=n`) on the device, gathered there ([`FmParts::row_samples`]; none
/// where `interval` is 0).
fn every_row(gpu: &Gpu, sa: &DevBuf, n: usize, interval: u64) -> Result<Vec<u32>, GpuError> {
    let count = match interval {
        0 => 0,
        _ => n / interval as usize,
    };
    let mut host = prefaulted_vec::<u32>(count);
    if count == 0 {
        return Ok(host);
    }
    let out = gpu.alloc(4 * count)?;
    launchers::partition::strided_positions(
        gpu,
        crate::sa::Width::U32,
        super::tuning::over(count),
        sa.ptr(0),
        interval - 1,
        interval as u32,
        count as u64,
        out.ptr(0),
    )?;
    out.download_staged(&mut host)?;
    Ok(host)
}

/// The FM index of `shape` from its host arrays and primary row.
fn parts(shape: Shape, primary: u64, out: HostArrays) -> FmParts {
    // C from the trailing block's header: every row counted, the primary row as A.
    let last = &out.occ[(shape.nblocks - 1) * WORDS_PER_BLOCK..];
    let low = |w: u64| w & 0xFFFF_FFFF;
    let counts = [low(last[0]) - 1, last[0] >> 32, low(last[1]), last[1] >> 32];
    let mut c = [1u64; 5];
    for s in 0..4 {
        c[s + 1] = c[s] + counts[s];
    }
    FmParts {
        n: shape.n as u64,
        primary,
        c,
        occ: out.occ,
        sampled: SampledSaParts {
            bits: out.bits,
            ranks: Positions::U32(out.ranks),
            positions: Positions::U32(out.positions),
        },
        sample_rate: shape.rate,
        k: shape.k,
        jump: Positions::U32(out.jump),
        row_samples: Vec::new(),
    }
}

/// Step 2: the BWT in Occ blocks, the sampled-row bits, the primary row and the k-mer
/// counts of the jump table (read off the rows), from the text and suffix array on the
/// device.
fn bwt_occ<'g>(
    gpu: &'g Gpu,
    ws: &Workspace,
    (words, sa): (&DevBuf<'_>, &DevBuf<'_>),
    shape: Shape,
) -> Result<(DevBuf<'g>, DevBuf<'g>, DevBuf<'g>, DevBuf<'g>), GpuError> {
    let Shape {
        n,
        nblocks,
        nwords,
        kmers,
        k,
        ..
    } = shape;
    let occ = gpu.alloc(8 * WORDS_PER_BLOCK * nblocks)?;
    let bits = gpu.alloc(8 * nwords)?;
    bits.zero(8 * nwords)?;
    let primary = gpu.alloc(4)?;
    let full = (n + 1).saturating_sub(k as usize);
    let row_kmers = gpu.alloc(4 * kmers)?;
    row_kmers.zero(4 * kmers)?;
    let counts = gpu.alloc(4 * 4 * nblocks)?;
    launchers::fm::bwt_occ(
        gpu,
        (nblocks.div_ceil(OCC_PER_CTA) as u32, OCC_THREADS),
        words.ptr(0),
        sa.ptr(0),
        n as u32,
        shape.rate,
        nblocks as u32,
        occ.ptr(0),
        counts.ptr(0),
        bits.ptr(0),
        2 * nwords as u64,
        primary.ptr(0),
        k,
        full as u32,
        row_kmers.ptr(0),
    )?;
    for s in 0..4 {
        let at = counts.ptr(4 * s * nblocks);
        ws.scan_queued(at, at, nblocks, ScanOp::Sum, false)?;
    }
    launchers::fm::occ_headers(
        gpu,
        over(nblocks),
        counts.ptr(0),
        nblocks as u32,
        occ.ptr(0),
    )?;
    Ok((occ, bits, primary, row_kmers))
}

/// Step 3: the sampled suffix array (ranks of the sampled rows, their positions) from
/// the suffix array and the sampled-row bits.
fn sampled_sa<'g>(
    gpu: &'g Gpu,
    ws: &Workspace,
    (sa, bits): (&DevBuf<'_>, &DevBuf<'_>),
    shape: Shape,
) -> Result<(DevBuf<'g>, DevBuf<'g>), GpuError> {
    let groups = shape.groups;
    let ranks = gpu.alloc(4 * groups)?;
    launchers::fm::rank_counts(gpu, over(groups), bits.ptr(0), groups as u32, ranks.ptr(0))?;
    let total = ws.scan(ranks.ptr(0), ranks.ptr(0), groups, ScanOp::Sum, false)? as usize;
    assert_eq!(total, shape.sampled, "sampled rows");
    let positions = gpu.alloc(4 * shape.sampled)?;
    launchers::fm::sampled_positions(
        gpu,
        over(shape.n + 1),
        sa.ptr(0),
        shape.n as u32,
        shape.rate,
        bits.ptr(0),
        ranks.ptr(0),
        positions.ptr(0),
    )?;
    Ok((ranks, positions))
}

/// Step 4: the jump table from the k-mer counts of step 2 (`counts`), with the suffixes
/// shorter than k (sorted on the host) added in.
fn jump_table<'g>(
    gpu: &'g Gpu,
    ws: &Workspace,
    text: &PackedText,
    counts: DevBuf<'_>,
    shape: Shape,
) -> Result<DevBuf<'g>, GpuError> {
    let Shape { k, kmers, .. } = shape;
    let table = gpu.alloc(4 * jump::entries(k))?;
    ws.scan_queued(counts.ptr(0), counts.ptr(0), kmers, ScanOp::Sum, true)?;
    let short = jump::ShortSuffixes::of(text.as_ref(), k);
    let short_buf = gpu.upload(short.codes())?;
    launchers::fm::jump_table(
        gpu,
        over(jump::entries(k)),
        counts.ptr(0),
        kmers as u32,
        short_buf.ptr(0),
        short.codes().len() as u32,
        table.ptr(0),
    )?;
    Ok(table)
}
