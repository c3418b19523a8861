//! Keep/drop (and advantage): the sum of the dice at sorted positions `lo..hi` of `n`
//! independent dice, by dynamic programming over the faces.
//!
//! Faces are visited in order (lowest first, or highest first when fewer states are needed that
//! way). A state is how many dice have shown the faces visited so far; each of the other dice
//! shows the next face with the conditional chance `π(f) / P(face ≥ f)`, so the number showing it
//! is binomial. The dice at positions `lo..hi` add their worth; once `hi` dice are placed the sum
//! is final. Ties need no rule: equal faces are worth the same.

use super::dist::Dist;
use super::error::OddsError;
use super::faces::Faces;

/// Work units (states × transitions × support) one keep/drop may cost; past this the roll is
/// refused before the work starts. Measured: the largest accepted (`45d45k22`, `200d6k100`) run in
/// about 2 ms (`cargo bench -p saikoro --bench odds`).
pub const KEEP_BUDGET: u64 = 8_000_000;

/// `ln k!` for `k = 0..=n`.
pub(crate) fn ln_factorials(n: usize) -> Vec<f64> {
    let mut v = Vec::with_capacity(n + 1);
    let mut acc = 0.0;
    v.push(0.0);
    for k in 1..=n {
        acc += (k as f64).ln();
        v.push(acc);
    }
    v
}

/// `P(Bin(m, q) = t)`.
pub(crate) fn binomial_term(m: usize, t: usize, q: f64, lnf: &[f64]) -> f64 {
    if q >= 1.0 {
        return if t == m { 1.0 } else { 0.0 };
    }
    let (lq, lr) = (q.ln(), (1.0 - q).ln());
    (lnf[m] - lnf[t] - lnf[m - t] + t as f64 * lq + (m - t) as f64 * lr).exp()
}

/// Estimated work for [`keep`]; compare with [`KEEP_BUDGET`] before calling it.
pub fn keep_cost(faces: &Faces, n: u32, lo: u32, hi: u32) -> u64 {
    let (n, lo, hi) = (u64::from(n), u64::from(lo), u64::from(hi));
    let states = hi.min(n - lo);
    let kept = hi - lo;
    let width = faces
        .per_face
        .iter()
        .map(|&(s, b)| (s, s + faces.bases[b].max() - faces.bases[b].min()))
        .fold((i64::MAX, i64::MIN), |(a, z), (l, h)| (a.min(l), z.max(h)));
    let span = (width.1 - width.0).max(0) as u64;
    u64::from(faces.sides)
        .saturating_mul(states)
        .saturating_mul(states + 1)
        .saturating_mul(kept.saturating_mul(span) + 1)
        / 4
}

/// The distribution of the worth of the dice at sorted positions `lo..hi` (ascending) among
/// `n` dice whose first faces have chances `pi` (index `f - 1`) and whose worth per face is
/// `faces`. `capped` of the result comes from the kept dice's worth only.
pub fn keep(faces: &Faces, pi: &[f64], n: u32, lo: u32, hi: u32) -> Result<Dist, OddsError> {
    // Keeping none (BCDice's `KH0`, dropping every die) is always 0.
    if hi <= lo {
        return Ok(Dist::point(0));
    }
    let sides = faces.sides as usize;
    let (n, lo, hi) = (n as usize, lo as usize, hi as usize);
    // Visit faces so that fewer dice must be placed before the kept ones are all known.
    let descending = n - lo < hi;
    let order: Vec<usize> = if descending {
        (0..sides).rev().collect()
    } else {
        (0..sides).collect()
    };
    let (klo, khi) = if descending { (n - hi, n - lo) } else { (lo, hi) };
    let lnf = ln_factorials(n);
    // The chance left for the faces not yet visited, for conditioning.
    let mut rest: f64 = pi.iter().sum();
    let mut states: Vec<Option<Dist>> = vec![None; khi];
    states[0] = Some(Dist::point(0));
    let mut done = Dist::zero();
    // Powers of each face's worth, by count kept.
    let mut powers: Vec<Vec<Dist>> = vec![Vec::new(); sides];
    for (step, &fi) in order.iter().enumerate() {
        let last = step + 1 == sides;
        let q = if last || rest <= 0.0 {
            1.0
        } else {
            (pi[fi] / rest).clamp(0.0, 1.0)
        };
        rest -= pi[fi];
        if q == 0.0 {
            continue;
        }
        let mut next: Vec<Option<Dist>> = vec![None; khi];
        for (j, state) in states.iter_mut().enumerate() {
            let Some(cur) = state.take() else {
                continue;
            };
            let left = n - j;
            // Each count that stays below `khi` on its own; every larger count ends the same way.
            let room = (khi - j).min(left + 1);
            let mut below = 0.0;
            for t in 0..=room.min(left) {
                let w = if t < room {
                    let w = binomial_term(left, t, q, &lnf);
                    below += w;
                    w
                } else {
                    (1.0 - below).max(0.0)
                };
                if w == 0.0 {
                    continue;
                }
                let end = j + t;
                // Kept among positions j..end.
                let m = end.min(khi).saturating_sub(j.max(klo));
                let worth = power_of(faces, fi, m, &mut powers)?;
                let target = if end >= khi {
                    &mut done
                } else {
                    next[end].get_or_insert_with(Dist::zero)
                };
                // Plain faces are worth one number: a shift, with no convolution to allocate.
                if let [q] = worth.p[..] {
                    target.add_scaled(&cur, worth.min, w * q)?;
                } else {
                    target.add_scaled(&cur.convolve(worth)?, 0, w)?;
                }
            }
        }
        states = next;
    }
    Ok(done.trimmed())
}

/// The worth of `m` dice that all showed face index `fi`.
fn power_of<'a>(
    faces: &Faces,
    fi: usize,
    m: usize,
    memo: &'a mut [Vec<Dist>],
) -> Result<&'a Dist, OddsError> {
    let cache = &mut memo[fi];
    if cache.is_empty() {
        cache.push(Dist::point(0));
    }
    while cache.len() <= m {
        let one = faces.of(fi as u32 + 1);
        let next = cache[cache.len() - 1].convolve(&one)?;
        cache.push(next);
    }
    Ok(&cache[m])
}
