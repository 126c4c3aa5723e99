//! SAM records for exact alignments: `{len}M`, NM:i:0, MD:Z:{len}, AS:i:{len}, XS when
//! there is another hit, XA with alternatives, RG when a read group is set; mate fields
//! for pairs; unmapped reads with their bases and qualities kept.

use rust_htslib::bam::record::{Aux, Cigar, CigarString, Record};

use crate::map::search::Hit;
use crate::map::ReadRecord;
use crate::reference::Layout;

/// MAPQ of a read with exactly one hit.
pub const MAPQ_UNIQUE: u8 = 60;

/// Settings that shape every record.
#[derive(Clone, Copy, Debug)]
pub struct RecordOptions<'a> {
    /// Contig names for XA.
    pub layout: &'a Layout,
    /// `RG:Z:` value.
    pub read_group: Option<&'a str>,
    /// Alternatives listed in XA (when not writing all hits).
    pub max_alternatives: usize,
    /// Write every hit (others as secondary) instead of XA.
    pub all_hits: bool,
}

/// What a mate's record needs to know of its pair.
#[derive(Clone, Copy, Debug)]
pub struct MateContext {
    /// This read is mate 1.
    pub first: bool,
    /// The mate's primary hit, if it mapped.
    pub mate_hit: Option<Hit>,
    /// The mate's length.
    pub mate_len: u64,
    /// Both mates map uniquely as a proper pair.
    pub proper: bool,
}

const FLAG_PAIRED: u16 = 0x1;
const FLAG_PROPER: u16 = 0x2;
const FLAG_UNMAPPED: u16 = 0x4;
const FLAG_MATE_UNMAPPED: u16 = 0x8;
const FLAG_REVERSE: u16 = 0x10;
const FLAG_MATE_REVERSE: u16 = 0x20;
const FLAG_FIRST: u16 = 0x40;
const FLAG_LAST: u16 = 0x80;
const FLAG_SECONDARY: u16 = 0x100;

/// The BAI bin of `[beg, end)` (SAM spec, section 5.3).
fn reg2bin(beg: i64, end: i64) -> u16 {
    let end = end - 1;
    for (shift, offset) in [(14, 4681), (17, 585), (20, 73), (23, 9), (26, 1)] {
        if beg >> shift == end >> shift {
            return (offset + (beg >> shift)) as u16;
        }
    }
    0
}

fn complement(b: u8) -> u8 {
    match b {
        b'A' | b'a' => b'T',
        b'C' | b'c' => b'G',
        b'G' | b'g' => b'C',
        b'T' | b't' => b'A',
        _ => b'N',
    }
}

