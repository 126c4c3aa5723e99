// Suffix-array kernels for galign's GPU prefix-doubling builder (src/gpu/sa/doubling.rs).
// The block sizes, tiles and items per thread (INIT_THREADS, SKETCH_BITS, SMALL_SEG,
// MEDIUM_SEG, MEDIUM_TILE, MEDIUM_THREADS, RANK_ITEMS) come from src/gpu/tuning.rs as -D
// options.
//
// Text: the packed text of common/text.cuh. Ranks (ISA) are group heads: the SA index of the first
// suffix of a suffix's group. The sort key of suffix p at step h is isa[p + h] + 1, or 0
// when p + h is the (implicit, smallest) sentinel.

#include "common/types.cuh"
#include "common/text.cuh"
#include "prims/scan.cuh"

// The 16 bases at p as a 32-bit key, first base most significant, padded with code 0
// past the end (0 when p >= n).
__device__ __forceinline__ u32 bases16(const u64* __restrict__ words, u32 n, u64 p) {
    if (p >= n) return 0;
    return (u32)(window32(words, p) >> 32);
}

// The elements a build sorts: every text position (n0 == 0), or the indexes of a DC3
// sample (n0 > 0: the layout of skew.cu, where index j < n0 is position 3j + 1 and
// j >= n0 is 3(j - n0) + 2, with a dummy at n when n mod 3 == 1).
__device__ __forceinline__ u64 element_pos(u32 j, u32 n0) {
    return n0 == 0 ? j : (j < n0 ? 3ull * j + 1 : 3ull * (j - n0) + 2);
}

// The element at place k of `count` in decreasing position order.
__device__ __forceinline__ u32 element_from_top(u32 k, u32 count, u32 n0) {
    u32 r = count - 1 - k;
    if (n0 == 0) return r;
    u64 p = (u64)r + r / 2 + 1; // the r-th smallest position that is not a multiple of 3
    return p % 3 == 1 ? (u32)(p / 3) : n0 + (u32)(p / 3);
}

// The 16 bases at p + offset of the `count` elements as 32-bit keys, in decreasing
// position order (so that stable sorts list shorter suffixes first among equal padded
// keys).
extern "C" __global__ void init_keys(const u64* __restrict__ words, u32 n, u32 count, u32 n0, u32 offset,
                                     u32* __restrict__ keys, u32* __restrict__ vals) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    u32 j = element_from_top((u32)i, count, n0);
    keys[i] = bases16(words, n, element_pos(j, n0) + offset);
    vals[i] = j;
}

// keys[i] = the first 16 bases of element vals[i] (the second pass of a 32-base sort).
extern "C" __global__ void gather_keys(const u64* __restrict__ words, u32 n, u32 count, u32 n0,
                                       const u32* __restrict__ vals, u32* __restrict__ keys) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    keys[i] = bases16(words, n, element_pos(vals[i], n0));
}

// Group starts after the initial sort by 16 bases (`second` 0: keys) or 32 (`second` 1:
// keys, then the 16 bases after them, read from the text once an element and shared
// with the next thread): a new group begins where the prefix changes or next to a
// suffix shorter than the prefix (those are always alone). Writes i at a start, 0
// elsewhere, for a max-scan into heads. Blocks of INIT_THREADS.
extern "C" __global__ void __launch_bounds__(INIT_THREADS)
    init_starts(const u64* __restrict__ words, const u32* __restrict__ keys, const u32* __restrict__ vals, u32 n,
                u32 count, u32 n0, u32 short_from, u32 second, u32* __restrict__ starts) {
    __shared__ u32 after[INIT_THREADS + 1]; // after[t + 1]: thread t's; after[0]: the element before
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    const u64 p = i < count ? element_pos(vals[i], n0) : 0;
    const u64 q = i > 0 && i < count ? element_pos(vals[i - 1], n0) : 0;
    if (second) {
        if (i < count) after[threadIdx.x + 1] = bases16(words, n, p + 16);
        if (threadIdx.x == 0 && i > 0 && i < count) after[0] = bases16(words, n, q + 16);
        __syncthreads();
    }
    if (i >= count) return;
    bool start = i == 0 || keys[i] != keys[i - 1] || p >= short_from || q >= short_from;
    if (!start && second) start = after[threadIdx.x + 1] != after[threadIdx.x];
    starts[i] = start ? (u32)i : 0;
}

