// Device-wide primitives for galign: LSD radix sort (8-bit digits, 32- or 64-bit keys
// with 32-bit values, 64-bit keys with 64-bit values) and single-pass prefix scans of
// u32 arrays.
//
// Compiled at run time by NVRTC (no CUB). Launch geometry comes from src/gpu/tuning.rs
// as -D options, which src/gpu/prims/radix.rs launches with: SCAN_BLOCK_THREADS threads a
// block; a radix tile is SCAN_BLOCK_THREADS x ITEMS_* elements (RADIX digits a pass, at
// most MAX_PASSES passes); a scan tile is SCAN_BLOCK_THREADS x SCAN_ITEMS elements.

#include "common/types.cuh"
#include "prims/scan.cuh"

#define THREADS SCAN_BLOCK_THREADS
#define WARPS SCAN_BLOCK_WARPS
#define SCAN_TILE (THREADS * SCAN_ITEMS)

// ---------------------------------------------------------------------------------
// Scan, single pass with decoupled look-back (Merrill & Garland 2016, as CUB's
// DeviceScan). op 0 = sum, 1 = max (both commutative, identity 0). Every block takes the
// next tile (an atomic counter in status[0], so that the tiles it waits on are running),
// scans it in shared memory, publishes its total (SCAN_AGGREGATE in the high half of its
// 64-bit word status[1 + tile]), then warp 0 looks back 32 earlier tiles at a time: the
// nearest one with SCAN_PREFIX (the scan of it and every tile before) ends the look-back,
// the aggregates between are folded in. The tile then publishes its own prefix, and
// writes its items seeded with the prefix of the tiles before. Each word is written and
// read whole (value and flag together), so no fence orders them. Reads each input once,
// writes each output once: `in` and `out` may be the same array. status[1 + last tile]
// holds the reduction of all `n` values when the kernel ends.

extern "C" __global__ void __launch_bounds__(THREADS) scan_lookback(const u32* in, u32* out, u32 n, u32 op, u32 inclusive,
                                                                    u64* status) {
    __shared__ u32 warp_tot[WARPS];
    __shared__ u32 tile[SCAN_TILE + SCAN_TILE / 32];
    __shared__ u32 thread_incl[THREADS];
    __shared__ u32 tile_s, before_s;
    if (threadIdx.x == 0) tile_s = next_tile(status);
    __syncthreads();
    const u32 t = tile_s;
    const u64 base = (u64)t * SCAN_TILE;
    // Coalesced load into shared memory, then each thread scans SCAN_ITEMS consecutive items.
#pragma unroll
    for (u32 j = 0; j < SCAN_ITEMS; j++) {
        u64 i = base + j * THREADS + threadIdx.x;
        tile[PAD(j * THREADS + threadIdx.x)] = i < n ? in[i] : 0;
    }
    __syncthreads();
    u32 v[SCAN_ITEMS];
    u32 acc = 0;
#pragma unroll
    for (u32 j = 0; j < SCAN_ITEMS; j++) {
        v[j] = tile[PAD(threadIdx.x * SCAN_ITEMS + j)];
        acc = apply_op(acc, v[j], op);
    }
    thread_incl[threadIdx.x] = block_inclusive_scan(acc, op, warp_tot);
    __syncthreads();
    const u32 total = thread_incl[THREADS - 1];
    if (threadIdx.x < 32) {
        u32 before = tile_prefix(status, t, total, op);
        if (threadIdx.x == 0) before_s = before;
    }
    __syncthreads();
    u32 excl = threadIdx.x == 0 ? 0 : thread_incl[threadIdx.x - 1];
    u32 run = apply_op(before_s, excl, op);
#pragma unroll
    for (u32 j = 0; j < SCAN_ITEMS; j++) {
        u32 x = v[j];
        u32 next = apply_op(run, x, op);
        tile[PAD(threadIdx.x * SCAN_ITEMS + j)] = inclusive ? next : run;
        run = next;
    }
    __syncthreads();
#pragma unroll
    for (u32 j = 0; j < SCAN_ITEMS; j++) {
        u64 i = base + j * THREADS + threadIdx.x;
        if (i < n) out[i] = tile[PAD(j * THREADS + threadIdx.x)];
    }
}

// ---------------------------------------------------------------------------------
// Radix sort, onesweep (Adinets & Merrill 2022, as CUB's DeviceRadixSort): one pass over
// the keys counts the digits of every pass at once (`radix_histogram_*`), `radix_bins`
// turns the counts into each digit's first output index, then each pass is one kernel a
// portion of the input: every block takes the next tile (an atomic counter, so that the
// tiles it waits on are already running), ranks its keys stably (warp `match_any` and
// per-warp counters), publishes its digit counts, and finds the count of each digit in
// the tiles before it by decoupled look-back on `status` (one word per tile and digit:
// flag AGGREGATE = this tile's count, PREFIX = the count of this and every earlier tile;
// the value in the low 30 bits). The tile is staged in shared memory sorted by digit and
// written out in digit runs. The portion's last tile leaves each digit's next output
// index in `bins_out`, the next portion's `bins_in`.

