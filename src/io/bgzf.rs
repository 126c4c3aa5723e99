//! BGZF input (`bgzip` output, SAM spec section 4.1): gzip members of at most 64 KiB,
//! each giving its own size in a `BC` extra field, so that a run of them can be found
//! without inflating and then inflated in parallel. Each member's CRC32 and ISIZE are
//! checked; a corrupt or truncated member is an error that gives its byte offset in
//! the file. Should a member that is not BGZF follow (BGZF and plain gzip files
//! concatenated, say), the rest of the file is inflated serially, as plain gzip is.

use std::io::{self, Cursor, Read};
use std::ops::Range;

use libdeflater::{DecompressionError, Decompressor};
use rayon::prelude::*;

use super::gzip::GzipDecoder;
use super::read_full::read_full;

/// Compressed bytes read from the file at a time.
const CHUNK: usize = 1 << 20;
/// Compressed bytes after which a run of members ends (bounds a run of members that
/// inflate to little or nothing). Large enough that one run fills a block of
/// [`super::blocks`] from FASTQ at level 6 (~4x): at 4 MiB a block held ~18 of its 32
/// MiB, twice the blocks (and their allocation) for the same bytes.
const RUN: usize = 10 << 20;
/// Bytes of a gzip member header before its extra field.
const FIXED: usize = 12;
/// Bytes of a gzip member trailer: CRC32 and ISIZE.
const TRAILER: usize = 8;

/// What the bytes at a member's start are.
#[derive(Debug, PartialEq, Eq)]
enum Header {
    /// A BGZF member header: its length and the member's.
    Bgzf { header: usize, member: usize },
    /// Not a BGZF member header.
    Other,
    /// Too few bytes to tell: the start of a BGZF member header, or nothing.
    Short,
}

/// Reads the member header at the start of `bytes`.
fn header(bytes: &[u8]) -> Header {
    // ID1, ID2, CM = deflate, FLG = FEXTRA only.
    const START: [u8; 4] = [0x1f, 0x8b, 8, 4];
    let n = bytes.len().min(START.len());
    if bytes[..n] != START[..n] {
        return Header::Other;
    }
    if bytes.len() < FIXED {
        return Header::Short;
    }
    let xlen = u16::from_le_bytes([bytes[10], bytes[11]]) as usize;
    let Some(mut extra) = bytes.get(FIXED..FIXED + xlen) else {
        return Header::Short;
    };
    while let [si1, si2, l1, l2, rest @ ..] = extra {
        let slen = u16::from_le_bytes([*l1, *l2]) as usize;
        if let ([b'B', b'C', 2, 0], [s1, s2, ..]) = ([*si1, *si2, *l1, *l2], rest) {
            let member = u16::from_le_bytes([*s1, *s2]) as usize + 1;
            if member < FIXED + xlen + TRAILER {
                return Header::Other;
            }
            return Header::Bgzf {
                header: FIXED + xlen,
                member,
            };
        }
        extra = rest.get(slen..).unwrap_or_default();
    }
    Header::Other
}

/// Whether `head`, the first bytes of a stream, starts with a whole BGZF member header.
pub fn is_bgzf(head: &[u8]) -> bool {
    matches!(header(head), Header::Bgzf { .. })
}

/// One member of a run: where its deflate data lie in the buffer and what it must
/// inflate to.
struct Member {
    /// Its deflate data in [`Bgzf::buf`].
    deflate: Range<usize>,
    /// Its CRC32.
    crc: u32,
    /// Its ISIZE: the bytes it inflates to.
    size: usize,
    /// Its byte offset in the file.
    offset: u64,
}

