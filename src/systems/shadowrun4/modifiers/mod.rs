//! Modifier presets: every row of the seed's tables (ranged, visibility, melee, defence,
//! perception) plus the fixed modifiers named in the text, each under a stable key for
//! autocomplete, with English and Japanese names.

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, check_range};
use super::terms::{PartSource, PoolPart};
use crate::i18n::Lang;

mod table;

pub use table::PRESETS;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Table {
    Ranged,
    Visibility,
    Melee,
    Defence,
    Perception,
    /// Fixed modifiers from the seed's text (surprise, hot sim, astral perception…).
    Other,
}

/// How a preset turns into dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PresetValue {
    /// A fixed number of dice.
    Fixed { dice: i32 },
    /// `each` dice per count (aiming, friends…), at most `max` in size; `signed` lets the count be negative.
    PerCount {
        each: i32,
        max: Option<i32>,
        signed: bool,
    },
    /// Plus the rating given as the count (enhanced perception).
    Rating,
    /// A row the seed leaves to the situation ("special", pool splitting, recoil
    /// compensation…): the count is the signed number of dice.
    Amount,
    /// The wound modifier: automatic for a sheet, the count otherwise.
    Wounds,
    /// The defender cannot defend at all.
    NoDefence,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Preset {
    pub key: &'static str,
    pub table: Table,
    pub en: &'static str,
    pub ja: &'static str,
    pub value: PresetValue,
}

impl Preset {
    pub fn name(&self, lang: Lang) -> &'static str {
        lang.pick(self.en, self.ja)
    }

    /// Whether the user must give a count for this preset.
    pub fn needs_count(&self) -> bool {
        !matches!(self.value, PresetValue::Fixed { .. } | PresetValue::NoDefence)
    }
}

/// The user's pick: a key and, for presets that need one, a count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresetChoice {
    pub key: String,
    #[serde(default)]
    pub count: Option<i32>,
}

impl PresetChoice {
    pub fn new(key: &str) -> Self {
        PresetChoice {
            key: key.to_string(),
            count: None,
        }
    }

    pub fn counted(key: &str, count: i32) -> Self {
        PresetChoice {
            key: key.to_string(),
            count: Some(count),
        }
    }
}

/// The preset under `key`, or a clear error.
pub fn preset(key: &str) -> Result<&'static Preset, RuleError> {
    PRESETS
        .iter()
        .find(|p| p.key == key)
        .ok_or_else(|| RuleError::UnknownPreset { key: key.to_string() })
}

/// Presets whose key or name (either language) contains `query`, case-insensitive, for
/// autocomplete; an optional table narrows the list. At most `limit` (Discord shows 25).
pub fn search(query: &str, table: Option<Table>, limit: usize) -> Vec<&'static Preset> {
    let q = query.to_lowercase();
    PRESETS
        .iter()
        .filter(|p| table.is_none_or(|t| p.table == t))
        .filter(|p| {
            q.is_empty() || p.key.contains(&q) || p.en.to_lowercase().contains(&q) || p.ja.contains(query)
        })
        .take(limit)
        .collect()
}

pub(crate) fn is_no_defence(key: &str) -> bool {
    preset(key).is_ok_and(|p| p.value == PresetValue::NoDefence)
}

fn count_of(choice: &PresetChoice) -> Result<i32, RuleError> {
    choice.count.ok_or_else(|| RuleError::PresetNeedsCount {
        key: choice.key.clone(),
    })
}

