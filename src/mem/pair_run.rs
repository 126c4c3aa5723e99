//! `galign mem`'s paired-end reads, batched and processed as bwa mem 0.7.17 batches and
//! processes them: reads taken as `bseq_read` takes them (a pair at a time from two
//! inputs, or a read at a time from one interleaved input, until the batch holds at
//! least `-K` bases, 10,000,000 times the thread count by default, and an even number
//! of reads), an interleaved batch split into pairs and single reads as
//! `bseq_classify` splits it, every read's regions found (`mem_align1_core`), the
//! batch's insert size distribution estimated from them (`mem_pestat`) unless `-I`
//! gives it, then each pair finished (`mem_sam_pe`), in parallel, and written in input
//! order. The insert size distribution depends on the batch, so on `-K` (bwa's rule,
//! kept), never on the threads that align a batch.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::aligner::{align_read, align_regions, bwa_name, MemIndex, MemRead};
use super::pestat::{pestat, PeStats};
use super::region::AlnReg;
use super::sam::SamRead;
use super::sam_pe::{sam_pe, Target};
use super::settings::AlignOptions;
use super::ChainFinder;
use crate::io::{shown_name, BatchReader, ReadBatch, ReadSource, ReadsError};

/// Reads taken from an input at a time.
const FILL: usize = 4096;
/// Pairs per task.
const CHUNK: usize = 16;

/// One read as bwa keeps it (`bseq1_t`).
#[derive(Clone, Debug, Default)]
pub struct Read {
    /// Its name, a trailing `/` and digit cut.
    pub name: Vec<u8>,
    /// Its bases as written.
    pub seq: Vec<u8>,
    /// Its qualities (`None`: FASTA or an empty read).
    pub qual: Option<Vec<u8>>,
}

/// The reads of one input, one at a time.
struct ReadQueue {
    path: PathBuf,
    reader: BatchReader,
    batch: ReadBatch,
    queue: VecDeque<Read>,
    done: bool,
}

impl ReadQueue {
    fn open(path: &Path) -> Result<ReadQueue, ReadsError> {
        let source = ReadSource::Single(path.to_path_buf());
        Ok(ReadQueue {
            path: path.to_path_buf(),
            reader: BatchReader::open(&source, rayon::current_num_threads())?,
            batch: ReadBatch::default(),
            queue: VecDeque::new(),
            done: false,
        })
    }

    /// The next read, `None` at the end.
    fn next(&mut self) -> Result<Option<Read>, ReadsError> {
        if self.queue.is_empty() && !self.done {
            self.reader.fill_batch(FILL, &mut self.batch)?;
            self.done = self.batch.is_empty();
            for (i, rec) in self.batch.records().into_iter().enumerate() {
                self.queue.push_back(Read {
                    name: bwa_name(self.batch.header_word(i)).to_vec(),
                    seq: rec.seq.to_vec(),
                    // kseq keeps no qualities for an empty read: bwa writes `*`
                    qual: rec.qual.filter(|q| !q.is_empty()).map(<[u8]>::to_vec),
                });
            }
        }
        Ok(self.queue.pop_front())
    }

    fn shown(&self) -> String {
        shown_name(&self.path)
    }
}

/// Paired reads: two inputs in lockstep, or one interleaved (bwa's `-p`).
pub struct PairInput {
    first: ReadQueue,
    second: Option<ReadQueue>,
    pairs: u64,
}

impl PairInput {
    /// Opens mate 1's and mate 2's inputs, or (`mates` `None`) one interleaved input.
    pub fn open(reads: &Path, mates: Option<&Path>) -> Result<PairInput, ReadsError> {
        if let Some(m) = mates {
            if reads.as_os_str() == "-" && m.as_os_str() == "-" {
                return Err(ReadsError::StdinTwice);
            }
        }
        Ok(PairInput {
            first: ReadQueue::open(reads)?,
            second: mates.map(ReadQueue::open).transpose()?,
            pairs: 0,
        })
    }

    /// `bseq_read`: the next batch, reads (mates 1 and 2 alternating from two inputs)
    /// until they hold `chunk_size` bases and are even in number; empty at the end.
    /// Mates named differently (bwa's names) or inputs of different lengths are errors.
    pub fn next_batch(&mut self, chunk_size: i64) -> Result<Vec<Read>, ReadsError> {
        let mut reads = Vec::new();
        let mut size = 0i64;
        while let Some(r1) = self.first.next()? {
            size += r1.seq.len() as i64;
            let name1 = r1.name.clone();
            reads.push(r1);
            if let Some(second) = &mut self.second {
                let Some(r2) = second.next()? else {
                    return Err(self.mate_count(true));
                };
                self.pairs += 1;
                if r2.name != name1 {
                    return Err(ReadsError::MateNames {
                        path1: self.first.shown(),
                        path2: second.shown(),
                        pair: self.pairs,
                        name1: String::from_utf8_lossy(&name1).into_owned(),
                        name2: String::from_utf8_lossy(&r2.name).into_owned(),
                    });
                }
                size += r2.seq.len() as i64;
                reads.push(r2);
            }
            if size >= chunk_size && reads.len() % 2 == 0 {
                return Ok(reads);
            }
        }
        if let Some(second) = &mut self.second {
            if second.next()?.is_some() {
                return Err(self.mate_count(false));
            }
        }
        Ok(reads)
    }

