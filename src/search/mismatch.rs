//! k-mismatch search on the CPU: every text position where a read (2-bit codes; any
//! other code, such as an `N`, mismatches every base) occurs with at most `k`
//! mismatches, found losslessly by the searches of a scheme ([`super::schemes`]) over
//! the bidirectional index, depth first.
//!
//! Each step extends the match by one base on the side its plan says, for all four
//! bases at once (one Occ read per interval end), and follows the children whose
//! mismatches stay within the step's bounds. Once an interval holds a single row, the
//! rest of the read is compared with the text at that row's position instead
//! ([`mismatches_at`]): any position within `k` mismatches is a hit, whichever branch
//! reached it, so this keeps the search lossless and spares the remaining steps. A
//! position can be reached more than once (by several searches or branches); each
//! pattern's positions are sorted and made distinct.
//!
//! Against an index larger than the caches each of those accesses is a cache miss that
//! depends on the one before, so [`occurrences_interleaved`] advances [`IN_FLIGHT`]
//! patterns in turn, one dependent access each, each prefetching what its next step
//! reads (as the exact search does, [`crate::fm::FmIndex::occurrences_interleaved`]).

use std::collections::HashMap;
use std::ops::Range;

use super::schemes::{plan, searches, Step, MAX_MISMATCHES};
use crate::fm::{BiInterval, Bidirectional, Checked, Locating};
use crate::par::prefetch;
use crate::popcnt::with_popcnt;
use crate::reference::PackedRef;

/// Patterns advanced in turn (enough outstanding misses to cover a memory latency).
const IN_FLIGHT: usize = 32;

/// Mismatches between `codes` and the text at `start`, counting stops once `limit` is
/// passed (`limit + 1` is then returned); a read past the text's end never matches.
pub fn mismatches_at(text: PackedRef<'_>, start: usize, codes: &[u8], limit: u8) -> u8 {
    if start + codes.len() > text.len() {
        return limit + 1;
    }
    let mut found = 0;
    for (i, &c) in codes.iter().enumerate() {
        if text.get(start + i) != c {
            found += 1;
            if found > limit {
                break;
            }
        }
    }
    found
}

/// log4 of `text_len`, rounded up: random strings this long are mostly unique in a text
/// of `text_len` bases (what picks the scheme, [`super::schemes::scheme_for`]).
pub fn unique_len(text_len: usize) -> usize {
    (65 - text_len.leading_zeros() as usize) / 2
}

/// Reusable plans of [`occurrences_interleaved`] (they depend only on k, the read
/// length and the text length).
#[derive(Clone, Debug, Default)]
pub struct Plans {
    /// Index in `plans` of each (k, read length, unique length).
    known: HashMap<(u8, usize, usize), usize>,
    /// Per plan, every search of its scheme.
    plans: Vec<Vec<SearchPlan>>,
}

/// The steps of one search over a read, and whether it may start from the jump table.
#[derive(Clone, Debug)]
struct SearchPlan {
    steps: Vec<Step>,
    /// Steps before the first that extends to the right (all of them when none does).
    left_steps: usize,
}

impl SearchPlan {
    fn new(steps: Vec<Step>) -> SearchPlan {
        let left_steps = steps.iter().take_while(|s| !s.right).count();
        SearchPlan { steps, left_steps }
    }

    /// Whether the first `k` steps may be taken at once from the jump table, one
    /// lookup for the read's k-mer and one for each k-mer one substitution away where
    /// a step allows a mismatch: they extend to the left (a backward search on the
    /// forward index alone), with no lower bound and at most one mismatch. The mirror
    /// interval is then unknown until a step to the right needs it
    /// ([`Walker::with_mirror`]).
    fn starts_from_jump(&self, k: usize) -> bool {
        k > 0
            && self.left_steps >= k
            && self.steps[..k].iter().all(|s| s.lower == 0 && s.upper <= 1)
    }
}

impl Plans {
    /// The index of the plan of the scheme for `k` mismatches and `len` bases in a text
    /// where strings of `unique_len` bases are mostly unique.
    fn index(&mut self, k: u8, len: usize, unique_len: usize) -> usize {
        let plans = &mut self.plans;
        *self.known.entry((k, len, unique_len)).or_insert_with(|| {
            let steps = searches(k, len, unique_len)
                .iter()
                .map(|search| {
                    let mut steps = Vec::new();
                    plan(search, len, &mut steps);
                    SearchPlan::new(steps)
                })
                .collect();
            plans.push(steps);
            plans.len() - 1
        })
    }
}

