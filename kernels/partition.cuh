// Kernels of the bucket-partitioned GPU suffix sorter (src/gpu/sa/partition/), compiled
// twice: included by partition.cu (POS_BITS 32) and by partition64.cu (POS_BITS 64).
// PERIOD, KEY_BASES, GATHER_THREADS, GATHER_PER_THREAD, MAX_SHARED_BUCKET_BASES and
// MEDIUM_RUN come from src/gpu/tuning.rs as -D options.
//
// Text: the packed text of common/text.cuh. Suffixes are compared as src/sa/sample.rs does: the first
// `delta` bases, where `delta` (a table over both positions mod 256) puts both suffixes
// into the difference-cover sample, then the sample ranks of the two shifted suffixes
// (rank 0: past the end). Text positions and sample ranks are `pos_t`: u32 for texts of
// fewer than 2^32 - 2 bases, u64 past them; indexes within a part or the sample stay u32.

#include "common/types.cuh"
#include "common/text.cuh"

#ifndef POS_BITS
#error "POS_BITS (32 or 64) must be defined before partition.cuh"
#endif
#if POS_BITS == 64
typedef u64 pos_t;
#else
typedef u32 pos_t;
#endif

#define NONE 0xFFu
#define INVALID ((pos_t)~(pos_t)0)

struct Ranks {
    const u64* words;
    u64 n;
    const pos_t* ranks;  // by sample index
    const u8* delta;   // PERIOD * PERIOD
    const u8* slot;    // PERIOD: index among the cover's members, or NONE
    u32 members;       // cover size
    u32 limit;         // 0: compare by the sample ranks; else by bases only, up to `limit`
};

__device__ __forceinline__ u64 sample_rank(const Ranks& r, u64 p) {
    if (p >= r.n) return 0;
    return r.ranks[(p / PERIOD) * r.members + r.slot[p % PERIOD]];
}

// Order of the suffixes at a and b over bases [from, to): -1, 0 or 1 (a suffix that ends
// first is the smaller). Mirrors keysort::compare_bases.
__device__ int compare_bases(const Ranks& r, u64 a, u64 b, u64 from, u64 to) {
    u64 off = from;
    while (off < to) {
        u64 step = to - off < KEY_BASES ? to - off : KEY_BASES;
        u64 la = a + off < r.n ? r.n - (a + off) : 0;
        u64 lb = b + off < r.n ? r.n - (b + off) : 0;
        if (la > step) la = step;
        if (lb > step) lb = step;
        u64 m = la < lb ? la : lb;
        if (m > 0) {
            u32 shift = 64 - 2 * (u32)m;
            u64 ka = window32(r.words, a + off) >> shift;
            u64 kb = window32(r.words, b + off) >> shift;
            if (ka != kb) return ka < kb ? -1 : 1;
        }
        if (la != lb) return la < lb ? -1 : 1;
        if (la < step) return 0;
        off += step;
    }
    return 0;
}

// SampleRanks::compare_from: the first `equal` bases are known to be equal.
__device__ int compare_from(const Ranks& r, u64 a, u64 b, u64 equal) {
    u64 d = r.delta[(a % PERIOD) * PERIOD + (b % PERIOD)];
    if (d > equal) {
        int c = compare_bases(r, a, b, equal, d);
        if (c) return c;
    }
    u64 ra = sample_rank(r, a + d), rb = sample_rank(r, b + d);
    return ra < rb ? -1 : (ra > rb ? 1 : 0);
}

// Whether suffix a sorts before suffix b; INVALID is larger than every suffix. Both have
// equal 32-base padded keys (a run of the key sort); both are compared from base 32 when
// neither ends within it.
__device__ __forceinline__ bool run_less(const Ranks& r, pos_t a, pos_t b) {
    if (b == INVALID) return a != INVALID;
    if (a == INVALID) return false;
    u64 equal = (r.n - a >= KEY_BASES && r.n - b >= KEY_BASES) ? KEY_BASES : 0;
    if (r.limit) return compare_bases(r, a, b, equal, r.limit) < 0;
    return compare_from(r, a, b, equal) < 0;
}

