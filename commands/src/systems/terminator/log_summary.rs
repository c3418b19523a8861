//! Terminator Genisys outcomes as one line of `/session log`: who attacked whom and what each
//! target ended with; a raw roll's result; the turn's roll-off, Fate and end.

use engine::i18n::Lang;
use engine::systems::terminator::attack::{
    AttackRoll, DamageRoll, IllBeBackRoll, ResolutionRoll, SaveRoll, Stage, TargetRun,
};
use engine::systems::terminator::dice::{FateFace, LadderRoll, RollOff};
use engine::systems::terminator::odds::resolution_score;
use engine::systems::terminator::turn::{EndTurnOutcome, FateOutcome};
use engine::systems::terminator::{AttackReport, dice::Die};

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

/// `count` dice of `die`, each at or over `at` a success: the generic notation's `NdStT`, measured
/// on the successes. None when no die can reach `at` (armour over the die): nothing was left to
/// chance.
fn counted(die: Die, count: usize, at: u32, successes: u32) -> Option<LuckInput> {
    (count > 0 && at <= die.sides()).then(|| LuckInput {
        roll: LuckRoll::Notation {
            expression: format!("{count}d{}t{at}", die.sides()),
        },
        observed: i64::from(successes),
    })
}

/// I'll Be Back dice, 5+ crawls on (item 31): the Crawlers they made.
fn ill_be_back_luck(rolls: &[IllBeBackRoll]) -> Option<LuckInput> {
    let crawls = rolls.iter().filter(|r| r.crawls).count() as u32;
    counted(Die::D6, rolls.len(), 5, crawls)
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
        // A run is logged again at every step, by whoever moved it on: only the row whose step
        // rolled the attack dice (the attacker's) carries them; the I'll Be Back press (the
        // killed target's owner) carries its own dice. The stepped saves, damage and tests stay
        // unmeasured: whoever presses Continue is not the one they favour.
        if self.rolled.contains(&Stage::AttackRoll) {
            attack_luck(self.run.attack.as_ref()?)
        } else if self.rolled.contains(&Stage::IllBeBack) {
            let rolls: Vec<IllBeBackRoll> = self.run.targets.iter().filter_map(|t| t.ill_be_back).collect();
            ill_be_back_luck(&rolls)
        } else {
            None
        }
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
    /// For the target: one D6 per hit, 4+ saves (item 15).
    fn luck(&self) -> Option<LuckInput> {
        counted(Die::D6, self.faces.len(), 4, self.saved)
    }

    fn summary(&self, lang: Lang) -> String {
        embeds::save_line(self, lang)
    }
}

impl LogSummary for DamageRoll {
    /// The power dice at or over the armour (item 17).
    fn luck(&self) -> Option<LuckInput> {
        counted(self.die, self.faces.len(), self.armour, self.damaging)
    }

    fn summary(&self, lang: Lang) -> String {
        embeds::damage_line(self, true, lang)
    }
}

impl LogSummary for ResolutionRoll {
    /// For the character tested: fewer Reeling results are better, a Retreat worst.
    fn luck(&self) -> Option<LuckInput> {
        let tests = self.faces.len() as u32 + self.skipped;
        (tests > 0).then(|| LuckInput {
            roll: LuckRoll::TerminatorResolution { die: self.die, tests },
            observed: resolution_score(self),
        })
    }

    fn summary(&self, lang: Lang) -> String {
        embeds::resolution_line(self, lang)
    }
}

impl LogSummary for IllBeBackRoll {
    fn luck(&self) -> Option<LuckInput> {
        ill_be_back_luck(std::slice::from_ref(self))
    }

    fn summary(&self, lang: Lang) -> String {
        embeds::ill_be_back_line(self, lang)
    }
}

impl LogSummary for LadderRoll {
    /// The successes against the number given, else the dice's total.
    fn luck(&self) -> Option<LuckInput> {
        match self.target {
            Some(t) => counted(self.die, self.faces.len(), t, self.successes),
            None => (!self.faces.is_empty()).then(|| LuckInput {
                roll: LuckRoll::Notation {
                    expression: format!("{}d{}", self.faces.len(), self.die.sides()),
                },
                observed: self.faces.iter().map(|&f| i64::from(f)).sum(),
            }),
        }
    }

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

#[cfg(test)]
#[path = "log_summary_tests.rs"]
mod tests;
