//! bwa mem's chaining (`mem_chain`, bwamem.c 0.7.17): each occurrence of each seed
//! (sampled down to `-c` for frequent ones) added to the closest chain that starts at or
//! before it, if it fits there (`test_and_merge`), else made a chain of its own; the
//! chains kept in bwa's B-tree ([`super::kbtree`]) and listed in its order.

use super::kbtree::{KbTree, Key};
use super::MemOptions;
use crate::fmd::BwaIndex;
use crate::seed::Smem;

/// One occurrence of a seed (`mem_seed_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seed {
    /// Its start in the forward-then-reverse-complement text (`l_pac` and beyond: the
    /// reverse strand).
    pub rbeg: i64,
    /// Its start in the read.
    pub qbeg: i32,
    /// Its length.
    pub len: i32,
    /// Its score (its length, as bwa sets it for reads too short for the seed filter).
    pub score: i32,
}

/// A chain of seeds (`mem_chain_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct Chain {
    /// Its seeds, in the order they joined.
    pub seeds: Vec<Seed>,
    /// Its first seed's `rbeg`, its key in the tree.
    pub pos: i64,
    /// The contig all its seeds lie in.
    pub rid: usize,
    /// Whether that contig is an ALT contig (named in `PREFIX.alt`).
    pub is_alt: bool,
    /// Its weight ([`weight`]; set by the filter).
    pub w: u32,
    /// The filter's verdict: 3 kept, 2 kept though overlapping a heavier chain, 1 the
    /// first chain a kept one shadows, 0 dropped.
    pub kept: u8,
    /// The first chain this one shadows, an index into the filtered chains (-1: none).
    pub first: i32,
    /// The share of the read covered by seeds with more than `-c` occurrences.
    pub frac_rep: f32,
}

/// `bns_depos`: the forward position of `rbeg` and whether it is on the reverse strand.
pub fn depos(l_pac: i64, rbeg: i64) -> (i64, bool) {
    match rbeg >= l_pac {
        true => ((l_pac << 1) - 1 - rbeg, true),
        false => (rbeg, false),
    }
}

/// `bns_intv2rid`: the contig holding all of `rb..re`, `None` where it crosses a contig
/// boundary or the strands' boundary.
pub fn contig_of_span(index: &BwaIndex, rb: i64, re: i64) -> Option<usize> {
    let contigs = &index.contigs;
    let l_pac = contigs.l_pac as i64;
    if rb < l_pac && re > l_pac {
        return None;
    }
    let rid = |pos: i64| contigs.contig_of(depos(l_pac, pos).0 as u64);
    let rid_b = rid(rb);
    let rid_e = if rb < re { rid(re - 1) } else { rid_b };
    (rid_b == rid_e).then_some(rid_b)
}

/// The share of the read covered by seeds with more than `-c` occurrences.
fn repetitive_share(seeds: &[Smem], opt: &MemOptions, len: usize) -> f32 {
    let (mut b, mut e, mut l_rep) = (0i64, 0i64, 0i64);
    for p in seeds
        .iter()
        .filter(|p| p.interval.size > opt.max_occ as i64 as u64)
    {
        let (sb, se) = (p.begin as i64, p.end as i64);
        if sb > e {
            l_rep += e - b;
            (b, e) = (sb, se);
        } else {
            e = e.max(se);
        }
    }
    l_rep += e - b;
    l_rep as f32 / len as f32
}

