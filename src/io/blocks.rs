//! The bytes of an input in large blocks, read (and decompressed) on a thread of their
//! own, so that reading and decompressing overlap the parsing of the block before.
//! Plain gzip is inflated on that thread; BGZF, a run of members per block, in
//! parallel ([`super::bgzf`]). Each block keeps room in front of its data, where the
//! reader copies the incomplete record that ended the block before: records then lie
//! whole in one block without moving the block's data. A plain file may instead be
//! parsed where it lies, mapped ([`BlockInput::Mapped`]).

use std::io::Read;
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};
use rayon::prelude::*;

use super::bgzf::Bgzf;
use super::positioned::PositionedFile;
use super::read_full::read_full;

/// Room kept in front of a block's data for the carried incomplete record.
pub const HEADROOM: usize = 64 << 10;
/// Bytes of data per block: enough that the parallel steps over a block (its positioned
/// read, the FASTQ parse) outweigh the fork and join around them, and the waits of those
/// steps behind other stages' tasks on the shared pool. `map` of 2.1 M reads (730 MB
/// FASTQ, 16 cores, H200 host, one run): 0.50-0.52 s against 0.53-0.56 s with 4 MiB
/// blocks; of 21 M reads against a human-scale index (r63, two runs each): GPU path
/// 1.81-1.83 s with 32 MiB, 1.91-2.10 s with 16 MiB, 1.83-1.95 s with 64 MiB. The cost
/// is memory: peak RSS of `map` against chr20 (2 threads) 260 -> 350 MB with 424 k
/// reads, 282 -> 434-461 MB with 1.7 M, against 16 MiB blocks.
pub const BLOCK: usize = 32 << 20;
/// Blocks read ahead.
const DEPTH: usize = 2;

/// Where an input's bytes come from.
pub enum Source {
    /// Read as they come: a pipe, or a decoder (gzip, bzip2, zstd, xz).
    Stream(Box<dyn Read + Send>),
    /// A plain regular file, its blocks' pieces read in parallel.
    File(PositionedFile),
    /// BGZF, inflated in parallel.
    Bgzf(Bgzf),
}

impl Source {
    /// Writes the next bytes to the start of `out` (until it is full, or for BGZF as
    /// many whole members as fit); returns how many, 0 only at the end of the file.
    pub fn fill(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Source::Stream(source) => read_full(source, out),
            Source::File(file) => {
                let n = file.fill(out)?;
                super::consumed::add(n);
                Ok(n)
            }
            Source::Bgzf(bgzf) => bgzf.fill(out),
        }
    }
}

/// A new block's buffer, allocated zeroed (calloc: fresh pages, nothing written), so that
/// its pages are faulted in by whoever fills them: BGZF's parallel inflation, a file's
/// parallel reads. A stream (`serial`) is copied in by this one thread, in whose reads
/// a fresh block's 8,192 page faults came one after another (most blocks of a run are
/// fresh: the batches in flight hold the earlier ones); its pages are faulted in on all
/// cores first.
fn new_block(serial: bool) -> Vec<u8> {
    const PAGE: usize = 4096;
    let mut data = vec![0u8; HEADROOM + BLOCK];
    if serial {
        data.par_chunks_mut(1 << 20).for_each(|chunk| {
            for page in chunk.chunks_mut(PAGE) {
                // SAFETY: a valid pointer to the page's first byte, held exclusively. A
                // volatile write: a plain store of 0 to calloc'd memory may be removed.
                unsafe { std::ptr::write_volatile(page.as_mut_ptr(), 0) };
            }
        });
    }
    data
}

/// One block: `data[HEADROOM..HEADROOM + len]` holds the bytes read.
pub struct Block {
    /// Headroom, then the bytes read (then unused space).
    pub data: Vec<u8>,
    /// Bytes read.
    pub len: usize,
}

/// A block's bytes shared by the batches of reads that lie in it; handed back to the
/// reading thread for reuse when the last of them is dropped. Or a plain file's whole
/// memory map, which every batch shares ([`SharedBlock::mapped`]).
#[derive(Debug, Default)]
pub struct SharedBlock {
    data: Storage,
    spare: Option<Sender<Vec<u8>>>,
}

/// Where a [`SharedBlock`]'s bytes are.
#[derive(Debug)]
enum Storage {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl Default for Storage {
    fn default() -> Self {
        Storage::Owned(Vec::new())
    }
}

impl SharedBlock {
    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match &self.data {
            Storage::Owned(data) => data,
            Storage::Mapped(map) => map,
        }
    }

    /// The bytes of `map`, to be shared.
    pub fn mapped(map: memmap2::Mmap) -> Arc<SharedBlock> {
        Arc::new(SharedBlock {
            data: Storage::Mapped(map),
            spare: None,
        })
    }
}

impl Drop for SharedBlock {
    fn drop(&mut self) {
        if let (Some(spare), Storage::Owned(data)) = (&self.spare, &mut self.data) {
            let _ = spare.try_send(std::mem::take(data));
        }
    }
}

