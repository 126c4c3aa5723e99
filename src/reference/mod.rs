//! The reference: FASTA ingest, the packed text the index is built on, and the layout
//! (contigs and ambiguous runs) that decides which text positions a hit may cover.

mod encode;
mod fasta;
mod layout;
pub(crate) mod packed;

pub use fasta::{read_fasta, read_fasta_observed, FastaObserver, ReferenceError};
pub use layout::{AmbiguousRun, Contig, Layout};
pub use packed::{PackedRef, PackedText};

/// A parsed reference: the concatenated 2-bit text of every contig and its layout.
#[derive(Clone, Debug)]
pub struct Reference {
    /// Contigs and ambiguous runs, in text coordinates.
    pub layout: Layout,
    /// All contigs' bases, concatenated in file order, ambiguity codes replaced.
    pub text: PackedText,
}
