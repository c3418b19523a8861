//! Ranged and melee combat end to end (seed 3.4, 3.5): attack against defence, modified DV,
//! Physical or Stun, soak, knockdown, and the damage landing on the target's monitor.

use serde::{Deserialize, Serialize};

use super::character::{Attribute, Character, DamageReport, DamageType, skills, to_i32};
use super::dice::EdgeAfter;
use super::error::{Quantity, RuleError, check_range};
use super::modifiers::PresetChoice;
use super::pool::{DicePool, PartSource};
use super::test_kinds::{EdgeBefore, OpposedResult, RollSpec, Rolled, hits_of, roll, roll_or_nothing};
use crate::dice::Roller;

/// Damage at or above this always knocks the target down (seed 3.4 step 6).
pub const KNOCKDOWN_DAMAGE: u32 = 10;
pub const MAX_DV: u32 = 50;
pub const MAX_AP: i32 = 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    Ranged,
    Melee,
}

/// Seed 3.5 (b): the defender's reaction to a melee attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MeleeDefence {
    Parry,
    Block,
    #[default]
    Dodge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapon {
    /// Damage value.
    pub dv: u32,
    /// A weapon that does Stun damage (the comparison with armour is skipped).
    #[serde(default)]
    pub stun: bool,
    /// Armour penetration (usually 0 or negative).
    #[serde(default)]
    pub ap: i32,
}

/// One attack. Pools are numbers with parts, so a command can give them directly or build
/// them from sheets with [`AttackRequest::from_sheets`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackRequest {
    pub kind: AttackKind,
    pub attack: RollSpec,
    /// A defence pool of 0 (or a `defence.unaware` preset) rolls nothing.
    pub defence: RollSpec,
    #[serde(default)]
    pub full_defence: bool,
    pub weapon: Weapon,
    /// The armour that counts: ballistic for ranged, impact for melee.
    pub armour: u32,
    /// The defender's Body (soak dice and knockdown).
    pub body: u32,
    /// Edge before the soak roll.
    #[serde(default)]
    pub soak_edge: Option<EdgeBefore>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttackOutcome {
    pub kind: AttackKind,
    pub attack: Rolled,
    pub defence: Option<Rolled>,
    pub full_defence: bool,
    /// The defender could not defend (unaware).
    pub undefended: bool,
    pub attack_hits: u32,
    pub defence_hits: u32,
    pub net_hits: i64,
    pub result: OpposedResult,
    pub hit: bool,
    pub damage: Option<DamageDealt>,
}

/// What a hit does (seed 3.4 steps 3c–6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DamageDealt {
    pub weapon_dv: u32,
    /// Weapon DV + net hits.
    pub modified_dv: u32,
    pub armour: u32,
    pub ap: i32,
    /// Armour + AP.
    pub modified_armour: i64,
    pub damage_type: DamageType,
    /// Body + armour + AP, never below 0 dice.
    pub soak_pool: u32,
    pub soak: Option<Rolled>,
    pub soak_hits: u32,
    /// Boxes to mark: modified DV − soak hits, not below 0.
    pub boxes: u32,
    pub knockdown: bool,
    /// The soak was first rolled by an Edge press after the attack (it hit only then): its
    /// dice are that press's, not the first roll's (the recap tells their glitch with the press).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub soak_rolled_by_press: bool,
}

fn check_request(req: &AttackRequest) -> Result<(), RuleError> {
    check_range(
        Quantity::DamageValue,
        i64::from(req.weapon.dv),
        0,
        i64::from(MAX_DV),
    )?;
    check_range(
        Quantity::ArmourPenetration,
        i64::from(req.weapon.ap),
        -i64::from(MAX_AP),
        i64::from(MAX_AP),
    )?;
    check_range(Quantity::Armour, i64::from(req.armour), 0, 50)?;
    check_range(Quantity::Attribute, i64::from(req.body), 0, 30)
}

