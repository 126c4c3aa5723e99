//! The DNA alphabet: the four bases, their 2-bit codes (A=0, C=1, G=2, T=3) and the
//! byte -> code table every reader, packer and searcher uses; and the same on whole
//! words (eight bytes as a `u64`, sixteen with SSE2 on x86-64) where a byte at a time
//! measured too slow: packing reads for the GPU, writing SAM bases.

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

/// Sixteen bases packed two bits each (base `j` at bits `2 j`; A, C, G, T in either case
/// as 0-3, any other byte as 0), and whether all are A, C, G or T: how reads are packed
/// for the GPU's exact search.
pub fn two_bit_sixteen(bases: &[u8; 16]) -> (u32, bool) {
    #[cfg(target_arch = "x86_64")]
    return two_bit_sixteen_sse2(bases);
    #[cfg(not(target_arch = "x86_64"))]
    return two_bit_sixteen_swar(bases);
}

/// [`two_bit_sixteen`] with SSE2 (part of every x86-64): some four times fewer
/// instructions than on 64-bit words, where packing was ~12% of a human-scale GPU
/// mapping run's CPU time (perf, H200 host, 21 M reads of 148 bp).
#[cfg(target_arch = "x86_64")]
fn two_bit_sixteen_sse2(bases: &[u8; 16]) -> (u32, bool) {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_cmpeq_epi8, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_or_si128, _mm_packs_epi32, _mm_packus_epi16, _mm_set1_epi16, _mm_set1_epi32,
        _mm_set1_epi8, _mm_srli_epi16, _mm_srli_epi32, _mm_xor_si128,
    };
    // SAFETY: SSE2 is part of every x86-64 CPU; the load reads the 16 bytes of a 16-byte
    // array (unaligned loads allowed).
    unsafe {
        let bytes = _mm_loadu_si128(bases.as_ptr().cast());
        // A, C, G and T in either case, made lower case.
        let lower = _mm_or_si128(bytes, _mm_set1_epi8(0x20));
        let is = |b: u8| _mm_cmpeq_epi8(lower, _mm_set1_epi8(b as i8));
        let valid = _mm_or_si128(
            _mm_or_si128(is(b'a'), is(b'c')),
            _mm_or_si128(is(b'g'), is(b't')),
        );
        let all_bases = _mm_movemask_epi8(valid) == 0xFFFF;
        // Bits 1-2 of A, C, G, T are 00, 01, 11, 10: their Gray code's inverse gives 0-3
        // (shifts within 16-bit lanes; the masks drop what crosses a byte).
        let bits = _mm_and_si128(_mm_srli_epi16(bytes, 1), _mm_set1_epi8(3));
        let codes = _mm_xor_si128(
            bits,
            _mm_and_si128(_mm_srli_epi16(bits, 1), _mm_set1_epi8(1)),
        );
        let codes = _mm_and_si128(codes, valid);
        // Two codes a 16-bit lane, four a 32-bit lane, then one byte of each lane.
        let pairs = _mm_and_si128(
            _mm_or_si128(codes, _mm_srli_epi16(codes, 6)),
            _mm_set1_epi16(0x0F),
        );
        let fours = _mm_and_si128(
            _mm_or_si128(pairs, _mm_srli_epi32(pairs, 12)),
            _mm_set1_epi32(0xFF),
        );
        let words = _mm_packs_epi32(fours, fours);
        let packed = _mm_cvtsi128_si32(_mm_packus_epi16(words, words)) as u32;
        (packed, all_bases)
    }
}

