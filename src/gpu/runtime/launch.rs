//! Kernel launches: the typed parameters a launcher takes ([`DevPtr`], `u32`, `u64`,
//! [`Pos`] and the structures made of them, all [`Param`]), the argument list they fill,
//! the `kernels!` macro that turns one declaration a kernel into a typed launcher, and
//! the raw launch of a function of a loaded module on the [`Gpu`]'s stream, private to
//! the runtime.

use std::ffi::c_void;

use cudarc::driver::result as cu;

use super::{DevPtr, Gpu, GpuError};
use crate::sa::Width;

/// A kernel argument as the driver copies it: a 32-bit or a 64-bit value.
#[derive(Clone, Copy, Debug)]
enum Arg {
    U32(u32),
    U64(u64),
}

/// What a kernel parameter is, as the signature check compares it with the CUDA source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// A `u32` scalar.
    U32,
    /// A `u64` scalar.
    U64,
    /// A device pointer (64 bits).
    Ptr,
    /// A `pos_t` scalar: 32 or 64 bits with the file's position width.
    Pos,
}

/// A launch's geometry: blocks in the 1-D grid, threads a block.
pub type Grid = (u32, u32);

/// A text position, row or row count passed as a kernel's `pos_t`: at the width of the
/// kernel file that the launch picks (its value cut to 32 bits for `u32` positions).
#[derive(Clone, Copy, Debug, Default)]
pub struct Pos(pub u64);

/// The arguments of one launch, in order, with the shape of each, and the position
/// width of the kernel file launched (`None`: a file compiled once, without `pos_t`).
pub(super) struct Args {
    width: Option<Width>,
    values: Vec<(Arg, Shape)>,
}

impl Args {
    /// An empty list for a kernel file of position width `width`.
    pub(super) fn new(width: Option<Width>) -> Args {
        Args {
            width,
            values: Vec::new(),
        }
    }

    /// Appends `value`'s arguments.
    pub(super) fn push(&mut self, value: impl Param) -> &mut Args {
        value.push(self);
        self
    }

    /// The shapes of the arguments, in order.
    #[cfg(test)]
    pub(super) fn shapes(&self) -> Vec<Shape> {
        self.values.iter().map(|&(_, shape)| shape).collect()
    }

    fn add(&mut self, arg: Arg, shape: Shape) {
        self.values.push((arg, shape));
    }
}

/// A value that a launcher passes as one or more kernel parameters, in order. `Default`
/// gives the value whose shapes the signature check reads.
pub(super) trait Param: Default {
    /// Appends this value's arguments to `args`.
    fn push(self, args: &mut Args);
}

impl Param for u32 {
    fn push(self, args: &mut Args) {
        args.add(Arg::U32(self), Shape::U32);
    }
}

impl Param for u64 {
    fn push(self, args: &mut Args) {
        args.add(Arg::U64(self), Shape::U64);
    }
}

impl Param for DevPtr {
    fn push(self, args: &mut Args) {
        args.add(Arg::U64(self.address()), Shape::Ptr);
    }
}

impl Param for Pos {
    fn push(self, args: &mut Args) {
        let arg = match args
            .width
            .expect("a kernel file compiled for one width has no pos_t")
        {
            Width::U32 => Arg::U32(self.0 as u32),
            Width::U64 => Arg::U64(self.0),
        };
        args.add(arg, Shape::Pos);
    }
}

impl<P: Param + Copy, const N: usize> Param for [P; N]
where
    [P; N]: Default,
{
    fn push(self, args: &mut Args) {
        for value in self {
            value.push(args);
        }
    }
}

