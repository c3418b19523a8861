//! Rigging and vehicles: sensor tests (seed 7.3), crash tests (7.5), chase range bands (7.6),
//! and the damage a jumped-in rigger takes when the drone is hit (7.2).

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, check_range};
use super::magic::{DrainOutcome, resist_drain};
use super::pool::PartSource;
use super::terms::DamageType;
use super::test_kinds::{
    OpposedOutcome, OpposedRequest, RollSpec, SearchOutcome, SearchRequest, SuccessOutcome, SuccessRequest,
    opposed_test, search_test, success_test,
};
use crate::dice::Roller;

// Defined in `terms` so `error` can name a band without importing this module; re-exported to
// keep the old paths `rigging::RangeBand` and `rigging::WeaponRange`.
pub use super::terms::{RangeBand, WeaponRange};

/// Seed 7.5: the crash test's threshold.
pub const CRASH_THRESHOLD: u32 = 3;

/// Seed 7.3: Sensor + Perception (autonomous: Sensor + Clearsight); against a hidden target,
/// opposed by Infiltration + Agility (a vehicle: Infiltration + Reaction ± Handling).
pub fn sensor_test(req: &SearchRequest, roller: &mut impl Roller) -> Result<SearchOutcome, RuleError> {
    search_test(req, roller)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrashRequest {
    /// Damage from one attack.
    pub damage: u32,
    pub vehicle_body: u32,
    /// Vehicle skill + Reaction.
    pub test: RollSpec,
    /// Seed 7.1: a rigger in VR has −1 to every vehicle test's threshold.
    #[serde(default)]
    pub vr: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrashOutcome {
    /// Whether the damage called for a crash test at all.
    pub test_needed: bool,
    pub test: Option<SuccessOutcome>,
    pub crashed: bool,
}

/// Seed 7.5: damage ≥ the vehicle's Body forces a vehicle test (3); failing it crashes.
pub fn crash_test(req: &CrashRequest, roller: &mut impl Roller) -> Result<CrashOutcome, RuleError> {
    check_range(Quantity::Damage, i64::from(req.damage), 0, 200)?;
    check_range(Quantity::Attribute, i64::from(req.vehicle_body), 0, 50)?;
    if req.damage < req.vehicle_body {
        return Ok(CrashOutcome {
            test_needed: false,
            test: None,
            crashed: false,
        });
    }
    let threshold = if req.vr {
        CRASH_THRESHOLD - 1
    } else {
        CRASH_THRESHOLD
    };
    let test = success_test(
        &SuccessRequest {
            roll: req.test.clone(),
            threshold: Some(threshold),
            hit_cap: None,
            buy_hits: false,
        },
        roller,
    )?;
    let crashed = test.success != Some(true);
    Ok(CrashOutcome {
        test_needed: true,
        test: Some(test),
        crashed,
    })
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChaseRequest {
    /// Reaction + vehicle skill ± Handling, for each driver.
    pub first: RollSpec,
    pub second: RollSpec,
    pub current: RangeBand,
    pub first_wants: RangeBand,
    pub second_wants: RangeBand,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChaseWinner {
    First,
    Second,
    /// Equal hits: the band stays where it was.
    Neither,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChaseOutcome {
    pub test: OpposedOutcome,
    pub winner: ChaseWinner,
    pub band: RangeBand,
    pub weapon_range: WeaponRange,
}

/// Seed 7.6 step 1: opposed vehicle tests; whoever has more hits sets the range band.
pub fn chase_range(req: &ChaseRequest, roller: &mut impl Roller) -> Result<ChaseOutcome, RuleError> {
    let test = opposed_test(
        &OpposedRequest {
            actor: req.first.clone(),
            opponent: req.second.clone(),
            actor_hit_cap: None,
        },
        roller,
    )?;
    let (winner, band) = match test.net_hits {
        n if n > 0 => (ChaseWinner::First, req.first_wants),
        n if n < 0 => (ChaseWinner::Second, req.second_wants),
        _ => (ChaseWinner::Neither, req.current),
    };
    Ok(ChaseOutcome {
        test,
        winner,
        band,
        weapon_range: band.weapon_range(),
    })
}

/// Seed 7.7 離脱: successful break-away tests in a row that end the chase.
pub const BREAK_AWAY_SUCCESSES: u32 = 3;
/// Most pursuing vehicles one break-away test counts.
pub const MAX_PURSUERS: u32 = 20;

/// Seed 7.7 離脱 (long range): one vehicle test per combat turn, +1 threshold per pursuing
/// vehicle over `base_threshold`; three successes in a row and the vehicle escapes. The
/// successes so far are the caller's to keep (the session's state) and pass back in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakAwayRequest {
    pub test: RollSpec,
    /// The chase's range band: breaking away is a long-range manoeuvre.
    pub band: RangeBand,
    pub pursuers: u32,
    #[serde(default)]
    pub base_threshold: u32,
    /// Successful break-away tests in a row before this one.
    #[serde(default)]
    pub successes: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BreakAwayOutcome {
    pub test: SuccessOutcome,
    pub threshold: u32,
    /// Successes in a row after this test (0 after a failure).
    pub successes: u32,
    pub escaped: bool,
}

pub fn break_away(req: &BreakAwayRequest, roller: &mut impl Roller) -> Result<BreakAwayOutcome, RuleError> {
    if req.band != RangeBand::Far {
        return Err(RuleError::WrongChaseRange {
            needed: RangeBand::Far,
        });
    }
    check_range(
        Quantity::Count,
        i64::from(req.pursuers),
        1,
        i64::from(MAX_PURSUERS),
    )?;
    check_range(Quantity::Threshold, i64::from(req.base_threshold), 0, 20)?;
    check_range(
        Quantity::Count,
        i64::from(req.successes),
        0,
        i64::from(BREAK_AWAY_SUCCESSES - 1),
    )?;
    let threshold = req.base_threshold + req.pursuers;
    let test = success_test(
        &SuccessRequest {
            roll: req.test.clone(),
            threshold: Some(threshold),
            hit_cap: None,
            buy_hits: false,
        },
        roller,
    )?;
    let successes = if test.success == Some(true) {
        req.successes + 1
    } else {
        0
    };
    Ok(BreakAwayOutcome {
        test,
        threshold,
        successes,
        escaped: successes >= BREAK_AWAY_SUCCESSES,
    })
}

/// Seed 7.7 位置取り (any range): a vehicle test whose hits (net hits, no threshold) each add a
/// die to the driver's next opposed chase test, at the start of the next combat turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PositioningOutcome {
    pub test: SuccessOutcome,
    /// Dice for the next chase test.
    pub bonus: u32,
}

pub fn positioning(test: &RollSpec, roller: &mut impl Roller) -> Result<PositioningOutcome, RuleError> {
    let test = success_test(
        &SuccessRequest {
            roll: test.clone(),
            threshold: None,
            hit_cap: None,
            buy_hits: false,
        },
        roller,
    )?;
    let bonus = test.hits;
    Ok(PositioningOutcome { test, bonus })
}

/// A positioning bonus on a chase test's pool (nothing for 0).
pub fn with_positioning(spec: &RollSpec, bonus: u32) -> RollSpec {
    let mut spec = spec.clone();
    if bonus > 0 {
        spec.pool = spec
            .pool
            .with(PartSource::Positioning, i32::try_from(bonus).unwrap_or(i32::MAX));
    }
    spec
}

/// Seed 7.7 進路妨害 (close range): an opposed vehicle test; the loser makes a vehicle test
/// (threshold 3, seed 7.5) with the net hits as a dice penalty, and crashes on a failure.
/// A tie cuts nobody off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CutOffRequest {
    pub band: RangeBand,
    /// The driver cutting off.
    pub actor: RollSpec,
    /// The driver being cut off.
    pub target: RollSpec,
    /// The vehicle tests each would make to avoid the crash (usually the same pools).
    pub actor_crash: RollSpec,
    pub target_crash: RollSpec,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CutOffOutcome {
    pub test: OpposedOutcome,
    /// Which driver lost and tested against the crash (`None` on a tie).
    pub loser: Option<ChaseWinner>,
    pub crash_test: Option<SuccessOutcome>,
    pub crashed: bool,
}

pub fn cut_off(req: &CutOffRequest, roller: &mut impl Roller) -> Result<CutOffOutcome, RuleError> {
    if req.band != RangeBand::Close {
        return Err(RuleError::WrongChaseRange {
            needed: RangeBand::Close,
        });
    }
    let test = opposed_test(
        &OpposedRequest {
            actor: req.actor.clone(),
            opponent: req.target.clone(),
            actor_hit_cap: None,
        },
        roller,
    )?;
    let (loser, spec) = match test.net_hits {
        0 => {
            return Ok(CutOffOutcome {
                test,
                loser: None,
                crash_test: None,
                crashed: false,
            });
        }
        n if n > 0 => (ChaseWinner::Second, &req.target_crash),
        _ => (ChaseWinner::First, &req.actor_crash),
    };
    let penalty = i32::try_from(test.net_hits.unsigned_abs()).unwrap_or(i32::MAX);
    let mut spec = spec.clone();
    spec.pool = spec.pool.with(PartSource::CutOff, -penalty);
    // A penalty that leaves no dice is a failed test, not an error (nothing to roll).
    let crash_test = if spec.pool.total()? <= 0 && spec.edge.is_none() {
        None
    } else {
        Some(success_test(
            &SuccessRequest {
                roll: spec,
                threshold: Some(CRASH_THRESHOLD),
                hit_cap: None,
                buy_hits: false,
            },
            roller,
        )?)
    };
    let crashed = crash_test.as_ref().is_none_or(|t| t.success != Some(true));
    Ok(CutOffOutcome {
        test,
        loser: Some(loser),
        crash_test,
        crashed,
    })
}

/// What a chase remembers between turns, per vehicle (or driver) by name: the break-away
/// successes in a row and the positioning dice waiting for the next chase test. Plain serde
/// data for the session's state.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChaseState {
    #[serde(default)]
    pub vehicles: std::collections::BTreeMap<String, ChaseEntry>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChaseEntry {
    #[serde(default)]
    pub break_away: u32,
    #[serde(default)]
    pub positioning: u32,
}

/// Most vehicles a chase state keeps (the oldest names are not dropped: a new one is refused).
pub const MAX_CHASE_VEHICLES: usize = 50;

impl ChaseState {
    /// No vehicle has progress to keep.
    pub fn is_empty(&self) -> bool {
        self.vehicles.is_empty()
    }

    fn key(name: &str) -> String {
        name.trim().to_lowercase()
    }

    pub fn entry(&self, name: &str) -> ChaseEntry {
        self.vehicles.get(&Self::key(name)).copied().unwrap_or_default()
    }

    fn set(&mut self, name: &str, e: ChaseEntry) -> Result<(), RuleError> {
        let key = Self::key(name);
        if e == ChaseEntry::default() {
            self.vehicles.remove(&key);
            return Ok(());
        }
        if !self.vehicles.contains_key(&key) && self.vehicles.len() >= MAX_CHASE_VEHICLES {
            return Err(RuleError::OutOfRange {
                what: Quantity::Count,
                value: i64::try_from(self.vehicles.len() + 1).unwrap_or(i64::MAX),
                min: 0,
                max: i64::try_from(MAX_CHASE_VEHICLES).unwrap_or(i64::MAX),
            });
        }
        self.vehicles.insert(key, e);
        Ok(())
    }

    /// Record a break-away test: the count in a row, cleared once the vehicle escaped.
    pub fn record_break_away(&mut self, name: &str, o: &BreakAwayOutcome) -> Result<(), RuleError> {
        let mut e = self.entry(name);
        e.break_away = if o.escaped { 0 } else { o.successes };
        self.set(name, e)
    }

    /// Record a positioning test: its dice wait for the next chase test (a new test replaces
    /// an unused bonus).
    pub fn record_positioning(&mut self, name: &str, o: &PositioningOutcome) -> Result<(), RuleError> {
        let mut e = self.entry(name);
        e.positioning = o.bonus;
        self.set(name, e)
    }

    /// The positioning dice for this chase test, used up by it.
    pub fn take_positioning(&mut self, name: &str) -> u32 {
        let mut e = self.entry(name);
        let bonus = std::mem::take(&mut e.positioning);
        // Removing or shrinking an entry never hits the cap.
        let _ = self.set(name, e);
        bonus
    }
}

/// Seed 7.2: a jumped-in rigger resists ⌈drone damage ÷ 2⌉ Stun with Willpower + Biofeedback Filter.
pub fn rigger_feedback(
    drone_damage: u32,
    resist: &RollSpec,
    roller: &mut impl Roller,
) -> Result<DrainOutcome, RuleError> {
    check_range(Quantity::Damage, i64::from(drone_damage), 0, 100)?;
    resist_drain(drone_damage.div_ceil(2), DamageType::Stun, resist, roller)
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::dice::FixedRoller;

    fn fixed(f: &[u32]) -> FixedRoller {
        FixedRoller::new(f.iter().copied())
    }

    #[test]
    fn crash_only_when_damage_reaches_body() {
        let req = CrashRequest {
            damage: 5,
            vehicle_body: 6,
            test: RollSpec::dice(3),
            vr: false,
        };
        let o = crash_test(&req, &mut fixed(&[])).unwrap();
        assert!(!o.test_needed && !o.crashed);
        let hit = CrashRequest { damage: 6, ..req };
        let o = crash_test(&hit, &mut fixed(&[5, 5, 2])).unwrap();
        assert!(o.test_needed && o.crashed, "2 hits miss threshold 3");
        let o = crash_test(&hit, &mut fixed(&[5, 5, 6])).unwrap();
        assert!(!o.crashed);
        let vr = CrashRequest { vr: true, ..hit };
        let o = crash_test(&vr, &mut fixed(&[5, 5, 2])).unwrap();
        assert!(!o.crashed, "VR lowers the threshold to 2");
    }

    #[test]
    fn chase_winner_sets_the_band() {
        let req = ChaseRequest {
            first: RollSpec::dice(2),
            second: RollSpec::dice(2),
            current: RangeBand::Near,
            first_wants: RangeBand::Close,
            second_wants: RangeBand::Far,
        };
        let o = chase_range(&req, &mut fixed(&[5, 2, 5, 5])).unwrap();
        assert_eq!(
            (o.winner, o.band, o.weapon_range),
            (ChaseWinner::Second, RangeBand::Far, WeaponRange::Long)
        );
        let o = chase_range(&req, &mut fixed(&[5, 2, 5, 2])).unwrap();
        assert_eq!((o.winner, o.band), (ChaseWinner::Neither, RangeBand::Near));
        assert_eq!(RangeBand::Near.range_preset(), Some("ranged.range_medium"));
    }

    fn break_req(successes: u32, pursuers: u32) -> BreakAwayRequest {
        BreakAwayRequest {
            test: RollSpec::dice(4),
            band: RangeBand::Far,
            pursuers,
            base_threshold: 0,
            successes,
        }
    }

    #[test]
    fn breaking_away_takes_three_successes_in_a_row_and_one_more_hit_per_pursuer() {
        // Two pursuers: threshold 2. Two hits succeed: the first of three.
        let o = break_away(&break_req(0, 2), &mut fixed(&[5, 6, 2, 1])).unwrap();
        assert_eq!((o.threshold, o.successes, o.escaped), (2, 1, false));
        // Three pursuers: the same two hits fail and the count starts again.
        let o = break_away(&break_req(1, 3), &mut fixed(&[5, 6, 2, 1])).unwrap();
        assert_eq!((o.threshold, o.successes, o.escaped), (3, 0, false));
        // The third success in a row escapes.
        let o = break_away(&break_req(2, 1), &mut fixed(&[5, 2, 2, 2])).unwrap();
        assert_eq!((o.successes, o.escaped), (3, true));
        // A base threshold adds to the pursuers.
        let mut r = break_req(0, 1);
        r.base_threshold = 2;
        let o = break_away(&r, &mut fixed(&[5, 6, 2, 2])).unwrap();
        assert_eq!((o.threshold, o.successes), (3, 0));
    }

    #[test]
    fn breaking_away_is_refused_off_long_range_or_without_pursuers() {
        let mut r = break_req(0, 1);
        r.band = RangeBand::Near;
        assert_eq!(
            break_away(&r, &mut fixed(&[])),
            Err(RuleError::WrongChaseRange {
                needed: RangeBand::Far
            })
        );
        assert!(break_away(&break_req(0, 0), &mut fixed(&[])).is_err());
        assert!(break_away(&break_req(3, 1), &mut fixed(&[])).is_err());
    }

    #[test]
    fn positioning_hits_become_dice_on_the_next_chase_test() {
        let o = positioning(&RollSpec::dice(4), &mut fixed(&[5, 6, 5, 1])).unwrap();
        assert_eq!(o.bonus, 3);
        let req = ChaseRequest {
            first: with_positioning(&RollSpec::dice(2), o.bonus),
            second: RollSpec::dice(3),
            current: RangeBand::Near,
            first_wants: RangeBand::Close,
            second_wants: RangeBand::Far,
        };
        // Five dice for the first driver now: 2 hits against 1.
        let mut dice = fixed(&[5, 2, 2, 6, 2, 5, 2, 2]);
        let o = chase_range(&req, &mut dice).unwrap();
        assert_eq!(dice.remaining(), 0, "2 + 3 positioning dice, then 3");
        assert_eq!((o.winner, o.band), (ChaseWinner::First, RangeBand::Close));
        assert!(
            o.test
                .actor
                .parts
                .iter()
                .any(|p| p.source == PartSource::Positioning && p.value == 3)
        );
        assert_eq!(with_positioning(&RollSpec::dice(2), 0), RollSpec::dice(2));
    }

    fn cut(actor: i32, target: i32) -> CutOffRequest {
        CutOffRequest {
            band: RangeBand::Close,
            actor: RollSpec::dice(actor),
            target: RollSpec::dice(target),
            actor_crash: RollSpec::dice(actor),
            target_crash: RollSpec::dice(target),
        }
    }

    #[test]
    fn cut_off_loser_tests_against_the_crash_with_the_net_hits_as_a_penalty() {
        // 3 hits against 1: net 2. The target's crash test: 6 − 2 = 4 dice, 3 hits: safe.
        let mut dice = fixed(&[5, 5, 6, 5, 2, 2, 2, 2, 2, 5, 5, 6, 1]);
        let o = cut_off(&cut(3, 6), &mut dice).unwrap();
        assert_eq!(dice.remaining(), 0);
        assert_eq!(o.loser, Some(ChaseWinner::Second));
        let t = o.crash_test.as_ref().unwrap();
        assert_eq!((t.threshold, t.hits, o.crashed), (Some(3), 3, false));
        assert!(
            t.rolled
                .as_ref()
                .unwrap()
                .parts
                .iter()
                .any(|p| p.source == PartSource::CutOff && p.value == -2)
        );
        // The same dice but 2 hits on the crash test: crashed.
        let o = cut_off(&cut(3, 6), &mut fixed(&[5, 5, 6, 5, 2, 2, 2, 2, 2, 5, 5, 2, 1])).unwrap();
        assert!(o.crashed);
        // The driver cutting off can lose too: 1 hit against 2, net 1 off their 3 dice.
        let o = cut_off(&cut(3, 2), &mut fixed(&[5, 2, 2, 5, 5, 5, 5])).unwrap();
        assert_eq!((o.loser, o.crashed), (Some(ChaseWinner::First), true));
        assert_eq!(o.crash_test.unwrap().hits, 2);
        // A tie: nobody tests.
        let o = cut_off(&cut(2, 2), &mut fixed(&[5, 2, 5, 2])).unwrap();
        assert_eq!((o.loser, o.crashed), (None, false));
        assert!(o.crash_test.is_none());
    }

    #[test]
    fn cut_off_penalty_that_leaves_no_dice_crashes_and_only_at_close_range() {
        // 4 hits against 0: the target's 2 dice − 4 leave none: no roll, a crash.
        let mut dice = fixed(&[5, 5, 5, 5, 2, 2]);
        let o = cut_off(&cut(4, 2), &mut dice).unwrap();
        assert_eq!(dice.remaining(), 0);
        assert!(o.crash_test.is_none() && o.crashed);
        let mut r = cut(2, 2);
        r.band = RangeBand::Far;
        assert_eq!(
            cut_off(&r, &mut fixed(&[])),
            Err(RuleError::WrongChaseRange {
                needed: RangeBand::Close
            })
        );
    }

    #[test]
    fn chase_state_keeps_break_away_counts_and_positioning_dice_per_vehicle() {
        let mut st = ChaseState::default();
        let o = break_away(&break_req(0, 1), &mut fixed(&[5, 2, 2, 2])).unwrap();
        st.record_break_away("Bike", &o).unwrap();
        assert_eq!(st.entry("bike").break_away, 1, "names match case-insensitively");
        let p = positioning(&RollSpec::dice(2), &mut fixed(&[5, 6])).unwrap();
        st.record_positioning("Van", &p).unwrap();
        assert_eq!(st.take_positioning("Van"), 2);
        assert_eq!(st.take_positioning("Van"), 0, "used once");
        assert!(!st.vehicles.contains_key("van"), "empty entries go");
        // An escape clears the count.
        let o = break_away(&break_req(2, 1), &mut fixed(&[5, 2, 2, 2])).unwrap();
        assert!(o.escaped);
        st.record_break_away("Bike", &o).unwrap();
        assert_eq!(st.entry("Bike"), ChaseEntry::default());
        // Serde round trip (the session's state).
        st.record_positioning("Van", &p).unwrap();
        let back: ChaseState = serde_json::from_value(serde_json::to_value(&st).unwrap()).unwrap();
        assert_eq!(back, st);
        let empty: ChaseState = serde_json::from_value(serde_json::json!({})).unwrap();
        assert_eq!(empty, ChaseState::default());
    }

    #[test]
    fn rigger_takes_half_the_drone_damage_rounded_up() {
        let o = rigger_feedback(5, &RollSpec::dice(2), &mut fixed(&[5, 2])).unwrap();
        assert_eq!((o.value, o.boxes, o.damage_type), (3, 2, DamageType::Stun));
    }
}
