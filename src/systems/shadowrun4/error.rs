//! Every way a Shadowrun 4 request can be refused, in English and Japanese.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::terms::RangeBand;
use crate::dice::DiceError;
use crate::i18n::{Lang, Localized};

// `Quantity` lives in `terms` with the rest of the shared vocabulary; re-exported so the old path
// `error::Quantity` (imported beside `RuleError` everywhere) keeps working.
pub use super::terms::Quantity;

#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum RuleError {
    #[error(transparent)]
    Dice(#[from] DiceError),
    #[error("the dice pool is {pool}: nothing to roll (a long shot with Edge is possible)")]
    PoolEmpty { pool: i64 },
    #[error("a dice pool of {pool} is more than the {max} dice allowed")]
    PoolTooLarge { pool: i64, max: u32 },
    #[error("{what:?} must be between {min} and {max}, not {value}")]
    OutOfRange {
        what: Quantity,
        value: i64,
        min: i64,
        max: i64,
    },
    #[error("a long shot is only for a pool of 0 or less, and this pool is {pool}")]
    LongShotNotNeeded { pool: i64 },
    #[error("no Edge point left")]
    NoEdgeLeft,
    #[error("Edge is 0: nothing to roll or burn")]
    NoEdgeAttribute,
    #[error("Edge was already used on this roll")]
    EdgeAlreadyUsed,
    /// Seed 2: only a dead character can burn Edge to cheat death.
    #[error("the character is not dead: there is no death to cheat")]
    NotDead,
    #[error("the character sustains nothing")]
    SustainsNothing,
    #[error("there is no glitch to negate")]
    NoGlitchToNegate,
    #[error("every die already hit: nothing to reroll")]
    NothingToReroll,
    /// Seed 7.7: a chase manoeuvre made at the wrong range band.
    #[error("this chase manoeuvre needs the {needed:?} range band")]
    WrongChaseRange { needed: RangeBand },
    #[error("bought hits cannot be combined with rolling or Edge")]
    BoughtHitsNoEdge,
    #[error("unknown modifier preset {key:?}")]
    UnknownPreset { key: String },
    #[error("the modifier preset {key:?} needs a count")]
    PresetNeedsCount { key: String },
    /// Seed tables: a preset for melee only on a ranged attack, or the other way round.
    #[error("the modifier preset {key:?} is for the other kind of attack (melee only: {melee_only})")]
    PresetWrongAttackKind { key: String, melee_only: bool },
    #[error("{name} is dead")]
    Dead { name: String },
    #[error("unknown combatant {name:?}")]
    UnknownCombatant { name: String },
    #[error("{name} is listed twice")]
    DuplicateCombatant { name: String },
    #[error("{name} already took an extra pass this turn")]
    ExtraPassAlreadyUsed { name: String },
    #[error("every initiative pass of this turn is over")]
    NoPassLeft,
}

