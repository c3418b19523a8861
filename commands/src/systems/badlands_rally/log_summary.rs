//! Badlands Rally outcomes as one line of `/session log`: the check's result, the attack's
//! margin and what it did to the gears, an action's or collision's changes, the race's order.

use engine::i18n::Lang;
use engine::systems::badlands_rally::damage::DamageOutcome;
use engine::systems::badlands_rally::race::{
    ActionOutcome, ActionReport, CollisionReport, DamageReport, InitiativeOutcome, RaceAttackReport, Victory,
};
use engine::systems::badlands_rally::roll::{CheckOutcome, RollOutcome};
use engine::systems::badlands_rally::state::Change;
use engine::systems::badlands_rally::tables::{ScenarioOutcome, UpgradeOutcome};

use super::embeds;
use crate::log_line::LogSummary;
use engine::odds::{LuckInput, LuckRoll};

/// ` · Bob: 2 damage, …` when a gear changed.
fn changed(name: &str, changes: &[Change], lang: Lang) -> String {
    if changes.is_empty() {
        String::new()
    } else {
        format!(" · {name}: {}", embeds::changes_text(changes, lang))
    }
}

fn margin(m: Option<i32>, lang: Lang) -> String {
    embeds::margin_text(m, lang)
        .trim_start_matches('#')
        .trim()
        .to_string()
}

impl LogSummary for RollOutcome {
    fn luck(&self) -> Option<LuckInput> {
        (!self.automatic_failure).then(|| LuckInput {
            roll: LuckRoll::RallyRoll {
                rating: self.rating.value(),
                dice: self.dice.len() as u32,
            },
            observed: i64::from(self.successes),
        })
    }

    fn summary(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!("{} success(es) at {}+", self.successes, self.rating.value()),
            Lang::Ja => format!("成功{}（{}+）", self.successes, self.rating.value()),
        }
    }
}

impl LogSummary for CheckOutcome {
    fn luck(&self) -> Option<LuckInput> {
        (!self.automatic_failure).then(|| LuckInput {
            roll: LuckRoll::RallyCheck {
                rating: self.rating.value(),
                dice: self.dice.len() as u32,
            },
            observed: i64::from(self.result),
        })
    }

    fn summary(&self, lang: Lang) -> String {
        let mut s = match lang {
            Lang::En => format!("result {} at {}+", self.result, self.rating.value()),
            Lang::Ja => format!("結果{}（{}+）", self.result, self.rating.value()),
        };
        if self.automatic_failure {
            s.push_str(lang.pick(" (automatic failure)", "（自動失敗）"));
        }
        s
    }
}

impl LogSummary for DamageOutcome {
    /// The damage dice, 4+ a hit, a 6 two with Heat: the generic notation's `t4` (`ds6`). No
    /// dice (MOS + modifier 0 or less), no luck.
    fn luck(&self) -> Option<LuckInput> {
        let n = self.dice.len();
        (n > 0).then(|| LuckInput {
            roll: LuckRoll::Notation {
                expression: format!("{n}d6t4{}", if self.heat { "ds6" } else { "" }),
            },
            observed: i64::from(self.damage),
        })
    }

    fn summary(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!("MOS {} → {} damage", self.mos, self.damage),
            Lang::Ja => format!("MOS {} → {}ダメージ", self.mos, self.damage),
        }
    }
}

impl LogSummary for RaceAttackReport {
    fn luck(&self) -> Option<LuckInput> {
        // The attack check against the defence: the margin, for the attacker.
        let (a, d) = (self.attack.attack.as_ref()?, self.attack.defence.as_ref()?);
        if a.automatic_failure {
            return None;
        }
        Some(LuckInput {
            roll: LuckRoll::RallyAttack {
                rating: a.rating.value(),
                dice: a.dice.len() as u32,
                defence_rating: d.rating.value(),
                defence_dice: d.dice.len() as u32,
            },
            observed: i64::from(self.attack.margin?),
        })
    }

    fn summary(&self, lang: Lang) -> String {
        let mut s = margin(self.attack.margin, lang);
        s.push_str(&changed(
            lang.pick("defender", "防御側"),
            &self.defender_changes,
            lang,
        ));
        s.push_str(&changed(
            lang.pick("attacker", "攻撃側"),
            &self.attacker_changes,
            lang,
        ));
        for (id, changes, _) in &self.adjacent {
            s.push_str(&changed(id, changes, lang));
        }
        s
    }
}

impl LogSummary for DamageReport {
    fn luck(&self) -> Option<LuckInput> {
        self.damage.luck()
    }

    fn summary(&self, lang: Lang) -> String {
        let mut s = self.damage.summary(lang);
        s.push_str(&changed(lang.pick("target", "対象"), &self.changes, lang));
        if let Some((id, changes)) = &self.attacker {
            s.push_str(&changed(id, changes, lang));
        }
        s
    }
}

impl LogSummary for ActionReport {
    /// The action's own roll: Burn rubber's, the jump's or off-road's successes, the recovery
    /// die. A spin-out's dice (turns, skid) have no better or worse for the gear; a spin-out or
    /// collision an action caused is another roll.
    fn luck(&self) -> Option<LuckInput> {
        match &self.outcome {
            ActionOutcome::BurnRubber(o) => o.roll.luck(),
            ActionOutcome::Jump(o) => o.roll.luck(),
            ActionOutcome::OffRoad(r) => r.luck(),
            ActionOutcome::Recover(o) => o.die.map(|d| LuckInput {
                roll: LuckRoll::Notation {
                    expression: "1d6".into(),
                },
                observed: i64::from(d),
            }),
            _ => None,
        }
    }

    fn summary(&self, lang: Lang) -> String {
        let mut s = embeds::action_view("", self, lang).headline();
        s.push_str(&changed(lang.pick("gear", "ギア"), &self.changes, lang));
        if let Some(c) = &self.collision {
            s.push_str(&format!(" · {}", c.summary(lang)));
        }
        s
    }
}

impl LogSummary for CollisionReport {
    fn summary(&self, lang: Lang) -> String {
        let mut s = lang.pick("collision", "衝突").to_string();
        s.push_str(&changed(
            lang.pick("moving", "移動側"),
            &self.moving_changes,
            lang,
        ));
        s.push_str(&changed(
            lang.pick("struck", "衝突された側"),
            &self.struck_changes,
            lang,
        ));
        s
    }
}

impl LogSummary for InitiativeOutcome {
    fn summary(&self, lang: Lang) -> String {
        let order: Vec<String> = self
            .order
            .iter()
            .map(|e| format!("{} {}", e.id, e.score))
            .collect();
        format!("{}: {}", lang.pick("order", "順番"), order.join(" → "))
    }
}

impl LogSummary for Victory {
    fn summary(&self, lang: Lang) -> String {
        embeds::victory_text(self, lang).unwrap_or_else(|| lang.pick("no winner yet", "勝者なし").into())
    }
}

impl LogSummary for ScenarioOutcome {
    fn summary(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!("{}, {} lap(s)", self.scenario.name(lang), self.laps),
            Lang::Ja => format!("{}、{}ラップ", self.scenario.name(lang), self.laps),
        }
    }
}

impl LogSummary for UpgradeOutcome {
    fn summary(&self, lang: Lang) -> String {
        format!("{} → {}", self.die, self.upgrade.name(lang))
    }
}

#[cfg(test)]
#[path = "log_summary_tests.rs"]
mod tests;
