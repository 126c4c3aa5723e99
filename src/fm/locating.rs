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

/// What one step of a walk that checks the text before its row found
/// ([`FmIndex::advance_locating_after`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// The row's text position.
    Located(u64),
    /// The next state (prefetched).
    Walking(Locating),
    /// The text before the row's suffix differs from the symbols it was to hold in
    /// more places than allowed.
    Differs,
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

    /// [`FmIndex::advance_locating`] for a row whose suffix is to follow `before` in the
    /// text with at most `allowed` mismatches: each LF step reads the symbol before the
    /// walk's suffix, which is compared with the one of `before` it stands for (last
    /// first) while any are left; each that differs takes one from `allowed`, and the
    /// walk gives up at the first one too many. A row whose text before it stays within
    /// `allowed` is located as by `advance_locating`; most rows that a search narrowed
    /// to one by chance are let go after a step or two instead of a whole walk and a
    /// text comparison (a sampled row, whose position ends the walk, is compared by the
    /// caller in the text).
    #[inline(always)]
    pub fn advance_locating_after(
        &self,
        locating: Locating,
        before: &[u8],
        allowed: &mut u8,
    ) -> Checked {
        if let Locating::Walk { row, steps } = locating {
            let steps = steps as usize;
            if steps < before.len()
                && !self.sampled.marked(row)
                && self.occ.symbol(row) != before[before.len() - 1 - steps]
            {
                match allowed.checked_sub(1) {
                    Some(left) => *allowed = left,
                    None => return Checked::Differs,
                }
            }
        }
        match self.advance_locating(locating) {
            Ok(position) => Checked::Located(position),
            Err(next) => Checked::Walking(next),
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
    use super::Checked;
    use crate::fm::FmParts;
    use crate::reference::PackedText;
    use crate::test_support::random_codes;

    #[test]
    fn a_checked_walk_lets_go_only_of_rows_whose_text_differs() {
        let codes = random_codes(4000, 5, 4);
        let text = PackedText::from_codes(&codes);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let parts = FmParts::build(&text, &sa, 16);
        let fm = parts.view(&text);
        let walk = |row: u64, before: &[u8], mut allowed: u8| {
            let mut state = fm.start_locating(row);
            loop {
                match fm.advance_locating_after(state, before, &mut allowed) {
                    Checked::Walking(next) => state = next,
                    done => return done,
                }
            }
        };
        let (mut differs, mut rows) = (0, 0);
        for (row, &p) in (1..).zip(&sa) {
            let p = p as usize;
            let len = p.min(40);
            let mut before = codes[p - len..p].to_vec();
            assert_eq!(
                walk(row, &before, 0),
                Checked::Located(p as u64),
                "row {row}"
            );
            if len == 0 {
                continue;
            }
            // One symbol changed: let go, or located (and then compared in the text);
            // with one mismatch allowed, located.
            let at = len - 1 - (row as usize * 7) % len;
            before[at] = (before[at] + 1) % 4;
            match walk(row, &before, 0) {
                Checked::Differs => differs += 1,
                found => assert_eq!(found, Checked::Located(p as u64), "row {row}"),
            }
            assert_eq!(
                walk(row, &before, 1),
                Checked::Located(p as u64),
                "row {row}"
            );
            // Two changed, one allowed: let go only where both lie within the walk.
            if at > 0 {
                before[at - 1] = (before[at - 1] + 1) % 4;
                let within = len - (at - 1) <= p % 16;
                let want = match within {
                    true => Checked::Differs,
                    false => Checked::Located(p as u64),
                };
                assert_eq!(walk(row, &before, 1), want, "row {row}");
            }
            rows += 1;
        }
        // The changed symbol, 1 to 40 symbols back, lies within the walk (`p % 16`
        // steps) for about 7.5 / 40 of the rows; the walk lets those go.
        assert!(differs * 8 > rows, "{differs} of {rows} let go");
    }

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
