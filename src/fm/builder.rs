//! Streaming construction of the FM index: the suffix array arrives in row order, in
//! runs of any length (a partitioned build hands over one part's rows at a time), and
//! each structure is built from each run in parallel, with the counts it needs carried
//! from run to run. Only the rows of an unfinished span are held back; the whole
//! suffix array is never needed at once. The result does not depend on how the rows
//! were split into runs.

use rayon::prelude::*;

use super::jump::{self, JumpBuilder};
use super::occ::{symbol_counts, BlocksBuilder, ROWS_PER_BLOCK};
use super::sampled_sa::{self, SampleBuilder, ROWS_PER_RANK, SAMPLED};
use super::FmParts;
use crate::par::prefetch;
use crate::reference::PackedText;
use crate::sa::{SaIndex, SortedSuffixes};

/// Rows built together: a whole number of Occ blocks and of rank blocks.
const SPAN: usize = 3 * ROWS_PER_RANK; // = 8 * ROWS_PER_BLOCK
const _: () = assert!(SPAN.is_multiple_of(ROWS_PER_BLOCK) && SPAN.is_multiple_of(ROWS_PER_RANK));
/// Rows held back before they are built (keeps the parallel work per call large).
const BATCH: usize = 64 * SPAN;
/// Rows of the suffix array turned into [`Rows`] at a time.
const POSITIONS_AT_ONCE: usize = 16 * BATCH;
/// How many rows ahead the random text reads are prefetched.
const PREFETCH_ROWS: usize = 16;

/// The bits of a row's flags that hold its BWT symbol.
pub const SYMBOL: u8 = 0b11;

/// What the FM index needs from a run of consecutive suffix-array rows, without their
/// text positions: each row's BWT symbol and whether it is sampled, the sampled
/// positions (of type `I`), the sentinel's row. Runs concatenate ([`Rows::append`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows<I> {
    /// Per row: the BWT symbol ([`SYMBOL`] bits; `A` at the sentinel's row) and
    /// [`SAMPLED`] when its text position is a multiple of the sampling rate.
    pub flags: Vec<u8>,
    /// The text positions of the sampled rows, in row order.
    pub sampled: Vec<I>,
    /// The index in `flags` of the row whose position is 0 (its BWT symbol is the
    /// sentinel), when it is in this run.
    pub primary: Option<usize>,
}

impl<I: SaIndex> Rows<I> {
    /// The rows whose text positions in `text` are `positions`, sampling positions that
    /// are multiples of `sample_rate`.
    pub fn of(text: &PackedText, sample_rate: u32, positions: &[I]) -> Rows<I> {
        Self::read_off(text, sample_rate, positions, None).0
    }

    /// [`Rows::of`], and the k-mers (of `k` bases, at most 31) at the start of the same
    /// rows as runs `(k-mer code, rows)` in row order, suffixes shorter than `k` left
    /// out: the jump table's counts. One random text read a row serves both.
    pub fn with_kmer_runs(
        text: &PackedText,
        sample_rate: u32,
        positions: &[I],
        k: u32,
    ) -> (Rows<I>, Vec<(u32, I)>) {
        Self::read_off(text, sample_rate, positions, Some(k))
    }

    /// The rows of `positions`, and their k-mer runs where `k` is given: each row's 32
    /// bases from the one before its suffix (`PackedText::key64`) give its BWT symbol (the
    /// first) and its k-mer (the next `k`).
    fn read_off(
        text: &PackedText,
        sample_rate: u32,
        positions: &[I],
        k: Option<u32>,
    ) -> (Rows<I>, Vec<(u32, I)>) {
        const CHUNK: usize = 1 << 14;
        // Suffixes of at least k bases have a k-mer (none without k).
        let full = k.map_or(0, |k| (text.len() + 1).saturating_sub(k as usize));
        let drop = 64 - 2 * k.unwrap_or(1);
        let mut flags = vec![0u8; positions.len()];
        // Per chunk of rows: its sampled positions, its primary row if there, its runs.
        let chunks: Vec<ChunkRows<I>> = flags
            .par_chunks_mut(CHUNK)
            .zip(positions.par_chunks(CHUNK))
            .enumerate()
            .map(|(c, (flags, rows))| {
                let mut runs = Vec::new();
                for (i, (flag, &position)) in flags.iter_mut().zip(rows).enumerate() {
                    if let Some(&ahead) = rows.get(i + PREFETCH_ROWS) {
                        prefetch(text.words(), ahead.to_usize().saturating_sub(1) / 32);
                    }
                    let p = position.to_usize();
                    let window = text.key64(p.saturating_sub(1));
                    *flag = if p == 0 { 0 } else { (window >> 62) as u8 };
                    if p < full {
                        let from_p = if p == 0 { window } else { window << 2 };
                        add_to_runs(&mut runs, (from_p >> drop) as u32, I::from(1));
                    }
                }
                (sample_chunk(flags, rows, c * CHUNK, sample_rate), runs)
            })
            .collect();
        let mut runs = Vec::new();
        let mut samples = Vec::with_capacity(chunks.len());
        for (chunk_samples, chunk_runs) in chunks {
            samples.push(chunk_samples);
            for (code, count) in chunk_runs {
                add_to_runs(&mut runs, code, count);
            }
        }
        (Self::with_samples(flags, samples), runs)
    }

