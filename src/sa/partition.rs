//! Bucket-partitioned suffix sorting (Futamura, Aluru and Kurtz 2001): the suffixes are
//! counted by their first `w` bases, the bucket sequence is cut into parts of at most a
//! given number of suffixes, and each part is gathered from the text and sorted on its
//! own, so that no more than one part's suffix array is held at a time. The parts come
//! out in suffix-array order.
//!
//! Within a part, suffixes are compared with the ranks of a difference-cover sample
//! ([`super::sample`]): at most 256 bases and one rank lookup per comparison, so long
//! repeats (copies, all-A, short periods) cost no more than random DNA. A bucket larger
//! than a part (all-A has one) is split further by splitter suffixes drawn from it: a
//! part is a range of buckets, optionally bounded by a suffix it starts at and one it
//! stops before.

use std::cmp::Ordering;
use std::ops::Range;

use rayon::prelude::*;

use super::keysort::{self, Keyed, KEY_BASES};
use super::sample::SampleRanks;
use super::SaIndex;
use crate::reference::PackedText;
use crate::units::size_to_give;

/// Most bases of the bucket key (4^10 buckets, 8 MiB of counts per pass).
const MAX_BUCKET_BASES: usize = 10;
/// Samples drawn per piece when a part is split by splitter suffixes.
const SAMPLES_PER_PIECE: usize = 32;

/// A set of suffixes sorted together: those whose `w`-base bucket is in `buckets` and
/// that are not smaller than suffix `from` (when given) and smaller than suffix `until`
/// (when given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Bucket range.
    pub buckets: Range<usize>,
    /// The first suffix of the part, when it starts inside a bucket.
    pub from: Option<usize>,
    /// The suffix the part stops before, when it ends inside a bucket.
    pub until: Option<usize>,
    /// Number of suffixes in the part.
    pub suffixes: usize,
}

impl Part {
    /// The codes of the `k`-mers that the part's suffixes of at least `k` bases can start
    /// with, when its buckets are of `w` bases: a range, as the buckets are.
    pub fn kmer_codes(&self, w: usize, k: usize) -> Range<usize> {
        let Range { start, end } = self.buckets;
        if start == end {
            return 0..0;
        }
        if k >= w {
            start << (2 * (k - w))..end << (2 * (k - w))
        } else {
            start >> (2 * (w - k))..((end - 1) >> (2 * (w - k))) + 1
        }
    }
}

/// Sorts the suffixes of a text part by part.
pub struct Partitioner<'t, I> {
    text: &'t PackedText,
    ranks: SampleRanks<'t, I>,
    /// Bases of the bucket key.
    w: usize,
}

impl<'t, I: SaIndex> Partitioner<'t, I> {
    /// Ranks the sample of `text` and chooses a bucket key long enough for parts of
    /// `max_part` suffixes.
    pub fn new(text: &'t PackedText, max_part: usize) -> Self {
        Self::with_ranks(text, max_part, SampleRanks::build(text))
    }

    /// [`Partitioner::new`] with the sample ranks of `text` given.
    pub fn with_ranks(text: &'t PackedText, max_part: usize, ranks: SampleRanks<'t, I>) -> Self {
        let wanted = 16 * text.len().div_ceil(max_part.max(1)); // buckets
        let w = (1..=MAX_BUCKET_BASES)
            .find(|&w| 1usize << (2 * w) >= wanted)
            .unwrap_or(MAX_BUCKET_BASES);
        Partitioner { text, ranks, w }
    }

    /// Bases of the bucket key: a bucket is a suffix's first `w` bases, padded with `A`.
    pub fn bucket_bases(&self) -> usize {
        self.w
    }

