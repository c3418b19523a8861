//! A probability distribution over whole numbers, and the exact operations the odds are built
//! from: shifts, mixtures, convolutions (direct for small supports, by FFT for large ones),
//! n-fold powers and sums of several powers (one FFT for all of them).

use std::cell::RefCell;
use std::sync::{Mutex, OnceLock};

use realfft::RealFftPlanner;
use realfft::num_complex::Complex;

use super::error::OddsError;

/// Widest support (largest − smallest value + 1) one distribution may have. 1000d1000 spans
/// 999,001 values; four times that leaves room for arithmetic between groups.
pub const MAX_SPAN: usize = 4_000_000;
/// Products of support sizes up to this are convolved directly (exact sums of products); larger
/// ones go through an FFT.
const DIRECT_LIMIT: usize = 1 << 18;
/// After an FFT, probabilities below this fraction of the largest are rounding noise: set to 0.
const FFT_NOISE: f64 = 1e-13;

/// `P(value = min + i) = p[i]`. The total mass is 1 for a finished distribution; intermediate
/// ones may be parts of a mixture (less than 1). `capped` is the mass of outcomes in which a
/// chain of extra dice stopped at the roller's cap (already included in `p`).
#[derive(Debug, Clone, PartialEq)]
pub struct Dist {
    pub(crate) min: i64,
    pub(crate) p: Vec<f64>,
    pub(crate) capped: f64,
}

impl Dist {
    /// Certainly `v`.
    pub fn point(v: i64) -> Self {
        Dist {
            min: v,
            p: vec![1.0],
            capped: 0.0,
        }
    }

    /// Equally likely `lo..=hi` (`lo <= hi`).
    pub fn uniform(lo: i64, hi: i64) -> Self {
        let n = (hi - lo + 1).max(1) as usize;
        Dist {
            min: lo,
            p: vec![1.0 / n as f64; n],
            capped: 0.0,
        }
    }

    /// From `(value, probability)` pairs (any order, repeats added).
    pub fn from_pairs(pairs: &[(i64, f64)]) -> Result<Self, OddsError> {
        let lo = pairs.iter().map(|x| x.0).min().unwrap_or(0);
        let hi = pairs.iter().map(|x| x.0).max().unwrap_or(0);
        check_span(lo, hi)?;
        let mut p = vec![0.0; (hi - lo + 1) as usize];
        for &(v, q) in pairs {
            p[(v - lo) as usize] += q;
        }
        Ok(Dist {
            min: lo,
            p,
            capped: 0.0,
        }
        .trimmed())
    }

    /// The empty measure (mass 0), the start of a mixture.
    pub(crate) fn zero() -> Self {
        Dist {
            min: 0,
            p: Vec::new(),
            capped: 0.0,
        }
    }

    pub fn min(&self) -> i64 {
        self.min
    }

    pub fn max(&self) -> i64 {
        self.min + self.p.len() as i64 - 1
    }

    /// Probabilities of `min()..=max()`, in order.
    pub fn probabilities(&self) -> &[f64] {
        &self.p
    }

