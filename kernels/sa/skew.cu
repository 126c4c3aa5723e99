// Kernels of the DC3 (skew) suffix-array builder and of its prefix-doubling hybrid
// (src/gpu/sa/skew.rs).
//
// A level sorts the suffixes of a text of n symbols: the index's packed DNA (symbol =
// 2-bit code + 1) at the top, u32 names in the recursion; every position at or past n
// reads 0, the (implicit, smallest) sentinel. The sample holds the positions i mod 3 != 0
// in the Kärkkäinen-Sanders layout: sample index j < n0 is position 3j + 1 (with a dummy
// at n when n mod 3 == 1), j >= n0 is position 3(j - n0) + 2. rank[j] is 1 + the place
// of sample suffix j among the sample's; a position at or past n ranks 0.

#include "common/types.cuh"
#include "common/text.cuh"
#include "prims/merge.cuh"

// The packed DNA of the index (the packed text of common/text.cuh).
struct DnaText {
    const u64* words;
    u64 n;
    __device__ __forceinline__ u32 get(u64 p) const { return p < n ? base_at(words, p) + 1 : 0; }
};

// Names (u32, at least 1) of a recursion level.
struct NameText {
    const u32* names;
    u64 n;
    __device__ __forceinline__ u32 get(u64 p) const { return p < n ? names[p] : 0; }
};

__device__ __forceinline__ u64 sample_pos(u32 j, u32 n0) { return j < n0 ? 3ull * j + 1 : 3ull * (j - n0) + 2; }

// The `width` symbols from p as a number in base `base` (more than every symbol).
template <class T>
__device__ __forceinline__ u32 window(const T& t, u64 p, u32 width, u32 base) {
    u64 k = 0;
    for (u32 i = 0; i < width; i++) k = k * base + t.get(p + i);
    return (u32)k;
}

// keys[k] = the window of `width` symbols `offset` after sample suffix vals[k].
template <class T>
__device__ __forceinline__ void window_keys(const T& t, u32 n0, const u32* __restrict__ vals, u32 s, u32 offset,
                                            u32 width, u32 base, u32* __restrict__ keys) {
    u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= s) return;
    keys[k] = window(t, sample_pos(vals[k], n0) + offset, width, base);
}

extern "C" __global__ void window_keys_dna(const u64* words, u32 n, u32 n0, const u32* vals, u32 s, u32 offset,
                                           u32 width, u32 base, u32* keys) {
    window_keys(DnaText{words, n}, n0, vals, s, offset, width, base, keys);
}
extern "C" __global__ void window_keys_names(const u32* names, u32 n, u32 n0, const u32* vals, u32 s, u32 offset,
                                             u32 width, u32 base, u32* keys) {
    window_keys(NameText{names, n}, n0, vals, s, offset, width, base, keys);
}

// vals[k] = k.
extern "C" __global__ void iota(u32* vals, u32 s) {
    u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < s) vals[k] = (u32)k;
}

// After the sample sort: where the sorted windows change. Windows compare by their keys
// when one key holds the whole window (`by_key`), else by the three symbols of the text.
// out[k] = 1 there (the names' increments), 0 elsewhere; out[0] = 1.
template <class T>
__device__ __forceinline__ void window_changes(const T& t, u32 n0, const u32* __restrict__ vals,
                                               const u32* __restrict__ keys, u32 s, u32 by_key,
                                               u32* __restrict__ out) {
    u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= s) return;
    bool change = k == 0;
    if (!change && by_key) {
        change = keys[k] != keys[k - 1];
    } else if (!change) {
        u64 p = sample_pos(vals[k], n0), q = sample_pos(vals[k - 1], n0);
        for (u32 i = 0; i < 3 && !change; i++) change = t.get(p + i) != t.get(q + i);
    }
    out[k] = change;
}

extern "C" __global__ void window_changes_dna(const u64* words, u32 n, u32 n0, const u32* vals, const u32* keys,
                                              u32 s, u32 by_key, u32* out) {
    window_changes(DnaText{words, n}, n0, vals, keys, s, by_key, out);
}
extern "C" __global__ void window_changes_names(const u32* names, u32 n, u32 n0, const u32* vals, const u32* keys,
                                                u32 s, u32 by_key, u32* out) {
    window_changes(NameText{names, n}, n0, vals, keys, s, by_key, out);
}

