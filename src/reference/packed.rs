//! 2-bit packed nucleotide text.
//!
//! Bases are stored most-significant first: base `i` sits in word `i / 32` at bits
//! `62 - 2 * (i % 32)`. With that layout the 64-bit word read at any position compares
//! like the 32-base string it holds, which is what the suffix sorters rely on.

use crate::alphabet::BASES;
use rayon::prelude::*;

/// A DNA text of 2-bit codes, packed 32 bases to a `u64`.
///
/// One spare zero word always follows the last used word, so [`PackedText::key64`]
/// can read two words at any position without a bounds branch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackedText {
    words: Vec<u64>,
    len: usize,
}

impl PackedText {
    /// An empty text with room for `capacity` bases.
    pub fn with_capacity(capacity: usize) -> Self {
        let mut words = Vec::with_capacity(capacity / 32 + 2);
        words.push(0);
        PackedText { words, len: 0 }
    }

    /// Packs a slice of 2-bit codes (values 0..=3).
    pub fn from_codes(codes: &[u8]) -> Self {
        let mut text = Self::with_capacity(codes.len());
        for &c in codes {
            text.push(c);
        }
        text
    }

    /// The packed words (the text's own, not copied), for [`PackedText::from_words`].
    pub fn into_words(self) -> Vec<u64> {
        self.words
    }

    /// Rebuilds a text from its packed words (as stored on disk) and its length.
    pub fn from_words(mut words: Vec<u64>, len: usize) -> Self {
        words.resize(Self::word_count(len), 0);
        PackedText { words, len }
    }

    /// The text read backwards (not complemented), a word at a time in parallel: output
    /// word `w` is the (up to) 32 bases ending at `n - 1 - 32 w`, their order reversed.
    pub fn reversed(&self) -> PackedText {
        let n = self.len;
        let mut words = vec![0u64; Self::word_count(n)];
        words[..n.div_ceil(32)]
            .par_iter_mut()
            .enumerate()
            .for_each(|(w, out)| {
                let end = n - 32 * w; // one past the last input base of this word
                let count = end.min(32);
                // The bases right-aligned, the last one lowest; reversed, it is highest.
                let bases = self.key64(end - count) >> (64 - 2 * count as u32);
                *out = reverse_bases(bases);
            });
        PackedText { words, len: n }
    }

    /// Number of words a text of `len` bases is stored in (one spare word included).
    pub fn word_count(len: usize) -> usize {
        len.div_ceil(32) + 1
    }

    /// Appends one 2-bit code.
    #[inline]
    pub fn push(&mut self, code: u8) {
        debug_assert!(code < 4);
        let i = self.len;
        if i / 32 + 1 >= self.words.len() {
            self.words.push(0);
        }
        self.words[i / 32] |= (code as u64) << (62 - 2 * (i % 32));
        self.len += 1;
    }

    /// Number of bases.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the text holds no base.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The 2-bit code at position `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u8 {
        self.as_ref().get(i)
    }

    /// A borrowed view.
    pub fn as_ref(&self) -> PackedRef<'_> {
        PackedRef {
            words: &self.words,
            len: self.len,
        }
    }

    /// The 32 bases starting at `i` as one integer, first base most significant,
    /// padded with code 0 past the end of the text.
    #[inline]
    pub fn key64(&self, i: usize) -> u64 {
        self.as_ref().key64(i)
    }

    /// The packed words, including the trailing zero word(s).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Decodes the whole text to ASCII `ACGT`.
    pub fn to_ascii(&self) -> Vec<u8> {
        (0..self.len).map(|i| BASES[self.get(i) as usize]).collect()
    }
}

/// The 32 2-bit groups of `x` in reverse order.
fn reverse_bases(x: u64) -> u64 {
    let bits = x.reverse_bits();
    ((bits >> 1) & 0x5555_5555_5555_5555) | ((bits & 0x5555_5555_5555_5555) << 1)
}

/// A borrowed packed text (for example the `TEXT` section of a memory-mapped index).
#[derive(Clone, Copy, Debug)]
pub struct PackedRef<'a> {
    words: &'a [u64],
    len: usize,
}

impl<'a> PackedRef<'a> {
    /// Views `words` (the layout of [`PackedText::words`]) as a text of `len` bases.
    pub fn new(words: &'a [u64], len: usize) -> Self {
        assert!(words.len() >= PackedText::word_count(len));
        PackedRef { words, len }
    }

