//! The insert-size distribution of a paired-end run, estimated from the data by bwa
//! mem's rules (`mem_pestat` of bwa 0.7.17's bwamem_pair.c), and the bounds within
//! which a pair is proper ([`ProperBounds`]).
//!
//! Unlike bwa, which estimates per batch, the sample is a fixed prefix of the input: the
//! first [`SAMPLE_PAIRS`] pairs, whatever the batch size, thread count or device, so
//! that the output does not depend on them. Of those, the pairs whose mates each have
//! exactly one hit, on one contig, are sampled per orientation (FF, FR, RF, RR as bwa's
//! `mem_infer_dir` defines them) where bwa's distance is 1 to 10,000. Per orientation:
//! under 10 pairs, or under 5% of the most common orientation's, it is skipped;
//! otherwise its quartiles, the mean and standard deviation of the pairs within the
//! quartiles +- 2 IQR, and the proper-pair bounds [p25 - 3 IQR, p75 + 3 IQR] widened to
//! mean +- 4 std, at least 1. Sizes are reported as inserts (outer distances, |TLEN| of
//! a forward-reverse pair): bwa's distance plus one (bwa measures from mate 1's start
//! to mate 2's last base), so galign's percentiles, mean and bounds are bwa's plus one.

use serde::Serialize;

use crate::search::Hit;

/// Pairs at the start of the input from which the distribution is estimated (bwa's
/// batch at one thread holds some 50,000 pairs of 100 bp).
pub const SAMPLE_PAIRS: usize = 65_536;
/// The largest bwa distance sampled (bwa's `max_ins`).
const MAX_SAMPLED: u64 = 10_000;
/// Fewest pairs of an orientation that are analysed (bwa's `MIN_DIR_CNT`).
const MIN_DIR_CNT: usize = 10;
/// Share of the most common orientation's pairs below which one is skipped.
const MIN_DIR_RATIO: f64 = 0.05;
/// IQRs beyond the quartiles from which a distance is an outlier for the mean and std.
const OUTLIER_BOUND: f64 = 2.0;
/// IQRs beyond the quartiles of the proper-pair bounds.
const MAPPING_BOUND: f64 = 3.0;
/// Standard deviations from the mean that the proper-pair bounds cover at least.
const MAX_STDDEV: f64 = 4.0;
/// The largest insert of a proper pair where none is estimated nor asked for.
pub const DEFAULT_MAX_INSERT: u64 = 1000;

/// The four orientations of a pair, as bwa names them (mate 1's strand, then mate 2's
/// as seen from mate 1's strand): FF, FR, RF, RR.
pub const ORIENTATIONS: [&str; 4] = ["FF", "FR", "RF", "RR"];

/// The orientation (an index into [`ORIENTATIONS`]) and bwa's distance of mate 1's hit
/// `a` (of a read of `a_len` bases) and mate 2's `b`, as bwa's `mem_infer_dir`: mate 2's
/// start is taken onto mate 1's strand; `None` on two contigs.
pub fn geometry(a: Hit, a_len: u64, b: Hit, b_len: u64) -> Option<(usize, u64)> {
    if a.contig != b.contig {
        return None;
    }
    let (pos1, end1) = (a.pos as i64, (a.pos + a_len) as i64);
    let (pos2, end2) = (b.pos as i64, (b.pos + b_len) as i64);
    // Starts on mate 1's strand (a reverse strand counted from the contig's end).
    let (x1, x2) = match (a.reverse, b.reverse) {
        (false, false) => (pos1, pos2),
        (false, true) => (pos1, end2 - 1),
        (true, true) => (-end1, -end2),
        (true, false) => (-end1, -1 - pos2),
    };
    let same = usize::from(a.reverse != b.reverse);
    let dir = same ^ if x2 > x1 { 0 } else { 3 };
    Some((dir, x2.abs_diff(x1)))
}

/// An orientation's distribution, in inserts (bwa's distances plus one).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Distribution {
    /// 25th, 50th and 75th percentiles.
    pub percentiles: [u64; 3],
    /// Mean of the pairs within the quartiles +- 2 IQR.
    pub mean: f64,
    /// Their standard deviation.
    pub std: f64,
    /// The smallest insert of a proper pair.
    pub low: u64,
    /// The largest insert of a proper pair.
    pub high: u64,
}

