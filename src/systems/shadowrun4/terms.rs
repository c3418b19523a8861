//! The words every Shadowrun 4 module shares: attributes, armour, damage types, what a part of a
//! dice pool stands for, what a number in a request stands for and the chase range bands.
//!
//! This is the bottom of the module graph and imports nothing from its siblings. That is what
//! keeps the graph free of cycles: [`super::error`] can name a range band without importing
//! [`super::rigging`], [`super::pool`] can name an attribute without importing
//! [`super::character`], and [`super::modifiers`] can make a pool part without importing
//! [`super::pool`]. The old paths (`character::Attribute`, `pool::PartSource`, `error::Quantity`,
//! `rigging::RangeBand`…) still work through re-exports.

use serde::{Deserialize, Serialize};

use crate::i18n::Lang;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attribute {
    Body,
    Agility,
    Reaction,
    Strength,
    Charisma,
    Intuition,
    Logic,
    Willpower,
    Edge,
    Magic,
    Resonance,
    Initiative,
}

impl Attribute {
    pub const ALL: [Attribute; 12] = [
        Attribute::Body,
        Attribute::Agility,
        Attribute::Reaction,
        Attribute::Strength,
        Attribute::Charisma,
        Attribute::Intuition,
        Attribute::Logic,
        Attribute::Willpower,
        Attribute::Edge,
        Attribute::Magic,
        Attribute::Resonance,
        Attribute::Initiative,
    ];

    /// Stable key for commands and storage.
    pub fn key(self) -> &'static str {
        match self {
            Attribute::Body => "body",
            Attribute::Agility => "agility",
            Attribute::Reaction => "reaction",
            Attribute::Strength => "strength",
            Attribute::Charisma => "charisma",
            Attribute::Intuition => "intuition",
            Attribute::Logic => "logic",
            Attribute::Willpower => "willpower",
            Attribute::Edge => "edge",
            Attribute::Magic => "magic",
            Attribute::Resonance => "resonance",
            Attribute::Initiative => "initiative",
        }
    }

    pub fn from_key(key: &str) -> Option<Attribute> {
        Attribute::ALL
            .into_iter()
            .find(|a| a.key().eq_ignore_ascii_case(key))
    }

    /// The name used in the seed (Japanese) or the SR4 book (English).
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Attribute::Body => lang.pick("Body", "強靭力"),
            Attribute::Agility => lang.pick("Agility", "敏捷力"),
            Attribute::Reaction => lang.pick("Reaction", "反応力"),
            Attribute::Strength => lang.pick("Strength", "筋力"),
            Attribute::Charisma => lang.pick("Charisma", "魅力"),
            Attribute::Intuition => lang.pick("Intuition", "直観力"),
            Attribute::Logic => lang.pick("Logic", "論理力"),
            Attribute::Willpower => lang.pick("Willpower", "意志力"),
            Attribute::Edge => lang.pick("Edge", "エッジ"),
            Attribute::Magic => lang.pick("Magic", "魔力"),
            Attribute::Resonance => lang.pick("Resonance", "共振力"),
            Attribute::Initiative => lang.pick("Initiative", "イニシアティブ"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Armour {
    pub ballistic: u32,
    pub impact: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageType {
    Physical,
    Stun,
}

/// What one part of a pool stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PartSource {
    /// A bare number of dice the user gave.
    Dice,
    Attribute {
        attribute: Attribute,
    },
    Skill {
        skill: String,
    },
    /// A rating that stands in for the attribute: a matrix program (seed 5: Hacking + Exploit)
    /// or a rigged drone's attribute (seed 7.2). `name` is empty for a bare number.
    Program {
        name: String,
    },
    /// Seed 1.2: no skill, attribute − 1.
    Defaulting,
    /// Decisions "Condition monitors": −1 per 3 boxes in each track.
    Wounds,
    /// Decisions "Magic and resonance": −2 per sustained spell or thread.
    Sustaining {
        count: u32,
    },
    /// Seed 1.3: −2 per earlier try.
    Retry {
        tries: u32,
    },
    /// A row of the seed's modifier tables.
    Preset {
        key: String,
        count: Option<i32>,
    },
    /// Seed 1.2: assistants' hits.
    Teamwork,
    Armour,
    ArmourPenetration,
    /// Seed 7.7 位置取り: the net hits of last turn's positioning test.
    Positioning,
    /// Seed 7.7 進路妨害: the net hits of the cut-off test the driver lost.
    CutOff,
    /// A part the user named.
    Custom {
        label: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolPart {
    pub source: PartSource,
    pub value: i32,
}

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
