//! k-mismatch search (`map -v K`, `K > 0`) on the GPU, host side of the `mm_*` kernels of
//! `kernels/map.cuh`: the search schemes of [`crate::search::schemes`] walked breadth
//! first over the bidirectional index, with work queues instead of a thread per read.
//!
//! A work item is (read-strand, search, step, forward interval, mirror interval,
//! mismatches so far): 2 u32 and 3 rows at the index's width. `mm_seed` puts one item
//! per search of each read-strand's scheme on a stack of pending items; each step (an
//! `mm_expand` launch, then `mm_push`) takes a chunk off the top of the stack and expands
//! every item by one step of its search, as
//! [`crate::search::mismatch`] does depth first on the CPU: an item past its last step is
//! finished (its interval's rows are hits); an item whose interval is one row (after the
//! first step) is verified (the row located, the whole read compared with the text); any
//! other is extended by the four bases on its step's side (`Bidirectional::extend_left`
//! / `extend_right`: two Occ block reads) and the children within the step's mismatch
//! bounds are appended (warp-aggregated atomics) to a child queue, which `mm_push` copies
//! back onto the stack in place of the chunk. So every launch keeps the warps busy
//! whatever each read's number of backtracking steps, and the loop ends when the stack
//! is empty. The stack's top, the chunk and the counts stay on the device: the host
//! queues [`STEPS_PER_LOOK`] steps, then reads the top once (it read the top after
//! every step, waiting for the GPU each time, some 150 times a pass for 148 bp reads).
//! Finished intervals and verified positions go to a list that `map_locate` (the exact
//! search's locate kernel) turns into text positions; the host sorts them per read and
//! strand and removes repeats (several searches or branches find one occurrence), which
//! gives exactly the CPU searcher's [`crate::search::BatchPositions`].
//!
//! Memory per pass is fixed ([`Capacities`]): the stack, the child queue of one launch
//! (4 children per item of the chunk) and the finished list. A chunk is as large as the
//! child queue and the stack's free room allow (`Capacities::next_chunk`), so a step
//! whose children would not fit is done in chunks (the newest items first, which keeps
//! the stack small); when the stack or the finished list cannot hold a pass (the
//! kernels flag the stack's overflow; the host checks the finished list's count), the
//! reads are searched in halves.

use std::time::Instant;

use super::{
    download_positions, ensure, locate_into, GpuSearcher, Located, Overflow, PassReads,
    NOT_SEARCHABLE, THREADS,
};
use crate::fm::Occ;
use crate::gpu::radix::{ScanOp, Workspace};
use crate::gpu::runtime::launchers;
use crate::gpu::runtime::launchers::map::ExpandIndex;
use crate::gpu::tuning::{
    MM_COUNTERS as COUNTERS, MM_FINISHED as FINISHED, MM_OVERFLOW as OVERFLOW, MM_TOP as TOP,
    MM_TOTAL as TOTAL, SCHEME_SHIFT, SEARCH_SLOTS, SEARCH_WORDS,
};
use crate::gpu::{DevBuf, Gpu, GpuError, Pos};
use crate::sa::{Positions, Width};
use crate::search::mismatch::unique_len;
use crate::search::schemes::{scheme_for, schemes};

/// Bytes of one work item (`Item` of kernels/map.cuh: read-strand and search words, then
/// three rows) at `width`.
fn item_bytes(width: Width) -> usize {
    8 + 3 * width.bytes()
}

/// Bytes of one finished entry (read-strand, first row or `DIRECT`, position, rows cut
/// to 32 bits) at `width`.
fn finished_bytes(width: Width) -> usize {
    8 + 2 * width.bytes()
}
/// Steps queued between two looks at the stack's top: a look waits for the GPU (tens
/// of microseconds, once a step until session 17), a step queued past the stack's end
/// does nothing.
const STEPS_PER_LOOK: usize = 16;
/// Most blocks of an `mm_expand` or `mm_push` launch (grid-stride over the chunk).
const STEP_BLOCKS: usize = 1024;
/// Reads must be shorter than this for the step field of an item (26 bits).
pub(super) const MAX_READ_LEN: usize = 1 << 26;
/// Default device memory for the work buffers of one pass.
pub(super) const QUEUE_BYTES: usize = 1 << 30;

