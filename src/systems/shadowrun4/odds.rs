//! Shadowrun 4 odds: hits, net hits, success, glitch and critical glitch of a pool, with Edge
//! pushed before the roll (the rule of six, capped like the roller at
//! [`MAX_EXPLODED_DICE`](crate::systems::shadowrun4::dice::MAX_EXPLODED_DICE)) and against an
//! opposing pool. Rules as in `systems::shadowrun4::dice`: a hit on 5–6; a glitch when the 1s of
//! the dice first rolled are at least half of every die rolled (explosions included); a critical
//! glitch when that comes with no hit.

use crate::odds::dist::Dist;
use crate::odds::error::OddsError;
use crate::systems::shadowrun4::dice::{MAX_EXPLODED_DICE, check_edge, check_pool};
use crate::systems::shadowrun4::test_kinds::check_threshold;

/// A pool to describe: the same numbers as a success or opposed test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sr4Request {
    /// Dice in the pool (1..=100).
    pub pool: u32,
    /// Hits needed, for a success test.
    pub threshold: Option<u32>,
    /// Edge pushed before the roll: Edge dice added, sixes explode on every die.
    pub edge: Option<u32>,
    /// The opposing pool of an opposed test (no Edge); ties go to the defender.
    pub opposed: Option<u32>,
}

/// One way of rolling the pool.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolOdds {
    /// Dice rolled at first (pool, or pool + Edge).
    pub dice: u32,
    pub rule_of_six: bool,
    /// Hits → probability.
    pub hits: Dist,
    /// Net hits: hits − threshold, or hits − the opponent's hits; `None` with neither.
    pub net: Option<Dist>,
    /// The chance of success: hits ≥ threshold, or more hits than the opponent.
    pub success: Option<f64>,
    /// A glitch of either kind (critical included).
    pub glitch: f64,
    pub critical_glitch: f64,
    /// The chance the explosions reach the roller's cap (left out of `hits`; far below 1e-100
    /// for any legal pool).
    pub capped: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Sr4Odds {
    pub request: Sr4Request,
    /// The pool rolled plainly.
    pub plain: PoolOdds,
    /// The pool with Edge pushed, when Edge was given.
    pub with_edge: Option<PoolOdds>,
    /// The opponent's hits, for an opposed test.
    pub opponent_hits: Option<Dist>,
}

/// The odds of a Shadowrun 4 test. Pools and Edge are checked as the resolvers check them.
pub fn shadowrun4_odds(req: &Sr4Request) -> Result<Sr4Odds, OddsError> {
    let pool = check_pool(i64::from(req.pool))?;
    check_threshold(req.threshold)?;
    if req.threshold.is_some() && req.opposed.is_some() {
        return Err(OddsError::OpposedWithThreshold);
    }
    let edge = match req.edge {
        Some(e) => {
            check_edge(e)?;
            Some(check_pool(i64::from(pool) + i64::from(e))?)
        }
        None => None,
    };
    let opponent_hits = match req.opposed {
        Some(o) => Some(plain_hits(check_pool(i64::from(o))?)?),
        None => None,
    };
    let describe = |dice: u32, six: bool| -> Result<PoolOdds, OddsError> {
        let (hits, glitch, critical_glitch, capped) = if six {
            exploding(dice)?
        } else {
            (plain_hits(dice)?, glitch_plain(dice), critical(dice), 0.0)
        };
        let (net, success) = match (req.threshold, &opponent_hits) {
            (Some(t), _) => {
                let net = hits.clone().shifted(-i64::from(t));
                let s = net.chance(|v| v >= 0);
                (Some(net), Some(s))
            }
            (None, Some(o)) => {
                let net = hits.convolve(&o.clone().negated())?;
                let s = net.chance(|v| v > 0);
                (Some(net), Some(s))
            }
            (None, None) => (None, None),
        };
        Ok(PoolOdds {
            dice,
            rule_of_six: six,
            hits,
            net,
            success,
            glitch,
            critical_glitch,
            capped,
        })
    };
    Ok(Sr4Odds {
        request: *req,
        plain: describe(pool, false)?,
        with_edge: edge.map(|d| describe(d, true)).transpose()?,
        opponent_hits,
    })
}

