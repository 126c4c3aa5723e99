// Exact search and locate of reads on the GPU (host side: src/gpu/map.rs), for an index
// of 32-bit or 64-bit positions: included after `#define POS_BITS 32` (kernels/map.cu)
// or `#define POS_BITS 64` (kernels/map64.cu), which picks pos_t. ROWS_PER_BLOCK (the
// Occ layout) and NOT_SEARCHABLE come from src/gpu/tuning.rs as -D options.
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
// so each warp searches one strand. Rows, text positions, C, the jump table and the
// sampled SA (ranks and positions) are pos_t, the index's width (docs/FORMAT.md); the
// Occ headers count 32 bits a base, so a symbol's count in any rows is a u32.
//
// As on the CPU (FmIndex::occurrences), backward search stops once the interval is one
// row: that row is located and the rest of the pattern compared with the text (the
// packed text of common/text.cuh). Such an item is marked DIRECT in `lo`,
// its position (if it matches) kept in `direct`.

#include "common/types.cuh"
#include "common/text.cuh"

#ifndef POS_BITS
#error "POS_BITS (32 or 64) must be defined before map.cuh"
#endif
#if POS_BITS == 64
typedef u64 pos_t; // a row or text position (texts past 2^32 - 3 bases)
#else
typedef u32 pos_t; // a row or text position (the index has < 2^32 - 1 rows)
#endif

#define LOW_BITS 0x5555555555555555ull
#define DIRECT (~(pos_t)0) // no row: rows < DIRECT

