//! A cap on the size of one FASTA record read as reads: needletail holds a whole record
//! in memory before handing it over, so a reads file of one huge record (a genome given
//! as reads, or a small gzip that inflates to gigabytes of one line) would take all the
//! memory there is. [`RecordCap`] passes the bytes through and fails the read, with an
//! error naming the record, once one record's bytes exceed the cap, as FASTQ records are
//! capped by [`super::MAX_RECORD`].

use std::io::{self, Read};

/// A reader of FASTA that fails once a record (from one `>` at a line start to the
/// next) is longer than `cap` bytes.
pub struct RecordCap<R> {
    inner: R,
    cap: usize,
    /// Bytes of the current record so far.
    current: usize,
    /// Records started so far.
    records: u64,
    /// Whether the last byte passed on ended a line (the stream's start counts).
    at_line_start: bool,
}

impl<R: Read> RecordCap<R> {
    /// Caps the records of `inner` at `cap` bytes each.
    pub fn new(inner: R, cap: usize) -> RecordCap<R> {
        RecordCap {
            inner,
            cap,
            current: 0,
            records: 0,
            at_line_start: true,
        }
    }

    /// Counts the bytes of `chunk` into the current record and the records it starts.
    fn account(&mut self, chunk: &[u8]) -> io::Result<()> {
        let mut line_start = self.at_line_start;
        let mut from = 0;
        for at in memchr::memchr_iter(b'\n', chunk).chain([chunk.len()]) {
            if line_start && chunk.get(from) == Some(&b'>') {
                self.check()?;
                self.records += 1;
                self.current = 0;
            }
            let end = (at + 1).min(chunk.len());
            self.current += end - from;
            line_start = at < chunk.len();
            from = end;
        }
        self.at_line_start = chunk.last().map_or(self.at_line_start, |&b| b == b'\n');
        self.check()
    }

    /// Fails once the current record is longer than the cap.
    fn check(&self) -> io::Result<()> {
        if self.current > self.cap {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "record {} is longer than {} MiB, the longest FASTA read galign reads \
                     (index a genome with `galign index`, do not map it as reads)",
                    self.records.max(1),
                    self.cap >> 20
                ),
            ));
        }
        Ok(())
    }
}

impl<R: Read> Read for RecordCap<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.account(&buf[..n])?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &[u8], cap: usize, chunk: usize) -> io::Result<Vec<u8>> {
        let mut capped = RecordCap::new(text, cap);
        let mut out = Vec::new();
        let mut buf = vec![0; chunk];
        loop {
            let n = capped.read(&mut buf)?;
            if n == 0 {
                return Ok(out);
            }
            out.extend_from_slice(&buf[..n]);
        }
    }

    #[test]
    fn records_within_the_cap_pass_whole() {
        let text = b">a\nACGT\n>b\nAC\nGT\n";
        for chunk in 1..text.len() + 1 {
            assert_eq!(read_all(text, 9, chunk).unwrap(), text);
        }
    }

    #[test]
    fn a_record_past_the_cap_is_an_error_naming_it() {
        let text = b">a\nACGT\n>b\nACGTACGTACGT\n>c\nA\n";
        for chunk in 1..text.len() + 1 {
            let error = read_all(text, 10, chunk).unwrap_err();
            assert!(error.to_string().contains("record 2 "), "{error}");
        }
        // A '>' inside a line starts nothing.
        assert!(read_all(b">a\nAC>GT>ACGTACGT\n", 12, 4).is_err());
    }
}
