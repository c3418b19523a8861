//! The kinds of test (seed 1.2–1.4): success, opposed, extended, teamwork, buying hits, retries,
//! and the Edge uses that change what is rolled (pushing the limit, long shot). The extended
//! test, rolled interval by interval, is in `extended.rs`.

use serde::{Deserialize, Serialize};

use super::dice::{EdgeAfter, Glitch, MAX_POOL, PoolRoll, bought_hits, check_edge, check_pool, roll_pool};
use super::error::{Quantity, RuleError, check_range};
use super::pool::{DicePool, PartSource, PoolPart};
use crate::dice::Roller;

mod extended;

pub(crate) use extended::ExtendedRun;
pub use extended::{ExtendedEnd, ExtendedOutcome, ExtendedRequest, Interval, extended_test};

/// Most earlier tries a retry penalty may count.
pub const MAX_RETRIES: u32 = 20;
/// Default and hard maximum number of intervals an extended test rolls (decisions "Extended test").
pub const DEFAULT_EXTENDED_INTERVALS: u32 = 20;
pub const MAX_EXTENDED_INTERVALS: u32 = 100;
/// Highest threshold any test accepts.
pub const MAX_THRESHOLD: u32 = 100;

/// Edge spent before the roll (seed 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "use", rename_all = "snake_case")]
pub enum EdgeBefore {
    /// Add Edge dice; the rule of six on every die.
    PushTheLimit { edge: u32 },
    /// Seed 1.2: the pool is 0 or less; roll Edge dice alone, with the rule of six.
    LongShot { edge: u32 },
}

/// A pool to roll and how: the parts, Edge before the roll, earlier tries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct RollSpec {
    pub pool: DicePool,
    #[serde(default)]
    pub edge: Option<EdgeBefore>,
    /// Earlier tries at this test (seed 1.3: −2 dice each).
    #[serde(default)]
    pub retry: u32,
}

impl RollSpec {
    pub fn new(pool: DicePool) -> Self {
        RollSpec {
            pool,
            edge: None,
            retry: 0,
        }
    }

    pub fn dice(n: i32) -> Self {
        RollSpec::new(DicePool::dice(n))
    }

    pub fn with_edge(mut self, edge: EdgeBefore) -> Self {
        self.edge = Some(edge);
        self
    }

    pub fn with_retry(mut self, tries: u32) -> Self {
        self.retry = tries;
        self
    }
}

/// A rolled pool: every part that made it up, what was rolled and the dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rolled {
    /// Every part and modifier, the retry penalty included.
    pub parts: Vec<PoolPart>,
    /// The modified pool (before Edge dice).
    pub pool: i64,
    pub edge: Option<EdgeBefore>,
    /// Dice rolled at first: the pool, pool + Edge, or Edge alone for a long shot.
    pub rolled: u32,
    pub roll: PoolRoll,
}

impl Rolled {
    pub fn hits(&self) -> u32 {
        self.roll.hits
    }

    pub fn glitch(&self) -> Glitch {
        self.roll.glitch
    }

    /// Apply an Edge use after the roll (one per roll).
    pub fn with_edge_after(&self, action: EdgeAfter, roller: &mut impl Roller) -> Result<Rolled, RuleError> {
        let mut next = self.clone();
        next.roll = self.roll.with_edge_after(action, roller)?;
        Ok(next)
    }
}

/// The parts and total of a spec, retry penalty included.
pub(crate) fn final_parts(spec: &RollSpec) -> Result<(Vec<PoolPart>, i64), RuleError> {
    check_range(
        Quantity::Retries,
        i64::from(spec.retry),
        0,
        i64::from(MAX_RETRIES),
    )?;
    let mut parts = spec.pool.parts.clone();
    if spec.retry > 0 {
        parts.push(PoolPart {
            source: PartSource::Retry { tries: spec.retry },
            value: -2 * spec.retry as i32,
        });
    }
    let total = DicePool { parts: parts.clone() }.total()?;
    Ok((parts, total))
}

