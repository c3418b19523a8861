//! Every way a Warmachine request can be refused, in English and Japanese. A refusal never
//! changes anything: each transition checks first and writes last.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::flags::{CannotFlag, FlagSource};
use crate::dice::DiceError;
use crate::i18n::{Lang, Localized};

/// A number the user typed, named in range errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    Modifier,
    Discard,
    AdditionalDice,
    Pow,
    StatChange,
    Players,
    Distance,
    Cover,
}

impl Quantity {
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            Quantity::Modifier => lang.pick("modifier", "修正"),
            Quantity::Discard => lang.pick("number of dice to discard", "捨てるダイスの数"),
            Quantity::AdditionalDice => lang.pick("number of additional-die rules", "追加ダイスのルール数"),
            Quantity::Pow => lang.pick("POW", "POW"),
            Quantity::StatChange => lang.pick("stat change", "能力値の変化"),
            Quantity::Players => lang.pick("number of players", "プレイヤー数"),
            Quantity::Distance => lang.pick("distance", "距離"),
            Quantity::Cover => lang.pick("cover bonus", "遮蔽のボーナス"),
        }
    }
}

/// A rule or input error. Never a panic: every resolver and transition returns one of these.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum RuleError {
    #[error(transparent)]
    Dice(#[from] DiceError),
    #[error("the {what:?} must be between {min} and {max}, not {value}")]
    OutOfRange {
        what: Quantity,
        value: i64,
        min: i64,
        max: i64,
    },
    #[error("discarding {discard} of {dice} dice would keep none: at least one die is kept")]
    DiscardTooMany { discard: u32, dice: u32 },
    /// Item 16 / WG-3: a present cannot-flag forbids the request.
    #[error(
        "{model} cannot {} ({}): cannot beats must (rule priority)",
        .flag.phrase(Lang::En),
        .carrier.describe(Lang::En)
    )]
    CannotBeatsMust {
        model: String,
        flag: CannotFlag,
        carrier: FlagSource,
    },
    #[error("{model} is destroyed")]
    Destroyed { model: String },
    #[error("no model called '{name}' is in this game")]
    UnknownModel { name: String },
    #[error("{model} has no weapon called '{weapon}'")]
    NoSuchWeapon { model: String, weapon: String },
    #[error("no player called '{name}' is in this game")]
    UnknownPlayer { name: String },
    #[error("'{name}' is listed twice")]
    DuplicatePlayer { name: String },
    #[error("a player needs a name")]
    EmptyPlayer,
    #[error("the roll-off was still tied after {rounds} rounds")]
    RollOffUnresolved { rounds: u32 },
    #[error("the {what} is empty")]
    EmptyText { what: String },
    #[error("the {what} is longer than {max} characters")]
    TextTooLong { what: String, max: usize },
    #[error("there is no ruling number {id}")]
    NoSuchRuling { id: u32 },
    #[error("the game has not started: name the players first")]
    GameNotStarted,
    #[error("{model} is still activating: end its activation first")]
    ActivationInProgress { model: String },
    #[error("no model is activating")]
    NoActivation,
    #[error("{model} has already activated this turn")]
    AlreadyActivated { model: String },
    #[error("it is {turn_player}'s turn, and {model} is controlled by {controller}")]
    NotYourTurn {
        model: String,
        controller: String,
        turn_player: String,
    },
    #[error("an attack is open ({attacker} against {target}): resolve it first")]
    AttackOpen { attacker: String, target: String },
    #[error("no attack is open")]
    NoOpenAttack,
    #[error("{model} is moving: finish the move first")]
    Moving { model: String },
    /// Item 27: "any time" rules are never used after running.
    #[error("{model} ran this activation: \"any time\" rules cannot be used after a run")]
    AnyTimeAfterRun { model: String },
    #[error("\"any time\" rules cannot interrupt an attack")]
    AnyTimeDuringAttack,
    #[error("\"any time\" rules cannot interrupt a move")]
    AnyTimeDuringMove,
    #[error("\"any time\" rules cannot be used while triggers are being resolved")]
    AnyTimeDuringTrigger,
    #[error("\"any time\" rules are used during the model's own activation, and {model} is not activating")]
    AnyTimeNotActivating { model: String },
    #[error("no trigger number {id} is waiting")]
    NoSuchTrigger { id: u32 },
    /// Item 25 / WG-6: the active player's triggers first, then the inactive player's.
    #[error("trigger {id} is not next: trigger {next} ({owner}) resolves first")]
    TriggerOutOfOrder { id: u32, next: u32, owner: String },
    #[error("write a trigger as 'owner: rule text', not '{line}'")]
    BadTriggerLine { line: String },
    #[error("the new order for {player} must list each of their waiting triggers once")]
    BadTriggerOrder { player: String },
    #[error("{model} has no effect called '{name}'")]
    NoSuchEffect { model: String, name: String },
    #[error("{model} has no effect instance number {id}")]
    NoSuchInstance { model: String, id: u32 },
    #[error("there is no effect preset called '{key}'")]
    UnknownPreset { key: String },
    #[error("an effect changes a stat or carries a cannot-flag; this one does neither")]
    EmptyEffect,
    #[error("{model} already carries {max} effect instances")]
    TooManyEffects { model: String, max: usize },
    #[error("the game already has {max} rulings")]
    TooManyRulings { max: usize },
    #[error("{what} is already waiting: at most {max}")]
    TooMany { what: String, max: usize },
    /// Issue 29: players are Discord members, so a name is refused with what to type.
    #[error(
        "'{typed}' is no Discord member: type @ and pick the member from Discord's list (it becomes a mention), or give their user id"
    )]
    NotAMember { typed: String },
    /// Issue 29: a turn does not end while triggers wait (they would run into the next turn).
    #[error("triggers are waiting ({}): close them first with /wm-turn resolve", .waiting.join("; "))]
    TriggersWaiting { waiting: Vec<String> },
}

