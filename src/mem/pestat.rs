//! The insert size distribution of a batch of pairs as bwa mem 0.7.17 estimates it
//! (`mem_pestat` of bwamem_pair.c: per orientation, from pairs whose best hits are
//! unique and on one contig, percentiles, mean and standard deviation within outlier
//! bounds, the bounds of proper pairs), the orientation and distance of two hits
//! (`mem_infer_dir`), and `-I` as bwa reads it.

use super::ksort::introsort;
use super::region::AlnReg;
use super::settings::AlignOptions;

/// `MIN_RATIO`.
const MIN_RATIO: f64 = 0.8;
/// `MIN_DIR_CNT`.
const MIN_DIR_CNT: usize = 10;
/// `MIN_DIR_RATIO`.
const MIN_DIR_RATIO: f64 = 0.05;
/// `OUTLIER_BOUND`.
const OUTLIER_BOUND: f64 = 2.0;
/// `MAPPING_BOUND`.
const MAPPING_BOUND: f64 = 3.0;
/// `MAX_STDDEV`.
const MAX_STDDEV: f64 = 4.0;

/// The insert size distribution of one orientation (`mem_pestat_t`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PeStat {
    /// Shortest insert of a proper pair.
    pub low: i32,
    /// Longest insert of a proper pair.
    pub high: i32,
    /// Whether the orientation is not used.
    pub failed: bool,
    /// Mean insert.
    pub avg: f64,
    /// Standard deviation.
    pub std: f64,
}

/// The four orientations, FF, FR, RF, RR.
pub type PeStats = [PeStat; 4];

/// `mem_infer_dir`: the orientation (0 FF, 1 FR, 2 RF, 3 RR) of hits starting at `b1`
/// and `b2` (forward-then-reverse text) and their distance on read 1's strand.
pub fn infer_dir(l_pac: i64, b1: i64, b2: i64) -> (usize, i64) {
    let (r1, r2) = (b1 >= l_pac, b2 >= l_pac);
    let p2 = if r1 == r2 { b2 } else { (l_pac << 1) - 1 - b2 };
    let dist = (p2 - b1).abs();
    let dir = usize::from(r1 != r2) ^ if p2 > b1 { 0 } else { 3 };
    (dir, dist)
}

/// `cal_sub`: the score of the best hit overlapping the top one on the read, else the
/// least seed score.
fn cal_sub(opt: &AlignOptions, r: &[AlnReg]) -> i32 {
    let top = &r[0];
    for h in &r[1..] {
        let b_max = h.qb.max(top.qb);
        let e_min = h.qe.min(top.qe);
        if e_min > b_max {
            let min_l = (h.qe - h.qb).min(top.qe - top.qb);
            if (e_min - b_max) as f32 >= min_l as f32 * opt.chain.mask_level {
                return h.score;
            }
        }
    }
    opt.chain.min_seed_len * opt.a
}

/// `mem_pestat` over the regions of a batch's pairs (`regs[2i]`, `regs[2i + 1]`: the
/// mates of pair `i`, as `mem_align1_core` leaves them), with bwa's messages in `log`.
pub fn pestat(
    opt: &AlignOptions,
    l_pac: i64,
    regs: &[Vec<AlnReg>],
    log: &mut Vec<String>,
) -> PeStats {
    let mut isize: [Vec<u64>; 4] = Default::default();
    for pair in regs.chunks_exact(2) {
        let (r0, r1) = (&pair[0], &pair[1]);
        if r0.is_empty() || r1.is_empty() {
            continue;
        }
        if f64::from(cal_sub(opt, r0)) > MIN_RATIO * f64::from(r0[0].score)
            || f64::from(cal_sub(opt, r1)) > MIN_RATIO * f64::from(r1[0].score)
            || r0[0].rid != r1[0].rid
        {
            continue;
        }
        let (dir, is) = infer_dir(l_pac, r0[0].rb, r1[0].rb);
        if is != 0 && is <= i64::from(opt.max_ins) {
            isize[dir].push(is as u64);
        }
    }
    log.push(format!(
        "# candidate unique pairs for (FF, FR, RF, RR): ({}, {}, {}, {})",
        isize[0].len(),
        isize[1].len(),
        isize[2].len(),
        isize[3].len()
    ));
    let mut pes = PeStats::default();
    for (d, q) in isize.iter_mut().enumerate() {
        let name = orientation(d);
        if q.len() < MIN_DIR_CNT {
            log.push(format!(
                "skip orientation {name} as there are not enough pairs"
            ));
            pes[d].failed = true;
            continue;
        }
        log.push(format!(
            "analyzing insert size distribution for orientation {name}..."
        ));
        introsort(q, |a, b| a < b);
        pes[d] = distribution(q, log);
    }
    let max = isize.iter().map(Vec::len).max().unwrap_or(0);
    for (d, p) in pes.iter_mut().enumerate() {
        if !p.failed && (isize[d].len() as f64) < max as f64 * MIN_DIR_RATIO {
            p.failed = true;
            log.push(format!("skip orientation {}", orientation(d)));
        }
    }
    pes
}

/// The orientation's name, `FR` for 1.
fn orientation(d: usize) -> String {
    let c = |bit: usize| if bit == 0 { 'F' } else { 'R' };
    format!("{}{}", c(d >> 1 & 1), c(d & 1))
}