/// The soak spec: Body + armour + AP, never below 0 dice (decisions "Combat" 3).
fn soak_spec(req: &AttackRequest) -> (RollSpec, u32) {
    let total = (i64::from(req.body) + i64::from(req.armour) + i64::from(req.weapon.ap)).max(0);
    let pool = DicePool::default()
        .with(
            PartSource::Attribute {
                attribute: Attribute::Body,
            },
            req.body as i32,
        )
        .with(PartSource::Armour, req.armour as i32)
        .with(PartSource::ArmourPenetration, req.weapon.ap);
    let spec = RollSpec {
        pool,
        edge: req.soak_edge,
        retry: 0,
    };
    (spec, u32::try_from(total).unwrap_or(0))
}

impl AttackOutcome {
    /// Whether the defender's Edge went into a defence roll that was made (no roll, no Edge:
    /// an unaware defender, or a pool of 0 with nothing pushed).
    pub fn defence_edge_rolled(&self) -> bool {
        self.defence.as_ref().is_some_and(|r| r.edge.is_some())
    }

    /// Whether the defender's Edge went into a soak roll that was made (only a hit is soaked).
    pub fn soak_edge_rolled(&self) -> bool {
        self.damage
            .as_ref()
            .and_then(|d| d.soak.as_ref())
            .is_some_and(|r| r.edge.is_some())
    }

    /// Edge points the defender spends for this attack: one per roll made with Edge.
    pub fn defender_edge_spent(&self) -> u32 {
        u32::from(self.defence_edge_rolled()) + u32::from(self.soak_edge_rolled())
    }
}

/// Seed 3.4 steps 4–6 once the attack has hit.
fn damage(
    req: &AttackRequest,
    net_hits: u32,
    soak: Option<Option<Rolled>>,
    roller: &mut impl Roller,
) -> Result<DamageDealt, RuleError> {
    let modified_dv = req.weapon.dv + net_hits;
    let modified_armour = i64::from(req.armour) + i64::from(req.weapon.ap);
    // Physical if modified DV > armour + AP; otherwise, and for Stun weapons, Stun.
    let damage_type = if !req.weapon.stun && i64::from(modified_dv) > modified_armour {
        DamageType::Physical
    } else {
        DamageType::Stun
    };
    let (spec, soak_pool) = soak_spec(req);
    let soak = match soak {
        Some(s) => s,
        None if soak_pool == 0 && req.soak_edge.is_none() => None,
        None => roll_or_nothing(&spec, roller)?,
    };
    let soak_hits = hits_of(&soak);
    let boxes = modified_dv.saturating_sub(soak_hits);
    Ok(DamageDealt {
        weapon_dv: req.weapon.dv,
        modified_dv,
        armour: req.armour,
        ap: req.weapon.ap,
        modified_armour,
        damage_type,
        soak_pool,
        soak,
        soak_hits,
        boxes,
        knockdown: boxes > req.body || boxes >= KNOCKDOWN_DAMAGE,
        soak_rolled_by_press: false,
    })
}

fn finish(
    req: &AttackRequest,
    attack: Rolled,
    defence: Option<Rolled>,
    undefended: bool,
    soak: Option<Option<Rolled>>,
    roller: &mut impl Roller,
) -> Result<AttackOutcome, RuleError> {
    let attack_hits = attack.hits();
    let defence_hits = hits_of(&defence);
    let net_hits = i64::from(attack_hits) - i64::from(defence_hits);
    let result = OpposedResult::from_net(net_hits);
    // Ties miss (seed 3.4 (c) i).
    let hit = result.actor_succeeds();
    let damage = if hit {
        Some(damage(req, u32::try_from(net_hits).unwrap_or(0), soak, roller)?)
    } else {
        None
    };
    Ok(AttackOutcome {
        kind: req.kind,
        attack,
        defence,
        full_defence: req.full_defence,
        undefended,
        attack_hits,
        defence_hits,
        net_hits,
        result,
        hit,
        damage,
    })
}

/// Resolve an attack: attack roll, defence roll, and on a hit the soak roll.
pub fn resolve_attack(req: &AttackRequest, roller: &mut impl Roller) -> Result<AttackOutcome, RuleError> {
    check_request(req)?;
    let attack = roll(&req.attack, roller)?;
    let undefended = req.defence.pool.forbids_defence();
    let defence = if undefended {
        None
    } else {
        roll_or_nothing(&req.defence, roller)?
    };
    finish(req, attack, defence, undefended, None, roller)
}

/// Which roll of an attack spends Edge after the fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackRoll {
    Attack,
    Defence,
    Soak,
}