/// Roll a spec. A pool of 0 or less is an error unless it is a long shot.
pub fn roll(spec: &RollSpec, roller: &mut impl Roller) -> Result<Rolled, RuleError> {
    let (parts, pool) = final_parts(spec)?;
    let (count, six) = match spec.edge {
        None => (check_pool(pool)?, false),
        Some(EdgeBefore::PushTheLimit { edge }) => {
            check_edge(edge)?;
            // Pushing the limit adds to a pool; an empty pool is the long shot's business.
            check_pool(pool)?;
            (check_pool(pool + i64::from(edge))?, true)
        }
        Some(EdgeBefore::LongShot { edge }) => {
            check_edge(edge)?;
            if pool > 0 {
                return Err(RuleError::LongShotNotNeeded { pool });
            }
            (edge, true)
        }
    };
    let mut r = roll_pool(count, six, roller)?;
    r.edge_used = spec.edge.is_some();
    Ok(Rolled {
        parts,
        pool,
        edge: spec.edge,
        rolled: count,
        roll: r,
    })
}

/// Roll a pool that may be empty without that being an error (defence, resistance, soak):
/// `None` when it has no dice and no Edge, which counts as zero hits. Edge pushed on a pool of
/// 0 or less is what the decisions call a long shot: the Edge dice alone, with the rule of six
/// (and with no Edge dice at all, nothing is rolled).
pub fn roll_or_nothing(spec: &RollSpec, roller: &mut impl Roller) -> Result<Option<Rolled>, RuleError> {
    let (_, pool) = final_parts(spec)?;
    if pool > 0 {
        return roll(spec, roller).map(Some);
    }
    match spec.edge {
        None => Ok(None),
        Some(EdgeBefore::PushTheLimit { edge: 0 } | EdgeBefore::LongShot { edge: 0 }) => Ok(None),
        Some(EdgeBefore::PushTheLimit { edge } | EdgeBefore::LongShot { edge }) => {
            let long = RollSpec {
                edge: Some(EdgeBefore::LongShot { edge }),
                ..spec.clone()
            };
            roll(&long, roller).map(Some)
        }
    }
}

pub(crate) fn hits_of(r: &Option<Rolled>) -> u32 {
    r.as_ref().map_or(0, Rolled::hits)
}

pub(crate) fn check_threshold(t: Option<u32>) -> Result<(), RuleError> {
    if let Some(t) = t {
        check_range(Quantity::Threshold, i64::from(t), 0, i64::from(MAX_THRESHOLD))?;
    }
    Ok(())
}

// ---------------------------------------------------------------- success test

