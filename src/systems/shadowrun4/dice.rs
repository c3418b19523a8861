//! Pools, hits, glitches, the rule of six and the Edge uses that act on dice already rolled.
//!
//! Glitch arithmetic follows BCDice's ShadowRun4 system exactly (`grich_text` with the reroll
//! command's `one_count` of depth-0 dice and `dice_total_count` of every die rolled).

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, check_range};
use crate::dice::Roller;

/// A die showing this or more is a hit (seed 1.1).
pub const HIT_ON: u32 = 5;
/// The largest pool one test may roll, Edge dice included: far above any legal SR4 pool.
pub const MAX_POOL: u32 = 100;
/// Most dice a chain of exploding sixes may add to one roll. Reaching it is reported in
/// [`PoolRoll::explosion_capped`]; the odds of 200 chained sixes are nil, so only a broken roller gets there.
pub const MAX_EXPLODED_DICE: u32 = 200;
/// Highest Edge rating we accept (SR4 humans top out at 7; metatype and qualities stay far below).
pub const MAX_EDGE: u32 = 20;

/// Where a die came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DieSource {
    /// The pool as rolled (Edge dice pushed before the roll included).
    Pool,
    /// Added by a six under the rule of six.
    Exploded,
    /// Edge dice added after the roll.
    EdgeAdded,
    /// A miss rolled again with Second Chance.
    SecondChance,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    pub face: u32,
    pub source: DieSource,
    /// Replaced by a Second Chance reroll: shown, but no longer counted.
    #[serde(default)]
    pub replaced: bool,
}

