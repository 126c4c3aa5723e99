//! Suffix sorting on the CPU (rayon): extension by 32 bases of text, then Larsson-Sadakane
//! prefix doubling where long repeats remain.
//!
//! 1. Initial sort of all suffixes by their first 32 bases (one `u64` key read from the
//!    packed text), partitioned into 4,096 buckets by the first 6 bases, the buckets
//!    sorted in parallel. Suffixes shorter than 32 bases are padded with `A` and placed
//!    before the longer suffixes that share their padded key, shortest first, which
//!    is exactly their order under the sentinel convention; they end up singletons.
//! 2. Extension rounds while few suffixes are unsorted: each unsorted group is sorted by
//!    the next 32 bases of text (another `u64` key, the same rule for short suffixes)
//!    and split. On real DNA the groups left after 32 bases are a few percent of the
//!    suffixes and mostly sorted a few rounds later, so no suffix needs a rank: the
//!    ranks of all suffixes (one random write each, the inverse suffix array) cost more
//!    than these rounds (chr20, 2 threads: ~0.6 s against 0.17 s; `galign sa` 3.55 ->
//!    2.80 s, BENCHMARKS.md).
//! 3. Where the rounds' work passes [`EXTENSION_BUDGET`] (repeat-rich texts, all-A,
//!    short periods: most suffixes share their first 32 bases), ranks are set once,
//!    every suffix's the SA index of its group's first member, and doubling rounds go
//!    over the unsorted groups only: at step `h` a group is sorted by the rank of the
//!    suffix `h` further on (0 when that suffix is the empty one), then split. Keys are
//!    computed and groups split before any rank changes (two phases), so parallel
//!    groups never see each other's half-updated ranks. Singletons drop out; the loop
//!    ends when no group is left.
//!
//! [`sorted_suffixes`] also gathers what the FM index reads off each row: the base
//! before each suffix (its BWT symbol) and the k-mer it starts with (the jump table's
//! counts), read in the initial sort next to the key it reads anyway, instead of one
//! random text read a row afterwards. Rows whose order later rounds change get their
//! base in a last pass. Measured in one process (chr20, 2 threads, best of 5): the sort
//! 1.71 -> 1.82 s, the FM derivation after it 0.57 -> 0.26 s.

use rayon::prelude::*;

use super::{radix, SaIndex, INITIAL_PREFIX};
use crate::huge_pages::huge_vec;
use crate::par::{prefetch, DisjointSlice};
use crate::reference::PackedText;

/// Bases that choose the bucket of the initial sort (6 measured fastest on chr20 at 2
/// threads: fewer scatter streams; 5, 7 and 8 were slower).
const BUCKET_BASES: usize = 6;
const BUCKET_COUNT: usize = 1 << (2 * BUCKET_BASES);
/// Groups at least this large are sorted with a parallel sort, one at a time.
const LARGE_GROUP: usize = 1 << 16;
/// Small groups are handed to rayon in batches of this many.
const GROUP_BATCH: usize = 512;

/// Extension rounds may sort this many suffixes in all, per suffix of the text (each
/// costs a random 8-byte text read and a place in a small sort), before the rest is left
/// to prefix doubling; a round that would pass it is not started.
const EXTENSION_BUDGET: f64 = 0.5;

/// How many suffixes ahead the random text and rank reads are prefetched.
const PREFETCH_DISTANCE: usize = 16;

/// Suffixes (positions) with a 32-base key each, and the scratch space of their sort.
type Keyed<I> = Vec<(u64, I)>;

/// An unsorted group: SA range `start..start + len`, `len >= 2`, stored in the index
/// type (8 bytes a group for u32: repetitive texts have tens of millions of groups).
#[derive(Clone, Copy, Debug)]
struct Group<I> {
    start_: I,
    len_: I,
}

impl<I: SaIndex> Group<I> {
    fn new(start: usize, len: usize) -> Self {
        Group {
            start_: I::from_usize(start),
            len_: I::from_usize(len),
        }
    }

    #[inline]
    fn start(&self) -> usize {
        self.start_.to_usize()
    }

    #[inline]
    fn len(&self) -> usize {
        self.len_.to_usize()
    }
}

/// Builds the suffix array of `text` (sentinel position excluded).
pub fn suffix_array<I: SaIndex>(text: &PackedText) -> Vec<I> {
    sort_within(text, default_budget(text), None).sa
}

/// The suffix array of `text` with what the FM index reads off its rows (k-mers of `k`
/// bases, at most 32).
pub fn sorted_suffixes<I: SaIndex>(text: &PackedText, k: u32) -> SortedSuffixes<I> {
    sort_within(text, default_budget(text), Some(k))
}

