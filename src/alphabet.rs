//! The DNA alphabet: the four bases, their 2-bit codes (A=0, C=1, G=2, T=3) and the
//! byte -> code table every reader, packer and searcher uses; and the same on whole
//! words (eight bytes as a `u64`, sixteen with SSE2 on x86-64, 32 with AVX2 where the CPU
//! has it) where a byte at a time measured too slow: packing reads for the GPU, writing
//! SAM bases.

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
fn two_bit_sixteen(bases: &[u8; 16]) -> (u32, bool) {
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

/// Packs the read `seq` two bits a base into `out` (`seq.len().div_ceil(16)` words:
/// base `16 w + j` at bits `2 j` of word `w`, A, C, G, T in either case as 0-3, any
/// other byte as 0, the last word's unused bits 0); whether all bases are A, C, G or T.
/// With AVX2 where the CPU has it, 32 bases a step (a quarter of the SSE2 steps'
/// instructions: packing was 14% of the GPU path's CPU time at human scale, perf, H200
/// host, session 36), else sixteen at a time ([`two_bit_sixteen`]).
pub fn pack_two_bit(seq: &[u8], out: &mut [u32]) -> bool {
    assert_eq!(out.len(), seq.len().div_ceil(16), "one word per 16 bases");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, the one feature the function adds.
        return unsafe { pack_two_bit_avx2(seq, out) };
    }
    pack_two_bit_sixteens(seq, out)
}

/// [`pack_two_bit`] sixteen bases at a time, the last word base by base.
fn pack_two_bit_sixteens(seq: &[u8], out: &mut [u32]) -> bool {
    let mut all_bases = true;
    for (bases, word) in seq.chunks(16).zip(out.iter_mut()) {
        let (packed, bases_only) = match bases.try_into() {
            Ok(sixteen) => two_bit_sixteen(sixteen),
            Err(_) => two_bit_tail(bases),
        };
        *word = packed;
        all_bases &= bases_only;
    }
    all_bases
}

/// Fewer than sixteen bases packed as [`two_bit_sixteen`] packs sixteen.
fn two_bit_tail(bases: &[u8]) -> (u32, bool) {
    bases
        .iter()
        .enumerate()
        .fold((0, true), |(word, all), (j, &b)| {
            let code = CODES[b as usize];
            (
                word | (u32::from(code & 3) << (2 * j)),
                all && code != NOT_A_BASE,
            )
        })
}

/// [`pack_two_bit`] with AVX2: 32 bases a step ([`two_bit_thirty_two`]); a last step of
/// fewer bases takes the read's last 32 (or, in a read shorter than 32, its bases
/// copied into zeros) and shifts the ones already packed out.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pack_two_bit_avx2(seq: &[u8], out: &mut [u32]) -> bool {
    let mut steps = seq.chunks_exact(32);
    let mut invalid = 0u32;
    for (i, step) in (&mut steps).enumerate() {
        // SAFETY: the caller's CPU has AVX2.
        let (packed, valid) = unsafe { two_bit_thirty_two(step.try_into().expect("32 bases")) };
        out[2 * i] = packed as u32;
        out[2 * i + 1] = (packed >> 32) as u32;
        invalid |= !valid;
    }
    let rest = steps.remainder().len();
    if rest > 0 {
        let (packed, valid) = if seq.len() >= 32 {
            let last = seq[seq.len() - 32..].try_into().expect("32 bases");
            // SAFETY: as above.
            let (packed, valid) = unsafe { two_bit_thirty_two(last) };
            (packed >> (2 * (32 - rest)), valid >> (32 - rest))
        } else {
            let mut padded = [0u8; 32];
            padded[..rest].copy_from_slice(seq);
            // SAFETY: as above.
            let (packed, valid) = unsafe { two_bit_thirty_two(&padded) };
            (packed, valid)
        };
        let first = seq.len() / 32 * 2;
        out[first] = packed as u32;
        if rest > 16 {
            out[first + 1] = (packed >> 32) as u32;
        }
        invalid |= !valid & ((1u64 << rest) - 1) as u32;
    }
    invalid == 0
}