/// One orientation's distribution from its sorted inserts `q` (at least
/// [`MIN_DIR_CNT`]).
fn distribution(q: &[u64], log: &mut Vec<String>) -> PeStat {
    let n = q.len() as f64;
    let at = |f: f64| q[(f * n + 0.499) as usize] as i32;
    let (p25, p50, p75) = (at(0.25), at(0.50), at(0.75));
    let iqr = f64::from(p75 - p25);
    let mut r = PeStat::default();
    r.low = ((f64::from(p25) - OUTLIER_BOUND * iqr + 0.499) as i32).max(1);
    r.high = (f64::from(p75) + OUTLIER_BOUND * iqr + 0.499) as i32;
    log.push(format!("(25, 50, 75) percentile: ({p25}, {p50}, {p75})"));
    log.push(format!(
        "low and high boundaries for computing mean and std.dev: ({}, {})",
        r.low, r.high
    ));
    let within = |&&v: &&u64| v >= r.low as u64 && v <= r.high as u64;
    let mut x = 0;
    for &v in q.iter().filter(within) {
        r.avg += v as f64;
        x += 1;
    }
    r.avg /= f64::from(x);
    for &v in q.iter().filter(within) {
        r.std += (v as f64 - r.avg) * (v as f64 - r.avg);
    }
    r.std = (r.std / f64::from(x)).sqrt();
    log.push(format!("mean and std.dev: ({:.2}, {:.2})", r.avg, r.std));
    r.low = (f64::from(p25) - MAPPING_BOUND * iqr + 0.499) as i32;
    r.high = (f64::from(p75) + MAPPING_BOUND * iqr + 0.499) as i32;
    if f64::from(r.low) > r.avg - MAX_STDDEV * r.std {
        r.low = (r.avg - MAX_STDDEV * r.std + 0.499) as i32;
    }
    if f64::from(r.high) < r.avg + MAX_STDDEV * r.std {
        r.high = (r.avg + MAX_STDDEV * r.std + 0.499) as i32;
    }
    r.low = r.low.max(1);
    log.push(format!(
        "low and high boundaries for proper pairs: ({}, {})",
        r.low, r.high
    ));
    r
}

/// `strtod`'s longest prefix of `text` that is a decimal number, and the rest.
fn strtod(text: &str) -> Option<(f64, &str)> {
    let end = (1..=text.len())
        .rev()
        .filter(|&i| text.is_char_boundary(i))
        .find(|&i| {
            let t = &text[..i];
            !t.ends_with(['e', 'E', '+', '-']) && t.trim_start().parse::<f64>().is_ok()
        })?;
    Some((text[..end].trim_start().parse().ok()?, &text[end..]))
}

/// `-I FLOAT[,FLOAT[,INT[,INT]]]` as bwa mem reads it: mean, standard deviation (10% of
/// the mean), most and least insert (mean -/+ 4 standard deviations) of FR pairs; the
/// other orientations left as bwa leaves them, zero and not failed (so that mate rescue
/// looks for them too, in windows of the read's length); `None` where the mean is not
/// a number.
pub fn insert_option(text: &str) -> Option<PeStats> {
    let mut pes = PeStats::default();
    let r = &mut pes[1];
    let (avg, mut rest) = strtod(text)?;
    r.avg = avg;
    r.std = avg * 0.1;
    let next = |rest: &mut &str| -> Option<f64> {
        let mut chars = rest.chars();
        let (sep, digit) = (chars.next()?, chars.next()?);
        if !(sep.is_ascii_punctuation() && digit.is_ascii_digit()) {
            return None;
        }
        let (v, after) = strtod(&rest[1..])?;
        *rest = after;
        Some(v)
    };
    if let Some(std) = next(&mut rest) {
        r.std = std;
    }
    r.high = (r.avg + 4.0 * r.std + 0.499) as i32;
    r.low = ((r.avg - 4.0 * r.std + 0.499) as i32).max(1);
    if let Some(high) = next(&mut rest) {
        r.high = (high + 0.499) as i32;
    }
    if let Some(low) = next(&mut rest) {
        r.low = (low + 0.499) as i32;
    }
    Some(pes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Orientation and distance as bwa's `mem_infer_dir`: FR where read 2 lies on the
    /// other strand past read 1.
    #[test]
    fn infer_dir_as_bwa() {
        let l_pac = 1000;
        // read 1 forward at 100, read 2 reverse ending at 399 (start 600 on the reverse)
        assert_eq!(infer_dir(l_pac, 100, 1600), (1, 299));
        assert_eq!(infer_dir(l_pac, 100, 50), (3, 50));
        assert_eq!(infer_dir(l_pac, 100, 300), (0, 200));
        assert_eq!(infer_dir(l_pac, 1600, 100), (1, 299));
    }

    /// `-I 300,30,400,250` and `-I 300` as bwa's option parser reads them.
    #[test]
    fn insert_option_as_bwa() {
        let p = insert_option("300,30,400,250").unwrap();
        assert_eq!(
            (p[1].avg, p[1].std, p[1].high, p[1].low),
            (300.0, 30.0, 400, 250)
        );
        assert!(p.iter().all(|p| !p.failed));
        assert_eq!((p[0].low, p[0].high, p[0].avg), (0, 0, 0.0));
        let p = insert_option("300").unwrap();
        assert_eq!((p[1].std, p[1].high, p[1].low), (30.0, 420, 180));
        assert!(insert_option("x").is_none());
    }
}
