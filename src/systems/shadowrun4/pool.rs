//! A dice pool as the sum of named parts, so every result can list what made it up.

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, check_range};
use super::modifiers::{self, PresetChoice};
use super::terms::Attribute;

/// Largest size of any one part of a pool (an attribute, a skill, a modifier).
pub const MAX_PART: i32 = 100;

// Defined in `terms` so `modifiers` can build a preset's part without importing this module,
// which applies presets; re-exported to keep the old paths `pool::PartSource` and
// `pool::PoolPart`.
pub use super::terms::{PartSource, PoolPart};

/// A pool is its parts; the total is derived so it can never disagree with them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct DicePool {
    pub parts: Vec<PoolPart>,
}

impl DicePool {
    /// A bare number of dice (checked when rolled).
    pub fn dice(n: i32) -> Self {
        DicePool {
            parts: vec![PoolPart {
                source: PartSource::Dice,
                value: n,
            }],
        }
    }

    /// Seed 1.2 attribute-only test: two attributes, no skill.
    pub fn attributes(a: (Attribute, i32), b: (Attribute, i32)) -> Self {
        DicePool::default()
            .with(PartSource::Attribute { attribute: a.0 }, a.1)
            .with(PartSource::Attribute { attribute: b.0 }, b.1)
    }

    /// Seed 1.2 success test: skill + attribute.
    pub fn skill(attribute: (Attribute, i32), skill: (&str, i32)) -> Self {
        DicePool::default()
            .with(
                PartSource::Attribute {
                    attribute: attribute.0,
                },
                attribute.1,
            )
            .with(
                PartSource::Skill {
                    skill: skill.0.to_string(),
                },
                skill.1,
            )
    }

    /// Seed 1.2 defaulting: attribute − 1.
    pub fn defaulting(attribute: (Attribute, i32)) -> Self {
        DicePool::default()
            .with(
                PartSource::Attribute {
                    attribute: attribute.0,
                },
                attribute.1,
            )
            .with(PartSource::Defaulting, -1)
    }

    pub fn with(mut self, source: PartSource, value: i32) -> Self {
        self.parts.push(PoolPart { source, value });
        self
    }

    /// A modifier the user typed, with its label.
    pub fn with_custom(self, label: &str, value: i32) -> Self {
        self.with(
            PartSource::Custom {
                label: label.to_string(),
            },
            value,
        )
    }

    /// Add the rows of the seed's tables the user picked. `from_sheet`: the pool came from a
    /// character sheet, which already counts wounds, so a `*.wounds` preset is skipped.
    pub fn with_presets(mut self, choices: &[PresetChoice], from_sheet: bool) -> Result<Self, RuleError> {
        for choice in choices {
            if let Some(part) = modifiers::apply(choice, from_sheet)? {
                self.parts.push(part);
            }
        }
        Ok(self)
    }

    /// Whether a preset that forbids any defence was chosen (seed "Defence": unaware).
    pub fn forbids_defence(&self) -> bool {
        self.parts.iter().any(|p| match &p.source {
            PartSource::Preset { key, .. } => modifiers::is_no_defence(key),
            _ => false,
        })
    }

    /// Check every part, then sum: no user number can overflow.
    pub fn total(&self) -> Result<i64, RuleError> {
        let mut total = 0i64;
        for p in &self.parts {
            check_range(
                Quantity::Modifier,
                i64::from(p.value),
                -i64::from(MAX_PART),
                i64::from(MAX_PART),
            )?;
            total += i64::from(p.value);
        }
        Ok(total)
    }
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn total_sums_parts_and_rejects_wild_values() {
        let p = DicePool::skill((Attribute::Agility, 4), ("pistols", 3)).with_custom("cover", -2);
        assert_eq!(p.total(), Ok(5));
        assert_eq!(DicePool::defaulting((Attribute::Agility, 4)).total(), Ok(3));
        let wild = DicePool::dice(i32::MAX).with_custom("x", i32::MAX);
        assert!(matches!(wild.total(), Err(RuleError::OutOfRange { .. })));
    }
}