/// The suffix array and, per row, what the FM index reads off it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SortedSuffixes<I> {
    /// The suffix array.
    pub sa: Vec<I>,
    /// Per row: the base before its suffix (the BWT symbol), 0 for the suffix at 0
    /// (empty where the sort was not asked for it).
    pub preceding: Vec<u8>,
    /// Per k-mer (`4^k` codes, empty where not asked for): the rows whose suffix starts
    /// with it (suffixes shorter than `k` are not counted).
    pub kmer_counts: Vec<I>,
}

/// The default extension budget for `text`.
fn default_budget(text: &PackedText) -> usize {
    (EXTENSION_BUDGET * text.len() as f64) as usize
}

/// Sorts the suffixes of `text`, the extension rounds sorting at most `budget` suffixes
/// in all, and gathers the rows' preceding bases and k-mers of `k` bases where given.
fn sort_within<I: SaIndex>(text: &PackedText, budget: usize, k: Option<u32>) -> SortedSuffixes<I> {
    let n = text.len();
    assert!(
        n as u64 <= I::MAX_TEXT,
        "text of {n} bases is too long for this index type"
    );
    let mut sa = huge_vec::<I>(n);
    let mut preceding = vec![0u8; if k.is_some() { n } else { 0 }];
    let mut kmer_counts = vec![I::default(); k.map_or(0, |k| 1 << (2 * k))];
    let context = k.map(|k| RowContext {
        preceding: DisjointSlice::new(&mut preceding),
        counts: DisjointSlice::new(&mut kmer_counts),
        k,
    });
    let (groups, shared_runs) = initial_sort(text, &mut sa, context.as_ref());
    for (code, rows) in shared_runs {
        kmer_counts[code as usize] += rows;
    }
    let (mut groups, sorted_by) = extension_rounds(text, &mut sa, groups, budget);
    if !groups.is_empty() {
        // Most rows wait for their preceding base where doubling is needed (repeat-rich
        // text): the bases are read again after it, and the ranks use their memory.
        let pending = !preceding.is_empty();
        preceding = Vec::new();
        let mut isa = ranks(&sa, &mut groups);
        let mut h = sorted_by;
        while !groups.is_empty() {
            groups = doubling_round(&mut sa, &mut isa, &groups, h);
            h = h.saturating_mul(2);
        }
        drop(isa);
        if pending {
            preceding = vec![0; n];
            read_preceding(text, &sa, &mut preceding, false);
        }
    } else {
        read_preceding(text, &sa, &mut preceding, true);
    }
    SortedSuffixes {
        sa,
        preceding,
        kmer_counts,
    }
}

/// Extension rounds over the unsorted `groups` left by the initial sort while they sort
/// at most `budget` suffixes in all; returns the groups left and the bases they are
/// sorted by.
fn extension_rounds<I: SaIndex>(
    text: &PackedText,
    sa: &mut [I],
    mut groups: Vec<Group<I>>,
    mut budget: usize,
) -> (Vec<Group<I>>, usize) {
    let mut sorted_by = INITIAL_PREFIX;
    while !groups.is_empty() {
        let members: usize = groups.iter().map(Group::len).sum();
        if members > budget {
            break;
        }
        budget -= members;
        groups = extension_round(text, sa, &groups, sorted_by);
        sorted_by += INITIAL_PREFIX;
    }
    (groups, sorted_by)
}

/// A row's preceding base not known yet (its row is in an unsorted group).
const PENDING: u8 = 0x80;

/// Where the initial sort records each row's preceding base and counts the k-mers.
struct RowContext<'a, I> {
    preceding: DisjointSlice<'a, u8>,
    counts: DisjointSlice<'a, I>,
    k: u32,
}

