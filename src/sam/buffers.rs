//! Buffers of encoded records, recycled: the writer hands each part's buffer back once
//! its bytes are written (SAM) or compressed (BAM), and the records stage encodes the
//! next batches into them. Fresh buffers cost a page fault and the kernel's clearing
//! every 4 KiB, ~8 GB of them for 21 M reads of 148 bp to SAM.

use crossbeam_channel::{Receiver, Sender};

use super::Encoded;

/// Buffers kept for reuse: three batches' parts at the default batch size (131,072
/// reads in parts of 256).
const KEPT: usize = 1536;
/// Largest buffer kept (bytes of capacity): one that grew past it for an unusual part
/// (many secondary records) is freed rather than held.
const LARGEST_KEPT: usize = 1 << 20;

/// A pool of record buffers, shared by the records stage (which takes them) and the
/// writer (which gives them back); clones share the pool.
#[derive(Clone)]
pub struct RecordBuffers {
    kept: Sender<Vec<u8>>,
    spare: Receiver<Vec<u8>>,
}

impl Default for RecordBuffers {
    fn default() -> Self {
        let (kept, spare) = crossbeam_channel::bounded(KEPT);
        RecordBuffers { kept, spare }
    }
}

impl RecordBuffers {
    /// An empty buffer for SAM text (`text`) or BAM records with room for `capacity`
    /// bytes: a spare one where there is one, else a new one.
    pub fn take(&self, text: bool, capacity: usize) -> Encoded {
        let mut bytes = self.spare.try_recv().unwrap_or_default();
        bytes.reserve(capacity);
        match text {
            true => Encoded::Sam(bytes),
            false => Encoded::Bam(bytes),
        }
    }

    /// Keeps `bytes`, emptied, for a later [`RecordBuffers::take`] (frees it when the
    /// pool is full or the buffer is larger than it keeps).
    pub fn give(&self, mut bytes: Vec<u8>) {
        if bytes.capacity() <= LARGEST_KEPT {
            bytes.clear();
            let _ = self.kept.try_send(bytes);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_given_back_are_taken_again_empty() {
        let buffers = RecordBuffers::default();
        let Encoded::Sam(mut first) = buffers.take(true, 100) else {
            panic!("asked for SAM")
        };
        assert!(first.is_empty() && first.capacity() >= 100);
        first.extend_from_slice(b"read\t4\t*\n");
        let at = first.as_ptr();
        buffers.give(first);
        let Encoded::Bam(again) = buffers.take(false, 10) else {
            panic!("asked for BAM")
        };
        assert!(again.is_empty());
        assert_eq!(again.as_ptr(), at, "the buffer given back");
        buffers.give(Vec::with_capacity(LARGEST_KEPT + 1));
        let Encoded::Sam(fresh) = buffers.take(true, 0) else {
            panic!("asked for SAM")
        };
        assert_eq!(fresh.capacity(), 0, "too large a buffer is not kept");
    }
}