/// A BGZF file, inflated a run of members at a time.
pub struct Bgzf {
    /// The compressed bytes; `None` once the rest is inflated serially.
    file: Option<Box<dyn Read + Send>>,
    /// The rest of the file inflated serially, after a member that is not BGZF.
    serial: Option<Box<dyn Read + Send>>,
    /// Compressed bytes read, from `offset` in the file.
    buf: Vec<u8>,
    /// Where in `buf` the next member starts: the ones before are inflated or in the
    /// current run.
    start: usize,
    /// The byte offset of `buf[0]` in the file.
    offset: u64,
    /// The file has no more bytes.
    eof: bool,
    /// The current run.
    members: Vec<Member>,
    /// The input as the warning names it.
    name: String,
    /// Whether the last member so far was empty (as BGZF's end-of-file block is).
    last_empty: bool,
}

impl Bgzf {
    /// Reads BGZF from `file` (named `name` in warnings), from its first byte.
    pub fn new(file: Box<dyn Read + Send>, name: &str) -> Bgzf {
        Bgzf {
            file: Some(file),
            serial: None,
            buf: Vec::new(),
            start: 0,
            offset: 0,
            eof: false,
            members: Vec::new(),
            name: name.to_string(),
            last_empty: false,
        }
    }

    /// Fills `out` with the next inflated bytes, as many as whole members give; returns
    /// how many (0 only at the end of the file).
    pub fn fill(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(serial) = &mut self.serial {
                return read_full(serial, out);
            }
            let n = self.run(out)?;
            if let Some(last) = self.members.last() {
                self.last_empty = last.size == 0;
            }
            let end = self.eof && self.start == self.buf.len();
            if end && n == 0 && !self.last_empty {
                self.warn_no_eof_block();
            }
            if n > 0 || end {
                return Ok(n);
            }
        }
    }

    /// Finds the members that fit in `out` and inflates them in parallel; returns the
    /// bytes they gave.
    fn run(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.buf.drain(..self.start);
        self.offset += self.start as u64;
        self.start = 0;
        self.members.clear();
        let mut used = 0;
        let mut problem = None;
        while self.start < RUN {
            let at = self.start;
            let offset = self.offset + at as u64;
            let header = loop {
                match header(&self.buf[at..]) {
                    Header::Short if !self.eof => self.more()?,
                    h => break h,
                }
            };
            let (header, member) = match header {
                Header::Bgzf { header, member } => (header, member),
                Header::Short if at == self.buf.len() => break, // the end
                Header::Short => {
                    problem = Some(truncated(offset, self.buf.len() - at, None));
                    break;
                }
                Header::Other => {
                    self.switch_to_serial();
                    break;
                }
            };
            while self.buf.len() - at < member && !self.eof {
                self.more()?;
            }
            if self.buf.len() - at < member {
                problem = Some(truncated(offset, self.buf.len() - at, Some(member)));
                break;
            }
            let end = at + member;
            let word = |i: usize| u32::from_le_bytes(self.buf[i..i + 4].try_into().unwrap());
            let size = word(end - 4) as usize;
            if size > out.len() {
                // Not BGZF (at most 64 KiB a member), or an ISIZE out of bounds: as
                // plain gzip.
                self.switch_to_serial();
                break;
            }
            if used + size > out.len() {
                break; // for the next run
            }
            self.members.push(Member {
                deflate: at + header..end - TRAILER,
                crc: word(end - TRAILER),
                size,
                offset,
            });
            used += size;
            self.start = end;
        }
        inflate(&self.buf, &self.members, &mut out[..used])?;
        match problem {
            Some(e) => Err(e),
            None => Ok(used),
        }
    }

    /// Says, as htslib does, that the file lacks its end-of-file block: it may have been
    /// cut at a block boundary. Once: later calls find `last_empty` set.
    fn warn_no_eof_block(&mut self) {
        eprintln!(
            "galign: warning: {}: the BGZF end-of-file block is missing: the file is \
             probably truncated",
            self.name
        );
        self.last_empty = true;
    }

    /// Reads more compressed bytes.
    fn more(&mut self) -> io::Result<()> {
        let len = self.buf.len();
        self.buf.resize(len + CHUNK, 0);
        let file = self.file.as_mut().expect("read after the switch to serial");
        let n = read_full(file, &mut self.buf[len..]);
        self.buf.truncate(len + n.as_ref().map_or(0, |&n| n));
        self.eof = n? == 0;
        Ok(())
    }

    /// Inflates the rest of the file, from `start`, serially.
    fn switch_to_serial(&mut self) {
        let rest = Cursor::new(self.buf.split_off(self.start));
        let file = self.file.take().expect("one switch to serial");
        self.serial = Some(Box::new(GzipDecoder::new(rest.chain(file))));
    }
}

