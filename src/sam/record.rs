//! SAM records for ungapped alignments with up to `k` mismatches: `{len}M`, NM and MD
//! from the mismatches against the reference (`NM:i:0`, `MD:Z:{len}` for exact hits),
//! `AS:i:{len - 5 NM}` (bwa's default scores, match 1, mismatch 4), XS (the best other
//! hit's score) when there is another hit, XA with alternatives and their NM, RG when a
//! read group is set; mate fields for pairs; unmapped reads with their bases and
//! qualities kept. MAPQ follows the read's strata ([`mapq`]).
//!
//! Records are encoded here, on the worker threads that build them, in either output
//! format: SAM lines exactly as htslib formats them, or BAM records in BAM's binary
//! layout (SAM spec, section 4.2) byte for byte as htslib's `bam_write1` writes them,
//! ready for the BGZF writer (module `bgzf`).
//!
//! Kept against htslib (the library rust-htslib wraps; samtools 1.16.1 standing in for
//! it): `galign map` of HG002 x40 (848,240 reads) against chr20 to BAM at level 1, 2
//! cores, took 1.183 s (2.13 CPU-s) with these records and the `bgzf` writer against
//! 1.806 s (3.33 CPU-s) with galign's SAM encoded by htslib's `sam_write1` and its BGZF
//! thread pool (a 1.53x end-to-end gain, of which the SAM text between them is a part);
//! at level 6 the CPU time 6.62 against 7.95 s (1.20x). BENCHMARKS.md, "Hand-written
//! components" (`scripts/bench_hand_written.sh`).

use crate::alphabet::{reverse_complement_sixteen, upper_acgtn_sixteen, BASES, CODES};
#[cfg(target_arch = "x86_64")]
use crate::alphabet::{reverse_complement_thirty_two, upper_acgtn_thirty_two};
use crate::io::ReadRecord;
use crate::reference::{Layout, PackedRef};
use crate::search::Hit;

/// MAPQ of a read with exactly one hit.
pub const MAPQ_UNIQUE: u8 = 60;
/// MAPQ per mismatch between a read's only best hit and its next best.
const MAPQ_PER_MISMATCH: u8 = 20;
/// Score of a base that matches, and penalty of one that does not (bwa's defaults).
const MATCH_SCORE: i64 = 1;
const MISMATCH_PENALTY: i64 = 4;

/// The MAPQ of a read's records, from its `hits` (sorted, best stratum first): 60 when
/// it has one hit; 0 when two or more share the fewest mismatches; otherwise 20 per
/// mismatch that its next best hit has more than its best, at most 59 (a read with
/// another hit is never as sure as one without).
pub fn mapq(hits: &[Hit]) -> u8 {
    match hits {
        [] => 0,
        [_] => MAPQ_UNIQUE,
        [best, next, ..] => {
            let margin = next.mismatches.saturating_sub(best.mismatches);
            (MAPQ_PER_MISMATCH * margin).min(MAPQ_UNIQUE - 1)
        }
    }
}

/// The alignment score of a hit of a read of `len` bases.
fn score(len: i64, hit: &Hit) -> i64 {
    let mismatches = hit.mismatches as i64;
    MATCH_SCORE * (len - mismatches) - MISMATCH_PENALTY * mismatches
}

/// Settings that shape every record.
#[derive(Clone, Copy, Debug)]
pub struct RecordOptions<'a> {
    /// Contig names for XA, contig offsets for MD.
    pub layout: &'a Layout,
    /// The reference text, for the MD of hits with mismatches.
    pub text: PackedRef<'a>,
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

const fn complement(b: u8) -> u8 {
    match b {
        b'A' | b'a' => b'T',
        b'C' | b'c' => b'G',
        b'G' | b'g' => b'C',
        b'T' | b't' => b'A',
        _ => b'N',
    }
}

/// Encoded records: BAM records or SAM text, one line per record.
#[derive(Clone)]
pub enum Encoded {
    /// BAM records, each with its `block_size` (uncompressed; the writer compresses).
    Bam(Vec<u8>),
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
    /// The hit this record shows (none when unmapped).
    hit: Option<usize>,
    flags: u16,
    tid: i32,
    pos: i64,
    bin: u16,
    mapq: u8,
    mtid: i32,
    mpos: i64,
    tlen: i64,
}

/// Appends the records of one read, whose `hits` are sorted (best stratum first):
/// primary (or unmapped), then secondaries with `-a`.
pub fn push_records(
    read: &ReadRecord,
    hits: &[Hit],
    primary: Option<usize>,
    mate: Option<MateContext>,
    options: &RecordOptions<'_>,
    out: &mut Encoded,
) {
    visit_records(read, hits, primary, mate, options, |record, fields| {
        record.encode(fields, out)
    });
}

