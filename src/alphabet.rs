//! The DNA alphabet: the four bases, their 2-bit codes (A=0, C=1, G=2, T=3) and the
//! byte -> code table every reader, packer and searcher uses.

/// The bases in code order: `BASES[code]` is the upper-case letter of `code`.
pub const BASES: [u8; 4] = *b"ACGT";

/// Code of a byte that is not A, C, G or T (in either case) in [`CODES`].
pub const NOT_A_BASE: u8 = 4;

/// 2-bit code of each byte: A, C, G, T in either case; [`NOT_A_BASE`] for anything else.
pub const CODES: [u8; 256] = {
    let mut t = [NOT_A_BASE; 256];
    let mut i = 0;
    while i < 4 {
        t[BASES[i] as usize] = i as u8;
        t[BASES[i].to_ascii_lowercase() as usize] = i as u8;
        i += 1;
    }
    t
};

/// Encodes `seq` as 2-bit codes into `out`; `false` when a base is not A, C, G or T.
pub fn encode(seq: &[u8], out: &mut Vec<u8>) -> bool {
    out.clear();
    out.extend(seq.iter().map(|&b| CODES[b as usize]));
    // Codes 0-3 leave bit 2 clear, NOT_A_BASE sets it: one OR over all (vectorized,
    // unlike a search that stops at the first).
    out.iter().fold(0, |any, &c| any | c) < NOT_A_BASE
}

/// Reverse complement of 2-bit codes, in place; [`NOT_A_BASE`] stays itself.
pub fn reverse_complement_codes(codes: &mut [u8]) {
    codes.reverse();
    // 3 - c is c ^ 3 for a code; NOT_A_BASE is left alone. Branch-free, so that it
    // vectorizes (a branch per base was ~3% of an exact CPU mapping run's time).
    for c in codes.iter_mut() {
        *c ^= 3 * u8::from(*c < NOT_A_BASE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_acgt_in_either_case_and_nothing_else() {
        for b in 0..=255u8 {
            let want = match b {
                b'A' | b'a' => Some(0),
                b'C' | b'c' => Some(1),
                b'G' | b'g' => Some(2),
                b'T' | b't' => Some(3),
                _ => None,
            };
            assert_eq!(CODES[b as usize], want.unwrap_or(NOT_A_BASE), "byte {b}");
        }
    }

    #[test]
    fn encode_refuses_other_bytes_and_reverse_complements() {
        let mut codes = Vec::new();
        assert!(encode(b"ACgtA", &mut codes));
        assert_eq!(codes, [0, 1, 2, 3, 0]);
        reverse_complement_codes(&mut codes);
        assert_eq!(codes, [3, 0, 1, 2, 3]); // TACGT
        assert!(!encode(b"ACNT", &mut codes));
        reverse_complement_codes(&mut codes);
        assert_eq!(codes, [0, NOT_A_BASE, 2, 3]); // ANGT
        assert!(encode(b"", &mut codes) && codes.is_empty());
    }
}
