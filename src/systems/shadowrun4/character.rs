//! A character sheet and its tracked state (Edge points, condition monitors, sustained
//! effects), with pure transitions that return a new sheet or an error.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::dice::{EdgeAfter, MAX_EDGE};
use super::error::{Quantity, RuleError, check_range};
use super::modifiers::PresetChoice;
use super::pool::{DicePool, PartSource};
use super::test_kinds::EdgeBefore;

// Defined in `terms` so `pool` (and the resolvers) can name an attribute or a damage type without
// importing this module, which builds pools; re-exported to keep the old paths
// `character::Attribute`, `character::Armour` and `character::DamageType`.
pub use super::terms::{Armour, Attribute, DamageType};

/// Highest attribute or skill a sheet may hold (augmented SR4 values stay well below).
/// What a pool from a sheet takes that the sheet does not hold ([`Character::pool_gaps`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PoolGaps {
    /// Attributes the pool uses that the sheet leaves at 0: rolled as 0.
    pub zero_attributes: Vec<Attribute>,
    /// The pool's skill, when the sheet lacks it.
    pub missing_skill: Option<MissingSkill>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MissingSkill {
    /// One typo from a skill on the sheet: the player meant that one (refused, not rolled).
    Typo { meant: String },
    /// Not on the sheet: the test defaults (attribute − 1).
    Defaulting,
}

pub const MAX_ATTRIBUTE: u32 = 30;
/// Highest Initiative a sheet may give (Reaction + Intuition at their maximum).
pub const MAX_INITIATIVE: u32 = 2 * MAX_ATTRIBUTE;
/// Most boxes one hit or heal may move.
pub const MAX_DAMAGE: u32 = 200;

/// Skill keys the combat helpers read from a sheet.
pub mod skills {
    pub const DODGE: &str = "dodge";
    pub const GYMNASTICS: &str = "gymnastics";
    pub const UNARMED_COMBAT: &str = "unarmed_combat";
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Attributes {
    pub body: u32,
    pub agility: u32,
    pub reaction: u32,
    pub strength: u32,
    pub charisma: u32,
    pub intuition: u32,
    pub logic: u32,
    pub willpower: u32,
    /// The Edge attribute (lowered when a point is burnt).
    pub edge: u32,
    #[serde(default)]
    pub magic: u32,
    #[serde(default)]
    pub resonance: u32,
    /// Initiative when it differs from Reaction + Intuition (augmentations).
    #[serde(default)]
    pub initiative: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    Conscious,
    /// Stun or Physical track full.
    Unconscious,
    /// Physical overflow past Body.
    Dead,
}

fn one() -> u32 {
    1
}

/// A character sheet with its tracked state. Plain data: change it with the transitions below.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    pub name: String,
    pub attributes: Attributes,
    /// Skill ratings by key (lower case, `_` for spaces: `pistols`, `dodge`, `unarmed_combat`).
    #[serde(default)]
    pub skills: BTreeMap<String, u32>,
    /// Edge points left; the GM refreshes them up to the Edge attribute.
    pub edge_points: u32,
    /// Points of the Edge attribute burnt so far.
    #[serde(default)]
    pub edge_burnt: u32,
    #[serde(default)]
    pub armour: Armour,
    /// Physical boxes filled, overflow included.
    #[serde(default)]
    pub physical: u32,
    #[serde(default)]
    pub stun: u32,
    /// Initiative passes per combat turn.
    #[serde(default = "one")]
    pub passes: u32,
    /// Spells and threads sustained now (−2 dice each).
    #[serde(default)]
    pub sustained: u32,
}

/// What one application of damage did to a character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageReport {
    pub damage_type: DamageType,
    pub boxes: u32,
    pub stun_before: u32,
    pub stun_after: u32,
    pub physical_before: u32,
    pub physical_after: u32,
    /// Stun boxes that spilled into the Physical track.
    pub stun_overflow: u32,
    /// Physical boxes past the Physical track (dead when more than Body).
    pub physical_overflow: u32,
    pub wound_modifier: i32,
    pub condition: Condition,
}

