//! The SMEM kernels (`kernels/seed/smem.cu`) run on the CPU: their device code compiled
//! as plain C++ with the host compiler (`c++`, through `tests/kernel_host/shim.h`, with
//! the `-D` sizes of `galign::gpu::tuning`) and run one "thread" after another, so that
//! the logic of the GPU walk and locate is checked where no GPU is (CI): each read's
//! SMEMs equal the CPU search's (`galign::seed`, itself checked against `bwa fastmap`),
//! where the kernel did not leave the read to the CPU, compacted as the host asks, and
//! the located rows of its listed SMEMs equal bwa's `bwt_sa` on the CPU. The GPU's own
//! output is checked against the CPU's on a GPU machine (`gpu_smems_match_cpu` in
//! tests/gpu_kernels.rs, scripts/gpu_check_fastmap.sh).
//! Needs a C++17 compiler; fails, not skips, without one.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{galign, nasty_contigs, revcomp, run_ok, shared_file, write_fasta, Rng};
use galign::fmd::BwaIndex;
use galign::seed::{nt4, Smem, SmemConfig, SmemFinder};

/// Compiles the driver of the SMEM kernels into `dir`; returns the executable.
fn driver(dir: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = dir.join("smem_driver");
    let status = Command::new("c++")
        .args(["-O2", "-std=c++17", "-o"])
        .arg(&exe)
        .arg("-I")
        .arg(root.join("kernels"))
        .arg("-I")
        .arg(root.join("tests/kernel_host"))
        .args(galign::gpu::tuning::define_options())
        .arg(root.join("tests/kernel_host/smem_driver.cpp"))
        .status()
        .expect("a C++ compiler (c++) is needed to run the kernels on the host");
    assert!(status.success(), "the SMEM kernels do not compile as C++");
    exe
}

/// What the kernels returned: each read's count and where its slots and listed rows
/// start in the compacted arrays, the Occ lookups of the walks, the compacted slots and
/// the located rows.
struct KernelOutput {
    counts: Vec<u32>,
    slot_start: Vec<u32>,
    row_start: Vec<u32>,
    lookups: u64,
    slots: Vec<u64>,
    located: Vec<u64>,
}

