//! Suffix array on the GPU by Larsson-Sadakane prefix doubling.
//!
//! 1. Initial sort of all suffixes by their first 16 bases (a 32-bit key read from the
//!    packed text) with the device radix sort, fed in decreasing position order so that
//!    among equal padded keys shorter suffixes come first, as the sentinel demands; on
//!    repeat-rich text (most 16-mers repeated, estimated by a HyperLogLog sketch of the
//!    distinct 16-mers) by 32 bases instead, in two stable passes (bases 16-31, then
//!    0-15): a second pass costs less than the round at step 16 it saves there.
//!    Suffixes shorter than the prefix are alone in their group.
//! 2. Ranks are group heads (SA index of the group's first suffix), from a max-scan of
//!    group starts. The unsorted suffixes (groups of two or more) are compacted into a
//!    work list; singletons drop out for good.
//! 3. Doubling rounds over the work list only: at step `h` each suffix gets the key
//!    `rank(p + h) + 1` packed above its position, and each group is sorted on it by size
//!    class, as in the GPU Larsson-Sadakane paper: small groups (up to 64) by counting
//!    ranks, one thread per suffix; medium ones (up to 4096) by a bitonic sort in shared
//!    memory by the block owning their start; large ones with the device radix sort. Runs
//!    of equal keys become the next groups in one pass after the sorts
//!    (`seg_rank_compact`, decoupled look-back): ranks and SA slots are written, and the
//!    list is compacted to the runs still unsorted, with their heads and group starts.
//!    Work per round tracks the unsorted suffixes, not the text length.
//!
//! The initial sort's position array is the SA from the start: singletons are in place
//! and each round writes the suffixes it leaves alone in their runs into their slots.
//!
//! Device memory (besides the caller's text, 0.25 bytes a base): 16 bytes a base during
//! the initial sort; 8 bytes a base (SA, ranks)
//! plus 24 bytes per unsorted suffix during the rounds (and 28 per member of the large
//! groups sorted apart). Given a bound ([`BOUNDED_BYTES_PER_BASE`] under `auto`), a round
//! whose list does not fit goes over it in chunks of whole groups instead (see
//! [`doubling_rounds`]), so that repeat-rich text stays within the bound; the list then
//! keeps its group heads (4 bytes an unsorted suffix, where they fit the bound), so
//! that a chunk's round reads only `rank(p + h)` at random, not `rank(p)` too.

use super::{check_len, DeviceText, Profile};
use crate::gpu::prims::radix::{KeyWidth, ScanOp, Workspace};
use crate::gpu::prims::scatter::{self, Pairs, Scratch};
use crate::gpu::runtime::launchers;
use crate::gpu::runtime::launchers::doubling::KeyInputs;
use crate::gpu::tuning::{blocks, over, MEDIUM_TILE, RANK_TILE, SKETCH_REGISTERS, THREADS};
use crate::gpu::{DevBuf, DevPtr, Gpu, GpuError};

/// Bases in a 32-bit sort key.
const KEY_BASES: u32 = 16;
/// The share of suffixes whose first 16 bases repeat elsewhere (estimated) above which
/// the initial sort takes 32 bases in two passes: the second pass costs less than the
/// round at step 16 it saves once most suffixes would be in it.
const TWO_PASS_SHARE: f64 = 0.4;
/// Suffixes a group of equal 16-mers holds on average from which a text counts as
/// periodic ([`Repeats::periodic`]).
const PERIODIC_GROUP: f64 = 65536.0;

/// Device bytes a base that `auto`'s doubling build holds at most (issue 11's bound;
/// libcubwt needs 20.5): 16 during the initial sort, and its rounds sized to the rest.
pub const BOUNDED_BYTES_PER_BASE: u64 = 20;

/// Builds the suffix array of the non-empty `text` (at most [`check_len`] bases), whose
/// `repeats` were sketched, and leaves it in device memory (`n` u32s); every temporary
/// is freed on return. With `bound`, the doubling rounds keep the bytes held on `gpu`
/// within it, or fail with [`GpuError::OutOfMemory`] where a group is larger than the
/// room left.
pub(crate) fn on_device<'g>(
    gpu: &'g Gpu,
    text: DeviceText<'_, 'g>,
    (bound, repeats): (Option<u64>, Repeats),
    prof: &mut Profile,
) -> Result<DevBuf<'g>, GpuError> {
    debug_assert!(text.len > 0 && check_len(text.len).is_ok());
    let ws = Workspace::new(gpu, text.len)?;
    let task = Task {
        text,
        elements: Elements::positions(text.len),
        passes: repeats.initial_passes(),
        bound,
    };
    let (sa, _isa) = sort_elements(gpu, &ws, task, prof)?;
    Ok(sa)
}