/// The hits of `dice` dice rolled at once, with or without the rule of six (the luck of a logged
/// pool: [`super::luck`]).
pub fn pool_hits(dice: u32, rule_of_six: bool) -> Result<Dist, OddsError> {
    let dice = check_pool(i64::from(dice))?;
    if rule_of_six {
        Ok(exploding(dice)?.0)
    } else {
        plain_hits(dice)
    }
}

fn ln_factorials(n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n + 1];
    for k in 1..=n {
        v[k] = v[k - 1] + (k as f64).ln();
    }
    v
}

/// `P(Bin(n, p) = k)` for `k = 0..=n`.
fn binomial(n: u32, p: f64) -> Result<Dist, OddsError> {
    let lnf = ln_factorials(n as usize);
    let n = n as usize;
    let pairs: Vec<(i64, f64)> = (0..=n)
        .map(|k| {
            let l = lnf[n] - lnf[k] - lnf[n - k] + k as f64 * p.ln() + (n - k) as f64 * (1.0 - p).ln();
            (k as i64, l.exp())
        })
        .collect();
    Dist::from_pairs(&pairs)
}

/// Hits of `n` dice without the rule of six: `Bin(n, 1/3)`.
fn plain_hits(n: u32) -> Result<Dist, OddsError> {
    binomial(n, 1.0 / 3.0)
}

/// `P(ones · 2 >= n)` with `ones ~ Bin(n, 1/6)`.
fn glitch_plain(n: u32) -> f64 {
    let lnf = ln_factorials(n as usize);
    let nn = n as usize;
    (0..=nn)
        .filter(|&o| 2 * o >= nn)
        .map(|o| {
            (lnf[nn] - lnf[o] - lnf[nn - o]
                + o as f64 * (1.0f64 / 6.0).ln()
                + (nn - o) as f64 * (5.0f64 / 6.0).ln())
            .exp()
        })
        .sum()
}

/// A critical glitch: at least half 1s and no 5 or 6 anywhere (so nothing explodes either).
fn critical(n: u32) -> f64 {
    let lnf = ln_factorials(n as usize);
    let nn = n as usize;
    (0..=nn)
        .filter(|&o| 2 * o >= nn)
        .map(|o| {
            (lnf[nn] - lnf[o] - lnf[nn - o] + o as f64 * (1.0f64 / 6.0).ln() + (nn - o) as f64 * 0.5f64.ln())
                .exp()
        })
        .sum()
}

/// `P(K = k)` for `k = 0..=kmax`, `K` the sixes rolled in `s` explosion chains before each
/// ends: negative binomial (`s` stops, each die a six with chance 1/6).
fn chain_sixes(s: usize, kmax: usize, lnf: &[f64]) -> Vec<f64> {
    if s == 0 {
        let mut v = vec![0.0; kmax + 1];
        v[0] = 1.0;
        return v;
    }
    (0..=kmax)
        .map(|k| {
            let l = lnf[k + s - 1] - lnf[k] - lnf[s - 1]
                + k as f64 * (1.0f64 / 6.0).ln()
                + s as f64 * (5.0f64 / 6.0).ln();
            l.exp()
        })
        .collect()
}

