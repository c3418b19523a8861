//! d20 mecha outcomes as one line of `/session log`: attack against evasion and the damage it
//! holds, a check's total, the application phase, the answers to escape, fatigue and faint.

use engine::i18n::Lang;
use engine::systems::mecha_d20::attack::StrikeOutcome;
use engine::systems::mecha_d20::check::Check;
use engine::systems::mecha_d20::damage::DamageOutcome;
use engine::systems::mecha_d20::initiative::InitiativeOutcome;
use engine::systems::mecha_d20::secondary::SecondaryRoll;
use engine::systems::mecha_d20::state::{ApplicationOutcome, PromptAnswer};

use super::embeds;
use crate::log_line::LogSummary;
use engine::odds::luck::mecha_strike_score;
use engine::odds::{LuckInput, LuckRoll};

fn damage(n: u32, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{n} damage"),
        Lang::Ja => format!("{n}ダメージ"),
    }
}

impl LogSummary for StrikeOutcome {
    fn luck(&self) -> Option<LuckInput> {
        // The attack against the evasion, for the attacker (the damage is the hit's own roll).
        let a = &self.attack;
        let (attack, evasion) = (a.attack.base(), a.evasion.base());
        Some(LuckInput {
            roll: LuckRoll::MechaStrike { attack, evasion },
            observed: mecha_strike_score(attack, evasion, a.attack.die, a.evasion.die),
        })
    }

    fn summary(&self, lang: Lang) -> String {
        let a = &self.attack;
        let verdict = if a.hit {
            lang.pick("hit", "命中")
        } else {
            lang.pick("evaded", "回避")
        };
        let mut s = format!(
            "{} → {} · {}: {} vs {} → {verdict}",
            self.attacker, self.target, self.weapon, a.attack.total, a.evasion.total
        );
        if a.attack.natural_20 {
            s.push_str(lang.pick(" (natural 20)", "（純粋な20）"));
        }
        if let Some(d) = &self.damage {
            s.push_str(&format!(", {}", damage(d.damage, lang)));
        }
        s
    }
}

impl LogSummary for DamageOutcome {
    fn luck(&self) -> Option<LuckInput> {
        Some(LuckInput {
            roll: LuckRoll::MechaDamage {
                request: engine::systems::mecha_d20::damage::DamageRequest {
                    power: self.power,
                    armour: self.armour,
                    multiplier: self.multiplier,
                },
            },
            observed: i64::from(self.damage),
        })
    }

    fn summary(&self, lang: Lang) -> String {
        embeds::damage_line(self, lang)
    }
}

impl LogSummary for SecondaryRoll {
    fn summary(&self, lang: Lang) -> String {
        embeds::secondary_line(self, lang)
    }
}

impl LogSummary for ApplicationOutcome {
    fn summary(&self, lang: Lang) -> String {
        let mut s = match lang {
            Lang::En => format!(
                "turn {}: {} damage {} applied",
                self.turn,
                self.entries.len(),
                if self.entries.len() == 1 {
                    "entry"
                } else {
                    "entries"
                }
            ),
            Lang::Ja => format!("ターン{}：ダメージ{}件を適用", self.turn, self.entries.len()),
        };
        if !self.destroyed.is_empty() {
            s.push_str(&format!(
                " · {}: {}",
                lang.pick("destroyed", "撃破"),
                self.destroyed.join(", ")
            ));
        }
        s
    }
}

/// A check's d20 (its parts only move the total; a natural 20, the best face, is the best).
pub fn check_luck(check: &Check) -> LuckInput {
    LuckInput {
        roll: LuckRoll::Notation {
            expression: "1d20".into(),
        },
        observed: i64::from(check.die),
    }
}

impl LogSummary for PromptAnswer {
    /// Escape, fatigue or faint: the pilot's d20.
    fn luck(&self) -> Option<LuckInput> {
        let check = match self {
            PromptAnswer::Escape(o) => &o.check,
            PromptAnswer::Fatigue(o) => &o.check,
            PromptAnswer::Faint(o) => &o.check,
        };
        Some(check_luck(check))
    }

    fn summary(&self, lang: Lang) -> String {
        // The embed's field bolds the result; a log line is plain text (the export's pages show
        // it as it is).
        embeds::answer_view("", self, lang, "")
            .fields
            .first()
            .map(|(_, v, _)| v.replace("**", ""))
            .unwrap_or_default()
    }
}

impl LogSummary for InitiativeOutcome {
    fn summary(&self, lang: Lang) -> String {
        format!("{}: {}", lang.pick("order", "順番"), self.order.join(" → "))
    }
}

#[cfg(test)]
#[path = "log_summary_tests.rs"]
mod tests;
