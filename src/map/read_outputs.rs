//! bowtie2's `--un`/`--al` (single reads that map to nothing, or to something) and
//! `--un-conc`/`--al-conc` (pairs that are not, or are, a proper pair: bowtie2's
//! concordant), the reads written back in input order as FASTQ (FASTA for FASTA input):
//! the name as in the SAM output (the first word, `/1` or `/2` removed), bases and
//! qualities as read. A name ending in `.gz` is gzip-compressed (BGZF,
//! as `bgzip` writes, at `-l`'s level). A pair's mates go to two files: `%` in the name
//! replaced by 1 and 2, else `.1`/`.2` put before the extension (before `.fq` of
//! `x.fq.gz`: `x.1.fq.gz`). Every file is written under a temporary name and renamed by
//! the caller when the run completes ([`AtomicFile`]).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::atomic_file::AtomicFile;
use crate::io::ReadRecord;
use crate::sam::BgzfWriter;

/// The paths of the read outputs asked for (`None`: not written).
#[derive(Clone, Debug, Default)]
pub struct ReadOutputPaths {
    /// `--un`: single reads with no hit.
    pub un: Option<PathBuf>,
    /// `--al`: single reads with a hit.
    pub al: Option<PathBuf>,
    /// `--un-conc`: pairs not properly paired, each mate to its file.
    pub un_conc: Option<PathBuf>,
    /// `--al-conc`: pairs properly paired.
    pub al_conc: Option<PathBuf>,
}

/// Why the read outputs could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReadOutputError {
    /// An output for single reads with pairs, or for pairs with single reads.
    #[error("{flag} writes {wants}, and the reads are {are}: use {instead}")]
    Layout {
        /// The option given.
        flag: &'static str,
        /// What it writes.
        wants: &'static str,
        /// What the reads are.
        are: &'static str,
        /// The option to use instead.
        instead: &'static str,
    },
    /// A file could not be created or written.
    #[error("cannot write {path}")]
    Io {
        /// The file.
        path: String,
        /// The failure.
        source: std::io::Error,
    },
}

/// Outputs, in the order of [`SortedReads`]'s buffers: `--un`, `--al`, `--un-conc`
/// mates 1 and 2, `--al-conc` mates 1 and 2.
const OUTPUTS: usize = 6;

/// One task's reads for each output, as text, in input order.
#[derive(Debug, Default)]
pub struct SortedReads {
    text: [Vec<u8>; OUTPUTS],
}

/// Which outputs a run writes (those of [`SortedReads`]'s buffers).
#[derive(Clone, Copy, Debug, Default)]
pub struct Wanted([bool; OUTPUTS]);

impl Wanted {
    /// Whether any read output is written.
    pub fn any(self) -> bool {
        self.0.contains(&true)
    }
}

impl SortedReads {
    /// Adds a single read: to `--un` when it has no hit, else to `--al`.
    pub fn single(&mut self, wanted: Wanted, read: &ReadRecord, mapped: bool) {
        let slot = usize::from(mapped);
        if wanted.0[slot] {
            push_read(&mut self.text[slot], read);
        }
    }

    /// Adds a pair's mates: to `--al-conc` when proper, else to `--un-conc`.
    pub fn pair(&mut self, wanted: Wanted, pair: &[ReadRecord], proper: bool) {
        let first = if proper { 4 } else { 2 };
        if wanted.0[first] {
            push_read(&mut self.text[first], &pair[0]);
            push_read(&mut self.text[first + 1], &pair[1]);
        }
    }
}

/// Appends `read` as FASTQ (FASTA without qualities), under its SAM name (the first
/// word, `/1` or `/2` removed).
fn push_read(out: &mut Vec<u8>, read: &ReadRecord) {
    let lead = if read.qual.is_some() { b'@' } else { b'>' };
    out.push(lead);
    out.extend_from_slice(read.name);
    out.push(b'\n');
    out.extend_from_slice(read.seq);
    out.push(b'\n');
    if let Some(qual) = read.qual {
        out.extend_from_slice(b"+\n");
        out.extend_from_slice(qual);
        out.push(b'\n');
    }
}

