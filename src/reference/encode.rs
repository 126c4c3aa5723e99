//! FASTA sequence bytes to the packed text, a slice at a time and many slices at once:
//! every slice knows where its first base goes, writes its bases straight into the
//! packed words (the two words it may share with its neighbours by an atomic OR), and
//! reports its ambiguous runs and its first byte that is no nucleotide.
//!
//! Newlines (`\n`, `\r`) are skipped wherever they are, as needletail did. Soft-masked
//! (lowercase) bases are upper-cased; U is T. N and the IUPAC ambiguity codes are
//! replaced by pseudo-random bases (a fixed-seed hash of the text position; bwa uses a
//! seeded generator to the same end), so the text stays a 4-letter one whatever the
//! split of the work, and each maximal run of them is recorded so that no hit over it
//! is ever reported.

use std::sync::atomic::{AtomicU64, Ordering};

use super::layout::AmbiguousRun;
use super::PackedText;
use crate::alphabet::BASES;

/// Seed of the generator that replaces ambiguity codes (bwa uses 11 as well).
const AMBIGUITY_SEED: u64 = 11;

/// What a FASTA sequence byte means.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Base(u8),
    Ambiguous,
    Newline,
    Invalid,
}

/// The class of every byte.
static CLASSES: [Class; 256] = class_table();

const fn class_table() -> [Class; 256] {
    let mut t = [Class::Invalid; 256];
    let mut code = 0;
    while code < 4 {
        let b = BASES[code];
        t[b as usize] = Class::Base(code as u8);
        t[b.to_ascii_lowercase() as usize] = Class::Base(code as u8);
        code += 1;
    }
    t[b'U' as usize] = Class::Base(3);
    t[b'u' as usize] = Class::Base(3);
    let ambiguous = b"NRYSWKMBDHV";
    let mut i = 0;
    while i < ambiguous.len() {
        t[ambiguous[i] as usize] = Class::Ambiguous;
        t[ambiguous[i].to_ascii_lowercase() as usize] = Class::Ambiguous;
        i += 1;
    }
    t[b'\n' as usize] = Class::Newline;
    t[b'\r' as usize] = Class::Newline;
    t
}

/// Bases among sequence bytes: every byte but newlines.
pub fn count_bases(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b != b'\n' && b != b'\r').count()
}

/// What encoding one slice found besides its bases.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Encoded {
    /// Maximal runs of ambiguity codes within the slice, in text coordinates.
    pub ambiguous: Vec<AmbiguousRun>,
    /// The first byte that is no nucleotide: its base index within the slice, and it.
    pub invalid: Option<(u64, u8)>,
}

/// The packed text being written by many slices at once.
#[derive(Debug, Default)]
pub struct SharedText {
    words: Vec<AtomicU64>,
    len: usize,
}

impl SharedText {
    /// An empty text with room for `capacity` bases.
    pub fn with_capacity(capacity: usize) -> SharedText {
        SharedText {
            words: Vec::with_capacity(PackedText::word_count(capacity)),
            len: 0,
        }
    }

    /// Bases so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Makes the text `len` bases long (the new bases zero until encoded).
    pub fn grow_to(&mut self, len: usize) {
        let words = PackedText::word_count(len);
        if words > self.words.len() {
            self.words.resize_with(words, || AtomicU64::new(0));
        }
        self.len = len;
    }

    /// Encodes `bytes` as the bases from text position `start` on (within the length
    /// set by [`SharedText::grow_to`]; each base written once).
    pub fn encode(&self, bytes: &[u8], start: u64) -> Encoded {
        let mut found = Encoded::default();
        let mut pos = start;
        let mut word = 0u64;
        for &b in bytes {
            let code = match CLASSES[b as usize] {
                Class::Newline => continue,
                Class::Base(code) => code,
                Class::Ambiguous => {
                    match found.ambiguous.last_mut() {
                        Some(run) if run.end == pos => run.end += 1,
                        _ => found.ambiguous.push(AmbiguousRun {
                            start: pos,
                            end: pos + 1,
                        }),
                    }
                    replacement_base(pos)
                }
                Class::Invalid => {
                    found.invalid.get_or_insert((pos - start, b));
                    0
                }
            };
            word |= (code as u64) << (62 - 2 * (pos % 32));
            pos += 1;
            if pos.is_multiple_of(32) {
                self.or_word(pos - 1, word);
                word = 0;
            }
        }
        if !pos.is_multiple_of(32) && pos > start {
            self.or_word(pos - 1, word);
        }
        found
    }

    fn or_word(&self, pos: u64, bits: u64) {
        self.words[(pos / 32) as usize].fetch_or(bits, Ordering::Relaxed);
    }

    /// The finished text.
    pub fn into_packed(self) -> PackedText {
        // AtomicU64 and u64 share their layout: this collects in place.
        let words = self.words.into_iter().map(AtomicU64::into_inner).collect();
        PackedText::from_words(words, self.len)
    }
}

/// The replacement base of an ambiguity code at text position `pos`: a hash of the
/// position with a fixed seed, so it does not depend on how the work is split.
fn replacement_base(pos: u64) -> u8 {
    let mut z = (pos ^ AMBIGUITY_SEED).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) >> 62) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text `bytes` stand for, base by base from position `start`.
    fn expected(bytes: &[u8], start: u64) -> Vec<u8> {
        let bases = bytes.iter().filter(|&&b| b != b'\n' && b != b'\r');
        let ascii = bases
            .enumerate()
            .map(|(i, &b)| match b.to_ascii_uppercase() {
                b'U' => b'T',
                b @ (b'A' | b'C' | b'G' | b'T') => b,
                b'-' => b'A', // invalid: an error for the caller; written as code 0
                _ => BASES[replacement_base(start + i as u64) as usize],
            });
        ascii.collect()
    }

    #[test]
    fn any_split_of_the_work_gives_the_same_text() {
        let bytes = b"ACGTNNacgu\r\nRYKM\nACGTACGTACGTACGTACGTACGTACGTACG-TTnn\nG";
        let bases = count_bases(bytes);
        assert_eq!(bases, 51);
        for offset in [0, 5, 31, 32] {
            let mut text = SharedText::default();
            text.grow_to(offset + bases);
            let found = text.encode(bytes, offset as u64);
            let ascii = text.into_packed().to_ascii();
            assert_eq!(
                ascii[offset..],
                expected(bytes, offset as u64)[..],
                "at {offset}"
            );
            assert_eq!(found.invalid, Some((45, b'-')));
            let runs: Vec<(u64, u64)> = found.ambiguous.iter().map(|r| (r.start, r.end)).collect();
            let o = offset as u64;
            assert_eq!(runs, [(o + 4, o + 6), (o + 10, o + 14), (o + 48, o + 50)]);
        }
        for a in 0..=bytes.len() {
            for b in a..=bytes.len() {
                let mut text = SharedText::default();
                text.grow_to(bases);
                let mut start = 0;
                let mut invalid = None;
                for piece in [&bytes[..a], &bytes[a..b], &bytes[b..]] {
                    let found = text.encode(piece, start);
                    invalid = invalid.or(found.invalid.map(|(i, c)| (i + start, c)));
                    start += count_bases(piece) as u64;
                }
                assert_eq!(
                    text.into_packed().to_ascii(),
                    expected(bytes, 0),
                    "cuts {a}, {b}"
                );
                assert_eq!(invalid, Some((45, b'-')), "cuts {a}, {b}");
            }
        }
    }
}
