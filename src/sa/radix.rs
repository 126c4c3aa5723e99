//! MSD radix sort of `(u64 key, value)` pairs by key, a digit of 4 to 11 bits a level
//! by the range's size, insertion sort for small ranges. Used inside the initial-sort
//! buckets, whose keys already share their top bits: a pass or two per element instead
//! of a comparison sort's log n.

/// Ranges at most this long are insertion-sorted.
const SMALL: usize = 32;
/// The widest digit.
const MAX_WIDTH: u32 = 11;
/// The number of values of the widest digit.
const MAX_VALUES: usize = 1 << MAX_WIDTH;

/// Sorts `pairs` by key, looking only at key bits below `bits` (the higher ones are
/// equal across `pairs`, fewer than 2^32 of them). Order among equal keys is unspecified.
pub fn sort_by_key<V: Copy + Default>(
    pairs: &mut [(u64, V)],
    scratch: &mut Vec<(u64, V)>,
    bits: u32,
) {
    assert!(
        pairs.len() <= u32::MAX as usize,
        "too many pairs for one radix sort"
    );
    if scratch.len() < pairs.len() {
        scratch.resize(pairs.len(), (0, V::default()));
    }
    sort_level(pairs, &mut scratch[..pairs.len()], bits);
}

fn sort_level<V: Copy>(pairs: &mut [(u64, V)], scratch: &mut [(u64, V)], bits: u32) {
    if pairs.len() <= SMALL || bits == 0 {
        insertion_sort(pairs);
        return;
    }
    let width = digit_width(pairs.len()).min(bits);
    if width <= 8 {
        sort_digit::<V, 256>(pairs, scratch, (bits, width));
    } else {
        sort_digit::<V, MAX_VALUES>(pairs, scratch, (bits, width));
    }
}

/// One level of [`sort_level`]: scatters `pairs` by the `width` key bits below `bits`
/// (`1 << width <= VALUES`), then sorts each digit value's range by the bits below.
fn sort_digit<V: Copy, const VALUES: usize>(
    pairs: &mut [(u64, V)],
    scratch: &mut [(u64, V)],
    (bits, width): (u32, u32),
) {
    let shift = bits - width;
    let mask = (1u64 << width) - 1;
    let digit = |key: u64| ((key >> shift) & mask) as usize;
    let values = 1usize << width;
    let mut ends = [0u32; VALUES];
    let ends = &mut ends[..values];
    for &(key, _) in pairs.iter() {
        ends[digit(key)] += 1;
    }
    if ends.contains(&(pairs.len() as u32)) {
        // One digit value only: go straight to the next level.
        return sort_level(pairs, scratch, shift);
    }
    // Each value's start, then (after the scatter) its end.
    let mut sum = 0;
    for count in ends.iter_mut() {
        (*count, sum) = (sum, sum + *count);
    }
    for &pair in pairs.iter() {
        let d = digit(pair.0);
        scratch[ends[d] as usize] = pair;
        ends[d] += 1;
    }
    // Each value's range goes back from `scratch`, the small ones insertion-sorted on
    // the way (the keys of a range are all equal when no bit is left below the digit).
    let mut start = 0;
    for &end in ends.iter() {
        let (s, e) = (start, end as usize);
        if shift == 0 || e - s <= SMALL {
            insert_each(&scratch[s..e], &mut pairs[s..e]);
        } else {
            pairs[s..e].copy_from_slice(&scratch[s..e]);
            sort_level(&mut pairs[s..e], &mut scratch[s..e], shift);
        }
        start = e;
    }
}

/// Digit bits for a range of `len` pairs: about 4 pairs a digit value, 4 to 11 bits
/// (wider digits leave fewer levels; narrower ones fewer empty values to step over).
fn digit_width(len: usize) -> u32 {
    len.ilog2().saturating_sub(2).clamp(4, MAX_WIDTH)
}

fn insertion_sort<V: Copy>(pairs: &mut [(u64, V)]) {
    for i in 1..pairs.len() {
        insert(pairs, i, pairs[i]);
    }
}

/// Writes `from` sorted by key into `to` (as long), inserting each pair in turn: the
/// copy back from the scratch space and the small range's sort in one pass.
fn insert_each<V: Copy>(from: &[(u64, V)], to: &mut [(u64, V)]) {
    for (i, &item) in from.iter().enumerate() {
        insert(to, i, item);
    }
}

/// Puts `item` into the sorted `pairs[..i]`, after the pairs of equal key, moving the
/// larger ones up one place (into `pairs[i]`).
#[inline]
fn insert<V: Copy>(pairs: &mut [(u64, V)], i: usize, item: (u64, V)) {
    let mut j = i;
    while j > 0 && pairs[j - 1].0 > item.0 {
        pairs[j] = pairs[j - 1];
        j -= 1;
    }
    pairs[j] = item;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_sort() {
        let mut state = 1u64;
        for len in [0, 1, 2, 31, 33, 100, 1000, 20_000] {
            for spread in [1u64, 3, 255, u64::MAX] {
                let mut pairs: Vec<(u64, u32)> = (0..len)
                    .map(|i| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        (((state >> 7) % spread.max(1)) << 3 | 5, i as u32)
                    })
                    .collect();
                let mut expect = pairs.clone();
                expect.sort_unstable();
                sort_by_key(&mut pairs, &mut Vec::new(), 64);
                let keys = |p: &[(u64, u32)]| p.iter().map(|p| p.0).collect::<Vec<_>>();
                assert_eq!(keys(&pairs), keys(&expect), "{len} pairs, spread {spread}");
                // Each pair kept whole: the same pairs, each value with its own key.
                pairs.sort_unstable();
                assert_eq!(pairs, expect, "{len} pairs, spread {spread}");
            }
        }
    }

    #[test]
    fn keys_narrower_than_a_digit_are_sorted_by_their_bits_alone() {
        // 20,000 pairs would take an 11-bit digit; the keys have 5 bits below `bits`,
        // and the bits above them (equal by the contract) are set.
        let mut state = 7u64;
        let mut pairs: Vec<(u64, u32)> = (0..20_000)
            .map(|i| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                (0xF0 | (state >> 59), i)
            })
            .collect();
        let mut expect: Vec<u64> = pairs.iter().map(|p| p.0).collect();
        expect.sort_unstable();
        sort_by_key(&mut pairs, &mut Vec::new(), 5);
        assert_eq!(pairs.iter().map(|p| p.0).collect::<Vec<_>>(), expect);
    }
}