    /// Number of bases.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The packed words (the layout of [`PackedText::words`]).
    pub fn words(&self) -> &'a [u64] {
        self.words
    }

    /// True when the text holds no base.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The 2-bit code at position `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u8 {
        ((self.words[i / 32] >> (62 - 2 * (i % 32))) & 3) as u8
    }

    /// The 32 bases starting at `i` as one integer, first base most significant,
    /// padded with code 0 past the end of the text.
    #[inline]
    pub fn key64(&self, i: usize) -> u64 {
        let w = i / 32;
        let shift = 2 * (i % 32) as u32;
        let hi = self.words[w] << shift;
        if shift == 0 {
            hi
        } else {
            hi | (self.words[w + 1] >> (64 - shift))
        }
    }

    /// Whether the text holds `codes` starting at `pos`; compared 32 bases a word.
    pub fn matches_at(&self, pos: usize, codes: &[u8]) -> bool {
        if pos + codes.len() > self.len {
            return false;
        }
        let mut chunks = codes.chunks_exact(32);
        let mut at = pos;
        for chunk in &mut chunks {
            match pack_codes(chunk) {
                Some(word) if word == self.key64(at) => at += 32,
                _ => return false,
            }
        }
        let rest = chunks.remainder();
        if rest.is_empty() {
            return true;
        }
        let mut padded = [0u8; 32];
        padded[..rest.len()].copy_from_slice(rest);
        let drop = 64 - 2 * rest.len() as u32;
        pack_codes(&padded).is_some_and(|word| (word ^ self.key64(at)) >> drop == 0)
    }
}

/// 32 codes (one a byte) packed as [`PackedText::key64`] packs bases, or `None` when
/// one is not a base (over 3).
#[inline]
fn pack_codes(codes: &[u8]) -> Option<u64> {
    let mut word = 0u64;
    let mut any_over = 0u64;
    for eight in codes.chunks_exact(8) {
        let x = u64::from_be_bytes(eight.try_into().expect("8 bytes"));
        any_over |= x;
        word = word << 16 | pack_eight(x);
    }
    (any_over & 0xFCFC_FCFC_FCFC_FCFC == 0).then_some(word)
}

/// The low two bits of each byte of `x`, the most significant byte's first: 16 bits.
/// (Eight bases at a time by shifts: pairs into nibbles, nibbles into bytes, bytes into
/// 16 bits; a byte loop was most of the FM builder's time.)
#[inline]
pub(crate) fn pack_eight(x: u64) -> u64 {
    let x = x & 0x0303_0303_0303_0303;
    let x = (x | x >> 6) & 0x000F_000F_000F_000F;
    let x = (x | x >> 12) & 0x0000_00FF_0000_00FF;
    (x | x >> 24) & 0xFFFF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reversed_reads_the_text_backwards() {
        for len in [0usize, 1, 2, 31, 32, 33, 63, 64, 65, 100, 1000] {
            let codes: Vec<u8> = (0..len)
                .map(|i| ((i * 7 + i / 3 + i / 11) % 4) as u8)
                .collect();
            let backwards: Vec<u8> = codes.iter().rev().copied().collect();
            let got = PackedText::from_codes(&codes).reversed();
            assert_eq!(got.len(), len);
            assert_eq!(
                got.words(),
                PackedText::from_codes(&backwards).words(),
                "len {len}"
            );
        }
    }

    #[test]
    fn matches_at_agrees_with_comparing_base_by_base() {
        let codes = crate::test_support::random_codes(300, 7, 4);
        let t = PackedText::from_codes(&codes);
        let text = t.as_ref();
        for pos in [0usize, 1, 5, 31, 32, 33, 100, 250] {
            for len in [0usize, 1, 7, 31, 32, 33, 64, 65, 100] {
                let end = (pos + len).min(codes.len());
                let mut pattern = codes[pos..end].to_vec();
                pattern.resize(len, 0);
                let naive = |p: &[u8]| {
                    pos + p.len() <= codes.len() && p.iter().zip(&codes[pos..]).all(|(a, b)| a == b)
                };
                assert_eq!(
                    text.matches_at(pos, &pattern),
                    naive(&pattern),
                    "{pos} {len}"
                );
                for i in [0, len / 2, len.saturating_sub(1)] {
                    if i >= len {
                        continue;
                    }
                    let mut other = pattern.clone();
                    for changed in [(other[i] + 1) % 4, 4] {
                        other[i] = changed;
                        assert_eq!(
                            text.matches_at(pos, &other),
                            naive(&other),
                            "{pos} {len} {i}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn key64_matches_string_order_and_pads_with_zero() {
        let codes: Vec<u8> = (0..100u32).map(|i| ((i * 7 + i / 3) % 4) as u8).collect();
        let t = PackedText::from_codes(&codes);
        for i in 0..codes.len() {
            let mut expect = 0u64;
            for j in 0..32 {
                expect = (expect << 2) | *codes.get(i + j).unwrap_or(&0) as u64;
            }
            assert_eq!(t.key64(i), expect, "position {i}");
            assert_eq!(t.get(i), codes[i]);
        }
    }
}
