//! The launchers of `kernels/fm.cu`: the BWT, Occ table, sampled suffix array and jump
//! table from a suffix array of 32-bit positions.

use crate::gpu::runtime::launch::kernels;
use crate::gpu::runtime::DevPtr;

kernels! {
    in ["fm.cu"];
    /// The BWT's Occ blocks, counts, sample bits, primary row and k-mer counts.
    fn bwt_occ(words: DevPtr, sa: DevPtr, n: u32, rate: u32, nblocks: u32, occ: DevPtr,
        counts: DevPtr, bits32: DevPtr, bits_len32: u64, primary: DevPtr, k: u32, full: u32,
        kmer_counts: DevPtr);
    /// The counts before each Occ block into its header.
    fn occ_headers(before: DevPtr, nblocks: u32, occ: DevPtr);
    /// The sampled rows of each group of the sample bits.
    fn rank_counts(bits: DevPtr, groups: u32, ranks: DevPtr);
    /// The sampled suffix array's positions.
    fn sampled_positions(sa: DevPtr, n: u32, rate: u32, bits: DevPtr, ranks: DevPtr,
        positions: DevPtr);
    /// The jump table from the k-mer counts' inclusive scan.
    fn jump_table(incl: DevPtr, kmers: u32, shorts: DevPtr, nshort: u32, table: DevPtr);
}
