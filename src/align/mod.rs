//! Alignment of a read against a stretch of reference, as bwa mem 0.7.17 aligns:
//! faithful ports of the parts of bwa's `ksw.c` that bwa mem calls, each giving bwa's
//! results field for field.
//!
//! - [`extend()`]: banded extension from a seed's end with z-drop and end bonus
//!   (`ksw_extend2`, bwa mem's seed extension);
//! - [`global()`]: banded global alignment with a CIGAR (`ksw_global2`, which
//!   `bwa_gen_cigar2` runs for each alignment's CIGAR);
//! - [`align2`]: local Smith-Waterman with the end, optionally the second best and
//!   the start (`ksw_align2` with `ksw_qinit`'s striped profile; mate rescue and
//!   `mem_flt_chained_seeds`), bwa's SSE2 kernel emulated on scalars ([`striped`]).
//!
//! Scores come from a [`ScoreMatrix`] (bwa's `bwa_fill_scmat`) and a [`Scoring`] (gap
//! penalties, band, end bonus, z-drop); CIGARs are [`Cigar`]s. Sequences are base codes
//! (0-3 for A, C, G, T, 4 for N, as [`crate::seed::nt4`] gives them).

pub mod cigar;
pub mod extend;
pub mod global;
pub mod local;
pub mod profile;
pub mod scoring;
pub mod striped;

pub use cigar::{Cigar, CigarOp};
pub use extend::{extend, Extension};
pub use global::{global, global_score, GlobalAlignment};
pub use local::{align2, align2_with, LocalAlignment, XBYTE, XSTART, XSTOP, XSUBO};
pub use profile::{QueryProfile, Width};
pub use scoring::{ScoreMatrix, Scoring};