impl Die {
    pub fn is_hit(&self) -> bool {
        self.face >= HIT_ON
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Glitch {
    #[default]
    None,
    Glitch,
    Critical,
}

/// Seed 1.1 / decisions "Dice": half or more of the dice show 1 (`ones * 2 >= dice`), critical
/// with no hit. Same comparison as BCDice's `numberSpot1 >= dice_cnt_total / 2.0`.
pub fn glitch_of(ones: u32, dice: u32, hits: u32) -> Glitch {
    if dice == 0 || u64::from(ones) * 2 < u64::from(dice) {
        Glitch::None
    } else if hits == 0 {
        Glitch::Critical
    } else {
        Glitch::Glitch
    }
}

/// One rolled pool with every die kept in roll order and its derived facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolRoll {
    pub dice: Vec<Die>,
    /// Whether sixes of the pool itself explode (Edge before the roll, long shot).
    pub rule_of_six: bool,
    pub hits: u32,
    /// 1s counted for the glitch: dice that are not explosions and not replaced.
    pub ones: u32,
    /// The glitch divisor: every die still standing, explosions included.
    pub counted: u32,
    /// The glitch as it stands (after any Edge negation).
    pub glitch: Glitch,
    /// The glitch that Edge negated, if any.
    pub negated: Option<Glitch>,
    /// An explosion chain reached [`MAX_EXPLODED_DICE`] and stopped.
    pub explosion_capped: bool,
    /// Edge was used on this roll (before or after); one use per roll.
    pub edge_used: bool,
    /// A burnt Edge point made this a critical success (seed 2).
    #[serde(default)]
    pub critical_success: bool,
}

/// An Edge use on a roll already shown (seed 2; decisions "Edge").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "use", rename_all = "snake_case")]
pub enum EdgeAfter {
    /// Add Edge dice now; only the added dice follow the rule of six.
    AddDice { edge: u32 },
    /// Reroll every die that did not hit, once.
    SecondChance,
    /// Cancel a glitch or critical glitch.
    NegateGlitch,
    /// Burn a point of the attribute: the test becomes a critical success.
    BurnForCriticalSuccess,
}

impl EdgeAfter {
    /// Whether this use burns the attribute rather than spending a point.
    pub fn burns(&self) -> bool {
        matches!(self, EdgeAfter::BurnForCriticalSuccess)
    }
}

pub(crate) fn check_pool(dice: i64) -> Result<u32, RuleError> {
    if dice <= 0 {
        return Err(RuleError::PoolEmpty { pool: dice });
    }
    if dice > i64::from(MAX_POOL) {
        return Err(RuleError::PoolTooLarge {
            pool: dice,
            max: MAX_POOL,
        });
    }
    // In range 1..=MAX_POOL, so the conversion cannot fail.
    u32::try_from(dice).map_err(|_| RuleError::PoolTooLarge {
        pool: dice,
        max: MAX_POOL,
    })
}

pub(crate) fn check_edge(edge: u32) -> Result<(), RuleError> {
    if edge == 0 {
        return Err(RuleError::NoEdgeAttribute);
    }
    check_range(Quantity::Edge, i64::from(edge), 1, i64::from(MAX_EDGE))
}

/// Roll `count` dice of `source`, then let their sixes explode if asked.
fn roll_group(
    dice: &mut Vec<Die>,
    count: u32,
    source: DieSource,
    explode: bool,
    roller: &mut impl Roller,
) -> Result<bool, RuleError> {
    let mut sixes = 0u32;
    for _ in 0..count {
        let face = roller.roll(6)?;
        if face == 6 {
            sixes += 1;
        }
        dice.push(Die {
            face,
            source,
            replaced: false,
        });
    }
    if explode {
        explode_sixes(dice, sixes, roller)
    } else {
        Ok(false)
    }
}

/// Seed 1.5: each six adds a die, and added sixes add again. Rolled in rounds like BCDice's
/// `xR6` (all the sixes of one round, then the sixes of that round). Returns whether the cap stopped it.
fn explode_sixes(dice: &mut Vec<Die>, sixes: u32, roller: &mut impl Roller) -> Result<bool, RuleError> {
    let mut pending = sixes;
    let mut added = 0u32;
    while pending > 0 {
        let room = MAX_EXPLODED_DICE.saturating_sub(added);
        if room == 0 {
            return Ok(true);
        }
        let round = pending.min(room);
        let mut next = 0u32;
        for _ in 0..round {
            let face = roller.roll(6)?;
            if face == 6 {
                next += 1;
            }
            dice.push(Die {
                face,
                source: DieSource::Exploded,
                replaced: false,
            });
        }
        added += round;
        pending = pending - round + next;
    }
    Ok(false)
}

/// Roll a pool of `count` dice (1..=[`MAX_POOL`]).
pub fn roll_pool(count: u32, rule_of_six: bool, roller: &mut impl Roller) -> Result<PoolRoll, RuleError> {
    let count = check_pool(i64::from(count))?;
    let mut dice = Vec::with_capacity(count as usize + 2);
    let capped = roll_group(&mut dice, count, DieSource::Pool, rule_of_six, roller)?;
    let mut roll = PoolRoll {
        dice,
        rule_of_six,
        hits: 0,
        ones: 0,
        counted: 0,
        glitch: Glitch::None,
        negated: None,
        explosion_capped: capped,
        edge_used: rule_of_six,
        critical_success: false,
    };
    roll.tally();
    Ok(roll)
}

impl PoolRoll {
    /// Recount hits and the glitch from the dice.
    fn tally(&mut self) {
        let mut hits = 0;
        let mut ones = 0;
        let mut counted = 0;
        for d in self.dice.iter().filter(|d| !d.replaced) {
            counted += 1;
            if d.is_hit() {
                hits += 1;
            }
            // Decisions "Dice": 1s of the original pool only, divided by all dice (BCDice depth 0).
            if d.face == 1 && d.source != DieSource::Exploded {
                ones += 1;
            }
        }
        self.hits = hits;
        self.ones = ones;
        self.counted = counted;
        self.glitch = if self.negated.is_some() {
            Glitch::None
        } else {
            glitch_of(ones, counted, hits)
        };
    }