/// Sheet numbers into pool parts; anything absurd becomes a value the pool's range check refuses.
pub(crate) fn to_i32(v: u32) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// The stored key of a skill (Japanese names become their English key: `回避` → `dodge`).
pub(crate) fn normalise_skill(name: &str) -> String {
    super::skill_names::skill_key(name)
}

impl Character {
    /// A fresh character: Edge points full, monitors empty, one pass.
    pub fn new(name: &str, attributes: Attributes) -> Result<Character, RuleError> {
        let c = Character {
            name: name.to_string(),
            edge_points: attributes.edge,
            attributes,
            skills: BTreeMap::new(),
            edge_burnt: 0,
            armour: Armour::default(),
            physical: 0,
            stun: 0,
            passes: 1,
            sustained: 0,
        };
        c.validate()?;
        Ok(c)
    }

    /// Add or change a skill rating.
    pub fn with_skill(mut self, name: &str, rating: u32) -> Result<Character, RuleError> {
        check_range(Quantity::Skill, i64::from(rating), 0, i64::from(MAX_ATTRIBUTE))?;
        self.skills.insert(normalise_skill(name), rating);
        Ok(self)
    }

    pub fn with_armour(mut self, ballistic: u32, impact: u32) -> Result<Character, RuleError> {
        check_range(
            Quantity::Armour,
            i64::from(ballistic),
            0,
            i64::from(MAX_ATTRIBUTE),
        )?;
        check_range(Quantity::Armour, i64::from(impact), 0, i64::from(MAX_ATTRIBUTE))?;
        self.armour = Armour { ballistic, impact };
        Ok(self)
    }

    pub fn with_passes(mut self, passes: u32) -> Result<Character, RuleError> {
        check_range(Quantity::Passes, i64::from(passes), 1, 4)?;
        self.passes = passes;
        Ok(self)
    }

    /// Every stored number within its range (for sheets read back from storage or typed in).
    pub fn validate(&self) -> Result<(), RuleError> {
        let a = &self.attributes;
        for v in [
            a.body,
            a.agility,
            a.reaction,
            a.strength,
            a.charisma,
            a.intuition,
            a.logic,
            a.willpower,
            a.magic,
            a.resonance,
        ] {
            check_range(Quantity::Attribute, i64::from(v), 0, i64::from(MAX_ATTRIBUTE))?;
        }
        // Initiative stands for Reaction + Intuition (augmented): up to twice an attribute, as
        // `/char` and the initiative roll take it.
        check_range(
            Quantity::Attribute,
            i64::from(a.initiative.unwrap_or(0)),
            0,
            i64::from(MAX_INITIATIVE),
        )?;
        check_range(Quantity::Edge, i64::from(a.edge), 0, i64::from(MAX_EDGE))?;
        check_range(Quantity::Edge, i64::from(self.edge_points), 0, i64::from(a.edge))?;
        for v in self.skills.values() {
            check_range(Quantity::Skill, i64::from(*v), 0, i64::from(MAX_ATTRIBUTE))?;
        }
        check_range(Quantity::Passes, i64::from(self.passes), 1, 4)?;
        check_range(Quantity::SustainedEffects, i64::from(self.sustained), 0, 20)?;
        check_range(
            Quantity::Damage,
            i64::from(self.stun),
            0,
            i64::from(self.stun_track()),
        )?;
        check_range(
            Quantity::Damage,
            i64::from(self.physical),
            0,
            i64::from(self.physical_track()) + i64::from(a.body) + 1,
        )?;
        Ok(())
    }

    pub fn attribute(&self, a: Attribute) -> u32 {
        let at = &self.attributes;
        match a {
            Attribute::Body => at.body,
            Attribute::Agility => at.agility,
            Attribute::Reaction => at.reaction,
            Attribute::Strength => at.strength,
            Attribute::Charisma => at.charisma,
            Attribute::Intuition => at.intuition,
            Attribute::Logic => at.logic,
            Attribute::Willpower => at.willpower,
            Attribute::Edge => at.edge,
            Attribute::Magic => at.magic,
            Attribute::Resonance => at.resonance,
            Attribute::Initiative => at.initiative.unwrap_or(at.reaction.saturating_add(at.intuition)),
        }
    }

