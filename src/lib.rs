//! galign: suffix-array and FM-index construction for DNA, and exact-match read
//! mapping, on the CPU (rayon) and on NVIDIA GPUs.
//!
//! The pipeline: [`io`] opens every input (paths, `-`, pipes; any compression) and
//! parses reads; [`reference`](mod@reference) parses FASTA into a packed 4-letter
//! text; [`sa`] sorts its suffixes; [`fm`] derives the FM index; [`index`] writes and
//! maps the on-disk index. [`map`] maps reads: [`search`] finds their exact hits (on
//! the CPU or through [`gpu`]), [`sam`] writes them. [`alphabet`] holds the DNA
//! alphabet; [`device`] picks CPU or GPU; [`progress`] reports on stderr;
//! [`atomic_file`] writes every output under a temporary name until it is complete;
//! [`pipeline`] runs the read -> search -> ordered write stages of `fastmap`, `seeds`
//! and `mem`, overlapped;
//! [`units`] reads and writes sizes as users give them; [`threads`] starts no more
//! threads than the system allows, and says so when it refuses one; [`out_of_memory`]
//! says so, and cleans up, when memory runs out; [`signals`] cleans up when a signal
//! ends the run; [`stdio`] remembers a stdout closed at the start. [`bwa`] writes bwa's
//! index files (`galign index --format bwa`); [`fmd`] reads them back, and [`seed`] finds
//! reads' SMEMs in them as bwa does (`galign fastmap`); [`mem`] seeds and chains reads as
//! bwa mem does (`galign seeds`) and aligns them as bwa mem does (`galign mem`, single-end);
//! [`align`](mod@align) extends and aligns them as bwa
//! mem's `ksw.c` does. [`cli`] holds the command line's arguments and runs each command.

#![warn(missing_docs)]

pub mod align;
pub mod alphabet;
pub mod atomic_file;
pub mod bwa;
pub mod cli;
pub mod device;
pub mod fm;
pub mod fmd;
pub mod gpu;
pub mod huge_pages;
pub mod index;
pub mod io;
pub mod map;
pub mod mem;
pub mod out_of_memory;
pub mod par;
pub mod pipeline;
mod popcnt;
pub mod progress;
pub mod reference;
pub mod sa;
pub mod sam;
pub mod search;
pub mod seed;
pub mod signals;
pub mod stdio;
#[cfg(test)]
mod test_support;
pub mod threads;
pub mod units;
