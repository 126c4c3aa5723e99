//! Super-maximal exact matches as bwa finds them: `smem_next`'s walk along the read
//! over bwa's `bwt_smem1a`, step for step (its containment test, the order of its
//! matches, its `-i` and `-I` cut-offs, and the interval size it tests `-I` against,
//! which is whichever it last held), over the FMD index ([`crate::fmd`]) with bwa's
//! bidirectional extension (`bwt_extend`).

use crate::fmd::bwt::Bwt;

/// A bidirectional interval: the rows `k..k + size` whose suffixes start with a match,
/// the rows `l..l + size` whose suffixes start with its reverse complement (bwa's
/// `bwtintv_t::x`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interval {
    /// The first row of the match.
    pub k: u64,
    /// The first row of its reverse complement.
    pub l: u64,
    /// The rows of either: the match's occurrences on both strands.
    pub size: u64,
}

/// One SMEM of a read: its bases `begin..end` and their interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Smem {
    /// The first base of the match in the read (0-based).
    pub begin: usize,
    /// One past its last base.
    pub end: usize,
    /// Its rows.
    pub interval: Interval,
}

/// bwa's interval with its `info`: the match's end in the low 32 bits, its start in the
/// high 32 once known.
#[derive(Clone, Copy, Default)]
struct Tagged {
    x: [u64; 3],
    info: u64,
}

/// The cut-offs of the search (bwa fastmap's `-i` and `-I`).
#[derive(Clone, Copy, Debug)]
pub struct SmemConfig {
    /// The least interval size a match is extended to (`-i`; below 1 is 1).
    pub min_intv: i32,
    /// A match whose interval is smaller than this is not extended further (`-I`; 0:
    /// no such cut-off).
    pub max_intv: u64,
}

impl Default for SmemConfig {
    /// bwa's: `-i 1`, `-I 0`.
    fn default() -> SmemConfig {
        SmemConfig {
            min_intv: 1,
            max_intv: 0,
        }
    }
}

/// The search's buffers, kept from read to read (bwa's `smem_i`).
#[derive(Default)]
pub struct SmemFinder {
    config: SmemConfig,
    prev: Vec<Tagged>,
    curr: Vec<Tagged>,
    mem: Vec<Tagged>,
}

/// The interval of base `c` alone (bwa's `bwt_set_intv`).
#[inline(always)]
pub(super) fn base_interval(bwt: &Bwt, c: u8) -> [u64; 3] {
    let c = usize::from(c);
    [bwt.l2[c] + 1, bwt.l2[3 - c] + 1, bwt.l2[c + 1] - bwt.l2[c]]
}

/// The intervals of `ik` extended by each base, backward (`back`: the base before the
/// match) or forward (after it, through the reverse complement's rows): bwa's
/// `bwt_extend`.
#[inline(always)]
pub(super) fn extend(bwt: &Bwt, ik: &[u64; 3], back: bool) -> [[u64; 3]; 4] {
    let (f, b) = if back { (0, 1) } else { (1, 0) };
    let start = ik[f].wrapping_sub(1);
    let tk = bwt.occ4(start);
    let tl = bwt.occ4(start.wrapping_add(ik[2]));
    let mut ok = [[0u64; 3]; 4];
    for c in 0..4 {
        ok[c][f] = bwt.l2[c] + 1 + tk[c];
        ok[c][2] = tl[c].wrapping_sub(tk[c]);
    }
    let last = ik[f].wrapping_add(ik[2]).wrapping_sub(1);
    let sentinel = u64::from(ik[f] <= bwt.primary && last >= bwt.primary);
    ok[3][b] = ik[b].wrapping_add(sentinel);
    for c in (0..3).rev() {
        ok[c][b] = ok[c + 1][b].wrapping_add(ok[c + 1][2]);
    }
    ok
}

impl SmemFinder {
    /// A finder with the cut-offs of `config`.
    pub fn new(config: SmemConfig) -> SmemFinder {
        SmemFinder {
            config,
            ..SmemFinder::default()
        }
    }

    /// Appends the SMEMs of `query` (bases as bwa codes them: 0-3 for A, C, G, T, 4 or
    /// more for any other) to `out`, in the order bwa fastmap prints them: each call of
    /// bwa's `smem_next` in turn, from the read's start, ambiguous bases skipped.
    #[inline(always)]
    pub fn smems(&mut self, bwt: &Bwt, query: &[u8], out: &mut Vec<Smem>) {
        let mut start = 0;
        while start < query.len() {
            while start < query.len() && query[start] > 3 {
                start += 1;
            }
            if start == query.len() {
                return;
            }
            start = self.smem1a(bwt, query, start);
            out.extend(self.mem.iter().map(|m| Smem {
                begin: (m.info >> 32) as usize,
                end: m.info as u32 as usize,
                interval: Interval {
                    k: m.x[0],
                    l: m.x[1],
                    size: m.x[2],
                },
            }));
        }
    }

