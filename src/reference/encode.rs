//! FASTA sequence bytes to the packed text, many slices at once: every slice is
//! counted, then knows where its first base goes and writes the words that lie wholly
//! inside it straight into the packed text (the two it may share with its neighbours
//! are OR-ed in afterwards), and reports its ambiguous runs and its first byte that is
//! no nucleotide.
//!
//! Newlines (`\n`, `\r`) are skipped wherever they are, as needletail did. Soft-masked
//! (lowercase) bases are upper-cased; U is T. N and the IUPAC ambiguity codes are
//! replaced by pseudo-random bases (a fixed-seed hash of the text position; bwa uses a
//! seeded generator to the same end), so the text stays a 4-letter one whatever the
//! split of the work, and each maximal run of them is recorded so that no hit over it
//! is ever reported.

use rayon::prelude::*;

use super::layout::AmbiguousRun;
use super::packed::pack_eight;
use super::PackedText;
use crate::alphabet::BASES;

/// Seed of the generator that replaces ambiguity codes (bwa uses 11 as well).
const AMBIGUITY_SEED: u64 = 11;

/// The code of an ambiguity character (replaced by [`replacement_base`]).
const AMBIGUOUS: u8 = 4;
/// The code of a byte that is no nucleotide.
const INVALID: u8 = 5;
/// The code of `\n` and `\r`, which are skipped.
const NEWLINE: u8 = 6;

/// The code of every byte: 0-3 for the bases, else [`AMBIGUOUS`], [`INVALID`] or
/// [`NEWLINE`].
static CODES: [u8; 256] = code_table();

const fn code_table() -> [u8; 256] {
    let mut t = [INVALID; 256];
    let mut code = 0;
    while code < 4 {
        let b = BASES[code];
        t[b as usize] = code as u8;
        t[b.to_ascii_lowercase() as usize] = code as u8;
        code += 1;
    }
    t[b'U' as usize] = 3;
    t[b'u' as usize] = 3;
    let ambiguous = b"NRYSWKMBDHV";
    let mut i = 0;
    while i < ambiguous.len() {
        t[ambiguous[i] as usize] = AMBIGUOUS;
        t[ambiguous[i].to_ascii_lowercase() as usize] = AMBIGUOUS;
        i += 1;
    }
    t[b'\n' as usize] = NEWLINE;
    t[b'\r' as usize] = NEWLINE;
    t
}

/// Bases among sequence bytes (every byte but newlines) and the lines they end (their
/// `\n` bytes).
pub fn count_bases(bytes: &[u8]) -> (usize, usize) {
    // Counted in blocks that a byte counter cannot overflow (and that vectorize).
    let (mut returns, mut newlines) = (0, 0);
    for block in bytes.chunks(255) {
        let (r, n) = block.iter().fold((0u8, 0u8), |(r, n), &b| {
            (r + (b == b'\r') as u8, n + (b == b'\n') as u8)
        });
        returns += r as usize;
        newlines += n as usize;
    }
    (bytes.len() - returns - newlines, newlines)
}

/// What encoding one slice found besides its bases.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Encoded {
    /// Maximal runs of ambiguity codes within the slice, in text coordinates.
    pub ambiguous: Vec<AmbiguousRun>,
    /// The first byte that is no nucleotide: its base index within the slice, and it.
    pub invalid: Option<(u64, u8)>,
}

impl Encoded {
    /// Notes the ambiguity code or invalid byte `byte` (of `code`) at text position
    /// `pos` of a slice starting at `start`; the base written in its place.
    #[cold]
    fn note(&mut self, code: u8, byte: u8, (pos, start): (u64, u64)) -> u8 {
        if code == INVALID {
            self.invalid.get_or_insert((pos - start, byte));
            return 0;
        }
        self.ambiguous_bases(pos, 1);
        replacement_base(pos)
    }

    /// Notes `count` ambiguity codes from text position `pos` on.
    fn ambiguous_bases(&mut self, pos: u64, count: u64) {
        match self.ambiguous.last_mut() {
            Some(run) if run.end == pos => run.end += count,
            _ => self.ambiguous.push(AmbiguousRun {
                start: pos,
                end: pos + count,
            }),
        }
    }
}