/// Where one output's text goes.
enum Sink {
    /// Plain text.
    Plain(BufWriter<std::fs::File>),
    /// BGZF-compressed (a `.gz` name).
    Gzip(BgzfWriter<BufWriter<std::fs::File>>),
}

/// One open output.
struct Output {
    file: AtomicFile,
    sink: Sink,
}

/// The open read outputs of a run.
#[derive(Default)]
pub struct ReadOutputs {
    outputs: [Option<Output>; OUTPUTS],
}

impl ReadOutputs {
    /// Opens the outputs `paths` asks for, for `paired` reads or not (an output of the
    /// other layout is an error); `.gz` ones compress on `threads` at `level`.
    pub fn open(
        paths: &ReadOutputPaths,
        paired: bool,
        (threads, level): (usize, u8),
    ) -> Result<ReadOutputs, ReadOutputError> {
        check_layout(paths, paired)?;
        let mut outputs = ReadOutputs::default();
        for (slot, path) in output_paths(paths).into_iter().enumerate() {
            if let Some(path) = path {
                outputs.outputs[slot] = Some(open_output(&path, (threads, level))?);
            }
        }
        Ok(outputs)
    }

    /// The outputs open.
    pub fn wanted(&self) -> Wanted {
        Wanted(std::array::from_fn(|i| self.outputs[i].is_some()))
    }

    /// Writes the reads of a batch's tasks, in order.
    pub fn write(&mut self, parts: Vec<SortedReads>) -> Result<(), ReadOutputError> {
        for part in parts {
            for (output, text) in self.outputs.iter_mut().zip(part.text) {
                if let Some(output) = output {
                    output.write(text)?;
                }
            }
        }
        Ok(())
    }

    /// Flushes and closes every output; the files are handed back under their temporary
    /// names, for the caller to commit (dropping them removes them).
    pub fn close(self) -> Result<Vec<AtomicFile>, ReadOutputError> {
        let mut files = Vec::new();
        for output in self.outputs.into_iter().flatten() {
            files.push(output.close()?);
        }
        Ok(files)
    }
}

impl Output {
    /// Writes `text`.
    fn write(&mut self, text: Vec<u8>) -> Result<(), ReadOutputError> {
        let written = match &mut self.sink {
            Sink::Plain(out) => out.write_all(&text),
            Sink::Gzip(out) => out.write_bytes(text),
        };
        written.map_err(|source| cannot_write(self.file.path(), source))
    }

    /// Flushes and closes the output, its file under its temporary name.
    fn close(self) -> Result<AtomicFile, ReadOutputError> {
        let closed = match self.sink {
            Sink::Plain(mut out) => out.flush(),
            Sink::Gzip(out) => out.finish().and_then(|mut out| out.flush()),
        };
        closed.map_err(|source| cannot_write(self.file.path(), source))?;
        Ok(self.file)
    }
}

/// The error of writing `path`.
fn cannot_write(path: &Path, source: std::io::Error) -> ReadOutputError {
    let path = path.display().to_string();
    ReadOutputError::Io { path, source }
}

/// Opens the output `path`, BGZF-compressed on `threads` at `level` for a `.gz` name.
fn open_output(path: &Path, (threads, level): (usize, u8)) -> Result<Output, ReadOutputError> {
    let (file, out) = AtomicFile::open(path).map_err(|e| cannot_write(path, e))?;
    let out = BufWriter::with_capacity(1 << 20, out);
    let gzip = path.extension().is_some_and(|e| e == "gz");
    let sink = match gzip {
        true => {
            Sink::Gzip(BgzfWriter::new(out, threads, level).map_err(|e| cannot_write(path, e))?)
        }
        false => Sink::Plain(out),
    };
    Ok(Output { file, sink })
}

/// Refuses an output for single reads with pairs, or for pairs with single reads.
fn check_layout(paths: &ReadOutputPaths, paired: bool) -> Result<(), ReadOutputError> {
    let wrong = match paired {
        true => [
            ("--un", &paths.un, "--un-conc"),
            ("--al", &paths.al, "--al-conc"),
        ],
        false => [
            ("--un-conc", &paths.un_conc, "--un"),
            ("--al-conc", &paths.al_conc, "--al"),
        ],
    };
    match wrong.into_iter().find(|(_, path, _)| path.is_some()) {
        Some((flag, _, instead)) => Err(ReadOutputError::Layout {
            flag,
            wants: if paired { "single reads" } else { "pairs" },
            are: if paired { "pairs" } else { "single reads" },
            instead,
        }),
        None => Ok(()),
    }
}

