//! A probability distribution over whole numbers, and the exact operations the odds are built
//! from: shifts, mixtures, convolutions (direct for small supports, by FFT for large ones) and
//! n-fold powers.

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
        if n == 0 {
            return Ok(Dist::point(0));
        }
        if n == 1 || self.p.len() <= 1 {
            let mut d = self.clone();
            d.min *= i64::from(n);
            d.capped = power_capped(self.mass(), self.capped, n);
            return Ok(d);
        }
        let width = (self.p.len() - 1) * n as usize + 1;
        check_span(0, width as i64 - 1)?;
        if width * self.p.len() <= DIRECT_LIMIT * 4 {
            // Square and multiply: log n convolutions, each direct or by FFT.
            let mut acc: Option<Dist> = None;
            let mut base = self.clone();
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
            return Ok(acc.unwrap_or_else(|| Dist::point(0)));
        }
        // One forward FFT, the n-th power of each coefficient, one inverse FFT, over a window
        // that holds all but 1e-18 of the mass (Chernoff bound): values outside it would only
        // alias that much onto the ones shown.
        let len = self.p.len();
        let (t_lo, t_hi) = tails(self, n, TAIL_EPS);
        let centre = f64::from(n) * (self.mean() - self.min as f64);
        let start = ((centre - t_lo).floor().max(0.0)) as usize;
        let end = ((centre + t_hi).ceil().max(0.0) as usize).min(width - 1);
        let (start, end) = if start > end { (0, width - 1) } else { (start, end) };
        let mut size = (end - start + 1).max(len).next_power_of_two().max(2);
        if size >= width.next_power_of_two() {
            size = width.next_power_of_two().max(2);
        }
        let (start, end) = if size >= width {
            (0, width - 1)
        } else {
            (start, end.min(start + size - 1))
        };
        let mut spectrum = forward(&self.p, size);
        for c in &mut spectrum {
            *c = c.powu(n);
        }
        let circular = inverse(spectrum, size);
        let mut p: Vec<f64> = (start..=end).map(|o| circular[o % size]).collect();
        denoise(&mut p, self.mass().powi(n as i32));
        let capped = power_capped(self.mass(), self.capped, n);
        Ok(Dist {
            min: self.min * i64::from(n) + start as i64,
            p,
            capped,
        }
        .trimmed())
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
        let mut out: Vec<(i64, f64)> = Vec::with_capacity(pairs);
        for (a, pa) in self.iter() {
            for (b, pb) in other.iter() {
                out.push((f(a, b)?, pa * pb));
            }
        }
        let (ma, mb) = (self.mass(), other.mass());
        let mut d = Dist::from_pairs(&out)?;
        d.capped = both_capped(ma, self.capped, mb, other.capped);
        Ok(d)
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

/// Mass left outside the window of an n-fold power computed by FFT.
const TAIL_EPS: f64 = 1e-18;

fn planner() -> &'static Mutex<RealFftPlanner<f64>> {
    static PLANNER: OnceLock<Mutex<RealFftPlanner<f64>>> = OnceLock::new();
    PLANNER.get_or_init(|| Mutex::new(RealFftPlanner::new()))
}

/// The spectrum of `a` zero-padded to `size` (even): `size / 2 + 1` bins.
fn forward(a: &[f64], size: usize) -> Vec<Complex<f64>> {
    let plan = match planner().lock() {
        Ok(mut p) => p.plan_fft_forward(size),
        Err(poisoned) => poisoned.into_inner().plan_fft_forward(size),
    };
    let mut input = vec![0.0; size];
    input[..a.len()].copy_from_slice(a);
    let mut out = plan.make_output_vec();
    // Lengths come from the plan itself, so this cannot fail.
    let _ = plan.process(&mut input, &mut out);
    out
}

/// The real sequence of a spectrum from [`forward`], divided by `size`.
fn inverse(mut spectrum: Vec<Complex<f64>>, size: usize) -> Vec<f64> {
    let plan = match planner().lock() {
        Ok(mut p) => p.plan_fft_inverse(size),
        Err(poisoned) => poisoned.into_inner().plan_fft_inverse(size),
    };
    // A real signal's first and last bins are real; rounding may leave a trace of imaginary part.
    if let Some(c) = spectrum.first_mut() {
        c.im = 0.0;
    }
    if let Some(c) = spectrum.last_mut() {
        c.im = 0.0;
    }
    let mut out = plan.make_output_vec();
    let _ = plan.process(&mut spectrum, &mut out);
    let scale = 1.0 / size as f64;
    for x in &mut out {
        *x *= scale;
    }
    out
}

/// How far below and above `n` times the mean the n-fold sum reaches, but for `eps` of the
/// mass on each side: the best Chernoff bound over a grid of exponents.
fn tails(d: &Dist, n: u32, eps: f64) -> (f64, f64) {
    let mu = d.mean();
    let sd = d.std_dev().max(1e-9);
    let n = f64::from(n);
    let ln_eps = eps.ln();
    let bound = |sign: f64| -> f64 {
        let mut best = f64::INFINITY;
        for k in 0..32 {
            let lambda = 2f64.powf((k as f64 - 12.0) / 2.0) / sd;
            // ln E exp(λ·sign·(X − μ)), by log-sum-exp.
            let terms: Vec<(f64, f64)> = d
                .iter()
                .map(|(v, q)| (lambda * sign * (v as f64 - mu), q))
                .collect();
            let top = terms.iter().map(|t| t.0).fold(f64::MIN, f64::max);
            let m = d.mass();
            let ln_m = top + (terms.iter().map(|(x, q)| q * (x - top).exp()).sum::<f64>() / m).ln();
            let t = (n * ln_m - ln_eps) / lambda;
            if t.is_finite() && t < best {
                best = t;
            }
        }
        best
    };
    (bound(-1.0), bound(1.0))
}

fn fft_convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let width = a.len() + b.len() - 1;
    let size = width.next_power_of_two().max(2);
    let fa = forward(a, size);
    let fb = forward(b, size);
    let prod: Vec<Complex<f64>> = fa.iter().zip(&fb).map(|(x, y)| x * y).collect();
    let mut out = inverse(prod, size);
    out.truncate(width);
    let mass = a.iter().sum::<f64>() * b.iter().sum::<f64>();
    denoise(&mut out, mass);
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
}
