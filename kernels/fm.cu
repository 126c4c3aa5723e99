// FM-index kernels for galign's GPU builder (src/gpu/fm.rs): BWT with Occ blocks, the
// sampled suffix array and the k-mer jump table, from the text and the suffix array in
// device memory. Layouts are those of src/fm/occ.rs, src/fm/sampled_sa.rs, src/fm/jump.rs.
//
// Text: the packed text of common/text.cuh. Row 0 of the BWT is the sentinel's suffix (position n), row
// r >= 1 is sa[r - 1]; a row's symbol is the base before its position, A (0) where the
// position is 0 (the primary row, counted as A like the CPU builder does).

#include "common/types.cuh"
#include "common/text.cuh"

// ROWS_PER_BLOCK, WORDS_PER_BLOCK (the Occ layout), ROWS_PER_RANK (the sampled SA's) and
// OCC_PER_CTA (Occ blocks per thread block of bwt_occ: blockDim = 32 * WARPS_PER_BLOCK *
// OCC_PER_CTA) come from src/gpu/tuning.rs as -D options.
#define WARPS_PER_BLOCK (ROWS_PER_BLOCK / 32)
#define FULL 0xffffffffu

// The text position of BWT row `row` (< n + 1).
__device__ __forceinline__ u32 row_position(const u32* __restrict__ sa, u32 n, u64 row) {
    return row == 0 ? n : sa[row - 1];
}

#define NO_KMER 0xffffffffu

// The k-mer at the start of row `row`'s suffix (k <= 16), or NO_KMER for the sentinel's
// row, rows past n and suffixes shorter than k (positions >= full).
__device__ __forceinline__ u32 row_kmer(const u64* __restrict__ words, const u32* __restrict__ sa, u32 n, u64 row,
                                        u32 k, u32 full) {
    if (row == 0 || row > n) return NO_KMER;
    const u32 p = sa[row - 1];
    if (p >= full) return NO_KMER;
    return (u32)(window32(words, p) >> (64 - 2 * k));
}

// One thread per row, one warp per 32-symbol word, OCC_PER_CTA Occ blocks per thread
// block. Writes each block's symbol words, its own symbol counts (counts[s * nblocks + b],
// for a scan), the sampled-row marks (bits32: bit r % 32 of u32 r / 32, the u64 layout
// seen as u32s; only words below bits_len32, the rest stays zero) and the primary row.
// Also the count of rows of each k-mer into kmer_counts (zeroed, 4^k of them; the
// suffixes of at least k bases), read off the sorted rows: the rows of one k-mer are
// consecutive (a shorter suffix never falls between them), so the first row of a run
// subtracts its index and the last adds its index + 1 (wrapping u32 arithmetic).
extern "C" __global__ void bwt_occ(const u64* __restrict__ words, const u32* __restrict__ sa, u32 n, u32 rate,
                                   u32 nblocks, u64* __restrict__ occ, u32* __restrict__ counts,
                                   u32* __restrict__ bits32, u64 bits_len32, u32* __restrict__ primary, u32 k,
                                   u32 full, u32* __restrict__ kmer_counts) {
    __shared__ u32 warp_counts[OCC_PER_CTA][WARPS_PER_BLOCK][4];
    const u32 warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const u32 local = warp / WARPS_PER_BLOCK, word = warp % WARPS_PER_BLOCK;
    const u64 block = (u64)blockIdx.x * OCC_PER_CTA + local;
    const u64 unit = block * WARPS_PER_BLOCK + word; // index of this warp's 32 rows
    const u64 row = unit * 32 + lane;
    const bool live = block < nblocks && row <= n;
    u32 sym = 0;
    bool mark = false;
    if (live) {
        u32 p = row_position(sa, n, row);
        sym = p == 0 ? 0 : base_at(words, p - 1);
        mark = p % rate == 0;
        if (p == 0) *primary = (u32)row;
    }
    const u32 x = live ? row_kmer(words, sa, n, row, k, full) : NO_KMER;
    u32 before = __shfl_up_sync(FULL, x, 1), after = __shfl_down_sync(FULL, x, 1);
    if (lane == 0 && row > 0) before = row_kmer(words, sa, n, row - 1, k, full);
    if (lane == 31) after = row_kmer(words, sa, n, row + 1, k, full);
    if (x != NO_KMER) {
        if (before != x) atomicSub(&kmer_counts[x], (u32)row);
        if (after != x) atomicAdd(&kmer_counts[x], (u32)row + 1);
    }
    const u32 hi = __reduce_or_sync(FULL, lane < 16 ? sym << (30 - 2 * lane) : 0);
    const u32 lo = __reduce_or_sync(FULL, lane >= 16 ? sym << (62 - 2 * lane) : 0);
    const u32 marks = __ballot_sync(FULL, mark);
    u32 c[4];
#pragma unroll
    for (u32 s = 0; s < 4; s++) c[s] = __popc(__ballot_sync(FULL, live && sym == s));
    if (lane == 0) {
        if (block < nblocks) occ[block * WORDS_PER_BLOCK + 2 + word] = (u64)hi << 32 | lo;
        if (unit < bits_len32) bits32[unit] = marks;
#pragma unroll
        for (u32 s = 0; s < 4; s++) warp_counts[local][word][s] = c[s];
    }
    __syncthreads();
    if (threadIdx.x < OCC_PER_CTA * 4) {
        const u32 l = threadIdx.x >> 2, s = threadIdx.x & 3;
        const u64 b = (u64)blockIdx.x * OCC_PER_CTA + l;
        if (b < nblocks) {
            u32 total = 0;
#pragma unroll
            for (u32 w = 0; w < WARPS_PER_BLOCK; w++) total += warp_counts[l][w][s];
            counts[s * (u64)nblocks + b] = total;
        }
    }
}