/// The file of each output that `paths` asks for, in [`SortedReads`]'s order.
pub fn output_paths(paths: &ReadOutputPaths) -> [Option<PathBuf>; OUTPUTS] {
    let [un1, un2] = paths
        .un_conc
        .as_deref()
        .map(mate_paths)
        .map_or([None, None], |p| p.map(Some));
    let [al1, al2] = paths
        .al_conc
        .as_deref()
        .map(mate_paths)
        .map_or([None, None], |p| p.map(Some));
    [paths.un.clone(), paths.al.clone(), un1, un2, al1, al2]
}

/// The files of a pair's mates for `path`, as bowtie2 names them: `%` replaced by 1 and
/// 2; else `.1` and `.2` before the extension (`x.fq` -> `x.1.fq`; `x.fq.gz` ->
/// `x.1.fq.gz`), or at the end where there is none.
pub fn mate_paths(path: &Path) -> [PathBuf; 2] {
    let name = path.as_os_str().to_string_lossy();
    if name.contains('%') {
        return [1, 2].map(|m| PathBuf::from(name.replace('%', &m.to_string())));
    }
    let file = path
        .file_name()
        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
    let stem_end = match file.strip_suffix(".gz") {
        Some(inner) => inner.rfind('.').unwrap_or(inner.len()),
        None => file.rfind('.').unwrap_or(file.len()),
    };
    let stem_end = if stem_end == 0 { file.len() } else { stem_end };
    [1, 2].map(|m| path.with_file_name(format!("{}.{m}{}", &file[..stem_end], &file[stem_end..])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_are_named_as_bowtie2_names_them() {
        let names = |p: &str| mate_paths(Path::new(p)).map(|p| p.display().to_string());
        assert_eq!(names("d/un.fq"), ["d/un.1.fq", "d/un.2.fq"]);
        assert_eq!(names("d/un.fq.gz"), ["d/un.1.fq.gz", "d/un.2.fq.gz"]);
        assert_eq!(names("d/un_%.fastq"), ["d/un_1.fastq", "d/un_2.fastq"]);
        assert_eq!(names("un"), ["un.1", "un.2"]);
        assert_eq!(names(".un"), [".un.1", ".un.2"]);
    }

    #[test]
    fn reads_go_to_the_outputs_asked_for_with_their_qualities() {
        let wanted = Wanted([true, false, true, true, false, false]);
        let mut sorted = SortedReads::default();
        let read = ReadRecord {
            name: b"r",
            seq: b"ACGT",
            qual: Some(b"IIII"),
        };
        sorted.single(wanted, &read, false);
        sorted.single(wanted, &read, true); // --al not asked for
        let fasta = ReadRecord { qual: None, ..read };
        sorted.pair(wanted, &[read, fasta], false);
        sorted.pair(wanted, &[read, read], true); // --al-conc not asked for
        assert_eq!(sorted.text[0], b"@r\nACGT\n+\nIIII\n");
        assert!(sorted.text[1].is_empty() && sorted.text[4].is_empty());
        assert_eq!(sorted.text[2], b"@r\nACGT\n+\nIIII\n");
        assert_eq!(sorted.text[3], b">r\nACGT\n");
    }

    #[test]
    fn outputs_of_the_other_layout_are_refused() {
        let paths = ReadOutputPaths {
            un: Some("u.fq".into()),
            ..Default::default()
        };
        let e = check_layout(&paths, true).unwrap_err().to_string();
        assert_eq!(
            e,
            "--un writes single reads, and the reads are pairs: use --un-conc"
        );
        let paths = ReadOutputPaths {
            al_conc: Some("a.fq".into()),
            ..Default::default()
        };
        assert!(check_layout(&paths, false)
            .unwrap_err()
            .to_string()
            .contains("use --al"));
    }
}
