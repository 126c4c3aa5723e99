//! A CPU model of the GPU doubling rounds of `src/gpu/sa/doubling.rs` with the bound of
//! `auto` (`Bounded`): ranks are group heads, the unsorted suffixes are listed
//! group by group in suffix-array order, and a round goes over the list in chunks of
//! whole groups (cut where `list_cut` cuts, by the heads), each chunk sorting its groups
//! by `rank(p + h) + 1` and writing its new ranks before the next chunk reads its keys.
//! The next chunk may so read ranks refined in the same round; the model checks, where
//! no GPU is, that this still gives the suffix array (the CPU's), for chunks of many
//! sizes and the repeat-rich texts that make the GPU build chunk its rounds.
//!
//! The same rounds over the DC3 sample's indexes (the hybrid's `doubling::sort_elements`
//! with `Elements { n0 }`, skew.rs's layout, `element_pos` and `element_from_top` of
//! `kernels/sa/doubling.cu`) give the sample's order in the suffix array: a shift by one
//! index is a shift by three positions, and no listed suffix's shift leaves its part of
//! the sample.

mod common;

use common::Rng;
use galign::reference::PackedText;

/// Bases in one initial sort key (`KEY_BASES` in doubling.rs).
const KEY_BASES: usize = 16;

/// The suffix array of `codes` by the bounded doubling rounds after an initial sort of
/// `passes` (1 or 2) stable sorts by 16-base keys, as doubling.rs sorts; chunks of at
/// most `chunk` list elements (a group longer than that is a chunk of its own, here: the
/// GPU build gives such texts to skew).
fn model(codes: &[u8], chunk: usize, passes: usize) -> Vec<u32> {
    let n = codes.len();
    let order = (0..n).rev().collect();
    let sa = sort_elements(codes, (order, |p| p, 1), chunk, passes);
    sa.iter().map(|&p| p as u32).collect()
}

/// The DC3 sample's indexes (index `j < n0` is position `3j + 1`, with a dummy at `n`
/// when `n mod 3 == 1`, `j >= n0` is `3(j - n0) + 2`) in the order of their suffixes, as
/// [`model`] sorts positions, over sample indexes whose steps are three positions.
fn sample_model(codes: &[u8], chunk: usize, passes: usize) -> Vec<usize> {
    let n = codes.len();
    let n0 = n.div_ceil(3);
    let count = n0 + n / 3;
    let pos = |j: usize| if j < n0 { 3 * j + 1 } else { 3 * (j - n0) + 2 };
    // `element_from_top`: the r-th smallest position that is not a multiple of 3.
    let from_top = |k: usize| {
        let r = count - 1 - k;
        let p = r + r / 2 + 1;
        if p % 3 == 1 {
            p / 3
        } else {
            n0 + p / 3
        }
    };
    let order: Vec<usize> = (0..count).map(from_top).collect();
    assert!(
        order.windows(2).all(|w| pos(w[0]) > pos(w[1])),
        "decreasing positions"
    );
    sort_elements(codes, (order, pos, 3), chunk, passes)
}

/// `doubling::sort_elements`: the elements (`order`: all of them, in decreasing order of
/// their positions `pos`, whose shift by one element is `stride` positions) sorted by
/// their suffixes; the initial sort of `passes` 16-base keys, then the rounds in chunks
/// of at most `chunk` from `16 * passes / stride` steps.
fn sort_elements(
    codes: &[u8],
    (order, pos, stride): (Vec<usize>, impl Fn(usize) -> usize, usize),
    chunk: usize,
    passes: usize,
) -> Vec<usize> {
    let (n, count) = (codes.len(), order.len());
    let key = |p: usize| -> u64 {
        (0..KEY_BASES).fold(0, |k, i| k << 2 | *codes.get(p + i).unwrap_or(&0) as u64)
    };
    let prefix = KEY_BASES * passes;
    // Initial sort, fed in decreasing position order: the bases after the first 16
    // (with two passes), then stably the first 16.
    let mut sa = order;
    if passes == 2 {
        sa.sort_by_key(|&j| key(pos(j) + KEY_BASES));
    }
    sa.sort_by_key(|&j| key(pos(j)));
    let prefix_key = |j: usize| {
        let p = pos(j);
        (key(p), if passes == 2 { key(p + KEY_BASES) } else { 0 })
    };
    let short = |j: usize| pos(j) + prefix > n;
    let mut isa = vec![0usize; count];
    let mut head = 0;
    for i in 0..count {
        let start = i == 0
            || prefix_key(sa[i]) != prefix_key(sa[i - 1])
            || short(sa[i])
            || short(sa[i - 1]);
        if start {
            head = i;
        }
        isa[sa[i]] = head;
    }
    // The elements in groups of two or more, as `init_ranks` keeps them.
    let grouped = |i: usize| isa[sa[i]] != i || (i + 1 < count && isa[sa[i + 1]] == i);
    let mut list: Vec<usize> = (0..count).filter(|&i| grouped(i)).map(|i| sa[i]).collect();
    let mut h = prefix / stride;
    while !list.is_empty() {
        let mut next = Vec::new();
        for range in cuts(&list, &isa, chunk) {
            next.extend(chunk_round(&list[range], h, &mut sa, &mut isa));
        }
        list = next;
        h *= 2;
    }
    sa
}