/// The pool part for one choice. `None` for a wounds row on a sheet, which counts wounds itself.
pub fn apply(choice: &PresetChoice, from_sheet: bool) -> Result<Option<PoolPart>, RuleError> {
    let preset = preset(&choice.key)?;
    let value = match preset.value {
        PresetValue::Fixed { dice } => dice,
        PresetValue::NoDefence => 0,
        PresetValue::PerCount { each, max, signed } => {
            let n = count_of(choice)?;
            check_range(Quantity::Count, i64::from(n), if signed { -20 } else { 0 }, 20)?;
            let v = each * n;
            match max {
                Some(m) => v.clamp(-m, m),
                None => v,
            }
        }
        PresetValue::Rating => {
            let n = count_of(choice)?;
            check_range(Quantity::Rating, i64::from(n), 0, 20)?;
            n
        }
        PresetValue::Amount => {
            let n = count_of(choice)?;
            check_range(Quantity::Modifier, i64::from(n), -50, 50)?;
            n
        }
        PresetValue::Wounds => {
            if from_sheet {
                return Ok(None);
            }
            let n = count_of(choice)?;
            check_range(Quantity::Modifier, i64::from(n), -50, 0)?;
            n
        }
    };
    Ok(Some(PoolPart {
        source: PartSource::Preset {
            key: preset.key.to_string(),
            count: choice.count,
        },
        value,
    }))
}

#[cfg(test)]
mod unit {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_unique_and_prefixed_by_their_table() {
        let mut seen = HashSet::new();
        for p in PRESETS {
            assert!(seen.insert(p.key), "duplicate key {}", p.key);
            let prefix = match p.table {
                Table::Ranged => "ranged.",
                Table::Visibility => "visibility.",
                Table::Melee => "melee.",
                Table::Defence => "defence.",
                Table::Perception => "perception.",
                Table::Other => "other.",
            };
            assert!(p.key.starts_with(prefix), "{}", p.key);
            assert!(!p.en.is_empty() && !p.ja.is_empty());
        }
    }

    #[test]
    fn every_seed_row_is_there() {
        let count = |t| PRESETS.iter().filter(|p| p.table == t).count();
        // Ranged: the seed's 28 rows, with range (3) and short/long burst recoil (2 each) split out.
        assert_eq!(count(Table::Ranged), 32);
        assert_eq!(count(Table::Visibility), 24);
        assert_eq!(count(Table::Melee), 12);
        assert_eq!(count(Table::Defence), 13);
        assert_eq!(count(Table::Perception), 8);
    }

    #[test]
    fn values_follow_the_tables() {
        let v = |k: &str, c: Option<i32>| {
            apply(
                &PresetChoice {
                    key: k.into(),
                    count: c,
                },
                false,
            )
            .unwrap()
            .unwrap()
            .value
        };
        assert_eq!(v("ranged.smartlink", None), 2);
        assert_eq!(v("ranged.recoil_long_burst_second", None), -11);
        assert_eq!(v("visibility.thermal_smoke.thermographic", None), -6);
        assert_eq!(v("ranged.aim", Some(3)), 3);
        assert_eq!(v("melee.friends", Some(6)), 4);
        assert_eq!(v("melee.reach", Some(-2)), -2);
        assert_eq!(v("ranged.multiple_targets", Some(2)), -4);
        assert_eq!(v("perception.enhanced", Some(2)), 2);
        assert_eq!(v("defence.unaware", None), 0);
        assert_eq!(v("ranged.wounds", Some(-2)), -2);
    }

    #[test]
    fn bad_choices_are_errors() {
        assert!(matches!(
            apply(&PresetChoice::new("ranged.nope"), false),
            Err(RuleError::UnknownPreset { .. })
        ));
        assert!(matches!(
            apply(&PresetChoice::new("ranged.aim"), false),
            Err(RuleError::PresetNeedsCount { .. })
        ));
        assert!(apply(&PresetChoice::counted("ranged.aim", -1), false).is_err());
        assert!(apply(&PresetChoice::counted("ranged.aim", 1000), false).is_err());
        // On a sheet, wounds are already counted.
        assert_eq!(apply(&PresetChoice::new("defence.wounds"), true), Ok(None));
    }

    #[test]
    fn search_finds_by_key_and_either_name() {
        assert!(
            search("smart", None, 25)
                .iter()
                .any(|p| p.key == "ranged.smartlink")
        );
        assert!(
            search("スマート", None, 25)
                .iter()
                .any(|p| p.key == "ranged.smartlink")
        );
        assert_eq!(search("", Some(Table::Perception), 25).len(), 8);
        assert_eq!(search("", None, 5).len(), 5);
    }
}
