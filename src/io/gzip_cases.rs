//! Test cases every gzip stream decoder of the input layer passes: ISA-L's
//! (`gzip::GzipDecoder`) and zlib-rs's a block at a time (`gzip_blocks`).

use std::io::{self, Read, Write};

/// `data` gzipped (one member).
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(data).unwrap();
    gz.finish().unwrap()
}

/// `n` small FASTQ records.
pub fn text(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| format!("@r{i}\nACGT{}\n+\nIIII\n", i % 97).into_bytes())
        .collect()
}

/// A source handing out at most `.1` bytes per read.
pub struct Trickle<'a>(pub &'a [u8], pub usize);

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.0.len().min(self.1).min(out.len());
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// What a decoder gives for bytes handed out so many per read.
pub type Inflate = dyn Fn(&[u8], usize) -> io::Result<Vec<u8>>;

/// Members (an empty one among them) inflate in order whatever the read sizes.
pub fn members_inflate_in_order(inflate: &Inflate) {
    let (a, b) = (text(50_000), text(3));
    let mut both = gzip(&a);
    both.extend(gzip(b""));
    both.extend(gzip(&b));
    for chunk in [1, 7, 4096, usize::MAX] {
        let all = inflate(&both, chunk).unwrap();
        assert!(all == [&a[..], &b[..]].concat(), "chunk {chunk}");
    }
    assert!(inflate(&gzip(b""), 3).unwrap().is_empty());
}

/// Cut or corrupt streams are errors that say what and where; a bad CRC-32 ends with
/// `bad_crc` (the decoder's words).
pub fn cut_or_corrupt_streams_say_what_and_where(inflate: &Inflate, bad_crc: &str) {
    let one = gzip(&text(20_000));
    let mut two = one.clone();
    two.extend(&one);
    for cut in [5, one.len() / 2, one.len() - 4] {
        let e = inflate(&two[..one.len() + cut], 1000).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        let message = e.to_string();
        assert!(message.starts_with("truncated gzip stream: it ends inside member 2, after "));
        assert!(message.ends_with(&format!(" {} compressed bytes", one.len() + cut)));
    }
    let mut bad = two.clone();
    bad[one.len() + one.len() / 2] ^= 0x10;
    let e = inflate(&bad, 1000).unwrap_err().to_string();
    assert!(
        e.starts_with("corrupt gzip data in member 2 near compressed byte "),
        "{e}"
    );
    let mut crc = two.clone();
    let at = crc.len() - 6;
    crc[at] ^= 1;
    let e = inflate(&crc, 1000).unwrap_err().to_string();
    assert!(e.starts_with("corrupt gzip data in member 2 "), "{e}");
    assert!(e.ends_with(bad_crc), "{e}");
    let mut trailing = two;
    trailing.extend(b"not gzip, but text after the last member");
    let e = inflate(&trailing, 1000).unwrap_err().to_string();
    assert!(e.starts_with("corrupt gzip data in member 3 "), "{e}");
}
