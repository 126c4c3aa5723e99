//! Suffix array on the GPU by DC3 (skew, Kärkkäinen-Sanders), and the hybrid of
//! wang-baxter-owens that sorts the DC3 sample by prefix doubling instead of recursion.
//!
//! A level sorts the suffixes of a text of `n` symbols: the index's packed DNA (symbol =
//! 2-bit code + 1) at the top, u32 names below; positions at or past `n` read 0, the
//! sentinel, so the order is that of [`crate::sa::suffix_array`].
//!
//! 1. The sample: positions `i mod 3 != 0`, plus a dummy at `n` when `n mod 3 == 1`, in
//!    the Kärkkäinen-Sanders layout of `kernels/sa/skew.cu`.
//! 2. The sample's order. [`Sampler::Recursion`] (skew): the sample is radix-sorted by
//!    a window of its first symbols (as many as one `u32` key holds in base alphabet + 1,
//!    13 for DNA, or, for large alphabets, three symbols by three stable sorts), the
//!    windows are named by a sum-scan of where they change; unique names give the order
//!    at once, else the names (in sample order) are the text of the next level, sorted
//!    recursively. [`Sampler::Doubling`] (hybrid, DNA only): the sample indexes are
//!    sorted as [`super::doubling`] sorts positions (`doubling::sort_elements`: its
//!    initial sort by 16 or 32 bases, then its rounds, a shift by one sample index being
//!    a shift by three positions). Each sample suffix gets its rank (1 + its place).
//! 3. The mod-0 suffixes, listed in the order of the sample suffix after each, are stably
//!    radix-sorted by their first symbol.
//! 4. The two sorted sets are merged ([`crate::gpu::prims::merge`]) comparing a mod-0 and
//!    a sample suffix by one symbol and the rank of the next suffix, or two symbols and
//!    the rank two further on: skew reads them from the text and the ranks as it
//!    compares; the hybrid first writes each suffix's record of them (`merge_records`),
//!    so that its merge reads no memory at random (libcubwt merges so).
//!
//! Device memory (bytes a base of the top level, `s = 2n/3` sample suffixes): the text
//! (0.25) and 16 per sample suffix while it is sorted (10.7); skew then holds 4 per
//! sample suffix (2.7) through the recursion, whose levels are 2/3 as long, and its
//! mod-0 sort and merge hold the sample's order and ranks (5.3), the mod-0 order (1.3)
//! and the output (4); the hybrid's rounds need 8 per sample suffix and 24 per unsorted
//! one (as [`super::doubling`]: in chunks within a bound), its merge 18.7 (records).

use super::{doubling, DeviceText, Profile};
use crate::gpu::prims::merge::{merge, MergeKernels};
use crate::gpu::prims::radix::{KeyWidth, ScanOp, Workspace};
use crate::gpu::runtime::launchers;
use crate::gpu::runtime::launchers::skew::{RecordKeys, SuffixRanks};
use crate::gpu::runtime::Grid;
use crate::gpu::tuning::over;
use crate::gpu::{DevBuf, DevPtr, Gpu, GpuError};

/// How the DC3 sample is put in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampler {
    /// Sorted by a window of its first symbols, then DC3's recursion on the names of
    /// the windows (skew).
    Recursion,
    /// Sorted by prefix doubling over the sample indexes, from an initial sort by 16
    /// bases a pass (the skew/prefix-doubling hybrid).
    Doubling {
        /// Initial passes (1 or 2), as the doubling build's for the same text.
        passes: u32,
        /// Device bytes the rounds keep within (going in chunks), if any.
        bound: Option<u64>,
    },
}

/// Builds the suffix array of the non-empty `text` (at most [`super::check_len`] bases)
/// and leaves it in device memory (`n` u32s); every temporary is freed on return.
pub(crate) fn on_device<'g>(
    gpu: &'g Gpu,
    text: DeviceText<'_, 'g>,
    sampler: Sampler,
    prof: &mut Profile,
) -> Result<DevBuf<'g>, GpuError> {
    let ws = Workspace::new(gpu, text.len)?;
    let top = Text::Dna(text.words);
    let Sampler::Doubling { passes, bound } = sampler else {
        return suffix_array(gpu, &ws, &top, text.len, prof);
    };
    let level = Level::new(text.len);
    let task = doubling::Task {
        text,
        elements: doubling::Elements {
            count: level.s,
            n0: level.n0,
        },
        passes,
        bound,
    };
    let (sample, places) = doubling::sort_elements(gpu, &ws, task, prof)?;
    prof.mark("hybrid: sample");
    let mod0 = sort_mod0(gpu, &ws, &top, &level, &sample)?;
    prof.mark("skew: mod-0 sort");
    merge_records(gpu, text.words, &level, (sample, places), mod0, prof)
}

