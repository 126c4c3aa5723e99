//! Device-wide primitives that the GPU algorithms compose, as CUB keeps them apart
//! from their users: the radix sort and scans ([`radix`]) and the merge ([`merge`]).

pub mod merge;
pub mod radix;