// Distinct 16-mers of the text, sketched by HyperLogLog (SKETCH_REGISTERS registers):
// regs[j] = the most leading zeros plus one, over the hashes of the 16-mers whose hash
// picks register j. Deterministic (a max). Grid-strided over the positions.
#define SKETCH_REGISTERS (1 << SKETCH_BITS)
extern "C" __global__ void kmer_sketch(const u64* __restrict__ words, u32 n, u32* __restrict__ regs) {
    __shared__ u32 local[SKETCH_REGISTERS];
    for (u32 j = threadIdx.x; j < SKETCH_REGISTERS; j += blockDim.x) local[j] = 0;
    __syncthreads();
    const u64 stride = (u64)gridDim.x * blockDim.x;
    for (u64 p = (u64)blockIdx.x * blockDim.x + threadIdx.x; p + 16 <= n; p += stride) {
        // splitmix64's finalizer
        u64 h = bases16(words, n, p) + 0x9E3779B97F4A7C15ull;
        h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
        h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
        h ^= h >> 31;
        u32 j = (u32)(h >> (64 - SKETCH_BITS));
        u32 rank = __clzll((h << SKETCH_BITS) | (1ull << (SKETCH_BITS - 1))) + 1;
        atomicMax(&local[j], rank);
    }
    __syncthreads();
    for (u32 j = threadIdx.x; j < SKETCH_REGISTERS; j += blockDim.x)
        if (local[j]) atomicMax(&regs[j], local[j]);
}

// keep[i] = 1 when element i's group (its run of equal heads) has two or more members.
extern "C" __global__ void init_keep(const u32* __restrict__ heads, u32 n, u32* __restrict__ keep) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u32 h = heads[i];
    keep[i] = (h != (u32)i) || (i + 1 < n && heads[i + 1] == h);
}

// out[idx[i]] = in[i] for kept elements; idx is the exclusive sum-scan of the keep flags
// (an element is kept when idx[i + 1] != idx[i], with idx[n] = total).
extern "C" __global__ void compact(const u32* __restrict__ in, const u32* __restrict__ idx, u32 n, u32 total,
                                   u32* __restrict__ out) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u32 a = idx[i];
    u32 b = i + 1 < n ? idx[i + 1] : total;
    if (b != a) out[a] = in[i];
}

// ---------------------------------------------------------------------------------
// Doubling rounds. The work list holds the unsorted suffixes group by group in SA order.
// A round gives each one its key rank(p + h) + 1 packed above its position (unique u64s),
// sorts every group (segment of the list) by it, by size class, then splits the groups
// into runs of equal keys. The sizes (groups up to SMALL_SEG: one thread per suffix, rank
// by counting; up to MEDIUM_SEG: a bitonic sort in shared memory, one block of
// MEDIUM_THREADS per group; MEDIUM_TILE list elements scanned for group starts by one
// medium-sort block) are src/gpu/tuning.rs's.


// packed[i] = (rank of p + h, plus one; 0 past the end) << 32 | p for the position p in
// pos_heads[i], which is replaced by p's group head: carried[i] when the previous round
// left the heads there, else the current rank of p. The group starts the previous round
// left in carried_starts (or none: 0) are copied to starts.
extern "C" __global__ void seg_keys(u32* pos_heads, const u32* __restrict__ carried,
                                    const u32* __restrict__ carried_starts, u32 m, const u32* __restrict__ isa,
                                    u32 n, u32 h, u64* __restrict__ packed, u32* __restrict__ starts) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u32 p = pos_heads[i];
    u32 next = (u64)p + h < n ? isa[p + h] + 1 : 0;
    packed[i] = ((u64)next << 32) | p;
    pos_heads[i] = carried ? carried[i] : isa[p];
    if (carried_starts) starts[i] = carried_starts[i];
}