/// Calls `emit` with the fields of each record of one read, in output order.
fn visit_records(
    read: &ReadRecord,
    hits: &[Hit],
    primary: Option<usize>,
    mate: Option<MateContext>,
    options: &RecordOptions<'_>,
    mut emit: impl FnMut(&ReadHits<'_>, &Fields),
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
            hit: None,
            flags: (base_flags | FLAG_UNMAPPED) & !FLAG_PROPER,
            tid,
            pos,
            bin,
            mapq: 0,
            mtid: tid,
            mpos: pos,
            tlen: 0,
        };
        emit(&record, &fields);
        return;
    };

    let mapq = mapq(hits);
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
            hit: Some(i),
            flags,
            tid: hit.contig as i32,
            pos: hit.pos as i64,
            bin: reg2bin(hit.pos as i64, hit.pos as i64 + len),
            mapq,
            mtid,
            mpos,
            tlen,
        };
        emit(&record, &fields);
    }
}

/// One read's hits, for encoding its records.
struct ReadHits<'a> {
    read: &'a ReadRecord<'a>,
    hits: &'a [Hit],
    primary: Option<usize>,
    options: &'a RecordOptions<'a>,
}

impl ReadHits<'_> {
    fn encode(&self, fields: &Fields, out: &mut Encoded) {
        match out {
            Encoded::Bam(bytes) => self.bam(fields, bytes),
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

    /// NM, AS and XS (if any) of the record of hit `i` (MD: [`ReadHits::push_md`]).
    fn hit_values(&self, i: usize) -> (i32, i32, Option<i32>) {
        let (hit, len) = (&self.hits[i], self.read.seq.len() as i64);
        let others = self.hits.len() > 1;
        let best_other = &self.hits[if i == 0 { 1 } else { 0 }.min(self.hits.len() - 1)];
        let xs = others.then(|| score(len, best_other) as i32);
        (hit.mismatches as i32, score(len, hit) as i32, xs)
    }

    /// Appends the MD value of `hit`: the read (on the reference's strand) against the
    /// reference bases it covers.
    fn push_md(&self, hit: &Hit, out: &mut Vec<u8>) {
        let seq = &self.read.seq;
        if hit.mismatches == 0 {
            push_int(out, seq.len() as i64);
            return;
        }
        let start = (self.options.layout.contigs[hit.contig as usize].offset + hit.pos) as usize;
        let mut run = 0;
        for i in 0..seq.len() {
            let base = match hit.reverse {
                true => complement(seq[seq.len() - 1 - i]),
                false => seq[i],
            };
            let reference = self.options.text.get(start + i);
            if CODES[base as usize] == reference {
                run += 1;
            } else {
                push_int(out, run);
                out.push(BASES[reference as usize]);
                run = 0;
            }
        }
        push_int(out, run);
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

    /// Appends the record in BAM's binary layout, as htslib's `bam_write1` writes it.
    fn bam(&self, f: &Fields, out: &mut Vec<u8>) {
        let read = self.read;
        let len = read.seq.len();
        let (cigar_ops, seq_len) = match f.kind {
            Kind::Unmapped => (0u16, len),
            Kind::Secondary => (1, 0),
            Kind::Primary { .. } => (1, len),
        };
        let start = out.len();
        out.extend_from_slice(&[0; 4]); // block_size, filled in at the end
        out.extend_from_slice(&f.tid.to_le_bytes());
        out.extend_from_slice(&(f.pos as i32).to_le_bytes());
        out.push(read.name.len() as u8 + 1);
        out.push(f.mapq);
        out.extend_from_slice(&f.bin.to_le_bytes());
        out.extend_from_slice(&cigar_ops.to_le_bytes());
        out.extend_from_slice(&f.flags.to_le_bytes());
        out.extend_from_slice(&(seq_len as u32).to_le_bytes());
        out.extend_from_slice(&f.mtid.to_le_bytes());
        out.extend_from_slice(&(f.mpos as i32).to_le_bytes());
        out.extend_from_slice(&(f.tlen as i32).to_le_bytes());
        out.extend_from_slice(read.name);
        out.push(0);
        if cigar_ops > 0 {
            out.extend_from_slice(&((len as u32) << 4).to_le_bytes()); // {len}M; M is op 0
        }
        match f.kind {
            Kind::Secondary => {}
            Kind::Primary { reverse: true } => {
                push_reverse_complement(out, read.seq);
                match &read.qual {
                    Some(q) => out.extend(q.iter().rev().map(|&q| q.saturating_sub(33))),
                    None => out.resize(out.len() + len, 0xFF),
                }
            }
            Kind::Unmapped | Kind::Primary { reverse: false } => {
                push_bases(out, read.seq);
                match &read.qual {
                    Some(q) => out.extend(q.iter().map(|&q| q.saturating_sub(33))),
                    None => out.resize(out.len() + len, 0xFF),
                }
            }
        }
        if let Some(i) = f.hit {
            let (nm, score, xs) = self.hit_values(i);
            push_aux_int(out, b"NM", nm);
            out.extend_from_slice(b"MDZ");
            self.push_md(&self.hits[i], out);
            out.push(0);
            push_aux_int(out, b"AS", score);
            if let Some(xs) = xs {
                push_aux_int(out, b"XS", xs);
            }
            if self.has_xa(f.kind) {
                out.extend_from_slice(b"XAZ");
                self.push_xa(out);
                out.push(0);
            }
        }
        if let Some(rg) = self.options.read_group {
            out.extend_from_slice(b"RGZ");
            out.extend_from_slice(rg.as_bytes());
            out.push(0);
        }
        let block_size = (out.len() - start - 4) as u32;
        out[start..start + 4].copy_from_slice(&block_size.to_le_bytes());
    }

    /// Appends the XA value: `contig,±pos,{len}M,NM;` per alternative.
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
            out.extend_from_slice(b"M,");
            push_int(out, h.mismatches as i64);
            out.push(b';');
        }
    }

    /// Appends the record as a SAM line, exactly as htslib formats the record
    /// [`Self::bam`] encodes.
    fn sam(&self, f: &Fields, out: &mut Vec<u8>) {
        let read = self.read;
        let len = read.seq.len() as i64;
        let contig = |tid: i32| self.options.layout.contigs[tid as usize].name.as_bytes();
        out.extend_from_slice(read.name);
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
                push_sam_reverse_complement(out, read.seq);
                out.push(b'\t');
                push_sam_qualities(out, read.qual, true);
            }
            Kind::Unmapped | Kind::Primary { reverse: false } => {
                push_sam_bases(out, read.seq);
                out.push(b'\t');
                push_sam_qualities(out, read.qual, false);
            }
        }
        if let Some(i) = f.hit {
            out.extend_from_slice(b"\tNM:i:");
            let (nm, score, xs) = self.hit_values(i);
            push_int(out, nm as i64);
            out.extend_from_slice(b"\tMD:Z:");
            self.push_md(&self.hits[i], out);
            out.extend_from_slice(b"\tAS:i:");
            push_int(out, score as i64);
            if let Some(xs) = xs {
                out.extend_from_slice(b"\tXS:i:");
                push_int(out, xs as i64);
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

/// Appends the qualities `qual` as SAM text (`*` without them), last first where
/// `reversed`: each at least 33 (`!`), as htslib writes a quality below 0 back.
/// Written into place, as MD is now written into the line (not into a vector of its
/// own first): HG002 x40 against chr20, `map -a -t 1`, SAM, user 1.17 -> 1.12 s (the
/// CI-class machine, five runs each); no difference in wall time at human scale on 16
/// cores (BENCHMARKS.md, session 33, r34). With AVX2 where the CPU has it, 32 a step.
fn push_sam_qualities(out: &mut Vec<u8>, qual: Option<&[u8]>, reversed: bool) {
    let Some(qual) = qual else {
        out.push(b'*');
        return;
    };
    let start = out.len();
    out.resize(start + qual.len(), 0);
    let place = &mut out[start..];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, the one feature the copy adds.
        return unsafe { write_qualities_avx2(place, qual, reversed) };
    }
    write_qualities(place, qual, reversed);
}

/// [`write_qualities`] compiled with AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn write_qualities_avx2(place: &mut [u8], qual: &[u8], reversed: bool) {
    write_qualities(place, qual, reversed);
}

