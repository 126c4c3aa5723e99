//! A gzip stream (`cat r.fq.gz | galign map idx -`) inflated on one thread as it arrives
//! ([`GzipDecoder`], ISA-L) while it is held in memory ([`held::hold`]). Beside it,
//! zlib-rs inflates the same bytes a deflate block at a time on a thread of its own
//! ([`BlockGzipDecoder`]) only to keep the latest block boundary it reached ([`Latest`]).
//! Once the stream has ended, held whole, while less than half of it is inflated, the
//! stream goes on in parallel from that boundary ([`gzip_resume::resume`]): ISA-L gives up
//! to it if it is ahead, the resumed inflater passes over what ISA-L gave past it if it is
//! behind. A stream that arrives as fast as a file is read is thus inflated about as fast
//! as the file, and its bytes, identical either way, flow from the start. Where there is
//! no boundary yet, or resuming fails (damage), the stream is inflated all again in parallel
//! ([`gzip::parallel`]), the part already given passed over: that inflater gives the
//! rest, or the error. A stream let go (slow, or too long to hold) stays with ISA-L.

use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crossbeam_channel::{Receiver, TryRecvError};
use rapidgzip_core::ReadAt;

use super::gzip::{self, GzipDecoder};
use super::gzip_blocks::{BlockGzipDecoder, Checkpoint};
use super::gzip_resume;
use super::held::{self, Arriving, HeldBytes};

/// The inflated bytes of the gzip `stream` (after its bytes `first`, already taken from
/// it), on up to `threads` threads once it is held whole.
pub fn arriving(first: Vec<u8>, stream: Box<dyn Read + Send>, threads: usize) -> impl Read + Send {
    Switching::new(first, stream, threads)
}

/// The latest block boundary the tracking thread reached.
struct Latest {
    /// The stream's output before it.
    output: u64,
    checkpoint: Checkpoint,
}

/// The thread that finds block boundaries: what it found, and the flag that stops it.
struct Tracker {
    latest: Arc<Mutex<Option<Latest>>>,
    stop: Arc<AtomicBool>,
}

impl Drop for Tracker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Tracker {
    /// Starts inflating `stream` on a thread of its own, keeping its latest boundary.
    fn start(stream: Arriving) -> Tracker {
        let latest = Arc::new(Mutex::new(None));
        let stop = Arc::new(AtomicBool::new(false));
        let (found, stopped) = (Arc::clone(&latest), Arc::clone(&stop));
        std::thread::spawn(move || track(stream, &found, &stopped));
        Tracker { latest, stop }
    }

    /// Stops the thread (as dropping it does); the latest boundary it reached.
    fn finish(self) -> Option<Latest> {
        self.latest.lock().ok()?.take()
    }
}

/// Inflates `stream` into a scratch buffer until its end, an error or `stop`, keeping in
/// `latest` the last block boundary reached.
fn track(stream: Arriving, latest: &Mutex<Option<Latest>>, stop: &AtomicBool) {
    let mut decoder = BlockGzipDecoder::new(stream);
    let mut scratch = vec![0; 1 << 20];
    let mut output = 0;
    while !stop.load(Ordering::Relaxed) {
        match decoder.read(&mut scratch) {
            Ok(0) | Err(_) => return,
            Ok(n) => output += n as u64,
        }
        if let Some(checkpoint) = decoder.checkpoint() {
            if let Ok(mut latest) = latest.lock() {
                *latest = Some(Latest { output, checkpoint });
            }
        }
    }
}

/// [`arriving`]'s reader.
struct Switching {
    early: GzipDecoder<Arriving>,
    /// The whole stream, to come; `None` once taken or let go.
    whole: Option<Receiver<HeldBytes>>,
    tracker: Option<Tracker>,
    /// The whole stream and a boundary ahead of what was given, to resume from there.
    ahead: Option<(Arc<HeldBytes>, Latest)>,
    /// Inflated bytes given so far.
    given: u64,
    /// The parallel inflater: the resumed member, or the inflater from the start.
    parallel: Option<Box<dyn Read + Send>>,
    /// While the resumed member is read: the whole stream, to start over from if it fails.
    resumed_from: Option<Arc<HeldBytes>>,
    threads: usize,
}

impl Switching {
    fn new(first: Vec<u8>, stream: Box<dyn Read + Send>, threads: usize) -> Switching {
        let holding = held::hold(first, stream, held::GZIP_LIMITS);
        Switching {
            early: GzipDecoder::new(holding.arriving),
            whole: Some(holding.whole),
            tracker: Some(Tracker::start(holding.tracked)),
            ahead: None,
            given: 0,
            parallel: None,
            resumed_from: None,
            threads,
        }
    }

