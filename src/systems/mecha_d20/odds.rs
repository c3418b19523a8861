//! Odds for the d20 mecha RPG: an attack against an evasion, and a hit's damage. Rules as in
//! `systems::mecha_d20` (`attack::decide`, `attack::resolve_attack`, `damage::damage_from_dice`;
//! shared/rules/mecha_d20.md items 3–6, 10–12, MG-7, MG-11): each side rolls one d20 and adds
//! its parts; a natural 20 on the attack always hits, a natural 20 on the evasion always evades,
//! two natural 20s hit; otherwise the attack hits when its total is at least the evasion total
//! (the attacker wins ties). The facing penalty lowers the evasion. There is no natural-1 rule.
//! Damage = dice + bonus − armour, × or ÷ n rounded up, at least 1 on a hit; a critical is every
//! d6 of a two-or-more-d6 roll showing the same face, and rolls one row of the secondary table.
//!
//! The hit is computed over the 400 pairs of faces; the damage by convolving the dice.

use crate::odds::dist::Dist;
use crate::odds::error::{OddsError, OddsInput, within};
use crate::systems::mecha_d20::attack::{Decision, decision};
use crate::systems::mecha_d20::damage::{self, DamageRequest};
use crate::systems::mecha_d20::unit::{Cockpit, Facing, facing_penalty};

/// Largest sum (either sign) of the numbers added to one d20: abilities, skills, the weapon's or
/// suit's modifiers and the situational modifier together.
pub const MAX_CHECK_BONUS: i64 = 999;

/// An attack in plain numbers: the sums of each check's parts (what `attack::attack_request`
/// puts beside the d20), who is facing where, and the weapon's damage.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MechaRequest {
    /// 集中力 + skill + the weapon's modifier + accuracy + fire control + modifier.
    pub attack: i64,
    /// 反応力 + skill + the suit's evasion + modifier, before the facing penalty.
    pub evasion: i64,
    /// The target's cockpit, which sets the facing penalty.
    pub cockpit: Cockpit,
    pub facing: Facing,
    /// The weapon's power, the target's armour now, and a multiplier.
    pub damage: Option<DamageRequest>,
}

