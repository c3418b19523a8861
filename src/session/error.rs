//! Why a session change was refused, in words a player understands.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::i18n::{Lang, Localized};

#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum SessionError {
    #[error("the session needs a name")]
    NameEmpty,
    #[error("a session name may have at most {max} characters")]
    NameTooLong { max: usize },
    #[error("names may not contain line breaks or control characters")]
    NameHasControl,
    #[error("an entry needs a name")]
    EntryNameEmpty,
    #[error("an entry name may have at most {max} characters")]
    EntryNameTooLong { max: usize },
    #[error("there is already an entry named {name}")]
    DuplicateEntry { name: String },
    #[error("there is no entry named {name}")]
    UnknownEntry { name: String },
    #[error("the roster is full ({max} entries)")]
    RosterFull { max: usize },
    #[error("an entry may carry at most {max} effects")]
    TooManyEffects { max: usize },
    #[error("an effect's name may have at most {max} characters and its note {note_max}")]
    EffectTooLong { max: usize, note_max: usize },
    #[error("an entry's stats must be a JSON object")]
    SheetNotObject,
    #[error("an entry's stats may take at most {max_bytes} bytes")]
    SheetTooLarge { max_bytes: usize },
    #[error("you are not a player in this session")]
    NotAPlayer,
    #[error("you already joined this session")]
    AlreadyJoined,
    #[error("the session is full ({max} players)")]
    TooManyPlayers { max: usize },
    #[error("only the GM or a server manager may do that")]
    NotGm,
    #[error("{name} belongs to someone else")]
    NotOwner { name: String },
    #[error("this session has ended")]
    Ended,
    #[error("there is no turn order yet")]
    NoTurnOrder,
    #[error("{name} appears twice in the turn order")]
    DuplicateInTurnOrder { name: String },
    #[error("unknown game system: {input}")]
    UnknownSystem { input: String },
    #[error("at most {max} house options")]
    TooManyHouseOptions { max: usize },
    #[error("house option names may have at most {key_max} characters and values {value_max}")]
    HouseOptionTooLong { key_max: usize, value_max: usize },
    /// A system's rules refused the change; both sentences were rendered by that system's own
    /// localized error, so any `Localized` error can travel through the store unchanged.
    #[error("{en}")]
    Rule { en: String, ja: String },
}

impl SessionError {
    /// Carry a system's localized rule error through code that speaks `SessionError`.
    pub fn rule(error: &impl Localized) -> SessionError {
        SessionError::Rule {
            en: error.localized(Lang::En),
            ja: error.localized(Lang::Ja),
        }
    }
}