/// Thirty-two bases packed two bits each (base `j` at bits `2 j`, as [`two_bit_sixteen`])
/// and a mask with bit `j` set where base `j` is A, C, G or T: each byte's low four bits
/// look up its code and the lower-case letter it must then be (`pshufb`), and
/// multiply-adds gather four codes a byte.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn two_bit_thirty_two(bases: &[u8; 32]) -> (u64, u32) {
    use std::arch::x86_64::{
        _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_extract_epi32, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_maddubs_epi16, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi16, _mm256_set1_epi32, _mm256_set1_epi8, _mm256_setr_epi8,
        _mm256_shuffle_epi8,
    };
    // The low nibbles of A, C, G, T (either case) are 1, 3, 7, 4.
    #[rustfmt::skip]
    let (letter, code) = (
        _mm256_setr_epi8(
            0, b'a' as i8, 0, b'c' as i8, b't' as i8, 0, 0, b'g' as i8, 0, 0, 0, 0, 0, 0, 0, 0,
            0, b'a' as i8, 0, b'c' as i8, b't' as i8, 0, 0, b'g' as i8, 0, 0, 0, 0, 0, 0, 0, 0,
        ),
        _mm256_setr_epi8(
            0, 0, 0, 1, 3, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 1, 3, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0,
        ),
    );
    // SAFETY: the load reads the 32 bytes of a 32-byte array (unaligned loads allowed).
    let bytes = unsafe { _mm256_loadu_si256(bases.as_ptr().cast()) };
    let nibbles = _mm256_and_si256(bytes, _mm256_set1_epi8(0x0F));
    let lower = _mm256_or_si256(bytes, _mm256_set1_epi8(0x20));
    let valid = _mm256_cmpeq_epi8(lower, _mm256_shuffle_epi8(letter, nibbles));
    let codes = _mm256_and_si256(_mm256_shuffle_epi8(code, nibbles), valid);
    // c0 + 4 c1 in each 16-bit lane, then (c0 + 4 c1) + 16 (c2 + 4 c3) in each 32-bit one.
    let pairs = _mm256_maddubs_epi16(codes, _mm256_set1_epi16(0x0401));
    let fours = _mm256_madd_epi16(pairs, _mm256_set1_epi32(0x0010_0001));
    // The low byte of each 32-bit lane, four a 128-bit half.
    #[rustfmt::skip]
    let gather = _mm256_setr_epi8(
        0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    );
    let bytes_of = _mm256_shuffle_epi8(fours, gather);
    let low = _mm256_extract_epi32::<0>(bytes_of) as u32;
    let high = _mm256_extract_epi32::<4>(bytes_of) as u32;
    (
        u64::from(low) | (u64::from(high) << 32),
        _mm256_movemask_epi8(valid) as u32,
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

/// [`upper_acgtn_sixteen`] of 32 bytes.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn upper_acgtn_thirty_two(bytes: &[u8; 32]) -> bool {
    use std::arch::x86_64::{
        _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
        _mm256_set1_epi8,
    };
    // SAFETY: the load reads the 32 bytes of a 32-byte array (unaligned loads allowed).
    let word = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
    let is = |b: u8| _mm256_cmpeq_epi8(word, _mm256_set1_epi8(b as i8));
    let bases = _mm256_or_si256(
        _mm256_or_si256(is(b'A'), is(b'C')),
        _mm256_or_si256(is(b'G'), is(b'T')),
    );
    _mm256_movemask_epi8(_mm256_or_si256(bases, is(b'N'))) == -1
}

