//! The launchers of `kernels/map.cuh`, compiled for indexes of 32-bit (`map.cu`) and
//! 64-bit (`map64.cu`) positions, and the device FM index they search: declared once
//! ([`DeviceFmIndex`]), passed in each kernel's order by a view of it.

use crate::gpu::runtime::launch::{kernels, params, Args, Param};
use crate::gpu::runtime::{DevPtr, Pos};

params! {
    /// The sampled suffix array on the device: which rows are sampled, the sampled rows
    /// before each group, their positions and the sampling rate.
    struct DeviceSampledSa {
        /// One bit a row.
        bits: DevPtr,
        /// Sampled rows before each group of rows.
        ranks: DevPtr,
        /// The sampled rows' positions.
        positions: DevPtr,
        /// Every `rate`-th text position is sampled.
        rate: u32,
    }
}

/// An FM index on the device, as the search and locate kernels take it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DeviceFmIndex {
    /// The Occ table.
    pub(crate) occ: DevPtr,
    /// The jump table of k-mers.
    pub(crate) jump: DevPtr,
    /// The jump table's k.
    pub(crate) k: u32,
    /// The rows of the suffixes shorter than k.
    pub(crate) shorts: DevPtr,
    /// How many there are.
    pub(crate) nshort: u32,
    /// C: the rows before each base.
    pub(crate) c: [Pos; 4],
    /// Rows of the BWT.
    pub(crate) rows: Pos,
    /// The primary row.
    pub(crate) primary: Pos,
    /// The packed text.
    pub(crate) text: DevPtr,
    /// The sampled suffix array.
    pub(crate) sa: DeviceSampledSa,
}

/// [`DeviceFmIndex`] in `map_search`'s order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SearchIndex(pub(crate) DeviceFmIndex);

impl Param for SearchIndex {
    fn push(self, args: &mut Args) {
        let ix = self.0;
        args.push(ix.occ)
            .push(ix.jump)
            .push(ix.k)
            .push(ix.shorts)
            .push(ix.nshort);
        args.push(ix.c)
            .push(ix.rows)
            .push(ix.primary)
            .push(ix.text)
            .push(ix.sa);
    }
}

/// [`DeviceFmIndex`] in `map_locate`'s order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LocateIndex(pub(crate) DeviceFmIndex);

impl Param for LocateIndex {
    fn push(self, args: &mut Args) {
        let ix = self.0;
        args.push(ix.occ)
            .push(ix.c)
            .push(ix.primary)
            .push(ix.sa)
            .push(ix.rows);
    }
}

/// [`DeviceFmIndex`] and the Occ table and primary row of its mirror, in `mm_expand`'s
/// order.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ExpandIndex {
    /// The index searched.
    pub(crate) index: DeviceFmIndex,
    /// The mirror index's Occ table.
    pub(crate) mirror: DevPtr,
    /// The mirror index's primary row.
    pub(crate) mirror_primary: Pos,
}

impl Param for ExpandIndex {
    fn push(self, args: &mut Args) {
        let ix = self.index;
        args.push(ix.occ)
            .push(self.mirror)
            .push(ix.c)
            .push(ix.rows)
            .push(ix.primary);
        args.push(self.mirror_primary).push(ix.text).push(ix.sa);
    }
}

kernels! {
    in ["map.cu", "map64.cu"];
    /// Searches `n` reads on both strands: each one's interval or direct position and
    /// size, and the total.
    fn map_search(meta: DevPtr, words: DevPtr, n: u32, index: SearchIndex, lo_out: DevPtr,
        direct_out: DevPtr, size_out: DevPtr, total: DevPtr);
    /// Locates the `total` positions of `items` intervals into `pos`.
    fn map_locate(offsets: DevPtr, lo: DevPtr, direct: DevPtr, items: u32, total: u32,
        index: LocateIndex, pos: DevPtr);
    /// The first work items of the mismatch search of `n` reads.
    fn mm_seed(meta: DevPtr, n: u32, schemes: DevPtr, rows: Pos, stack: DevPtr, count: DevPtr);
    /// Expands a chunk of the work items: children and finished intervals.
    fn mm_expand(stack: DevPtr, stack_cap: u32, chunk_cap: u32, parity: u32, meta: DevPtr,
        words: DevPtr, n: u32, schemes: DevPtr, k: u32, index: ExpandIndex, children: DevPtr,
        counts: DevPtr, finished_item: DevPtr, finished_lo: DevPtr, finished_direct: DevPtr,
        finished_size: DevPtr, finished_cap: u32);
    /// Pushes the children onto the stack.
    fn mm_push(stack: DevPtr, children: DevPtr, item_words: u32, parity: u32, counts: DevPtr);
}
