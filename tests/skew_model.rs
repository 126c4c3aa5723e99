//! A CPU model of the GPU skew (DC3) builder of `src/gpu/sa/skew.rs` and
//! `kernels/sa/skew.cu`, step for step: the Kärkkäinen-Sanders sample layout with its
//! dummy, the sample sorted by windows of as many symbols as one u32 key holds (or three
//! symbols by three stable sorts), names by a scan of where the windows change,
//! recursion while they are not unique, the mod-0 suffixes from the sample's order, and
//! the merge by merge-path tiles with the 1- or 2-symbol comparison. It must equal the
//! CPU suffix array; this checks the host-side logic where no GPU is.

use galign::reference::PackedText;

/// A deterministic pseudo-random generator (PCG-style LCG).
fn lcg(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s >> 17
    }
}

/// A level's text: symbols from 1 to `alphabet`; 0 past the end.
struct Text<'a> {
    symbols: &'a [u32],
    alphabet: u64,
}

impl Text<'_> {
    fn get(&self, p: u64) -> u32 {
        self.symbols.get(p as usize).copied().unwrap_or(0)
    }

    /// As `Text::window` in skew.rs: (symbols per key, base, key bits).
    fn window(&self) -> (u32, u64, u32) {
        let base = self.alphabet + 1;
        let (mut width, mut span) = (0u32, 1u64);
        while width < 32 && span * base <= 1 << 32 {
            span *= base;
            width += 1;
        }
        if width < 3 {
            return (1, base, 64 - self.alphabet.leading_zeros());
        }
        (width, base, 64 - (span - 1).leading_zeros())
    }

    fn window_key(&self, p: u64, width: u32, base: u64) -> u32 {
        (0..width).fold(0u64, |k, i| k * base + self.get(p + i as u64) as u64) as u32
    }
}

fn sample_pos(j: u32, n0: u32) -> u64 {
    if j < n0 {
        3 * j as u64 + 1
    } else {
        3 * (j - n0) as u64 + 2
    }
}

/// The suffix array of a level (n >= 1), as the GPU builds it.
fn skew(text: &Text) -> Vec<u32> {
    let n = text.symbols.len();
    let (n0, n1, n2) = (n.div_ceil(3), (n + 1) / 3, n / 3);
    let s = n0 + n2;
    let dummy = n0 > n1;
    let n0u = n0 as u32;
    // Sample sort (stable sorts by the keys, as the LSD radix sort).
    let mut vals: Vec<u32> = (0..s as u32).collect();
    let (width, base, key_bits) = text.window();
    let offsets: &[u64] = if width >= 3 { &[0] } else { &[2, 1, 0] };
    let mut keys = Vec::new();
    for &offset in offsets {
        keys = vals
            .iter()
            .map(|&j| text.window_key(sample_pos(j, n0u) + offset, width, base))
            .collect();
        assert!(keys.iter().all(|&k| (k as u64) < 1 << key_bits));
        let mut pairs: Vec<(u32, u32)> = keys.iter().copied().zip(vals.iter().copied()).collect();
        pairs.sort_by_key(|&(k, _)| k);
        keys = pairs.iter().map(|&(k, _)| k).collect();
        vals = pairs.iter().map(|&(_, v)| v).collect();
    }
    // Names: inclusive sum of where the windows change.
    let changes: Vec<u32> = (0..s)
        .map(|k| {
            let change = k == 0
                || if width >= 3 {
                    keys[k] != keys[k - 1]
                } else {
                    let (p, q) = (sample_pos(vals[k], n0u), sample_pos(vals[k - 1], n0u));
                    (0..3).any(|i| text.get(p + i) != text.get(q + i))
                };
            change as u32
        })
        .collect();
    let names: Vec<u32> = changes
        .iter()
        .scan(0, |acc, &c| {
            *acc += c;
            Some(*acc)
        })
        .collect();
    let count = names[s - 1] as usize;
    let mut next = vec![0u32; s];
    for k in 0..s {
        next[vals[k] as usize] = names[k];
    }
    let sample = if count == s {
        vals
    } else {
        skew(&Text {
            symbols: &next,
            alphabet: count as u64,
        })
    };
    let mut rank = next;
    for (k, &j) in sample.iter().enumerate() {
        rank[j as usize] = k as u32 + 1;
    }
    // Mod-0 suffixes in the order of the sample suffix after each, then stably by symbol.
    let mut mod0: Vec<u32> = sample
        .iter()
        .filter(|&&j| j < n0u)
        .map(|&j| 3 * j)
        .collect();
    assert_eq!(mod0.len(), n0);
    mod0.sort_by_key(|&p| text.get(p as u64));
    let positions: Vec<u32> = sample.iter().map(|&j| sample_pos(j, n0u) as u32).collect();
    if dummy {
        assert_eq!(positions[0] as usize, n, "the dummy sorts first");
    }
    let a = &positions[dummy as usize..];
    let rank_at = |p: u64| -> u32 {
        if p >= n as u64 {
            0
        } else if p % 3 == 1 {
            rank[(p / 3) as usize]
        } else {
            rank[(p / 3) as usize + n0]
        }
    };
    let less = |j: u32, i: u32| -> bool {
        let (j, i) = (j as u64, i as u64);
        let (cj, ci) = (text.get(j), text.get(i));
        if cj != ci {
            return cj < ci;
        }
        if i % 3 == 1 {
            return rank_at(j + 1) < rank_at(i + 1);
        }
        let (cj, ci) = (text.get(j + 1), text.get(i + 1));
        if cj != ci {
            return cj < ci;
        }
        rank_at(j + 2) < rank_at(i + 2)
    };
    merge_tiles(a, &mod0, less)
}