/// The chunks of a round: whole groups (runs of equal heads), at most `chunk` elements
/// each unless one group is longer.
fn cuts(list: &[usize], isa: &[usize], chunk: usize) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let mut start = 0;
    while start < list.len() {
        let mut end = (start + chunk).min(list.len());
        if end < list.len() {
            // The start of the group holding element `end` (binary search by head).
            let target = isa[list[end]];
            end = start + list[start..end].partition_point(|&p| isa[p] < target);
            if end == start {
                end = start + list[start..].partition_point(|&p| isa[p] == isa[list[start]]);
            }
        }
        ranges.push(start..end);
        start = end;
    }
    ranges
}

/// One chunk's part of a round at step `h`: sorts each group by `rank(p + h) + 1`,
/// writes new ranks (and the SA slots of suffixes now alone); returns the still unsorted
/// elements in their new order.
fn chunk_round(chunk: &[usize], h: usize, sa: &mut [usize], isa: &mut [usize]) -> Vec<usize> {
    let n = isa.len();
    // Keys first (all read before any rank of this chunk changes), as `seg_keys`.
    let keyed: Vec<(usize, u64, usize)> = chunk
        .iter()
        .map(|&p| {
            let next = if p + h < n { isa[p + h] as u64 + 1 } else { 0 };
            (isa[p], next, p)
        })
        .collect();
    let mut kept = Vec::new();
    let mut g = 0;
    while g < keyed.len() {
        let head = keyed[g].0;
        let end = g + keyed[g..].iter().take_while(|e| e.0 == head).count();
        let mut group = keyed[g..end].to_vec();
        group.sort_by_key(|&(_, next, p)| (next, p));
        let mut r = 0;
        while r < group.len() {
            let run_end = r + group[r..].iter().take_while(|e| e.1 == group[r].1).count();
            for (i, &(_, _, p)) in group[r..run_end].iter().enumerate() {
                isa[p] = head + r;
                if run_end - r == 1 {
                    sa[head + r + i] = p;
                } else {
                    kept.push(p);
                }
            }
            r = run_end;
        }
        g = end;
    }
    kept
}

/// Texts whose unsorted suffixes fill the GPU's rounds: random over 1, 2 and 4 letters,
/// short periods, 1%-mutated copies, tandem repeats.
fn texts() -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng(3);
    let mut rng = move || rng.next();
    let mut out = Vec::new();
    for (len, alphabet) in [(1, 4), (17, 1), (100, 2), (3000, 4), (3000, 2)] {
        let codes = (0..len).map(|_| (rng() % alphabet) as u8).collect();
        out.push((format!("random {len} over {alphabet}"), codes));
    }
    for period in [2usize, 3, 7] {
        let codes = (0..2000).map(|i| ((i % period) * 3 % 4) as u8).collect();
        out.push((format!("period {period}"), codes));
    }
    let unit: Vec<u8> = (0..500).map(|_| (rng() % 4) as u8).collect();
    let mut copies = Vec::new();
    for _ in 0..8 {
        copies.extend(unit.iter().map(|&c| {
            if rng().is_multiple_of(100) {
                (rng() % 4) as u8
            } else {
                c
            }
        }));
    }
    out.push(("8 mutated copies of 500".into(), copies));
    let mut tandem = Vec::new();
    while tandem.len() < 4000 {
        tandem.extend(&unit[..37]);
        tandem.push((rng() % 4) as u8);
    }
    out.push(("tandem repeats of 37".into(), tandem));
    out
}

#[test]
fn chunked_rounds_give_the_suffix_array() {
    for (what, codes) in texts() {
        let want: Vec<u32> = galign::sa::suffix_array(&PackedText::from_codes(&codes));
        for chunk in [1, 2, 7, 64, 1000, usize::MAX] {
            for passes in [1, 2] {
                let got = model(&codes, chunk, passes);
                assert_eq!(got, want, "{what}, chunks of {chunk}, {passes} passes");
            }
        }
    }
}

#[test]
fn rounds_over_the_dc3_sample_give_its_order() {
    let mut texts = texts();
    let mut rng = Rng(9);
    for len in 1..=60 {
        let codes = (0..len).map(|_| (rng.next() % 2) as u8).collect();
        texts.push((format!("random {len} over 2"), codes));
    }
    for (what, codes) in texts {
        let n = codes.len();
        let n0 = n.div_ceil(3);
        let sa: Vec<u32> = galign::sa::suffix_array(&PackedText::from_codes(&codes));
        // The sample's suffixes in suffix order, the dummy's (empty) first.
        let dummy = (n % 3 == 1).then_some(n0 - 1);
        let index = |p: usize| if p % 3 == 1 { p / 3 } else { n0 + p / 3 };
        let sampled = sa.iter().map(|&p| p as usize).filter(|p| p % 3 != 0);
        let want: Vec<usize> = dummy.into_iter().chain(sampled.map(index)).collect();
        for chunk in [1, 7, 1000, usize::MAX] {
            for passes in [1, 2] {
                let got = sample_model(&codes, chunk, passes);
                assert_eq!(got, want, "{what}, chunks of {chunk}, {passes} passes");
            }
        }
    }
}
