//! Pools, Rolls (target tests) and Checks (opposed tests).

use serde::{Deserialize, Serialize};

use super::error::RuleError;
use crate::dice::Roller;

/// Most dice one Badlands Rally pool may hold. Real pools stay under 15; this only stops abuse.
pub const MAX_POOL: u32 = 60;
/// A test starts from 2D6 (seed ◆テスト/判定).
pub const BASE_DICE: i32 = 2;

/// A rating written "4+": the face a die must meet. 2+ to 6+.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Rating(u8);

impl Rating {
    pub fn new(rating: u8) -> Result<Self, RuleError> {
        if (2..=6).contains(&rating) {
            Ok(Rating(rating))
        } else {
            Err(RuleError::BadRating { rating })
        }
    }

    pub fn value(self) -> u8 {
        self.0
    }

    /// One step better (Twins: 4+ → 3+); 2+ is the best a rating gets.
    pub fn improved(self) -> Rating {
        Rating(self.0.saturating_sub(1).max(2))
    }

    pub fn met_by(self, face: u32) -> bool {
        face >= u32::from(self.0)
    }
}

impl TryFrom<u8> for Rating {
    type Error = RuleError;
    fn try_from(v: u8) -> Result<Self, RuleError> {
        Rating::new(v)
    }
}

impl From<Rating> for u8 {
    fn from(r: Rating) -> u8 {
        r.0
    }
}

/// Why a pool gained or lost dice; kept in outcomes so the bot can list every modifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Base,
    Rattled,
    /// Low Performance: special moves always take the rattled modifier.
    LowPerformance,
    TopSpeed,
    Equipment,
    SideAttack,
    RearAttack,
    BeyondOptimalRange,
    CoverLevel1,
    CoverLevel2,
    Burst,
    LowProfile,
    Shield,
    Brawler,
    JumpJets,
    CoiledHydraulicEnhancer,
    BoosterRockets,
    Overdrive,
    SpeedDemon,
    SponsorshipPaint,
    RallyDice,
    /// Capped at the MR left (jump).
    MrCap,
    /// Whatever the table adds by hand.
    Situational,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub source: Source,
    pub dice: i32,
}

impl Modifier {
    pub fn new(source: Source, dice: i32) -> Self {
        Modifier { source, dice }
    }
}

/// A number of D6 built from modifiers; the net may be zero or negative (automatic failure).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Pool {
    pub modifiers: Vec<Modifier>,
}

impl Pool {
    /// The basic 2D6 test.
    pub fn standard() -> Self {
        Pool {
            modifiers: vec![Modifier::new(Source::Base, BASE_DICE)],
        }
    }

    pub fn of(dice: i32) -> Self {
        Pool {
            modifiers: vec![Modifier::new(Source::Base, dice)],
        }
    }

    /// Add a modifier; zero-dice modifiers are left out so outcomes list only what mattered.
    pub fn add(&mut self, source: Source, dice: i32) {
        if dice != 0 {
            self.modifiers.push(Modifier::new(source, dice));
        }
    }

    pub fn with(mut self, source: Source, dice: i32) -> Self {
        self.add(source, dice);
        self
    }

    /// The net number of dice, checked against overflow and [`MAX_POOL`].
    pub fn net(&self) -> Result<i32, RuleError> {
        let mut total: i64 = 0;
        for m in &self.modifiers {
            total = total.checked_add(i64::from(m.dice)).ok_or(RuleError::Overflow)?;
        }
        if total > i64::from(MAX_POOL) {
            return Err(RuleError::PoolTooLarge {
                dice: total,
                max: MAX_POOL,
            });
        }
        // Bounded below by the sum of at most MAX_POOL-sized i32s; clamp for the return type.
        Ok(total.max(i64::from(i32::MIN)) as i32)
    }

    /// Dice to actually roll: the net, or 0 when the modifiers leave none.
    pub fn dice_to_roll(&self) -> Result<u32, RuleError> {
        Ok(self.net()?.max(0) as u32)
    }
}

/// A Roll (target test): count dice meeting the rating (seed 【テスト：ロール】).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOutcome {
    pub rating: Rating,
    pub pool: Pool,
    /// Every die in the order rolled.
    pub dice: Vec<u32>,
    pub successes: u32,
    /// 0 dice after modifiers: the test fails without a roll (seed 【OD6】).
    pub automatic_failure: bool,
    /// Every die shows 1 (at least one die rolled).
    pub all_ones: bool,
}