    /// The length of the text partitioned.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The sample ranks that order any two suffixes.
    pub fn ranks(&self) -> &SampleRanks<'t, I> {
        &self.ranks
    }

    /// The bucket of the suffix at `p`: its first `w` bases, padded with `A`.
    #[inline]
    fn bucket(&self, p: usize) -> usize {
        (self.text.key64(p) >> (64 - 2 * self.w)) as usize
    }

    /// Whether the suffix at `p` belongs to `part`.
    #[inline]
    fn contains(&self, part: &Part, p: usize) -> bool {
        part.buckets.contains(&self.bucket(p))
            && part
                .from
                .is_none_or(|f| self.ranks.compare(p, f) != Ordering::Less)
            && part
                .until
                .is_none_or(|u| self.ranks.compare(p, u) == Ordering::Less)
    }

    /// Cuts the suffixes into parts of at most `max_part` suffixes (a part that cannot
    /// be split further, a single suffix, may be the exception), in suffix-array order.
    pub fn plan(&self, max_part: usize) -> Vec<Part> {
        self.plan_from_counts(max_part, &self.bucket_counts())
    }

    /// [`Partitioner::plan`] from the number of suffixes of each bucket, counted
    /// elsewhere (the GPU).
    pub fn plan_from_counts(&self, max_part: usize, counts: &[usize]) -> Vec<Part> {
        assert_eq!(counts.len(), 1 << (2 * self.w), "bucket counts");
        let max_part = max_part.max(1);
        let mut parts = Vec::new();
        let mut open = Part {
            buckets: 0..0,
            from: None,
            until: None,
            suffixes: 0,
        };
        for (b, &count) in counts.iter().enumerate() {
            if open.suffixes + count > max_part && open.suffixes > 0 {
                let next = b..b;
                parts.push(std::mem::replace(
                    &mut open,
                    Part {
                        buckets: next,
                        from: None,
                        until: None,
                        suffixes: 0,
                    },
                ));
            }
            if count > max_part {
                parts.extend(self.split(
                    Part {
                        buckets: b..b + 1,
                        from: None,
                        until: None,
                        suffixes: count,
                    },
                    max_part,
                ));
                open = Part {
                    buckets: b + 1..b + 1,
                    from: None,
                    until: None,
                    suffixes: 0,
                };
                continue;
            }
            open.buckets.end = b + 1;
            open.suffixes += count;
        }
        if open.suffixes > 0 {
            parts.push(open);
        }
        parts
    }

    /// Counts the suffixes of each bucket.
    fn bucket_counts(&self) -> Vec<usize> {
        count_positions(self.text.len(), 1 << (2 * self.w), |p| Some(self.bucket(p)))
    }

    /// Splits `part` into pieces of at most `max_part` suffixes by splitter suffixes
    /// drawn evenly (in text order) from it, recursively where a piece is still too
    /// large.
    fn split(&self, part: Part, max_part: usize) -> Vec<Part> {
        let pieces = part.suffixes.div_ceil(max_part) * 2;
        let every = (part.suffixes / (pieces * SAMPLES_PER_PIECE)).max(1);
        let mut seen = 0usize;
        let mut samples: Vec<usize> = Vec::new();
        for p in 0..self.text.len() {
            if self.contains(&part, p) {
                if seen.is_multiple_of(every) {
                    samples.push(p);
                }
                seen += 1;
            }
        }
        samples.par_sort_unstable_by(|&a, &b| self.ranks.compare(a, b));
        let mut splitters: Vec<usize> = (1..pieces)
            .map(|i| samples[i * samples.len() / pieces])
            .collect();
        splitters.dedup();
        if splitters.first() == part.from.as_ref() {
            splitters.remove(0);
        }
        if splitters.is_empty() {
            return vec![part]; // one suffix, or nothing to split by
        }
        let counts = self.piece_counts(&part, &splitters);
        let bounds = std::iter::once(part.from)
            .chain(splitters.iter().map(|&s| Some(s)))
            .chain(std::iter::once(part.until));
        let bounds: Vec<Option<usize>> = bounds.collect();
        bounds
            .windows(2)
            .zip(counts)
            .flat_map(|(w, suffixes)| {
                let piece = Part {
                    buckets: part.buckets.clone(),
                    from: w[0],
                    until: w[1],
                    suffixes,
                };
                if suffixes == 0 {
                    vec![]
                } else if suffixes > max_part && suffixes < part.suffixes {
                    self.split(piece, max_part)
                } else {
                    vec![piece]
                }
            })
            .collect()
    }

    /// The number of suffixes of `part` before the first splitter, between each two,
    /// and from the last.
    fn piece_counts(&self, part: &Part, splitters: &[usize]) -> Vec<usize> {
        count_positions(self.text.len(), splitters.len() + 1, |p| {
            self.contains(part, p).then(|| {
                splitters.partition_point(|&s| self.ranks.compare(s, p) != Ordering::Greater)
            })
        })
    }

    /// The sorted suffixes of `part`: gathered with their 32-base keys in one pass over
    /// the text (counted first, so that they are written in place), sorted by key, then
    /// runs of equal keys by the sample ranks.
    pub fn sort(&self, part: &Part) -> Vec<I> {
        let n = self.text.len();
        let chunk = n.div_ceil(rayon::current_num_threads() * 4).max(1 << 16);
        let starts: Vec<usize> = (0..n).step_by(chunk).collect();
        let counts: Vec<usize> = starts
            .par_iter()
            .map(|&s| {
                (s..(s + chunk).min(n))
                    .filter(|&p| self.contains(part, p))
                    .count()
            })
            .collect();
        let mut keyed: Vec<Keyed> = vec![(0, 0); counts.iter().sum()];
        let mut slices = Vec::with_capacity(starts.len());
        let mut rest = keyed.as_mut_slice();
        for &count in &counts {
            let (mine, tail) = std::mem::take(&mut rest).split_at_mut(count);
            slices.push(mine);
            rest = tail;
        }
        starts.par_iter().zip(slices).for_each(|(&s, out)| {
            let members = (s..(s + chunk).min(n)).filter(|&p| self.contains(part, p));
            for (slot, p) in out.iter_mut().zip(members) {
                *slot = keysort::keyed(self.text, p);
            }
        });
        keysort::sort(&mut keyed, |a, b| self.ranks.compare_from(a, b, KEY_BASES));
        keyed
            .into_iter()
            .map(|k| I::from_usize(keysort::position(k)))
            .collect()
    }
}

