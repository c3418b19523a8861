//! Terminator Genisys in the registry: its names, character sheet, the house options of the
//! rules file's §5 (keys `term.*`, default first) and its session state.

use serde_json::Value;

pub use super::options::{OPTIONS, TerminatorOptions, options};
use super::sheet;
use super::state::TerminatorState;
use crate::i18n::Lang;
use crate::systems::rules::{HouseOption, RollDialect, SessionState, SystemRules};
use crate::systems::sheet_error::SheetError;

pub struct TerminatorRules;

impl SystemRules for TerminatorRules {
    fn name(&self, lang: Lang) -> &'static str {
        lang.pick("Terminator Genisys", "ターミネーター ジェニシス")
    }

    fn edit_sheet(
        &self,
        current: &Value,
        fields: &[(String, String)],
        _gm: bool,
    ) -> Result<Value, SheetError> {
        sheet::edit(current, fields)
    }

    /// The session's own profiles and weapons count (looked up before §2's).
    fn edit_sheet_in(
        &self,
        current: &Value,
        fields: &[(String, String)],
        _gm: bool,
        system_state: &Value,
    ) -> Result<Value, SheetError> {
        let state = TerminatorState::read_or_default(system_state);
        sheet::edit_with(current, fields, &state.library())
    }

    fn sheet_decl(&self) -> &'static crate::systems::sheet_decl::SheetDecl {
        &super::sheet_decl::DECL
    }

    fn describe_sheet(&self, sheet: &Value, lang: Lang) -> Vec<(String, String)> {
        sheet::describe(sheet, lang)
    }

    /// Plain notation: the game's rolls are its own commands.
    fn roll_dialect(&self) -> Option<&'static dyn RollDialect> {
        None
    }

    fn house_options(&self) -> &'static [HouseOption] {
        OPTIONS
    }

    fn check_state(&self, system_state: &Value) -> Result<(), SheetError> {
        crate::systems::rules::check_state::<TerminatorState>(system_state)?;
        TerminatorState::read(system_state)?
            .validate()
            .map_err(|e| SheetError::from_localized(&e))
    }

    fn typical_odds(&self) -> Result<crate::odds::Dist, crate::odds::OddsError> {
        super::odds::typical()
    }

    fn evenings(&self) -> &'static crate::systems::rules::Evenings {
        &super::evenings::EVENINGS
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use std::collections::BTreeMap;

    use super::*;
    use crate::systems::terminator::dice::{Die, FateDie, FateFace};

    #[test]
    fn house_options_choose_the_rules_and_unknown_values_keep_the_default() {
        let mut house = BTreeMap::new();
        assert_eq!(options(&house), TerminatorOptions::default());
        assert_eq!(
            OPTIONS.iter().map(|o| o.default_value()).collect::<Vec<_>>(),
            ["1,1,2,2,FATE,FATE", "D8", "off"]
        );
        house.insert("term.fate_faces".to_string(), "1,2,2,2,FATE,FATE".to_string());
        house.insert("term.tactical_die".to_string(), "D6".to_string());
        house.insert("term.ibb_carry_over".to_string(), "on".to_string());
        let o = options(&house);
        assert_eq!(o.fate.faces[1], FateFace::Two);
        assert_eq!((o.tactical_die, o.carry_over), (Die::D6, true));
        house.insert("term.tactical_die".to_string(), "D100".to_string());
        house.insert("term.fate_faces".to_string(), "6,6,6,6,6,6".to_string());
        let o = options(&house);
        assert_eq!((o.tactical_die, o.fate), (Die::D8, FateDie::default()));
        for o in OPTIONS {
            for v in o.values {
                match o.key {
                    "term.fate_faces" => assert!(FateDie::parse(v).is_ok(), "{v}"),
                    "term.tactical_die" => assert!(Die::parse(v).is_ok(), "{v}"),
                    _ => {}
                }
            }
        }
    }

    #[test]
    fn the_registry_entry_reads_sheets_and_state() {
        let r = TerminatorRules;
        assert_eq!(r.name(Lang::Ja), "ターミネーター ジェニシス");
        let f = crate::systems::sheet::parse_fields("side=Skynet profile=Endoskeleton").unwrap();
        let v = r.edit_sheet(&json!({}), &f, false).unwrap();
        assert!(
            r.describe_sheet(&v, Lang::En)
                .iter()
                .any(|(_, l)| l.contains("Mindless"))
        );
        assert!(r.sheet_decl().gm_only("done") && !r.sheet_decl().gm_only("skill"));
        // A session profile counts for an entry of that session, not outside it.
        let mut st = TerminatorState::default();
        st.define_profile(
            "Hunter",
            &crate::systems::sheet::parse_fields("armour=7 skill=d10").unwrap(),
        )
        .unwrap();
        let mut state = json!({});
        st.write(&mut state);
        let f = crate::systems::sheet::parse_fields("side=Skynet model=Hunter").unwrap();
        let v = r.edit_sheet_in(&json!({}), &f, true, &state).unwrap();
        assert_eq!(v["stats"]["armour"], 7);
        assert!(r.edit_sheet(&json!({}), &f, true).is_err());
        assert!(r.check_state(&json!(3)).is_err());
        assert!(r.check_state(&json!({"terminator": null})).is_ok());
    }
}
