//! The k-mer jump table: the BWT row interval of every k-mer, so backward search starts
//! k steps in. Built from the text alone (k-mer counts plus the k-1 suffixes shorter
//! than k), without the suffix array.
//!
//! Layout: `2 * 4^k` u32 values, `[lo, hi)` for each k-mer in lexicographic order.

use rayon::prelude::*;

use crate::reference::PackedText;

/// Chooses k for a text of `n` bases: the table (8 bytes per k-mer) stays under about
/// one byte per base, k between 1 and 13 (13 for a human genome).
pub fn choose_k(n: usize) -> u32 {
    let mut k = 1;
    while k < 13 && 8usize << (2 * (k + 1)) <= n {
        k += 1;
    }
    k
}

/// The k-mer code of the k bases at `p` (the text must hold them).
#[inline]
fn kmer_at(text: &PackedText, p: usize, k: u32) -> usize {
    (text.key64(p) >> (64 - 2 * k)) as usize
}

/// Builds the table for `text` with k-mers of length `k`.
pub fn build(text: &PackedText, k: u32) -> Vec<u32> {
    let n = text.len();
    let kmers = 1usize << (2 * k);
    let full = (n + 1).saturating_sub(k as usize); // suffixes with at least k bases
    let chunk = (full / (rayon::current_num_threads() * 4)).max(1 << 20);
    let counts = (0..full)
        .into_par_iter()
        .chunks(chunk)
        .map(|ps| {
            let mut c = vec![0u32; kmers];
            for p in ps {
                c[kmer_at(text, p, k)] += 1;
            }
            c
        })
        .reduce(
            || vec![0u32; kmers],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    // A suffix shorter than k sorts before k-mer x exactly when its A-padded code <= x.
    let mut short: Vec<usize> = (full.max(n.saturating_sub(k as usize - 1))..n)
        .map(|p| kmer_at(text, p, k))
        .collect();
    short.sort_unstable();
    let mut table = vec![0u32; 2 * kmers];
    let mut before = 1u64; // the sentinel's row comes first
    let mut next_short = 0;
    for x in 0..kmers {
        while next_short < short.len() && short[next_short] <= x {
            before += 1;
            next_short += 1;
        }
        table[2 * x] = before as u32;
        before += counts[x] as u64;
        table[2 * x + 1] = before as u32;
    }
    table
}