// Every suffix of the part (bucket in [b_lo, b_hi) of `w` bases, not smaller than
// `from` when has_from, smaller than `until` when has_until) appended, with its 32-base
// key, at an atomically counted slot (the order is the sort's business). A block of
// GATHER_THREADS takes GATHER_PER_THREAD * GATHER_THREADS positions and one slot range
// for all it keeps: one atomic a block, not one a warp (a part keeps about every
// eighth position, so nearly every warp keeps some, and atomics on the one counter
// were most of the pass).
extern "C" __global__ void __launch_bounds__(GATHER_THREADS)
    part_gather(const u64* __restrict__ words, u64 n, const pos_t* __restrict__ ranks,
                const u8* __restrict__ delta, const u8* __restrict__ slot, u32 members, u32 limit, u32 w,
                u32 b_lo, u32 b_hi, u32 has_from, u64 from, u32 has_until, u64 until,
                u64* __restrict__ keys, pos_t* __restrict__ positions, u32* __restrict__ count) {
    __shared__ u32 warp_start[GATHER_THREADS / 32];
    __shared__ u32 block_start;
    const u32 lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const u64 tile = (u64)blockIdx.x * GATHER_THREADS * GATHER_PER_THREAD + threadIdx.x;
    const Ranks r = {words, n, ranks, delta, slot, members, limit};
    u64 key[GATHER_PER_THREAD];
    u32 kept[GATHER_PER_THREAD];
    u32 warp_total = 0;
#pragma unroll
    for (u32 j = 0; j < GATHER_PER_THREAD; j++) {
        const u64 p = tile + j * GATHER_THREADS;
        bool in = false;
        key[j] = 0;
        if (p < n) {
            key[j] = window32(words, p);
            const u32 bucket = (u32)(key[j] >> (64 - 2 * w));
            in = bucket >= b_lo && bucket < b_hi;
            if (in && has_from) in = compare_from(r, p, from, 0) >= 0;
            if (in && has_until) in = compare_from(r, p, until, 0) < 0;
        }
        kept[j] = __ballot_sync(0xFFFFFFFFu, in);
        warp_total += __popc(kept[j]);
    }
    if (lane == 0) warp_start[warp] = warp_total;
    __syncthreads();
    if (threadIdx.x == 0) {
        u32 total = 0;
        for (u32 v = 0; v < GATHER_THREADS / 32; v++) {
            const u32 c = warp_start[v];
            warp_start[v] = total;
            total += c;
        }
        block_start = total ? atomicAdd(count, total) : 0;
    }
    __syncthreads();
    u32 at = block_start + warp_start[warp];
    const u32 below = (1u << lane) - 1;
#pragma unroll
    for (u32 j = 0; j < GATHER_PER_THREAD; j++) {
        if (kept[j] >> lane & 1) {
            const u32 i = at + __popc(kept[j] & below);
            keys[i] = key[j];
            positions[i] = (pos_t)(tile + j * GATHER_THREADS);
        }
        at += __popc(kept[j]);
    }
}

// counts[b] += the suffixes whose first w bases (A-padded) are bucket b, for w up to
// MAX_SHARED_BUCKET_BASES: a histogram per block in shared memory, added to the global one
// at the end (the plan of the parts, src/sa/partition.rs's bucket_counts).
extern "C" __global__ void bucket_counts(const u64* __restrict__ words, u64 n, u32 w, u64* __restrict__ counts) {
    __shared__ u32 hist[1 << (2 * MAX_SHARED_BUCKET_BASES)];
    const u32 buckets = 1u << (2 * w), shift = 64 - 2 * w;
    for (u32 i = threadIdx.x; i < buckets; i += blockDim.x) hist[i] = 0;
    __syncthreads();
    for (u64 p = (u64)blockIdx.x * blockDim.x + threadIdx.x; p < n; p += (u64)gridDim.x * blockDim.x)
        atomicAdd(&hist[(u32)(window32(words, p) >> shift)], 1u);
    __syncthreads();
    for (u32 i = threadIdx.x; i < buckets; i += blockDim.x)
        if (hist[i]) atomicAdd(&counts[i], (u64)hist[i]);
}

// Whether elements i - 1 and i (0 < i < m) are in different runs: different keys, or,
// when `segments` is given, different segments (runs never cross a segment).
__device__ __forceinline__ bool new_run(const u64* __restrict__ keys, const u32* __restrict__ segments, u64 i) {
    return keys[i] != keys[i - 1] || (segments && segments[i] != segments[i - 1]);
}

