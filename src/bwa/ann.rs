//! bwa's `.ann` (each contig's name, comment, offset, length and number of holes) and
//! `.amb` (the holes), byte for byte as `bns_dump` writes them.

use super::pac::SEED;
use super::records::{Header, Hole};
use crate::reference::Layout;

/// The `.ann` file of the contigs of `layout`, whose headers (as bwa splits them) are
/// `headers`, with `holes`; `l_pac` is the text's length.
pub fn ann_bytes(l_pac: u64, layout: &Layout, headers: &[Header], holes: &[Hole]) -> Vec<u8> {
    let contigs = &layout.contigs;
    let mut out = format!("{l_pac} {} {SEED}\n", contigs.len()).into_bytes();
    let mut holes = holes.iter().peekable();
    for (contig, header) in contigs.iter().zip(headers) {
        let end = contig.offset + contig.len;
        let mut n_ambs = 0;
        while holes.next_if(|h| h.offset < end).is_some() {
            n_ambs += 1;
        }
        out.extend_from_slice(b"0 ");
        out.extend_from_slice(&header.name);
        out.push(b' ');
        match header.comment.is_empty() {
            true => out.extend_from_slice(b"(null)"),
            false => out.extend_from_slice(&header.comment),
        }
        out.extend_from_slice(format!("\n{} {} {n_ambs}\n", contig.offset, contig.len).as_bytes());
    }
    out
}

/// The `.amb` file of `holes` in a text of `l_pac` bases and `n_seqs` contigs.
pub fn amb_bytes(l_pac: u64, n_seqs: usize, holes: &[Hole]) -> Vec<u8> {
    let mut out = format!("{l_pac} {n_seqs} {}\n", holes.len()).into_bytes();
    for hole in holes {
        out.extend_from_slice(format!("{} {} ", hole.offset, hole.len).as_bytes());
        out.push(hole.byte);
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::Contig;

    #[test]
    fn ann_and_amb_are_bwas() {
        let contig = |name: &str, offset, len| Contig {
            name: name.into(),
            description: String::new(),
            offset,
            len,
        };
        let layout = Layout {
            contigs: vec![contig("a", 0, 10), contig("b", 10, 5)],
            ambiguous: Vec::new(),
        };
        let headers = [
            Header {
                name: b"a".to_vec(),
                comment: Vec::new(),
            },
            Header {
                name: b"b".to_vec(),
                comment: b"x  y".to_vec(),
            },
        ];
        let holes = [
            Hole {
                offset: 0,
                len: 2,
                byte: b'N',
            },
            Hole {
                offset: 12,
                len: 1,
                byte: b'r',
            },
        ];
        assert_eq!(
            String::from_utf8(ann_bytes(15, &layout, &headers, &holes)).unwrap(),
            "15 2 11\n0 a (null)\n0 10 1\n0 b x  y\n10 5 1\n"
        );
        assert_eq!(
            String::from_utf8(amb_bytes(15, 2, &holes)).unwrap(),
            "15 2 2\n0 2 N\n12 1 r\n"
        );
    }
}
