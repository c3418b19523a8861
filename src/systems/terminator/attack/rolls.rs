//! The attack's single rolls, each a plain function of dice and numbers for raw rolls and for
//! the [`AttackRun`](super::AttackRun): the attack roll, cover saves, the damage roll, the
//! resolution tests and I'll Be Back (L31–38, items 16, 21, 31, TG-9).

use super::*;

/// Whether the target may save, and why not (item 16, TG-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SaveRule {
    Allowed,
    /// Within short range with no cover on the line of fire.
    NoCover,
    /// Machines cannot save (item 30).
    Mindless,
    /// See you in hell, baby!: no cover save (item 21).
    Hell,
}

impl SaveRule {
    pub fn of(band: Band, cover: bool, mindless: bool, hell: bool) -> SaveRule {
        if hell {
            SaveRule::Hell
        } else if mindless {
            SaveRule::Mindless
        } else if band.within_short() && !cover {
            SaveRule::NoCover
        } else {
            SaveRule::Allowed
        }
    }

    pub fn allowed(self) -> bool {
        self == SaveRule::Allowed
    }
}

/// Item 13: ROF dice of the skill die, each at or over the number a hit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackRoll {
    pub die: Die,
    pub threshold: u32,
    pub faces: Vec<u32>,
    pub hits: u32,
}

pub fn attack_roll(
    skill: Die,
    rof: u32,
    threshold: u32,
    roller: &mut impl Roller,
) -> Result<AttackRoll, RuleError> {
    bounded(Quantity::Rof, i64::from(rof), 1, MAX_DICE as i64)?;
    let faces = roller.roll_many(rof as usize, skill.sides())?;
    let hits = faces.iter().filter(|&&f| f >= threshold).count() as u32;
    Ok(AttackRoll {
        die: skill,
        threshold,
        faces,
        hits,
    })
}

/// Item 15: one D6 per hit, 4+ cancels it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaveRoll {
    pub faces: Vec<u32>,
    pub saved: u32,
    pub unsaved: u32,
}

pub fn cover_saves(hits: u32, roller: &mut impl Roller) -> Result<SaveRoll, RuleError> {
    bounded(Quantity::DiceCount, i64::from(hits), 0, MAX_DICE as i64)?;
    let faces = roller.roll_many(hits as usize, 6)?;
    let saved = faces.iter().filter(|&&f| f >= 4).count() as u32;
    Ok(SaveRoll {
        faces,
        saved,
        unsaved: hits - saved,
    })
}

/// Item 17: one power die per unsaved hit, all together; each at or over the armour damages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageRoll {
    pub die: Die,
    pub armour: u32,
    pub faces: Vec<u32>,
    pub damaging: u32,
    /// TG-1: the resolution die degrades after this roll (D10 or larger, or the player's say).
    pub heavy: bool,
}

pub fn damage_roll(
    die: Die,
    count: u32,
    armour: u32,
    heavy: Option<bool>,
    roller: &mut impl Roller,
) -> Result<DamageRoll, RuleError> {
    bounded(Quantity::DiceCount, i64::from(count), 0, MAX_DICE as i64)?;
    bounded(Quantity::Armour, i64::from(armour), 2, 20)?;
    let faces = roller.roll_many(count as usize, die.sides())?;
    let damaging = faces.iter().filter(|&&f| f >= armour).count() as u32;
    Ok(DamageRoll {
        die,
        armour,
        faces,
        damaging,
        heavy: self::heavy(die, heavy),
    })
}

/// A resolution test's result (L78–83).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestResult {
    NoEffect,
    Reeling,
    Retreat,
}

impl TestResult {
    /// 6+ no effect (a D4 never, a D6 only on 6: TG-18), 2–5 Reeling, 1 Retreat!
    pub fn of(face: u32) -> TestResult {
        match face {
            1 => TestResult::Retreat,
            2..=5 => TestResult::Reeling,
            _ => TestResult::NoEffect,
        }
    }
}

/// Item 18–19: tests in order on the resolution die (one step down after a heavy hit), stopping
/// at the one that removes the character (TG-6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolutionRoll {
    /// The character's die before degrading.
    pub base: Die,
    pub die: Die,
    pub faces: Vec<u32>,
    pub results: Vec<TestResult>,
    /// Tests due but not taken because an earlier one was a Retreat.
    pub skipped: u32,
}

impl ResolutionRoll {
    pub fn reeling(&self) -> u32 {
        self.results.iter().filter(|r| **r == TestResult::Reeling).count() as u32
    }

    pub fn retreat(&self) -> bool {
        self.results.contains(&TestResult::Retreat)
    }
}

pub fn resolution_tests(
    base: Die,
    count: u32,
    heavy: bool,
    roller: &mut impl Roller,
) -> Result<ResolutionRoll, RuleError> {
    bounded(Quantity::DiceCount, i64::from(count), 0, MAX_DICE as i64)?;
    let die = if heavy { base.degrade() } else { base };
    let mut out = ResolutionRoll {
        base,
        die,
        faces: Vec::new(),
        results: Vec::new(),
        skipped: 0,
    };
    for i in 0..count {
        let face = roller.roll(die.sides())?;
        let r = TestResult::of(face);
        out.faces.push(face);
        out.results.push(r);
        if r == TestResult::Retreat {
            out.skipped = count - i - 1;
            break;
        }
    }
    Ok(out)
}