/// The hybrid's merge of the `sample` (sample indexes in order, each one's place in
/// `places`) and the sorted `mod0` suffixes of the DNA text `words` by records that hold
/// what the comparisons need (`sample_records`, `mod0_records`, `merge_*_records` in
/// `kernels/sa/skew.cu`): a merge without random reads, in 18.7 bytes a base at most
/// (the sample's 4 and keys 8 a sample suffix, the mod-0 suffixes' 4 and keys 16, the
/// output 4 a base).
fn merge_records<'g>(
    gpu: &'g Gpu,
    words: &DevBuf<'g>,
    level: &Level,
    (sample, places): (DevBuf<'g>, DevBuf<'g>),
    mod0: DevBuf<'g>,
    prof: &mut Profile,
) -> Result<DevBuf<'g>, GpuError> {
    let (n, n0) = (level.n as u32, level.n0 as u32);
    // The dummy sorts first (its suffix is empty) and is left out.
    let skip = level.dummy as usize;
    let count = level.s - skip;
    let (ranks, words) = (places.ptr(0), words.ptr(0));
    // The sample's keys by index (in order), then in the sample's order: one random
    // read a suffix instead of two (its symbols and the rank after them). The mod-0
    // suffixes' two keys then take the same buffer (16 bytes each; n0 >= s / 2).
    let scratch = gpu.alloc(16 * level.n0)?;
    let (s, keys) = (level.s as u32, scratch.ptr(0));
    launchers::skew::sample_keys(gpu, over(level.s), words, n, n0, ranks, s, keys)?;
    let a_keys = gpu.alloc(8 * count)?;
    launchers::skew::sample_records(
        gpu,
        over(count),
        scratch.ptr(0),
        n0,
        sample.ptr(4 * skip),
        count as u32,
        a_keys.ptr(0),
    )?;
    prof.mark("hybrid: sample records");
    let (b_one, b_two) = (scratch.ptr(0), scratch.ptr(8 * level.n0));
    launchers::skew::mod0_records(
        gpu,
        over(level.n0),
        words,
        n,
        n0,
        ranks,
        mod0.ptr(0),
        n0,
        b_one,
        b_two,
    )?;
    drop(places);
    prof.mark("hybrid: mod-0 records");
    let out = gpu.alloc(4 * level.n)?;
    merge(
        gpu,
        RECORD_MERGE,
        (sample.ptr(4 * skip), count),
        (mod0.ptr(0), level.n0),
        out.ptr(0),
        RecordKeys {
            a_keys: a_keys.ptr(0),
            b_one,
            b_two,
        },
    )?;
    prof.mark("skew: merge");
    Ok(out)
}

/// The merge by records of [`merge_records`].
const RECORD_MERGE: MergeKernels<RecordKeys> = MergeKernels {
    partition: launchers::skew::merge_partition_records,
    tiles: launchers::skew::merge_tiles_records,
};

/// The launcher of `window_keys_*`: `(gpu, (grid, block), text, n, n0, vals, s, offset,
/// width, base, keys)`.
type WindowKeys =
    fn(&Gpu, Grid, DevPtr, u32, u32, DevPtr, u32, u32, u32, u32, DevPtr) -> Result<(), GpuError>;
/// The launcher of `window_changes_*`: `(gpu, (grid, block), text, n, n0, vals, keys, s,
/// by_key, out)`.
type WindowChanges =
    fn(&Gpu, Grid, DevPtr, u32, u32, DevPtr, DevPtr, u32, u32, DevPtr) -> Result<(), GpuError>;
/// The launcher of `mod0_gather_*`: `(gpu, (grid, block), text, n, sa, idx, s, n0, keys,
/// vals)`.
type Mod0Gather =
    fn(&Gpu, Grid, DevPtr, u32, DevPtr, DevPtr, u32, u32, DevPtr, DevPtr) -> Result<(), GpuError>;

/// The kernels that read a level's text, for one kind of text.
struct TextKernels {
    window_keys: WindowKeys,
    window_changes: WindowChanges,
    mod0_gather: Mod0Gather,
    merge: MergeKernels<SuffixRanks>,
}

