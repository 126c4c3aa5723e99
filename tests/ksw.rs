//! galign's port of bwa 0.7.17's `ksw.c` (`galign::align`) against bwa's own `ksw.c`,
//! compiled with `cc` from `tests/ksw_reference/` with a small driver: every field of
//! `ksw_extend2`, `ksw_global2` (score and CIGAR; score alone on narrow bands) and
//! `ksw_align2` (16-bit and byte kernels, with and without a prepared profile, every
//! `xtra` flag) on thousands of generated cases: random sequences of 0 to 300 bases
//! with N, mutated copies (SNPs, indels of 1 to 30 bases), repeats, homopolymers,
//! all-N and empty sequences, bwa mem's default scoring and random others, bands 0 to
//! 150, z-drop 0, 100 and small, end bonus 0, 5 and others, various h0. Then, as a
//! second and independent check, `ksw_global2`'s score against a full (unbanded)
//! three-state DP written here, and its CIGAR rescored; `ksw_align2`'s score and ends
//! against textbook Smith-Waterman-Gotoh where the two models agree. Needs `cc` and an
//! x86-64 target (`ksw.c` uses SSE2); fails, never skips, without them.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use galign::align::{
    self, CigarOp, QueryProfile, ScoreMatrix, Scoring, Width, XBYTE, XSTART, XSTOP, XSUBO,
};

/// splitmix64: a fixed stream of cases for every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as u64) as i32
    }

    /// True with probability `p` percent.
    fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// Random bases, about `n_rate` percent of them N (code 4).
fn random_seq(rng: &mut Rng, len: usize, n_rate: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            if rng.percent(n_rate) {
                4
            } else {
                rng.below(4) as u8
            }
        })
        .collect()
}

/// A copy of `s` with SNPs (some to N) and a few indels of 1 to 30 bases.
fn mutate(rng: &mut Rng, s: &[u8]) -> Vec<u8> {
    let snp_rate = rng.pick(&[0u64, 1, 3, 8, 20]);
    let mut out: Vec<u8> = s
        .iter()
        .map(|&b| {
            if rng.percent(snp_rate) {
                rng.pick(&[0, 1, 2, 3, 4])
            } else {
                b
            }
        })
        .collect();
    for _ in 0..rng.pick(&[0, 0, 1, 1, 2, 4]) {
        let at = rng.below(out.len() as u64 + 1) as usize;
        let len = rng.range(1, 30) as usize;
        if rng.percent(50) {
            let ins = random_seq(rng, len, 2);
            out.splice(at..at, ins);
        } else {
            out.drain(at..(at + len).min(out.len()));
        }
    }
    out
}

/// A repeat-rich sequence: a homopolymer or a tandem repeat of a short unit.
fn repeat_seq(rng: &mut Rng, len: usize) -> Vec<u8> {
    let unit_len = rng.range(1, 4) as usize;
    let unit = random_seq(rng, unit_len, 0);
    (0..len).map(|i| unit[i % unit.len()]).collect()
}

/// A query and a related target (or an unrelated one, or an empty side).
fn seq_pair(rng: &mut Rng) -> (Vec<u8>, Vec<u8>) {
    let len = match rng.below(10) {
        0 => rng.below(8) as usize,
        1..=5 => rng.below(120) as usize,
        _ => rng.below(301) as usize,
    };
    let n_rate = rng.pick(&[0, 0, 1, 5]);
    match rng.below(20) {
        0 => (Vec::new(), random_seq(rng, len, n_rate)),
        1 => (random_seq(rng, len, n_rate), Vec::new()),
        2 => {
            let tlen = rng.below(50) as usize;
            (vec![4; len], random_seq(rng, tlen, 0))
        }
        3 | 4 => {
            let r = repeat_seq(rng, len);
            let t = mutate(rng, &r);
            (r, t)
        }
        5 | 6 => {
            let tlen = rng.below(301) as usize;
            (random_seq(rng, len, n_rate), random_seq(rng, tlen, n_rate))
        }
        _ => {
            let q = random_seq(rng, len, n_rate);
            let t = mutate(rng, &q);
            (q, t)
        }
    }
}