/// Item 31: a D6 when an I'll Be Back character is killed; 5–6 it fights on as a Crawler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IllBeBackRoll {
    pub face: u32,
    pub crawls: bool,
}

pub fn ill_be_back(roller: &mut impl Roller) -> Result<IllBeBackRoll, RuleError> {
    let face = roller.roll(6)?;
    Ok(IllBeBackRoll {
        face,
        crawls: face >= 5,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;

    #[test]
    fn the_attack_roll_hits_on_the_band_number_exactly() {
        for (band, t) in [(Band::Cc, 3), (Band::Close, 4), (Band::Short, 5), (Band::Long, 6)] {
            let r = attack_roll(Die::D8, 2, band.threshold(), &mut FixedRoller::new([t - 1, t])).unwrap();
            assert_eq!(
                (r.hits, r.threshold),
                (1, t),
                "{band:?}: the edge face hits, one under misses"
            );
        }
        let r = attack_roll(Die::D4, 3, 6, &mut FixedRoller::new([4, 4, 4])).unwrap();
        assert_eq!(r.hits, 0, "a D4 never hits at long range");
        assert!(attack_roll(Die::D8, 0, 3, &mut FixedRoller::new([])).is_err());
    }

    #[test]
    fn cover_saves_cancel_on_four_or_more() {
        let s = cover_saves(3, &mut FixedRoller::new([3, 4, 6])).unwrap();
        assert_eq!((s.saved, s.unsaved), (2, 1));
        assert_eq!(
            cover_saves(0, &mut FixedRoller::new([])).unwrap().faces,
            Vec::<u32>::new()
        );
    }

    #[test]
    fn when_a_save_is_allowed() {
        use SaveRule::*;
        assert_eq!(
            SaveRule::of(Band::Long, false, false, false),
            Allowed,
            "long range"
        );
        assert_eq!(SaveRule::of(Band::Short, true, false, false), Allowed, "in cover");
        assert_eq!(SaveRule::of(Band::Short, false, false, false), NoCover);
        assert_eq!(SaveRule::of(Band::Close, false, false, false), NoCover);
        assert_eq!(SaveRule::of(Band::Cc, false, false, false), NoCover, "TG-9");
        assert_eq!(
            SaveRule::of(Band::Cc, true, false, false),
            Allowed,
            "TG-9 in cover"
        );
        assert_eq!(SaveRule::of(Band::Long, true, true, false), Mindless);
        assert_eq!(SaveRule::of(Band::Long, true, false, true), Hell);
    }

    #[test]
    fn damage_needs_the_armour_and_big_dice_are_heavy() {
        let d = damage_roll(Die::D8, 2, 4, None, &mut FixedRoller::new([3, 4])).unwrap();
        assert_eq!((d.damaging, d.heavy), (1, false));
        assert!(
            damage_roll(Die::D10, 1, 8, None, &mut FixedRoller::new([1]))
                .unwrap()
                .heavy,
            "TG-1: D10"
        );
        assert!(
            !damage_roll(Die::D20, 1, 8, Some(false), &mut FixedRoller::new([1]))
                .unwrap()
                .heavy
        );
        assert!(
            damage_roll(Die::D6, 1, 8, Some(true), &mut FixedRoller::new([1]))
                .unwrap()
                .heavy
        );
    }

    #[test]
    fn resolution_tests_read_the_table_and_stop_at_retreat() {
        let r = resolution_tests(Die::D8, 3, false, &mut FixedRoller::new([6, 5, 2])).unwrap();
        assert_eq!(
            r.results,
            [TestResult::NoEffect, TestResult::Reeling, TestResult::Reeling]
        );
        let r = resolution_tests(Die::D8, 3, false, &mut FixedRoller::new([1])).unwrap();
        assert_eq!((r.retreat(), r.skipped, r.faces.len()), (true, 2, 1));
        let r = resolution_tests(Die::D20, 1, true, &mut FixedRoller::new([12])).unwrap();
        assert_eq!((r.base, r.die), (Die::D20, Die::D12), "heavy degrades");
        assert!(
            resolution_tests(Die::D20, 1, true, &mut FixedRoller::new([13])).is_err(),
            "a D12 has no 13"
        );
        // TG-18: a D4 can never give no effect; a D6 only on its 6.
        for f in 1..=4 {
            let r = resolution_tests(Die::D4, 1, false, &mut FixedRoller::new([f])).unwrap();
            assert_ne!(r.results[0], TestResult::NoEffect);
        }
        assert_eq!(TestResult::of(5), TestResult::Reeling);
        assert_eq!(TestResult::of(6), TestResult::NoEffect);
        let r = resolution_tests(Die::D6, 1, true, &mut FixedRoller::new([4])).unwrap();
        assert_eq!(r.die, Die::D4, "a heavy hit on a D6 leaves a D4");
    }

    #[test]
    fn ill_be_back_needs_five_or_six() {
        assert!(!ill_be_back(&mut FixedRoller::new([4])).unwrap().crawls);
        assert!(ill_be_back(&mut FixedRoller::new([5])).unwrap().crawls);
        assert!(ill_be_back(&mut FixedRoller::new([6])).unwrap().crawls);
    }
}
