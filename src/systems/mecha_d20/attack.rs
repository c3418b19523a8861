//! Attack against evasion (checklist 3–6, 20–21): the attack hits when its total is at least the
//! evasion total (「攻撃側が有利」); a natural 20 always hits, a natural 20 on the evasion always
//! evades, and two natural 20s hit. Then the damage (see [`super::damage`]) on a hit.

use serde::{Deserialize, Serialize};

use super::check::{Check, Part, Source, roll_check, with_modifier};
use super::damage::{DamageOutcome, DamageRequest, Multiplier, roll_damage};
use super::error::{Quantity, RuleError, bounded};
use super::unit::{Arc, Cockpit, Facing, Unit, Weapon, WeaponKind, WeaponStatus, facing_penalty};
use crate::dice::Roller;

/// Farthest distance anyone types.
pub const MAX_DISTANCE: u32 = 99;

/// The attack skill (L12): 射撃, 格闘 or 突撃.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackSkill {
    Shooting,
    Melee,
    Charge,
}

/// The evasion skill the defender names (MG-9): 回避, 武器受け or 迎撃.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvasionSkill {
    #[default]
    Evade,
    Parry,
    Intercept,
}

/// An attack in plain numbers: the parts of each check, and who is facing where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackRequest {
    pub attack: Vec<Part>,
    pub evasion: Vec<Part>,
    pub cockpit: Cockpit,
    pub facing: Facing,
}

/// Why it hit or missed, strongest rule first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Both showed 20: the attacker is favoured (L15).
    BothNatural20,
    AttackNatural20,
    EvasionNatural20,
    /// Attack total ≥ evasion total.
    AttackTotal,
    /// Evasion total > attack total.
    EvasionTotal,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackOutcome {
    pub attack: Check,
    /// Includes the facing penalty as a part when there is one.
    pub evasion: Check,
    pub facing: Facing,
    pub cockpit: Cockpit,
    pub facing_penalty: i64,
    pub hit: bool,
    pub decision: Decision,
}

impl Decision {
    pub fn hits(self) -> bool {
        matches!(
            self,
            Decision::BothNatural20 | Decision::AttackNatural20 | Decision::AttackTotal
        )
    }
}

/// The hit rule alone (checklist 3–5).
pub fn decide(attack: &Check, evasion: &Check) -> (bool, Decision) {
    let d = decision(
        (attack.natural_20, attack.total),
        (evasion.natural_20, evasion.total),
    );
    (d.hits(), d)
}

/// The hit rule on `(natural 20, total)` of each side (what `/odds mecha` weighs over faces).
pub fn decision(attack: (bool, i64), evasion: (bool, i64)) -> Decision {
    match (attack.0, evasion.0) {
        (true, true) => Decision::BothNatural20,
        (true, false) => Decision::AttackNatural20,
        (false, true) => Decision::EvasionNatural20,
        _ if attack.1 >= evasion.1 => Decision::AttackTotal,
        _ => Decision::EvasionTotal,
    }
}

/// Roll the attack d20, then the evasion d20.
pub fn resolve_attack(req: &AttackRequest, roller: &mut dyn Roller) -> Result<AttackOutcome, RuleError> {
    let penalty = facing_penalty(req.cockpit, req.facing);
    let mut evasion_parts = req.evasion.clone();
    if penalty != 0 {
        evasion_parts.push(Part::new(Source::Facing, penalty));
    }
    // Check the evasion's modifiers too before the attack die rolls: nothing is rolled on refusal.
    for p in evasion_parts.iter().filter(|p| p.source == Source::Situational) {
        bounded(
            Quantity::Modifier,
            p.value,
            -super::check::MAX_MODIFIER,
            super::check::MAX_MODIFIER,
        )?;
    }
    let attack = roll_check(req.attack.clone(), roller)?;
    let evasion = roll_check(evasion_parts, roller)?;
    let (hit, decision) = decide(&attack, &evasion);
    Ok(AttackOutcome {
        attack,
        evasion,
        facing: req.facing,
        cockpit: req.cockpit,
        facing_penalty: penalty,
        hit,
        decision,
    })
}