/// bwa mem's defaults half the time, random scores (open penalties from 0) otherwise.
fn scoring(rng: &mut Rng) -> (ScoreMatrix, Scoring) {
    let mut sc = Scoring::bwa_mem();
    if rng.percent(10) {
        // Gaps cheaper than a mismatch: an insertion next to a deletion beats it, which
        // bwa's striped kernel does not allow everywhere (its lazy-F loop leaves E be).
        sc.match_score = rng.range(1, 3);
        sc.mismatch = rng.range(6, 9);
        (sc.o_del, sc.o_ins) = (rng.range(0, 1), rng.range(0, 1));
        (sc.e_del, sc.e_ins) = (rng.range(1, 2), rng.range(1, 2));
    } else if rng.percent(50) {
        sc.match_score = rng.range(1, 6);
        sc.mismatch = rng.range(1, 9);
        sc.o_del = rng.range(0, 12);
        sc.e_del = rng.range(1, 4);
        sc.o_ins = rng.range(0, 12);
        sc.e_ins = rng.range(1, 4);
    }
    sc.end_bonus = rng.pick(&[0, 5, 5, 0, 1, 10]);
    sc.zdrop = rng.pick(&[0, 100, 100, 0, 1, 5, 20]);
    sc.band = rng.range(0, 150);
    (
        ScoreMatrix::bwa(sc.match_score as i8, sc.mismatch as i8),
        sc,
    )
}

/// One call, in the driver's input format (tests/ksw_reference/driver.c).
struct Case {
    kind: u8,
    mat: ScoreMatrix,
    sc: Scoring,
    params: Vec<i32>,
    q: Vec<u8>,
    t: Vec<u8>,
}

impl Case {
    fn line(&self) -> String {
        let mut w: Vec<String> = vec![self.kind.to_string(), self.mat.size().to_string()];
        w.extend(self.mat.cells().iter().map(|c| c.to_string()));
        let sc = &self.sc;
        w.extend(
            [sc.o_del, sc.e_del, sc.o_ins, sc.e_ins]
                .iter()
                .map(|v| v.to_string()),
        );
        w.extend(self.params.iter().map(|v| v.to_string()));
        for s in [&self.q, &self.t] {
            w.push(s.len().to_string());
            w.extend(s.iter().map(|b| b.to_string()));
        }
        w.join(" ")
    }

    /// galign's answer, printed as the driver prints bwa's.
    fn ours(&self) -> String {
        let (q, t, mat, p) = (&self.q, &self.t, &self.mat, &self.params);
        match self.kind {
            0 => {
                let sc = Scoring {
                    band: p[0],
                    end_bonus: p[1],
                    zdrop: p[2],
                    ..self.sc
                };
                let x = align::extend(q, t, mat, &sc, p[3]);
                format!(
                    "{} {} {} {} {} {}",
                    x.score, x.qle, x.tle, x.gtle, x.gscore, x.max_off
                )
            }
            1 => {
                let g = align::global(
                    q,
                    t,
                    mat,
                    &Scoring {
                        band: p[0],
                        ..self.sc
                    },
                );
                let mut s = format!("{} {}", g.score, g.cigar.0.len());
                g.cigar.packed().iter().for_each(|c| s += &format!(" {c}"));
                s
            }
            2 => align::global_score(
                q,
                t,
                mat,
                &Scoring {
                    band: p[0],
                    ..self.sc
                },
            )
            .to_string(),
            _ => {
                let r = if self.kind == 3 {
                    align::align2(q, t, mat, &self.sc, p[0] as u32)
                } else {
                    let width = if p[1] == 1 { Width::Byte } else { Width::Word };
                    align::align2_with(
                        &QueryProfile::new(width, q, mat),
                        q,
                        t,
                        mat,
                        &self.sc,
                        p[0] as u32,
                    )
                };
                format!(
                    "{} {} {} {} {} {} {}",
                    r.score, r.te, r.qe, r.score2, r.te2, r.tb, r.qb
                )
            }
        }
    }
}

/// bwa's ksw.c and the driver, compiled once per test run into a fresh folder.
fn driver() -> &'static Path {
    static DRIVER: OnceLock<PathBuf> = OnceLock::new();
    DRIVER.get_or_init(|| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ksw_reference");
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("ksw_reference_{}_{stamp}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("ksw_reference");
        let out = Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&exe)
            .arg(src.join("ksw.c"))
            .arg(src.join("driver.c"))
            .output()
            .unwrap_or_else(|e| {
                panic!("`cc` is required for this test (bwa's ksw.c is the reference): {e}")
            });
        assert!(
            out.status.success(),
            "cc failed on ksw.c: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        exe
    })
}

