//! The integer type of suffix-array entries: `u32` while the text is under 2^32, `u64`
//! past it, with the same construction code for both.

/// An unsigned position type that suffix arrays are built over.
pub trait SaIndex: Copy + Default + Ord + Send + Sync + std::fmt::Debug + 'static {
    /// Size in bytes, as written to disk (little-endian).
    const BYTES: usize;
    /// Largest text length this type can sort (room is kept for the sentinel and a key
    /// offset of one).
    const MAX_TEXT: u64;
    /// Converts from `usize`; the value must fit.
    fn from_usize(x: usize) -> Self;
    /// Converts to `usize`.
    fn to_usize(self) -> usize;
    /// Appends the little-endian bytes of `self` to `out`.
    fn extend_le(self, out: &mut Vec<u8>);
}

impl SaIndex for u32 {
    const BYTES: usize = 4;
    const MAX_TEXT: u64 = u32::MAX as u64 - 2;
    #[inline]
    fn from_usize(x: usize) -> Self {
        x as u32
    }
    #[inline]
    fn to_usize(self) -> usize {
        self as usize
    }
    fn extend_le(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}

impl SaIndex for u64 {
    const BYTES: usize = 8;
    const MAX_TEXT: u64 = u64::MAX - 2;
    #[inline]
    fn from_usize(x: usize) -> Self {
        x as u64
    }
    #[inline]
    fn to_usize(self) -> usize {
        self as usize
    }
    fn extend_le(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
}