/// Seed 1.2 success test (also attribute-only and defaulting, by the pool's parts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SuccessRequest {
    pub roll: RollSpec,
    /// Hits needed; `None` reports hits only.
    #[serde(default)]
    pub threshold: Option<u32>,
    /// Most hits that count (spellcasting: Force).
    #[serde(default)]
    pub hit_cap: Option<u32>,
    /// Seed 1.4: buy hits instead of rolling.
    #[serde(default)]
    pub buy_hits: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SuccessOutcome {
    /// The dice; `None` when hits were bought.
    pub rolled: Option<Rolled>,
    /// Parts and pool when hits were bought.
    pub bought: Option<BoughtHits>,
    /// Hits before the cap.
    pub raw_hits: u32,
    pub hit_cap: Option<u32>,
    /// Hits that count.
    pub hits: u32,
    pub threshold: Option<u32>,
    /// hits − threshold (negative: short by that much).
    pub net_hits: Option<i64>,
    pub success: Option<bool>,
    pub glitch: Glitch,
    pub critical_success: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoughtHits {
    pub parts: Vec<PoolPart>,
    pub pool: i64,
    pub hits: u32,
}

fn success_from(
    rolled: Option<Rolled>,
    bought: Option<BoughtHits>,
    threshold: Option<u32>,
    hit_cap: Option<u32>,
) -> SuccessOutcome {
    let raw_hits = match (&rolled, &bought) {
        (Some(r), _) => r.hits(),
        (None, Some(b)) => b.hits,
        (None, None) => 0,
    };
    let hits = hit_cap.map_or(raw_hits, |c| raw_hits.min(c));
    let net_hits = threshold.map(|t| i64::from(hits) - i64::from(t));
    let (glitch, critical_success) = rolled
        .as_ref()
        .map_or((Glitch::None, false), |r| (r.glitch(), r.roll.critical_success));
    SuccessOutcome {
        rolled,
        bought,
        raw_hits,
        hit_cap,
        hits,
        threshold,
        net_hits,
        success: net_hits.map(|n| n >= 0 || critical_success),
        glitch,
        critical_success,
    }
}

/// Seed 1.2 success test; 1.3 retry; 1.4 buying hits; Edge before the roll and long shot.
pub fn success_test(req: &SuccessRequest, roller: &mut impl Roller) -> Result<SuccessOutcome, RuleError> {
    check_threshold(req.threshold)?;
    if let Some(c) = req.hit_cap {
        check_range(Quantity::Force, i64::from(c), 0, i64::from(MAX_POOL))?;
    }
    if req.buy_hits {
        if req.roll.edge.is_some() {
            return Err(RuleError::BoughtHitsNoEdge);
        }
        let (parts, pool) = final_parts(&req.roll)?;
        if pool > i64::from(MAX_POOL) {
            return Err(RuleError::PoolTooLarge { pool, max: MAX_POOL });
        }
        let b = BoughtHits {
            parts,
            pool,
            hits: bought_hits(pool),
        };
        return Ok(success_from(None, Some(b), req.threshold, req.hit_cap));
    }
    let r = roll(&req.roll, roller)?;
    Ok(success_from(Some(r), None, req.threshold, req.hit_cap))
}

impl SuccessOutcome {
    /// Edge after the roll (a button on the result). Bought hits take no Edge.
    pub fn with_edge_after(
        &self,
        action: EdgeAfter,
        roller: &mut impl Roller,
    ) -> Result<SuccessOutcome, RuleError> {
        let rolled = self.rolled.as_ref().ok_or(RuleError::BoughtHitsNoEdge)?;
        let next = rolled.with_edge_after(action, roller)?;
        Ok(success_from(Some(next), None, self.threshold, self.hit_cap))
    }
}

// ---------------------------------------------------------------- opposed test

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpposedResult {
    ActorWins,
    /// Equal hits: the defender wins, except where a rule reads a tie on its own (spells).
    Tie,
    OpponentWins,
}

impl OpposedResult {
    pub fn from_net(net: i64) -> Self {
        match net {
            n if n > 0 => OpposedResult::ActorWins,
            0 => OpposedResult::Tie,
            _ => OpposedResult::OpponentWins,
        }
    }

    /// Decisions "Opposed test": the tie goes to the defender.
    pub fn actor_succeeds(self) -> bool {
        self == OpposedResult::ActorWins
    }
}

/// Seed 1.2 opposed test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct OpposedRequest {
    pub actor: RollSpec,
    /// An opponent with no dice rolls nothing and has no hits.
    pub opponent: RollSpec,
    #[serde(default)]
    pub actor_hit_cap: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpposedOutcome {
    pub actor: Rolled,
    pub opponent: Option<Rolled>,
    pub actor_hits: u32,
    pub opponent_hits: u32,
    pub net_hits: i64,
    pub result: OpposedResult,
}

fn opposed_from(actor: Rolled, opponent: Option<Rolled>, cap: Option<u32>) -> OpposedOutcome {
    let actor_hits = cap.map_or(actor.hits(), |c| actor.hits().min(c));
    let opponent_hits = hits_of(&opponent);
    let net_hits = i64::from(actor_hits) - i64::from(opponent_hits);
    OpposedOutcome {
        actor,
        opponent,
        actor_hits,
        opponent_hits,
        net_hits,
        result: OpposedResult::from_net(net_hits),
    }
}

pub fn opposed_test(req: &OpposedRequest, roller: &mut impl Roller) -> Result<OpposedOutcome, RuleError> {
    let actor = roll(&req.actor, roller)?;
    let opponent = roll_or_nothing(&req.opponent, roller)?;
    Ok(opposed_from(actor, opponent, req.actor_hit_cap))
}

/// Which side of an opposed test spends Edge after the roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Actor,
    Opponent,
}