/// Counts the text positions `0..n` into `slots` counters, in parallel: `slot_of(p)`
/// names the counter of position `p`, if any.
fn count_positions(
    n: usize,
    slots: usize,
    slot_of: impl Fn(usize) -> Option<usize> + Sync,
) -> Vec<usize> {
    let chunk = n.div_ceil(rayon::current_num_threads() * 2).max(1 << 16);
    (0..n)
        .into_par_iter()
        .step_by(chunk)
        .map(|start| {
            let mut counts = vec![0usize; slots];
            for slot in (start..(start + chunk).min(n)).filter_map(&slot_of) {
                counts[slot] += 1;
            }
            counts
        })
        .reduce(
            || vec![0; slots],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

/// Host bytes of the process before any array: code, thread stacks, buffers.
const BASELINE_BYTES: u64 = 64 << 20;
/// Host bytes per base that a partitioned build holds besides its parts: the 2-bit text
/// (0.25), the sample ranks while they are built (1.94: positions, ranks and keys of
/// 12% of the suffixes) or after (0.48), and the FM index as it grows (at most 1.71:
/// Occ 0.33, sampled SA 0.38, jump table under 1).
const FIXED_BYTES_PER_BASE: f64 = 2.45;
/// Host bytes per base of the whole-text sorter at its peak, with the FM index it feeds
/// (whole `galign index --device cpu` peak RSS, session 30: 10.7 on chr20; 21.3 on two
/// 1%-mutated chr20 copies, 126 Mbp, within this and [`BASELINE_BYTES`] by 1%).
const WHOLE_BYTES_PER_BASE: f64 = 21.0;
/// The smallest part a budget may leave room for.
const MIN_PART: usize = 1 << 16;

/// A memory budget too small for the text.
#[derive(Debug, thiserror::Error)]
#[error(
    "a memory budget of {} ({budget} bytes) is too small for {bases} bases: at least {} \
     ({needed} bytes) is needed",
    size_to_give(*budget),
    size_to_give(*needed)
)]
pub struct BudgetError {
    /// The budget given.
    pub budget: u64,
    /// The text's length.
    pub bases: usize,
    /// The smallest budget that works.
    pub needed: u64,
}

/// The part size (in suffixes) that keeps a CPU build of a text of `n` bases within
/// `budget` bytes of host memory; `None` when the whole-text sorter fits.
pub fn part_size_within<I: SaIndex>(n: usize, budget: u64) -> Result<Option<usize>, BudgetError> {
    if budget as f64 >= BASELINE_BYTES as f64 + WHOLE_BYTES_PER_BASE * n as f64 {
        return Ok(None);
    }
    // A part's suffixes are sorted with their keys (16 bytes), then listed.
    let per_suffix = 16 + I::BYTES as u64;
    let fixed = BASELINE_BYTES + (FIXED_BYTES_PER_BASE * n as f64).ceil() as u64;
    let needed = fixed + per_suffix * MIN_PART as u64;
    if budget < needed {
        return Err(BudgetError {
            budget,
            bases: n,
            needed,
        });
    }
    Ok(Some(((budget - fixed) / per_suffix) as usize))
}

