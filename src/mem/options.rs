//! The options of bwa mem (0.7.17) that its seeding and chaining read, with bwa's
//! defaults and bwa's types (the float ones are C `float`s, so rounding matches).

/// bwa mem's seeding and chaining options (`mem_opt_t`'s fields of those stages).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MemOptions {
    /// Shortest seed (`-k`, 19).
    pub min_seed_len: i32,
    /// Re-seed an SMEM longer than `min_seed_len * split_factor` (`-r`, 1.5).
    pub split_factor: f32,
    /// ... that occurs at most this often (`-s`, 10).
    pub split_width: i32,
    /// The third pass's occurrence cut-off (`-y`, 20; 0 skips the pass).
    pub max_mem_intv: i64,
    /// The most occurrences of a seed chained; more are sampled (`-c`, 500).
    pub max_occ: i32,
    /// Band width: the most a seed's diagonal may differ from its chain's (`-w`, 100).
    pub band_width: i32,
    /// The longest gap inside a chain (`-G`, 10000).
    pub max_chain_gap: i32,
    /// The share of the shorter chain two chains must overlap by to compete (`-X`, 0.5).
    pub mask_level: f32,
    /// Drop a chain lighter than this share of an overlapping heavier one (`-D`, 0.5).
    pub drop_ratio: f32,
    /// Drop chains lighter than this (`-W`, 0).
    pub min_chain_weight: i32,
    /// The most chains that overlap a better one are kept (`-N`, 1<<30).
    pub max_chain_extend: i32,
}

impl Default for MemOptions {
    /// bwa mem's defaults (`mem_opt_init`).
    fn default() -> MemOptions {
        MemOptions {
            min_seed_len: 19,
            split_factor: 1.5,
            split_width: 10,
            max_mem_intv: 20,
            max_occ: 500,
            band_width: 100,
            max_chain_gap: 10000,
            mask_level: 0.5,
            drop_ratio: 0.5,
            min_chain_weight: 0,
            max_chain_extend: 1 << 30,
        }
    }
}
