//! The one kind of check (行為判定, checklist 1): ability + skill + d20 + modifiers = the total
//! (達成値). Every part is kept by name so an embed can show where the total came from, and the
//! natural 20 is kept because attack and evasion read it (checklist 5; MG-10: nothing else does).

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, bounded};
use crate::dice::Roller;
use crate::i18n::Lang;

/// Largest modifier a user may type into any check.
pub const MAX_MODIFIER: i64 = 99;

/// Where a number in a check comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Judgement,
    Concentration,
    Reaction,
    Tactics,
    Shooting,
    Melee,
    Charge,
    Evade,
    Parry,
    Intercept,
    /// The weapon's modifier (兵器の修正値).
    Weapon,
    /// The suit's accuracy (命中), MG-8 g.
    Accuracy,
    /// The suit's fire control (火器管制力), MG-8 g.
    FireControl,
    /// The suit's evasion (回避力): the suit's modifier to evasion.
    SuitEvasion,
    /// Side or rear attack (checklist 6).
    Facing,
    /// Maximum AP (fatigue).
    MaxAp,
    /// Handling-difficulty modifier (fatigue).
    Handling,
    /// Current spirit points (faint).
    Spirit,
    /// The escape device (MG-2).
    EscapeDevice,
    /// Anything else the player or GM adds.
    Situational,
    /// `/mecha check`'s ability, as typed (the seed's 能力値と技能による修正, named apart).
    Ability,
    /// `/mecha check`'s skill, as typed.
    Skill,
}

impl Source {
    pub fn name(self, lang: Lang) -> &'static str {
        use Source::*;
        match self {
            Judgement => lang.pick("Judgement", "判断力"),
            Concentration => lang.pick("Concentration", "集中力"),
            Reaction => lang.pick("Reaction", "反応力"),
            Tactics => lang.pick("Tactics", "戦術"),
            Shooting => lang.pick("Shooting", "射撃"),
            Melee => lang.pick("Melee", "格闘"),
            Charge => lang.pick("Charge", "突撃"),
            Evade => lang.pick("Evade", "回避"),
            Parry => lang.pick("Parry", "武器受け"),
            Intercept => lang.pick("Intercept", "迎撃"),
            Weapon => lang.pick("Weapon", "兵器修正"),
            Accuracy => lang.pick("Accuracy", "命中"),
            FireControl => lang.pick("Fire control", "火器管制力"),
            SuitEvasion => lang.pick("Suit evasion", "回避力"),
            Facing => lang.pick("Facing", "向き"),
            MaxAp => lang.pick("Max AP", "最大行動ポイント"),
            Handling => lang.pick("Handling", "操縦難易度修正"),
            Spirit => lang.pick("Spirit points", "精神ポイント"),
            EscapeDevice => lang.pick("Escape device", "脱出装置"),
            Situational => lang.pick("Modifier", "修正"),
            Ability => lang.pick("Ability", "能力値"),
            Skill => lang.pick("Skill", "技能"),
        }
    }
}

/// One named number added to the d20.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub source: Source,
    pub value: i64,
}

impl Part {
    pub fn new(source: Source, value: i64) -> Part {
        Part { source, value }
    }
}

/// A rolled check: the parts, the d20 as it fell, and the total.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    pub parts: Vec<Part>,
    pub die: u32,
    /// The d20 showed 20 (純粋な20).
    pub natural_20: bool,
    pub total: i64,
}

impl Check {
    /// The sum of the parts without the die.
    pub fn base(&self) -> i64 {
        self.parts.iter().map(|p| p.value).sum()
    }

    /// `total ≥ target`: the survival checks' (fatigue, faint, escape) success.
    pub fn meets(&self, target: i64) -> bool {
        self.total >= target
    }
}

/// Roll one check. Situational modifiers are bounded (`±MAX_MODIFIER`); parts read from sheets
/// are already bounded by the sheet.
pub fn roll_check(parts: Vec<Part>, roller: &mut dyn Roller) -> Result<Check, RuleError> {
    for p in parts
        .iter()
        .filter(|p| matches!(p.source, Source::Situational | Source::Ability | Source::Skill))
    {
        bounded(Quantity::Modifier, p.value, -MAX_MODIFIER, MAX_MODIFIER)?;
    }
    let die = roller.roll(20)?;
    Ok(from_die(parts, die))
}

/// A check from a die already rolled (tests, replays).
pub fn from_die(parts: Vec<Part>, die: u32) -> Check {
    let total = parts.iter().map(|p| p.value).sum::<i64>() + i64::from(die);
    Check {
        parts,
        die,
        natural_20: die == 20,
        total,
    }
}

/// Parts with zero-valued situational modifiers left out (the embed need not show "+0").
pub(crate) fn with_modifier(mut parts: Vec<Part>, modifier: i64) -> Vec<Part> {
    if modifier != 0 {
        parts.push(Part::new(Source::Situational, modifier));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;

    #[test]
    fn a_check_is_the_parts_plus_the_d20_and_remembers_a_natural_20() {
        let parts = vec![Part::new(Source::Judgement, 3), Part::new(Source::Tactics, 2)];
        let c = roll_check(parts.clone(), &mut FixedRoller::new([7])).unwrap();
        assert_eq!((c.die, c.total, c.natural_20, c.base()), (7, 12, false, 5));
        let c = roll_check(parts.clone(), &mut FixedRoller::new([20])).unwrap();
        assert!(c.natural_20);
        assert_eq!(c.total, 25);
        let c = roll_check(parts, &mut FixedRoller::new([19])).unwrap();
        assert!(!c.natural_20, "19 is not a natural 20");
    }

    #[test]
    fn situational_modifiers_are_bounded_before_any_die() {
        let mut r = FixedRoller::new([10]);
        let e = roll_check(vec![Part::new(Source::Situational, 100)], &mut r).unwrap_err();
        assert!(matches!(e, RuleError::OutOfRange { value: 100, .. }));
        assert_eq!(r.remaining(), 1, "no die was rolled");
        assert!(roll_check(vec![Part::new(Source::Situational, -99)], &mut r).is_ok());
    }
}