    /// `(value, probability)` for every value with a chance above 0.
    pub fn iter(&self) -> impl Iterator<Item = (i64, f64)> + '_ {
        self.p
            .iter()
            .enumerate()
            .filter(|(_, q)| **q > 0.0)
            .map(|(i, &q)| (self.min + i as i64, q))
    }

    pub fn prob(&self, v: i64) -> f64 {
        usize::try_from(v - self.min)
            .ok()
            .and_then(|i| self.p.get(i))
            .copied()
            .unwrap_or(0.0)
    }

    pub fn mass(&self) -> f64 {
        self.p.iter().sum()
    }

    /// Probability that a chain stopped at the cap (as a fraction of this distribution).
    pub fn capped(&self) -> f64 {
        let m = self.mass();
        if m > 0.0 { self.capped / m } else { 0.0 }
    }

    pub fn mean(&self) -> f64 {
        let m = self.mass();
        let s: f64 = self.iter().map(|(v, q)| v as f64 * q).sum();
        if m > 0.0 { s / m } else { 0.0 }
    }

    pub fn std_dev(&self) -> f64 {
        let mu = self.mean();
        let m = self.mass();
        let s: f64 = self.iter().map(|(v, q)| (v as f64 - mu).powi(2) * q).sum();
        if m > 0.0 { (s / m).sqrt() } else { 0.0 }
    }

    /// The smallest value `v` with `P(X <= v) >= 1/2`.
    pub fn median(&self) -> i64 {
        let half = self.mass() / 2.0;
        let mut acc = 0.0;
        for (i, q) in self.p.iter().enumerate() {
            acc += q;
            // A relative tolerance so 0.5 summed in another order still counts as a half.
            if acc >= half * (1.0 - 1e-12) {
                return self.min + i as i64;
            }
        }
        self.max()
    }

    /// `P(test(value))`.
    pub fn chance(&self, test: impl Fn(i64) -> bool) -> f64 {
        self.iter().filter(|(v, _)| test(*v)).map(|(_, q)| q).sum()
    }

    /// The most likely value (the smallest, on ties).
    pub fn mode(&self) -> i64 {
        let mut best = (self.min, -1.0);
        for (v, q) in self.iter() {
            if q > best.1 {
                best = (v, q);
            }
        }
        best.0
    }

    pub(crate) fn shifted(mut self, by: i64) -> Self {
        self.min += by;
        self
    }

    /// `-X`.
    pub(crate) fn negated(mut self) -> Self {
        self.min = -self.max();
        self.p.reverse();
        self
    }

    /// Mark all of this measure as capped.
    pub(crate) fn all_capped(mut self) -> Self {
        self.capped = self.mass();
        self
    }

    /// Drop zero probabilities at both ends.
    pub(crate) fn trimmed(mut self) -> Self {
        let Some(first) = self.p.iter().position(|&q| q > 0.0) else {
            return Dist {
                min: 0,
                p: Vec::new(),
                capped: self.capped,
            };
        };
        let last = self.p.iter().rposition(|&q| q > 0.0).unwrap_or(first);
        self.p.truncate(last + 1);
        self.p.drain(..first);
        self.min += first as i64;
        self
    }

    /// What a roll that follows a hit amounts to: 0 on a miss (chance `1 − hit`), else
    /// `given_hit`.
    pub(crate) fn if_hit(hit: f64, given_hit: &Dist) -> Result<Dist, OddsError> {
        let mut out = Dist::zero();
        out.add_scaled(&Dist::point(0), 0, 1.0 - hit)?;
        out.add_scaled(given_hit, 0, hit)?;
        Ok(out.trimmed())
    }

    /// Add `w · (other shifted by `by`)` to this measure.
    pub(crate) fn add_scaled(&mut self, other: &Dist, by: i64, w: f64) -> Result<(), OddsError> {
        if other.p.is_empty() || w == 0.0 {
            return Ok(());
        }
        let omin = other.min + by;
        let omax = other.max() + by;
        if self.p.is_empty() {
            self.min = omin;
        }
        let lo = self.min.min(omin);
        let hi = self.max().max(omax);
        check_span(lo, hi)?;
        if lo < self.min {
            let pad = (self.min - lo) as usize;
            self.p.splice(0..0, std::iter::repeat_n(0.0, pad));
            self.min = lo;
        }
        let len = (hi - lo + 1) as usize;
        if self.p.len() < len {
            self.p.resize(len, 0.0);
        }
        let off = (omin - self.min) as usize;
        for (i, q) in other.p.iter().enumerate() {
            self.p[off + i] += w * q;
        }
        self.capped += w * other.capped;
        Ok(())
    }

    /// The distribution of `X + Y` for independent `X` (self) and `Y`.
    pub fn convolve(&self, other: &Dist) -> Result<Dist, OddsError> {
        if self.p.is_empty() || other.p.is_empty() {
            return Ok(Dist::zero());
        }
        let (ma, mb) = (self.mass(), other.mass());
        let capped = both_capped(ma, self.capped, mb, other.capped);
        let lo = self.min + other.min;
        check_span(lo, self.max() + other.max())?;
        let p = if self.p.len() == 1 || other.p.len() == 1 || self.p.len() * other.p.len() <= DIRECT_LIMIT {
            direct(&self.p, &other.p)
        } else {
            fft_convolve(&self.p, &other.p)
        };
        Ok(Dist { min: lo, p, capped }.trimmed())
    }

    /// The sum of `n` independent copies (`n >= 1`; 0 gives the point 0).
    pub fn power(&self, n: u32) -> Result<Dist, OddsError> {
        sum_of_powers(&[(self, n)])
    }

    /// The distribution of `f(X, Y)` for independent `X`, `Y`, any `f` (pairs enumerated).
    pub(crate) fn combine(
        &self,
        other: &Dist,
        f: impl Fn(i64, i64) -> Result<i64, OddsError>,
    ) -> Result<Dist, OddsError> {
        let pairs = self.p.len().saturating_mul(other.p.len());
        if pairs > MAX_SPAN {
            return Err(OddsError::TooComplex);
        }
        // Two passes (the range, then the chances) rather than a list of every pair.
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for (a, _) in self.iter() {
            for (b, _) in other.iter() {
                let v = f(a, b)?;
                (lo, hi) = (lo.min(v), hi.max(v));
            }
        }
        if lo > hi {
            return Ok(Dist::zero());
        }
        check_span(lo, hi)?;
        let mut p = vec![0.0; (hi - lo + 1) as usize];
        for (a, pa) in self.iter() {
            for (b, pb) in other.iter() {
                p[(f(a, b)? - lo) as usize] += pa * pb;
            }
        }
        let (ma, mb) = (self.mass(), other.mass());
        let capped = both_capped(ma, self.capped, mb, other.capped);
        Ok(Dist { min: lo, p, capped }.trimmed())
    }
}