/// Sets `out` to the text positions of the occurrences of `codes` (not empty) with at
/// most `k` mismatches (`k` at most [`super::schemes::MAX_MISMATCHES`]), sorted and
/// distinct.
pub fn occurrences(
    index: &Bidirectional<'_>,
    codes: &[u8],
    k: u8,
    plans: &mut Plans,
    out: &mut Vec<u64>,
) {
    let mut ranges = Vec::new();
    occurrences_interleaved(index, &[codes], k, plans, out, &mut ranges);
}

with_popcnt! {
    /// [`occurrences`] of every pattern of `patterns` (none empty), interleaved: those
    /// of pattern `i` are `found[ranges[i]]`. `found` and `ranges` are cleared first.
    /// With POPCNT where the CPU has it: HG002 x10 against chr20, `-a`, 2 cores, user
    /// `-v 1` 0.86-0.90 -> 0.77-0.81 s, `-v 2` 1.24-1.32 -> 1.05-1.11 s.
    pub fn occurrences_interleaved(
        index: &Bidirectional<'_>,
        patterns: &[&[u8]],
        k: u8,
        plans: &mut Plans,
        found: &mut Vec<u64>,
        ranges: &mut Vec<Range<usize>>,
    ) => occurrences_any_cpu
}

/// The search itself, inlined into each CPU's copy with the walker's steps.
#[inline(always)]
fn occurrences_any_cpu(
    index: &Bidirectional<'_>,
    patterns: &[&[u8]],
    k: u8,
    plans: &mut Plans,
    found: &mut Vec<u64>,
    ranges: &mut Vec<Range<usize>>,
) {
    found.clear();
    ranges.clear();
    ranges.resize(patterns.len(), 0..0);
    let unique_len = unique_len(index.forward.text.len());
    let plan_of: Vec<usize> = patterns
        .iter()
        .map(|p| plans.index(k, p.len(), unique_len))
        .collect();
    let walker = Walker {
        index,
        k,
        plans: &plans.plans,
    };
    let mut next = 0;
    let mut queries: Vec<Query> = Vec::with_capacity(IN_FLIGHT);
    while next < patterns.len() && queries.len() < IN_FLIGHT {
        queries.push(walker.start(next, patterns[next], plan_of[next], Query::default()));
        next += 1;
    }
    while !queries.is_empty() {
        let mut i = 0;
        while i < queries.len() {
            let q = &mut queries[i];
            walker.advance(q, patterns[q.pattern]);
            if !matches!(q.work, Work::Done) {
                i += 1;
                continue;
            }
            q.found.sort_unstable();
            q.found.dedup();
            ranges[q.pattern] = found.len()..found.len() + q.found.len();
            found.extend_from_slice(&q.found);
            let spent = std::mem::take(q);
            if next < patterns.len() {
                queries[i] = walker.start(next, patterns[next], plan_of[next], spent);
                next += 1;
                i += 1;
            } else {
                queries.swap_remove(i);
            }
        }
    }
}

/// A point of one search: step `t` of search `search` is next, with `interval` matched
/// so far with `errors` mismatches.
#[derive(Clone, Copy, Debug)]
struct Node {
    search: usize,
    t: usize,
    interval: BiInterval,
    errors: u8,
    /// `interval.mirror_lo` is known (not after a start from the jump table, until the
    /// first step to the right needs it).
    mirror: bool,
    /// While the mirror interval is unknown: the mismatches taken so far.
    substitutions: Substitutions,
}

/// The read positions where a path matched another base, and those bases.
#[derive(Clone, Copy, Debug, Default)]
struct Substitutions {
    count: u8,
    positions: [u32; MAX_MISMATCHES as usize],
    bases: [u8; MAX_MISMATCHES as usize],
}

impl Substitutions {
    /// These and base `base` at read position `pos`.
    fn and(mut self, pos: u32, base: u8) -> Substitutions {
        let i = self.count as usize;
        (self.positions[i], self.bases[i]) = (pos, base);
        self.count += 1;
        self
    }

    /// The base that the path matched at read position `pos`, where the read has `code`.
    fn base_at(&self, pos: u32, code: u8) -> u8 {
        let taken = &self.positions[..self.count as usize];
        taken
            .iter()
            .position(|&p| p == pos)
            .map_or(code, |i| self.bases[i])
    }
}

