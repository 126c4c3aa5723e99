//! The two texts of a read's chains: bwa mem's own debug lines (`mem_print_chain` under
//! `-v 4`, with the `=====> Processing read` line before them), and galign's TSV
//! (docs/SEEDS.md).

use super::chain::{depos, weight, Chain};
use crate::fmd::BwaIndex;

/// A seed's contig, strand and 1-based leftmost forward position (as `mem_print_chain`
/// computes them: the contig is the chain's).
fn place<'a>(index: &'a BwaIndex, c: &Chain, rbeg: i64, len: i32) -> (&'a [u8], bool, i64) {
    let (mut pos, reverse) = depos(index.contigs.l_pac as i64, rbeg);
    if reverse {
        pos -= i64::from(len) - 1;
    }
    let contig = &index.contigs.contigs[c.rid];
    (&contig.name, reverse, pos - contig.offset as i64 + 1)
}

/// Appends what `bwa mem -v 4` prints to stdout for a read's chains: `=====> Processing
/// read 'NAME' <=====`, then per chain `* Found CHAIN(I): n=N; weight=W` and per seed
/// `\tSCORE;LEN;QBEG,RBEG(CONTIG:STRANDPOS)`.
pub fn bwa_debug(out: &mut Vec<u8>, index: &BwaIndex, name: &[u8], chains: &[Chain]) {
    out.extend_from_slice(b"=====> Processing read '");
    out.extend_from_slice(name);
    out.extend_from_slice(b"' <=====\n");
    for (i, c) in chains.iter().enumerate() {
        let head = format!(
            "* Found CHAIN({i}): n={}; weight={}",
            c.seeds.len(),
            weight(c)
        );
        out.extend_from_slice(head.as_bytes());
        for s in &c.seeds {
            let (contig, reverse, pos) = place(index, c, s.rbeg, s.len);
            let seed = format!("\t{};{};{},{}(", s.score, s.len, s.qbeg, s.rbeg);
            out.extend_from_slice(seed.as_bytes());
            out.extend_from_slice(contig);
            let strand = if reverse { ":-" } else { ":+" };
            out.extend_from_slice(format!("{strand}{pos})").as_bytes());
        }
        out.push(b'\n');
    }
}

/// Appends a read's TSV records: `R`, then per chain `C` and its seeds' `S` lines.
pub fn tsv(out: &mut Vec<u8>, index: &BwaIndex, name: &[u8], len: usize, chains: &[Chain]) {
    let frac_rep = chains.first().map_or(0.0, |c| c.frac_rep);
    out.extend_from_slice(b"R\t");
    out.extend_from_slice(name);
    out.extend_from_slice(format!("\t{len}\t{}\t{frac_rep:.3}\n", chains.len()).as_bytes());
    for (i, c) in chains.iter().enumerate() {
        let contig = &index.contigs.contigs[c.rid].name;
        out.extend_from_slice(format!("C\t{i}\t{}\t{}\t", c.seeds.len(), c.w).as_bytes());
        out.extend_from_slice(contig);
        let line = format!("\t{}\t{}\t{}\n", c.kept, c.first, u8::from(c.is_alt));
        out.extend_from_slice(line.as_bytes());
        for s in &c.seeds {
            let (_, reverse, pos) = place(index, c, s.rbeg, s.len);
            let strand = if reverse { '-' } else { '+' };
            let (qbeg, len, rbeg, score) = (s.qbeg, s.len, s.rbeg, s.score);
            let line = format!("S\t{qbeg}\t{len}\t{strand}\t{pos}\t{rbeg}\t{score}\n");
            out.extend_from_slice(line.as_bytes());
        }
    }
}
