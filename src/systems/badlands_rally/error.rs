//! Every way a Badlands Rally request can be wrong, in English and Japanese.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::dice::DiceError;
use crate::i18n::{Lang, Localized};

/// A rule or input error. Never a panic: every resolver and transition returns one of these.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum RuleError {
    #[error(transparent)]
    Dice(#[from] DiceError),
    #[error("a rating is written 2+ to 6+, not {rating}+")]
    BadRating { rating: u8 },
    #[error("a pool of {dice} dice is more than the {max} allowed")]
    PoolTooLarge { dice: i64, max: u32 },
    #[error("{field} must be between {min} and {max}, not {value}")]
    OutOfBounds {
        field: String,
        value: i64,
        min: i64,
        max: i64,
    },
    #[error("a number in this request is too large")]
    Overflow,
    #[error("the gear has no weapon number {index}")]
    NoSuchWeapon { index: usize },
    #[error("weapon ranges must satisfy 1 <= optimal min <= optimal max <= max")]
    BadRange,
    #[error("the target must be at least 1 hex away")]
    ZeroDistance,
    #[error("a push needs the target in the next hex (range 1), not {distance}")]
    PushRange { distance: u32 },
    #[error("unknown gear model '{key}'")]
    UnknownModel { key: String },
    #[error("no gear called '{id}' is in this race")]
    UnknownGear { id: String },
    #[error("a gear called '{id}' is already in this race")]
    DuplicateGear { id: String },
    #[error("a gear cannot attack itself")]
    SelfTarget,
    #[error("'{name}' is knocked out")]
    KnockedOut { name: String },
    #[error("'{name}' is at 0 hits and can only recover")]
    MustRecover { name: String },
    #[error("'{name}' has already activated this round")]
    AlreadyActivated { name: String },
    #[error("'{name}' is not activating")]
    NotActivating { name: String },
    #[error("'{name}' has no action left")]
    NoActionLeft { name: String },
    #[error("'{name}' already used its action for a reaction attack or activation this round")]
    NoReactionLeft { name: String },
    #[error("a rattled gear moves at cruising speed only")]
    RattledTopSpeed,
    #[error("recovery is taken at cruising speed only")]
    RecoveryTopSpeed,
    #[error("'{name}' has {left} MR left, not {needed}")]
    NotEnoughMr { name: String, left: u32, needed: u32 },
    #[error("moving backwards is allowed at cruising speed only, and never with a special move")]
    Backwards,
    #[error("a gear cannot enter {terrain} by normal movement")]
    Impassable { terrain: String },
    #[error("'{name}' has no spin-out to resolve")]
    NoSpinOutPending { name: String },
    #[error("'{name}' must resolve its spin-out first")]
    SpinOutPending { name: String },
    #[error("'{name}' does not have the {what} trait")]
    MissingTrait { name: String, what: String },
    #[error("'{name}' already used {what} this {period}")]
    AlreadyUsed {
        name: String,
        what: String,
        period: String,
    },
    #[error("Twins can only pair a Vibro Blade, Autocannon or Rifle")]
    TwinsWeapon,
    #[error("the race needs at least one gear")]
    NoGears,
    #[error("the initiative ties did not resolve after {rerolls} rerolls")]
    TieUnresolved { rerolls: u32 },
    #[error("attacks are not sporting in the first round (Gentlemen's Sport)")]
    GentlemensSport,
    #[error("'{name}' has already finished the race")]
    AlreadyFinished { name: String },
    #[error("a gear cannot be jumped over '{name}': it is Tall")]
    JumpOverTall { name: String },
}