impl<I: SaIndex> RowContext<'_, I> {
    /// Sorts the bucket `pairs` (positions) of rows `start..` like [`sort_by_bases`],
    /// writes it to `sa`, records each row's preceding base and counts its k-mer.
    fn sort_bucket(
        &self,
        text: &PackedText,
        (pairs, scratch): (&mut Keyed<I>, &mut Keyed<I>),
        (start, bits): (usize, u32),
        (sa, shared_runs): (&DisjointSlice<I>, &mut Vec<(u32, I)>),
    ) {
        let (n, k) = (text.len(), self.k as usize);
        let mut run: Option<(u32, I)> = None;
        sort_with_preceding(text, (pairs, scratch), bits, |i, (key, p), base| {
            // SAFETY: a bucket's rows belong to it alone.
            unsafe {
                sa.write(start + i, p);
                self.preceding.write(start + i, base);
            }
            if n - p.to_usize() >= k {
                let code = (key >> (64 - 2 * k)) as u32;
                match &mut run {
                    Some((c, rows)) if *c == code => *rows += I::from(1),
                    _ => {
                        if let Some(done) = run.replace((code, I::from(1))) {
                            self.count(done, shared_runs);
                        }
                    }
                }
            }
        });
        if let Some(done) = run {
            self.count(done, shared_runs);
        }
    }

    /// Marks the rows of `groups`, whose order later rounds change, [`PENDING`].
    fn mark_pending(&self, groups: &[Group<I>]) {
        for row in groups.iter().flat_map(|g| g.start()..g.start() + g.len()) {
            // SAFETY: the groups' rows are in the caller's bucket alone.
            unsafe { self.preceding.write(row, PENDING) };
        }
    }

    /// Counts a bucket's run of `rows` rows of k-mer `code`: where k-mers are at least
    /// as long as the buckets' prefix, that k-mer's rows are all in this bucket and its
    /// count is written here; else its runs in other buckets are added up afterwards.
    fn count(&self, (code, rows): (u32, I), shared_runs: &mut Vec<(u32, I)>) {
        if self.k as usize >= BUCKET_BASES {
            let code = code as usize;
            // SAFETY: the k-mer's rows are in this bucket alone.
            unsafe {
                let mut total = self.counts.get(code);
                total += rows;
                self.counts.write(code, total);
            }
        } else {
            shared_runs.push((code, rows));
        }
    }
}

/// The base before position `p` of `text`; 0 for `p = 0`.
#[inline]
fn base_before<I: SaIndex>(text: &PackedText, p: I) -> u8 {
    match p.to_usize() {
        0 => 0,
        p => text.get(p - 1),
    }
}

/// Reads the preceding base of every row of the sorted `sa` into `preceding`, or of its
/// [`PENDING`] rows only.
fn read_preceding<I: SaIndex>(text: &PackedText, sa: &[I], preceding: &mut [u8], pending: bool) {
    const CHUNK: usize = 1 << 16;
    preceding
        .par_chunks_mut(CHUNK)
        .zip(sa.par_chunks(CHUNK))
        .for_each(|(bases, rows)| match pending {
            true => read_bases(text, rows, bases, pending_rows(bases).into_iter()),
            false => read_bases(text, rows, bases, 0..rows.len()),
        });
}

/// Sets `bases[i]` to the base before `rows[i]` for each `i` of `at`, the text reads
/// prefetched.
fn read_bases<I: SaIndex>(
    text: &PackedText,
    rows: &[I],
    bases: &mut [u8],
    at: impl Iterator<Item = usize> + Clone,
) {
    let mut ahead = at.clone().skip(PREFETCH_DISTANCE);
    for i in at {
        if let Some(a) = ahead.next() {
            prefetch(text.words(), rows[a].to_usize().saturating_sub(1) / 32);
        }
        bases[i] = base_before(text, rows[i]);
    }
}

/// The indexes of the [`PENDING`] entries of `bases`, found 8 at a time (few are).
fn pending_rows(bases: &[u8]) -> Vec<usize> {
    const PENDING_BITS: u64 = u64::from_ne_bytes([PENDING; 8]);
    let mut pending = Vec::new();
    for (w, eight) in bases.chunks(8).enumerate() {
        let mut word = [0u8; 8];
        word[..eight.len()].copy_from_slice(eight);
        if u64::from_ne_bytes(word) & PENDING_BITS != 0 {
            let at = (0..eight.len()).filter(|&i| eight[i] == PENDING);
            pending.extend(at.map(|i| 8 * w + i));
        }
    }
    pending
}

