//! The typed launcher of every kernel in `kernels/`: one declaration a kernel, in one
//! file a kernel source (`kernels!` in [`super::launch`]), from which its launch function
//! comes; a wrong argument count or type at a call site does not compile, and
//! `signatures` (a test) checks every declaration against the CUDA signature.

pub(crate) mod doubling;
pub(crate) mod fm;
pub(crate) mod map;
pub(crate) mod merge;
pub(crate) mod partition;
pub(crate) mod radix_sort;
pub(crate) mod scatter;
pub(crate) mod seed;
pub(crate) mod skew;

#[cfg(test)]
mod signatures;
