// Device-wide primitives for galign: LSD radix sort (8-bit digits, 32- or 64-bit keys
// with 32-bit values, 64-bit keys with 64-bit values) and reduce-then-scan prefix scans of u32 arrays.
//
// Compiled at run time by NVRTC (no CUB, no headers). Launch geometry is fixed here and
// mirrored in src/gpu/prims/radix.rs: 256 threads a block; a radix tile is 256 x 8 elements;
// a scan tile is 256 x 16 elements.

typedef unsigned int u32;
typedef unsigned long long u64;

#define RADIX 256
#define THREADS 256
#define WARPS (THREADS / 32)
#define SORT_ITEMS 8
#define SORT_TILE (THREADS * SORT_ITEMS)
#define SCAN_ITEMS 16
#define SCAN_TILE (THREADS * SCAN_ITEMS)
// Shared-memory index with one pad word every 32, so per-thread runs avoid bank conflicts.
#define PAD(i) ((i) + ((i) >> 5))

// ---------------------------------------------------------------------------------
// Block-wide helpers (256 threads).

__device__ __forceinline__ u32 apply_op(u32 a, u32 b, u32 op) { return op ? max(a, b) : a + b; }

// Inclusive scan of one value per thread across the block; `warp_tot` holds WARPS words.
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
        u32 t = lane < WARPS ? warp_tot[lane] : 0;
#pragma unroll
        for (u32 d = 1; d < WARPS; d <<= 1) {
            u32 y = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d) t = apply_op(t, y, op);
        }
        if (lane < WARPS) warp_tot[lane] = t;
    }
    __syncthreads();
    if (warp > 0) x = apply_op(x, warp_tot[warp - 1], op);
    __syncthreads();
    return x;
}

// ---------------------------------------------------------------------------------
// Scans. op 0 = sum, 1 = max. Phase 1 reduces each tile; phase 2 scans the tile totals
// (exclusive, one block); phase 3 scans each tile seeded with its total's prefix.

extern "C" __global__ void scan_reduce(const u32* __restrict__ in, u32 n, u32 op, u32* __restrict__ tile_sums) {
    __shared__ u32 warp_tot[WARPS];
    const u64 base = (u64)blockIdx.x * SCAN_TILE;
    u32 acc = 0;
#pragma unroll
    for (u32 j = 0; j < SCAN_ITEMS; j++) {
        u64 i = base + j * THREADS + threadIdx.x;
        if (i < n) acc = apply_op(acc, in[i], op);
    }
    acc = block_inclusive_scan(acc, op, warp_tot);
    if (threadIdx.x == THREADS - 1) tile_sums[blockIdx.x] = acc;
}

extern "C" __global__ void scan_spine(u32* sums, u32 count, u32 op) {
    __shared__ u32 warp_tot[WARPS];
    __shared__ u32 carry_s;
    u32 carry = 0;
    for (u32 base = 0; base < count; base += THREADS) {
        u32 i = base + threadIdx.x;
        u32 inc = apply_op(carry, block_inclusive_scan(i < count ? sums[i] : 0, op, warp_tot), op);
        if (i < count) sums[i] = inc;
        if (threadIdx.x == THREADS - 1) carry_s = inc;
        __syncthreads();
        carry = carry_s;
        __syncthreads();
    }
}