    /// The skill's rating, if the sheet has it above 0.
    pub fn skill(&self, name: &str) -> Option<u32> {
        self.skills
            .get(&normalise_skill(name))
            .copied()
            .filter(|&r| r > 0)
    }

    /// Every skill under its stored key: a sheet kept before Japanese names had keys holds
    /// `回避`, read as `dodge` from then on.
    pub(crate) fn rekey_skills(&mut self) {
        self.skills = std::mem::take(&mut self.skills)
            .into_iter()
            .map(|(k, r)| (normalise_skill(&k), r))
            .collect();
    }

    /// Of `attributes`, those this sheet leaves at 0 (Initiative is derived, never missing).
    pub fn zero_attributes(&self, attributes: impl IntoIterator<Item = Attribute>) -> Vec<Attribute> {
        attributes
            .into_iter()
            .filter(|&a| a != Attribute::Initiative && self.attribute(a) == 0)
            .collect()
    }

    /// What a pool of `attributes` (+ `skill`) takes that this sheet does not hold (issue 15).
    pub fn pool_gaps(&self, attributes: &[Attribute], skill: Option<&str>) -> PoolGaps {
        let missing_skill = skill
            .filter(|s| self.skill(s).is_none())
            .map(|s| match self.near_skill(s) {
                Some(meant) => MissingSkill::Typo {
                    meant: meant.to_string(),
                },
                None => MissingSkill::Defaulting,
            });
        PoolGaps {
            zero_attributes: self.zero_attributes(attributes.iter().copied()),
            missing_skill,
        }
    }

    /// The skill on the sheet a missing `name` is most likely a typo of (`pistls` → `pistols`):
    /// within [`typo_budget`](super::skill_names::typo_budget) edits, names of 4+ characters.
    pub fn near_skill(&self, name: &str) -> Option<&str> {
        use super::skill_names::{edit_distance, typo_budget};
        let key = normalise_skill(name);
        let len = key.chars().count();
        if len < 4 || self.skill(name).is_some() {
            return None;
        }
        self.skills
            .iter()
            .filter(|(_, r)| **r > 0)
            .map(|(k, _)| (edit_distance(&key, k), k.as_str()))
            .filter(|(d, _)| *d <= typo_budget(len))
            .min_by_key(|(d, _)| *d)
            .map(|(_, k)| k)
    }

    // ---- Condition monitors (decisions "Condition monitors") ----

    /// 8 + ⌈Body/2⌉.
    pub fn physical_track(&self) -> u32 {
        self.attributes.body.div_ceil(2).saturating_add(8)
    }

    /// 8 + ⌈Willpower/2⌉.
    pub fn stun_track(&self) -> u32 {
        self.attributes.willpower.div_ceil(2).saturating_add(8)
    }

    /// −1 per 3 boxes filled in each track.
    pub fn wound_modifier(&self) -> i32 {
        let p = self.physical.min(self.physical_track()) / 3;
        let s = self.stun.min(self.stun_track()) / 3;
        -to_i32(p.saturating_add(s))
    }

    pub fn condition(&self) -> Condition {
        let track = self.physical_track();
        if self.physical > track.saturating_add(self.attributes.body) {
            Condition::Dead
        } else if self.physical >= track || self.stun >= self.stun_track() {
            Condition::Unconscious
        } else {
            Condition::Conscious
        }
    }