/// How the hits and misses are decided, as `attack::decide` names them; the five add up to 1.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Decisions {
    /// Both dice show 20: a hit.
    pub both_natural_20: f64,
    /// The attack die shows 20 and the evasion die does not: a hit.
    pub attack_natural_20: f64,
    /// The evasion die shows 20 and the attack die does not: a miss.
    pub evasion_natural_20: f64,
    /// No 20, attack total ≥ evasion total: a hit.
    pub attack_total: f64,
    /// No 20, evasion total > attack total: a miss.
    pub evasion_total: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MechaDamageOdds {
    /// Damage of one hit (at least 1).
    pub per_hit: Dist,
    /// Damage of the attack: misses are 0.
    pub damage: Dist,
    /// The chance a hit is critical (every d6 the same; 0 for one die or other dice).
    pub critical_per_hit: f64,
    /// The chance the attack hits critically, and rolls on the secondary table (each row 1/20).
    pub critical: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MechaOdds {
    pub request: MechaRequest,
    /// Added to the evasion (0, −1, −2, −4 or −5).
    pub facing_penalty: i64,
    /// The chance to hit.
    pub hit: f64,
    pub decisions: Decisions,
    pub damage: Option<MechaDamageOdds>,
}

/// The request's inputs within the engine's limits (what every odds request checks first).
pub fn check(req: &MechaRequest) -> Result<(), OddsError> {
    within(
        OddsInput::AttackTotal,
        req.attack,
        -MAX_CHECK_BONUS,
        MAX_CHECK_BONUS,
    )?;
    within(
        OddsInput::EvasionTotal,
        req.evasion,
        -MAX_CHECK_BONUS,
        MAX_CHECK_BONUS,
    )?;
    if let Some(d) = &req.damage {
        damage::check_request(d)?;
    }
    Ok(())
}

/// The hit, split by the rule that decided it: `attack::decision` over every pair of d20 faces.
fn decisions(attack: i64, evasion: i64) -> Decisions {
    let mut d = Decisions::default();
    let w = 1.0 / 400.0;
    for a in 1..=20i64 {
        for e in 1..=20i64 {
            let slot = match decision((a == 20, a + attack), (e == 20, e + evasion)) {
                Decision::BothNatural20 => &mut d.both_natural_20,
                Decision::AttackNatural20 => &mut d.attack_natural_20,
                Decision::EvasionNatural20 => &mut d.evasion_natural_20,
                Decision::AttackTotal => &mut d.attack_total,
                Decision::EvasionTotal => &mut d.evasion_total,
            };
            *slot += w;
        }
    }
    d
}

/// The damage of one hit (MG-7's order) and the chance it is critical (MG-11).
fn per_hit(d: &DamageRequest) -> Result<(Dist, f64), OddsError> {
    let p = d.power;
    let dice = Dist::uniform(1, i64::from(p.sides)).power(p.count)?;
    let pairs: Vec<(i64, f64)> = dice
        .iter()
        .map(|(v, q)| (damage::raw_and_multiplied(d, v + p.bonus).1.max(1), q))
        .collect();
    let critical = if p.sides == 6 && p.count >= 2 {
        // Six faces, each all-alike with chance (1/6)^count.
        6.0 * (1.0f64 / 6.0).powi(p.count as i32)
    } else {
        0.0
    };
    Ok((Dist::from_pairs(&pairs)?, critical))
}

/// The odds of an attack in the d20 mecha RPG, with its damage when a weapon's power is given.
/// Every input is checked first, with the resolver's own errors where it checks the same number.
pub fn mecha_d20_odds(req: &MechaRequest) -> Result<MechaOdds, OddsError> {
    check(req)?;
    let penalty = facing_penalty(req.cockpit, req.facing);
    let decisions = decisions(req.attack, req.evasion + penalty);
    let hit = decisions.both_natural_20 + decisions.attack_natural_20 + decisions.attack_total;
    let damage = match &req.damage {
        Some(d) => {
            let (per_hit, critical_per_hit) = per_hit(d)?;
            Some(MechaDamageOdds {
                damage: Dist::if_hit(hit, &per_hit)?,
                critical: hit * critical_per_hit,
                per_hit,
                critical_per_hit,
            })
        }
        None => None,
    };
    Ok(MechaOdds {
        request: req.clone(),
        facing_penalty: penalty,
        hit,
        decisions,
        damage,
    })
}

/// A typical attack's damage (+5 against +3, power 2d6+3 against armour 2): the registry's
/// [`SystemRules::typical_odds`](crate::systems::rules::SystemRules::typical_odds).
pub fn typical() -> Result<Dist, OddsError> {
    let o = mecha_d20_odds(&MechaRequest {
        attack: 5,
        evasion: 3,
        damage: Some(DamageRequest {
            power: crate::systems::mecha_d20::unit::Power {
                count: 2,
                sides: 6,
                bonus: 3,
            },
            armour: 2,
            multiplier: None,
        }),
        ..MechaRequest::default()
    })?;
    Ok(o.damage.map_or(Dist::point(0), |d| d.damage))
}

/// The system's refusals reach `/odds` as they are (the odds module names no system).
impl From<crate::systems::mecha_d20::RuleError> for OddsError {
    fn from(e: crate::systems::mecha_d20::RuleError) -> Self {
        OddsError::rule(e)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::mecha_d20::RuleError;
    use crate::systems::mecha_d20::attack::{AttackRequest, resolve_attack};
    use crate::systems::mecha_d20::check::{Part, Source};
    use crate::systems::mecha_d20::damage::{
        MAX_ARMOUR, MAX_DICE, MAX_MULTIPLIER, MAX_SIDES, Multiplier, roll_damage,
    };
    use crate::systems::mecha_d20::error::Quantity;
    use crate::systems::mecha_d20::unit::Power;

    const EPS: f64 = 1e-12;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < EPS
    }

    fn attack(attack: i64, evasion: i64) -> MechaRequest {
        MechaRequest {
            attack,
            evasion,
            ..MechaRequest::default()
        }
    }

    fn power(count: u32, sides: u32, bonus: i64) -> Power {
        Power { count, sides, bonus }
    }

    #[test]
    fn equal_bonuses_hit_on_ties_and_natural_20s() {
        // Equal bonuses: a ≥ e among the 19×19 pairs without a 20 is 190; plus every pair with
        // the attack's 20 (20); the evasion's 20 alone misses.
        let o = mecha_d20_odds(&attack(5, 5)).unwrap();
        assert!(close(o.hit, (190.0 + 20.0) / 400.0), "{}", o.hit);
        assert!(close(o.decisions.both_natural_20, 1.0 / 400.0));
        assert!(close(o.decisions.attack_natural_20, 19.0 / 400.0));
        assert!(close(o.decisions.evasion_natural_20, 19.0 / 400.0));
        let d = o.decisions;
        let sum =
            d.both_natural_20 + d.attack_natural_20 + d.evasion_natural_20 + d.attack_total + d.evasion_total;
        assert!(close(sum, 1.0));
    }

    #[test]
    fn natural_20s_bound_the_hit_whatever_the_bonuses() {
        // Hopeless totals still hit on the attack's 20; certain ones still miss on the evasion's.
        let o = mecha_d20_odds(&attack(-500, 500)).unwrap();
        assert!(close(o.hit, 20.0 / 400.0));
        let o = mecha_d20_odds(&attack(500, -500)).unwrap();
        assert!(close(o.hit, 1.0 - 19.0 / 400.0));
    }

    #[test]
    fn the_facing_penalty_lowers_the_evasion() {
        // Rear on a multi-monitor cockpit: −5, the same as an evasion 5 lower from the front.
        let rear = MechaRequest {
            facing: Facing::Rear,
            ..attack(0, 5)
        };
        let o = mecha_d20_odds(&rear).unwrap();
        assert_eq!(o.facing_penalty, -5);
        assert!(close(o.hit, mecha_d20_odds(&attack(0, 0)).unwrap().hit));
        let side = MechaRequest {
            facing: Facing::Side,
            cockpit: Cockpit::AllRound,
            ..attack(0, 1)
        };
        assert_eq!(mecha_d20_odds(&side).unwrap().facing_penalty, -1);
    }

    #[test]
    fn the_rules_damage_example_and_the_minimum_of_one() {
        // 2d6+5 against armour 8: 2d6 = 8 → 5 (the seed's example); 2d6 ≤ 4 → 1 (L25).
        let req = MechaRequest {
            damage: Some(DamageRequest {
                power: power(2, 6, 5),
                armour: 8,
                multiplier: None,
            }),
            ..attack(100, -100)
        };
        let d = mecha_d20_odds(&req).unwrap().damage.unwrap();
        assert!(close(d.per_hit.prob(5), 5.0 / 36.0));
        assert!(close(d.per_hit.prob(1), 6.0 / 36.0), "2d6 ≤ 4: 6 ways");
        assert!(close(d.critical_per_hit, 1.0 / 6.0));
        // Every hit but the evasion's lone 20.
        assert!(close(d.damage.prob(0), 19.0 / 400.0));
        assert!(close(d.critical, (381.0 / 400.0) / 6.0));
        let half = DamageRequest {
            power: power(1, 6, 0),
            armour: 2,
            multiplier: Some(Multiplier::DivideBy(2)),
        };
        let (d, crit) = per_hit(&half).unwrap();
        // Faces 1..6 → raw −1,0,1,2,3,4 → ⌈÷2⌉ 0,0,1,1,2,2 → at least 1: 1,1,1,1,2,2.
        assert!(close(d.prob(1), 4.0 / 6.0));
        assert!(close(d.prob(2), 2.0 / 6.0));
        assert!(close(crit, 0.0), "one die is never critical");
    }

    // -------------------------------------------------------------- brute force through the resolver

    fn resolver_request(req: &MechaRequest) -> AttackRequest {
        AttackRequest {
            attack: vec![Part::new(Source::Concentration, req.attack)],
            evasion: vec![Part::new(Source::Reaction, req.evasion)],
            cockpit: req.cockpit,
            facing: req.facing,
        }
    }

    #[test]
    fn the_hit_agrees_with_resolve_attack_face_by_face() {
        for (a, e) in [(0, 0), (5, 3), (3, 5), (-4, 12), (18, 0), (0, 19), (0, 20)] {
            for cockpit in [Cockpit::MultiMonitor, Cockpit::AllRound] {
                for facing in [Facing::Front, Facing::Side, Facing::Rear] {
                    let req = MechaRequest {
                        cockpit,
                        facing,
                        ..attack(a, e)
                    };
                    let o = mecha_d20_odds(&req).unwrap();
                    let r = resolver_request(&req);
                    let mut by = BTreeMap::<String, f64>::new();
                    let mut hit = 0.0;
                    for fa in 1..=20 {
                        for fe in 1..=20 {
                            let out = resolve_attack(&r, &mut FixedRoller::new([fa, fe])).unwrap();
                            if out.hit {
                                hit += 1.0 / 400.0;
                            }
                            *by.entry(format!("{:?}", out.decision)).or_default() += 1.0 / 400.0;
                        }
                    }
                    let ctx = format!("{a} {e} {cockpit:?} {facing:?}");
                    assert!(close(o.hit, hit), "{ctx}");
                    let d = o.decisions;
                    for (k, v) in [
                        (Decision::BothNatural20, d.both_natural_20),
                        (Decision::AttackNatural20, d.attack_natural_20),
                        (Decision::EvasionNatural20, d.evasion_natural_20),
                        (Decision::AttackTotal, d.attack_total),
                        (Decision::EvasionTotal, d.evasion_total),
                    ] {
                        let got = by.get(&format!("{k:?}")).copied().unwrap_or(0.0);
                        assert!(close(v, got), "{ctx} {k:?}");
                    }
                }
            }
        }
    }

    fn sequences(n: u32, sides: u32) -> Vec<Vec<u32>> {
        let mut out = vec![vec![]];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|s| {
                    (1..=sides).map(move |f| {
                        let mut t = s.clone();
                        t.push(f);
                        t
                    })
                })
                .collect();
        }
        out
    }

    #[test]
    fn damage_agrees_with_roll_damage_face_by_face() {
        let cases = [
            (power(2, 6, 5), 8, None),
            (power(3, 6, 0), 6, Some(Multiplier::Times(2))),
            (power(1, 6, 3), 5, Some(Multiplier::DivideBy(3))),
            (power(2, 10, -3), 4, Some(Multiplier::DivideBy(2))),
            (power(3, 4, 1), 0, None),
        ];
        for (p, armour, multiplier) in cases {
            let dreq = DamageRequest {
                power: p,
                armour,
                multiplier,
            };
            let req = MechaRequest {
                damage: Some(dreq.clone()),
                ..attack(4, 6)
            };
            let o = mecha_d20_odds(&req).unwrap();
            let od = o.damage.unwrap();
            // Attack faces × damage faces, through the resolvers as `strike` runs them.
            let r = resolver_request(&req);
            let seqs = sequences(p.count, p.sides);
            let w = 1.0 / (400.0 * seqs.len() as f64);
            let mut dist = BTreeMap::<u32, f64>::new();
            let mut critical = 0.0;
            for fa in 1..=20 {
                for fe in 1..=20 {
                    let out = resolve_attack(&r, &mut FixedRoller::new([fa, fe])).unwrap();
                    for s in &seqs {
                        if !out.hit {
                            *dist.entry(0).or_default() += w;
                            continue;
                        }
                        // One more face for the secondary d20 a critical rolls.
                        let mut faces = s.clone();
                        faces.push(1);
                        let h = roll_damage(&dreq, &mut FixedRoller::new(faces)).unwrap();
                        *dist.entry(h.damage).or_default() += w;
                        if h.critical {
                            critical += w;
                        }
                    }
                }
            }
            for (v, q) in &dist {
                assert!(close(od.damage.prob(i64::from(*v)), *q), "{p} {armour} {v}");
            }
            assert!(close(od.damage.mass(), 1.0));
            assert!(close(od.critical, critical), "{p}: {} vs {critical}", od.critical);
        }
    }

    // ------------------------------------------------------------------- bounds

    #[test]
    fn every_bound_is_refused() {
        let big = MAX_CHECK_BONUS + 1;
        for (req, what) in [
            (attack(big, 0), OddsInput::AttackTotal),
            (attack(-big, 0), OddsInput::AttackTotal),
            (attack(0, big), OddsInput::EvasionTotal),
            (attack(0, -big), OddsInput::EvasionTotal),
        ] {
            assert!(
                matches!(mecha_d20_odds(&req), Err(OddsError::OutOfRange { what: w, .. }) if w == what),
                "{req:?}"
            );
        }
        assert!(mecha_d20_odds(&attack(MAX_CHECK_BONUS, -MAX_CHECK_BONUS)).is_ok());
        let with = |power: Power, armour: u32, multiplier: Option<Multiplier>| MechaRequest {
            damage: Some(DamageRequest {
                power,
                armour,
                multiplier,
            }),
            ..attack(0, 0)
        };
        let out_of_range = |req: MechaRequest, q: Quantity| {
            assert!(
                matches!(
                    mecha_d20_odds(&req).map_err(|e| e.rule_error::<RuleError>().cloned()),
                    Err(Some(RuleError::OutOfRange { what, .. })) if what == q
                ),
                "{req:?}"
            );
        };
        out_of_range(with(power(0, 6, 0), 0, None), Quantity::DiceCount);
        out_of_range(with(power(MAX_DICE + 1, 6, 0), 0, None), Quantity::DiceCount);
        out_of_range(with(power(2, 1, 0), 0, None), Quantity::DiceSides);
        out_of_range(with(power(2, MAX_SIDES + 1, 0), 0, None), Quantity::DiceSides);
        out_of_range(with(power(2, 6, 1000), 0, None), Quantity::DamageConstant);
        out_of_range(with(power(2, 6, -1000), 0, None), Quantity::DamageConstant);
        out_of_range(with(power(2, 6, 0), MAX_ARMOUR + 1, None), Quantity::Armour);
        out_of_range(
            with(power(2, 6, 0), 0, Some(Multiplier::Times(0))),
            Quantity::Multiplier,
        );
        out_of_range(
            with(power(2, 6, 0), 0, Some(Multiplier::DivideBy(MAX_MULTIPLIER + 1))),
            Quantity::Multiplier,
        );
        // The largest damage the resolver accepts is computed, and its mass kept.
        let o = mecha_d20_odds(&with(
            power(MAX_DICE, MAX_SIDES, 999),
            0,
            Some(Multiplier::Times(MAX_MULTIPLIER)),
        ))
        .unwrap();
        let d = o.damage.unwrap();
        assert!(close(d.per_hit.mass(), 1.0));
        // Tails far below 1e-13 of the peak may be cleared by the FFT's denoising.
        assert!(d.per_hit.max() <= (2000 + 999) * 10);
        assert!((d.per_hit.mean() - (1010.0 + 999.0) * 10.0).abs() < 1e-6);
    }
}