/// What a pattern does next; each reads what the one before prefetched.
#[derive(Clone, Copy, Debug, Default)]
enum Work {
    /// Start search `search` from the jump table: the entry of its k-mer variant
    /// `variant` ([`Walker::kmer_variant`]) is to be read.
    Jump { search: usize, variant: usize },
    /// Extend the node's match by one base (the Occ blocks of its interval's ends).
    Extend(Node),
    /// Locate row `at` of `at..end`, the interval of a search that matched the whole
    /// pattern.
    Report {
        at: u64,
        end: u64,
        locating: Locating,
    },
    /// Locate the one row of an interval whose string starts at read position `first`
    /// (the read before it compared on the way, `allowed` mismatches left,
    /// [`crate::fm::FmIndex::advance_locating_after`]), then compare the whole pattern
    /// with the text there.
    Verify {
        first: u64,
        locating: Locating,
        allowed: u8,
    },
    /// Compare the pattern with the text at `start`.
    Compare { start: usize },
    /// Every search is over.
    #[default]
    Done,
}

/// One pattern in flight: its index, its plan, the nodes still to visit, the next
/// search to start, its work and the positions found so far.
#[derive(Debug, Default)]
struct Query {
    pattern: usize,
    plan: usize,
    stack: Vec<Node>,
    next_search: usize,
    work: Work,
    found: Vec<u64>,
}

/// What every query walks: the index, `k` and the plans.
struct Walker<'w, 'a> {
    index: &'w Bidirectional<'a>,
    k: u8,
    plans: &'w [Vec<SearchPlan>],
}

impl Walker<'_, '_> {
    /// A query for pattern `pattern` (`codes`) with plan `plan`, reusing `spent`'s
    /// buffers; its first work prefetched.
    #[inline(always)]
    fn start(&self, pattern: usize, codes: &[u8], plan: usize, mut spent: Query) -> Query {
        spent.stack.clear();
        spent.found.clear();
        let mut q = Query {
            pattern,
            plan,
            next_search: 0,
            work: Work::Done,
            ..spent
        };
        q.work = self.next_node(&mut q, codes);
        q
    }

    /// Takes the query's work one dependent access further.
    #[inline(always)]
    fn advance(&self, q: &mut Query, codes: &[u8]) {
        let fm = &self.index.forward;
        q.work = match q.work {
            Work::Jump { search, variant } => self.jumped(q, search, variant, codes),
            Work::Extend(node) => {
                self.extend(q, node, codes);
                self.next_node(q, codes)
            }
            Work::Report { at, end, locating } => match fm.advance_locating(locating) {
                Err(locating) => Work::Report { at, end, locating },
                Ok(position) => {
                    q.found.push(position);
                    match at + 1 < end {
                        true => Work::Report {
                            at: at + 1,
                            end,
                            locating: fm.start_locating(at + 1),
                        },
                        false => self.next_node(q, codes),
                    }
                }
            },
            Work::Verify {
                first,
                locating,
                mut allowed,
            } => {
                match fm.advance_locating_after(locating, &codes[..first as usize], &mut allowed) {
                    Checked::Walking(locating) => Work::Verify {
                        first,
                        locating,
                        allowed,
                    },
                    Checked::Located(position) => match position.checked_sub(first) {
                        Some(start) => self.compare_at(start as usize, codes.len()),
                        None => self.next_node(q, codes),
                    },
                    Checked::Differs => self.next_node(q, codes),
                }
            }
            Work::Compare { start } => {
                if mismatches_at(fm.text, start, codes, self.k) <= self.k {
                    q.found.push(start as u64);
                }
                self.next_node(q, codes)
            }
            Work::Done => Work::Done,
        };
    }

    /// Pushes the node of k-mer variant `variant` of search `search` (its jump-table
    /// entry prefetched) unless the k-mer does not occur; the next variant's work, or
    /// the next node's.
    #[inline(always)]
    fn jumped(&self, q: &mut Query, search: usize, variant: usize, codes: &[u8]) -> Work {
        let fm = &self.index.forward;
        let steps = &self.plans[q.plan][search].steps;
        let (code, substitutions) = self
            .kmer_variant(steps, codes, variant)
            .expect("a valid variant");
        let (lo, hi) = fm.jump_rows(code);
        if hi > lo {
            q.stack.push(Node {
                search,
                t: fm.k as usize,
                interval: BiInterval {
                    lo,
                    mirror_lo: 0,
                    size: hi - lo,
                },
                errors: substitutions.count,
                mirror: false,
                substitutions,
            });
        }
        match self.next_variant(steps, codes, variant + 1) {
            Some(variant) => Work::Jump { search, variant },
            None => self.next_node(q, codes),
        }
    }

