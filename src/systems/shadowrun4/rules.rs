//! Shadowrun 4 in the registry: its names, sheet, `/roll` dialect (BCDice's ShadowRun4 `nB6` /
//! `nR6`), house options and the state a session keeps.

use serde_json::Value;

use super::dice::Glitch;
use super::error::RuleError;
use super::{bcdice, sheet};
use crate::i18n::Lang;
use crate::notation::RollOutcome;
use crate::systems::rules::{
    DialectReading, HouseOption, OFF_ON, RollDialect, SystemRules, Tone, check_state,
};
use crate::systems::sheet_error::SheetError;

pub struct Shadowrun4Rules;

/// Who applies an attack's damage to a character: its owner or the GM; with this on, the roller
/// too (a table that trusts its players). Off by default: one press must not kill another
/// player's character.
pub const ROLLER_APPLIES_DAMAGE: HouseOption = HouseOption {
    key: "sr.roller_applies_damage",
    values: &["off", "on"],
    value_text: OFF_ON,
    en: "The roller may apply damage to a character they do not own",
    ja: "ロールした人が他人のキャラクターにダメージを適用できる",
};

pub const OPTIONS: &[HouseOption] = &[ROLLER_APPLIES_DAMAGE, super::evenings::EDGE_REFRESH];

impl SystemRules for Shadowrun4Rules {
    fn name(&self, lang: Lang) -> &'static str {
        lang.pick("Shadowrun 4", "シャドウラン第4版")
    }

    fn edit_sheet(
        &self,
        current: &Value,
        fields: &[(String, String)],
        gm: bool,
    ) -> Result<Value, SheetError> {
        sheet::edit_as(current, fields, gm)
    }

    fn sheet_decl(&self) -> &'static crate::systems::sheet_decl::SheetDecl {
        &super::sheet_decl::DECL
    }

    fn describe_sheet(&self, sheet: &Value, lang: Lang) -> Vec<(String, String)> {
        sheet::describe(sheet, lang)
    }

    fn roll_dialect(&self) -> Option<&'static dyn RollDialect> {
        Some(&BcdiceShadowrun)
    }

    fn house_options(&self) -> &'static [HouseOption] {
        OPTIONS
    }

    fn check_state(&self, system_state: &Value) -> Result<(), SheetError> {
        check_state::<Shadowrun4State>(system_state)
    }

    fn typical_odds(&self) -> Result<crate::odds::Dist, crate::odds::OddsError> {
        super::odds::typical()
    }

    fn evenings(&self) -> &'static crate::systems::rules::Evenings {
        &super::evenings::EVENINGS
    }
}

/// The glitch as a headline, worst first (`None` for no glitch).
pub fn glitch_text(g: Glitch, lang: Lang) -> Option<&'static str> {
    match g {
        Glitch::None => None,
        Glitch::Glitch => Some(lang.pick("⚠️ GLITCH", "⚠️ グリッチ")),
        Glitch::Critical => Some(lang.pick("💀 CRITICAL GLITCH", "💀 クリティカル・グリッチ")),
    }
}

/// `/roll` in a Shadowrun channel: BCDice's ShadowRun4 defaults (`nB6` hits on 5+, `nR6`
/// rerolls sixes), and hits and glitches for each such line.
pub struct BcdiceShadowrun;

impl RollDialect for BcdiceShadowrun {
    fn rewrite(&self, input: &str) -> Option<String> {
        bcdice::command_form(input)
    }