    /// The error of inputs of different lengths (`first_longer`: mate 1's).
    fn mate_count(&self, first_longer: bool) -> ReadsError {
        let second = self.second.as_ref().expect("two inputs");
        let (longer, shorter) = match first_longer {
            true => (self.first.shown(), second.shown()),
            false => (second.shown(), self.first.shown()),
        };
        ReadsError::MateCount {
            longer,
            shorter,
            pairs: self.pairs,
        }
    }
}

/// What a batch of pairs is aligned with.
#[derive(Clone, Copy)]
pub struct PairSettings<'a> {
    /// bwa mem's options.
    pub opt: &'a AlignOptions,
    /// The read group's ID for the RG tag.
    pub rg_id: Option<&'a [u8]>,
    /// `-I`: the insert size distribution given (estimated per batch when `None`).
    pub insert: Option<&'a PeStats>,
    /// `-p`: pairs are consecutive reads of the same name, other reads single-end
    /// (`bseq_classify`); otherwise every two reads are a pair.
    pub smart: bool,
}

/// `bseq_classify`: the reads of `reads` that are single-end, and the first reads of
/// pairs (two consecutive reads of the same name).
fn classify(reads: &[Read]) -> (Vec<usize>, Vec<usize>) {
    let (mut single, mut pairs) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < reads.len() {
        if i + 1 < reads.len() && reads[i].name == reads[i + 1].name {
            pairs.push(i);
            i += 2;
        } else {
            single.push(i);
            i += 1;
        }
    }
    (single, pairs)
}

/// The SAM lines of one batch (`mem_process_seqs`), whose first read is read number
/// `n_processed` of the run, and bwa's insert size messages.
pub fn align_batch(
    idx: &MemIndex,
    set: PairSettings,
    reads: &[Read],
    n_processed: u64,
) -> (Vec<u8>, Vec<String>) {
    let (single, pairs) = match set.smart {
        true => classify(reads),
        false => (Vec::new(), (0..reads.len() / 2).map(|p| 2 * p).collect()),
    };
    let mut lines: Vec<Vec<u8>> = vec![Vec::new(); reads.len()];
    let se: Vec<(usize, Vec<u8>)> = single
        .par_iter()
        .enumerate()
        .map_init(ChainFinder::default, |finder, (k, &i)| {
            let r = &reads[i];
            let read = MemRead {
                name: &r.name,
                seq: &r.seq,
                qual: r.qual.as_deref(),
            };
            let mut out = Vec::new();
            let id = n_processed + k as u64;
            align_read(finder, idx, set.opt, set.rg_id, id, read, &mut out);
            (i, out)
        })
        .collect();
    for (i, out) in se {
        lines[i] = out;
    }
    let first_pair = (n_processed + single.len() as u64) >> 1;
    let (pe, log) = align_pairs(idx, set, reads, &pairs, first_pair);
    for (&i, out) in pairs.iter().zip(pe) {
        lines[i] = out;
    }
    (lines.concat(), log)
}

/// The regions and base codes of each mate of `pairs` (`worker1`).
fn find_regions(
    idx: &MemIndex,
    opt: &AlignOptions,
    reads: &[Read],
    pairs: &[usize],
) -> Vec<[(Vec<AlnReg>, Vec<u8>); 2]> {
    pairs
        .par_iter()
        .with_min_len(CHUNK)
        .map_init(ChainFinder::default, |finder, &i| {
            [0, 1].map(|m| {
                let regs = align_regions(finder, idx, opt, &reads[i + m].seq);
                (regs, finder.codes.clone())
            })
        })
        .collect()
}

/// Each pair's SAM lines (`worker1`, `mem_pestat`, `worker2`), the first pair being
/// pair number `first_pair` of the run.
fn align_pairs(
    idx: &MemIndex,
    set: PairSettings,
    reads: &[Read],
    pairs: &[usize],
    first_pair: u64,
) -> (Vec<Vec<u8>>, Vec<String>) {
    let found = find_regions(idx, set.opt, reads, pairs);
    let mut log = Vec::new();
    let pes = match set.insert {
        Some(pes) => *pes,
        None => {
            let regs: Vec<Vec<AlnReg>> = found
                .iter()
                .flat_map(|p| [p[0].0.clone(), p[1].0.clone()])
                .collect();
            pestat(set.opt, idx.pac.l_pac(), &regs, &mut log)
        }
    };
    let target = Target {
        contigs: &idx.index.contigs,
        pac: &idx.pac,
    };
    let out = found
        .into_par_iter()
        .with_min_len(CHUNK)
        .zip(pairs.par_iter())
        .enumerate()
        .map(|(p, ([(a0, c0), (a1, c1)], &i))| {
            let sam = |m: usize, seq| SamRead {
                name: &reads[i + m].name,
                seq,
                qual: reads[i + m].qual.as_deref(),
                rg_id: set.rg_id,
            };
            let (s0, s1) = (sam(0, &c0[..]), sam(1, &c1[..]));
            let mut out = Vec::new();
            let id = first_pair + p as u64;
            sam_pe(set.opt, target, &pes, id, [&s0, &s1], [a0, a1], &mut out);
            out
        })
        .collect();
    (out, log)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bseq_classify`: consecutive reads of one name pair, others stay single.
    #[test]
    fn classify_as_bwa() {
        let read = |n: &str| Read {
            name: n.as_bytes().to_vec(),
            ..Read::default()
        };
        let reads: Vec<Read> = ["a", "a", "b", "c", "c", "c", "d"].map(read).into();
        assert_eq!(classify(&reads), (vec![2, 5, 6], vec![0, 3]));
    }
}