/// Writes the qualities `qual` (as long as `place`) into `place` as
/// [`push_sam_qualities`] appends them.
#[inline(always)]
fn write_qualities(place: &mut [u8], qual: &[u8], reversed: bool) {
    match reversed {
        true => {
            for (to, &q) in place.iter_mut().zip(qual.iter().rev()) {
                *to = q.max(33);
            }
        }
        false => {
            for (to, &q) in place.iter_mut().zip(qual) {
                *to = q.max(33);
            }
        }
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

/// Appends the bases `seq` as SAM text: each as htslib's 4-bit code writes it back
/// (upper case; IUPAC codes kept; anything else `N`). Copied as they are where all are
/// A, C, G, T or N, 32 bytes at a time with AVX2 where the CPU has it, else sixteen
/// (a table lookup a base was half of the SAM encoding's time, perf; HG002 148 bp, one
/// thread: 80 -> 26 ns a read with sixteen).
fn push_sam_bases(out: &mut Vec<u8>, seq: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { push_sam_bases_avx2(out, seq) };
    }
    push_sam_bases_sixteens(out, seq);
}

/// [`push_sam_bases`] 32 bytes at a time, any others sixteen at a time.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn push_sam_bases_avx2(out: &mut Vec<u8>, seq: &[u8]) {
    let mut chunks = seq.chunks_exact(32);
    for chunk in &mut chunks {
        // SAFETY: the caller's CPU has AVX2.
        match unsafe { upper_acgtn_thirty_two(chunk.try_into().expect("32 bytes")) } {
            true => out.extend_from_slice(chunk),
            false => push_sam_bases_sixteens(out, chunk),
        }
    }
    push_sam_bases_sixteens(out, chunks.remainder());
}

