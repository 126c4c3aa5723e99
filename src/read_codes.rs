//! A read's bases packed as codes into 32-bit words, as the GPU searches take them: 2 bits
//! a base for the exact search, 4 for the k-mismatch search (base `j` of a word at bit
//! `bits * j`, a read from a word boundary). Here, apart from the GPU's packing, because
//! the FASTQ parser packs each read too while its bytes are in cache (`io::fastq`): the
//! GPU's packing stage then copies words instead of reading every base again from memory.

use crate::alphabet::{codes_of_eight, two_bit_sixteen, CODES, NOT_A_BASE};

/// How many bits a base takes in the packed words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeWidth {
    /// 2 bits: A, C, G, T as 0-3; any other byte as 0, flagged by the count of unknowns.
    Two,
    /// 4 bits: A, C, G, T as 0-3, any other byte as [`NOT_A_BASE`].
    Four,
}

impl CodeWidth {
    /// Bases a word holds.
    pub fn per_word(self) -> usize {
        match self {
            CodeWidth::Two => 16,
            CodeWidth::Four => 8,
        }
    }

    /// Words a read of `len` bases takes.
    pub fn words(self, len: usize) -> usize {
        len.div_ceil(self.per_word())
    }

    /// Packs `bases` into `words` ([`CodeWidth::words`] of them, each written); returns
    /// the count of bases that are not A, C, G or T. With 2 bits that count is exact only
    /// in whether it is 0 (a whole word of 16 bases counts 1 however many it holds), which
    /// is all the exact search asks; with 4 bits it is exact.
    pub fn pack(self, bases: &[u8], words: &mut [u32]) -> usize {
        match self {
            CodeWidth::Two => pack_words::<2>(bases, words),
            CodeWidth::Four => pack_words::<4>(bases, words),
        }
    }
}

/// The bases of many reads packed at `width`, one read after another, each from a word
/// boundary.
#[derive(Debug)]
pub struct Codes {
    /// Bits a base.
    pub width: CodeWidth,
    /// The words.
    pub words: Vec<u32>,
}

impl Codes {
    /// No words yet, at `width`.
    pub fn new(width: CodeWidth) -> Codes {
        Codes {
            width,
            words: Vec::new(),
        }
    }

    /// Packs the read `bases` after the words held; returns where its words start and
    /// its count of bases other than A, C, G or T ([`CodeWidth::pack`]).
    pub fn push(&mut self, bases: &[u8]) -> (usize, usize) {
        let at = self.words.len();
        self.words.resize(at + self.width.words(bases.len()), 0);
        (at, self.width.pack(bases, &mut self.words[at..]))
    }

    /// The words of a read of `len` bases whose words start at `at`.
    pub fn read(&self, at: usize, len: usize) -> &[u32] {
        &self.words[at..at + self.width.words(len)]
    }
}

/// [`CodeWidth::pack`] at `BITS` bits a base.
fn pack_words<const BITS: usize>(bases: &[u8], words: &mut [u32]) -> usize {
    let per_word = 32 / BITS;
    debug_assert_eq!(words.len(), bases.len().div_ceil(per_word));
    let mut unknown = 0;
    for (chunk, word) in bases.chunks(per_word).zip(words) {
        let (x, others) = if chunk.len() == per_word {
            packed_word::<BITS>(chunk)
        } else {
            packed_tail::<BITS>(chunk)
        };
        unknown += others as usize;
        *word = x;
    }
    unknown
}

/// A whole word of `32 / BITS` bases packed (base `j` at bit `BITS j`), and how many
/// are not A, C, G or T (with 2 bits, 1 for any: the exact search asks only whether).
fn packed_word<const BITS: usize>(bases: &[u8]) -> (u32, u32) {
    if BITS == 2 {
        let (word, all_bases) = two_bit_sixteen(bases.try_into().expect("16 bases"));
        (word, u32::from(!all_bases))
    } else {
        let bytes = u64::from_le_bytes(bases.try_into().expect("8 bases"));
        let (codes, others) = codes_of_eight(bytes);
        (four_bit_codes(codes), others)
    }
}

/// A word's last bases (fewer than a whole word) packed, as [`packed_word`].
fn packed_tail<const BITS: usize>(bases: &[u8]) -> (u32, u32) {
    let mask = (1u8 << BITS) - 1;
    let mut word = 0u32;
    let mut others = 0;
    for (j, &b) in bases.iter().enumerate() {
        let code = CODES[b as usize];
        others += u32::from(code == NOT_A_BASE);
        word |= u32::from(code & mask) << (BITS * j);
    }
    (word, others)
}

/// The low 4 bits of each byte of `codes`, gathered: byte `j` to bits `4 j`.
fn four_bit_codes(codes: u64) -> u32 {
    let x = codes & 0x0F0F_0F0F_0F0F_0F0F;
    let x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF;
    let x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    (x | (x >> 16)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_pack_as_base_by_base() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for round in 0..5_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let bases: Vec<u8> = state
                .to_le_bytes()
                .iter()
                .chain(&(state.rotate_left(29) ^ round).to_le_bytes())
                .map(|&b| {
                    if round % 2 == 0 {
                        b"ACGTacgtNn-"[(b % 11) as usize]
                    } else {
                        b
                    }
                })
                .collect();
            // Two bits: the same word, and a count that is 0 exactly when the tail's is.
            let ((word, others), (tail, tail_others)) =
                (packed_word::<2>(&bases), packed_tail::<2>(&bases));
            assert_eq!((word, others == 0), (tail, tail_others == 0), "{bases:?}");
            assert_eq!(packed_word::<4>(&bases[..8]), packed_tail::<4>(&bases[..8]));
        }
    }

    #[test]
    fn a_read_packs_word_by_word_with_its_unknowns_counted() {
        let bases = b"ACGTACGTACGTACGTTgNa";
        let mut words = vec![0; CodeWidth::Two.words(bases.len())];
        assert_eq!(words.len(), 2);
        // One unknown in the tail of four (T, G, N as 0, A).
        assert_eq!(CodeWidth::Two.pack(bases, &mut words), 1);
        assert_eq!(words, [0xE4E4_E4E4, 3 | 2 << 2]);
        let mut words = vec![0; CodeWidth::Four.words(bases.len())];
        assert_eq!(words.len(), 3);
        assert_eq!(CodeWidth::Four.pack(bases, &mut words), 1);
        assert_eq!(words[2], 3 | 2 << 4 | (NOT_A_BASE as u32) << 8);
        // Two bits count a whole word with unknowns once.
        let mut words = [0];
        assert_eq!(CodeWidth::Two.pack(b"NNNNNNNNNNNNNNNN", &mut words), 1);
        assert_eq!(CodeWidth::Four.words(0), 0);
    }
}
