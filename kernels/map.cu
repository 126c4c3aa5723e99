// Exact search and locate of reads on the GPU (host side: src/gpu/map.rs).
//
// Index layout as in docs/FORMAT.md: interleaved BWT/Occ blocks of 8 u64 (A|C counts,
// G|T counts before the block, then 192 2-bit symbols, most significant first); the
// sentinel's row (primary) is stored as A and excluded from A's counts; sampled SA as
// marks (bit row%64 of word row/64), ranks per 512 rows, positions in row order.
//
// Packed reads: `meta[2 i]` = first word of read i in `words`, `meta[2 i + 1]` = its
// length, bit 31 set when the read is not searchable (a non-ACGT base, or empty). Bases
// are 2-bit, 16 to a u32, base j at bits 2 (j % 16).
//
// Work item t (< 2 n) is read t % n on strand t / n (0 forward, 1 reverse complement),
// so each warp searches one strand. Rows and positions are u32 (the index has < 2^32 rows).
//
// As on the CPU (FmIndex::occurrences), backward search stops once the interval is one
// row: that row is located and the rest of the pattern compared with the text (2-bit,
// 32 bases to a u64, most significant first). Such an item is marked DIRECT in `lo`,
// its position (if it matches) kept in `direct`.

typedef unsigned int u32;
typedef unsigned long long u64;

#define ROWS_PER_BLOCK 192u
#define LOW_BITS 0x5555555555555555ull
#define NOT_SEARCHABLE 0x80000000u
#define DIRECT 0xFFFFFFFFu

// Loads one 64-byte BWT/Occ block.
__device__ __forceinline__ void load_block(const u64* __restrict__ occ, u32 b, u64 (&w)[8]) {
    const ulonglong2* p = reinterpret_cast<const ulonglong2*>(occ + (u64)b * 8);
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        ulonglong2 v = __ldg(p + i);
        w[2 * i] = v.x;
        w[2 * i + 1] = v.y;
    }
}

// Occurrences of symbol s in the block's rows before r (0..192), plus all before the block.
// The sentinel correction is the caller's.
__device__ __forceinline__ u32 rank_in_block(const u64 (&w)[8], u32 s, u32 r) {
    u64 header = s < 2 ? w[0] : w[1];
    u32 count = (s & 1) ? (u32)(header >> 32) : (u32)header;
    u64 pattern = LOW_BITS * s;
#pragma unroll
    for (int j = 0; j < 6; ++j) {
        int left = (int)r - 32 * j;
        u64 mask = left >= 32 ? ~0ull : (left <= 0 ? 0ull : ~(~0ull >> (2 * left)));
        u64 x = w[2 + j] ^ pattern; // 00 exactly where the symbol is s
        count += __popcll(~(x | (x >> 1)) & LOW_BITS & mask);
    }
    return count;
}

// The BWT symbol at offset r of a block.
__device__ __forceinline__ u32 symbol_in_block(const u64 (&w)[8], u32 r) {
    u64 word = 0;
#pragma unroll
    for (int j = 0; j < 6; ++j) {
        if (r / 32 == (u32)j) word = w[2 + j];
    }
    return (u32)(word >> (62 - 2 * (r % 32))) & 3;
}

__device__ __forceinline__ u32 pick(u32 s, u32 c0, u32 c1, u32 c2, u32 c3) {
    return s == 0 ? c0 : (s == 1 ? c1 : (s == 2 ? c2 : c3));
}

// The 2-bit code of base j of a read.
__device__ __forceinline__ u32 base_at(const u32* __restrict__ words, u32 j) {
    return (__ldg(words + (j >> 4)) >> (2 * (j & 15))) & 3;
}

// The text position of `row`: LF steps to a sampled row.
__device__ __forceinline__ u32 locate_row(u32 row, const u64* __restrict__ occ, u32 c0, u32 c1,
                                          u32 c2, u32 c3, u32 primary,
                                          const u64* __restrict__ sa_bits,
                                          const u32* __restrict__ sa_ranks,
                                          const u32* __restrict__ sa_positions, u32 rate,
                                          u32 rows) {
    // A sampled row is at most rate - 1 LF steps away; where the marks lie (a forged
    // index) the walk stops after rate steps at the text's length, as the CPU's does.
    for (u32 steps = 0; steps < rate; ++steps) {
        u64 word = __ldg(sa_bits + row / 64);
        if ((word >> (row % 64)) & 1) {
            u32 block = row / 512;
            u32 rank = __ldg(sa_ranks + block);
            for (u32 j = block * 8; j < row / 64; ++j) rank += __popcll(__ldg(sa_bits + j));
            rank += __popcll(word & ((1ull << (row % 64)) - 1));
            return __ldg(sa_positions + rank) + steps;
        }
        u64 w[8];
        u32 b_row = row / ROWS_PER_BLOCK, r = row - b_row * ROWS_PER_BLOCK;
        load_block(occ, b_row, w);
        u32 s = symbol_in_block(w, r);
        u32 count = rank_in_block(w, s, r);
        if (s == 0) count -= primary < row;
        row = pick(s, c0, c1, c2, c3) + count;
    }
    return rows - 1;
}

