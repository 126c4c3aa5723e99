// The partitioned suffix sorter's kernels (partition.cuh, appended by src/gpu/kernels.rs)
// for longer texts: 64-bit positions and sample ranks.
#define POS_BITS 64