    /// The rows of the suffix array `positions` whose preceding bases are `preceding`
    /// (0 where the position is 0), sampling positions that are multiples of
    /// `sample_rate`: [`Rows::of`] without its random text read a row.
    fn from_preceding(preceding: Vec<u8>, positions: &[I], sample_rate: u32) -> Rows<I> {
        const CHUNK: usize = 1 << 16;
        let mut flags = preceding;
        let samples: Vec<ChunkSamples<I>> = flags
            .par_chunks_mut(CHUNK)
            .zip(positions.par_chunks(CHUNK))
            .enumerate()
            .map(|(c, (flags, rows))| sample_chunk(flags, rows, c * CHUNK, sample_rate))
            .collect();
        Self::with_samples(flags, samples)
    }

    /// The rows of `flags` from the [`sample_chunk`] results of their chunks, in order.
    fn with_samples(flags: Vec<u8>, samples: Vec<ChunkSamples<I>>) -> Rows<I> {
        let primary = samples.iter().find_map(|&(_, primary)| primary);
        let sampled = samples
            .into_iter()
            .flat_map(|(sampled, _)| sampled)
            .collect();
        Rows {
            flags,
            sampled,
            primary,
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.flags.len()
    }

    /// Whether there is no row.
    pub fn is_empty(&self) -> bool {
        self.flags.is_empty()
    }

    /// Appends the rows of `next`, the run that follows.
    pub fn append(&mut self, next: &Rows<I>) {
        if let Some(p) = next.primary {
            self.primary = Some(self.len() + p);
        }
        self.flags.extend_from_slice(&next.flags);
        self.sampled.extend_from_slice(&next.sampled);
    }

    /// The rows in `range`, borrowed.
    fn view(&self, range: std::ops::Range<usize>) -> RowsView<'_, I> {
        let sampled_in = |flags: &[u8]| flags.par_iter().filter(|&&f| f & SAMPLED != 0).count();
        let first = sampled_in(&self.flags[..range.start]);
        let count = sampled_in(&self.flags[range.clone()]);
        RowsView {
            flags: &self.flags[range.clone()],
            sampled: &self.sampled[first..first + count],
            primary: self
                .primary
                .filter(|p| range.contains(p))
                .map(|p| p - range.start),
        }
    }
}

/// What [`Rows::with_kmer_runs`] reads off one chunk of rows besides their flags: its
/// [`ChunkSamples`] and its k-mer runs.
type ChunkRows<I> = (ChunkSamples<I>, Vec<(u32, I)>);

/// A chunk's sampled positions (in row order) and its primary row, if there.
type ChunkSamples<I> = (Vec<I>, Option<usize>);

/// Flags the rows of one chunk (`flags`, positions `rows`, the first of them row
/// `first`) whose positions are multiples of `sample_rate` [`SAMPLED`]; returns their
/// positions and the row of position 0 if it is here.
fn sample_chunk<I: SaIndex>(
    flags: &mut [u8],
    rows: &[I],
    first: usize,
    sample_rate: u32,
) -> ChunkSamples<I> {
    let (mut sampled, mut primary) = (Vec::new(), None);
    for (i, (flag, &position)) in flags.iter_mut().zip(rows).enumerate() {
        let p = position.to_usize();
        if p == 0 {
            primary = Some(first + i);
        }
        if p.is_multiple_of(sample_rate as usize) {
            *flag |= SAMPLED;
            sampled.push(position);
        }
    }
    (sampled, primary)
}

