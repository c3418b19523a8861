//! The attack roll (items 4–8, 17, 18, WG-7): 2d6 (+ boost / additional dice, − discards) +
//! MAT or RAT after effects + modifiers, against DEF after effects.

use serde::{Deserialize, Serialize};

use super::dice::{Automatic, DiceRequest, DiceRoll, RollKind, roll};
use super::effects::{CannotFlag, EffectInstance, Expiry, Stat, StatChange, StatReading};
use super::error::{Quantity, RuleError, check_range};
use super::model::{AttackKind, MAX_STAT, Model};
use crate::dice::Roller;

/// Largest modifier one roll takes.
pub const MAX_MODIFIER: i64 = 20;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackRequest {
    /// Melee adds MAT, ranged RAT. A named weapon decides it instead.
    pub kind: AttackKind,
    #[serde(default)]
    pub weapon: Option<String>,
    /// Terrain, cover, elevation…: what the bot cannot see (rules §3), as one number.
    #[serde(default)]
    pub modifier: i32,
    #[serde(default)]
    pub dice: DiceRequest,
    /// Checklist 16: the target claims cover worth this much DEF (the players judge the
    /// terrain, rules §3). "Gains cover" is a must rule, so a target that cannot gain cover is
    /// refused, with the reason. 0: no cover.
    #[serde(default)]
    pub cover: u32,
}

/// The name cover's DEF bonus shows under in the attack's DEF.
pub const COVER: &str = "Cover";

/// The server's (or channel's) options an attack reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackOptions {
    /// `wm.auto_hit_miss` (WG-7), default on.
    pub auto_hit_miss: bool,
}

impl Default for AttackOptions {
    fn default() -> Self {
        AttackOptions { auto_hit_miss: true }
    }
}

