//! Warmachine in the registry: its names, model sheets, house options and the state a session
//! keeps (`system_state.warmachine`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::attack::AttackOptions;
use super::sheet;
use super::state::WarmachineState;
use crate::i18n::Lang;
use crate::systems::rules::{
    HouseOption, OFF_ON, RollDialect, SessionState, SystemRules, check_state, house_value,
};
use crate::systems::sheet_error::SheetError;

pub struct WarmachineRules;

/// Every **option** decision of the rules file: item 8 / WG-7 (default on).
pub const OPTIONS: &[HouseOption] = &[
    HouseOption {
        key: "wm.auto_hit_miss",
        values: &["on", "off"],
        value_text: OFF_ON,
        en: "Automatic miss on all 1s, automatic hit on all 6s (two or more dice kept)",
        ja: "出目がすべて1なら自動失敗、すべて6なら自動命中（残したダイスが2個以上）",
    },
    ROLLER_APPLIES_DAMAGE,
];

/// `/wm damage` typed onto a model lands by the hand of whoever commands that model (its
/// controller, its owner) or the GM; with this on, the roller's too.
pub const ROLLER_APPLIES_DAMAGE: HouseOption = HouseOption {
    key: "wm.roller_applies_damage",
    values: &["off", "on"],
    value_text: OFF_ON,
    en: "/wm damage: the roller may apply it to a model they do not command",
    ja: "/wm damage：ロールした人が指示できないモデルにも適用できる",
};

/// The attack options a server's house settings choose.
pub fn attack_options(house: &BTreeMap<String, String>) -> AttackOptions {
    AttackOptions {
        auto_hit_miss: house_value(OPTIONS, house, "wm.auto_hit_miss") != Some("off"),
    }
}

impl SystemRules for WarmachineRules {
    fn name(&self, lang: Lang) -> &'static str {
        lang.pick("Warmachine", "ウォーマシン")
    }

    fn edit_sheet(
        &self,
        current: &Value,
        fields: &[(String, String)],
        _gm: bool,
    ) -> Result<Value, SheetError> {
        sheet::edit(current, fields)
    }

    /// Issue 29: in a session the model is named in refusals and its controller is a member.
    fn edit_entry(
        &self,
        name: &str,
        current: &Value,
        fields: &[(String, String)],
        _gm: bool,
        _system_state: &Value,
    ) -> Result<Value, SheetError> {
        sheet::edit_entry(name, current, fields)
    }

    fn sheet_decl(&self) -> &'static crate::systems::sheet_decl::SheetDecl {
        &super::sheet_decl::DECL
    }

    fn describe_sheet(&self, sheet: &Value, lang: Lang) -> Vec<(String, String)> {
        sheet::describe(sheet, lang)
    }

    /// Warmachine rolls are 2d6 sums: the generic notation reads them as they are.
    fn roll_dialect(&self) -> Option<&'static dyn RollDialect> {
        None
    }

    fn house_options(&self) -> &'static [HouseOption] {
        OPTIONS
    }

    fn check_state(&self, system_state: &Value) -> Result<(), SheetError> {
        check_state::<WarmachineState>(system_state)?;
        WarmachineState::read(system_state)?
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

    use super::*;

    #[test]
    fn the_option_defaults_on_and_off_turns_it_off() {
        let mut house = BTreeMap::new();
        assert!(attack_options(&house).auto_hit_miss);
        house.insert("wm.auto_hit_miss".to_string(), "off".to_string());
        assert!(!attack_options(&house).auto_hit_miss);
        house.insert("wm.auto_hit_miss".to_string(), "sometimes".to_string());
        assert!(
            attack_options(&house).auto_hit_miss,
            "an unknown value keeps the default"
        );
        assert_eq!(OPTIONS[0].default_value(), "on");
    }

    #[test]
    fn check_state_reads_types_and_sense() {
        let r = WarmachineRules;
        assert!(r.check_state(&json!({"warmachine": {"rulings": []}})).is_ok());
        assert!(r.check_state(&json!({"warmachine": {"rulings": 3}})).is_err());
        let e = r
            .check_state(&json!({"warmachine": {"game": {"players": ["Ana", "Ben"], "round": 1, "turn": 4}}}))
            .unwrap_err();
        assert!(!e.en.is_empty() && !e.ja.is_empty());
        assert!(r.check_state(&json!([1])).is_err());
        assert_eq!(r.name(Lang::Ja), "ウォーマシン");
    }
}