/// The elements a doubling build sorts by their suffixes: every text position, or the
/// indexes of a DC3 sample (the layout of `kernels/sa/skew.cu`: index `j < n0` is
/// position `3j + 1`, with a dummy at `n` when `n mod 3 == 1`, and `j >= n0` is
/// position `3(j - n0) + 2`), whose shifts by one index are shifts by three positions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Elements {
    /// How many.
    pub(crate) count: usize,
    /// 0 for the positions, else the sample's mod-1 indexes.
    pub(crate) n0: usize,
}

impl Elements {
    /// Every position of a text of `n` bases.
    pub(crate) fn positions(n: usize) -> Elements {
        Elements { count: n, n0: 0 }
    }

    /// Positions an element stands for.
    fn stride(self) -> usize {
        if self.n0 == 0 {
            1
        } else {
            3
        }
    }
}

/// A doubling build's task: the `elements` of `text` to sort by their suffixes, the
/// initial sort's `passes` of 16 bases (1 or 2), and the `bound` on the bytes held on
/// the GPU that the rounds keep within, if any.
#[derive(Clone, Copy)]
pub(crate) struct Task<'a, 'g> {
    pub(crate) text: DeviceText<'a, 'g>,
    pub(crate) elements: Elements,
    pub(crate) passes: u32,
    pub(crate) bound: Option<u64>,
}

/// Sorts the task's elements by their suffixes: the initial sort, then the doubling
/// rounds; returns the elements in order and each one's place (`count` u32s each).
pub(crate) fn sort_elements<'g>(
    gpu: &'g Gpu,
    ws: &Workspace<'g>,
    task: Task<'_, 'g>,
    prof: &mut Profile,
) -> Result<(DevBuf<'g>, DevBuf<'g>), GpuError> {
    let Task {
        elements,
        passes,
        bound,
        ..
    } = task;
    let (sa, isa, list) = initial_groups(gpu, ws, task, prof)?;
    let unsorted = list.len;
    if list.len > 0 {
        // Groups share the prefix's whole steps of `stride` positions.
        let steps = (KEY_BASES * passes) as usize / elements.stride();
        let room = bound.map(|b| b.saturating_sub(gpu.held_bytes() as u64));
        doubling_rounds(
            gpu,
            ws,
            (&sa, &isa, elements.count),
            list,
            steps,
            room,
            prof,
        )?;
    }
    prof.unsorted = unsorted;
    Ok((sa, isa))
}

