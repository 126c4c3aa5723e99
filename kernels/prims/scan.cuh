// Block-wide scan and the tile status of single-pass scans with decoupled look-back
// (Merrill & Garland 2016, as CUB's BlockScan and ScanTileState). A header, included by
// every kernel file that scans (prims/radix_sort.cu's device-wide scan and radix sort,
// sa/doubling.cu's fused rank pass).
//
// Blocks have SCAN_BLOCK_THREADS threads (src/gpu/tuning.rs, a -D option). op 0 = sum, 1 = max (both commutative,
// identity 0). A look-back status array holds a tile counter in status[0] (each block
// takes the next tile from it, so that the tiles it waits on are running) and one 64-bit
// word per tile at status[1 + tile]: a flag in the high half (SCAN_AGGREGATE: the
// tile's own reduction; SCAN_PREFIX: the reduction of it and every tile before; 0: not
// yet published) and the value in the low half, written and read whole, so that no fence
// orders flag and value. It is zeroed before each launch.

#ifndef GALIGN_PRIMS_SCAN_CUH
#define GALIGN_PRIMS_SCAN_CUH

#include "common/types.cuh"

#define SCAN_BLOCK_WARPS (SCAN_BLOCK_THREADS / 32)
#define SCAN_AGGREGATE 1ull
#define SCAN_PREFIX 2ull

// Shared-memory index with one pad word every 32, so that per-thread runs of
// consecutive items avoid bank conflicts.
#define PAD(i) ((i) + ((i) >> 5))

__device__ __forceinline__ u32 apply_op(u32 a, u32 b, u32 op) { return op ? max(a, b) : a + b; }

// Inclusive scan of one value per thread across the block; `warp_tot` holds
// SCAN_BLOCK_WARPS words. Every thread of the block calls it.
__device__ __forceinline__ u32 block_inclusive_scan(u32 x, u32 op, u32* warp_tot) {
    const u32 lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (u32 d = 1; d < 32; d <<= 1) {
        u32 y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d) x = apply_op(x, y, op);
    }
    if (lane == 31) warp_tot[warp] = x;
    __syncthreads();
    if (warp == 0) {
        u32 t = lane < SCAN_BLOCK_WARPS ? warp_tot[lane] : 0;
#pragma unroll
        for (u32 d = 1; d < SCAN_BLOCK_WARPS; d <<= 1) {
            u32 y = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d) t = apply_op(t, y, op);
        }
        if (lane < SCAN_BLOCK_WARPS) warp_tot[lane] = t;
    }
    __syncthreads();
    if (warp > 0) x = apply_op(x, warp_tot[warp - 1], op);
    __syncthreads();
    return x;
}

// The next tile for this block (thread 0 calls it).
__device__ __forceinline__ u32 next_tile(u64* status) { return (u32)atomicAdd(status, 1ull); }

// Spins until tile `t`'s word is published; returns it.
__device__ __forceinline__ u64 wait_scan_status(const u64* status, u32 t) {
    const volatile u64* word = status + 1 + t;
    u64 s;
    do {
        s = *word;
    } while ((s >> 32) == 0);
    return s;
}

// Folds `x` of the lanes whose bit is set in `take` across the warp (0 elsewhere).
__device__ __forceinline__ u32 warp_fold(u32 x, u32 op, bool take) {
    x = take ? x : 0;
#pragma unroll
    for (u32 d = 16; d > 0; d >>= 1) x = apply_op(x, __shfl_xor_sync(0xffffffffu, x, d), op);
    return x;
}

// The fold of every tile before `tile` (one whole warp calls it; every lane gets it):
// looks back 32 tiles at a time; the nearest one with SCAN_PREFIX ends the look-back, the
// aggregates between are folded in.
__device__ __forceinline__ u32 look_back(const u64* status, u32 tile, u32 op) {
    const u32 lane = threadIdx.x & 31;
    u32 before = 0;
    long long last = (long long)tile - 1; // the window is tiles last - 31 .. last
    while (true) {
        long long t = last - lane;
        u64 s = t >= 0 ? wait_scan_status(status, (u32)t) : (SCAN_PREFIX << 32);
        u32 prefixes = __ballot_sync(0xffffffffu, (s >> 32) == SCAN_PREFIX);
        // Lanes up to the nearest prefix (lowest lane) count; all of them when none is.
        u32 nearest = prefixes ? (u32)(__ffs(prefixes) - 1) : 31;
        before = apply_op(before, warp_fold((u32)s, op, lane <= nearest), op);
        if (prefixes) return before;
        last -= 32;
    }
}

// Publishes `total`, the reduction of tile `tile`, and returns the fold of every tile
// before it (one whole warp calls it; every lane gets it); the tile's prefix is then
// published too, for the tiles after.
__device__ __forceinline__ u32 tile_prefix(u64* status, u32 tile, u32 total, u32 op) {
    volatile u64* mine = (volatile u64*)(status + 1 + tile);
    const bool lead = (threadIdx.x & 31) == 0;
    if (tile == 0) {
        if (lead) *mine = (SCAN_PREFIX << 32) | total;
        return 0;
    }
    if (lead) *mine = (SCAN_AGGREGATE << 32) | total;
    u32 before = look_back(status, tile, op);
    if (lead) *mine = (SCAN_PREFIX << 32) | apply_op(before, total, op);
    return before;
}

#endif
