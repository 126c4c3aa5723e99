//! Locate as a walk that can be paused after each dependent access, for searches that
//! advance many patterns in turn ([`super::interleaved`], the k-mismatch search): each
//! state prefetches what its next step reads. The result is [`FmIndex::locate`]'s.

use super::interleaved::prefetch_value;
use super::FmIndex;

/// Where the location of one row stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Locating {
    /// The LF walk is at `row`, `steps` steps from the row being located; its sampled
    /// mark and Occ block are to be read.
    Walk {
        /// Row reached.
        row: u64,
        /// LF steps taken.
        steps: u64,
    },
    /// The sampled position `rank`, `steps` rows away, is to be read.
    Sampled {
        /// Index of the position in the sampled suffix array.
        rank: usize,
        /// LF steps taken.
        steps: u64,
    },
}

impl FmIndex<'_> {
    /// Starts locating `row`, its first accesses prefetched.
    #[inline(always)]
    pub fn start_locating(&self, row: u64) -> Locating {
        self.walk_at(row, 0)
    }

    /// Takes `locating` one dependent access further: the text position once found,
    /// else the next state (prefetched).
    #[inline(always)]
    pub fn advance_locating(&self, locating: Locating) -> Result<u64, Locating> {
        match locating {
            Locating::Walk { row, steps } => match self.sampled.rank(row) {
                Some(rank) => {
                    prefetch_value(self.sampled.positions, rank);
                    Err(Locating::Sampled { rank, steps })
                }
                None if steps + 1 < u64::from(self.sampled.rate) => {
                    Err(self.walk_at(self.lf(row), steps + 1))
                }
                // A forged index's marks lie: as `locate`, the text's length.
                None => Ok(self.text.len() as u64),
            },
            Locating::Sampled { rank, steps } => Ok(self.sampled.positions.get(rank) + steps),
        }
    }

    /// The walk at `row` after `steps` steps, its reads prefetched.
    #[inline(always)]
    fn walk_at(&self, row: u64, steps: u64) -> Locating {
        self.sampled.prefetch(row);
        self.occ.prefetch(row);
        Locating::Walk { row, steps }
    }
}

#[cfg(test)]
mod tests {
    use crate::fm::FmParts;
    use crate::reference::PackedText;
    use crate::test_support::random_codes;

    #[test]
    fn a_paused_locate_finds_what_locate_finds() {
        let text = PackedText::from_codes(&random_codes(5000, 11, 4));
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        for rate in [1, 3, 16] {
            let parts = FmParts::build(&text, &sa, rate);
            let fm = parts.view(&text);
            for row in 0..=text.len() as u64 {
                let mut state = fm.start_locating(row);
                let position = loop {
                    match fm.advance_locating(state) {
                        Ok(position) => break position,
                        Err(next) => state = next,
                    }
                };
                assert_eq!(position, fm.locate(row), "rate {rate}, row {row}");
            }
        }
    }
}
