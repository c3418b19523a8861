//! The d20 mecha game in the registry: its names, unit sheet, `/roll` reading (natural 20s on a
//! d20, criticals on d6 damage), the house options of the rules file's §4 and its state.

use std::collections::BTreeMap;

use serde_json::Value;

use super::initiative::InitiativeMode;
use super::sheet;
use super::state::MechaState;
use super::survival::DEFAULT_ESCAPE_TARGET;
use crate::i18n::Lang;
use crate::notation::{Kind, RollOutcome, Status};
use crate::systems::rules::{
    DialectReading, HouseOption, OFF_ON, RollDialect, SystemRules, Tone, check_state, house_value,
};
use crate::systems::sheet_error::SheetError;

pub struct MechaD20Rules;

/// The rules file's options (§4), each with its default first.
pub const OPTIONS: &[HouseOption] = &[
    HouseOption {
        key: "mecha.initiative_mode",
        values: &["all_pilots", "leaders"],
        value_text: &[
            ("all_pilots", "Every pilot rolls", "全パイロットが判定"),
            ("leaders", "Squad leaders only", "隊長機のみ"),
        ],
        en: "Initiative: every pilot rolls (ties by the next-lowest total), or squad leaders only",
        ja: "イニシアチブ：全パイロットが判定（同値は次に小さい達成値で）か、隊長機のみ",
    },
    HouseOption {
        key: "mecha.escape_target",
        values: &[
            "20", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "21", "22", "23", "24", "25",
            "26", "27", "28", "29", "30",
        ],
        value_text: &[],
        en: "Escape check target (our own rule: d20 + escape device ≥ target)",
        ja: "脱出判定の目標値（独自ルール：d20＋脱出装置≧目標値）",
    },
    HouseOption {
        key: "mecha.faint_after_spirit",
        values: &["off", "on"],
        value_text: OFF_ON,
        en: "Ask for a faint check after spirit points are spent",
        ja: "精神ポイント消費後に気絶判定を求める",
    },
    RAW_DAMAGE_ON_OTHERS,
    super::evenings::REPAIR,
];

/// Who holds raw damage (`/mecha damage target:`) on a unit: its owner or the GM, or the owner
/// of an attacker that hit it this turn; with this on, any attacker's owner (a table that trusts
/// its players, as Shadowrun's `sr.roller_applies_damage`). Off by default (issue 33).
pub const RAW_DAMAGE_ON_OTHERS: HouseOption = HouseOption {
    key: "mecha.raw_damage_on_others",
    values: &["off", "on"],
    value_text: OFF_ON,
    en: "A player may hold raw damage (/mecha damage) on a unit they do not own without an attack that hit it this turn",
    ja: "プレイヤーが、このターンに命中した攻撃なしで他人のユニットに数値ダメージ（/mecha damage）を保留できる",
};

/// The options a server's house settings choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MechaOptions {
    pub initiative_mode: InitiativeMode,
    pub escape_target: i64,
    pub faint_after_spirit: bool,
    pub raw_damage_on_others: bool,
}

impl Default for MechaOptions {
    fn default() -> Self {
        MechaOptions {
            initiative_mode: InitiativeMode::AllPilots,
            escape_target: DEFAULT_ESCAPE_TARGET,
            faint_after_spirit: false,
            raw_damage_on_others: false,
        }
    }
}

pub fn options(house: &BTreeMap<String, String>) -> MechaOptions {
    let v = |k| house_value(OPTIONS, house, k);
    MechaOptions {
        initiative_mode: match v("mecha.initiative_mode") {
            Some("leaders") => InitiativeMode::Leaders,
            _ => InitiativeMode::AllPilots,
        },
        escape_target: v("mecha.escape_target")
            .and_then(|t| t.parse().ok())
            .unwrap_or(DEFAULT_ESCAPE_TARGET),
        faint_after_spirit: v("mecha.faint_after_spirit") == Some("on"),
        raw_damage_on_others: v("mecha.raw_damage_on_others") == Some("on"),
    }
}

impl SystemRules for MechaD20Rules {
    fn name(&self, lang: Lang) -> &'static str {
        lang.pick("d20 Mecha", "d20メカ")
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
        Some(&MechaDialect)
    }

    fn house_options(&self) -> &'static [HouseOption] {
        OPTIONS
    }

    fn check_state(&self, system_state: &Value) -> Result<(), SheetError> {
        check_state::<MechaState>(system_state)
    }

    fn typical_odds(&self) -> Result<crate::odds::Dist, crate::odds::OddsError> {
        super::odds::typical()
    }

    fn evenings(&self) -> &'static crate::systems::rules::Evenings {
        &super::evenings::EVENINGS
    }
}

/// `/roll` in a mecha channel: plain notation, with a natural 20 on a lone d20 and a critical
/// (every d6 alike, two or more) called out, as a check or a damage roll would.
pub struct MechaDialect;

