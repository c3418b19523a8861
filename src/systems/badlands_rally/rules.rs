//! Badlands Rally in the registry: its names, gear sheets, house options and the race facts a
//! session keeps (`system_state.race`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::race::RaceOptions;
use super::sheet;
use super::state::RecoveryOrder;
use crate::i18n::Lang;
use crate::systems::rules::{HouseOption, OFF_ON, RollDialect, SystemRules, check_state, house_value};
use crate::systems::sheet_error::SheetError;

pub struct BadlandsRallyRules;

pub use super::race_facts::DEFAULT_LAPS;

/// Table options: recovery refills Hull first by default (the seed's rattled token goes once
/// Hull is back to 1); the seed's optional Gentlemen's Sport rule is off by default.
pub const OPTIONS: &[HouseOption] = &[
    HouseOption {
        key: "rally.recovery",
        values: &["hull_first", "structure_first"],
        value_text: &[
            ("hull_first", "Hull boxes first", "ハルのボックスから"),
            (
                "structure_first",
                "Structure boxes first",
                "ストラクチャーのボックスから",
            ),
        ],
        en: "Which boxes recovery refills first",
        ja: "回復で先に埋めるボックス",
    },
    HouseOption {
        key: "rally.gentlemens_sport",
        values: &["off", "on"],
        value_text: OFF_ON,
        en: "Gentlemen's Sport: no attacks in the first round",
        ja: "紳士のスポーツ：第1ラウンドは攻撃禁止",
    },
    ATTACKER_APPLIES_DAMAGE,
    super::evenings::REPAIR,
];

/// `/rally damage` with numbers the player types lands on a gear by its owner's or the GM's
/// hand; with this on, the attacking gear's player's too. (An `/rally attack` resolved by the
/// rules applies its damage as always.)
pub const ATTACKER_APPLIES_DAMAGE: HouseOption = HouseOption {
    key: "rally.attacker_applies_damage",
    values: &["off", "on"],
    value_text: OFF_ON,
    en: "/rally damage: the attacking gear's player may apply it to another's gear",
    ja: "/rally damage：攻撃側ギアのプレイヤーが他人のギアに適用できる",
};

impl SystemRules for BadlandsRallyRules {
    fn name(&self, lang: Lang) -> &'static str {
        lang.pick("Badlands Rally", "バッドランズ・ラリー")
    }

    fn edit_sheet(
        &self,
        current: &Value,
        fields: &[(String, String)],
        _gm: bool,
    ) -> Result<Value, SheetError> {
        sheet::edit(current, fields)
    }

    fn sheet_decl(&self) -> &'static crate::systems::sheet_decl::SheetDecl {
        &super::sheet_decl::DECL
    }

    fn describe_sheet(&self, sheet: &Value, lang: Lang) -> Vec<(String, String)> {
        sheet::describe(sheet, lang)
    }

    fn roll_dialect(&self) -> Option<&'static dyn RollDialect> {
        None
    }

    fn house_options(&self) -> &'static [HouseOption] {
        OPTIONS
    }

    fn check_state(&self, system_state: &Value) -> Result<(), SheetError> {
        check_state::<RaceFacts>(system_state)
    }

    fn typical_odds(&self) -> Result<crate::odds::Dist, crate::odds::OddsError> {
        super::odds::typical()
    }

    fn evenings(&self) -> &'static crate::systems::rules::Evenings {
        &super::evenings::EVENINGS
    }
}

/// The race options a server's house settings choose.
pub fn race_options(house: &BTreeMap<String, String>) -> RaceOptions {
    RaceOptions {
        recovery_order: match house_value(OPTIONS, house, "rally.recovery") {
            Some("structure_first") => RecoveryOrder::StructureFirst,
            _ => RecoveryOrder::HullFirst,
        },
        gentlemens_sport: house_value(OPTIONS, house, "rally.gentlemens_sport") == Some("on"),
    }
}

pub use super::race_facts::{RaceFacts, StoredContest};

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::systems::rules::SessionState;

    #[test]
    fn house_options_choose_the_race_options_and_unknown_values_keep_the_default() {
        let mut house = BTreeMap::new();
        assert_eq!(race_options(&house), RaceOptions::default());
        house.insert("rally.recovery".to_string(), "structure_first".to_string());
        house.insert("rally.gentlemens_sport".to_string(), "on".to_string());
        let o = race_options(&house);
        assert_eq!(o.recovery_order, RecoveryOrder::StructureFirst);
        assert!(o.gentlemens_sport);
        house.insert("rally.recovery".to_string(), "sideways".to_string());
        assert_eq!(race_options(&house).recovery_order, RecoveryOrder::HullFirst);
    }

    #[test]
    fn race_facts_read_what_the_bot_stored_and_default_to_two_laps() {
        assert_eq!(RaceFacts::read(&Value::Null).unwrap().laps, 2);
        let f = RaceFacts::read(&json!({"race": {"laps": 4, "pole": "Ana", "scenario": null}})).unwrap();
        assert_eq!((f.laps, f.pole.as_deref()), (4, Some("Ana")));
        assert!(
            BadlandsRallyRules
                .check_state(&json!({"race": {"laps": "x"}}))
                .is_err()
        );
    }
}