/// A Check (opposed test): the highest die plus one per other die meeting the rating.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckOutcome {
    pub rating: Rating,
    pub pool: Pool,
    pub dice: Vec<u32>,
    /// The check result; 0 on an automatic failure.
    pub result: u32,
    /// At least one die met the rating (Area Effect and Blast need this).
    pub any_met: bool,
    pub automatic_failure: bool,
    pub all_ones: bool,
}

fn all_ones(dice: &[u32]) -> bool {
    !dice.is_empty() && dice.iter().all(|&d| d == 1)
}

/// Score a Roll from faces already rolled.
pub fn score_roll(rating: Rating, pool: Pool, dice: Vec<u32>) -> RollOutcome {
    let successes = dice.iter().filter(|&&d| rating.met_by(d)).count() as u32;
    RollOutcome {
        rating,
        automatic_failure: dice.is_empty(),
        all_ones: all_ones(&dice),
        pool,
        dice,
        successes,
    }
}

/// Score a Check from faces already rolled (decision note, Dice: highest die, plus 1 for every
/// other die meeting the rating; no die meeting it leaves just the highest die).
pub fn score_check(rating: Rating, pool: Pool, dice: Vec<u32>) -> CheckOutcome {
    let highest = dice.iter().copied().max();
    let result = match highest {
        None => 0,
        Some(h) => {
            let meeting = dice.iter().filter(|&&d| rating.met_by(d)).count() as u32;
            // The highest die is one of the meeting dice when it meets the rating.
            let others = if rating.met_by(h) { meeting - 1 } else { meeting };
            h + others
        }
    };
    CheckOutcome {
        rating,
        automatic_failure: dice.is_empty(),
        any_met: dice.iter().any(|&d| rating.met_by(d)),
        all_ones: all_ones(&dice),
        pool,
        dice,
        result,
    }
}

/// Roll a pool against a rating (target test).
pub fn roll(pool: &Pool, rating: Rating, roller: &mut impl Roller) -> Result<RollOutcome, RuleError> {
    let n = pool.dice_to_roll()?;
    let dice = roller.roll_many(n as usize, 6)?;
    Ok(score_roll(rating, pool.clone(), dice))
}

/// Roll a pool as a check (opposed test).
pub fn check(pool: &Pool, rating: Rating, roller: &mut impl Roller) -> Result<CheckOutcome, RuleError> {
    let n = pool.dice_to_roll()?;
    let dice = roller.roll_many(n as usize, 6)?;
    Ok(score_check(rating, pool.clone(), dice))
}

/// A bare `/rally roll` or `/rally check`: 2D6 (or `dice`) plus situational dice, rattled −1D6.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestRequest {
    pub rating: u8,
    /// Base dice; 2 in the rules.
    pub dice: i32,
    pub rattled: bool,
    pub extra_dice: i32,
}

impl TestRequest {
    fn pool(&self) -> Result<(Pool, Rating), RuleError> {
        let rating = Rating::new(self.rating)?;
        let pool = Pool::of(self.dice)
            .with(Source::Rattled, if self.rattled { -1 } else { 0 })
            .with(Source::Situational, self.extra_dice);
        pool.net()?;
        Ok((pool, rating))
    }
}

/// `/rally roll`: a target test.
pub fn resolve_roll(req: &TestRequest, roller: &mut impl Roller) -> Result<RollOutcome, RuleError> {
    let (pool, rating) = req.pool()?;
    roll(&pool, rating, roller)
}

/// `/rally check`: one side of an opposed test.
pub fn resolve_check(req: &TestRequest, roller: &mut impl Roller) -> Result<CheckOutcome, RuleError> {
    let (pool, rating) = req.pool()?;
    check(&pool, rating, roller)
}

