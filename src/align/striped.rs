//! One pass of bwa's SSE2 striped Smith-Waterman (`ksw_u8` and `ksw_i16` of bwa 0.7.17's
//! `ksw.c`), emulated lane by lane on scalars: the same vectors, the same saturating
//! arithmetic, the same lazy-F loop (which never feeds a raised H back into E), the
//! same padding lanes past the query's end, the same row maxima and early stops. Its
//! results are therefore bwa's, including where the byte version saturates.

use crate::align::profile::{QueryProfile, Width};
use crate::align::scoring::Scoring;

/// Flag of `xtra`: track the second best score above `xtra & 0xffff` (`KSW_XSUBO`).
pub const XSUBO: u32 = 0x40000;
/// Flag of `xtra`: stop once the best score reaches `xtra & 0xffff` (`KSW_XSTOP`).
pub const XSTOP: u32 = 0x20000;

/// What one pass found: best score and its ends, the second best and its target end
/// (-1 where unset; `score` 255 and `qe` -1 where the byte version saturated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pass {
    /// Best local score.
    pub score: i32,
    /// Target position (0-based, inclusive) of its end.
    pub te: i32,
    /// Query position (0-based, inclusive) of its end.
    pub qe: i32,
    /// Second best row maximum away from `te`, or -1.
    pub score2: i32,
    /// Its target end, or -1.
    pub te2: i32,
}

/// Runs one pass of `profile`'s query over `target` with `sc`'s gap penalties;
/// `xtra` carries [`XSUBO`]/[`XSTOP`] and their threshold in its low 16 bits.
///
/// Panics where the matrix has no positive cell and a second best is tracked (bwa
/// divides by that highest cell).
pub fn run(profile: &QueryProfile, target: &[u8], sc: &Scoring, xtra: u32) -> Pass {
    match profile.width {
        Width::Byte => Kernel::<16>::new(profile, sc, xtra).run(target),
        Width::Word => Kernel::<8>::new(profile, sc, xtra).run(target),
    }
}

/// A 128-bit vector of `P` scores.
type Vector<const P: usize> = [i32; P];

/// The kernel's state (`ksw_u8`/`ksw_i16`'s locals and the profile's H0, H1, E, Hmax).
struct Kernel<'a, const P: usize> {
    q: &'a QueryProfile,
    byte: bool,
    /// Gap costs as the kernel holds them: open + extend, and extend, per direction.
    oe_del: i32,
    e_del: i32,
    oe_ins: i32,
    e_ins: i32,
    /// Row maxima at least this are remembered for the second best (`minsc`).
    minsc: i32,
    /// Stop once the best reaches this (`endsc`).
    endsc: i32,
    h0: Vec<Vector<P>>,
    h1: Vec<Vector<P>>,
    e: Vec<Vector<P>>,
    hmax: Vec<Vector<P>>,
}

/// `_mm_slli_si128` by one score: every lane takes its lower neighbour's value, lane 0
/// takes 0.
fn shift_up<const P: usize>(v: Vector<P>) -> Vector<P> {
    let mut out = [0; P];
    out[1..].copy_from_slice(&v[..P - 1]);
    out
}

/// Unsigned saturating subtraction (`_mm_subs_epu8`/`_mm_subs_epu16` on the
/// non-negative values the kernel holds).
#[inline(always)]
fn sub(a: i32, b: i32) -> i32 {
    (a - b).max(0)
}

impl<'a, const P: usize> Kernel<'a, P> {
    fn new(q: &'a QueryProfile, sc: &Scoring, xtra: u32) -> Self {
        let byte = q.width == Width::Byte;
        // _mm_set1_epi8/_epi16 keep the low 8/16 bits.
        let mask = if byte { 0xff } else { 0xffff };
        let threshold = |flag: u32| {
            if xtra & flag != 0 {
                (xtra & 0xffff) as i32
            } else {
                0x10000
            }
        };
        let zero = vec![[0; P]; q.segments];
        Kernel {
            q,
            byte,
            oe_del: (sc.o_del + sc.e_del) & mask,
            e_del: sc.e_del & mask,
            oe_ins: (sc.o_ins + sc.e_ins) & mask,
            e_ins: sc.e_ins & mask,
            minsc: threshold(XSUBO),
            endsc: threshold(XSTOP),
            h0: zero.clone(),
            h1: zero.clone(),
            e: zero.clone(),
            hmax: zero,
        }
    }

