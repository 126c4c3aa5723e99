//! Telling what an input is from its first bytes, without reading further: first how
//! it is compressed (from the raw bytes), then what it holds (from the decompressed
//! ones).

use super::bgzf;

/// How an input is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Not compressed (or in a way not recognized: the content check then says so).
    Plain,
    /// gzip (one member or several).
    Gzip,
    /// BGZF (`bgzip`): gzip members that can be inflated in parallel.
    Bgzf,
    /// bzip2 (one stream or several, as `pbzip2` writes).
    Bzip2,
    /// Zstandard.
    Zstd,
    /// xz.
    Xz,
}

/// The compression of a stream that starts with `head` (a BGZF header needs its first
/// 18 bytes or so; a shorter one is taken for plain gzip).
pub fn compression(head: &[u8]) -> Compression {
    const GZIP: &[u8] = &[0x1f, 0x8b];
    const BZIP2: &[u8] = b"BZh";
    const ZSTD: &[u8] = &[0x28, 0xb5, 0x2f, 0xfd];
    const XZ: &[u8] = &[0xfd, b'7', b'z', b'X', b'Z', 0];
    match head {
        _ if bgzf::is_bgzf(head) => Compression::Bgzf,
        h if h.starts_with(GZIP) => Compression::Gzip,
        h if h.starts_with(BZIP2) => Compression::Bzip2,
        h if h.starts_with(ZSTD) => Compression::Zstd,
        h if h.starts_with(XZ) => Compression::Xz,
        _ => Compression::Plain,
    }
}

/// What a decompressed input holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    /// FASTQ: starts with `@` (and is not a SAM header).
    Fastq,
    /// FASTA: starts with `>`.
    Fasta,
    /// Nothing at all.
    Empty,
    /// BAM (its magic, after BGZF).
    Bam,
    /// CRAM (its magic).
    Cram,
    /// SAM text: a header line, or an alignment line of 11 or more fields.
    Sam,
    /// A galign index file.
    Index,
    /// Anything else; the byte it starts with.
    Other(u8),
}

/// The first bytes of every galign index file, defined here (`io` sits below `index`,
/// which reads its references through it) so that an index given as input is refused;
/// `index::format::MAGIC` is this.
pub const INDEX_MAGIC: &[u8; 8] = b"GALIGNIX";

/// What a decompressed input starting with `head` holds.
pub fn content(head: &[u8]) -> Content {
    match head {
        [] => Content::Empty,
        h if h.starts_with(b"BAM\x01") => Content::Bam,
        h if h.starts_with(b"CRAM") => Content::Cram,
        h if h.starts_with(INDEX_MAGIC) => Content::Index,
        h if is_sam(h) => Content::Sam,
        [b'@', ..] => Content::Fastq,
        [b'>', ..] => Content::Fasta,
        [first, ..] => Content::Other(*first),
    }
}

/// Whether `head` starts like SAM: a header line (`@HD`, `@SQ`, `@RG`, `@PG` or `@CO`,
/// then a tab) that is not a FASTQ header (whose record's third line starts with `+`,
/// as `samtools fastq -T` can write), or a first line of 11 or more tab-separated fields
/// whose second, the flag, is a number, and whose first, the read name, does not start
/// with `@` (which SAM's QNAME cannot hold: such a line is a FASTQ header with tabs).
fn is_sam(head: &[u8]) -> bool {
    const HEADER_CODES: [&[u8; 2]; 5] = [b"HD", b"SQ", b"RG", b"PG", b"CO"];
    let mut lines = head.split(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    if let [b'@', rest @ ..] = first {
        let third = lines.nth(1);
        return matches!(rest, [a, b, b'\t', ..] if HEADER_CODES.contains(&&[*a, *b]))
            && third.is_none_or(|l| !l.starts_with(b"+"));
    }
    let mut fields = first.split(|&b| b == b'\t');
    let flag = fields.nth(1).unwrap_or_default();
    !flag.is_empty() && flag.iter().all(u8::is_ascii_digit) && fields.count() >= 9
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn compressions_are_told_from_their_magic() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"@r\nA\n+\nI\n").unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(compression(&gz), Compression::Gzip);
        assert_eq!(compression(&gz[..1]), Compression::Plain);
        let bgzf_header = [
            0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, b'B', b'C', 2, 0, 27, 0,
        ];
        assert_eq!(compression(&bgzf_header), Compression::Bgzf);
        assert_eq!(compression(&bgzf_header[..15]), Compression::Gzip);
        let bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default())
            .finish()
            .unwrap();
        assert_eq!(compression(&bz), Compression::Bzip2);
        assert_eq!(
            compression(&zstd::encode_all(&b"x"[..], 3).unwrap()),
            Compression::Zstd
        );
        let xz = liblzma::write::XzEncoder::new(Vec::new(), 6)
            .finish()
            .unwrap();
        assert_eq!(compression(&xz), Compression::Xz);
        for plain in [&b"@r\nACGT\n"[..], b">c\nACGT\n", b"", b"BZ", b"\x1f"] {
            assert_eq!(compression(plain), Compression::Plain);
        }
    }

    #[test]
    fn contents_are_told_from_their_first_bytes() {
        assert_eq!(content(b"@r1\nACGT\n+\nIIII\n"), Content::Fastq);
        assert_eq!(content(b">chr1 x\nACGT\n"), Content::Fasta);
        assert_eq!(content(b""), Content::Empty);
        assert_eq!(content(b"BAM\x01\x10\0\0\0@HD"), Content::Bam);
        assert_eq!(content(b"CRAM\x03\x00"), Content::Cram);
        assert_eq!(content(b"GALIGNIX\x01\0\0\0"), Content::Index);
        assert_eq!(content(b"\nACGT"), Content::Other(b'\n'));
        assert_eq!(content(b"BAM"), Content::Other(b'B'));
    }

    #[test]
    fn sam_is_told_from_fastq_with_similar_names() {
        assert_eq!(
            content(b"@HD\tVN:1.6\tSO:unsorted\n@SQ\tSN:c\tLN:9\n"),
            Content::Sam
        );
        assert_eq!(content(b"@SQ\tSN:c\tLN:9\n"), Content::Sam);
        assert_eq!(content(b"@CO\tx"), Content::Sam);
        let record = b"r1\t0\tchr1\t100\t60\t4M\t*\t0\t0\tACGT\tIIII\n";
        assert_eq!(content(record), Content::Sam);
        // FASTQ reads named like header codes, with or without a tab comment.
        assert_eq!(content(b"@HD\tBC:Z:AC\nACGT\n+\nIIII\n"), Content::Fastq);
        assert_eq!(content(b"@HD1\nACGT\n+\nIIII\n"), Content::Fastq);
        assert_eq!(content(b"@XY\tVN:1\nACGT\n+\nIIII\n"), Content::Fastq);
        // A FASTQ header of eleven tab-separated words, the second a number (fuzzing,
        // session 38): SAM's read names cannot start with `@`.
        let tabs = b"@r 6\t1\tx\tx\tx\tx\tx\tx\tx\tx\tx\tx\nACGT\n+\nIIII\n";
        assert_eq!(content(tabs), Content::Fastq);
        // Ten fields, or a flag that is no number: not SAM.
        assert_eq!(
            content(b"r1\t0\tc\t1\t60\t4M\t*\t0\t0\tACGT\n"),
            Content::Other(b'r')
        );
        assert_eq!(
            content(b"r1\tx\tc\t1\t60\t4M\t*\t0\t0\tA\tI\n"),
            Content::Other(b'r')
        );
    }
}