/// The error for a member cut short by the end of the file.
fn truncated(offset: u64, have: usize, member: Option<usize>) -> io::Error {
    let what = match member {
        Some(n) => format!("{have} of its {n} bytes"),
        None => format!("{have} bytes of its header"),
    };
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        format!("truncated BGZF block at byte offset {offset}: the file ends after {what}"),
    )
}

/// Inflates `members`, whose data lie in `buf`, in parallel into `out` (the sum of
/// their sizes), checking each; the error is the first bad member's.
fn inflate(buf: &[u8], members: &[Member], out: &mut [u8]) -> io::Result<()> {
    let mut slots = Vec::with_capacity(members.len());
    let mut rest = out;
    for m in members {
        let (slot, tail) = rest.split_at_mut(m.size);
        slots.push(slot);
        rest = tail;
    }
    let results: Vec<io::Result<()>> = members
        .par_iter()
        .zip(slots)
        .map_init(Decompressor::new, |inflater, (m, slot)| {
            inflate_member(inflater, &buf[m.deflate.clone()], slot, m)
        })
        .collect();
    results.into_iter().collect()
}

/// Inflates one member's `data` into `out`, which is its ISIZE long, with libdeflate
/// (the whole member at once, as htslib does: 1.5x zlib-rs on FASTQ members, as fast as
/// ISA-L's stateless inflate, measured on this project's 2-core machine).
fn inflate_member(
    inflater: &mut Decompressor,
    data: &[u8],
    out: &mut [u8],
    m: &Member,
) -> io::Result<()> {
    let bad = |what: String| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("corrupt BGZF block at byte offset {}: {what}", m.offset),
        )
    };
    match inflater.deflate_decompress(data, out) {
        Ok(written) if written == out.len() => {}
        Ok(written) => {
            return Err(bad(format!(
                "it inflates to {written} bytes, but its ISIZE is {}",
                out.len()
            )))
        }
        Err(DecompressionError::InsufficientSpace) => {
            return Err(bad(format!(
                "it inflates to more than its ISIZE of {} bytes",
                out.len()
            )))
        }
        Err(DecompressionError::BadData) => {
            return Err(bad("invalid or truncated deflate data".to_string()))
        }
    }
    if libdeflater::crc32(out) != m.crc {
        return Err(bad("CRC32 mismatch".to_string()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::read::MultiGzDecoder;
    use flate2::write::{DeflateEncoder, GzEncoder};
    use flate2::Compression;
    use std::io::Write;

    /// One BGZF member holding `data`.
    fn member(data: &[u8]) -> Vec<u8> {
        let mut e = DeflateEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        let deflate = e.finish().unwrap();
        let size = (18 + deflate.len() + 8 - 1) as u16;
        let mut m = vec![
            0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, b'B', b'C', 2, 0,
        ];
        m.extend_from_slice(&size.to_le_bytes());
        m.extend_from_slice(&deflate);
        m.extend_from_slice(&crc32fast::hash(data).to_le_bytes());
        m.extend_from_slice(&(data.len() as u32).to_le_bytes());
        m
    }

    /// `data` as BGZF in members of `size` bytes, then the empty EOF member.
    fn bgzf(data: &[u8], size: usize) -> Vec<u8> {
        let mut file: Vec<u8> = data.chunks(size).flat_map(member).collect();
        file.extend(member(b""));
        file
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// Everything `file` inflates to, filled in parts of `part` bytes.
    fn inflate_all(file: Vec<u8>, part: usize) -> io::Result<Vec<u8>> {
        let mut reader = Bgzf::new(Box::new(Cursor::new(file)), "test");
        let mut all = Vec::new();
        let mut out = vec![0; part];
        loop {
            match reader.fill(&mut out)? {
                0 => return Ok(all),
                n => all.extend_from_slice(&out[..n]),
            }
        }
    }

    fn text(n: usize) -> Vec<u8> {
        (0..n).map(|i| b"ACGT\n"[(i * 7 + i / 13) % 5]).collect()
    }

    #[test]
    fn headers() {
        let m = member(b"abc");
        assert_eq!(
            header(&m),
            Header::Bgzf {
                header: 18,
                member: m.len()
            }
        );
        for n in 0..18 {
            assert_eq!(header(&m[..n]), Header::Short, "{n} bytes");
        }
        assert_eq!(header(&gzip(b"abc")), Header::Other);
        assert_eq!(header(b"@r\nACGT\n"), Header::Other);
        // BC after another subfield.
        let mut other = m[..10].to_vec();
        other.extend_from_slice(&[11, 0, b'X', b'Y', 1, 0, 7]);
        other.extend_from_slice(&m[12..18]);
        assert!(matches!(header(&other), Header::Bgzf { header: 23, .. }));
        // No BC, or a BSIZE smaller than a member can be.
        let mut no_bc = m.clone();
        no_bc[12] = b'X';
        assert_eq!(header(&no_bc), Header::Other);
        let mut small = m.clone();
        small[16..18].copy_from_slice(&10u16.to_le_bytes());
        assert_eq!(header(&small), Header::Other);
    }

    #[test]
    fn inflates_in_runs_as_a_serial_decoder_does() {
        let data = text(1_000_000);
        for (size, part) in [(65280, 1 << 20), (1000, 4096), (65536, 65536), (7, 100)] {
            let file = bgzf(&data, size);
            let mut serial = Vec::new();
            MultiGzDecoder::new(&file[..])
                .read_to_end(&mut serial)
                .unwrap();
            assert_eq!(serial, data);
            assert_eq!(inflate_all(file, part).unwrap(), data, "{size} {part}");
        }
        assert!(inflate_all(bgzf(b"", 1), 100).unwrap().is_empty());
        // Empty members anywhere, and no EOF member.
        let mut file = member(b"");
        file.extend(member(b"ab"));
        file.extend(member(b""));
        file.extend(member(b""));
        file.extend(member(b"c"));
        assert_eq!(inflate_all(file, 10).unwrap(), b"abc");
    }

    #[test]
    fn plain_gzip_after_bgzf_is_inflated_serially() {
        let data = text(300_000);
        let mut file = bgzf(&data[..100_000], 30_000);
        file.extend(gzip(&data[100_000..200_000]));
        file.extend(bgzf(&data[200_000..], 50_000));
        assert_eq!(inflate_all(file, 1 << 16).unwrap(), data);
    }

    #[test]
    fn truncated_and_corrupt_members_are_errors_with_their_offset() {
        let data = text(200_000);
        let file = bgzf(&data, 50_000);
        let second = member(&data[..50_000]).len();
        let third = second + member(&data[50_000..100_000]).len();
        let error = |file: Vec<u8>| inflate_all(file, 1 << 20).unwrap_err().to_string();
        // Cut inside the third member, and inside its header.
        let e = error(file[..third + 100].to_vec());
        assert!(
            e.contains(&format!("truncated BGZF block at byte offset {third}")),
            "{e}"
        );
        assert!(e.contains("after 100 of its"), "{e}");
        let e = error(file[..third + 5].to_vec());
        assert!(
            e.contains(&format!(
                "offset {third}: the file ends after 5 bytes of its header"
            )),
            "{e}"
        );
        // A flipped bit in the data, in the CRC32, in ISIZE.
        for (at, what) in [
            (second + 100, ""),
            (third - 8, "CRC32 mismatch"),
            (third - 4, "ISIZE"),
        ] {
            let mut bad = file.clone();
            bad[at] ^= 0x10;
            let e = error(bad);
            let at = format!("corrupt BGZF block at byte offset {second}: ");
            assert!(e.contains(&at) && e.contains(what), "{e}");
        }
    }
}