// flags[i] = 1 where a run of equal keys (within a segment, when given) starts.
extern "C" __global__ void run_flags(const u64* __restrict__ keys, const u32* __restrict__ segments, u32 m,
                                     u32* __restrict__ flags) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    flags[i] = (i == 0 || new_run(keys, segments, i)) ? 1u : 0u;
}

// With idx the inclusive scan of the run flags (run r's members hold r + 1): lo[r], hi[r] =
// the bounds of run r.
extern "C" __global__ void run_bounds(const u64* __restrict__ keys, const u32* __restrict__ segments,
                                      const u32* __restrict__ idx, u32 m, u32* __restrict__ lo,
                                      u32* __restrict__ hi) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u32 r = idx[i] - 1;
    if (i == 0 || new_run(keys, segments, i)) lo[r] = (u32)i;
    if (i + 1 == m || new_run(keys, segments, i + 1)) hi[r] = (u32)i + 1;
}

// flags[r] = 1 for the runs of two or more suffixes.
extern "C" __global__ void tied_flags(const u32* __restrict__ lo, const u32* __restrict__ hi, u32 runs,
                                      u32* __restrict__ flags) {
    u64 r = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= runs) return;
    flags[r] = hi[r] - lo[r] >= 2 ? 1u : 0u;
}

// tied[idx[r]] = r for the runs flagged (idx: exclusive scan of tied_flags).
extern "C" __global__ void tied_compact(const u32* __restrict__ lo, const u32* __restrict__ hi,
                                        const u32* __restrict__ idx, u32 runs, u32* __restrict__ tied) {
    u64 r = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= runs) return;
    if (hi[r] - lo[r] >= 2) tied[idx[r]] = (u32)r;
}

