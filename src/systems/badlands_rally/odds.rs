//! Badlands Rally odds: a check's result, the margin of a check against a check (MOS ≥ 0 is a
//! hit) and the damage a weapon does through armour. Rules as in `systems::badlands_rally`
//! (`roll::score_check`, `attack::resolve`, `damage::resolve_damage`): a check is the highest die
//! plus 1 for every other die meeting the rating; 0 dice is an automatic failure (result 0, and an
//! attack with 0 dice misses); damage dice = MOS + POW − AR, each 4+ one damage.

use crate::odds::dist::Dist;
use crate::odds::error::OddsError;
use crate::systems::badlands_rally::RuleError;
use crate::systems::badlands_rally::damage::{DAMAGE_TARGET, score_damage};
use crate::systems::badlands_rally::error::bounded;
use crate::systems::badlands_rally::roll::{MAX_POOL, Rating};

/// Largest POW or AR accepted (datacards stay far below).
pub const MAX_POW_AR: u32 = 30;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RallyRequest {
    /// The rating dice must meet (2..=6, written 2+ to 6+).
    pub rating: u8,
    /// Dice rolled (0..=60; 0 is an automatic failure).
    pub dice: u32,
    /// The opposing check: `(rating, dice)`; the first check is the attack.
    pub versus: Option<(u8, u32)>,
    /// The weapon against the defender: `(POW, AR)`; needs `versus`.
    pub weapon: Option<(u32, u32)>,
}

/// Weapon traits that change the damage (`attack::finish`, `damage::score_damage`); kept apart
/// from [`RallyRequest`] so callers that build a request field by field keep compiling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RallyTraits {
    /// Heat: a damage die showing 6 is two hits.
    pub heat: bool,
    /// Blast: on a miss, one die (4+ is one damage) when an attack die met the rating and
    /// POW > AR.
    pub blast: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RallyOdds {
    pub request: RallyRequest,
    /// The check result → probability.
    pub check: Dist,
    /// Every die shows 1 (spin-outs and fumbles).
    pub all_ones: f64,
    /// Attack − defence, when there is a defence and the attack rolls at least one die.
    pub margin: Option<Dist>,
    /// The chance the margin is 0 or more (a hit).
    pub hit: Option<f64>,
    /// Damage → probability (misses are 0), with a weapon.
    pub damage: Option<Dist>,
    /// The chance of at least 1 damage.
    pub damage_chance: Option<f64>,
}

fn pool(field: &str, dice: u32) -> Result<u32, OddsError> {
    bounded(field, i64::from(dice), 0, i64::from(MAX_POOL))?;
    Ok(dice)
}

/// The distribution of a check with `dice` dice at `rating`, by dynamic programming over the dice
/// on (highest face, dice meeting the rating). A die adds to a state in three ways: a face at or
/// below the highest, meeting the rating or not (the state keeps its highest face), or a higher
/// face (the new highest); so each die costs a few terms per state rather than six, and only the
/// counts reachable so far are visited (60 dice: a quarter of the work of trying every face on
/// every count).
pub fn check_distribution(rating: Rating, dice: u32) -> Result<Dist, OddsError> {
    if dice == 0 {
        return Ok(Dist::point(0));
    }
    let n = dice as usize;
    let r = usize::from(rating.value());
    let meets = |f: usize| usize::from(f >= r);
    // Faces up to h that meet the rating, and those that do not.
    let meeting_upto = |h: usize| (h + 1).saturating_sub(r);
    // state[h * width + m]: highest face h (1..=6), m dice meeting the rating.
    let width = n + 1;
    let mut state = vec![0.0f64; 7 * width];
    let mut next = vec![0.0f64; 7 * width];
    for f in 1..=6usize {
        state[f * width + meets(f)] += 1.0 / 6.0;
    }
    for rolled in 1..n {
        next.fill(0.0);
        for h in 1..=6usize {
            let (a, b) = (meeting_upto(h) as f64 / 6.0, (h - meeting_upto(h)) as f64 / 6.0);
            for m in 0..=rolled {
                let q = state[h * width + m];
                if q == 0.0 {
                    continue;
                }
                next[h * width + m] += q * b;
                next[h * width + m + 1] += q * a;
                for f in h + 1..=6 {
                    next[f * width + m + meets(f)] += q / 6.0;
                }
            }
        }
        std::mem::swap(&mut state, &mut next);
    }
    let mut pairs = Vec::new();
    for h in 1..=6usize {
        for m in 0..=n {
            let q = state[h * width + m];
            if q > 0.0 {
                // The highest die is one of the meeting dice when it meets the rating.
                let others = m - meets(h);
                pairs.push(((h + others) as i64, q));
            }
        }
    }
    Dist::from_pairs(&pairs)
}