/// Adds `count` rows of k-mer `code` to `runs`, rows in order.
fn add_to_runs<I: SaIndex>(runs: &mut Vec<(u32, I)>, code: u32, count: I) {
    match runs.last_mut() {
        Some((c, total)) if *c == code => *total += count,
        _ => runs.push((code, count)),
    }
}

/// Consecutive rows of a [`Rows`], borrowed.
#[derive(Clone, Copy)]
struct RowsView<'r, I> {
    flags: &'r [u8],
    sampled: &'r [I],
    primary: Option<usize>,
}

impl<I: SaIndex> RowsView<'_, I> {
    fn to_owned(self) -> Rows<I> {
        Rows {
            flags: self.flags.to_vec(),
            sampled: self.sampled.to_vec(),
            primary: self.primary,
        }
    }
}

/// Builds an [`FmParts`] from the suffix array of `text`, pushed in row order, either
/// as text positions ([`FmBuilder::push`]) or as [`Rows`] with their k-mer counts
/// ([`FmBuilder::push_rows`], [`FmBuilder::add_kmer_counts`]). The index's positions
/// and rows are of type `I`, that of the suffix array pushed.
pub struct FmBuilder<'t, I> {
    text: &'t PackedText,
    sample_rate: u32,
    k: u32,
    /// The rows pushed but not built yet, from row `built`.
    pending: Rows<I>,
    /// Rows built.
    built: usize,
    /// The row whose position is 0 (its BWT symbol is the sentinel), once seen.
    primary: Option<usize>,
    occ: BlocksBuilder,
    sampled: SampleBuilder<I>,
    jump: JumpBuilder<I>,
    /// The row interval of [`FmParts::row_samples`] (0: none kept).
    row_interval: u64,
    row_samples: Vec<u64>,
}

/// The positions of the rows among `positions` (the first of them row `first`) that
/// are multiples of `interval`, in row order: [`FmParts::row_samples`]' share of them.
pub fn rows_every<I: SaIndex>(positions: &[I], first: u64, interval: u64) -> Vec<u64> {
    let start = ((interval - first % interval) % interval) as usize;
    if start >= positions.len() {
        return Vec::new();
    }
    positions[start..]
        .par_iter()
        .step_by(interval as usize)
        .map(|p| p.to_usize() as u64)
        .collect()
}

