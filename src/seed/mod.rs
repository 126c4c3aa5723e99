//! Seeds for extenders: the super-maximal exact matches (SMEMs) of reads over bwa's FMD
//! index ([`crate::fmd`]), found as bwa 0.7.17 finds them ([`smem`]: `smem_next` over
//! `bwt_smem1a`, the same matches in the same order), their occurrences located as bwa
//! locates them ([`locate`]: `bwt_sa`, then `bns_depos` and `bns_pos2rid`), and
//! `galign fastmap`, which prints them as `bwa fastmap` does ([`fastmap`]); bwa mem's
//! third seeding pass ([`strategy1`]).
//!
//! A gapped aligner takes a read's [`Smem`]s from [`SmemFinder::smems`] (the read's
//! bases coded by [`nt4`]) and each match's [`Hit`]s from [`locate`].

pub mod fastmap;
pub mod smem;
pub mod strategy1;

pub use fastmap::FastmapError;
pub use smem::{Interval, Smem, SmemConfig, SmemFinder};
pub use strategy1::seed_strategy1;

use crate::fmd::BwaIndex;

/// bwa's code of a read base (`nst_nt4_table`): 0-3 for A, C, G, T in either case, 5
/// for `-`, 4 for any other byte; the search treats every code above 3 as ambiguous.
#[inline(always)]
pub fn nt4(base: u8) -> u8 {
    match base {
        b'A' | b'a' => 0,
        b'C' | b'c' => 1,
        b'G' | b'g' => 2,
        b'T' | b't' => 3,
        b'-' => 5,
        _ => 4,
    }
}

/// One occurrence of a match in the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The contig (an index into the index's contigs), the one its leftmost forward
    /// base lies in, even where the match runs on into the next contig.
    pub contig: usize,
    /// Whether the match is on the reverse strand.
    pub reverse: bool,
    /// Its leftmost forward base, counted from the contig's start (0-based).
    pub pos: i64,
}

/// The hit of row `row` of a match of `len` bases (bwa fastmap: `bwt_sa`, `bns_depos`,
/// the reverse strand's leftmost base, `bns_pos2rid`).
#[inline(always)]
pub fn locate(index: &BwaIndex, row: u64, len: usize) -> Hit {
    hit_at(index, index.sa.locate(&index.bwt, row), len)
}

/// The hit of a match of `len` bases whose row's text position is `at` (a position in
/// the text followed by its reverse complement, as [`crate::fmd::sa::SampledSa::locate`]
/// gives it).
#[inline(always)]
pub fn hit_at(index: &BwaIndex, at: u64, len: usize) -> Hit {
    let l_pac = index.contigs.l_pac;
    let reverse = at >= l_pac;
    let pos = match reverse {
        true => (2 * l_pac - 1 - at) as i64 - (len as i64 - 1),
        false => at as i64,
    };
    let contig = index.contigs.contig_of(pos as u64);
    Hit {
        contig,
        reverse,
        pos: pos - index.contigs.contigs[contig].offset as i64,
    }
}

#[cfg(test)]
mod tests;