/// Capped mass of `X + Y` from each side's mass and capped mass: a cap on either side.
/// Written without subtracting near-equal numbers, so tiny capped masses keep their digits.
fn both_capped(ma: f64, ca: f64, mb: f64, cb: f64) -> f64 {
    ca * mb + ma * cb - ca * cb
}

/// Capped mass of `n` independent copies: `m^n (1 − (1 − c/m)^n)`.
fn power_capped(m: f64, c: f64, n: u32) -> f64 {
    if m <= 0.0 || c <= 0.0 {
        return 0.0;
    }
    m.powi(n as i32) * -(f64::from(n) * (-(c / m)).ln_1p()).exp_m1()
}

pub(crate) fn check_span(lo: i64, hi: i64) -> Result<(), OddsError> {
    if hi
        .checked_sub(lo)
        .is_none_or(|w| w < 0 || w as u64 >= MAX_SPAN as u64)
    {
        return Err(OddsError::TooComplex);
    }
    Ok(())
}

fn direct(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        for (o, &y) in out[i..].iter_mut().zip(b) {
            *o += x * y;
        }
    }
    out
}

/// Mass left outside the window of a sum computed by FFT: values outside it would only alias
/// that much onto the ones shown.
const TAIL_EPS: f64 = 1e-18;
/// Spectrum bins whose power falls below this (relative to a total mass of 1) are set to 0
/// without being raised: each output value moves by at most this much.
const SPECTRUM_FLOOR: f64 = 1e-20;
/// The tail bound reads a term's support in at most this many blocks, each block's mass at its
/// far end (a valid Chernoff bound, a block's width looser per copy).
const TAIL_BLOCKS: usize = 512;