    fn read(&self, outcome: &RollOutcome, lang: Lang) -> DialectReading {
        let mut reading = DialectReading::default();
        let mut worst = Glitch::None;
        for r in outcome.lines.iter().filter_map(bcdice::read_line) {
            let mut v = format!(
                "{} **{}** · 1: {}/{}",
                lang.pick("Hits", "ヒット"),
                r.hits,
                r.ones,
                r.dice
            );
            if let Some(g) = glitch_text(r.glitch, lang) {
                v.push_str(&format!(" · **{g}**"));
            }
            if r.glitch == Glitch::Critical || (r.glitch == Glitch::Glitch && worst == Glitch::None) {
                worst = r.glitch;
            }
            reading.fields.push(("Shadowrun".to_string(), v));
        }
        reading.headline = glitch_text(worst, lang).map(str::to_string);
        reading.tone = match worst {
            Glitch::None => None,
            Glitch::Glitch => Some(Tone::Warning),
            Glitch::Critical => Some(Tone::Critical),
        };
        reading
    }
}

/// Rolls whose Edge use is remembered (older ones fall off; their buttons are long gone).
pub const MAX_EDGE_ROLLS: usize = 200;

pub use super::session_state::Shadowrun4State;

impl Shadowrun4State {
    /// Record that Edge was used on roll `token`: refused if it already was (one use per roll,
    /// whichever of its buttons was pressed first).
    pub fn mark_edge_roll(&mut self, token: &str) -> Result<(), RuleError> {
        if self.edge_roll_used(token) {
            return Err(RuleError::EdgeAlreadyUsed);
        }
        self.edge_rolls.push(token.to_string());
        let extra = self.edge_rolls.len().saturating_sub(MAX_EDGE_ROLLS);
        self.edge_rolls.drain(..extra);
        Ok(())
    }

    /// Whether Edge was already used on roll `token`.
    pub fn edge_roll_used(&self, token: &str) -> bool {
        self.edge_rolls.iter().any(|t| t == token)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::rules::SessionState;

    #[test]
    fn edge_is_used_once_per_roll_and_old_rolls_fall_off() {
        let mut st = Shadowrun4State::default();
        st.mark_edge_roll("r1").unwrap();
        assert_eq!(st.mark_edge_roll("r1"), Err(RuleError::EdgeAlreadyUsed));
        for i in 0..MAX_EDGE_ROLLS {
            st.mark_edge_roll(&format!("x{i}")).unwrap();
        }
        assert_eq!(st.edge_rolls.len(), MAX_EDGE_ROLLS);
        assert!(!st.edge_roll_used("r1"), "the oldest fell off");
    }

    #[test]
    fn the_state_keeps_other_keys_and_reads_what_the_bot_stored() {
        let mut stored =
            json!({"race": {"laps": 3}, "shadowrun4": {"edge_rolls": ["a"], "initiative": {"pass": 2}}});
        let mut st = Shadowrun4State::read(&stored).unwrap();
        assert!(st.edge_roll_used("a"));
        assert_eq!(st.initiative.as_ref().unwrap()["pass"], 2);
        st.mark_edge_roll("b").unwrap();
        st.write(&mut stored);
        assert_eq!(stored["race"]["laps"], 3);
        assert_eq!(stored["shadowrun4"]["edge_rolls"], json!(["a", "b"]));
        assert!(
            Shadowrun4Rules
                .check_state(&json!({"shadowrun4": {"edge_rolls": 5}}))
                .is_err()
        );
    }

    #[test]
    fn the_dialect_reads_bcdice_lines_with_the_worst_glitch_first() {
        let d = Shadowrun4Rules.roll_dialect().unwrap();
        let expr = d.rewrite("4B6").unwrap();
        assert_eq!(expr, "4B6>=5");
        // Two 1s of four dice and no hit: a critical glitch.
        let out = crate::notation::evaluate(&expr, &mut FixedRoller::new(vec![1, 1, 2, 3])).unwrap();
        let r = d.read(&out, Lang::En);
        assert_eq!(r.tone, Some(Tone::Critical));
        assert_eq!(r.headline.as_deref(), Some("💀 CRITICAL GLITCH"));
        assert!(r.fields[0].1.contains("Hits **0**"), "{:?}", r.fields);
        let out = crate::notation::evaluate(&expr, &mut FixedRoller::new(vec![5, 6, 2, 3])).unwrap();
        assert_eq!(d.read(&out, Lang::Ja).tone, None);
    }
}