impl OpposedOutcome {
    pub fn with_edge_after(
        &self,
        side: Side,
        action: EdgeAfter,
        cap: Option<u32>,
        roller: &mut impl Roller,
    ) -> Result<OpposedOutcome, RuleError> {
        let mut actor = self.actor.clone();
        let mut opponent = self.opponent.clone();
        match side {
            Side::Actor => actor = actor.with_edge_after(action, roller)?,
            Side::Opponent => {
                let o = opponent.as_ref().ok_or(RuleError::NothingToReroll)?;
                opponent = Some(o.with_edge_after(action, roller)?);
            }
        }
        Ok(opposed_from(actor, opponent, cap))
    }
}

// ---------------------------------------------------------------- teamwork

/// Seed 1.2 teamwork test: each assistant rolls; every hit is a die for the leader.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TeamworkRequest {
    pub leader: RollSpec,
    pub assistants: Vec<RollSpec>,
    #[serde(default)]
    pub threshold: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TeamworkOutcome {
    pub assistants: Vec<Rolled>,
    pub bonus_dice: u32,
    pub leader: SuccessOutcome,
}

pub const MAX_ASSISTANTS: usize = 20;

pub fn teamwork_test(req: &TeamworkRequest, roller: &mut impl Roller) -> Result<TeamworkOutcome, RuleError> {
    check_range(
        Quantity::Count,
        req.assistants.len() as i64,
        0,
        MAX_ASSISTANTS as i64,
    )?;
    let mut assistants = Vec::with_capacity(req.assistants.len());
    let mut bonus = 0u32;
    for a in &req.assistants {
        let r = roll(a, roller)?;
        bonus += r.hits();
        assistants.push(r);
    }
    let mut leader = req.leader.clone();
    if bonus > 0 {
        leader.pool = leader
            .pool
            .with(PartSource::Teamwork, i32::try_from(bonus).unwrap_or(i32::MAX));
    }
    let leader = success_test(
        &SuccessRequest {
            roll: leader,
            threshold: req.threshold,
            hit_cap: None,
            buy_hits: false,
        },
        roller,
    )?;
    Ok(TeamworkOutcome {
        assistants,
        bonus_dice: bonus,
        leader,
    })
}

impl TeamworkOutcome {
    /// The leader's Edge after the roll acts on the leader's dice; the assistants' rolls and
    /// the dice they gave stay.
    pub fn with_edge_after(
        &self,
        action: EdgeAfter,
        roller: &mut impl Roller,
    ) -> Result<TeamworkOutcome, RuleError> {
        Ok(TeamworkOutcome {
            leader: self.leader.with_edge_after(action, roller)?,
            ..self.clone()
        })
    }
}

// ---------------------------------------------------------------- perception-like

/// A success test, or an opposed one when the target hides (perception, matrix perception,
/// sensor tests: seed 5.4, 7.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SearchRequest {
    pub searcher: RollSpec,
    #[serde(default)]
    pub hidden: Option<RollSpec>,
    #[serde(default)]
    pub threshold: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SearchOutcome {
    Open(SuccessOutcome),
    Hidden(OpposedOutcome),
}

