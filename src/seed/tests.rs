//! The SMEMs of random reads over bwa's index of a random reference (built by
//! [`crate::bwa`]), checked against the text itself: each interval counts the match's
//! occurrences on both strands, each row locates one, no match extends either way, and
//! every ACGT base of a read lies in some match.

use super::*;
use crate::device::DeviceChoice;
use crate::index::devices::{GpuCount, GpuOptions};
use crate::index::BuildOptions;
use crate::progress::Reporter;
use crate::test_support::random_codes;

/// The bases of `codes` as letters.
fn letters(codes: &[u8]) -> Vec<u8> {
    codes.iter().map(|&c| b"ACGT"[c as usize]).collect()
}

/// Three contigs (one A-rich) and bwa's index of them in `dir`.
fn index_of_random_reference(dir: &std::path::Path) -> (BwaIndex, Vec<u8>) {
    let mut text = random_codes(9000, 5, 4);
    text.extend(std::iter::repeat_n(0, 300));
    text.extend(random_codes(3000, 6, 2));
    let fasta: Vec<u8> = [
        (">a\n", 0..5000),
        (">b x\n", 5000..5007),
        (">c\n", 5007..text.len()),
    ]
    .iter()
    .flat_map(|(header, range)| [header.as_bytes(), &letters(&text[range.clone()]), b"\n"].concat())
    .collect();
    std::fs::write(dir.join("ref.fa"), fasta).unwrap();
    let options = BuildOptions {
        sample_rate: 32,
        device: DeviceChoice::Cpu,
        memory: None,
        gpu: GpuOptions {
            budget: None,
            count: GpuCount::All,
            algorithm: Default::default(),
        },
        force_u64: false,
    };
    let prefix = dir.join("ref");
    crate::bwa::build_bwa_index(&dir.join("ref.fa"), &prefix, options, &Reporter::quiet()).unwrap();
    let doubled: Vec<u8> = text
        .iter()
        .copied()
        .chain(text.iter().rev().map(|c| 3 - c))
        .collect();
    (BwaIndex::load(&prefix).unwrap(), doubled)
}

/// Where `pattern` occurs in `text`.
fn occurrences(text: &[u8], pattern: &[u8]) -> usize {
    text.windows(pattern.len())
        .filter(|w| *w == pattern)
        .count()
}

/// Reads of the text with mismatches, N runs and all-A stretches, coded as bwa codes them.
fn reads(doubled: &[u8]) -> Vec<Vec<u8>> {
    let mut x = 17u64;
    let mut next = |n: usize| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as usize % n
    };
    (0..300)
        .map(|i| {
            let len = 20 + next(200);
            let start = next(doubled.len() - len);
            let mut read = doubled[start..start + len].to_vec();
            for _ in 0..i % 4 {
                let at = next(len);
                read[at] = if i % 3 == 0 { 4 } else { next(4) as u8 };
            }
            read
        })
        .collect()
}

/// Checks one SMEM of `read` against the text.
fn check_smem(index: &BwaIndex, doubled: &[u8], read: &[u8], smem: &Smem) {
    let matched = &read[smem.begin..smem.end];
    assert!(matched.iter().all(|&c| c < 4));
    assert_eq!(
        smem.interval.size as usize,
        occurrences(doubled, matched),
        "{smem:?}"
    );
    for row in smem.interval.k..smem.interval.k + smem.interval.size {
        let at = index.sa.locate(&index.bwt, row) as usize;
        assert_eq!(&doubled[at..at + matched.len()], matched, "row {row}");
        let hit = locate(index, row, matched.len());
        let start = index.contigs.contigs[hit.contig].offset as i64 + hit.pos;
        let l = index.contigs.l_pac as i64;
        let forward = if hit.reverse {
            2 * l - at as i64 - matched.len() as i64
        } else {
            at as i64
        };
        assert_eq!(start, forward, "row {row}");
    }
    let wider = |from: usize, to: usize| occurrences(doubled, &read[from..to]);
    assert!(smem.begin == 0 || read[smem.begin - 1] > 3 || wider(smem.begin - 1, smem.end) == 0);
    assert!(smem.end == read.len() || read[smem.end] > 3 || wider(smem.begin, smem.end + 1) == 0);
}

#[test]
fn smems_are_maximal_exact_matches_covering_each_read_with_their_hits() {
    let dir = tempfile::tempdir().unwrap();
    let (index, doubled) = index_of_random_reference(dir.path());
    let mut finder = SmemFinder::new(SmemConfig::default());
    for read in reads(&doubled) {
        let mut smems = Vec::new();
        finder.smems(&index.bwt, &read, &mut smems);
        for smem in &smems {
            check_smem(&index, &doubled, &read, smem);
        }
        for (i, _) in read.iter().enumerate().filter(|(_, &c)| c < 4) {
            assert!(
                smems.iter().any(|s| (s.begin..s.end).contains(&i)),
                "base {i}"
            );
        }
    }
}

#[test]
fn bases_code_as_bwa_codes_them() {
    let coded: Vec<u8> = b"ACGTacgtNnUu-RX.".iter().map(|&b| nt4(b)).collect();
    assert_eq!(coded, [0, 1, 2, 3, 0, 1, 2, 3, 4, 4, 4, 4, 5, 4, 4, 4]);
}

/// bwa mem's passes: SMEMs through a base with at least `min_intv` occurrences each,
/// and `bwt_seed_strategy1`'s match, the shortest long enough and rare enough.
#[test]
fn reseeding_and_third_pass_matches_hold_their_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let (index, doubled) = index_of_random_reference(dir.path());
    let mut finder = SmemFinder::default();
    for read in reads(&doubled) {
        let x = read.len() / 2;
        let mut found = Vec::new();
        finder.smems_at(&index.bwt, &read, x, 2, &mut found);
        for smem in &found {
            assert!(smem.interval.size >= 2 && (smem.begin..smem.end).contains(&x));
            let matched = &read[smem.begin..smem.end];
            assert_eq!(smem.interval.size as usize, occurrences(&doubled, matched));
        }
        let (next, m) = seed_strategy1(&index.bwt, &read, 0, 12, 3);
        assert!(next > 0 && next <= read.len());
        if let Some(m) = m {
            let matched = &read[m.begin..m.end];
            assert_eq!((m.begin, m.end), (0, next));
            assert!(matched.len() > 12 && m.interval.size < 3 && m.interval.size > 0);
            assert_eq!(m.interval.size as usize, occurrences(&doubled, matched));
            let shorter = &matched[..matched.len() - 1];
            assert!(shorter.len() <= 12 || occurrences(&doubled, shorter) >= 3);
        }
    }
}