/// Builds the suffix array of `text` in parts of at most `max_part` suffixes, handing
/// each part to `emit` in suffix-array order; a text of at most `max_part` bases is
/// sorted whole.
pub fn suffix_array_in_parts<I: SaIndex>(
    text: &PackedText,
    max_part: usize,
    mut emit: impl FnMut(Vec<I>),
) {
    if text.len() <= max_part {
        emit(super::suffix_array(text));
        return;
    }
    let partitioner = Partitioner::<I>::new(text, max_part);
    for part in partitioner.plan(max_part) {
        emit(partitioner.sort(&part));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_codes as random;

    fn in_parts(text: &PackedText, max_part: usize) -> (Vec<u32>, usize) {
        let mut sa = Vec::new();
        let mut parts = 0;
        suffix_array_in_parts::<u32>(text, max_part, |part| {
            assert!(
                part.len() <= max_part.max(1),
                "part of {} > {max_part}",
                part.len()
            );
            parts += 1;
            sa.extend(part)
        });
        (sa, parts)
    }

    #[test]
    fn parts_concatenate_to_the_suffix_array() {
        let unit = random(3000, 3, 4);
        let texts: Vec<Vec<u8>> = vec![
            vec![1],
            random(20_000, 1, 4),
            random(9000, 2, 2),
            vec![0; 5000],
            [1u8, 3].repeat(3000),
            [0u8, 1, 2, 3, 3, 2, 1].repeat(1000),
            [unit.clone(), unit.clone(), unit].concat(),
        ];
        for codes in &texts {
            let text = PackedText::from_codes(codes);
            let want: Vec<u32> = crate::sa::suffix_array(&text);
            for max_part in [codes.len(), codes.len() / 2 + 1, 700, 64, 7] {
                let (got, parts) = in_parts(&text, max_part);
                assert!(got == want, "len {} max_part {max_part}", codes.len());
                if max_part < codes.len() {
                    assert!(parts >= codes.len() / max_part.max(1), "{parts} parts");
                }
            }
        }
    }

    /// Every suffix of at least k bases starts with a k-mer of its part's `kmer_codes`,
    /// for k above and below the bucket length, parts split inside a bucket included.
    #[test]
    fn parts_know_the_kmers_their_suffixes_start_with() {
        for codes in [random(20_000, 5, 4), vec![2; 3000], [0u8, 1].repeat(4000)] {
            let text = PackedText::from_codes(&codes);
            let n = text.len();
            for max_part in [5000, 300] {
                let partitioner = Partitioner::<u32>::new(&text, max_part);
                let w = partitioner.bucket_bases();
                for k in [1, w.saturating_sub(1).max(1), w, w + 3] {
                    for part in partitioner.plan(max_part) {
                        let codes = part.kmer_codes(w, k);
                        for p in partitioner.sort(&part) {
                            let p = p as usize;
                            if p + k <= n {
                                let x = (text.key64(p) >> (64 - 2 * k)) as usize;
                                assert!(codes.contains(&x), "k {k} w {w} {part:?}: {x}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn budgets_choose_whole_parts_or_refuse() {
        let n = 1_000_000;
        let whole = BASELINE_BYTES + 21 * n as u64;
        assert_eq!(part_size_within::<u32>(n, whole).unwrap(), None);
        assert!(part_size_within::<u32>(n, whole - 1).unwrap().is_some());
        let budget = whole - 5_000_000;
        let part = part_size_within::<u32>(n, budget).unwrap().unwrap();
        assert_eq!(part as u64, (budget - BASELINE_BYTES - 2_450_000) / 20);
        let err = part_size_within::<u32>(n, 2 * n as u64).unwrap_err();
        assert_eq!(
            err.needed,
            BASELINE_BYTES + 2_450_000 + 20 * MIN_PART as u64
        );
        assert!(
            err.to_string().contains("at least 67.6M (70869584 bytes)"),
            "{err}"
        );
    }

    #[test]
    fn a_bucket_larger_than_a_part_is_split() {
        let text = PackedText::from_codes(&[0; 3000]);
        let partitioner = Partitioner::<u32>::new(&text, 100);
        let plan = partitioner.plan(100);
        assert!(plan.len() >= 30, "{} parts", plan.len());
        assert!(plan.iter().all(|p| p.suffixes <= 100));
        assert_eq!(plan.iter().map(|p| p.suffixes).sum::<usize>(), 3000);
        assert!(
            plan.iter().all(|p| p.buckets == plan[0].buckets),
            "one bucket"
        );
    }
}