impl<'t, I: SaIndex> FmBuilder<'t, I> {
    /// A builder for the FM index of `text`, sampling positions that are multiples of
    /// `sample_rate`. Row 0, the sentinel's suffix, is in place already.
    pub fn new(text: &'t PackedText, sample_rate: u32) -> FmBuilder<'t, I> {
        let k = jump::choose_k(text.len());
        FmBuilder {
            text,
            sample_rate,
            k,
            pending: Rows::of(text, sample_rate, &[I::from_usize(text.len())]),
            built: 0,
            primary: None,
            occ: BlocksBuilder::with_rows(text.len() + 1),
            sampled: SampleBuilder::with_rows(
                text.len() + 1,
                sampled_sa::sampled_positions(text.len(), sample_rate),
            ),
            jump: JumpBuilder::new(k),
            row_interval: 0,
            row_samples: Vec::new(),
        }
    }

    /// Keeps the text position of every `interval`-th row as well (rows `interval`,
    /// `2 * interval`, ... up to `n`: [`FmParts::row_samples`]); 0 keeps none. Rows
    /// pushed with [`FmBuilder::push`] give theirs here; those pushed as [`Rows`] come
    /// with [`FmBuilder::add_row_samples`].
    pub fn keep_rows_every(&mut self, interval: u64) {
        self.row_interval = interval;
        if interval > 0 {
            self.row_samples = Vec::with_capacity(self.text.len() / interval as usize);
        }
    }

    /// Rows pushed so far, row 0 (the sentinel's) included: the row of the next one.
    pub fn rows_pushed(&self) -> u64 {
        (self.built + self.pending.len()) as u64
    }

    /// Appends the positions of the next rows of [`FmBuilder::keep_rows_every`]'s
    /// interval, in row order (those of rows pushed as [`Rows`]).
    pub fn add_row_samples<J: SaIndex>(&mut self, positions: &[J]) {
        self.row_samples
            .extend(positions.iter().map(|p| p.to_usize() as u64));
    }

    /// k of the jump table.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Adds the next rows of the suffix array: `positions[i]` is the text position of
    /// the next row after those pushed before.
    pub fn push(&mut self, positions: &[I]) {
        let mut rest = positions;
        while !rest.is_empty() {
            // Chunks that end on a span boundary leave no rows held back to copy.
            let take = (POSITIONS_AT_ONCE - self.pending.len() % SPAN).min(rest.len());
            let (now, later) = rest.split_at(take);
            if self.row_interval > 0 {
                let kept = rows_every(now, self.rows_pushed(), self.row_interval);
                self.row_samples.extend_from_slice(&kept);
            }
            let (rows, runs) = Rows::with_kmer_runs(self.text, self.sample_rate, now, self.k);
            self.jump.add_runs(&runs);
            self.push_rows(&rows);
            rest = later;
        }
    }

    /// Adds the next rows of the suffix array as [`Rows`] (made with this builder's
    /// sampling rate); their k-mers are added with [`FmBuilder::add_kmer_counts`]. The
    /// rows are read, not kept: their buffers may be used again.
    pub fn push_rows(&mut self, rows: &Rows<I>) {
        if self.pending.len() + rows.len() < BATCH {
            self.pending.append(rows);
            return;
        }
        // The pending rows completed to a whole span from the front of `rows` and built,
        // then `rows`' whole spans built where they lie (a large run is not copied), and
        // the rest kept.
        let fill = ((SPAN - self.pending.len() % SPAN) % SPAN).min(rows.len());
        self.pending.append(&rows.view(0..fill).to_owned());
        if !self.pending.len().is_multiple_of(SPAN) {
            return;
        }
        let pending = std::mem::take(&mut self.pending);
        self.build(pending.view(0..pending.len()));
        let body_end = fill + (rows.len() - fill) / SPAN * SPAN;
        self.build(rows.view(fill..body_end));
        self.pending = rows.view(body_end..rows.len()).to_owned();
    }

    /// Adds the counts of the k-mers `first..first + counts.len()` at the start of rows
    /// pushed with [`FmBuilder::push_rows`].
    pub fn add_kmer_counts(&mut self, first: usize, counts: &[I]) {
        self.jump.add(first, counts);
    }

    /// Builds the structures for `rows`, the next rows in order.
    fn build(&mut self, rows: RowsView<I>) {
        if let Some(p) = rows.primary {
            self.primary = Some(self.built + p);
        }
        self.occ.push(rows.flags);
        self.sampled.push(rows.flags, rows.sampled);
        self.built += rows.flags.len();
    }

    /// The FM index, once all `n` rows of the suffix array have been pushed.
    ///
    /// # Panics
    /// If the rows pushed are not `n` (a caller's bug).
    pub fn finish(mut self) -> FmParts {
        let pending = std::mem::take(&mut self.pending);
        self.build(pending.view(0..pending.len()));
        let n = self.text.len();
        assert_eq!(self.built, n + 1, "rows pushed: {} of {n}", self.built - 1);
        FmParts {
            n: n as u64,
            primary: self.primary.unwrap_or(0) as u64,
            c: symbol_starts(self.text),
            occ: self.occ.finish(),
            sampled: self.sampled.finish(),
            sample_rate: self.sample_rate,
            k: self.k,
            jump: I::into_positions(self.jump.finish(self.text)),
            row_samples: self.row_samples,
        }
    }
}

impl FmParts {
    /// Derives the FM index of `text` from its suffix array with the rows' preceding
    /// bases and k-mers gathered by the sort ([`crate::sa::sorted_suffixes`], k-mers of
    /// [`jump::choose_k`] bases): the same bytes as [`FmParts::build`]. The suffix array
    /// is dropped once the rows are read off it.
    pub fn from_sorted<I: SaIndex>(
        text: &PackedText,
        sorted: SortedSuffixes<I>,
        sample_rate: u32,
    ) -> FmParts {
        Self::from_sorted_keeping_rows(text, sorted, sample_rate, 0)
    }

    /// [`FmParts::from_sorted`], keeping the positions of every `row_interval`-th row
    /// ([`FmParts::row_samples`]; 0 keeps none).
    pub fn from_sorted_keeping_rows<I: SaIndex>(
        text: &PackedText,
        sorted: SortedSuffixes<I>,
        sample_rate: u32,
        row_interval: u64,
    ) -> FmParts {
        let mut builder = FmBuilder::new(text, sample_rate);
        assert_eq!(
            sorted.kmer_counts.len(),
            jump::kmers(builder.k()),
            "k-mers of another length"
        );
        let SortedSuffixes {
            sa,
            preceding,
            kmer_counts,
            ..
        } = sorted;
        if row_interval > 0 {
            builder.keep_rows_every(row_interval);
            builder.add_row_samples(&rows_every(&sa, 1, row_interval));
        }
        let rows = Rows::from_preceding(preceding, &sa, sample_rate);
        drop(sa);
        builder.push_rows(&rows);
        builder.add_kmer_counts(0, &kmer_counts);
        builder.finish()
    }

