//! Damage (checklist 10–12, MG-7, MG-11): the weapon's power − armour, additions first, then ×/÷
//! rounding up, at least 1 on a hit; critical when every d6 shows the same face (never with one
//! die), and then the secondary-damage d20 is rolled at once so players see it (MG-8 a).

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, bounded};
use super::secondary::{self, SecondaryRoll};
use super::unit::Power;
use crate::dice::Roller;

pub const MAX_DICE: u32 = 20;
pub const MAX_SIDES: u32 = 100;
pub const MAX_BONUS: i64 = 999;
pub const MAX_ARMOUR: u32 = 999;
pub const MAX_MULTIPLIER: u32 = 10;

/// Read `2d6+5`, `3D6`, `d6-1`, `２ｄ６＋５` into a [`Power`].
pub fn parse_power(input: &str) -> Result<Power, RuleError> {
    let bad = || RuleError::BadDice {
        input: input.chars().take(40).collect(),
    };
    // Full-width digits and signs as Japanese keyboards type them.
    let s: String = input
        .trim()
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
            'ｄ' | 'Ｄ' | 'D' => 'd',
            '＋' => '+',
            '－' | '−' | 'ー' => '-',
            other => other,
        })
        .collect();
    let (count, rest) = s.split_once('d').ok_or_else(bad)?;
    let count: u32 = if count.is_empty() {
        1
    } else {
        count.parse().map_err(|_| bad())?
    };
    let split = rest.find(['+', '-']).unwrap_or(rest.len());
    let sides: u32 = rest[..split].parse().map_err(|_| bad())?;
    let bonus: i64 = match &rest[split..] {
        "" => 0,
        b => {
            let (sign, digits) = b.split_at(1);
            if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
                return Err(bad());
            }
            let n: i64 = digits.parse().map_err(|_| bad())?;
            if sign == "-" { -n } else { n }
        }
    };
    let power = Power { count, sides, bonus };
    check_power(&power)?;
    Ok(power)
}

pub(crate) fn check_power(p: &Power) -> Result<(), RuleError> {
    bounded(Quantity::DiceCount, i64::from(p.count), 1, i64::from(MAX_DICE))?;
    bounded(Quantity::DiceSides, i64::from(p.sides), 2, i64::from(MAX_SIDES))?;
    bounded(Quantity::DamageConstant, p.bonus, -MAX_BONUS, MAX_BONUS)
}

/// A damage multiplier the player supplies (MG-7: nothing in the seed produces one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "op", content = "n")]
pub enum Multiplier {
    Times(u32),
    DivideBy(u32),
}

impl Multiplier {
    /// `×2`, `x2`, `*2`, `/2`, `÷2`.
    pub fn parse(input: &str) -> Result<Multiplier, RuleError> {
        let t = input.trim();
        let bad = || RuleError::BadDice {
            input: t.chars().take(40).collect(),
        };
        let mut chars = t.chars();
        let op = chars.next().ok_or_else(bad)?;
        let n: u32 = chars.as_str().trim().parse().map_err(|_| bad())?;
        let m = match op {
            '×' | 'x' | 'X' | '*' | '＊' => Multiplier::Times(n),
            '/' | '÷' | '／' => Multiplier::DivideBy(n),
            _ => return Err(bad()),
        };
        m.check()?;
        Ok(m)
    }

    pub(crate) fn check(self) -> Result<(), RuleError> {
        let (Multiplier::Times(n) | Multiplier::DivideBy(n)) = self;
        bounded(Quantity::Multiplier, i64::from(n), 1, i64::from(MAX_MULTIPLIER))
    }

    /// `value` × or ÷ n, fractions rounded up (L8 「端数切り上げ」).
    pub fn apply(self, value: i64) -> i64 {
        match self {
            Multiplier::Times(n) => value * i64::from(n),
            Multiplier::DivideBy(n) => div_ceil(value, i64::from(n)),
        }
    }
}

