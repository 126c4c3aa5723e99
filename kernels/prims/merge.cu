// The merge of prims/merge.cuh on plain u32 keys: by the key bits above `shift` (so
// that ties, which keep a's elements first, can be seen in the low bits).

#include "prims/merge.cuh"

struct ShiftedLess {
    u32 shift;
    __device__ __forceinline__ bool operator()(u32 x, u32 y) const { return (x >> shift) < (y >> shift); }
};

extern "C" __global__ void merge_partition_u32(const u32* a, u32 na, const u32* b, u32 nb, u32* splits, u32 shift) {
    merge_partition(na, nb, splits, ByValue<ShiftedLess>{a, b, ShiftedLess{shift}});
}

extern "C" __global__ void __launch_bounds__(MERGE_THREADS) merge_tiles_u32(const u32* a, u32 na, const u32* b, u32 nb,
                                                                            const u32* splits, u32* out, u32 shift) {
    merge_tiles(a, na, b, nb, splits, out, ByValue<ShiftedLess>{a, b, ShiftedLess{shift}});
}