    /// Derives the FM index of `text` from its suffix array built in parts of at most
    /// `max_part` suffixes ([`crate::sa::partition`]), each part streamed into the
    /// builder as it is sorted: the same bytes as [`FmParts::build`] (positions of type
    /// `I`).
    pub fn build_in_parts<I: SaIndex>(
        text: &PackedText,
        sample_rate: u32,
        max_part: usize,
    ) -> FmParts {
        Self::build_in_parts_keeping_rows::<I>(text, sample_rate, max_part, 0)
    }

    /// [`FmParts::build_in_parts`], keeping the positions of every `row_interval`-th row
    /// ([`FmParts::row_samples`]; 0 keeps none) as each part streams by.
    pub fn build_in_parts_keeping_rows<I: SaIndex>(
        text: &PackedText,
        sample_rate: u32,
        max_part: usize,
        row_interval: u64,
    ) -> FmParts {
        let mut builder = FmBuilder::new(text, sample_rate);
        builder.keep_rows_every(row_interval);
        crate::sa::partition::suffix_array_in_parts::<I>(text, max_part, |part| {
            builder.push(&part)
        });
        builder.finish()
    }
}

/// `c[s]`: the first row of the suffixes that start with symbol `s`; `c[4] = n + 1`.
pub fn symbol_starts(text: &PackedText) -> [u64; 5] {
    const WORDS: usize = 1 << 14;
    let n = text.len();
    let counts = text.words()[..n.div_ceil(32)]
        .par_chunks(WORDS)
        .enumerate()
        .map(|(chunk, words)| {
            let mut c = [0u64; 4];
            count_bases(words, (n - 32 * chunk * WORDS).min(32 * WORDS), &mut c);
            c
        })
        .reduce(
            || [0u64; 4],
            |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]],
        );
    let mut c = [1u64; 5];
    for s in 0..4 {
        c[s + 1] = c[s] + counts[s];
    }
    c
}

crate::popcnt::with_popcnt! {
    /// Adds the counts of A, C, G and T among the first `bases` bases of `words` to
    /// `counts` (three bit counts a word: T's two bits, then the high and the low bit).
    fn count_bases(words: &[u64], bases: usize, counts: &mut [u64; 4]) => count_bases_inline
}