/// The initial sort of the task's elements by their first `16 * passes` bases (see the
/// module doc): the elements in order, their ranks (group heads) and the list of the
/// unsorted ones, with their heads where rounds within the bound will go in chunks.
fn initial_groups<'g>(
    gpu: &'g Gpu,
    ws: &Workspace<'g>,
    task: Task<'_, 'g>,
    prof: &mut Profile,
) -> Result<(DevBuf<'g>, DevBuf<'g>, List<'g>), GpuError> {
    let Task {
        text,
        elements,
        passes,
        bound,
    } = task;
    let (n, count) = (text.len, elements.count);
    // The text and the elements: the first arguments of the initial sort's kernels.
    let (n32, count32, n0) = (n as u32, count as u32, elements.n0 as u32);
    let of_text = KeyInputs {
        words: text.words.ptr(0),
        n: n32,
        count: count32,
        n0,
    };
    let prefix = KEY_BASES * passes;
    let k0 = gpu.alloc(4 * count)?;
    let v0 = gpu.alloc(4 * count)?;
    let offset = KEY_BASES * (passes - 1);
    let (k, v) = (k0.ptr(0), v0.ptr(0));
    launchers::doubling::init_keys(gpu, over(count), of_text, offset, k, v)?;
    let mut keys = [k0, gpu.alloc(4 * count)?];
    let mut vals = [v0, gpu.alloc(4 * count)?];
    prof.mark("initial keys");
    ws.sort_pairs(&mut keys, &mut vals, count, KeyWidth::U32, 2 * KEY_BASES)?;
    if passes == 2 {
        // Then stably by the first 16 bases: sorted by 32.
        let (v, k) = (vals[0].ptr(0), keys[0].ptr(0));
        launchers::doubling::gather_keys(gpu, over(count), of_text, v, k)?;
        ws.sort_pairs(&mut keys, &mut vals, count, KeyWidth::U32, 2 * KEY_BASES)?;
    }
    prof.mark("initial sort");

    // Heads (into keys[1]), ranks (vals[1]), keep flags then their scan (keys[0]).
    let [sorted_keys, heads] = &keys;
    let [sorted, isa] = &vals;
    let short_from = (n as u32).saturating_sub(prefix - 1);
    launchers::doubling::init_starts(
        gpu,
        over(count),
        text.words.ptr(0),
        sorted_keys.ptr(0),
        sorted.ptr(0),
        n32,
        count32,
        n0,
        short_from,
        passes - 1,
        heads.ptr(0),
    )?;
    ws.scan_queued(heads.ptr(0), heads.ptr(0), count, ScanOp::Max, true)?;
    prof.mark("initial heads");
    let keep = sorted_keys;
    let m = init_ranks(gpu, ws, (sorted, heads, count), isa, keep)?;
    prof.mark("initial ranks");
    // Rounds that will go in chunks read their heads from a list, not the ranks
    // (a random read an element saved); it fits within the bound then.
    let chunked = bound.is_some_and(|b| {
        let (held, m) = (gpu.held_bytes() as u64, m as u64);
        let rounds = held - 8 * count as u64 + 4 * m;
        rounds + WHOLE_ROUND_BYTES * m > b && held + 4 * m <= b
    });
    let listed_heads = if chunked {
        let listed = gpu.alloc(4 * m)?;
        compact(gpu, (heads, keep, count, m), &listed)?;
        Some(listed)
    } else {
        None
    };
    compact(gpu, (sorted, keep, count, m), heads)?;
    // The sorted elements are the SA but for the order inside unsorted groups, which
    // the rounds write. The key buffers make way for the exactly sized list (the flags
    // first, so that the peak stays at the sort's 16 bytes an element, or the bound).
    let [sa, isa] = vals;
    let [keep, list] = keys;
    drop(keep);
    let pos = gpu.alloc(4 * m)?;
    pos.copy_from(list.ptr(0), 4 * m)?;
    drop(list);
    prof.mark("initial list");
    let list = List {
        pos,
        heads: listed_heads,
        len: m,
    };
    Ok((sa, isa, list))
}

/// How repetitive a text is, from its distinct 16-mers (estimated by a HyperLogLog
/// sketch on the GPU, [`distinct_16mers`]): what picks the initial sort's passes, and
/// whether `auto` should leave the text to skew at once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Repeats {
    distinct: f64,
    len: usize,
}

impl Repeats {
    /// Sketches the 16-mers of the non-empty `text`.
    pub(crate) fn of(
        gpu: &Gpu,
        text: DeviceText<'_, '_>,
        prof: &mut Profile,
    ) -> Result<Repeats, GpuError> {
        let repeats = Repeats {
            distinct: distinct_16mers(gpu, text)?,
            len: text.len,
        };
        prof.note(format!(
            "distinct 16-mers {:.0} ({:.3} repeated)",
            repeats.distinct,
            repeats.repeated()
        ));
        prof.mark("16-mer sketch");
        Ok(repeats)
    }

    /// The share of suffixes whose first 16 bases repeat elsewhere, at least.
    fn repeated(self) -> f64 {
        1.0 - self.distinct / self.len as f64
    }

    /// Passes of 16 bases in the initial sort: two (32 bases) where the 16-mers repeat so
    /// much that the first doubling round would hold most suffixes (copies of a genome),
    /// else one.
    pub(crate) fn initial_passes(self) -> u32 {
        1 + (self.repeated() > TWO_PASS_SHARE) as u32
    }

    /// Whether the text is so periodic (all-A, short periods: its groups of equal 16-mers
    /// average [`PERIODIC_GROUP`] suffixes or more) that doubling's rounds would go over
    /// nearly all of it about log2(n) times, where skew takes a few passes (64 Mbp of
    /// all-A on an H200: doubling 201 ms, bounded doubling given up after its initial
    /// sort 60 ms, skew 43 ms; BENCHMARKS.md, session 22).
    pub(crate) fn periodic(self) -> bool {
        self.distinct * PERIODIC_GROUP <= self.len as f64
    }
}