/// What a block parser reads: blocks read (and decompressed) from the input, or a plain
/// file's memory map, parsed where it lies.
pub enum BlockInput {
    /// Blocks from a reading thread.
    Read(Blocks),
    /// The whole file, mapped.
    Mapped(Arc<SharedBlock>),
}

/// The blocks of one input, in order, from its reading thread.
pub struct Blocks {
    full: Receiver<std::io::Result<Block>>,
    spare: Sender<Vec<u8>>,
}

impl Blocks {
    /// Starts reading `source`; `prefix` (bytes already taken from it) comes first.
    pub fn spawn(mut source: Source, prefix: Vec<u8>) -> Blocks {
        let (full_tx, full) = crossbeam_channel::bounded(DEPTH);
        let (spare, spare_rx) = crossbeam_channel::bounded::<Vec<u8>>(DEPTH + 2);
        std::thread::spawn(move || {
            let mut prefix = Some(prefix);
            let serial = matches!(source, Source::Stream(_));
            loop {
                let mut data = spare_rx.try_recv().unwrap_or_else(|_| new_block(serial));
                data.resize(HEADROOM + BLOCK, 0);
                let mut len = 0;
                if let Some(prefix) = prefix.take() {
                    data[HEADROOM..HEADROOM + prefix.len()].copy_from_slice(&prefix);
                    len = prefix.len();
                }
                let result = source.fill(&mut data[HEADROOM + len..]);
                len += result.as_ref().map_or(0, |&n| n);
                // The bytes read come before the error or the end, if any.
                if len > 0 && full_tx.send(Ok(Block { data, len })).is_err() {
                    return; // the reader is gone
                }
                match result {
                    Ok(n) if n > 0 => {}
                    Ok(_) => return, // the end
                    Err(e) => {
                        let _ = full_tx.send(Err(e));
                        return;
                    }
                }
            }
        });
        Blocks { full, spare }
    }

    /// The next block; `None` at the end of the input.
    pub fn next(&self) -> Option<std::io::Result<Block>> {
        self.full.recv().ok()
    }

    /// Hands a used block's buffer back for reuse.
    pub fn recycle(&self, data: Vec<u8>) {
        let _ = self.spare.try_send(data);
    }

    /// `data` to be shared, handed back for reuse when the last holder drops it.
    pub fn share(&self, data: Vec<u8>) -> Arc<SharedBlock> {
        Arc::new(SharedBlock {
            data: Storage::Owned(data),
            spare: Some(self.spare.clone()),
        })
    }
}

/// The blocks of an input as one stream of bytes, for a parser that wants a [`Read`]
/// (the data is copied out of the blocks). An error is returned again on every later
/// read, so that a parser that reads on cannot take it for the end.
pub struct BlocksReader {
    blocks: Blocks,
    /// The current block, and where its bytes not handed out yet start.
    block: Option<Block>,
    at: usize,
    /// The error met, if any.
    failed: Option<(std::io::ErrorKind, String)>,
}

impl BlocksReader {
    /// Reads `blocks` from their first byte.
    pub fn new(blocks: Blocks) -> BlocksReader {
        BlocksReader {
            blocks,
            block: None,
            at: 0,
            failed: None,
        }
    }
}

impl Read for BlocksReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if let Some((kind, msg)) = &self.failed {
            return Err(std::io::Error::new(*kind, msg.clone()));
        }
        loop {
            if let Some(block) = &self.block {
                let end = HEADROOM + block.len;
                if self.at < end {
                    let n = out.len().min(end - self.at);
                    out[..n].copy_from_slice(&block.data[self.at..self.at + n]);
                    self.at += n;
                    return Ok(n);
                }
            }
            if let Some(used) = self.block.take() {
                self.blocks.recycle(used.data);
            }
            match self.blocks.next() {
                None => return Ok(0),
                Some(Err(e)) => {
                    self.failed = Some((e.kind(), e.to_string()));
                    return Err(e);
                }
                Some(Ok(block)) => {
                    self.block = Some(block);
                    self.at = HEADROOM;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_read_back_as_the_stream_with_the_prefix_first() {
        let data: Vec<u8> = (0..3 * BLOCK + 12_345)
            .map(|i| (i * 31 % 251) as u8)
            .collect();
        let source = Source::Stream(Box::new(std::io::Cursor::new(data[5..].to_vec())));
        let mut reader = BlocksReader::new(Blocks::spawn(source, data[..5].to_vec()));
        let mut back = Vec::new();
        reader.read_to_end(&mut back).unwrap();
        assert!(back == data);
    }

    #[test]
    fn the_prefix_comes_before_an_error_which_is_returned_on_every_later_read() {
        let mut reader = BlocksReader::new(Blocks::spawn(
            Source::Stream(Box::new(Failing)),
            b">c".to_vec(),
        ));
        let mut out = [0; 4];
        assert_eq!(reader.read(&mut out).unwrap(), 2);
        assert_eq!(&out[..2], b">c");
        for _ in 0..3 {
            let e = reader.read_to_end(&mut Vec::new()).unwrap_err();
            assert_eq!(e.to_string(), "broken");
            assert!(reader.read(&mut out).is_err());
        }
    }

    /// A stream that fails.
    struct Failing;

    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("broken"))
        }
    }
}