/// [`push_sam_bases`] sixteen bytes at a time, the rest a byte at a time.
fn push_sam_bases_sixteens(out: &mut Vec<u8>, seq: &[u8]) {
    let sam_base = |&b: &u8| NT16_STR[NT16_TABLE[b as usize] as usize];
    let mut chunks = seq.chunks_exact(16);
    for chunk in &mut chunks {
        if upper_acgtn_sixteen(chunk.try_into().expect("16 bytes")) {
            out.extend_from_slice(chunk);
        } else {
            out.extend(chunk.iter().map(sam_base));
        }
    }
    out.extend(chunks.remainder().iter().map(sam_base));
}

/// Appends the reverse complement of `seq` as SAM text ([`complement`] of each base,
/// last first), 32 bytes at a time with AVX2 where the CPU has it and all are
/// upper-case A, C, G, T or N, else sixteen at a time where they are. The bases are
/// read first to last (each step written to its place from the end), the order in
/// which memory streams them in.
fn push_sam_reverse_complement(out: &mut Vec<u8>, seq: &[u8]) {
    let start = out.len();
    out.resize(start + seq.len(), 0);
    let place = &mut out[start..];
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { reverse_complement_into_avx2(seq, place) };
    }
    reverse_complement_into(seq, place);
}

/// Writes the reverse complement of `seq` into `written` (as long), as
/// [`push_sam_reverse_complement`] appends it, 32 bytes at a time.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn reverse_complement_into_avx2(seq: &[u8], written: &mut [u8]) {
    let len = seq.len();
    let mut chunks = seq.chunks_exact(32);
    for (i, chunk) in (&mut chunks).enumerate() {
        let place = &mut written[len - 32 * (i + 1)..len - 32 * i];
        // SAFETY: the caller's CPU has AVX2.
        match unsafe { reverse_complement_thirty_two(chunk.try_into().expect("32 bytes")) } {
            Some(thirty_two) => place.copy_from_slice(&thirty_two),
            None => reverse_complement_into(chunk, place),
        }
    }
    let rest = chunks.remainder();
    reverse_complement_into(rest, &mut written[..rest.len()]);
}

/// Writes the reverse complement of `seq` into `written` (as long), sixteen bytes at a
/// time where all are upper-case A, C, G, T or N.
fn reverse_complement_into(seq: &[u8], written: &mut [u8]) {
    let len = seq.len();
    let mut chunks = seq.chunks_exact(16);
    for (i, chunk) in (&mut chunks).enumerate() {
        let place = &mut written[len - 16 * (i + 1)..len - 16 * i];
        match reverse_complement_sixteen(chunk.try_into().expect("16 bytes")) {
            Some(sixteen) => place.copy_from_slice(&sixteen),
            None => complement_reversed(chunk, place),
        }
    }
    let rest = chunks.remainder();
    complement_reversed(rest, &mut written[..rest.len()]);
}

/// Writes the [`complement`] of `bases`, last first, into `place` (as long).
fn complement_reversed(bases: &[u8], place: &mut [u8]) {
    for (to, &b) in place.iter_mut().zip(bases.iter().rev()) {
        *to = complement(b);
    }
}

/// The base of each 4-bit code.
const NT16_STR: &[u8; 16] = b"=ACMGRSVTWYHKDBN";

/// htslib's 4-bit code of each base's [`complement`], for reversed reads.
const NT16_COMPLEMENT: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = NT16_TABLE[complement(b as u8) as usize];
        b += 1;
    }
    table
};

