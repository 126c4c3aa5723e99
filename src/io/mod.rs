//! Input: what reads and references are read into, and (as it grows) the readers that
//! open paths, `-` and pipes.

mod records;

pub use records::{ReadRecord, ReadSource};
