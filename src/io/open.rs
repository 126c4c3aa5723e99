//! Opening an input: a path, `-` (stdin), `/dev/stdin`, a pipe, a FIFO or a process
//! substitution, all alike. Nothing is ever rewound: the first bytes are read into a
//! peek buffer, the compression is told from them, and they are chained back in front
//! of the rest for the decoder. The first decompressed bytes then say what the input
//! holds; a directory, BAM, CRAM, SAM or a galign index is refused by name, with what
//! to give instead.

use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::Path;

use super::bgzf::Bgzf;
use super::blocks::{BlockInput, Blocks, BlocksReader, SharedBlock, Source};
use super::gzip;
use super::gzip_stream;
use super::positioned::PositionedFile;
use super::read_full::read_full;
use super::sniff::{self, Compression, Content};

/// Raw bytes read to tell the compression (a BGZF header is at most 64 KiB + 12).
const PEEK: usize = 64 << 10;
/// Decompressed bytes read to tell the content (also the most BGZF inflates at once
/// for it, so it holds whole members).
const HEAD: usize = 1 << 20;

/// What an input is expected to hold; it picks the words of the errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Reads to map: FASTQ, FASTA or unaligned BAM.
    Reads,
    /// A reference: FASTA.
    Reference,
}

impl Role {
    fn expected(self) -> &'static str {
        match self {
            Role::Reads => "reads (FASTQ, FASTA or unaligned BAM)",
            Role::Reference => "a FASTA reference",
        }
    }
}

/// What a readable input holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Records start with `@`.
    Fastq,
    /// Records start with `>`.
    Fasta,
    /// BAM (reads only): unaligned BAM records.
    Bam,
}

/// Why an input cannot be read. Each names the input as the user wrote it (`-` as
/// `stdin`).
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The path cannot be opened. (The cause is in the message, not a `source`, which
    /// error chains would print a second time.)
    #[error("{name}: cannot open: {error}")]
    Open {
        /// The input as the user wrote it (`-` as `stdin`).
        name: String,
        /// The operating system's or decompressor's error.
        error: io::Error,
    },
    /// Reading or decompressing failed.
    #[error("{name}: cannot read: {error}")]
    Read {
        /// The input as the user wrote it (`-` as `stdin`).
        name: String,
        /// The operating system's or decompressor's error.
        error: io::Error,
    },
    /// A directory was given.
    #[error("{name}: is a directory; give {expected} as a file, or `-` for stdin")]
    Directory {
        /// The input as the user wrote it (`-` as `stdin`).
        name: String,
        /// What the input should be (reads, a reference).
        expected: &'static str,
    },
    /// Nothing in it, once decompressed.
    #[error("{name}: the input is empty (no {what})")]
    Empty {
        /// The input as the user wrote it (`-` as `stdin`).
        name: String,
        /// What the input lacks.
        what: &'static str,
    },
    /// A format galign does not read, with what to do instead.
    #[error("{name}: this is {what}, not {expected}; {hint}")]
    Refused {
        /// The input as the user wrote it (`-` as `stdin`).
        name: String,
        /// What the input holds instead.
        what: &'static str,
        /// What the input should be (reads, a reference).
        expected: &'static str,
        /// What to do instead.
        hint: String,
    },
    /// Neither FASTQ nor FASTA.
    #[error(
        "{name}: malformed, not {expected}: it starts with '{found}', \
         where FASTQ starts with '@' and FASTA with '>'"
    )]
    Unknown {
        /// The input as the user wrote it (`-` as `stdin`).
        name: String,
        /// What the input should be (reads, a reference).
        expected: &'static str,
        /// The input's first characters.
        found: String,
    },
}

/// An input, open and sniffed: its decompressed bytes are `head`, then `source`'s.
pub struct Opened {
    /// The input as the user wrote it, `-` as `stdin`.
    pub name: String,
    /// What it holds.
    pub format: Format,
    /// Its size in bytes when it is a regular file (compressed size if compressed).
    pub size_hint: Option<u64>,
    /// Decompressed bytes already taken from `source`.
    head: Vec<u8>,
    /// The rest, decompressed.
    source: Source,
}

impl Opened {
    /// Its bytes in large blocks, read and decompressed on a thread of their own.
    pub fn into_blocks(self) -> Blocks {
        Blocks::spawn(self.source, self.head)
    }