impl Localized for RuleError {
    fn localized(&self, lang: Lang) -> String {
        use RuleError::*;
        let ja = match self {
            Dice(e) => return e.localized(lang),
            BadRating { rating } => format!("能力値は2+〜6+です（{rating}+は使えません）。"),
            PoolTooLarge { dice, max } => {
                format!("ダイスが{dice}個になりました。振れるのは{max}個までです。")
            }
            OutOfBounds {
                field,
                value,
                min,
                max,
            } => format!("{field}は{min}〜{max}の範囲で指定してください（{value}は範囲外です）。"),
            Overflow => "数値が大きすぎます。".to_string(),
            NoSuchWeapon { index } => format!("このギアに武器{index}番はありません。"),
            BadRange => "射程は 1 ≤ 最適下限 ≤ 最適上限 ≤ 最大 にしてください。".to_string(),
            ZeroDistance => "目標までの距離は1ヘクス以上です。".to_string(),
            PushRange { distance } => {
                format!("プッシュは隣接（レンジ1）の目標にしかできません（距離{distance}）。")
            }
            UnknownModel { key } => format!("ギアの機種「{key}」は見つかりません。"),
            UnknownGear { id } => format!("このレースに「{id}」というギアはいません。"),
            DuplicateGear { id } => format!("「{id}」というギアは既にレースにいます。"),
            SelfTarget => "自分自身は攻撃できません。".to_string(),
            KnockedOut { name } => format!("「{name}」はノックアウトされています。"),
            MustRecover { name } => {
                format!("「{name}」はヒット0なので、リカバリーしか選べません。")
            }
            AlreadyActivated { name } => {
                format!("「{name}」はこのラウンドに既にアクティベートしました。")
            }
            NotActivating { name } => format!("「{name}」はアクティベーション中ではありません。"),
            NoActionLeft { name } => format!("「{name}」にはアクションが残っていません。"),
            NoReactionLeft { name } => format!(
                "「{name}」はこのラウンドのアクションを既に使っています（リアクション攻撃はできません）。"
            ),
            RattledTopSpeed => "ラタルドのギアはクルージング・スピードでしか移動できません。".to_string(),
            RecoveryTopSpeed => "リカバリーはクルージング・スピードでしか行えません。".to_string(),
            NotEnoughMr { name, left, needed } => {
                format!("「{name}」の残りMRは{left}です（{needed}必要です）。")
            }
            Backwards => "後方移動はクルージング・スピードのみで、特殊移動は使えません。".to_string(),
            Impassable { terrain } => format!("通常の移動では{terrain}に進入できません。"),
            NoSpinOutPending { name } => format!("「{name}」に解決待ちのスピンアウトはありません。"),
            SpinOutPending { name } => format!("「{name}」は先にスピンアウトを解決してください。"),
            MissingTrait { name, what } => format!("「{name}」は{what}を持っていません。"),
            AlreadyUsed { name, what, period } => {
                format!("「{name}」はこの{period}に既に{what}を使いました。")
            }
            TwinsWeapon => "ツインズにできるのはVibro Blade、Autocannon、Rifleだけです。".to_string(),
            NoGears => "レースにはギアが1機以上必要です。".to_string(),
            TieUnresolved { rerolls } => {
                format!("イニシアチブの同値が{rerolls}回振り直しても決着しませんでした。")
            }
            GentlemensSport => "紳士のスポーツ：最初のラウンドに攻撃するのは非スポーツ的です。".to_string(),
            AlreadyFinished { name } => format!("「{name}」は既にゴールしています。"),
            JumpOverTall { name } => format!("「{name}」はトール（高機高）なので飛び越せません。"),
        };
        match lang {
            Lang::Ja => ja,
            Lang::En => {
                let mut s = self.to_string();
                if let Some(first) = s.get(0..1) {
                    let upper = first.to_uppercase();
                    s.replace_range(0..1, &upper);
                }
                s.push('.');
                s
            }
        }
    }
}

/// Checked `a + b` on user numbers.
pub(crate) fn add(a: u32, b: u32) -> Result<u32, RuleError> {
    a.checked_add(b).ok_or(RuleError::Overflow)
}

/// A bounded user number, or a clear error naming the field.
pub(crate) fn bounded(field: &str, value: i64, min: i64, max: i64) -> Result<(), RuleError> {
    crate::systems::bounds::within(value, min, max, || RuleError::OutOfBounds {
        field: field.to_string(),
        value,
        min,
        max,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_speak_both_languages() {
        let e = RuleError::NotEnoughMr {
            name: "Jerboa".into(),
            left: 1,
            needed: 3,
        };
        assert_eq!(e.localized(Lang::En), "'Jerboa' has 1 MR left, not 3.");
        assert!(e.localized(Lang::Ja).contains("残りMRは1"));
        let d = RuleError::from(DiceError::FixedExhausted { rolled: 2 });
        assert!(d.localized(Lang::Ja).contains("尽きました"));
        assert_eq!(
            RuleError::BadRating { rating: 7 }.localized(Lang::En),
            "A rating is written 2+ to 6+, not 7+."
        );
    }

    #[test]
    fn bounded_and_add_report_errors() {
        assert!(bounded("MR", 5, 0, 99).is_ok());
        assert!(matches!(
            bounded("MR", 100, 0, 99),
            Err(RuleError::OutOfBounds { value: 100, .. })
        ));
        assert_eq!(add(u32::MAX, 1), Err(RuleError::Overflow));
        assert_eq!(add(2, 3), Ok(5));
    }
}