/// The scheme table as the kernels read it: for each of the three [`schemes`] of `k`,
/// [`SEARCH_SLOTS`] searches of [`SEARCH_WORDS`] words (unused ones zero), then the
/// number of searches of each scheme.
fn scheme_table(k: u8) -> Vec<u32> {
    let all = schemes(k);
    let mut table = vec![0u32; all.len() * SEARCH_SLOTS * SEARCH_WORDS];
    for (s, scheme) in all.iter().enumerate() {
        assert!(scheme.len() <= SEARCH_SLOTS);
        for (j, search) in scheme.iter().enumerate() {
            let words = &mut table[(s * SEARCH_SLOTS + j) * SEARCH_WORDS..][..SEARCH_WORDS];
            let pieces = search.order.len();
            words[0] = pieces as u32;
            for p in 0..pieces {
                words[1 + p] = search.order[p] as u32;
                words[1 + SEARCH_SLOTS + p] = search.lower[p] as u32;
                words[1 + 2 * SEARCH_SLOTS + p] = search.upper[p] as u32;
            }
        }
    }
    table.extend(all.iter().map(|scheme| scheme.len() as u32));
    table
}

/// The length word of a packed read for the kernels: its length and scheme, or
/// [`NOT_SEARCHABLE`] when it is empty or has more non-ACGT bases than `k` (as on the
/// CPU: it has no hit).
pub(super) fn length_word(k: u8, unique_len: usize, len: usize, unknown: usize) -> u32 {
    if len == 0 || unknown > k as usize {
        return NOT_SEARCHABLE;
    }
    assert!(len < MAX_READ_LEN, "checked before packing");
    len as u32 | (scheme_for(k, len, unique_len) as u32) << SCHEME_SHIFT
}

/// The sizes, in items, of the work buffers of one pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Capacities {
    /// Pending items.
    stack: usize,
    /// Most items expanded by one launch (the child queue holds 4 times as many).
    chunk: usize,
    /// Finished entries.
    finished: usize,
}

impl Capacities {
    /// Splits `bytes` of device memory for an index of positions `width`: half to the
    /// stack, a quarter to the child queue, a quarter to the finished list (at least room
    /// for one read's seeds).
    pub(super) fn for_bytes(bytes: usize, width: Width) -> Capacities {
        let item = item_bytes(width);
        Capacities {
            stack: (bytes / 2 / item).max(4 * SEARCH_SLOTS),
            chunk: (bytes / 4 / (4 * item)).max(1),
            finished: (bytes / 4 / finished_bytes(width)).max(1),
        }
    }

    /// Whether a pass may seed `read_strands` read-strands (up to [`SEARCH_SLOTS`]
    /// items each): they may take at most half the stack.
    fn seeds_fit(&self, read_strands: usize) -> bool {
        read_strands * SEARCH_SLOTS <= self.stack / 2
    }

    /// How many of the `top` (> 0) pending items the next step expands: at most a
    /// chunk, and so few that their children (up to 4 each) fit in the stack in their
    /// place; `None` when not even one item's do. `mm_expand` works it out so on the
    /// device; the CPU model of the walk (tests) calls this.
    #[cfg(test)]
    fn next_chunk(&self, top: usize) -> Option<usize> {
        let room = self.stack.saturating_sub(top) / 3;
        let chunk = top.min(self.chunk).min(room);
        (chunk > 0).then_some(chunk)
    }
}

/// The device state of the k-mismatch search: the mirror's BWT/Occ, the schemes and
/// the work buffers.
pub(super) struct MismatchState<'g> {
    /// Most mismatches of a hit (1 to 3).
    pub(super) k: u8,
    /// The index's position width (of the work items).
    width: Width,
    mirror: DevBuf<'g>,
    mirror_primary: u64,
    schemes: DevBuf<'g>,
    /// Strings this long are mostly unique in the text (picks the scheme).
    pub(super) unique_len: usize,
    capacities: Capacities,
    buffers: Option<Buffers<'g>>,
}

