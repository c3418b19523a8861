//! The free-form system: a session with no rules module. Sheets keep whole numbers and short
//! texts; `/roll` is the generic notation; there are no house options and no system state.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::rules::{HouseOption, RollDialect, SystemRules};
use super::sheet_decl::{Free, SheetDecl, SheetOption};
use super::sheet_error::SheetError;
use crate::i18n::Lang;

/// Free-form rules under a name.
pub struct FreeForm {
    pub en: &'static str,
    pub ja: &'static str,
}

pub const GENERIC: FreeForm = FreeForm {
    en: "Generic",
    ja: "汎用",
};

/// A free-form value: a whole number when it reads as one, else text.
fn value_of(v: &str) -> Value {
    v.parse::<i64>()
        .map(Value::from)
        .unwrap_or_else(|_| Value::from(v))
}

/// Fields applied over `current`; an empty value removes the field.
pub fn edit(current: &Value, fields: &[(String, String)]) -> Value {
    let mut map: Map<String, Value> = current.as_object().cloned().unwrap_or_default();
    for (k, v) in fields {
        if v.is_empty() {
            map.remove(k);
        } else {
            map.insert(k.clone(), value_of(v));
        }
    }
    Value::Object(map)
}

/// Free-form sheets declare no field: any `name=number` or short text, written back as typed.
pub static DECL: SheetDecl = SheetDecl {
    example: "hp=12 note=warjack",
    option: SheetOption {
        ja: "シート",
        add: ("hp=12 note=scout", "体力=12 メモ=偵察"),
        edit: ("hp-=3", "体力-=3"),
    },
    fields: &[],
    weapons: None,
    free: Some(Free {
        help: (
            "Any name: a whole number or a short text (an empty value removes it; `hp-=3` subtracts).",
            "どんな名前でも可: 整数か短い文字列（空の値で削除、`hp-=3` で3減らす）。",
        ),
        example: "hp=12 note=warjack",
        stored: |sheet| describe(sheet),
    }),
};

/// Every field, sorted by name.
pub fn describe(sheet: &Value) -> Vec<(String, String)> {
    let map: BTreeMap<&String, &Value> = sheet.as_object().map(|m| m.iter().collect()).unwrap_or_default();
    map.into_iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_str().map_or_else(|| v.to_string(), str::to_string),
            )
        })
        .collect()
}

impl SystemRules for FreeForm {
    fn name(&self, lang: Lang) -> &'static str {
        lang.pick(self.en, self.ja)
    }

    fn edit_sheet(
        &self,
        current: &Value,
        fields: &[(String, String)],
        _gm: bool,
    ) -> Result<Value, SheetError> {
        Ok(edit(current, fields))
    }

    fn sheet_decl(&self) -> &'static SheetDecl {
        &DECL
    }

    fn describe_sheet(&self, sheet: &Value, _lang: Lang) -> Vec<(String, String)> {
        describe(sheet)
    }

    fn roll_dialect(&self) -> Option<&'static dyn RollDialect> {
        None
    }

    fn house_options(&self) -> &'static [HouseOption] {
        &[]
    }

    /// Free-form sessions keep no state of their own; any object (or none) reads.
    fn check_state(&self, system_state: &Value) -> Result<(), SheetError> {
        if system_state.is_null() || system_state.is_object() {
            Ok(())
        } else {
            Err(SheetError::new(
                "A free-form session's state must be an object.",
                "汎用セッションの状態はオブジェクトである必要があります。",
            ))
        }
    }

    /// Free-form rolls are `/roll`'s generic notation: its odds are `/odds roll`'s.
    fn typical_odds(&self) -> Result<crate::odds::Dist, crate::odds::OddsError> {
        crate::odds::roll_odds("2d6").map(|o| o.dist)
    }

    /// A free-form sheet is whatever the table wrote: all of it stays.
    fn evenings(&self) -> &'static crate::systems::rules::Evenings {
        &EVENINGS
    }
}

static EVENINGS: crate::systems::rules::Evenings = crate::systems::rules::Evenings {
    carries: &[(
        "every sheet as the table left it",
        "すべてのシートを前回の終わりのまま",
    )],
    resets: &[],
    goes_on: &[],
    game: None,
    usual: crate::systems::rules::NextGame::New,
    fight_apart: false,
    sheet: crate::systems::rules::Evenings::unchanged,
    state: crate::systems::rules::Evenings::unchanged,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn free_form_sheets_keep_numbers_and_text_and_remove_empty_values() {
        let s = GENERIC
            .edit_sheet(
                &Value::Object(Map::new()),
                &kv(&[("def", "13"), ("arm", "15"), ("note", "warjack")]),
                false,
            )
            .unwrap();
        assert_eq!(s["def"], 13);
        assert_eq!(s["note"], "warjack");
        let s = GENERIC
            .edit_sheet(&s, &kv(&[("def", "14"), ("note", "")]), false)
            .unwrap();
        assert_eq!(s["def"], 14);
        assert!(s.get("note").is_none());
        assert_eq!(
            GENERIC.describe_sheet(&s, Lang::En),
            vec![
                ("arm".to_string(), "15".to_string()),
                ("def".to_string(), "14".to_string())
            ]
        );
        assert!(GENERIC.check_state(&serde_json::json!([1])).is_err());
    }

    /// Evening 1: Ana's free-form sheet takes damage, she is Blessed for 2 rounds and Cursed
    /// until removed, round 3; evening 2 has her whole sheet, the curse, no round.
    #[test]
    fn the_next_evening_carries_every_sheet_as_it_was() {
        use crate::session::{Actor, Effect, RosterEntry, Session, SystemId, TurnState};
        let mut s = Session::start(7, 8, "Night", SystemId::Generic, 1, 100).unwrap();
        s.id = 61;
        let sheet = GENERIC
            .edit_sheet(
                &Value::Object(Map::new()),
                &kv(&[("hp", "12"), ("note", "warjack")]),
                false,
            )
            .unwrap();
        let sheet = GENERIC.edit_sheet(&sheet, &kv(&[("hp", "7")]), false).unwrap();
        let mut ana = RosterEntry::new("Ana", 2).with_sheet(sheet.clone());
        for (name, rounds) in [("Blessed", Some(2)), ("Cursed", None)] {
            ana.effects.push(Effect {
                name: name.into(),
                note: String::new(),
                rounds,
            });
        }
        s.roster.push(ana);
        s.turn.round = 3;
        s.system_state = serde_json::json!({"clock": 4}).into();
        s.end(Actor::user(1), 200).unwrap();
        let two = s
            .next_evening(
                Actor::user(1),
                &Default::default(),
                crate::systems::rules::NextGame::New,
                300,
            )
            .unwrap();
        assert_eq!(
            two.roster[0].sheet,
            serde_json::json!({"hp": 7, "note": "warjack"})
        );
        let effects: Vec<&str> = two.roster[0].effects.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(effects, ["Cursed"]);
        assert_eq!(two.turn, TurnState::default());
        assert_eq!(two.system_state, serde_json::json!({"clock": 4}));
        assert_eq!((two.evening, two.campaign_id), (2, 61));
        assert!(EVENINGS.resets.is_empty() && !EVENINGS.carries.is_empty());
    }
}
