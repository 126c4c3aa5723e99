// Read search and locate for an index of 32-bit positions: kernels/map.cuh (appended).
#define POS_BITS 32