impl Localized for RuleError {
    fn localized(&self, lang: Lang) -> String {
        use RuleError::*;
        let ja = match self {
            Dice(e) => return e.localized(lang),
            OutOfRange {
                what,
                value,
                min,
                max,
            } => {
                if lang == Lang::En {
                    return format!(
                        "The {} must be between {min} and {max}, not {value}.",
                        what.name(lang)
                    );
                }
                format!(
                    "{}は{min}〜{max}の範囲で指定してください（{value}は使えません）。",
                    what.name(lang)
                )
            }
            DiscardTooMany { discard, dice } => {
                format!("ダイス{dice}個から{discard}個を捨てると1個も残りません（最低1個は残ります）。")
            }
            CannotBeatsMust { model, flag, carrier } => format!(
                "{model}は{}ができません（{}）。「できない」は「しなければならない」に優先します（ルールの優先順位）。",
                flag.phrase(Lang::Ja),
                carrier.describe(Lang::Ja)
            ),
            Destroyed { model } => format!("{model}は破壊されています。"),
            UnknownModel { name } => format!("このゲームに「{name}」というモデルはいません。"),
            NoSuchWeapon { model, weapon } => format!("{model}に「{weapon}」という武器はありません。"),
            UnknownPlayer { name } => format!("このゲームに「{name}」というプレイヤーはいません。"),
            DuplicatePlayer { name } => format!("「{name}」が二重に指定されています。"),
            EmptyPlayer => "プレイヤー名が空です。".to_string(),
            RollOffUnresolved { rounds } => format!("{rounds}ラウンド振っても同点のままでした。"),
            EmptyText { what } => format!("{}が空です。", ja_what(what)),
            TextTooLong { what, max } => format!("{}は{max}文字までです。", ja_what(what)),
            NoSuchRuling { id } => format!("裁定{id}番はありません。"),
            GameNotStarted => "ゲームが始まっていません。先にプレイヤーを指定してください。".to_string(),
            ActivationInProgress { model } => {
                format!("{model}がアクティベーション中です。先にアクティベーションを終えてください。")
            }
            NoActivation => "アクティベーション中のモデルはいません。".to_string(),
            AlreadyActivated { model } => format!("{model}はこの手番にすでにアクティベートしました。"),
            NotYourTurn {
                model,
                controller,
                turn_player,
            } => format!("今は{turn_player}の手番です。{model}のコントローラーは{controller}です。"),
            AttackOpen { attacker, target } => {
                format!("攻撃（{attacker}→{target}）が解決中です。先に解決してください。")
            }
            NoOpenAttack => "解決中の攻撃はありません。".to_string(),
            Moving { model } => format!("{model}は移動中です。先に移動を終えてください。"),
            AnyTimeAfterRun { model } => {
                format!("{model}はこのアクティベーションでランしたので、「いつでも」のルールは使えません。")
            }
            AnyTimeDuringAttack => "「いつでも」のルールで攻撃を中断することはできません。".to_string(),
            AnyTimeDuringMove => "「いつでも」のルールで移動を中断することはできません。".to_string(),
            AnyTimeDuringTrigger => "トリガー効果の解決中は「いつでも」のルールを使えません。".to_string(),
            AnyTimeNotActivating { model } => format!(
                "「いつでも」のルールはそのモデル自身のアクティベーション中に使います。{model}はアクティベーション中ではありません。"
            ),
            NoSuchTrigger { id } => format!("トリガー{id}番は待っていません。"),
            TriggerOutOfOrder { id, next, owner } => format!(
                "トリガー{id}番はまだです。先にトリガー{next}番（{owner}）を解決します（アクティブプレイヤーが先、次にインアクティブプレイヤー）。"
            ),
            BadTriggerLine { line } => {
                format!("トリガーは「持ち主: ルールの文」の形で書いてください（「{line}」は読めません）。")
            }
            BadTriggerOrder { player } => {
                format!("{player}の新しい順番には、待っているトリガーをそれぞれ1回ずつ並べてください。")
            }
            NoSuchEffect { model, name } => format!(
                "{model}に「{}」という効果はありません。",
                super::effects::shown_name(name, Lang::Ja)
            ),
            NoSuchInstance { model, id } => format!("{model}に効果インスタンス{id}番はありません。"),
            UnknownPreset { key } => format!("「{key}」という効果のプリセットはありません。"),
            EmptyEffect => "効果には能力値の変化か「できない」フラグが必要です。".to_string(),
            TooManyEffects { model, max } => format!("{model}の効果インスタンスはすでに{max}個あります。"),
            TooManyRulings { max } => format!("このゲームの裁定はすでに{max}件あります。"),
            TooMany { what, max } => format!("{}は{max}件までです。", ja_what(what)),
            NotAMember { typed } => format!(
                "「{typed}」はDiscordのメンバーとして読めません。@を打って一覧からメンバーを選ぶ（メンションになります）か、ユーザーIDを指定してください。"
            ),
            TriggersWaiting { waiting } => format!(
                "待っているトリガーがあります（{}）。先に /wm-turn resolve で閉じてください。",
                waiting.join("、")
            ),
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

/// The Japanese for the few English nouns the errors carry.
fn ja_what(what: &str) -> &str {
    match what {
        "question" => "問題",
        "ruling" => "裁定",
        "rule text" => "ルールの文",
        "effect name" => "効果名",
        "name" => "名前",
        "triggers" => "待っているトリガー",
        other => other,
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

/// A short user text: trimmed, not empty, at most `max` characters.
pub(crate) fn text(what: &str, value: &str, max: usize) -> Result<String, RuleError> {
    let t = value.trim();
    if t.is_empty() {
        return Err(RuleError::EmptyText { what: what.into() });
    }
    if t.chars().count() > max {
        return Err(RuleError::TextTooLong {
            what: what.into(),
            max,
        });
    }
    Ok(t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_reads_in_both_languages() {
        let errors = [
            RuleError::OutOfRange {
                what: Quantity::Modifier,
                value: 30,
                min: -20,
                max: 20,
            },
            RuleError::DiscardTooMany { discard: 3, dice: 3 },
            RuleError::CannotBeatsMust {
                model: "Juggernaut".into(),
                flag: CannotFlag::Knockdown,
                carrier: FlagSource::ModelRule,
            },
            RuleError::AnyTimeAfterRun {
                model: "Tyrus".into(),
            },
            RuleError::TriggerOutOfOrder {
                id: 2,
                next: 1,
                owner: "Ana".into(),
            },
            RuleError::EmptyText {
                what: "question".into(),
            },
            RuleError::from(DiceError::FixedExhausted { rolled: 2 }),
        ];
        for e in errors {
            let en = e.localized(Lang::En);
            let ja = e.localized(Lang::Ja);
            assert!(!en.is_empty() && !ja.is_empty());
            assert_ne!(en, ja, "{en}");
            assert!(en.ends_with('.'), "{en}");
        }
        let r = RuleError::OutOfRange {
            what: Quantity::Discard,
            value: 9,
            min: 0,
            max: 5,
        };
        assert_eq!(
            r.localized(Lang::En),
            "The number of dice to discard must be between 0 and 5, not 9."
        );
        assert!(r.localized(Lang::Ja).contains("捨てるダイスの数"));
        assert!(
            RuleError::EmptyText {
                what: "question".into()
            }
            .localized(Lang::Ja)
            .starts_with("問題")
        );
    }

    #[test]
    fn range_and_text_checks_are_inclusive_and_trimmed() {
        assert!(check_range(Quantity::Modifier, 20, -20, 20).is_ok());
        assert!(check_range(Quantity::Modifier, -21, -20, 20).is_err());
        assert_eq!(text("question", "  LOS?  ", 5).unwrap(), "LOS?");
        assert!(matches!(
            text("question", "   ", 5),
            Err(RuleError::EmptyText { .. })
        ));
        assert!(matches!(
            text("question", "abcdef", 5),
            Err(RuleError::TextTooLong { max: 5, .. })
        ));
    }
}