/// The packed text, grown a block of slices at a time.
#[derive(Debug, Default)]
pub struct TextBuilder {
    words: Vec<u64>,
    len: usize,
}

/// One slice encoded: where its bases went, how many, and what else it found.
#[derive(Debug)]
pub struct Appended {
    /// Text position of its first base.
    pub start: u64,
    /// Its bases.
    pub count: u64,
    /// The lines it ends (its `\n` bytes).
    pub lines: u64,
    /// Its ambiguous runs and invalid byte.
    pub found: Encoded,
}

impl TextBuilder {
    /// An empty text with room for `capacity` bases (zeroed lazily by the system, so
    /// that the pages are first touched by the tasks that fill them).
    pub fn with_capacity(capacity: usize) -> TextBuilder {
        TextBuilder {
            words: vec![0; PackedText::word_count(capacity)],
            len: 0,
        }
    }

    /// Appends the bases of `slices`, in order, counting and encoding the slices in
    /// parallel.
    pub fn append(&mut self, slices: &[&[u8]]) -> Vec<Appended> {
        let counts: Vec<(usize, usize)> = slices.par_iter().map(|b| count_bases(b)).collect();
        let mut ranges = Vec::with_capacity(slices.len());
        let mut end = self.len as u64;
        for &(count, _) in &counts {
            let count = count as u64;
            ranges.push((end, end + count));
            end += count;
        }
        self.len = end as usize;
        if self.words.len() < PackedText::word_count(self.len) {
            self.words.resize(PackedText::word_count(self.len), 0);
        }
        let whole = whole_words(&mut self.words, &ranges);
        let encoded: Vec<(Encoded, Partial)> = slices
            .par_iter()
            .zip(&ranges)
            .zip(whole)
            .map(|((bytes, &(start, _)), whole)| encode(bytes, start, whole))
            .collect();
        let mut appended = Vec::with_capacity(slices.len());
        for (((found, partial), (start, end)), (_, lines)) in
            encoded.into_iter().zip(ranges).zip(counts)
        {
            for (word, bits) in partial.into_iter().flatten() {
                self.words[word] |= bits;
            }
            let count = end - start;
            appended.push(Appended {
                start,
                count,
                lines: lines as u64,
                found,
            });
        }
        appended
    }

    /// The finished text.
    pub fn into_packed(self) -> PackedText {
        PackedText::from_words(self.words, self.len)
    }
}

/// The words a slice shares with its neighbours (at most its first and its last),
/// with its bits in them.
type Partial = [Option<(usize, u64)>; 2];

/// For each range of text positions, the words that lie wholly inside it, as disjoint
/// mutable slices of `words`.
fn whole_words<'w>(mut words: &'w mut [u64], ranges: &[(u64, u64)]) -> Vec<&'w mut [u64]> {
    let mut offset = 0;
    ranges
        .iter()
        .map(|&(start, end)| {
            let first = start.div_ceil(32) as usize;
            let last = ((end / 32) as usize).max(first);
            let rest = std::mem::take(&mut words).split_at_mut(first - offset).1;
            let (whole, rest) = rest.split_at_mut(last - first);
            words = rest;
            offset = last;
            whole
        })
        .collect()
}

/// Encodes `bytes` as the bases from text position `start` on: the words wholly
/// inside them into `whole` (the words from `ceil(start / 32)` on), the others
/// returned. Eight plain bases go in at once where they start a quarter of a word
/// ([`eight_bases`]); every other byte one at a time.
fn encode(bytes: &[u8], start: u64, whole: &mut [u64]) -> (Encoded, Partial) {
    let mut found = Encoded::default();
    let mut words = Words::new(start, whole);
    let mut i = 0;
    while i < bytes.len() {
        if words.pos.is_multiple_of(8) {
            if let Some(chunk) = bytes.get(i..i + 8) {
                let pos = words.pos;
                let bits = eight_bases(chunk).or_else(|| {
                    eight_ns(chunk).then(|| {
                        found.ambiguous_bases(pos, 8);
                        (pos..pos + 8).fold(0, |w, p| w << 2 | replacement_base(p) as u64)
                    })
                });
                if let Some(bits) = bits {
                    words.push(bits, 8);
                    i += 8;
                    continue;
                }
            }
        }
        let b = bytes[i];
        i += 1;
        let mut code = CODES[b as usize];
        if code > 3 {
            if code == NEWLINE {
                continue;
            }
            code = found.note(code, b, (words.pos, start));
        }
        words.push(code as u64, 1);
    }
    (found, words.finish())
}

