//! What every game system tells the rest of Saikoro: the [`SystemRules`] trait each system
//! folder implements once, and the plain types it speaks in. The registry
//! ([`super::registry`]) maps each [`SystemId`](super::registry::SystemId) to one of these.
//!
//! No method has a default: a new system that forgets a piece does not compile.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::sheet_error::SheetError;
use crate::i18n::Lang;
use crate::notation::RollOutcome;
use crate::odds::{Dist, OddsError};
use crate::session::{ReadJson, WriteJson};

/// A house option a server's admins may set (`/config option`), with the value the rules use
/// when nobody set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HouseOption {
    /// Stored key, `<system prefix>.<name>` (`rally.recovery`): never rename one.
    pub key: &'static str,
    /// The values it takes; the first is the default.
    pub values: &'static [&'static str],
    /// What some of its values mean, `(value, English, Japanese)`, declared beside the option
    /// (`/config option`'s value autocomplete); a value left out (`20`, `D8`) speaks for itself.
    pub value_text: &'static [(&'static str, &'static str, &'static str)],
    pub en: &'static str,
    pub ja: &'static str,
}

/// The values of an `off` / `on` option.
pub const OFF_ON: &[(&str, &str, &str)] = &[("off", "Off", "オフ"), ("on", "On", "オン")];
/// The values of a between-evenings repair option.
pub const FULL_OR_NONE: &[(&str, &str, &str)] = &[
    ("full", "Full repair", "全修理"),
    ("none", "No repair: the damage carries", "修理なし（損傷が残る）"),
];

impl HouseOption {
    pub fn default_value(&self) -> &'static str {
        self.values[0]
    }

    pub fn describe(&self, lang: Lang) -> &'static str {
        lang.pick(self.en, self.ja)
    }

    /// What `value` means in `lang`, when the option says.
    pub fn value_meaning(&self, value: &str, lang: Lang) -> Option<&'static str> {
        self.value_text
            .iter()
            .find(|(v, _, _)| *v == value)
            .map(|(_, en, ja)| lang.pick(en, ja))
    }

    /// Its value in a server's `house` settings: the one set there when the option takes it,
    /// else the default.
    pub fn value_in<'a>(&self, house: &'a std::collections::BTreeMap<String, String>) -> &'a str {
        house
            .get(self.key)
            .map(String::as_str)
            .filter(|v| self.values.contains(v))
            .unwrap_or(self.default_value())
    }
}

/// A sheet field as help lists it: `key` and the other names it answers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetField {
    pub key: String,
    pub names: Vec<&'static str>,
}

impl SheetField {
    /// A declaration's fields with all their names, then the weapon slots.
    pub fn from_decl(decl: &crate::systems::sheet_decl::SheetDecl) -> Vec<SheetField> {
        let mut fields: Vec<SheetField> = decl
            .fields
            .iter()
            .map(|f| SheetField {
                key: f.key.to_string(),
                names: std::iter::once(f.ja)
                    .chain(f.names.iter().copied())
                    .filter(|n| *n != f.key)
                    .collect(),
            })
            .collect();
        if let Some(w) = &decl.weapons {
            fields.push(SheetField {
                key: format!("weapon1…weapon{}", w.max),
                names: vec!["w1"],
            });
        }
        fields
    }
}

/// How a result reads at a glance; the bot picks the colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tone {
    Neutral,
    Warning,
    Critical,
}

/// What a system adds to a generic `/roll` outcome it recognises: fields shown under the dice,
/// a headline before the title, and the tone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DialectReading {
    pub fields: Vec<(String, String)>,
    pub headline: Option<String>,
    pub tone: Option<Tone>,
}

/// A system's reading of `/roll` in its sessions and channels (Shadowrun: BCDice's `nB6`, hits
/// on 5+, glitches).
pub trait RollDialect: Sync {
    /// The expression to evaluate for what the player typed, when the system reads it its own
    /// way (`6B6` → `6B6>=5`); `None`: generic notation.
    fn rewrite(&self, input: &str) -> Option<String>;
    /// What the system reads in the rolled outcome.
    fn read(&self, outcome: &RollOutcome, lang: Lang) -> DialectReading;
}

/// One game system's rules as the session, `/char`, `/roll` and `/config` need them.
pub trait SystemRules: Sync {
    /// The name shown to people.
    fn name(&self, lang: Lang) -> &'static str;

