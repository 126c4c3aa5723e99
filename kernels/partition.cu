// The partitioned suffix sorter's kernels (partition.cuh) for texts of fewer than
// 2^32 - 2 bases: 32-bit positions.
#define POS_BITS 32
#include "partition.cuh"