// Where a chunk of the list that starts at group start `lo` may end at most at `hi`
// (< list length): the start of the group holding element hi, found by binary search
// (heads, the ranks of the listed elements, do not decrease along the list). `lo` itself
// when that group starts at lo: it is longer than the chunk. One thread.
extern "C" __global__ void list_cut(const u32* __restrict__ list, const u32* __restrict__ isa, u32 lo, u32 hi,
                                    u32* __restrict__ cut) {
    u32 target = isa[list[hi]];
    u32 a = lo, b = hi;
    while (a < b) {
        u32 mid = a + (b - a) / 2;
        if (isa[list[mid]] < target) a = mid + 1;
        else b = mid;
    }
    *cut = a;
}

// i where a group starts, 0 elsewhere (a max-scan then gives every element its group start).
extern "C" __global__ void seg_starts(const u32* __restrict__ heads, u32 m, u32* __restrict__ starts) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    starts[i] = (i == 0 || heads[i] != heads[i - 1]) ? (u32)i : 0;
}

// Whether the group starting at list index s has more than `size` members.
__device__ __forceinline__ bool seg_larger(const u32* __restrict__ starts, u32 m, u32 s, u32 size) {
    return (u64)s + size < m && starts[s + size] == s;
}

// flags[i] = 1 when element i belongs to a group larger than MEDIUM_SEG.
extern "C" __global__ void seg_large_flags(const u32* __restrict__ starts, u32 m, u32* __restrict__ flags) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    flags[i] = seg_larger(starts, m, starts[i], MEDIUM_SEG);
}

// Gathers the elements of large groups (idx: exclusive sum-scan of their flags) as
// radix-sort pairs: key head << bits | rank, value position; where[j] = list index.
extern "C" __global__ void seg_large_gather(const u32* __restrict__ idx, u32 m, u32 total,
                                            const u32* __restrict__ heads, const u64* __restrict__ packed, u32 bits,
                                            u64* __restrict__ keys, u32* __restrict__ vals, u32* __restrict__ where) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u32 a = idx[i];
    u32 b = i + 1 < m ? idx[i + 1] : total;
    if (a == b) return;
    u64 k = packed[i];
    keys[a] = ((u64)heads[i] << bits) | (k >> 32);
    vals[a] = (u32)k;
    where[a] = (u32)i;
}

// Puts the sorted elements of large groups back: the j-th sorted element takes the list
// slot of the j-th gathered one (groups keep their places; each is sorted inside).
extern "C" __global__ void seg_large_scatter(const u64* __restrict__ keys, const u32* __restrict__ vals,
                                             const u32* __restrict__ where, u32 count, u32 bits,
                                             u64* __restrict__ sorted) {
    u64 j = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= count) return;
    u64 rank = keys[j] & ((1ull << bits) - 1);
    sorted[where[j]] = (rank << 32) | vals[j];
}

// Groups of at most SMALL_SEG: each element's place is the number of smaller keys in its
// group (keys are unique).
extern "C" __global__ void seg_sort_small(const u64* __restrict__ packed, const u32* __restrict__ starts, u32 m,
                                          u64* __restrict__ sorted) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u32 s = starts[i];
    if (seg_larger(starts, m, s, SMALL_SEG)) return;
    u64 k = packed[i];
    u32 rank = 0;
    for (u32 j = s; j < m && starts[j] == s; j++) rank += packed[j] < k;
    sorted[s + rank] = k;
}