/// Declares a structure of kernel parameters passed together, field by field in the
/// order written, as one [`Param`].
macro_rules! params {
    ($(#[$attr:meta])* struct $name:ident {
        $($(#[$fattr:meta])* $field:ident: $ty:ty,)*
    }) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Debug, Default)]
        pub(crate) struct $name {
            $($(#[$fattr])* pub(crate) $field: $ty,)*
        }

        impl $crate::gpu::runtime::launch::Param for $name {
            fn push(self, args: &mut $crate::gpu::runtime::launch::Args) {
                $(args.push(self.$field);)*
            }
        }
    };
}
pub(super) use params;

/// Declares the kernels of one kernel file, or of one source compiled for both position
/// widths (`in ["map.cu", "map64.cu"];`, the 32-bit `pos_t` first), each once as
/// `fn name(param: Type, ...);` in the CUDA signature's order, in the module that
/// invokes it. For each it makes a launcher `name(gpu, [width,] (grid, block), params...)`
/// (`width: Width` for a pair of files), and `occupancy NAME` adds `NAME(gpu, block)`,
/// the kernel's blocks a multiprocessor. Under `cfg(test)`, `declared()` lists each
/// kernel's files and parameter shapes for the signature check.
macro_rules! kernels {
    (in $files:tt;
        $($(#[$attr:meta])* fn $name:ident($($param:ident: $ty:ty),* $(,)?)
            $(occupancy $occupancy:ident)?;)*
    ) => {
        $($crate::gpu::runtime::launch::kernels!(
            @launcher $files $(#[$attr])* $name($($param: $ty),*) $($occupancy)?
        );)*

        /// Each kernel's files and the shapes of its parameters, in order.
        #[cfg(test)]
        pub(in $crate::gpu::runtime) fn declared() -> Vec<$crate::gpu::runtime::launch::Declared> {
            use $crate::gpu::runtime::launch::Args;
            vec![$($crate::gpu::runtime::launch::Declared {
                files: &$files,
                name: stringify!($name),
                shapes: Args::new(Some($crate::sa::Width::U64))
                    $(.push(<$ty>::default()))*
                    .shapes(),
            }),*]
        }
    };
    (@launcher [$file:literal] $(#[$attr:meta])* $name:ident($($param:ident: $ty:ty),*)
        $($occupancy:ident)?) => {
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        pub(crate) fn $name(
            gpu: &$crate::gpu::runtime::Gpu,
            grid: $crate::gpu::runtime::launch::Grid,
            $($param: $ty),*
        ) -> Result<(), $crate::gpu::runtime::GpuError> {
            let mut args = $crate::gpu::runtime::launch::Args::new(None);
            $(args.push($param);)*
            gpu.launch($file, stringify!($name), grid, args)
        }
        $crate::gpu::runtime::launch::kernels!(@occupancy $name, $file, $($occupancy)?);
    };
    (@launcher [$file32:literal, $file64:literal] $(#[$attr:meta])*
        $name:ident($($param:ident: $ty:ty),*)) => {
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        pub(crate) fn $name(
            gpu: &$crate::gpu::runtime::Gpu,
            width: $crate::sa::Width,
            grid: $crate::gpu::runtime::launch::Grid,
            $($param: $ty),*
        ) -> Result<(), $crate::gpu::runtime::GpuError> {
            let mut args = $crate::gpu::runtime::launch::Args::new(Some(width));
            $(args.push($param);)*
            let file = match width {
                $crate::sa::Width::U32 => $file32,
                $crate::sa::Width::U64 => $file64,
            };
            gpu.launch(file, stringify!($name), grid, args)
        }
    };
    (@occupancy $name:ident, $file:literal, $occupancy:ident) => {
        #[doc = concat!("How many `block`-thread blocks of `", stringify!($name),
            "` fit on one multiprocessor at once.")]
        pub(crate) fn $occupancy(
            gpu: &$crate::gpu::runtime::Gpu,
            block: u32,
        ) -> Result<u32, $crate::gpu::runtime::GpuError> {
            gpu.occupancy($file, stringify!($name), block)
        }
    };
    (@occupancy $name:ident, $file:literal,) => {};
}
pub(super) use kernels;

/// One declared kernel, for the signature check: its files (one, or the 32-bit and
/// 64-bit position files), its name and its parameters' shapes.
#[cfg(test)]
pub(super) struct Declared {
    pub(super) files: &'static [&'static str],
    pub(super) name: &'static str,
    pub(super) shapes: Vec<Shape>,
}

impl Gpu {
    /// Launches `func` of module `file` on the stream with a 1-D grid of `grid` blocks
    /// (at least one) of `block` threads.
    pub(super) fn launch(
        &self,
        file: &'static str,
        func: &'static str,
        (grid, block): Grid,
        args: Args,
    ) -> Result<(), GpuError> {
        let f = self.function(file, func)?;
        let mut params: Vec<*mut c_void> = args
            .values
            .iter()
            .map(|(a, _)| match a {
                Arg::U32(x) => x as *const u32 as *mut c_void,
                Arg::U64(x) => x as *const u64 as *mut c_void,
            })
            .collect();
        // SAFETY: the argument list matches the kernel's signature (its declaration,
        // checked against the CUDA source by the signature test; device pointers to
        // live buffers); the values are copied at launch.
        unsafe {
            cu::launch_kernel(
                f,
                (grid.max(1), 1, 1),
                (block, 1, 1),
                0,
                self.stream.cu_stream(),
                &mut params,
            )
        }
        .map_err(|e| GpuError::driver("kernel launch", e))
    }
}