/// The distinct 16-mers of `text`, estimated by a HyperLogLog sketch (about 1.6% off).
fn distinct_16mers(gpu: &Gpu, text: DeviceText<'_, '_>) -> Result<f64, GpuError> {
    let regs = gpu.alloc(4 * SKETCH_REGISTERS)?;
    regs.zero(4 * SKETCH_REGISTERS)?;
    let grid = blocks(text.len).min(4 * 1024);
    launchers::doubling::kmer_sketch(
        gpu,
        (grid, THREADS),
        text.words.ptr(0),
        text.len as u32,
        regs.ptr(0),
    )?;
    let mut ranks = vec![0u32; SKETCH_REGISTERS];
    regs.download(&mut ranks)?;
    Ok(hyperloglog_estimate(&ranks))
}

/// HyperLogLog's estimate of the distinct items behind `ranks` (one register each: the
/// most leading zeros plus one of their hashes), with linear counting for small counts.
fn hyperloglog_estimate(ranks: &[u32]) -> f64 {
    let m = ranks.len() as f64;
    let alpha = 0.7213 / (1.0 + 1.079 / m);
    let sum: f64 = ranks.iter().map(|&r| (-(r as f64)).exp2()).sum();
    let raw = alpha * m * m / sum;
    let zeros = ranks.iter().filter(|&&r| r == 0).count();
    if raw <= 2.5 * m && zeros > 0 {
        m * (m / zeros as f64).ln()
    } else {
        raw
    }
}

/// From the `n` elements `sorted` in their initial order and their group `heads`: each
/// element's rank (its head) into `isa` (`n` entries; the writes sorted by address
/// first through `keep`, [`scatter`]), and the exclusive scan of the flags of the
/// elements in groups of two or more into `keep` (`n` u32s); returns how many those are.
pub(crate) fn init_ranks(
    gpu: &Gpu,
    ws: &Workspace,
    (sorted, heads, n): (&DevBuf, &DevBuf, usize),
    isa: &DevBuf,
    keep: &DevBuf,
) -> Result<usize, GpuError> {
    assert!(keep.bytes() >= 4 * n);
    let pairs = Pairs {
        indices: sorted.ptr(0),
        values: heads.ptr(0),
        len: n,
    };
    let half = n / 2;
    let scratch = Scratch {
        indices: keep.ptr(0),
        values: keep.ptr(4 * half),
        len: half,
    };
    scatter::scatter(gpu, ws, pairs, (isa.ptr(0), n), scratch)?;
    launchers::doubling::init_keep(gpu, over(n), heads.ptr(0), n as u32, keep.ptr(0))?;
    Ok(ws.scan(keep.ptr(0), keep.ptr(0), n, ScanOp::Sum, false)? as usize)
}

/// `out[idx[i]] = input[i]` for the `n` elements kept (`idx`: the exclusive sum-scan of
/// their flags, `total` of them), all at once (`out` apart from `input`).
pub(crate) fn compact(
    gpu: &Gpu,
    (input, idx, n, total): (&DevBuf, &DevBuf, usize, usize),
    out: &DevBuf,
) -> Result<(), GpuError> {
    launchers::doubling::compact(
        gpu,
        over(n),
        input.ptr(0),
        idx.ptr(0),
        n as u32,
        total as u32,
        out.ptr(0),
    )
}

/// The work list of the doubling rounds: the unsorted suffixes group by group in SA
/// order, and their group heads where the caller has them (else the first round reads
/// them from the ranks).
pub(crate) struct List<'g> {
    /// Positions (`len` u32s at the front).
    pub(crate) pos: DevBuf<'g>,
    /// Their heads (ranks), in the same order, or `None`.
    pub(crate) heads: Option<DevBuf<'g>>,
    /// Elements listed.
    pub(crate) len: usize,
}

/// Large groups go through the device-wide sort on their own while their members are at
/// most this fraction of the list; beyond it the whole list is sorted at once.
const LARGE_SHARE: usize = 8;

/// Bytes a list element needs in a round over the whole list, beyond its position held
/// already: group starts (4), packed and sorted keys (8 + 8), and up to 28 / LARGE_SHARE
/// for the members of large groups sorted apart (rounded up).
const WHOLE_ROUND_BYTES: u64 = 24;
/// Bytes a list element of a chunk needs: [`WHOLE_ROUND_BYTES`] and its position's copy.
const CHUNK_ROUND_BYTES: u64 = 28;