/// The odds of a Badlands Rally check, optionally against a defence and with a weapon's damage.
pub fn badlands_rally_odds(req: &RallyRequest) -> Result<RallyOdds, OddsError> {
    badlands_rally_odds_with(req, RallyTraits::default())
}

/// [`badlands_rally_odds`] for a weapon with Heat and/or Blast.
pub fn badlands_rally_odds_with(req: &RallyRequest, traits: RallyTraits) -> Result<RallyOdds, OddsError> {
    let rating = Rating::new(req.rating)?;
    let dice = pool("dice", req.dice)?;
    let versus = match req.versus {
        Some((r, d)) => Some((Rating::new(r)?, pool("vs_dice", d)?)),
        None => None,
    };
    if let Some((p, a)) = req.weapon {
        bounded("POW", i64::from(p), 0, i64::from(MAX_POW_AR))?;
        bounded("AR", i64::from(a), 0, i64::from(MAX_POW_AR))?;
        if versus.is_none() {
            return Err(RuleError::OutOfBounds {
                field: "vs_dice".into(),
                value: 0,
                min: 0,
                max: i64::from(MAX_POOL),
            }
            .into());
        }
    }
    let check = check_distribution(rating, dice)?;
    let all_ones = if dice == 0 {
        0.0
    } else {
        (1.0f64 / 6.0).powi(dice as i32)
    };
    let mut out = RallyOdds {
        request: *req,
        check,
        all_ones,
        margin: None,
        hit: None,
        damage: None,
        damage_chance: None,
    };
    let Some((vr, vd)) = versus else {
        return Ok(out);
    };
    if dice == 0 {
        // An attack with no dice fails before the defence rolls.
        out.hit = Some(0.0);
        if req.weapon.is_some() {
            out.damage = Some(Dist::point(0));
            out.damage_chance = Some(0.0);
        }
        return Ok(out);
    }
    let defence = check_distribution(vr, vd)?;
    let margin = out.check.convolve(&defence.clone().negated())?;
    out.hit = Some(margin.chance(|m| m >= 0));
    if let Some((pow, ar)) = req.weapon {
        let mut damage = Dist::zero();
        let miss = margin.chance(|m| m < 0);
        // Blast: a miss where an attack die met the rating, i.e. a result at the rating or more
        // (the highest die is in the result, and no die meeting it leaves the highest below it).
        let blast = if traits.blast && pow > ar {
            let r = i64::from(rating.value());
            out.check
                .iter()
                .filter(|&(a, _)| a >= r)
                .map(|(a, q)| q * defence.chance(|d| d > a))
                .sum()
        } else {
            0.0
        };
        let p_blast = f64::from(7 - DAMAGE_TARGET) / 6.0;
        damage.add_scaled(&Dist::point(0), 0, miss - blast * p_blast)?;
        damage.add_scaled(&Dist::point(1), 0, blast * p_blast)?;
        let die = damage_die(traits.heat)?;
        // The margins come smallest first, so each hit's damage dice are the last margin's and
        // a few more: one die added at a time (a convolution with one die) instead of the die
        // raised anew for every margin (60D6 against 60D6 with POW 30: 65 margins, up to 94 dice).
        let (mut dice, mut thrown) = (Dist::point(0), 0i64);
        for (mos, q) in margin.iter().filter(|(m, _)| *m >= 0) {
            let n = mos + i64::from(pow) - i64::from(ar);
            // A margin whose dice come to none or fewer adds no die: `dice` is still the point 0.
            while thrown < n {
                dice = dice.convolve(&die)?;
                thrown += 1;
            }
            damage.add_scaled(&dice, 0, q)?;
        }
        out.damage_chance = Some(damage.chance(|v| v >= 1));
        out.damage = Some(damage.trimmed());
    }
    out.margin = Some(margin);
    Ok(out)
}

/// One damage die: a hit on 4+, two on a 6 with Heat.
fn damage_die(heat: bool) -> Result<Dist, OddsError> {
    let pairs: Vec<(i64, f64)> = (1..=6u32)
        .map(|f| (i64::from(score_damage(&[f], heat)), 1.0 / 6.0))
        .collect();
    Dist::from_pairs(&pairs)
}

