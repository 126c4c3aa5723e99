//! POSIX `drand48`'s 48-bit linear congruential generator, as `srand48` seeds it and
//! `lrand48` draws from it: bwa replaces each ambiguous base by `lrand48() & 3` after
//! `srand48(11)`. [`Rand48::skip`] jumps ahead in O(log n) steps, so that every hole's
//! draws can be made on its own thread.

/// The multiplier `a` of `X' = (a X + c) mod 2^48`.
const A: u64 = 0x5_DEEC_E66D;
/// The increment `c`.
const C: u64 = 0xB;
/// `2^48 - 1`.
const MASK: u64 = (1 << 48) - 1;

/// The generator's state `X`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rand48 {
    x: u64,
}

impl Rand48 {
    /// The state `srand48(seed)` sets: the seed's low 32 bits above `0x330E`.
    pub fn seeded(seed: u32) -> Rand48 {
        Rand48 {
            x: (u64::from(seed) << 16) | 0x330E,
        }
    }

    /// The next `lrand48()`: the state stepped, its top 31 bits.
    pub fn next_lrand48(&mut self) -> u32 {
        self.x = A.wrapping_mul(self.x).wrapping_add(C) & MASK;
        (self.x >> 17) as u32
    }

    /// The generator after `n` more draws, without making them: the step composed with
    /// itself by squaring (`x -> m x + k`).
    pub fn skip(self, mut n: u64) -> Rand48 {
        let (mut m, mut k) = (A, C); // the step applied 2^i times
        let (mut total_m, mut total_k) = (1u64, 0u64);
        while n > 0 {
            if n & 1 == 1 {
                total_m = total_m.wrapping_mul(m) & MASK;
                total_k = (total_k.wrapping_mul(m).wrapping_add(k)) & MASK;
            }
            k = (k.wrapping_mul(m).wrapping_add(k)) & MASK;
            m = m.wrapping_mul(m) & MASK;
            n >>= 1;
        }
        Rand48 {
            x: (total_m.wrapping_mul(self.x).wrapping_add(total_k)) & MASK,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// glibc's `srand48(11)` then `lrand48()` ten times, and its millionth draw (from a
    /// C program built with gcc).
    const GLIBC_FIRST: [u32; 10] = [
        1609868485, 1074594562, 470884846, 2128573038, 960673312, 346697164, 303961605, 444770020,
        1109020034, 1241372325,
    ];
    const GLIBC_MILLIONTH: u32 = 751365114;

    #[test]
    fn draws_are_glibcs() {
        let mut r = Rand48::seeded(11);
        let drawn: Vec<u32> = (0..10).map(|_| r.next_lrand48()).collect();
        assert_eq!(drawn, GLIBC_FIRST);
        let mut r = Rand48::seeded(11);
        let last = (0..1_000_000).map(|_| r.next_lrand48()).last();
        assert_eq!(last, Some(GLIBC_MILLIONTH));
    }

    #[test]
    fn skipping_equals_drawing() {
        for n in [0u64, 1, 2, 3, 7, 64, 999, 999_999] {
            let mut drawn = Rand48::seeded(11);
            for _ in 0..n {
                drawn.next_lrand48();
            }
            assert_eq!(Rand48::seeded(11).skip(n), drawn, "{n} draws");
        }
        assert_eq!(
            Rand48::seeded(11).skip(999_999).next_lrand48(),
            GLIBC_MILLIONTH
        );
    }
}