/// The distribution of `Σ_i` (the sum of `n_i` independent copies of `d_i`), every copy
/// independent. Small ones are convolved directly (square and multiply); large ones take one
/// forward FFT per term, the product of the spectra raised to their powers and one inverse FFT,
/// over a window that holds all but [`TAIL_EPS`] of the mass (Chernoff bound).
pub(crate) fn sum_of_powers(all: &[(&Dist, u32)]) -> Result<Dist, OddsError> {
    // The same die in several terms (`500d1000+500d1000`) is one power.
    let mut terms: Vec<(&Dist, u32)> = Vec::with_capacity(all.len());
    for &(d, n) in all {
        match terms.iter_mut().find(|(e, _)| *e == d) {
            _ if n == 0 => {}
            Some((_, m)) => *m = m.checked_add(n).ok_or(OddsError::TooComplex)?,
            None => terms.push((d, n)),
        }
    }
    if terms.iter().any(|(d, _)| d.p.is_empty()) {
        return Ok(Dist::zero());
    }
    // Points only shift; everything else is summed.
    let mut shift: i64 = 0;
    let mut mass = 1.0;
    let mut capped = 0.0;
    let mut wide: Vec<(&Dist, u32)> = Vec::with_capacity(all.len());
    for &(d, n) in &terms {
        let (m, c) = (d.mass(), power_capped(d.mass(), d.capped, n));
        let mn = m.powi(n as i32);
        capped = both_capped(mass, capped, mn, c);
        mass *= mn;
        shift = d
            .min
            .checked_mul(i64::from(n))
            .and_then(|v| v.checked_add(shift))
            .ok_or(OddsError::TooComplex)?;
        if d.p.len() > 1 {
            wide.push((d, n));
        }
    }
    let width = wide
        .iter()
        .try_fold(1usize, |w, (d, n)| {
            (d.p.len() - 1).checked_mul(*n as usize)?.checked_add(w)
        })
        .ok_or(OddsError::TooComplex)?;
    check_span(0, width as i64 - 1)?;
    let longest = wide.iter().map(|(d, _)| d.p.len()).max().unwrap_or(1);
    if wide.is_empty() {
        return Ok(Dist {
            min: shift,
            p: vec![mass],
            capped,
        });
    }
    if let [(d, 1)] = terms.as_slice() {
        return Ok((*d).clone());
    }
    if width.saturating_mul(longest) > DIRECT_LIMIT * 4 {
        return spectral(&wide, width, shift, mass, capped);
    }
    // Square and multiply: log n convolutions per term, each direct or by FFT.
    let mut acc = Dist::point(0);
    for &(d, n) in &terms {
        acc = acc.convolve(&small_power(d, n)?)?;
    }
    Ok(acc)
}

/// `d` convolved with itself `n` times (`n >= 1`), by squaring.
fn small_power(d: &Dist, n: u32) -> Result<Dist, OddsError> {
    if n == 1 || d.p.len() <= 1 {
        let mut one = d.clone();
        one.min *= i64::from(n);
        one.p[0] = d.p[0].powi(n as i32);
        one.capped = power_capped(d.mass(), d.capped, n);
        return Ok(one);
    }
    let mut acc: Option<Dist> = None;
    let mut base = d.clone();
    let mut k = n;
    loop {
        if k & 1 == 1 {
            acc = Some(match acc {
                None => base.clone(),
                Some(a) => a.convolve(&base)?,
            });
        }
        k >>= 1;
        if k == 0 {
            break;
        }
        base = base.convolve(&base)?;
    }
    Ok(acc.unwrap_or_else(|| Dist::point(0)))
}

/// The large case of [`sum_of_powers`]: `wide` holds the terms of more than one value, `width`
/// the support of their sum, which starts at `shift`.
fn spectral(
    wide: &[(&Dist, u32)],
    width: usize,
    shift: i64,
    mass: f64,
    capped: f64,
) -> Result<Dist, OddsError> {
    let (t_lo, t_hi) = tails(wide, TAIL_EPS);
    let centre: f64 = wide
        .iter()
        .map(|(d, n)| f64::from(*n) * (d.mean() - d.min as f64))
        .sum();
    let start = (centre - t_lo).floor().max(0.0) as usize;
    let end = ((centre + t_hi).ceil().max(0.0) as usize).min(width - 1);
    let (start, end) = if start > end || !t_lo.is_finite() || !t_hi.is_finite() {
        (0, width - 1)
    } else {
        (start, end)
    };
    let size = fft_size(end - start + 1);
    let (start, end) = if size >= width {
        (0, width - 1)
    } else {
        (start, end.min(start + size - 1))
    };
    let inputs: Vec<(&[f64], u32, f64)> = wide.iter().map(|(d, n)| (&d.p[..], *n, d.mass())).collect();
    // Linear positions start..=end are circular positions start % size.. (wrapping once at most).
    let mut p = circular_product(&inputs, size, |circular| {
        let first = start % size;
        let len = end - start + 1;
        let head = (size - first).min(len);
        let mut p = Vec::with_capacity(len);
        p.extend_from_slice(&circular[first..first + head]);
        p.extend_from_slice(&circular[..len - head]);
        p
    });
    denoise(&mut p, mass);
    Ok(Dist {
        min: shift + start as i64,
        p,
        capped,
    }
    .trimmed())
}