impl Localized for RuleError {
    fn localized(&self, lang: Lang) -> String {
        use RuleError::*;
        match (self, lang) {
            (Dice(e), _) => e.localized(lang),
            (PoolEmpty { pool }, Lang::En) => format!(
                "The dice pool is {pool}: there is nothing to roll. Spend Edge for a long shot instead."
            ),
            (PoolEmpty { pool }, Lang::Ja) => format!(
                "ダイスプールが{pool}なので振れません。エッジを使えばロングショット・テストができます。"
            ),
            (PoolTooLarge { pool, max }, Lang::En) => {
                format!("A dice pool of {pool} is too large: at most {max} dice.")
            }
            (PoolTooLarge { pool, max }, Lang::Ja) => {
                format!("ダイスプール{pool}は大きすぎます（最大{max}個）。")
            }
            (
                OutOfRange {
                    what,
                    value,
                    min,
                    max,
                },
                Lang::En,
            ) => format!(
                "The {} must be between {min} and {max}, not {value}.",
                what.name(lang)
            ),
            (
                OutOfRange {
                    what,
                    value,
                    min,
                    max,
                },
                Lang::Ja,
            ) => format!(
                "{}は{min}〜{max}の範囲で指定してください（{value}は使えません）。",
                what.name(lang)
            ),
            (LongShotNotNeeded { pool }, Lang::En) => format!(
                "A long shot is only for a dice pool of 0 or less; this pool is {pool}, so roll it normally."
            ),
            (LongShotNotNeeded { pool }, Lang::Ja) => {
                format!("ロングショット・テストはダイスプールが0以下のときだけです（このプールは{pool}）。")
            }
            (NoEdgeLeft, Lang::En) => "No Edge point is left.".to_string(),
            (NoEdgeLeft, Lang::Ja) => "エッジ・ポイントが残っていません。".to_string(),
            (NoEdgeAttribute, Lang::En) => "Edge is 0: there is nothing to roll or burn.".to_string(),
            (NoEdgeAttribute, Lang::Ja) => {
                "【エッジ】が0なので、振ることも燃やすこともできません。".to_string()
            }
            (EdgeAlreadyUsed, Lang::En) => "Edge was already used on this roll.".to_string(),
            (EdgeAlreadyUsed, Lang::Ja) => "このロールではすでにエッジを使っています。".to_string(),
            (NotDead, Lang::En) => "The character is not dead: there is no death to cheat.".to_string(),
            (NotDead, Lang::Ja) => "このキャラクターは死亡していません。".to_string(),
            (SustainsNothing, Lang::En) => "The character sustains nothing.".to_string(),
            (SustainsNothing, Lang::Ja) => "このキャラクターは何も維持していません。".to_string(),
            (NoGlitchToNegate, Lang::En) => "There is no glitch to negate.".to_string(),
            (NoGlitchToNegate, Lang::Ja) => "回避するグリッチがありません。".to_string(),
            (NothingToReroll, Lang::En) => "Every die already hit: there is nothing to reroll.".to_string(),
            (NothingToReroll, Lang::Ja) => {
                "すべてのダイスがヒットしているので、振りなおすダイスがありません。".to_string()
            }
            (WrongChaseRange { needed }, lang) => {
                let band = match needed {
                    RangeBand::Close => lang.pick("close", "至近距離"),
                    RangeBand::Near => lang.pick("near", "近距離"),
                    RangeBand::Far => lang.pick("far", "遠距離"),
                };
                match lang {
                    Lang::Ja => format!("このチェイス機動は{band}でしか行えません。"),
                    _ => format!("This chase manoeuvre is only possible at {band} range."),
                }
            }
            (BoughtHitsNoEdge, Lang::En) => {
                "Bought hits cannot be combined with rolling or with Edge.".to_string()
            }
            (BoughtHitsNoEdge, Lang::Ja) => {
                "ヒットの購入はサイコロを振る行為やエッジとは同時に行えません。".to_string()
            }
            (UnknownPreset { key }, Lang::En) => format!("There is no modifier preset called “{key}”."),
            (UnknownPreset { key }, Lang::Ja) => format!("「{key}」という修正はありません。"),
            (
                PresetWrongAttackKind {
                    key,
                    melee_only: true,
                },
                Lang::En,
            ) => {
                format!("The modifier “{key}” is for melee attacks only; this is a ranged attack.")
            }
            (
                PresetWrongAttackKind {
                    key,
                    melee_only: true,
                },
                Lang::Ja,
            ) => {
                format!("修正「{key}」は近接戦闘専用です。この攻撃は射撃です。")
            }
            (
                PresetWrongAttackKind {
                    key,
                    melee_only: false,
                },
                Lang::En,
            ) => {
                format!("The modifier “{key}” is for ranged attacks only; this is a melee attack.")
            }
            (
                PresetWrongAttackKind {
                    key,
                    melee_only: false,
                },
                Lang::Ja,
            ) => {
                format!("修正「{key}」は射撃戦闘専用です。この攻撃は近接です。")
            }
            (PresetNeedsCount { key }, Lang::En) => {
                format!("The modifier “{key}” needs a number (how many, or the rating).")
            }
            (PresetNeedsCount { key }, Lang::Ja) => {
                format!("修正「{key}」には数値（回数やレーティング）が必要です。")
            }
            (Dead { name }, Lang::En) => format!("{name} is dead."),
            (Dead { name }, Lang::Ja) => format!("{name}は死亡しています。"),
            (UnknownCombatant { name }, Lang::En) => format!("“{name}” is not in the initiative order."),
            (UnknownCombatant { name }, Lang::Ja) => format!("「{name}」はイニシアティブ順にいません。"),
            (DuplicateCombatant { name }, Lang::En) => format!("“{name}” is listed twice."),
            (DuplicateCombatant { name }, Lang::Ja) => format!("「{name}」が二重に登録されています。"),
            (ExtraPassAlreadyUsed { name }, Lang::En) => {
                format!("{name} already took an extra pass with Edge this combat turn.")
            }
            (ExtraPassAlreadyUsed { name }, Lang::Ja) => {
                format!("{name}はこの戦闘ターンですでにエッジで追加のパスを得ています。")
            }
            (NoPassLeft, Lang::En) => "Every initiative pass of this turn is over.".to_string(),
            (NoPassLeft, Lang::Ja) => {
                "この戦闘ターンのイニシアティブ・パスはすべて終わりました。".to_string()
            }
        }
    }
}

/// Range check for a user number, as an error rather than a panic.
pub(crate) fn check_range(what: Quantity, value: i64, min: i64, max: i64) -> Result<(), RuleError> {
    crate::systems::bounds::within(value, min, max, || RuleError::OutOfRange {
        what,
        value,
        min,
        max,
    })
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn every_error_reads_in_both_languages() {
        let errors = [
            RuleError::PoolEmpty { pool: -1 },
            RuleError::OutOfRange {
                what: Quantity::Force,
                value: 13,
                min: 1,
                max: 12,
            },
            RuleError::NoEdgeLeft,
            RuleError::NotDead,
            RuleError::SustainsNothing,
            RuleError::UnknownPreset { key: "x".into() },
            RuleError::PresetWrongAttackKind {
                key: "x".into(),
                melee_only: true,
            },
            RuleError::PresetWrongAttackKind {
                key: "x".into(),
                melee_only: false,
            },
            RuleError::WrongChaseRange {
                needed: RangeBand::Far,
            },
        ];
        for e in errors {
            let en = e.localized(Lang::En);
            let ja = e.localized(Lang::Ja);
            assert!(!en.is_empty() && !ja.is_empty());
            assert_ne!(en, ja);
        }
        let force = RuleError::OutOfRange {
            what: Quantity::Force,
            value: 13,
            min: 1,
            max: 12,
        };
        assert!(force.localized(Lang::En).contains("Force"));
        assert!(force.localized(Lang::Ja).contains("フォース"));
    }

    #[test]
    fn range_check_is_inclusive() {
        assert!(check_range(Quantity::Force, 1, 1, 12).is_ok());
        assert!(check_range(Quantity::Force, 12, 1, 12).is_ok());
        assert!(check_range(Quantity::Force, 0, 1, 12).is_err());
        assert!(check_range(Quantity::Force, 13, 1, 12).is_err());
    }
}
