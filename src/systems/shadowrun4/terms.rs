//! The words every Shadowrun 4 module shares: what a number in a request stands for and the
//! chase range bands.
//!
//! This is the bottom of the module graph: it imports nothing from its siblings, so
//! [`super::error`] can name these types in its errors without importing the modules that
//! return those errors. The types keep their old paths too (`error::Quantity`,
//! `rigging::RangeBand`) through re-exports.

use serde::{Deserialize, Serialize};

use crate::i18n::Lang;

/// What a number in a request stands for, so range errors can name it in both languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    Attribute,
    Skill,
    Modifier,
    Threshold,
    Force,
    Magic,
    Resonance,
    Rating,
    DamageValue,
    Armour,
    ArmourPenetration,
    Edge,
    Passes,
    Intervals,
    Count,
    Damage,
    SustainedEffects,
    Retries,
}

impl Quantity {
    /// Its name in a range error (read by [`super::error`]).
    pub(super) fn name(self, lang: Lang) -> &'static str {
        use Quantity::*;
        match self {
            Attribute => lang.pick("attribute", "能力値"),
            Skill => lang.pick("skill", "技能値"),
            Modifier => lang.pick("modifier", "修正"),
            Threshold => lang.pick("threshold", "目標値"),
            Force => lang.pick("Force", "フォース"),
            Magic => lang.pick("Magic", "魔力"),
            Resonance => lang.pick("Resonance", "共振力"),
            Rating => lang.pick("rating", "レーティング"),
            DamageValue => lang.pick("damage value", "ダメージ値"),
            Armour => lang.pick("armour", "装甲値"),
            ArmourPenetration => lang.pick("AP", "AP"),
            Edge => lang.pick("Edge", "エッジ"),
            Passes => lang.pick("initiative passes", "イニシアティブ・パス"),
            Intervals => lang.pick("intervals", "試行回数"),
            Count => lang.pick("count", "回数"),
            Damage => lang.pick("damage", "ダメージ"),
            SustainedEffects => lang.pick("sustained spells and threads", "維持中の呪文・スレッド"),
            Retries => lang.pick("earlier tries", "再挑戦の回数"),
        }
    }
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