/// bwa's answers to `cases`, one line each.
fn reference(cases: &[Case]) -> Vec<String> {
    let mut input = String::new();
    cases.iter().for_each(|c| {
        input += &c.line();
        input.push('\n');
    });
    let mut child = Command::new(driver())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the ksw.c driver");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "the ksw.c driver failed: {}",
        out.status
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Compares every case with bwa; fails listing the first differences; returns bwa's
/// answers as numbers.
fn compare(what: &str, cases: &[Case]) -> Vec<Vec<i64>> {
    let theirs = reference(cases);
    assert_eq!(
        theirs.len(),
        cases.len(),
        "{what}: the driver answered {} of {} cases",
        theirs.len(),
        cases.len()
    );
    let diffs: Vec<String> = cases
        .iter()
        .zip(&theirs)
        .filter_map(|(c, b)| {
            let ours = c.ours();
            (&ours != b).then(|| format!("case `{}`\n  bwa:    {b}\n  galign: {ours}", c.line()))
        })
        .collect();
    eprintln!(
        "{what}: {} cases compared with bwa's ksw.c, {} differ",
        cases.len(),
        diffs.len()
    );
    assert!(
        diffs.is_empty(),
        "{what}: {} of {} cases differ from bwa, first:\n{}",
        diffs.len(),
        cases.len(),
        diffs[..diffs.len().min(5)].join("\n")
    );
    theirs
        .iter()
        .map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect())
        .collect()
}

/// Fails unless every named outcome occurred in some case (the cases reach it).
fn covered(what: &str, outcomes: &[(&str, usize)]) {
    eprintln!("{what}: {outcomes:?}");
    for (name, n) in outcomes {
        assert!(*n > 0, "{what}: no case reached `{name}`");
    }
}

fn count<T>(xs: &[T], f: impl Fn(&T) -> bool) -> usize {
    xs.iter().filter(|x| f(x)).count()
}

#[test]
fn extend_matches_bwa() {
    let mut rng = Rng(65);
    let cases: Vec<Case> = (0..5000)
        .map(|_| {
            let (mat, sc) = scoring(&mut rng);
            let (q, mut t) = seq_pair(&mut rng);
            // bwa mem's target runs past the query's end by up to the band.
            let tail = rng.below(60) as usize;
            t.extend(random_seq(&mut rng, tail, 1));
            let h0 = rng.pick(&[1, 2, 5, 19, 30, 60, 100, 250, 1000]);
            let params = vec![sc.band, sc.end_bonus, sc.zdrop, h0];
            Case {
                kind: 0,
                mat,
                sc,
                params,
                q,
                t,
            }
        })
        .collect();
    let r = compare("ksw_extend2", &cases);
    covered(
        "ksw_extend2",
        &[
            ("nothing beats h0", count(&r, |x| x[1] == 0)),
            ("query end reached", count(&r, |x| x[4] >= 0)),
            ("query end never reached", count(&r, |x| x[4] < 0)),
            ("best off the diagonal", count(&r, |x| x[5] > 0)),
            ("stopped before the target's end (z-drop or dead row)", {
                count(&cases.iter().zip(&r).collect::<Vec<_>>(), |(c, x)| {
                    x[2] > 0 && x[2] + 40 < c.t.len() as i64
                })
            }),
        ],
    );
}

#[test]
fn global_matches_bwa() {
    let mut rng = Rng(66);
    let cases: Vec<Case> = (0..6000)
        .map(|n| {
            let (mat, sc) = scoring(&mut rng);
            let (q, t) = seq_pair(&mut rng);
            let diff = (q.len() as i32 - t.len() as i32).abs();
            if n % 4 == 3 {
                // Score alone: any band, the last cell inside it or not.
                return Case {
                    kind: 2,
                    mat,
                    sc,
                    params: vec![rng.range(0, 150)],
                    q,
                    t,
                };
            }
            // With a CIGAR, the band reaches both corners (bwa mem: |diff| + 3 or more).
            let w = diff + rng.pick(&[0, 0, 1, 3, 10, 50, 150]);
            Case {
                kind: 1,
                mat,
                sc,
                params: vec![w],
                q,
                t,
            }
        })
        .collect();
    let r = compare("ksw_global2", &cases);
    let cigar_has = |code: i64| {
        count(&r, |x| {
            x.len() > 2 && x[2..].iter().any(|c| c & 0xf == code)
        })
    };
    covered(
        "ksw_global2",
        &[
            ("insertion", cigar_has(1)),
            ("deletion", cigar_has(2)),
            (
                "last cell outside a narrow band",
                count(&r, |x| x.len() == 1 && x[0] < -0x2000_0000),
            ),
        ],
    );
}

