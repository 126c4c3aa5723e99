//! CIGARs as the aligners produce them: runs of [`CigarOp`] in query order, with BAM's
//! packed form (`len << 4 | op`, as `ksw.c`'s `push_cigar` writes it) on request.

use std::fmt;

/// One CIGAR operation of the aligners (their BAM codes: M 0, I 1, D 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CigarOp {
    /// Query base against target base (match or mismatch), `M`.
    Match,
    /// Query base against no target base, `I`.
    Ins,
    /// Target base against no query base, `D`.
    Del,
}

impl CigarOp {
    /// BAM's code of the operation.
    pub fn code(self) -> u32 {
        match self {
            CigarOp::Match => 0,
            CigarOp::Ins => 1,
            CigarOp::Del => 2,
        }
    }

    /// SAM's letter of the operation.
    pub fn letter(self) -> char {
        match self {
            CigarOp::Match => 'M',
            CigarOp::Ins => 'I',
            CigarOp::Del => 'D',
        }
    }
}

/// A CIGAR: `(operation, length)` runs, neighbours never of the same operation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cigar(pub Vec<(CigarOp, u32)>);

impl Cigar {
    /// Appends `len` of `op`, lengthening the last run where it is the same operation
    /// (`push_cigar`).
    pub fn push(&mut self, op: CigarOp, len: u32) {
        match self.0.last_mut() {
            Some((last, n)) if *last == op => *n += len,
            _ => self.0.push((op, len)),
        }
    }

    /// The runs in BAM's packed form, `len << 4 | code` (what `ksw_global2` returns).
    pub fn packed(&self) -> Vec<u32> {
        self.0.iter().map(|&(op, n)| n << 4 | op.code()).collect()
    }

    /// The query bases the CIGAR covers (M and I).
    pub fn query_len(&self) -> usize {
        self.len_of(|op| op != CigarOp::Del)
    }

    /// The target bases the CIGAR covers (M and D).
    pub fn target_len(&self) -> usize {
        self.len_of(|op| op != CigarOp::Ins)
    }

    fn len_of(&self, counts: impl Fn(CigarOp) -> bool) -> usize {
        self.0
            .iter()
            .filter(|&&(op, _)| counts(op))
            .map(|&(_, n)| n as usize)
            .sum()
    }
}

impl fmt::Display for Cigar {
    /// SAM's text, such as `10M2I5M`; `*` where empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("*");
        }
        self.0
            .iter()
            .try_for_each(|&(op, n)| write!(f, "{n}{}", op.letter()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_merges_and_packs() {
        let mut c = Cigar::default();
        c.push(CigarOp::Match, 3);
        c.push(CigarOp::Match, 2);
        c.push(CigarOp::Ins, 1);
        c.push(CigarOp::Del, 4);
        assert_eq!(c.to_string(), "5M1I4D");
        assert_eq!(c.packed(), vec![5 << 4, 1 << 4 | 1, 4 << 4 | 2]);
        assert_eq!((c.query_len(), c.target_len()), (6, 9));
    }
}
