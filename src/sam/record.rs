//! SAM records for exact alignments: `{len}M`, NM:i:0, MD:Z:{len}, AS:i:{len}, XS when
//! there is another hit, XA with alternatives, RG when a read group is set; mate fields
//! for pairs; unmapped reads with their bases and qualities kept.

use rust_htslib::bam::record::{Aux, Cigar, CigarString, Record};

use crate::io::ReadRecord;
use crate::reference::Layout;
use crate::search::Hit;

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

/// Encoded records: htslib records (for BAM) or SAM text, one line per record.
pub enum Encoded {
    /// Records for htslib to write (BAM).
    Bam(Vec<Record>),
    /// SAM lines, ready to write.
    Sam(Vec<u8>),
}

/// What an output record holds besides its positions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An unmapped read: bases and qualities as read, no alignment tags.
    Unmapped,
    /// The primary alignment; bases and qualities reverse-complemented when `reverse`.
    Primary { reverse: bool },
    /// A secondary alignment (`-a`): no bases or qualities.
    Secondary,
}

/// The fields of one output record.
struct Fields {
    kind: Kind,
    flags: u16,
    tid: i32,
    pos: i64,
    bin: u16,
    mapq: u8,
    mtid: i32,
    mpos: i64,
    tlen: i64,
}

/// Appends the records of one read: primary (or unmapped), then secondaries with `-a`.
pub fn push_records(
    read: &ReadRecord,
    hits: &[Hit],
    primary: Option<usize>,
    mate: Option<MateContext>,
    options: &RecordOptions<'_>,
    out: &mut Encoded,
) {
    let len = read.seq.len() as i64;
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
    let record = ReadHits {
        read,
        hits,
        primary,
        options,
    };

    let Some(primary) = primary else {
        // Unmapped; placed at the mate's position when the mate mapped.
        let (tid, pos, bin) = match mate_hit {
            Some(h) => (
                h.contig as i32,
                h.pos as i64,
                reg2bin(h.pos as i64, h.pos as i64 + 1),
            ),
            None => (-1, -1, reg2bin(-1, 0)),
        };
        let fields = Fields {
            kind: Kind::Unmapped,
            flags: (base_flags | FLAG_UNMAPPED) & !FLAG_PROPER,
            tid,
            pos,
            bin,
            mapq: 0,
            mtid: tid,
            mpos: pos,
            tlen: 0,
        };
        record.encode(&fields, out);
        return;
    };

    let mapq = if hits.len() == 1 { MAPQ_UNIQUE } else { 0 };
    let order = std::iter::once(primary)
        .chain((0..hits.len()).filter(|&i| i != primary && options.all_hits));
    for (rank, i) in order.enumerate() {
        let hit = hits[i];
        let secondary = rank > 0;
        let mut flags = base_flags;
        if hit.reverse {
            flags |= FLAG_REVERSE;
        }
        if secondary {
            flags |= FLAG_SECONDARY;
        }
        let (mtid, mpos, tlen) = match (mate, mate_hit) {
            (Some(m), Some(mh)) => {
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
                (mh.contig as i32, mh.pos as i64, tlen)
            }
            // The unmapped mate is placed here.
            (Some(_), None) => (hit.contig as i32, hit.pos as i64, 0),
            (None, _) => (-1, -1, 0),
        };
        let fields = Fields {
            kind: if secondary {
                Kind::Secondary
            } else {
                Kind::Primary {
                    reverse: hit.reverse,
                }
            },
            flags,
            tid: hit.contig as i32,
            pos: hit.pos as i64,
            bin: reg2bin(hit.pos as i64, hit.pos as i64 + len),
            mapq,
            mtid,
            mpos,
            tlen,
        };
        record.encode(&fields, out);
    }
}

/// One read's hits, for encoding its records.
struct ReadHits<'a> {
    read: &'a ReadRecord,
    hits: &'a [Hit],
    primary: Option<usize>,
    options: &'a RecordOptions<'a>,
}