    /// H(i-1, j-1) + S(i, j), saturating as the vector instructions do.
    #[inline(always)]
    fn add(&self, h: i32, s: i32) -> i32 {
        if self.byte {
            sub((h + s).min(255), self.q.bias)
        } else {
            (h + s).clamp(-32768, 32767)
        }
    }

    /// The core loop over the target's rows, then the query end and second best.
    fn run(mut self, target: &[u8]) -> Pass {
        let (mut gmax, mut te) = (0, -1);
        let mut subopt: Vec<(i32, i32)> = Vec::new();
        for (i, &t) in target.iter().enumerate() {
            let i = i as i32;
            let q = self.q;
            let imax = self.row(q.of(t));
            if imax >= self.minsc {
                remember(&mut subopt, imax, i);
            }
            if imax > gmax {
                (gmax, te) = (imax, i);
                self.hmax.clone_from(&self.h1);
                if (self.byte && gmax + self.q.bias >= 255) || gmax >= self.endsc {
                    break;
                }
            }
            std::mem::swap(&mut self.h0, &mut self.h1);
        }
        self.finish(gmax, te, &subopt)
    }

    /// One row: the striped pass, then the lazy-F loop; returns the row's maximum as
    /// the first pass saw it.
    fn row(&mut self, prof: &[i32]) -> i32 {
        let mut h = self.h0.last().map_or([0; P], |&v| shift_up(v));
        let (mut f, mut max) = ([0; P], [0; P]);
        for j in 0..self.q.segments {
            let s = &prof[j * P..][..P];
            for l in 0..P {
                let e = self.e[j][l];
                let hv = self.add(h[l], s[l]).max(e).max(f[l]);
                max[l] = max[l].max(hv);
                self.h1[j][l] = hv;
                self.e[j][l] = sub(e, self.e_del).max(sub(hv, self.oe_del));
                f[l] = sub(f[l], self.e_ins).max(sub(hv, self.oe_ins));
            }
            h = self.h0[j];
        }
        self.lazy_f(f);
        max.into_iter().max().unwrap_or(0)
    }

    /// Farrar's lazy-F loop as bwa runs it: at most 16 rounds, H raised by F but E left
    /// as the first pass set it; stops once no lane's F could raise H any more.
    fn lazy_f(&mut self, mut f: Vector<P>) {
        for _ in 0..16 {
            f = shift_up(f);
            for hv in self.h1.iter_mut() {
                let mut done = true;
                for (h, f) in hv.iter_mut().zip(f.iter_mut()) {
                    *h = (*h).max(*f);
                    *f = sub(*f, self.e_ins);
                    done &= *f <= sub(*h, self.oe_ins);
                }
                if done {
                    return;
                }
            }
        }
    }

    /// The result: the byte version's 255 on saturation (no query end then), else the
    /// query end from the best row and the second best away from `te`.
    fn finish(&self, gmax: i32, te: i32, subopt: &[(i32, i32)]) -> Pass {
        let saturated = self.byte && gmax + self.q.bias >= 255;
        let score = if saturated { 255 } else { gmax };
        let mut r = Pass {
            score,
            te,
            qe: -1,
            score2: -1,
            te2: -1,
        };
        if saturated {
            return r;
        }
        r.qe = self.query_end();
        if !subopt.is_empty() {
            let d = (r.score + self.q.max - 1) / self.q.max;
            for &(s, e) in subopt {
                if (e < te - d || e > te + d) && s > r.score2 {
                    (r.score2, r.te2) = (s, e);
                }
            }
        }
        r
    }

    /// The query position of the best cell of the best row; the lowest on ties.
    fn query_end(&self) -> i32 {
        let (mut max, mut qe) = (-1, -1);
        for (j, v) in self.hmax.iter().enumerate() {
            for (l, &h) in v.iter().enumerate() {
                let pos = (j + l * self.q.segments) as i32;
                if h > max || (h == max && pos < qe) {
                    (max, qe) = (h, pos);
                }
            }
        }
        qe
    }
}

/// Keeps a row maximum for the second best: a new entry unless the row follows the
/// last one kept, which it then replaces if higher.
fn remember(subopt: &mut Vec<(i32, i32)>, imax: i32, i: i32) {
    match subopt.last_mut() {
        Some(last) if last.1 + 1 == i => {
            if last.0 < imax {
                *last = (imax, i);
            }
        }
        _ => subopt.push((imax, i)),
    }
}