extern "C" __global__ void scan_down(const u32* in, u32* out, u32 n, u32 op, u32 inclusive,
                                     const u32* __restrict__ tile_incl) {
    __shared__ u32 warp_tot[WARPS];
    __shared__ u32 tile[SCAN_TILE + SCAN_TILE / 32];
    const u64 base = (u64)blockIdx.x * SCAN_TILE;
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
    __shared__ u32 thread_incl[THREADS];
    thread_incl[threadIdx.x] = block_inclusive_scan(acc, op, warp_tot);
    __syncthreads();
    u32 excl = threadIdx.x == 0 ? 0 : thread_incl[threadIdx.x - 1];
    u32 seed = blockIdx.x == 0 ? 0 : tile_incl[blockIdx.x - 1];
    u32 run = apply_op(seed, excl, op);
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
// Radix sort. Each of `gridDim.x` blocks owns a contiguous run of `tiles_per_block`
// tiles. Upsweep counts digits per block into counts[digit * grid + block]; an
// exclusive scan of counts gives each (digit, block) its output offset; downsweep
// ranks each tile stably (warp match + shared counters), stages it in shared memory
// sorted by digit and writes digit runs out contiguously.

template <typename K>
__device__ __forceinline__ void upsweep(const K* __restrict__ keys, u32 n, u32 shift, u32 tiles_per_block,
                                        u32* __restrict__ counts) {
    __shared__ u32 hist[WARPS][RADIX];
    for (u32 i = threadIdx.x; i < WARPS * RADIX; i += THREADS) (&hist[0][0])[i] = 0;
    __syncthreads();
    const u32 warp = threadIdx.x >> 5;
    u64 start = (u64)blockIdx.x * tiles_per_block * SORT_TILE;
    u64 end = min((u64)n, start + (u64)tiles_per_block * SORT_TILE);
    for (u64 i = start + threadIdx.x; i < end; i += THREADS * SORT_ITEMS) {
        K k[SORT_ITEMS];
#pragma unroll
        for (u32 j = 0; j < SORT_ITEMS; j++) {
            u64 e = i + j * THREADS;
            if (e < end) k[j] = keys[e];
        }
#pragma unroll
        for (u32 j = 0; j < SORT_ITEMS; j++) {
            if (i + j * THREADS < end) atomicAdd(&hist[warp][(u32)(k[j] >> shift) & (RADIX - 1)], 1u);
        }
    }
    __syncthreads();
    u32 d = threadIdx.x;
    u32 s = 0;
#pragma unroll
    for (u32 w = 0; w < WARPS; w++) s += hist[w][d];
    counts[(u64)d * gridDim.x + blockIdx.x] = s;
}

extern "C" __global__ void __launch_bounds__(THREADS) radix_upsweep_u32(const u32* keys, u32 n, u32 shift, u32 tpb, u32* counts) {
    upsweep<u32>(keys, n, shift, tpb, counts);
}
extern "C" __global__ void __launch_bounds__(THREADS) radix_upsweep_u64(const u64* keys, u32 n, u32 shift, u32 tpb, u32* counts) {
    upsweep<u64>(keys, n, shift, tpb, counts);
}

template <typename K, typename V>
__device__ __forceinline__ void downsweep(const K* __restrict__ keys_in, const V* __restrict__ vals_in,
                                          K* __restrict__ keys_out, V* __restrict__ vals_out, u32 n, u32 shift,
                                          u32 tiles_per_block, const u32* __restrict__ offsets) {
    __shared__ K skeys[SORT_TILE];
    __shared__ V svals[SORT_TILE];
    __shared__ u32 warp_cnt[WARPS][RADIX];
    __shared__ u32 tile_start[RADIX];
    __shared__ u32 run_off[RADIX];
    __shared__ u32 warp_tot[WARPS];
    const u32 lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const u32 lt_mask = (1u << lane) - 1;
    run_off[threadIdx.x] = offsets[(u64)threadIdx.x * gridDim.x + blockIdx.x];
    u64 first = (u64)blockIdx.x * tiles_per_block * SORT_TILE;
    for (u32 t = 0; t < tiles_per_block; t++) {
        u64 base = first + (u64)t * SORT_TILE;
        if (base >= n) break;
        u32 valid = (u32)min((u64)SORT_TILE, (u64)n - base);
        for (u32 i = threadIdx.x; i < WARPS * RADIX; i += THREADS) (&warp_cnt[0][0])[i] = 0;
        K k[SORT_ITEMS];
        V v[SORT_ITEMS];
        u32 d[SORT_ITEMS], r[SORT_ITEMS];
#pragma unroll
        for (u32 j = 0; j < SORT_ITEMS; j++) {
            u32 e = warp * (SORT_ITEMS * 32) + j * 32 + lane;
            if (e < valid) {
                k[j] = keys_in[base + e];
                v[j] = vals_in[base + e];
                d[j] = (u32)(k[j] >> shift) & (RADIX - 1);
            } else {
                d[j] = RADIX;
            }
        }
        __syncthreads();
#pragma unroll
        for (u32 j = 0; j < SORT_ITEMS; j++) {
            u32 peers = __match_any_sync(0xffffffffu, d[j]);
            u32 before = 0;
            if (d[j] < RADIX) before = warp_cnt[warp][d[j]];
            r[j] = before + __popc(peers & lt_mask);
            __syncwarp();
            if (d[j] < RADIX && (peers & lt_mask) == 0) warp_cnt[warp][d[j]] = before + __popc(peers);
            __syncwarp();
        }
        __syncthreads();
        // Thread `digit`: exclusive prefix over warps, then over digits.
        u32 digit = threadIdx.x;
        u32 total = 0;
#pragma unroll
        for (u32 w = 0; w < WARPS; w++) {
            u32 c = warp_cnt[w][digit];
            warp_cnt[w][digit] = total;
            total += c;
        }
        u32 incl = block_inclusive_scan(total, 0, warp_tot);
        tile_start[digit] = incl - total;
        __syncthreads();
#pragma unroll
        for (u32 j = 0; j < SORT_ITEMS; j++) {
            if (d[j] < RADIX) {
                u32 pos = tile_start[d[j]] + warp_cnt[warp][d[j]] + r[j];
                skeys[pos] = k[j];
                svals[pos] = v[j];
            }
        }
        __syncthreads();
        for (u32 i = threadIdx.x; i < valid; i += THREADS) {
            K key = skeys[i];
            u32 dd = (u32)(key >> shift) & (RADIX - 1);
            u32 out = run_off[dd] + i - tile_start[dd];
            keys_out[out] = key;
            vals_out[out] = svals[i];
        }
        __syncthreads();
        run_off[digit] += total;
        __syncthreads();
    }
}

extern "C" __global__ void __launch_bounds__(THREADS, 4) radix_downsweep_u32(const u32* ki, const u32* vi, u32* ko, u32* vo, u32 n, u32 shift,
                                               u32 tpb, const u32* offsets) {
    downsweep<u32, u32>(ki, vi, ko, vo, n, shift, tpb, offsets);
}
extern "C" __global__ void __launch_bounds__(THREADS, 3) radix_downsweep_u64(const u64* ki, const u32* vi, u64* ko, u32* vo, u32 n, u32 shift,
                                               u32 tpb, const u32* offsets) {
    downsweep<u64, u32>(ki, vi, ko, vo, n, shift, tpb, offsets);
}
extern "C" __global__ void __launch_bounds__(THREADS, 3) radix_downsweep_u64_v64(const u64* ki, const u64* vi, u64* ko, u64* vo, u32 n,
                                                   u32 shift, u32 tpb, const u32* offsets) {
    downsweep<u64, u64>(ki, vi, ko, vo, n, shift, tpb, offsets);
}
