//! bwa mem's single-end output (bwamem.c, bwamem_extra.c 0.7.17): `mem_reg2aln` (a
//! region's CIGAR, NM, MD, position and clipping), `mem_gen_alt` (XA), `mem_reg2sam`
//! (which regions are written, flags, supplementary MAPQ) and `mem_aln2sam` (the SAM
//! line, tags NM MD AS XS RG SA pa XA).

use super::cigar::{gen_cigar, OP_D, OP_H, OP_S};
use super::mapq::approx_mapq_se;
use super::pac::Pac;
use super::region::AlnReg;
use super::settings::AlignOptions;
use crate::fmd::ann::Contigs;

/// One alignment ready for output (`mem_aln_t`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aln {
    /// Contig (-1: unmapped).
    pub rid: i32,
    /// Position on the contig, 0-based (-1: unmapped).
    pub pos: i64,
    /// On the reverse strand.
    pub is_rev: bool,
    /// On an ALT contig.
    pub is_alt: bool,
    /// Flag (0x10000: supplementary written as secondary, `-M`).
    pub flag: i32,
    /// Mapping quality.
    pub mapq: i32,
    /// CIGAR, packed `len << 4 | op` (op 3 `S`, 4 `H`).
    pub cigar: Vec<u32>,
    /// Edit distance.
    pub nm: i32,
    /// MD tag.
    pub md: String,
    /// Score.
    pub score: i32,
    /// Second best score (-1: not written).
    pub sub: i32,
    /// Score of the ALT hit shadowing it.
    pub alt_sc: i32,
    /// XA tag's value.
    pub xa: Option<String>,
}

/// A read as bwa mem writes it.
#[derive(Clone, Copy, Debug)]
pub struct SamRead<'a> {
    /// Name (`/1`, `/2` trimmed as bwa trims them).
    pub name: &'a [u8],
    /// Bases as codes (0-4).
    pub seq: &'a [u8],
    /// Qualities (`None`: FASTA).
    pub qual: Option<&'a [u8]>,
    /// Read group ID for the RG tag.
    pub rg_id: Option<&'a [u8]>,
}

/// `infer_bw`: the band a global alignment of these lengths and score needs.
fn infer_bw(l1: i32, l2: i32, score: i32, a: i32, q: i32, r: i32) -> i32 {
    if l1 == l2 && l1 * a - score < (q + r - a) << 1 {
        return 0;
    }
    let w = (f64::from(l1.min(l2) * a - score - q) / f64::from(r) + 2.0) as i32;
    w.max((l1 - l2).abs())
}

/// `bns_depos`.
fn depos(l_pac: i64, pos: i64) -> (i64, bool) {
    super::chain::depos(l_pac, pos)
}

/// `mem_reg2aln` of region `ar` of read `query` (codes); `None`: the unmapped record.
pub fn reg2aln(
    opt: &AlignOptions,
    contigs: &Contigs,
    pac: &Pac,
    query: &[u8],
    ar: Option<&AlnReg>,
) -> Aln {
    let ar = match ar {
        Some(ar) if ar.rb >= 0 && ar.re >= 0 => ar,
        _ => {
            return Aln {
                rid: -1,
                pos: -1,
                flag: 0x4,
                ..Aln::default()
            }
        }
    };
    let l_query = query.len() as i32;
    let (qb, qe, rb, re) = (ar.qb, ar.qe, ar.rb, ar.re);
    let mut a = Aln {
        mapq: if ar.secondary < 0 {
            approx_mapq_se(opt, ar)
        } else {
            0
        },
        flag: if ar.secondary >= 0 { 0x100 } else { 0 },
        ..Aln::default()
    };
    let g = band_cigar(opt, pac, query, ar);
    a.cigar = g.cigar;
    a.nm = g.nm;
    a.md = g.md;
    let (mut pos, is_rev) = depos(pac.l_pac(), if rb < pac.l_pac() { rb } else { re - 1 });
    a.is_rev = is_rev;
    if let Some(&first) = a.cigar.first() {
        if first & 0xf == OP_D {
            pos += i64::from(first >> 4);
            a.cigar.remove(0);
        } else if a.cigar.last().is_some_and(|&c| c & 0xf == OP_D) {
            a.cigar.pop();
        }
    }
    if qb != 0 || qe != l_query {
        let (clip5, clip3) = match is_rev {
            true => (l_query - qe, qb),
            false => (qb, l_query - qe),
        };
        if clip5 != 0 {
            a.cigar.insert(0, (clip5 as u32) << 4 | OP_S);
        }
        if clip3 != 0 {
            a.cigar.push((clip3 as u32) << 4 | OP_S);
        }
    }
    a.rid = contigs.contig_of(pos as u64) as i32;
    a.pos = pos - contigs.contigs[a.rid as usize].offset as i64;
    a.score = ar.score;
    a.sub = ar.sub.max(ar.csub);
    a.is_alt = ar.is_alt;
    a.alt_sc = ar.alt_sc;
    a
}

