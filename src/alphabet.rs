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

/// Each byte 0x01, repeated over a word.
const ONES: u64 = 0x0101_0101_0101_0101;
/// Each byte's high bit.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` that is zero (exact per byte: no carries cross).
fn zero_bytes(x: u64) -> u64 {
    !(((x & !HIGHS) + !HIGHS) | x) & HIGHS
}

/// The [`CODES`] of eight bytes at once (byte `j` of `bytes` gives byte `j` of the
/// result, [`NOT_A_BASE`] for a byte that is not a base), and how many of them are not
/// bases. Arithmetic on the word, no table: packing reads for the GPU a byte at a time
/// through the table cost ~1 ns a base, some 3 core-seconds for 21 M reads of 148 bp.
pub fn codes_of_eight(bytes: u64) -> (u64, u32) {
    // A, C, G and T in either case, made lower case.
    let lower = bytes | (0x20 * ONES);
    let bases = zero_bytes(lower ^ (u64::from(b'a') * ONES))
        | zero_bytes(lower ^ (u64::from(b'c') * ONES))
        | zero_bytes(lower ^ (u64::from(b'g') * ONES))
        | zero_bytes(lower ^ (u64::from(b't') * ONES));
    // Bits 1-2 of A, C, G, T are 00, 01, 11, 10: their Gray code's inverse gives 0-3.
    let bits = (bytes >> 1) & (3 * ONES);
    let codes = bits ^ ((bits >> 1) & ONES);
    let is_base = bases >> 7;
    let coded = (codes & (is_base * 3)) | ((is_base ^ ONES) * u64::from(NOT_A_BASE));
    // The sum of the eight 0/1 bytes lands in the top byte (no popcount instruction
    // in the baseline target).
    (coded, 8 - (is_base.wrapping_mul(ONES) >> 56) as u32)
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

    #[test]
    fn codes_of_eight_are_the_table_s_for_every_byte_in_every_place() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..20_000 {
            let mut bytes = next().to_le_bytes();
            if round < 256 * 8 {
                bytes[round % 8] = (round / 8) as u8; // every byte value in every place
            }
            if round % 3 == 0 {
                for b in bytes.iter_mut() {
                    *b = b"ACGTacgtN"[(*b % 9) as usize]; // mostly bases
                }
            }
            let (codes, others) = codes_of_eight(u64::from_le_bytes(bytes));
            let want: Vec<u8> = bytes.iter().map(|&b| CODES[b as usize]).collect();
            assert_eq!(codes.to_le_bytes().to_vec(), want, "{bytes:?}");
            let want_others = want.iter().filter(|&&c| c == NOT_A_BASE).count();
            assert_eq!(others as usize, want_others, "{bytes:?}");
        }
    }
}
