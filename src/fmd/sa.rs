//! bwa's `.sa` read back: the text position of every `interval`-th row (32 as `bwa
//! index` writes it), and bwa's `bwt_sa`, which locates any row by LF steps back to a
//! sampled one.

use std::io::Read;
use std::path::Path;

use super::bwt::Bwt;

/// Why a `.sa` file could not be read as bwa's, or as the `.bwt`'s.
#[derive(Debug, thiserror::Error)]
pub enum SaError {
    /// The file could not be opened or read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The file is shorter than its header.
    #[error("no bwa .sa header")]
    Header(#[source] std::io::Error),
    /// The header's `primary` or text length is not the `.bwt`'s.
    #[error(
        "the .sa and .bwt files are of different texts (primary {primary} and {bwt_primary}, \
         length {seq_len} and {bwt_seq_len})"
    )]
    OtherText {
        /// The `.sa`'s `primary`.
        primary: u64,
        /// The `.bwt`'s `primary`.
        bwt_primary: u64,
        /// The `.sa`'s text length.
        seq_len: u64,
        /// The `.bwt`'s text length.
        bwt_seq_len: u64,
    },
    /// The sampling interval is not a power of 2.
    #[error("not a bwa .sa file: sampling interval {interval}")]
    Interval {
        /// The header's sampling interval.
        interval: u64,
    },
    /// The file's length is not that of its sampled rows.
    #[error("not a bwa .sa file: {file_len} bytes for {count} sampled rows")]
    Length {
        /// The file's length.
        file_len: u64,
        /// The sampled rows the header implies.
        count: u64,
    },
}

/// bwa's sampled suffix array (`bwt_t::sa`, `sa_intv`).
pub struct SampledSa {
    /// The sampling interval, a power of 2.
    interval: u64,
    /// The positions of rows `0, interval, 2 * interval, ...`; row 0's is `u64::MAX`, as
    /// bwa sets it (its suffix, the sentinel's, is reached only by walking past position 0).
    positions: Vec<u64>,
}

impl SampledSa {
    /// Reads bwa's `.sa` file at `path`, which must belong to `bwt`.
    pub fn read(path: &Path, bwt: &Bwt) -> Result<SampledSa, SaError> {
        let mut file = std::fs::File::open(path)?;
        let file_len = file.metadata()?.len();
        let mut header = [0u8; 56];
        file.read_exact(&mut header).map_err(SaError::Header)?;
        let word = |i: usize| u64::from_le_bytes(header[8 * i..8 * i + 8].try_into().unwrap());
        let (primary, interval, seq_len) = (word(0), word(5), word(6));
        if primary != bwt.primary || seq_len != bwt.seq_len() {
            return Err(SaError::OtherText {
                primary,
                bwt_primary: bwt.primary,
                seq_len,
                bwt_seq_len: bwt.seq_len(),
            });
        }
        if !interval.is_power_of_two() {
            return Err(SaError::Interval { interval });
        }
        let count = (seq_len + interval) / interval;
        if file_len != 56 + 8 * (count - 1) {
            return Err(SaError::Length { file_len, count });
        }
        let mut bytes = vec![0u8; 8 * (count as usize - 1)];
        file.read_exact(&mut bytes)?;
        let positions = std::iter::once(u64::MAX)
            .chain(
                bytes
                    .chunks_exact(8)
                    .map(|b| u64::from_le_bytes(b.try_into().unwrap())),
            )
            .collect();
        Ok(SampledSa {
            interval,
            positions,
        })
    }

    /// The sampling interval, a power of 2.
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// The positions of rows `0, interval, 2 * interval, ...` (row 0's `u64::MAX`).
    pub fn positions(&self) -> &[u64] {
        &self.positions
    }

    /// The text position of row `row`: LF steps back to a sampled row (bwa's
    /// `bwt_sa`, step for step).
    #[inline(always)]
    pub fn locate(&self, bwt: &Bwt, mut row: u64) -> u64 {
        let mut steps = 0u64;
        while row & (self.interval - 1) != 0 {
            steps += 1;
            row = bwt.inverse_psi(row);
        }
        steps.wrapping_add(self.positions[(row / self.interval) as usize])
    }
}
