// Suffix-array kernels for galign's GPU prefix-doubling builder (src/gpu/sa.rs).
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

// Ranks from heads; keep[i] = 1 when suffix i's group has two or more members.
extern "C" __global__ void init_ranks(const u32* __restrict__ vals, const u32* __restrict__ heads, u32 n,
                                      u32* __restrict__ isa, u32* __restrict__ keep) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u32 h = heads[i];
    isa[vals[i]] = h;
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

// Doubling-step keys of the unsorted suffixes: (group head << bits) | rank h further on.
extern "C" __global__ void round_keys(const u32* __restrict__ pos, u32 m, const u32* __restrict__ isa, u32 n,
                                      u32 h, u32 bits, u64* __restrict__ keys) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u32 p = pos[i];
    u64 next = (u64)p + h < n ? (u64)isa[p + h] + 1 : 0;
    keys[i] = ((u64)isa[p] << bits) | next;
}

// After the sort: i at the first element of each old group (gstart) and of each run of
// equal keys (rstart), 0 elsewhere, for max-scans.
extern "C" __global__ void round_starts(const u64* __restrict__ keys, u32 m, u32 bits, u32* __restrict__ gstart,
                                        u32* __restrict__ rstart) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u64 k = keys[i];
    u64 prev = i > 0 ? keys[i - 1] : ~k;
    gstart[i] = (i == 0 || (k >> bits) != (prev >> bits)) ? (u32)i : 0;
    rstart[i] = (i == 0 || k != prev) ? (u32)i : 0;
}

// New ranks: the SA index of the run's first element (old head + offset in the group);
// the suffix's SA slot (old head + its offset) gets its position. keep[i] = 1 when the
// run has two or more members.
extern "C" __global__ void round_update(const u64* __restrict__ keys, const u32* __restrict__ pos, u32 m, u32 bits,
                                        const u32* __restrict__ gstart, const u32* __restrict__ rstart,
                                        u32* __restrict__ isa, u32* __restrict__ sa, u32* __restrict__ keep) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u64 k = keys[i];
    u32 group = (u32)(k >> bits) - gstart[i];
    u32 p = pos[i];
    isa[p] = group + rstart[i];
    sa[group + (u32)i] = p;
    keep[i] = (i > 0 && keys[i - 1] == k) || (i + 1 < m && keys[i + 1] == k);
}