// Backward search of every read-strand from the k-mer jump table. Writes the interval's
// first row to lo[t] (or DIRECT, the position to direct[t]) and its size to size[t]; size[2 n] = 0 so that an exclusive scan of
// size gives output offsets and, last, the total. Adds all sizes to *total (64-bit, so
// that the host sees a batch whose positions overflow the 32-bit offsets).
extern "C" __global__ void map_search(const u32* __restrict__ meta, const u32* __restrict__ words,
                                      u32 n, const u64* __restrict__ occ,
                                      const u32* __restrict__ jump, u32 k, u32 c0, u32 c1,
                                      u32 c2, u32 c3, u32 rows, u32 primary,
                                      const u64* __restrict__ text,
                                      const u64* __restrict__ sa_bits,
                                      const u32* __restrict__ sa_ranks,
                                      const u32* __restrict__ sa_positions, u32 rate,
                                      u32* __restrict__ lo_out, u32* __restrict__ direct_out,
                                      u32* __restrict__ size_out, u64* __restrict__ total) {
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t == 0) size_out[2 * n] = 0;
    u32 strand = t >= n;
    u32 read = t - strand * n;
    u32 len = t < 2 * n ? __ldg(meta + 2 * read + 1) : NOT_SEARCHABLE;
    u32 lo = 0, hi = 0, size = 0, direct = 0;
    bool is_direct = false;
    if (!(len & NOT_SEARCHABLE)) {
        const u32* seq = words + __ldg(meta + 2 * read);
        // Pattern symbol i: the read's base i (forward) or the complement of base len-1-i.
        auto sym = [&](u32 i) -> u32 {
            return strand ? 3 - base_at(seq, len - 1 - i) : base_at(seq, i);
        };
        u32 i;
        if (len >= k) {
            u32 code = 0;
            for (u32 j = len - k; j < len; ++j) code = code << 2 | sym(j);
            lo = __ldg(jump + 2 * code);
            hi = __ldg(jump + 2 * code + 1);
            i = len - k;
        } else {
            hi = rows;
            i = len;
        }
        while (i > 0 && hi > lo + 1) {
            --i;
            u32 s = sym(i);
            u32 cs = pick(s, c0, c1, c2, c3);
            u64 w[8];
            u32 b_lo = lo / ROWS_PER_BLOCK, b_hi = hi / ROWS_PER_BLOCK;
            load_block(occ, b_lo, w);
            u32 r_lo = rank_in_block(w, s, lo - b_lo * ROWS_PER_BLOCK);
            u32 r_hi;
            if (b_hi == b_lo) {
                r_hi = rank_in_block(w, s, hi - b_lo * ROWS_PER_BLOCK);
            } else {
                u64 v[8];
                load_block(occ, b_hi, v);
                r_hi = rank_in_block(v, s, hi - b_hi * ROWS_PER_BLOCK);
            }
            if (s == 0) {
                r_lo -= primary < lo;
                r_hi -= primary < hi;
            }
            lo = cs + r_lo;
            hi = cs + r_hi;
        }
        if (hi > lo && i == 0) {
            size = hi - lo;
        } else if (hi > lo) {
            // One row, i symbols left: locate it and compare them with the text before it.
            is_direct = true;
            u32 pos = locate_row(lo, occ, c0, c1, c2, c3, primary, sa_bits, sa_ranks, sa_positions, rate, rows);
            if (pos >= i) {
                u32 q = pos - i;
                bool same = true;
                for (u32 j = 0; j < i && same; ++j) {
                    u32 p = q + j;
                    same = ((__ldg(text + p / 32) >> (62 - 2 * (p % 32))) & 3) == sym(j);
                }
                if (same) {
                    size = 1;
                    direct = q;
                }
            }
        }
    }
    if (t < 2 * n) {
        lo_out[t] = is_direct ? DIRECT : lo;
        direct_out[t] = direct;
        size_out[t] = size;
    }
    u64 sum = size;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
    if ((threadIdx.x & 31) == 0 && sum) atomicAdd(total, sum);
}

// Locates output slot t (< total): the read-strand whose range of `offsets` (2 n + 1
// entries, an exclusive scan of the sizes) holds t, its row lo + (t - offset), then LF
// steps to a sampled row; a DIRECT item's position was found by the search. Writes the
// text position to pos[t].
extern "C" __global__ void map_locate(const u32* __restrict__ offsets, const u32* __restrict__ lo,
                                      const u32* __restrict__ direct, u32 items, u32 total,
                                      const u64* __restrict__ occ, u32 c0, u32 c1, u32 c2,
                                      u32 c3, u32 primary, const u64* __restrict__ sa_bits,
                                      const u32* __restrict__ sa_ranks,
                                      const u32* __restrict__ sa_positions, u32 rate, u32 rows,
                                      u32* __restrict__ pos) {
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total) return;
    // Last item whose offset is <= t (empty items share their successor's offset).
    u32 a = 0, b = items; // offsets[a] <= t < offsets[b]
    while (b - a > 1) {
        u32 m = (a + b) / 2;
        if (__ldg(offsets + m) <= t) a = m; else b = m;
    }
    u32 first = __ldg(lo + a);
    pos[t] = first == DIRECT
                 ? __ldg(direct + a)
                 : locate_row(first + (t - __ldg(offsets + a)), occ, c0, c1, c2, c3, primary,
                              sa_bits, sa_ranks, sa_positions, rate, rows);
}
