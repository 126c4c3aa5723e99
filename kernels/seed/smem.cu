// SMEMs of reads over bwa's FMD index, and the locate of their rows (host side:
// src/gpu/seed.rs). The same walk as the CPU's src/seed/smem.rs (bwa 0.7.17's
// smem_next over bwt_smem1a), step for step, one thread a read, and bwa's bwt_sa.
//
// Index layout: bwa's .bwt as src/fmd/bwt.rs holds it, one 64-byte Occ interval per 128
// rows: the counts of A, C, G, T before it (4 u64), then its 128 bases, 16 to a u32, the
// first in the top bits; rows past `primary` are stored one earlier. `l2[5]` as bwa's
// L2. The sampled suffix array: the position of every SA_INTERVAL-th row (row 0's is
// u64 max, as bwa sets it).
//
// Reads: bases as written (any byte; coded as bwa's nst_nt4_table does, every code above
// 3 ambiguous), read i at bytes offsets[i]..offsets[i + 1]. A read's SMEMs of at least
// `min_len` bases (the walk finds them all; shorter ones are not kept) go to its
// SMEM_SLOTS slots of `smems` (4 u64 each: begin | end << 32, k, l, size), their count
// to counts[i]; a read whose walk needs more than SMEM_CAP intervals in a list, or has
// more than SMEM_SLOTS SMEMs to keep, gets counts[i] = SMEM_OVERFLOW and is searched on
// the CPU.
//
// Compaction (so that only what is used crosses the bus): smem_reads also writes each
// read's kept slots (`used`, 0 for a read left to the CPU) and the rows its listed SMEMs
// (at most `max_hits` occurrences) print (`listed`); a read that would list more than
// SMEM_LISTED_ROWS rows is left to the CPU too. Both are scanned (exclusive), then
// smem_compact copies each read's slots to slot_start[i] of a dense array and writes
// the rows it lists, in output order, from row_start[i] of another, which locate_rows
// turns into text positions in place.
// SMEM_CAP, SMEM_SLOTS, SMEM_OVERFLOW and SMEM_LISTED_ROWS come from src/gpu/tuning.rs
// as -D options.

#include "common/types.cuh"

struct Occ {
    u64 counts[4];
    u32 words[8];
};

struct Index {
    const Occ* __restrict__ occ;
    const u64* __restrict__ l2;
    u64 primary;
};

// A bidirectional interval with bwa's info: the match's end in the low 32 bits, its
// start in the high 32 once known.
struct Tagged {
    u64 x[3];
    u64 info;
};

__device__ __forceinline__ u32 nt4(u8 b) {
    switch (b) {
    case 'A': case 'a': return 0;
    case 'C': case 'c': return 1;
    case 'G': case 'g': return 2;
    case 'T': case 't': return 3;
    case '-': return 5;
    default: return 4;
    }
}

// The counts of A, C, G and T among the bases 0..=last of an interval's words.
__device__ __forceinline__ void counts_within(const u32* words, u32 last, u64 out[4]) {
    const u64 LOW = 0x5555555555555555ull;
    u32 c = 0, g = 0, t = 0;
    const u32 pairs = last / 32;
    for (u32 p = 0; p <= pairs; ++p) {
        const u64 x = (u64)words[2 * p] << 32 | (u64)words[2 * p + 1];
        const u32 bases = p < pairs ? 32 : last % 32 + 1;
        const u64 kept = bases == 32 ? LOW : LOW & ~(~0ull >> (2 * bases));
        const u64 high = x >> 1 & kept, low = x & kept;
        c += __popcll(low & ~high);
        g += __popcll(high & ~low);
        t += __popcll(high & low);
    }
    out[0] = (u64)last + 1 - c - g - t;
    out[1] = c;
    out[2] = g;
    out[3] = t;
}

// bwa's bwt_occ4: the counts of each base among the BWT symbols of rows 0..=row (none
// for row u64 max).
__device__ __forceinline__ void occ4(const Index& ix, u64 row, u64 out[4]) {
#ifdef SMEM_COUNT_OCC
    SMEM_COUNT_OCC(row);
#endif
    if (row == ~0ull) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    const u64 at = row - (row >= ix.primary ? 1 : 0);
    const Occ* iv = ix.occ + at / 128;
    u32 words[8];
    for (int w = 0; w < 8; ++w) words[w] = iv->words[w];
    counts_within(words, (u32)(at % 128), out);
    for (int c = 0; c < 4; ++c) out[c] += iv->counts[c];
}

// bwa's bwt_extend of interval ik, backward (the base before the match) or forward.
__device__ __forceinline__ void extend(const Index& ix, const u64 ik[3], bool back, u64 ok[4][3]) {
    const int f = back ? 0 : 1, b = back ? 1 : 0;
    const u64 start = ik[f] - 1;
    u64 tk[4], tl[4];
    occ4(ix, start, tk);
    occ4(ix, start + ik[2], tl);
    for (int c = 0; c < 4; ++c) {
        ok[c][f] = ix.l2[c] + 1 + tk[c];
        ok[c][2] = tl[c] - tk[c];
    }
    const u64 last = ik[f] + ik[2] - 1;
    const u64 sentinel = (ik[f] <= ix.primary && last >= ix.primary) ? 1 : 0;
    ok[3][b] = ik[b] + sentinel;
    for (int c = 2; c >= 0; --c) ok[c][b] = ok[c + 1][b] + ok[c + 1][2];
}