// The recursion's text: text[vals[k]] = names[k].
extern "C" __global__ void scatter_names(const u32* __restrict__ vals, const u32* __restrict__ names, u32 s,
                                         u32* __restrict__ text) {
    u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < s) text[vals[k]] = names[k];
}

// rank[sa[k]] = k + 1.
extern "C" __global__ void rank_from_sa(const u32* __restrict__ sa, u32 s, u32* __restrict__ rank) {
    u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < s) rank[sa[k]] = (u32)k + 1;
}

// flags[k] = 1 where sample suffix sa[k] is at a position i mod 3 == 1 (then i - 1 is a
// mod-0 suffix, listed in the order of i).
extern "C" __global__ void mod0_flags(const u32* __restrict__ sa, u32 s, u32 n0, u32* __restrict__ flags) {
    u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < s) flags[k] = sa[k] < n0;
}

// The mod-0 suffixes in the order of their next suffix (idx: exclusive sum-scan of
// mod0_flags), each with its first symbol as the key of a stable sort.
template <class T>
__device__ __forceinline__ void mod0_gather(const T& t, const u32* __restrict__ sa, const u32* __restrict__ idx,
                                            u32 s, u32 n0, u32* __restrict__ keys, u32* __restrict__ vals) {
    u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= s) return;
    u32 j = sa[k];
    if (j >= n0) return;
    u32 p = 3 * j;
    keys[idx[k]] = t.get(p);
    vals[idx[k]] = p;
}

extern "C" __global__ void mod0_gather_dna(const u64* words, u32 n, const u32* sa, const u32* idx, u32 s, u32 n0,
                                           u32* keys, u32* vals) {
    mod0_gather(DnaText{words, n}, sa, idx, s, n0, keys, vals);
}
extern "C" __global__ void mod0_gather_names(const u32* names, u32 n, const u32* sa, const u32* idx, u32 s, u32 n0,
                                             u32* keys, u32* vals) {
    mod0_gather(NameText{names, n}, sa, idx, s, n0, keys, vals);
}

// Whether mod-0 suffix j (from the merge's b) precedes sample suffix i (from a): by one
// symbol and the rank of the next suffix when i mod 3 == 1, else by two symbols and the
// rank of the suffix two further on (both ranked in the sample then). Skew compares so
// (in little memory); the hybrid's merge compares records instead (below).
template <class T>
struct SuffixLess {
    T t;
    const u32* rank;
    u32 n0;
    __device__ __forceinline__ u32 rank_at(u64 p) const {
        return p < t.n ? rank[p % 3 == 1 ? p / 3 : p / 3 + n0] : 0;
    }
    __device__ __forceinline__ bool operator()(u32 j, u32 i) const {
        u32 cj = t.get(j), ci = t.get(i);
        if (cj != ci) return cj < ci;
        if (i % 3 == 1) return rank_at((u64)j + 1) < rank_at((u64)i + 1);
        cj = t.get((u64)j + 1);
        ci = t.get((u64)i + 1);
        if (cj != ci) return cj < ci;
        return rank_at((u64)j + 2) < rank_at((u64)i + 2);
    }
};

// Sample indexes to text positions, in place.
extern "C" __global__ void sample_positions(u32* sa, u32 s, u32 n0) {
    u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k < s) sa[k] = (u32)sample_pos(sa[k], n0);
}

extern "C" __global__ void merge_partition_dna(const u32* a, u32 na, const u32* b, u32 nb, u32* splits,
                                               const u64* words, u32 n, const u32* rank, u32 n0) {
    merge_partition(na, nb, splits, ByValue<SuffixLess<DnaText>>{a, b, {DnaText{words, n}, rank, n0}});
}
extern "C" __global__ void __launch_bounds__(MERGE_THREADS) merge_tiles_dna(const u32* a, u32 na, const u32* b, u32 nb,
                                                                            const u32* splits, u32* out,
                                                                            const u64* words, u32 n, const u32* rank,
                                                                            u32 n0) {
    merge_tiles(a, na, b, nb, splits, out, ByValue<SuffixLess<DnaText>>{a, b, {DnaText{words, n}, rank, n0}});
}
extern "C" __global__ void merge_partition_names(const u32* a, u32 na, const u32* b, u32 nb, u32* splits,
                                                 const u32* names, u32 n, const u32* rank, u32 n0) {
    merge_partition(na, nb, splits, ByValue<SuffixLess<NameText>>{a, b, {NameText{names, n}, rank, n0}});
}
extern "C" __global__ void __launch_bounds__(MERGE_THREADS) merge_tiles_names(const u32* a, u32 na, const u32* b,
                                                                              u32 nb, const u32* splits, u32* out,
                                                                              const u32* names, u32 n,
                                                                              const u32* rank, u32 n0) {
    merge_tiles(a, na, b, nb, splits, out, ByValue<SuffixLess<NameText>>{a, b, {NameText{names, n}, rank, n0}});
}