/// What was found for one orientation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OrientationEstimate {
    /// FF, FR, RF or RR.
    pub orientation: &'static str,
    /// Pairs sampled in it.
    pub pairs: u64,
    /// Its distribution, where it had pairs enough; `None`: skipped.
    pub distribution: Option<Distribution>,
    /// Whether pairs in it may be proper (not skipped for too few pairs, nor for under
    /// 5% of the most common orientation's).
    pub used: bool,
}

/// Bwa's `mem_pestat` on the distances `sample` of one orientation (its pairs enough):
/// in bwa's distances, the quartiles, mean, std and bounds.
fn analyse(sample: &mut [u64]) -> Distribution {
    sample.sort_unstable();
    let n = sample.len() as f64;
    let at = |q: f64| sample[(q * n + 0.499) as usize];
    let (p25, p50, p75) = (at(0.25), at(0.50), at(0.75));
    let iqr = (p75 - p25) as f64;
    let low = ((p25 as f64 - OUTLIER_BOUND * iqr + 0.499) as i64).max(1);
    let high = (p75 as f64 + OUTLIER_BOUND * iqr + 0.499) as i64;
    let kept: Vec<f64> = sample
        .iter()
        .filter(|&&d| d as i64 >= low && d as i64 <= high)
        .map(|&d| d as f64)
        .collect();
    let mean = kept.iter().sum::<f64>() / kept.len() as f64;
    let var = kept.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / kept.len() as f64;
    let std = var.sqrt();
    let mut low = (p25 as f64 - MAPPING_BOUND * iqr + 0.499) as i64;
    let mut high = (p75 as f64 + MAPPING_BOUND * iqr + 0.499) as i64;
    if low as f64 > mean - MAX_STDDEV * std {
        low = (mean - MAX_STDDEV * std + 0.499) as i64;
    }
    if (high as f64) < mean + MAX_STDDEV * std {
        high = (mean + MAX_STDDEV * std + 0.499) as i64;
    }
    Distribution {
        percentiles: [p25, p50, p75],
        mean,
        std,
        low: low.max(1) as u64,
        high: high.max(0) as u64,
    }
}

/// Estimates the four orientations' distributions from bwa distances sampled per
/// orientation (`samples[d]` for [`ORIENTATIONS`]`[d]`), reported as inserts.
pub fn estimate(mut samples: [Vec<u64>; 4]) -> [OrientationEstimate; 4] {
    let most = samples.iter().map(Vec::len).max().unwrap_or(0);
    std::array::from_fn(|d| {
        let pairs = samples[d].len();
        let distribution = (pairs >= MIN_DIR_CNT).then(|| {
            let bwa = analyse(&mut samples[d]);
            Distribution {
                percentiles: bwa.percentiles.map(|p| p + 1),
                mean: bwa.mean + 1.0,
                std: bwa.std,
                low: bwa.low + 1,
                high: bwa.high + 1,
            }
        });
        let used = distribution.is_some() && pairs as f64 >= most as f64 * MIN_DIR_RATIO;
        OrientationEstimate {
            orientation: ORIENTATIONS[d],
            pairs: pairs as u64,
            distribution,
            used,
        }
    })
}

/// The pairs sampled for the estimate, per orientation.
#[derive(Default)]
pub struct Sampler {
    samples: [Vec<u64>; 4],
    examined: u64,
}

impl Sampler {
    /// Takes a pair whose mates' hits are `hits1` and `hits2` (reads of `len1` and
    /// `len2` bases): sampled when each mate has exactly one hit, both on one contig, at
    /// a bwa distance of 1 to 10,000.
    pub fn add(&mut self, (hits1, len1): (&[Hit], u64), (hits2, len2): (&[Hit], u64)) {
        self.examined += 1;
        if let ([a], [b]) = (hits1, hits2) {
            if let Some((dir, dist)) = geometry(*a, len1, *b, len2) {
                if dist > 0 && dist <= MAX_SAMPLED {
                    self.samples[dir].push(dist);
                }
            }
        }
    }

    /// Takes the pairs of `other` too.
    pub fn merge(&mut self, other: Sampler) {
        self.examined += other.examined;
        for (mine, theirs) in self.samples.iter_mut().zip(other.samples) {
            mine.extend(theirs);
        }
    }