/// Larsson-Sadakane rounds over the unsorted suffixes of `list`, until every suffix is
/// sorted; writes their final ranks and SA slots.
///
/// Each round packs `rank(p + h) + 1` above `p` (unique 64-bit keys), finds every
/// element's group start, and sorts each group by size class: groups of up to
/// 64 by counting ranks, up to 4096 by a bitonic sort in shared memory, larger ones by the
/// device radix sort on `head << bits | rank` gathered from the list (or the whole list
/// at once when they hold most of it). Runs of equal keys become the next groups; their
/// heads travel with the positions, so only the first round reads them from the ranks
/// (none where the list has its heads: rounds in chunks then keep them in the list), and
/// so do their group starts from one round over the whole list to the next (chunked
/// rounds find theirs by a max-scan).
///
/// The first round's step is `h` (the initial groups share their first `h` symbols);
/// the elements need not be text positions, only closed under shifts by `h`, `2h`, ...
/// (the sample of [`crate::gpu::sa::partition::sample`] is, in units of a period).
///
/// Device memory: 24 bytes per unsorted suffix (plus 28 per member of a large group).
/// Where that exceeds `room` (bytes), a round goes over the list in chunks of whole
/// groups, one after the other, each within the room ([`chunked_round`]), until the
/// list fits; a group larger than a chunk (once the list's heads, if any, made way) then
/// is [`GpuError::OutOfMemory`] (the caller may take an algorithm that needs less).
pub(crate) fn doubling_rounds(
    gpu: &Gpu,
    ws: &Workspace,
    (sa, isa, n): (&DevBuf, &DevBuf, usize),
    mut list: List,
    mut h: usize,
    room: Option<u64>,
    prof: &mut Profile,
) -> Result<(), GpuError> {
    prof.rounds_start();
    if let Some(mut room) = room {
        while list.len > 0 && WHOLE_ROUND_BYTES * list.len as u64 > room {
            let chunk = (room / CHUNK_ROUND_BYTES) as usize;
            let Some(cuts) = chunk_cuts(gpu, (&list.pos, list.len), isa, chunk)? else {
                // A group longer than a chunk: without the listed heads, chunks are longer.
                if let Some(heads) = list.heads.take() {
                    room += heads.bytes() as u64;
                    continue;
                }
                return Err(GpuError::OutOfMemory {
                    requested: (WHOLE_ROUND_BYTES as usize * list.len) >> 20,
                    in_use: gpu.held_bytes() >> 20,
                });
            };
            let listed = list.len;
            list.len = chunked_round(gpu, ws, (sa, isa, n), &list, &cuts, h, prof)?;
            h = h.saturating_mul(2);
            prof.round(listed);
            prof.chunked_rounds += 1;
        }
    }
    if list.len > 0 {
        whole_rounds(gpu, ws, (sa, isa, n), list, h, prof)?;
    }
    Ok(())
}

/// The rounds of [`doubling_rounds`] over the whole list at once.
fn whole_rounds(
    gpu: &Gpu,
    ws: &Workspace,
    (sa, isa, n): (&DevBuf, &DevBuf, usize),
    list: List,
    mut h: usize,
    prof: &mut Profile,
) -> Result<(), GpuError> {
    // The positions (then heads) and the group starts swap buffers every round, as do the
    // packed keys and the sorted keys (the low half of whose buffer carries the heads to
    // the next round; the list's own heads to the first, where it has them).
    let mut m = list.len;
    let mut listed_heads = list.heads;
    let mut narrow = [list.pos, gpu.alloc(4 * m)?];
    let wide = [gpu.alloc(8 * m)?, gpu.alloc(8 * m)?];
    let status = gpu.alloc(rank_status_bytes(m))?;
    // The wide buffer that carries the heads (low half) and the group starts (from 4
    // bytes an element of the round that wrote them) to the next round, and that
    // round's list length.
    let mut carried: Option<(usize, usize)> = None;
    while m > 0 {
        let packed_at = carried.map_or(0, |(c, _)| 1 - c);
        let (hp, stp) = (narrow[0].ptr(0), narrow[1].ptr(0));
        let (pp, sp) = (wide[packed_at].ptr(0), wide[1 - packed_at].ptr(0));
        let first_heads = listed_heads.take();
        let buffers = RoundBuffers {
            heads: hp,
            carried: carried.map_or_else(
                || first_heads.as_ref().map_or(DevPtr::NULL, |l| l.ptr(0)),
                |(c, _)| wide[c].ptr(0),
            ),
            carried_starts: carried.map_or(DevPtr::NULL, |(c, len)| wide[c].ptr(4 * len)),
            starts: stp,
            packed: pp,
            sorted: sp,
            // Positions into the starts buffer, heads and group starts over the keys.
            next_positions: stp,
            next_heads: pp,
            next_starts: pp.offset(4 * m),
        };
        let next = round(gpu, ws, (sa, isa, n), (&buffers, &status), m, h, prof)?;
        narrow.swap(0, 1);
        carried = Some((packed_at, m));
        prof.round(m);
        m = next;
        h = h.saturating_mul(2);
    }
    Ok(())
}