/// [`two_bit_sixteen`] on two 64-bit words ([`codes_of_eight`]).
#[cfg(any(test, not(target_arch = "x86_64")))]
fn two_bit_sixteen_swar(bases: &[u8; 16]) -> (u32, bool) {
    // The low 2 bits of each byte of `codes`, gathered: byte `j` to bits `2 j`.
    let gather = |codes: u64| {
        let x = codes & (3 * ONES);
        let x = (x | (x >> 6)) & 0x000F_000F_000F_000F;
        let x = (x | (x >> 12)) & 0x0000_00FF_0000_00FF;
        ((x | (x >> 24)) & 0xFFFF) as u32
    };
    let eight = |at: usize| {
        codes_of_eight(u64::from_le_bytes(
            bases[at..at + 8].try_into().expect("8 bytes"),
        ))
    };
    let ((low, low_others), (high, high_others)) = (eight(0), eight(8));
    (
        gather(low) | (gather(high) << 16),
        low_others + high_others == 0,
    )
}

/// Whether the sixteen bytes of `bytes` are all upper-case A, C, G, T or N: what a
/// read's bases nearly always are, and what SAM writes as they are.
pub fn upper_acgtn_sixteen(bytes: &[u8; 16]) -> bool {
    #[cfg(target_arch = "x86_64")]
    return upper_acgtn_sixteen_sse2(bytes);
    #[cfg(not(target_arch = "x86_64"))]
    return upper_acgtn_sixteen_swar(bytes);
}

/// [`upper_acgtn_sixteen`] with SSE2 (part of every x86-64).
#[cfg(target_arch = "x86_64")]
fn upper_acgtn_sixteen_sse2(bytes: &[u8; 16]) -> bool {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    // SAFETY: SSE2 is part of every x86-64 CPU; the load reads the 16 bytes of a 16-byte
    // array (unaligned loads allowed).
    unsafe {
        let word = _mm_loadu_si128(bytes.as_ptr().cast());
        let is = |b: u8| _mm_cmpeq_epi8(word, _mm_set1_epi8(b as i8));
        let bases = _mm_or_si128(
            _mm_or_si128(is(b'A'), is(b'C')),
            _mm_or_si128(is(b'G'), is(b'T')),
        );
        _mm_movemask_epi8(_mm_or_si128(bases, is(b'N'))) == 0xFFFF
    }
}

/// The reverse complement of sixteen upper-case A, C, G, T or N bytes (last first; A
/// and T swapped, C and G swapped, N kept); `None` when any byte is another.
pub fn reverse_complement_sixteen(bytes: &[u8; 16]) -> Option<[u8; 16]> {
    #[cfg(target_arch = "x86_64")]
    return reverse_complement_sixteen_sse2(bytes);
    #[cfg(not(target_arch = "x86_64"))]
    return reverse_complement_sixteen_bytes(bytes);
}

/// [`reverse_complement_sixteen`] with SSE2 (part of every x86-64).
#[cfg(target_arch = "x86_64")]
fn reverse_complement_sixteen_sse2(bytes: &[u8; 16]) -> Option<[u8; 16]> {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8, _mm_shuffle_epi32, _mm_shufflehi_epi16, _mm_shufflelo_epi16, _mm_slli_epi16,
        _mm_srli_epi16, _mm_storeu_si128, _mm_xor_si128,
    };
    // SAFETY: SSE2 is part of every x86-64 CPU; the load and the store cover the 16
    // bytes of 16-byte arrays (unaligned access allowed).
    unsafe {
        let word = _mm_loadu_si128(bytes.as_ptr().cast());
        let is = |b: u8| _mm_cmpeq_epi8(word, _mm_set1_epi8(b as i8));
        let (at, cg) = (
            _mm_or_si128(is(b'A'), is(b'T')),
            _mm_or_si128(is(b'C'), is(b'G')),
        );
        if _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(at, cg), is(b'N'))) != 0xFFFF {
            return None;
        }
        // A ^ T and C ^ G: the bits that turn each into the other.
        let flip = |mask, bits: u8| _mm_and_si128(mask, _mm_set1_epi8(bits as i8));
        let complement = _mm_xor_si128(
            word,
            _mm_or_si128(flip(at, b'A' ^ b'T'), flip(cg, b'C' ^ b'G')),
        );
        // Reversed: the four 32-bit lanes, the 16-bit halves of each, the bytes of each.
        let lanes = _mm_shuffle_epi32(complement, 0x1B);
        let halves = _mm_shufflehi_epi16(_mm_shufflelo_epi16(lanes, 0xB1), 0xB1);
        let reversed = _mm_or_si128(_mm_slli_epi16(halves, 8), _mm_srli_epi16(halves, 8));
        let mut out = [0u8; 16];
        _mm_storeu_si128(out.as_mut_ptr().cast(), reversed);
        Some(out)
    }
}

