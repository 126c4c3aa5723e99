//! SAM/BAM output: the header, the records of exact alignments (BAM records and SAM
//! text, both encoded here as htslib would), BGZF compression on the worker threads,
//! and a writer that lands its file under the final name only when complete.

mod bgzf;
mod buffers;
mod format;
mod header;
mod record;
mod writer;

pub(crate) use bgzf::BgzfWriter;
pub use bgzf::DEFAULT_LEVEL as DEFAULT_BAM_LEVEL;
pub use buffers::RecordBuffers;
pub use format::{FormatRequest, OutputFormat, OutputFormatError};
pub use header::{build_header, output_determining_command_line, parse_read_group, ReadGroupError};
pub use record::{push_records, Encoded, MateContext, RecordOptions};
pub use writer::{BamHeaderError, OpenError, SamWriter, WriteError};