/// Where the chunks of a round over the `m` elements of `list` begin, and `m`: chunks of
/// whole groups of at most `chunk` elements each (cut by `list_cut`); `None` when a group
/// is longer than that.
fn chunk_cuts(
    gpu: &Gpu,
    (list, m): (&DevBuf, usize),
    isa: &DevBuf,
    chunk: usize,
) -> Result<Option<Vec<usize>>, GpuError> {
    let cut = gpu.alloc(4)?;
    let mut cuts = vec![0];
    let mut start = 0;
    while m - start > chunk {
        launchers::doubling::list_cut(
            gpu,
            (1, 1),
            list.ptr(0),
            isa.ptr(0),
            start as u32,
            (start + chunk) as u32,
            cut.ptr(0),
        )?;
        let mut end = [0u32];
        cut.download(&mut end)?;
        if end[0] as usize == start {
            return Ok(None);
        }
        start = end[0] as usize;
        cuts.push(start);
    }
    cuts.push(m);
    Ok(Some(cuts))
}

/// One round over the `list` chunk by chunk (`cuts`: where each begins, then the list's
/// length), compacting the next list into its front; returns its length.
///
/// A chunk's heads come from the list's where it has them (else from the ranks; the
/// next list then has none either), and its keys from ranks that
/// the chunks before it may have refined already: still correct, as a refined rank
/// orders suffixes consistently with the coarser one, and equal refined ranks are equal
/// coarse ranks, so that equal keys still mean `2h` equal symbols; the suffix array is
/// unique, so the result is the same as a whole round's.
fn chunked_round(
    gpu: &Gpu,
    ws: &Workspace,
    (sa, isa, n): (&DevBuf, &DevBuf, usize),
    list: &List,
    cuts: &[usize],
    h: usize,
    prof: &mut Profile,
) -> Result<usize, GpuError> {
    let most = cuts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
    let narrow = [gpu.alloc(4 * most)?, gpu.alloc(4 * most)?];
    let wide = [gpu.alloc(8 * most)?, gpu.alloc(8 * most)?];
    let status = gpu.alloc(rank_status_bytes(most))?;
    let mut kept = 0;
    for w in cuts.windows(2) {
        let (start, len) = (w[0], w[1] - w[0]);
        narrow[0].copy_from(list.pos.ptr(4 * start), 4 * len)?;
        let listed = list.heads.as_ref();
        let buffers = RoundBuffers {
            heads: narrow[0].ptr(0),
            carried: listed.map_or(DevPtr::NULL, |l| l.ptr(4 * start)),
            carried_starts: DevPtr::NULL,
            starts: narrow[1].ptr(0),
            packed: wide[0].ptr(0),
            sorted: wide[1].ptr(0),
            // The next list's front (kept <= start: before this chunk's elements, or
            // over those read already).
            next_positions: list.pos.ptr(4 * kept),
            next_heads: listed.map_or(wide[0].ptr(0), |l| l.ptr(4 * kept)),
            next_starts: DevPtr::NULL,
        };
        kept += round(gpu, ws, (sa, isa, n), (&buffers, &status), len, h, prof)?;
    }
    Ok(kept)
}