/// The CIGAR of region `ar`: `bwa_gen_cigar2` in a band inferred from its score,
/// doubled while the global score falls short (`mem_reg2aln`'s loop).
fn band_cigar(opt: &AlignOptions, pac: &Pac, query: &[u8], ar: &AlnReg) -> super::cigar::GenCigar {
    let (qb, qe, rb, re) = (ar.qb, ar.qe, ar.rb, ar.re);
    let (ql, rl) = (qe - qb, (re - rb) as i32);
    let tmp = infer_bw(ql, rl, ar.truesc, opt.a, opt.o_del, opt.e_del);
    let mut w2 = infer_bw(ql, rl, ar.truesc, opt.a, opt.o_ins, opt.e_ins).max(tmp);
    let w = opt.w();
    if w2 > w {
        w2 = w2.min(ar.w);
    }
    let q = &query[qb as usize..qe as usize];
    let mut last_sc = -(1 << 30);
    let mut i = 0;
    loop {
        w2 = w2.min(w << 2);
        let g = gen_cigar(opt, w2, pac, q, rb, re, true).unwrap_or(super::cigar::GenCigar {
            nm: -1,
            ..Default::default()
        });
        if g.score == last_sc || w2 == w << 2 {
            return g;
        }
        last_sc = g.score;
        w2 <<= 1;
        i += 1;
        if !(i < 3 && g.score < ar.truesc - opt.a) {
            return g;
        }
    }
}

/// `get_pri_idx`: the primary hit `a[i]` belongs in the XA of, if any.
fn pri_idx(xa_drop_ratio: f64, a: &[AlnReg], i: usize) -> Option<usize> {
    let k = a[i].secondary_all;
    (k >= 0 && f64::from(a[i].score) >= f64::from(a[k as usize].score) * xa_drop_ratio)
        .then_some(k as usize)
}

/// Appends `cigar` as SAM text, with `letters` for the op codes.
fn put_cigar(out: &mut Vec<u8>, cigar: &[u32], letters: &[u8]) {
    for &c in cigar {
        out.extend_from_slice(itoa::Buffer::new().format(c >> 4).as_bytes());
        out.push(letters[(c & 0xf) as usize]);
    }
}

