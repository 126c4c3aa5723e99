// Read search and locate for an index of 64-bit positions: kernels/map.cuh (appended).
#define POS_BITS 64
