//! Warmachine odds: an attack roll against DEF, a damage roll through ARM, and the two together.
//! Rules as in `systems::warmachine` (`dice::roll`, `attack::resolve_attack`,
//! `damage::resolve_damage`; shared/rules/warmachine.md items 4–9, WG-7, WG-8): 2d6, +1 die for
//! a boost, +1 per distinct additional-die rule, a compulsory discard of the lowest or highest k;
//! the attack hits when kept dice + MAT/RAT + modifier ≥ DEF; with the automatic rule on, kept
//! dice all 1s miss and all 6s (two or more kept) hit; a critical is a hit with a pair among the
//! kept dice; damage = kept dice + POW + modifier − ARM, never below 0; filling the boxes left
//! disables the model.
//!
//! Stats are taken after effects and "cannot" flags are the caller's: a removed boost or
//! additional die is simply not asked for. P+S is the POW given. Every roll is computed by
//! enumerating the multisets of d6 faces (at most 4,368 for the 11 dice a roll can have).

use crate::odds::dist::Dist;
use crate::odds::error::{OddsError, OddsInput, within};
use crate::systems::warmachine::attack::MAX_MODIFIER;
use crate::systems::warmachine::dice::{BASE_DICE, Discard, DiscardWhich, check_counts};
use crate::systems::warmachine::effects::MAX_STAT_CHANGE;
use crate::systems::warmachine::error::{Quantity, RuleError, check_range};
use crate::systems::warmachine::model::{MAX_BOXES, MAX_EFFECTS, MAX_STAT};

/// Largest stat after effects: the largest base stat with every effect a model may carry raising
/// it as far as one may. Anything a model can reach is accepted.
pub const MAX_STAT_AFTER_EFFECTS: u32 = MAX_STAT + MAX_EFFECTS as u32 * MAX_STAT_CHANGE as u32;

/// The dice of one roll beyond the base 2d6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WmDice {
    /// One boost die (declared before rolling).
    pub boost: bool,
    /// Distinct rules granting an additional die (0..=8), one die each.
    pub additional: u32,
    /// The lowest or highest `count` dice set aside after rolling; at least one die stays.
    pub discard: Option<Discard>,
}

/// An attack roll: kept dice + `stat` + `modifier` against `def`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WmAttack {
    /// MAT (melee) or RAT (ranged) after the attacker's effects.
    pub stat: u32,
    /// Terrain, cover, elevation…: −20..=20.
    pub modifier: i32,
    /// DEF after the target's effects.
    pub def: u32,
    pub dice: WmDice,
    /// WG-7's automatic hit and miss (the attacker's own rule, else the server's option).
    pub auto_hit_miss: bool,
}

