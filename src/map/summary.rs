//! `galign map --summary-file`: the run's counts as bowtie2's alignment summary (the
//! text bowtie2 prints on stderr), which MultiQC's bowtie2 module and pipelines' greps
//! read. Single-end reads count as bowtie2's unpaired ones (aligned 0 times, exactly 1
//! time, >1 times: no hit, one hit in the best stratum, more); pairs as its paired ones:
//! concordant = proper, exactly 1 time when both mates have one hit in their best
//! stratum; discordant = not proper with both mates mapped once; the mates of the other
//! pairs counted one by one.

use std::fmt::Write;

use super::MapStats;

/// Counts of one kind of pair, for the paired-end part of the summary.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PairCounts {
    /// Pairs given.
    pub pairs: u64,
    /// Proper pairs whose mates have one hit each in their best stratum.
    pub concordant_once: u64,
    /// Other proper pairs.
    pub concordant_more: u64,
    /// Pairs not proper whose mates have one hit each.
    pub discordant_once: u64,
    /// Mates of the remaining pairs (neither concordant nor discordant) with no hit.
    pub mates_unmapped: u64,
    /// Such mates with one hit in their best stratum.
    pub mates_once: u64,
    /// Such mates with more.
    pub mates_more: u64,
}

impl PairCounts {
    /// Counts a pair, proper or not, whose mates have `best1` and `best2` hits in their
    /// best strata.
    pub(super) fn count(&mut self, proper: bool, best1: usize, best2: usize) {
        self.pairs += 1;
        let both_once = best1 == 1 && best2 == 1;
        match (proper, both_once) {
            (true, true) => self.concordant_once += 1,
            (true, false) => self.concordant_more += 1,
            (false, true) => self.discordant_once += 1,
            (false, false) => {
                for best in [best1, best2] {
                    match best {
                        0 => self.mates_unmapped += 1,
                        1 => self.mates_once += 1,
                        _ => self.mates_more += 1,
                    }
                }
            }
        }
    }

    /// Adds `other`'s counts.
    pub(super) fn add(&mut self, other: &PairCounts) {
        self.pairs += other.pairs;
        self.concordant_once += other.concordant_once;
        self.concordant_more += other.concordant_more;
        self.discordant_once += other.discordant_once;
        self.mates_unmapped += other.mates_unmapped;
        self.mates_once += other.mates_once;
        self.mates_more += other.mates_more;
    }
}

/// `x` as a percentage of `of` with two decimals, as bowtie2 prints it (0.00 of none).
fn percent(x: u64, of: u64) -> String {
    format!("{:.2}%", 100.0 * x as f64 / of.max(1) as f64)
}

/// The run's summary in bowtie2's words and layout (`paired`: its paired-end form).
pub fn bowtie2_summary(stats: &MapStats, paired: bool) -> String {
    let mut s = String::new();
    match paired {
        false => {
            let n = stats.reads;
            let _ = writeln!(s, "{n} reads; of these:");
            let _ = writeln!(s, "  {n} ({}) were unpaired; of these:", percent(n, n));
            let line = |s: &mut String, x, what| {
                let _ = writeln!(s, "    {x} ({}) aligned {what}", percent(x, n));
            };
            line(&mut s, stats.unmapped, "0 times");
            line(&mut s, stats.unique, "exactly 1 time");
            line(&mut s, stats.multi, ">1 times");
        }
        true => paired_part(&mut s, &stats.pair_counts),
    }
    let _ = writeln!(
        s,
        "{} overall alignment rate",
        percent(stats.mapped, stats.reads)
    );
    s
}

/// The paired-end lines of the summary, before the overall rate.
fn paired_part(s: &mut String, c: &PairCounts) {
    let n = c.pairs;
    let not_concordant = n - c.concordant_once - c.concordant_more;
    let rest = not_concordant - c.discordant_once;
    let mates = 2 * rest;
    let _ = writeln!(s, "{n} reads; of these:");
    let _ = writeln!(s, "  {n} ({}) were paired; of these:", percent(n, n));
    let pct = |x| percent(x, n);
    let _ = writeln!(
        s,
        "    {not_concordant} ({}) aligned concordantly 0 times",
        pct(not_concordant)
    );
    let _ = writeln!(
        s,
        "    {} ({}) aligned concordantly exactly 1 time",
        c.concordant_once,
        pct(c.concordant_once)
    );
    let _ = writeln!(
        s,
        "    {} ({}) aligned concordantly >1 times",
        c.concordant_more,
        pct(c.concordant_more)
    );
    let _ = writeln!(s, "    ----");
    let _ = writeln!(
        s,
        "    {not_concordant} pairs aligned concordantly 0 times; of these:"
    );
    let _ = writeln!(
        s,
        "      {} ({}) aligned discordantly 1 time",
        c.discordant_once,
        percent(c.discordant_once, not_concordant)
    );
    let _ = writeln!(s, "    ----");
    let _ = writeln!(
        s,
        "    {rest} pairs aligned 0 times concordantly or discordantly; of these:"
    );
    let _ = writeln!(s, "      {mates} mates make up the pairs; of these:");
    for (x, what) in [
        (c.mates_unmapped, "0 times"),
        (c.mates_once, "exactly 1 time"),
        (c.mates_more, ">1 times"),
    ] {
        let _ = writeln!(s, "        {x} ({}) aligned {what}", percent(x, mates));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_end_counts_read_as_bowtie2_writes_them() {
        let stats = MapStats {
            reads: 10_000,
            mapped: 9_404,
            unique: 9_194,
            multi: 210,
            unmapped: 596,
            ..Default::default()
        };
        assert_eq!(
            bowtie2_summary(&stats, false),
            "10000 reads; of these:\n  10000 (100.00%) were unpaired; of these:\n    \
             596 (5.96%) aligned 0 times\n    9194 (91.94%) aligned exactly 1 time\n    \
             210 (2.10%) aligned >1 times\n94.04% overall alignment rate\n"
        );
    }

    #[test]
    fn pairs_fall_into_bowtie2s_classes() {
        let mut c = PairCounts::default();
        c.count(true, 1, 1);
        c.count(true, 1, 3);
        c.count(false, 1, 1);
        c.count(false, 0, 2);
        c.count(false, 0, 0);
        let stats = MapStats {
            reads: 10,
            mapped: 7,
            pair_counts: c,
            ..Default::default()
        };
        let text = bowtie2_summary(&stats, true);
        for line in [
            "5 reads; of these:\n  5 (100.00%) were paired; of these:\n",
            "    3 (60.00%) aligned concordantly 0 times\n",
            "    1 (20.00%) aligned concordantly exactly 1 time\n",
            "    1 (20.00%) aligned concordantly >1 times\n",
            "      1 (33.33%) aligned discordantly 1 time\n",
            "    2 pairs aligned 0 times concordantly or discordantly; of these:\n",
            "      4 mates make up the pairs; of these:\n",
            "        3 (75.00%) aligned 0 times\n",
            "        0 (0.00%) aligned exactly 1 time\n",
            "        1 (25.00%) aligned >1 times\n70.00% overall alignment rate\n",
        ] {
            assert!(text.contains(line), "{line:?} in\n{text}");
        }
    }
}