// One warp per tied run: runs of up to 32 suffixes sorted by a bitonic network across
// the lanes; longer runs listed: up to MEDIUM_RUN suffixes by run in three lists of
// `medium` (`stride` apart: up to 64, 256 and MEDIUM_RUN suffixes, counted in counts[0..3]),
// the others as (start, length) pairs in `large` (counted in counts[3]).
extern "C" __global__ void sort_small_runs(const u64* __restrict__ words, u64 n, const pos_t* __restrict__ ranks,
                                           const u8* __restrict__ delta, const u8* __restrict__ slot,
                                           u32 members, u32 limit, const u32* __restrict__ tied, u32 ntied,
                                           const u32* __restrict__ lo, const u32* __restrict__ hi,
                                           pos_t* __restrict__ positions, u32* __restrict__ medium, u32 stride,
                                           u32* __restrict__ large, u32* __restrict__ counts) {
    u64 warp = ((u64)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    u32 lane = threadIdx.x & 31;
    if (warp >= ntied) return;
    u32 run = tied[warp];
    u32 start = lo[run], len = hi[run] - start;
    if (len > 32) {
        if (lane == 0) {
            if (len <= MEDIUM_RUN) {
                u32 c = len <= 64 ? 0 : (len <= 256 ? 1 : 2);
                medium[c * stride + atomicAdd(&counts[c], 1u)] = run;
            } else {
                u32 at = atomicAdd(&counts[3], 1u);
                large[2 * at] = start;
                large[2 * at + 1] = len;
            }
        }
        return;
    }
    Ranks r = {words, n, ranks, delta, slot, members, limit};
    pos_t p = lane < len ? positions[start + lane] : INVALID;
    for (u32 k = 2; k <= 32; k <<= 1) {
        for (u32 j = k >> 1; j > 0; j >>= 1) {
            pos_t other = __shfl_xor_sync(0xFFFFFFFFu, p, j);
            bool lower = (lane & j) == 0;
            bool ascending = (lane & k) == 0;
            // The lower lane of an ascending pair keeps the smaller suffix.
            bool take_other = (lower == ascending) ? run_less(r, other, p) : run_less(r, p, other);
            if (take_other) p = other;
        }
    }
    if (lane < len) positions[start + lane] = p;
}

// One block per listed run of 33..MEDIUM_RUN suffixes, of at least as many threads as
// the run has suffixes (a power of two): a bitonic sort in shared memory.
extern "C" __global__ void __launch_bounds__(MEDIUM_RUN) sort_medium_runs(
    const u64* __restrict__ words, u64 n, const pos_t* __restrict__ ranks, const u8* __restrict__ delta,
    const u8* __restrict__ slot, u32 members, u32 limit, const u32* __restrict__ medium, const u32* __restrict__ lo,
    const u32* __restrict__ hi, pos_t* __restrict__ positions) {
    __shared__ pos_t tile[MEDIUM_RUN];
    u32 run = medium[blockIdx.x];
    u32 start = lo[run], len = hi[run] - start;
    u32 t = threadIdx.x;
    tile[t] = t < len ? positions[start + t] : INVALID;  // every t < size = blockDim.x
    __syncthreads();
    Ranks r = {words, n, ranks, delta, slot, members, limit};
    u32 size = blockDim.x;
    for (u32 k = 2; k <= size; k <<= 1) {
        for (u32 j = k >> 1; j > 0; j >>= 1) {
            u32 other = t ^ j;
            if (t < size && other > t) {
                pos_t a = tile[t], b = tile[other];
                bool ascending = (t & k) == 0;
                if (ascending ? run_less(r, b, a) : run_less(r, a, b)) {
                    tile[t] = b;
                    tile[other] = a;
                }
            }
            __syncthreads();
        }
    }
    if (t < len) positions[start + t] = tile[t];
}

// ---------------------------------------------------------------------------------
// Long runs (src/gpu/runs.rs): runs of equal keys too long for one block, sorted on the
// device by the next 32 bases, a round per 32, as segments of one array.

// One block per run r (start, length pairs in runs): its positions copied to members from
// offsets[r], each tagged with r in segments.
extern "C" __global__ void run_members(const pos_t* __restrict__ positions, const u32* __restrict__ runs,
                                       const u32* __restrict__ offsets, pos_t* __restrict__ members,
                                       u32* __restrict__ segments) {
    u32 r = blockIdx.x;
    u32 start = runs[2 * r], len = runs[2 * r + 1], at = offsets[r];
    for (u32 j = threadIdx.x; j < len; j += blockDim.x) {
        members[at + j] = positions[start + j];
        segments[at + j] = r;
    }
}

// The inverse of run_members: each run's members copied back to its place in positions.
extern "C" __global__ void put_run_members(const pos_t* __restrict__ members, const u32* __restrict__ runs,
                                           const u32* __restrict__ offsets, pos_t* __restrict__ positions) {
    u32 r = blockIdx.x;
    u32 start = runs[2 * r], len = runs[2 * r + 1], at = offsets[r];
    for (u32 j = threadIdx.x; j < len; j += blockDim.x) positions[start + j] = members[at + j];
}

// keys[i] = the 32 bases from members[i] + offset (A-padded; 0 past the text), and with
// order, when given, order[i] = i.
extern "C" __global__ void offset_keys(const u64* __restrict__ words, u64 n, const pos_t* __restrict__ members,
                                       u32 t, u32 offset, u64* __restrict__ keys, u32* __restrict__ order) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= t) return;
    u64 p = (u64)members[i] + offset;
    keys[i] = p < n ? window32(words, p) : 0;
    if (order) order[i] = (u32)i;
}

// out[i] = in[order[i]] for the u32 or pos_t arrays given (either may be null).
extern "C" __global__ void permute(const u32* __restrict__ order, u32 t, const u32* __restrict__ in32,
                                   u32* __restrict__ out32, const pos_t* __restrict__ in_pos,
                                   pos_t* __restrict__ out_pos) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= t) return;
    u32 from = order[i];
    if (in32) out32[i] = in32[from];
    if (in_pos) out_pos[i] = in_pos[from];
}

// ---------------------------------------------------------------------------------
// Sample ranks (src/gpu/sample.rs): the sampled suffixes sorted on their first PERIOD
// bases, then by prefix doubling over the sample.

// Sampled suffix i (in text order) with its 32-base key: position (i / count) * PERIOD +
// member[i % count].
extern "C" __global__ void sample_keys(const u64* __restrict__ words, const u32* __restrict__ member, u32 count,
                                       u32 m, u64* __restrict__ keys, pos_t* __restrict__ positions) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u64 p = (i / count) * PERIOD + member[i % count];
    keys[i] = window32(words, p);
    positions[i] = (pos_t)p;
}