/// Appends bases as BAM stores them: two 4-bit codes a byte, the first in the high
/// half; an odd last base leaves the low half 0. Written into place a byte at a time
/// (a push a byte was most of the record encoding's time).
fn push_bases(out: &mut Vec<u8>, seq: &[u8]) {
    let start = out.len();
    out.resize(start + seq.len().div_ceil(2), 0);
    for (byte, pair) in out[start..].iter_mut().zip(seq.chunks(2)) {
        let low = pair.get(1).map_or(0, |&b| NT16_TABLE[b as usize]);
        *byte = NT16_TABLE[pair[0] as usize] << 4 | low;
    }
}

/// Appends the reverse complement of `seq` as [`push_bases`] appends bases.
fn push_reverse_complement(out: &mut Vec<u8>, seq: &[u8]) {
    let start = out.len();
    out.resize(start + seq.len().div_ceil(2), 0);
    for (byte, pair) in out[start..].iter_mut().zip(seq.rchunks(2)) {
        *byte = match *pair {
            [low, high] => NT16_COMPLEMENT[high as usize] << 4 | NT16_COMPLEMENT[low as usize],
            [high] => NT16_COMPLEMENT[high as usize] << 4,
            _ => unreachable!("rchunks(2) gives one or two bases"),
        };
    }
}

/// Appends an `i` (int32) aux field, as htslib stores `Aux::I32`.
fn push_aux_int(out: &mut Vec<u8>, tag: &[u8; 2], value: i32) {
    out.extend_from_slice(tag);
    out.push(b'i');
    out.extend_from_slice(&value.to_le_bytes());
}

