//! Spellcasting and summoning with drain (seed 4.1, 4.3), and the drain/fading resistance
//! shared with resonance.

use serde::{Deserialize, Serialize};

use super::dice::EdgeAfter;
use super::error::{Quantity, RuleError, check_range};
use super::pool::PartSource;
use super::terms::DamageType;
use super::test_kinds::{OpposedResult, RollSpec, Rolled, check_threshold, hits_of, roll, roll_or_nothing};
use crate::dice::Roller;

/// Highest Magic or Resonance we accept (initiates and submerged technomancers stay far below).
pub const MAX_MAGIC: u32 = 20;
pub const MAX_DRAIN: u32 = 50;

/// Drain or fading: a value resisted by a pool wounds and sustaining never touch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrainOutcome {
    pub value: u32,
    pub damage_type: DamageType,
    /// `None` when there was nothing to resist or no dice.
    pub roll: Option<Rolled>,
    pub hits: u32,
    pub boxes: u32,
}

/// Decisions "Magic and resonance": Physical when Force (or rating) > Magic (or Resonance),
/// otherwise Stun; Force = Magic is Stun.
pub fn drain_type(force: u32, magic: u32) -> DamageType {
    if force > magic {
        DamageType::Physical
    } else {
        DamageType::Stun
    }
}

/// Resist drain or fading: each hit removes one box.
pub fn resist_drain(
    value: u32,
    damage_type: DamageType,
    spec: &RollSpec,
    roller: &mut impl Roller,
) -> Result<DrainOutcome, RuleError> {
    check_range(Quantity::DamageValue, i64::from(value), 0, i64::from(MAX_DRAIN))?;
    let roll = if value == 0 {
        None
    } else {
        roll_or_nothing(spec, roller)?
    };
    let hits = hits_of(&roll);
    Ok(DrainOutcome {
        value,
        damage_type,
        roll,
        hits,
        boxes: value.saturating_sub(hits),
    })
}

pub(crate) fn check_force(force: u32, magic: u32, what: Quantity) -> Result<(), RuleError> {
    let power = if what == Quantity::Force {
        Quantity::Magic
    } else {
        Quantity::Resonance
    };
    check_range(power, i64::from(magic), 1, i64::from(MAX_MAGIC))?;
    // Seed 4.1 step 2 / 4.3 step 2 / 6.4 step 2: at most twice Magic (Resonance).
    check_range(what, i64::from(force), 1, 2 * i64::from(magic))
}

