//! The SMEM kernels (`kernels/seed/smem.cu`) run on the CPU: their device code compiled
//! as plain C++ with the host compiler (`c++`, through `tests/kernel_host/shim.h`, with
//! the `-D` sizes of `galign::gpu::tuning`) and run one "thread" after another, so that
//! the logic of the GPU walk and locate is checked where no GPU is (CI): each read's
//! SMEMs equal the CPU search's (`galign::seed`, itself checked against `bwa fastmap`),
//! where the kernel did not leave the read to the CPU, and every located row equals
//! bwa's `bwt_sa` on the CPU. The GPU's own output is checked against the CPU's on a GPU
//! machine (`gpu_smems_match_cpu` in tests/gpu_kernels.rs, scripts/gpu_check_fastmap.sh).
//! Needs a C++17 compiler; fails, not skips, without one.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{galign, nasty_contigs, revcomp, run_ok, shared_file, write_fasta, Rng};
use galign::fmd::BwaIndex;
use galign::seed::{nt4, Smem, SmemConfig, SmemFinder};

/// Slots a read has in the kernel's output (`SMEM_SLOTS`).
const SLOTS: usize = galign::gpu::tuning::SMEM_SLOTS;

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

/// What the kernels returned: each read's count and slots, and the located rows.
struct KernelOutput {
    counts: Vec<u32>,
    slots: Vec<u64>,
    located: Vec<u64>,
}

/// Runs the kernels on `reads` (SMEMs of at least `min_len` bases kept) and `rows` over
/// `index` with bwa's `-i`/`-I`.
fn run_kernels(
    exe: &Path,
    dir: &Path,
    index: &BwaIndex,
    reads: &[Vec<u8>],
    (min_intv, max_intv, min_len): (i32, u64, u32),
    rows: &[u64],
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
    put(&[
        min_intv.max(1) as u64,
        max_intv,
        min_len as u64,
        rows.len() as u64,
    ]);
    put(rows);
    let (inp, out) = (dir.join("in.bin"), dir.join("out.bin"));
    std::fs::write(&inp, input).unwrap();
    run_ok(Command::new(exe).arg(&inp).arg(&out));
    let bytes = std::fs::read(&out).unwrap();
    let n = reads.len();
    let (counts, rest) = bytes.split_at(4 * n);
    let (slots, located) = rest.split_at(8 * n * SLOTS * 4);
    let u64s = |b: &[u8]| -> Vec<u64> {
        b.chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    KernelOutput {
        counts: counts
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect(),
        slots: u64s(slots),
        located: u64s(located),
    }
}

/// The CPU's SMEMs of at least `min_len` bases of `read` as (begin, end, k, l, size).
fn cpu_smems(
    finder: &mut SmemFinder,
    index: &BwaIndex,
    read: &[u8],
    min_len: u32,
) -> Vec<(usize, usize, u64, u64, u64)> {
    let codes: Vec<u8> = read.iter().map(|&b| nt4(b)).collect();
    let mut smems: Vec<Smem> = Vec::new();
    finder.smems(&index.bwt, &codes, &mut smems);
    smems
        .iter()
        .filter(|m| (m.end - m.begin) as u32 >= min_len)
        .map(|m| (m.begin, m.end, m.interval.k, m.interval.l, m.interval.size))
        .collect()
}

/// Read `i`'s SMEMs from the kernel's slots.
fn kernel_smems(out: &KernelOutput, i: usize) -> Vec<(usize, usize, u64, u64, u64)> {
    let slots = &out.slots[i * SLOTS * 4..];
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
/// each of bwa's `-i`/`-I` settings and SMEMs of any length or of at least bwa
/// fastmap's 17 bases kept; returns how many reads the kernel kept (not left to the
/// CPU) and left, summed over the settings, with SMEMs of at least 17 bases kept.
fn check(exe: &Path, dir: &Path, prefix: &Path, reads: &[Vec<u8>]) -> (usize, usize) {
    let index = BwaIndex::load(prefix).unwrap();
    let (mut kept, mut left) = (0, 0);
    let settings = [(1, 0, 17), (5, 0, 17), (1, 20, 17), (1, 0, 0)];
    for (min_intv, max_intv, min_len) in settings {
        let mut finder = SmemFinder::new(SmemConfig { min_intv, max_intv });
        let want: Vec<_> = reads
            .iter()
            .map(|r| cpu_smems(&mut finder, &index, r, min_len))
            .collect();
        let rows: Vec<u64> = want
            .iter()
            .flatten()
            .flat_map(|&(_, _, k, _, size)| k..k + size.min(40))
            .collect();
        let cut_offs = (min_intv, max_intv, min_len);
        let out = run_kernels(exe, dir, &index, reads, cut_offs, &rows);
        for (i, want) in want.iter().enumerate() {
            let on_host = out.counts[i] != galign::gpu::tuning::SMEM_OVERFLOW;
            if min_len > 0 {
                kept += usize::from(on_host);
                left += usize::from(!on_host);
            }
            if !on_host {
                continue;
            }
            assert_eq!(
                &kernel_smems(&out, i),
                want,
                "read {i} ({} bases), -i {min_intv} -I {max_intv}",
                reads[i].len()
            );
        }
        let located: Vec<u64> = rows
            .iter()
            .map(|&r| index.sa.locate(&index.bwt, r))
            .collect();
        assert_eq!(out.located, located, "located rows");
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