/// Sorts all suffixes by their first 32 bases, returns the unsorted groups (in SA
/// order); where `context` is given, records the rows into it and returns the k-mer
/// runs that buckets share ([`RowContext::count`]).
fn initial_sort<I: SaIndex>(
    text: &PackedText,
    sa: &mut [I],
    context: Option<&RowContext<'_, I>>,
) -> (Vec<Group<I>>, Vec<(u32, I)>) {
    let n = text.len();
    let bucket_of = |p: usize| (text.key64(p) >> (64 - 2 * BUCKET_BASES)) as usize;

    // Counting pass over chunks of positions, then a scatter into bucket order.
    let chunk = n.div_ceil(rayon::current_num_threads() * 4).max(1 << 16);
    let chunks: Vec<(usize, usize)> = (0..n)
        .step_by(chunk)
        .map(|s| (s, (s + chunk).min(n)))
        .collect();
    let histograms: Vec<Vec<u32>> = chunks
        .par_iter()
        .map(|&(s, e)| {
            let mut h = vec![0u32; BUCKET_COUNT];
            for p in s..e {
                h[bucket_of(p)] += 1;
            }
            h
        })
        .collect();
    let mut bucket_start = vec![0usize; BUCKET_COUNT + 1];
    let mut chunk_offsets = vec![vec![0usize; BUCKET_COUNT]; chunks.len()];
    let mut total = 0usize;
    for b in 0..BUCKET_COUNT {
        bucket_start[b] = total;
        for (c, h) in histograms.iter().enumerate() {
            chunk_offsets[c][b] = total;
            total += h[b] as usize;
        }
    }
    bucket_start[BUCKET_COUNT] = total;
    drop(histograms);
    {
        let out = DisjointSlice::new(sa);
        chunks
            .par_iter()
            .zip(chunk_offsets.par_iter_mut())
            .for_each(|(&(s, e), offsets)| {
                for p in s..e {
                    let b = bucket_of(p);
                    // SAFETY: each (chunk, bucket) pair owns its own range of slots.
                    unsafe { out.write(offsets[b], I::from_usize(p)) };
                    offsets[b] += 1;
                }
            });
    }

    // Sort each bucket by the full 32-base key.
    let buckets: Vec<(usize, usize)> = (0..BUCKET_COUNT)
        .map(|b| (bucket_start[b], bucket_start[b + 1]))
        .filter(|(s, e)| e > s)
        .collect();
    let sa_out = DisjointSlice::new(sa);
    let sorted = buckets
        .par_iter()
        .fold(
            || (Vec::new(), Vec::new(), (Keyed::<I>::new(), Vec::new())),
            |(mut groups, mut runs, (mut pairs, mut scratch)), &(s, e)| {
                pairs.clear();
                // SAFETY: a bucket's SA range belongs to it alone.
                pairs.extend((s..e).map(|k| (0, unsafe { sa_out.get(k) })));
                let bits = 64 - 2 * BUCKET_BASES as u32;
                let sorting = (&mut pairs, &mut scratch);
                match context {
                    Some(c) => c.sort_bucket(text, sorting, (s, bits), (&sa_out, &mut runs)),
                    None => {
                        sort_by_bases(text, sorting, (0, bits));
                        for (i, &(_, p)) in pairs.iter().enumerate() {
                            unsafe { sa_out.write(s + i, p) };
                        }
                    }
                }
                let first_new = groups.len();
                split_by_bases(&pairs, (n, 0), s, &mut groups);
                if let Some(context) = context {
                    context.mark_pending(&groups[first_new..]);
                }
                (groups, runs, (pairs, scratch))
            },
        )
        .map(|(groups, runs, _)| (groups, runs));
    sorted.reduce(
        || (Vec::new(), Vec::new()),
        |(mut groups, mut runs), (mut more_groups, mut more_runs)| {
            groups.append(&mut more_groups);
            runs.append(&mut more_runs);
            (groups, runs)
        },
    )
}

/// Sorts the suffixes `pairs` (keys to be filled, positions) of at least `from` bases by
/// their bases `from..from + 32`, padded with `A` past the text's end, a suffix that
/// ends first before the longer ones with the same padded key (the sentinel's rule).
/// The keys' bits above `bits` are known to be equal.
fn sort_by_bases<I: SaIndex>(
    text: &PackedText,
    sorting: (&mut Keyed<I>, &mut Keyed<I>),
    (from, bits): (usize, u32),
) {
    sort_keys(text, sorting, (from, bits), 0);
}

/// [`sort_by_bases`] from base 0 (`bits <= 62`), calling `visit(i, pair, base)` with
/// each sorted pair and the base before its suffix. Read next to its key, the base
/// travels through the sort in the key's low bits, the equal top bits shifted out to
/// make room and put back as the pairs are visited.
fn sort_with_preceding<I: SaIndex>(
    text: &PackedText,
    (pairs, scratch): (&mut Keyed<I>, &mut Keyed<I>),
    bits: u32,
    mut visit: impl FnMut(usize, (u64, I), u8),
) {
    let Some(&(_, first)) = pairs.first() else {
        return;
    };
    let top = text.key64(first.to_usize()) >> bits;
    let spare = 64 - bits;
    sort_keys(text, (pairs, scratch), (0, bits), spare);
    for (i, pair) in pairs.iter_mut().enumerate() {
        let base = (pair.0 & 3) as u8;
        pair.0 = pair.0 >> spare | top << bits;
        visit(i, *pair, base);
    }
}

