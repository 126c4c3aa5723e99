//! bwa's text: galign's packed text with every hole's bases replaced by bwa's draws
//! (`lrand48() & 3` after `srand48(11)`, one per ambiguous base in FASTA order), the
//! `.pac` file's bytes, and the text the BWT is built on (the forward text followed by
//! its reverse complement).

use rayon::prelude::*;

use super::rand48::Rand48;
use super::records::Hole;
use crate::reference::PackedText;

/// bwa's seed of the generator (`bns->seed`, written in `.ann`).
pub const SEED: u32 = 11;

/// Bases a packed word holds.
const PER_WORD: usize = 32;

/// The code at position `i` of `words` set to `code`.
fn set_base(words: &mut [u64], i: usize, code: u8) {
    let shift = 62 - 2 * (i % PER_WORD);
    let w = &mut words[i / PER_WORD];
    *w = (*w & !(3 << shift)) | (u64::from(code) << shift);
}

/// `text` with the bases of `holes` replaced by bwa's draws: each hole's draws made on
/// its own thread from the generator skipped to its first draw, and written into the
/// text's own words (a copy of a human genome's took 0.4 s more).
pub fn replace_holes(text: PackedText, holes: &[Hole]) -> PackedText {
    let mut firsts = Vec::with_capacity(holes.len());
    let mut drawn = 0u64;
    for hole in holes {
        firsts.push(drawn);
        drawn += hole.len;
    }
    let seeded = Rand48::seeded(SEED);
    let draws: Vec<Vec<u8>> = holes
        .par_iter()
        .zip(&firsts)
        .map(|(hole, &first)| {
            let mut r = seeded.skip(first);
            (0..hole.len)
                .map(|_| (r.next_lrand48() & 3) as u8)
                .collect()
        })
        .collect();
    let len = text.len();
    let mut words = text.into_words();
    for (hole, codes) in holes.iter().zip(draws) {
        for (i, code) in codes.into_iter().enumerate() {
            set_base(&mut words, hole.offset as usize + i, code);
        }
    }
    PackedText::from_words(words, len)
}

/// The `.pac` file of `text`: its bases four to a byte, the first one highest; then a 0
/// byte where the length is a multiple of 4; then one byte holding the length mod 4.
pub fn pac_bytes(text: &PackedText) -> Vec<u8> {
    let n = text.len();
    let mut bytes: Vec<u8> = text
        .words()
        .iter()
        .flat_map(|w| w.to_be_bytes())
        .take(n.div_ceil(4))
        .collect();
    if n.is_multiple_of(4) {
        bytes.push(0);
    }
    bytes.push((n % 4) as u8);
    bytes
}

/// The bases `from..from + 32` of `text` (code 0 past its end), first highest.
fn word_at(text: &PackedText, from: usize) -> u64 {
    if from >= text.len() {
        0
    } else {
        text.key64(from)
    }
}

/// The top `count` bases of `word` (the rest zeroed).
fn top(word: u64, count: usize) -> u64 {
    match count {
        0 => 0,
        PER_WORD.. => word,
        _ => word & !(u64::MAX >> (2 * count)),
    }
}

/// `forward` followed by its reverse complement: the text bwa builds its BWT and suffix
/// array on.
pub fn with_reverse_complement(forward: &PackedText) -> PackedText {
    let n = forward.len();
    let reversed = forward.reversed();
    let mut words = vec![0u64; PackedText::word_count(2 * n)];
    words[..(2 * n).div_ceil(PER_WORD)]
        .par_iter_mut()
        .enumerate()
        .for_each(|(w, out)| {
            let from = w * PER_WORD;
            let ahead = n.saturating_sub(from).min(PER_WORD); // forward bases in the word
            let fwd = top(word_at(forward, from), ahead);
            if ahead == PER_WORD {
                *out = fwd;
                return;
            }
            let rc_from = (from + ahead) - n;
            let rc_count = (2 * n - from - ahead).min(PER_WORD - ahead);
            let rc = top(!word_at(&reversed, rc_from), rc_count);
            *out = fwd | if ahead == 0 { rc } else { rc >> (2 * ahead) };
        });
    PackedText::from_words(words, 2 * n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::random_codes;

    #[test]
    fn the_reverse_complement_follows_the_text() {
        for len in [1usize, 2, 31, 32, 33, 63, 64, 65, 100, 1000] {
            let codes = random_codes(len, 7, 4);
            let doubled = with_reverse_complement(&PackedText::from_codes(&codes));
            let mut want = codes.clone();
            want.extend(codes.iter().rev().map(|c| 3 - c));
            let got: Vec<u8> = (0..2 * len).map(|i| doubled.get(i)).collect();
            assert_eq!(got, want, "{len} bases");
            let words = doubled.words();
            assert!(words[(2 * len).div_ceil(32)..].iter().all(|&w| w == 0));
            if (2 * len) % 32 != 0 {
                assert_eq!(words[2 * len / 32] & (u64::MAX >> (2 * (2 * len % 32))), 0);
            }
        }
    }

    #[test]
    fn pac_ends_as_bwas() {
        let text = |len| PackedText::from_codes(&vec![1; len]);
        assert_eq!(pac_bytes(&text(3)), [0b0101_0100, 3]);
        assert_eq!(pac_bytes(&text(4)), [0b0101_0101, 0, 0]);
        assert_eq!(pac_bytes(&text(5)), [0x55, 0b0100_0000, 1]);
    }

    #[test]
    fn holes_take_the_generators_draws_in_order() {
        let text = PackedText::from_codes(&[0; 40]);
        let holes = [
            Hole {
                offset: 2,
                len: 3,
                byte: b'N',
            },
            Hole {
                offset: 30,
                len: 5,
                byte: b'R',
            },
        ];
        let replaced = replace_holes(text, &holes);
        let mut r = Rand48::seeded(SEED);
        let mut want = vec![0u8; 40];
        for i in (2..5).chain(30..35) {
            want[i] = (r.next_lrand48() & 3) as u8;
        }
        let got: Vec<u8> = (0..40).map(|i| replaced.get(i)).collect();
        assert_eq!(got, want);
    }
}