// Bitonic sort of buf[0, width) (a power of two) by the `lanes` threads numbered `lane`;
// `sync` orders the stages (__syncwarp for one warp, __syncthreads for a block).
#define BITONIC(buf, width, lane, lanes, sync)                                   \
    for (u32 k_ = 2; k_ <= (width); k_ <<= 1) {                                \
        for (u32 j_ = k_ >> 1; j_ > 0; j_ >>= 1) {                             \
            for (u32 t_ = (lane); t_ < (width); t_ += (lanes)) {               \
                u32 partner_ = t_ ^ j_;                                         \
                if (partner_ > t_) {                                            \
                    u64 a_ = (buf)[t_], b_ = (buf)[partner_];                   \
                    if ((a_ > b_) == ((t_ & k_) == 0)) {                        \
                        (buf)[t_] = b_;                                         \
                        (buf)[partner_] = a_;                                   \
                    }                                                           \
                }                                                               \
            }                                                                   \
            sync;                                                               \
        }                                                                       \
    }

#define MEDIUM_WARPS (MEDIUM_THREADS / 32)
#define WARP_SEG (MEDIUM_SEG / MEDIUM_WARPS) // groups up to this size: one warp each

// Groups of SMALL_SEG + 1 to MEDIUM_SEG members: block b sorts the groups that start in
// list elements [b * MEDIUM_TILE, (b + 1) * MEDIUM_TILE) by bitonic sorts in shared
// memory: groups of up to WARP_SEG a warp each, the others one after another with the
// whole block. A group's size comes from a binary search of its start in `starts`.
extern "C" __global__ void __launch_bounds__(MEDIUM_THREADS) seg_sort_medium(const u64* __restrict__ packed,
                                                                             const u32* __restrict__ starts, u32 m,
                                                                             u64* __restrict__ sorted) {
    __shared__ u64 buf[MEDIUM_SEG];
    __shared__ u32 group_at[MEDIUM_TILE / (SMALL_SEG + 1) + 1];
    __shared__ u32 group_size[MEDIUM_TILE / (SMALL_SEG + 1) + 1];
    __shared__ u32 group_count;
    const u64 base = (u64)blockIdx.x * MEDIUM_TILE;
    const u32 lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) group_count = 0;
    __syncthreads();
    for (u32 t = threadIdx.x; t < MEDIUM_TILE && base + t < m; t += MEDIUM_THREADS) {
        u32 s = (u32)(base + t);
        if (starts[s] == s && seg_larger(starts, m, s, SMALL_SEG) && !seg_larger(starts, m, s, MEDIUM_SEG)) {
            u32 lo = SMALL_SEG + 1, hi = MEDIUM_SEG; // size in [lo, hi]
            while (lo < hi) {
                u32 mid = (lo + hi + 1) >> 1;
                if (seg_larger(starts, m, s, mid - 1)) lo = mid;
                else hi = mid - 1;
            }
            u32 g = atomicAdd(&group_count, 1u);
            group_at[g] = s;
            group_size[g] = lo;
        }
    }
    __syncthreads();
    const u32 count = group_count;
    u64* slice = buf + warp * WARP_SEG;
    for (u32 g = warp; g < count; g += MEDIUM_WARPS) {
        const u32 s = group_at[g], size = group_size[g];
        if (size > WARP_SEG) continue;
        u32 width = 1;
        while (width < size) width <<= 1;
        for (u32 t = lane; t < width; t += 32) slice[t] = t < size ? packed[s + t] : ~0ull;
        __syncwarp();
        BITONIC(slice, width, lane, 32, __syncwarp());
        for (u32 t = lane; t < size; t += 32) sorted[s + t] = slice[t];
        __syncwarp();
    }
    __syncthreads();
    for (u32 g = 0; g < count; g++) {
        const u32 s = group_at[g], size = group_size[g];
        if (size <= WARP_SEG) continue;
        u32 width = 1;
        while (width < size) width <<= 1;
        for (u32 t = threadIdx.x; t < width; t += MEDIUM_THREADS) buf[t] = t < size ? packed[s + t] : ~0ull;
        __syncthreads();
        BITONIC(buf, width, threadIdx.x, MEDIUM_THREADS, __syncthreads());
        for (u32 t = threadIdx.x; t < size; t += MEDIUM_THREADS) sorted[s + t] = buf[t];
        __syncthreads();
    }
}

