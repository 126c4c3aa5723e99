//! The checks that make a loaded index safe to search. The container's checksums
//! (`format`) catch a file damaged by accident; these catch one whose contents pass
//! them but do not fit together (forged, or written by a broken build): metadata out of
//! range, sections of other sizes than the metadata implies, and arrays whose values
//! would send a search outside them. Every size is computed with checked arithmetic and
//! compared with the file before anything is read by it; the value checks are linear
//! scans, far cheaper than the checksums.

use std::path::Path;

use super::format::MappedFile;
use super::{Index, IndexError, Meta};
use crate::fm::{jump, occ, sampled_sa};
use crate::reference::PackedText;
use crate::sa::{SaIndex, Width};

/// The largest jump-table k an index may have (what galign writes at most).
const MAX_K: u32 = jump::MAX_K;

/// The error for an index whose contents do not fit together.
fn corrupt(path: &Path, msg: impl Into<String>) -> IndexError {
    IndexError::Meta {
        path: path.display().to_string(),
        msg: msg.into(),
    }
}

/// Checks the metadata's scalars (the position width first: 4 or 8 bytes, and wide
/// enough for the text) and layout, then that every section has the size they imply;
/// the width.
pub(super) fn sizes(meta: &Meta, file: &MappedFile, path: &Path) -> Result<Width, IndexError> {
    let bad = |msg: &str| corrupt(path, msg);
    let width = Width::from_bytes(meta.position_bytes)
        .ok_or_else(|| bad(&format!("position width of {} bytes", meta.position_bytes)))?;
    if width == Width::U32 && meta.text_len > u32::MAX_TEXT {
        return Err(bad(&format!(
            "{} bases with 32-bit positions",
            meta.text_len
        )));
    }
    if meta.sample_rate == 0 {
        return Err(bad("the sampling rate is 0"));
    }
    if !(1..=MAX_K).contains(&meta.k) {
        return Err(bad(&format!(
            "jump-table k is {}, at most {MAX_K} is read",
            meta.k
        )));
    }
    meta.layout
        .check(meta.text_len)
        .map_err(|msg| corrupt(path, msg))?;
    let rows = meta
        .text_len
        .checked_add(1)
        .ok_or_else(|| bad("text length"))?;
    if meta.primary >= rows || meta.mirror_primary >= rows {
        return Err(bad("the sentinel's row lies past the BWT"));
    }
    let sizes = |rows_per: u64, words_per: u64, bytes: u64| {
        rows.div_ceil(rows_per)
            .checked_add(1)
            .and_then(|n| n.checked_mul(words_per * bytes))
    };
    let occ = sizes(occ::ROWS_PER_BLOCK as u64, occ::WORDS_PER_BLOCK as u64, 8);
    let rank_blocks = sizes(sampled_sa::ROWS_PER_RANK as u64, 1, 1);
    let text = usize::try_from(meta.text_len)
        .ok()
        .map(|len| PackedText::word_count(len) as u64 * 8);
    let w = width.bytes() as u64;
    let expected = [
        ("OCC", occ),
        ("MOCC", occ),
        ("JUMP", Some(jump::entries(meta.k) as u64 * w)),
        ("TEXT", text),
        ("SABITS", rank_blocks.map(|n| n * 64)),
        ("SARANK", rank_blocks.map(|n| n * w)),
        (
            "SAPOS",
            Some((meta.text_len / meta.sample_rate as u64 + 1) * w),
        ),
    ];
    for (name, bytes) in expected {
        if Some(file.bytes(name)?.len() as u64) != bytes {
            return Err(bad(&format!("section {name} has the wrong size")));
        }
    }
    Ok(width)
}

/// Checks the values that searching uses as rows or positions: the Occ counts of both
/// BWTs, the jump table and the sampled suffix array.
pub(super) fn contents(index: &Index, path: &Path) -> Result<(), IndexError> {
    let fm = index.fm();
    let bad = |msg: String| corrupt(path, msg);
    fm.check().map_err(bad)?;
    index.bidirectional().mirror.check(&fm.c).map_err(bad)
}