/// The smallest FFT length at least `n` that is even and a product of 2, 3 and 5 only (which
/// rustfft transforms as fast as powers of two, and wastes less than rounding up to one).
fn fft_size(n: usize) -> usize {
    let n = n.max(2);
    let mut best = n.next_power_of_two();
    let mut p5 = 1usize;
    while p5 < best {
        let mut p3 = p5;
        while p3 < best {
            // The least power of two (at least 2) that brings p3 to n or more.
            let mut v = p3 * 2;
            while v < n {
                v *= 2;
            }
            best = best.min(v);
            p3 *= 3;
        }
        p5 *= 5;
    }
    best
}

fn planner() -> &'static Mutex<RealFftPlanner<f64>> {
    static PLANNER: OnceLock<Mutex<RealFftPlanner<f64>>> = OnceLock::new();
    PLANNER.get_or_init(|| Mutex::new(RealFftPlanner::new()))
}

/// Buffers the transforms reuse from call to call: large allocations freed and made again on
/// every call cost page faults (the allocator hands them back to the system).
#[derive(Default)]
struct Buffers {
    real: Vec<f64>,
    spectrum: Vec<Complex<f64>>,
    product: Vec<Complex<f64>>,
    scratch: Vec<Complex<f64>>,
}

thread_local! {
    static BUFFERS: RefCell<Buffers> = RefCell::new(Buffers::default());
}

/// The circular convolution over `size` points (even) of every `(p, n, mass)`'s `n`-fold
/// self-convolution, given to `read` (divided by `size`). Each `p` is wrapped around `size`
/// (adding `p[i]` at `i % size` samples the same spectrum as zero-padding a longer sequence);
/// spectrum bins whose `n`-th power falls below [`SPECTRUM_FLOOR`] are set to 0 unraised.
fn circular_product<R>(terms: &[(&[f64], u32, f64)], size: usize, read: impl FnOnce(&[f64]) -> R) -> R {
    let (fwd, inv) = {
        let mut planner = match planner().lock() {
            Ok(p) => p,
            Err(poisoned) => poisoned.into_inner(),
        };
        (planner.plan_fft_forward(size), planner.plan_fft_inverse(size))
    };
    BUFFERS.with_borrow_mut(|b| {
        let bins = size / 2 + 1;
        let scratch = fwd.get_scratch_len().max(inv.get_scratch_len());
        b.scratch.resize(scratch, Complex::default());
        b.product.clear();
        b.product.resize(bins, Complex::new(1.0, 0.0));
        b.spectrum.resize(bins, Complex::default());
        for &(p, n, mass) in terms {
            b.real.clear();
            b.real.resize(size, 0.0);
            for chunk in p.chunks(size) {
                for (x, y) in b.real.iter_mut().zip(chunk) {
                    *x += y;
                }
            }
            // Lengths come from the plans themselves, so this cannot fail.
            let _ = fwd.process_with_scratch(&mut b.real, &mut b.spectrum, &mut b.scratch);
            // |c|^n below the floor: `|c|² < floor^(2/n) · mass²`.
            let floor = (SPECTRUM_FLOOR.ln() * 2.0 / f64::from(n)).exp() * mass * mass;
            for (acc, c) in b.product.iter_mut().zip(&b.spectrum) {
                if acc.re == 0.0 && acc.im == 0.0 {
                    continue;
                }
                *acc = if c.norm_sqr() < floor {
                    Complex::default()
                } else if n == 1 {
                    *acc * c
                } else {
                    *acc * c.powu(n)
                };
            }
        }
        // A real signal's first and last bins are real; rounding may leave a trace of imaginary part.
        if let Some(c) = b.product.first_mut() {
            c.im = 0.0;
        }
        if let Some(c) = b.product.last_mut() {
            c.im = 0.0;
        }
        b.real.resize(size, 0.0);
        let _ = inv.process_with_scratch(&mut b.product, &mut b.real, &mut b.scratch);
        let scale = 1.0 / size as f64;
        for x in &mut b.real {
            *x *= scale;
        }
        read(&b.real)
    })
}