/// The rule of six on `n` dice: hits, glitch, critical glitch and the capped mass.
///
/// With `s` sixes among the dice first rolled, the chains add `A = s + K` dice, `K` the sixes
/// among them; every die that is not a six (first rolled or ending a chain) is a 5 with chance
/// 1/5. So hits = `s + K + Bin(n, 1/5)`, and the glitch needs `2 · ones >= n + A`.
fn exploding(n: u32) -> Result<(Dist, f64, f64, f64), OddsError> {
    let nn = n as usize;
    let cap = MAX_EXPLODED_DICE as usize;
    let lnf = ln_factorials(nn + cap + 1);
    let p_six = binomial(n, 1.0 / 6.0)?;
    // `s + K` over every s, with A = s + K within the cap.
    let mut sixes = Dist::zero();
    let mut kept = 0.0;
    let mut glitch = 0.0;
    let ln6 = (1.0f64 / 6.0).ln();
    let ln46 = (4.0f64 / 6.0).ln();
    for s in 0..=nn.min(cap) {
        let ps = p_six.prob(s as i64);
        if ps == 0.0 {
            continue;
        }
        let k = chain_sixes(s, cap - s, &lnf);
        // Hits from sixes: the s first sixes and K chained ones (A = s + K extra dice).
        let pairs: Vec<(i64, f64)> = k.iter().enumerate().map(|(i, &q)| ((s + i) as i64, q)).collect();
        let d = Dist::from_pairs(&pairs)?;
        kept += ps * d.mass();
        sixes.add_scaled(&d, 0, ps)?;
        // Glitch: o ones among the n − s dice that are not sixes (each a 1 with chance 1/5),
        // and A = s + K <= 2o − n.
        let cdf: Vec<f64> = k
            .iter()
            .scan(0.0, |acc, q| {
                *acc += q;
                Some(*acc)
            })
            .collect();
        for o in 0..=(nn - s) {
            let a_max = (2 * o) as i64 - nn as i64 - s as i64;
            if a_max < 0 {
                continue;
            }
            // P(o ones, s sixes, the rest 2–5) = n!/(o! s! r!) (1/6)^(o+s) (4/6)^r.
            let r = nn - s - o;
            let l = lnf[nn] - lnf[o] - lnf[s] - lnf[r] + (o + s) as f64 * ln6 + r as f64 * ln46;
            let within = cdf[(a_max as usize).min(cdf.len() - 1)];
            glitch += l.exp() * within;
        }
    }
    let fives = binomial(n, 1.0 / 5.0)?;
    let hits = sixes.convolve(&fives)?;
    let capped = (1.0 - kept).max(0.0);
    Ok((hits, glitch, critical(n), capped))
}

/// A typical request's net hits (12 dice, threshold 3, Edge 2): the registry's
/// [`SystemRules::typical_odds`](crate::systems::rules::SystemRules::typical_odds).
pub fn typical() -> Result<Dist, OddsError> {
    let o = shadowrun4_odds(&Sr4Request {
        pool: 12,
        threshold: Some(3),
        edge: Some(2),
        opposed: None,
    })?;
    Ok(o.plain.net.unwrap_or(o.plain.hits))
}

