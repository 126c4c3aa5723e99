//! The parts of a partitioned suffix sort ([`super::partition`]) spread over several
//! sorters at once (the GPUs of one machine), each on a thread of its own, with the
//! sorted parts handed on in plan order, whichever sorter finished them.
//!
//! Sorters pull the next part when they are free, so the work is balanced by what the
//! parts cost (their suffix counts and repeats), not by their number; at most `window`
//! parts are sorted ahead of the one the consumer waits for, which bounds the memory
//! held by finished parts. A sorter that fails (on opening or on a part) either hands
//! its part back to the others ([`OnFailure::HandOver`]) or stops the whole sort
//! ([`OnFailure::Stop`]); the output does not depend on which sorter sorted what.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};

use super::partition::Part;

/// One sorter of parts (one device).
pub trait PartSort {
    /// A sorted part, as the sorter hands it on.
    type Sorted: Send;
    /// Why the sorter failed.
    type Error: Send;
    /// Sorts the suffixes of `part`.
    fn sort(&mut self, part: &Part) -> Result<Self::Sorted, Self::Error>;
}

/// What the failure of one sorter does to the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFailure {
    /// Its part goes back to the others, which finish the sort; the sort fails only
    /// when every sorter has failed.
    HandOver,
    /// The whole sort fails.
    Stop,
}

/// The failure of sorter `sorter` (its index among those opened).
#[derive(Debug, PartialEq, Eq)]
pub struct SorterFailure<E> {
    /// Which sorter failed.
    pub sorter: usize,
    /// Its error.
    pub error: E,
}

/// How a sort went: who sorted each part, the sorters that failed (and were replaced)
/// and the sorters still working at the end, for their reports.
pub struct Schedule<S, E> {
    /// Per part of the plan, the index of the sorter that sorted it.
    pub sorted_by: Vec<usize>,
    /// The failures the other sorters made up for, in the order they happened.
    pub failures: Vec<SorterFailure<E>>,
    /// Per sorter, the sorter itself unless it failed.
    pub sorters: Vec<Option<S>>,
}

/// The state the sorters share.
#[derive(Default)]
struct Queue {
    /// The next part never handed out.
    next: usize,
    /// Parts handed back by failed sorters.
    handed_back: BTreeSet<usize>,
    /// Parts being sorted now.
    in_flight: usize,
    /// Parts the consumer has taken (all those before this one).
    consumed: usize,
    /// Set when the sort is abandoned.
    stop: bool,
}

/// What a sorter thread reports.
enum Report<T, E> {
    Sorted(usize, usize, T),
    Failed(SorterFailure<E>),
}

/// Sorts the parts of `plan` with the `sorters` that `open` makes (called on each
/// sorter's own thread with its index), handing each sorted part to `take` in plan
/// order, on the calling thread. Fails with the first failure under
/// [`OnFailure::Stop`], and under [`OnFailure::HandOver`] with the last once every
/// sorter has failed.
pub fn sort_parts<S: PartSort + Send>(
    plan: &[Part],
    sorters: usize,
    open: impl Fn(usize) -> Result<S, S::Error> + Sync,
    (on_failure, window): (OnFailure, usize),
    mut take: impl FnMut(S::Sorted),
) -> Result<Schedule<S, S::Error>, SorterFailure<S::Error>> {
    let queue = (Mutex::new(Queue::default()), Condvar::new());
    let mut sorted_by = vec![usize::MAX; plan.len()];
    let mut failures = Vec::new();
    let kept = std::thread::scope(|s| {
        let (report, reports) = mpsc::channel();
        let threads: Vec<_> = (0..sorters)
            .map(|id| {
                let (report, queue, open) = (report.clone(), &queue, &open);
                s.spawn(move || run_sorter(id, plan, open, queue, window.max(1), report))
            })
            .collect();
        drop(report);
        let mut finished = BTreeMap::new();
        let mut consumed = 0;
        while consumed < plan.len() {
            let Ok(got) = reports.recv() else { break };
            match got {
                Report::Sorted(part, by, sorted) => {
                    sorted_by[part] = by;
                    finished.insert(part, sorted);
                }
                Report::Failed(failure) => {
                    failures.push(failure);
                    if on_failure == OnFailure::Stop {
                        break;
                    }
                }
            }
            while let Some(sorted) = finished.remove(&consumed) {
                take(sorted);
                consumed += 1;
                queue.0.lock().unwrap().consumed = consumed;
                queue.1.notify_all();
            }
        }
        queue.0.lock().unwrap().stop = true;
        queue.1.notify_all();
        // Failures reported after the last part was taken are still failures.
        failures.extend(reports.into_iter().filter_map(|r| match r {
            Report::Failed(f) => Some(f),
            Report::Sorted(..) => None,
        }));
        let kept: Vec<Option<S>> = threads
            .into_iter()
            .map(|t| t.join().expect("sorter thread"))
            .collect();
        (consumed == plan.len()).then_some(kept)
    });
    match kept {
        Some(sorters) if on_failure == OnFailure::HandOver || failures.is_empty() => Ok(Schedule {
            sorted_by,
            failures,
            sorters,
        }),
        _ => Err(match on_failure {
            OnFailure::Stop => failures.swap_remove(0),
            OnFailure::HandOver => failures.pop().expect("a sort ends early only on failure"),
        }),
    }
}

