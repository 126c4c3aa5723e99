//! The ordered batch pipeline of the commands that read reads and write records
//! (`fastmap`, `seeds`, `mem`): a reader stage producing batches, one or two work stages
//! (a device stage, a parallel stage; each batch's work spread over rayon's threads
//! within the stage), and the writer on the calling thread, each stage on a thread of
//! its own and joined by bounded channels, so that reading the next batch, working on
//! this one and writing the one before overlap while at most [`DEPTH`] batches wait
//! between two stages. Every stage takes the batches in order, one after another, so
//! the output is written in input order whatever the thread count or batch size.
//!
//! A stage that fails stops the run: the stages before it see their channel closed and
//! stop, those after it see theirs end. The error returned is that of the earliest
//! stage in the pipeline that failed (a write that fails on a closed pipe is the
//! writer's); a panic in a stage is raised again on the calling thread.

use crossbeam_channel::{bounded, Receiver, Sender};

/// Batches that may wait between two stages.
pub const DEPTH: usize = 2;

/// Runs `read` (the next batch, or `None` at the end) -> `work` -> `write` in order,
/// the three overlapping.
pub fn ordered<B: Send, O: Send, E: Send>(
    read: impl FnMut() -> Result<Option<B>, E> + Send,
    work: impl FnMut(B) -> Result<O, E> + Send,
    write: impl FnMut(O) -> Result<(), E>,
) -> Result<(), E> {
    ordered2(read, work, Ok, write)
}

/// Runs `read` -> `first` -> `second` -> `write` in order, the four overlapping (a
/// device stage and the formatting of the batch before, say).
pub fn ordered2<B: Send, M: Send, O: Send, E: Send>(
    mut read: impl FnMut() -> Result<Option<B>, E> + Send,
    first: impl FnMut(B) -> Result<M, E> + Send,
    second: impl FnMut(M) -> Result<O, E> + Send,
    mut write: impl FnMut(O) -> Result<(), E>,
) -> Result<(), E> {
    std::thread::scope(|scope| {
        let (batch_tx, batch_rx) = bounded::<B>(DEPTH);
        let (middle_tx, middle_rx) = bounded::<M>(DEPTH);
        let (out_tx, out_rx) = bounded::<O>(DEPTH);
        let reader = scope.spawn(move || -> Result<(), E> {
            while let Some(batch) = read()? {
                if batch_tx.send(batch).is_err() {
                    break;
                }
            }
            Ok(())
        });
        let first = scope.spawn(move || stage(batch_rx, first, middle_tx));
        let second = scope.spawn(move || stage(middle_rx, second, out_tx));
        let written = out_rx.iter().try_for_each(&mut write);
        drop(out_rx); // a failed write stops the stages before
        let results = [join(reader), join(first), join(second), written];
        results.into_iter().collect()
    })
}

/// `0..len` in ranges of `size` (the last shorter): the tasks a batch is spread over.
pub fn chunks(len: usize, size: usize) -> Vec<std::ops::Range<usize>> {
    (0..len)
        .step_by(size)
        .map(|start| start..(start + size).min(len))
        .collect()
}

/// Writes each piece of a batch's output to `out`, in order.
pub fn write_pieces(out: &mut dyn std::io::Write, pieces: &[Vec<u8>]) -> std::io::Result<()> {
    pieces.iter().try_for_each(|piece| out.write_all(piece))
}

/// A work stage: each batch from `input` through `work` to `output`, in order, until
/// `input` ends, `output` closes or `work` fails.
fn stage<A, B, E>(
    input: Receiver<A>,
    mut work: impl FnMut(A) -> Result<B, E>,
    output: Sender<B>,
) -> Result<(), E> {
    for batch in input {
        if output.send(work(batch)?).is_err() {
            break;
        }
    }
    Ok(())
}

/// The result of a stage's thread, its panic raised again here.
fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers 0..n in batches of `size` through a two-stage pipeline.
    fn numbers(n: u32, size: u32, fail_at: Option<u32>) -> Result<Vec<u32>, String> {
        let mut next = 0;
        let mut out = Vec::new();
        ordered2(
            || {
                if Some(next) == fail_at {
                    return Err(format!("read {next}"));
                }
                let batch: Vec<u32> = (next..(next + size).min(n)).collect();
                next += size;
                Ok((!batch.is_empty()).then_some(batch))
            },
            |batch| Ok(batch.into_iter().map(|x| x * 2).collect::<Vec<_>>()),
            |batch| Ok(batch.into_iter().map(|x| x + 1).collect::<Vec<_>>()),
            |batch| {
                out.extend(batch);
                Ok(())
            },
        )?;
        Ok(out)
    }

    #[test]
    fn batches_come_out_in_order_whatever_their_size() {
        let want: Vec<u32> = (0..1000).map(|x| 2 * x + 1).collect();
        for size in [1, 7, 64, 1000, 5000] {
            assert_eq!(numbers(1000, size, None).unwrap(), want);
        }
    }

    #[test]
    fn a_failed_read_is_the_error() {
        assert_eq!(numbers(1000, 10, Some(500)), Err("read 500".to_string()));
    }

    #[test]
    fn a_failed_write_stops_the_run() {
        let mut batches = 0;
        let result = ordered(
            || {
                batches += 1;
                Ok::<_, String>(Some(batches))
            },
            Ok,
            |b| match b {
                3 => Err("closed".to_string()),
                _ => Ok(()),
            },
        );
        assert_eq!(result, Err("closed".to_string()));
    }

    #[test]
    fn a_failed_stage_comes_before_the_writer() {
        let mut next = 0;
        let result = ordered(
            || {
                next += 1;
                Ok(Some(next))
            },
            |b| {
                if b == 5 {
                    Err(format!("work {b}"))
                } else {
                    Ok(b)
                }
            },
            |_| Ok(()),
        );
        assert_eq!(result, Err("work 5".to_string()));
    }
}
