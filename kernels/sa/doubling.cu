// Suffix-array kernels for galign's GPU prefix-doubling builder (src/gpu/sa/doubling.rs).
//
// Text: 2-bit codes packed 32 to a u64, first base most significant, with a zero word
// after the last used one. Ranks (ISA) are group heads: the SA index of the first
// suffix of a suffix's group. The sort key of suffix p at step h is isa[p + h] + 1, or 0
// when p + h is the (implicit, smallest) sentinel.

typedef unsigned int u32;
typedef unsigned long long u64;

// The first 16 bases of every suffix as a 32-bit key, in decreasing position order
// (so that a stable sort lists shorter suffixes first among equal padded keys).
extern "C" __global__ void init_keys(const u64* __restrict__ words, u32 n, u32* __restrict__ keys,
                                     u32* __restrict__ vals) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u32 p = n - 1 - (u32)i;
    u32 w = p >> 5, s = (p & 31) * 2;
    u64 hi = words[w] << s;
    if (s) hi |= words[w + 1] >> (64 - s);
    keys[i] = (u32)(hi >> 32);
    vals[i] = p;
}

// Group starts after the initial sort: a new group begins where the key changes or
// next to a suffix shorter than 16 bases (those are always alone). Writes i at a start,
// 0 elsewhere, for a max-scan into heads.
extern "C" __global__ void init_starts(const u32* __restrict__ keys, const u32* __restrict__ vals, u32 n,
                                       u32 short_from, u32* __restrict__ starts) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    bool start = i == 0 || keys[i] != keys[i - 1] || vals[i] >= short_from || vals[i - 1] >= short_from;
    starts[i] = start ? (u32)i : 0;
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
// into runs of equal keys. Sizes must match src/gpu/sa/doubling.rs.

#define SMALL_SEG 32     // groups up to this size: one thread per suffix, rank by counting
#define MEDIUM_SEG 4096  // up to this size: bitonic sort in shared memory, one block per group
#define MEDIUM_TILE 4096 // list elements scanned for group starts by one medium-sort block
#define MEDIUM_THREADS 256

// packed[i] = (rank of p + h, plus one; 0 past the end) << 32 | p for the position p in
// pos_heads[i], which is replaced by p's group head: carried[i] when the previous round
// left the heads there, else the current rank of p.
extern "C" __global__ void seg_keys(u32* pos_heads, const u32* __restrict__ carried, u32 m,
                                    const u32* __restrict__ isa, u32 n, u32 h, u64* __restrict__ packed) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u32 p = pos_heads[i];
    u32 next = (u64)p + h < n ? isa[p + h] + 1 : 0;
    packed[i] = ((u64)next << 32) | p;
    pos_heads[i] = carried ? carried[i] : isa[p];
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

// After the sort: i where a run of equal keys starts (every group start is one), 0
// elsewhere, for a max-scan.
extern "C" __global__ void seg_run_starts(const u64* __restrict__ sorted, const u32* __restrict__ starts, u32 m,
                                          u32* __restrict__ runs) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    runs[i] = (starts[i] == i || (sorted[i] >> 32) != (sorted[i - 1] >> 32)) ? (u32)i : 0;
}

// New ranks: group head + the run's offset in the group (unchanged, so not written, for
// the first run); a suffix alone in its run takes its SA slot (head + its offset).
// heads[i] becomes the new head; keep[i] = 1 when the run has two or more members. (The
// ranks' writes sorted by address first, as init_ranks does, measured slower here: x3
// 31.5 -> 52.9 ms, x31 520 -> 548 ms on an H100; half the elements or more keep their
// rank, and the sort moves 12-byte pairs.)
extern "C" __global__ void seg_update(const u64* __restrict__ sorted, u32* __restrict__ heads,
                                      const u32* __restrict__ starts, const u32* __restrict__ runs, u32 m,
                                      u32* __restrict__ isa, u32* __restrict__ sa, u32* __restrict__ keep) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u32 p = (u32)sorted[i];
    u32 head = heads[i], start = starts[i], run = runs[i];
    u32 rank = head + (run - start);
    if (rank != head) isa[p] = rank;
    heads[i] = rank;
    bool unsorted = run != (u32)i || (i + 1 < m && runs[i + 1] == run);
    if (!unsorted) sa[head + ((u32)i - start)] = p;
    keep[i] = unsorted;
}

// The next round's list: positions (of sorted) and heads of the kept elements, at idx[i]
// (the exclusive sum-scan of the keep flags, as in `compact`).
extern "C" __global__ void seg_compact(const u64* __restrict__ sorted, const u32* __restrict__ heads,
                                       const u32* __restrict__ idx, u32 m, u32 total, u32* __restrict__ next_pos,
                                       u32* __restrict__ next_heads) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u32 a = idx[i];
    u32 b = i + 1 < m ? idx[i + 1] : total;
    if (b == a) return;
    next_pos[a] = (u32)sorted[i];
    next_heads[a] = heads[i];
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
