//! One read through bwa mem 0.7.17, single-end: `mem_align1_core` (seeds, chains,
//! `mem_flt_chained_seeds`, `mem_chain2aln`, `mem_sort_dedup_patch`, ALT flags) and
//! the finalisation of `worker2` (`mem_mark_primary_se`, `mem_reg2sam`).

use std::path::Path;

use super::extend::{chain2aln, filter_chained_seeds};
use super::pac::{Pac, PacError};
use super::region::{mark_primary_se, reorder_primary5, sort_dedup_patch, AlnReg};
use super::sam::{reg2sam, Pairing, SamRead};
use super::settings::AlignOptions;
use super::{alt_contigs, chain, filter, AltError, ChainFinder};
use crate::fmd::{BwaIndex, BwaIndexError};
use crate::seed::nt4;

/// Why bwa's index could not be loaded for alignment.
#[derive(Debug, thiserror::Error)]
pub enum MemIndexError {
    /// The `.bwt`, `.sa` or `.ann`.
    #[error(transparent)]
    Index(#[from] BwaIndexError),
    /// The `.alt`.
    #[error(transparent)]
    Alt(#[from] AltError),
    /// The `.pac`.
    #[error(transparent)]
    Pac(#[from] PacError),
}

/// bwa's whole index as bwa mem loads it: FMD index, ALT flags, packed text.
pub struct MemIndex {
    /// The FMD index and contigs.
    pub index: BwaIndex,
    /// `alt[rid]`: whether contig `rid` is an ALT contig.
    pub alt: Vec<bool>,
    /// The packed forward text.
    pub pac: Pac,
}

impl MemIndex {
    /// Loads bwa's index under `prefix`.
    pub fn load(prefix: &Path) -> Result<MemIndex, MemIndexError> {
        let index = BwaIndex::load(prefix)?;
        let alt = alt_contigs(prefix, &index.contigs)?;
        let pac = Pac::load(prefix, index.contigs.l_pac)?;
        Ok(MemIndex { index, alt, pac })
    }
}

/// `mem_align1_core`: the deduplicated alignment regions of read `seq` (bases as
/// written); `finder.codes` receives its base codes (`-` as N, 4).
pub fn align_regions(
    finder: &mut ChainFinder,
    idx: &MemIndex,
    opt: &AlignOptions,
    seq: &[u8],
) -> Vec<AlnReg> {
    finder.codes.clear();
    finder.codes.extend(seq.iter().map(|&b| nt4(b)));
    let codes = &finder.codes;
    let copt = &opt.chain;
    let mut chains = Vec::new();
    if seq.len() >= copt.min_seed_len.max(0) as usize {
        finder
            .seeds
            .collect(&idx.index.bwt, codes, copt, &mut finder.found);
        chains = chain::chains(&idx.index, &idx.alt, &finder.found, seq.len(), copt);
        chains = filter::filter(chains, copt);
    }
    // bwa's code 5 ('-') indexes past its 5 x 5 matrix from here on (undefined
    // behaviour in bwa): scored and written as N here (docs/MEM.md).
    for c in finder.codes.iter_mut() {
        *c = (*c).min(4);
    }
    let codes = &finder.codes;
    let contigs = &idx.index.contigs;
    filter_chained_seeds(opt, contigs, &idx.pac, codes, &mut chains);
    let mut regs = Vec::new();
    for c in &chains {
        chain2aln(opt, contigs, &idx.pac, codes, c, &mut regs);
    }
    sort_dedup_patch(opt, &idx.pac, codes, &mut regs);
    for r in &mut regs {
        if r.rid >= 0 && idx.alt.get(r.rid as usize).copied().unwrap_or(false) {
            r.is_alt = true;
        }
    }
    regs
}

/// A read to align: name (as bwa keeps it), bases as written, qualities.
#[derive(Clone, Copy, Debug)]
pub struct MemRead<'a> {
    /// Name.
    pub name: &'a [u8],
    /// Bases as written.
    pub seq: &'a [u8],
    /// Qualities (`None`: FASTA).
    pub qual: Option<&'a [u8]>,
}

/// Aligns read number `id` (from 0 across the run) and appends its SAM lines to `out`.
pub fn align_read(
    finder: &mut ChainFinder,
    idx: &MemIndex,
    opt: &AlignOptions,
    rg_id: Option<&[u8]>,
    id: u64,
    read: MemRead,
    out: &mut Vec<u8>,
) {
    let mut regs = align_regions(finder, idx, opt, read.seq);
    mark_primary_se(opt, &mut regs, id);
    if opt.primary5 {
        reorder_primary5(opt.min_out_score, &mut regs);
    }
    let sam = SamRead {
        name: read.name,
        seq: &finder.codes,
        qual: read.qual,
        rg_id,
    };
    reg2sam(
        opt,
        &idx.index.contigs,
        &idx.pac,
        &sam,
        &regs,
        Pairing::default(),
        out,
    );
}

/// The read's name as bwa mem keeps it: a trailing `/` and digit cut (`trim_readno`).
pub fn bwa_name(word: &[u8]) -> &[u8] {
    match word {
        [rest @ .., b'/', d] if !rest.is_empty() && d.is_ascii_digit() => rest,
        _ => word,
    }
}