/// Whether `weapon` can fire at `distance` in `turn` with the target `in_arc`.
pub fn check_weapon(weapon: &Weapon, distance: u32, in_arc: bool, turn: u32) -> Result<(), RuleError> {
    bounded(
        Quantity::Distance,
        i64::from(distance),
        0,
        i64::from(MAX_DISTANCE),
    )?;
    let name = || weapon.name.clone();
    if !weapon.status.usable_in(turn) {
        return Err(match weapon.status {
            WeaponStatus::Malfunction { turn } => RuleError::WeaponMalfunction { weapon: name(), turn },
            WeaponStatus::Lost { .. } => RuleError::WeaponLost { weapon: name() },
            _ => RuleError::WeaponDestroyed { weapon: name() },
        });
    }
    let (min, max) = weapon.reach();
    if !(min..=max).contains(&distance) {
        return Err(match weapon.kind {
            WeaponKind::Melee => RuleError::MeleeReach {
                weapon: name(),
                distance,
            },
            WeaponKind::Ranged => RuleError::OutOfReach {
                weapon: name(),
                distance,
                min,
                max,
            },
        });
    }
    // A melee weapon strikes in the suit's own hex: no arc to check.
    if weapon.kind == WeaponKind::Ranged && !in_arc {
        return Err(RuleError::OutOfArc { weapon: name() });
    }
    Ok(())
}

/// An attack between two roster units, as a command gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitAttack {
    pub attacker: String,
    /// The weapon's name or 1-based number.
    pub weapon: String,
    /// Default: shooting for a ranged weapon, melee for a melee one.
    #[serde(default)]
    pub skill: Option<AttackSkill>,
    #[serde(default)]
    pub attack_modifier: i64,
    pub target: String,
    #[serde(default)]
    pub evasion_skill: EvasionSkill,
    #[serde(default)]
    pub evasion_modifier: i64,
    #[serde(default)]
    pub facing: Facing,
    /// Hexes between them (the bot cannot measure the map).
    pub distance: u32,
    /// The player's word that the target is in the weapon's arc (default yes).
    #[serde(default = "yes")]
    pub in_arc: bool,
    #[serde(default)]
    pub multiplier: Option<Multiplier>,
}

fn yes() -> bool {
    true
}

/// The attack's parts from the sheets (L12–15, MG-8 g), after every validation.
pub fn attack_request(
    spec: &UnitAttack,
    attacker: &Unit,
    target: &Unit,
    turn: u32,
) -> Result<(AttackRequest, Weapon), RuleError> {
    if spec.attacker == spec.target {
        return Err(RuleError::SelfTarget);
    }
    attacker.ensure_active(&spec.attacker)?;
    target.ensure_active(&spec.target)?;
    let weapon = attacker.suit.weapons[attacker.weapon_index(&spec.attacker, &spec.weapon)?].clone();
    check_weapon(&weapon, spec.distance, spec.in_arc, turn)?;
    for m in [spec.attack_modifier, spec.evasion_modifier] {
        bounded(
            Quantity::Modifier,
            m,
            -super::check::MAX_MODIFIER,
            super::check::MAX_MODIFIER,
        )?;
    }
    let p = &attacker.pilot;
    let skill = spec.skill.unwrap_or(match weapon.kind {
        WeaponKind::Ranged => AttackSkill::Shooting,
        WeaponKind::Melee => AttackSkill::Melee,
    });
    let skill_part = match skill {
        AttackSkill::Shooting => Part::new(Source::Shooting, p.shooting),
        AttackSkill::Melee => Part::new(Source::Melee, p.melee),
        AttackSkill::Charge => Part::new(Source::Charge, p.charge),
    };
    let attack = with_modifier(
        vec![
            Part::new(Source::Concentration, p.concentration),
            skill_part,
            Part::new(Source::Weapon, weapon.modifier),
            Part::new(Source::Accuracy, attacker.suit.accuracy_now()),
            Part::new(Source::FireControl, attacker.suit.fire_control_now()),
        ],
        spec.attack_modifier,
    );
    let d = &target.pilot;
    let evade_part = match spec.evasion_skill {
        EvasionSkill::Evade => Part::new(Source::Evade, d.evade),
        EvasionSkill::Parry => Part::new(Source::Parry, d.parry),
        EvasionSkill::Intercept => Part::new(Source::Intercept, d.intercept),
    };
    let evasion = with_modifier(
        vec![
            Part::new(Source::Reaction, d.reaction),
            evade_part,
            Part::new(Source::SuitEvasion, target.suit.evasion_now()),
        ],
        spec.evasion_modifier,
    );
    Ok((
        AttackRequest {
            attack,
            evasion,
            cockpit: target.suit.cockpit,
            facing: spec.facing,
        },
        weapon,
    ))
}