/// [`reverse_complement_sixteen`] of 32 bytes.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub unsafe fn reverse_complement_thirty_two(bytes: &[u8; 32]) -> Option<[u8; 32]> {
    use std::arch::x86_64::{
        _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_permute4x64_epi64, _mm256_set1_epi8, _mm256_setr_epi8,
        _mm256_shuffle_epi8, _mm256_storeu_si256, _mm256_xor_si256,
    };
    // SAFETY: the load reads the 32 bytes of a 32-byte array (unaligned loads allowed).
    let word = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
    let is = |b: u8| _mm256_cmpeq_epi8(word, _mm256_set1_epi8(b as i8));
    let (at, cg) = (
        _mm256_or_si256(is(b'A'), is(b'T')),
        _mm256_or_si256(is(b'C'), is(b'G')),
    );
    if _mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(at, cg), is(b'N'))) != -1 {
        return None;
    }
    // A ^ T and C ^ G: the bits that turn each into the other.
    let flip = |mask, bits: u8| _mm256_and_si256(mask, _mm256_set1_epi8(bits as i8));
    let complement = _mm256_xor_si256(
        word,
        _mm256_or_si256(flip(at, b'A' ^ b'T'), flip(cg, b'C' ^ b'G')),
    );
    // Reversed: the two 128-bit halves swapped, then the bytes of each.
    #[rustfmt::skip]
    let backwards = _mm256_setr_epi8(
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
    );
    let reversed = _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0x4E>(complement), backwards);
    let mut out = [0u8; 32];
    // SAFETY: the store writes the 32 bytes of a 32-byte array.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), reversed) };
    Some(out)
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
    #[cfg(target_arch = "x86_64")]
    fn thirty_two_upper_bases_and_their_reverse_complement_for_every_byte_in_every_place() {
        // The AVX2 steps exist only where the CPU has AVX2 (every CPU of these tests'
        // machines); elsewhere the sixteens above are the whole story.
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        every_byte_in_every_place(b"ACGTN", |b, place, low| {
            for (halves, place) in [
                ([low, *b"NACGTTGCANNACGTA"], place),
                ([*b"TTGCAACGTNACGTGA", low], place + 16),
            ] {
                let bytes: [u8; 32] = halves.concat().try_into().expect("32 bytes");
                let upper = b"ACGTN".contains(&b);
                // SAFETY: the CPU has AVX2 (checked above).
                assert_eq!(
                    unsafe { upper_acgtn_thirty_two(&bytes) },
                    upper,
                    "byte {b} at {place}"
                );
                let want = match upper {
                    true => {
                        let [first, second] =
                            halves.map(|h| reverse_complement_sixteen_bytes(&h).expect("upper"));
                        Some([second, first].concat())
                    }
                    false => None,
                };
                // SAFETY: as above.
                let got = unsafe { reverse_complement_thirty_two(&bytes) };
                assert_eq!(got.map(|g| g.to_vec()), want, "byte {b} at {place}");
            }
        });
    }

    /// The words and flag of [`pack_two_bit`], a base at a time.
    fn packed_base_by_base(seq: &[u8]) -> (Vec<u32>, bool) {
        let mut words = vec![0u32; seq.len().div_ceil(16)];
        for (i, &b) in seq.iter().enumerate() {
            words[i / 16] |= u32::from(CODES[b as usize] & 3) << (2 * (i % 16));
        }
        (words, seq.iter().all(|&b| CODES[b as usize] != NOT_A_BASE))
    }

    #[test]
    fn reads_of_every_length_pack_as_base_by_base_with_every_byte_in_every_place() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut letter = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            b"ACGTacgtN"[(state >> 40) as usize % 9]
        };
        for len in 0..=100 {
            let read: Vec<u8> = (0..len).map(|_| letter()).collect();
            let places = (0..len).map(Some).chain([None]);
            for (place, b) in places.flat_map(|p| (0..=255u8).map(move |b| (p, b))) {
                let mut seq = read.clone();
                if let Some(place) = place {
                    seq[place] = b;
                }
                let want = packed_base_by_base(&seq);
                // Stale words in the buffer: every word must be written.
                let mut words = vec![u32::MAX; want.0.len()];
                assert_eq!(
                    pack_two_bit(&seq, &mut words),
                    want.1,
                    "{len} bases, {b} at {place:?}"
                );
                assert_eq!(words, want.0, "{len} bases, {b} at {place:?}");
                words.fill(u32::MAX);
                assert_eq!(pack_two_bit_sixteens(&seq, &mut words), want.1);
                assert_eq!(words, want.0, "sixteens: {len} bases, {b} at {place:?}");
                if place.is_none() {
                    break;
                }
            }
        }
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