/// An `xtra` of bwa mem's (mate rescue, `mem_flt_chained_seeds`) or any other mix.
fn xtra(rng: &mut Rng) -> u32 {
    let threshold = rng.pick(&[0u32, 1, 10, 19, 30, 60, 100, 400]);
    let flags = match rng.below(5) {
        0 => XSTART,
        1 => XSUBO | XSTART | XBYTE,
        2 => XSUBO | XSTART,
        _ => rng.pick(&[
            0,
            XBYTE,
            XSTOP,
            XSTOP | XBYTE,
            XSUBO,
            XSTART | XBYTE,
            XSTOP | XSTART | XSUBO,
        ]),
    };
    flags | threshold
}

#[test]
fn align2_matches_bwa() {
    let mut rng = Rng(67);
    let cases: Vec<Case> = (0..6000)
        .map(|n| {
            let (mat, sc) = scoring(&mut rng);
            let (q, t) = seq_pair(&mut rng);
            // Mate rescue's window: the mate's copy somewhere inside random flanks.
            let (l, r) = (rng.below(200) as usize, rng.below(200) as usize);
            let mut window = random_seq(&mut rng, l, 1);
            window.extend(&t);
            window.extend(random_seq(&mut rng, r, 1));
            let x = xtra(&mut rng) as i32;
            let (kind, params) = if n % 4 == 3 {
                (4, vec![x, rng.range(1, 2)])
            } else {
                (3, vec![x])
            };
            Case {
                kind,
                mat,
                sc,
                params,
                q,
                t: window,
            }
        })
        .collect();
    let r = compare("ksw_align2", &cases);
    // XSTART asked, not saturated, not below an XSUBO threshold: the start pass ran.
    let start_ran = |c: &Case, x: &Vec<i64>| {
        let f = c.params[0] as u32;
        let below = f & XSUBO != 0 && x[0] < (f & 0xffff) as i64;
        f & XSTART != 0 && x[2] >= 0 && !below
    };
    let both: Vec<_> = cases.iter().zip(&r).collect();
    covered(
        "ksw_align2",
        &[
            (
                "byte score saturated",
                count(&r, |x| x[0] == 255 && x[2] == -1),
            ),
            ("second best", count(&r, |x| x[3] >= 0)),
            ("start found", count(&r, |x| x[5] >= 0)),
            (
                "start pass off the score",
                count(&both, |(c, x)| start_ran(c, x) && x[5] < 0),
            ),
        ],
    );
}

/// The best global score under `ksw_global2`'s model, over the whole matrix: states M
/// (a base pair), D (target base alone), I (query base alone); a gap opens only after
/// M (no I next to D), save a leading gap, which starts the alignment.
fn full_dp(q: &[u8], t: &[u8], mat: &ScoreMatrix, sc: &Scoring) -> i32 {
    const NEG: i64 = i64::MIN / 4;
    let (n, m) = (t.len(), q.len());
    let lead_ins = |j: usize| {
        if j == 0 {
            0
        } else {
            -(sc.o_ins as i64 + sc.e_ins as i64 * j as i64)
        }
    };
    let lead_del = |i: usize| {
        if i == 0 {
            0
        } else {
            -(sc.o_del as i64 + sc.e_del as i64 * i as i64)
        }
    };
    let mut mm = vec![vec![NEG; m + 1]; n + 1];
    let mut dd = mm.clone();
    let mut ii = mm.clone();
    let h = |mm: &Vec<Vec<i64>>, dd: &Vec<Vec<i64>>, ii: &Vec<Vec<i64>>, i: usize, j: usize| {
        if i == 0 {
            lead_ins(j)
        } else if j == 0 {
            lead_del(i)
        } else {
            mm[i][j].max(dd[i][j]).max(ii[i][j])
        }
    };
    for i in 1..=n {
        for j in 1..=m {
            mm[i][j] = h(&mm, &dd, &ii, i - 1, j - 1) + mat.score(t[i - 1], q[j - 1]) as i64;
            let (od, ed, oi, ei) = (
                sc.o_del as i64,
                sc.e_del as i64,
                sc.o_ins as i64,
                sc.e_ins as i64,
            );
            dd[i][j] = (mm[i - 1][j] - od - ed).max(dd[i - 1][j] - ed);
            ii[i][j] = (mm[i][j - 1] - oi - ei).max(ii[i][j - 1] - ei);
        }
    }
    h(&mm, &dd, &ii, n, m) as i32
}

