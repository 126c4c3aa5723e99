//! `bwa_gen_cigar2` (bwa.c 0.7.17): the global alignment of a read stretch against a
//! reference stretch (`ksw_global2` in the band bwa picks), with bwa's NM and MD.

use super::pac::Pac;
use super::settings::AlignOptions;
use crate::align::global;

/// BAM's CIGAR codes as bwa mem packs them (`len << 4 | op`).
pub const OP_M: u32 = 0;
/// Insertion.
pub const OP_I: u32 = 1;
/// Deletion.
pub const OP_D: u32 = 2;
/// Soft clip (bwa mem's code 3, written `S`).
pub const OP_S: u32 = 3;
/// Hard clip (code 4, `H`).
pub const OP_H: u32 = 4;

/// What `bwa_gen_cigar2` returns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenCigar {
    /// The global alignment's score.
    pub score: i32,
    /// The CIGAR, packed (empty where not asked for).
    pub cigar: Vec<u32>,
    /// Mismatches and gap bases.
    pub nm: i32,
    /// The MD tag's value.
    pub md: String,
}

/// `bwa_gen_cigar2(mat, o_del, e_del, o_ins, e_ins, w_, l_pac, pac, query, rb, re)`:
/// `None` where bwa returns without a score (empty query, empty or strand-crossing
/// reference stretch); CIGAR, NM and MD only with `with_cigar`.
pub fn gen_cigar(
    opt: &AlignOptions,
    w_: i32,
    pac: &Pac,
    query: &[u8],
    rb: i64,
    re: i64,
    with_cigar: bool,
) -> Option<GenCigar> {
    let l_pac = pac.l_pac();
    let l_query = query.len() as i32;
    if l_query <= 0 || rb >= re || (rb < l_pac && re > l_pac) {
        return None;
    }
    let mut rseq = pac.get_seq(rb, re);
    if re - rb != rseq.len() as i64 {
        return None;
    }
    let mut query = query.to_vec();
    if rb >= l_pac {
        query.reverse();
        rseq.reverse();
    }
    let rlen = rseq.len() as i32;
    let mat = opt.matrix();
    let mut out = GenCigar::default();
    if l_query == rlen && w_ == 0 {
        out.cigar = vec![(l_query as u32) << 4];
        out.score = (0..query.len())
            .map(|i| i32::from(mat.score(rseq[i], query[i])))
            .sum();
    } else {
        let m0 = i32::from(mat.cells()[0]);
        let half = (l_query + 1) >> 1;
        let max_ins = (f64::from(half * m0 - opt.o_ins) / f64::from(opt.e_ins) + 1.0) as i32;
        let max_del = (f64::from(half * m0 - opt.o_del) / f64::from(opt.e_del) + 1.0) as i32;
        let max_gap = max_ins.max(max_del).max(1);
        let mut w = (max_gap + (rlen - l_query).abs() + 1) >> 1;
        w = w.min(w_);
        w = w.max((rlen - l_query).abs() + 3);
        let sc = opt.scoring(w, 0);
        if with_cigar {
            let g = global(&query, &rseq, &mat, &sc);
            out.score = g.score;
            out.cigar = g.cigar.packed();
        } else {
            out.score = crate::align::global_score(&query, &rseq, &mat, &sc);
        }
    }
    if with_cigar {
        (out.nm, out.md) = nm_md(&out.cigar, &query, &rseq, rb < l_pac);
    }
    Some(out)
}

/// NM and MD of `cigar` aligning `query` to `rseq` (both in the forward strand's
/// orientation); bases written as the forward strand's where `forward`, else
/// complemented.
fn nm_md(cigar: &[u32], query: &[u8], rseq: &[u8], forward: bool) -> (i32, String) {
    let int2base: &[u8; 5] = if forward { b"ACGTN" } else { b"TGCAN" };
    let mut md = String::new();
    let (mut x, mut y, mut u, mut n_mm, mut n_gap) = (0usize, 0usize, 0, 0, 0);
    let n = cigar.len();
    for (k, &c) in cigar.iter().enumerate() {
        let (op, len) = (c & 0xf, (c >> 4) as usize);
        if op == OP_M {
            for i in 0..len {
                if query[x + i] != rseq[y + i] {
                    md.push_str(itoa::Buffer::new().format(u));
                    md.push(char::from(int2base[usize::from(rseq[y + i])]));
                    n_mm += 1;
                    u = 0;
                } else {
                    u += 1;
                }
            }
            x += len;
            y += len;
        } else if op == OP_D {
            if k > 0 && k < n - 1 {
                md.push_str(itoa::Buffer::new().format(u));
                md.push('^');
                for i in 0..len {
                    md.push(char::from(int2base[usize::from(rseq[y + i])]));
                }
                u = 0;
                n_gap += len as i32;
            }
            y += len;
        } else if op == OP_I {
            x += len;
            n_gap += len as i32;
        }
    }
    md.push_str(itoa::Buffer::new().format(u));
    (n_mm + n_gap, md)
}
