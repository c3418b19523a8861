//! Luck, exactly (issue 28): the chance of a result at least as good as a logged roll's, from the
//! same distributions as `/odds`, under the rules the roll was made with.
//!
//! A logged outcome carries a [`LuckInput`] (numbers copied from the outcome, no odds work on the
//! reply's path); [`chance_at_least_as_good`] computes the chance later, when luck is asked for.
//! Every chance is computed, never sampled; a roll whose odds the engine refuses or cannot
//! compute within its budget is a [`LuckError`], never an estimate.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::Measure;
use super::dist::Dist;
use super::error::OddsError;
// The systems' own odds (each in its folder): the only places luck reaches into them.
use crate::i18n::{Lang, Localized};
use crate::notation::CmpOp;
use crate::systems::badlands_rally::odds::{RallyRequest, badlands_rally_odds, check_distribution};
use crate::systems::badlands_rally::roll::Rating;
use crate::systems::mecha_d20::attack::decision;
use crate::systems::mecha_d20::damage::DamageRequest;
use crate::systems::mecha_d20::odds::{MechaRequest, check as mecha_check, mecha_d20_odds};
use crate::systems::shadowrun4::odds::pool_hits;
use crate::systems::terminator::dice::Die;
use crate::systems::terminator::odds::{attack_hits, resolution_scores};
use crate::systems::warmachine::dice::Discard;
use crate::systems::warmachine::odds::{WmDice, kept_totals};

/// A logged roll as luck reads it: what was rolled and how ([`LuckRoll`]) and the number it
/// gave, measured the way the roll's `roll` says (higher is better unless it says otherwise).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LuckInput {
    pub roll: LuckRoll,
    pub observed: i64,
}

/// One Shadowrun 4 pool whose hits count: rolled plainly or with the rule of six, for the roller
/// or against them (the opposing pool of an opposed test), at most `cap` of them counted (a
/// spell's hits above its Force, a thread's above twice Resonance count for nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SrPool {
    pub dice: u32,
    #[serde(default, skip_serializing_if = "is_false")]
    pub rule_of_six: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub opposing: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<u32>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What was rolled, per kind of roll: enough to rebuild its distribution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LuckRoll {
    /// `/roll` with one numeric result: the expression as `/odds` reads it. `observed` is its
    /// total, or its net successes when it counts them. A comparison `<=`/`<` makes lower better.
    Notation { expression: String },
    /// Shadowrun 4: the hits of every pool rolled, the opposing ones subtracted, plus `fixed`
    /// (hits already on the table: the dice an Edge press kept). `observed` is the same sum (net
    /// hits of an opposed test, hits of a success test).
    Shadowrun4 {
        pools: Vec<SrPool>,
        #[serde(default)]
        fixed: i64,
    },
    /// Badlands Rally check: the highest die plus 1 per other die meeting the rating.
    RallyCheck { rating: u8, dice: u32 },
    /// Badlands Rally roll: the dice meeting the rating.
    RallyRoll { rating: u8, dice: u32 },
    /// Badlands Rally attack: the attack check minus the defence check (MOS, or MOF below 0).
    RallyAttack {
        rating: u8,
        dice: u32,
        defence_rating: u8,
        defence_dice: u32,
    },
    /// Warmachine: the kept dice of `dice` d6 after the discard.
    Warmachine {
        dice: u32,
        #[serde(default)]
        discard: Option<Discard>,
    },
    /// Terminator Genisys attack roll: ROF dice of the skill die at or over the threshold.
    TerminatorAttack { die: Die, rof: u32, threshold: u32 },
    /// d20 mecha attack against evasion, for the attacker: any hit is better than any miss, then
    /// the attack d20 minus the evasion d20. `observed` is [`mecha_strike_score`] of the dice.
    MechaStrike { attack: i64, evasion: i64 },
    /// d20 mecha damage of a hit, as dealt (armour, multiplier, the minimum of 1).
    MechaDamage { request: DamageRequest },
    /// Terminator Genisys resolution tests on `die` (after any heavy step down), for the character
    /// tested: `observed` is [`resolution_score`](crate::systems::terminator::odds::resolution_score) of the roll (fewer Reeling better, Retreat
    /// worst).
    TerminatorResolution { die: Die, tests: u32 },
}

/// How lucky one roll was.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Chance {
    /// The chance of a result at least as good.
    pub at_least: f64,
    /// The chance of a result at most as good (as bad or worse).
    pub at_most: f64,
}

