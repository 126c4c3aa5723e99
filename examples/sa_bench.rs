//! Suffix-array benchmark: galign's CPU builder against libsais, same text, same thread
//! count, same run; checks that both arrays are equal. With PARTS, also the
//! bucket-partitioned build in parts of n / PARTS suffixes (checked equal too).
//!
//! `cargo run --release --example sa_bench -- REF.fa[.gz] [THREADS] [REPEATS] [PARTS]`

use std::time::Instant;

use libsais::{SuffixArrayConstruction, ThreadCount};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: sa_bench REF.fa [THREADS] [REPEATS]");
    let threads: usize = args.next().map_or(
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t.parse().expect("threads"),
    );
    let repeats: usize = args.next().map_or(3, |r| r.parse().expect("repeats"));
    let parts: Option<usize> = args.next().map(|p| p.parse().expect("parts"));
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .unwrap();
    let reference = galign::reference::read_fasta(path.as_ref()).expect("reference");
    let ascii = reference.text.to_ascii();
    let n = ascii.len();
    let mut ours = f64::INFINITY;
    let mut theirs = f64::INFINITY;
    let mut partitioned = f64::INFINITY;
    for _ in 0..repeats {
        let t = Instant::now();
        let sa: Vec<u32> = galign::sa::suffix_array(&reference.text);
        ours = ours.min(t.elapsed().as_secs_f64());
        if let Some(parts) = parts {
            let t = Instant::now();
            let mut in_parts = Vec::with_capacity(n);
            let max_part = n.div_ceil(parts);
            galign::sa::partition::suffix_array_in_parts::<u32>(&reference.text, max_part, |p| {
                in_parts.extend(p)
            });
            partitioned = partitioned.min(t.elapsed().as_secs_f64());
            assert!(in_parts == sa, "partitioned suffix array differs");
        }
        let t = Instant::now();
        let expect: Vec<i32> = SuffixArrayConstruction::for_text(&ascii)
            .in_owned_buffer()
            .multi_threaded(ThreadCount::fixed(threads as u16))
            .run()
            .expect("libsais")
            .into_vec();
        theirs = theirs.min(t.elapsed().as_secs_f64());
        assert!(
            sa.iter().zip(&expect).all(|(&a, &b)| a as i64 == b as i64),
            "suffix arrays differ"
        );
    }
    println!(
        "{path}\t{n} bases\t{threads} threads\tgalign {ours:.3} s\tlibsais {theirs:.3} s\tratio (libsais/galign) {:.2}",
        theirs / ours
    );
    if let Some(parts) = parts {
        println!(
            "partitioned, {parts} parts\t{partitioned:.3} s\t(whole / partitioned {:.2})",
            ours / partitioned
        );
    }
}