    /// `current` with `fields` applied and validated; `gm`: the GM (or a server manager) edits.
    fn edit_sheet(&self, current: &Value, fields: &[(String, String)], gm: bool)
    -> Result<Value, SheetError>;

    /// [`edit_sheet`](Self::edit_sheet) for an entry of a session whose `system_state` may hold
    /// presets of its own (Terminator's session profiles and weapons). Default: the state is not
    /// read.
    fn edit_sheet_in(
        &self,
        current: &Value,
        fields: &[(String, String)],
        gm: bool,
        _system_state: &Value,
    ) -> Result<Value, SheetError> {
        self.edit_sheet(current, fields, gm)
    }

    /// [`edit_sheet_in`](Self::edit_sheet_in) for the roster entry `name` as `/char` edits it
    /// in a session: refusals may name the entry, and typed values may be held to what a
    /// session needs (Warmachine: a controller is a Discord member). Default: the same edit.
    fn edit_entry(
        &self,
        _name: &str,
        current: &Value,
        fields: &[(String, String)],
        gm: bool,
        system_state: &Value,
    ) -> Result<Value, SheetError> {
        self.edit_sheet_in(current, fields, gm, system_state)
    }

    /// The sheet, declared once: fields, names, ranges, help, weapon grammar (see
    /// [`SheetDecl`](super::sheet_decl::SheetDecl)); help, autocomplete, the GM-only check,
    /// the missing-field warning and the sheet file derive from it.
    fn sheet_decl(&self) -> &'static super::sheet_decl::SheetDecl;

    /// The sheet as `name: value` lines.
    fn describe_sheet(&self, sheet: &Value, lang: Lang) -> Vec<(String, String)>;

    /// How `/roll` reads in this system's channels; `None`: generic notation only.
    fn roll_dialect(&self) -> Option<&'static dyn RollDialect>;

    /// The house options the system reads, each with its default.
    fn house_options(&self) -> &'static [HouseOption];

    /// Whether a session's `system_state` reads as this system's state type (the store keeps
    /// it as JSON; see [`SessionState`]).
    fn check_state(&self, system_state: &Value) -> Result<(), SheetError>;

    /// Its exact odds (`/odds`), for a typical request: what its own entry point in its
    /// `odds.rs` computes (each takes its own request type; the bot's `/odds` page of the system
    /// calls it directly). The conformance test checks every system has odds that compute.
    fn typical_odds(&self) -> Result<Dist, OddsError>;

    /// What one evening of a campaign leaves to the next (issue 27): in words for `/help` and
    /// README, and as the two changes `Session::next_evening` applies.
    fn evenings(&self) -> &'static Evenings;
}

/// A server's house options, as [`Evenings`] reads them.
pub type House = std::collections::BTreeMap<String, String>;

/// What the GM says a campaign's next evening plays (each rules file's "Between evenings"): a
/// new game, or the unfinished one going on. Chosen per evening on `/session start`, because
/// only the table knows whether last week's battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NextGame {
    /// A new battle, race or scenario: the board resets.
    New,
    /// The unfinished game goes on as it was (Shadowrun: the same scenario, its fight over).
    Same,
    /// The unfinished game goes on in the middle of a fight: Shadowrun keeps initiative and the
    /// chase; in the other systems it is [`Same`](Self::Same), whose board carries whole.
    MidCombat,
}

impl NextGame {
    pub const ALL: [NextGame; 3] = [NextGame::New, NextGame::Same, NextGame::MidCombat];

    /// Stored in a button's payload: never rename one.
    pub fn key(self) -> &'static str {
        match self {
            NextGame::New => "new",
            NextGame::Same => "same",
            NextGame::MidCombat => "mid_combat",
        }
    }

    pub fn from_key(key: &str) -> Option<NextGame> {
        Self::ALL.into_iter().find(|n| n.key() == key)
    }

    /// Its Japanese name on `/セッション 開始 ゲーム:`.
    pub fn name_ja(self) -> &'static str {
        match self {
            NextGame::New => "新しく",
            NextGame::Same => "続き",
            NextGame::MidCombat => "戦闘の途中から",
        }
    }
}

/// What `Session::next_evening` hands each system: the house options, what the GM said the
/// evening plays, and when it starts (a Warmachine battle archived at a new one is dated).
#[derive(Debug, Clone, Copy)]
pub struct EveningStart<'a> {
    pub house: &'a House,
    pub next: NextGame,
    pub now_ms: i64,
}