/// merge_path of merge.cuh.
fn merge_path(a: &[u32], b: &[u32], diag: usize, less: &impl Fn(u32, u32) -> bool) -> usize {
    let (mut lo, mut hi) = (diag.saturating_sub(b.len()), diag.min(a.len()));
    while lo < hi {
        let mid = (lo + hi) / 2;
        if !less(b[diag - 1 - mid], a[mid]) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// merge_partition and merge_tiles of merge.cuh, with small tiles (4 threads of 3).
fn merge_tiles(a: &[u32], b: &[u32], less: impl Fn(u32, u32) -> bool) -> Vec<u32> {
    const ITEMS: usize = 3;
    const TILE: usize = 4 * ITEMS;
    let total = a.len() + b.len();
    let tiles = total.div_ceil(TILE);
    let splits: Vec<usize> = (0..=tiles)
        .map(|t| merge_path(a, b, (t * TILE).min(total), &less))
        .collect();
    let mut out = vec![u32::MAX; total];
    for t in 0..tiles {
        let d0 = t * TILE;
        let len = TILE.min(total - d0);
        let (a0, a1) = (splits[t], splits[t + 1]);
        let (b0, b1) = (d0 - a0, d0 + len - a1);
        for first in (0..len).step_by(ITEMS) {
            let mut i = a0 + merge_path(&a[a0..a1], &b[b0..b1], first, &less);
            let mut j = b0 + first - (i - a0);
            for slot in &mut out[d0 + first..d0 + (first + ITEMS).min(len)] {
                let take_a = j >= b1 || (i < a1 && !less(b[j], a[i]));
                if take_a {
                    *slot = a[i];
                    i += 1;
                } else {
                    *slot = b[j];
                    j += 1;
                }
            }
        }
    }
    out
}

fn check(codes: &[u8], what: &str) {
    let want: Vec<u32> = galign::sa::suffix_array(&PackedText::from_codes(codes));
    let symbols: Vec<u32> = codes.iter().map(|&c| c as u32 + 1).collect();
    let got = if codes.is_empty() {
        Vec::new()
    } else {
        skew(&Text {
            symbols: &symbols,
            alphabet: 4,
        })
    };
    assert_eq!(got, want, "{what}, n = {}", codes.len());
}

#[test]
fn skew_model_matches_the_cpu_suffix_array() {
    let mut rng = lcg(3);
    for len in 0..120 {
        check(&vec![0u8; len], "all A");
        for period in 2..=7usize {
            let unit: Vec<u8> = (0..period).map(|i| ((i * 7 + 1) % 4) as u8).collect();
            let text: Vec<u8> = (0..len).map(|i| unit[i % period]).collect();
            check(&text, &format!("period {period}"));
        }
        for alphabet in [2u64, 4] {
            let text: Vec<u8> = (0..len).map(|_| (rng() % alphabet) as u8).collect();
            check(&text, &format!("random over {alphabet}"));
        }
    }
    for len in [1000, 4097, 30_001] {
        let text: Vec<u8> = (0..len).map(|_| (rng() % 4) as u8).collect();
        check(&text, "random");
        check(&vec![3u8; len], "all T");
        let unit: Vec<u8> = (0..97).map(|_| (rng() % 4) as u8).collect();
        let mut tandem = Vec::new();
        while tandem.len() < len {
            tandem.extend_from_slice(&unit);
            tandem.push((rng() % 4) as u8);
        }
        check(&tandem, "tandem repeats");
    }
}

/// Large alphabets take the three-sort path: a level of distinct names over many
/// symbols, and texts whose names repeat.
#[test]
fn skew_model_sorts_large_alphabets() {
    let mut rng = lcg(9);
    for (len, alphabet) in [(5000usize, 3000u64), (20_000, 70_000), (999, 1 << 20)] {
        let symbols: Vec<u32> = (0..len).map(|_| 1 + (rng() % alphabet) as u32).collect();
        let text = Text {
            symbols: &symbols,
            alphabet,
        };
        assert_eq!(text.window().0, 1, "three sorts");
        let got = skew(&text);
        let mut want: Vec<u32> = (0..len as u32).collect();
        want.sort_by(|&a, &b| symbols[a as usize..].cmp(&symbols[b as usize..]));
        assert_eq!(got, want, "n = {len} over {alphabet}");
    }
    // Repeats over a large alphabet: names are not unique, the recursion goes on.
    let unit: Vec<u32> = (0..50).map(|_| 1 + (rng() % 5000) as u32).collect();
    let symbols: Vec<u32> = (0..6000)
        .map(|i| unit[i % 50] + (i % 1009 == 0) as u32)
        .collect();
    let text = Text {
        symbols: &symbols,
        alphabet: 5001,
    };
    let mut want: Vec<u32> = (0..symbols.len() as u32).collect();
    want.sort_by(|&a, &b| symbols[a as usize..].cmp(&symbols[b as usize..]));
    assert_eq!(skew(&text), want, "repeats over a large alphabet");
}