/// A typical attack's damage (3D6 at 4+ against 2D6 at 5+, POW 7 against AR 6): the registry's
/// [`SystemRules::typical_odds`](crate::systems::rules::SystemRules::typical_odds).
pub fn typical() -> Result<Dist, OddsError> {
    let o = badlands_rally_odds(&RallyRequest {
        rating: 4,
        dice: 3,
        versus: Some((5, 2)),
        weapon: Some((7, 6)),
    })?;
    Ok(o.damage.unwrap_or(o.check))
}

/// The system's refusals reach `/odds` as they are (the odds module names no system).
impl From<crate::systems::badlands_rally::RuleError> for OddsError {
    fn from(e: crate::systems::badlands_rally::RuleError) -> Self {
        OddsError::rule(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_examples_are_possible_results() {
        // 3D6 at 5+ rolling 4,5,6 → 7; 2D6 at 4+ rolling 1,1 → 1.
        let d = check_distribution(Rating::new(5).unwrap(), 3).unwrap();
        assert!(d.prob(7) > 0.0);
        let two = check_distribution(Rating::new(4).unwrap(), 2).unwrap();
        assert!((two.prob(1) - 1.0 / 36.0).abs() < 1e-15);
        assert!((two.mass() - 1.0).abs() < 1e-12);
    }

    /// The dynamic programme as first written, every face of every die tried on every count:
    /// the oracle for the faster one.
    fn face_by_face(rating: Rating, dice: u32) -> Dist {
        let n = dice as usize;
        let r = u32::from(rating.value());
        let mut state = vec![vec![0.0; n + 1]; 7];
        for f in 1..=6u32 {
            state[f as usize][usize::from(f >= r)] += 1.0 / 6.0;
        }
        for _ in 1..n {
            let mut next = vec![vec![0.0; n + 1]; 7];
            for h in 1..=6usize {
                for m in 0..n {
                    let q = state[h][m];
                    for f in 1..=6usize {
                        next[h.max(f)][m + usize::from(f as u32 >= r)] += q / 6.0;
                    }
                }
            }
            state = next;
        }
        let mut pairs = Vec::new();
        for (h, row) in state.iter().enumerate().skip(1) {
            for (m, &q) in row.iter().enumerate() {
                if q > 0.0 {
                    pairs.push(((h + m - usize::from(h as u32 >= r)) as i64, q));
                }
            }
        }
        Dist::from_pairs(&pairs).unwrap()
    }

    #[test]
    fn the_check_matches_trying_every_face_for_every_rating_and_pool() {
        for rating in 2..=6u8 {
            let rating = Rating::new(rating).unwrap();
            for dice in 1..=MAX_POOL {
                let (fast, slow) = (
                    check_distribution(rating, dice).unwrap(),
                    face_by_face(rating, dice),
                );
                let values: Vec<i64> = slow.iter().map(|(v, _)| v).collect();
                assert_eq!(
                    fast.iter().map(|(v, _)| v).collect::<Vec<_>>(),
                    values,
                    "{dice} dice"
                );
                for (v, q) in slow.iter() {
                    let got = fast.prob(v);
                    assert!((got - q).abs() <= 1e-12 * q, "{dice} dice, {v}: {got} vs {q}");
                }
            }
        }
    }

    #[test]
    fn damage_needs_a_defence() {
        let r = RallyRequest {
            rating: 4,
            dice: 2,
            versus: None,
            weapon: Some((6, 4)),
        };
        assert!(badlands_rally_odds(&r).is_err());
    }

    use std::collections::BTreeMap;

    #[test]
    fn rally_check_by_brute_force_for_small_pools() {
        use crate::systems::badlands_rally::roll::{Pool, Rating, score_check};
        for rating in 2..=6u8 {
            for n in 1..=4u32 {
                let d = check_distribution(Rating::new(rating).unwrap(), n).unwrap();
                let mut brute: BTreeMap<i64, f64> = BTreeMap::new();
                let total = 6usize.pow(n);
                for code in 0..total {
                    let dice: Vec<u32> = (0..n).map(|i| (code / 6usize.pow(i) % 6) as u32 + 1).collect();
                    let c = score_check(Rating::new(rating).unwrap(), Pool::of(n as i32), dice);
                    *brute.entry(i64::from(c.result)).or_insert(0.0) += 1.0 / total as f64;
                }
                for (v, p) in &brute {
                    assert!((d.prob(*v) - p).abs() < 1e-12, "{n}D6 at {rating}+: P({v})");
                }
                assert!((d.mass() - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn rally_margin_hit_and_damage_by_brute_force() {
        use crate::systems::badlands_rally::roll::{Pool, Rating, score_check};
        let o = badlands_rally_odds(&RallyRequest {
            rating: 4,
            dice: 2,
            versus: Some((5, 2)),
            weapon: Some((7, 6)),
        })
        .unwrap();
        let (mut hit, mut damage) = (0.0, 0.0);
        for code in 0..1296usize {
            let f = |i: u32| (code / 6usize.pow(i) % 6) as u32 + 1;
            let a = score_check(Rating::new(4).unwrap(), Pool::of(2), vec![f(0), f(1)]);
            let d = score_check(Rating::new(5).unwrap(), Pool::of(2), vec![f(2), f(3)]);
            let margin = i64::from(a.result) - i64::from(d.result);
            if margin >= 0 {
                hit += 1.0 / 1296.0;
                let dice = margin + 1;
                damage += (1.0 - 0.5f64.powi(dice as i32)) / 1296.0;
            }
        }
        assert!((o.hit.unwrap() - hit).abs() < 1e-12);
        assert!((o.damage_chance.unwrap() - damage).abs() < 1e-12);
        assert!((o.damage.unwrap().mass() - 1.0).abs() < 1e-12);
    }

    /// Every attack (2 dice), defence (2 dice) and damage die enumerated, scored by the resolver's own
    /// `score_check`, `margin` and `score_damage`, with the Blast rule of `attack::finish`.
    #[test]
    fn rally_heat_and_blast_by_brute_force() {
        use crate::systems::badlands_rally::damage::score_damage;
        use crate::systems::badlands_rally::roll::{Pool, Rating, margin, score_check};
        for (rating, pow, ar, heat, blast) in [
            (4u8, 7u32, 6u32, true, false),
            (4, 7, 6, false, true),
            (5, 6, 6, true, true),
            (3, 6, 5, true, true),
            (3, 5, 5, false, true),
        ] {
            let req = RallyRequest {
                rating,
                dice: 2,
                versus: Some((5, 2)),
                weapon: Some((pow, ar)),
            };
            let o = badlands_rally_odds_with(&req, RallyTraits { heat, blast }).unwrap();
            let mut brute: BTreeMap<i64, f64> = BTreeMap::new();
            for code in 0..1296usize {
                let f = |i: u32| (code / 6usize.pow(i) % 6) as u32 + 1;
                let a = score_check(Rating::new(rating).unwrap(), Pool::of(2), vec![f(0), f(1)]);
                let d = score_check(Rating::new(5).unwrap(), Pool::of(2), vec![f(2), f(3)]);
                let m = margin(&a, &d);
                let w = 1.0 / 1296.0;
                if m >= 0 {
                    // Every sequence of damage dice.
                    let n = (i64::from(m) + i64::from(pow) - i64::from(ar)).max(0) as u32;
                    for dcode in 0..6usize.pow(n) {
                        let dice: Vec<u32> = (0..n).map(|i| (dcode / 6usize.pow(i) % 6) as u32 + 1).collect();
                        let v = i64::from(score_damage(&dice, heat));
                        *brute.entry(v).or_insert(0.0) += w / 6f64.powi(n as i32);
                    }
                } else if blast && a.any_met && pow > ar {
                    *brute.entry(1).or_insert(0.0) += w / 2.0;
                    *brute.entry(0).or_insert(0.0) += w / 2.0;
                } else {
                    *brute.entry(0).or_insert(0.0) += w;
                }
            }
            let dmg = o.damage.unwrap();
            for (v, p) in &brute {
                assert!(
                    (dmg.prob(*v) - p).abs() < 1e-12,
                    "{rating} {pow}/{ar} heat {heat} blast {blast}: P({v})"
                );
            }
            assert!((dmg.mass() - 1.0).abs() < 1e-12);
            let chance: f64 = brute.iter().filter(|(v, _)| **v >= 1).map(|(_, p)| p).sum();
            assert!((o.damage_chance.unwrap() - chance).abs() < 1e-12);
        }
        // Without traits the answer is the plain one.
        let req = RallyRequest {
            rating: 4,
            dice: 3,
            versus: Some((4, 3)),
            weapon: Some((6, 5)),
        };
        assert_eq!(
            badlands_rally_odds(&req).unwrap(),
            badlands_rally_odds_with(&req, RallyTraits::default()).unwrap()
        );
    }
}