// After the sort, in one pass with decoupled look-back (../prims/scan.cuh): the runs of
// equal keys inside each group become the next groups. A run starts where its group does
// or its key differs from the one before; every element's rank becomes the SA index of
// its run's first element, head + (run start - group start), written to isa where it
// changed; an element alone in its run takes its SA slot (its rank); the elements of
// runs of two or more are the next list, compacted in order: positions into next_pos,
// ranks (the next heads) into next_heads and, unless next_starts is 0, the list index
// where their run starts in the next list into next_starts. Two look-back scans share
// each tile: the max of run starts (status[1 + tile]) and the count kept (status[1 +
// tiles + tile]), whose last word holds the next list's length. next_pos may be starts:
// an element kept is written at or before its own index, by a tile whose predecessors
// have loaded theirs. (Sorting the ranks' writes by address first, as init_ranks does,
// measured slower here: x3 31.5 -> 52.9 ms, x31 520 -> 548 ms on an H100; half the
// elements or more keep their rank, and the sort moves 12-byte pairs.)
// Tiles of 1,024 elements and at most 32 registers a thread: 8 blocks an SM (2,048 and
// 40 registers gave 6: the pass waits on its loads and on the look-back, ncu), 259 against
// 270 ms of x31's rounds on an H200 (BENCHMARKS.md, session 24).
#define RANK_TILE (SCAN_BLOCK_THREADS * RANK_ITEMS)
extern "C" __global__ void __launch_bounds__(SCAN_BLOCK_THREADS, 8)
    seg_rank_compact(const u64* __restrict__ sorted, const u32* __restrict__ heads, const u32* starts, u32 m,
                     u32* __restrict__ isa, u32* __restrict__ sa, u32* next_pos, u32* __restrict__ next_heads,
                     u32* __restrict__ next_starts, u64* status) {
    // Keys with one before and one after the tile, group starts with one after; then
    // reused to stage the kept elements for coalesced writes.
    __shared__ u32 key_s[PAD(RANK_TILE + 2)];
    __shared__ u32 start_s[PAD(RANK_TILE + 1)];
    __shared__ u32 pos_s[PAD(RANK_TILE)];
    __shared__ u32 head_s[PAD(RANK_TILE)];
    __shared__ u32 warp_tot[SCAN_BLOCK_WARPS];
    __shared__ u32 incl_max[SCAN_BLOCK_THREADS], incl_sum[SCAN_BLOCK_THREADS];
    __shared__ u32 tile_s, max_before_s, sum_before_s;
    const u32 tiles = (m + RANK_TILE - 1) / RANK_TILE;
    if (threadIdx.x == 0) tile_s = next_tile(status);
    __syncthreads();
    const u32 tile = tile_s;
    const u64 base = (u64)tile * RANK_TILE;
    for (u32 l = threadIdx.x; l < RANK_TILE + 2; l += SCAN_BLOCK_THREADS) {
        u64 i = base + l - 1; // key_s[l] is element base + l - 1
        u64 k = (l > 0 || base > 0) && i < m ? sorted[i] : 0;
        key_s[PAD(l)] = (u32)(k >> 32);
        if (l > 0 && l <= RANK_TILE) pos_s[PAD(l - 1)] = (u32)k;
        if (l < RANK_TILE + 1) start_s[PAD(l)] = base + l < m ? starts[base + l] : 0;
        if (l < RANK_TILE) head_s[PAD(l)] = base + l < m ? heads[base + l] : 0;
    }
    __syncthreads();
    // Whether local element l (global base + l) starts a run; true past the end.
    auto run_starts = [&](u32 l) {
        u64 i = base + l;
        return i >= m || start_s[PAD(l)] == i || key_s[PAD(l + 1)] != key_s[PAD(l)];
    };
    const u32 first = threadIdx.x * RANK_ITEMS;
    u32 runs = 0, kept = 0, last_run = 0, count = 0;
    bool starts_here = run_starts(first);
#pragma unroll
    for (u32 k = 0; k < RANK_ITEMS; k++) {
        bool next_starts_run = run_starts(first + k + 1);
        if (base + first + k < m) {
            if (starts_here) {
                runs |= 1u << k;
                last_run = (u32)(base + first + k);
            }
            if (!(starts_here && next_starts_run)) {
                kept |= 1u << k;
                count++;
            }
        }
        starts_here = next_starts_run;
    }
    incl_max[threadIdx.x] = block_inclusive_scan(last_run, 1, warp_tot);
    incl_sum[threadIdx.x] = block_inclusive_scan(count, 0, warp_tot);
    __syncthreads();
    const u32 warp = threadIdx.x >> 5;
    if (warp == 0) {
        u32 before = tile_prefix(status, tile, incl_max[SCAN_BLOCK_THREADS - 1], 1);
        if (threadIdx.x == 0) max_before_s = before;
    } else if (warp == 1) {
        u32 before = tile_prefix(status + tiles, tile, incl_sum[SCAN_BLOCK_THREADS - 1], 0);
        if (threadIdx.x == 32) sum_before_s = before;
    }
    __syncthreads();
    u32 run = max(max_before_s, threadIdx.x ? incl_max[threadIdx.x - 1] : 0);
    u32 local = threadIdx.x ? incl_sum[threadIdx.x - 1] : 0;
    const u32 kept_before = sum_before_s;
    u32 out_pos[RANK_ITEMS], out_head[RANK_ITEMS], out_start[RANK_ITEMS];
#pragma unroll
    for (u32 k = 0; k < RANK_ITEMS; k++) {
        u32 l = first + k;
        u32 i = (u32)(base + l);
        if (runs >> k & 1) run = i;
        u32 p = pos_s[PAD(l)], head = head_s[PAD(l)];
        u32 rank = head + (run - start_s[PAD(l)]);
        out_pos[k] = p;
        out_head[k] = rank;
        out_start[k] = run;
        if (base + l >= m) continue;
        if (rank != head) isa[p] = rank;
        if (!(kept >> k & 1)) sa[rank] = p;
    }
    __syncthreads();
    // Stage the kept elements in list order, then write them out coalesced.
#pragma unroll
    for (u32 k = 0; k < RANK_ITEMS; k++) {
        if (!(kept >> k & 1)) continue;
        u32 i = (u32)(base + first + k);
        u32 at = kept_before + local;
        pos_s[PAD(local)] = out_pos[k];
        head_s[PAD(local)] = out_head[k];
        start_s[PAD(local)] = at - (i - out_start[k]);
        local++;
    }
    __syncthreads();
    const u32 total = incl_sum[SCAN_BLOCK_THREADS - 1];
    for (u32 l = threadIdx.x; l < total; l += SCAN_BLOCK_THREADS) {
        next_pos[kept_before + l] = pos_s[PAD(l)];
        next_heads[kept_before + l] = head_s[PAD(l)];
        if (next_starts) next_starts[kept_before + l] = start_s[PAD(l)];
    }
}

// Fallback when most elements are in large groups: the whole list as radix-sort pairs
// (key head << bits | rank, value position) ...
extern "C" __global__ void seg_whole_keys(const u64* __restrict__ packed, const u32* __restrict__ heads, u32 m,
                                          u32 bits, u64* __restrict__ keys, u32* __restrict__ vals) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u64 k = packed[i];
    keys[i] = ((u64)heads[i] << bits) | (k >> 32);
    vals[i] = (u32)k;
}

// ... and back after the sort (in place where sorted aliases keys or heads aliases vals).
extern "C" __global__ void seg_whole_unpack(const u64* keys, const u32* vals, u32 m, u32 bits, u64* sorted,
                                            u32* heads) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u64 k = keys[i];
    u32 v = vals[i];
    sorted[i] = ((k & ((1ull << bits) - 1)) << 32) | v;
    heads[i] = (u32)(k >> bits);
}
