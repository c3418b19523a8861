//! Rigging and vehicles: sensor tests (seed 7.3), crash tests (7.5), chase range bands (7.6),
//! and the damage a jumped-in rigger takes when the drone is hit (7.2).

use serde::{Deserialize, Serialize};

use super::character::DamageType;
use super::error::{Quantity, RuleError, check_range};
use super::magic::{DrainOutcome, resist_drain};
use super::test_kinds::{
    OpposedOutcome, OpposedRequest, RollSpec, SearchOutcome, SearchRequest, SuccessOutcome, SuccessRequest,
    opposed_test, search_test, success_test,
};
use crate::dice::Roller;

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

/// Seed 7.6: the chase range bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RangeBand {
    /// Close enough to ram; weapons at short range.
    Close,
    /// Weapons at medium range.
    Near,
    /// Within sight; weapons at long range.
    Far,
}

/// Weapon range categories a band maps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponRange {
    Short,
    Medium,
    Long,
}

impl RangeBand {
    pub fn weapon_range(self) -> WeaponRange {
        match self {
            RangeBand::Close => WeaponRange::Short,
            RangeBand::Near => WeaponRange::Medium,
            RangeBand::Far => WeaponRange::Long,
        }
    }

    /// The ranged-combat preset for shooting at this band (none at short range).
    pub fn range_preset(self) -> Option<&'static str> {
        match self {
            RangeBand::Close => None,
            RangeBand::Near => Some("ranged.range_medium"),
            RangeBand::Far => Some("ranged.range_long"),
        }
    }
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

    #[test]
    fn rigger_takes_half_the_drone_damage_rounded_up() {
        let o = rigger_feedback(5, &RollSpec::dice(2), &mut fixed(&[5, 2])).unwrap();
        assert_eq!((o.value, o.boxes, o.damage_type), (3, 2, DamageType::Stun));
    }
}