/// An attack and, on a hit, its damage (with the secondary d20 on a critical).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrikeOutcome {
    pub attacker: String,
    pub target: String,
    pub weapon: String,
    pub arc: Arc,
    pub distance: u32,
    pub attack: AttackOutcome,
    pub damage: Option<DamageOutcome>,
    /// A melee weapon (hex 0; its arc is not shown).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub melee: bool,
}

/// Attack, evasion and damage between two units in `turn`. The damage is not applied: the bot
/// holds it ([`super::state::MechaState::hold`]) until the application phase.
pub fn strike(
    spec: &UnitAttack,
    attacker: &Unit,
    target: &Unit,
    turn: u32,
    roller: &mut dyn Roller,
) -> Result<StrikeOutcome, RuleError> {
    let (req, weapon) = attack_request(spec, attacker, target, turn)?;
    let damage_req = DamageRequest {
        power: weapon.power,
        // MG-8 a: the armour now; reductions still held do not count yet.
        armour: target.suit.armour_now(),
        multiplier: spec.multiplier,
    };
    if let Some(m) = spec.multiplier {
        // Refuse a bad multiplier before the attack dice roll.
        m.check()?;
    }
    let attack = resolve_attack(&req, roller)?;
    let damage = if attack.hit {
        Some(roll_damage(&damage_req, roller)?)
    } else {
        None
    };
    Ok(StrikeOutcome {
        melee: weapon.kind == WeaponKind::Melee,
        attacker: spec.attacker.clone(),
        target: spec.target.clone(),
        weapon: weapon.name,
        arc: weapon.arc,
        distance: spec.distance,
        attack,
        damage,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::mecha_d20::check::from_die;
    use crate::systems::mecha_d20::unit::{Category, Power};

    fn check(total_without_die: i64, die: u32) -> Check {
        from_die(vec![Part::new(Source::Situational, total_without_die)], die)
    }

    #[test]
    fn the_attacker_wins_ties_and_natural_20s_decide_first() {
        // Attack 5+10 = 15 against evasion 5+10 = 15: a hit (L13 「以上」).
        assert_eq!(
            decide(&check(5, 10), &check(5, 10)),
            (true, Decision::AttackTotal)
        );
        // Evasion one higher evades (L14 「超えれば」).
        assert_eq!(
            decide(&check(5, 10), &check(6, 10)),
            (false, Decision::EvasionTotal)
        );
        // A natural 20 hits whatever the totals.
        assert_eq!(
            decide(&check(-10, 20), &check(30, 19)),
            (true, Decision::AttackNatural20)
        );
        // A natural 20 on the evasion evades whatever the totals.
        assert_eq!(
            decide(&check(30, 19), &check(-10, 20)),
            (false, Decision::EvasionNatural20)
        );
        // Both 20: hit.
        assert_eq!(
            decide(&check(0, 20), &check(10, 20)),
            (true, Decision::BothNatural20)
        );
        // 19 is no natural 20.
        assert_eq!(
            decide(&check(0, 19), &check(1, 19)),
            (false, Decision::EvasionTotal)
        );
    }

    #[test]
    fn the_facing_penalty_lowers_the_evasion_and_rolls_in_order() {
        let req = AttackRequest {
            attack: vec![Part::new(Source::Concentration, 3)],
            evasion: vec![Part::new(Source::Reaction, 6)],
            cockpit: Cockpit::MultiMonitor,
            facing: Facing::Rear,
        };
        // Attack 3+10 = 13; evasion 6+11−5 = 12 from the rear: hit. From the front 17: evaded.
        let o = resolve_attack(&req, &mut FixedRoller::new([10, 11])).unwrap();
        assert_eq!(
            (o.attack.total, o.evasion.total, o.facing_penalty, o.hit),
            (13, 12, -5, true)
        );
        assert!(o.evasion.parts.contains(&Part::new(Source::Facing, -5)));
        let front = AttackRequest {
            facing: Facing::Front,
            ..req.clone()
        };
        let o = resolve_attack(&front, &mut FixedRoller::new([10, 11])).unwrap();
        assert!(!o.hit && o.evasion.parts.len() == 1);
        let side = AttackRequest {
            facing: Facing::Side,
            cockpit: Cockpit::AllRound,
            ..req
        };
        let o = resolve_attack(&side, &mut FixedRoller::new([10, 11])).unwrap();
        assert_eq!(o.evasion.total, 16);
    }

    fn ranged(range: u32) -> Weapon {
        Weapon {
            name: "Rifle".into(),
            kind: WeaponKind::Ranged,
            power: Power {
                count: 2,
                sides: 6,
                bonus: 5,
            },
            range,
            arc: Arc::Front,
            modifier: 1,
            mount: None,
            category: Category::Standard,
            status: WeaponStatus::Usable,
        }
    }

    #[test]
    fn range_is_r_minus_1_to_r_plus_1_and_melee_hex_0() {
        let w = ranged(3);
        assert!(matches!(
            check_weapon(&w, 1, true, 1),
            Err(RuleError::OutOfReach { min: 2, max: 4, .. })
        ));
        for d in 2..=4 {
            assert!(check_weapon(&w, d, true, 1).is_ok(), "{d}");
        }
        assert!(check_weapon(&w, 5, true, 1).is_err());
        // MG-12: range 0 reaches 0–1, range 1 reaches 0–2.
        assert!(check_weapon(&ranged(0), 0, true, 1).is_ok());
        assert!(check_weapon(&ranged(0), 1, true, 1).is_ok());
        assert!(check_weapon(&ranged(0), 2, true, 1).is_err());
        assert!(check_weapon(&ranged(1), 2, true, 1).is_ok());
        assert!(check_weapon(&ranged(1), 3, true, 1).is_err());
        let melee = Weapon {
            kind: WeaponKind::Melee,
            range: 0,
            ..ranged(0)
        };
        assert!(
            check_weapon(&melee, 0, false, 1).is_ok(),
            "melee has no arc to check"
        );
        assert!(matches!(
            check_weapon(&melee, 1, true, 1),
            Err(RuleError::MeleeReach { distance: 1, .. })
        ));
        assert!(matches!(
            check_weapon(&w, 3, false, 1),
            Err(RuleError::OutOfArc { .. })
        ));
        assert!(check_weapon(&w, 100, true, 1).is_err());
    }

    #[test]
    fn unusable_weapons_are_refused_by_turn() {
        let mut w = ranged(2);
        w.status = WeaponStatus::Malfunction { turn: 4 };
        assert!(check_weapon(&w, 2, true, 3).is_ok());
        assert!(matches!(
            check_weapon(&w, 2, true, 4),
            Err(RuleError::WeaponMalfunction { turn: 4, .. })
        ));
        assert!(check_weapon(&w, 2, true, 5).is_ok());
        w.status = WeaponStatus::Destroyed { from: 4 };
        assert!(matches!(
            check_weapon(&w, 2, true, 4),
            Err(RuleError::WeaponDestroyed { .. })
        ));
        w.status = WeaponStatus::Lost { from: 2 };
        assert!(matches!(
            check_weapon(&w, 2, true, 7),
            Err(RuleError::WeaponLost { .. })
        ));
    }

    fn units() -> (Unit, Unit) {
        let mut a = Unit::default();
        a.pilot.concentration = 3;
        a.pilot.shooting = 2;
        a.pilot.charge = 4;
        a.suit.accuracy = 1;
        a.suit.fire_control = 1;
        a.suit.weapons = vec![ranged(3)];
        let mut b = Unit::default();
        b.pilot.reaction = 4;
        b.pilot.evade = 2;
        b.pilot.parry = 5;
        b.suit.evasion = 1;
        b.suit.armour = 8;
        b.suit.cockpit = Cockpit::AllRound;
        (a, b)
    }

    fn spec() -> UnitAttack {
        UnitAttack {
            attacker: "A".into(),
            weapon: "rifle".into(),
            skill: None,
            attack_modifier: 0,
            target: "B".into(),
            evasion_skill: EvasionSkill::Evade,
            evasion_modifier: 0,
            facing: Facing::Front,
            distance: 3,
            in_arc: true,
            multiplier: None,
        }
    }

    #[test]
    fn a_strike_reads_the_sheets_and_rolls_damage_only_on_a_hit() {
        let (a, b) = units();
        // Attack 3+2+1+1+1 = 8 + 10 = 18; evasion 4+2+1 = 7 + 11 = 18: a tie hits.
        // Damage 2d6+5 rolls 1+2 → 8 − 8 = 0 → 1.
        let o = strike(&spec(), &a, &b, 1, &mut FixedRoller::new([10, 11, 1, 2])).unwrap();
        assert_eq!((o.attack.attack.total, o.attack.evasion.total), (18, 18));
        assert!(o.attack.hit);
        let d = o.damage.unwrap();
        assert_eq!((d.raw, d.damage, d.minimum_applied), (0, 1, true));
        // Parry 5 instead: 20 > 18, evaded, and no damage dice are rolled.
        let parry = UnitAttack {
            evasion_skill: EvasionSkill::Parry,
            ..spec()
        };
        let mut r = FixedRoller::new([10, 11, 6, 6]);
        let o = strike(&parry, &a, &b, 1, &mut r).unwrap();
        assert!(!o.attack.hit && o.damage.is_none());
        assert_eq!(r.remaining(), 2);
        // Charge uses 突撃.
        let charge = UnitAttack {
            skill: Some(AttackSkill::Charge),
            ..spec()
        };
        let (req, _) = attack_request(&charge, &a, &b, 1).unwrap();
        assert!(req.attack.contains(&Part::new(Source::Charge, 4)));
        assert_eq!(req.cockpit, Cockpit::AllRound, "the target's cockpit");
    }

    #[test]
    fn bad_strikes_are_refused_before_any_die() {
        let (a, mut b) = units();
        let mut r = FixedRoller::new([10, 10, 3, 3]);
        let e = |s: UnitAttack, a: &Unit, b: &Unit, r: &mut FixedRoller| strike(&s, a, b, 1, r).unwrap_err();
        assert_eq!(
            e(
                UnitAttack {
                    target: "A".into(),
                    ..spec()
                },
                &a,
                &b,
                &mut r
            ),
            RuleError::SelfTarget
        );
        assert!(matches!(
            e(
                UnitAttack {
                    weapon: "Bazooka".into(),
                    ..spec()
                },
                &a,
                &b,
                &mut r
            ),
            RuleError::NoSuchWeapon { .. }
        ));
        assert!(matches!(
            e(
                UnitAttack {
                    distance: 6,
                    ..spec()
                },
                &a,
                &b,
                &mut r
            ),
            RuleError::OutOfReach { .. }
        ));
        assert!(matches!(
            e(
                UnitAttack {
                    attack_modifier: 100,
                    ..spec()
                },
                &a,
                &b,
                &mut r
            ),
            RuleError::OutOfRange { .. }
        ));
        assert!(matches!(
            e(
                UnitAttack {
                    multiplier: Some(Multiplier::Times(0)),
                    ..spec()
                },
                &a,
                &b,
                &mut r
            ),
            RuleError::OutOfRange { .. }
        ));
        b.suit.destroyed = true;
        assert!(matches!(e(spec(), &a, &b, &mut r), RuleError::Destroyed { .. }));
        assert_eq!(r.remaining(), 4, "nothing was rolled");
        // By number works too.
        b.suit.destroyed = false;
        let by_number = UnitAttack {
            weapon: "1".into(),
            ..spec()
        };
        assert!(strike(&by_number, &a, &b, 1, &mut FixedRoller::new([10, 10, 3, 4])).is_ok());
    }
}