/// The thread of sorter `id`: opens it, then sorts the parts it is given until none is
/// left or the sort stops; returns the sorter unless it failed.
fn run_sorter<S: PartSort>(
    id: usize,
    plan: &[Part],
    open: impl Fn(usize) -> Result<S, S::Error>,
    (state, wake): &(Mutex<Queue>, Condvar),
    window: usize,
    report: mpsc::Sender<Report<S::Sorted, S::Error>>,
) -> Option<S> {
    let fail = |part: Option<usize>, error| {
        let mut q = state.lock().unwrap();
        if let Some(part) = part {
            q.in_flight -= 1;
            q.handed_back.insert(part);
        }
        drop(q);
        wake.notify_all();
        let _ = report.send(Report::Failed(SorterFailure { sorter: id, error }));
    };
    let mut sorter = match open(id) {
        Ok(sorter) => sorter,
        Err(error) => {
            fail(None, error);
            return None;
        }
    };
    loop {
        let Some(part) = next_part(state, wake, plan.len(), window) else {
            return Some(sorter);
        };
        match sorter.sort(&plan[part]) {
            Ok(sorted) => {
                state.lock().unwrap().in_flight -= 1;
                wake.notify_all();
                let _ = report.send(Report::Sorted(part, id, sorted));
            }
            Err(error) => {
                fail(Some(part), error);
                return None;
            }
        }
    }
}