    /// Mark damage. Stun past its track overflows into Physical box for box; Physical past its
    /// track overflows up to Body more boxes, and one more is death.
    pub fn apply_damage(
        &self,
        damage_type: DamageType,
        boxes: u32,
    ) -> Result<(Character, DamageReport), RuleError> {
        check_range(Quantity::Damage, i64::from(boxes), 0, i64::from(MAX_DAMAGE))?;
        if self.condition() == Condition::Dead {
            return Err(RuleError::Dead {
                name: self.name.clone(),
            });
        }
        let mut next = self.clone();
        let (physical_boxes, stun_overflow) = match damage_type {
            DamageType::Stun => {
                let total = self.stun.saturating_add(boxes);
                let track = self.stun_track();
                next.stun = total.min(track);
                let overflow = total.saturating_sub(track);
                (overflow, overflow)
            }
            DamageType::Physical => (boxes, 0),
        };
        let limit = self.physical_track().saturating_add(self.attributes.body);
        // One box past the overflow is death; nothing is counted beyond it.
        next.physical = self
            .physical
            .saturating_add(physical_boxes)
            .min(limit.saturating_add(1));
        let report = DamageReport {
            damage_type,
            boxes,
            stun_before: self.stun,
            stun_after: next.stun,
            physical_before: self.physical,
            physical_after: next.physical,
            stun_overflow,
            physical_overflow: next.physical.saturating_sub(self.physical_track()),
            wound_modifier: next.wound_modifier(),
            condition: next.condition(),
        };
        Ok((next, report))
    }

    /// Clear boxes (first aid, rest, magic).
    pub fn heal(&self, damage_type: DamageType, boxes: u32) -> Result<Character, RuleError> {
        check_range(Quantity::Damage, i64::from(boxes), 0, i64::from(MAX_DAMAGE))?;
        let mut next = self.clone();
        match damage_type {
            DamageType::Stun => next.stun = self.stun.saturating_sub(boxes),
            DamageType::Physical => next.physical = self.physical.saturating_sub(boxes),
        }
        Ok(next)
    }

    pub fn set_sustained(&self, count: u32) -> Result<Character, RuleError> {
        check_range(Quantity::SustainedEffects, i64::from(count), 0, 20)?;
        let mut next = self.clone();
        next.sustained = count;
        Ok(next)
    }

    /// Stop sustaining one spell or complex form: refused when there is none.
    pub fn drop_sustained(&self) -> Result<Character, RuleError> {
        if self.sustained == 0 {
            return Err(RuleError::SustainsNothing);
        }
        self.set_sustained(self.sustained - 1)
    }

    // ---- Edge (seed 2) ----

    /// Spend one Edge point.
    pub fn spend_edge(&self) -> Result<Character, RuleError> {
        if self.edge_points == 0 {
            return Err(RuleError::NoEdgeLeft);
        }
        let mut next = self.clone();
        next.edge_points -= 1;
        Ok(next)
    }

    /// Burn a point of the Edge attribute: it never comes back (seed 2).
    pub fn burn_edge(&self) -> Result<Character, RuleError> {
        if self.attributes.edge == 0 {
            return Err(RuleError::NoEdgeAttribute);
        }
        let mut next = self.clone();
        next.attributes.edge -= 1;
        next.edge_burnt += 1;
        next.edge_points = next.edge_points.min(next.attributes.edge);
        Ok(next)
    }

    /// Points back to the attribute (end of a session or the GM's call).
    pub fn refresh_edge(&self) -> Character {
        let mut next = self.clone();
        next.edge_points = self.attributes.edge;
        next
    }

    /// Seed 2: burn Edge to cheat death. The character lives with the Physical track full and
    /// every overflow box but the last marked: unconscious and dying, not dead.
    pub fn cheat_death(&self) -> Result<Character, RuleError> {
        if self.condition() != Condition::Dead {
            return Err(RuleError::NotDead);
        }
        let mut next = self.burn_edge()?;
        let limit = self.physical_track().saturating_add(self.attributes.body);
        next.physical = next.physical.min(limit);
        Ok(next)
    }

    /// Spend a point for Edge before a roll and get the request value with this sheet's Edge.
    pub fn edge_before(&self, long_shot: bool) -> Result<(Character, EdgeBefore), RuleError> {
        let next = self.spend_edge()?;
        let edge = self.attributes.edge;
        if edge == 0 {
            return Err(RuleError::NoEdgeAttribute);
        }
        let use_ = if long_shot {
            EdgeBefore::LongShot { edge }
        } else {
            EdgeBefore::PushTheLimit { edge }
        };
        Ok((next, use_))
    }