    /// The glitch the dice show, whether or not Edge negated it.
    pub fn rolled_glitch(&self) -> Glitch {
        self.negated.unwrap_or(self.glitch)
    }

    /// Whether Edge was spent on this roll after it was shown: dice added or rerolled, a glitch
    /// negated, a point burnt for a critical success.
    pub fn edge_after_used(&self) -> bool {
        self.negated.is_some()
            || self.critical_success
            || self
                .dice
                .iter()
                .any(|d| matches!(d.source, DieSource::EdgeAdded | DieSource::SecondChance))
    }

    /// The glitch the roll showed before any Edge after it: the dice as first rolled (the pool
    /// and its explosions, which come before any die Edge added or rerolled, and the explosions
    /// of those), replaced or not.
    pub fn first_glitch(&self) -> Glitch {
        let end = self
            .dice
            .iter()
            .position(|d| matches!(d.source, DieSource::EdgeAdded | DieSource::SecondChance))
            .unwrap_or(self.dice.len());
        let first = &self.dice[..end];
        let ones = first
            .iter()
            .filter(|d| d.face == 1 && d.source != DieSource::Exploded)
            .count();
        let hits = first.iter().filter(|d| d.is_hit()).count();
        glitch_of(ones as u32, first.len() as u32, hits as u32)
    }

    /// Dice still standing, in roll order.
    pub fn standing(&self) -> impl Iterator<Item = &Die> {
        self.dice.iter().filter(|d| !d.replaced)
    }

    /// Seed 2 / decisions "Edge": spend Edge on this roll after seeing it. One use per roll.
    pub fn with_edge_after(
        &self,
        action: EdgeAfter,
        roller: &mut impl Roller,
    ) -> Result<PoolRoll, RuleError> {
        if self.edge_used {
            return Err(RuleError::EdgeAlreadyUsed);
        }
        let mut next = self.clone();
        next.edge_used = true;
        match action {
            EdgeAfter::AddDice { edge } => {
                check_edge(edge)?;
                let total = u64::from(self.counted) + u64::from(edge);
                if total > u64::from(MAX_POOL) + u64::from(MAX_EXPLODED_DICE) {
                    return Err(RuleError::PoolTooLarge {
                        pool: total as i64,
                        max: MAX_POOL,
                    });
                }
                let capped = roll_group(&mut next.dice, edge, DieSource::EdgeAdded, true, roller)?;
                next.explosion_capped |= capped;
            }
            EdgeAfter::SecondChance => {
                let misses: Vec<usize> = next
                    .dice
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| !d.replaced && !d.is_hit())
                    .map(|(i, _)| i)
                    .collect();
                if misses.is_empty() {
                    return Err(RuleError::NothingToReroll);
                }
                for i in misses {
                    next.dice[i].replaced = true;
                    let face = roller.roll(6)?;
                    next.dice.push(Die {
                        face,
                        source: DieSource::SecondChance,
                        replaced: false,
                    });
                }
            }
            EdgeAfter::NegateGlitch => {
                if self.glitch == Glitch::None {
                    return Err(RuleError::NoGlitchToNegate);
                }
                next.negated = Some(self.glitch);
            }
            EdgeAfter::BurnForCriticalSuccess => {
                next.critical_success = true;
                // A critical success is no accident: whatever glitch was rolled is gone.
                if self.glitch != Glitch::None {
                    next.negated = Some(self.glitch);
                }
            }
        }
        next.tally();
        Ok(next)
    }
}

/// Seed 1.4: one hit per full four dice of the pool; nothing is rolled, so nothing glitches.
pub fn bought_hits(pool: i64) -> u32 {
    if pool <= 0 {
        0
    } else {
        u32::try_from(pool / 4).unwrap_or(u32::MAX)
    }
}

/// The Shadowrun reading of faces from a generic roll, for `/roll`'s `nB6`, `nB6>=t` and `nR6`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FacesReading {
    pub hits: u32,
    /// 1s among the first `original` faces.
    pub ones: u32,
    /// Every face, explosions included: the glitch divisor.
    pub dice: u32,
    pub glitch: Glitch,
}