    /// Takes the whole stream if it has come and less than half of it is inflated yet:
    /// resumes from the tracker's boundary (now, or once ISA-L has given up to it), or
    /// starts over.
    fn maybe_switch(&mut self) -> io::Result<()> {
        let Some(whole) = &self.whole else {
            return Ok(());
        };
        let held = match whole.try_recv() {
            Ok(held) => held,
            Err(TryRecvError::Empty) => return Ok(()),
            Err(TryRecvError::Disconnected) => {
                self.whole = None;
                self.tracker.take().map(Tracker::finish);
                return Ok(());
            }
        };
        self.whole = None;
        let latest = self.tracker.take().and_then(Tracker::finish);
        if 2 * self.early.compressed_offset() >= held.len()? {
            return Ok(());
        }
        let held = Arc::new(held);
        match latest {
            Some(latest) if latest.output > self.given => self.ahead = Some((held, latest)),
            Some(latest) => self.resume(held, latest, self.given)?,
            None => self.start_over(held, self.given)?,
        }
        Ok(())
    }

    /// Goes on in parallel from `latest`, passing over what was `given` past it.
    fn resume(&mut self, held: Arc<HeldBytes>, latest: Latest, given: u64) -> io::Result<()> {
        let threads = self.threads;
        match gzip_resume::resume(Arc::clone(&held), latest.checkpoint, threads) {
            Ok(Some(mut resumed)) => {
                let past = given - latest.output;
                let skipped = io::copy(&mut (&mut resumed).take(past), &mut io::sink());
                if skipped.ok() != Some(past) {
                    return self.start_over(held, given);
                }
                self.parallel = Some(Box::new(resumed));
                self.resumed_from = Some(held);
                Ok(())
            }
            Ok(None) | Err(_) => self.start_over(held, given),
        }
    }

    /// Inflates the whole stream again in parallel, passing over the `given` bytes.
    fn start_over(&mut self, held: Arc<HeldBytes>, given: u64) -> io::Result<()> {
        let mut parallel = gzip::parallel(held, self.threads)?;
        let skipped = io::copy(&mut (&mut parallel).take(given), &mut io::sink())?;
        if skipped < given {
            return Err(io::Error::other(
                "the gzip stream inflated in parallel is shorter",
            ));
        }
        self.parallel = Some(Box::new(parallel));
        Ok(())
    }

    /// ISA-L's next bytes, up to the boundary ahead if there is one (resuming there).
    fn read_early(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let Some((_, latest)) = &self.ahead else {
            return self.early.read(out);
        };
        let left = (latest.output - self.given).min(out.len() as u64) as usize;
        let n = self.early.read(&mut out[..left])?;
        if n == 0 {
            return Err(io::Error::other(
                "the gzip stream ends before its block boundary",
            ));
        }
        if self.given + n as u64 == latest.output {
            let (held, latest) = self.ahead.take().expect("checked");
            self.resume(held, latest, self.given + n as u64)?;
        }
        Ok(n)
    }
}