    /// The bounds of proper pairs the sample gives, and what was found: the estimated
    /// orientations, or, where none has pairs enough, the default.
    pub fn finish(self) -> (ProperBounds, InsertSizes) {
        let sampled = self.samples.iter().map(|s| s.len() as u64).sum();
        let orientations = estimate(self.samples);
        let bounds: [Option<(u64, u64)>; 4] = std::array::from_fn(|d| {
            let o = &orientations[d];
            o.distribution
                .as_ref()
                .filter(|_| o.used)
                .map(|dist| (dist.low, dist.high))
        });
        let (proper, from) = match bounds.iter().any(Option::is_some) {
            true => (ProperBounds::Estimated(bounds), "estimated"),
            false => (ProperBounds::fixed(None, None), "default"),
        };
        let report = InsertSizes {
            bounds_from: from,
            pairs_examined: self.examined,
            pairs_sampled: sampled,
            orientations: orientations.to_vec(),
            proper: proper.listed(),
        };
        (proper, report)
    }
}

/// Which pairs are proper (concordant): their orientation and insert size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProperBounds {
    /// Forward-reverse pairs, the forward mate first, within `min..=max` (outer
    /// distance): `--min-insert`/`--max-insert`, or the default where none could be
    /// estimated.
    Fixed {
        /// Smallest insert.
        min: u64,
        /// Largest insert.
        max: u64,
    },
    /// Per orientation ([`ORIENTATIONS`]), the inserts of a proper pair (bwa's
    /// distance plus one); `None`: never proper.
    Estimated([Option<(u64, u64)>; 4]),
}

impl ProperBounds {
    /// Forward-reverse pairs within `min` (default 0) and `max` (default
    /// [`DEFAULT_MAX_INSERT`]).
    pub fn fixed(min: Option<u64>, max: Option<u64>) -> Self {
        ProperBounds::Fixed {
            min: min.unwrap_or(0),
            max: max.unwrap_or(DEFAULT_MAX_INSERT),
        }
    }

    /// Whether mate 1's hit `a` (a read of `a_len` bases) and mate 2's `b` are
    /// concordant.
    pub fn concordant(&self, a: Hit, a_len: u64, b: Hit, b_len: u64) -> bool {
        match self {
            ProperBounds::Fixed { min, max } => {
                concordant(a, a_len, b, b_len, *max) && outer_distance(a, a_len, b, b_len) >= *min
            }
            ProperBounds::Estimated(bounds) => match geometry(a, a_len, b, b_len) {
                Some((dir, dist)) => {
                    matches!(bounds[dir], Some((low, high)) if (low..=high).contains(&(dist + 1)))
                }
                None => false,
            },
        }
    }

    /// The bounds as listed in the report.
    fn listed(&self) -> Vec<InsertBounds> {
        match self {
            ProperBounds::Fixed { min, max } => vec![InsertBounds {
                orientation: "FR",
                low: *min,
                high: *max,
            }],
            ProperBounds::Estimated(bounds) => (0..4)
                .filter_map(|d| {
                    bounds[d].map(|(low, high)| InsertBounds {
                        orientation: ORIENTATIONS[d],
                        low,
                        high,
                    })
                })
                .collect(),
        }
    }
}

/// The span of two hits on one contig: the last base's end less the first base.
fn outer_distance(a: Hit, a_len: u64, b: Hit, b_len: u64) -> u64 {
    let start = a.pos.min(b.pos);
    (a.pos + a_len).max(b.pos + b_len) - start
}

/// The inserts of a proper pair in one orientation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InsertBounds {
    /// FF, FR, RF or RR.
    pub orientation: &'static str,
    /// Smallest insert.
    pub low: u64,
    /// Largest insert.
    pub high: u64,
}

/// The insert sizes of a paired-end run, as the summary and `--stats` report them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InsertSizes {
    /// Where the bounds of proper pairs come from: "estimated" (from the data),
    /// "default" (too few pairs to estimate: forward-reverse up to
    /// [`DEFAULT_MAX_INSERT`]) or "option" (`--min-insert`/`--max-insert`).
    pub bounds_from: &'static str,
    /// Pairs at the start of the input looked at (at most [`SAMPLE_PAIRS`]).
    pub pairs_examined: u64,
    /// Of those, the pairs sampled (each mate one hit, on one contig, within 10,000).
    pub pairs_sampled: u64,
    /// What was found per orientation (none under "option").
    pub orientations: Vec<OrientationEstimate>,
    /// The bounds of proper pairs applied, per orientation that may be proper.
    pub proper: Vec<InsertBounds>,
}

impl InsertSizes {
    /// The report of bounds asked for on the command line (nothing estimated).
    pub fn from_options(bounds: ProperBounds) -> Self {
        InsertSizes {
            bounds_from: "option",
            pairs_examined: 0,
            pairs_sampled: 0,
            orientations: Vec::new(),
            proper: bounds.listed(),
        }
    }