/// What carries from one evening of a campaign to the next and what resets, per system. Every
/// system also keeps its roster, players, GM, names and house options, and starts a new game
/// with no turn order and without the effects that ran for a number of rounds; a game that goes
/// on keeps them ([`keeps_turn`](Self::keeps_turn)).
pub struct Evenings {
    /// What one game is called (`battle`, `戦闘`); `None` when the system has no game to go on
    /// with (free-form rolls), so an evening is not asked which.
    pub game: Option<(&'static str, &'static str)>,
    /// What a continuing evening plays when the GM does not say.
    pub usual: NextGame,
    /// Whether a fight ends with the evening even when the game goes on (Shadowrun's combat
    /// state), so that resuming mid-fight is a choice of its own.
    pub fight_apart: bool,
    /// What stays, one line each (English, Japanese).
    pub carries: &'static [(&'static str, &'static str)],
    /// What a new game starts fresh, one line each.
    pub resets: &'static [(&'static str, &'static str)],
    /// What still starts fresh when the game goes on (Shadowrun: the fight ended), one line each.
    pub goes_on: &'static [(&'static str, &'static str)],
    /// A roster entry's sheet as the next evening starts it.
    pub sheet: fn(&mut Value, &EveningStart),
    /// The session's `system_state` as the next evening starts it.
    pub state: fn(&mut Value, &EveningStart),
}

/// What every system carries to the next evening (`Session::next_evening`), before its own.
pub const EVENINGS_CARRY: (&str, &str) = (
    "the roster, the GM and players, their names, the house options; the log continues",
    "ロスター、GMとプレイヤー、名前、ハウスルール。ログは続く",
);
/// What every system starts afresh at a new game, before its own.
pub const EVENINGS_RESET: (&str, &str) = (
    "the turn order, and effects that ran for a number of rounds",
    "手番順と、ラウンド数の決まった効果",
);

impl Evenings {
    /// What carries, in `lang`: every system's first, then this system's.
    pub fn carries_in(&self, lang: Lang) -> Vec<&'static str> {
        std::iter::once(&EVENINGS_CARRY)
            .chain(self.carries)
            .map(|(en, ja)| lang.pick(en, ja))
            .collect()
    }

    /// What starts fresh, in `lang`: every system's first, then this system's.
    pub fn resets_in(&self, lang: Lang) -> Vec<&'static str> {
        std::iter::once(&EVENINGS_RESET)
            .chain(self.resets)
            .map(|(en, ja)| lang.pick(en, ja))
            .collect()
    }

    /// A sheet or state that carries unchanged.
    pub fn unchanged(_: &mut Value, _: &EveningStart) {}

    /// Whether the turn order, the round and the effects that run for rounds carry into an
    /// evening that plays `next`.
    pub fn keeps_turn(&self, next: NextGame) -> bool {
        match next {
            NextGame::New => false,
            NextGame::Same => !self.fight_apart,
            NextGame::MidCombat => true,
        }
    }

    /// What still starts fresh when the game goes on, in `lang`.
    pub fn goes_on_in(&self, lang: Lang) -> Vec<&'static str> {
        self.goes_on.iter().map(|(en, ja)| lang.pick(en, ja)).collect()
    }

    /// How the GM chooses what the evening plays, in `lang` (`/help`, README): `None` for a
    /// system with no game to go on with.
    pub fn choice_in(&self, lang: Lang) -> Option<String> {
        let (en, ja) = self.game?;
        Some(match lang {
            Lang::En => format!(
                "the GM says on `/session start campaign:continue game:` whether a new {en} begins \
                 (`new`) or the unfinished one goes on (`same`{}); unsaid: `{}`",
                if self.fight_apart {
                    "; `mid_combat` resumes its fight"
                } else {
                    ""
                },
                self.usual.key()
            ),
            Lang::Ja => format!(
                "GMが `/session start campaign:continue game:` で、新しい{ja}を始める（`{}`）か、\
                 終わっていない{ja}を続ける（`{}`{}）かを指定する。指定なし：`{}`",
                NextGame::New.name_ja(),
                NextGame::Same.name_ja(),
                if self.fight_apart {
                    format!("。`{}` で戦闘を再開", NextGame::MidCombat.name_ja())
                } else {
                    String::new()
                },
                self.usual.name_ja()
            ),
        })
    }

    /// The choices that mean something in this system: none without a game; mid-fight only
    /// where a fight ends with the evening otherwise.
    pub fn choices(&self) -> &'static [NextGame] {
        match (self.game, self.fight_apart) {
            (None, _) => &[],
            (Some(_), false) => &[NextGame::New, NextGame::Same],
            (Some(_), true) => &NextGame::ALL,
        }
    }
}