/// [`count_bases`]' body, compiled into each of its copies.
#[inline(always)]
fn count_bases_inline(words: &[u64], bases: usize, counts: &mut [u64; 4]) {
    for (total, n) in counts.iter_mut().zip(symbol_counts(words, bases)) {
        *total += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fm::occ::Occ;
    use crate::fm::sampled_sa::SampledSaParts;
    use crate::sa::Positions;
    use crate::sa::Width;

    fn text_of(len: usize, seed: u64, alphabet: u64) -> PackedText {
        PackedText::from_codes(&crate::test_support::random_codes(len, seed, alphabet))
    }

    /// Pushes `sa` in runs of the lengths in `runs` (cycled).
    fn built_in_runs(text: &PackedText, sa: &[u32], rate: u32, runs: &[usize]) -> FmParts {
        let mut builder = FmBuilder::new(text, rate);
        let mut rest = sa;
        for &run in runs.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (now, later) = rest.split_at(run.min(rest.len()));
            builder.push(now);
            rest = later;
        }
        builder.finish()
    }

    #[test]
    fn symbol_starts_count_every_base() {
        // Lengths around words and chunks of words; all-A, all-T and random texts.
        for (i, len) in [0usize, 1, 31, 32, 33, 95, 5000, (1 << 19) + 17]
            .into_iter()
            .enumerate()
        {
            for alphabet in [1, 4] {
                let mut codes = crate::test_support::random_codes(len, i as u64, alphabet);
                if alphabet == 1 && i % 2 == 1 {
                    codes.iter_mut().for_each(|c| *c = 3);
                }
                let mut want = [1u64; 5];
                for s in 0..4 {
                    let count = codes.iter().filter(|&&c| c == s as u8).count() as u64;
                    want[s + 1] = want[s] + count;
                }
                let got = symbol_starts(&PackedText::from_codes(&codes));
                assert_eq!(got, want, "{len} bases of {alphabet} symbols");
            }
        }
    }

    #[test]
    fn any_split_into_runs_gives_the_same_index() {
        let texts = [
            text_of(0, 1, 4),
            text_of(1, 1, 4),
            text_of(SPAN - 1, 2, 4),
            text_of(SPAN, 3, 1),
            text_of(3 * BATCH + 777, 4, 4),
            text_of(BATCH + 1, 5, 2),
        ];
        let runs: [&[usize]; 7] = [
            &[1],
            &[7, 1000, 3],
            &[SPAN - 1],
            &[SPAN, SPAN + 1],
            &[BATCH - 1, 5],
            &[BATCH + 5, 1],
            &[2 * BATCH, SPAN / 2, 0, 3 * SPAN],
        ];
        for text in &texts {
            let sa: Vec<u32> = crate::sa::suffix_array(text);
            for rate in [1, 16] {
                let whole = FmParts::build(text, &sa, rate);
                assert_eq!(whole.occ.len() % 8, 0);
                for run in runs {
                    if text.len() > 20_000 && run[0] < SPAN {
                        continue; // tiny runs over big texts: slow, and covered on small ones
                    }
                    assert!(
                        built_in_runs(text, &sa, rate, run) == whole,
                        "text of {} bases, rate {rate}, runs {run:?}",
                        text.len()
                    );
                }
            }
        }
    }

    /// The index from the rows the sort gathered equals the one read off the suffix
    /// array: random texts, one symbol, a short period, a unit repeated with changes
    /// (rows whose preceding bases wait for the later rounds), tiny texts whose k is
    /// shorter than the sort's bucket prefix.
    #[test]
    fn the_rows_gathered_by_the_sort_give_the_same_index() {
        let unit = crate::test_support::random_codes(3_000, 8, 4);
        let mut repeats = crate::test_support::random_codes(20_000, 9, 4);
        for copy in 0..6u8 {
            repeats.extend(&unit);
            repeats.push(copy % 4);
        }
        let mut texts = vec![
            PackedText::from_codes(&repeats),
            text_of(200_000, 10, 4),
            text_of(50_000, 11, 1),
            text_of(50_000, 12, 2),
        ];
        texts.extend([1, 2, 31, 33, 1000].map(|len| text_of(len, len as u64, 4)));
        for text in &texts {
            let sa: Vec<u32> = crate::sa::suffix_array(text);
            for rate in [1, 16] {
                let k = jump::choose_k(text.len());
                let sorted = crate::sa::sorted_suffixes::<u32>(text, k);
                assert!(
                    FmParts::from_sorted(text, sorted, rate) == FmParts::build(text, &sa, rate),
                    "text of {} bases, rate {rate}",
                    text.len()
                );
            }
        }
    }

    #[test]
    fn partitioned_builds_give_the_same_index() {
        let text = text_of(50_000, 11, 4);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let whole = FmParts::build(&text, &sa, 16);
        for max_part in [50_000, 25_001, 3000] {
            assert!(
                FmParts::build_in_parts::<u32>(&text, 16, max_part) == whole,
                "{max_part}"
            );
        }
    }

    /// Widens every position and row of `parts` to 64 bits.
    fn widened(parts: &FmParts) -> FmParts {
        let wide =
            |p: &crate::sa::Positions| crate::sa::Positions::U64(p.as_slice().iter().collect());
        let mut out = parts.clone();
        out.sampled.ranks = wide(&parts.sampled.ranks);
        out.sampled.positions = wide(&parts.sampled.positions);
        out.jump = wide(&parts.jump);
        out
    }

    #[test]
    fn u64_positions_give_the_u32_index_widened() {
        for text in [
            text_of(1, 1, 4),
            text_of(SPAN + 5, 2, 1),
            text_of(BATCH + 77, 3, 4),
        ] {
            let narrow_sa: Vec<u32> = crate::sa::suffix_array(&text);
            let wide_sa: Vec<u64> = crate::sa::suffix_array(&text);
            let narrow = FmParts::build(&text, &narrow_sa, 16);
            let wide = FmParts::build(&text, &wide_sa, 16);
            assert_eq!((narrow.width(), wide.width()), (Width::U32, Width::U64));
            assert!(wide == widened(&narrow), "text of {} bases", text.len());
            assert!(FmParts::build_in_parts::<u64>(&text, 16, 3000) == wide);
        }
    }

    #[test]
    fn rows_with_kmer_counts_give_the_same_index() {
        let text = text_of(3 * BATCH + 99, 21, 4);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let whole = FmParts::build(&text, &sa, 16);
        for run in [SPAN - 7, BATCH + 3, 2 * BATCH] {
            let mut builder = FmBuilder::new(&text, 16);
            for rows in sa.chunks(run) {
                let (rows, runs) = Rows::with_kmer_runs(&text, 16, rows, builder.k());
                builder.push_rows(&rows);
                for (code, count) in runs {
                    builder.add_kmer_counts(code as usize, &[count]);
                }
            }
            assert!(builder.finish() == whole, "runs of {run}");
        }
    }

    #[test]
    fn counts_carry_across_runs() {
        // Occ headers and sample ranks of the last block hold the totals of all rows.
        let text = text_of(2 * BATCH + 12_345, 9, 4);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let parts = built_in_runs(&text, &sa, 16, &[SPAN + 1, BATCH]);
        let last = &parts.occ[parts.occ.len() - 8..];
        let total =
            (last[0] & 0xFFFF_FFFF) + (last[0] >> 32) + (last[1] & 0xFFFF_FFFF) + (last[1] >> 32);
        assert_eq!(total, text.len() as u64 + 1, "every row counted once");
        let sampled = (0..=text.len() as u32).filter(|p| p % 16 == 0).count() as u32;
        let ranks = parts.sampled.ranks.as_slice();
        assert_eq!(ranks.get(ranks.len() - 1), sampled as u64);
        assert_eq!(parts.sampled.positions.as_slice().len(), sampled as usize);
    }

    /// The positions of every `interval`-th row, straight off the suffix array `sa`
    /// (rows `1..=n`).
    fn every_row_of(sa: &[u32], interval: usize) -> Vec<u64> {
        (interval..=sa.len())
            .step_by(interval)
            .map(|row| u64::from(sa[row - 1]))
            .collect()
    }

    /// The positions of every 32nd row (bwa's `.sa`) are those of the suffix array's
    /// rows, whether the rows come in runs of any length, from the sort's gathered rows
    /// or in parts (32- and 64-bit), and the rest of the index is unchanged.
    #[test]
    fn every_rows_position_is_kept_however_the_rows_come() {
        for (len, alphabet) in [
            (0, 4),
            (1, 4),
            (31, 4),
            (32, 4),
            (33, 2),
            (3 * BATCH + 77, 4),
            (5_000, 1),
        ] {
            let text = text_of(len, len as u64 + 3, alphabet);
            let sa: Vec<u32> = crate::sa::suffix_array(&text);
            for interval in [1u64, 32, 1000] {
                let want = every_row_of(&sa, interval as usize);
                let plain = FmParts::build(&text, &sa, 16);
                for runs in [&[1usize, 31, 5][..], &[SPAN + 1, BATCH], &[len.max(1)]] {
                    if len > 20_000 && runs[0] < SPAN {
                        continue;
                    }
                    let mut builder = FmBuilder::new(&text, 16);
                    builder.keep_rows_every(interval);
                    let mut rest = &sa[..];
                    for &run in runs.iter().cycle() {
                        if rest.is_empty() {
                            break;
                        }
                        let (now, later) = rest.split_at(run.min(rest.len()));
                        builder.push(now);
                        rest = later;
                    }
                    let fm = builder.finish();
                    assert_eq!(
                        fm.row_samples, want,
                        "{len} bases, every {interval}, runs {runs:?}"
                    );
                    assert!(
                        FmParts {
                            row_samples: Vec::new(),
                            ..fm
                        } == plain
                    );
                }
                if len == 0 {
                    continue;
                }
                let sorted = crate::sa::sorted_suffixes::<u32>(&text, jump::choose_k(len));
                let fm = FmParts::from_sorted_keeping_rows(&text, sorted, 16, interval);
                assert_eq!(
                    fm.row_samples, want,
                    "{len} bases, every {interval}, sorted"
                );
                for max_part in [len.max(1), 3000, 777] {
                    let fm =
                        FmParts::build_in_parts_keeping_rows::<u32>(&text, 16, max_part, interval);
                    assert_eq!(
                        fm.row_samples, want,
                        "{len} bases, every {interval}, parts of {max_part}"
                    );
                    let fm =
                        FmParts::build_in_parts_keeping_rows::<u64>(&text, 16, max_part, interval);
                    assert_eq!(
                        fm.row_samples, want,
                        "{len} bases, every {interval}, 64-bit parts"
                    );
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "rows pushed")]
    fn finishing_early_is_a_bug() {
        let text = text_of(100, 1, 4);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let mut builder = FmBuilder::new(&text, 16);
        builder.push(&sa[..50]);
        builder.finish();
    }

    #[test]
    fn checks_of_a_loaded_index_name_the_first_inconsistency() {
        let text = text_of(200_000, 21, 4);
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let parts = FmParts::build(&text, &sa, 16);
        let fm = parts.view(&text);
        assert_eq!(fm.occ.check(&fm.c), Ok(()));
        assert_eq!(fm.sampled.check(text.len() as u64), Ok(()));
        let occ_error = |occ: &[u64]| Occ::new(occ, parts.n + 1, parts.primary).check(&parts.c);
        // A wrong header is named; so is the block after one whose symbols changed.
        for block in [0, 1, 500, 1041] {
            let mut occ = parts.occ.clone();
            occ[block * 8 + 1] += 1;
            let named = format!("the counts of BWT block {block} do not add up");
            assert_eq!(occ_error(&occ), Err(named), "header of {block}");
            let mut occ = parts.occ.clone();
            occ[block * 8 + 2] ^= 1;
            let named = format!("the counts of BWT block {} do not add up", block + 1);
            assert_eq!(occ_error(&occ), Err(named), "symbols of {block}");
        }
        let mut c = parts.c;
        c[4] += 1;
        assert!(Occ::new(&parts.occ, parts.n + 1, parts.primary)
            .check(&c)
            .is_err());
        let sampled_error = |sampled: &SampledSaParts| sampled.view(16).check(text.len() as u64);
        let mut wrong = parts.sampled.clone();
        wrong.bits[300] ^= 1 << 7;
        assert!(sampled_error(&wrong)
            .unwrap_err()
            .contains("ranks do not count"));
        let last = parts.sampled.bits.len() - 1;
        let mut wrong = parts.sampled.clone();
        wrong.bits[last] ^= 1 << 63; // past every row: only the total counts it
        assert!(sampled_error(&wrong)
            .unwrap_err()
            .contains("one position per mark"));
        let mut wrong = parts.sampled.clone();
        let Positions::U32(ranks) = &mut wrong.ranks else {
            unreachable!()
        };
        ranks[0] = u32::MAX;
        assert!(sampled_error(&wrong)
            .unwrap_err()
            .contains("ranks do not count"));
    }

    /// The checks run in chunks of 4096 blocks (Occ) and rank blocks (sampled SA), and
    /// the sampled positions in chunks of 65536: an inconsistency in any chunk is found,
    /// and the first is named.
    #[test]
    fn checks_of_a_loaded_index_cover_every_chunk() {
        let text = text_of(2_200_000, 22, 4); // 11,459 Occ blocks, 4,297 rank blocks
        let sa: Vec<u32> = crate::sa::suffix_array(&text);
        let parts = FmParts::build(&text, &sa, 4);
        let occ_error = |occ: &[u64]| Occ::new(occ, parts.n + 1, parts.primary).check(&parts.c);
        assert_eq!(occ_error(&parts.occ), Ok(()));
        for blocks in [
            &[4095][..],
            &[4096],
            &[11_458],
            &[9000, 5000],
            &[4097, 11_000],
        ] {
            let mut occ = parts.occ.clone();
            for &block in blocks {
                occ[block * 8] += 1 << 32; // C's count
            }
            let first = blocks.iter().min().unwrap();
            let named = format!("the counts of BWT block {first} do not add up");
            assert_eq!(occ_error(&occ), Err(named), "headers of {blocks:?}");
        }
        let sampled_error = |sampled: &SampledSaParts| sampled.view(4).check(text.len() as u64);
        assert_eq!(sampled_error(&parts.sampled), Ok(()));
        let mut wrong = parts.sampled.clone();
        wrong.bits[4200 * 8 + 3] ^= 1 << 9;
        assert!(sampled_error(&wrong)
            .unwrap_err()
            .contains("ranks do not count"));
        let mut wrong = parts.sampled.clone();
        let Positions::U32(positions) = &mut wrong.positions else {
            unreachable!()
        };
        assert!(positions.len() > 3 << 16);
        positions[(3 << 16) + 7] = text.len() as u32 + 1;
        assert!(sampled_error(&wrong).unwrap_err().contains("past the text"));
    }
}