    /// The work that compares the pattern (`len` codes) with the text at `start`, the
    /// text prefetched.
    #[inline(always)]
    fn compare_at(&self, start: usize, len: usize) -> Work {
        let words = self.index.forward.text.words();
        prefetch(words, start / 32);
        prefetch(words, (start + len) / 32);
        Work::Compare { start }
    }

    /// Pushes the children of `node` whose mismatches stay within its step's bounds.
    #[inline(always)]
    fn extend(&self, q: &mut Query, node: Node, codes: &[u8]) {
        let step = self.plans[q.plan][node.search].steps[node.t];
        let children = match step.right {
            true => self.index.extend_right(node.interval),
            false => self.index.extend_left(node.interval),
        };
        let want = codes[step.pos as usize];
        for (base, child) in children.into_iter().enumerate() {
            let mismatch = base as u8 != want;
            let errors = node.errors + mismatch as u8;
            if child.size > 0 && (step.lower..=step.upper).contains(&errors) {
                let substitutions = match mismatch && !node.mirror {
                    true => node.substitutions.and(step.pos, base as u8),
                    false => node.substitutions,
                };
                q.stack.push(Node {
                    t: node.t + 1,
                    interval: child,
                    errors,
                    substitutions,
                    ..node
                });
            }
        }
    }

    /// The work of the query's next node (the next search's start when none is left),
    /// or done; its accesses prefetched.
    #[inline(always)]
    fn next_node(&self, q: &mut Query, codes: &[u8]) -> Work {
        let searches = &self.plans[q.plan];
        let fm = &self.index.forward;
        let node = match q.stack.pop() {
            Some(node) => node,
            None if q.next_search < searches.len() => {
                let search = q.next_search;
                q.next_search += 1;
                let plan = &searches[search];
                let k = fm.k as usize;
                if plan.starts_from_jump(k) {
                    return match self.next_variant(&plan.steps, codes, 0) {
                        Some(variant) => Work::Jump { search, variant },
                        None => self.next_node(q, codes),
                    };
                }
                Node {
                    search,
                    t: 0,
                    interval: self.index.everything(),
                    errors: 0,
                    mirror: true,
                    substitutions: Substitutions::default(),
                }
            }
            None => return Work::Done,
        };
        let steps = &searches[node.search].steps;
        let BiInterval { lo, size, .. } = node.interval;
        if node.t == steps.len() {
            return Work::Report {
                at: lo,
                end: lo + size,
                locating: fm.start_locating(lo),
            };
        }
        if size == 1 && node.t > 0 {
            return Work::Verify {
                first: steps[node.t - 1].first as u64,
                locating: fm.start_locating(lo),
                // The node's string holds exactly its `errors` mismatches.
                allowed: self.k.saturating_sub(node.errors),
            };
        }
        let right = steps[node.t].right;
        let node = match right && !node.mirror {
            true => self.with_mirror(node, steps, codes),
            false => node,
        };
        let (occ, from) = match right {
            true => (&self.index.mirror, node.interval.mirror_lo),
            false => (&fm.occ, lo),
        };
        occ.prefetch(from);
        occ.prefetch(from + size);
        Work::Extend(node)
    }

    /// `node` (of a search started from the jump table, about to take its first step
    /// to the right) with its mirror interval: its steps so far went leftwards, so the
    /// string it matched is the read's from the last step's position to the first's,
    /// with its substitutions, searched again here from the empty string (rare: the
    /// interval still holds several rows).
    #[inline(always)]
    fn with_mirror(&self, node: Node, steps: &[Step], codes: &[u8]) -> Node {
        let (first, last) = (steps[node.t - 1].first, steps[0].pos);
        let mut interval = self.index.everything();
        for pos in (first..=last).rev() {
            let base = node.substitutions.base_at(pos, codes[pos as usize]);
            interval = self.index.extend_left(interval)[base as usize];
        }
        // The same rows as the jump table's, but for a forged index whose table
        // disagrees with its BWT (the search then follows the BWT, safely).
        Node {
            interval,
            mirror: true,
            ..node
        }
    }