/// Work buffers, allocated for the current [`Capacities`].
struct Buffers<'g> {
    stack: DevBuf<'g>,
    children: DevBuf<'g>,
    /// u32 children, u32 finished entries, u64 positions of the finished entries.
    counters: DevBuf<'g>,
    finished_item: DevBuf<'g>,
    finished_lo: DevBuf<'g>,
    finished_direct: DevBuf<'g>,
    /// Rows per entry, scanned in place into the entries' first output slots.
    finished_offsets: DevBuf<'g>,
    scan: Workspace<'g>,
    /// The packed reads of the pass (grown as needed).
    packed: DevBuf<'g>,
    /// The located positions of the pass (grown as needed).
    positions: DevBuf<'g>,
}

impl<'g> MismatchState<'g> {
    /// Uploads the BWT/Occ of `mirror` and the schemes of `k` (1 to 3) for a text of
    /// `text_len` bases, whose index has positions `width`.
    pub(super) fn new(
        gpu: &'g Gpu,
        mirror: &Occ<'_>,
        k: u8,
        text_len: usize,
        width: Width,
    ) -> Result<Self, GpuError> {
        assert!((1..=crate::search::schemes::MAX_MISMATCHES).contains(&k));
        Ok(MismatchState {
            k,
            width,
            mirror: gpu.upload_staged(mirror.blocks())?,
            mirror_primary: mirror.primary(),
            schemes: gpu.upload(&scheme_table(k))?,
            unique_len: unique_len(text_len),
            capacities: Capacities::for_bytes(QUEUE_BYTES, width),
            buffers: None,
        })
    }

    /// Sets the device memory of the work buffers (they are made again on next use).
    pub(super) fn set_queue_bytes(&mut self, bytes: usize) {
        self.capacities = Capacities::for_bytes(bytes, self.width);
        self.buffers = None;
    }

