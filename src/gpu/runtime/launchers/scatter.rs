//! The launcher of `kernels/prims/scatter.cu`.

use crate::gpu::runtime::launch::kernels;
use crate::gpu::runtime::DevPtr;

kernels! {
    in ["prims/scatter.cu"];
    /// `dst[index[i]] = values[i]` for the `n` pairs whose index has `part` in its bits
    /// `shift..` under `mask`.
    fn scatter_u32(index: DevPtr, values: DevPtr, n: u32, dst: DevPtr, shift: u32, mask: u32, part: u32);
}
