//! Reading a stream until a buffer is full, as the readers above it all need (a pipe
//! or a decoder may hand out fewer bytes per call than asked for).

use std::io::{self, Read};

/// Reads from `source` until `out` is full or the end; returns the bytes read.
pub fn read_full(source: &mut impl Read, out: &mut [u8]) -> io::Result<usize> {
    let mut len = 0;
    while len < out.len() {
        match source.read(&mut out[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(len)
}
