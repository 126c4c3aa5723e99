// Scatter dst[index[i]] = values[i] (host side: src/gpu/prims/scatter.rs), on the pairs
// as given or after they were sorted by their indices' top digit, so that each stretch
// of writes falls in a window of dst that the L2 cache holds. A sweep writes only the
// pairs whose (index >> shift) & mask is part (mask 0: all).

#include "common/types.cuh"

extern "C" __global__ void scatter_u32(const u32* __restrict__ index, const u32* __restrict__ values, u32 n,
                                       u32* __restrict__ dst, u32 shift, u32 mask, u32 part) {
    u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u32 at = index[i];
    if (((at >> shift) & mask) == part) dst[at] = values[i];
}