impl Localized for SessionError {
    fn localized(&self, lang: Lang) -> String {
        use SessionError as E;
        match (self, lang) {
            (E::NameEmpty, Lang::En) => "The session needs a name.".into(),
            (E::NameEmpty, Lang::Ja) => "セッション名を入力してください。".into(),
            (E::NameTooLong { max }, Lang::En) => {
                format!("A session name may have at most {max} characters.")
            }
            (E::NameTooLong { max }, Lang::Ja) => format!("セッション名は{max}文字までです。"),
            (E::NameHasControl, Lang::En) => {
                "Names may not contain line breaks or control characters.".into()
            }
            (E::NameHasControl, Lang::Ja) => "名前に改行や制御文字は使えません。".into(),
            (E::EntryNameEmpty, Lang::En) => "The entry needs a name.".into(),
            (E::EntryNameEmpty, Lang::Ja) => "名前を入力してください。".into(),
            (E::EntryNameTooLong { max }, Lang::En) => {
                format!("An entry name may have at most {max} characters.")
            }
            (E::EntryNameTooLong { max }, Lang::Ja) => format!("名前は{max}文字までです。"),
            (E::DuplicateEntry { name }, Lang::En) => {
                format!("There is already an entry named “{name}”.")
            }
            (E::DuplicateEntry { name }, Lang::Ja) => format!("「{name}」はすでに登録されています。"),
            (E::UnknownEntry { name }, Lang::En) => format!("There is no entry named “{name}”."),
            (E::UnknownEntry { name }, Lang::Ja) => format!("「{name}」は登録されていません。"),
            (E::RosterFull { max }, Lang::En) => {
                format!("The roster is full: at most {max} entries.")
            }
            (E::RosterFull { max }, Lang::Ja) => format!("登録できるのは{max}件までです。"),
            (E::TooManyEffects { max }, Lang::En) => {
                format!("An entry may carry at most {max} effects.")
            }
            (E::TooManyEffects { max }, Lang::Ja) => format!("効果は1件につき{max}個までです。"),
            (E::EffectTooLong { max, note_max }, Lang::En) => {
                format!("An effect's name may have at most {max} characters and its note {note_max}.")
            }
            (E::EffectTooLong { max, note_max }, Lang::Ja) => {
                format!("効果の名前は{max}文字、メモは{note_max}文字までです。")
            }
            (E::SheetNotObject, Lang::En) => "The stats must be a set of named values.".into(),
            (E::SheetNotObject, Lang::Ja) => "能力値は名前と値の組で指定してください。".into(),
            (E::SheetTooLarge { max_bytes }, Lang::En) => {
                format!("The stats are too large (at most {max_bytes} bytes).")
            }
            (E::SheetTooLarge { max_bytes }, Lang::Ja) => {
                format!("能力値のデータが大きすぎます（{max_bytes}バイトまで）。")
            }
            (E::NotAPlayer, Lang::En) => "You are not a player in this session.".into(),
            (E::NotAPlayer, Lang::Ja) => "あなたはこのセッションの参加者ではありません。".into(),
            (E::AlreadyJoined, Lang::En) => "You already joined this session.".into(),
            (E::AlreadyJoined, Lang::Ja) => "すでにこのセッションに参加しています。".into(),
            (E::TooManyPlayers { max }, Lang::En) => {
                format!("The session is full: at most {max} players.")
            }
            (E::TooManyPlayers { max }, Lang::Ja) => format!("参加者は{max}人までです。"),
            (E::NotGm, Lang::En) => "Only the GM or a server manager may do that.".into(),
            (E::NotGm, Lang::Ja) => "この操作はGMかサーバー管理者のみ行えます。".into(),
            (E::NotOwner { name }, Lang::En) => {
                format!("“{name}” belongs to someone else; only they or the GM may change it.")
            }
            (E::NotOwner { name }, Lang::Ja) => {
                format!("「{name}」は他の人のものです。変更できるのは本人かGMだけです。")
            }
            (E::Ended, Lang::En) => "This session has ended.".into(),
            (E::Ended, Lang::Ja) => "このセッションは終了しています。".into(),
            (E::NoTurnOrder, Lang::En) => "There is no turn order yet.".into(),
            (E::NoTurnOrder, Lang::Ja) => "手番の順番がまだ決まっていません。".into(),
            (E::DuplicateInTurnOrder { name }, Lang::En) => {
                format!("“{name}” appears twice in the turn order.")
            }
            (E::DuplicateInTurnOrder { name }, Lang::Ja) => {
                format!("「{name}」が手番の順番に2回含まれています。")
            }
            (E::UnknownSystem { input }, Lang::En) => format!("Unknown game system “{input}”."),
            (E::UnknownSystem { input }, Lang::Ja) => format!("「{input}」というシステムはありません。"),
            (E::TooManyHouseOptions { max }, Lang::En) => {
                format!("A server may set at most {max} house options.")
            }
            (E::TooManyHouseOptions { max }, Lang::Ja) => {
                format!("ハウスルールの設定は{max}個までです。")
            }
            (E::HouseOptionTooLong { key_max, value_max }, Lang::En) => format!(
                "A house option's name may have at most {key_max} characters and its value {value_max}."
            ),
            (E::HouseOptionTooLong { key_max, value_max }, Lang::Ja) => {
                format!("ハウスルールの名前は{key_max}文字、値は{value_max}文字までです。")
            }
            (E::Rule { en, .. }, Lang::En) => en.clone(),
            (E::Rule { ja, .. }, Lang::Ja) => ja.clone(),
        }
    }
}

impl From<crate::systems::UnknownSystem> for SessionError {
    fn from(e: crate::systems::UnknownSystem) -> Self {
        SessionError::UnknownSystem { input: e.input }
    }
}