impl AttackOutcome {
    /// Edge after a roll of this attack (Second Chance on the attack is the button). The
    /// other rolls stay; the soak roll is kept when there was one (its pool does not depend on
    /// the hits) and rolled now if the attack only hits after the Edge.
    pub fn with_edge_after(
        &self,
        req: &AttackRequest,
        which: AttackRoll,
        action: EdgeAfter,
        roller: &mut impl Roller,
    ) -> Result<AttackOutcome, RuleError> {
        check_request(req)?;
        let mut attack = self.attack.clone();
        let mut defence = self.defence.clone();
        let mut soak = self.damage.as_ref().map(|d| d.soak.clone());
        match which {
            AttackRoll::Attack => attack = attack.with_edge_after(action, roller)?,
            AttackRoll::Defence => {
                let d = defence.as_ref().ok_or(RuleError::NothingToReroll)?;
                defence = Some(d.with_edge_after(action, roller)?);
            }
            AttackRoll::Soak => {
                let s = soak.clone().flatten().ok_or(RuleError::NothingToReroll)?;
                soak = Some(Some(s.with_edge_after(action, roller)?));
            }
        }
        let mut next = finish(req, attack, defence, self.undefended, soak, roller)?;
        if self.damage.is_none()
            && let Some(d) = next.damage.as_mut()
        {
            d.soak_rolled_by_press = d.soak.is_some();
        }
        Ok(next)
    }
}

/// What the sheets cannot tell: the skills used, the defence chosen and the modifiers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SheetAttack {
    /// The attacker's weapon skill (`pistols`, `blades`…).
    pub attack_skill: String,
    #[serde(default)]
    pub attack_presets: Vec<PresetChoice>,
    #[serde(default)]
    pub attack_edge: Option<EdgeBefore>,
    #[serde(default)]
    pub full_defence: bool,
    #[serde(default)]
    pub melee_defence: MeleeDefence,
    /// The defender's weapon skill for a parry (`blades` when not given).
    #[serde(default)]
    pub parry_skill: Option<String>,
    #[serde(default)]
    pub defence_presets: Vec<PresetChoice>,
    #[serde(default)]
    pub defence_edge: Option<EdgeBefore>,
    #[serde(default)]
    pub soak_edge: Option<EdgeBefore>,
}

/// The attack kind a preset is limited to, from the seed's tables: the ranged table and the
/// defence rows under 射撃戦闘時のみ are ranged only; the melee table and "defender prone" are
/// melee only. Visibility, perception and the rest fit either.
pub fn preset_attack_kind(key: &str) -> Option<AttackKind> {
    const RANGED_DEFENCE: [&str; 8] = [
        "defence.running",
        "defence.in_melee",
        "defence.wide_burst",
        "defence.wide_long_burst",
        "defence.wide_full_burst",
        "defence.shotgun_medium_spread",
        "defence.shotgun_wide_spread",
        "defence.area_effect",
    ];
    if key == "defence.prone_melee" || key.starts_with("melee.") {
        Some(AttackKind::Melee)
    } else if key.starts_with("ranged.") || RANGED_DEFENCE.contains(&key) {
        Some(AttackKind::Ranged)
    } else {
        None
    }
}

/// Refuse a preset meant for the other kind of attack.
pub fn check_presets_for(kind: AttackKind, presets: &[PresetChoice]) -> Result<(), RuleError> {
    for p in presets {
        if let Some(only) = preset_attack_kind(&p.key)
            && only != kind
        {
            return Err(RuleError::PresetWrongAttackKind {
                key: p.key.clone(),
                melee_only: only == AttackKind::Melee,
            });
        }
    }
    Ok(())
}

