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
        let w = i / 32;
        let shift = 2 * (i % 32) as u32;
        let hi = self.words[w] << shift;
        if shift == 0 {
            hi
        } else {
            hi | (self.words[w + 1] >> (64 - shift))
        }
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

    /// Whether the text holds `codes` starting at `pos`.
    pub fn matches_at(&self, pos: usize, codes: &[u8]) -> bool {
        pos + codes.len() <= self.len
            && codes
                .iter()
                .enumerate()
                .all(|(i, &c)| self.get(pos + i) == c)
    }
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