/// The chains of a read of `len` bases from its seeds (in [`super::seeds`]'s order),
/// in bwa's order (by position); `alt[rid]` says which contigs are ALT contigs.
pub fn chains(
    index: &BwaIndex,
    alt: &[bool],
    seeds: &[Smem],
    len: usize,
    opt: &MemOptions,
) -> Vec<Chain> {
    if (len as i64) < i64::from(opt.min_seed_len) {
        return Vec::new();
    }
    let frac_rep = repetitive_share(seeds, opt, len);
    let mut tree = KbTree::default();
    let mut all: Vec<Chain> = Vec::new();
    for p in seeds {
        let size = p.interval.size;
        let max_occ = opt.max_occ as i64 as u64;
        let step = if size > max_occ {
            (size / max_occ) as i32 as i64 as u64
        } else {
            1
        };
        let (mut k, mut count) = (0u64, 0i64);
        while k < size && count < i64::from(opt.max_occ) {
            let slen = (p.end - p.begin) as i32;
            let seed = Seed {
                rbeg: index.sa.locate(&index.bwt, p.interval.k + k) as i64,
                qbeg: p.begin as i32,
                len: slen,
                score: slen,
            };
            add_seed(index, alt, opt, &mut tree, &mut all, seed);
            k = k.wrapping_add(step);
            count += 1;
        }
    }
    let mut out: Vec<Chain> = Vec::with_capacity(all.len());
    let mut slots: Vec<Option<Chain>> = all.into_iter().map(Some).collect();
    for key in tree.in_order() {
        let mut chain = slots[key.id].take().expect("each chain once in the tree");
        chain.frac_rep = frac_rep;
        out.push(chain);
    }
    out
}

/// Adds `seed` to the closest chain at or before it, or as a chain of its own.
fn add_seed(
    index: &BwaIndex,
    alt: &[bool],
    opt: &MemOptions,
    tree: &mut KbTree,
    all: &mut Vec<Chain>,
    seed: Seed,
) {
    let Some(rid) = contig_of_span(index, seed.rbeg, seed.rbeg + i64::from(seed.len)) else {
        return; // across contigs or strands: bwa drops it
    };
    let l_pac = index.contigs.l_pac as i64;
    if let Some(lower) = tree.lower(seed.rbeg) {
        if test_and_merge(opt, l_pac, &mut all[lower.id], &seed, rid) {
            return;
        }
    }
    tree.insert(Key {
        pos: seed.rbeg,
        id: all.len(),
    });
    all.push(Chain {
        seeds: vec![seed],
        pos: seed.rbeg,
        rid,
        is_alt: alt.get(rid).copied().unwrap_or(false),
        w: 0,
        kept: 0,
        first: -1,
        frac_rep: 0.0,
    });
}

/// `test_and_merge`: whether `p` joins chain `c` (contained in it, or close to its last
/// seed on the same diagonal band and strand), appending it where it extends the chain.
fn test_and_merge(opt: &MemOptions, l_pac: i64, c: &mut Chain, p: &Seed, rid: usize) -> bool {
    let first = c.seeds[0];
    let last = *c.seeds.last().expect("a chain has a seed");
    let qend = i64::from(last.qbeg + last.len);
    let rend = last.rbeg + i64::from(last.len);
    if rid != c.rid {
        return false;
    }
    let (pq, pl) = (i64::from(p.qbeg), i64::from(p.len));
    if pq >= i64::from(first.qbeg) && pq + pl <= qend && p.rbeg >= first.rbeg && p.rbeg + pl <= rend
    {
        return true; // contained
    }
    if (last.rbeg < l_pac || first.rbeg < l_pac) && p.rbeg >= l_pac {
        return false; // the other strand
    }
    let x = pq - i64::from(last.qbeg);
    let y = p.rbeg - last.rbeg;
    let (w, gap, ll) = (
        i64::from(opt.band_width),
        i64::from(opt.max_chain_gap),
        i64::from(last.len),
    );
    if y >= 0 && x - y <= w && y - x <= w && x - ll < gap && y - ll < gap {
        c.seeds.push(*p);
        return true;
    }
    false
}

/// `mem_chain_weight`: the bases of the read its seeds cover, or of the reference if
/// fewer, at most 2^30 - 1.
pub fn weight(c: &Chain) -> u32 {
    let covered = |start: fn(&Seed) -> i64| {
        let (mut w, mut end) = (0i64, 0i64);
        for s in &c.seeds {
            let (b, l) = (start(s), i64::from(s.len));
            if b >= end {
                w += l;
            } else if b + l > end {
                w += b + l - end;
            }
            end = end.max(b + l);
        }
        w
    };
    let w = covered(|s| i64::from(s.qbeg)).min(covered(|s| s.rbeg));
    w.min((1 << 30) - 1) as u32
}