/// [`sort_by_bases`], each key shifted left by `spare` bits (its equal top bits) with
/// the base before its suffix in the low bits when `spare` is not 0 (from base 0 only).
fn sort_keys<I: SaIndex>(
    text: &PackedText,
    (pairs, scratch): (&mut Keyed<I>, &mut Keyed<I>),
    (from, bits): (usize, u32),
    spare: u32,
) {
    for i in 0..pairs.len() {
        if let Some(&(_, ahead)) = pairs.get(i + PREFETCH_DISTANCE) {
            prefetch(text.words(), (ahead.to_usize() + from) / 32);
        }
        let p = pairs[i].1;
        let key = text.key64(p.to_usize() + from);
        pairs[i].0 = match spare {
            0 => key,
            _ => key << spare | base_before(text, p) as u64,
        };
    }
    if pairs.len() >= LARGE_GROUP {
        pairs.par_sort_unstable_by_key(|p| p.0);
    } else {
        radix::sort_by_key(pairs, scratch, bits + spare);
    }
    let n = text.len();
    let short_start = n.saturating_sub(from + INITIAL_PREFIX - 1);
    if pairs.iter().any(|&(_, p)| p.to_usize() >= short_start) {
        pairs.sort_by_key(|&(key, p)| (key >> spare, bases_left((n, from), p)));
    }
}

/// Bases of the suffix at `p` from its base `from` on, at most 32 (`n`: the text's length).
#[inline]
fn bases_left<I: SaIndex>((n, from): (usize, usize), p: I) -> usize {
    (n - p.to_usize() - from).min(INITIAL_PREFIX)
}

/// Appends the runs of equal 32-base keys of length >= 2 in `pairs` (sorted by
/// [`sort_by_bases`] from base `from` of a text of `n` bases; SA indexes from `start`) as
/// groups; a suffix with fewer than 32 bases there is alone.
fn split_by_bases<I: SaIndex>(
    pairs: &[(u64, I)],
    (n, from): (usize, usize),
    start: usize,
    out: &mut Vec<Group<I>>,
) {
    let full = |p: I| bases_left((n, from), p) == INITIAL_PREFIX;
    let mut head = 0;
    for i in 1..=pairs.len() {
        let same = i < pairs.len()
            && pairs[i].0 == pairs[i - 1].0
            && full(pairs[i].1)
            && full(pairs[i - 1].1);
        if !same {
            if i - head >= 2 {
                out.push(Group::new(start + head, i - head));
            }
            head = i;
        }
    }
}

/// One extension round: every group (suffixes equal in their first `from` bases) sorted
/// by the next 32 bases and split; returns the groups still unsorted.
fn extension_round<I: SaIndex>(
    text: &PackedText,
    sa: &mut [I],
    groups: &[Group<I>],
    from: usize,
) -> Vec<Group<I>> {
    let n = sa.len();
    let sa_out = DisjointSlice::new(sa);
    let sort_group =
        |g: &Group<I>, pairs: &mut Keyed<I>, scratch: &mut Keyed<I>, found: &mut Vec<Group<I>>| {
            pairs.clear();
            // SAFETY: a group's SA slots belong to its task alone.
            pairs.extend((g.start()..g.start() + g.len()).map(|k| (0, unsafe { sa_out.get(k) })));
            sort_by_bases(text, (pairs, scratch), (from, 64));
            for (i, &(_, p)) in pairs.iter().enumerate() {
                unsafe { sa_out.write(g.start() + i, p) };
            }
            split_by_bases(pairs, (n, from), g.start(), found);
        };
    let mut next: Vec<Vec<Group<I>>> = groups
        .par_chunks(GROUP_BATCH)
        .map(|batch| {
            let (mut pairs, mut scratch, mut found) = (Vec::new(), Vec::new(), Vec::new());
            for g in batch.iter().filter(|g| g.len() < LARGE_GROUP) {
                sort_group(g, &mut pairs, &mut scratch, &mut found);
            }
            found
        })
        .collect();
    for g in groups.iter().filter(|g| g.len() >= LARGE_GROUP) {
        let mut found = Vec::new();
        sort_group(g, &mut Vec::new(), &mut Vec::new(), &mut found);
        next.push(found);
    }
    next.concat()
}

