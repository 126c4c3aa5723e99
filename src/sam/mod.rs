//! SAM/BAM output through rust-htslib: the header, the records of exact alignments,
//! and a writer that lands its file under the final name only when complete.

mod header;
mod record;
mod writer;

pub use header::{build_header, parse_read_group, ReadGroupError};
pub use record::{push_records, MateContext, RecordOptions};
pub use writer::{OutputFormat, SamWriter};