impl Read for Switching {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        if self.parallel.is_none() && self.ahead.is_none() {
            self.maybe_switch()?;
        }
        let n = match &mut self.parallel {
            Some(parallel) => match parallel.read(out) {
                Ok(n) => n,
                // Resuming failed (rapidgzip found damage): what it gave was the
                // stream's own output, so the inflater from the start goes on after
                // it, or says what is wrong.
                Err(e) if !gzip_resume::is_trailer_mismatch(&e) && self.resumed_from.is_some() => {
                    let held = self.resumed_from.take().expect("checked");
                    self.start_over(held, self.given)?;
                    return self.read(out);
                }
                Err(e) => return Err(e),
            },
            None => self.read_early(out)?,
        };
        self.given += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(data).unwrap();
        gz.finish().unwrap()
    }

    /// A stream that stops at byte `gate_at` until `gate` says to go on.
    struct Gated {
        bytes: io::Cursor<Vec<u8>>,
        gate_at: u64,
        gate: Option<crossbeam_channel::Receiver<()>>,
    }

    impl Read for Gated {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let left = self.gate_at.saturating_sub(self.bytes.position());
            if left == 0 {
                if let Some(gate) = self.gate.take() {
                    gate.recv().unwrap();
                }
                return self.bytes.read(out);
            }
            let n = out.len().min(left as usize);
            self.bytes.read(&mut out[..n])
        }
    }

    /// `len` bytes of random bases in lines of 100, which gzip to about a quarter.
    fn bases(len: usize) -> Vec<u8> {
        let codes = crate::test_support::random_codes(len, 12345, 4);
        let base = |(i, &code): (usize, &u8)| match i % 101 {
            100 => b'\n',
            _ => b"ACGT"[code as usize],
        };
        codes.iter().enumerate().map(base).collect()
    }

    /// Waits until the tracking thread has reached a block boundary: on a loaded machine
    /// it may lag behind ISA-L, and the stream would then (rightly) be started over.
    fn wait_for_a_boundary(reader: &Switching) {
        let latest = &reader.tracker.as_ref().expect("tracking").latest;
        let start = std::time::Instant::now();
        while latest.lock().unwrap().is_none() {
            assert!(start.elapsed().as_secs() < 120, "no block boundary reached");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Reads `gz` through a [`Switching`] whose stream waits at three quarters until
    /// 3 MB are inflated and the tracker has reached a boundary; returns the reader (to
    /// look at) and everything it gave, or the error.
    fn through_switching(gz: &[u8]) -> (Switching, io::Result<Vec<u8>>) {
        let (go, gate) = crossbeam_channel::bounded(1);
        let stream = Gated {
            bytes: io::Cursor::new(gz[100..].to_vec()),
            gate_at: (gz.len() - 100) as u64 * 3 / 4,
            gate: Some(gate),
        };
        let mut reader = Switching::new(gz[..100].to_vec(), Box::new(stream), 4);
        // Inflated on one thread while the stream waits at its gate.
        let mut all = vec![0; 3_000_001];
        reader.read_exact(&mut all).unwrap();
        assert!(reader.parallel.is_none());
        wait_for_a_boundary(&reader);
        go.send(()).unwrap();
        while reader.whole.is_some() || reader.ahead.is_some() {
            let mut next = [0; 7];
            match reader.read(&mut next) {
                Ok(n) => all.extend_from_slice(&next[..n]),
                Err(e) => return (reader, Err(e)),
            }
        }
        assert!(
            reader.parallel.is_some(),
            "switched to the parallel inflater"
        );
        let result = reader.read_to_end(&mut all).map(|_| all);
        (reader, result)
    }

    #[test]
    fn a_stream_inflated_as_it_arrives_goes_on_in_parallel_from_a_block_once_held_whole() {
        // Several pieces of gzip.
        let text = bases(24_000_000);
        let (reader, all) = through_switching(&gzip(&text));
        assert!(all.unwrap() == text);
        assert!(reader.resumed_from.is_some(), "resumed, not started over");
    }

    #[test]
    fn a_stream_of_members_resumed_in_one_not_the_last_goes_on_with_the_next() {
        // Members after the resumed one: one, or several (an empty one among them).
        let first = bases(20_000_000);
        for sizes in [vec![3_000_000], vec![1, 0, 2_500_001, 77_777]] {
            let mut gz = gzip(&first);
            let mut text = first.clone();
            for size in sizes {
                let member = bases(size);
                gz.extend(gzip(&member));
                text.extend(member);
            }
            let (reader, all) = through_switching(&gz);
            assert!(all.unwrap() == text);
            assert!(reader.resumed_from.is_some(), "resumed, not started over");
        }
        // A bad trailer of the resumed member, found where its data ends.
        let mut gz = gzip(&first);
        let at = gz.len() - 6;
        gz[at] ^= 1;
        gz.extend(gzip(&bases(1_000_000)));
        let e = through_switching(&gz).1.unwrap_err().to_string();
        assert_eq!(
            e,
            "corrupt gzip data in member 1: its CRC-32 or length does not match the data"
        );
    }

    #[test]
    fn damage_after_the_switch_is_an_error() {
        let gz = gzip(&bases(24_000_000));
        let mut bad_crc = gz.clone();
        let at = gz.len() - 6;
        bad_crc[at] ^= 1;
        let e = through_switching(&bad_crc).1.unwrap_err().to_string();
        assert_eq!(
            e,
            "corrupt gzip data in member 1: its CRC-32 or length does not match the data"
        );
        let mut bad_data = gz.clone();
        bad_data[gz.len() * 7 / 8] ^= 0x55;
        assert!(through_switching(&bad_data).1.is_err());
    }

    #[test]
    fn a_boundary_behind_what_was_given_is_passed_over_when_resuming() {
        let text = bases(12_000_000);
        let gz = gzip(&text);
        let holding = held::hold(
            Vec::new(),
            Box::new(io::Cursor::new(gz.clone())),
            held::GZIP_LIMITS,
        );
        let held = Arc::new(holding.whole.recv().unwrap());
        // ISA-L alone gives 6 MB (no switch: the whole stream and the tracker taken away).
        let mut reader = Switching::new(
            gz[..100].to_vec(),
            Box::new(io::Cursor::new(gz[100..].to_vec())),
            4,
        );
        reader.whole = None;
        reader.tracker.take().map(Tracker::finish);
        let mut all = vec![0; 6_000_000];
        reader.read_exact(&mut all).unwrap();
        // A block boundary found by zlib-rs before 4 MB of output.
        let mut blocks = BlockGzipDecoder::new(io::Cursor::new(&gz));
        let (mut output, mut latest) = (0, None);
        let mut scratch = vec![0; 1 << 16];
        while output < 4_000_000 {
            output += blocks.read(&mut scratch).unwrap() as u64;
            if let Some(checkpoint) = blocks.checkpoint() {
                latest = Some(Latest { output, checkpoint });
            }
        }
        let latest = latest.expect("a boundary before 4 MB");
        assert!(latest.output < reader.given);
        reader.resume(held, latest, reader.given).unwrap();
        assert!(reader.resumed_from.is_some(), "resumed");
        reader.read_to_end(&mut all).unwrap();
        assert!(all == text);
    }
}