/// The rank of every suffix (by position) once the suffixes are sorted by their first
/// bases into `sa` with the unsorted `groups`: the SA index of its group's first member,
/// or its own where it is alone. One random write a suffix. Sorts `groups` by start.
fn ranks<I: SaIndex>(sa: &[I], groups: &mut [Group<I>]) -> Vec<I> {
    if !groups.is_sorted_by_key(Group::start) {
        groups.par_sort_unstable_by_key(Group::start);
    }
    let groups: &[Group<I>] = groups;
    let n = sa.len();
    let mut isa = huge_vec::<I>(n);
    let isa_out = DisjointSlice::new(&mut isa);
    let chunk = n.div_ceil(rayon::current_num_threads() * 4).max(1 << 16);
    (0..n).into_par_iter().step_by(chunk).for_each(|s| {
        let e = (s + chunk).min(n);
        let mut g = groups.partition_point(|g| g.start() + g.len() <= s);
        for i in s..e {
            while g < groups.len() && groups[g].start() + groups[g].len() <= i {
                g += 1;
            }
            let head = match groups.get(g) {
                Some(group) if group.start() <= i => group.start(),
                _ => i,
            };
            if let Some(ahead) = sa.get(i + PREFETCH_DISTANCE) {
                isa_out.prefetch(ahead.to_usize());
            }
            // SAFETY: sa is a permutation: each position is written once.
            unsafe { isa_out.write(sa[i].to_usize(), I::from_usize(head)) };
        }
    });
    isa
}

/// One doubling step at distance `h`: sorts every group by the rank `h` further on,
/// splits it, updates ranks, and returns the groups that are still unsorted.
///
/// Between the two phases each batch of groups keeps its sorted keys (one index a
/// suffix of the round, at most n), not an array of n keys, whose fresh pages the first
/// round faulted in at scattered places: chr20 on 2 threads, that round 0.23-0.29 s, and
/// the whole CPU index's peak 872 -> 646 MiB (BENCHMARKS.md, session 30).
fn doubling_round<I: SaIndex>(
    sa: &mut [I],
    isa: &mut [I],
    groups: &[Group<I>],
    h: usize,
) -> Vec<Group<I>> {
    let n = sa.len();
    let is_small = |g: &&Group<I>| g.len() < LARGE_GROUP;
    // Phase 1: keys from the old ranks, groups sorted and split. ISA is only read.
    let (sorted, next) = {
        let isa_ro: &[I] = isa;
        let key_of = |p: I| {
            let q = p.to_usize() + h;
            if q < n {
                I::from_usize(isa_ro[q].to_usize() + 1)
            } else {
                I::default()
            }
        };
        let sa_out = DisjointSlice::new(sa);
        let sort_small = |batch: &[Group<I>]| {
            // Gather the whole batch's keys in one pass, prefetching the rank reads
            // (they miss the cache: this loop is memory-latency bound).
            let mut pairs: Vec<(I, I)> = Vec::new();
            for g in batch.iter().filter(is_small) {
                // SAFETY: a group's SA slots belong to its task alone.
                pairs.extend(
                    (g.start()..g.start() + g.len())
                        .map(|k| (I::default(), unsafe { sa_out.get(k) })),
                );
            }
            for i in 0..pairs.len() {
                if let Some(&(_, ahead)) = pairs.get(i + PREFETCH_DISTANCE) {
                    prefetch(isa_ro, ahead.to_usize() + h);
                }
                pairs[i].0 = key_of(pairs[i].1);
            }
            let mut found = Vec::new();
            let mut offset = 0;
            for g in batch.iter().filter(is_small) {
                let group = &mut pairs[offset..offset + g.len()];
                offset += g.len();
                if group.len() == 2 {
                    if group[0] > group[1] {
                        group.swap(0, 1);
                    }
                } else {
                    group.sort_unstable();
                }
                for (i, &(_, p)) in group.iter().enumerate() {
                    unsafe { sa_out.write(g.start() + i, p) };
                }
                split(group, g.start(), &mut found);
            }
            (found, pairs.iter().map(|&(key, _)| key).collect())
        };
        let (mut next, mut sorted): (Vec<Vec<Group<I>>>, Vec<Vec<I>>) =
            groups.par_chunks(GROUP_BATCH).map(sort_small).unzip();
        for g in groups.iter().filter(|g| g.len() >= LARGE_GROUP) {
            let range = g.start()..g.start() + g.len();
            let mut pairs: Vec<(I, I)> = range
                .clone()
                .into_par_iter()
                .map(|k| {
                    let p = unsafe { sa_out.get(k) };
                    (key_of(p), p)
                })
                .collect();
            pairs.par_sort_unstable();
            pairs
                .par_iter()
                .enumerate()
                .for_each(|(i, &(_, p))| unsafe { sa_out.write(g.start() + i, p) });
            let mut found = Vec::new();
            split(&pairs, g.start(), &mut found);
            next.push(found);
            sorted.push(pairs.par_iter().map(|&(key, _)| key).collect());
        }
        (sorted, next.concat())
    };
    // Phase 2: new ranks (subgroup heads). Members of a group's first subgroup keep
    // the group's head as rank, so only the later subgroups are written. The small
    // groups' keys come batch by batch, then each large group's.
    let batches = groups.len().div_ceil(GROUP_BATCH);
    let large = groups.iter().filter(|g| g.len() >= LARGE_GROUP);
    let sa: &[I] = sa;
    let isa_out = DisjointSlice::new(isa);
    let rank = |members: &mut dyn Iterator<Item = &Group<I>>, keys: &[I]| {
        let mut offset = 0;
        for g in members {
            let group = &keys[offset..offset + g.len()];
            offset += g.len();
            let mut head = 0;
            for k in 1..group.len() {
                if group[k] != group[k - 1] {
                    head = k;
                }
                if head != 0 {
                    let p = sa[g.start() + k].to_usize();
                    // SAFETY: the suffixes of different groups are different positions.
                    unsafe { isa_out.write(p, I::from_usize(g.start() + head)) };
                }
            }
        }
    };
    groups
        .par_chunks(GROUP_BATCH)
        .zip(&sorted[..batches])
        .for_each(|(batch, keys)| rank(&mut batch.iter().filter(is_small), keys));
    for (g, keys) in large.zip(&sorted[batches..]) {
        rank(&mut std::iter::once(g), keys);
    }
    next
}