/// How far below and above its mean the sum of `n_i` copies of each `d_i` reaches, but for
/// `eps` of the mass on each side: the Chernoff bound `t(λ) = (Σ n_i K_i(λ) − ln eps) / λ`,
/// minimised over `λ` by golden-section search (`t` falls then rises in `λ`). `K_i` is the
/// centred cumulant generating function, over at most [`TAIL_BLOCKS`] blocks of the support with
/// each block's mass moved to its far end (which only raises `K_i`: the bound stays valid).
fn tails(terms: &[(&Dist, u32)], eps: f64) -> (f64, f64) {
    /// `(far end − mean, mass)` of each block, below and above.
    type Blocks = Vec<(f64, f64)>;
    let mut var = 0.0;
    let prepared: Vec<(f64, Blocks, Blocks)> = terms
        .iter()
        .map(|&(d, n)| {
            let (mu, m) = (d.mean(), d.mass());
            var += f64::from(n) * d.std_dev().powi(2);
            let width = d.p.len().div_ceil(TAIL_BLOCKS).max(1);
            let (mut below, mut above) = (Vec::new(), Vec::new());
            for (b, block) in d.p.chunks(width).enumerate() {
                let mass: f64 = block.iter().sum::<f64>() / m;
                if mass > 0.0 {
                    let first = (d.min + (b * width) as i64) as f64;
                    below.push((first - mu, mass));
                    above.push((first + (block.len() - 1) as f64 - mu, mass));
                }
            }
            (f64::from(n), below, above)
        })
        .collect();
    let sd = var.sqrt().max(1e-9);
    let ln_eps = eps.ln();
    let bound = |sign: f64| -> f64 {
        let t = |ln_lambda: f64| -> f64 {
            let lambda = ln_lambda.exp();
            let ls = lambda * sign;
            let mut k = 0.0;
            for (n, below, above) in &prepared {
                let points = if sign > 0.0 { above } else { below };
                // ln E exp(λ·sign·(X − μ)), by log-sum-exp.
                let top = points.iter().map(|p| ls * p.0).fold(f64::MIN, f64::max);
                let s: f64 = points.iter().map(|&(x, q)| q * (ls * x - top).exp()).sum();
                k += n * (top + s.ln());
            }
            let t = (k - ln_eps) / lambda;
            if t.is_finite() { t } else { f64::INFINITY }
        };
        // λ between 2^-7 and 2^10 standard deviations⁻¹ of the sum.
        let (mut a, mut b) = ((2f64.powi(-7) / sd).ln(), (2f64.powi(10) / sd).ln());
        let g = (5f64.sqrt() - 1.0) / 2.0;
        let (mut x1, mut x2) = (b - g * (b - a), a + g * (b - a));
        let (mut f1, mut f2) = (t(x1), t(x2));
        for _ in 0..18 {
            if f1 <= f2 {
                b = x2;
                (x2, f2) = (x1, f1);
                x1 = b - g * (b - a);
                f1 = t(x1);
            } else {
                a = x1;
                (x1, f1) = (x2, f2);
                x2 = a + g * (b - a);
                f2 = t(x2);
            }
        }
        f1.min(f2)
    };
    (bound(-1.0), bound(1.0))
}

fn fft_convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let width = a.len() + b.len() - 1;
    let size = fft_size(width);
    let (ma, mb) = (a.iter().sum::<f64>(), b.iter().sum::<f64>());
    let mut out = circular_product(&[(a, 1, ma), (b, 1, mb)], size, |c| c[..width].to_vec());
    denoise(&mut out, ma * mb);
    out
}

