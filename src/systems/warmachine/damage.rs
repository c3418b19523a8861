//! The damage roll (items 9, 18, 19, WG-8): 2d6 (+ boost / additional dice, − discards) + POW
//! − ARM after effects, never below 0, marked on the target's boxes.

use serde::{Deserialize, Serialize};

use super::attack::MAX_MODIFIER;
use super::dice::{DiceRequest, DiceRoll, RollKind, roll};
use super::effects::{Stat, StatReading, read_stat};
use super::error::{Quantity, RuleError, check_range};
use super::model::{Boxes, MAX_STAT, Model, ModelStatus};
use crate::dice::Roller;

/// Where the POW comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PowSource {
    /// One of the attacker's weapons, by name.
    Weapon(String),
    /// A number (a spell's POW, a blast).
    Value(u32),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageRequest {
    pub pow: PowSource,
    #[serde(default)]
    pub modifier: i32,
    #[serde(default)]
    pub dice: DiceRequest,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DamageOutcome {
    pub attacker: String,
    pub target: String,
    pub weapon: Option<String>,
    pub roll: DiceRoll,
    /// POW after the attacker's POW effects.
    pub pow: StatReading,
    pub modifier: i32,
    /// ARM after the target's effects.
    pub arm: StatReading,
    /// Dice + POW + modifier − ARM, before the floor.
    pub raw: i64,
    /// Boxes marked: never below 0.
    pub damage: u32,
    pub boxes_before: Boxes,
    pub boxes_after: Boxes,
    pub status_before: ModelStatus,
    pub status_after: ModelStatus,
    /// WG-8: the target was already disabled, so this hit destroyed it.
    pub destroyed_by_hit: bool,
}

/// Roll damage and mark it on `target`. Every check and every die comes before the only write,
/// so a refusal leaves the target as it was.
pub fn resolve_damage(
    req: &DamageRequest,
    attacker: &Model,
    target: &mut Model,
    roller: &mut impl Roller,
) -> Result<DamageOutcome, RuleError> {
    check_range(
        Quantity::Modifier,
        i64::from(req.modifier),
        -MAX_MODIFIER,
        MAX_MODIFIER,
    )?;
    target.alive()?;
    let (base_pow, weapon) = match &req.pow {
        PowSource::Weapon(w) => {
            let w = attacker.weapon(w)?;
            (w.pow, Some(w.name.clone()))
        }
        PowSource::Value(p) => {
            check_range(Quantity::Pow, i64::from(*p), 0, i64::from(MAX_STAT))?;
            (*p, None)
        }
    };
    let dice = roll(&req.dice, RollKind::Damage, [attacker, target], roller)?;
    let pow = read_stat(Stat::Pow, i64::from(base_pow), &attacker.effects);
    let arm = target.stat(Stat::Arm);
    let raw = dice.kept_total + pow.value + i64::from(req.modifier) - arm.value;
    let damage = raw.clamp(0, i64::from(u32::MAX)) as u32;
    let boxes_before = target.boxes();
    let status_before = target.status;
    let destroyed_by_hit = target.take_hit(damage);
    Ok(DamageOutcome {
        attacker: attacker.name.clone(),
        target: target.name.clone(),
        weapon,
        roll: dice,
        pow,
        modifier: req.modifier,
        arm,
        raw,
        damage,
        boxes_before,
        boxes_after: target.boxes(),
        status_before,
        status_after: target.status,
        destroyed_by_hit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::warmachine::effects::{EffectSpec, Expiry, StatChange, preset};
    use crate::systems::warmachine::model::{AttackKind, Weapon};

    fn attacker() -> Model {
        let mut m = Model::new("Reaper", "Ana", 12, 18, 30);
        m.weapons.push(Weapon {
            name: "Harpoon".into(),
            pow: 14,
            kind: AttackKind::Ranged,
        });
        m
    }

    fn hit(target: &mut Model, pow: PowSource, faces: &[u32]) -> DamageOutcome {
        let req = DamageRequest {
            pow,
            modifier: 0,
            dice: DiceRequest::default(),
        };
        resolve_damage(&req, &attacker(), target, &mut FixedRoller::new(faces.to_vec())).unwrap()
    }

    #[test]
    fn dark_shroud_and_kiss_of_lyliss_take_four_arm() {
        // Item 15's example: ARM 18 → 14; 2d6 7 + POW 14 − 14 = 7 boxes.
        let mut t = Model::new("Juggernaut", "Ben", 10, 18, 34);
        t.add_effect(&preset("Dark Shroud").unwrap(), Expiry::Manual, None, None)
            .unwrap();
        t.add_effect(&preset("キスオブ・リリス").unwrap(), Expiry::Manual, None, None)
            .unwrap();
        let r = hit(&mut t, PowSource::Weapon("harpoon".into()), &[3, 4]);
        assert_eq!((r.arm.base, r.arm.value), (18, 14));
        assert_eq!(r.arm.applied.len(), 2);
        assert_eq!(r.damage, 7);
        assert_eq!(r.boxes_before, Boxes { marked: 0, total: 34 });
        assert_eq!(r.boxes_after, Boxes { marked: 7, total: 34 });
        assert_eq!(t.marked, 7);
    }

    #[test]
    fn two_dark_shrouds_take_only_two() {
        let mut t = Model::new("Juggernaut", "Ben", 10, 18, 34);
        let p = preset("dark_shroud").unwrap();
        t.add_effect(&p, Expiry::Manual, Some("Shade A"), None).unwrap();
        t.add_effect(&p, Expiry::Manual, Some("Shade B"), None).unwrap();
        let r = hit(&mut t, PowSource::Weapon("Harpoon".into()), &[3, 4]);
        assert_eq!(r.arm.value, 16);
        assert_eq!(r.arm.not_stacked.len(), 1);
        assert_eq!(r.damage, 5);
    }

    #[test]
    fn damage_never_goes_below_zero_and_exact_arm_is_zero() {
        let mut t = Model::new("Wall", "Ben", 10, 25, 10);
        let r = hit(&mut t, PowSource::Value(10), &[1, 2]);
        assert_eq!((r.raw, r.damage), (-12, 0));
        assert_eq!(t.marked, 0);
        let mut t = Model::new("Wall", "Ben", 10, 13, 10);
        let r = hit(&mut t, PowSource::Value(10), &[1, 2]);
        assert_eq!((r.raw, r.damage), (0, 0));
    }

    #[test]
    fn filling_the_boxes_disables_and_a_later_hit_destroys() {
        let mut t = Model::new("Grunt", "Ben", 13, 13, 5);
        let r = hit(&mut t, PowSource::Value(12), &[3, 4]);
        assert_eq!((r.damage, r.boxes_after.marked), (6, 5));
        assert_eq!(
            (r.status_before, r.status_after),
            (ModelStatus::Ok, ModelStatus::Disabled)
        );
        let r = hit(&mut t, PowSource::Value(0), &[1, 1]);
        assert!(r.destroyed_by_hit);
        assert_eq!(r.status_after, ModelStatus::Destroyed);
        let before = t.clone();
        let req = DamageRequest {
            pow: PowSource::Value(10),
            modifier: 0,
            dice: DiceRequest::default(),
        };
        assert!(matches!(
            resolve_damage(&req, &attacker(), &mut t, &mut FixedRoller::new(vec![3, 4])),
            Err(RuleError::Destroyed { .. })
        ));
        assert_eq!(t, before);
    }

    #[test]
    fn pow_effects_on_the_attacker_count() {
        let mut a = attacker();
        a.add_effect(
            &EffectSpec {
                name: "Fury".into(),
                changes: vec![StatChange {
                    stat: Stat::Pow,
                    delta: 3,
                }],
                cannot: vec![],
            },
            Expiry::Manual,
            None,
            None,
        )
        .unwrap();
        let mut t = Model::new("T", "Ben", 10, 15, 20);
        let req = DamageRequest {
            pow: PowSource::Weapon("Harpoon".into()),
            modifier: 1,
            dice: DiceRequest {
                boost: true,
                ..DiceRequest::default()
            },
        };
        let r = resolve_damage(&req, &a, &mut t, &mut FixedRoller::new(vec![1, 2, 3])).unwrap();
        assert_eq!(r.pow.value, 17);
        assert_eq!(r.damage, 6 + 17 + 1 - 15);
    }

    #[test]
    fn bad_damage_requests_change_nothing() {
        let mut t = Model::new("T", "Ben", 10, 15, 20);
        let before = t.clone();
        let mut dice = FixedRoller::new(vec![3, 4]);
        for req in [
            DamageRequest {
                pow: PowSource::Value(31),
                modifier: 0,
                dice: DiceRequest::default(),
            },
            DamageRequest {
                pow: PowSource::Weapon("Axe".into()),
                modifier: 0,
                dice: DiceRequest::default(),
            },
            DamageRequest {
                pow: PowSource::Value(10),
                modifier: -21,
                dice: DiceRequest::default(),
            },
        ] {
            assert!(resolve_damage(&req, &attacker(), &mut t, &mut dice).is_err());
        }
        // Dice running out is an error too, and still nothing is marked.
        let req = DamageRequest {
            pow: PowSource::Value(10),
            modifier: 0,
            dice: DiceRequest {
                boost: true,
                ..DiceRequest::default()
            },
        };
        assert!(matches!(
            resolve_damage(&req, &attacker(), &mut t, &mut dice),
            Err(RuleError::Dice(_))
        ));
        assert_eq!(t, before);
    }
}