    /// Appends the SMEMs overlapping base `x` of `query` whose intervals hold at least
    /// `min_intv` rows (below 1 is 1) to `out`, by start, and returns where the next
    /// search starts: bwa's `bwt_smem1a` with this finder's `-I` (bwa mem's `bwt_smem1`
    /// when that is 0). An ambiguous base at `x` yields no match and `x + 1`.
    #[inline(always)]
    pub fn smems_at(
        &mut self,
        bwt: &Bwt,
        query: &[u8],
        x: usize,
        min_intv: i32,
        out: &mut Vec<Smem>,
    ) -> usize {
        let saved = std::mem::replace(&mut self.config.min_intv, min_intv);
        let next = self.smem1a(bwt, query, x);
        self.config.min_intv = saved;
        out.extend(self.mem.iter().map(|m| Smem {
            begin: (m.info >> 32) as usize,
            end: m.info as u32 as usize,
            interval: Interval {
                k: m.x[0],
                l: m.x[1],
                size: m.x[2],
            },
        }));
        next
    }

    /// The SMEMs overlapping base `x` of `q` into `self.mem`, by start; returns where
    /// the next search starts (bwa's `bwt_smem1a`).
    #[inline(always)]
    fn smem1a(&mut self, bwt: &Bwt, q: &[u8], x: usize) -> usize {
        self.mem.clear();
        if q[x] > 3 {
            return x + 1;
        }
        let min_intv = self.config.min_intv.max(1) as u64;
        let mut ik = Tagged {
            x: base_interval(bwt, q[x]),
            info: x as u64 + 1,
        };
        ik = self.forward(bwt, q, x, ik, min_intv);
        self.curr.reverse(); // longer matches first
        let next = self.curr[0].info as u32 as usize;
        std::mem::swap(&mut self.curr, &mut self.prev);
        self.backward(bwt, q, x, ik, min_intv);
        self.mem.reverse(); // by start
        next
    }

    /// The forward pass: `ik` (base `x`) extended base by base, each interval before
    /// its size drops kept in `self.curr`; returns the last interval held.
    #[inline(always)]
    fn forward(&mut self, bwt: &Bwt, q: &[u8], x: usize, mut ik: Tagged, min_intv: u64) -> Tagged {
        self.curr.clear();
        let mut i = x + 1;
        while i < q.len() {
            if ik.x[2] < self.config.max_intv || q[i] > 3 {
                self.curr.push(ik);
                break;
            }
            let c = usize::from(3 - q[i]);
            let ok = extend(bwt, &ik.x, false);
            if ok[c][2] != ik.x[2] {
                self.curr.push(ik);
                if ok[c][2] < min_intv {
                    break;
                }
            }
            ik = Tagged {
                x: ok[c],
                info: i as u64 + 1,
            };
            i += 1;
        }
        if i == q.len() {
            self.curr.push(ik);
        }
        ik
    }

    /// The backward pass: the forward intervals in `self.prev` extended base by base
    /// before `x`; each that can go no further, and is the longest left, kept in
    /// `self.mem` unless a match already kept starts no later. `ik` is bwa's variable of
    /// that name, whose size the `-I` test reads.
    #[inline(always)]
    fn backward(&mut self, bwt: &Bwt, q: &[u8], x: usize, mut ik: Tagged, min_intv: u64) {
        let max_intv = self.config.max_intv;
        for i in (-1..x as isize).rev() {
            let c = match i {
                0.. if q[i as usize] < 4 => Some(usize::from(q[i as usize])),
                _ => None,
            };
            self.curr.clear();
            for j in 0..self.prev.len() {
                let p = self.prev[j];
                let ok = match c {
                    Some(c) if ik.x[2] >= max_intv => Some(extend(bwt, &p.x, true)[c]),
                    _ => None,
                };
                match ok {
                    Some(ok) if ok[2] >= min_intv => self.keep_extending(ok, p.info),
                    _ if self.curr.is_empty() => {
                        let begin = (i + 1) as u64;
                        if self.mem.last().is_none_or(|m| begin < m.info >> 32) {
                            ik = Tagged {
                                x: p.x,
                                info: p.info | begin << 32,
                            };
                            self.mem.push(ik);
                        }
                    }
                    _ => {} // contained in a longer match
                }
            }
            if self.curr.is_empty() {
                break;
            }
            std::mem::swap(&mut self.curr, &mut self.prev);
        }
    }

    /// Keeps `ok` (of the match ending as `info` says) to extend further, unless the
    /// interval kept last has its size (a longer match with the same occurrences).
    #[inline(always)]
    fn keep_extending(&mut self, ok: [u64; 3], info: u64) {
        if self.curr.last().is_none_or(|last| ok[2] != last.x[2]) {
            self.curr.push(Tagged { x: ok, info });
        }
    }
}