    /// Its bytes for a block parser: a plain regular file whose start is in the page
    /// cache through a memory map, parsed where it lies (where mapping works), else read
    /// in blocks ([`Opened::into_blocks`]). The map saves copying every byte into a block: H200
    /// host, 21.2 M reads of 148 bp (7.3 GB FASTQ) against chr20 + 3 Gbp of random DNA,
    /// `map -a`, three rounds: GPU path 1.711-2.004 -> 1.567-1.807 s, system time 4.0 ->
    /// 1.5 s; CPU path 3.12-3.25 -> 2.75-3.01 s (BENCHMARKS.md, session 32, r21).
    pub fn into_block_input(self) -> BlockInput {
        if let Source::File(file) = &self.source {
            // SAFETY: the file is only read through the map. One that shrinks while
            // mapped faults (SIGBUS) where a read would have ended early: the CLI then
            // stops with an error and removes its temporaries (`crate::signals`).
            if let Ok(map) = unsafe { memmap2::Mmap::map(file.file()) } {
                if map.get(..self.head.len()) == Some(&self.head[..]) && starts_in_memory(&map) {
                    let _ = map.advise(memmap2::Advice::Sequential);
                    return BlockInput::Mapped(SharedBlock::mapped(map));
                }
            }
        }
        BlockInput::Read(self.into_blocks())
    }

    /// Its bytes as one stream, read and decompressed on a thread of their own.
    pub fn into_reader(self) -> BlocksReader {
        BlocksReader::new(self.into_blocks())
    }
}

/// Bytes at the start of a file whose presence in the page cache decides how it is read.
const CACHED_START: usize = 64 << 20;

/// Whether at least 90% of the first [`CACHED_START`] bytes of `map` are in the page
/// cache. A file read from the disk is faster in large parallel reads than through a
/// map's page faults (CI-class machine, 730 MB FASTQ, caches dropped, `map` against
/// phiX: 2.82-3.22 s by reads, 3.14-3.61 s mapped even with the next windows advised);
/// one in the cache faster mapped (its bytes are not copied).
fn starts_in_memory(map: &memmap2::Mmap) -> bool {
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as usize;
    let len = map.len().min(CACHED_START);
    let mut resident = vec![0u8; len.div_ceil(page)];
    // SAFETY: the range lies in the live map (page-aligned start); `resident` has one
    // byte per page of it.
    let ok = unsafe {
        libc::mincore(
            map.as_ptr() as *mut libc::c_void,
            len,
            resident.as_mut_ptr(),
        )
    };
    ok == 0 && resident.iter().filter(|&&r| r & 1 == 1).count() * 10 >= resident.len() * 9
}

/// How an input path is shown in messages: `-` as `stdin`, anything else as written.
pub fn shown_name(path: &Path) -> String {
    match path.as_os_str() == "-" {
        true => "stdin".to_string(),
        false => path.display().to_string(),
    }
}

/// Whether `path` is read as a stream with no file name of its own: `-`, a pipe, a FIFO,
/// a process substitution or a terminal (not a regular file, not a directory).
pub fn is_stream(path: &Path) -> bool {
    path.as_os_str() == "-" || std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// How many times its compressed size a compressed FASTQ file is taken to hold: gzip
/// -6 and BGZF keep HG002's 148 bp reads to 23% of their bytes (730 MB in 165 MB).
const FASTQ_INFLATION: u64 = 4;

/// The bytes `path` comes to once decompressed, estimated: a regular file's size, times
/// [`FASTQ_INFLATION`] when it is compressed; `None` for a stream (its size is not known
/// before it is read) or a file that cannot be read.
pub fn estimated_size(path: &Path) -> Option<u64> {
    if is_stream(path) {
        return None;
    }
    let mut file = File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    let mut head = [0u8; 32];
    let got = read_full(&mut file, &mut head).ok()?;
    Some(match sniff::compression(&head[..got]) {
        Compression::Plain => size,
        _ => size.saturating_mul(FASTQ_INFLATION),
    })
}

/// Opens `path` (`-` for stdin) and sniffs it, expecting `role`'s content; a gzip file,
/// or a gzip stream once held whole ([`gzip_stream::arriving`]), may be inflated on up to
/// `gzip_threads` threads ([`gzip::parallel`]).
pub fn open(path: &Path, role: Role, gzip_threads: usize) -> Result<Opened, InputError> {
    let name = shown_name(path);
    let (raw, size_hint) = open_raw(path, &name, role)?;
    let read_error = |error| InputError::Read {
        name: name.clone(),
        error,
    };
    let (head, source) = decompress(raw, &name, gzip_threads).map_err(read_error)?;
    let format = format(&head, &name, role)?;
    Ok(Opened {
        name,
        format,
        size_hint,
        head,
        source,
    })
}

/// The raw bytes of an input.
enum Raw {
    /// A regular file: read by position, in parallel, when it is not compressed.
    File(File),
    /// Stdin, a pipe, a FIFO or anything else read as it comes.
    Stream(Box<dyn Read + Send>),
}

impl Raw {
    /// The bytes as a stream, for a decoder.
    fn into_stream(self) -> Box<dyn Read + Send> {
        match self {
            Raw::File(file) => Box::new(file),
            Raw::Stream(stream) => stream,
        }
    }
}

impl Read for Raw {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match self {
            Raw::File(file) => file.read(out),
            Raw::Stream(stream) => stream.read(out),
        }
    }
}

