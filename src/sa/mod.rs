//! Suffix-array construction.
//!
//! The suffix array is that of the 4-letter text with an implicit unique sentinel at its
//! end (the sentinel's own position is not listed), the convention of libsais and
//! divsufsort. The CPU builder here is the reference the GPU builder must match.

pub mod cover;
mod cpu;
mod index_type;
pub mod keysort;
pub mod partition;
mod radix;
pub mod sample;
pub mod schedule;

pub use cpu::{sorted_suffixes, suffix_array, SortedSuffixes};
pub use index_type::{PositionSlice, Positions, SaIndex, Width};

/// Number of bases in the initial sort key: one `u64` of 2-bit codes.
pub const INITIAL_PREFIX: usize = 32;