// Loads one 64-byte BWT/Occ block.
__device__ __forceinline__ void load_block(const u64* __restrict__ occ, pos_t b, u64 (&w)[8]) {
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

__device__ __forceinline__ pos_t pick(u32 s, pos_t c0, pos_t c1, pos_t c2, pos_t c3) {
    return s == 0 ? c0 : (s == 1 ? c1 : (s == 2 ? c2 : c3));
}

// The 2-bit code of base j of a read (reads are packed least significant first, 16 to a
// u32, by src/gpu/map.rs: not the text's layout).
__device__ __forceinline__ u32 read_base(const u32* __restrict__ words, u32 j) {
    return (__ldg(words + (j >> 4)) >> (2 * (j & 15))) & 3;
}

// The text position of `row`: LF steps to a sampled row.
__device__ __forceinline__ pos_t locate_row(pos_t row, const u64* __restrict__ occ, pos_t c0,
                                            pos_t c1, pos_t c2, pos_t c3, pos_t primary,
                                            const u64* __restrict__ sa_bits,
                                            const pos_t* __restrict__ sa_ranks,
                                            const pos_t* __restrict__ sa_positions, u32 rate,
                                            pos_t rows) {
    // A sampled row is at most rate - 1 LF steps away; where the marks lie (a forged
    // index) the walk stops after rate steps at the text's length, as the CPU's does.
    for (u32 steps = 0; steps < rate; ++steps) {
        u64 word = __ldg(sa_bits + row / 64);
        if ((word >> (row % 64)) & 1) {
            pos_t block = row / 512;
            pos_t rank = __ldg(sa_ranks + block);
            for (pos_t j = block * 8; j < row / 64; ++j) rank += __popcll(__ldg(sa_bits + j));
            rank += __popcll(word & ((1ull << (row % 64)) - 1));
            return __ldg(sa_positions + rank) + steps;
        }
        u64 w[8];
        pos_t b_row = row / ROWS_PER_BLOCK;
        u32 r = (u32)(row - b_row * ROWS_PER_BLOCK);
        load_block(occ, b_row, w);
        u32 s = symbol_in_block(w, r);
        u32 count = rank_in_block(w, s, r);
        if (s == 0) count -= primary < row;
        row = pick(s, c0, c1, c2, c3) + count;
    }
    return rows - 1;
}

// Backward search of every read-strand from the k-mer jump table. Writes the interval's
// first row to lo[t] (or DIRECT, the position to direct[t]) and its size to size[t]
// (cut to 32 bits); size[2 n] = 0 so that an exclusive scan of size gives output
// offsets and, last, the total. Adds all sizes, whole, to *total (64-bit, so that the
// host sees a batch whose positions overflow the 32-bit offsets, and uses the offsets
// only when they do not).
extern "C" __global__ void map_search(const u32* __restrict__ meta, const u32* __restrict__ words,
                                      u32 n, const u64* __restrict__ occ,
                                      const pos_t* __restrict__ jump, u32 k,
                                      const u32* __restrict__ shorts, u32 nshort, pos_t c0,
                                      pos_t c1, pos_t c2, pos_t c3, pos_t rows, pos_t primary,
                                      const u64* __restrict__ text,
                                      const u64* __restrict__ sa_bits,
                                      const pos_t* __restrict__ sa_ranks,
                                      const pos_t* __restrict__ sa_positions, u32 rate,
                                      pos_t* __restrict__ lo_out, pos_t* __restrict__ direct_out,
                                      u32* __restrict__ size_out, u64* __restrict__ total) {
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t == 0) size_out[2 * n] = 0;
    u32 strand = t >= n;
    u32 read = t - strand * n;
    u32 len = t < 2 * n ? __ldg(meta + 2 * read + 1) : NOT_SEARCHABLE;
    pos_t lo = 0, hi = 0, size = 0, direct = 0;
    bool is_direct = false;
    if (!(len & NOT_SEARCHABLE)) {
        const u32* seq = words + __ldg(meta + 2 * read);
        // Pattern symbol i: the read's base i (forward) or the complement of base len-1-i.
        auto sym = [&](u32 i) -> u32 {
            return strand ? 3 - read_base(seq, len - 1 - i) : read_base(seq, i);
        };
        u32 i;
        if (len >= k) {
            u32 code = 0;
            for (u32 j = len - k; j < len; ++j) code = code << 2 | sym(j);
            // K-mer code's rows end where code + 1's start, less the suffixes shorter
            // than k that sort between them (src/fm/jump.rs).
            lo = __ldg(jump + code);
            hi = __ldg(jump + code + 1);
            for (u32 j = 0; j < nshort; ++j) hi -= __ldg(shorts + j) == code + 1;
            i = len - k;
        } else {
            hi = rows;
            i = len;
        }
        while (i > 0 && hi > lo + 1) {
            --i;
            u32 s = sym(i);
            pos_t cs = pick(s, c0, c1, c2, c3);
            u64 w[8];
            pos_t b_lo = lo / ROWS_PER_BLOCK, b_hi = hi / ROWS_PER_BLOCK;
            load_block(occ, b_lo, w);
            u32 r_lo = rank_in_block(w, s, (u32)(lo - b_lo * ROWS_PER_BLOCK));
            u32 r_hi;
            if (b_hi == b_lo) {
                r_hi = rank_in_block(w, s, (u32)(hi - b_lo * ROWS_PER_BLOCK));
            } else {
                u64 v[8];
                load_block(occ, b_hi, v);
                r_hi = rank_in_block(v, s, (u32)(hi - b_hi * ROWS_PER_BLOCK));
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
            pos_t pos = locate_row(lo, occ, c0, c1, c2, c3, primary, sa_bits, sa_ranks,
                                   sa_positions, rate, rows);
            if (pos >= i) {
                pos_t q = pos - i;
                bool same = true;
                for (u32 j = 0; j < i && same; ++j) {
                    pos_t p = q + j;
                    same = base_at(text, p) == sym(j);
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
        size_out[t] = (u32)size;
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
extern "C" __global__ void map_locate(const u32* __restrict__ offsets,
                                      const pos_t* __restrict__ lo,
                                      const pos_t* __restrict__ direct, u32 items, u32 total,
                                      const u64* __restrict__ occ, pos_t c0, pos_t c1, pos_t c2,
                                      pos_t c3, pos_t primary, const u64* __restrict__ sa_bits,
                                      const pos_t* __restrict__ sa_ranks,
                                      const pos_t* __restrict__ sa_positions, u32 rate,
                                      pos_t rows, pos_t* __restrict__ pos) {
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= total) return;
    // Last item whose offset is <= t (empty items share their successor's offset).
    u32 a = 0, b = items; // offsets[a] <= t < offsets[b]
    while (b - a > 1) {
        u32 m = (a + b) / 2;
        if (__ldg(offsets + m) <= t) a = m; else b = m;
    }
    pos_t first = __ldg(lo + a);
    pos[t] = first == DIRECT
                 ? __ldg(direct + a)
                 : locate_row(first + (t - __ldg(offsets + a)), occ, c0, c1, c2, c3, primary,
                              sa_bits, sa_ranks, sa_positions, rate, rows);
}

// ---------------------------------------------------------------------------------------
// k-mismatch search (map -v K, K > 0; host side: src/gpu/map/mismatch.rs): the search
// schemes of src/search/schemes.rs walked breadth first over the bidirectional index, as
// src/search/mismatch.rs walks them depth first on the CPU.
//
// Packed reads as above, but 4 bits a base (8 to a u32, base j at bits 4 (j % 8); code 4
// for a non-ACGT base, which mismatches every base); the length word holds the length in
// bits 0..27 and the read's scheme (0..2) in bits 28..29, or is NOT_SEARCHABLE.
//
// Scheme table: 3 schemes x SEARCH_SLOTS searches x SEARCH_WORDS words (pieces, order[4],
// lower[4], upper[4]), then the number of searches of each scheme (SEARCH_SLOTS,
// SEARCH_WORDS and MM_SCHEME_SHIFT from src/gpu/tuning.rs as -D options).
//
// Work item (Item): read-strand t (read t % n, strand t / n as above), search |
// mismatches << 4 | step << 6 (search = scheme * SEARCH_SLOTS + its index in the scheme;
// step = the read positions matched), then forward first row, mirror first row, rows.

#define MM_LEN_MASK ((1u << MM_SCHEME_SHIFT) - 1)
#define SCHEME_COUNTS (3u * SEARCH_SLOTS * SEARCH_WORDS)
#define FULL_MASK 0xffffffffu

// Code of base j of a read packed 4 bits a base.
__device__ __forceinline__ u32 code_at(const u32* __restrict__ words, u32 j) {
    return (__ldg(words + (j >> 3)) >> (4 * (j & 7))) & 15;
}

// Code i of a read-strand: the read's code i (forward) or the complement of code
// len - 1 - i (a non-ACGT code stays itself), as reverse_complement_codes.
__device__ __forceinline__ u32 strand_code(const u32* __restrict__ seq, u32 len, u32 strand,
                                           u32 i) {
    if (!strand) return code_at(seq, i);
    u32 c = code_at(seq, len - 1 - i);
    return c < 4 ? 3 - c : c;
}

// Reserves `mine` slots at *count for each lane of the warp (every lane calls it) with
// one atomic per warp; returns this lane's first slot.
__device__ __forceinline__ u32 warp_append(u32 mine, u32* count) {
    u32 lane = threadIdx.x & 31;
    u32 incl = mine;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        u32 v = __shfl_up_sync(FULL_MASK, incl, o);
        if (lane >= (u32)o) incl += v;
    }
    u32 total = __shfl_sync(FULL_MASK, incl, 31);
    u32 base = 0;
    if (lane == 31 && total) base = atomicAdd(count, total);
    base = __shfl_sync(FULL_MASK, base, 31);
    return base + incl - mine;
}

// Occurrences of each base in rows before `row` (Occ::occ_all: the sentinel's row,
// stored as A, not counted).
__device__ __forceinline__ void occ_all(const u64* __restrict__ occ, pos_t primary, pos_t row,
                                        u32 (&out)[4]) {
    u64 w[8];
    pos_t b = row / ROWS_PER_BLOCK;
    load_block(occ, b, w);
    u32 r = (u32)(row - b * ROWS_PER_BLOCK);
#pragma unroll
    for (u32 s = 0; s < 4; ++s) out[s] = rank_in_block(w, s, r);
    out[0] -= primary < row;
}

// One step of a search (schemes::Step), as schemes::plan computes it.
struct Step {
    u32 pos, right, lower, upper, first;
};

// Step `step` (< len) of `search` (its table words) over a read of `len` bases: piece i
// is [i len / p, (i + 1) len / p) of p pieces; the first piece is matched right to left,
// each next piece from the side it touches (schemes::plan).
__device__ Step plan_step(const u32* __restrict__ search, u32 len, u32 step) {
    u32 pieces = __ldg(search);
    u32 first = 0, end = 0;
    Step out = {0, 0, 0, 0, 0};
    for (u32 j = 0; j < pieces; ++j) {
        u32 piece = __ldg(search + 1 + j);
        u32 start = piece * len / pieces, stop = (piece + 1) * len / pieces;
        u32 right = j > 0 && start == end;
        if (j == 0) {
            first = stop;
            end = stop;
        }
        if (step < stop - start) {
            u32 pos = right ? start + step : stop - 1 - step;
            if (right) end = pos + 1; else first = pos;
            out.pos = pos;
            out.right = right;
            out.lower = pos == (right ? stop - 1 : start) ? __ldg(search + 1 + SEARCH_SLOTS + j) : 0;
            out.upper = __ldg(search + 1 + 2 * SEARCH_SLOTS + j);
            out.first = first;
            return out;
        }
        step -= stop - start;
        if (right) end = stop; else first = start;
    }
    return out;
}

// Mismatches between read-strand codes and the text at `start`, counting stops once
// `limit` is passed (limit + 1 then); a read past the text's end never matches
// (mismatch::mismatches_at).
__device__ u32 mismatches_at(const u64* __restrict__ text, pos_t text_len, pos_t start,
                             const u32* __restrict__ seq, u32 len, u32 strand, u32 limit) {
    if ((u64)start + len > text_len) return limit + 1;
    u32 found = 0;
    for (u32 j = 0; j < len; ++j) {
        pos_t p = start + j;
        if (base_at(text, p) != strand_code(seq, len, strand, j) && ++found > limit) break;
    }
    return found;
}

struct Item {
    u32 t, m;
    pos_t lo, mlo, size;
};

__device__ __forceinline__ void put_item(Item* __restrict__ at, u32 t, pos_t lo, pos_t mlo,
                                         pos_t size, u32 search, u32 errors, u32 step) {
    at->t = t;
    at->m = search | errors << 4 | step << 6;
    at->lo = lo;
    at->mlo = mlo;
    at->size = size;
}

// One item per search of the scheme of every searchable read-strand t < 2 n: step 0, no
// mismatches, the interval of the empty string (every row, in both indexes). Appended
// to `stack` at count[0].
extern "C" __global__ void mm_seed(const u32* __restrict__ meta, u32 n,
                                   const u32* __restrict__ schemes, pos_t rows,
                                   Item* __restrict__ stack, u32* count) {
    u32 t = blockIdx.x * blockDim.x + threadIdx.x;
    u32 mine = 0, scheme = 0;
    if (t < 2 * n) {
        u32 strand = t >= n;
        u32 word = __ldg(meta + 2 * (t - strand * n) + 1);
        if (!(word & NOT_SEARCHABLE)) {
            scheme = word >> MM_SCHEME_SHIFT;
            mine = __ldg(schemes + SCHEME_COUNTS + scheme);
        }
    }
    u32 at = warp_append(mine, count);
    for (u32 j = 0; j < mine; ++j) {
        put_item(stack + at + j, t, 0, 0, rows, scheme * SEARCH_SLOTS + j, 0, 0);
    }
}

// The words of `counts`, the k-mismatch search's counters, which the kernels below keep
// on the device so that the host waits for them only every few steps: the stack's top
// (mm_seed appends there), where the chunk expanded by the last mm_expand starts, the
// overflow flag (a step whose children would not fit the stack), the finished entries,
// their rows (u64) and the two child counts (one per step parity: mm_push clears the
// next step's while it reads this one's): MM_TOP, MM_FIRST, MM_OVERFLOW, MM_FINISHED,
// MM_TOTAL (and the next), MM_CHILDREN (and the next), MM_COUNTERS words in all, from
// src/gpu/tuning.rs as -D options.

// Expands items[i] (of count) by one step (mismatch::Walk::step); every lane of the
// warp calls it, those with i >= count with nothing to do:
// - past its last step: finished, its interval's rows are hits;
// - one row after the first step: verified, the row located and the whole read compared
//   with the text there (a hit when within k mismatches, marked DIRECT);
// - otherwise extended by the four bases on the step's side (Bidirectional::extend_left
//   or extend_right), the children whose mismatches are within the step's bounds
//   appended to `children` at *child_count.
// Finished entries (read-strand, first row or DIRECT, position, rows cut to 32 bits) go
// to the finished arrays at counts[MM_FINISHED] (written while below `finished_cap`; the
// host checks the count), and their rows, whole, are added to counts[MM_TOTAL] (the host
// uses the entries' rows only when the total fits 32 bits).
__device__ __forceinline__ void expand_item(
    const Item* __restrict__ items, u32 i, u32 count, const u32* __restrict__ meta,
    const u32* __restrict__ words, u32 n, const u32* __restrict__ schemes, u32 k,
    const u64* __restrict__ occ, const u64* __restrict__ mirror, pos_t c0, pos_t c1, pos_t c2,
    pos_t c3, pos_t rows, pos_t primary, pos_t mirror_primary, const u64* __restrict__ text,
    const u64* __restrict__ sa_bits, const pos_t* __restrict__ sa_ranks,
    const pos_t* __restrict__ sa_positions, u32 rate, Item* __restrict__ children,
    u32* child_count, u32* counts, u32* __restrict__ finished_item,
    pos_t* __restrict__ finished_lo, pos_t* __restrict__ finished_direct,
    u32* __restrict__ finished_size, u32 finished_cap) {
    u32 t = 0, search = 0, step = 0;
    // Extension: the stepped index's occurrences before the interval and before its end,
    // the other index's first row, the sentinel's share (then the rows of the bases
    // before b), and the bases kept (bit per base).
    u32 below[4] = {0, 0, 0, 0}, upto[4] = {0, 0, 0, 0};
    pos_t other = 0, before = 0;
    u32 keep = 0, right = 0, errors = 0, want = 0;
    // Finished entry.
    u32 finished = 0;
    pos_t f_lo = 0, f_direct = 0, f_size = 0;
    if (i < count) {
        const Item& item = items[i];
        t = item.t;
        pos_t lo = item.lo, mlo = item.mlo, size = item.size;
        u32 m = item.m;
        search = m & 15;
        errors = (m >> 4) & 3;
        step = m >> 6;
        u32 strand = t >= n;
        u32 read = t - strand * n;
        u32 len = __ldg(meta + 2 * read + 1) & MM_LEN_MASK;
        const u32* seq = words + __ldg(meta + 2 * read);
        const u32* plan = schemes + search * SEARCH_WORDS;
        if (step == len) {
            finished = 1;
            f_lo = lo;
            f_size = size;
        } else if (size == 1 && step > 0) {
            u32 first = plan_step(plan, len, step - 1).first;
            pos_t pos = locate_row(lo, occ, c0, c1, c2, c3, primary, sa_bits, sa_ranks,
                                   sa_positions, rate, rows);
            if (pos >= first &&
                mismatches_at(text, rows - 1, pos - first, seq, len, strand, k) <= k) {
                finished = 1;
                f_lo = DIRECT;
                f_direct = pos - first;
                f_size = 1;
            }
        } else {
            Step st = plan_step(plan, len, step);
            right = st.right;
            want = strand_code(seq, len, strand, st.pos);
            pos_t from = right ? mlo : lo;
            other = right ? lo : mlo;
            const u64* stepped = right ? mirror : occ;
            pos_t p = right ? mirror_primary : primary;
            occ_all(stepped, p, from, below);
            occ_all(stepped, p, from + size, upto);
            before = from <= p && p < from + size;
#pragma unroll
            for (u32 b = 0; b < 4; ++b) {
                u32 e = errors + (b != want);
                if (upto[b] > below[b] && e >= st.lower && e <= st.upper) keep |= 1u << b;
            }
        }
    }
    u32 at = warp_append(__popc(keep), child_count);
#pragma unroll
    for (u32 b = 0; b < 4; ++b) {
        u32 size = upto[b] - below[b];
        if (keep >> b & 1) {
            pos_t stepped_lo = pick(b, c0, c1, c2, c3) + below[b];
            pos_t other_lo = other + before;
            put_item(children + at, t, right ? other_lo : stepped_lo,
                     right ? stepped_lo : other_lo, size, search, errors + (b != want),
                     step + 1);
            ++at;
        }
        before += size;
    }
    u32 f = warp_append(finished, counts + MM_FINISHED);
    if (finished && f < finished_cap) {
        finished_item[f] = t;
        finished_lo[f] = f_lo;
        finished_direct[f] = f_direct;
        finished_size[f] = (u32)f_size;
    }
    u64 sum = f_size;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(FULL_MASK, sum, o);
    if ((threadIdx.x & 31) == 0 && sum) atomicAdd(reinterpret_cast<u64*>(counts + MM_TOTAL), sum);
}

// One step of the search: the chunk on top of the stack (the newest pending items) is
// expanded by expand_item, its children appended to `children` at
// counts[MM_CHILDREN + parity]. The chunk is worked out here from the top, as
// mismatch::Capacities::next_chunk does: at most chunk_cap items, and so few that their
// children (up to 4 each) fit in the stack in their place; where it starts goes to
// counts[MM_FIRST] for mm_push. When not even one item's children fit, counts[MM_OVERFLOW]
// is set and nothing is expanded (nor by the steps after: the top stays). An empty stack
// gives an empty chunk. Grid-stride over the chunk, whole blocks at a time.
extern "C" __global__ void mm_expand(
    const Item* __restrict__ stack, u32 stack_cap, u32 chunk_cap, u32 parity,
    const u32* __restrict__ meta, const u32* __restrict__ words, u32 n,
    const u32* __restrict__ schemes, u32 k, const u64* __restrict__ occ,
    const u64* __restrict__ mirror, pos_t c0, pos_t c1, pos_t c2, pos_t c3, pos_t rows,
    pos_t primary, pos_t mirror_primary, const u64* __restrict__ text,
    const u64* __restrict__ sa_bits, const pos_t* __restrict__ sa_ranks,
    const pos_t* __restrict__ sa_positions, u32 rate, Item* __restrict__ children, u32* counts,
    u32* __restrict__ finished_item, pos_t* __restrict__ finished_lo,
    pos_t* __restrict__ finished_direct, u32* __restrict__ finished_size, u32 finished_cap) {
    const u32 top = counts[MM_TOP];
    const u32 room = (stack_cap - min(top, stack_cap)) / 3;
    const u32 chunk = min(min(top, chunk_cap), room);
    const u32 first = top - chunk;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        counts[MM_FIRST] = first;
        if (top > 0 && chunk == 0) counts[MM_OVERFLOW] = 1;
    }
    const u32 stride = gridDim.x * blockDim.x;
    for (u32 base = blockIdx.x * blockDim.x; base < chunk; base += stride) {
        expand_item(stack + first, base + threadIdx.x, chunk, meta, words, n, schemes, k, occ,
                    mirror, c0, c1, c2, c3, rows, primary, mirror_primary, text, sa_bits,
                    sa_ranks, sa_positions, rate, children, counts + MM_CHILDREN + parity, counts,
                    finished_item, finished_lo, finished_direct, finished_size, finished_cap);
    }
}

// After mm_expand of the same parity: its children (counts[MM_CHILDREN + parity] items
// of item_words u32 each) go onto the stack in place of the chunk expanded (from
// counts[MM_FIRST]), which sets the top; the next step's child count is cleared.
extern "C" __global__ void mm_push(u32* __restrict__ stack, const u32* __restrict__ children,
                                   u32 item_words, u32 parity, u32* counts) {
    const u32 first = counts[MM_FIRST], added = counts[MM_CHILDREN + parity];
    const u64 words = (u64)added * item_words;
    u32* to = stack + (u64)first * item_words;
    for (u64 w = (u64)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += (u64)gridDim.x * blockDim.x)
        to[w] = children[w];
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        counts[MM_TOP] = first + added;
        counts[MM_CHILDREN + (parity ^ 1)] = 0;
    }
}
