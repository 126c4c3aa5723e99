//! The options of bwa mem (0.7.17) that extension, the choice of primary alignments and
//! the SAM output read (`mem_opt_t`'s other fields), with bwa's defaults and types.

use super::MemOptions;
use crate::align::{ScoreMatrix, Scoring};

/// bwa mem's options past chaining, with the chaining ones in [`AlignOptions::chain`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AlignOptions {
    /// Seeding and chaining options (their `band_width` is `-w`, used by extension too).
    pub chain: MemOptions,
    /// Match score (`-A`, 1).
    pub a: i32,
    /// Mismatch penalty (`-B`, 4).
    pub b: i32,
    /// Deletion open penalty (`-O`, 6).
    pub o_del: i32,
    /// Deletion extension penalty (`-E`, 1).
    pub e_del: i32,
    /// Insertion open penalty (`-O`, 6).
    pub o_ins: i32,
    /// Insertion extension penalty (`-E`, 1).
    pub e_ins: i32,
    /// 5' clipping penalty (`-L`, 5).
    pub pen_clip5: i32,
    /// 3' clipping penalty (`-L`, 5).
    pub pen_clip3: i32,
    /// Z-drop (`-d`, 100).
    pub zdrop: i32,
    /// Minimum score to output (`-T`, 30).
    pub min_out_score: i32,
    /// Output all alignments, secondary ones too (`-a`).
    pub all: bool,
    /// Mark supplementary alignments as secondary (`-M`).
    pub no_multi: bool,
    /// Soft clipping for supplementary alignments (`-Y`).
    pub softclip: bool,
    /// Keep the MAPQ of supplementary alignments (`-q`).
    pub keep_supp_mapq: bool,
    /// Make the hit with the smallest read start primary (`-5`).
    pub primary5: bool,
    /// Overlap share above which a hit is redundant (`mask_level_redun`, 0.95).
    pub mask_level_redun: f32,
    /// XA hits kept above this share of the best score (0.8).
    pub xa_drop_ratio: f32,
    /// Most hits in XA (`-h`, 5).
    pub max_xa_hits: i32,
    /// Most hits in XA where one is an ALT hit (`-h`, 200).
    pub max_xa_hits_alt: i32,
    /// `mapQ_coef_len` (`-Q`, 50).
    pub mapq_coef_len: f32,
    /// `mapQ_coef_fac`: bwa's `int` field, `log(mapQ_coef_len)` truncated.
    pub mapq_coef_fac: i32,
    /// Penalty for an unpaired read pair (`-U`, 17).
    pub pen_unpaired: i32,
    /// Longest insert counted by the insert size estimation (`max_ins`, 10000).
    pub max_ins: i32,
    /// Most mate rescues per read (`-m`, 50).
    pub max_matesw: i32,
    /// Rescue mates by Smith-Waterman (off with `-S`).
    pub rescue: bool,
    /// Pair the mates' hits (off with `-P`: mates rescued only).
    pub pairing: bool,
}

impl Default for AlignOptions {
    /// bwa mem's defaults (`mem_opt_init`).
    fn default() -> AlignOptions {
        AlignOptions {
            chain: MemOptions::default(),
            a: 1,
            b: 4,
            o_del: 6,
            e_del: 1,
            o_ins: 6,
            e_ins: 1,
            pen_clip5: 5,
            pen_clip3: 5,
            zdrop: 100,
            min_out_score: 30,
            all: false,
            no_multi: false,
            softclip: false,
            keep_supp_mapq: false,
            primary5: false,
            mask_level_redun: 0.95,
            xa_drop_ratio: 0.8,
            max_xa_hits: 5,
            max_xa_hits_alt: 200,
            mapq_coef_len: 50.0,
            mapq_coef_fac: 50f64.ln() as i32,
            pen_unpaired: 17,
            max_ins: 10000,
            max_matesw: 50,
            rescue: true,
            pairing: true,
        }
    }
}

impl AlignOptions {
    /// `-w`.
    pub fn w(&self) -> i32 {
        self.chain.band_width
    }

    /// The score matrix (`bwa_fill_scmat(a, b)`).
    pub fn matrix(&self) -> ScoreMatrix {
        ScoreMatrix::bwa(self.a as i8, self.b as i8)
    }

    /// The [`Scoring`] of a `ksw` call with band `band` and end bonus `end_bonus`.
    pub fn scoring(&self, band: i32, end_bonus: i32) -> Scoring {
        Scoring {
            match_score: self.a,
            mismatch: self.b,
            o_del: self.o_del,
            e_del: self.e_del,
            o_ins: self.o_ins,
            e_ins: self.e_ins,
            end_bonus,
            zdrop: self.zdrop,
            band,
        }
    }
}