/// Runs the kernels on `reads` (SMEMs of at least `min_len` bases kept, the rows of
/// those of at most `max_hits` occurrences located) over `index` with bwa's `-i`/`-I`.
fn run_kernels(
    exe: &Path,
    dir: &Path,
    index: &BwaIndex,
    reads: &[Vec<u8>],
    (min_intv, max_intv, min_len, max_hits): (i32, u64, u32, u64),
) -> KernelOutput {
    let mut input: Vec<u8> = Vec::new();
    let mut put = |words: &[u64]| words.iter().for_each(|w| input.extend(w.to_le_bytes()));
    let occ = index.bwt.interval_words();
    put(&[occ.len() as u64]);
    put(occ);
    put(&index.bwt.l2);
    put(&[
        index.bwt.primary,
        index.sa.interval(),
        index.sa.positions().len() as u64,
    ]);
    put(index.sa.positions());
    put(&[reads.len() as u64]);
    let mut offset = 0;
    put(&[0]);
    for read in reads {
        offset += read.len() as u64;
        put(&[offset]);
    }
    reads.iter().for_each(|r| input.extend_from_slice(r));
    let mut put = |words: &[u64]| words.iter().for_each(|w| input.extend(w.to_le_bytes()));
    put(&[min_intv.max(1) as u64, max_intv, min_len as u64, max_hits]);
    let (inp, out) = (dir.join("in.bin"), dir.join("out.bin"));
    std::fs::write(&inp, input).unwrap();
    run_ok(Command::new(exe).arg(&inp).arg(&out));
    let bytes = std::fs::read(&out).unwrap();
    let n = reads.len();
    let u32s = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let u64s = |b: &[u8]| -> Vec<u64> {
        b.chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let (starts, rest) = bytes.split_at(12 * n);
    let (sizes, rest) = rest.split_at(24);
    let sizes = u64s(sizes);
    let (slots, located) = rest.split_at(8 * 4 * sizes[1] as usize);
    assert_eq!(located.len(), 8 * sizes[2] as usize, "the rows listed");
    KernelOutput {
        counts: u32s(&starts[..4 * n]),
        slot_start: u32s(&starts[4 * n..8 * n]),
        row_start: u32s(&starts[8 * n..]),
        lookups: sizes[0],
        slots: u64s(slots),
        located: u64s(located),
    }
}

/// The CPU's SMEMs of at least `min_len` bases of `read`.
fn cpu_smems(finder: &mut SmemFinder, index: &BwaIndex, read: &[u8], min_len: u32) -> Vec<Smem> {
    let codes: Vec<u8> = read.iter().map(|&b| nt4(b)).collect();
    let mut smems: Vec<Smem> = Vec::new();
    finder.smems(&index.bwt, &codes, &mut smems);
    smems.retain(|m| (m.end - m.begin) as u32 >= min_len);
    smems
}

/// An SMEM as (begin, end, k, l, size).
fn fields(m: &Smem) -> (usize, usize, u64, u64, u64) {
    (m.begin, m.end, m.interval.k, m.interval.l, m.interval.size)
}

/// Read `i`'s SMEMs from the kernel's compacted slots.
fn kernel_smems(out: &KernelOutput, i: usize) -> Vec<(usize, usize, u64, u64, u64)> {
    let slots = &out.slots[4 * out.slot_start[i] as usize..];
    (0..out.counts[i] as usize)
        .map(|j| {
            let s = &slots[4 * j..4 * j + 4];
            (
                s[0] as u32 as usize,
                (s[0] >> 32) as usize,
                s[1],
                s[2],
                s[3],
            )
        })
        .collect()
}

/// Checks the kernels against the CPU on `reads` over the bwa index at `prefix`, with
/// each of bwa's `-i`/`-I` settings, SMEMs of any length or of at least bwa fastmap's
/// 17 bases kept, and hits listed up to `-w 20` or with no bound (so that reads listing
/// more than the device's rows are left to the CPU): each read the kernels kept has the
/// CPU's SMEMs in its compacted slots and bwa's `bwt_sa` of each row its listed SMEMs
/// print, in output order, from its row start; the compacted arrays hold those and
/// nothing else. Returns how many reads the kernel kept (not left to the CPU) and left,
/// summed over the settings, with SMEMs of at least 17 bases kept.
fn check(exe: &Path, dir: &Path, prefix: &Path, reads: &[Vec<u8>]) -> (usize, usize) {
    let index = BwaIndex::load(prefix).unwrap();
    let (mut kept, mut left) = (0, 0);
    let settings = [
        (1, 0, 17, 20),
        (5, 0, 17, 20),
        (1, 20, 17, 20),
        (1, 0, 0, u64::MAX),
    ];
    for (min_intv, max_intv, min_len, max_hits) in settings {
        let mut finder = SmemFinder::new(SmemConfig { min_intv, max_intv });
        let cut_offs = (min_intv, max_intv, min_len, max_hits);
        let out = run_kernels(exe, dir, &index, reads, cut_offs);
        let (mut slots, mut rows) = (0, 0);
        for (i, read) in reads.iter().enumerate() {
            let want = cpu_smems(&mut finder, &index, read, min_len);
            let on_host = out.counts[i] != galign::gpu::tuning::SMEM_OVERFLOW;
            if min_len > 0 {
                kept += usize::from(on_host);
                left += usize::from(!on_host);
            }
            if !on_host {
                continue;
            }
            let what = format!(
                "read {i} ({} bases), -i {min_intv} -I {max_intv}",
                read.len()
            );
            let fields: Vec<_> = want.iter().map(fields).collect();
            assert_eq!(kernel_smems(&out, i), fields, "{what}");
            assert_eq!(out.slot_start[i] as usize, slots, "{what}: slot start");
            assert_eq!(out.row_start[i] as usize, rows, "{what}: row start");
            let located: Vec<u64> = want
                .iter()
                .filter(|m| m.interval.size <= max_hits)
                .flat_map(|m| m.interval.k..m.interval.k + m.interval.size)
                .map(|r| index.sa.locate(&index.bwt, r))
                .collect();
            assert!(
                located.len() <= galign::gpu::tuning::SMEM_LISTED_ROWS,
                "{what}"
            );
            assert_eq!(
                out.located[rows..rows + located.len()],
                located[..],
                "{what}: located rows"
            );
            slots += want.len();
            rows += located.len();
        }
        assert_eq!((out.slots.len(), out.located.len()), (4 * slots, rows));
        assert!(out.lookups > 0);
    }
    (kept, left)
}

/// bwa's index of `fasta` written by galign into `dir`; returns its prefix.
fn bwa_index(fasta: &Path, dir: &Path) -> PathBuf {
    let prefix = dir.join("bwa");
    run_ok(
        galign()
            .args(["index", "--format", "bwa", "--device", "cpu", "-p"])
            .arg(&prefix)
            .arg(fasta),
    );
    prefix
}

/// Reads cut from `text` (either strand, mutated, with N, lowercase) of 1 to 1,000
/// bases, and all-`A`, empty and N-only reads.
fn generated_reads(text: &[u8], rng: &mut Rng, count: usize) -> Vec<Vec<u8>> {
    let mut reads = Vec::new();
    for i in 0..count {
        let len = [1, 2, 17, 19, 36, 100, 148, 150, 151, 250, 1000][i % 11].min(text.len());
        let start = (rng.next() as usize) % (text.len() - len + 1);
        let mut seq = text[start..start + len].to_vec();
        match i % 6 {
            0 => seq = revcomp(std::str::from_utf8(&seq).unwrap()).into_bytes(),
            1 => {
                for _ in 0..1 + len / 30 {
                    let at = (rng.next() as usize) % len;
                    seq[at] = b"ACGTN"[(rng.next() % 5) as usize];
                }
            }
            2 => seq.make_ascii_lowercase(),
            _ => {}
        }
        reads.push(seq);
    }
    reads.extend([
        b"A".repeat(150),
        b"A".repeat(1000),
        Vec::new(),
        b"NNNNNACGTNNNN".to_vec(),
    ]);
    reads
}

#[test]
fn smem_kernels_on_the_host_equal_the_cpu_search_on_nasty_references() {
    let dir = tempfile::tempdir().unwrap();
    let exe = driver(dir.path());
    let mut rng = Rng(7);
    let mut contigs = nasty_contigs(&mut rng);
    let unit = rng.bases(400);
    let repeats = format!("{unit}{}{unit}{unit}", rng.bases(3000));
    contigs.push(("repeats".into(), repeats));
    contigs.push(("period3".into(), "ACG".repeat(700)));
    contigs.push(("allA".into(), "A".repeat(2000)));
    contigs.push(("random".into(), rng.bases(30_000)));
    let fasta = dir.path().join("ref.fa");
    write_fasta(&contigs, &fasta);
    let prefix = bwa_index(&fasta, dir.path());
    let text: Vec<u8> = contigs.iter().flat_map(|(_, s)| s.bytes()).collect();
    let reads = generated_reads(&text, &mut rng, 3000);
    let (kept, left) = check(&exe, dir.path(), &prefix, &reads);
    assert!(
        left >= 3,
        "the all-A reads overflow the kernel's lists ({left} left)"
    );
    assert!(
        kept > 9 * left,
        "{kept} reads kept by the kernel, {left} left to the CPU"
    );
}

#[test]
fn smem_kernels_on_the_host_equal_the_cpu_search_on_real_reads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sets = vec![(
        root.join("data/human_rCRS_chrM_NC_012920.fa.gz"),
        root.join("data/NA12878_chrM_20k.fq.gz"),
    )];
    if let (Some(r), Some(q)) = (
        shared_file("ref/ecoli_K12_MG1655.fa.gz"),
        shared_file("reads/ecoli_MG1655_first10kb_EAS20_R1.fq.gz"),
    ) {
        sets.push((r, q));
    }
    for (fasta, fastq) in sets {
        let dir = tempfile::tempdir().unwrap();
        let exe = driver(dir.path());
        let prefix = bwa_index(&fasta, dir.path());
        let text = run_ok(Command::new("gzip").arg("-dc").arg(&fastq)).stdout;
        let reads: Vec<Vec<u8>> = text
            .split(|&b| b == b'\n')
            .skip(1)
            .step_by(4)
            .take(5000)
            .map(<[u8]>::to_vec)
            .collect();
        let (kept, left) = check(&exe, dir.path(), &prefix, &reads);
        assert!(
            kept > 100 * left.max(1) / 2,
            "{}: {kept} kept, {left} left",
            fasta.display()
        );
    }
}