    /// The work buffers, allocated on first use.
    fn buffers(&mut self, gpu: &'g Gpu) -> Result<&mut Buffers<'g>, GpuError> {
        if self.buffers.is_none() {
            let (c, item, w) = (self.capacities, item_bytes(self.width), self.width.bytes());
            self.buffers = Some(Buffers {
                stack: gpu.alloc(item * c.stack)?,
                children: gpu.alloc(item * 4 * c.chunk)?,
                counters: gpu.alloc(4 * COUNTERS)?,
                finished_item: gpu.alloc(4 * c.finished)?,
                finished_lo: gpu.alloc(w * c.finished)?,
                finished_direct: gpu.alloc(w * c.finished)?,
                finished_offsets: gpu.alloc(4 * (c.finished + 1))?,
                scan: Workspace::new(gpu, c.finished + 1)?,
                packed: gpu.alloc(4)?,
                positions: gpu.alloc(4)?,
            });
        }
        Ok(self.buffers.as_mut().expect("allocated above"))
    }
}

/// Per read-strand (`read_strands` of them), the sorted distinct positions of the
/// finished entries: entry `e` belongs to read-strand `entry_item[e]` and its positions
/// are `positions[offsets[e]..offsets[e + 1]]`. The result is in the
/// [`crate::search::BatchPositions`] layout, at the width of `positions`.
pub(super) fn group_positions(
    read_strands: usize,
    entry_item: &[u32],
    offsets: &[u32],
    positions: &Positions,
) -> Located {
    match positions {
        Positions::U32(p) => {
            let (offsets, grouped) = group(read_strands, entry_item, offsets, p);
            (offsets, Positions::U32(grouped))
        }
        Positions::U64(p) => {
            let (offsets, grouped) = group(read_strands, entry_item, offsets, p);
            (offsets, Positions::U64(grouped))
        }
    }
}

/// [`group_positions`] at one width: a counting sort by read-strand (a read-strand has
/// a few positions, so its own sort is short), then each read-strand's positions sorted
/// and made distinct in place. Linear in the positions: a sort of (read-strand,
/// position) keys over the whole batch took 0.10 s of the search thread's 0.56 s for
/// 2.1 M reads at `-v 1` (H200).
fn group<T: Copy + Ord>(
    read_strands: usize,
    entry_item: &[u32],
    offsets: &[u32],
    positions: &[T],
) -> (Vec<u32>, Vec<T>) {
    let entry_range = |e: usize| offsets[e] as usize..offsets[e + 1] as usize;
    let mut starts = vec![0u32; read_strands + 1];
    for (e, &item) in entry_item.iter().enumerate() {
        starts[item as usize + 1] += entry_range(e).len() as u32;
    }
    for i in 0..read_strands {
        starts[i + 1] += starts[i];
    }
    let mut grouped = positions.to_vec(); // every slot is overwritten below
    let mut next = starts.clone();
    for (e, &item) in entry_item.iter().enumerate() {
        for &p in &positions[entry_range(e)] {
            grouped[next[item as usize] as usize] = p;
            next[item as usize] += 1;
        }
    }
    // Sorted and distinct per read-strand, moved down over the duplicates dropped.
    let mut out_offsets = vec![0u32; read_strands + 1];
    let mut kept = 0;
    for i in 0..read_strands {
        let (from, to) = (starts[i] as usize, starts[i + 1] as usize);
        grouped[from..to].sort_unstable();
        for j in from..to {
            if j == from || grouped[j] != grouped[j - 1] {
                grouped[kept] = grouped[j];
                kept += 1;
            }
        }
        out_offsets[i + 1] = kept as u32;
    }
    grouped.truncate(kept);
    (out_offsets, grouped)
}

impl GpuSearcher<'_> {
    /// One k-mismatch pass over `reads`: their offsets and positions in the
    /// [`crate::search::BatchPositions`] layout, or why the pass does not fit.
    pub(super) fn mismatch_pass(
        &mut self,
        reads: PassReads,
    ) -> Result<Result<Located, Overflow>, GpuError> {
        let (gpu, width) = (self.gpu, self.width);
        let index = self.device_index();
        let (k, capacities) = match &self.mismatch {
            Some(state) => (state.k, state.capacities),
            None => panic!("a mismatch searcher"),
        };
        let n = reads.len();
        let items = 2 * n;
        if !capacities.seeds_fit(items) {
            return Ok(Err(Overflow::Queue));
        }
        self.pack_pass(reads)?;
        let state = self.mismatch.as_mut().expect("a mismatch searcher");
        let (schemes, mirror, mirror_primary) = (
            state.schemes.ptr(0),
            state.mirror.ptr(0),
            Pos(state.mirror_primary),
        );
        let item_bytes = item_bytes(width);
        let b = state.buffers(gpu)?;
        ensure(gpu, &mut b.packed, 4 * self.host_packed.len())?;
        b.packed.write(&self.host_packed)?;
        let (meta, words) = (b.packed.ptr(0), b.packed.ptr(4 * items));
        b.counters.zero(4 * COUNTERS)?;
        gpu.sync()?;
        let start = Instant::now();
        let counters = b.counters.ptr(0);
        launchers::map::mm_seed(
            gpu,
            width,
            (items.div_ceil(THREADS as usize) as u32, THREADS),
            meta,
            n as u32,
            schemes,
            index.rows,
            b.stack.ptr(0),
            counters,
        )?;
        let step_blocks =
            |items: usize| items.div_ceil(THREADS as usize).clamp(1, STEP_BLOCKS) as u32;
        let item_words = item_bytes / 4;
        let mut counts = [0u32; COUNTERS];
        for step in 0.. {
            let parity = step as u32 & 1;
            launchers::map::mm_expand(
                gpu,
                width,
                (step_blocks(capacities.chunk), THREADS),
                b.stack.ptr(0),
                capacities.stack as u32,
                capacities.chunk as u32,
                parity,
                meta,
                words,
                n as u32,
                schemes,
                k as u32,
                ExpandIndex {
                    index,
                    mirror,
                    mirror_primary,
                },
                b.children.ptr(0),
                counters,
                b.finished_item.ptr(0),
                b.finished_lo.ptr(0),
                b.finished_direct.ptr(0),
                b.finished_offsets.ptr(0),
                capacities.finished as u32,
            )?;
            launchers::map::mm_push(
                gpu,
                width,
                (step_blocks(4 * capacities.chunk * item_words), THREADS),
                b.stack.ptr(0),
                b.children.ptr(0),
                item_words as u32,
                parity,
                counters,
            )?;
            if (step + 1) % STEPS_PER_LOOK == 0 {
                b.counters.download(&mut counts)?;
                if counts[OVERFLOW] != 0 {
                    self.kernel_seconds += start.elapsed().as_secs_f64();
                    return Ok(Err(Overflow::Queue));
                }
                if counts[TOP] == 0 {
                    break;
                }
            }
        }
        let entries = counts[FINISHED] as usize;
        let total = counts[TOTAL] as u64 | (counts[TOTAL + 1] as u64) << 32;
        if entries > capacities.finished {
            self.kernel_seconds += start.elapsed().as_secs_f64();
            return Ok(Err(Overflow::Queue));
        }
        if total > self.max_positions.min(u32::MAX as u64) && n > 1 || total >= u32::MAX as u64 {
            self.kernel_seconds += start.elapsed().as_secs_f64();
            return Ok(Err(Overflow::Positions(total)));
        }
        let offsets = b.finished_offsets.ptr(0);
        b.scan
            .scan_queued(offsets, offsets, entries + 1, ScanOp::Sum, false)?;
        let intervals = (offsets, b.finished_lo.ptr(0), b.finished_direct.ptr(0));
        locate_into(
            gpu,
            index,
            intervals,
            (entries, total),
            &mut b.positions,
            width,
        )?;
        self.kernel_seconds += start.elapsed().as_secs_f64();
        let mut entry_offsets = vec![0; entries + 1];
        let mut entry_item = vec![0; entries];
        b.finished_offsets.download(&mut entry_offsets)?;
        b.finished_item.download(&mut entry_item)?;
        let positions = download_positions(&b.positions, total as usize, width)?;
        let grouping = Instant::now();
        let located = group_positions(items, &entry_item, &entry_offsets, &positions);
        self.host_seconds += grouping.elapsed().as_secs_f64();
        Ok(Ok(located))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::ReadRecord;
    use crate::search::schemes::Search;

    #[test]
    fn the_scheme_table_holds_every_search_and_the_counts() {
        for k in 1..=3u8 {
            let table = scheme_table(k);
            let all = schemes(k);
            assert_eq!(table.len(), 3 * SEARCH_SLOTS * SEARCH_WORDS + 3);
            for (s, scheme) in all.iter().enumerate() {
                assert_eq!(
                    table[3 * SEARCH_SLOTS * SEARCH_WORDS + s] as usize,
                    scheme.len()
                );
                for (j, search) in scheme.iter().enumerate() {
                    let w = &table[(s * SEARCH_SLOTS + j) * SEARCH_WORDS..][..SEARCH_WORDS];
                    let p = w[0] as usize;
                    assert_eq!(p, search.order.len());
                    let as_u32 = |x: &[u8]| x.iter().map(|&v| v as u32).collect::<Vec<_>>();
                    let order: Vec<u32> = search.order.iter().map(|&v| v as u32).collect();
                    assert_eq!(&w[1..1 + p], &order[..]);
                    assert_eq!(&w[5..5 + p], &as_u32(search.lower)[..]);
                    assert_eq!(&w[9..9 + p], &as_u32(search.upper)[..]);
                }
            }
        }
    }

    #[test]
    fn length_words_carry_the_cpu_scheme_choice() {
        let unique = 10;
        for k in 1..=3u8 {
            for len in 1..200 {
                let word = length_word(k, unique, len, 0);
                assert_eq!(word & NOT_SEARCHABLE, 0);
                assert_eq!((word & ((1 << SCHEME_SHIFT) - 1)) as usize, len);
                let scheme = (word >> SCHEME_SHIFT) as usize;
                let want = crate::search::schemes::searches(k, len, unique);
                let got = schemes(k)[scheme];
                let same = |a: &Search, b: &Search| {
                    (a.order, a.lower, a.upper) == (b.order, b.lower, b.upper)
                };
                assert_eq!(got.len(), want.len(), "k {k} len {len}");
                assert!(
                    got.iter().zip(want).all(|(a, b)| same(a, b)),
                    "k {k} len {len}"
                );
            }
            assert_eq!(length_word(k, unique, 0, 0), NOT_SEARCHABLE);
            assert_eq!(length_word(k, unique, 30, k as usize + 1), NOT_SEARCHABLE);
            assert_ne!(length_word(k, unique, 30, k as usize), NOT_SEARCHABLE);
        }
    }

    #[test]
    fn chunks_fit_their_children_on_the_stack() {
        let c = Capacities {
            stack: 100,
            chunk: 10,
            finished: 5,
        };
        assert_eq!(c.next_chunk(5), Some(5));
        assert_eq!(c.next_chunk(40), Some(10));
        // 70 pending: room for 30 more, so 10 items (up to 40 children) in place of 10.
        assert_eq!(c.next_chunk(70), Some(10));
        assert_eq!(c.next_chunk(85), Some(5));
        assert_eq!(c.next_chunk(97), Some(1));
        assert_eq!(c.next_chunk(98), None);
        for top in 1..98 {
            let chunk = c.next_chunk(top).unwrap();
            assert!(chunk <= top && chunk <= c.chunk);
            assert!(top - chunk + 4 * chunk <= c.stack, "top {top}");
        }
        assert!(c.seeds_fit(12) && !c.seeds_fit(13));
        for width in [Width::U32, Width::U64] {
            let big = Capacities::for_bytes(QUEUE_BYTES, width);
            let bytes = item_bytes(width) * (big.stack + 4 * big.chunk)
                + finished_bytes(width) * big.finished;
            assert!(bytes <= QUEUE_BYTES && bytes > QUEUE_BYTES / 10 * 9);
            let tiny = Capacities::for_bytes(0, width);
            assert!(tiny.seeds_fit(2) && tiny.next_chunk(2 * SEARCH_SLOTS).is_some());
        }
        assert_eq!((item_bytes(Width::U32), item_bytes(Width::U64)), (20, 32));
    }

    #[test]
    fn positions_are_grouped_sorted_and_distinct_per_read_strand() {
        // Entries: read-strand 2 [9, 4], read-strand 0 [7], read-strand 2 [4, 1], none
        // for 1 and 3.
        let entry_item = [2, 0, 2];
        let offsets = [0, 2, 3, 5];
        let positions = [9, 4, 7, 4, 1];
        let (o, p) = group_positions(
            4,
            &entry_item,
            &offsets,
            &Positions::U32(positions.to_vec()),
        );
        assert_eq!(o, [0, 1, 1, 4, 4]);
        assert_eq!(p, Positions::U32(vec![7, 1, 4, 9]));
        // At 64 bits, positions past 2^32 included.
        let wide = positions.map(|p| p as u64 + ((p as u64 % 2) << 33));
        let (o, p) = group_positions(4, &entry_item, &offsets, &Positions::U64(wide.to_vec()));
        assert_eq!(o, [0, 1, 1, 4, 4]);
        assert_eq!(
            p,
            Positions::U64(vec![(1 << 33) + 7, 4, (1 << 33) + 1, (1 << 33) + 9])
        );
        for empty in [Positions::U32(vec![]), Positions::U64(vec![])] {
            let (o, p) = group_positions(2, &[], &[0], &empty);
            assert_eq!((o, &p), (vec![0, 0, 0], &empty));
        }
    }

    /// A model of `mm_seed` and `mm_expand` (kernels/map.cuh, at 32-bit positions),
    /// statement for statement, over the CPU index and the host's packed reads, scheme
    /// table and chunk plan: it tests the step plan the kernel rebuilds, the walk, the
    /// chunked stack and the grouping against the CPU searcher, where no GPU is at hand.
    mod model {
        use super::*;
        use crate::fm::Bidirectional;

        fn code_at(words: &[u32], j: u32) -> u32 {
            (words[(j >> 3) as usize] >> (4 * (j & 7))) & 15
        }

        fn strand_code(words: &[u32], len: u32, strand: u32, i: u32) -> u32 {
            if strand == 0 {
                return code_at(words, i);
            }
            let c = code_at(words, len - 1 - i);
            if c < 4 {
                3 - c
            } else {
                c
            }
        }

        /// `plan_step`: (pos, right, lower, upper, first).
        fn plan_step(search: &[u32], len: u32, mut step: u32) -> (u32, bool, u32, u32, u32) {
            let pieces = search[0];
            let (mut first, mut end) = (0, 0);
            for j in 0..pieces {
                let piece = search[1 + j as usize];
                let (start, stop) = (piece * len / pieces, (piece + 1) * len / pieces);
                let right = j > 0 && start == end;
                if j == 0 {
                    (first, end) = (stop, stop);
                }
                if step < stop - start {
                    let pos = if right { start + step } else { stop - 1 - step };
                    if !right {
                        first = pos;
                    }
                    let last = if right { stop - 1 } else { start };
                    let slots = SEARCH_SLOTS;
                    let lower = if pos == last {
                        search[1 + slots + j as usize]
                    } else {
                        0
                    };
                    return (pos, right, lower, search[1 + 2 * slots + j as usize], first);
                }
                step -= stop - start;
                if right {
                    end = stop;
                } else {
                    first = start;
                }
            }
            unreachable!("step < len")
        }

        /// The positions of every read-strand, through the kernels' walk.
        pub(super) fn search(
            index: &Bidirectional<'_>,
            reads: &[ReadRecord],
            k: u8,
            capacities: Capacities,
        ) -> Option<Located> {
            let packer = crate::gpu::map::ReadPacker::new(index.forward.text.len(), k);
            let mut packed = Vec::new();
            packer.pack_into(reads, &mut packed).ok()?;
            let table = scheme_table(k);
            let n = reads.len() as u32;
            let (meta, words) = packed.split_at(2 * reads.len());
            let rows = index.forward.c[4] as u32;
            // mm_seed
            let mut stack: Vec<[u32; 5]> = Vec::new();
            for t in 0..2 * n {
                let strand = (t >= n) as u32;
                let word = meta[(2 * (t - strand * n) + 1) as usize];
                if word & NOT_SEARCHABLE == 0 {
                    let scheme = word >> SCHEME_SHIFT;
                    let count = table[3 * SEARCH_SLOTS * SEARCH_WORDS + scheme as usize];
                    for j in 0..count {
                        let search = scheme * SEARCH_SLOTS as u32 + j;
                        stack.push([t, 0, 0, rows, search]);
                    }
                }
            }
            if !capacities.seeds_fit(2 * reads.len()) {
                return None;
            }
            let mut finished: Vec<(u32, u32, u32, u32)> = Vec::new();
            while !stack.is_empty() {
                let chunk = capacities.next_chunk(stack.len())?;
                let items = stack.split_off(stack.len() - chunk);
                let mut children = Vec::new();
                for [t, lo, mlo, size, m] in items {
                    expand(
                        index,
                        &table,
                        meta,
                        words,
                        n,
                        k,
                        [t, lo, mlo, size, m],
                        &mut children,
                        &mut finished,
                    );
                }
                assert!(children.len() <= 4 * chunk);
                stack.extend(children);
                assert!(stack.len() <= capacities.stack);
            }
            // map_locate
            let mut offsets = vec![0u32];
            let mut positions = Vec::new();
            let mut entry_item = Vec::new();
            for (t, lo, direct, size) in finished {
                entry_item.push(t);
                if lo == u32::MAX {
                    positions.push(direct);
                } else {
                    positions
                        .extend((lo..lo + size).map(|r| index.forward.locate(r as u64) as u32));
                }
                offsets.push(positions.len() as u32);
            }
            Some(group_positions(
                2 * reads.len(),
                &entry_item,
                &offsets,
                &Positions::U32(positions),
            ))
        }

        /// [`GpuSearcher::search_range`]: the reads in one pass, or in halves.
        pub(super) fn search_range(
            index: &Bidirectional<'_>,
            reads: &[ReadRecord],
            k: u8,
            capacities: Capacities,
            out: &mut crate::search::BatchPositions,
        ) {
            match search(index, reads, k, capacities) {
                Some((offsets, positions)) => out.push_part(offsets, positions),
                None => {
                    assert!(reads.len() > 1, "one read does not fit");
                    let half = reads.len() / 2;
                    search_range(index, &reads[..half], k, capacities, out);
                    search_range(index, &reads[half..], k, capacities, out);
                }
            }
        }

        /// `mm_expand` of one item.
        #[allow(clippy::too_many_arguments)]
        fn expand(
            index: &Bidirectional<'_>,
            table: &[u32],
            meta: &[u32],
            words: &[u32],
            n: u32,
            k: u8,
            [t, lo, mlo, size, m]: [u32; 5],
            children: &mut Vec<[u32; 5]>,
            finished: &mut Vec<(u32, u32, u32, u32)>,
        ) {
            let (search, errors, step) = (m & 15, (m >> 4) & 3, m >> 6);
            let strand = (t >= n) as u32;
            let read = t - strand * n;
            let len = meta[(2 * read + 1) as usize] & ((1 << SCHEME_SHIFT) - 1);
            let seq = &words[meta[(2 * read) as usize] as usize..];
            let plan = &table[search as usize * SEARCH_WORDS..];
            if step == len {
                finished.push((t, lo, 0, size));
            } else if size == 1 && step > 0 {
                let first = plan_step(plan, len, step - 1).4;
                let pos = index.forward.locate(lo as u64) as u32;
                if pos >= first {
                    let start = pos - first;
                    let text = index.forward.text;
                    let fits = start as usize + len as usize <= text.len();
                    let found = (0..len)
                        .filter(|&j| {
                            fits && text.get((start + j) as usize) as u32
                                != strand_code(seq, len, strand, j)
                        })
                        .count();
                    if fits && found <= k as usize {
                        finished.push((t, u32::MAX, start, 1));
                    }
                }
            } else {
                let (pos, right, lower, upper, _) = plan_step(plan, len, step);
                let want = strand_code(seq, len, strand, pos);
                let (from, other) = if right { (mlo, lo) } else { (lo, mlo) };
                let (occ, c) = (
                    if right {
                        &index.mirror
                    } else {
                        &index.forward.occ
                    },
                    index.forward.c,
                );
                let (below, upto) = (occ.occ_all(from as u64), occ.occ_all((from + size) as u64));
                let p = occ.primary() as u32;
                let mut before = (from <= p && p < from + size) as u32;
                for b in 0..4u32 {
                    let count = (upto[b as usize] - below[b as usize]) as u32;
                    let e = errors + (b != want) as u32;
                    if count > 0 && e >= lower && e <= upper {
                        let stepped = (c[b as usize] + below[b as usize]) as u32;
                        let other = other + before;
                        let (clo, cmlo) = if right {
                            (other, stepped)
                        } else {
                            (stepped, other)
                        };
                        children.push([t, clo, cmlo, count, search | e << 4 | (step + 1) << 6]);
                    }
                    before += count;
                }
            }
        }
    }

    #[test]
    fn the_kernels_walk_finds_what_the_cpu_searcher_finds() {
        use crate::fm::TestIndex;
        use crate::search::{BatchSearcher, CpuSearcher};
        use crate::test_support::random_codes;
        for (len, alphabet, seed) in [(3000, 4, 1), (2000, 2, 2), (400, 1, 3)] {
            let codes = random_codes(len, seed, alphabet);
            let index = TestIndex::new(&codes, 4);
            let bi = index.bidirectional();
            let noise = random_codes(4000, seed + 10, 4);
            let seqs: Vec<Vec<u8>> = (0..150)
                .map(|i| {
                    let read_len = [1, 2, 3, 4, 5, 7, 12, 25, 40, 61][i % 10];
                    let start = (i * 131) % (len - read_len + 1);
                    let mut seq: Vec<u8> = codes[start..start + read_len]
                        .iter()
                        .map(|&c| b"ACGT"[c as usize])
                        .collect();
                    for m in 0..(i % 5) {
                        let at = noise[i * 5 + m] as usize * 7 % read_len;
                        seq[at] = if m == 3 {
                            b'N'
                        } else {
                            b"ACGT"[noise[i * 7 + m] as usize]
                        };
                    }
                    if i % 3 == 1 {
                        seq = seq
                            .iter()
                            .rev()
                            .map(|&b| match b {
                                b'A' => b'T',
                                b'C' => b'G',
                                b'G' => b'C',
                                b'T' => b'A',
                                x => x,
                            })
                            .collect();
                    }
                    seq
                })
                .collect();
            let reads: Vec<ReadRecord> = seqs.iter().map(|s| ReadRecord::of_bases(s)).collect();
            for k in 1..=3u8 {
                let want = CpuSearcher::new(&bi, k).search_batch(&reads).unwrap();
                for bytes in [QUEUE_BYTES, 200_000, 40_000] {
                    let capacities = Capacities::for_bytes(bytes, Width::U32);
                    let mut got = crate::search::BatchPositions::default();
                    model::search_range(&bi, &reads, k, capacities, &mut got);
                    for i in 0..reads.len() {
                        for strand in 0..2 {
                            let got: Vec<u64> = got.strand(i, strand).iter().collect();
                            let want: Vec<u64> = want.strand(i, strand).iter().collect();
                            assert_eq!(
                                got, want,
                                "text {seed}, k {k}, read {i}, strand {strand}, {bytes} bytes"
                            );
                        }
                    }
                }
            }
        }
    }
}