/// FFT results carry rounding noise around 0: clear it and restore the exact total mass.
fn denoise(p: &mut [f64], mass: f64) {
    let peak = p.iter().copied().fold(0.0, f64::max);
    let floor = peak * FFT_NOISE;
    for q in p.iter_mut() {
        if *q < floor {
            *q = 0.0;
        }
    }
    let total: f64 = p.iter().sum();
    if total > 0.0 {
        let k = mass / total;
        for q in p.iter_mut() {
            *q *= k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn two_d6_by_convolution() {
        let d6 = Dist::uniform(1, 6);
        let two = d6.convolve(&d6).unwrap();
        assert_eq!((two.min(), two.max()), (2, 12));
        assert!(close(two.prob(7), 6.0 / 36.0));
        assert!(close(two.mass(), 1.0));
        assert_eq!(two.median(), 7);
    }

    #[test]
    fn fft_power_agrees_with_direct_power() {
        let d = Dist::uniform(1, 100);
        let direct = d.power(3).unwrap();
        let big = Dist::uniform(1, 1000).power(1000).unwrap();
        assert!(close(direct.mass(), 1.0));
        assert!(close(big.mass(), 1.0));
        assert!((big.mean() - 500_500.0).abs() < 1e-6);
        // 3d100 = 150 is the number of compositions over 100^3.
        let ways: u64 = (1..=100)
            .flat_map(|a| (1..=100).map(move |b| (a, b)))
            .filter(|&(a, b)| (1..=100).contains(&(150 - a - b)))
            .count() as u64;
        assert!(close(direct.prob(150), ways as f64 / 1e6));
    }

    #[test]
    fn windowed_fft_power_agrees_with_repeated_convolution() {
        let d = Dist::uniform(1, 100);
        let fast = d.power(500).unwrap();
        let mut slow = d.power(250).unwrap();
        slow = slow.convolve(&slow).unwrap();
        let worst = (slow.min()..=slow.max())
            .map(|v| (fast.prob(v) - slow.prob(v)).abs())
            .fold(0.0, f64::max);
        assert!(worst < 1e-15, "{worst}");
        assert!((fast.mean() - 25_250.0).abs() < 1e-6);
    }

    #[test]
    fn fft_convolution_agrees_with_direct() {
        let a = Dist::uniform(1, 700).convolve(&Dist::uniform(0, 3)).unwrap();
        let b = Dist::uniform(-5, 900);
        let f = Dist {
            min: a.min + b.min,
            p: fft_convolve(&a.p, &b.p),
            capped: 0.0,
        };
        let d = Dist {
            min: a.min + b.min,
            p: direct(&a.p, &b.p),
            capped: 0.0,
        };
        for (x, y) in f.p.iter().zip(&d.p) {
            assert!((x - y).abs() < 1e-15, "{x} vs {y}");
        }
    }

    /// The exact sum of uniform dice `lo..=hi`, `n` of each kind, one die at a time with a
    /// sliding window over prefix sums (no FFT).
    fn uniform_sums(dice: &[(i64, i64, u32)]) -> Dist {
        let mut d = Dist::point(0);
        for &(lo, hi, n) in dice {
            let s = (hi - lo + 1) as usize;
            for _ in 0..n {
                let mut prefix = vec![0.0; d.p.len() + 1];
                for (i, q) in d.p.iter().enumerate() {
                    prefix[i + 1] = prefix[i] + q;
                }
                let len = d.p.len() + s - 1;
                let p = (0..len)
                    .map(|k| (prefix[(k + 1).min(d.p.len())] - prefix[(k + 1).saturating_sub(s)]) / s as f64)
                    .collect();
                d = Dist {
                    min: d.min + lo,
                    p,
                    capped: 0.0,
                };
            }
        }
        d
    }

    fn worst_gap(a: &Dist, b: &Dist) -> f64 {
        let (lo, hi) = (a.min().min(b.min()), a.max().max(b.max()));
        (lo..=hi)
            .map(|v| (a.prob(v) - b.prob(v)).abs())
            .fold(0.0, f64::max)
    }

    #[test]
    fn one_fft_over_several_terms_agrees_with_the_exact_sum() {
        let (a, b) = (Dist::uniform(1, 1000), Dist::uniform(-999, -1));
        let fast = sum_of_powers(&[(&a, 60), (&b, 40)]).unwrap();
        let exact = uniform_sums(&[(1, 1000, 60), (-999, -1, 40)]);
        let gap = worst_gap(&fast, &exact);
        assert!(gap < 1e-12, "{gap}");
        assert!((fast.mass() - 1.0).abs() < 1e-12);
        // The same die on both sides of a sum is one power.
        let one = sum_of_powers(&[(&a, 500), (&a, 500)]).unwrap();
        let gap = worst_gap(&one, &a.power(1000).unwrap());
        assert!(gap < 1e-15, "{gap}");
    }

    #[test]
    fn sizes_are_even_and_smooth() {
        for n in [1, 2, 3, 7, 1000, 166_001, 999_001] {
            let s = fft_size(n);
            assert!(s >= n && s.is_multiple_of(2), "{n}: {s}");
            let mut r = s;
            for f in [2, 3, 5] {
                while r.is_multiple_of(f) {
                    r /= f;
                }
            }
            assert_eq!(r, 1, "{n}: {s}");
            assert!(s <= n.max(2).next_power_of_two());
        }
        // 166,001 values: a 2-3-5-smooth length close above, not 262,144.
        assert!(fft_size(166_001) < 180_000, "{}", fft_size(166_001));
    }
}