/// Division rounding towards +∞, for negative numerators too.
fn div_ceil(a: i64, b: i64) -> i64 {
    let q = a / b;
    if a % b != 0 && (a > 0) == (b > 0) {
        q + 1
    } else {
        q
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageRequest {
    pub power: Power,
    /// The target's armour now (MG-8 a: reductions still held do not count).
    pub armour: u32,
    #[serde(default)]
    pub multiplier: Option<Multiplier>,
}

/// A damage roll with every step kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageOutcome {
    pub power: Power,
    /// The dice in the order rolled.
    pub dice: Vec<u32>,
    /// Dice + bonus.
    pub rolled_total: i64,
    pub armour: u32,
    /// Rolled total − armour.
    pub raw: i64,
    pub multiplier: Option<Multiplier>,
    /// After × / ÷, rounded up.
    pub multiplied: i64,
    /// The minimum of 1 lifted it (checklist 11).
    pub minimum_applied: bool,
    pub damage: u32,
    /// Every d6 showed the same face (MG-11).
    pub critical: bool,
    /// The secondary-damage d20, rolled with the damage when critical (MG-8 a).
    pub secondary: Option<SecondaryRoll>,
}

/// MG-11: only the d6s count, and one die is never a set.
pub fn is_critical(power: &Power, dice: &[u32]) -> bool {
    power.sides == 6 && dice.len() >= 2 && dice.iter().all(|&d| d == dice[0])
}

/// Damage from dice already rolled (MG-7 order): raw = dice + K − armour → × / ÷ → round up →
/// at least 1. No secondary roll here: see [`roll_damage`].
pub fn damage_from_dice(req: &DamageRequest, dice: Vec<u32>) -> DamageOutcome {
    let rolled_total = dice.iter().map(|&d| i64::from(d)).sum::<i64>() + req.power.bonus;
    let (raw, multiplied) = raw_and_multiplied(req, rolled_total);
    let damage = multiplied.max(1);
    DamageOutcome {
        power: req.power,
        critical: is_critical(&req.power, &dice),
        dice,
        rolled_total,
        armour: req.armour,
        raw,
        multiplier: req.multiplier,
        multiplied,
        minimum_applied: multiplied < 1,
        damage: u32::try_from(damage).unwrap_or(u32::MAX),
        secondary: None,
    }
}

/// MG-7's first steps for a rolled total (dice + K): raw = total − armour, then × / ÷ rounded
/// up. The damage is the second, at least 1.
pub fn raw_and_multiplied(req: &DamageRequest, rolled_total: i64) -> (i64, i64) {
    let raw = rolled_total - i64::from(req.armour);
    (raw, req.multiplier.map_or(raw, |m| m.apply(raw)))
}

/// The request's power, armour and multiplier within bounds (before any die is rolled).
pub fn check_request(req: &DamageRequest) -> Result<(), RuleError> {
    check_power(&req.power)?;
    bounded(Quantity::Armour, i64::from(req.armour), 0, i64::from(MAX_ARMOUR))?;
    if let Some(m) = req.multiplier {
        m.check()?;
    }
    Ok(())
}

/// Roll a hit's damage, and the secondary d20 when it is critical.
pub fn roll_damage(req: &DamageRequest, roller: &mut dyn Roller) -> Result<DamageOutcome, RuleError> {
    check_request(req)?;
    let dice = roller.roll_many(req.power.count as usize, req.power.sides)?;
    let mut out = damage_from_dice(req, dice);
    if out.critical {
        out.secondary = Some(secondary::roll(roller)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;

    fn p(count: u32, bonus: i64) -> Power {
        Power {
            count,
            sides: 6,
            bonus,
        }
    }

    fn req(power: Power, armour: u32, multiplier: Option<Multiplier>) -> DamageRequest {
        DamageRequest {
            power,
            armour,
            multiplier,
        }
    }

    #[test]
    fn expressions_read_in_both_scripts_and_bad_ones_are_refused() {
        assert_eq!(parse_power("2d6+5").unwrap(), p(2, 5));
        assert_eq!(parse_power(" 3D6 ").unwrap(), p(3, 0));
        assert_eq!(parse_power("d6-1").unwrap(), p(1, -1));
        assert_eq!(parse_power("２ｄ６＋５").unwrap(), p(2, 5));
        for bad in ["", "2x6", "2d", "d", "2d6+", "2d6+5+1", "2d6++5", "abc"] {
            assert!(
                matches!(parse_power(bad), Err(RuleError::BadDice { .. })),
                "{bad}"
            );
        }
        assert!(matches!(
            parse_power("21d6"),
            Err(RuleError::OutOfRange {
                what: Quantity::DiceCount,
                ..
            })
        ));
        assert!(parse_power("0d6").is_err());
        assert!(parse_power("2d1").is_err());
    }

    #[test]
    fn the_seeds_examples_13_minus_8_is_5_and_8_minus_8_is_1() {
        // 2d6+5 rolls 8 (3+5) → 13 − 8 = 5.
        let d = roll_damage(&req(p(2, 5), 8, None), &mut FixedRoller::new([3, 5])).unwrap();
        assert_eq!(
            (d.rolled_total, d.raw, d.damage, d.minimum_applied),
            (13, 5, 5, false)
        );
        // It rolls 3 (1+2) → 8 − 8 = 0 → at least 1 on a hit.
        let d = roll_damage(&req(p(2, 5), 8, None), &mut FixedRoller::new([1, 2])).unwrap();
        assert_eq!((d.raw, d.damage, d.minimum_applied), (0, 1, true));
        // Exactly 1 needs no lift.
        let d = damage_from_dice(&req(p(2, 5), 8, None), vec![2, 2]);
        assert_eq!((d.raw, d.damage, d.minimum_applied), (1, 1, false));
    }

    #[test]
    fn multipliers_come_after_additions_and_round_up() {
        // MG-7: (11 − 4) ÷ 2 = 3.5 → 4.
        let half = Some(Multiplier::DivideBy(2));
        let d = damage_from_dice(&req(p(2, 0), 4, half), vec![5, 6]);
        assert_eq!((d.raw, d.multiplied, d.damage), (7, 4, 4));
        let d = damage_from_dice(&req(p(2, 0), 4, Some(Multiplier::Times(2))), vec![5, 6]);
        assert_eq!(d.damage, 14);
        // Negative raw halves towards +∞ (−3 ÷ 2 = −1.5 → −1), then the minimum.
        let d = damage_from_dice(&req(p(2, 0), 5, half), vec![1, 1]);
        assert_eq!(
            (d.raw, d.multiplied, d.damage, d.minimum_applied),
            (-3, -1, 1, true)
        );
        assert_eq!(Multiplier::parse("÷3").unwrap(), Multiplier::DivideBy(3));
        assert_eq!(Multiplier::parse("x2").unwrap(), Multiplier::Times(2));
        assert!(Multiplier::parse("/0").is_err());
        assert!(Multiplier::parse("+2").is_err());
        assert_eq!(div_ceil(7, 2), 4);
        assert_eq!(div_ceil(6, 2), 3);
        assert_eq!(div_ceil(-7, 2), -3);
    }

    #[test]
    fn critical_needs_every_d6_alike_and_never_one_die() {
        assert!(is_critical(&p(3, 0), &[2, 2, 2]));
        assert!(!is_critical(&p(3, 0), &[2, 2, 3]));
        assert!(is_critical(&p(2, 5), &[6, 6]));
        assert!(!is_critical(&p(1, 5), &[4]), "one die: no pair exists");
        let d10 = Power {
            count: 2,
            sides: 10,
            bonus: 0,
        };
        assert!(!is_critical(&d10, &[4, 4]), "only d6s count (MG-11)");
        // A critical rolls the secondary d20 right after the damage dice.
        let d = roll_damage(&req(p(3, 0), 0, None), &mut FixedRoller::new([2, 2, 2, 18])).unwrap();
        assert!(d.critical);
        assert_eq!(d.secondary.unwrap().row.number(), 18);
        let mut r = FixedRoller::new([2, 2, 3, 18]);
        let d = roll_damage(&req(p(3, 0), 0, None), &mut r).unwrap();
        assert!(!d.critical && d.secondary.is_none());
        assert_eq!(r.remaining(), 1, "no secondary d20 without a critical");
    }

    #[test]
    fn bad_requests_roll_nothing() {
        let mut r = FixedRoller::new([3, 3]);
        assert!(roll_damage(&req(p(2, 0), 1000, None), &mut r).is_err());
        assert!(roll_damage(&req(p(2, 0), 0, Some(Multiplier::Times(11))), &mut r).is_err());
        assert_eq!(r.remaining(), 2);
    }
}
