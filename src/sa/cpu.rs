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

use rayon::prelude::*;

use super::{radix, SaIndex, INITIAL_PREFIX};
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
    suffix_array_within(text, (EXTENSION_BUDGET * text.len() as f64) as usize)
}

/// [`suffix_array`] whose extension rounds sort at most `budget` suffixes in all.
fn suffix_array_within<I: SaIndex>(text: &PackedText, mut budget: usize) -> Vec<I> {
    let n = text.len();
    assert!(
        n as u64 <= I::MAX_TEXT,
        "text of {n} bases is too long for this index type"
    );
    let mut sa = vec![I::default(); n];
    if n == 0 {
        return sa;
    }
    let mut groups = initial_sort(text, &mut sa);
    let mut sorted_by = INITIAL_PREFIX;
    while !groups.is_empty() {
        let members: usize = groups.iter().map(Group::len).sum();
        if members > budget {
            break;
        }
        budget -= members;
        groups = extension_round(text, &mut sa, &groups, sorted_by);
        sorted_by += INITIAL_PREFIX;
    }
    if groups.is_empty() {
        return sa;
    }
    let mut isa = ranks(&sa, &mut groups);
    let mut h = sorted_by;
    while !groups.is_empty() {
        groups = doubling_round(&mut sa, &mut isa, &groups, h);
        h = h.saturating_mul(2);
    }
    sa
}

/// Sorts all suffixes by their first 32 bases, returns the unsorted groups (in SA order).
fn initial_sort<I: SaIndex>(text: &PackedText, sa: &mut [I]) -> Vec<Group<I>> {
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
    buckets
        .par_iter()
        .fold(
            || (Vec::new(), Keyed::<I>::new(), Vec::new()),
            |(mut groups, mut pairs, mut scratch), &(s, e)| {
                pairs.clear();
                // SAFETY: a bucket's SA range belongs to it alone.
                pairs.extend((s..e).map(|k| (0, unsafe { sa_out.get(k) })));
                let bits = 64 - 2 * BUCKET_BASES as u32;
                sort_by_bases(text, (&mut pairs, &mut scratch), 0, bits);
                for (i, &(_, p)) in pairs.iter().enumerate() {
                    unsafe { sa_out.write(s + i, p) };
                }
                split_by_bases(&pairs, (n, 0), s, &mut groups);
                (groups, pairs, scratch)
            },
        )
        .map(|(groups, _, _)| groups)
        .reduce(Vec::new, |mut a, mut b| {
            a.append(&mut b);
            a
        })
}

/// Sorts the suffixes `pairs` (keys to be filled, positions) of at least `from` bases by
/// their bases `from..from + 32`, padded with `A` past the text's end, a suffix that
/// ends first before the longer ones with the same padded key (the sentinel's rule).
/// The keys' bits above `bits` are known to be equal.
fn sort_by_bases<I: SaIndex>(
    text: &PackedText,
    (pairs, scratch): (&mut Keyed<I>, &mut Keyed<I>),
    from: usize,
    bits: u32,
) {
    for i in 0..pairs.len() {
        if let Some(&(_, ahead)) = pairs.get(i + PREFETCH_DISTANCE) {
            prefetch(text.words(), (ahead.to_usize() + from) / 32);
        }
        pairs[i].0 = text.key64(pairs[i].1.to_usize() + from);
    }
    if pairs.len() >= LARGE_GROUP {
        pairs.par_sort_unstable_by_key(|p| p.0);
    } else {
        radix::sort_by_key(pairs, scratch, bits);
    }
    let n = text.len();
    let short_start = n.saturating_sub(from + INITIAL_PREFIX - 1);
    if pairs.iter().any(|&(_, p)| p.to_usize() >= short_start) {
        pairs.sort_by_key(|&(key, p)| (key, bases_left((n, from), p)));
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
            sort_by_bases(text, (pairs, scratch), from, 64);
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
    let mut isa = vec![I::default(); n];
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
            let got: Vec<u32> = suffix_array_within(&text, budget);
            assert_eq!(
                got,
                expect,
                "budget {budget}, text {:?}",
                &codes[..codes.len().min(80)]
            );
            let got64: Vec<u64> = suffix_array_within(&text, budget);
            assert!(got64.iter().zip(&got).all(|(&a, &b)| a == b as u64));
        }
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
            let initial = initial_sort::<u32>(&text, &mut vec![0; codes.len()]);
            let one_round = initial.iter().map(Group::len).sum();
            for budget in budgets(codes.len()).into_iter().chain([one_round]) {
                let got: Vec<u32> = suffix_array_within(&text, budget);
                assert_eq!(got.len(), expect.len());
                assert!(
                    got.iter().zip(&expect).all(|(&a, &b)| a as i64 == b as i64),
                    "budget {budget}, {} bases",
                    codes.len()
                );
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