/// Read faces as BCDice's ShadowRun4 system does. `faces` are in roll order; the first
/// `original` are the pool as asked (`n` of `nR6`), the rest were added by rerolls. For `nB6`
/// pass `original = faces.len()`. A face `>= hit_on` is a hit (`nB6` and `nR6` use 5).
pub fn read_faces(faces: &[u32], original: usize, hit_on: u32) -> Result<FacesReading, RuleError> {
    if original > faces.len() {
        return Err(RuleError::OutOfRange {
            what: Quantity::Count,
            value: i64::try_from(original).unwrap_or(i64::MAX),
            min: 0,
            max: i64::try_from(faces.len()).unwrap_or(i64::MAX),
        });
    }
    let dice = u32::try_from(faces.len()).map_err(|_| RuleError::PoolTooLarge {
        pool: i64::MAX,
        max: MAX_POOL,
    })?;
    let hits = faces.iter().filter(|&&f| f >= hit_on).count() as u32;
    let ones = faces[..original].iter().filter(|&&f| f == 1).count() as u32;
    Ok(FacesReading {
        hits,
        ones,
        dice,
        glitch: glitch_of(ones, dice, hits),
    })
}

/// BCDice's `nR6` rolling: `count` dice, then every six rerolled in rounds until none is left
/// (capped at [`MAX_EXPLODED_DICE`]). Returns the faces in roll order and whether the cap stopped it.
pub fn roll_r6(count: u32, roller: &mut impl Roller) -> Result<(Vec<u32>, bool), RuleError> {
    let r = roll_pool(count, true, roller)?;
    Ok((r.dice.iter().map(|d| d.face).collect(), r.explosion_capped))
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::dice::FixedRoller;

    fn roll(faces: &[u32], pool: u32, six: bool) -> PoolRoll {
        let mut r = FixedRoller::new(faces.iter().copied());
        let out = roll_pool(pool, six, &mut r).unwrap();
        assert_eq!(r.remaining(), 0, "every fixed face should be used");
        out
    }

    #[test]
    fn hits_are_fives_and_sixes() {
        let r = roll(&[1, 2, 3, 4, 5, 6], 6, false);
        assert_eq!(r.hits, 2);
        assert_eq!(r.ones, 1);
        assert_eq!(r.glitch, Glitch::None);
    }

    #[test]
    fn glitch_boundaries() {
        // 2 dice with one 1: glitch (1*2 >= 2).
        assert_eq!(roll(&[1, 5], 2, false).glitch, Glitch::Glitch);
        assert_eq!(roll(&[1, 2], 2, false).glitch, Glitch::Critical);
        // 3 dice with one 1: no glitch.
        assert_eq!(roll(&[1, 5, 3], 3, false).glitch, Glitch::None);
        assert_eq!(roll(&[1, 2, 3], 3, false).glitch, Glitch::None);
        // 3 dice with two 1s: glitch.
        assert_eq!(roll(&[1, 1, 6], 3, false).glitch, Glitch::Glitch);
        // 1 die showing 1: critical glitch (BCDice `1B6` → 1).
        assert_eq!(roll(&[1], 1, false).glitch, Glitch::Critical);
    }

    #[test]
    fn sixes_explode_only_with_the_rule_of_six() {
        let plain = roll(&[6, 6, 2], 3, false);
        assert_eq!(plain.dice.len(), 3);
        let ex = roll(&[6, 6, 2, 6, 3, 5], 3, true);
        let faces: Vec<u32> = ex.dice.iter().map(|d| d.face).collect();
        assert_eq!(faces, vec![6, 6, 2, 6, 3, 5]);
        assert_eq!(ex.dice[3].source, DieSource::Exploded);
        assert_eq!(ex.hits, 4);
    }

    #[test]
    fn exploded_ones_count_in_the_divisor_not_the_ones() {
        // BCDice `1R6`: 6 then 1 is one hit and no glitch.
        let r = roll(&[6, 1], 1, true);
        assert_eq!((r.hits, r.ones, r.counted), (1, 0, 2));
        assert_eq!(r.glitch, Glitch::None);
        // Two 1s in a pool of 3 with one six exploding into a 2: 2*2 >= 4 → glitch.
        let g = roll(&[1, 1, 6, 2], 3, true);
        assert_eq!(g.glitch, Glitch::Glitch);
        // …but with one more explosion the divisor grows to 5: 4 < 5 → no glitch.
        let n = roll(&[1, 1, 6, 6, 2], 3, true);
        assert_eq!(n.glitch, Glitch::None);
    }

    #[test]
    fn explosions_stop_at_the_cap_and_say_so() {
        let faces = vec![6u32; 1 + MAX_EXPLODED_DICE as usize];
        let r = roll(&faces, 1, true);
        assert!(r.explosion_capped);
        assert_eq!(r.dice.len(), 1 + MAX_EXPLODED_DICE as usize);
        let under = roll(&[6, 6, 4], 1, true);
        assert!(!under.explosion_capped);
    }

    #[test]
    fn pool_limits_are_errors() {
        let mut r = FixedRoller::new([]);
        assert_eq!(roll_pool(0, false, &mut r), Err(RuleError::PoolEmpty { pool: 0 }));
        assert_eq!(
            roll_pool(MAX_POOL + 1, false, &mut r),
            Err(RuleError::PoolTooLarge {
                pool: i64::from(MAX_POOL) + 1,
                max: MAX_POOL
            })
        );
    }

    #[test]
    fn second_chance_rerolls_misses_once() {
        let r = roll(&[5, 1, 3], 3, false);
        let mut more = FixedRoller::new([6, 2]);
        let s = r.with_edge_after(EdgeAfter::SecondChance, &mut more).unwrap();
        assert_eq!(s.hits, 2);
        assert_eq!(s.dice.len(), 5);
        assert!(s.dice[1].replaced && s.dice[2].replaced);
        assert_eq!(s.glitch, Glitch::None);
        assert_eq!(
            s.with_edge_after(EdgeAfter::SecondChance, &mut more),
            Err(RuleError::EdgeAlreadyUsed)
        );
        let all = roll(&[5, 6], 2, false);
        assert_eq!(
            all.with_edge_after(EdgeAfter::SecondChance, &mut more),
            Err(RuleError::NothingToReroll)
        );
    }

    #[test]
    fn edge_after_adds_exploding_dice_only_to_the_new_ones() {
        let r = roll(&[6, 1, 2], 3, false);
        let mut more = FixedRoller::new([6, 3, 5]);
        let s = r
            .with_edge_after(EdgeAfter::AddDice { edge: 2 }, &mut more)
            .unwrap();
        let sources: Vec<DieSource> = s.dice.iter().map(|d| d.source).collect();
        assert_eq!(
            sources,
            vec![
                DieSource::Pool,
                DieSource::Pool,
                DieSource::Pool,
                DieSource::EdgeAdded,
                DieSource::EdgeAdded,
                DieSource::Exploded
            ]
        );
        assert_eq!(s.hits, 3);
    }

    /// What the roll showed before Edge after it: a glitch rerolled away or added to is still
    /// the first roll's; dice added (and their explosions) and rerolls are left out.
    #[test]
    fn the_first_glitch_is_the_roll_before_edge_after_it() {
        let glitched = roll(&[1, 1, 5], 3, false);
        assert!(!glitched.edge_after_used());
        assert_eq!(glitched.first_glitch(), Glitch::Glitch);
        let mut more = FixedRoller::new([5]);
        let rerolled = glitched
            .with_edge_after(EdgeAfter::SecondChance, &mut FixedRoller::new([5, 5]))
            .unwrap();
        assert!(rerolled.edge_after_used());
        assert_eq!(
            (rerolled.glitch, rerolled.first_glitch()),
            (Glitch::None, Glitch::Glitch)
        );
        let clean = roll(&[6, 2, 3, 4], 4, false);
        let added = clean
            .with_edge_after(EdgeAfter::AddDice { edge: 1 }, &mut more)
            .unwrap();
        assert_eq!(added.first_glitch(), Glitch::None);
        // Two of four dice show 1 with no hit: critical; Edge dice showing 1 add a glitch of
        // their own that the first roll did not have.
        let poor = roll(&[1, 2, 3, 4], 4, false);
        let worse = poor
            .with_edge_after(EdgeAfter::AddDice { edge: 2 }, &mut FixedRoller::new([1, 1]))
            .unwrap();
        assert_eq!((poor.glitch, worse.glitch), (Glitch::None, Glitch::Critical));
        assert_eq!(worse.first_glitch(), Glitch::None);
        let negated = roll(&[1, 1, 2], 3, false)
            .with_edge_after(EdgeAfter::NegateGlitch, &mut FixedRoller::new([]))
            .unwrap();
        assert!(negated.edge_after_used());
        assert_eq!(negated.first_glitch(), Glitch::Critical);
    }

    #[test]
    fn negating_needs_a_glitch() {
        let g = roll(&[1, 1, 2], 3, false);
        assert_eq!(g.glitch, Glitch::Critical);
        let mut none = FixedRoller::new([]);
        let n = g.with_edge_after(EdgeAfter::NegateGlitch, &mut none).unwrap();
        assert_eq!(n.glitch, Glitch::None);
        assert_eq!(n.negated, Some(Glitch::Critical));
        assert_eq!(n.rolled_glitch(), Glitch::Critical);
        let clean = roll(&[5, 2, 3], 3, false);
        assert_eq!(
            clean.with_edge_after(EdgeAfter::NegateGlitch, &mut none),
            Err(RuleError::NoGlitchToNegate)
        );
    }

    #[test]
    fn buying_hits_is_a_quarter_of_the_pool() {
        assert_eq!(bought_hits(12), 3);
        assert_eq!(bought_hits(11), 2);
        assert_eq!(bought_hits(3), 0);
        assert_eq!(bought_hits(-2), 0);
    }

    #[test]
    fn faces_read_like_bcdice() {
        // Cases from BCDice test/data/ShadowRun4.toml.
        let r = read_faces(&[2, 1], 2, 5).unwrap();
        assert_eq!((r.hits, r.glitch), (0, Glitch::Critical));
        let r = read_faces(&[1, 5], 2, 5).unwrap();
        assert_eq!((r.hits, r.glitch), (1, Glitch::Glitch));
        let r = read_faces(&[6, 1], 1, 5).unwrap();
        assert_eq!((r.hits, r.glitch), (1, Glitch::None));
        let r = read_faces(&[4, 2, 3, 4, 1, 5, 4, 1, 1, 5, 2, 4], 12, 5).unwrap();
        assert_eq!((r.hits, r.glitch), (2, Glitch::None));
        // nB6>=4 counts 4s too.
        let r = read_faces(&[4, 1, 3], 3, 4).unwrap();
        assert_eq!(r.hits, 1);
        assert!(read_faces(&[1], 2, 5).is_err());
    }

    #[test]
    fn r6_rolls_in_rounds() {
        // BCDice `2R6` with 6,5,6,4 → 5,6 + 6 + 4, three hits.
        let mut r = FixedRoller::new([6, 5, 6, 4]);
        let (faces, capped) = roll_r6(2, &mut r).unwrap();
        assert_eq!(faces, vec![6, 5, 6, 4]);
        assert!(!capped);
        let reading = read_faces(&faces, 2, 5).unwrap();
        assert_eq!(reading.hits, 3);
    }
}
