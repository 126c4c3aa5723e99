// Read search and locate for an index of 64-bit positions.
#define POS_BITS 64
#include "map.cuh"
