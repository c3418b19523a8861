//! Terminator Genisys outcomes as one line of `/session log`: who attacked whom and what each
//! target ended with; a raw roll's result; the turn's roll-off, Fate and end.

use engine::i18n::Lang;
use engine::systems::terminator::AttackReport;
use engine::systems::terminator::attack::{
    AttackRoll, DamageRoll, IllBeBackRoll, ResolutionRoll, SaveRoll, TargetRun,
};
use engine::systems::terminator::dice::{FateFace, LadderRoll, RollOff};
use engine::systems::terminator::turn::{EndTurnOutcome, FateOutcome};

use super::embeds;
use crate::log_line::LogSummary;
use engine::odds::{LuckInput, LuckRoll};

/// The attack roll's hits against every way its dice could fall.
fn attack_luck(a: &AttackRoll) -> Option<LuckInput> {
    Some(LuckInput {
        roll: LuckRoll::TerminatorAttack {
            die: a.die,
            rof: u32::try_from(a.faces.len()).ok()?,
            threshold: a.threshold,
        },
        observed: i64::from(a.hits),
    })
}

/// `Bob: 2 hits, 1 damaging, 💀 KILLED` (or `no hit`).
fn target_summary(t: &TargetRun, lang: Lang) -> String {
    if t.hits == 0 {
        return format!("{}: {}", t.name, lang.pick("no hit", "命中なし"));
    }
    let mut parts = vec![match lang {
        Lang::En => format!("{} hit(s)", t.hits),
        Lang::Ja => format!("命中{}", t.hits),
    }];
    if let Some(d) = &t.damage_roll {
        parts.push(match lang {
            Lang::En => format!("{} damaging", d.damaging),
            Lang::Ja => format!("ダメージ{}", d.damaging),
        });
    }
    // The I'll Be Back roll, whose face decides the badge after it.
    if let Some(r) = &t.ill_be_back {
        parts.push(match lang {
            Lang::En => format!("I'll Be Back d6 {} (5+)", r.face),
            Lang::Ja => format!("アイルビーバック d6 {}（5+）", r.face),
        });
    }
    parts.extend(embeds::target_badges(t, lang));
    format!("{}: {}", t.name, parts.join(", "))
}

impl LogSummary for AttackReport {
    fn luck(&self) -> Option<LuckInput> {
        // Once per attack: the row that finishes it (a stepped attack or one waiting for a die
        // is logged again as it goes on, with the same attack roll).
        if self.waiting.is_some() {
            return None;
        }
        attack_luck(self.run.attack.as_ref()?)
    }

    fn summary(&self, lang: Lang) -> String {
        let run = &self.run;
        let weapon = engine::systems::terminator::weapon::display_name(&run.request.weapon.name, lang);
        let head = format!("{} · {weapon}", run.request.attacker);
        if run.attack.is_none() {
            return format!("{head}: {}", lang.pick("declared", "宣言"));
        }
        let targets: Vec<String> = run.targets.iter().map(|t| target_summary(t, lang)).collect();
        format!("{head} → {}", targets.join(" · "))
    }
}

impl LogSummary for AttackRoll {
    fn luck(&self) -> Option<LuckInput> {
        attack_luck(self)
    }

    fn summary(&self, lang: Lang) -> String {
        embeds::attack_roll_line(self, lang)
    }
}

impl LogSummary for SaveRoll {
    fn summary(&self, lang: Lang) -> String {
        embeds::save_line(self, lang)
    }
}

impl LogSummary for DamageRoll {
    fn summary(&self, lang: Lang) -> String {
        embeds::damage_line(self, true, lang)
    }
}

impl LogSummary for ResolutionRoll {
    fn summary(&self, lang: Lang) -> String {
        embeds::resolution_line(self, lang)
    }
}

impl LogSummary for IllBeBackRoll {
    fn summary(&self, lang: Lang) -> String {
        embeds::ill_be_back_line(self, lang)
    }
}

impl LogSummary for LadderRoll {
    fn summary(&self, lang: Lang) -> String {
        let view = embeds::ladder_view(self, lang, "");
        format!("{}: {}", view.title, view.description)
    }
}

impl LogSummary for RollOff {
    fn summary(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!(
                "roll-off {} vs {}: {} wins",
                self.players[0], self.players[1], self.winner
            ),
            Lang::Ja => format!(
                "ロールオフ {} 対 {}：{}の勝ち",
                self.players[0], self.players[1], self.winner
            ),
        }
    }
}

impl LogSummary for FateOutcome {
    /// As the embed reads it: the die's face and what it counts as (`d6 4 → 2`), then what
    /// that lets the side do.
    fn summary(&self, lang: Lang) -> String {
        let then = match self.roll.result {
            FateFace::Fate if self.commanders.is_empty() => lang
                .pick(
                    "no commander: the impulse passes",
                    "コマンダーなし：インパルスは移る",
                )
                .to_string(),
            FateFace::Fate => match lang {
                Lang::En => format!("a commander activates ({})", self.commanders.join(", ")),
                Lang::Ja => format!("コマンダーがアクティベート（{}）", self.commanders.join("、")),
            },
            _ => match lang {
                Lang::En => format!("{} may take a Ready marker", self.allowance),
                Lang::Ja => format!("{}人がレディマーカー", self.allowance),
            },
        };
        let face = format!("d6 {} → {}", self.roll.face, self.roll.result.label(lang));
        match lang {
            Lang::En => format!("{}: Fate {face} · {then}", self.player),
            Lang::Ja => format!("{}：フェイト {face} · {then}", self.player),
        }
    }
}

impl LogSummary for EndTurnOutcome {
    fn summary(&self, lang: Lang) -> String {
        let mut s = match lang {
            Lang::En => format!("end of turn {}", self.turn),
            Lang::Ja => format!("ターン{}終了", self.turn),
        };
        if !self.recovered.is_empty() {
            s.push_str(&format!(
                " · {}: {}",
                lang.pick("no longer reeling", "リーリング終了"),
                self.recovered.join(", ")
            ));
        }
        s
    }
}