/// The words of one slice being filled, base after base.
struct Words<'w> {
    /// The slice's first text position.
    start: u64,
    /// The words wholly inside the slice, from `ceil(start / 32)` on.
    whole: &'w mut [u64],
    /// The shared words (see [`Partial`]).
    partial: Partial,
    /// Text position of the next base.
    pos: u64,
    /// The bases of the word being filled, the last one lowest.
    word: u64,
}

impl<'w> Words<'w> {
    fn new(start: u64, whole: &'w mut [u64]) -> Words<'w> {
        Words {
            start,
            whole,
            partial: [None, None],
            pos: start,
            word: 0,
        }
    }

    /// Appends `count` bases (1, or 8 from a multiple of 8), first base highest in
    /// `bits`; a word filled goes where it belongs.
    #[inline(always)]
    fn push(&mut self, bits: u64, count: u64) {
        self.word = self.word << (2 * count) | bits;
        self.pos += count;
        if self.pos.is_multiple_of(32) {
            let w = self.pos / 32 - 1;
            match w.checked_sub(self.start.div_ceil(32)) {
                Some(i) => self.whole[i as usize] = self.word,
                None => self.partial[0] = Some((w as usize, self.word)),
            }
            self.word = 0;
        }
    }

    /// The shared words, the last one's bases moved to its top.
    fn finish(mut self) -> Partial {
        let pos = self.pos;
        if !pos.is_multiple_of(32) && pos > self.start {
            self.partial[1] = Some(((pos / 32) as usize, self.word << (2 * (32 - pos % 32))));
        }
        self.partial
    }
}

/// The 16 bits of `chunk`'s eight bytes as bases, the first one highest, when each is
/// A, C, G or T in either case (the codes 0-3 are bits 1-2 of the byte XOR bits 2-3:
/// A 0x41, C 0x43, G 0x47, T 0x54); `None` when any is another byte. A byte loop with
/// a table was most of the reference's reading time (2 cores, chr20).
#[inline(always)]
fn eight_bases(chunk: &[u8]) -> Option<u64> {
    let x = u64::from_be_bytes(chunk.try_into().ok()?);
    let codes = ((x >> 1) ^ (x >> 2)) & 0x0303_0303_0303_0303;
    // Each byte again, lowercase, from its code: 'a' + 0, 2, 6 or 0x13.
    let low = codes & 0x0101_0101_0101_0101;
    let high = (codes >> 1) & 0x0101_0101_0101_0101;
    let lowercase = 0x6161_6161_6161_6161 + low * 2 + high * 6 + (low & high) * 11;
    (x | 0x2020_2020_2020_2020 == lowercase).then(|| pack_eight(codes))
}

/// Whether `chunk`'s eight bytes are all `N` or `n` (the gaps of assemblies: 5.6% of
/// chr20's bytes, which one at a time took a sixth of its encoding).
#[inline(always)]
fn eight_ns(chunk: &[u8]) -> bool {
    chunk.try_into().is_ok_and(|eight: [u8; 8]| {
        u64::from_ne_bytes(eight) | 0x2020_2020_2020_2020 == 0x6E6E_6E6E_6E6E_6E6E
    })
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
    fn eight_bases_takes_exactly_the_plain_bases() {
        for at in 0..8 {
            for byte in 0..=255u8 {
                let mut chunk = *b"AcGtTgCa";
                chunk[at] = byte;
                let plain = matches!(byte, b'A' | b'C' | b'G' | b'T' | b'a' | b'c' | b'g' | b't');
                let want = plain.then(|| {
                    chunk
                        .iter()
                        .fold(0u64, |w, &b| w << 2 | CODES[b as usize] as u64)
                });
                assert_eq!(eight_bases(&chunk), want, "byte {byte:#x} at {at}");
            }
        }
    }

    #[test]
    fn long_mixed_sequence_is_encoded_base_by_base() {
        // Mostly plain bases in lines of 60 (CRLF now and then), with runs of N, IUPAC
        // codes, U and soft-masked stretches: the eight-base path and the byte path
        // alternate at every alignment.
        let mut state = 5u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) % n
        };
        let mut bytes = Vec::new();
        for line in 0..400 {
            for _ in 0..60 {
                let b = match next(100) {
                    0 => b"NRYSWKMBDHVU"[next(12) as usize],
                    1..=20 => b"acgt"[next(4) as usize],
                    _ => b"ACGT"[next(4) as usize],
                };
                bytes.push(b);
            }
            if line % 7 == 0 {
                bytes.extend_from_slice(b"NNNNNNNNNNNNNNNNNNNN");
            }
            bytes.extend_from_slice(if line % 5 == 0 { b"\r\n" } else { b"\n" });
        }
        for offset in [0usize, 1, 3, 8, 13, 31, 32, 33] {
            let mut text = TextBuilder::default();
            text.append(&[&b"A".repeat(offset)[..]]);
            let cuts = [
                0,
                1 + next(500) as usize,
                4000 + next(900) as usize,
                bytes.len(),
            ];
            let slices: Vec<&[u8]> = cuts.windows(2).map(|w| &bytes[w[0]..w[1]]).collect();
            let appended = text.append(&slices);
            assert!(appended.iter().all(|a| a.found.invalid.is_none()));
            let ascii = text.into_packed().to_ascii();
            assert_eq!(
                ascii[offset..],
                expected(&bytes, offset as u64)[..],
                "at {offset}"
            );
            // The ambiguous runs, merged across the slices, against the bytes'.
            let mut runs: Vec<(u64, u64)> = Vec::new();
            for run in appended.iter().flat_map(|a| &a.found.ambiguous) {
                match runs.last_mut() {
                    Some(last) if last.1 == run.start => last.1 = run.end,
                    _ => runs.push((run.start, run.end)),
                }
            }
            let mut want: Vec<(u64, u64)> = Vec::new();
            let bases = bytes.iter().filter(|&&b| b != b'\n' && b != b'\r');
            for (i, &b) in bases.enumerate() {
                let pos = (offset + i) as u64;
                if CODES[b as usize] != AMBIGUOUS {
                    continue;
                }
                match want.last_mut() {
                    Some(last) if last.1 == pos => last.1 += 1,
                    _ => want.push((pos, pos + 1)),
                }
            }
            assert!(want.iter().any(|r| r.1 - r.0 >= 16), "long N runs tested");
            assert_eq!(runs, want, "at {offset}");
        }
    }

    #[test]
    fn any_split_of_the_work_gives_the_same_text() {
        let bytes = b"ACGTNNacgu\r\nRYKM\nACGTACGTACGTACGTACGTACGTACGTACG-TTnn\nG";
        let (bases, lines) = count_bases(bytes);
        assert_eq!((bases, lines), (51, 3));
        for offset in [0, 5, 31, 32] {
            let mut text = TextBuilder::default();
            text.append(&[&b"A".repeat(offset)[..]]);
            let appended = text.append(&[bytes]);
            let ascii = text.into_packed().to_ascii();
            assert_eq!(
                ascii[offset..],
                expected(bytes, offset as u64)[..],
                "at {offset}"
            );
            let found = &appended[0].found;
            assert_eq!((appended[0].start, appended[0].count), (offset as u64, 51));
            assert_eq!(found.invalid, Some((45, b'-')));
            let runs: Vec<(u64, u64)> = found.ambiguous.iter().map(|r| (r.start, r.end)).collect();
            let o = offset as u64;
            assert_eq!(runs, [(o + 4, o + 6), (o + 10, o + 14), (o + 48, o + 50)]);
        }
        for a in 0..=bytes.len() {
            for b in a..=bytes.len() {
                for capacity in [0, 100] {
                    let mut text = TextBuilder::with_capacity(capacity);
                    let mut appended = text.append(&[&bytes[..a], &bytes[a..b]]);
                    appended.extend(text.append(&[&bytes[b..]]));
                    let invalid = appended
                        .iter()
                        .find_map(|x| x.found.invalid.map(|(i, c)| (i + x.start, c)));
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
}
