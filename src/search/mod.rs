//! Search and locate of reads: the batch-searcher interface every search implements,
//! the layout its results come in, and the hits they become.
//!
//! A [`BatchSearcher`] searches both strands of every read of a batch and locates every
//! occurrence, giving [`BatchPositions`]: per read and strand, the text positions, as
//! offsets into one array. [`BatchPositions::hits`] places one read's positions on the
//! contigs as [`Hit`]s (hits across a contig boundary or over an ambiguous run are
//! dropped), the same way for every searcher. The CPU searcher ([`cpu`]) also searches
//! one read at a time ([`find_hits`]), which lets `map` fuse the CPU search with building
//! the read's records; the GPU searcher implements the trait in the GPU back end.

pub mod cpu;
mod positions;

pub use cpu::{find_hits, CpuSearcher, Scratch};
pub use positions::BatchPositions;

use crate::io::ReadRecord;

/// One exact occurrence of a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hit {
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

    /// Searches both strands of every read of `reads` (reads that are empty or hold a
    /// non-ACGT base have no occurrence) and locates every occurrence.
    fn search_batch(&mut self, reads: &[ReadRecord]) -> Result<BatchPositions, Self::Error>;
}