/// The raw bytes of `path` and its size when it is a regular file.
fn open_raw(path: &Path, name: &str, role: Role) -> Result<(Raw, Option<u64>), InputError> {
    if path.as_os_str() == "-" {
        enlarge_pipe(&io::stdin());
        return Ok((Raw::Stream(Box::new(io::stdin())), None));
    }
    let open_error = |error| InputError::Open {
        name: name.to_string(),
        error,
    };
    let metadata = std::fs::metadata(path).map_err(open_error)?;
    if metadata.is_dir() {
        return Err(InputError::Directory {
            name: name.to_string(),
            expected: role.expected(),
        });
    }
    let file = File::open(path).map_err(open_error)?;
    if !metadata.is_file() {
        enlarge_pipe(&file);
        return Ok((Raw::Stream(Box::new(file)), None));
    }
    Ok((Raw::File(file), Some(metadata.len())))
}

/// Bytes a piped input's pipe may hold (Linux's default most for a user, and 16 times
/// its default size).
const PIPE_BYTES: i32 = 1 << 20;

/// Asks for a larger pipe buffer when `input` is a pipe (a no-op on anything else, or
/// where the system refuses): each read then takes up to 1 MiB instead of 64 KiB and the
/// writer blocks 16 times less often. Measured (2 cores, 145 MB FASTQ through `cat`):
/// 211 reads of stdin instead of about 2,200, and the piped run 1.07x the time of the
/// file given by name instead of 1.09x (within the noise there; the gain is for hosts
/// where the writer has a core of its own).
fn enlarge_pipe(input: &impl std::os::fd::AsRawFd) {
    #[cfg(target_os = "linux")]
    // SAFETY: fcntl on a descriptor this process holds open; F_SETPIPE_SZ fails harmlessly
    // on anything that is not a pipe.
    unsafe {
        libc::fcntl(input.as_raw_fd(), libc::F_SETPIPE_SZ, PIPE_BYTES);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = input;
}

/// The first decompressed bytes of `raw` (up to [`HEAD`]) and the decompressed rest (a
/// gzip file inflated on up to `gzip_threads` threads); `name` is the input as warnings
/// name it.
fn decompress(mut raw: Raw, name: &str, gzip_threads: usize) -> io::Result<(Vec<u8>, Source)> {
    let mut peek = vec![0; PEEK];
    let n = read_full(&mut raw, &mut peek)?;
    peek.truncate(n);
    super::consumed::add(n);
    let compression = sniff::compression(&peek);
    let raw = match (compression, raw) {
        (Compression::Plain, Raw::File(file)) => {
            return Ok((peek, Source::File(PositionedFile::new(file, n as u64))))
        }
        (Compression::Gzip, Raw::File(file)) if gzip::in_parallel(gzip_threads) => {
            let file = super::consumed::CountedAt::new(file, n as u64);
            return with_head(stream(gzip::parallel(file, gzip_threads)?));
        }
        (Compression::Gzip, Raw::Stream(raw)) if gzip::in_parallel(gzip_threads) => {
            return with_head(stream(gzip_stream::arriving(peek, raw, gzip_threads)));
        }
        (_, raw) => Box::new(super::consumed::Counted(raw.into_stream())),
    };
    with_head(match compression {
        Compression::Plain => return Ok((peek, Source::Stream(raw))),
        Compression::Bgzf => Source::Bgzf(Bgzf::new(chain(peek, raw), name)),
        Compression::Gzip => stream(gzip::GzipDecoder::new(chain(peek, raw))),
        Compression::Bzip2 => stream(bzip2::read::MultiBzDecoder::new(chain(peek, raw))),
        Compression::Zstd => stream(zstd::stream::read::Decoder::new(chain(peek, raw))?),
        Compression::Xz => stream(liblzma::read::XzDecoder::new_multi_decoder(chain(
            peek, raw,
        ))),
    })
}

/// The first decompressed bytes of `source` (up to [`HEAD`]), and `source`.
fn with_head(mut source: Source) -> io::Result<(Vec<u8>, Source)> {
    let mut head = vec![0; HEAD];
    let len = source.fill(&mut head)?;
    head.truncate(len);
    Ok((head, source))
}

/// The peeked bytes back in front of the rest.
fn chain(peek: Vec<u8>, rest: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
    Box::new(Cursor::new(peek).chain(rest))
}

/// A decoder as a source.
fn stream(decoder: impl Read + Send + 'static) -> Source {
    Source::Stream(Box::new(decoder))
}

/// What the input starting with `head` holds, or why it is refused.
fn format(head: &[u8], name: &str, role: Role) -> Result<Format, InputError> {
    let expected = role.expected();
    let refused = |what: &'static str, hint: String| InputError::Refused {
        name: name.to_string(),
        what,
        expected,
        hint,
    };
    let alignments = |what: &'static str| {
        refused(
            what,
            match role {
                Role::Reads => format!(
                    "convert it to FASTQ or unaligned BAM first, e.g. `samtools fastq {name} | \
                     galign map INDEX -` (or `samtools view -b -o reads.bam {name}`)"
                ),
                Role::Reference => "give the reference FASTA".to_string(),
            },
        )
    };
    match sniff::content(head) {
        Content::Fastq => Ok(Format::Fastq),
        Content::Fasta => Ok(Format::Fasta),
        // No reads is a run with nothing to map (a header-only output, as bwa and
        // bowtie2 write); a reference without a record is an error.
        Content::Empty => match role {
            Role::Reads => Ok(Format::Fastq),
            Role::Reference => Err(InputError::Empty {
                name: name.to_string(),
                what: "FASTA record",
            }),
        },
        Content::Bam => match role {
            Role::Reads => Ok(Format::Bam),
            Role::Reference => Err(alignments("a BAM file")),
        },
        Content::Cram => Err(alignments("a CRAM file")),
        Content::Sam => Err(alignments("a SAM file")),
        Content::Index => Err(refused(
            "a galign index",
            match role {
                Role::Reads => {
                    "give the reads here, and the index (by its prefix) before them".to_string()
                }
                Role::Reference => "give the FASTA it was built from".to_string(),
            },
        )),
        Content::Other(byte) => Err(InputError::Unknown {
            name: name.to_string(),
            expected,
            found: (byte as char).escape_default().to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_file_just_written_is_read_mapped() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        for i in 0..20_000 {
            writeln!(file, "@r{i}\nACGTACGTAC\n+\nIIIIIIIIII").unwrap();
        }
        file.flush().unwrap();
        // SAFETY: a private temporary file, not changed while mapped.
        let map = unsafe { memmap2::Mmap::map(file.as_file()) }.unwrap();
        assert!(starts_in_memory(&map), "its pages are in the page cache");
        let opened = open(file.path(), Role::Reads, 1).unwrap();
        assert!(matches!(opened.into_block_input(), BlockInput::Mapped(_)));
    }

    const FASTQ: &[u8] = b"@r1\nACGT\n+\nIIII\n@r2\nGG\n+\nII\n";

    /// Everything `bytes` decompresses to, head then rest.
    fn decompressed(bytes: Vec<u8>) -> Vec<u8> {
        let (head, source) =
            decompress(Raw::Stream(Box::new(Cursor::new(bytes))), "test", 4).unwrap();
        let mut all = Vec::new();
        BlocksReader::new(Blocks::spawn(source, head))
            .read_to_end(&mut all)
            .unwrap();
        all
    }

    #[test]
    fn every_compression_gives_back_the_bytes() {
        let text: Vec<u8> = FASTQ.repeat(100_000);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&text).unwrap();
        let gz = gz.finish().unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(&text).unwrap();
        let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 1);
        xz.write_all(&text).unwrap();
        let zst = zstd::encode_all(&text[..], 1).unwrap();
        for (what, bytes) in [
            ("plain", text.clone()),
            ("gzip", gz),
            ("bzip2", bz.finish().unwrap()),
            ("xz", xz.finish().unwrap()),
            ("zstd", zst),
        ] {
            assert!(decompressed(bytes) == text, "{what}");
        }
    }

    #[test]
    fn sizes_are_estimated_for_files_and_unknown_for_streams() {
        let text = FASTQ.repeat(1000);
        let mut plain = tempfile::NamedTempFile::new().unwrap();
        plain.write_all(&text).unwrap();
        assert_eq!(estimated_size(plain.path()), Some(text.len() as u64));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        gz.write_all(&text).unwrap();
        let gz = gz.finish().unwrap();
        let mut gzipped = tempfile::NamedTempFile::new().unwrap();
        gzipped.write_all(&gz).unwrap();
        assert_eq!(
            estimated_size(gzipped.path()),
            Some(FASTQ_INFLATION * gz.len() as u64)
        );
        assert_eq!(estimated_size(Path::new("-")), None);
        assert_eq!(estimated_size(Path::new("/no/such/file")), None);
    }

    #[test]
    fn a_plain_file_read_by_position_gives_back_its_bytes() {
        // Larger than the head and than several blocks, not a multiple of either.
        let text: Vec<u8> = FASTQ.repeat(400_000)[..11_000_123].to_vec();
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(&text).unwrap();
        let opened = open(file.path(), Role::Reads, 4).unwrap();
        assert!(matches!(opened.source, Source::File(_)));
        let mut all = Vec::new();
        opened.into_reader().read_to_end(&mut all).unwrap();
        assert!(all == text);
    }

    #[test]
    fn a_gzip_file_inflated_in_parallel_gives_back_its_bytes_or_says_it_is_cut() {
        let text: Vec<u8> = FASTQ.repeat(300_000);
        let gzip = |part: &[u8]| {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
            gz.write_all(part).unwrap();
            gz.finish().unwrap()
        };
        let half = text.len() / 2 + 3;
        let members = [gzip(&text[..half]), gzip(&text[half..])].concat();
        let one = gzip(&text);
        assert!(gzip::in_parallel(4));
        for (what, bytes) in [("one member", &one), ("two members", &members)] {
            let mut file = tempfile::NamedTempFile::new().unwrap();
            file.write_all(bytes).unwrap();
            let mut all = Vec::new();
            let opened = open(file.path(), Role::Reads, 4).unwrap();
            opened.into_reader().read_to_end(&mut all).unwrap();
            assert!(all == text, "{what}");
        }
        let mut cut = tempfile::NamedTempFile::new().unwrap();
        cut.write_all(&one[..one.len() - 1000]).unwrap();
        let mut all = Vec::new();
        let opened = open(cut.path(), Role::Reads, 4).unwrap(); // its head is whole
        let e = opened.into_reader().read_to_end(&mut all).unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
    }

    #[test]
    fn refusals_name_the_input_and_what_to_do() {
        let error = |head: &[u8], role| format(head, "x.bam", role).unwrap_err().to_string();
        assert_eq!(
            format(b"BAM\x01", "x.bam", Role::Reads).unwrap(),
            Format::Bam
        );
        let e = error(b"BAM\x01", Role::Reference);
        assert!(
            e.starts_with("x.bam: this is a BAM file, not a FASTA reference"),
            "{e}"
        );
        let e = error(b"CRAM\x03", Role::Reads);
        assert!(e.starts_with("x.bam: this is a CRAM file"), "{e}");
        assert!(e.contains("samtools fastq x.bam"), "{e}");
        let e = error(b"CRAM\x03", Role::Reference);
        assert!(e.contains("a CRAM file, not a FASTA reference"), "{e}");
        let e = error(b"GALIGNIX", Role::Reads);
        assert!(
            e.contains("a galign index") && e.contains("give the reads"),
            "{e}"
        );
        let e = error(b"GALIGNIX", Role::Reference);
        assert!(e.contains("give the FASTA it was built from"), "{e}");
        assert_eq!(format(b"", "r", Role::Reads).unwrap(), Format::Fastq);
        let e = error(b"", Role::Reference);
        assert!(e.contains("empty (no FASTA record)"), "{e}");
        let e = error(b"\x00\x01", Role::Reads);
        assert!(e.contains("starts with '\\u{0}'"), "{e}");
        assert_eq!(format(FASTQ, "r", Role::Reads).unwrap(), Format::Fastq);
        assert_eq!(
            format(b">c\nA\n", "r", Role::Reference).unwrap(),
            Format::Fasta
        );
    }

    #[test]
    fn stdin_is_shown_as_stdin() {
        assert_eq!(shown_name(Path::new("-")), "stdin");
        assert_eq!(shown_name(Path::new("/dev/stdin")), "/dev/stdin");
        assert!(is_stream(Path::new("-")));
        assert!(!is_stream(Path::new(env!("CARGO_MANIFEST_DIR"))));
        assert!(!is_stream(Path::new("Cargo.toml")));
    }
}