/// The part a free sorter takes next (a handed-back part first, then the next in plan
/// order within the window), waiting while there is none yet; `None` once every part is
/// sorted or the sort stops.
fn next_part(state: &Mutex<Queue>, wake: &Condvar, parts: usize, window: usize) -> Option<usize> {
    let mut q = state.lock().unwrap();
    loop {
        if q.stop {
            return None;
        }
        if let Some(part) = q.handed_back.pop_first() {
            q.in_flight += 1;
            return Some(part);
        }
        if q.next < parts && q.next < q.consumed + window {
            q.next += 1;
            q.in_flight += 1;
            return Some(q.next - 1);
        }
        if q.next >= parts && q.in_flight == 0 {
            return None;
        }
        q = wake.wait(q).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::PackedText;
    use crate::sa::partition::Partitioner;
    use std::time::Duration;

    /// The CPU stand-in for a device: sorts parts with [`Partitioner::sort`], slowly
    /// for some, and fails on its `fail_at`-th part (0 = on opening).
    struct CpuSorter<'p, 't> {
        partitioner: &'p Partitioner<'t, u32>,
        fail_at: Option<usize>,
        sorted: usize,
        delay: Duration,
    }

    impl PartSort for CpuSorter<'_, '_> {
        type Sorted = Vec<u32>;
        type Error = String;
        fn sort(&mut self, part: &Part) -> Result<Vec<u32>, String> {
            self.sorted += 1;
            if self.fail_at == Some(self.sorted) {
                return Err(format!("failed on part {:?}", part.buckets));
            }
            std::thread::sleep(self.delay);
            Ok(self.partitioner.sort(part))
        }
    }

    struct Setup {
        text: PackedText,
        max_part: usize,
        whole: Vec<u32>,
    }

    fn setup() -> Setup {
        let codes = crate::test_support::random_codes(30_000, 7, 3);
        let text = PackedText::from_codes(&codes);
        let whole = crate::sa::suffix_array(&text);
        Setup {
            text,
            max_part: 1500,
            whole,
        }
    }

    /// Sorts with one stand-in per entry of `fail_at` (delays differ per sorter, so parts
    /// finish out of order); the concatenated output, or the failure.
    fn sort_with(
        setup: &Setup,
        fail_at: &[Option<usize>],
        on_failure: OnFailure,
        window: usize,
    ) -> Result<Sorted, SorterFailure<String>> {
        let partitioner = Partitioner::<u32>::new(&setup.text, setup.max_part);
        let plan = partitioner.plan(setup.max_part);
        assert!(plan.len() >= 16, "{} parts", plan.len());
        let open = |id: usize| {
            if fail_at[id] == Some(0) {
                return Err(format!("sorter {id} cannot open"));
            }
            Ok(CpuSorter {
                partitioner: &partitioner,
                fail_at: fail_at[id],
                sorted: 0,
                delay: Duration::from_millis(5 + 2 * id as u64),
            })
        };
        let mut sa = Vec::new();
        let schedule = sort_parts(&plan, fail_at.len(), open, (on_failure, window), |p| {
            sa.extend(p)
        })?;
        Ok((sa, schedule.sorted_by, schedule.failures))
    }

    /// The suffix array, who sorted each part, the failures made up for.
    type Sorted = (Vec<u32>, Vec<usize>, Vec<SorterFailure<String>>);

    #[test]
    fn any_number_of_sorters_gives_the_suffix_array_in_order() {
        let setup = setup();
        for sorters in 1..=4 {
            for window in [1, 3, 64] {
                let (sa, sorted_by, failures) =
                    sort_with(&setup, &vec![None; sorters], OnFailure::Stop, window).unwrap();
                assert!(sa == setup.whole, "{sorters} sorters, window {window}");
                assert!(failures.is_empty());
                let mut used = sorted_by;
                used.sort_unstable();
                used.dedup();
                assert!(used.iter().all(|&s| s < sorters));
                if sorters > 1 && window > 1 {
                    assert!(used.len() > 1, "{sorters} sorters shared the parts");
                }
            }
        }
    }

    #[test]
    fn a_failed_sorter_hands_its_parts_over() {
        let setup = setup();
        for fail_at in [
            vec![Some(2), None],
            vec![None, Some(1), Some(3)],
            vec![Some(0), None],
            vec![Some(4), Some(0), None],
        ] {
            let (sa, sorted_by, failures) =
                sort_with(&setup, &fail_at, OnFailure::HandOver, 4).unwrap();
            assert!(sa == setup.whole, "{fail_at:?}");
            let failed: Vec<usize> = failures.iter().map(|f| f.sorter).collect();
            let expected: Vec<usize> = (0..fail_at.len())
                .filter(|&s| fail_at[s].is_some())
                .collect();
            let mut failed = failed;
            failed.sort_unstable();
            assert_eq!(failed, expected, "{fail_at:?}");
            for (part, &by) in sorted_by.iter().enumerate() {
                assert!(
                    fail_at[by].is_none() || fail_at[by] > Some(0),
                    "part {part} by a sorter that never opened"
                );
            }
        }
    }

    #[test]
    fn a_failure_stops_the_sort_when_asked() {
        let setup = setup();
        let err =
            sort_with(&setup, &[None, Some(2)], OnFailure::Stop, 4).expect_err("the sort fails");
        assert_eq!(err.sorter, 1);
        assert!(err.error.starts_with("failed on part"), "{}", err.error);
        let err = sort_with(&setup, &[Some(0)], OnFailure::Stop, 4).expect_err("the sort fails");
        assert_eq!(
            err,
            SorterFailure {
                sorter: 0,
                error: "sorter 0 cannot open".into()
            }
        );
    }

    #[test]
    fn the_sort_fails_when_every_sorter_fails() {
        let setup = setup();
        let err = sort_with(&setup, &[Some(3), Some(0), Some(5)], OnFailure::HandOver, 4)
            .expect_err("the sort fails");
        assert!(err.sorter == 0 || err.sorter == 2, "{err:?}");
        assert!(err.error.starts_with("failed on part"), "{}", err.error);
    }

    #[test]
    fn no_more_than_the_window_is_sorted_ahead() {
        let setup = setup();
        let partitioner = Partitioner::<u32>::new(&setup.text, setup.max_part);
        let plan = partitioner.plan(setup.max_part);
        let ahead = Mutex::new((0usize, 0usize)); // (sorted, most sorted but not taken)
        struct Counting<'a, 'p, 't> {
            inner: CpuSorter<'p, 't>,
            ahead: &'a Mutex<(usize, usize)>,
            taken: &'a Mutex<usize>,
        }
        impl PartSort for Counting<'_, '_, '_> {
            type Sorted = Vec<u32>;
            type Error = String;
            fn sort(&mut self, part: &Part) -> Result<Vec<u32>, String> {
                let sorted = self.inner.sort(part)?;
                let taken = *self.taken.lock().unwrap();
                let mut a = self.ahead.lock().unwrap();
                a.0 += 1;
                a.1 = a.1.max(a.0 - taken);
                Ok(sorted)
            }
        }
        let taken = Mutex::new(0usize);
        let open = |id: usize| {
            Ok(Counting {
                inner: CpuSorter {
                    partitioner: &partitioner,
                    fail_at: None,
                    sorted: 0,
                    delay: Duration::from_millis(id as u64),
                },
                ahead: &ahead,
                taken: &taken,
            })
        };
        let mut sa = Vec::new();
        sort_parts(&plan, 3, open, (OnFailure::Stop, 2), |p| {
            std::thread::sleep(Duration::from_millis(2));
            sa.extend(p);
            *taken.lock().unwrap() += 1;
        })
        .map_err(|f| f.error)
        .unwrap();
        assert!(sa == setup.whole);
        let most = ahead.lock().unwrap().1;
        assert!(most <= 2, "{most} parts sorted ahead of the consumer");
    }
}
