//! The bytes of a reads file in large blocks, read (and, for gzip, inflated) on a
//! thread of their own, so that reading and inflating overlap the parsing of the block
//! before. Each block keeps room in front of its data, where the reader copies the
//! incomplete record that ended the block before: records then lie whole in one block
//! without moving the block's data.

use std::io::Read;

use crossbeam_channel::{Receiver, Sender};

/// Room kept in front of a block's data for the carried incomplete record.
pub const HEADROOM: usize = 64 << 10;
/// Bytes of data per block.
const BLOCK: usize = 4 << 20;
/// Blocks read ahead.
const DEPTH: usize = 2;

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
    pub fn spawn(mut source: Box<dyn Read + Send>, prefix: Vec<u8>) -> Blocks {
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
                let result = loop {
                    if HEADROOM + len == data.len() {
                        break Ok(());
                    }
                    match source.read(&mut data[HEADROOM + len..]) {
                        Ok(0) => break Ok(()),
                        Ok(n) => len += n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => break Err(e),
                    }
                };
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