/// Device addresses of the buffers of one round over `m` list elements.
struct RoundBuffers {
    /// In: the positions; out: their group heads (4 bytes an element).
    heads: DevPtr,
    /// The heads carried from the last round in list order, or 0: read from the ranks.
    carried: DevPtr,
    /// The group starts carried from the last round in list order, or 0: found from the
    /// heads.
    carried_starts: DevPtr,
    /// Each element's group start (4 bytes an element).
    starts: DevPtr,
    /// Packed keys, then run starts and keep flags (8 bytes an element).
    packed: DevPtr,
    /// Sorted keys (8 bytes an element).
    sorted: DevPtr,
    /// Where the next list's positions go (may be `starts`).
    next_positions: DevPtr,
    /// Where the next list's heads go (may be `packed`).
    next_heads: DevPtr,
    /// Where the next list's group starts go (may be `packed` past the next heads), or 0:
    /// nowhere.
    next_starts: DevPtr,
}

/// Bytes of the look-back status of `seg_rank_compact` over up to `m` elements: a tile
/// counter and two words a tile.
fn rank_status_bytes(m: usize) -> usize {
    (1 + 2 * m.div_ceil(RANK_TILE)) * 8
}

/// One round over `m` list elements at step `h` (see [`doubling_rounds`]): sorts every
/// group by its keys, writes new ranks and the SA slots of the suffixes now alone, and
/// compacts the still unsorted ones into the next list (`status`: the look-back words of
/// that pass, [`rank_status_bytes`]); returns its length.
fn round(
    gpu: &Gpu,
    ws: &Workspace,
    (sa, isa, n): (&DevBuf, &DevBuf, usize),
    (b, status): (&RoundBuffers, &DevBuf),
    m: usize,
    h: usize,
    prof: &mut Profile,
) -> Result<usize, GpuError> {
    let bits = 32 - (n as u32).leading_zeros();
    let m32 = m as u32;
    launchers::doubling::seg_keys(
        gpu,
        over(m),
        b.heads,
        b.carried,
        b.carried_starts,
        m32,
        isa.ptr(0),
        n as u32,
        h.min(n) as u32,
        b.packed,
        b.starts,
    )?;
    if b.carried_starts == DevPtr::NULL {
        group_starts(gpu, ws, b.heads, b.starts, m)?;
    }
    prof.mark("rounds: keys");
    sort_groups(gpu, ws, b, (m, bits), prof)?;

    // Runs of equal keys become the next groups: new ranks, SA slots, the next list.
    let tiles = m.div_ceil(RANK_TILE);
    status.zero(rank_status_bytes(m))?;
    launchers::doubling::seg_rank_compact(
        gpu,
        (tiles as u32, THREADS),
        b.sorted,
        b.heads,
        b.starts,
        m32,
        isa.ptr(0),
        sa.ptr(0),
        b.next_positions,
        b.next_heads,
        b.next_starts,
        status.ptr(0),
    )?;
    // The low half of the last tile's count word: the elements kept.
    let next = status.read_u32(4 * tiles)? as usize;
    prof.mark("rounds: update");
    Ok(next)
}

/// Sorts every group of the `m` list elements by its keys (`b.packed`) into
/// `b.sorted`, by size class (see [`doubling_rounds`]); `bits` is the width of a rank.
fn sort_groups(
    gpu: &Gpu,
    ws: &Workspace,
    b: &RoundBuffers,
    (m, bits): (usize, u32),
    prof: &mut Profile,
) -> Result<(), GpuError> {
    let (hp, stp, pp, sp) = (b.heads, b.starts, b.packed, b.sorted);
    let (m32, bits32) = (m as u32, bits);
    // Sort every group by size class into `sorted`.
    let flags = sp;
    launchers::doubling::seg_large_flags(gpu, over(m), stp, m32, flags)?;
    let large = ws.scan(flags, flags, m, ScanOp::Sum, false)? as usize;
    prof.large += large;
    if large > 0 && large * LARGE_SHARE <= m {
        let keys = [gpu.alloc(8 * large)?, gpu.alloc(8 * large)?];
        let vals = [gpu.alloc(4 * large)?, gpu.alloc(4 * large)?];
        let place = gpu.alloc(4 * large)?;
        launchers::doubling::seg_large_gather(
            gpu,
            over(m),
            flags,
            m32,
            large as u32,
            hp,
            pp,
            bits32,
            keys[0].ptr(0),
            vals[0].ptr(0),
            place.ptr(0),
        )?;
        let at = ws.sort_pairs_at(
            [keys[0].ptr(0), keys[1].ptr(0)],
            [vals[0].ptr(0), vals[1].ptr(0)],
            large,
            KeyWidth::U64,
            2 * bits,
        )?;
        launchers::doubling::seg_large_scatter(
            gpu,
            over(large),
            keys[at].ptr(0),
            vals[at].ptr(0),
            place.ptr(0),
            large as u32,
            bits32,
            sp,
        )?;
    } else if large > 0 {
        // Most of the list is in large groups: sort it whole, keys in sorted/packed,
        // values in starts/heads, and recompute the group starts.
        prof.whole_rounds += 1;
        launchers::doubling::seg_whole_keys(gpu, over(m), pp, hp, m32, bits32, sp, stp)?;
        let at = ws.sort_pairs_at([sp, pp], [stp, hp], m, KeyWidth::U64, 2 * bits)?;
        let (keys, vals) = if at == 0 { (sp, stp) } else { (pp, hp) };
        launchers::doubling::seg_whole_unpack(gpu, over(m), keys, vals, m32, bits32, sp, hp)?;
        group_starts(gpu, ws, hp, stp, m)?;
    }
    prof.mark("rounds: large groups");
    if large * LARGE_SHARE <= m {
        launchers::doubling::seg_sort_small(gpu, over(m), pp, stp, m32, sp)?;
        prof.mark("rounds: small groups");
        launchers::doubling::seg_sort_medium(
            gpu,
            (m.div_ceil(MEDIUM_TILE) as u32, THREADS),
            pp,
            stp,
            m32,
            sp,
        )?;
        prof.mark("rounds: medium groups");
    }
    Ok(())
}