/// A damage roll: kept dice + `pow` + `modifier` − `arm`, never below 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WmDamage {
    /// POW (or P+S) after the attacker's effects.
    pub pow: u32,
    /// −20..=20.
    pub modifier: i32,
    /// ARM after the target's effects.
    pub arm: u32,
    pub dice: WmDice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WarmachineRequest {
    pub attack: Option<WmAttack>,
    /// Rolled for every hit (for every roll, without an attack).
    pub damage: Option<WmDamage>,
    /// Damage boxes not yet marked (1..=100): the chance to fill them is reported.
    pub boxes: Option<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WmAttackOdds {
    /// Dice rolled, and kept after the discard.
    pub dice: u32,
    pub kept: u32,
    /// Kept dice + stat + modifier.
    pub total: Dist,
    /// The chance to hit, automatic results included.
    pub hit: f64,
    /// The kept dice are all 1s (any number kept): an automatic miss when the rule is on.
    pub all_ones: f64,
    /// Two or more kept dice, all 6s: an automatic hit when the rule is on.
    pub all_sixes: f64,
    /// A hit with a pair among the kept dice.
    pub critical: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WmDamageOdds {
    pub dice: u32,
    pub kept: u32,
    /// Boxes marked by one damage roll.
    pub per_roll: Dist,
    /// Boxes marked by the attack: misses are 0 (the same as `per_roll` without an attack).
    pub damage: Dist,
    /// The chance of at least 1 damage.
    pub damage_chance: f64,
    /// The chance the boxes left are all marked (WG-8: the model is disabled), with `boxes`.
    pub disable: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WarmachineOdds {
    pub request: WarmachineRequest,
    pub attack: Option<WmAttackOdds>,
    pub damage: Option<WmDamageOdds>,
}

/// One way the kept dice can fall, with its chance.
#[derive(Debug, Clone, Copy)]
struct Kept {
    total: i64,
    pair: bool,
    all_ones: bool,
    all_sixes: bool,
    p: f64,
}

/// Dice rolled and kept, after the same checks as the roller (`dice::check_request`, then
/// `DiscardTooMany`).
fn check_dice(d: &WmDice) -> Result<(u32, u32), RuleError> {
    check_counts(d.additional as usize, d.discard)?;
    let n = BASE_DICE + u32::from(d.boost) + d.additional;
    let discard = match d.discard {
        Some(x) => {
            if x.count >= n {
                return Err(RuleError::DiscardTooMany {
                    discard: x.count,
                    dice: n,
                });
            }
            x.count
        }
        None => 0,
    };
    Ok((n, n - discard))
}

/// The total of the dice kept after the discard (no stat, no modifier): what a roll's luck is
/// measured on. The same checks as the roller.
pub fn kept_totals(d: &WmDice) -> Result<Dist, OddsError> {
    let (n, _) = check_dice(d)?;
    let pairs: Vec<(i64, f64)> = kept_table(n, d.discard).iter().map(|k| (k.total, k.p)).collect();
    Dist::from_pairs(&pairs)
}

fn modifier(m: i32) -> Result<(), RuleError> {
    check_range(Quantity::Modifier, i64::from(m), -MAX_MODIFIER, MAX_MODIFIER)
}

fn stat(what: OddsInput, v: u32) -> Result<(), OddsError> {
    within(what, i64::from(v), 0, i64::from(MAX_STAT_AFTER_EFFECTS))
}

/// Every multiset of `n` d6 faces (`counts[f]` dice show `f + 1`) with its chance, read through
/// the discard: which faces are kept decides everything the rules look at.
fn kept_table(n: u32, discard: Option<Discard>) -> Vec<Kept> {
    // n ≤ 11, so n! and 6^n are exact in f64.
    let fact: Vec<f64> = (0..=n)
        .scan(1.0, |acc, k| {
            if k > 0 {
                *acc *= f64::from(k);
            }
            Some(*acc)
        })
        .collect();
    let total = 6f64.powi(n as i32);
    let mut out = Vec::new();
    let mut counts = [0u32; 6];
    fill(0, n, &mut counts, &mut |c| {
        let ways = fact[n as usize] / c.iter().map(|&k| fact[k as usize]).product::<f64>();
        let mut kept = *c;
        if let Some(d) = discard {
            drop_dice(&mut kept, d);
        }
        let k: u32 = kept.iter().sum();
        out.push(Kept {
            total: kept
                .iter()
                .enumerate()
                .map(|(f, &m)| (f as i64 + 1) * i64::from(m))
                .sum(),
            pair: kept.iter().any(|&m| m >= 2),
            all_ones: k > 0 && kept[0] == k,
            all_sixes: k >= 2 && kept[5] == k,
            p: ways / total,
        });
    });
    out
}

/// Enumerate the count vectors of faces `face..6` summing to `left`.
fn fill(face: usize, left: u32, c: &mut [u32; 6], visit: &mut impl FnMut(&[u32; 6])) {
    if face == 5 {
        c[5] = left;
        visit(c);
        return;
    }
    for k in 0..=left {
        c[face] = k;
        fill(face + 1, left - k, c, visit);
    }
    c[face] = 0;
}

/// Remove `d.count` dice from the low or high end of the faces.
fn drop_dice(c: &mut [u32; 6], d: Discard) {
    let mut left = d.count;
    let order: [usize; 6] = match d.which {
        DiscardWhich::Lowest => [0, 1, 2, 3, 4, 5],
        DiscardWhich::Highest => [5, 4, 3, 2, 1, 0],
    };
    for f in order {
        let t = left.min(c[f]);
        c[f] -= t;
        left -= t;
    }
}

fn attack_odds(a: &WmAttack, n: u32, kept: u32) -> Result<WmAttackOdds, OddsError> {
    let table = kept_table(n, a.dice.discard);
    let base = i64::from(a.stat) + i64::from(a.modifier);
    let def = i64::from(a.def);
    let (mut hit, mut critical, mut all_ones, mut all_sixes) = (0.0, 0.0, 0.0, 0.0);
    let mut totals = Vec::with_capacity(table.len());
    for k in &table {
        let total = k.total + base;
        totals.push((total, k.p));
        // The resolver's order: the automatic result, when the rule is on, before the total.
        let h = if a.auto_hit_miss && k.all_sixes {
            true
        } else if a.auto_hit_miss && k.all_ones {
            false
        } else {
            total >= def
        };
        if h {
            hit += k.p;
            if k.pair {
                critical += k.p;
            }
        }
        if k.all_ones {
            all_ones += k.p;
        }
        if k.all_sixes {
            all_sixes += k.p;
        }
    }
    Ok(WmAttackOdds {
        dice: n,
        kept,
        total: Dist::from_pairs(&totals)?,
        hit,
        all_ones,
        all_sixes,
        critical,
    })
}

fn damage_per_roll(d: &WmDamage, n: u32) -> Result<Dist, OddsError> {
    let shift = i64::from(d.pow) + i64::from(d.modifier) - i64::from(d.arm);
    let pairs: Vec<(i64, f64)> = kept_table(n, d.dice.discard)
        .iter()
        .map(|k| ((k.total + shift).max(0), k.p))
        .collect();
    Dist::from_pairs(&pairs)
}

/// The odds of a Warmachine attack, damage roll, or both (neither gives empty odds). Every input
/// is checked first, with the resolver's own errors where it checks the same number.
pub fn warmachine_odds(req: &WarmachineRequest) -> Result<WarmachineOdds, OddsError> {
    let attack_dice = match &req.attack {
        Some(a) => {
            modifier(a.modifier)?;
            stat(OddsInput::AttackStat, a.stat)?;
            stat(OddsInput::Def, a.def)?;
            Some(check_dice(&a.dice)?)
        }
        None => None,
    };
    let damage_dice = match &req.damage {
        Some(d) => {
            modifier(d.modifier)?;
            stat(OddsInput::Pow, d.pow)?;
            stat(OddsInput::Arm, d.arm)?;
            Some(check_dice(&d.dice)?)
        }
        None => None,
    };
    if let Some(b) = req.boxes {
        within(OddsInput::Boxes, i64::from(b), 1, i64::from(MAX_BOXES))?;
    }
    let attack = match (&req.attack, attack_dice) {
        (Some(a), Some((n, kept))) => Some(attack_odds(a, n, kept)?),
        _ => None,
    };
    let damage = match (&req.damage, damage_dice) {
        (Some(d), Some((n, kept))) => {
            let per_roll = damage_per_roll(d, n)?;
            let hit = attack.as_ref().map_or(1.0, |a| a.hit);
            let damage = Dist::if_hit(hit, &per_roll)?;
            let disable = req.boxes.map(|b| damage.chance(|v| v >= i64::from(b)));
            Some(WmDamageOdds {
                dice: n,
                kept,
                damage_chance: damage.chance(|v| v >= 1),
                per_roll,
                damage,
                disable,
            })
        }
        _ => None,
    };
    Ok(WarmachineOdds {
        request: *req,
        attack,
        damage,
    })
}

/// A typical attack's damage (RAT 5 against DEF 13, POW 12 against ARM 16, 8 boxes): the
/// registry's [`SystemRules::typical_odds`](crate::systems::rules::SystemRules::typical_odds).
pub fn typical() -> Result<Dist, OddsError> {
    let o = warmachine_odds(&WarmachineRequest {
        attack: Some(WmAttack {
            stat: 5,
            modifier: 0,
            def: 13,
            dice: WmDice::default(),
            auto_hit_miss: true,
        }),
        damage: Some(WmDamage {
            pow: 12,
            modifier: 0,
            arm: 16,
            dice: WmDice::default(),
        }),
        boxes: Some(8),
    })?;
    Ok(o.damage.map_or(Dist::point(0), |d| d.damage))
}

/// The system's refusals reach `/odds` as they are (the odds module names no system).
impl From<RuleError> for OddsError {
    fn from(e: RuleError) -> Self {
        OddsError::rule(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::warmachine::attack::{AttackOptions, AttackRequest, resolve_attack};
    use crate::systems::warmachine::damage::{DamageRequest, PowSource, resolve_damage};
    use crate::systems::warmachine::dice::{Automatic, DiceRequest, MAX_ADDITIONAL};
    use crate::systems::warmachine::model::{AttackKind, Model, ModelStatus};

    const EPS: f64 = 1e-12;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < EPS
    }

    fn attack(stat: u32, modifier: i32, def: u32, dice: WmDice, auto: bool) -> WmAttack {
        WmAttack {
            stat,
            modifier,
            def,
            dice,
            auto_hit_miss: auto,
        }
    }

    fn odds_of(a: WmAttack) -> WmAttackOdds {
        warmachine_odds(&WarmachineRequest {
            attack: Some(a),
            damage: None,
            boxes: None,
        })
        .unwrap()
        .attack
        .unwrap()
    }

    fn ways_2d6_at_least(t: i64) -> f64 {
        let mut n = 0;
        for a in 1..=6 {
            for b in 1..=6 {
                if a + b >= t {
                    n += 1;
                }
            }
        }
        f64::from(n) / 36.0
    }

    #[test]
    fn two_d6_plus_6_against_def_12_is_2d6_at_least_6() {
        let o = odds_of(attack(6, 0, 12, WmDice::default(), false));
        assert!(close(o.hit, 26.0 / 36.0), "{}", o.hit);
        assert!(close(o.hit, ways_2d6_at_least(6)));
        // Criticals: the pairs that hit are 3-3 … 6-6.
        assert!(close(o.critical, 4.0 / 36.0));
        assert!(close(o.all_ones, 1.0 / 36.0));
        assert!(close(o.all_sixes, 1.0 / 36.0));
        assert!(close(o.total.mean(), 13.0));
    }

    #[test]
    fn the_automatic_rule_moves_exactly_the_all_ones_and_all_sixes() {
        // Needs 13 on 2d6 + 0: only 6-6 hits, and only by the rule.
        let on = odds_of(attack(0, 0, 13, WmDice::default(), true));
        let off = odds_of(attack(0, 0, 13, WmDice::default(), false));
        assert!(close(on.hit, 1.0 / 36.0));
        assert!(close(off.hit, 0.0));
        assert!(close(on.critical, 1.0 / 36.0), "6-6 is a pair");
        // Needs 2 on 2d6 + 5 − 5: everything but 1-1 with the rule.
        let on = odds_of(attack(5, -5, 2, WmDice::default(), true));
        assert!(close(on.hit, 35.0 / 36.0));
        assert!(close(
            odds_of(attack(5, -5, 2, WmDice::default(), false)).hit,
            1.0
        ));
    }

    #[test]
    fn boost_with_discard_lowest_keeps_the_best_two_of_three() {
        // Keep the highest 2 of 3d6: P(sum ≥ 10), counted by hand over the 216 ordered rolls.
        let dice = WmDice {
            boost: true,
            additional: 0,
            discard: Some(Discard {
                which: DiscardWhich::Lowest,
                count: 1,
            }),
        };
        let o = odds_of(attack(0, 0, 10, dice, true));
        let mut n = 0;
        for a in 1..=6u32 {
            for b in 1..=6 {
                for c in 1..=6 {
                    let mut v = [a, b, c];
                    v.sort_unstable();
                    let auto_hit = v[1] == 6 && v[2] == 6;
                    if v[1] + v[2] >= 10 || auto_hit {
                        n += 1;
                    }
                }
            }
        }
        assert!(close(o.hit, f64::from(n) / 216.0));
        assert_eq!((o.dice, o.kept), (3, 2));
    }

    #[test]
    fn damage_is_floored_and_misses_are_zero() {
        // 2d6 + 10 − 15: damage max(0, 2d6 − 5); P(≥ 1) = P(2d6 ≥ 6) = 26/36.
        let r = warmachine_odds(&WarmachineRequest {
            attack: None,
            damage: Some(WmDamage {
                pow: 10,
                modifier: 0,
                arm: 15,
                dice: WmDice::default(),
            }),
            boxes: Some(5),
        })
        .unwrap();
        let d = r.damage.unwrap();
        assert!(close(d.damage_chance, 26.0 / 36.0));
        assert!(close(d.damage.prob(0), 10.0 / 36.0));
        // 5 boxes: 2d6 ≥ 10 → 6/36.
        assert!(close(d.disable.unwrap(), 6.0 / 36.0));
        // With an attack that hits 26/36 of the time, the damage chance multiplies.
        let r = warmachine_odds(&WarmachineRequest {
            attack: Some(attack(6, 0, 12, WmDice::default(), false)),
            damage: Some(WmDamage {
                pow: 10,
                modifier: 0,
                arm: 15,
                dice: WmDice::default(),
            }),
            boxes: Some(5),
        })
        .unwrap();
        let d = r.damage.unwrap();
        assert!(close(d.damage_chance, (26.0 / 36.0) * (26.0 / 36.0)));
        assert!(close(d.disable.unwrap(), (26.0 / 36.0) * (6.0 / 36.0)));
        assert!(close(d.damage.mass(), 1.0));
    }

    // ------------------------------------------------------------- brute force through the resolver

    /// Every ordered sequence of `n` d6 faces.
    fn sequences(n: u32) -> Vec<Vec<u32>> {
        let mut out = vec![vec![]];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|s| {
                    (1..=6).map(move |f| {
                        let mut t = s.clone();
                        t.push(f);
                        t
                    })
                })
                .collect();
        }
        out
    }

    fn dice_request(d: &WmDice) -> DiceRequest {
        DiceRequest {
            boost: d.boost,
            additional: (0..d.additional).map(|i| format!("Rule {i}")).collect(),
            discard: d.discard,
        }
    }

    fn all_dice() -> Vec<WmDice> {
        let mut v = Vec::new();
        for boost in [false, true] {
            for additional in 0..=1 {
                let n = 2 + u32::from(boost) + additional;
                v.push(WmDice {
                    boost,
                    additional,
                    discard: None,
                });
                for which in [DiscardWhich::Lowest, DiscardWhich::Highest] {
                    for count in 1..n {
                        v.push(WmDice {
                            boost,
                            additional,
                            discard: Some(Discard { which, count }),
                        });
                    }
                }
            }
        }
        v
    }

    #[test]
    fn attacks_agree_with_the_resolver_face_by_face() {
        for dice in all_dice() {
            for (mat, modifier, def, auto) in [
                (6, 0, 12, true),
                (3, -2, 14, false),
                (0, 0, 5, true),
                (9, 1, 20, true),
            ] {
                let a = attack(mat, modifier, def, dice, auto);
                let o = odds_of(a);
                let mut attacker = Model::new("A", "Ana", 10, 10, 5);
                attacker.mat = mat;
                let target = Model::new("T", "Ben", def, 10, 5);
                let req = AttackRequest {
                    kind: AttackKind::Melee,
                    weapon: None,
                    modifier,
                    dice: dice_request(&dice),
                    cover: 0,
                };
                let (mut hit, mut crit, mut ones, mut sixes) = (0.0, 0.0, 0.0, 0.0);
                let seqs = sequences(o.dice);
                let w = 1.0 / seqs.len() as f64;
                for s in seqs {
                    let r = resolve_attack(
                        &req,
                        &attacker,
                        &target,
                        &AttackOptions { auto_hit_miss: auto },
                        &mut FixedRoller::new(s),
                    )
                    .unwrap();
                    let shown = r.roll.automatic();
                    hit += w * f64::from(u8::from(r.hit));
                    crit += w * f64::from(u8::from(r.critical));
                    ones += w * f64::from(u8::from(shown == Some(Automatic::Miss)));
                    sixes += w * f64::from(u8::from(shown == Some(Automatic::Hit)));
                }
                let ctx = format!("{dice:?} {mat} {modifier} {def} {auto}");
                assert!(close(o.hit, hit), "{ctx}: {} vs {hit}", o.hit);
                assert!(close(o.critical, crit), "{ctx}");
                assert!(close(o.all_ones, ones), "{ctx}");
                assert!(close(o.all_sixes, sixes), "{ctx}");
            }
        }
    }

    #[test]
    fn attack_and_damage_agree_with_the_resolvers_face_by_face() {
        let cases = [
            (
                WmDice::default(),
                WmDice {
                    boost: true,
                    ..WmDice::default()
                },
            ),
            (
                WmDice {
                    boost: true,
                    additional: 0,
                    discard: Some(Discard {
                        which: DiscardWhich::Highest,
                        count: 1,
                    }),
                },
                WmDice {
                    boost: false,
                    additional: 1,
                    discard: Some(Discard {
                        which: DiscardWhich::Lowest,
                        count: 1,
                    }),
                },
            ),
        ];
        for (ad, dd) in cases {
            let a = attack(5, 1, 13, ad, true);
            let d = WmDamage {
                pow: 12,
                modifier: -1,
                arm: 16,
                dice: dd,
            };
            let boxes = 4;
            let o = warmachine_odds(&WarmachineRequest {
                attack: Some(a),
                damage: Some(d),
                boxes: Some(boxes),
            })
            .unwrap();
            let od = o.damage.unwrap();
            let mut attacker = Model::new("A", "Ana", 10, 10, 5);
            attacker.mat = a.stat;
            let target = Model::new("T", "Ben", a.def, d.arm, boxes);
            let areq = AttackRequest {
                kind: AttackKind::Melee,
                weapon: None,
                modifier: a.modifier,
                dice: dice_request(&ad),
                cover: 0,
            };
            let dreq = DamageRequest {
                pow: PowSource::Value(d.pow),
                modifier: d.modifier,
                dice: dice_request(&dd),
            };
            let mut dist: std::collections::BTreeMap<u32, f64> = Default::default();
            let mut disabled = 0.0;
            let aseqs = sequences(2 + u32::from(ad.boost) + ad.additional);
            let dseqs = sequences(2 + u32::from(dd.boost) + dd.additional);
            let w = 1.0 / (aseqs.len() * dseqs.len()) as f64;
            for s in &aseqs {
                let r = resolve_attack(
                    &areq,
                    &attacker,
                    &target,
                    &AttackOptions::default(),
                    &mut FixedRoller::new(s.clone()),
                )
                .unwrap();
                for t in &dseqs {
                    if !r.hit {
                        *dist.entry(0).or_default() += w;
                        continue;
                    }
                    let mut tgt = target.clone();
                    let h =
                        resolve_damage(&dreq, &attacker, &mut tgt, &mut FixedRoller::new(t.clone())).unwrap();
                    *dist.entry(h.damage).or_default() += w;
                    if h.status_after == ModelStatus::Disabled {
                        disabled += w;
                    }
                }
            }
            for (v, p) in &dist {
                assert!(
                    close(od.damage.prob(i64::from(*v)), *p),
                    "{ad:?} {dd:?} damage {v}"
                );
            }
            assert!(close(od.damage.mass(), 1.0));
            assert!(
                close(od.disable.unwrap(), disabled),
                "{} vs {disabled}",
                od.disable.unwrap()
            );
        }
    }

    // ------------------------------------------------------------------- bounds

    fn refused(req: WarmachineRequest) -> OddsError {
        warmachine_odds(&req).expect_err("refused")
    }

    /// Refused by the resolver's own range check on `q`.
    fn out_of_range(req: WarmachineRequest, q: Quantity) {
        let e = refused(req);
        assert!(
            matches!(e.rule_error::<RuleError>(), Some(RuleError::OutOfRange { what, .. }) if *what == q),
            "{e:?}"
        );
    }

    #[test]
    fn every_bound_is_refused() {
        let ok = attack(6, 0, 12, WmDice::default(), true);
        let dmg = WmDamage {
            pow: 10,
            modifier: 0,
            arm: 15,
            dice: WmDice::default(),
        };
        let with = |a: WmAttack| WarmachineRequest {
            attack: Some(a),
            damage: None,
            boxes: None,
        };
        let with_d = |d: WmDamage| WarmachineRequest {
            attack: None,
            damage: Some(d),
            boxes: None,
        };
        // Nothing asked, nothing computed.
        let empty = warmachine_odds(&WarmachineRequest::default()).unwrap();
        assert!(empty.attack.is_none() && empty.damage.is_none());
        // Modifiers ±20, on either roll.
        for m in [-21, 21] {
            out_of_range(with(WmAttack { modifier: m, ..ok }), Quantity::Modifier);
            out_of_range(with_d(WmDamage { modifier: m, ..dmg }), Quantity::Modifier);
        }
        assert!(warmachine_odds(&with(WmAttack { modifier: 20, ..ok })).is_ok());
        // Stats after effects.
        let big = MAX_STAT_AFTER_EFFECTS + 1;
        for (e, what) in [
            (refused(with(WmAttack { stat: big, ..ok })), OddsInput::AttackStat),
            (refused(with(WmAttack { def: big, ..ok })), OddsInput::Def),
            (refused(with_d(WmDamage { pow: big, ..dmg })), OddsInput::Pow),
            (refused(with_d(WmDamage { arm: big, ..dmg })), OddsInput::Arm),
        ] {
            assert!(
                matches!(e, OddsError::OutOfRange { what: w, .. } if w == what),
                "{e:?}"
            );
        }
        assert!(
            warmachine_odds(&with(WmAttack {
                stat: MAX_STAT_AFTER_EFFECTS,
                def: MAX_STAT_AFTER_EFFECTS,
                ..ok
            }))
            .is_ok()
        );
        // Additional dice: 8 rules at most.
        let many = WmDice {
            additional: MAX_ADDITIONAL as u32 + 1,
            ..WmDice::default()
        };
        out_of_range(with(WmAttack { dice: many, ..ok }), Quantity::AdditionalDice);
        out_of_range(with_d(WmDamage { dice: many, ..dmg }), Quantity::AdditionalDice);
        // The largest pool (11 dice) is accepted.
        let most = WmDice {
            boost: true,
            additional: MAX_ADDITIONAL as u32,
            discard: Some(Discard {
                which: DiscardWhich::Lowest,
                count: 10,
            }),
        };
        let o = odds_of(attack(6, 0, 12, most, true));
        assert_eq!((o.dice, o.kept), (11, 1));
        // A discard must leave a die; over the largest pool it is out of range.
        let all = WmDice {
            discard: Some(Discard {
                which: DiscardWhich::Highest,
                count: 2,
            }),
            ..WmDice::default()
        };
        assert!(matches!(
            refused(with(WmAttack { dice: all, ..ok })).rule_error(),
            Some(RuleError::DiscardTooMany { discard: 2, dice: 2 })
        ));
        let huge = WmDice {
            discard: Some(Discard {
                which: DiscardWhich::Highest,
                count: 12,
            }),
            ..most
        };
        out_of_range(with_d(WmDamage { dice: huge, ..dmg }), Quantity::Discard);
        // Boxes left: 1..=100.
        for b in [0, MAX_BOXES + 1] {
            assert!(matches!(
                refused(WarmachineRequest {
                    boxes: Some(b),
                    ..with_d(dmg)
                }),
                OddsError::OutOfRange {
                    what: OddsInput::Boxes,
                    ..
                }
            ));
        }
    }

    #[test]
    fn the_largest_rolls_keep_their_mass() {
        let most = WmDice {
            boost: true,
            additional: MAX_ADDITIONAL as u32,
            discard: None,
        };
        let o = odds_of(attack(0, 0, 40, most, true));
        assert!(close(o.total.mass(), 1.0));
        assert!(close(o.total.mean(), 11.0 * 3.5));
        // With 11 dice a hit needs the automatic rule or a total ≥ 40.
        assert!(o.hit > o.all_sixes);
    }
}
