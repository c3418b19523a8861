//! Why odds were refused, in English and Japanese. Every refusal happens before the work starts,
//! but for the rare keep/drop over mixed stages that passes its estimate and then its budget
//! (`pool_keep`: stopped within a few milliseconds).

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use thiserror::Error;

use crate::i18n::{Lang, Localized};
use crate::notation::NotationError;

/// A number an odds request carries that no resolver bounds on its own: a stat after effects, the
/// boxes left, the sum of a check's parts. Named in [`OddsError::OutOfRange`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OddsInput {
    /// Warmachine MAT or RAT after effects.
    AttackStat,
    /// Warmachine DEF after effects.
    Def,
    /// Warmachine ARM after effects.
    Arm,
    /// Warmachine POW after effects.
    Pow,
    /// Warmachine damage boxes not yet marked.
    Boxes,
    /// Terminator: damage a target already has against its Damage limit.
    DamageTaken,
    /// Terminator: a target's Damage limit (0: none).
    DamageLimit,
    /// The d20 mecha RPG: everything added to the attack d20.
    AttackTotal,
    /// The d20 mecha RPG: everything added to the evasion d20, before facing.
    EvasionTotal,
}

impl OddsInput {
    pub fn name(self, lang: Lang) -> &'static str {
        use OddsInput::*;
        match self {
            AttackStat => lang.pick("MAT or RAT", "MATまたはRAT"),
            Def => lang.pick("DEF", "DEF"),
            Arm => lang.pick("ARM", "ARM"),
            Pow => lang.pick("POW", "POW"),
            Boxes => lang.pick("number of damage boxes left", "残りのダメージボックス数"),
            DamageTaken => lang.pick("damage already taken", "受けているダメージ"),
            DamageLimit => lang.pick("Damage limit", "損傷限界値"),
            AttackTotal => lang.pick("attack bonus", "攻撃の修正の合計"),
            EvasionTotal => lang.pick("evasion bonus", "回避の修正の合計"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OddsError {
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("odds describe one roll; this command has {count}")]
    SeveralRolls { count: usize },
    #[error("too large to compute exactly")]
    TooComplex,
    #[error("this roll can divide by zero")]
    DivisionByZero,
    #[error("a result of this roll is too large")]
    Overflow,
    #[error("an opposed test has no threshold")]
    OpposedWithThreshold,
    /// A system's own rules refused the request (its `RuleError`, converted in its `odds.rs`).
    #[error("{0}")]
    Rule(Refusal),
    #[error("the {} must be between {min} and {max}, not {value}", what.name(Lang::En))]
    OutOfRange {
        what: OddsInput,
        value: i64,
        min: i64,
        max: i64,
    },
}

impl OddsError {
    /// A system's rule error, carried as it is.
    pub fn rule(e: impl SystemRefusal) -> Self {
        OddsError::Rule(Refusal(Arc::new(e)))
    }

    /// The system's own error, when a rule of type `E` refused the request.
    pub fn rule_error<E: 'static>(&self) -> Option<&E> {
        match self {
            OddsError::Rule(r) => r.0.as_any().downcast_ref(),
            _ => None,
        }
    }
}

/// What a system's `RuleError` is to the odds: an error read in both languages. The odds do not
/// name the systems; each converts its own (`impl From<RuleError> for OddsError` in its folder).
pub trait SystemRefusal: std::error::Error + Localized + Send + Sync + 'static {
    fn as_any(&self) -> &dyn Any;
}

impl<T: std::error::Error + Localized + Send + Sync + 'static> SystemRefusal for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A system's refusal, shared (cloning an [`OddsError`] does not copy it).
#[derive(Clone)]
pub struct Refusal(Arc<dyn SystemRefusal>);

impl fmt::Debug for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

/// The same type of error saying the same thing (in both languages).
impl PartialEq for Refusal {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_any().type_id() == other.0.as_any().type_id()
            && self.0.to_string() == other.0.to_string()
            && [Lang::En, Lang::Ja]
                .into_iter()
                .all(|l| self.0.localized(l) == other.0.localized(l))
    }
}

impl Eq for Refusal {}

/// `value` within `min..=max`, or [`OddsError::OutOfRange`] naming `what`.
pub(crate) fn within(what: OddsInput, value: i64, min: i64, max: i64) -> Result<(), OddsError> {
    crate::systems::bounds::within(value, min, max, || OddsError::OutOfRange {
        what,
        value,
        min,
        max,
    })
}

impl Localized for OddsError {
    fn localized(&self, lang: Lang) -> String {
        use OddsError::*;
        let ja = lang == Lang::Ja;
        match self {
            Notation(e) => e.localized(lang),
            SeveralRolls { count } if ja => format!(
                "確率は1回のロールについて計算します（このコマンドは{count}回振ります）。`;`・セット・繰り返しを外してください。"
            ),
            SeveralRolls { count } => format!(
                "Odds describe one roll, and this command makes {count}: drop the `;`, sets or repeats."
            ),
            TooComplex => lang
                .pick(
                    "This roll is too large to compute exactly. Try fewer dice, fewer sides or a simpler expression.",
                    "このロールは大きすぎて正確な確率を計算できません。ダイスの数・面数を減らすか、式を簡単にしてください。",
                )
                .into(),
            DivisionByZero => lang
                .pick(
                    "This roll can divide by zero, so it has no distribution.",
                    "このロールは0で割る場合があるため、確率を計算できません。",
                )
                .into(),
            Overflow => lang
                .pick(
                    "A result of this roll is too large to compute.",
                    "このロールの結果が大きすぎて計算できません。",
                )
                .into(),
            OpposedWithThreshold => lang
                .pick(
                    "An opposed test has no threshold: give either `threshold` or `opposed`.",
                    "対抗判定には目標値がありません。`threshold` と `opposed` のどちらか一方を指定してください。",
                )
                .into(),
            Rule(e) => e.0.localized(lang),
            OutOfRange { what, value, min, max } if ja => {
                format!("{}は{min}〜{max}で指定してください（{value}は範囲外です）。", what.name(lang))
            }
            OutOfRange { what, value, min, max } => {
                format!("The {} must be between {min} and {max}, not {value}.", what.name(lang))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_reads_in_both_languages() {
        let all = [
            OddsError::SeveralRolls { count: 2 },
            OddsError::TooComplex,
            OddsError::DivisionByZero,
            OddsError::Overflow,
            OddsError::OpposedWithThreshold,
            OddsError::OutOfRange {
                what: OddsInput::Boxes,
                value: 0,
                min: 1,
                max: 100,
            },
        ];
        for e in all {
            let (en, ja) = (e.localized(Lang::En), e.localized(Lang::Ja));
            assert!(en.is_ascii() && !en.is_empty(), "{en}");
            assert!(!ja.is_ascii(), "{ja}");
        }
    }
}