/// Appends the records of one read: primary (or unmapped), then secondaries with `-a`.
pub fn push_records(
    read: &ReadRecord,
    hits: &[Hit],
    primary: Option<usize>,
    mate: Option<MateContext>,
    options: &RecordOptions<'_>,
    out: &mut Vec<Record>,
) {
    let len = read.seq.len() as i64;
    let qual: Vec<u8> = match &read.qual {
        Some(q) => q.iter().map(|&q| q.saturating_sub(33)).collect(),
        None => vec![0xFF; read.seq.len()],
    };
    let base_flags = match mate {
        None => 0,
        Some(m) => {
            let mut f = FLAG_PAIRED | if m.first { FLAG_FIRST } else { FLAG_LAST };
            match m.mate_hit {
                None => f |= FLAG_MATE_UNMAPPED,
                Some(h) if h.reverse => f |= FLAG_MATE_REVERSE,
                Some(_) => {}
            }
            if m.proper {
                f |= FLAG_PROPER;
            }
            f
        }
    };
    let mate_hit = mate.and_then(|m| m.mate_hit);

    let Some(primary) = primary else {
        // Unmapped; placed at the mate's position when the mate mapped.
        let mut rec = Record::new();
        rec.set(&read.name, None, &read.seq, &qual);
        let mut flags = base_flags | FLAG_UNMAPPED;
        flags &= !FLAG_PROPER;
        rec.set_flags(flags);
        match mate_hit {
            Some(h) => {
                rec.set_tid(h.contig as i32);
                rec.set_pos(h.pos as i64);
                rec.set_mtid(h.contig as i32);
                rec.set_mpos(h.pos as i64);
                rec.set_bin(reg2bin(h.pos as i64, h.pos as i64 + 1));
            }
            None => {
                rec.set_tid(-1);
                rec.set_pos(-1);
                rec.set_mtid(-1);
                rec.set_mpos(-1);
                rec.set_bin(reg2bin(-1, 0));
            }
        }
        rec.set_mapq(0);
        rec.set_insert_size(0);
        if let Some(rg) = options.read_group {
            rec.push_aux(b"RG", Aux::String(rg)).expect("valid RG tag");
        }
        out.push(rec);
        return;
    };

    let cigar = CigarString(vec![Cigar::Match(len as u32)]);
    let reversed_seq: Vec<u8> = read.seq.iter().rev().map(|&b| complement(b)).collect();
    let reversed_qual: Vec<u8> = qual.iter().rev().copied().collect();
    let mapq = if hits.len() == 1 { MAPQ_UNIQUE } else { 0 };
    let order = std::iter::once(primary)
        .chain((0..hits.len()).filter(|&i| i != primary && options.all_hits));
    for (rank, i) in order.enumerate() {
        let hit = hits[i];
        let secondary = rank > 0;
        let mut rec = Record::new();
        if secondary {
            rec.set(&read.name, Some(&cigar), &[], &[]);
        } else if hit.reverse {
            rec.set(&read.name, Some(&cigar), &reversed_seq, &reversed_qual);
        } else {
            rec.set(&read.name, Some(&cigar), &read.seq, &qual);
        }
        let mut flags = base_flags;
        if hit.reverse {
            flags |= FLAG_REVERSE;
        }
        if secondary {
            flags |= FLAG_SECONDARY;
        }
        rec.set_flags(flags);
        rec.set_tid(hit.contig as i32);
        rec.set_pos(hit.pos as i64);
        rec.set_bin(reg2bin(hit.pos as i64, hit.pos as i64 + len));
        rec.set_mapq(mapq);
        match (mate, mate_hit) {
            (Some(m), Some(mh)) => {
                rec.set_mtid(mh.contig as i32);
                rec.set_mpos(mh.pos as i64);
                let tlen = if mh.contig == hit.contig && !secondary {
                    let (start, mstart) = (hit.pos as i64, mh.pos as i64);
                    let span = (start + len).max(mstart + m.mate_len as i64) - start.min(mstart);
                    let leftmost = start < mstart || (start == mstart && m.first);
                    if leftmost {
                        span
                    } else {
                        -span
                    }
                } else {
                    0
                };
                rec.set_insert_size(tlen);
            }
            (Some(_), None) => {
                // The unmapped mate is placed here.
                rec.set_mtid(hit.contig as i32);
                rec.set_mpos(hit.pos as i64);
                rec.set_insert_size(0);
            }
            (None, _) => {
                rec.set_mtid(-1);
                rec.set_mpos(-1);
                rec.set_insert_size(0);
            }
        }
        rec.push_aux(b"NM", Aux::I32(0)).expect("NM");
        rec.push_aux(b"MD", Aux::String(&len.to_string()))
            .expect("MD");
        rec.push_aux(b"AS", Aux::I32(len as i32)).expect("AS");
        if hits.len() > 1 {
            rec.push_aux(b"XS", Aux::I32(len as i32)).expect("XS");
        }
        if !options.all_hits && !secondary && hits.len() > 1 && options.max_alternatives > 0 {
            let mut xa = String::new();
            for h in hits
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != primary)
                .map(|(_, h)| h)
                .take(options.max_alternatives)
            {
                let name = &options.layout.contigs[h.contig as usize].name;
                let sign = if h.reverse { '-' } else { '+' };
                xa.push_str(&format!("{name},{sign}{},{len}M,0;", h.pos + 1));
            }
            rec.push_aux(b"XA", Aux::String(&xa)).expect("XA");
        }
        if let Some(rg) = options.read_group {
            rec.push_aux(b"RG", Aux::String(rg)).expect("valid RG tag");
        }
        out.push(rec);
    }
}

#[cfg(test)]
mod tests {
    use super::reg2bin;

    #[test]
    fn bins_match_the_sam_spec() {
        assert_eq!(reg2bin(-1, 0), 4680);
        assert_eq!(reg2bin(0, 100), 4681);
        assert_eq!(reg2bin(16383, 16385), 585);
        assert_eq!(reg2bin(100_000, 100_100), 4681 + (100_000 >> 14));
    }
}