impl Chance {
    /// Where the roll falls, 0 (the worst) to 1 (the best): the chance of a worse result plus
    /// half the chance of an equal one, so a fair die averages exactly 0.5 over many rolls.
    pub fn percentile(&self) -> f64 {
        ((1.0 - self.at_least + self.at_most) / 2.0).clamp(0.0, 1.0)
    }
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum LuckError {
    /// The odds engine stops before this roll's distribution (its time budget).
    #[error("too costly to compute exactly")]
    TooCostly,
    /// The odds engine refuses this roll (several results, no order).
    #[error("the odds engine cannot describe this roll: {0}")]
    Refused(OddsError),
    /// The observed number cannot come out of the roll described: an inconsistent entry.
    #[error("the logged result is not a possible result of the logged roll")]
    Impossible,
}

impl From<OddsError> for LuckError {
    fn from(e: OddsError) -> Self {
        match e {
            OddsError::TooComplex => LuckError::TooCostly,
            other => LuckError::Refused(other),
        }
    }
}

impl Localized for LuckError {
    fn localized(&self, lang: Lang) -> String {
        match self {
            LuckError::TooCostly => lang
                .pick(
                    "too costly to compute exactly in budget",
                    "正確な計算には時間がかかりすぎます",
                )
                .into(),
            LuckError::Refused(e) => e.localized(lang),
            LuckError::Impossible => lang
                .pick(
                    "the logged result cannot come from the logged roll",
                    "記録された結果はこのロールでは出ません",
                )
                .into(),
        }
    }
}

/// The outcome of a d20 mecha attack on one number: hits above misses, then the d20s' margin.
pub fn mecha_strike_score(attack: i64, evasion: i64, attack_die: u32, evasion_die: u32) -> i64 {
    let (a, e) = (i64::from(attack_die), i64::from(evasion_die));
    let d = decision((a == 20, a + attack), (e == 20, e + evasion));
    let margin = a - e;
    if d.hits() { 100 + margin } else { -100 + margin }
}

impl LuckRoll {
    /// The roll's distribution, and whether higher numbers are the better ones.
    pub fn distribution(&self) -> Result<(Dist, bool), LuckError> {
        Ok(match self {
            LuckRoll::Notation { expression } => {
                let o = super::roll_odds(expression)?;
                if o.choices.is_some() || o.tally.is_some() {
                    // A pick from a list or a tally of faces has no better or worse.
                    return Err(LuckError::Refused(OddsError::SeveralRolls { count: 1 }));
                }
                let lower = o.measure == Measure::Total
                    && o.target.is_some_and(|t| matches!(t.op, CmpOp::Le | CmpOp::Lt));
                (o.dist, !lower)
            }
            LuckRoll::Shadowrun4 { pools, fixed } => {
                let mut acc = Dist::point(*fixed);
                for p in pools {
                    let mut hits = pool_hits(p.dice, p.rule_of_six)?;
                    if let Some(cap) = p.cap {
                        let cap = i64::from(cap);
                        let pairs: Vec<(i64, f64)> = hits.iter().map(|(v, q)| (v.min(cap), q)).collect();
                        hits = Dist::from_pairs(&pairs)?;
                    }
                    let hits = if p.opposing { hits.negated() } else { hits };
                    acc = acc.convolve(&hits)?;
                }
                (acc, true)
            }
            LuckRoll::RallyCheck { rating, dice } => {
                let r = Rating::new(*rating).map_err(OddsError::from)?;
                (check_distribution(r, *dice)?, true)
            }
            LuckRoll::RallyRoll { rating, dice } => {
                let r = Rating::new(*rating).map_err(OddsError::from)?;
                let p = f64::from(7 - r.value()) / 6.0;
                let die = Dist::from_pairs(&[(0, 1.0 - p), (1, p)])?;
                (die.power(*dice)?, true)
            }
            LuckRoll::RallyAttack {
                rating,
                dice,
                defence_rating,
                defence_dice,
            } => {
                let o = badlands_rally_odds(&RallyRequest {
                    rating: *rating,
                    dice: *dice,
                    versus: Some((*defence_rating, *defence_dice)),
                    weapon: None,
                })?;
                (o.margin.ok_or(LuckError::Impossible)?, true)
            }
            LuckRoll::Warmachine { dice, discard } => {
                // Only the number of dice and the discard shape the kept dice.
                let extra = dice.saturating_sub(2);
                let wm = WmDice {
                    boost: extra > 0,
                    additional: extra.saturating_sub(1),
                    discard: *discard,
                };
                (kept_totals(&wm)?, true)
            }
            LuckRoll::TerminatorAttack { die, rof, threshold } => {
                (attack_hits(*die, *rof, *threshold)?, true)
            }
            LuckRoll::MechaStrike { attack, evasion } => {
                // The decision of every pair of d20 faces, as `/odds` weighs them.
                mecha_check(&MechaRequest {
                    attack: *attack,
                    evasion: *evasion,
                    ..MechaRequest::default()
                })?;
                let mut pairs = Vec::with_capacity(400);
                for a in 1..=20 {
                    for e in 1..=20 {
                        pairs.push((mecha_strike_score(*attack, *evasion, a, e), 1.0 / 400.0));
                    }
                }
                (Dist::from_pairs(&pairs)?, true)
            }
            LuckRoll::MechaDamage { request } => {
                let o = mecha_d20_odds(&MechaRequest {
                    damage: Some(request.clone()),
                    ..MechaRequest::default()
                })?;
                (o.damage.ok_or(LuckError::Impossible)?.per_hit, true)
            }
            LuckRoll::TerminatorResolution { die, tests } => (resolution_scores(*die, *tests)?, true),
        })
    }
}

/// `observed` read against `dist` (`higher`: higher numbers are better).
pub fn chance_in(dist: &Dist, higher: bool, observed: i64) -> Result<Chance, LuckError> {
    let mass = dist.mass();
    if dist.prob(observed) <= 0.0 || mass <= 0.0 {
        return Err(LuckError::Impossible);
    }
    let above = dist.chance(|v| v >= observed) / mass;
    let below = dist.chance(|v| v <= observed) / mass;
    let (at_least, at_most) = if higher { (above, below) } else { (below, above) };
    Ok(Chance {
        at_least: at_least.clamp(0.0, 1.0),
        at_most: at_most.clamp(0.0, 1.0),
    })
}

/// The exact chance of a result at least as good as the logged one (and at most as good).
pub fn chance_at_least_as_good(input: &LuckInput) -> Result<Chance, LuckError> {
    let (dist, higher) = input.roll.distribution()?;
    chance_in(&dist, higher, input.observed)
}

#[cfg(test)]
#[path = "luck_tests.rs"]
mod tests;
