//! BCDice's `xRy` (reroll chains counting successes), `xUy` (upper rolls), `choice` and tally
//! rolls, following `crate::notation::bcdice` step by step.

use super::dist::Dist;
use super::error::OddsError;
use crate::notation::Target;
use crate::notation::ast::Group;
use crate::notation::limits::MAX_CHAIN;

/// One die of `sides` and the dice it chains: each adds `worth(face)`, and a face where `more`
/// holds rolls one more die, at most [`MAX_CHAIN`] more; a last die that still would is capped.
fn chain(sides: u32, worth: impl Fn(u32) -> i64, more: impl Fn(u32) -> bool) -> Result<Dist, OddsError> {
    let w = 1.0 / f64::from(sides);
    let (mut stop, mut go) = (Dist::zero(), Dist::zero());
    for f in 1..=sides {
        let part = if more(f) { &mut go } else { &mut stop };
        part.add_scaled(&Dist::point(worth(f)), 0, w)?;
    }
    // C_k = stop + go ⊗ C_{k+1}, from the die at the cap back to the first.
    let mut c = stop.clone();
    c.add_scaled(&go.clone().all_capped(), 0, 1.0)?;
    for _ in 0..MAX_CHAIN {
        let mut next = stop.clone();
        next.add_scaled(&go.convolve(&c)?, 0, 1.0)?;
        c = next;
    }
    Ok(c)
}

/// `xRy>=z`: every die meeting `threshold` rolls one more, round after round (the roller's
/// rounds are each chain's steps, so its cap is each chain's); the successes of every die.
pub(crate) fn reroll(groups: &[Group], threshold: Target, target: Option<Target>) -> Result<Dist, OddsError> {
    let mut acc = Dist::point(0);
    for g in groups {
        // No target: the roller counts 0 successes, but its chains still roll (and may cap).
        let worth = |f: u32| i64::from(target.is_some_and(|t| t.test(i64::from(f))));
        let die = chain(g.sides, worth, |f| threshold.test(i64::from(f)))?;
        acc = acc.convolve(&die.power(g.count)?)?;
    }
    Ok(acc)
}

/// `xUy[z]+b`: each die's chain (adding while a face is `z` or more) plus `b` is one value.
/// With a target, the number of values meeting it; without, the largest value.
pub(crate) fn upper(
    groups: &[Group],
    threshold: Option<u32>,
    bonus: i64,
    target: Option<Target>,
) -> Result<Dist, OddsError> {
    let mut dice = Vec::with_capacity(groups.len());
    for g in groups {
        let at_least = threshold.unwrap_or(g.sides);
        let die = chain(g.sides, i64::from, |f| f >= at_least)?.shifted(bonus);
        dice.push((die, g.count));
    }
    if let Some(t) = target {
        let mut acc = Dist::point(0);
        for (die, n) in &dice {
            let hit = die.chance(|v| t.test(v));
            let mut one = Dist::from_pairs(&[(0, 1.0 - hit), (1, hit)])?;
            // What matters of the cap is its chance per die, not which values it reaches.
            one.capped = die.capped;
            acc = acc.convolve(&one.power(*n)?)?;
        }
        return Ok(acc);
    }
    largest(&dice)
}

/// The largest of independent values: `P(max <= v) = Π F(v)^n`.
fn largest(dice: &[(Dist, u32)]) -> Result<Dist, OddsError> {
    let lo = dice.iter().map(|(d, _)| d.min()).max().unwrap_or(0);
    let hi = dice.iter().map(|(d, _)| d.max()).max().unwrap_or(0);
    super::dist::check_span(lo, hi)?;
    let mut free = 1.0;
    for (d, n) in dice {
        free *= (1.0 - d.capped()).powi(*n as i32);
    }
    // Each die's cumulative chance, carried along the values so this stays linear in the span.
    let mut cdf: Vec<f64> = dice
        .iter()
        .map(|(d, _)| d.iter().take_while(|&(x, _)| x < lo).map(|(_, q)| q).sum())
        .collect();
    let mut pairs = Vec::with_capacity((hi - lo + 1) as usize);
    let mut below = 0.0;
    for v in lo..=hi {
        let mut all = 1.0;
        for ((d, n), c) in dice.iter().zip(cdf.iter_mut()) {
            *c += d.prob(v);
            all *= c.min(1.0).powi(*n as i32);
        }
        pairs.push((v, (all - below).max(0.0)));
        below = all;
    }
    let mut out = Dist::from_pairs(&pairs)?;
    out.capped = out.mass() * (1.0 - free);
    Ok(out)
}

/// `choice[…]` picking `pick` without repeats: the first pick's position in the list
/// (uniform), and each distinct item's chance to be among the picks.
pub(crate) fn choice(pick: u32, items: &[String]) -> (Dist, Vec<(String, f64)>) {
    let n = items.len();
    let k = (pick as usize).min(n);
    let mut out: Vec<(String, f64)> = Vec::new();
    for item in items {
        if out.iter().any(|(s, _)| s == item) {
            continue;
        }
        let copies = items.iter().filter(|s| *s == item).count();
        // P(no copy picked) = C(n − c, k) / C(n, k) = Π_{i<k} (n − c − i) / (n − i).
        let none: f64 = (0..k)
            .map(|i| (n.saturating_sub(copies + i)) as f64 / (n - i) as f64)
            .product();
        out.push((item.clone(), 1.0 - none));
    }
    (Dist::uniform(1, n.max(1) as i64), out)
}

/// Tally `NTYx`: the number of dice showing one face, `Bin(N, 1/x)`, the same for every face.
pub(crate) fn tally(g: &Group) -> Result<(Dist, Vec<(u32, Dist)>), OddsError> {
    let q = 1.0 / f64::from(g.sides);
    let one = Dist::from_pairs(&[(0, 1.0 - q), (1, q)])?;
    let count = one.power(g.count)?;
    let faces = (1..=g.sides).map(|f| (f, count.clone())).collect();
    Ok((count, faces))
}
