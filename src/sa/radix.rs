//! MSD radix sort of `(u64 key, value)` pairs by key, 8 bits a level, insertion sort
//! for small ranges. Used inside the initial-sort buckets, whose keys already share
//! their top bits: a pass or two per element instead of a comparison sort's log n.

/// Ranges at most this long are insertion-sorted.
const SMALL: usize = 32;

/// Sorts `pairs` by key, looking only at key bits below `bits` (the higher ones are
/// equal across `pairs`). Order among equal keys is unspecified.
pub fn sort_by_key<V: Copy + Default>(
    pairs: &mut [(u64, V)],
    scratch: &mut Vec<(u64, V)>,
    bits: u32,
) {
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
    let shift = bits.saturating_sub(8);
    let digit = |key: u64| ((key >> shift) & 0xFF) as usize;
    let mut counts = [0usize; 257];
    for &(key, _) in pairs.iter() {
        counts[digit(key) + 1] += 1;
    }
    if counts.contains(&pairs.len()) {
        // One digit value only: go straight to the next level.
        return sort_level(pairs, scratch, shift);
    }
    for d in 0..256 {
        counts[d + 1] += counts[d];
    }
    let starts = counts;
    let mut next = counts;
    for &pair in pairs.iter() {
        let d = digit(pair.0);
        scratch[next[d]] = pair;
        next[d] += 1;
    }
    pairs.copy_from_slice(scratch);
    if shift == 0 {
        return;
    }
    for d in 0..256 {
        let (s, e) = (starts[d], starts[d + 1]);
        if e - s > 1 {
            sort_level(&mut pairs[s..e], &mut scratch[s..e], shift);
        }
    }
}

fn insertion_sort<V: Copy>(pairs: &mut [(u64, V)]) {
    for i in 1..pairs.len() {
        let item = pairs[i];
        let mut j = i;
        while j > 0 && pairs[j - 1].0 > item.0 {
            pairs[j] = pairs[j - 1];
            j -= 1;
        }
        pairs[j] = item;
    }
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
                let mut expect: Vec<u64> = pairs.iter().map(|p| p.0).collect();
                expect.sort_unstable();
                sort_by_key(&mut pairs, &mut Vec::new(), 64);
                assert_eq!(pairs.iter().map(|p| p.0).collect::<Vec<_>>(), expect);
            }
        }
    }
}