impl ReadHits<'_> {
    fn encode(&self, fields: &Fields, out: &mut Encoded) {
        match out {
            Encoded::Bam(records) => records.push(self.bam(fields)),
            Encoded::Sam(text) => self.sam(fields, text),
        }
    }

    /// Whether XA lists alternatives on this record.
    fn has_xa(&self, kind: Kind) -> bool {
        !self.options.all_hits
            && matches!(kind, Kind::Primary { .. })
            && self.hits.len() > 1
            && self.options.max_alternatives > 0
    }

    /// The hits listed in XA.
    fn alternatives(&self) -> impl Iterator<Item = &Hit> {
        self.hits
            .iter()
            .enumerate()
            .filter(move |&(j, _)| Some(j) != self.primary)
            .map(|(_, h)| h)
            .take(self.options.max_alternatives)
    }

    /// The record as htslib's.
    fn bam(&self, f: &Fields) -> Record {
        let read = self.read;
        let len = read.seq.len() as i64;
        let qual: Vec<u8> = match &read.qual {
            Some(q) => q.iter().map(|&q| q.saturating_sub(33)).collect(),
            None => vec![0xFF; read.seq.len()],
        };
        let cigar = CigarString(vec![Cigar::Match(len as u32)]);
        let mut rec = Record::new();
        match f.kind {
            Kind::Unmapped => rec.set(&read.name, None, &read.seq, &qual),
            Kind::Secondary => rec.set(&read.name, Some(&cigar), &[], &[]),
            Kind::Primary { reverse: true } => {
                let seq: Vec<u8> = read.seq.iter().rev().map(|&b| complement(b)).collect();
                let qual: Vec<u8> = qual.iter().rev().copied().collect();
                rec.set(&read.name, Some(&cigar), &seq, &qual);
            }
            Kind::Primary { reverse: false } => rec.set(&read.name, Some(&cigar), &read.seq, &qual),
        }
        rec.set_flags(f.flags);
        rec.set_tid(f.tid);
        rec.set_pos(f.pos);
        rec.set_bin(f.bin);
        rec.set_mapq(f.mapq);
        rec.set_mtid(f.mtid);
        rec.set_mpos(f.mpos);
        rec.set_insert_size(f.tlen);
        if f.kind != Kind::Unmapped {
            rec.push_aux(b"NM", Aux::I32(0)).expect("NM");
            rec.push_aux(b"MD", Aux::String(&len.to_string()))
                .expect("MD");
            rec.push_aux(b"AS", Aux::I32(len as i32)).expect("AS");
            if self.hits.len() > 1 {
                rec.push_aux(b"XS", Aux::I32(len as i32)).expect("XS");
            }
            if self.has_xa(f.kind) {
                let mut xa = Vec::new();
                self.push_xa(&mut xa);
                let xa = std::str::from_utf8(&xa).expect("contig names are text");
                rec.push_aux(b"XA", Aux::String(xa)).expect("XA");
            }
        }
        if let Some(rg) = self.options.read_group {
            rec.push_aux(b"RG", Aux::String(rg)).expect("valid RG tag");
        }
        rec
    }

    /// Appends the XA value: `contig,±pos,{len}M,0;` per alternative.
    fn push_xa(&self, out: &mut Vec<u8>) {
        let len = self.read.seq.len() as i64;
        for h in self.alternatives() {
            out.extend_from_slice(
                self.options.layout.contigs[h.contig as usize]
                    .name
                    .as_bytes(),
            );
            out.extend_from_slice(if h.reverse { b",-" } else { b",+" });
            push_int(out, h.pos as i64 + 1);
            out.push(b',');
            push_int(out, len);
            out.extend_from_slice(b"M,0;");
        }
    }

    /// Appends the record as a SAM line, exactly as htslib formats the record
    /// [`Self::bam`] builds.
    fn sam(&self, f: &Fields, out: &mut Vec<u8>) {
        let read = self.read;
        let len = read.seq.len() as i64;
        let contig = |tid: i32| self.options.layout.contigs[tid as usize].name.as_bytes();
        out.extend_from_slice(&read.name);
        out.push(b'\t');
        push_int(out, f.flags as i64);
        out.push(b'\t');
        if f.tid >= 0 {
            out.extend_from_slice(contig(f.tid));
        } else {
            out.push(b'*');
        }
        out.push(b'\t');
        push_int(out, f.pos + 1);
        out.push(b'\t');
        push_int(out, f.mapq as i64);
        out.push(b'\t');
        if f.kind == Kind::Unmapped {
            out.push(b'*');
        } else {
            push_int(out, len);
            out.push(b'M');
        }
        out.push(b'\t');
        if f.mtid < 0 {
            out.push(b'*');
        } else if f.mtid == f.tid {
            out.push(b'=');
        } else {
            out.extend_from_slice(contig(f.mtid));
        }
        out.push(b'\t');
        push_int(out, f.mpos + 1);
        out.push(b'\t');
        push_int(out, f.tlen);
        out.push(b'\t');
        match f.kind {
            _ if read.seq.is_empty() => out.extend_from_slice(b"*\t*"),
            Kind::Secondary => out.extend_from_slice(b"*\t*"),
            Kind::Primary { reverse: true } => {
                out.extend(read.seq.iter().rev().map(|&b| complement(b)));
                out.push(b'\t');
                match &read.qual {
                    Some(q) => out.extend(q.iter().rev().map(|&q| q.max(33))),
                    None => out.push(b'*'),
                }
            }
            Kind::Unmapped | Kind::Primary { reverse: false } => {
                out.extend(
                    read.seq
                        .iter()
                        .map(|&b| NT16_STR[NT16_TABLE[b as usize] as usize]),
                );
                out.push(b'\t');
                match &read.qual {
                    Some(q) => out.extend(q.iter().map(|&q| q.max(33))),
                    None => out.push(b'*'),
                }
            }
        }
        if f.kind != Kind::Unmapped {
            out.extend_from_slice(b"\tNM:i:0\tMD:Z:");
            push_int(out, len);
            out.extend_from_slice(b"\tAS:i:");
            push_int(out, len);
            if self.hits.len() > 1 {
                out.extend_from_slice(b"\tXS:i:");
                push_int(out, len);
            }
            if self.has_xa(f.kind) {
                out.extend_from_slice(b"\tXA:Z:");
                self.push_xa(out);
            }
        }
        if let Some(rg) = self.options.read_group {
            out.extend_from_slice(b"\tRG:Z:");
            out.extend_from_slice(rg.as_bytes());
        }
        out.push(b'\n');
    }
}

