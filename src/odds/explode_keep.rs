//! Keep/drop over exploding dice (`4d6! k3`, `6d10e k4`), as the roller does it: every extra die
//! of an explosion joins the pool as a die of its own, and keep/drop ranks single faces, so the
//! pool size is random.
//!
//! The pool still has a simple shape. Every die that meets the threshold `t` rolled a uniform
//! face in `t..=sides`; every other die a uniform face in `1..t`. Each original die's chain ends
//! with exactly one low die, unless it stopped at the cap with a high one. So, given `H` high and
//! `L` low dice, the high ones are `H` independent uniform dice above all `L` low ones, and the
//! kept dice are a keep over each part ([`keep`]). The odds are the mixture of these over the
//! exact law of `(H, L)`.

use std::collections::BTreeMap;

use super::dist::Dist;
use super::error::OddsError;
use super::faces::Faces;
use super::keep::{KEEP_BUDGET, keep, keep_cost};
use crate::notation::ast::Keep;
use crate::notation::limits::MAX_CHAIN;

/// Sorted positions `lo..hi` (ascending) that `keep` leaves of `n` dice, as the roller ranks them.
pub(crate) fn positions(keep: Keep, n: u32) -> (u32, u32) {
    match keep {
        Keep::Highest(k) => (n - k.min(n), n),
        Keep::Lowest(k) => (0, k.min(n)),
        Keep::Middle(k) => {
            let k = k.min(n);
            let low = (n - k) / 2;
            (low, low + k)
        }
        Keep::DropLowest(k) => (k.min(n), n),
        Keep::DropHighest(k) => (0, n - k.min(n)),
    }
}

/// A keep over one part of the pool: `(dice, lo, hi)`; `(0, 0, 0)` when it keeps nothing.
type Part = (u32, u32, u32);

fn part(n: u32, lo: u32, hi: u32) -> Part {
    if hi <= lo { (0, 0, 0) } else { (n, lo, hi) }
}

/// One group `count`d`sides` exploding on `at_least` or more (once, or up to the roller's
/// cap when `indefinite`), then kept by `keep`; each face worth `value(face)`.
pub(crate) struct ExplodeKeep {
    low: Option<Faces>,
    high: Faces,
    /// `(low part, high part)` → (chance, chance with a capped chain).
    mixture: BTreeMap<(Part, Part), (f64, f64)>,
}