/// The system's refusals reach `/odds` as they are (the odds module names no system).
impl From<crate::systems::shadowrun4::RuleError> for OddsError {
    fn from(e: crate::systems::shadowrun4::RuleError) -> Self {
        OddsError::rule(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_adds_hits_and_explosions_keep_the_mass() {
        let o = shadowrun4_odds(&Sr4Request {
            pool: 6,
            threshold: Some(2),
            edge: Some(3),
            opposed: None,
        })
        .unwrap();
        let e = o.with_edge.unwrap();
        assert!((e.hits.mass() - 1.0).abs() < 1e-12);
        // Each die with the rule of six averages 1/3 · 6/5 = 0.4 hits.
        assert!((e.hits.mean() - 9.0 * 0.4).abs() < 1e-9, "{}", e.hits.mean());
        assert!(e.success.unwrap() > o.plain.success.unwrap());
        assert!(e.glitch < o.plain.glitch);
    }

    #[test]
    fn opposed_and_threshold_together_are_refused() {
        let r = Sr4Request {
            pool: 6,
            threshold: Some(2),
            edge: None,
            opposed: Some(4),
        };
        assert_eq!(shadowrun4_odds(&r), Err(OddsError::OpposedWithThreshold));
    }

    // Moved with the odds from the odds module's tests: closed forms, seeded rolls, enumeration.
    use crate::dice::SeededRoller;

    /// Seeded rolls: the sample mean within 4 standard errors of the exact one.
    const ROLLS: usize = 100_000;

    fn choose(n: u64, k: u64) -> u128 {
        (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
    }

    #[test]
    fn sr4_pool_12_threshold_3_by_closed_form() {
        let o = shadowrun4_odds(&Sr4Request {
            pool: 12,
            threshold: Some(3),
            edge: None,
            opposed: None,
        })
        .unwrap();
        // Success: P(Bin(12, 1/3) >= 3) = 1 − Σ_{k<3} C(12,k) 2^(12−k) / 3^12.
        let miss: u128 = (0..3).map(|k| choose(12, k) * 2u128.pow(12 - k as u32)).sum();
        let success = 1.0 - miss as f64 / 3f64.powi(12);
        assert!((o.plain.success.unwrap() - success).abs() < 1e-12);
        // Glitch: six or more 1s of 12: Σ_{o>=6} C(12,o) 5^(12−o) / 6^12.
        let g: u128 = (6..=12).map(|k| choose(12, k) * 5u128.pow(12 - k as u32)).sum();
        assert!((o.plain.glitch - g as f64 / 6f64.powi(12)).abs() < 1e-15);
        // Critical: six or more 1s and the rest 2–4: Σ C(12,o) 3^(12−o) / 6^12.
        let c: u128 = (6..=12).map(|k| choose(12, k) * 3u128.pow(12 - k as u32)).sum();
        assert!((o.plain.critical_glitch - c as f64 / 6f64.powi(12)).abs() < 1e-15);
        // The net-hit distribution is the hit distribution shifted by the threshold.
        assert!((o.plain.net.as_ref().unwrap().prob(0) - o.plain.hits.prob(3)).abs() < 1e-15);
    }

    #[test]
    fn sr4_opposed_is_net_hits_against_a_pool() {
        let o = shadowrun4_odds(&Sr4Request {
            pool: 1,
            threshold: None,
            edge: None,
            opposed: Some(1),
        })
        .unwrap();
        // One die each: the actor wins only with a hit against a miss: 1/3 · 2/3.
        assert!((o.plain.success.unwrap() - 2.0 / 9.0).abs() < 1e-15);
    }

    #[test]
    fn sr4_rule_of_six_agrees_with_the_engine_roller() {
        use crate::systems::shadowrun4::{Glitch, dice::roll_pool};
        let o = shadowrun4_odds(&Sr4Request {
            pool: 4,
            threshold: Some(2),
            edge: Some(2),
            opposed: None,
        })
        .unwrap();
        let e = o.with_edge.unwrap();
        let mut r = SeededRoller::from_seed(16);
        let (mut sum, mut glitches, mut success) = (0.0, 0usize, 0usize);
        for _ in 0..ROLLS {
            let roll = roll_pool(6, true, &mut r).unwrap();
            sum += f64::from(roll.hits);
            glitches += usize::from(roll.glitch != Glitch::None);
            success += usize::from(roll.hits >= 2);
        }
        let n = ROLLS as f64;
        let se = e.hits.std_dev() / n.sqrt();
        assert!((sum / n - e.hits.mean()).abs() < 4.0 * se);
        for (count, p) in [(glitches, e.glitch), (success, e.success.unwrap())] {
            let f = count as f64 / n;
            assert!((f - p).abs() < 4.0 * (p * (1.0 - p) / n).sqrt(), "{f} vs {p}");
        }
    }

    #[test]
    fn sr4_glitch_with_explosions_by_enumeration() {
        use crate::systems::shadowrun4::dice::glitch_of;
        // Two dice with the rule of six, enumerated to 12 dice deep (what is left is below 6^-10).
        let o = shadowrun4_odds(&Sr4Request {
            pool: 1,
            threshold: None,
            edge: Some(1),
            opposed: None,
        })
        .unwrap();
        let e = o.with_edge.unwrap();
        // Enumerate: each die 1..6; a 6 adds a die. Track ones of first dice, all dice, hits.
        fn walk(first: u32, extra: u32, w: f64, ones: u32, dice: u32, hits: u32, acc: &mut f64) {
            if first == 0 && extra == 0 {
                if glitch_of(ones, dice, hits) != crate::systems::shadowrun4::Glitch::None {
                    *acc += w;
                }
                return;
            }
            if dice > 12 {
                return;
            }
            for f in 1..=6u32 {
                let six = u32::from(f == 6);
                let hit = hits + u32::from(f >= 5);
                if first > 0 {
                    let o = ones + u32::from(f == 1);
                    walk(first - 1, extra + six, w / 6.0, o, dice + 1, hit, acc);
                } else {
                    walk(0, extra - 1 + six, w / 6.0, ones, dice + 1, hit, acc);
                }
            }
        }
        let mut g = 0.0;
        walk(2, 0, 1.0, 0, 0, 0, &mut g);
        assert!((e.glitch - g).abs() < 1e-8, "{} vs {g}", e.glitch);
    }
}
