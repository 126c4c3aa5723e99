// The integer names every kernel file uses (included through NVRTC's headers, see
// src/gpu/kernels.rs).
#ifndef GALIGN_COMMON_TYPES_CUH
#define GALIGN_COMMON_TYPES_CUH

typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;

#endif