    /// The lines of the run's summary on stderr.
    pub fn summary(&self) -> Vec<String> {
        let bounds: Vec<String> = self
            .proper
            .iter()
            .map(|b| format!("{} {}-{}", b.orientation, b.low, b.high))
            .collect();
        let bounds = bounds.join(", ");
        let mut lines = match self.bounds_from {
            "option" => vec![format!("proper pairs: {bounds} (as asked)")],
            from => vec![format!(
                "insert sizes from the first {} pairs: {} sampled; proper pairs: {bounds}{}",
                self.pairs_examined,
                self.pairs_sampled,
                match from {
                    "default" => " (too few pairs to estimate: the default)",
                    _ => "",
                }
            )],
        };
        for o in &self.orientations {
            if let Some(d) = o.distribution.as_ref().filter(|_| o.used) {
                let [p25, p50, p75] = d.percentiles;
                lines.push(format!(
                    "insert size {}: {} pairs, percentiles (25, 50, 75) ({p25}, {p50}, {p75}), \
                     mean {:.2}, std {:.2}",
                    o.orientation, o.pairs, d.mean, d.std
                ));
            }
        }
        lines
    }
}

/// Whether two hits are a forward-reverse pair on one contig, the forward hit first,
/// within `max_insert` (outer distance): galign's fixed rule ([`ProperBounds::Fixed`]).
pub fn concordant(a: Hit, a_len: u64, b: Hit, b_len: u64, max_insert: u64) -> bool {
    if a.contig != b.contig || a.reverse == b.reverse {
        return false;
    }
    let (fwd, rev, rev_len) = if a.reverse {
        (b, a, a_len)
    } else {
        (a, b, b_len)
    };
    let fwd_len = if a.reverse { b_len } else { a_len };
    let start = fwd.pos.min(rev.pos);
    let end = (fwd.pos + fwd_len).max(rev.pos + rev_len);
    fwd.pos <= rev.pos && end - start <= max_insert
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(contig: u32, pos: u64, reverse: bool) -> Hit {
        Hit {
            mismatches: 0,
            contig,
            pos,
            reverse,
        }
    }

    #[test]
    fn orientations_and_distances_are_bwas() {
        // Mate 1 forward at 100 (50 bp), mate 2 reverse at 300 (50 bp, ends at 350):
        // FR, bwa's distance 349 - 100 = 249, an insert of 250.
        let fr = geometry(hit(0, 100, false), 50, hit(0, 300, true), 50);
        assert_eq!(fr, Some((1, 249)));
        // The same with the mates swapped is still FR.
        assert_eq!(
            geometry(hit(0, 300, true), 50, hit(0, 100, false), 50),
            Some((1, 249))
        );
        // Reverse mate left of the forward one: RF.
        assert_eq!(
            geometry(hit(0, 300, false), 50, hit(0, 100, true), 50),
            Some((2, 151))
        );
        // Same strand: FF when mate 2 lies downstream on mate 1's strand, else RR.
        assert_eq!(
            geometry(hit(0, 100, false), 50, hit(0, 300, false), 50),
            Some((0, 200))
        );
        assert_eq!(
            geometry(hit(0, 300, false), 50, hit(0, 100, false), 50),
            Some((3, 200))
        );
        assert_eq!(
            geometry(hit(0, 300, true), 50, hit(0, 100, true), 50),
            Some((0, 200))
        );
        assert_eq!(
            geometry(hit(0, 100, false), 50, hit(1, 300, true), 50),
            None
        );
    }

    #[test]
    fn the_estimate_is_bwas_mem_pestat_by_hand() {
        // 20 distances: 100..=119, and one outlier 1000 (21 in all).
        let mut fr: Vec<u64> = (100..120).collect();
        fr.push(1000);
        // n = 21: p25 = a[(5.25 + .499) as usize] = a[5] = 105; p50 = a[10] = 110;
        // p75 = a[16] = 116 (15.75 + .499 = 16.249). IQR 11.
        // Outlier bounds: 105 - 22 = 83, 116 + 22 = 138: 1000 dropped; the mean of
        // 100..=119 is 109.5, std sqrt((20^2 - 1) / 12) = 5.766281...
        // Proper bounds: 105 - 33 = 72, 116 + 33 = 149; mean -+ 4 std = 86.4, 132.6
        // lie within. As inserts: all plus one but the std.
        let [ff, fr, rf, rr] = estimate([vec![1; 9], fr, vec![], vec![]]);
        let d = fr.distribution.clone().unwrap();
        assert_eq!(d.percentiles, [106, 111, 117]);
        assert!((d.mean - 110.5).abs() < 1e-9, "{}", d.mean);
        assert!((d.std - (399.0f64 / 12.0).sqrt()).abs() < 1e-9, "{}", d.std);
        assert_eq!((d.low, d.high), (73, 150));
        assert!(fr.used && fr.pairs == 21);
        assert!(
            ff.distribution.is_none() && !ff.used && ff.pairs == 9,
            "under 10 pairs"
        );
        assert!(!rf.used && !rr.used);
    }

    #[test]
    fn a_narrow_distribution_widens_to_four_std_and_low_stays_positive() {
        // 10 distances 10, 10, ..., 10, 30 (IQR 0): outlier bounds 10..10 keep the
        // nine 10s: mean 10, std 0; proper bounds 10..10 (as inserts 11..11).
        let mut s = vec![10; 9];
        s.push(30);
        let [_, fr, _, _] = estimate([vec![], s, vec![], vec![]]);
        let d = fr.distribution.unwrap();
        assert_eq!((d.percentiles, d.low, d.high), ([11, 11, 11], 11, 11));
        assert_eq!((d.mean, d.std), (11.0, 0.0));
        // Spread values: 1, 2, ..., 12 (n 12): p25 a[3] = 4, p75 a[9] = 10; IQR 6.
        // Mean 6.5, std sqrt(143/12) = 3.452; proper low 4 - 18 = -13 (below mean - 4
        // std = -7.3), at least 1; high 10 + 18 = 28 (mean + 4 std = 20.3 within).
        let s: Vec<u64> = (1..=12).collect();
        let [_, fr, _, _] = estimate([vec![], s, vec![], vec![]]);
        let d = fr.distribution.unwrap();
        assert_eq!((d.percentiles, d.low, d.high), ([5, 8, 11], 2, 29));
    }

    #[test]
    fn a_rare_orientation_is_skipped() {
        // 400 FR pairs, 19 RF (under 5%: skipped), 20 RR (5%: kept).
        let fr: Vec<u64> = (0..400).map(|i| 200 + i % 50).collect();
        let [_, fr, rf, rr] = estimate([vec![], fr, vec![300; 19], vec![300; 20]]);
        assert!(fr.used);
        assert!(rf.distribution.is_some() && !rf.used);
        assert!(rr.used);
    }

    #[test]
    fn too_few_pairs_fall_back_to_the_default() {
        let mut sampler = Sampler::default();
        let (a, b) = (hit(0, 100, false), hit(0, 300, true));
        for _ in 0..9 {
            sampler.add((&[a], 50), (&[b], 50));
        }
        // Not sampled: a mate with two hits, or none, or mates on two contigs.
        sampler.add((&[a, b], 50), (&[b], 50));
        sampler.add((&[], 50), (&[b], 50));
        sampler.add((&[a], 50), (&[hit(1, 300, true)], 50));
        let (bounds, report) = sampler.finish();
        assert_eq!(bounds, ProperBounds::Fixed { min: 0, max: 1000 });
        assert_eq!((report.pairs_examined, report.pairs_sampled), (12, 9));
        assert_eq!(report.bounds_from, "default");
        assert!(
            report.summary()[0].contains("too few pairs"),
            "{:?}",
            report.summary()
        );
    }

    #[test]
    fn estimated_bounds_decide_orientation_and_size() {
        let mut bounds = [None; 4];
        bounds[1] = Some((150, 350));
        let proper = ProperBounds::Estimated(bounds);
        let fr =
            |insert: u64| proper.concordant(hit(0, 100, false), 50, hit(0, 50 + insert, true), 50);
        assert!(fr(150) && fr(250) && fr(350));
        assert!(!fr(149) && !fr(351));
        assert!(
            !proper.concordant(hit(0, 300, false), 50, hit(0, 100, true), 50),
            "RF"
        );
        assert!(
            !proper.concordant(hit(0, 100, false), 50, hit(0, 200, false), 50),
            "FF"
        );
        let fixed = ProperBounds::fixed(Some(200), Some(300));
        let fr =
            |insert: u64| fixed.concordant(hit(0, 100, false), 50, hit(0, 50 + insert, true), 50);
        assert!(!fr(199) && fr(200) && fr(300) && !fr(301));
    }
}