#define FLAG_SHIFT 30
#define AGGREGATE (1u << FLAG_SHIFT)
#define PREFIX (2u << FLAG_SHIFT)
#define VALUE_MASK (AGGREGATE - 1)

template <typename K>
__device__ __forceinline__ u32 digit_of(K key, u32 shift) { return (u32)(key >> shift) & (RADIX - 1); }

// Adds the digit counts of `passes` passes (pass p at bits shift + 8p) of keys[0..n) into
// hist[p * RADIX + digit] (zeroed before).
template <typename K>
__device__ __forceinline__ void histogram(const K* __restrict__ keys, u32 n, u32 shift, u32 passes,
                                          u32* __restrict__ hist) {
    __shared__ u32 counts[MAX_PASSES * RADIX];
    for (u32 i = threadIdx.x; i < MAX_PASSES * RADIX; i += THREADS) counts[i] = 0;
    __syncthreads();
    for (u64 i = (u64)blockIdx.x * THREADS + threadIdx.x; i < n; i += (u64)gridDim.x * THREADS) {
        K key = keys[i];
        for (u32 p = 0; p < passes; p++) atomicAdd(&counts[p * RADIX + digit_of(key, shift + 8 * p)], 1u);
    }
    __syncthreads();
    for (u32 i = threadIdx.x; i < passes * RADIX; i += THREADS)
        if (counts[i]) atomicAdd(&hist[i], counts[i]);
}

extern "C" __global__ void __launch_bounds__(THREADS) radix_histogram_u32(const u32* keys, u32 n, u32 shift, u32 passes, u32* hist) {
    histogram<u32>(keys, n, shift, passes, hist);
}
extern "C" __global__ void __launch_bounds__(THREADS) radix_histogram_u64(const u64* keys, u32 n, u32 shift, u32 passes, u32* hist) {
    histogram<u64>(keys, n, shift, passes, hist);
}

// One block: bins[p * stride + digit] = exclusive prefix of hist[p * RADIX ..] at digit.
extern "C" __global__ void radix_bins(const u32* __restrict__ hist, u32 passes, u32 stride, u32* __restrict__ bins) {
    __shared__ u32 warp_tot[WARPS];
    for (u32 p = 0; p < passes; p++) {
        u32 c = hist[p * RADIX + threadIdx.x];
        bins[p * stride + threadIdx.x] = block_inclusive_scan(c, 0, warp_tot) - c;
    }
}

// Spins until tile `t`'s word of `digit` is published; returns it.
__device__ __forceinline__ u32 wait_status(const u32* status, u32 t, u32 digit) {
    const volatile u32* word = status + 1 + (u64)t * RADIX + digit;
    u32 s;
    do {
        s = *word;
    } while (s == 0);
    return s;
}

