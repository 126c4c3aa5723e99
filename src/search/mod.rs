//! Search and locate of reads: the batch-searcher interface every search implements,
//! the layout its results come in, and the hits they become.
//!
//! A [`BatchSearcher`] searches both strands of every read of a batch and locates every
//! occurrence with at most `k` mismatches (`map -v K`; 0: exact), giving
//! [`BatchPositions`]: per read and strand, the text positions, as offsets into one
//! array. [`BatchPositions::hits`] places one read's positions on the contigs as
//! [`Hit`]s through a [`Placement`] (hits across a contig boundary or over an ambiguous
//! run are dropped, and the mismatches of each hit are counted against the text), the
//! same way for every searcher: a searcher only has to find the positions. The CPU
//! searcher ([`cpu`]) also searches a part of a batch ([`CpuSearcher::search_part`]) or
//! one read at a time ([`find_hits`]), which lets `map` fuse the CPU search with
//! building the reads' records; the GPU searcher implements the trait in the GPU back
//! end, exact and with mismatches. Exact search runs on the
//! forward FM index; k-mismatch search on the bidirectional index with search schemes
//! ([`schemes`], [`mismatch`]; the why is in `docs/MISMATCHES.md`).

pub mod cpu;
pub mod mismatch;
mod positions;
pub mod schemes;

pub use cpu::{find_hits, CpuSearcher, Scratch};
pub use positions::BatchPositions;

use crate::io::ReadRecord;
use crate::reference::{Layout, PackedRef};

/// One occurrence of a read with at most `k` mismatches. Hits sort by mismatches
/// first, so that a read's best stratum leads its sorted hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hit {
    /// Mismatches between the read (reverse-complemented on the reverse strand) and the
    /// reference here; a non-ACGT read base is always one.
    pub mismatches: u8,
    /// Contig index.
    pub contig: u32,
    /// 0-based position in the contig.
    pub pos: u64,
    /// The read's reverse complement matches here.
    pub reverse: bool,
}

/// Search + locate of a batch of reads into [`BatchPositions`].
pub trait BatchSearcher {
    /// Why a batch could not be searched.
    type Error;

    /// Searches both strands of every read of `reads` and locates every occurrence with
    /// at most the searcher's `k` mismatches (an empty read has none; a non-ACGT read
    /// base mismatches every base, so with `k = 0` such a read has none either).
    fn search_batch(&mut self, reads: &[ReadRecord]) -> Result<BatchPositions, Self::Error>;
}

/// How located text positions become [`Hit`]s: the contigs and ambiguous runs, the
/// text (to count each hit's mismatches) and the most mismatches a hit may have.
#[derive(Clone, Copy, Debug)]
pub struct Placement<'a> {
    /// Contigs and ambiguous runs of the text.
    pub layout: &'a Layout,
    /// The text the positions are in.
    pub text: PackedRef<'a>,
    /// `k`: the most mismatches of a hit.
    pub max_mismatches: u8,
}
