//! The integer type of suffix-array entries: `u32` while the text is under 2^32, `u64`
//! past it, with the same construction code for both; the index's [`Width`], chosen in
//! one place ([`Width::for_text`]), and the arrays of either width ([`Positions`],
//! [`PositionSlice`]) that an index stores its positions and row numbers in.

/// An unsigned position type that suffix arrays are built over.
pub trait SaIndex:
    Copy
    + Default
    + Ord
    + Send
    + Sync
    + std::fmt::Debug
    + From<u32>
    + Into<u64>
    + std::ops::AddAssign
    + 'static
{
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
    /// Wraps an array of this type as [`Positions`].
    fn into_positions(values: Vec<Self>) -> Positions;
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
    fn into_positions(values: Vec<Self>) -> Positions {
        Positions::U32(values)
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
    fn into_positions(values: Vec<Self>) -> Positions {
        Positions::U64(values)
    }
}

/// The integer width of an index's text positions and row numbers (suffix array,
/// sampled suffix array and its ranks, jump table): 32 bits while the text fits, 64 past
/// it. Recorded in the index; everything else in the index is the same at both widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// `u32` (texts of up to [`u32::MAX_TEXT`](SaIndex::MAX_TEXT) bases).
    U32,
    /// `u64`.
    U64,
}

impl Width {
    /// The width of the index of a text of `n` bases: `u32` when it fits, else `u64`.
    /// `force_u64` (for tests only) asks for `u64` even when `u32` fits, so that the
    /// 64-bit path can be checked on small texts against the 32-bit one.
    pub fn for_text(n: u64, force_u64: bool) -> Width {
        if n <= u32::MAX_TEXT && !force_u64 {
            Width::U32
        } else {
            Width::U64
        }
    }

    /// Bytes of one value.
    pub fn bytes(self) -> usize {
        match self {
            Width::U32 => 4,
            Width::U64 => 8,
        }
    }

    /// The width whose values take `bytes` bytes (4 or 8).
    pub fn from_bytes(bytes: u64) -> Option<Width> {
        match bytes {
            4 => Some(Width::U32),
            8 => Some(Width::U64),
            _ => None,
        }
    }
}

/// An owned array of text positions or row numbers, of the index's [`Width`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Positions {
    /// 32-bit values.
    U32(Vec<u32>),
    /// 64-bit values.
    U64(Vec<u64>),
}

impl Default for Positions {
    fn default() -> Self {
        Positions::U32(Vec::new())
    }
}

impl Positions {
    /// A borrowed view.
    pub fn as_slice(&self) -> PositionSlice<'_> {
        match self {
            Positions::U32(v) => PositionSlice::U32(v),
            Positions::U64(v) => PositionSlice::U64(v),
        }
    }
}

/// A borrowed array of text positions or row numbers, of either [`Width`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionSlice<'a> {
    /// 32-bit values.
    U32(&'a [u32]),
    /// 64-bit values.
    U64(&'a [u64]),
}

impl<'a> PositionSlice<'a> {
    /// Value `i`.
    #[inline]
    pub fn get(self, i: usize) -> u64 {
        match self {
            PositionSlice::U32(v) => v[i] as u64,
            PositionSlice::U64(v) => v[i],
        }
    }

    /// Number of values.
    pub fn len(self) -> usize {
        match self {
            PositionSlice::U32(v) => v.len(),
            PositionSlice::U64(v) => v.len(),
        }
    }

    /// Whether there is no value.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The width of the values.
    pub fn width(self) -> Width {
        match self {
            PositionSlice::U32(_) => Width::U32,
            PositionSlice::U64(_) => Width::U64,
        }
    }

    /// The values `range`.
    pub fn slice(self, range: std::ops::Range<usize>) -> PositionSlice<'a> {
        match self {
            PositionSlice::U32(v) => PositionSlice::U32(&v[range]),
            PositionSlice::U64(v) => PositionSlice::U64(&v[range]),
        }
    }

    /// The values, widened to `u64`.
    pub fn iter(self) -> impl ExactSizeIterator<Item = u64> + 'a {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The values as 32-bit integers, when they are.
    pub fn as_u32(self) -> Option<&'a [u32]> {
        match self {
            PositionSlice::U32(v) => Some(v),
            PositionSlice::U64(_) => None,
        }
    }

    /// The little-endian bytes of the values, as written to disk.
    pub fn as_bytes(self) -> &'a [u8] {
        fn bytes<T: Copy>(v: &[T]) -> &[u8] {
            // SAFETY: u32 and u64 have no padding and every byte is initialized.
            unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
        }
        match self {
            PositionSlice::U32(v) => bytes(v),
            PositionSlice::U64(v) => bytes(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_width_is_u32_while_the_text_fits_unless_forced() {
        assert_eq!(Width::for_text(0, false), Width::U32);
        assert_eq!(Width::for_text(u32::MAX_TEXT, false), Width::U32);
        assert_eq!(Width::for_text(u32::MAX_TEXT + 1, false), Width::U64);
        assert_eq!(Width::for_text(5, true), Width::U64);
        for width in [Width::U32, Width::U64] {
            assert_eq!(Width::from_bytes(width.bytes() as u64), Some(width));
        }
        assert_eq!(Width::from_bytes(2), None);
    }

    #[test]
    fn slices_read_the_same_values_at_both_widths() {
        let narrow = Positions::U32(vec![7, 0, u32::MAX]);
        let wide = Positions::U64(vec![7, 0, u32::MAX as u64]);
        let (n, w) = (narrow.as_slice(), wide.as_slice());
        assert_eq!(n.iter().collect::<Vec<_>>(), w.iter().collect::<Vec<_>>());
        assert_eq!(
            n.slice(1..3).iter().collect::<Vec<_>>(),
            [0, u32::MAX as u64]
        );
        assert_eq!((n.as_bytes().len(), w.as_bytes().len()), (12, 24));
        assert_eq!(&w.as_bytes()[..8], &7u64.to_le_bytes());
        assert_eq!((n.width(), w.width()), (Width::U32, Width::U64));
        assert!(n.as_u32().is_some() && w.as_u32().is_none());
    }
}