/// `mem_gen_alt`: each region's XA text (on the primary it belongs to), or `None`
/// for all where no region belongs in one.
pub fn gen_alt(
    opt: &AlignOptions,
    contigs: &Contigs,
    pac: &Pac,
    a: &[AlnReg],
    query: &[u8],
) -> Option<Vec<Option<String>>> {
    let ratio = f64::from(opt.xa_drop_ratio);
    let mut cnt = vec![0; a.len()];
    let mut has_alt = vec![false; a.len()];
    let mut tot = 0;
    for i in 0..a.len() {
        if let Some(r) = pri_idx(ratio, a, i) {
            cnt[r] += 1;
            tot += 1;
            has_alt[r] |= a[i].is_alt;
        }
    }
    if tot == 0 {
        return None;
    }
    let mut xa: Vec<Option<Vec<u8>>> = vec![None; a.len()];
    for i in 0..a.len() {
        let Some(r) = pri_idx(ratio, a, i) else {
            continue;
        };
        if cnt[r] > opt.max_xa_hits_alt || (!has_alt[r] && cnt[r] > opt.max_xa_hits) {
            continue;
        }
        let t = reg2aln(opt, contigs, pac, query, Some(&a[i]));
        let s = xa[r].get_or_insert_with(Vec::new);
        s.extend_from_slice(&contigs.contigs[t.rid as usize].name);
        s.push(b',');
        s.push(if t.is_rev { b'-' } else { b'+' });
        s.extend_from_slice(itoa::Buffer::new().format(t.pos + 1).as_bytes());
        s.push(b',');
        put_cigar(s, &t.cigar, b"MIDSHN");
        s.push(b',');
        s.extend_from_slice(itoa::Buffer::new().format(t.nm).as_bytes());
        s.push(b';');
    }
    Some(
        xa.into_iter()
            .map(|s| s.map(|s| String::from_utf8_lossy(&s).into_owned()))
            .collect(),
    )
}

/// How a read's lines are written: bits added to every line's flag and, for a mate of a
/// pair, the mate's alignment (`mem_reg2sam`'s `extra_flag` and `m`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Pairing<'a> {
    /// Flag bits added to every line (0 for a single-end read).
    pub extra_flag: i32,
    /// The mate's primary alignment (`None`: single-end).
    pub mate: Option<&'a Aln>,
}

/// `mem_reg2sam`: appends the read's SAM lines to `out`.
pub fn reg2sam(
    opt: &AlignOptions,
    contigs: &Contigs,
    pac: &Pac,
    read: &SamRead,
    a: &[AlnReg],
    pairing: Pairing,
    out: &mut Vec<u8>,
) {
    let xa = match opt.all {
        false => gen_alt(opt, contigs, pac, a, read.seq),
        true => None,
    };
    let mut aa: Vec<Aln> = Vec::new();
    for (k, p) in a.iter().enumerate() {
        if p.score < opt.min_out_score {
            continue;
        }
        if p.secondary >= 0 && (p.is_alt || !opt.all) {
            continue;
        }
        if p.secondary >= 0
            && p.secondary < i32::MAX
            && (p.score as f32) < a[p.secondary as usize].score as f32 * opt.chain.drop_ratio
        {
            continue;
        }
        let mut q = reg2aln(opt, contigs, pac, read.seq, Some(p));
        q.xa = xa.as_ref().and_then(|x| x[k].clone());
        q.flag |= pairing.extra_flag;
        if p.secondary >= 0 {
            q.sub = -1;
        }
        if !aa.is_empty() && p.secondary < 0 {
            q.flag |= if opt.no_multi { 0x10000 } else { 0x800 };
        }
        if !opt.keep_supp_mapq && !aa.is_empty() && !p.is_alt && q.mapq > aa[0].mapq {
            q.mapq = aa[0].mapq;
        }
        aa.push(q);
    }
    if aa.is_empty() {
        let mut t = reg2aln(opt, contigs, pac, read.seq, None);
        t.flag |= pairing.extra_flag;
        aln2sam(opt, contigs, out, read, &[t], 0, pairing.mate);
    } else {
        for k in 0..aa.len() {
            aln2sam(opt, contigs, out, read, &aa, k, pairing.mate);
        }
    }
}

/// `add_cigar`: the CIGAR, clips hard on supplementary lines (`which > 0`) unless
/// `-Y` or on an ALT contig.
fn add_cigar(opt: &AlignOptions, p: &Aln, out: &mut Vec<u8>, which: usize) {
    if p.cigar.is_empty() {
        out.push(b'*');
        return;
    }
    for &c in &p.cigar {
        let mut op = c & 0xf;
        if !opt.softclip && !p.is_alt && (op == OP_S || op == OP_H) {
            op = if which > 0 { OP_H } else { OP_S };
        }
        out.extend_from_slice(itoa::Buffer::new().format(c >> 4).as_bytes());
        out.push(b"MIDSH"[op as usize]);
    }
}

