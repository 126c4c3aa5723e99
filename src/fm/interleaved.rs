//! Exact search and locate of many patterns at once, interleaved: against an index
//! larger than the caches nearly every Occ, sampled-SA and jump-table access of one
//! pattern is a cache miss that depends on the one before, so a core walking one
//! pattern at a time waits on memory most of the time. Here [`IN_FLIGHT`] patterns
//! advance in turn, one dependent access each, and each prefetches what its next step
//! reads: the misses of different patterns overlap. Each pattern gets exactly what
//! [`FmIndex::occurrences`] gives it, in the same order.

use std::ops::Range;

use super::{kmer_code, Checked, FmIndex, Locating};
use crate::popcnt::with_popcnt;
use crate::sa::PositionSlice;

/// Patterns advanced in turn (enough outstanding misses to cover a memory latency).
const IN_FLIGHT: usize = 32;

/// Asks for the cache line holding `item` (never faults, whatever the address).
#[inline(always)]
pub(super) fn prefetch<T>(item: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(item.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Asks for the cache line of value `i` of `values`.
#[inline(always)]
pub(super) fn prefetch_value(values: PositionSlice<'_>, i: usize) {
    match values {
        PositionSlice::U32(v) => prefetch(v.as_ptr().wrapping_add(i)),
        PositionSlice::U64(v) => prefetch(v.as_ptr().wrapping_add(i)),
    }
}

with_popcnt! {
    /// [`FmIndex::occurrences_interleaved`] with POPCNT where the CPU has it. HG002 x40
    /// against chr20, SAM, 2 cores: user 1.32-1.39 -> 1.02-1.27 s.
    fn occurrences_fastest(
        fm: &FmIndex<'_>,
        patterns: &[&[u8]],
        found: &mut Vec<u64>,
        ranges: &mut Vec<Range<usize>>,
    ) => FmIndex::occurrences_any_cpu
}

/// Where one pattern's search stands; each step reads what the step before prefetched.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// The jump-table entry of the last k symbols, `code`, is to be read.
    Jump {
        code: usize,
    },
    /// Backward search over `lo..hi` with `left` symbols of the pattern still to add.
    Search {
        lo: u64,
        hi: u64,
        left: usize,
    },
    /// Locating row `at` of `at..end`; `left > 0`: the pattern's first `left` symbols
    /// are compared with the BWT symbols the walk reads, then the rest with the text
    /// ([`FmIndex::advance_locating_after`]).
    Locate {
        at: u64,
        end: u64,
        locating: Locating,
        left: usize,
    },
    /// Row `at` of `at..end` lies at `position`; the text before it is to be compared.
    Verify {
        at: u64,
        end: u64,
        position: u64,
        left: usize,
    },
    Done,
}

/// One pattern in flight: its index, its step and the positions found so far.
struct Query {
    pattern: usize,
    step: Step,
    found: Vec<u64>,
}

impl FmIndex<'_> {
    /// The occurrences of every pattern of `patterns` (2-bit codes, none empty): those
    /// of pattern `i` are `found[ranges[i]]`, as [`FmIndex::occurrences`] gives them.
    /// `found` and `ranges` are cleared first.
    pub fn occurrences_interleaved(
        &self,
        patterns: &[&[u8]],
        found: &mut Vec<u64>,
        ranges: &mut Vec<Range<usize>>,
    ) {
        occurrences_fastest(self, patterns, found, ranges);
    }

    /// The search itself, inlined into each CPU's copy with all it calls.
    #[inline(always)]
    fn occurrences_any_cpu(
        &self,
        patterns: &[&[u8]],
        found: &mut Vec<u64>,
        ranges: &mut Vec<Range<usize>>,
    ) {
        found.clear();
        ranges.clear();
        ranges.resize(patterns.len(), 0..0);
        let mut next = 0;
        let mut queries: Vec<Query> = Vec::with_capacity(IN_FLIGHT);
        while next < patterns.len() && queries.len() < IN_FLIGHT {
            queries.push(self.start(next, patterns[next], Vec::new()));
            next += 1;
        }
        while !queries.is_empty() {
            let mut i = 0;
            while i < queries.len() {
                let q = &mut queries[i];
                let pattern = patterns[q.pattern];
                q.step = self.advance(q.step, pattern, &mut q.found);
                if !matches!(q.step, Step::Done) {
                    i += 1;
                    continue;
                }
                ranges[q.pattern] = found.len()..found.len() + q.found.len();
                found.extend_from_slice(&q.found);
                let mut buffer = std::mem::take(&mut q.found);
                buffer.clear();
                if next < patterns.len() {
                    queries[i] = self.start(next, patterns[next], buffer);
                    next += 1;
                    i += 1;
                } else {
                    queries.swap_remove(i);
                }
            }
        }
    }

    /// A query for pattern `index`, whose first access is prefetched.
    #[inline(always)]
    fn start(&self, index: usize, pattern: &[u8], found: Vec<u64>) -> Query {
        debug_assert!(!pattern.is_empty());
        let k = self.k as usize;
        let step = if pattern.len() >= k {
            let code = kmer_code(&pattern[pattern.len() - k..]);
            self.prefetch_jump(code);
            Step::Jump { code }
        } else {
            self.search_step(0, self.c[4], pattern.len())
        };
        Query {
            pattern: index,
            step,
            found,
        }
    }

    /// The step that searches `lo..hi` with `left` symbols to add, or locates once the
    /// search is over; its accesses prefetched.
    #[inline(always)]
    fn search_step(&self, lo: u64, hi: u64, left: usize) -> Step {
        if left > 0 && hi > lo + 1 {
            self.occ.prefetch(lo);
            self.occ.prefetch(hi);
            return Step::Search { lo, hi, left };
        }
        if hi <= lo {
            return Step::Done;
        }
        // Every row when the pattern is searched whole, else the one row to verify.
        let end = if left == 0 { hi } else { lo + 1 };
        self.locate_step(lo, end, left)
    }

    /// The step that locates row `at` of `at..end`; its accesses prefetched.
    #[inline(always)]
    fn locate_step(&self, at: u64, end: u64, left: usize) -> Step {
        Step::Locate {
            at,
            end,
            locating: self.start_locating(at),
            left,
        }
    }

    /// Takes `step` one dependent access further, appending any position found.
    #[inline(always)]
    fn advance(&self, step: Step, pattern: &[u8], found: &mut Vec<u64>) -> Step {
        match step {
            Step::Jump { code } => {
                let (lo, hi) = self.jump_rows(code);
                self.search_step(lo, hi, pattern.len() - self.k as usize)
            }
            Step::Search { lo, hi, left } => {
                let s = pattern[left - 1];
                let lo = self.c[s as usize] + self.occ.occ(s, lo);
                let hi = self.c[s as usize] + self.occ.occ(s, hi);
                self.search_step(lo, hi.max(lo), left - 1)
            }
            Step::Locate {
                at,
                end,
                locating,
                left,
            } => match self.advance_locating_after(locating, &pattern[..left], &mut 0) {
                Checked::Located(position) => self.located(at, end, position, left, found),
                Checked::Walking(locating) => Step::Locate {
                    at,
                    end,
                    locating,
                    left,
                },
                Checked::Differs => self.next_row(at, end, left),
            },
            Step::Verify {
                at,
                end,
                position,
                left,
            } => {
                let pos = position as usize;
                if self.text.matches_at(pos - left, &pattern[..left]) {
                    found.push((pos - left) as u64);
                }
                self.next_row(at, end, left)
            }
            Step::Done => Step::Done,
        }
    }

    /// Row `at` of `at..end` lies at `position`: kept as it is when the whole pattern
    /// was searched, else once the pattern's first `left` symbols match the text before
    /// it (prefetched here, compared in the next step).
    #[inline(always)]
    fn located(&self, at: u64, end: u64, position: u64, left: usize, found: &mut Vec<u64>) -> Step {
        if left == 0 {
            found.push(position);
            return self.next_row(at, end, left);
        }
        let pos = position as usize;
        if pos < left {
            return self.next_row(at, end, left);
        }
        let words = self.text.words().as_ptr();
        prefetch(words.wrapping_add((pos - left) / 32));
        prefetch(words.wrapping_add((pos - 1) / 32));
        Step::Verify {
            at,
            end,
            position,
            left,
        }
    }

    /// The step after row `at` of `at..end`: the next row's walk, or done.
    #[inline(always)]
    fn next_row(&self, at: u64, end: u64, left: usize) -> Step {
        match at + 1 < end {
            true => self.locate_step(at + 1, end, left),
            false => Step::Done,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::fm::FmParts;
    use crate::reference::PackedText;
    use crate::test_support::random_codes;

    #[test]
    fn interleaved_occurrences_equal_one_at_a_time() {
        // Repeats (a period-7 stretch) give intervals of many rows; some patterns are
        // shorter than k, some absent, some match once.
        let mut codes = random_codes(20_000, 3, 4);
        for i in 5000..8000 {
            codes[i] = codes[5000 + i % 7];
        }
        let text = PackedText::from_codes(&codes);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        for rate in [1, 4, 16] {
            let parts = FmParts::build(&text, &sa, rate);
            let fm = parts.view(&text);
            let noise = random_codes(3000, 9, 4);
            let patterns: Vec<Vec<u8>> = (0..1000)
                .map(|i| {
                    let len = [1, 3, 9, 30, 60][i % 5];
                    let start = (i * 131 + noise[i] as usize) % (codes.len() - len);
                    let start = if i % 4 == 0 { 5000 + i % 50 } else { start };
                    let mut p = codes[start..start + len].to_vec();
                    if i % 3 == 0 {
                        p[noise[i + 1] as usize % len] = noise[i + 2];
                    }
                    p
                })
                .collect();
            let slices: Vec<&[u8]> = patterns.iter().map(|p| &p[..]).collect();
            let (mut found, mut ranges) = (Vec::new(), Vec::new());
            fm.occurrences_interleaved(&slices, &mut found, &mut ranges);
            // The copy for any CPU gives what this CPU's (POPCNT's, on x86-64) gives.
            let (mut found_any, mut ranges_any) = (Vec::new(), Vec::new());
            fm.occurrences_any_cpu(&slices, &mut found_any, &mut ranges_any);
            assert_eq!((&found_any, &ranges_any), (&found, &ranges), "rate {rate}");
            let mut hits = 0;
            for (p, range) in patterns.iter().zip(&ranges) {
                let mut want = Vec::new();
                fm.occurrences(p, &mut want);
                assert_eq!(found[range.clone()], want[..], "rate {rate}, pattern {p:?}");
                hits += want.len();
            }
            assert!(hits > 5000, "{hits} occurrences");
        }
    }
}
