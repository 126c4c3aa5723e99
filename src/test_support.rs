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