/// Every list element's group start (the list index where its run of equal `heads`
/// begins) into `starts`.
fn group_starts(
    gpu: &Gpu,
    ws: &Workspace,
    heads: DevPtr,
    starts: DevPtr,
    m: usize,
) -> Result<(), GpuError> {
    launchers::doubling::seg_starts(gpu, over(m), heads, m as u32, starts)?;
    ws.scan_queued(starts, starts, m, ScanOp::Max, true)
}

#[cfg(test)]
mod tests {
    use super::{hyperloglog_estimate, Repeats, SKETCH_REGISTERS};

    #[test]
    fn the_sketch_picks_the_passes_and_the_periodic_texts() {
        let repeats = |distinct: f64, len: usize| Repeats { distinct, len };
        // chr20 in four orientations, 3 and 31 copies (session 22's sketches).
        assert_eq!(repeats(198_592_731.0, 252_102_080).initial_passes(), 1);
        assert_eq!(repeats(71_969_565.0, 189_076_560).initial_passes(), 2);
        assert_eq!(repeats(312_900_566.0, 1_953_791_120).initial_passes(), 2);
        assert!(!repeats(312_900_566.0, 1_953_791_120).periodic());
        // All-A and period 7 of 64 Mbp; 1 kb tandem repeats of 16 Mbp are not periodic.
        assert!(repeats(1.0, 1 << 26).periodic());
        assert!(repeats(7.0, 1 << 26).periodic());
        assert!(!repeats(1000.0, 1 << 24).periodic());
        // A text shorter than 16 bases has no 16-mer: one group at most, periodic.
        assert!(repeats(0.0, 5).periodic());
    }

    /// The registers `kmer_sketch` (sa/doubling.cu) makes of `keys`, on the CPU.
    fn sketch(keys: impl Iterator<Item = u32>) -> Vec<u32> {
        let bits = SKETCH_REGISTERS.trailing_zeros();
        let mut regs = vec![0u32; SKETCH_REGISTERS];
        for key in keys {
            let mut h = (key as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
            h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            h ^= h >> 31;
            let j = (h >> (64 - bits)) as usize;
            let rank = ((h << bits) | (1 << (bits - 1))).leading_zeros() + 1;
            regs[j] = regs[j].max(rank);
        }
        regs
    }

    #[test]
    fn the_sketch_counts_distinct_keys_within_a_few_percent() {
        assert_eq!(hyperloglog_estimate(&sketch(std::iter::empty())), 0.0);
        for distinct in [10u32, 1_000, 100_000, 3_000_000] {
            // Each key three times, spread over the u32 range.
            let keys = (0..3 * distinct).map(|i| (i % distinct).wrapping_mul(2_654_435_761));
            let estimate = hyperloglog_estimate(&sketch(keys));
            let error = (estimate / distinct as f64 - 1.0).abs();
            assert!(error < 0.05, "{distinct} distinct: estimated {estimate:.0}");
        }
    }
}