/// The Occ lookups of the SMEM walk per read (each reads one 64-byte Occ interval of
/// bwa's `.bwt`), for the bandwidth estimate of `scripts/gpu_check_fastmap.sh`: the
/// first 20,000 reads of `GALIGN_OCC_READS` (a FASTQ, gzip or not) over the bwa index
/// `GALIGN_OCC_INDEX`, with bwa fastmap's defaults. Prints `occ lookups per read: X`.
#[test]
#[ignore = "a measurement: run by scripts/gpu_check_fastmap.sh"]
fn occ_lookups_per_read() {
    let (Ok(prefix), Ok(fastq)) = (
        std::env::var("GALIGN_OCC_INDEX"),
        std::env::var("GALIGN_OCC_READS"),
    ) else {
        panic!("set GALIGN_OCC_INDEX (a bwa index prefix) and GALIGN_OCC_READS (a FASTQ)");
    };
    let dir = tempfile::tempdir().unwrap();
    let exe = driver(dir.path());
    let index = BwaIndex::load(Path::new(&prefix)).unwrap();
    let text = run_ok(
        Command::new("sh")
            .arg("-c")
            .arg(format!("gzip -dcf '{fastq}'")),
    )
    .stdout;
    let reads: Vec<Vec<u8>> = text
        .split(|&b| b == b'\n')
        .skip(1)
        .step_by(4)
        .take(20_000)
        .map(<[u8]>::to_vec)
        .collect();
    let out = run_kernels(&exe, dir.path(), &index, &reads, (1, 0, 17, 20));
    println!(
        "occ lookups per read: {:.1}",
        out.lookups as f64 / reads.len() as f64
    );
}
