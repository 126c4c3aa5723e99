//! The bytes of a reads file in large blocks, read (and, for gzip, inflated) on a
//! thread of their own, so that reading and inflating overlap the parsing of the block
//! before. Plain gzip is inflated on that thread; BGZF, a run of members per block, in
//! parallel ([`super::bgzf`]). Each block keeps room in front of its data, where the
//! reader copies the incomplete record that ended the block before: records then lie
//! whole in one block without moving the block's data.

use std::io::Read;

use crossbeam_channel::{Receiver, Sender};

use super::bgzf::Bgzf;

/// Room kept in front of a block's data for the carried incomplete record.
pub const HEADROOM: usize = 64 << 10;
/// Bytes of data per block.
const BLOCK: usize = 4 << 20;
/// Blocks read ahead.
const DEPTH: usize = 2;

/// Where a file's bytes come from.
pub enum Source {
    /// Read as they come: a plain file, or gzip inflated as it is read.
    Stream(Box<dyn Read + Send>),
    /// BGZF, inflated in parallel.
    Bgzf(Bgzf),
}

impl Source {
    /// Writes the next bytes to the start of `out` (until it is full, or for BGZF as
    /// many whole members as fit); returns how many, 0 only at the end of the file.
    fn fill(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Source::Stream(source) => read_full(source, out),
            Source::Bgzf(bgzf) => bgzf.fill(out),
        }
    }
}

/// Reads from `source` until `out` is full or the end; returns the bytes read.
pub fn read_full(source: &mut impl Read, out: &mut [u8]) -> std::io::Result<usize> {
    let mut len = 0;
    while len < out.len() {
        match source.read(&mut out[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(len)
}

/// One block: `data[HEADROOM..HEADROOM + len]` holds the bytes read.
pub struct Block {
    /// Headroom, then the bytes read (then unused space).
    pub data: Vec<u8>,
    /// Bytes read.
    pub len: usize,
}

/// The blocks of one file, in order, from its reading thread.
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
            loop {
                let mut data = spare_rx.try_recv().unwrap_or_default();
                data.resize(HEADROOM + BLOCK, 0);
                let mut len = 0;
                if let Some(prefix) = prefix.take() {
                    data[HEADROOM..HEADROOM + prefix.len()].copy_from_slice(&prefix);
                    len = prefix.len();
                }
                let result = source.fill(&mut data[HEADROOM + len..]).map(|n| len += n);
                let last = len == 0 || result.is_err();
                let item = result.map(|()| Block { data, len });
                if last {
                    // The end (nothing sent) or the error.
                    if let Err(e) = item {
                        let _ = full_tx.send(Err(e));
                    }
                    return;
                }
                if full_tx.send(item).is_err() {
                    return; // the reader is gone
                }
            }
        });
        Blocks { full, spare }
    }

    /// The next block; `None` at the end of the file.
    pub fn next(&self) -> Option<std::io::Result<Block>> {
        self.full.recv().ok()
    }

    /// Hands a used block's buffer back for reuse.
    pub fn recycle(&self, data: Vec<u8>) {
        let _ = self.spare.try_send(data);
    }
}
