//! klib's `ks_introsort` (ksort.h, as bwa 0.7.17 bundles it), step for step: an
//! unstable sort whose order of equal elements bwa's output depends on (bwa mem sorts
//! its chains by weight with it), so it is ported rather than replaced.

/// Sorts `a` by `lt` exactly as `ks_introsort` does: the same comparisons and swaps,
/// hence the same order of elements `lt` holds equal.
pub fn introsort<T: Copy>(a: &mut [T], lt: impl Fn(&T, &T) -> bool) {
    let n = a.len();
    if n < 1 {
        return;
    }
    if n == 2 {
        if lt(&a[1], &a[0]) {
            a.swap(0, 1);
        }
        return;
    }
    let mut d = 2;
    while (1usize << d) < n {
        d += 1;
    }
    d <<= 1;
    let mut stack: Vec<(usize, usize, i32)> = Vec::new();
    let (mut s, mut t) = (0usize, n - 1);
    loop {
        if s < t {
            d -= 1;
            if d == 0 {
                combsort(&mut a[s..=t], &lt);
                t = s;
                continue;
            }
            let i = partition(a, s, t, &lt);
            if i - s > t - i {
                if i - s > 16 {
                    stack.push((s, i - 1, d));
                }
                s = if t - i > 16 { i + 1 } else { t };
            } else {
                if t - i > 16 {
                    stack.push((i + 1, t, d));
                }
                t = if i - s > 16 { i - 1 } else { s };
            }
        } else {
            match stack.pop() {
                None => {
                    insertsort(a, &lt);
                    return;
                }
                Some((left, right, depth)) => (s, t, d) = (left, right, depth),
            }
        }
    }
}

/// One partition of `a[s..=t]` around the median of three (`ks_introsort`'s loop body);
/// returns where the pivot lands.
fn partition<T: Copy>(a: &mut [T], s: usize, t: usize, lt: &impl Fn(&T, &T) -> bool) -> usize {
    let (mut i, mut j) = (s, t);
    let mut k = i + ((j - i) >> 1) + 1;
    if lt(&a[k], &a[i]) {
        if lt(&a[k], &a[j]) {
            k = j;
        }
    } else {
        k = if lt(&a[j], &a[i]) { i } else { j };
    }
    let rp = a[k];
    if k != t {
        a.swap(k, t);
    }
    loop {
        i += 1;
        while lt(&a[i], &rp) {
            i += 1;
        }
        // `do --j; while (i <= j && lt(rp, *j))`: j stops at i - 1 >= s at the lowest.
        j -= 1;
        while i <= j && lt(&rp, &a[j]) {
            j -= 1;
        }
        if j <= i {
            break;
        }
        a.swap(i, j);
    }
    a.swap(i, t);
    i
}

/// klib's `__ks_insertsort`.
fn insertsort<T: Copy>(a: &mut [T], lt: &impl Fn(&T, &T) -> bool) {
    for i in 1..a.len() {
        let mut j = i;
        while j > 0 && lt(&a[j], &a[j - 1]) {
            a.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// klib's `ks_combsort` (introsort's fallback when it recurses too deep).
fn combsort<T: Copy>(a: &mut [T], lt: &impl Fn(&T, &T) -> bool) {
    const SHRINK: f64 = 1.247_330_950_103_978_6;
    let n = a.len();
    let mut gap = n;
    loop {
        if gap > 2 {
            gap = (gap as f64 / SHRINK) as usize;
            if gap == 9 || gap == 10 {
                gap = 11;
            }
        }
        let mut swapped = false;
        for i in 0..n.saturating_sub(gap) {
            if lt(&a[i + gap], &a[i]) {
                a.swap(i, i + gap);
                swapped = true;
            }
        }
        if !(swapped || gap > 2) {
            break;
        }
    }
    if gap != 1 {
        insertsort(a, lt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorted by key, whatever the input; equal keys keep a deterministic order.
    #[test]
    fn introsort_sorts() {
        let mut state = 7u64;
        for n in [0, 1, 2, 3, 17, 18, 40, 1000, 5000] {
            let mut v: Vec<(u32, usize)> = (0..n)
                .map(|i| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((state >> 60) as u32, i)
                })
                .collect();
            introsort(&mut v, |a, b| a.0 > b.0);
            assert!(v.windows(2).all(|w| w[0].0 >= w[1].0), "n = {n}");
            let mut ids: Vec<usize> = v.iter().map(|p| p.1).collect();
            ids.sort();
            assert_eq!(ids, (0..n).collect::<Vec<_>>());
        }
    }
}