/// [`reverse_complement_sixteen`] a byte at a time.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn reverse_complement_sixteen_bytes(bytes: &[u8; 16]) -> Option<[u8; 16]> {
    let complement = |b: u8| match b {
        b'A' => Some(b'T'),
        b'C' => Some(b'G'),
        b'G' => Some(b'C'),
        b'T' => Some(b'A'),
        b'N' => Some(b'N'),
        _ => None,
    };
    let mut out = [0u8; 16];
    for (o, &b) in out.iter_mut().zip(bytes.iter().rev()) {
        *o = complement(b)?;
    }
    Some(out)
}

/// [`upper_acgtn_sixteen`] on two 64-bit words.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn upper_acgtn_sixteen_swar(bytes: &[u8; 16]) -> bool {
    bytes.chunks_exact(8).all(|eight| {
        let word = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
        let known = [b'A', b'C', b'G', b'T', b'N'].iter().fold(0, |known, &b| {
            known | zero_bytes(word ^ (u64::from(b) * ONES))
        });
        known == HIGHS
    })
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

    /// Calls `check(b, place, bytes)` for every byte value `b` at every place of sixteen
    /// bytes drawn from `letters` around it.
    fn every_byte_in_every_place(letters: &[u8], mut check: impl FnMut(u8, usize, [u8; 16])) {
        let mut state = 0x5851_F42D_4C95_7F2Du64;
        for b in 0..=255u8 {
            for place in 0..16 {
                let mut bytes = [0u8; 16];
                for (j, byte) in bytes.iter_mut().enumerate() {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    *byte = match j == place {
                        true => b,
                        false => letters[(state >> 40) as usize % letters.len()],
                    };
                }
                check(b, place, bytes);
            }
        }
    }

    #[test]
    fn sixteen_bases_pack_as_their_codes_for_every_byte_in_every_place() {
        every_byte_in_every_place(b"ACGTacgtN", |b, place, bases| {
            let mut want = (0u32, true);
            for (j, &byte) in bases.iter().enumerate() {
                let code = CODES[byte as usize];
                want.0 |= u32::from(code & 3) << (2 * j);
                want.1 &= code != NOT_A_BASE;
            }
            assert_eq!(two_bit_sixteen(&bases), want, "byte {b} at {place}");
            assert_eq!(two_bit_sixteen_swar(&bases), want, "byte {b} at {place}");
        });
    }

    #[test]
    fn sixteen_upper_bases_and_their_reverse_complement_for_every_byte_in_every_place() {
        every_byte_in_every_place(b"ACGTN", |b, place, bytes| {
            let upper = b"ACGTN".contains(&b);
            assert_eq!(upper_acgtn_sixteen(&bytes), upper, "byte {b} at {place}");
            assert_eq!(
                upper_acgtn_sixteen_swar(&bytes),
                upper,
                "byte {b} at {place}"
            );
            let want = upper.then(|| {
                let mut rc = bytes;
                rc.reverse();
                rc.map(|b| b"TGCAN"[b"ACGTN".iter().position(|&x| x == b).unwrap()])
            });
            assert_eq!(
                reverse_complement_sixteen(&bytes),
                want,
                "byte {b} at {place}"
            );
            assert_eq!(reverse_complement_sixteen_bytes(&bytes), want);
        });
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