/// htslib's 4-bit base codes (`seq_nt16_table`): BAM stores bases so, and SAM shows
/// them back through [`NT16_STR`]: IUPAC codes in upper case, `0123` as `ACGT`,
/// anything else as `N`.
const NT16_TABLE: [u8; 256] = {
    let mut table = [15u8; 256];
    let mut i = 0;
    while i < 16 {
        table[NT16_STR[i] as usize] = i as u8;
        table[NT16_STR[i].to_ascii_lowercase() as usize] = i as u8;
        i += 1;
    }
    let mut d = 0;
    while d < 4 {
        table[(b'0' + d) as usize] = 1 << d;
        d += 1;
    }
    table
};

/// The base of each 4-bit code.
const NT16_STR: &[u8; 16] = b"=ACMGRSVTWYHKDBN";

/// Appends `n` in decimal.
fn push_int(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut v = n.unsigned_abs();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
mod tests {
    use super::reg2bin;

    #[test]
    fn bins_match_the_sam_spec() {
        assert_eq!(reg2bin(-1, 0), 4680);
        assert_eq!(reg2bin(0, 100), 4681);
        assert_eq!(reg2bin(16383, 16385), 585);
        assert_eq!(reg2bin(100_000, 100_100), 4681 + 6); // 100,000 >> 14 = 6
    }
}
