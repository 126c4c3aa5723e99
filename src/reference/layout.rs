//! Where each contig lies in the concatenated text, and which stretches of it were
//! ambiguity codes in the FASTA. A hit is reportable only when it stays inside one
//! contig and touches no ambiguous stretch.

use serde::{Deserialize, Serialize};

/// One FASTA record: name (first word of the header), the rest of the header, and its
/// place in the concatenated text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contig {
    /// First whitespace-separated word of the header line.
    pub name: String,
    /// The rest of the header line (may be empty).
    pub description: String,
    /// Offset of the contig's first base in the text.
    pub offset: u64,
    /// Number of bases.
    pub len: u64,
}

/// A maximal run of ambiguity codes (N or IUPAC), half-open, in text coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmbiguousRun {
    /// First ambiguous position.
    pub start: u64,
    /// One past the last ambiguous position.
    pub end: u64,
}

/// The contigs and ambiguous runs of a reference, both sorted by text position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// Contigs in FASTA order; their offsets increase and tile the text.
    pub contigs: Vec<Contig>,
    /// Ambiguous runs, sorted and disjoint; runs never cross a contig boundary.
    pub ambiguous: Vec<AmbiguousRun>,
}

impl Layout {
    /// Total text length.
    pub fn text_len(&self) -> u64 {
        self.contigs.last().map_or(0, |c| c.offset + c.len)
    }

    /// Checks a layout read from a file: the contigs (at least one, none empty) tile a
    /// text of `text_len` bases in order, each named as SAM allows, and the ambiguous runs are sorted, disjoint,
    /// not empty and inside it. `Err` says what is wrong.
    pub fn check(&self, text_len: u64) -> Result<(), String> {
        let mut end = 0u64;
        for contig in &self.contigs {
            if let Some(problem) = crate::io::names::contig_name_problem(contig.name.as_bytes()) {
                return Err(problem);
            }
            if contig.offset != end || contig.len == 0 {
                return Err(format!(
                    "contig '{}' does not follow the one before",
                    contig.name
                ));
            }
            end = end
                .checked_add(contig.len)
                .ok_or_else(|| format!("contig '{}' is too long", contig.name))?;
        }
        if self.contigs.is_empty() || end != text_len {
            return Err("the contigs do not make up the text".into());
        }
        let mut after = 0u64;
        for run in &self.ambiguous {
            if run.start < after || run.end <= run.start || run.end > text_len {
                return Err("the ambiguous runs are not sorted runs inside the text".into());
            }
            after = run.end;
        }
        Ok(())
    }

    /// Index of the contig holding text position `pos` (which must be in the text).
    pub fn contig_at(&self, pos: u64) -> usize {
        self.contigs.partition_point(|c| c.offset + c.len <= pos)
    }

    /// Places a hit of `len` bases at text position `pos`: `Some((contig, offset in
    /// contig))` when it lies inside one contig and overlaps no ambiguous run.
    pub fn place_hit(&self, pos: u64, len: u64) -> Option<(usize, u64)> {
        let end = pos + len;
        let ci = self.contig_at(pos);
        let contig = self.contigs.get(ci)?;
        if end > contig.offset + contig.len {
            return None;
        }
        let first_run_ending_after = self.ambiguous.partition_point(|r| r.end <= pos);
        if let Some(run) = self.ambiguous.get(first_run_ending_after) {
            if run.start < end {
                return None;
            }
        }
        Some((ci, pos - contig.offset))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        let c = |name: &str, offset, len| Contig {
            name: name.into(),
            description: String::new(),
            offset,
            len,
        };
        Layout {
            contigs: vec![c("a", 0, 10), c("b", 10, 5), c("c", 15, 20)],
            ambiguous: vec![
                AmbiguousRun { start: 3, end: 5 },
                AmbiguousRun { start: 20, end: 21 },
            ],
        }
    }

    #[test]
    fn hits_crossing_contigs_or_ambiguous_runs_are_rejected() {
        let l = layout();
        assert_eq!(l.place_hit(0, 3), Some((0, 0)));
        assert_eq!(l.place_hit(0, 4), None, "overlaps N run at 3");
        assert_eq!(l.place_hit(4, 2), None);
        assert_eq!(l.place_hit(5, 5), Some((0, 5)));
        assert_eq!(l.place_hit(5, 6), None, "spans contigs a and b");
        assert_eq!(l.place_hit(10, 5), Some((1, 0)));
        assert_eq!(l.place_hit(15, 5), Some((2, 0)));
        assert_eq!(l.place_hit(15, 6), None);
        assert_eq!(l.place_hit(21, 14), Some((2, 6)));
        assert_eq!(l.place_hit(21, 15), None, "runs past the text");
        assert_eq!(l.text_len(), 35);
    }
}