/// Margin = attacker's result − defender's result (decision note, Dice).
pub fn margin(attack: &CheckOutcome, defence: &CheckOutcome) -> i32 {
    // Results are at most 6 + MAX_POOL, so the cast and subtraction cannot overflow.
    attack.result as i32 - defence.result as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;

    fn r(v: u8) -> Rating {
        Rating::new(v).unwrap()
    }

    #[test]
    fn check_examples_from_the_note() {
        // 3D6 at 5+ rolling 4,5,6 → 6 + 1 (the 5) = 7.
        assert_eq!(score_check(r(5), Pool::of(3), vec![4, 5, 6]).result, 7);
        // 2D6 at 4+ rolling 4,4 → 4 + 1 = 5 (ties for highest count).
        assert_eq!(score_check(r(4), Pool::of(2), vec![4, 4]).result, 5);
        // 2D6 at 4+ rolling 1,1 → no die meets: just the highest, 1.
        let c = score_check(r(4), Pool::of(2), vec![1, 1]);
        assert_eq!(c.result, 1);
        assert!(c.all_ones && !c.any_met);
        // No die meets: highest die alone, the rest ignored.
        assert_eq!(score_check(r(5), Pool::of(3), vec![3, 4, 2]).result, 4);
    }

    #[test]
    fn roll_counts_dice_meeting_the_rating() {
        let mut dice = FixedRoller::new([5, 3, 2]);
        let out = roll(&Pool::of(3), r(3), &mut dice).unwrap();
        assert_eq!(out.dice, vec![5, 3, 2]);
        assert_eq!(out.successes, 2);
        assert!(!out.all_ones && !out.automatic_failure);
    }

    #[test]
    fn zero_dice_is_an_automatic_failure_without_rolling() {
        let mut dice = FixedRoller::new([6]);
        let pool = Pool::standard()
            .with(Source::Rattled, -1)
            .with(Source::Situational, -2);
        assert_eq!(pool.net().unwrap(), -1);
        let out = roll(&pool, r(4), &mut dice).unwrap();
        assert!(out.automatic_failure);
        assert_eq!(out.successes, 0);
        assert!(out.dice.is_empty() && !out.all_ones);
        let c = check(&pool, r(4), &mut dice).unwrap();
        assert!(c.automatic_failure && c.result == 0);
        assert_eq!(dice.remaining(), 1, "no die is consumed");
    }

    #[test]
    fn all_ones_flag_needs_every_die_to_be_one() {
        assert!(score_roll(r(4), Pool::of(3), vec![1, 1, 1]).all_ones);
        assert!(!score_roll(r(4), Pool::of(3), vec![1, 2, 1]).all_ones);
        assert!(score_check(r(4), Pool::of(1), vec![1]).all_ones);
    }

    #[test]
    fn ratings_and_pools_are_validated() {
        assert_eq!(Rating::new(7), Err(RuleError::BadRating { rating: 7 }));
        assert_eq!(Rating::new(1), Err(RuleError::BadRating { rating: 1 }));
        assert_eq!(r(4).improved(), r(3));
        assert_eq!(r(2).improved(), r(2));
        let big = Pool::of(MAX_POOL as i32 + 1);
        assert!(matches!(big.net(), Err(RuleError::PoolTooLarge { .. })));
        let overflow = Pool::of(i32::MAX).with(Source::Situational, i32::MAX);
        assert!(matches!(overflow.net(), Err(RuleError::PoolTooLarge { .. })));
        let req = TestRequest {
            rating: 4,
            dice: i32::MIN,
            rattled: true,
            extra_dice: i32::MIN,
        };
        let out = resolve_roll(&req, &mut FixedRoller::new([])).unwrap();
        assert!(out.automatic_failure);
        // Deserializing a bad rating is an error too.
        assert!(serde_json::from_str::<Rating>("9").is_err());
        assert_eq!(serde_json::from_str::<Rating>("3").unwrap(), r(3));
    }

    #[test]
    fn test_request_applies_rattled_and_extra_dice() {
        let req = TestRequest {
            rating: 4,
            dice: 2,
            rattled: true,
            extra_dice: 2,
        };
        let mut dice = FixedRoller::new([4, 2, 6]);
        let out = resolve_check(&req, &mut dice).unwrap();
        assert_eq!(out.dice, vec![4, 2, 6]);
        assert_eq!(out.result, 7);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn margin_is_attack_minus_defence() {
        let a = score_check(r(4), Pool::of(2), vec![6, 4]);
        let d = score_check(r(4), Pool::of(2), vec![5, 1]);
        assert_eq!(margin(&a, &d), 2);
        assert_eq!(margin(&d, &a), -2);
    }
}