// The merge of the DNA text's sorted sets by records that hold what the comparisons
// need (no random reads while merging, as libcubwt's merge): a sample suffix's key is
// its symbol and the rank of the next suffix (i mod 3 == 1), or, flagged by the top bit,
// its two symbols and the rank two further on; a mod-0 suffix has both keys, `one` and
// `two`. Ranks: the sample suffix's place in the sorted sample (`rank`, by sample index)
// + 1, 0 past the end; symbols as DnaText's (code + 1, 0 past the end).
#define RECORD_TWO (1ull << 63)

struct DnaRanks {
    DnaText t;
    const u32* rank;
    u32 n0;
    __device__ __forceinline__ u64 rank_at(u64 p) const {
        return p < t.n ? rank[p % 3 == 1 ? p / 3 : p / 3 + n0] + 1 : 0;
    }
    __device__ __forceinline__ u64 one(u64 p) const { return (u64)t.get(p) << 32 | rank_at(p + 1); }
    __device__ __forceinline__ u64 two(u64 p) const {
        return (u64)(t.get(p) * 8 + t.get(p + 1)) << 32 | rank_at(p + 2);
    }
};

// The key of every sample suffix by sample index (the dummy's is never read): a pass
// that reads the text and the ranks in order (the rank a key needs is that of index
// j + n0 or j - n0 + 1).
extern "C" __global__ void sample_keys(const u64* words, u32 n, u32 n0, const u32* rank, u32 s,
                                       u64* __restrict__ keys) {
    u64 j = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= s) return;
    const DnaRanks r{DnaText{words, n}, rank, n0};
    u64 p = sample_pos((u32)j, n0);
    keys[j] = p % 3 == 1 ? r.one(p) : RECORD_TWO | r.two(p);
}

// The sample's records in its order sa (sample indexes, replaced by their positions):
// keys[k] = by_index[sa[k]].
extern "C" __global__ void sample_records(const u64* __restrict__ by_index, u32 n0, u32* sa, u32 count,
                                          u64* __restrict__ keys) {
    u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= count) return;
    u32 j = sa[k];
    keys[k] = by_index[j];
    sa[k] = (u32)sample_pos(j, n0);
}

// The records of the sorted mod-0 suffixes (positions).
extern "C" __global__ void mod0_records(const u64* words, u32 n, u32 n0, const u32* rank,
                                        const u32* __restrict__ mod0, u32 count, u64* __restrict__ one,
                                        u64* __restrict__ two) {
    u64 k = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= count) return;
    const DnaRanks r{DnaText{words, n}, rank, n0};
    u64 p = mod0[k];
    one[k] = r.one(p);
    two[k] = r.two(p);
}

struct RecordLess {
    const u64* a_keys;
    const u64* b_one;
    const u64* b_two;
    __device__ __forceinline__ bool operator()(u32 j, u32 i) const {
        u64 a = a_keys[i];
        return (a & RECORD_TWO ? b_two[j] : b_one[j]) < (a & ~RECORD_TWO);
    }
};

extern "C" __global__ void merge_partition_records(const u32* a, u32 na, const u32* b, u32 nb, u32* splits,
                                                   const u64* a_keys, const u64* b_one, const u64* b_two) {
    merge_partition(na, nb, splits, RecordLess{a_keys, b_one, b_two});
}
extern "C" __global__ void __launch_bounds__(MERGE_THREADS)
    merge_tiles_records(const u32* a, u32 na, const u32* b, u32 nb, const u32* splits, u32* out, const u64* a_keys,
                        const u64* b_one, const u64* b_two) {
    merge_tiles(a, na, b, nb, splits, out, RecordLess{a_keys, b_one, b_two});
}