// ---------------------------------------------------------------- spellcasting

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpellRequest {
    /// Magic + Spellcasting ± modifiers (seed 4.1 step 5a).
    pub cast: RollSpec,
    pub force: u32,
    pub magic: u32,
    /// The target's resistance (seed 4.1 step 5b); `None` for a spell nobody resists.
    #[serde(default)]
    pub resistance: Option<RollSpec>,
    /// For an unresisted spell that needs a number of hits.
    #[serde(default)]
    pub threshold: Option<u32>,
    /// Drain value given by the spell.
    pub drain_value: u32,
    /// Willpower + tradition attribute (no wound or sustaining modifiers).
    pub drain: RollSpec,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpellResult {
    /// Net hits > 0 (or the threshold reached).
    Success,
    /// Equal hits: minimal effect or none (seed 4.1 5c ii).
    Tie,
    Resisted,
    /// Unresisted but short of the threshold.
    Failed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpellOutcome {
    pub cast: Rolled,
    pub force: u32,
    pub magic: u32,
    pub raw_hits: u32,
    /// Hits counted, at most Force (seed 4.1 5a).
    pub hits: u32,
    pub resistance: Option<Rolled>,
    pub resistance_hits: u32,
    pub threshold: Option<u32>,
    pub net_hits: i64,
    pub result: SpellResult,
    pub drain: DrainOutcome,
    /// The target resisted (an opposed test), even with no dice.
    #[serde(default)]
    pub opposed: bool,
}

/// Seed 4.1: cast, resist, then resist drain.
pub fn cast_spell(req: &SpellRequest, roller: &mut impl Roller) -> Result<SpellOutcome, RuleError> {
    check_force(req.force, req.magic, Quantity::Force)?;
    check_threshold(req.threshold)?;
    let cast = roll(&req.cast, roller)?;
    let resistance = match &req.resistance {
        Some(r) => roll_or_nothing(r, roller)?,
        None => None,
    };
    spell_from(req, cast, resistance, roller)
}

fn spell_from(
    req: &SpellRequest,
    cast: Rolled,
    resistance: Option<Rolled>,
    roller: &mut impl Roller,
) -> Result<SpellOutcome, RuleError> {
    let drain = resist_drain(
        req.drain_value,
        drain_type(req.force, req.magic),
        &req.drain,
        roller,
    )?;
    Ok(spell_result(
        cast,
        resistance,
        req.resistance.is_some(),
        req.force,
        req.magic,
        req.threshold,
        drain,
    ))
}

fn spell_result(
    cast: Rolled,
    resistance: Option<Rolled>,
    opposed: bool,
    force: u32,
    magic: u32,
    threshold: Option<u32>,
    drain: DrainOutcome,
) -> SpellOutcome {
    let raw_hits = cast.hits();
    let hits = raw_hits.min(force);
    let resistance_hits = hits_of(&resistance);
    let (net_hits, result) = if opposed {
        let net = i64::from(hits) - i64::from(resistance_hits);
        let r = match OpposedResult::from_net(net) {
            OpposedResult::ActorWins => SpellResult::Success,
            OpposedResult::Tie => SpellResult::Tie,
            OpposedResult::OpponentWins => SpellResult::Resisted,
        };
        (net, r)
    } else {
        let t = threshold.unwrap_or(0);
        let net = i64::from(hits) - i64::from(t);
        let ok = if threshold.is_some() { net >= 0 } else { hits > 0 };
        (
            net,
            if ok {
                SpellResult::Success
            } else {
                SpellResult::Failed
            },
        )
    };
    SpellOutcome {
        cast,
        force,
        magic,
        raw_hits,
        hits,
        resistance,
        resistance_hits,
        threshold,
        net_hits,
        result,
        drain,
        opposed,
    }
}

impl SpellOutcome {
    /// Seed 2 / decisions "Edge": the caster's Edge after the roll (Second chance, negate a
    /// glitch) acts on the casting dice; the resistance and the drain already rolled stay.
    /// (Burning for a critical success only sets the flag: the hits still face the resistance.)
    pub fn with_edge_after(
        &self,
        action: EdgeAfter,
        roller: &mut impl Roller,
    ) -> Result<SpellOutcome, RuleError> {
        let cast = self.cast.with_edge_after(action, roller)?;
        Ok(self.recount(cast))
    }

    fn recount(&self, cast: Rolled) -> SpellOutcome {
        spell_result(
            cast,
            self.resistance.clone(),
            self.opposed || self.resistance.is_some(),
            self.force,
            self.magic,
            self.threshold,
            self.drain.clone(),
        )
    }
}

/// Seed 4.2 spell defence: a protected target adds the counterspeller's Counterspelling to its
/// resistance pool.
pub fn with_counterspelling(resistance: RollSpec, counterspelling: u32) -> Result<RollSpec, RuleError> {
    check_range(Quantity::Skill, i64::from(counterspelling), 0, 30)?;
    if counterspelling == 0 {
        return Ok(resistance);
    }
    let mut r = resistance;
    r.pool = r.pool.with(
        PartSource::Skill {
            skill: "counterspelling".into(),
        },
        i32::try_from(counterspelling).unwrap_or(i32::MAX),
    );
    Ok(r)
}

// ---------------------------------------------------------------- dispelling

/// Seed 4.2 dispelling: Counterspelling + Magic against the spell's Force + its caster's Magic
/// (+ karma); each net hit takes one hit off the spell; the dispeller resists drain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DispelRequest {
    /// Counterspelling + Magic ± modifiers.
    pub dispel: RollSpec,
    /// The dispeller's Magic (Force > Magic makes the drain Physical).
    pub magic: u32,
    /// The spell's Force.
    pub force: u32,
    /// The spell's caster's Magic.
    pub caster_magic: u32,
    /// Karma the caster put into the spell (seed: "+カルマ"), added to the opposing dice.
    #[serde(default)]
    pub karma: u32,
    /// The spell's hits, when known: the result says whether any are left.
    #[serde(default)]
    pub spell_hits: Option<u32>,
    /// The dispelled spell's drain value.
    pub drain_value: u32,
    /// Willpower + tradition attribute.
    pub drain: RollSpec,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DispelOutcome {
    pub dispel: Rolled,
    /// Force + caster's Magic (+ karma) dice.
    pub opposition: Rolled,
    pub dispeller_hits: u32,
    pub opposition_hits: u32,
    pub net_hits: i64,
    /// Hits taken off the spell (net hits, never below 0).
    pub hits_removed: u32,
    pub spell_hits_left: Option<u32>,
    /// With the spell's hits known: none left.
    pub dispelled: Option<bool>,
    pub drain: DrainOutcome,
}

pub fn dispel(req: &DispelRequest, roller: &mut impl Roller) -> Result<DispelOutcome, RuleError> {
    check_range(Quantity::Magic, i64::from(req.magic), 1, i64::from(MAX_MAGIC))?;
    check_force(req.force, req.caster_magic, Quantity::Force)?;
    check_range(Quantity::Count, i64::from(req.karma), 0, 50)?;
    check_threshold(req.spell_hits)?;
    let dispel = roll(&req.dispel, roller)?;
    let dice = i32::try_from(req.force + req.caster_magic + req.karma).unwrap_or(i32::MAX);
    let opposition = roll(&RollSpec::dice(dice), roller)?;
    let drain = resist_drain(
        req.drain_value,
        drain_type(req.force, req.magic),
        &req.drain,
        roller,
    )?;
    Ok(dispel_result(dispel, opposition, req.spell_hits, drain))
}

fn dispel_result(
    dispel: Rolled,
    opposition: Rolled,
    spell_hits: Option<u32>,
    drain: DrainOutcome,
) -> DispelOutcome {
    let (dispeller_hits, opposition_hits) = (dispel.hits(), opposition.hits());
    let net_hits = i64::from(dispeller_hits) - i64::from(opposition_hits);
    let hits_removed = u32::try_from(net_hits.max(0)).unwrap_or(0);
    let spell_hits_left = spell_hits.map(|h| h.saturating_sub(hits_removed));
    DispelOutcome {
        dispel,
        opposition,
        dispeller_hits,
        opposition_hits,
        net_hits,
        hits_removed,
        spell_hits_left,
        dispelled: spell_hits_left.map(|h| h == 0),
        drain,
    }
}

impl DispelOutcome {
    /// Edge after the roll acts on the dispeller's dice; the opposition and the drain (its
    /// value is the spell's) stay as rolled.
    pub fn with_edge_after(
        &self,
        action: EdgeAfter,
        roller: &mut impl Roller,
    ) -> Result<DispelOutcome, RuleError> {
        let dispel = self.dispel.with_edge_after(action, roller)?;
        let spell_hits = self.spell_hits_left.map(|left| left + self.hits_removed);
        Ok(dispel_result(
            dispel,
            self.opposition.clone(),
            spell_hits,
            self.drain.clone(),
        ))
    }
}

// ---------------------------------------------------------------- summoning

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummonRequest {
    /// Magic + Summoning ± modifiers (seed 4.3 step 4a).
    pub summon: RollSpec,
    pub force: u32,
    pub magic: u32,
    /// Willpower + tradition attribute.
    pub drain: RollSpec,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummonOutcome {
    pub summon: Rolled,
    /// The spirit's Force dice.
    pub spirit: Rolled,
    pub summoner_hits: u32,
    pub spirit_hits: u32,
    pub net_hits: i64,
    pub summoned: bool,
    /// One service per net hit.
    pub services: u32,
    pub drain: DrainOutcome,
}

/// Seed 4.3: Magic + Summoning against Force; services = net hits; drain = spirit hits × 2,
/// at least 2.
pub fn summon_spirit(req: &SummonRequest, roller: &mut impl Roller) -> Result<SummonOutcome, RuleError> {
    check_force(req.force, req.magic, Quantity::Force)?;
    let summon = roll(&req.summon, roller)?;
    let spirit = roll(&RollSpec::dice(req.force as i32), roller)?;
    let (summoner_hits, spirit_hits) = (summon.hits(), spirit.hits());
    let net_hits = i64::from(summoner_hits) - i64::from(spirit_hits);
    let summoned = net_hits > 0;
    let drain = resist_drain(
        (spirit_hits * 2).max(2),
        drain_type(req.force, req.magic),
        &req.drain,
        roller,
    )?;
    Ok(SummonOutcome {
        summon,
        spirit,
        summoner_hits,
        spirit_hits,
        net_hits,
        summoned,
        services: u32::try_from(net_hits.max(0)).unwrap_or(0),
        drain,
    })
}

impl SummonOutcome {
    /// Edge after the roll acts on the summoner's dice; the spirit's dice and the drain (set
    /// by the spirit's hits) stay as rolled.
    pub fn with_edge_after(
        &self,
        action: EdgeAfter,
        roller: &mut impl Roller,
    ) -> Result<SummonOutcome, RuleError> {
        let summon = self.summon.with_edge_after(action, roller)?;
        let summoner_hits = summon.hits();
        let net_hits = i64::from(summoner_hits) - i64::from(self.spirit_hits);
        Ok(SummonOutcome {
            summon,
            summoner_hits,
            net_hits,
            summoned: net_hits > 0,
            services: u32::try_from(net_hits.max(0)).unwrap_or(0),
            ..self.clone()
        })
    }
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::dice::FixedRoller;

    fn fixed(f: &[u32]) -> FixedRoller {
        FixedRoller::new(f.iter().copied())
    }

    fn spell(force: u32, magic: u32) -> SpellRequest {
        SpellRequest {
            cast: RollSpec::dice(4),
            force,
            magic,
            resistance: Some(RollSpec::dice(2)),
            threshold: None,
            drain_value: 3,
            drain: RollSpec::dice(3),
        }
    }

    #[test]
    fn drain_type_at_force_equal_magic_and_one_more() {
        assert_eq!(drain_type(4, 4), DamageType::Stun);
        assert_eq!(drain_type(5, 4), DamageType::Physical);
        assert_eq!(drain_type(3, 4), DamageType::Stun);
    }

    #[test]
    fn hits_are_capped_at_force_and_drain_resisted() {
        // 4 hits capped at Force 2; resistance 1 hit; drain 3 − 1 hit = 2 Stun.
        let o = cast_spell(&spell(2, 4), &mut fixed(&[5, 5, 6, 6, 5, 2, 5, 3, 3])).unwrap();
        assert_eq!((o.raw_hits, o.hits, o.resistance_hits), (4, 2, 1));
        assert_eq!((o.net_hits, o.result), (1, SpellResult::Success));
        assert_eq!((o.drain.boxes, o.drain.damage_type), (2, DamageType::Stun));
    }

    #[test]
    fn equal_hits_are_a_tie_for_spells() {
        let o = cast_spell(&spell(4, 4), &mut fixed(&[5, 2, 2, 2, 5, 2, 2, 2, 2])).unwrap();
        assert_eq!(o.result, SpellResult::Tie);
    }

    #[test]
    fn force_above_twice_magic_is_refused() {
        assert!(matches!(
            cast_spell(&spell(9, 4), &mut fixed(&[])),
            Err(RuleError::OutOfRange {
                what: Quantity::Force,
                ..
            })
        ));
        assert!(cast_spell(&spell(0, 4), &mut fixed(&[])).is_err());
        assert!(cast_spell(&spell(1, 0), &mut fixed(&[])).is_err());
    }

    #[test]
    fn summoning_gives_services_and_drain_of_twice_the_spirit_hits() {
        let req = SummonRequest {
            summon: RollSpec::dice(5),
            force: 3,
            magic: 4,
            drain: RollSpec::dice(4),
        };
        // Summoner 5,5,6,2,1 = 3 hits; spirit 5,2,2 = 1 hit; drain 2 (min 2), resisted by 1 hit.
        let o = summon_spirit(&req, &mut fixed(&[5, 5, 6, 2, 1, 5, 2, 2, 5, 2, 2, 2])).unwrap();
        assert_eq!((o.services, o.summoned), (2, true));
        assert_eq!(
            (o.drain.value, o.drain.boxes, o.drain.damage_type),
            (2, 1, DamageType::Stun)
        );
        // Spirit with 3 hits: drain 6, Physical at Force 5 > Magic 4.
        let req5 = SummonRequest { force: 5, ..req };
        let o = summon_spirit(&req5, &mut fixed(&[5, 2, 2, 2, 2, 5, 5, 6, 2, 2, 2, 2, 2, 2])).unwrap();
        assert!(!o.summoned);
        assert_eq!((o.drain.value, o.drain.damage_type), (6, DamageType::Physical));
    }

    #[test]
    fn second_chance_on_a_spell_keeps_resistance_and_drain() {
        // Cast 5,2,1,3 = 1 hit; resistance 5,2 = 1 hit (tie); drain 3 dice 2,2,2 → 3 Stun.
        let o = cast_spell(&spell(4, 4), &mut fixed(&[5, 2, 1, 3, 5, 2, 2, 2, 2])).unwrap();
        assert_eq!(o.result, SpellResult::Tie);
        // The three misses reroll 6, 5, 2: 3 hits, net 2; drain unchanged.
        let n = o
            .with_edge_after(EdgeAfter::SecondChance, &mut fixed(&[6, 5, 2]))
            .unwrap();
        assert_eq!((n.hits, n.net_hits, n.result), (3, 2, SpellResult::Success));
        assert_eq!(n.drain, o.drain);
        assert_eq!(n.resistance, o.resistance);
        assert_eq!(
            n.with_edge_after(EdgeAfter::SecondChance, &mut fixed(&[5])),
            Err(RuleError::EdgeAlreadyUsed)
        );
        // A glitched cast (two 1s of four) can be negated.
        let g = cast_spell(&spell(4, 4), &mut fixed(&[1, 1, 5, 3, 2, 2, 2, 2, 2])).unwrap();
        assert_eq!(g.cast.glitch(), crate::systems::shadowrun4::Glitch::Glitch);
        let n = g
            .with_edge_after(EdgeAfter::NegateGlitch, &mut fixed(&[]))
            .unwrap();
        assert_eq!(n.cast.glitch(), crate::systems::shadowrun4::Glitch::None);
        assert_eq!(n.result, g.result);
    }

    #[test]
    fn counterspelling_adds_dice_to_the_resistance() {
        let r = with_counterspelling(RollSpec::dice(3), 4).unwrap();
        assert_eq!(r.pool.total(), Ok(7));
        assert_eq!(
            with_counterspelling(RollSpec::dice(3), 0).unwrap(),
            RollSpec::dice(3)
        );
        // Spell 4 dice, 2 hits; target 2 dice + counterspelling 2 = 4 dice, 2 hits: a tie.
        let req = SpellRequest {
            resistance: Some(with_counterspelling(RollSpec::dice(2), 2).unwrap()),
            ..spell(4, 4)
        };
        let o = cast_spell(&req, &mut fixed(&[5, 5, 2, 2, 2, 5, 6, 2, 2, 2, 2])).unwrap();
        assert_eq!((o.resistance_hits, o.result), (2, SpellResult::Tie));
    }

    fn dispel_req(force: u32, magic: u32) -> DispelRequest {
        DispelRequest {
            dispel: RollSpec::dice(6),
            magic,
            force,
            caster_magic: 3,
            karma: 0,
            spell_hits: Some(2),
            drain_value: 2,
            drain: RollSpec::dice(2),
        }
    }

    #[test]
    fn dispelling_removes_a_hit_per_net_hit_and_drains() {
        // Dispeller 5,5,6,2,2,1 = 3 hits; opposition Force 3 + Magic 3 = 6 dice, 1 hit; net 2
        // removes the spell's 2 hits; drain 2 resisted by 1 hit: 1 Stun (Force 3 ≤ Magic 4).
        let faces = [5, 5, 6, 2, 2, 1, 5, 2, 2, 2, 2, 2, 5, 2];
        let o = dispel(&dispel_req(3, 4), &mut fixed(&faces)).unwrap();
        assert_eq!((o.dispeller_hits, o.opposition_hits, o.net_hits), (3, 1, 2));
        assert_eq!(
            (o.hits_removed, o.spell_hits_left, o.dispelled),
            (2, Some(0), Some(true))
        );
        assert_eq!((o.drain.boxes, o.drain.damage_type), (1, DamageType::Stun));
        // Force 5 > the dispeller's Magic 4: Physical drain; opposition 8 dice.
        let faces = [2, 2, 2, 2, 2, 2, 5, 5, 2, 2, 2, 2, 2, 2, 2, 2];
        let o = dispel(&dispel_req(5, 4), &mut fixed(&faces)).unwrap();
        assert_eq!(o.opposition.rolled, 8);
        assert_eq!((o.net_hits, o.hits_removed, o.dispelled), (-2, 0, Some(false)));
        assert_eq!((o.drain.value, o.drain.damage_type), (2, DamageType::Physical));
        // Karma adds opposing dice; bad numbers are errors.
        let mut k = dispel_req(3, 4);
        k.karma = 2;
        let o = dispel(&k, &mut fixed(&[2; 16])).unwrap();
        assert_eq!(o.opposition.rolled, 8);
        assert!(dispel(&dispel_req(7, 4), &mut fixed(&[])).is_err());
        assert!(dispel(&dispel_req(3, 0), &mut fixed(&[])).is_err());
    }
}