/// A system's typed session state, kept under its own key of `Session::system_state` (JSON in
/// the store; other keys are left alone). `Default` is a new session's state; a missing key
/// reads as the default.
pub trait SessionState: Serialize + DeserializeOwned + Default + Clone + Send + Sync + 'static {
    /// The key in `system_state` (`shadowrun4`, `race`): stored, never rename it.
    const KEY: &'static str;

    /// Read the state, or explain why it does not read; from a session's document, once per
    /// version of it (see `Doc`).
    fn read(system_state: &impl ReadJson) -> Result<Self, SheetError> {
        system_state.read_once(Self::read_value)
    }

    /// [`Self::read`] of a plain value.
    fn read_value(system_state: &Value) -> Result<Self, SheetError> {
        match system_state.get(Self::KEY) {
            None | Some(Value::Null) => Ok(Self::default()),
            Some(v) => serde::Deserialize::deserialize(v).map_err(|e| {
                SheetError::new(
                    format!("The session's stored game state does not read: {e}"),
                    format!("セッションに保存されたゲーム状態を読めません: {e}"),
                )
            }),
        }
    }

    /// Read the state; one that does not read counts as new (it was checked when written).
    fn read_or_default(system_state: &impl ReadJson) -> Self {
        Self::read(system_state).unwrap_or_default()
    }

    /// How many bytes `system_state` would serialize to once this state is written into it
    /// ([`Self::write`]), counted without building either: what a size limit checks before a
    /// write.
    fn written_len(&self, system_state: &Value) -> usize {
        use crate::session::json_len;
        let member = |key: &str, len: usize| json_len(&key).saturating_add(1).saturating_add(len);
        let others = system_state
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| k.as_str() != Self::KEY);
        // `{` members separated by `,` `}`.
        let (mut total, mut members) = (2usize, 1usize);
        for (k, v) in others {
            total = total.saturating_add(member(k, json_len(v)));
            members += 1;
        }
        total
            .saturating_add(members - 1)
            .saturating_add(member(Self::KEY, json_len(self)))
    }

    /// Store the state under its key, keeping whatever else `system_state` holds.
    fn write(&self, system_state: &mut impl WriteJson) {
        system_state.set_member(Self::KEY, serde_json::to_value(self).unwrap_or(Value::Null));
    }
}

/// [`SystemRules::check_state`] for a system whose state is `T`.
pub fn check_state<T: SessionState>(system_state: &Value) -> Result<(), SheetError> {
    if !(system_state.is_null() || system_state.is_object()) {
        return Err(SheetError::new(
            "The session's stored game state must be an object.",
            "セッションに保存されたゲーム状態はオブジェクトである必要があります。",
        ));
    }
    T::read(system_state).map(|_| ())
}

/// A house option's value in `house`, or its default; `None` for a key the table does not list.
pub fn house_value<'a>(
    options: &'static [HouseOption],
    house: &'a std::collections::BTreeMap<String, String>,
    key: &str,
) -> Option<&'a str> {
    options.iter().find(|o| o.key == key).map(|o| o.value_in(house))
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Serialize, Deserialize, Default, Clone)]
    struct Laps {
        laps: Vec<u32>,
        note: String,
    }

    impl SessionState for Laps {
        const KEY: &'static str = "race";
    }

    #[test]
    fn the_written_length_is_the_length_written() {
        let state = Laps {
            laps: vec![1, 22, 333],
            note: "“quoted” \"and\" escaped\n".into(),
        };
        for before in [
            Value::Null,
            json!({}),
            json!({ "race": { "laps": [9] } }),
            json!({ "alpha": [1, 2], "race": null, "zeta": { "k": "v" } }),
            json!({ "alpha": "only others" }),
        ] {
            let counted = state.written_len(&before);
            let mut written = before.clone();
            state.write(&mut written);
            assert_eq!(
                counted,
                serde_json::to_string(&written).unwrap().len(),
                "{before}"
            );
        }
    }
}