    /// The first valid k-mer variant from `variant` on of the search with `steps`, its
    /// jump-table entry prefetched.
    #[inline(always)]
    fn next_variant(&self, steps: &[Step], codes: &[u8], variant: usize) -> Option<usize> {
        let k = self.index.forward.k as usize;
        let (found, (code, _)) = (variant..=4 * k)
            .find_map(|v| self.kmer_variant(steps, codes, v).map(|kmer| (v, kmer)))?;
        self.index.forward.prefetch_jump(code);
        Some(found)
    }

    /// K-mer variant `variant` of the first k steps of a search (read positions
    /// `steps[0].pos` leftwards): 0 is the read's own k-mer, `1 + 4 j + b` the one with
    /// base `b` at step `j`. Its jump-table code and substitutions, or `None` where it is
    /// not a k-mer the steps admit (`b` is the read's base, step `j` allows no mismatch,
    /// or a non-ACGT read base is left in it).
    #[inline(always)]
    fn kmer_variant(
        &self,
        steps: &[Step],
        codes: &[u8],
        variant: usize,
    ) -> Option<(usize, Substitutions)> {
        let k = self.index.forward.k as usize;
        let substituted = variant.checked_sub(1).map(|v| (v / 4, (v % 4) as u8));
        if let Some((j, base)) = substituted {
            if steps[j].upper == 0 || codes[steps[j].pos as usize] == base {
                return None;
            }
        }
        let mut code = 0;
        let mut substitutions = Substitutions::default();
        for (j, step) in steps[..k].iter().enumerate().rev() {
            let base = match substituted {
                Some((at, base)) if at == j => {
                    substitutions = substitutions.and(step.pos, base);
                    base
                }
                _ => codes[step.pos as usize],
            };
            if base > 3 {
                return None;
            }
            code = code << 2 | base as usize;
        }
        Some((code, substitutions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fm::TestIndex;
    use crate::test_support::random_codes;

    fn brute_force(text: &[u8], read: &[u8], k: u8) -> Vec<u64> {
        (0..=text.len().saturating_sub(read.len()))
            .filter(|&p| p + read.len() <= text.len())
            .filter(|&p| {
                let found = read.iter().zip(&text[p..]).filter(|(a, b)| a != b).count();
                found <= k as usize
            })
            .map(|p| p as u64)
            .collect()
    }

    #[test]
    fn finds_what_brute_force_finds() {
        // Sampling every 16 positions: the one-row walks compare up to 15 read symbols.
        let cases = [
            (3000, 4, 1, 4),
            (3000, 4, 5, 16),
            (2000, 2, 2, 4),
            (500, 1, 3, 4),
            (40, 4, 4, 16),
        ];
        for (len, alphabet, seed, rate) in cases {
            let codes = random_codes(len, seed, alphabet);
            let index = TestIndex::new(&codes, rate);
            let bi = index.bidirectional();
            let mut plans = Plans::default();
            let noise = random_codes(4000, seed + 10, 4);
            for i in 0..120 {
                let read_len = [1, 2, 3, 4, 5, 7, 12, 25, 40][i % 9].min(len);
                let start = (i * 131) % (len - read_len + 1);
                let mut read = codes[start..start + read_len].to_vec();
                // Mutate up to 4 positions, sometimes into an N (code 4).
                for m in 0..(i % 5) {
                    let at = noise[i * 5 + m] as usize * 7 % read_len;
                    read[at] = if m == 3 { 4 } else { noise[i * 7 + m] };
                }
                for k in 0..=3 {
                    let mut got = Vec::new();
                    occurrences(&bi, &read, k, &mut plans, &mut got);
                    got.sort_unstable();
                    got.dedup();
                    assert_eq!(got, brute_force(&codes, &read, k), "read {read:?} k {k}");
                    // The copy for any CPU gives what this CPU's (POPCNT's) gives.
                    let (mut any_cpu, mut ranges) = (Vec::new(), Vec::new());
                    let patterns: [&[u8]; 1] = [&read];
                    occurrences_any_cpu(&bi, &patterns, k, &mut plans, &mut any_cpu, &mut ranges);
                    any_cpu.sort_unstable();
                    assert_eq!(any_cpu, got, "read {read:?} k {k}, any CPU");
                }
            }
        }
    }
}