/// The kernels over the packed DNA text.
const DNA: TextKernels = TextKernels {
    window_keys: launchers::skew::window_keys_dna,
    window_changes: launchers::skew::window_changes_dna,
    mod0_gather: launchers::skew::mod0_gather_dna,
    merge: MergeKernels {
        partition: launchers::skew::merge_partition_dna,
        tiles: launchers::skew::merge_tiles_dna,
    },
};

/// The kernels over names.
const NAMES: TextKernels = TextKernels {
    window_keys: launchers::skew::window_keys_names,
    window_changes: launchers::skew::window_changes_names,
    mod0_gather: launchers::skew::mod0_gather_names,
    merge: MergeKernels {
        partition: launchers::skew::merge_partition_names,
        tiles: launchers::skew::merge_tiles_names,
    },
};

/// The text of a level in device memory.
enum Text<'a, 'g> {
    /// The index's packed 2-bit DNA.
    Dna(&'a DevBuf<'g>),
    /// u32 names from 1 to the given alphabet size.
    Names(&'a DevBuf<'g>, usize),
}

impl Text<'_, '_> {
    /// The kernels for this kind of text.
    fn kernels(&self) -> &'static TextKernels {
        match self {
            Text::Dna(_) => &DNA,
            Text::Names(..) => &NAMES,
        }
    }

    /// The address of the symbols.
    fn ptr(&self) -> DevPtr {
        match self {
            Text::Dna(words) => words.ptr(0),
            Text::Names(names, _) => names.ptr(0),
        }
    }

    /// The largest symbol (0 is the sentinel).
    fn alphabet(&self) -> usize {
        match self {
            Text::Dna(_) => 4,
            Text::Names(_, k) => *k,
        }
    }

    /// How the sample is sorted by its first symbols: (symbols per key, base, key bits).
    /// One key holds a window of at least three symbols where it can, else three sorts
    /// take a symbol each.
    fn window(&self) -> (u32, u64, u32) {
        let base = self.alphabet() as u64 + 1;
        let mut width = 0u32;
        let mut span = 1u64;
        while width < 32 && span * base <= 1 << 32 {
            span *= base;
            width += 1;
        }
        if width < 3 {
            return (1, base, bits(self.alphabet() as u64));
        }
        (width, base, bits(span - 1))
    }
}

/// Bits of `x`.
fn bits(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// The sizes of a level of `n` symbols: `n0` mod-0 (and mod-1 sample) suffixes, `s`
/// sample suffixes, and whether the sample ends with a dummy at `n`.
struct Level {
    n: usize,
    n0: usize,
    s: usize,
    dummy: bool,
}

impl Level {
    fn new(n: usize) -> Level {
        let (n0, n1, n2) = (n.div_ceil(3), (n + 1) / 3, n / 3);
        Level {
            n,
            n0,
            s: n0 + n2,
            dummy: n0 > n1,
        }
    }
}

/// The suffix array of the level `text` of `n >= 1` symbols, in device memory.
fn suffix_array<'g>(
    gpu: &'g Gpu,
    ws: &Workspace<'g>,
    text: &Text<'_, 'g>,
    n: usize,
    prof: &mut Profile,
) -> Result<DevBuf<'g>, GpuError> {
    let level = Level::new(n);
    let (sample, rank) = sort_sample(gpu, ws, text, &level, prof)?;
    let mod0 = sort_mod0(gpu, ws, text, &level, &sample)?;
    prof.mark("skew: mod-0 sort");
    let s32 = level.s as u32;
    launchers::skew::sample_positions(gpu, over(level.s), sample.ptr(0), s32, level.n0 as u32)?;
    // The dummy sorts first (its window is all sentinels) and is left out.
    let skip = level.dummy as usize;
    let out = gpu.alloc(4 * n)?;
    merge(
        gpu,
        text.kernels().merge,
        (sample.ptr(4 * skip), level.s - skip),
        (mod0.ptr(0), level.n0),
        out.ptr(0),
        SuffixRanks {
            text: text.ptr(),
            n: n as u32,
            rank: rank.ptr(0),
            n0: level.n0 as u32,
        },
    )?;
    prof.mark("skew: merge");
    Ok(out)
}