// Block headers from the exclusive scans of the per-block counts: A | C << 32, G | T << 32.
extern "C" __global__ void occ_headers(const u32* __restrict__ before, u32 nblocks, u64* __restrict__ occ) {
    u64 b = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nblocks) return;
    const u64 nb = nblocks;
    occ[b * WORDS_PER_BLOCK] = (u64)before[b] | (u64)before[nb + b] << 32;
    occ[b * WORDS_PER_BLOCK + 1] = (u64)before[2 * nb + b] | (u64)before[3 * nb + b] << 32;
}

// Marks in each 512-row group (8 u64 words of bits), for an exclusive scan into ranks.
extern "C" __global__ void rank_counts(const u64* __restrict__ bits, u32 groups, u32* __restrict__ ranks) {
    u64 j = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= groups) return;
    u32 total = 0;
#pragma unroll
    for (u32 w = 0; w < ROWS_PER_RANK / 64; w++) total += __popcll(bits[j * (ROWS_PER_RANK / 64) + w]);
    ranks[j] = total;
}

// Sampled positions in row order: positions[rank of row] = position, for marked rows.
extern "C" __global__ void sampled_positions(const u32* __restrict__ sa, u32 n, u32 rate, const u64* __restrict__ bits,
                                             const u32* __restrict__ ranks, u32* __restrict__ positions) {
    u64 row = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (row > n) return;
    u32 p = row_position(sa, n, row);
    if (p % rate != 0) return;
    const u64 group = row / ROWS_PER_RANK;
    u32 rank = ranks[group];
    for (u64 w = group * (ROWS_PER_RANK / 64); w < row / 64; w++) rank += __popcll(bits[w]);
    rank += __popcll(bits[row / 64] & ((1ull << (row % 64)) - 1));
    positions[rank] = p;
}

// The jump table from the inclusive scan of the k-mer counts and the sorted A-padded
// codes of the suffixes shorter than k (nshort < k of them): entry x (x <= kmers, the
// last one the number of rows) = 1 (sentinel) + full suffixes of smaller k-mers + short
// suffixes whose code is <= x.
extern "C" __global__ void jump_table(const u32* __restrict__ incl, u32 kmers, const u32* __restrict__ shorts,
                                      u32 nshort, u32* __restrict__ table) {
    u64 x = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (x > kmers) return;
    u32 before = 1;
    for (u32 i = 0; i < nshort; i++) before += shorts[i] <= x;
    table[x] = before + (x > 0 ? incl[x - 1] : 0);
}
