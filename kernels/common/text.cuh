// The packed reference text on the device: the one reader of a base and the one reader
// of a window of bases, for every kernel that reads the text (the suffix-array builders,
// the FM-index builder, the partitioned sorter, the read search).
//
// Layout (one layout for every text buffer): the words of src/reference/packed.rs's
// PackedText, as the index file stores them (the TEXT section, docs/FORMAT.md) and as the
// builders and the read search upload them: 2-bit codes packed 32 to a u64, first base
// most significant (base p at bits 62 - 2 (p % 32) of word p / 32), with a zero word after
// the last used one (PackedText::word_count), so that a window may read word p / 32 + 1
// at any position p < n; the bits past the last base are zero (A).
// Read with this layout, the 64-bit window at any position compares like the 32-base
// string it holds, which the sorters rely on.
//
// (Reads are packed otherwise, least significant first: see read_base and code_at in
// map.cuh; the BWT symbols of an Occ block, most significant first, in fm.cu and map.cuh.)
//
// Positions are any unsigned type (u32 or u64), so that each caller's arithmetic keeps
// its width.
#ifndef GALIGN_COMMON_TEXT_CUH
#define GALIGN_COMMON_TEXT_CUH

#include "common/types.cuh"

// The 2-bit code of base p (< n) of the text.
template <class Pos>
__device__ __forceinline__ u32 base_at(const u64* __restrict__ text, Pos p) {
    return (u32)(text[p >> 5] >> (62 - 2 * (p & 31))) & 3;
}

// The 32 bases from position p (< n, or past n inside the last used word) as one
// integer, first base most significant, padded with A (code 0) past the text: words
// p / 32 and p / 32 + 1 (the latter unless p is a multiple of 32). The first k bases are
// window32(text, p) >> (64 - 2 k).
template <class Pos>
__device__ __forceinline__ u64 window32(const u64* __restrict__ text, Pos p) {
    const Pos w = p >> 5;
    const u32 s = (u32)(p & 31) * 2;
    u64 hi = text[w] << s;
    if (s) hi |= text[w + 1] >> (64 - s);
    return hi;
}

#endif
