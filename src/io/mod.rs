//! Input: the one layer through which galign reads every file, the reads of `map` and
//! the reference FASTA of `index` and `sa`.
//!
//! [`open()`] takes a path, `-` (stdin), `/dev/stdin`, a pipe, a FIFO or a process
//! substitution alike, and never rewinds: it peeks at the first bytes to tell plain,
//! gzip, BGZF, bzip2, zstd or xz (`sniff`), chains them back in front of the stream, and
//! checks what the decompressed bytes hold: FASTQ or FASTA, or a directory, BAM, CRAM,
//! SAM or galign index, refused by name with what to give instead. Its bytes are then
//! read in large blocks on a thread of their own (`blocks`; a plain regular file read by
//! position, a block's pieces in parallel, `positioned`; BGZF inflated in parallel by
//! `bgzf`; a gzip stream inflated as it arrives, then in parallel once held in memory
//! from a deflate block boundary found beside it, `gzip_stream`, `held`, `gzip_blocks`,
//! `gzip_resume`; plain gzip inflated by ISA-L, `gzip`, both gzip decoders reading
//! through `gzip_input`). On top: [`BatchReader`] parses reads in batches (FASTQ located
//! block by block in parallel, `fastq`, on a thread of its own one block ahead);
//! [`FastaSplitter`] splits FASTA blocks into header lines and sequence bytes for the
//! reference, which encodes them in parallel. Errors name the input as written (`-` as
//! `stdin`) and, when parsing, the record and line.

mod bgzf;
mod blocks;
pub mod consumed;
mod fasta;
mod fastq;
mod gzip;
mod gzip_blocks;
#[cfg(test)]
mod gzip_cases;
mod gzip_input;
mod gzip_resume;
mod gzip_stream;
mod held;
pub mod names;
mod open;
mod positioned;
mod read_full;
mod reads;
mod record_cap;
mod records;
mod sniff;

pub use blocks::{Block, Blocks, BlocksReader, HEADROOM};
pub use fasta::{FastaPiece, FastaSplitter};
pub use open::{estimated_size, is_stream, open, shown_name, Format, InputError, Opened, Role};
pub use reads::{BatchReader, ReadsError, MAX_FASTA_RECORD, MAX_RECORD};
pub use records::{ReadBatch, ReadRecord, ReadSource};
pub use sniff::INDEX_MAGIC;
