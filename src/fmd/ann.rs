//! bwa's `.ann` read back as `bns_restore_core` reads it: the text length, then each
//! contig's name, offset and length (its gi, comment and count of holes skipped); and
//! bwa's `bns_pos2rid`, the contig of a forward position.

/// Why the bytes of a `.ann` file are not bwa's `.ann`.
#[derive(Debug, thiserror::Error)]
pub enum AnnError {
    /// The file ends before its last contig does.
    #[error("ends early")]
    EndsEarly,
    /// A word where a number belongs is not one.
    #[error("'{word}' is not a number")]
    NotANumber {
        /// The word, its bytes outside printable ASCII escaped.
        word: String,
    },
}

/// One contig of the forward text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contig {
    /// Its name (the header's first word, as bwa split it).
    pub name: Vec<u8>,
    /// Where it starts in the forward text.
    pub offset: u64,
    /// Its length.
    pub len: u64,
}

/// The contigs of bwa's index (`bntseq_t` without its holes and packed text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contigs {
    /// The forward text's length (`l_pac`).
    pub l_pac: u64,
    /// The contigs, in order.
    pub contigs: Vec<Contig>,
}

/// The whitespace-separated words of a `.ann` file, read as `fscanf` reads them.
struct Words<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Words<'a> {
    /// The next word (leading whitespace skipped).
    fn word(&mut self) -> Result<&'a [u8], AnnError> {
        let rest = &self.bytes[self.at..];
        let start = rest
            .iter()
            .position(|b| !b.is_ascii_whitespace() && *b != 0x0b)
            .ok_or(AnnError::EndsEarly)?;
        let len = rest[start..]
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == 0x0b)
            .unwrap_or(rest.len() - start);
        self.at += start + len;
        Ok(&rest[start..start + len])
    }

    /// The next word as a number.
    fn number<T: std::str::FromStr>(&mut self) -> Result<T, AnnError> {
        let word = self.word()?;
        std::str::from_utf8(word)
            .ok()
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| AnnError::NotANumber {
                word: word.escape_ascii().to_string(),
            })
    }

    /// Skips the rest of the line (a contig's comment).
    fn skip_line(&mut self) -> Result<(), AnnError> {
        match self.bytes[self.at..].iter().position(|&b| b == b'\n') {
            Some(end) => {
                self.at += end + 1;
                Ok(())
            }
            None => Err(AnnError::EndsEarly),
        }
    }
}

impl Contigs {
    /// Parses the bytes of a `.ann` file.
    pub fn parse(bytes: &[u8]) -> Result<Contigs, AnnError> {
        let mut words = Words { bytes, at: 0 };
        let l_pac: u64 = words.number()?;
        let n_seqs: usize = words.number()?;
        let _seed: u32 = words.number()?;
        let mut contigs = Vec::with_capacity(n_seqs.min(1 << 20));
        for _ in 0..n_seqs {
            let _gi: u32 = words.number()?;
            let name = words.word()?.to_vec();
            words.skip_line()?;
            let offset = words.number()?;
            let len = words.number()?;
            let _holes: i32 = words.number()?;
            contigs.push(Contig { name, offset, len });
        }
        Ok(Contigs { l_pac, contigs })
    }

    /// The contig of forward position `pos` (`< l_pac`): bwa's `bns_pos2rid`, its binary
    /// search as it is (empty contigs resolved as bwa resolves them).
    pub fn contig_of(&self, pos: u64) -> usize {
        let (mut left, mut mid, mut right) = (0, 0, self.contigs.len());
        while left < right {
            mid = (left + right) >> 1;
            if pos >= self.contigs[mid].offset {
                if mid == self.contigs.len() - 1 || pos < self.contigs[mid + 1].offset {
                    break;
                }
                left = mid + 1;
            } else {
                right = mid;
            }
        }
        mid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ann_files_parse_and_positions_find_their_contigs() {
        let ann = b"30 3 11\n0 a (null)\n0 10 0\n0 b x y\n10 0 0\n0 c\n10 20 1\n";
        let contigs = Contigs::parse(ann).unwrap();
        assert_eq!(contigs.l_pac, 30);
        let names: Vec<&[u8]> = contigs.contigs.iter().map(|c| &c.name[..]).collect();
        assert_eq!(names, [b"a", b"b", b"c"]);
        assert_eq!(contigs.contigs[2].offset, 10);
        let found: Vec<usize> = [0, 9, 10, 29].map(|p| contigs.contig_of(p)).to_vec();
        assert_eq!(found, [0, 0, 2, 2]);
        assert!(Contigs::parse(b"30 2 11\n0 a (null)\n0 10 0\n").is_err());
    }
}
