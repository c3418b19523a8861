//! Warmachine outcomes as one line of `/session log`: the attack's total against DEF, the
//! damage against ARM and the boxes marked, a roll-off's winner.

use engine::i18n::Lang;
use engine::systems::warmachine::DamageOutcome;
use engine::systems::warmachine::attack::AttackOutcome;
use engine::systems::warmachine::dice::D3;
use engine::systems::warmachine::model::ModelStatus;
use engine::systems::warmachine::state::Dispute;
use engine::systems::warmachine::turn::AnyTimeUse;

use super::combat::Applied;
use super::embeds::{self, PlainRoll};
use crate::log_line::LogSummary;
use engine::odds::{LuckInput, LuckRoll};

/// The kept dice's total against every way the same dice could fall (the luck of the roll; its
/// stats only move the total).
fn kept_dice(roll: &engine::systems::warmachine::dice::DiceRoll) -> Option<LuckInput> {
    Some(LuckInput {
        roll: LuckRoll::Warmachine {
            dice: u32::try_from(roll.dice.len()).ok()?,
            discard: roll.discard,
        },
        observed: roll.kept_total,
    })
}

fn status(s: ModelStatus, lang: Lang) -> String {
    embeds::status_badge(s, lang).map_or_else(String::new, |b| format!(", {}", b.replace("**", "")))
}

impl LogSummary for AttackOutcome {
    fn luck(&self) -> Option<LuckInput> {
        kept_dice(&self.roll)
    }

    fn summary(&self, lang: Lang) -> String {
        let verdict = match (self.hit, self.critical) {
            (true, true) => lang.pick("critical hit", "クリティカル命中"),
            (true, false) => lang.pick("hit", "命中"),
            (false, _) => lang.pick("miss", "外れ"),
        };
        format!(
            "{} → {}: {} vs DEF {} → {verdict}",
            self.attacker, self.target, self.total, self.def.value
        )
    }
}

impl LogSummary for DamageOutcome {
    fn luck(&self) -> Option<LuckInput> {
        kept_dice(&self.roll)
    }

    fn summary(&self, lang: Lang) -> String {
        let dealt = match lang {
            Lang::En => format!("{} damage", self.damage),
            Lang::Ja => format!("ダメージ{}", self.damage),
        };
        format!(
            "{} → {}: ARM {} → {dealt}, {} {}{}",
            self.attacker,
            self.target,
            self.arm.value,
            lang.pick("boxes", "ボックス"),
            embeds::boxes_text(self.boxes_after),
            status(self.status_after, lang)
        )
    }
}

/// Damage rolled on a session model but not marked (`apply:false`, a raw `arm:`): the boxes
/// it would leave, said as such; the Apply damage press marks them and logs its own line.
#[derive(serde::Serialize)]
#[serde(transparent)]
pub struct Unmarked<'a>(pub &'a DamageOutcome);

impl LogSummary for Unmarked<'_> {
    fn luck(&self) -> Option<LuckInput> {
        self.0.luck()
    }

    fn summary(&self, lang: Lang) -> String {
        let would = self.0.summary(lang);
        match lang {
            Lang::En => format!("{would} if applied (not marked until Apply damage)"),
            Lang::Ja => format!("{would}（適用した場合。「ダメージを適用」まで未記入）"),
        }
    }
}

impl LogSummary for PlainRoll {
    fn luck(&self) -> Option<LuckInput> {
        kept_dice(&self.roll)
    }

    fn summary(&self, lang: Lang) -> String {
        let mut s = format!("{} **{}**", lang.pick("total", "合計"), self.total);
        if let (Some(t), Some(ok)) = (self.target, self.success) {
            let verdict = if ok {
                lang.pick("success", "成功")
            } else {
                lang.pick("failure", "失敗")
            };
            s.push_str(&format!(" ({} {t}) → {verdict}", lang.pick("target", "目標")));
        }
        s
    }
}

impl LogSummary for D3 {
    /// A d6 halved, rounded up: each of 1–3 on two faces, a plain d3.
    fn luck(&self) -> Option<LuckInput> {
        Some(LuckInput {
            roll: LuckRoll::Notation {
                expression: "1d3".into(),
            },
            observed: i64::from(self.value),
        })
    }

    fn summary(&self, _lang: Lang) -> String {
        format!("d3 = {} (d6 {})", self.value, self.d6)
    }
}

impl LogSummary for Applied {
    fn summary(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!(
                "{} damage applied to {}: boxes {}{}",
                self.damage,
                self.target,
                embeds::boxes_text(self.boxes_after),
                status(self.status_after, lang)
            ),
            Lang::Ja => format!(
                "{}に{}ダメージを適用：ボックス {}{}",
                self.target,
                self.damage,
                embeds::boxes_text(self.boxes_after),
                status(self.status_after, lang)
            ),
        }
    }
}

impl LogSummary for Dispute {
    fn summary(&self, lang: Lang) -> String {
        let o = &self.roll_off;
        match lang {
            Lang::En => format!("roll-off \"{}\": {} wins", o.question, o.winner.name),
            Lang::Ja => format!("ロールオフ「{}」：{}の勝ち", o.question, o.winner.name),
        }
    }
}

/// Checklist 27: an "any time" rule the bot allowed goes into the log (no dice, no luck).
impl LogSummary for AnyTimeUse {
    fn summary(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!(
                "{}: {} (\"any time\", round {})",
                self.model, self.rule, self.round
            ),
            Lang::Ja => format!(
                "{}：{}（「いつでも」、{}ラウンド目）",
                self.model, self.rule, self.round
            ),
        }
    }
}

#[cfg(test)]
#[path = "log_summary_tests.rs"]
mod tests;