    /// Pay for an Edge use after a roll (spend, or burn for a critical success) and get the
    /// action to apply to the roll. `add_dice` picks "after the roll: add Edge dice".
    pub fn edge_after(&self, action: EdgeAfterKind) -> Result<(Character, EdgeAfter), RuleError> {
        Ok(match action {
            EdgeAfterKind::AddDice => {
                if self.attributes.edge == 0 {
                    return Err(RuleError::NoEdgeAttribute);
                }
                (
                    self.spend_edge()?,
                    EdgeAfter::AddDice {
                        edge: self.attributes.edge,
                    },
                )
            }
            EdgeAfterKind::SecondChance => (self.spend_edge()?, EdgeAfter::SecondChance),
            EdgeAfterKind::NegateGlitch => (self.spend_edge()?, EdgeAfter::NegateGlitch),
            EdgeAfterKind::BurnForCriticalSuccess => (self.burn_edge()?, EdgeAfter::BurnForCriticalSuccess),
        })
    }

    // ---- Pools from the sheet ----

    fn alive(&self) -> Result<(), RuleError> {
        if self.condition() == Condition::Dead {
            Err(RuleError::Dead {
                name: self.name.clone(),
            })
        } else {
            Ok(())
        }
    }

    fn attr_part(&self, a: Attribute) -> (PartSource, i32) {
        (PartSource::Attribute { attribute: a }, to_i32(self.attribute(a)))
    }

    /// Wound and sustaining modifiers, which every ordinary test takes.
    fn situational(&self, pool: DicePool) -> DicePool {
        let mut pool = pool;
        let w = self.wound_modifier();
        if w != 0 {
            pool = pool.with(PartSource::Wounds, w);
        }
        if self.sustained > 0 {
            pool = pool.with(
                PartSource::Sustaining {
                    count: self.sustained,
                },
                to_i32(self.sustained).saturating_mul(-2),
            );
        }
        pool
    }

    /// Seed 1.2: attribute + skill ± wounds ± sustaining ± presets; without the skill on the
    /// sheet this is defaulting (attribute − 1).
    pub fn pool(
        &self,
        attribute: Attribute,
        skill: &str,
        presets: &[PresetChoice],
    ) -> Result<DicePool, RuleError> {
        self.alive()?;
        let (src, v) = self.attr_part(attribute);
        let base = DicePool::default().with(src, v);
        let base = match self.skill(skill) {
            Some(r) => base.with(
                PartSource::Skill {
                    skill: normalise_skill(skill),
                },
                to_i32(r),
            ),
            None => base.with(PartSource::Defaulting, -1),
        };
        self.situational(base).with_presets(presets, true)
    }

    /// Seed 5 and 7.2: a rating in the attribute's place (a matrix program, a drone's attribute
    /// or sensor) + the character's skill ± wounds ± sustaining ± presets; without the skill
    /// this is defaulting (rating − 1), as with an attribute.
    pub fn program_pool(
        &self,
        program: (&str, u32),
        skill: &str,
        presets: &[PresetChoice],
    ) -> Result<DicePool, RuleError> {
        self.alive()?;
        check_range(
            Quantity::Rating,
            i64::from(program.1),
            0,
            i64::from(MAX_ATTRIBUTE),
        )?;
        let base = DicePool::default().with(
            PartSource::Program {
                name: normalise_skill(program.0),
            },
            to_i32(program.1),
        );
        let base = match self.skill(skill) {
            Some(r) => base.with(
                PartSource::Skill {
                    skill: normalise_skill(skill),
                },
                to_i32(r),
            ),
            None => base.with(PartSource::Defaulting, -1),
        };
        self.situational(base).with_presets(presets, true)
    }

    /// Seed 1.2 attribute-only test: two attributes ± wounds ± sustaining ± presets.
    pub fn attribute_pool(
        &self,
        a: Attribute,
        b: Attribute,
        presets: &[PresetChoice],
    ) -> Result<DicePool, RuleError> {
        self.alive()?;
        let (sa, va) = self.attr_part(a);
        let (sb, vb) = self.attr_part(b);
        let base = DicePool::default().with(sa, va).with(sb, vb);
        self.situational(base).with_presets(presets, true)
    }