impl AttackRequest {
    /// Build the pools from two sheets: attack Agility + skill (seed 3.4 (a), 3.5 (a)),
    /// defence Reaction (+ the best of the full-defence skills) or the melee reaction, each
    /// with wounds and sustaining; soak Body + the right armour + AP, which wounds do not touch.
    pub fn from_sheets(
        kind: AttackKind,
        attacker: &Character,
        defender: &Character,
        weapon: Weapon,
        how: &SheetAttack,
    ) -> Result<AttackRequest, RuleError> {
        check_presets_for(kind, &how.attack_presets)?;
        check_presets_for(kind, &how.defence_presets)?;
        let attack = attacker.pool(Attribute::Agility, &how.attack_skill, &how.attack_presets)?;
        let reaction = DicePool::default().with(
            PartSource::Attribute {
                attribute: Attribute::Reaction,
            },
            to_i32(defender.attribute(Attribute::Reaction)),
        );
        let skill_part = |pool: DicePool, name: &str| {
            pool.with(
                PartSource::Skill {
                    skill: name.to_string(),
                },
                defender.skill_or_zero(name),
            )
        };
        // Full defence adds the better of the two skills the seed names.
        let best = |pool: DicePool, a: &str, b: &str| {
            let pick = if defender.skill_or_zero(a) >= defender.skill_or_zero(b) {
                a
            } else {
                b
            };
            skill_part(pool, pick)
        };
        let mut defence = match kind {
            AttackKind::Ranged => reaction,
            AttackKind::Melee => match how.melee_defence {
                MeleeDefence::Parry => {
                    let s = how.parry_skill.as_deref().unwrap_or("blades");
                    skill_part(reaction, s)
                }
                MeleeDefence::Block => skill_part(reaction, skills::UNARMED_COMBAT),
                MeleeDefence::Dodge => skill_part(reaction, skills::DODGE),
            },
        };
        if how.full_defence {
            defence = match (kind, how.melee_defence) {
                (AttackKind::Ranged, _) | (AttackKind::Melee, MeleeDefence::Dodge) => {
                    best(defence, skills::DODGE, skills::GYMNASTICS)
                }
                (AttackKind::Melee, MeleeDefence::Parry) => {
                    let s = how.parry_skill.as_deref().unwrap_or("blades");
                    best(defence, skills::DODGE, s)
                }
                (AttackKind::Melee, MeleeDefence::Block) => {
                    best(defence, skills::DODGE, skills::UNARMED_COMBAT)
                }
            };
        }
        let defence = defender
            .with_situational(defence)?
            .with_presets(&how.defence_presets, true)?;
        let armour = match kind {
            AttackKind::Ranged => defender.armour.ballistic,
            AttackKind::Melee => defender.armour.impact,
        };
        Ok(AttackRequest {
            kind,
            attack: RollSpec {
                pool: attack,
                edge: how.attack_edge,
                retry: 0,
            },
            defence: RollSpec {
                pool: defence,
                edge: how.defence_edge,
                retry: 0,
            },
            full_defence: how.full_defence,
            weapon,
            armour,
            body: defender.attribute(Attribute::Body),
            soak_edge: how.soak_edge,
        })
    }
}

