//! Inputs shared by the unit tests.

/// `len` pseudo-random codes below `alphabet`, the same for the same `seed`.
pub fn random_codes(len: usize, seed: u64, alphabet: u64) -> Vec<u8> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 33) % alphabet) as u8
        })
        .collect()
}

/// The forward and mirror FM indexes of a text, built in memory.
pub struct TestIndex {
    text: crate::reference::PackedText,
    mirror_text: crate::reference::PackedText,
    forward: crate::fm::FmParts,
    mirror: crate::fm::FmParts,
}

impl TestIndex {
    /// The indexes of `codes` (values 0..=3), sampling one position in `sample_rate`.
    pub fn new(codes: &[u8], sample_rate: u32) -> TestIndex {
        use crate::fm::FmParts;
        use crate::reference::PackedText;
        let text = PackedText::from_codes(codes);
        let mirror_text = text.reversed();
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let mirror_sa: Vec<u32> = crate::sa::suffix_array(&mirror_text);
        let forward = FmParts::build(&text, &sa, sample_rate);
        let mirror = FmParts::build(&mirror_text, &mirror_sa, sample_rate);
        TestIndex {
            text,
            mirror_text,
            forward,
            mirror,
        }
    }

    /// The bidirectional index.
    pub fn bidirectional(&self) -> crate::fm::Bidirectional<'_> {
        crate::fm::Bidirectional {
            forward: self.forward.view(&self.text),
            mirror: self.mirror.view(&self.mirror_text).occ,
        }
    }
}
