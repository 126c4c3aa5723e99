// Read search and locate for an index of 32-bit positions.
#define POS_BITS 32
#include "map.cuh"
