// The partitioned suffix sorter's kernels (partition.cuh) for longer texts: 64-bit
// positions and sample ranks.
#define POS_BITS 64
#include "partition.cuh"