/// Where the automatic hit/miss rule came from (item 17: a model's rule over the server's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "from")]
pub enum RuleSource {
    Server,
    Model { name: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AutoRule {
    pub enabled: bool,
    pub source: RuleSource,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AttackOutcome {
    pub attacker: String,
    pub target: String,
    pub kind: AttackKind,
    pub weapon: Option<String>,
    /// WG-9: the active player is the attacker's controller.
    pub active_player: String,
    pub roll: DiceRoll,
    /// MAT or RAT after the attacker's effects.
    pub attack_stat: StatReading,
    pub modifier: i32,
    pub total: i64,
    /// DEF after the target's effects.
    pub def: StatReading,
    pub hit: bool,
    /// Item 7: a hit with a pair among the kept dice.
    pub critical: bool,
    /// The automatic result that decided the roll, when the rule is on and the dice show one.
    pub automatic: Option<Automatic>,
    /// All 1s or all 6s while the rule is off: shown, not applied.
    pub automatic_ignored: Option<Automatic>,
    pub auto_rule: AutoRule,
    /// WG-8: the target is disabled, so this hit destroys it when damage is resolved.
    pub destroys_disabled_target: bool,
}

/// Which automatic rule holds: the attacker's own rule, else the server's option.
pub fn auto_rule(attacker: &Model, options: &AttackOptions) -> AutoRule {
    match attacker.auto_hit_miss {
        Some(enabled) => AutoRule {
            enabled,
            source: RuleSource::Model {
                name: attacker.name.clone(),
            },
        },
        None => AutoRule {
            enabled: options.auto_hit_miss,
            source: RuleSource::Server,
        },
    }
}

/// Roll an attack. Pure: the models are read, never changed.
pub fn resolve_attack(
    req: &AttackRequest,
    attacker: &Model,
    target: &Model,
    options: &AttackOptions,
    roller: &mut impl Roller,
) -> Result<AttackOutcome, RuleError> {
    check_range(
        Quantity::Modifier,
        i64::from(req.modifier),
        -MAX_MODIFIER,
        MAX_MODIFIER,
    )?;
    attacker.alive()?;
    target.alive()?;
    let covered;
    let target = if req.cover > 0 {
        check_range(Quantity::Cover, i64::from(req.cover), 0, i64::from(MAX_STAT))?;
        target.check_not_forbidden(&CannotFlag::Cover)?;
        let mut t = target.clone();
        // As an effect of the attack's own, so the DEF shows it beside the others; the
        // model's effect limit does not apply to it.
        t.effects.push(EffectInstance {
            id: t.next_effect_id.max(1),
            name: COVER.into(),
            changes: vec![StatChange {
                stat: Stat::Def,
                delta: req.cover as i32,
            }],
            cannot: vec![],
            source: None,
            owner: None,
            expiry: Expiry::Manual,
        });
        covered = t;
        &covered
    } else {
        target
    };
    let (kind, weapon) = match &req.weapon {
        Some(w) => {
            let w = attacker.weapon(w)?;
            (w.kind, Some(w.name.clone()))
        }
        None => (req.kind, None),
    };
    let dice = roll(&req.dice, RollKind::Attack, [attacker, target], roller)?;
    let attack_stat = attacker.stat(kind.stat());
    let def = target.stat(Stat::Def);
    let total = dice.kept_total + attack_stat.value + i64::from(req.modifier);
    let rule = auto_rule(attacker, options);
    let auto = dice.automatic();
    let (hit, automatic, automatic_ignored) = match (rule.enabled, auto) {
        (true, Some(Automatic::Hit)) => (true, auto, None),
        (true, Some(Automatic::Miss)) => (false, auto, None),
        (false, Some(_)) => (total >= def.value, None, auto),
        (_, None) => (total >= def.value, None, None),
    };
    Ok(AttackOutcome {
        attacker: attacker.name.clone(),
        target: target.name.clone(),
        kind,
        weapon,
        active_player: attacker.controller.clone(),
        critical: hit && dice.has_pair(),
        roll: dice,
        attack_stat,
        modifier: req.modifier,
        total,
        def,
        hit,
        automatic,
        automatic_ignored,
        auto_rule: rule,
        destroys_disabled_target: hit && target.status == super::model::ModelStatus::Disabled,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::warmachine::dice::{Discard, DiscardWhich};
    use crate::systems::warmachine::effects::{CannotFlag, EffectSpec, Expiry, StatChange};
    use crate::systems::warmachine::model::Weapon;

    fn attacker() -> Model {
        let mut m = Model::new("Stalker", "Ana", 14, 16, 25);
        m.mat = 7;
        m.rat = 4;
        m.weapons.push(Weapon {
            name: "Blade".into(),
            pow: 13,
            kind: AttackKind::Melee,
        });
        m
    }

    fn target(def: u32) -> Model {
        Model::new("Grunt", "Ben", def, 13, 5)
    }

    fn attack(req: &AttackRequest, a: &Model, t: &Model, auto: bool, faces: &[u32]) -> AttackOutcome {
        resolve_attack(
            req,
            a,
            t,
            &AttackOptions { auto_hit_miss: auto },
            &mut FixedRoller::new(faces.to_vec()),
        )
        .unwrap()
    }

    fn melee() -> AttackRequest {
        AttackRequest {
            kind: AttackKind::Melee,
            weapon: None,
            modifier: 0,
            dice: DiceRequest::default(),
            cover: 0,
        }
    }

    #[test]
    fn a_total_equal_to_def_hits_and_one_less_misses() {
        // Item 4: 2d6 + MAT + modifiers ≥ DEF.
        let a = attacker();
        let r = attack(&melee(), &a, &target(14), true, &[3, 4]);
        assert_eq!((r.total, r.hit), (14, true));
        let r = attack(&melee(), &a, &target(15), true, &[3, 4]);
        assert!(!r.hit);
        let ranged = AttackRequest {
            kind: AttackKind::Ranged,
            modifier: -2,
            ..melee()
        };
        let r = attack(&ranged, &a, &target(10), true, &[3, 4]);
        assert_eq!((r.total, r.attack_stat.stat), (9, Stat::Rat));
        assert!(!r.hit);
        assert_eq!(r.active_player, "Ana");
    }

    #[test]
    fn def_after_effects_decides() {
        let a = attacker();
        let mut t = target(15);
        t.add_effect(
            &EffectSpec {
                name: "Stationary".into(),
                changes: vec![StatChange {
                    stat: Stat::Def,
                    delta: -2,
                }],
                cannot: vec![],
            },
            Expiry::Manual,
            None,
            None,
        )
        .unwrap();
        let r = attack(&melee(), &a, &t, true, &[3, 4]);
        assert_eq!((r.def.base, r.def.value), (15, 13));
        assert_eq!(r.def.applied[0].effect, "Stationary");
        assert!(r.hit);
    }

    #[test]
    fn a_hit_with_a_pair_is_critical_and_a_miss_never_is() {
        let a = attacker();
        let r = attack(&melee(), &a, &target(12), true, &[3, 3]);
        assert!(r.hit && r.critical);
        let r = attack(&melee(), &a, &target(20), true, &[3, 3]);
        assert!(!r.hit && !r.critical);
    }

    #[test]
    fn a_discard_breaks_a_critical_pair() {
        // Item 6: 2,2,5 discard lowest → 2+5: a hit, not critical.
        let a = attacker();
        let req = AttackRequest {
            dice: DiceRequest {
                boost: true,
                additional: vec![],
                discard: Some(Discard {
                    which: DiscardWhich::Lowest,
                    count: 1,
                }),
            },
            ..melee()
        };
        let r = attack(&req, &a, &target(12), true, &[2, 2, 5]);
        assert_eq!(r.total, 14);
        assert!(r.hit && !r.critical);
        let r = attack(
            &AttackRequest {
                dice: DiceRequest {
                    boost: true,
                    ..DiceRequest::default()
                },
                ..melee()
            },
            &a,
            &target(12),
            true,
            &[2, 2, 5],
        );
        assert!(r.hit && r.critical, "without the discard the pair stands");
    }

    #[test]
    fn all_ones_and_all_sixes_with_the_option_on_and_off() {
        let mut a = attacker();
        a.mat = 20;
        // All 1s: an automatic miss however high the total, when on.
        let r = attack(&melee(), &a, &target(5), true, &[1, 1]);
        assert_eq!((r.hit, r.automatic), (false, Some(Automatic::Miss)));
        assert!(!r.critical);
        let r = attack(&melee(), &a, &target(5), false, &[1, 1]);
        assert_eq!(
            (r.hit, r.automatic, r.automatic_ignored),
            (true, None, Some(Automatic::Miss))
        );
        assert!(r.critical, "off: the 1s are an ordinary pair on a hit");
        // All 6s: an automatic (critical) hit whatever the DEF, when on.
        a.mat = 0;
        let r = attack(&melee(), &a, &target(25), true, &[6, 6]);
        assert_eq!(
            (r.hit, r.critical, r.automatic),
            (true, true, Some(Automatic::Hit))
        );
        let r = attack(&melee(), &a, &target(25), false, &[6, 6]);
        assert_eq!((r.hit, r.automatic_ignored), (false, Some(Automatic::Hit)));
    }

    #[test]
    fn one_kept_six_is_no_automatic_hit_but_one_kept_one_misses() {
        let a = attacker();
        let keep_one = AttackRequest {
            dice: DiceRequest {
                discard: Some(Discard {
                    which: DiscardWhich::Lowest,
                    count: 1,
                }),
                ..DiceRequest::default()
            },
            ..melee()
        };
        let r = attack(&keep_one, &a, &target(25), true, &[6, 2]);
        assert_eq!((r.hit, r.automatic), (false, None));
        let keep_low = AttackRequest {
            dice: DiceRequest {
                discard: Some(Discard {
                    which: DiscardWhich::Highest,
                    count: 1,
                }),
                ..DiceRequest::default()
            },
            ..melee()
        };
        let r = attack(&keep_low, &a, &target(2), true, &[1, 6]);
        assert_eq!((r.hit, r.automatic), (false, Some(Automatic::Miss)));
    }

    #[test]
    fn a_model_rule_beats_the_server_option() {
        // Item 17.
        let mut a = attacker();
        a.auto_hit_miss = Some(false);
        let r = attack(&melee(), &a, &target(5), true, &[1, 1]);
        assert!(r.hit);
        assert_eq!(
            r.auto_rule.source,
            RuleSource::Model {
                name: "Stalker".into()
            }
        );
        a.auto_hit_miss = Some(true);
        let r = attack(&melee(), &a, &target(25), false, &[6, 6]);
        assert!(r.hit);
        a.auto_hit_miss = None;
        assert_eq!(
            attack(&melee(), &a, &target(5), true, &[1, 1]).auto_rule.source,
            RuleSource::Server
        );
    }

    #[test]
    fn a_named_weapon_decides_the_kind_and_a_cannot_removes_the_boost() {
        let a = attacker();
        let mut t = target(12);
        t.cannot.push(CannotFlag::BoostAttack);
        let req = AttackRequest {
            kind: AttackKind::Ranged,
            weapon: Some("blade".into()),
            dice: DiceRequest {
                boost: true,
                ..DiceRequest::default()
            },
            ..melee()
        };
        let r = attack(&req, &a, &t, true, &[2, 3]);
        assert_eq!((r.kind, r.weapon.as_deref()), (AttackKind::Melee, Some("Blade")));
        assert_eq!(r.roll.dice.len(), 2);
        assert_eq!(r.roll.removed.len(), 1);
    }

    #[test]
    fn bad_attacks_are_refused_without_rolling() {
        let a = attacker();
        let mut dice = FixedRoller::new(vec![3, 4]);
        let bad = AttackRequest {
            modifier: 21,
            ..melee()
        };
        let o = AttackOptions::default();
        assert!(matches!(
            resolve_attack(&bad, &a, &target(12), &o, &mut dice),
            Err(RuleError::OutOfRange {
                what: Quantity::Modifier,
                ..
            })
        ));
        let gun = AttackRequest {
            weapon: Some("Cannon".into()),
            ..melee()
        };
        assert!(matches!(
            resolve_attack(&gun, &a, &target(12), &o, &mut dice),
            Err(RuleError::NoSuchWeapon { .. })
        ));
        let mut gone = target(12);
        gone.destroy().unwrap();
        assert!(matches!(
            resolve_attack(&melee(), &a, &gone, &o, &mut dice),
            Err(RuleError::Destroyed { .. })
        ));
        assert_eq!(dice.remaining(), 2);
    }

    #[test]
    fn the_outcome_serializes_every_die_with_its_mark() {
        let a = attacker();
        let req = AttackRequest {
            dice: DiceRequest {
                boost: true,
                additional: vec!["Feat".into()],
                discard: Some(Discard {
                    which: DiscardWhich::Highest,
                    count: 1,
                }),
            },
            ..melee()
        };
        let r = attack(&req, &a, &target(12), true, &[2, 6, 4, 3]);
        let v = serde_json::to_value(&r).unwrap();
        let dice = v["roll"]["dice"].as_array().unwrap();
        assert_eq!(dice.len(), 4);
        assert_eq!(
            dice[1],
            serde_json::json!({"value": 6, "kept": false, "source": {"kind": "base"}})
        );
        assert_eq!(
            dice[3]["source"],
            serde_json::json!({"kind": "additional", "rule": "Feat"})
        );
        assert_eq!((v["total"].as_i64(), v["hit"].as_bool()), (Some(16), Some(true)));
        assert_eq!(v["def"]["value"], 12);
        assert_eq!(
            v["auto_rule"],
            serde_json::json!({"enabled": true, "source": {"from": "server"}})
        );
    }

    #[test]
    fn a_hit_on_a_disabled_target_is_flagged() {
        let a = attacker();
        let mut t = target(5);
        t.take_hit(5);
        let r = attack(&melee(), &a, &t, true, &[3, 4]);
        assert!(r.destroys_disabled_target);
    }

    /// Checklist 16, issue 29: cover adds its DEF bonus (shown among the DEF's effects); a
    /// target that cannot gain cover is refused with the reason, whatever its source.
    #[test]
    fn cover_adds_def_and_cannot_cover_refuses_it() {
        let a = attacker();
        let t = target(12);
        let covered = AttackRequest { cover: 4, ..melee() };
        // 5 + 5 + MAT 7 = 17: hits DEF 12, hits DEF 16 with cover (equal), misses 17.
        let o = attack(&covered, &a, &t, true, &[5, 5]);
        assert_eq!((o.def.value, o.hit), (16, true));
        assert!(
            o.def.applied.iter().any(|x| x.effect == COVER && x.delta == 4),
            "{:?}",
            o.def
        );
        let o = attack(&AttackRequest { cover: 5, ..melee() }, &a, &t, true, &[5, 5]);
        assert_eq!((o.def.value, o.hit), (17, true));
        let o = attack(&AttackRequest { cover: 5, ..melee() }, &a, &t, true, &[5, 4]);
        assert!(!o.hit);
        let mut stubborn = t.clone();
        stubborn.name = "Nomad".into();
        stubborn.cannot.push(CannotFlag::Cover);
        let e = resolve_attack(
            &covered,
            &a,
            &stubborn,
            &AttackOptions::default(),
            &mut FixedRoller::new(vec![5, 5]),
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("Nomad cannot gain cover"), "{e}");
        assert!(
            resolve_attack(
                &AttackRequest { cover: 31, ..melee() },
                &a,
                &t,
                &AttackOptions::default(),
                &mut FixedRoller::new(vec![5, 5]),
            )
            .is_err()
        );
        // No cover asked: the flag does not matter.
        assert!(attack(&melee(), &a, &stubborn, true, &[5, 5]).hit);
    }
}
