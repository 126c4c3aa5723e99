// Device-wide merge of two sorted u32 sequences by a caller's comparison (merge path,
// Green et al.; the tiling of moderngpu's merge). A header, included by every kernel
// file that merges, which instantiates the two kernels with its own comparison (see
// merge.cu and ../sa/skew.cu). Host side: src/gpu/prims/merge.rs.
//
// The comparison is asked by index: `less(j, i)` is whether b's element j precedes a's
// element i (the caller's functor holds what it compares: the values themselves, see
// ByValue, or records beside them); the merge is stable (on ties a's element comes
// first). The outputs are a's and b's u32 values. MERGE_TILE outputs per block of
// MERGE_THREADS threads, MERGE_ITEMS per thread (both from src/gpu/tuning.rs as -D
// options, which src/gpu/prims/merge.rs launches with).

#ifndef GALIGN_PRIMS_MERGE_CUH
#define GALIGN_PRIMS_MERGE_CUH

#include "common/types.cuh"

#define MERGE_TILE (MERGE_THREADS * MERGE_ITEMS)

// A comparison of values, by index: b[j] < a[i] by `less` on the u32 values.
template <class Less>
struct ByValue {
    const u32* a;
    const u32* b;
    Less less;
    __device__ __forceinline__ bool operator()(u32 j, u32 i) const { return less(b[j], a[i]); }
};

// How many elements of a[a0, a0 + na) are among the first `diag` outputs of its merge
// with b[b0, b0 + nb) (diag <= na + nb).
template <class Less>
__device__ __forceinline__ u32 merge_path(u32 a0, u32 na, u32 b0, u32 nb, u32 diag, const Less& less) {
    u32 lo = diag > nb ? diag - nb : 0;
    u32 hi = min(diag, na);
    while (lo < hi) {
        u32 mid = (lo + hi) >> 1;
        // a[mid] is among the first diag outputs when it does not follow b[diag - 1 - mid].
        if (!less(b0 + diag - 1 - mid, a0 + mid)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

// splits[t] = merge_path at output t * MERGE_TILE (the total for the last), t in [0, tiles].
template <class Less>
__device__ __forceinline__ void merge_partition(u32 na, u32 nb, u32* splits, const Less& less) {
    u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    u64 total = (u64)na + nb;
    u64 tiles = (total + MERGE_TILE - 1) / MERGE_TILE;
    if (t > tiles) return;
    u32 diag = (u32)min(t * MERGE_TILE, total);
    splits[t] = merge_path(0, na, 0, nb, diag, less);
}

// Block t writes outputs [t * MERGE_TILE, (t + 1) * MERGE_TILE) of the merge into out:
// each thread finds the start of its MERGE_ITEMS outputs by a merge path inside the
// block's ranges of a and b, then merges them sequentially.
template <class Less>
__device__ __forceinline__ void merge_tiles(const u32* a, u32 na, const u32* b, u32 nb,
                                            const u32* __restrict__ splits, u32* __restrict__ out,
                                            const Less& less) {
    const u64 total = (u64)na + nb;
    const u64 d0 = (u64)blockIdx.x * MERGE_TILE;
    if (d0 >= total) return;
    const u32 len = (u32)min((u64)MERGE_TILE, total - d0);
    const u32 a0 = splits[blockIdx.x], a1 = splits[blockIdx.x + 1];
    const u32 b0 = (u32)(d0 - a0), b1 = (u32)(d0 + len - a1);
    const u32 first = threadIdx.x * MERGE_ITEMS;
    if (first >= len) return;
    u32 i = a0 + merge_path(a0, a1 - a0, b0, b1 - b0, first, less);
    u32 j = b0 + first - (i - a0);
    const u32 last = min(first + MERGE_ITEMS, len);
    for (u32 k = first; k < last; k++) {
        bool take_a = j >= b1 || (i < a1 && !less(j, i));
        out[d0 + k] = take_a ? a[i++] : b[j++];
    }
}

#endif