// One read's walk: its lists, its output slots.
struct Walk {
    Tagged prev[SMEM_CAP], curr[SMEM_CAP], mem[SMEM_CAP];
    u32 nprev, ncurr, nmem;
    bool overflow;
};

__device__ __forceinline__ void push(Tagged* list, u32& n, const Tagged& t, bool& overflow) {
    if (n == SMEM_CAP) {
        overflow = true;
        return;
    }
    list[n++] = t;
}

// The forward pass of bwt_smem1a from base x (src/seed/smem.rs `forward`).
__device__ Tagged forward(const Index& ix, const u8* q, u32 len, u32 x, Tagged ik, u64 min_intv,
                          u64 max_intv, Walk& w) {
    w.ncurr = 0;
    u32 i = x + 1;
    for (; i < len; ++i) {
        const u32 qi = nt4(q[i]);
        if (ik.x[2] < max_intv || qi > 3) {
            push(w.curr, w.ncurr, ik, w.overflow);
            break;
        }
        const u32 c = 3 - qi;
        u64 ok[4][3];
        extend(ix, ik.x, false, ok);
        if (ok[c][2] != ik.x[2]) {
            push(w.curr, w.ncurr, ik, w.overflow);
            if (ok[c][2] < min_intv) break;
        }
        ik.x[0] = ok[c][0];
        ik.x[1] = ok[c][1];
        ik.x[2] = ok[c][2];
        ik.info = (u64)i + 1;
    }
    if (i == len) push(w.curr, w.ncurr, ik, w.overflow);
    return ik;
}

// The backward pass (src/seed/smem.rs `backward`): `w.prev` extended before x.
__device__ void backward(const Index& ix, const u8* q, u32 x, Tagged ik, u64 min_intv, u64 max_intv,
                         Walk& w) {
    for (long long i = (long long)x - 1; i >= -1; --i) {
        const int c = (i >= 0 && nt4(q[i]) < 4) ? (int)nt4(q[i]) : -1;
        w.ncurr = 0;
        for (u32 j = 0; j < w.nprev; ++j) {
            const Tagged p = w.prev[j];
            bool extended = false;
            u64 okc[3];
            if (c >= 0 && ik.x[2] >= max_intv) {
                u64 ok[4][3];
                extend(ix, p.x, true, ok);
                okc[0] = ok[c][0];
                okc[1] = ok[c][1];
                okc[2] = ok[c][2];
                extended = okc[2] >= min_intv;
            }
            if (extended) {
                if (w.ncurr == 0 || okc[2] != w.curr[w.ncurr - 1].x[2]) {
                    Tagged t;
                    t.x[0] = okc[0];
                    t.x[1] = okc[1];
                    t.x[2] = okc[2];
                    t.info = p.info;
                    push(w.curr, w.ncurr, t, w.overflow);
                }
            } else if (w.ncurr == 0) {
                const u64 begin = (u64)(i + 1);
                if (w.nmem == 0 || begin < (w.mem[w.nmem - 1].info >> 32)) {
                    ik = p;
                    ik.info = p.info | begin << 32;
                    push(w.mem, w.nmem, ik, w.overflow);
                }
            }
        }
        if (w.ncurr == 0 || w.overflow) break;
        for (u32 j = 0; j < w.ncurr; ++j) w.prev[j] = w.curr[j];
        w.nprev = w.ncurr;
    }
}

// bwt_smem1a from base x (< len, a base 0-3): the SMEMs overlapping it in w.mem, latest
// start first; returns where the next search starts.
__device__ u32 smem1a(const Index& ix, const u8* q, u32 len, u32 x, u64 min_intv, u64 max_intv, Walk& w) {
    w.nmem = 0;
    const u32 c = nt4(q[x]);
    Tagged ik;
    ik.x[0] = ix.l2[c] + 1;
    ik.x[1] = ix.l2[3 - c] + 1;
    ik.x[2] = ix.l2[c + 1] - ix.l2[c];
    ik.info = (u64)x + 1;
    ik = forward(ix, q, len, x, ik, min_intv, max_intv, w);
    if (w.overflow) return len;
    // longer matches first
    for (u32 j = 0; j < w.ncurr; ++j) w.prev[j] = w.curr[w.ncurr - 1 - j];
    w.nprev = w.ncurr;
    const u32 next = (u32)w.prev[0].info;
    backward(ix, q, x, ik, min_intv, max_intv, w);
    return next;
}