/// Appends a decimal number.
fn put_num(out: &mut Vec<u8>, n: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// `get_rlen`: the reference length of a CIGAR (its M and D operations).
fn ref_len(cigar: &[u32]) -> i64 {
    cigar
        .iter()
        .filter(|&&c| c & 0xf == 0 || c & 0xf == OP_D)
        .map(|&c| i64::from(c >> 4))
        .sum()
}

/// `mem_aln2sam`: the line of `list[which]`, with `mate` the mate's alignment for a
/// read of a pair.
pub fn aln2sam(
    opt: &AlignOptions,
    contigs: &Contigs,
    out: &mut Vec<u8>,
    read: &SamRead,
    list: &[Aln],
    which: usize,
    mate: Option<&Aln>,
) {
    let mut p = list[which].clone();
    let mut m = mate.cloned();
    let mut flag = p.flag;
    if let Some(m) = &mut m {
        flag |= 0x1;
        if m.rid < 0 {
            flag |= 0x8;
        }
        if p.rid < 0 && m.rid >= 0 {
            (p.rid, p.pos, p.is_rev) = (m.rid, m.pos, m.is_rev);
            p.cigar.clear();
        }
        if m.rid < 0 && p.rid >= 0 {
            (m.rid, m.pos, m.is_rev) = (p.rid, p.pos, p.is_rev);
            m.cigar.clear();
        }
    }
    if list[which].rid < 0 {
        flag |= 0x4;
    }
    if p.is_rev {
        flag |= 0x10;
    }
    if m.as_ref().is_some_and(|m| m.is_rev) {
        flag |= 0x20;
    }
    let p = &p;
    out.extend_from_slice(read.name);
    out.push(b'\t');
    put_num(
        out,
        (flag & 0xffff) | if flag & 0x10000 != 0 { 0x100 } else { 0 },
    );
    out.push(b'\t');
    if p.rid >= 0 {
        out.extend_from_slice(&contigs.contigs[p.rid as usize].name);
        out.push(b'\t');
        put_num(out, p.pos + 1);
        out.push(b'\t');
        put_num(out, p.mapq);
        out.push(b'\t');
        add_cigar(opt, p, out, which);
    } else {
        out.extend_from_slice(b"*\t0\t0\t*");
    }
    out.push(b'\t');
    put_mate(contigs, out, p, m.as_ref());
    out.push(b'\t');
    put_seq_qual(opt, out, read, p, flag, which);
    put_tags(opt, contigs, out, read, list, which, flag, p, m.as_ref());
    out.push(b'\n');
}

/// RNEXT, PNEXT and TLEN.
fn put_mate(contigs: &Contigs, out: &mut Vec<u8>, p: &Aln, m: Option<&Aln>) {
    let Some(m) = m.filter(|m| m.rid >= 0) else {
        out.extend_from_slice(b"*\t0\t0");
        return;
    };
    if p.rid == m.rid {
        out.push(b'=');
    } else {
        out.extend_from_slice(&contigs.contigs[m.rid as usize].name);
    }
    out.push(b'\t');
    put_num(out, m.pos + 1);
    out.push(b'\t');
    if p.rid != m.rid || m.cigar.is_empty() || p.cigar.is_empty() {
        out.push(b'0');
        return;
    }
    let end = |a: &Aln| a.pos + if a.is_rev { ref_len(&a.cigar) - 1 } else { 0 };
    let (p0, p1) = (end(p), end(m));
    put_num(out, -(p0 - p1 + (p0 - p1).signum()));
}

/// SEQ and QUAL: `*` on secondary lines, reverse complemented on the reverse strand,
/// hard-clipped bases left out of supplementary lines.
fn put_seq_qual(
    opt: &AlignOptions,
    out: &mut Vec<u8>,
    read: &SamRead,
    p: &Aln,
    flag: i32,
    which: usize,
) {
    if flag & 0x100 != 0 {
        out.extend_from_slice(b"*\t*");
        return;
    }
    let n = read.seq.len();
    let (mut clip_first, mut clip_last) = (0, 0);
    if !p.cigar.is_empty() && which > 0 && !opt.softclip && !p.is_alt {
        let is_clip = |c: u32| c & 0xf == OP_S || c & 0xf == OP_H;
        let (first, last) = (p.cigar[0], p.cigar[p.cigar.len() - 1]);
        if is_clip(first) {
            clip_first = (first >> 4) as usize;
        }
        if is_clip(last) {
            clip_last = (last >> 4) as usize;
        }
    }
    let seq = read.seq;
    if !p.is_rev {
        let (qb, qe) = (clip_first, n - clip_last);
        out.extend(seq[qb..qe].iter().map(|&c| b"ACGTN"[usize::from(c.min(4))]));
        out.push(b'\t');
        match read.qual {
            Some(q) => out.extend_from_slice(&q[qb..qe]),
            None => out.push(b'*'),
        }
    } else {
        let (qb, qe) = (clip_last, n - clip_first);
        out.extend(
            seq[qb..qe]
                .iter()
                .rev()
                .map(|&c| b"TGCAN"[usize::from(c.min(4))]),
        );
        out.push(b'\t');
        match read.qual {
            Some(q) => out.extend(q[qb..qe].iter().rev()),
            None => out.push(b'*'),
        }
    }
}

/// The optional fields: NM MD MC AS XS RG SA pa XA (`p`: `list[which]` as written,
/// `m`: the mate's alignment as written).
#[allow(clippy::too_many_arguments)]
fn put_tags(
    opt: &AlignOptions,
    contigs: &Contigs,
    out: &mut Vec<u8>,
    read: &SamRead,
    list: &[Aln],
    which: usize,
    flag: i32,
    p: &Aln,
    m: Option<&Aln>,
) {
    if !p.cigar.is_empty() {
        out.extend_from_slice(b"\tNM:i:");
        put_num(out, p.nm);
        out.extend_from_slice(b"\tMD:Z:");
        out.extend_from_slice(p.md.as_bytes());
    }
    if let Some(m) = m.filter(|m| !m.cigar.is_empty()) {
        out.extend_from_slice(b"\tMC:Z:");
        add_cigar(opt, m, out, which);
    }
    if p.score >= 0 {
        out.extend_from_slice(b"\tAS:i:");
        put_num(out, p.score);
    }
    if p.sub >= 0 {
        out.extend_from_slice(b"\tXS:i:");
        put_num(out, p.sub);
    }
    if let Some(rg) = read.rg_id {
        out.extend_from_slice(b"\tRG:Z:");
        out.extend_from_slice(rg);
    }
    if flag & 0x100 == 0 {
        let others = (0..list.len()).any(|i| i != which && list[i].flag & 0x100 == 0);
        if others {
            out.extend_from_slice(b"\tSA:Z:");
            for (i, r) in list.iter().enumerate() {
                if i == which || r.flag & 0x100 != 0 {
                    continue;
                }
                out.extend_from_slice(&contigs.contigs[r.rid as usize].name);
                out.push(b',');
                put_num(out, r.pos + 1);
                out.push(b',');
                out.push(if r.is_rev { b'-' } else { b'+' });
                out.push(b',');
                put_cigar(out, &r.cigar, b"MIDSH");
                out.push(b',');
                put_num(out, r.mapq);
                out.push(b',');
                put_num(out, r.nm);
                out.push(b';');
            }
        }
        if p.alt_sc > 0 {
            let pa = f64::from(p.score) / f64::from(p.alt_sc);
            out.extend_from_slice(format!("\tpa:f:{pa:.3}").as_bytes());
        }
    }
    if let Some(xa) = &p.xa {
        out.extend_from_slice(b"\tXA:Z:");
        out.extend_from_slice(xa.as_bytes());
    }
}
