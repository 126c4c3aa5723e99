//! bwa mem's first stages (0.7.17), as a library: a read's seeds ([`seeds`]:
//! `mem_collect_intv`'s three passes over bwa's FMD index, through [`crate::seed`]), its
//! chains ([`chain`]: `mem_chain` over bwa's B-tree, [`kbtree`]), and the chains kept
//! ([`filter`]: `mem_chain_flt` with bwa's unstable sort, [`ksort`]), each as bwa
//! computes it, ties and all; [`alt`] reads which contigs are ALT contigs; [`print`]
//! writes chains as TSV or as `bwa mem -v 4` prints them; [`run`] is `galign seeds`.
//!
//! An aligner calls [`read_chains`] per read with a [`ChainFinder`] kept per thread.

pub mod align_run;
pub mod aligner;
pub mod alt;
pub mod chain;
pub mod cigar;
pub mod extend;
pub mod filter;
pub mod kbtree;
pub mod ksort;
pub mod mapq;
pub mod matesw;
pub mod options;
pub mod pac;
pub mod pair;
pub mod pair_run;
pub mod pestat;
pub mod print;
pub mod region;
pub mod run;
pub mod sam;
pub mod sam_pe;
pub mod seeds;
pub mod settings;

pub use alt::{alt_contigs, AltError};
pub use chain::{Chain, Seed};
pub use filter::LongReadError;
pub use options::MemOptions;
pub use seeds::SeedFinder;

use crate::fmd::BwaIndex;
use crate::seed::{nt4, Smem};

/// Per-thread buffers of [`read_chains`].
#[derive(Default)]
pub struct ChainFinder {
    seeds: SeedFinder,
    codes: Vec<u8>,
    found: Vec<Smem>,
}

/// The chains bwa mem keeps for the read `seq` (bases as written, any case) and passes
/// on to extension, in its order: `mem_chain`, `mem_chain_flt`, then
/// `mem_flt_chained_seeds`, which leaves reads short enough alone (up to 724 bases
/// with `-W 0`) and is not ported for longer ones ([`LongReadError`]). `alt[rid]` says
/// which contigs are ALT contigs ([`alt_contigs`]).
pub fn read_chains(
    finder: &mut ChainFinder,
    index: &BwaIndex,
    alt: &[bool],
    seq: &[u8],
    opt: &MemOptions,
) -> Result<Vec<Chain>, LongReadError> {
    finder.codes.clear();
    finder.codes.extend(seq.iter().map(|&b| nt4(b)));
    if seq.len() < opt.min_seed_len.max(0) as usize {
        return Ok(Vec::new());
    }
    finder
        .seeds
        .collect(&index.bwt, &finder.codes, opt, &mut finder.found);
    let chains = chain::chains(index, alt, &finder.found, seq.len(), opt);
    let chains = filter::filter(chains, opt);
    if !chains.is_empty() {
        filter::check_seed_filter(seq.len(), opt)?;
    }
    Ok(chains)
}