// Read r's outcome: its count (or SMEM_OVERFLOW), the slots it keeps and the rows it
// lists.
__device__ __forceinline__ void finish(u32 r, u32 n, u32 listed, u32* counts, u32* used, u32* rows) {
    if (n != SMEM_OVERFLOW && listed > SMEM_LISTED_ROWS) n = SMEM_OVERFLOW;
    const bool kept = n != SMEM_OVERFLOW;
    counts[r] = n;
    used[r] = kept ? n : 0;
    rows[r] = kept ? listed : 0;
}

// One thread a read: its SMEMs of at least min_len bases, in the order bwa's smem_next
// gives them, into its slots; its count, kept slots and listed rows (see above).
extern "C" __global__ void smem_reads(const Occ* __restrict__ occ, const u64* __restrict__ l2, u64 primary,
                                      const u8* __restrict__ bases, const u64* __restrict__ offsets, u32 nreads,
                                      u32 min_intv, u64 max_intv, u32 min_len, u64 max_hits,
                                      u64* __restrict__ smems, u32* __restrict__ counts, u32* __restrict__ used,
                                      u32* __restrict__ rows) {
    const u32 r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nreads) return;
    const Index ix = {occ, l2, primary};
    const u8* q = bases + offsets[r];
    const u32 len = (u32)(offsets[r + 1] - offsets[r]);
    const u64 min_iv = min_intv < 1 ? 1 : min_intv;
    Walk w;
    w.overflow = false;
    u32 n = 0;
    u64 listed = 0;
    u64* out = smems + (u64)r * SMEM_SLOTS * 4;
    u32 start = 0;
    while (start < len) {
        while (start < len && nt4(q[start]) > 3) ++start;
        if (start == len) break;
        start = smem1a(ix, q, len, start, min_iv, max_intv, w);
        if (w.overflow) {
            finish(r, SMEM_OVERFLOW, 0, counts, used, rows);
            return;
        }
        for (u32 j = 0; j < w.nmem; ++j) { // by start: the list's reverse
            const Tagged& m = w.mem[w.nmem - 1 - j];
            const u32 begin = (u32)(m.info >> 32), end = (u32)m.info;
            if (end - begin < min_len) continue;
            if (n == SMEM_SLOTS) {
                finish(r, SMEM_OVERFLOW, 0, counts, used, rows);
                return;
            }
            u64* slot = out + 4 * (u64)n++;
            slot[0] = (u64)begin | (u64)end << 32;
            slot[1] = m.x[0];
            slot[2] = m.x[1];
            slot[3] = m.x[2];
            if (m.x[2] <= max_hits) listed += m.x[2];
        }
    }
    finish(r, n, listed > SMEM_LISTED_ROWS ? SMEM_LISTED_ROWS + 1 : (u32)listed, counts, used, rows);
}

// One thread a read kept on the device: its slots to slot_start[r] of `compact`, the
// rows of its listed SMEMs, in output order, to row_start[r] of `rows` (slot_start and
// row_start the exclusive scans of smem_reads' `used` and `rows`).
extern "C" __global__ void smem_compact(const u64* __restrict__ smems, const u32* __restrict__ counts,
                                        const u32* __restrict__ slot_start, const u32* __restrict__ row_start,
                                        u32 nreads, u64 max_hits, u64* __restrict__ compact,
                                        u64* __restrict__ rows) {
    const u32 r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nreads) return;
    const u32 n = counts[r];
    if (n == SMEM_OVERFLOW) return;
    const u64* in = smems + (u64)r * SMEM_SLOTS * 4;
    u64* out = compact + (u64)slot_start[r] * 4;
    u64* row = rows + row_start[r];
    for (u32 j = 0; j < n; ++j) {
        for (int w = 0; w < 4; ++w) out[4 * j + w] = in[4 * j + w];
        const u64 k = in[4 * j + 1], size = in[4 * j + 3];
        if (size > max_hits) continue;
        for (u64 t = 0; t < size; ++t) *row++ = k + t;
    }
}

// bwa's bwt_invPsi: the row of the suffix one position before row `row`'s.
__device__ __forceinline__ u64 inverse_psi(const Index& ix, u64 row) {
    if (row == ix.primary) return 0;
    const u64 at = row - (row > ix.primary ? 1 : 0);
    const Occ* iv = ix.occ + at / 128;
    const u32 word = iv->words[(at % 128) / 16];
    const u32 symbol = (word >> ((~at & 15) << 1)) & 3;
    u64 counts[4];
    occ4(ix, row, counts);
    return ix.l2[symbol] + counts[symbol];
}

// bwa's bwt_sa for each of `n` rows, in place: LF steps back to a sampled row.
extern "C" __global__ void locate_rows(const Occ* __restrict__ occ, const u64* __restrict__ l2, u64 primary,
                                       const u64* __restrict__ positions, u64 interval, u64* __restrict__ rows,
                                       u64 n) {
    const u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    const Index ix = {occ, l2, primary};
    u64 row = rows[t], steps = 0;
    while (row & (interval - 1)) {
        ++steps;
        row = inverse_psi(ix, row);
    }
    rows[t] = steps + positions[row / interval];
}