/// Sorts the sample of `level`: its sample indexes in order, and each one's rank.
fn sort_sample<'g>(
    gpu: &'g Gpu,
    ws: &Workspace<'g>,
    text: &Text<'_, 'g>,
    level: &Level,
    prof: &mut Profile,
) -> Result<(DevBuf<'g>, DevBuf<'g>), GpuError> {
    let s = level.s;
    let s32 = s as u32;
    let mut keys = [gpu.alloc(4 * s)?, gpu.alloc(4 * s)?];
    let mut vals = [gpu.alloc(4 * s)?, gpu.alloc(4 * s)?];
    launchers::skew::iota(gpu, over(s), vals[0].ptr(0), s32)?;
    let (width, base, key_bits) = text.window();
    // One sort by the whole window, or three by one symbol each, last symbol first.
    let offsets: &[u32] = if width >= 3 { &[0] } else { &[2, 1, 0] };
    for &offset in offsets {
        (text.kernels().window_keys)(
            gpu,
            over(s),
            text.ptr(),
            level.n as u32,
            level.n0 as u32,
            vals[0].ptr(0),
            s32,
            offset,
            width,
            base as u32,
            keys[0].ptr(0),
        )?;
        ws.sort_pairs(&mut keys, &mut vals, s, KeyWidth::U32, key_bits)?;
    }
    prof.mark("skew: sample sort");
    let [sorted_keys, changes] = keys;
    let [sorted, spare] = vals;
    drop(spare);
    (text.kernels().window_changes)(
        gpu,
        over(s),
        text.ptr(),
        level.n as u32,
        level.n0 as u32,
        sorted.ptr(0),
        sorted_keys.ptr(0),
        s32,
        (width >= 3) as u32,
        changes.ptr(0),
    )?;
    drop(sorted_keys);
    let (sa, rank) = name_and_recurse(gpu, ws, level, sorted, changes, prof)?;
    launchers::skew::rank_from_sa(gpu, over(s), sa.ptr(0), s32, rank.ptr(0))?;
    Ok((sa, rank))
}

/// Skew: names from the window `changes`, then the sample's order from
/// the `sorted` sample indexes when the names are unique, else from the recursion on
/// the names; returns the order and a buffer of `s` u32s for the ranks.
fn name_and_recurse<'g>(
    gpu: &'g Gpu,
    ws: &Workspace<'g>,
    level: &Level,
    sorted: DevBuf<'g>,
    changes: DevBuf<'g>,
    prof: &mut Profile,
) -> Result<(DevBuf<'g>, DevBuf<'g>), GpuError> {
    let s = level.s;
    let names = changes;
    let count = ws.scan(names.ptr(0), names.ptr(0), s, ScanOp::Sum, true)? as usize;
    let next = gpu.alloc(4 * s)?;
    launchers::skew::scatter_names(
        gpu,
        over(s),
        sorted.ptr(0),
        names.ptr(0),
        s as u32,
        next.ptr(0),
    )?;
    drop(names);
    prof.mark("skew: names");
    if count == s {
        return Ok((sorted, next));
    }
    drop(sorted);
    prof.rounds += 1;
    let sa = suffix_array(gpu, ws, &Text::Names(&next, count), s, prof)?;
    Ok((sa, next))
}

/// The mod-0 suffixes of `level` sorted, from the `sample` order (sample indexes).
fn sort_mod0<'g>(
    gpu: &'g Gpu,
    ws: &Workspace<'g>,
    text: &Text<'_, 'g>,
    level: &Level,
    sample: &DevBuf<'g>,
) -> Result<DevBuf<'g>, GpuError> {
    let (s, n0) = (level.s, level.n0);
    let (s32, n0_32) = (s as u32, n0 as u32);
    let idx = gpu.alloc(4 * s)?;
    launchers::skew::mod0_flags(gpu, over(s), sample.ptr(0), s32, n0_32, idx.ptr(0))?;
    ws.scan_queued(idx.ptr(0), idx.ptr(0), s, ScanOp::Sum, false)?;
    // The sort's second buffers come once the scan is freed.
    let mut keys = [gpu.alloc(4 * n0)?, gpu.alloc(4)?];
    let mut vals = [gpu.alloc(4 * n0)?, gpu.alloc(4)?];
    (text.kernels().mod0_gather)(
        gpu,
        over(s),
        text.ptr(),
        level.n as u32,
        sample.ptr(0),
        idx.ptr(0),
        s32,
        n0_32,
        keys[0].ptr(0),
        vals[0].ptr(0),
    )?;
    drop(idx);
    keys[1] = gpu.alloc(4 * n0)?;
    vals[1] = gpu.alloc(4 * n0)?;
    let symbol_bits = bits(text.alphabet() as u64);
    ws.sort_pairs(&mut keys, &mut vals, n0, KeyWidth::U32, symbol_bits)?;
    let [sorted, _] = vals;
    Ok(sorted)
}