impl RollDialect for MechaDialect {
    fn rewrite(&self, _input: &str) -> Option<String> {
        None
    }

    fn read(&self, outcome: &RollOutcome, lang: Lang) -> DialectReading {
        let mut reading = DialectReading::default();
        for line in outcome
            .lines
            .iter()
            .filter(|l| matches!(l.kind, Kind::Dice | Kind::Sum))
        {
            let kept = |sides: u32| -> Vec<u32> {
                line.groups
                    .iter()
                    .filter(|g| g.sides == sides)
                    .flat_map(|g| g.dice.iter().filter(|d| d.status == Status::Kept).map(|d| d.face))
                    .collect()
            };
            if kept(20) == [20] {
                reading.fields.push((
                    "d20".to_string(),
                    lang.pick("**NAT 20**", "**純粋な20**").to_string(),
                ));
                reading.headline = Some(lang.pick("NAT 20", "純粋な20").to_string());
            }
            let d6 = kept(6);
            if d6.len() >= 2 && d6.iter().all(|&f| f == d6[0]) {
                reading.fields.push((
                    lang.pick("Critical", "クリティカル").to_string(),
                    lang.pick(
                        "Every d6 alike: roll 1d20 on the secondary-damage table",
                        "d6がすべて同じ目：二次損害表を1d20で",
                    )
                    .to_string(),
                ));
                reading.headline = Some(lang.pick("💥 CRITICAL", "💥 クリティカル").to_string());
                reading.tone = Some(Tone::Critical);
            }
        }
        reading
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::rules::SessionState;

    #[test]
    fn house_options_choose_the_rules_and_unknown_values_keep_the_default() {
        let mut house = BTreeMap::new();
        assert_eq!(options(&house), MechaOptions::default());
        house.insert("mecha.initiative_mode".to_string(), "leaders".to_string());
        house.insert("mecha.escape_target".to_string(), "15".to_string());
        house.insert("mecha.faint_after_spirit".to_string(), "on".to_string());
        house.insert("mecha.raw_damage_on_others".to_string(), "on".to_string());
        let o = options(&house);
        assert_eq!(
            (
                o.initiative_mode,
                o.escape_target,
                o.faint_after_spirit,
                o.raw_damage_on_others
            ),
            (InitiativeMode::Leaders, 15, true, true)
        );
        house.insert("mecha.escape_target".to_string(), "99".to_string());
        house.insert("mecha.initiative_mode".to_string(), "dice".to_string());
        let o = options(&house);
        assert_eq!(
            (o.initiative_mode, o.escape_target),
            (InitiativeMode::AllPilots, 20)
        );
        assert_eq!(
            OPTIONS.iter().map(|o| o.default_value()).collect::<Vec<_>>(),
            ["all_pilots", "20", "off", "off", "full"]
        );
        assert_eq!(OPTIONS[1].values.len(), 21, "10 to 30");
    }

    #[test]
    fn the_state_reads_what_the_bot_stored_and_refuses_garbage() {
        let stored =
            json!({"race": {"laps": 3}, "mecha_d20": {"turn": 2, "phase": {"phase": "application"}}});
        let st = MechaState::read(&stored).unwrap();
        assert_eq!(st.turn, 2);
        assert!(MechaD20Rules.check_state(&stored).is_ok());
        assert!(
            MechaD20Rules
                .check_state(&json!({"mecha_d20": {"turn": "x"}}))
                .is_err()
        );
        assert!(MechaD20Rules.check_state(&json!(3)).is_err());
    }

    #[test]
    fn the_dialect_calls_natural_20s_and_criticals() {
        let d = MechaD20Rules.roll_dialect().unwrap();
        assert_eq!(d.rewrite("1d20+5"), None);
        let out = crate::notation::evaluate("1d20+5", &mut FixedRoller::new([20])).unwrap();
        assert_eq!(d.read(&out, Lang::En).headline.as_deref(), Some("NAT 20"));
        let out = crate::notation::evaluate("1d20+5", &mut FixedRoller::new([19])).unwrap();
        assert!(d.read(&out, Lang::En).headline.is_none());
        let out = crate::notation::evaluate("3d6+5", &mut FixedRoller::new([2, 2, 2])).unwrap();
        let r = d.read(&out, Lang::Ja);
        assert_eq!(r.tone, Some(Tone::Critical));
        assert!(r.fields[0].1.contains("二次損害表"));
        let out = crate::notation::evaluate("3d6+5", &mut FixedRoller::new([2, 2, 3])).unwrap();
        assert!(d.read(&out, Lang::En).tone.is_none());
        let out = crate::notation::evaluate("1d6+5", &mut FixedRoller::new([4])).unwrap();
        assert!(d.read(&out, Lang::En).tone.is_none(), "one die is never critical");
    }
}