impl SearchOutcome {
    /// Whether the searcher found what was looked for.
    pub fn found(&self) -> Option<bool> {
        match self {
            SearchOutcome::Open(s) => s.success.or(Some(s.hits > 0)),
            SearchOutcome::Hidden(o) => Some(o.result.actor_succeeds()),
        }
    }
}

pub fn search_test(req: &SearchRequest, roller: &mut impl Roller) -> Result<SearchOutcome, RuleError> {
    match &req.hidden {
        None => success_test(
            &SuccessRequest {
                roll: req.searcher.clone(),
                threshold: req.threshold,
                hit_cap: None,
                buy_hits: false,
            },
            roller,
        )
        .map(SearchOutcome::Open),
        Some(h) => opposed_test(
            &OpposedRequest {
                actor: req.searcher.clone(),
                opponent: h.clone(),
                actor_hit_cap: None,
            },
            roller,
        )
        .map(SearchOutcome::Hidden),
    }
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::dice::FixedRoller;

    pub(super) fn fixed(f: &[u32]) -> FixedRoller {
        FixedRoller::new(f.iter().copied())
    }

    #[test]
    fn threshold_and_net_hits() {
        let req = SuccessRequest {
            roll: RollSpec::dice(4),
            threshold: Some(2),
            ..Default::default()
        };
        let o = success_test(&req, &mut fixed(&[5, 6, 5, 2])).unwrap();
        assert_eq!((o.hits, o.net_hits, o.success), (3, Some(1), Some(true)));
        let o = success_test(&req, &mut fixed(&[5, 4, 3, 2])).unwrap();
        assert_eq!((o.hits, o.net_hits, o.success), (1, Some(-1), Some(false)));
        let none = SuccessRequest {
            roll: RollSpec::dice(2),
            ..Default::default()
        };
        let o = success_test(&none, &mut fixed(&[5, 4])).unwrap();
        assert_eq!((o.hits, o.success), (1, None));
    }

    #[test]
    fn retry_costs_two_dice_per_try() {
        let req = SuccessRequest {
            roll: RollSpec::dice(6).with_retry(2),
            ..Default::default()
        };
        let o = success_test(&req, &mut fixed(&[5, 5])).unwrap();
        let r = o.rolled.unwrap();
        assert_eq!((r.pool, r.rolled), (2, 2));
        let too_many = SuccessRequest {
            roll: RollSpec::dice(6).with_retry(3),
            ..Default::default()
        };
        assert_eq!(
            success_test(&too_many, &mut fixed(&[])),
            Err(RuleError::PoolEmpty { pool: 0 })
        );
    }

    #[test]
    fn long_shot_rolls_edge_alone_with_the_rule_of_six() {
        let spec = RollSpec::dice(3)
            .with_retry(2)
            .with_edge(EdgeBefore::LongShot { edge: 2 });
        let r = roll(&spec, &mut fixed(&[6, 2, 5])).unwrap();
        assert_eq!((r.pool, r.rolled, r.hits()), (-1, 2, 2));
        assert_eq!(r.roll.dice.len(), 3);
        let not_needed = RollSpec::dice(1).with_edge(EdgeBefore::LongShot { edge: 2 });
        assert_eq!(
            roll(&not_needed, &mut fixed(&[])),
            Err(RuleError::LongShotNotNeeded { pool: 1 })
        );
        let no_edge = RollSpec::dice(0).with_edge(EdgeBefore::LongShot { edge: 0 });
        assert_eq!(roll(&no_edge, &mut fixed(&[])), Err(RuleError::NoEdgeAttribute));
    }

    #[test]
    fn pushing_the_limit_adds_edge_dice_that_explode() {
        let spec = RollSpec::dice(2).with_edge(EdgeBefore::PushTheLimit { edge: 2 });
        let r = roll(&spec, &mut fixed(&[6, 1, 2, 3, 5])).unwrap();
        assert_eq!(r.rolled, 4);
        assert_eq!(r.roll.dice.len(), 5);
        assert_eq!(r.hits(), 2);
        assert!(r.roll.edge_used);
    }

    #[test]
    fn buying_hits_rolls_nothing() {
        let req = SuccessRequest {
            roll: RollSpec::dice(9),
            threshold: Some(2),
            buy_hits: true,
            ..Default::default()
        };
        let mut empty = fixed(&[]);
        let o = success_test(&req, &mut empty).unwrap();
        assert_eq!((o.hits, o.success, o.glitch), (2, Some(true), Glitch::None));
        assert!(o.rolled.is_none());
        let mut with_edge = req.clone();
        with_edge.roll.edge = Some(EdgeBefore::PushTheLimit { edge: 3 });
        assert_eq!(
            success_test(&with_edge, &mut empty),
            Err(RuleError::BoughtHitsNoEdge)
        );
        let mut none = fixed(&[]);
        assert_eq!(
            o.with_edge_after(EdgeAfter::SecondChance, &mut none),
            Err(RuleError::BoughtHitsNoEdge)
        );
    }

    #[test]
    fn hit_cap_limits_counted_hits() {
        let req = SuccessRequest {
            roll: RollSpec::dice(4),
            hit_cap: Some(2),
            ..Default::default()
        };
        let o = success_test(&req, &mut fixed(&[5, 5, 6, 6])).unwrap();
        assert_eq!((o.raw_hits, o.hits), (4, 2));
    }

    #[test]
    fn opposed_ties_go_to_the_defender() {
        let req = OpposedRequest {
            actor: RollSpec::dice(2),
            opponent: RollSpec::dice(2),
            actor_hit_cap: None,
        };
        let o = opposed_test(&req, &mut fixed(&[5, 2, 6, 3])).unwrap();
        assert_eq!(o.result, OpposedResult::Tie);
        assert!(!o.result.actor_succeeds());
        let o = opposed_test(&req, &mut fixed(&[5, 5, 6, 3])).unwrap();
        assert_eq!((o.net_hits, o.result), (1, OpposedResult::ActorWins));
        // An opponent without dice does not roll.
        let empty = OpposedRequest {
            actor: RollSpec::dice(1),
            opponent: RollSpec::dice(0),
            actor_hit_cap: None,
        };
        let o = opposed_test(&empty, &mut fixed(&[2])).unwrap();
        assert!(o.opponent.is_none());
        assert_eq!(o.result, OpposedResult::Tie);
    }

    #[test]
    fn teamwork_hits_become_leader_dice() {
        let req = TeamworkRequest {
            leader: RollSpec::dice(2),
            assistants: vec![RollSpec::dice(2), RollSpec::dice(1)],
            threshold: Some(3),
        };
        // Assistants: 5,6 (2 hits) and 5 (1 hit); leader rolls 2 + 3 = 5 dice.
        let o = teamwork_test(&req, &mut fixed(&[5, 6, 5, 5, 2, 5, 3, 6])).unwrap();
        assert_eq!(o.bonus_dice, 3);
        let r = o.leader.rolled.as_ref().unwrap();
        assert_eq!(r.rolled, 5);
        assert_eq!(o.leader.hits, 3);
        assert_eq!(o.leader.success, Some(true));
        assert!(
            r.parts
                .iter()
                .any(|p| p.source == PartSource::Teamwork && p.value == 3)
        );
    }

    #[test]
    fn outcomes_round_trip_through_json() {
        let req = SuccessRequest {
            roll: RollSpec::dice(3),
            threshold: Some(1),
            ..Default::default()
        };
        let o = success_test(&req, &mut fixed(&[1, 5, 6])).unwrap();
        let back: SuccessOutcome = serde_json::from_str(&serde_json::to_string(&o).unwrap()).unwrap();
        assert_eq!(back, o);
    }
}