/// "Apply damage": mark an attack's damage on the target's monitor. A miss changes nothing.
pub fn apply_attack(
    target: &Character,
    outcome: &AttackOutcome,
) -> Result<(Character, Option<DamageReport>), RuleError> {
    match &outcome.damage {
        None => Ok((target.clone(), None)),
        Some(d) => {
            let (next, report) = target.apply_damage(d.damage_type, d.boxes)?;
            Ok((next, Some(report)))
        }
    }
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::dice::FixedRoller;

    fn req(attack: i32, defence: i32, dv: u32, ap: i32, armour: u32, body: u32) -> AttackRequest {
        AttackRequest {
            kind: AttackKind::Ranged,
            attack: RollSpec::dice(attack),
            defence: RollSpec::dice(defence),
            full_defence: false,
            weapon: Weapon { dv, stun: false, ap },
            armour,
            body,
            soak_edge: None,
        }
    }

    fn fixed(f: &[u32]) -> FixedRoller {
        FixedRoller::new(f.iter().copied())
    }

    #[test]
    fn hit_adds_net_hits_to_dv_and_soak_removes_boxes() {
        // Attack 3 hits, defence 1: net 2, DV 5+2 = 7 > armour 6−1 = 5 → Physical.
        // Soak 3 + 6 − 1 = 8 dice, 2 hits → 5 boxes; 5 > Body 3 → knockdown.
        let r = req(4, 2, 5, -1, 6, 3);
        let mut dice = fixed(&[5, 5, 6, 1, 5, 2, 5, 5, 1, 2, 3, 4, 2, 3]);
        let o = resolve_attack(&r, &mut dice).unwrap();
        assert!(o.hit);
        let d = o.damage.unwrap();
        assert_eq!(
            (d.modified_dv, d.modified_armour, d.damage_type),
            (7, 5, DamageType::Physical)
        );
        assert_eq!((d.soak_pool, d.soak_hits, d.boxes), (8, 2, 5));
        assert!(d.knockdown);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn ties_miss_and_nothing_is_soaked() {
        let o = resolve_attack(&req(2, 2, 5, 0, 6, 3), &mut fixed(&[5, 2, 6, 1])).unwrap();
        assert!(!o.hit);
        assert!(o.damage.is_none());
    }

    #[test]
    fn modified_dv_not_above_armour_is_stun() {
        // Net 1: DV 5 + 1 = 6, armour 6 → Stun.
        let o = resolve_attack(
            &req(1, 1, 5, 0, 6, 3),
            &mut fixed(&[5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]),
        )
        .unwrap();
        assert_eq!(o.damage.unwrap().damage_type, DamageType::Stun);
        // Net 2: 7 > 6 → Physical.
        let o = resolve_attack(
            &req(2, 1, 5, 0, 6, 3),
            &mut fixed(&[5, 5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]),
        )
        .unwrap();
        assert_eq!(o.damage.unwrap().damage_type, DamageType::Physical);
    }

    #[test]
    fn knockdown_at_ten_even_with_high_body() {
        // DV 9 + 1 net = 10 boxes, Body 12 soaks nothing: 10 ≥ 10 knocks down.
        let mut r = req(1, 0, 9, -20, 0, 12);
        r.weapon.stun = true;
        let o = resolve_attack(&r, &mut fixed(&[5])).unwrap();
        let d = o.damage.unwrap();
        assert_eq!((d.soak_pool, d.boxes), (0, 10));
        assert!(d.knockdown);
        // Nine boxes against Body 12: no knockdown.
        let mut r9 = req(1, 0, 8, -20, 0, 12);
        r9.weapon.stun = true;
        let d = resolve_attack(&r9, &mut fixed(&[5])).unwrap().damage.unwrap();
        assert_eq!(d.boxes, 9);
        assert!(!d.knockdown);
    }

    #[test]
    fn second_chance_on_the_attack_can_turn_a_miss_into_a_hit() {
        let r = req(2, 1, 4, 0, 0, 2);
        let o = resolve_attack(&r, &mut fixed(&[5, 2, 6])).unwrap();
        assert!(!o.hit);
        // Reroll the 2 into a 5, then soak 2 dice: 2, 3.
        let o2 = o
            .with_edge_after(
                &r,
                AttackRoll::Attack,
                EdgeAfter::SecondChance,
                &mut fixed(&[5, 2, 3]),
            )
            .unwrap();
        assert!(o2.hit);
        let d = o2.damage.unwrap();
        assert_eq!(d.boxes, 5);
        assert!(d.soak_rolled_by_press, "the press rolled the soak");
    }

    #[test]
    fn defenders_second_chance_lowers_net_hits_dv_damage_and_knockdown() {
        // Attack 4 dice: 3 hits. Defence 3 dice: 1 hit (5, 2, 1). Net 2: DV 5 + 2 = 7 > armour
        // 6 − 1 → Physical. Soak Body 3 + 6 − 1 = 8 dice: 2 hits → 5 boxes, knockdown (> 3).
        let r = req(4, 3, 5, -1, 6, 3);
        let o = resolve_attack(&r, &mut fixed(&[5, 5, 6, 1, 5, 2, 1, 5, 5, 1, 2, 3, 4, 2, 3])).unwrap();
        let d = o.damage.clone().unwrap();
        assert_eq!((o.net_hits, d.modified_dv, d.boxes, d.knockdown), (2, 7, 5, true));
        assert_eq!(d.damage_type, DamageType::Physical);
        // The defender rerolls the two misses (2, 1 → 5, 3): 2 hits, net 1, DV 6 > 5 still
        // Physical; the soak roll is kept (2 hits): 4 boxes, still knockdown (> Body 3).
        let mut dice = fixed(&[5, 3]);
        let o2 = o
            .with_edge_after(&r, AttackRoll::Defence, EdgeAfter::SecondChance, &mut dice)
            .unwrap();
        assert_eq!(dice.remaining(), 0, "the soak is not rolled again");
        assert_eq!((o2.defence_hits, o2.net_hits), (2, 1));
        let d2 = o2.damage.clone().unwrap();
        assert_eq!((d2.modified_dv, d2.soak_hits, d2.boxes), (6, 2, 4));
        // A soak that was there before the press is the first roll's: not marked, and not
        // said in the JSON (only a soak the press rolled is).
        assert!(!d.soak_rolled_by_press && !d2.soak_rolled_by_press);
        let json = serde_json::to_value(&d2).unwrap();
        assert!(json.get("soak_rolled_by_press").is_none(), "{json}");
        assert!(o2.defence.as_ref().unwrap().roll.edge_used);
        // One Edge use per roll: the defence cannot take a second one.
        assert!(
            o2.with_edge_after(
                &r,
                AttackRoll::Defence,
                EdgeAfter::SecondChance,
                &mut fixed(&[5, 5])
            )
            .is_err()
        );
    }

    #[test]
    fn defenders_second_chance_can_turn_a_hit_into_a_miss_and_drop_the_soak() {
        // Attack 2 hits, defence 1 of 3: net 1, DV 5 + 1; soak 2 + 0 + 0 = 2 dice, no hit.
        let r = req(2, 3, 5, 0, 0, 2);
        let o = resolve_attack(&r, &mut fixed(&[5, 6, 5, 1, 2, 2, 3])).unwrap();
        assert!(o.hit);
        assert_eq!(o.damage.as_ref().unwrap().boxes, 6);
        // Misses 1, 2 → 6, 5: 3 hits against 2, the attack misses and nothing is soaked.
        let o2 = o
            .with_edge_after(
                &r,
                AttackRoll::Defence,
                EdgeAfter::SecondChance,
                &mut fixed(&[6, 5]),
            )
            .unwrap();
        assert!(!o2.hit);
        assert_eq!(o2.result, OpposedResult::from_net(-1));
        assert!(o2.damage.is_none());
    }

    #[test]
    fn defenders_edge_on_the_soak_removes_boxes_and_the_knockdown() {
        // Net 2: DV 5 + 2 = 7; soak 3 + 6 − 1 = 8 dice with 2 hits: 5 boxes > Body 3 → knockdown.
        let r = req(4, 3, 5, -1, 6, 3);
        let o = resolve_attack(&r, &mut fixed(&[5, 5, 6, 1, 5, 2, 1, 5, 5, 1, 2, 3, 4, 2, 3])).unwrap();
        // Second chance on the six soak misses: 5, 6, 5, 2, 2, 1 → 3 more hits, 5 in all: 2 boxes.
        let o2 = o
            .with_edge_after(
                &r,
                AttackRoll::Soak,
                EdgeAfter::SecondChance,
                &mut fixed(&[5, 6, 5, 2, 2, 1]),
            )
            .unwrap();
        let d = o2.damage.unwrap();
        assert_eq!(
            (d.modified_dv, d.soak_hits, d.boxes, d.knockdown),
            (7, 5, 2, false)
        );
        // No defence roll (unaware) means nothing to spend Edge on there.
        let mut u = req(2, 3, 5, 0, 0, 2);
        u.defence = RollSpec {
            pool: DicePool::dice(3)
                .with_presets(&[PresetChoice::new("defence.unaware")], false)
                .unwrap(),
            edge: None,
            retry: 0,
        };
        let o = resolve_attack(&u, &mut fixed(&[5, 5, 2, 2])).unwrap();
        assert!(o.undefended);
        assert!(matches!(
            o.with_edge_after(&u, AttackRoll::Defence, EdgeAfter::SecondChance, &mut fixed(&[5])),
            Err(RuleError::NothingToReroll)
        ));
    }

    #[test]
    fn bad_weapons_are_errors() {
        let mut r = req(2, 1, 51, 0, 0, 2);
        assert!(resolve_attack(&r, &mut fixed(&[])).is_err());
        r.weapon.dv = 5;
        r.weapon.ap = -100;
        assert!(resolve_attack(&r, &mut fixed(&[])).is_err());
    }
}