    /// One attribute ± wounds ± sustaining (seed 4.2: resisting a spell).
    pub fn single_attribute_pool(&self, a: Attribute) -> Result<DicePool, RuleError> {
        self.alive()?;
        let (source, value) = self.attr_part(a);
        Ok(self.situational(DicePool::default().with(source, value)))
    }

    /// A pool that wounds and sustaining never touch (drain, fading, damage resistance).
    pub fn resistance_pool(&self, a: Attribute, b: Attribute) -> Result<DicePool, RuleError> {
        self.alive()?;
        let (sa, va) = self.attr_part(a);
        let (sb, vb) = self.attr_part(b);
        Ok(DicePool::default().with(sa, va).with(sb, vb))
    }

    /// Willpower + Biofeedback Filter (seed 5.5 black IC, 7.2 rigger feedback): a damage
    /// resistance test, so no wound modifiers; a filter of 0 adds no part.
    pub fn biofeedback_pool(&self, filter: u32) -> DicePool {
        let (source, will) = self.attr_part(Attribute::Willpower);
        let pool = DicePool::default().with(source, will);
        if filter == 0 {
            return pool;
        }
        pool.with(
            PartSource::Program {
                name: "biofeedback_filter".into(),
            },
            to_i32(filter),
        )
    }

    /// Attribute + skill with the situational modifiers (used by the combat helpers).
    pub(crate) fn skill_or_zero(&self, skill: &str) -> i32 {
        to_i32(self.skill(skill).unwrap_or(0))
    }

    pub(crate) fn with_situational(&self, pool: DicePool) -> Result<DicePool, RuleError> {
        self.alive()?;
        Ok(self.situational(pool))
    }
}

/// Which Edge use after a roll (the character decides the Edge dice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeAfterKind {
    AddDice,
    SecondChance,
    NegateGlitch,
    BurnForCriticalSuccess,
}

#[cfg(test)]
mod unit {
    use super::*;

    fn runner() -> Character {
        Character::new(
            "Ryu",
            Attributes {
                body: 4,
                agility: 5,
                reaction: 4,
                strength: 3,
                charisma: 2,
                intuition: 3,
                logic: 3,
                willpower: 3,
                edge: 3,
                ..Attributes::default()
            },
        )
        .unwrap()
        .with_skill("Pistols", 4)
        .unwrap()
    }

    #[test]
    fn tracks_follow_body_and_willpower() {
        let c = runner();
        assert_eq!(c.physical_track(), 10);
        assert_eq!(c.stun_track(), 10);
        assert_eq!(c.attribute(Attribute::Initiative), 7);
    }

    #[test]
    fn wounds_are_minus_one_per_three_boxes_per_track() {
        let c = runner();
        let (c, _) = c.apply_damage(DamageType::Physical, 2).unwrap();
        assert_eq!(c.wound_modifier(), 0);
        let (c, _) = c.apply_damage(DamageType::Physical, 1).unwrap();
        assert_eq!(c.wound_modifier(), -1);
        let (c, r) = c.apply_damage(DamageType::Stun, 6).unwrap();
        assert_eq!(c.wound_modifier(), -3);
        assert_eq!(r.wound_modifier, -3);
    }

