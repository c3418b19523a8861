//! The checks against 20 (checklist 7–9): fatigue (maximum AP + handling + d20), faint (current
//! spirit points + d20) and the escape check (MG-2, our own rule: d20 + escape device against
//! the `mecha.escape_target` option). Success is total ≥ target; natural 20s mean nothing here
//! (MG-10). Each roll and its effect on the unit are separate, so a replay can re-apply one.

use serde::{Deserialize, Serialize};

use super::check::{Check, Part, Source, roll_check, with_modifier};
use super::error::{Quantity, RuleError, bounded};
use super::unit::Unit;
use crate::dice::Roller;

/// Fatigue and faint succeed at 20 or more (L16–19).
pub const SURVIVAL_TARGET: i64 = 20;
/// The default escape target (MG-2); the option ranges over these.
pub const DEFAULT_ESCAPE_TARGET: i64 = 20;
pub const MIN_ESCAPE_TARGET: i64 = 10;
pub const MAX_ESCAPE_TARGET: i64 = 30;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FatigueOutcome {
    pub check: Check,
    /// Total ≥ 20: no fatigue.
    pub rested: bool,
    pub fatigue: u32,
    /// AP left after the check (never below 0, MG-13).
    pub ap: u32,
}

/// L16–17, MG-4, MG-13: maximum AP + handling + d20 ≥ 20, or 1 fatigue and AP −1 (not below 0).
pub fn fatigue_check(
    name: &str,
    unit: &mut Unit,
    modifier: i64,
    roller: &mut dyn Roller,
) -> Result<FatigueOutcome, RuleError> {
    // Checklist 17: a destroyed suit's pilot takes the escape check instead.
    if unit.suit.destroyed {
        return Err(RuleError::FatigueDestroyed {
            name: name.to_string(),
        });
    }
    let parts = with_modifier(
        vec![
            // The maximum, not what is left: 「疲労判定の基本値はかわりません」.
            Part::new(Source::MaxAp, i64::from(unit.pilot.ap_max)),
            Part::new(Source::Handling, unit.suit.handling),
        ],
        modifier,
    );
    let check = roll_check(parts, roller)?;
    let rested = check.meets(SURVIVAL_TARGET);
    if !rested {
        unit.pilot.fatigue += 1;
        unit.pilot.ap = unit.pilot.ap.saturating_sub(1);
    }
    Ok(FatigueOutcome {
        check,
        rested,
        fatigue: unit.pilot.fatigue,
        ap: unit.pilot.ap,
    })
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaintOutcome {
    pub check: Check,
    /// Total ≥ 20: still conscious.
    pub conscious: bool,
    pub fainted: bool,
}

/// L18–19, MG-3: current spirit points + d20 ≥ 20, or the pilot faints (flagged until the GM
/// clears it; a conscious result does not clear an earlier faint).
pub fn faint_check(
    unit: &mut Unit,
    modifier: i64,
    roller: &mut dyn Roller,
) -> Result<FaintOutcome, RuleError> {
    let parts = with_modifier(
        vec![Part::new(Source::Spirit, i64::from(unit.pilot.spirit))],
        modifier,
    );
    let check = roll_check(parts, roller)?;
    let conscious = check.meets(SURVIVAL_TARGET);
    if !conscious {
        unit.pilot.fainted = true;
    }
    Ok(FaintOutcome {
        check,
        conscious,
        fainted: unit.pilot.fainted,
    })
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EscapeOutcome {
    pub check: Check,
    pub target: i64,
    pub escaped: bool,
}

/// MG-2 (our invention, pending a source): d20 + the escape device now + modifier ≥ `target`.
/// Only a destroyed suit's pilot escapes; failure only reports "did not escape".
pub fn escape_check(
    name: &str,
    unit: &mut Unit,
    modifier: i64,
    target: i64,
    roller: &mut dyn Roller,
) -> Result<EscapeOutcome, RuleError> {
    if !unit.suit.destroyed {
        return Err(RuleError::NotDestroyed {
            name: name.to_string(),
        });
    }
    bounded(Quantity::Target, target, MIN_ESCAPE_TARGET, MAX_ESCAPE_TARGET)?;
    let parts = with_modifier(
        vec![Part::new(Source::EscapeDevice, unit.suit.escape_device_now())],
        modifier,
    );
    let check = roll_check(parts, roller)?;
    let escaped = check.meets(target);
    unit.pilot.escaped = Some(escaped);
    Ok(EscapeOutcome {
        check,
        target,
        escaped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;

    fn pilot(ap_max: u32, handling: i64) -> Unit {
        let mut u = Unit::default();
        u.pilot.ap_max = ap_max;
        u.pilot.ap = ap_max;
        u.suit.handling = handling;
        u
    }

    #[test]
    fn fatigue_at_19_costs_a_point_and_at_20_does_not() {
        // AP 5 + handling −1 + d20 15 = 19: fatigued, AP 4.
        let mut u = pilot(5, -1);
        let o = fatigue_check("Zaku", &mut u, 0, &mut FixedRoller::new([15])).unwrap();
        assert_eq!((o.check.total, o.rested, o.fatigue, o.ap), (19, false, 1, 4));
        // 16 → 20: rested, nothing changes.
        let o = fatigue_check("Zaku", &mut u, 0, &mut FixedRoller::new([16])).unwrap();
        assert_eq!((o.check.total, o.rested, o.fatigue, o.ap), (20, true, 1, 4));
    }

    /// Issue 29, checklist 17: no fatigue check for a destroyed suit's pilot; nothing rolled or
    /// changed.
    #[test]
    fn a_destroyed_suits_pilot_takes_no_fatigue_check() {
        let mut u = pilot(5, 0);
        u.suit.destroyed = true;
        let before = u.clone();
        let e = fatigue_check("Zaku", &mut u, 0, &mut FixedRoller::new([])).unwrap_err();
        assert_eq!(e, RuleError::FatigueDestroyed { name: "Zaku".into() });
        assert_eq!(u, before);
        use crate::i18n::{Lang, Localized};
        assert!(e.localized(Lang::En).contains("escape check"), "{e}");
        assert!(e.localized(Lang::Ja).contains("脱出判定"));
    }

    #[test]
    fn fatigue_keeps_using_maximum_ap_and_stops_at_zero_ap() {
        let mut u = pilot(2, 0);
        u.pilot.ap = 0;
        // The base is max AP 2, not the 0 left: 2 + 18 = 20.
        let o = fatigue_check("Zaku", &mut u, 0, &mut FixedRoller::new([18])).unwrap();
        assert!(o.rested);
        assert_eq!(o.check.base(), 2);
        // MG-13: at 0 AP, fatigue still counts and AP stays 0.
        let o = fatigue_check("Zaku", &mut u, 0, &mut FixedRoller::new([1])).unwrap();
        assert_eq!((o.fatigue, o.ap), (1, 0));
        let o = fatigue_check("Zaku", &mut u, 0, &mut FixedRoller::new([1])).unwrap();
        assert_eq!((o.fatigue, o.ap), (2, 0));
        // MG-4: the next turn starts with max AP − fatigue, floored at 0.
        u.refresh_ap();
        assert_eq!(u.pilot.ap, 0);
        u.pilot.fatigue = 1;
        u.refresh_ap();
        assert_eq!(u.pilot.ap, 1);
        // A natural 20 is just 20 (MG-10): 2 − 3 + 20 = 19 fails.
        let o = fatigue_check("Zaku", &mut u, -3, &mut FixedRoller::new([20])).unwrap();
        assert!(!o.rested && o.check.natural_20);
    }

    #[test]
    fn faint_reads_current_spirit_at_19_and_20() {
        let mut u = Unit::default();
        u.pilot.spirit_max = 10;
        u.pilot.spirit = 4;
        let o = faint_check(&mut u, 0, &mut FixedRoller::new([16])).unwrap();
        assert_eq!((o.check.total, o.conscious, o.fainted), (20, true, false));
        let o = faint_check(&mut u, 0, &mut FixedRoller::new([15])).unwrap();
        assert_eq!((o.check.total, o.conscious, o.fainted), (19, false, true));
        // Conscious later does not clear the flag: the GM does (MG-3).
        let o = faint_check(&mut u, 0, &mut FixedRoller::new([20])).unwrap();
        assert!(o.conscious && o.fainted);
        // Spending spirit makes fainting likelier: the same die now fails.
        let mut v = Unit::default();
        v.pilot.spirit = 4;
        v.spend_spirit("V", 1).unwrap();
        assert!(
            !faint_check(&mut v, 0, &mut FixedRoller::new([16]))
                .unwrap()
                .conscious
        );
    }

    #[test]
    fn escape_needs_a_destroyed_suit_and_meets_the_target() {
        let mut u = Unit::default();
        u.suit.escape_device = 3;
        let mut r = FixedRoller::new([17, 16, 10]);
        assert_eq!(
            escape_check("A", &mut u, 0, 20, &mut r).unwrap_err(),
            RuleError::NotDestroyed { name: "A".into() }
        );
        u.suit.destroyed = true;
        let o = escape_check("A", &mut u, 0, 20, &mut r).unwrap();
        assert_eq!((o.check.total, o.escaped), (20, true));
        let o = escape_check("A", &mut u, 0, 20, &mut r).unwrap();
        assert_eq!(
            (o.check.total, o.escaped, u.pilot.escaped),
            (19, false, Some(false))
        );
        // Row 1 lowers the device; the option changes the target.
        u.suit.wear.escape_device = 1;
        let o = escape_check("A", &mut u, 0, 12, &mut r).unwrap();
        assert_eq!((o.check.total, o.escaped), (12, true));
        assert!(escape_check("A", &mut u, 0, 31, &mut FixedRoller::new([1])).is_err());
    }
}