/// Appends `n` in decimal (the `itoa` crate: two digits a step; a digit a division
/// here took 4% of a human-scale GPU run's CPU time, perf).
fn push_int(out: &mut Vec<u8>, n: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

#[cfg(test)]
mod tests {
    use rust_htslib::bam::record::{Aux, Cigar, CigarString, Record};

    use super::*;
    use crate::reference::{Contig, PackedText};
    use crate::test_support::random_codes;

    #[test]
    fn integers_are_written_in_decimal() {
        let mut values = vec![0, 1, -1, 9, 10, -10, 99, 100, i64::MAX, i64::MIN];
        values.extend((0..60).flat_map(|e| [1i64 << e, -(1i64 << e), (1i64 << e) - 1]));
        for n in values {
            let mut out = b"x".to_vec();
            push_int(&mut out, n);
            assert_eq!(out, format!("x{n}").as_bytes());
        }
    }

    #[test]
    fn bases_and_reverse_complements_are_written_as_byte_at_a_time() {
        let mut state = 0x9E37_79B9u64;
        for len in 0..100 {
            for round in 0..200 {
                let seq: Vec<u8> = (0..len)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1);
                        let r = (state >> 33) as usize;
                        // Mostly upper-case bases; now and then any byte.
                        match r % 64 {
                            0 if round % 2 == 0 => (r >> 8) as u8,
                            _ => b"ACGTN"[(r >> 8) % 5],
                        }
                    })
                    .collect();
                let (mut fast, mut rc) = (Vec::new(), Vec::new());
                push_sam_bases(&mut fast, &seq);
                push_sam_reverse_complement(&mut rc, &seq);
                let slow: Vec<u8> = seq
                    .iter()
                    .map(|&b| NT16_STR[NT16_TABLE[b as usize] as usize])
                    .collect();
                let slow_rc: Vec<u8> = seq.iter().rev().map(|&b| complement(b)).collect();
                assert_eq!(fast, slow, "{seq:?}");
                assert_eq!(rc, slow_rc, "{seq:?}");
                // Sixteen at a time, as on a CPU without AVX2.
                let (mut sixteens, mut rc_sixteens) = (Vec::new(), vec![0; seq.len()]);
                push_sam_bases_sixteens(&mut sixteens, &seq);
                reverse_complement_into(&seq, &mut rc_sixteens);
                assert_eq!(sixteens, slow, "{seq:?}");
                assert_eq!(rc_sixteens, slow_rc, "{seq:?}");
            }
        }
    }

    #[test]
    fn reversed_bases_pack_as_the_complement_read_backwards() {
        let every_byte: Vec<u8> = (0..=255u8).collect();
        for len in [0, 1, 2, 7, 148, 256] {
            let seq: Vec<u8> = every_byte
                .iter()
                .cycle()
                .skip(len * 3)
                .take(len)
                .copied()
                .collect();
            let reversed: Vec<u8> = seq.iter().rev().map(|&b| complement(b)).collect();
            let (mut got, mut want) = (vec![9], vec![9]);
            push_reverse_complement(&mut got, &seq);
            push_bases(&mut want, &reversed);
            assert_eq!(got, want, "length {len}");
            assert_eq!(got.len(), 1 + len.div_ceil(2));
        }
    }

    #[test]
    fn qualities_are_written_at_least_33_forward_and_reversed() {
        let qual: Vec<u8> = (0..=255u8).chain([0, 32, 33, 34, 255]).collect();
        for reversed in [false, true] {
            let mut out = b"x\t".to_vec();
            push_sam_qualities(&mut out, Some(&qual), reversed);
            let mut want = b"x\t".to_vec();
            match reversed {
                true => want.extend(qual.iter().rev().map(|&q| q.max(33))),
                false => want.extend(qual.iter().map(|&q| q.max(33))),
            }
            assert_eq!(out, want, "reversed {reversed}");
            let mut place = vec![0; qual.len()];
            write_qualities(&mut place, &qual, reversed);
            assert_eq!(
                place,
                want[2..],
                "reversed {reversed}, as on a CPU without AVX2"
            );
        }
        let mut out = Vec::new();
        push_sam_qualities(&mut out, None, true);
        assert_eq!(out, b"*");
    }

    #[test]
    fn bins_match_the_sam_spec() {
        assert_eq!(reg2bin(-1, 0), 4680);
        assert_eq!(reg2bin(0, 100), 4681);
        assert_eq!(reg2bin(16383, 16385), 585);
        assert_eq!(reg2bin(100_000, 100_100), 4681 + 6); // 100,000 >> 14 = 6
    }

    /// The record as htslib builds it from the same fields (the encoding galign used
    /// before BAM records were encoded here).
    fn htslib_record(record: &ReadHits<'_>, f: &Fields) -> Record {
        let read = record.read;
        let len = read.seq.len() as i64;
        let qual: Vec<u8> = match &read.qual {
            Some(q) => q.iter().map(|&q| q.saturating_sub(33)).collect(),
            None => vec![0xFF; read.seq.len()],
        };
        let cigar = CigarString(vec![Cigar::Match(len as u32)]);
        let mut rec = Record::new();
        match f.kind {
            Kind::Unmapped => rec.set(read.name, None, read.seq, &qual),
            Kind::Secondary => rec.set(read.name, Some(&cigar), &[], &[]),
            Kind::Primary { reverse: true } => {
                let seq: Vec<u8> = read.seq.iter().rev().map(|&b| complement(b)).collect();
                let qual: Vec<u8> = qual.iter().rev().copied().collect();
                rec.set(read.name, Some(&cigar), &seq, &qual);
            }
            Kind::Primary { reverse: false } => rec.set(read.name, Some(&cigar), read.seq, &qual),
        }
        rec.set_flags(f.flags);
        rec.set_tid(f.tid);
        rec.set_pos(f.pos);
        rec.set_bin(f.bin);
        rec.set_mapq(f.mapq);
        rec.set_mtid(f.mtid);
        rec.set_mpos(f.mpos);
        rec.set_insert_size(f.tlen);
        if let Some(i) = f.hit {
            let (nm, score, xs) = record.hit_values(i);
            let mut md = Vec::new();
            record.push_md(&record.hits[i], &mut md);
            rec.push_aux(b"NM", Aux::I32(nm)).unwrap();
            rec.push_aux(b"MD", Aux::String(std::str::from_utf8(&md).unwrap()))
                .unwrap();
            rec.push_aux(b"AS", Aux::I32(score)).unwrap();
            if let Some(xs) = xs {
                rec.push_aux(b"XS", Aux::I32(xs)).unwrap();
            }
            if record.has_xa(f.kind) {
                let mut xa = Vec::new();
                record.push_xa(&mut xa);
                rec.push_aux(b"XA", Aux::String(std::str::from_utf8(&xa).unwrap()))
                    .unwrap();
            }
        }
        if let Some(rg) = record.options.read_group {
            rec.push_aux(b"RG", Aux::String(rg)).unwrap();
        }
        rec
    }

    /// The bytes htslib's `bam_write1` writes for `rec`: block_size, the 32 bytes of
    /// fixed fields, then its data without the NULs that pad the name to 4 bytes.
    fn bam_write1_bytes(rec: &Record) -> Vec<u8> {
        let inner = rec.inner();
        let core = &inner.core;
        // SAFETY: htslib keeps `l_data` initialised bytes at `data` while `rec` lives.
        let data = unsafe { std::slice::from_raw_parts(inner.data, inner.l_data as usize) };
        let name_end = core.l_qname as usize - core.l_extranul as usize;
        let body: Vec<u8> = [&data[..name_end], &data[core.l_qname as usize..]].concat();
        let words = [
            core.tid as u32,
            core.pos as u32,
            (core.bin as u32) << 16 | (core.qual as u32) << 8 | name_end as u32,
            (core.flag as u32) << 16 | core.n_cigar,
            core.l_qseq as u32,
            core.mtid as u32,
            core.mpos as u32,
            core.isize_ as u32,
        ];
        let mut out = ((32 + body.len()) as u32).to_le_bytes().to_vec();
        words
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        out.extend_from_slice(&body);
        out
    }

    fn read<'a>(name: &'a str, seq: &'a str, qual: Option<&'a str>) -> ReadRecord<'a> {
        ReadRecord {
            name: name.as_bytes(),
            seq: seq.as_bytes(),
            qual: qual.map(str::as_bytes),
        }
    }

    fn hit(contig: u32, pos: u64, reverse: bool) -> Hit {
        Hit {
            mismatches: (pos % 3) as u8,
            contig,
            pos,
            reverse,
        }
    }

    fn layout() -> Layout {
        let contig = |name: &str| Contig {
            name: name.into(),
            description: String::new(),
            offset: 0,
            len: 1_000_000,
        };
        Layout {
            contigs: vec![contig("chr1"), contig("chrM")],
            ambiguous: Vec::new(),
        }
    }

    /// Calls `emit` for every record of a set of cases: unmapped, forward, reverse,
    /// multi-hit reads (XS, XA, secondaries with `-a`), with and without a read group,
    /// single and paired (mate unmapped, mapped, on another contig), odd lengths,
    /// IUPAC codes and odd bytes, missing qualities. Returns how many records there were.
    fn each_case(layout: &Layout, mut emit: impl FnMut(&ReadHits<'_>, &Fields)) -> usize {
        // The reference under every hit below (MD compares the reads with it).
        let text = PackedText::from_codes(&random_codes(100_100, 1, 4));
        let options = |read_group, all_hits| RecordOptions {
            layout,
            text: text.as_ref(),
            read_group,
            max_alternatives: 3,
            all_hits,
        };
        let reads = [
            read("r1", "ACGTNacgtRYK", Some("IIII#!5?@ABC")),
            read("odd_length_read", "ACGTA", Some("ABCDE")),
            read("no_qual", "GATTACA", None),
            read("weird", "AC=.-*0123xz", Some("~~~~~~~~~~~~")),
            read("", "", None),
        ];
        let mut hit_sets = [
            vec![],
            vec![hit(0, 10, false)],
            vec![hit(1, 5, true)],
            vec![
                hit(0, 10, true),
                hit(1, 0, false),
                hit(0, 99_999, true),
                hit(0, 16_380, false),
            ],
        ];
        for hits in &mut hit_sets {
            hits.sort(); // best stratum first, as the searchers give them
        }
        let mates = [
            None,
            Some((true, None, false)),
            Some((false, Some(hit(0, 50, true)), true)),
            Some((true, Some(hit(1, 7, false)), false)),
        ];
        let mut count = 0;
        for read in &reads {
            for hits in &hit_sets {
                let primaries = [None].into_iter().chain((0..hits.len()).map(Some));
                for primary in primaries.filter(|p| p.is_some() != hits.is_empty()) {
                    for (rg, all) in [(None, false), (Some("grp1"), false), (None, true)] {
                        for &mate in &mates {
                            let mate = mate.map(|(first, mate_hit, proper)| MateContext {
                                first,
                                mate_hit,
                                mate_len: 9,
                                proper,
                            });
                            let options = options(rg, all);
                            visit_records(read, hits, primary, mate, &options, |r, f| {
                                count += 1;
                                emit(r, f)
                            });
                        }
                    }
                }
            }
        }
        count
    }

    #[test]
    fn mapq_follows_the_strata() {
        let h = |mismatches| Hit {
            mismatches,
            contig: 0,
            pos: 0,
            reverse: false,
        };
        assert_eq!(mapq(&[h(2)]), 60);
        assert_eq!(mapq(&[h(0), h(0), h(3)]), 0);
        assert_eq!(mapq(&[h(0), h(1)]), 20);
        assert_eq!(mapq(&[h(1), h(3), h(3)]), 40);
        assert_eq!(mapq(&[h(0), h(3)]), 59);
    }

    #[test]
    fn nm_md_as_and_xs_describe_the_mismatches() {
        // Reference AACCGGTTAC at 0; the read matches at 0 with two mismatches (its
        // 3rd base and an N), and its reverse complement elsewhere exactly.
        let text = PackedText::from_codes(&[0, 0, 1, 1, 2, 2, 3, 3, 0, 1]);
        let layout = layout();
        let options = RecordOptions {
            layout: &layout,
            text: text.as_ref(),
            read_group: None,
            max_alternatives: 5,
            all_hits: false,
        };
        let read = read("r", "AAGCGNTTAC", None);
        let hits = [
            Hit {
                mismatches: 0,
                contig: 1,
                pos: 0,
                reverse: true,
            },
            Hit {
                mismatches: 2,
                contig: 0,
                pos: 0,
                reverse: false,
            },
        ];
        let record = ReadHits {
            read: &read,
            hits: &hits,
            primary: Some(0),
            options: &options,
        };
        let md = |i: usize| {
            let mut md = Vec::new();
            record.push_md(&record.hits[i], &mut md);
            md
        };
        assert_eq!(record.hit_values(1), (2, 8 - 2 * 4, Some(10)));
        assert_eq!(md(1), b"2C2G4");
        assert_eq!(record.hit_values(0), (0, 10, Some(0)));
        assert_eq!(md(0), b"10");
        let mut xa = Vec::new();
        record.push_xa(&mut xa);
        assert_eq!(xa, b"chr1,+1,10M,2;");
    }

    #[test]
    fn bam_records_are_htslib_records_byte_for_byte() {
        let count = each_case(&layout(), |record, fields| {
            let mut ours = Vec::new();
            record.bam(fields, &mut ours);
            let theirs = bam_write1_bytes(&htslib_record(record, fields));
            let name = String::from_utf8_lossy(record.read.name);
            assert_eq!(ours, theirs, "read {name:?}, flags {}", fields.flags);
        });
        assert!(count > 500, "only {count} records compared");
    }

    /// `records` written by htslib itself (`hts_open` mode `wb{level}`: the level holds
    /// for the header's block too) to `path`.
    fn htslib_bam_file(
        path: &std::path::Path,
        header: &rust_htslib::bam::header::Header,
        level: u8,
        records: &[Record],
    ) {
        use rust_htslib::htslib;
        let c_path = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        let mode = std::ffi::CString::new(format!("wb{level}")).unwrap();
        let view = rust_htslib::bam::HeaderView::from_header(header);
        // SAFETY: htslib's C API on a file it opened, a header view and records that
        // outlive the calls; each return code is checked.
        unsafe {
            let fp = htslib::hts_open(c_path.as_ptr(), mode.as_ptr());
            assert!(!fp.is_null(), "hts_open");
            let hdr = view.inner_ptr() as *mut htslib::bam_hdr_t;
            assert!(htslib::sam_hdr_write(fp, hdr) >= 0, "sam_hdr_write");
            for record in records {
                assert!(
                    htslib::sam_write1(fp, hdr, record.inner()) >= 0,
                    "sam_write1"
                );
            }
            assert!(htslib::hts_close(fp) >= 0, "hts_close");
        }
    }

    /// A BAM file of many blocks from galign's writer equals htslib's at the same level
    /// (2 and samtools' 6: libdeflate's levels; level 1 is ISA-L's), byte for byte, its
    /// header (3,000 contigs) spanning several blocks too.
    #[test]
    fn bam_files_are_htslib_files_byte_for_byte() {
        let layout = layout();
        let mut many = layout.clone();
        many.contigs.extend((0..3000).map(|i| Contig {
            name: format!("unplaced_contig_{i}_of_a_draft_assembly"),
            description: String::new(),
            offset: 0,
            len: 1000 + i,
        }));
        let header = crate::sam::build_header(&many, None, "galign map test");
        let dir = tempfile::tempdir().unwrap();
        let (mut parts, mut records) = (Vec::new(), Vec::new());
        for _ in 0..40 {
            let mut part = Vec::new();
            each_case(&layout, |record, fields| {
                record.bam(fields, &mut part);
                records.push(htslib_record(record, fields));
            });
            parts.push(Encoded::Bam(part));
        }
        for level in [2, 6] {
            let ours = dir.path().join(format!("ours{level}.bam"));
            let theirs = dir.path().join(format!("theirs{level}.bam"));
            htslib_bam_file(&theirs, &header, level, &records);
            let mut writer = crate::sam::SamWriter::create(
                (Some(&ours), crate::sam::OutputFormat::Bam),
                &header,
                (3, level),
            )
            .unwrap();
            writer.write(parts[..7].to_vec()).unwrap();
            writer.write(parts[7..].to_vec()).unwrap();
            writer.finish().unwrap();
            let (ours, theirs) = (std::fs::read(ours).unwrap(), std::fs::read(theirs).unwrap());
            assert!(
                theirs.len() > 2 * 0x10000,
                "{} bytes: too few blocks",
                theirs.len()
            );
            assert!(ours == theirs, "BAM files differ at level {level}");
        }
    }
}
