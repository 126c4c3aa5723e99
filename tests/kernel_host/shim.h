// Host stand-ins for the CUDA built-ins a kernel file uses, so that its device code
// compiles as plain C++ and runs on the CPU, one "thread" after another
// (tests/kernel_on_host.rs).
#pragma once
#include <cstdint>
#define __device__
#define __forceinline__ inline
#define __global__
#define __restrict__
struct HostDim {
    unsigned x;
};
static HostDim blockIdx, blockDim, threadIdx;
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