template <typename K, typename V, u32 ITEMS>
__device__ __forceinline__ void onesweep(const K* __restrict__ keys_in, const V* __restrict__ vals_in,
                                         K* __restrict__ keys_out, V* __restrict__ vals_out, u32 n, u32 shift,
                                         u32* status, const u32* __restrict__ bins_in, u32* __restrict__ bins_out) {
    const u32 TILE = THREADS * ITEMS;
    __shared__ union {
        K keys[THREADS * ITEMS];
        V vals[THREADS * ITEMS];
    } stage;
    __shared__ u32 warp_cnt[WARPS][RADIX];
    __shared__ u32 tile_start[RADIX];
    __shared__ u32 out_base[RADIX];
    __shared__ u32 warp_tot[WARPS];
    __shared__ u32 tile_s;
    const u32 lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const u32 lt_mask = (1u << lane) - 1;
    if (threadIdx.x == 0) tile_s = atomicAdd(status, 1u);
    for (u32 i = threadIdx.x; i < WARPS * RADIX; i += THREADS) (&warp_cnt[0][0])[i] = 0;
    __syncthreads();
    const u32 tile = tile_s;
    const u64 base = (u64)tile * TILE;
    const u32 valid = (u32)min((u64)TILE, (u64)n - base);
    // Warp-striped load: warp w holds elements [w * 32 * ITEMS, (w + 1) * 32 * ITEMS).
    K k[ITEMS];
    V v[ITEMS];
    u32 pos[ITEMS];
#pragma unroll
    for (u32 j = 0; j < ITEMS; j++) {
        u32 e = warp * (ITEMS * 32) + j * 32 + lane;
        if (e < valid) {
            k[j] = keys_in[base + e];
            v[j] = vals_in[base + e];
        }
    }
    // Stable rank inside the warp: earlier items, then lower lanes, go first.
#pragma unroll
    for (u32 j = 0; j < ITEMS; j++) {
        u32 e = warp * (ITEMS * 32) + j * 32 + lane;
        u32 d = e < valid ? digit_of(k[j], shift) : RADIX;
        u32 peers = __match_any_sync(0xffffffffu, d);
        u32 before = d < RADIX ? warp_cnt[warp][d] : 0;
        pos[j] = before + __popc(peers & lt_mask);
        __syncwarp();
        if (d < RADIX && (peers & lt_mask) == 0) warp_cnt[warp][d] = before + __popc(peers);
        __syncwarp();
    }
    __syncthreads();
    // Thread `digit`: its count in the tile, published at once; the warps' offsets.
    const u32 digit = threadIdx.x;
    u32 count = 0;
#pragma unroll
    for (u32 w = 0; w < WARPS; w++) {
        u32 c = warp_cnt[w][digit];
        warp_cnt[w][digit] = count;
        count += c;
    }
    volatile u32* mine = status + 1 + (u64)tile * RADIX + digit;
    if (tile == 0) *mine = PREFIX | count;
    else *mine = AGGREGATE | count;
    tile_start[digit] = block_inclusive_scan(count, 0, warp_tot) - count;
    __syncthreads();
    // Stage the keys sorted by digit while earlier tiles publish.
#pragma unroll
    for (u32 j = 0; j < ITEMS; j++) {
        u32 e = warp * (ITEMS * 32) + j * 32 + lane;
        if (e < valid) {
            u32 d = digit_of(k[j], shift);
            pos[j] += tile_start[d] + warp_cnt[warp][d];
            stage.keys[pos[j]] = k[j];
        }
    }
    // Decoupled look-back: the count of `digit` in every earlier tile of the portion.
    u32 before = 0;
    if (tile > 0) {
        for (u32 t = tile - 1;; t--) {
            u32 s = wait_status(status, t, digit);
            before += s & VALUE_MASK;
            if (s & PREFIX) break;
        }
        *mine = PREFIX | (before + count);
    }
    out_base[digit] = bins_in[digit] + before;
    if (base + TILE >= n) bins_out[digit] = bins_in[digit] + before + count;
    __syncthreads();
    u32 out[ITEMS];
#pragma unroll
    for (u32 j = 0; j < ITEMS; j++) {
        u32 i = j * THREADS + threadIdx.x;
        if (i < valid) {
            K key = stage.keys[i];
            u32 d = digit_of(key, shift);
            out[j] = out_base[d] + i - tile_start[d];
            keys_out[out[j]] = key;
        }
    }
    __syncthreads();
#pragma unroll
    for (u32 j = 0; j < ITEMS; j++) {
        u32 e = warp * (ITEMS * 32) + j * 32 + lane;
        if (e < valid) stage.vals[pos[j]] = v[j];
    }
    __syncthreads();
#pragma unroll
    for (u32 j = 0; j < ITEMS; j++) {
        u32 i = j * THREADS + threadIdx.x;
        if (i < valid) vals_out[out[j]] = stage.vals[i];
    }
}

// Items per thread of each kind: ITEMS_U32, ITEMS_U64, ITEMS_U64_V64 (src/gpu/tuning.rs).

extern "C" __global__ void __launch_bounds__(THREADS) radix_onesweep_u32(const u32* ki, const u32* vi, u32* ko, u32* vo, u32 n, u32 shift,
                                                                       u32* status, const u32* bins_in, u32* bins_out) {
    onesweep<u32, u32, ITEMS_U32>(ki, vi, ko, vo, n, shift, status, bins_in, bins_out);
}
extern "C" __global__ void __launch_bounds__(THREADS) radix_onesweep_u64(const u64* ki, const u32* vi, u64* ko, u32* vo, u32 n, u32 shift,
                                                                       u32* status, const u32* bins_in, u32* bins_out) {
    onesweep<u64, u32, ITEMS_U64>(ki, vi, ko, vo, n, shift, status, bins_in, bins_out);
}
extern "C" __global__ void __launch_bounds__(THREADS) radix_onesweep_u64_v64(const u64* ki, const u64* vi, u64* ko, u64* vo, u32 n,
                                                                           u32 shift, u32* status, const u32* bins_in, u32* bins_out) {
    onesweep<u64, u64, ITEMS_U64_V64>(ki, vi, ko, vo, n, shift, status, bins_in, bins_out);
}