/// Appends the runs of equal keys of length >= 2 in a sorted group as new groups.
fn split<I: SaIndex>(pairs: &[(I, I)], start: usize, out: &mut Vec<Group<I>>) {
    let mut head = 0;
    for i in 1..=pairs.len() {
        if i == pairs.len() || pairs[i].0 != pairs[head].0 {
            if i - head >= 2 {
                out.push(Group::new(start + head, i - head));
            }
            head = i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force(codes: &[u8]) -> Vec<u32> {
        let mut sa: Vec<u32> = (0..codes.len() as u32).collect();
        sa.sort_by(|&a, &b| codes[a as usize..].cmp(&codes[b as usize..]));
        sa
    }

    /// Extension budgets that send the sort to doubling at once, after a round or two,
    /// by default, and never.
    fn budgets(n: usize) -> [usize; 4] {
        [0, n / 8, (EXTENSION_BUDGET * n as f64) as usize, usize::MAX]
    }

    fn check(codes: &[u8]) {
        let text = PackedText::from_codes(codes);
        let expect = brute_force(codes);
        for budget in budgets(codes.len()) {
            let got: Vec<u32> = sort_within(&text, budget, None).sa;
            assert_eq!(
                got,
                expect,
                "budget {budget}, text {:?}",
                &codes[..codes.len().min(80)]
            );
            let got64: Vec<u64> = sort_within(&text, budget, None).sa;
            assert!(got64.iter().zip(&got).all(|(&a, &b)| a == b as u64));
            for k in [1, 6, 11] {
                check_rows(codes, &sort_within(&text, budget, Some(k)), &expect);
            }
        }
    }

    /// `sorted` against the brute-force suffix array `expect` of `codes`: the same
    /// suffix array, each row's preceding base, the k-mer counts.
    fn check_rows(codes: &[u8], sorted: &SortedSuffixes<u32>, expect: &[u32]) {
        assert_eq!(sorted.sa, expect);
        let preceding: Vec<u8> = expect
            .iter()
            .map(|&p| if p == 0 { 0 } else { codes[p as usize - 1] })
            .collect();
        let k = sorted.kmer_counts.len().trailing_zeros() / 2;
        assert_eq!(sorted.preceding, preceding, "k {k}");
        let code = |kmer: &[u8]| kmer.iter().fold(0u32, |c, &b| c << 2 | b as u32);
        let mut want = std::collections::BTreeMap::new();
        for kmer in codes.windows(k as usize) {
            *want.entry(code(kmer)).or_insert(0u32) += 1;
        }
        let mut got = std::collections::BTreeMap::new();
        for (code, &rows) in sorted.kmer_counts.iter().enumerate() {
            if rows > 0 {
                got.insert(code as u32, rows);
            }
        }

        assert_eq!(got, want, "k {k}, {} bases", codes.len());
    }

    fn libsais(codes: &[u8]) -> Vec<i32> {
        use libsais::{SuffixArrayConstruction, ThreadCount};
        let ascii: Vec<u8> = codes.iter().map(|&c| b"ACGT"[c as usize]).collect();
        SuffixArrayConstruction::for_text(&ascii)
            .in_owned_buffer()
            .multi_threaded(ThreadCount::fixed(2))
            .run()
            .expect("libsais")
            .into_vec()
    }

    fn random_codes(state: &mut u64, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| {
                *state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (*state >> 62) as u8
            })
            .collect()
    }

    /// A group of more than [`LARGE_GROUP`] suffixes (one 32-base word before each of
    /// 70,000 random 8-base tails) sorted by extension rounds or by doubling, against
    /// libsais; and the groups left by some extension rounds (four copies of a
    /// 3,000-base unit, one base in 256 changed in each, beside 60,000 random bases: by
    /// default two rounds, then doubling) ranked and doubled.
    #[test]
    fn extension_rounds_with_large_groups_and_doubling_after_them() {
        let mut state = 7u64;
        let word = random_codes(&mut state, 32);
        let mut shared_word = Vec::new();
        for _ in 0..70_000 {
            shared_word.extend(&word);
            shared_word.extend(random_codes(&mut state, 8));
        }
        let unit = random_codes(&mut state, 3_000);
        let mut copies = random_codes(&mut state, 60_000);
        for _ in 0..4 {
            let mut copy = unit.clone();
            for base in copy.iter_mut() {
                if random_codes(&mut state, 4) == [0; 4] {
                    *base = 3 - *base;
                }
            }
            copies.extend(copy);
        }
        for codes in [shared_word, copies] {
            let text = PackedText::from_codes(&codes);
            let expect = libsais(&codes);
            // Also exactly one extension round, then doubling: the large group's
            // subgroups come after the small groups' (the ranks sort them by start).
            let (initial, _) = initial_sort::<u32>(&text, &mut vec![0; codes.len()], None);
            let one_round = initial.iter().map(Group::len).sum();
            for budget in budgets(codes.len()).into_iter().chain([one_round]) {
                let sorted: SortedSuffixes<u32> = sort_within(&text, budget, Some(11));
                let got = &sorted.sa;
                assert_eq!(got.len(), expect.len());
                assert!(
                    got.iter().zip(&expect).all(|(&a, &b)| a as i64 == b as i64),
                    "budget {budget}, {} bases",
                    codes.len()
                );
                check_rows(&codes, &sorted, got);
            }
        }
    }

    #[test]
    fn tiny_and_degenerate_texts() {
        for len in 0..80 {
            check(&vec![0u8; len]);
            check(&vec![3u8; len]);
            check(&(0..len).map(|i| (i % 2) as u8).collect::<Vec<_>>());
            check(&(0..len).map(|i| (i % 4) as u8).collect::<Vec<_>>());
            check(&(0..len).map(|i| 3 - (i % 3) as u8).collect::<Vec<_>>());
            // Tandem repeat: a 7-base unit with one substitution every 23 bases.
            check(
                &(0..len)
                    .map(|i| {
                        if i % 23 == 5 {
                            1
                        } else {
                            [0, 2, 3, 3, 1, 0, 2][i % 7]
                        }
                    })
                    .collect::<Vec<_>>(),
            );
        }
    }

    /// Rounds that hold large groups (sorted one at a time) beside many small ones
    /// (sorted in batches), whose keys phase 2 finds apart: against libsais, a text too
    /// long for the brute force.
    #[test]
    fn large_and_small_groups_in_the_same_rounds() {
        use libsais::{SuffixArrayConstruction, ThreadCount};
        let mut state = 99u64;
        let mut random = |len: usize| -> Vec<u8> {
            (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 62) as u8
                })
                .collect()
        };
        let unit = random(700);
        let mut codes = random(20_000);
        for copy in 0..40 {
            codes.extend(&unit);
            codes.push((copy % 4) as u8); // 40 copies of 700 bases: small groups until h = 512
        }
        codes.extend(std::iter::repeat_n(0u8, LARGE_GROUP + 5_000));
        codes.extend(random(10_000));
        codes.extend((0..2 * LARGE_GROUP + 6_000).map(|i| [1u8, 2][i % 2]));
        codes.extend(random(5_000));
        let text = PackedText::from_codes(&codes);
        let got: Vec<u32> = suffix_array(&text);
        let ascii: Vec<u8> = codes.iter().map(|&c| b"ACGT"[c as usize]).collect();
        let expect: Vec<i32> = SuffixArrayConstruction::for_text(&ascii)
            .in_owned_buffer()
            .multi_threaded(ThreadCount::fixed(2))
            .run()
            .expect("libsais")
            .into_vec();
        assert!(got.iter().zip(&expect).all(|(&a, &b)| a as i64 == b as i64));
        assert_eq!(got.len(), expect.len());
    }

    #[test]
    fn random_texts_of_many_lengths() {
        let mut state = 12345u64;
        for len in [1, 2, 3, 31, 32, 33, 63, 64, 65, 100, 1000, 5000, 70_000] {
            for alphabet in [1u64, 2, 4] {
                let codes: Vec<u8> = (0..len)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        ((state >> 33) % alphabet) as u8
                    })
                    .collect();
                check(&codes);
            }
        }
    }
}