    #[test]
    fn stun_overflows_into_physical_and_physical_into_death() {
        let c = runner();
        let (c, r) = c.apply_damage(DamageType::Stun, 12).unwrap();
        assert_eq!((c.stun, c.physical, r.stun_overflow), (10, 2, 2));
        assert_eq!(c.condition(), Condition::Unconscious);
        // Physical track 10, overflow up to Body (4): 14 is alive, 15 is dead.
        let (c, r) = c.apply_damage(DamageType::Physical, 12).unwrap();
        assert_eq!(c.physical, 14);
        assert_eq!(r.physical_overflow, 4);
        assert_eq!(c.condition(), Condition::Unconscious);
        let (dead, r) = c.apply_damage(DamageType::Physical, 1).unwrap();
        assert_eq!(r.condition, Condition::Dead);
        assert!(matches!(
            dead.apply_damage(DamageType::Physical, 1),
            Err(RuleError::Dead { .. })
        ));
        let saved = dead.cheat_death().unwrap();
        assert_eq!(saved.condition(), Condition::Unconscious);
        assert_eq!(saved.attributes.edge, 2);
        // Only the dead cheat death: one box short of it is refused, nothing burnt.
        assert_eq!(c.cheat_death(), Err(RuleError::NotDead));
        assert_eq!(saved.cheat_death(), Err(RuleError::NotDead));
    }

    #[test]
    fn sustaining_is_counted_and_nothing_cannot_be_dropped() {
        let c = runner();
        assert_eq!(c.drop_sustained(), Err(RuleError::SustainsNothing));
        let two = c.set_sustained(2).unwrap();
        assert_eq!(two.drop_sustained().unwrap().sustained, 1);
        assert_eq!(
            two.drop_sustained()
                .unwrap()
                .drop_sustained()
                .unwrap()
                .drop_sustained(),
            Err(RuleError::SustainsNothing)
        );
    }

    #[test]
    fn edge_is_spent_burnt_and_refreshed() {
        let c = runner();
        let c1 = c
            .spend_edge()
            .unwrap()
            .spend_edge()
            .unwrap()
            .spend_edge()
            .unwrap();
        assert_eq!(c1.edge_points, 0);
        assert_eq!(c1.spend_edge(), Err(RuleError::NoEdgeLeft));
        assert_eq!(c1.refresh_edge().edge_points, 3);
        let b = c.burn_edge().unwrap();
        assert_eq!((b.attributes.edge, b.edge_points, b.edge_burnt), (2, 2, 1));
        assert_eq!(b.refresh_edge().edge_points, 2);
        let gone = b.burn_edge().unwrap().burn_edge().unwrap();
        assert_eq!(gone.burn_edge(), Err(RuleError::NoEdgeAttribute));
        let (after, use_) = c.edge_before(false).unwrap();
        assert_eq!(use_, EdgeBefore::PushTheLimit { edge: 3 });
        assert_eq!(after.edge_points, 2);
    }

    #[test]
    fn sheet_pools_carry_wounds_sustaining_and_defaulting() {
        let c = runner();
        let p = c.pool(Attribute::Agility, "pistols", &[]).unwrap();
        assert_eq!(p.total(), Ok(9));
        let d = c.pool(Attribute::Agility, "automatics", &[]).unwrap();
        assert_eq!(d.total(), Ok(4));
        let (hurt, _) = c.apply_damage(DamageType::Physical, 6).unwrap();
        let hurt = hurt.set_sustained(1).unwrap();
        let p = hurt
            .pool(
                Attribute::Agility,
                "pistols",
                &[
                    PresetChoice::new("ranged.smartlink"),
                    PresetChoice::new("ranged.wounds"),
                ],
            )
            .unwrap();
        // 5 + 4 − 2 (wounds) − 2 (sustaining) + 2 (smartlink); the wounds preset is not doubled.
        assert_eq!(p.total(), Ok(7));
        let drain = hurt
            .resistance_pool(Attribute::Willpower, Attribute::Logic)
            .unwrap();
        assert_eq!(drain.total(), Ok(6));
    }

    #[test]
    fn bad_sheets_are_errors() {
        let bad = Character::new(
            "x",
            Attributes {
                body: 99,
                ..Attributes::default()
            },
        );
        assert!(matches!(bad, Err(RuleError::OutOfRange { .. })));
        assert!(runner().with_skill("x", 31).is_err());
        assert!(runner().apply_damage(DamageType::Stun, 1000).is_err());
    }

    #[test]
    fn sheets_round_trip_through_json() {
        let c = runner().with_armour(6, 4).unwrap();
        let json = serde_json::to_string(&c).unwrap();
        let back: Character = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
    }
}
