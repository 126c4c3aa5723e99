//! Device-wide primitives that the GPU algorithms compose, as CUB keeps them apart
//! from their users: the radix sort and scans ([`radix`]), the merge ([`merge`]) and the
//! cache-local scatter ([`scatter`]).

pub mod merge;
pub mod radix;
pub mod scatter;