impl ExplodeKeep {
    /// Checks the cost before anything large is computed.
    pub fn plan(
        count: u32,
        sides: u32,
        at_least: u32,
        indefinite: bool,
        keep: Keep,
        value: impl Fn(u32) -> i64,
    ) -> Result<Self, OddsError> {
        let t = at_least.clamp(1, sides);
        let limit = if indefinite { MAX_CHAIN } else { 1 };
        let s = f64::from(sides);
        let p = f64::from(sides - t + 1) / s;
        // A chain that is not stopped: k high dice then one low die, k in 0..=limit.
        let chain: Vec<f64> = (0..=limit).map(|k| p.powi(k as i32) * (1.0 - p)).collect();
        // A chain stopped with limit + 1 high dice and no low one.
        let stop = p.powi(limit as i32 + 1);
        // Guard the quadratic work below; the parser's worst case keeps this small anyway.
        let n = count as usize;
        let span = n * limit as usize + 1;
        if (n as u64) * (span as u64) * (limit as u64 + 1) > KEEP_BUDGET {
            return Err(OddsError::TooComplex);
        }
        // powers[m][j] = P(m unstopped chains have j high dice in all) · (1 − stop)^m.
        let mut powers: Vec<Vec<f64>> = vec![vec![1.0]];
        for m in 1..=n {
            let prev = &powers[m - 1];
            let mut next = vec![0.0; prev.len() + limit as usize];
            for (j, &a) in prev.iter().enumerate() {
                if a == 0.0 {
                    continue;
                }
                for (k, &b) in chain.iter().enumerate() {
                    next[j + k] += a * b;
                }
            }
            powers.push(next);
        }
        let lnf = ln_factorials(n);
        let mut mixture: BTreeMap<(Part, Part), (f64, f64)> = BTreeMap::new();
        let mut pairs: u64 = 0;
        for stopped in 0..=n {
            let w = binomial_weight(n, stopped, stop, &lnf);
            if w == 0.0 {
                continue;
            }
            let low = (n - stopped) as u32;
            let base = stopped as u32 * (limit + 1);
            for (j, &q) in powers[n - stopped].iter().enumerate() {
                let weight = w * q;
                if weight == 0.0 {
                    continue;
                }
                pairs += 1;
                let high = base + j as u32;
                let (a, b) = positions(keep, low + high);
                let lp = part(low, a.min(low), b.min(low));
                let hp = part(high, a.max(low) - low, b.max(low) - low);
                let e = mixture.entry((lp, hp)).or_insert((0.0, 0.0));
                e.0 += weight;
                // The roller marks a chain stopped at the cap only for indefinite explosions.
                if indefinite && stopped > 0 {
                    e.1 += weight;
                }
            }
        }
        let low = (t > 1).then(|| Faces::plain(t - 1, &value));
        let high = Faces::plain(sides - t + 1, |f| value(f + t - 1));
        let mut cost = pairs.saturating_mul(16);
        let (mut lows, mut highs): (Vec<Part>, Vec<Part>) = mixture.keys().copied().unzip();
        lows.sort_unstable();
        lows.dedup();
        highs.sort_unstable();
        highs.dedup();
        for (faces, parts) in [(low.as_ref(), &lows), (Some(&high), &highs)] {
            for &(n, lo, hi) in parts {
                if let Some(f) = faces.filter(|_| hi > lo) {
                    cost = cost.saturating_add(keep_cost(f, n, lo, hi));
                }
            }
        }
        // Each mixture term convolves its two parts.
        let width = u64::from(count) * u64::from(sides);
        cost = cost.saturating_add((mixture.len() as u64).saturating_mul(width));
        if cost > KEEP_BUDGET {
            return Err(OddsError::TooComplex);
        }
        Ok(ExplodeKeep { low, high, mixture })
    }

    pub fn run(self) -> Result<Dist, OddsError> {
        let mut lows: BTreeMap<Part, Dist> = BTreeMap::new();
        let mut highs: BTreeMap<Part, Dist> = BTreeMap::new();
        let mut out = Dist::zero();
        let mut capped = 0.0;
        for ((lp, hp), (w, c)) in &self.mixture {
            let l = cached(&mut lows, *lp, self.low.as_ref())?;
            let h = cached(&mut highs, *hp, Some(&self.high))?;
            out.add_scaled(&l.convolve(&h)?, 0, *w)?;
            capped += c;
        }
        out.capped = capped;
        Ok(out.trimmed())
    }
}

fn cached(
    memo: &mut BTreeMap<Part, Dist>,
    (n, lo, hi): Part,
    faces: Option<&Faces>,
) -> Result<Dist, OddsError> {
    if let Some(d) = memo.get(&(n, lo, hi)) {
        return Ok(d.clone());
    }
    let d = match faces {
        Some(f) if hi > lo => {
            let pi = vec![1.0 / f64::from(f.sides); f.sides as usize];
            keep(f, &pi, n, lo, hi)?
        }
        _ => Dist::point(0),
    };
    memo.insert((n, lo, hi), d.clone());
    Ok(d)
}

fn ln_factorials(n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n + 1];
    for k in 1..=n {
        v[k] = v[k - 1] + (k as f64).ln();
    }
    v
}

/// `C(n, k) q^k`: the chance that `k` given chains stop, times the ways to pick them (the
/// others' factor is already in the powers).
fn binomial_weight(n: usize, k: usize, q: f64, lnf: &[f64]) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if q <= 0.0 {
        return 0.0;
    }
    (lnf[n] - lnf[k] - lnf[n - k] + k as f64 * q.ln()).exp()
}
