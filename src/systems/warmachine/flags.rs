//! Cannot-flags (WG-3) and who carries one: plain data the errors speak of as well as the
//! effects, kept apart so `error.rs` and `effects.rs` do not import each other.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::i18n::Lang;

/// WG-3: the flags the bot understands; any other text is kept and only displayed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum CannotFlag {
    /// Cannot be knocked down.
    Knockdown,
    /// Attack rolls cannot be boosted (by this model, or against it).
    BoostAttack,
    /// Damage rolls cannot be boosted (by this model, or against it).
    BoostDamage,
    /// Cannot gain additional dice (on its rolls, or on rolls against it).
    AdditionalDice,
    /// Cannot gain cover.
    Cover,
    /// Cannot stand up.
    StandUp,
    /// Free text: displayed, never enforced.
    Other(String),
}

impl CannotFlag {
    pub const KNOWN: [CannotFlag; 6] = [
        CannotFlag::Knockdown,
        CannotFlag::BoostAttack,
        CannotFlag::BoostDamage,
        CannotFlag::AdditionalDice,
        CannotFlag::Cover,
        CannotFlag::StandUp,
    ];

    pub fn key(&self) -> &str {
        match self {
            CannotFlag::Knockdown => "knockdown",
            CannotFlag::BoostAttack => "boost_attack",
            CannotFlag::BoostDamage => "boost_damage",
            CannotFlag::AdditionalDice => "additional_dice",
            CannotFlag::Cover => "cover",
            CannotFlag::StandUp => "stand_up",
            CannotFlag::Other(s) => s,
        }
    }

    /// What the model cannot do, as a phrase after "cannot".
    pub fn phrase(&self, lang: Lang) -> String {
        match self {
            CannotFlag::Knockdown => lang.pick("be knocked down", "ノックダウン"),
            CannotFlag::BoostAttack => lang.pick("boost attack rolls", "攻撃ロールのブースト"),
            CannotFlag::BoostDamage => lang.pick("boost damage rolls", "ダメージロールのブースト"),
            CannotFlag::AdditionalDice => lang.pick("gain additional dice", "追加のダイスを得ること"),
            CannotFlag::Cover => lang.pick("gain cover", "カバーを得ること"),
            CannotFlag::StandUp => lang.pick("stand up", "立ち上がること"),
            CannotFlag::Other(s) => return s.clone(),
        }
        .to_string()
    }

    pub fn is_known(&self) -> bool {
        !matches!(self, CannotFlag::Other(_))
    }
}

impl From<String> for CannotFlag {
    fn from(s: String) -> Self {
        let k = s.trim().to_lowercase().replace(['-', ' ', '・'], "_");
        match k.as_str() {
            "knockdown" | "knocked_down" | "ノックダウン" => CannotFlag::Knockdown,
            "boost_attack" | "攻撃ブースト" => CannotFlag::BoostAttack,
            "boost_damage" | "ダメージブースト" => CannotFlag::BoostDamage,
            "additional_dice" | "additional_die" | "追加ダイス" => CannotFlag::AdditionalDice,
            "cover" | "カバー" => CannotFlag::Cover,
            "stand_up" | "standup" | "立ち上がり" => CannotFlag::StandUp,
            _ => CannotFlag::Other(s.trim().to_string()),
        }
    }
}

impl From<CannotFlag> for String {
    fn from(f: CannotFlag) -> String {
        f.key().to_string()
    }
}

impl fmt::Display for CannotFlag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// Who carries a cannot-flag: the model's own rule, or an effect (named).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "from")]
pub enum FlagSource {
    ModelRule,
    Effect { name: String },
}

impl FlagSource {
    pub fn describe(&self, lang: Lang) -> String {
        match self {
            FlagSource::ModelRule => lang.pick("its own rule", "モデル自身のルール").to_string(),
            FlagSource::Effect { name } => match lang {
                Lang::En => format!("effect {name}"),
                Lang::Ja => format!("効果「{}」", super::effects::shown_name(name, lang)),
            },
        }
    }
}