/// The score of `cigar` aligning `q` to `t`, each gap run charged its open penalty.
fn rescore(cigar: &align::Cigar, q: &[u8], t: &[u8], mat: &ScoreMatrix, sc: &Scoring) -> i32 {
    let (mut qi, mut ti, mut score) = (0, 0, 0);
    for &(op, n) in &cigar.0 {
        let n = n as usize;
        match op {
            CigarOp::Match => {
                score += (0..n)
                    .map(|k| mat.score(t[ti + k], q[qi + k]) as i32)
                    .sum::<i32>();
                (qi, ti) = (qi + n, ti + n);
            }
            CigarOp::Ins => (score, qi) = (score - sc.o_ins - sc.e_ins * n as i32, qi + n),
            CigarOp::Del => (score, ti) = (score - sc.o_del - sc.e_del * n as i32, ti + n),
        }
    }
    score
}

#[test]
fn global_equals_full_dp_where_the_band_covers_everything() {
    let mut rng = Rng(68);
    let n = 3000;
    for _ in 0..n {
        let (mat, mut sc) = scoring(&mut rng);
        let (mut q, mut t) = seq_pair(&mut rng);
        q.truncate(rng.below(90) as usize);
        t.truncate(rng.below(90) as usize);
        sc.band = q.len().max(t.len()) as i32 + rng.range(0, 5);
        let g = align::global(&q, &t, &mat, &sc);
        let want = full_dp(&q, &t, &mat, &sc);
        assert_eq!(g.score, want, "q {q:?} t {t:?} {sc:?}");
        assert_eq!(align::global_score(&q, &t, &mat, &sc), want);
        assert_eq!(
            (g.cigar.query_len(), g.cigar.target_len()),
            (q.len(), t.len()),
            "{}",
            g.cigar
        );
        assert_eq!(
            rescore(&g.cigar, &q, &t, &mat, &sc),
            want,
            "cigar {} q {q:?} t {t:?} {sc:?}",
            g.cigar
        );
    }
    eprintln!("ksw_global2 vs full DP: {n} cases");
}

/// The best local score under textbook Smith-Waterman-Gotoh over the whole matrix, with
/// the first target row reaching it and the first query position of that row.
fn full_sw(q: &[u8], t: &[u8], mat: &ScoreMatrix, sc: &Scoring) -> (i32, i32, i32) {
    let (n, m) = (t.len(), q.len());
    let mut h = vec![vec![0i32; m + 1]; n + 1];
    let mut e = h.clone();
    let mut best = (0, -1, -1);
    for i in 1..=n {
        let mut f = i32::MIN / 4;
        for j in 1..=m {
            e[i][j] = (h[i - 1][j] - sc.o_del - sc.e_del).max(e[i - 1][j] - sc.e_del);
            f = (h[i][j - 1] - sc.o_ins - sc.e_ins).max(f - sc.e_ins);
            let diag = h[i - 1][j - 1] + mat.score(t[i - 1], q[j - 1]) as i32;
            h[i][j] = diag.max(e[i][j]).max(f).max(0);
            if h[i][j] > best.0 {
                best = (h[i][j], i as i32 - 1, j as i32 - 1);
            }
        }
    }
    best
}

#[test]
fn align2_equals_full_smith_waterman_where_gaps_never_meet() {
    // Where a mismatch costs no more than a base of each gap (b <= e_del + e_ins) and
    // gaps open at a cost (o >= 1), no best alignment needs an insertion next to a
    // deletion, which bwa's striped kernel does not always allow: its best score and
    // ends are then textbook Smith-Waterman's (16-bit kernel: no saturation).
    let mut rng = Rng(69);
    let n = 2000;
    for _ in 0..n {
        let mut sc = Scoring::bwa_mem();
        (sc.e_del, sc.e_ins) = (rng.range(1, 4), rng.range(1, 4));
        (sc.o_del, sc.o_ins) = (rng.range(1, 8), rng.range(1, 8));
        sc.match_score = rng.range(1, 3);
        sc.mismatch = rng.range(1, sc.e_del + sc.e_ins);
        let mat = ScoreMatrix::bwa(sc.match_score as i8, sc.mismatch as i8);
        let (mut q, t) = seq_pair(&mut rng);
        q.truncate(150);
        let (l, r) = (rng.below(100) as usize, rng.below(100) as usize);
        let mut window = random_seq(&mut rng, l, 1);
        window.extend(&t);
        window.extend(random_seq(&mut rng, r, 1));
        let got = align::align2(&q, &window, &mat, &sc, 0);
        let (score, te, qe) = full_sw(&q, &window, &mat, &sc);
        let what = format!("q {q:?} t {window:?} {sc:?}");
        assert_eq!(got.score, score, "{what}");
        if score > 0 {
            assert_eq!((got.te, got.qe), (te, qe), "{what}");
        } else {
            assert_eq!(got.te, -1, "{what}");
        }
    }
    eprintln!("ksw_align2 vs full Smith-Waterman: {n} cases");
}