// After the sort on PERIOD bases: starts[i] = i where a group of equal PERIOD-base
// prefixes starts (0 elsewhere, for a max-scan into heads), and each suffix's sample
// index.
extern "C" __global__ void sample_starts(const u64* __restrict__ words, u64 n, const pos_t* __restrict__ positions,
                                         u32 m, const u8* __restrict__ slot, u32 count, u32* __restrict__ starts,
                                         u32* __restrict__ index) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    u64 p = positions[i];
    Ranks r = {words, n, 0, 0, slot, count, PERIOD};
    bool start = i == 0 || compare_bases(r, positions[i - 1], p, 0, PERIOD) != 0;
    starts[i] = start ? (u32)i : 0;
    index[i] = (u32)((p / PERIOD) * count + slot[p % PERIOD]);
}

#define NO_KMER 0xFFFFFFFFu

// The k-mer (k <= 16) at the start of the suffix at p; NO_KMER where fewer than k bases
// follow (p >= full).
__device__ __forceinline__ u32 kmer_at(const u64* __restrict__ words, u64 p, u64 full, u32 k) {
    return p < full ? (u32)(window32(words, p) >> (64 - 2 * k)) : NO_KMER;
}

// The FM rows of a sorted part (runs longer than MEDIUM_RUN still unsorted; the CPU
// redoes their rows): per row the BWT symbol (the base before the suffix; A for the
// suffix at 0, whose row goes to *primary) with bit 2 set where the position is a
// multiple of rate, as src/fm/builder.rs's Rows; and 1 in sampled[i] for those rows.
// Also the part's rows added to kmer_counts by the k-mer they start with (the jump
// table's counts; suffixes shorter than k left out): the first row of each run of one
// k-mer subtracts its index, the last adds its index + 1 (neighbours by warp shuffles),
// so a run unsorted within one 32-base key still counts right.
extern "C" __global__ void part_rows(const u64* __restrict__ words, const pos_t* __restrict__ positions, u32 m,
                                     u32 rate, u32 k, u64 full, u8* __restrict__ flags,
                                     u32* __restrict__ sampled, u32* __restrict__ primary,
                                     pos_t* __restrict__ kmer_counts) {
    const u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    const bool live = i < m;
    const u32 lane = threadIdx.x & 31;
    const pos_t p = live ? positions[i] : 0;
    const u32 x = live ? kmer_at(words, p, full, k) : NO_KMER;
    u32 before = __shfl_up_sync(0xFFFFFFFFu, x, 1), after = __shfl_down_sync(0xFFFFFFFFu, x, 1);
    if (lane == 0) before = live && i > 0 ? kmer_at(words, positions[i - 1], full, k) : NO_KMER;
    if (lane == 31) after = i + 1 < m ? kmer_at(words, positions[i + 1], full, k) : NO_KMER;
    if (x != NO_KMER) {
        if (before != x) atomicAdd(&kmer_counts[x], (pos_t)0 - (pos_t)i);
        if (after != x) atomicAdd(&kmer_counts[x], (pos_t)i + 1);
    }
    if (!live) return;
    u32 f = 0;
    if (p == 0) {
        *primary = (u32)i;
    } else {
        pos_t q = p - 1;
        f = base_at(words, q);
    }
    u32 s = p % rate == 0;
    flags[i] = (u8)(f | (s << 2));
    sampled[i] = s;
}

// The positions of the sampled rows in row order; before[i]: sampled rows before row i.
extern "C" __global__ void part_sampled(const pos_t* __restrict__ positions, const u8* __restrict__ flags,
                                        const u32* __restrict__ before, u32 m, pos_t* __restrict__ out) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    if (flags[i] & 4) out[before[i]] = positions[i];
}

// One block per listed run (start, length pairs): its positions copied to out from
// offsets[run], and the sampled rows before its start (before[]) to sampled_before[run].
extern "C" __global__ void gather_runs(const pos_t* __restrict__ positions, const u32* __restrict__ runs,
                                       const u32* __restrict__ offsets, const u32* __restrict__ before,
                                       pos_t* __restrict__ out, u32* __restrict__ sampled_before) {
    u32 r = blockIdx.x;
    u32 start = runs[2 * r], len = runs[2 * r + 1], at = offsets[r];
    for (u32 j = threadIdx.x; j < len; j += blockDim.x) out[at + j] = positions[start + j];
    if (threadIdx.x == 0) sampled_before[r] = before[start];
}

// Every stride-th position from first: out[i] = positions[first + i * stride], i < count
// (the rows of bwa's sampled suffix array among a part's).
extern "C" __global__ void strided_positions(const pos_t* __restrict__ positions, u64 first, u32 stride,
                                             u64 count, pos_t* __restrict__ out) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    out[i] = positions[first + i * stride];
}
