//! Shadowrun 4 outcomes as one line of `/session log`: hits against the threshold or the other
//! side, the verdict, glitches, damage in boxes (`hits 3 vs 1 → hit, 6P: 4 boxes`). The command
//! beside it already names who rolled against whom.

use engine::i18n::Lang;
use engine::systems::shadowrun4::character::DamageReport;
use engine::systems::shadowrun4::combat::AttackOutcome;
use engine::systems::shadowrun4::initiative::{InitiativeState, SurpriseOutcome};
use engine::systems::shadowrun4::magic::{DispelOutcome, DrainOutcome, SpellOutcome, SummonOutcome};
use engine::systems::shadowrun4::matrix::{CybercombatOutcome, HackOutcome};
use engine::systems::shadowrun4::resonance::{CompileOutcome, ThreadOutcome};
use engine::systems::shadowrun4::rigging::{
    BreakAwayOutcome, ChaseOutcome, CrashOutcome, CutOffOutcome, PositioningOutcome,
};
use engine::systems::shadowrun4::rules::glitch_text;
use engine::systems::shadowrun4::test_kinds::{
    ExtendedEnd, ExtendedOutcome, OpposedOutcome, SearchOutcome, SuccessOutcome, TeamworkOutcome,
};
use engine::systems::shadowrun4::{Character, DamageType, Glitch, PoolRoll, Rolled};

use super::embeds;
use crate::log_line::LogSummary;
use engine::odds::LuckInput;

fn hits(n: u32, lang: Lang) -> String {
    format!("{} {n}", lang.pick("hits", "ヒット"))
}

fn verdict(ok: bool, lang: Lang) -> &'static str {
    if ok {
        lang.pick("success", "成功")
    } else {
        lang.pick("failure", "失敗")
    }
}

/// `, ⚠️ GLITCH` when the roll glitched.
fn glitch(g: Glitch, lang: Lang) -> String {
    glitch_text(g, lang).map_or_else(String::new, |t| format!(", {t}"))
}

fn rolled_glitch(r: Option<&Rolled>, lang: Lang) -> String {
    glitch(r.map_or(Glitch::None, Rolled::glitch), lang)
}

/// `6P`, `4S`.
fn dv(value: u32, t: DamageType, lang: Lang) -> String {
    match (t, lang) {
        (DamageType::Physical, Lang::En) => format!("{value}P"),
        (DamageType::Stun, Lang::En) => format!("{value}S"),
        (DamageType::Physical, Lang::Ja) => format!("身体{value}"),
        (DamageType::Stun, Lang::Ja) => format!("精神{value}"),
    }
}

fn boxes(n: u32, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{n} box(es)"),
        Lang::Ja => format!("{n}ボックス"),
    }
}

/// `hits 3 vs 1 (net 2)`.
fn versus(a: u32, b: u32, net: i64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("hits {a} vs {b} (net {net})"),
        Lang::Ja => format!("ヒット{a}対{b}（純ヒット{net}）"),
    }
}

/// ` · drain 4S: 2 box(es)`.
fn drain(d: &DrainOutcome, word: (&str, &str), lang: Lang) -> String {
    format!(
        " · {} {}: {}{}",
        lang.pick(word.0, word.1),
        dv(d.value, d.damage_type, lang),
        boxes(d.boxes, lang),
        rolled_glitch(d.roll.as_ref(), lang)
    )
}

fn interval_rolls(o: &ExtendedOutcome) -> Vec<&PoolRoll> {
    o.intervals.iter().map(|i| &i.roll).collect()
}

impl LogSummary for SuccessOutcome {
    fn luck(&self) -> Option<LuckInput> {
        super::luck::capped(self.rolled.as_ref()?, self.hit_cap, None, 0)
    }

    fn summary(&self, lang: Lang) -> String {
        let mut s = hits(self.hits, lang);
        if let Some(t) = self.threshold {
            s.push_str(&format!(" / {t}"));
        }
        if let Some(ok) = self.success {
            s.push_str(&format!(" → {}", verdict(ok, lang)));
        }
        s.push_str(&glitch(self.glitch, lang));
        if self.critical_success {
            s.push_str(lang.pick(", ✨ critical success", "、✨ クリティカル成功"));
        }
        s
    }
}

impl LogSummary for OpposedOutcome {
    fn luck(&self) -> Option<LuckInput> {
        super::luck::of(&self.actor, self.opponent.as_ref(), self.opponent_hits)
    }

    fn summary(&self, lang: Lang) -> String {
        format!(
            "{} → {}{}{}",
            versus(self.actor_hits, self.opponent_hits, self.net_hits, lang),
            embeds::opposed_words(self.result, lang),
            glitch(self.actor.glitch(), lang),
            rolled_glitch(self.opponent.as_ref(), lang)
        )
    }
}

impl LogSummary for ExtendedOutcome {
    /// The hits of every interval rolled, against the same number of rolls of the pool: the
    /// intervals it took are taken as given (a test that needed more of them is measured on
    /// more dice), so the chance is exact for that many rolls. Each interval alone would leave
    /// out the rest of the test; the number of intervals needed is a stopping time no pool
    /// distribution describes. (Stopping once the threshold is reached leans the total a
    /// little high for its number of rolls: the dice's luck, not the whole test's.)
    fn luck(&self) -> Option<LuckInput> {
        super::luck::summed(&interval_rolls(self), &[])
    }

    fn summary(&self, lang: Lang) -> String {
        let end = match self.end {
            ExtendedEnd::Reached => verdict(true, lang),
            ExtendedEnd::CriticalGlitch => lang.pick("💀 critical glitch", "💀 クリティカル・グリッチ"),
            ExtendedEnd::OutOfIntervals => lang.pick("out of intervals", "インターバル切れ"),
        };
        match lang {
            Lang::En => format!(
                "hits {}/{} in {} interval(s) → {end}",
                self.total_hits,
                self.threshold,
                self.intervals.len()
            ),
            Lang::Ja => format!(
                "ヒット{}/{}（{}インターバル）→ {end}",
                self.total_hits,
                self.threshold,
                self.intervals.len()
            ),
        }
    }
}

impl LogSummary for TeamworkOutcome {
    fn luck(&self) -> Option<LuckInput> {
        // The leader's roll; each assistant's dice are theirs.
        self.leader.luck()
    }

    fn summary(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!(
                "+{} dice from help · {}",
                self.bonus_dice,
                self.leader.summary(lang)
            ),
            Lang::Ja => format!("協力で+{}ダイス · {}", self.bonus_dice, self.leader.summary(lang)),
        }
    }
}

impl LogSummary for AttackOutcome {
    fn luck(&self) -> Option<LuckInput> {
        super::luck::of(&self.attack, self.defence.as_ref(), self.defence_hits)
    }

    fn summary(&self, lang: Lang) -> String {
        let mut s = versus(self.attack_hits, self.defence_hits, self.net_hits, lang);
        match (&self.damage, self.hit) {
            (Some(d), true) => s.push_str(&match lang {
                Lang::En => format!(
                    " → hit, {}: {}",
                    dv(d.modified_dv, d.damage_type, lang),
                    boxes(d.boxes, lang)
                ),
                Lang::Ja => format!(
                    " → 命中、{}：{}",
                    dv(d.modified_dv, d.damage_type, lang),
                    boxes(d.boxes, lang)
                ),
            }),
            (None, true) => s.push_str(&format!(" → {}", lang.pick("hit", "命中"))),
            (_, false) => s.push_str(&format!(" → {}", lang.pick("miss", "外れ"))),
        }
        s.push_str(&glitch(self.attack.glitch(), lang));
        s.push_str(&rolled_glitch(self.defence.as_ref(), lang));
        s
    }
}

impl LogSummary for SurpriseOutcome {
    /// The GM rolls everyone's surprise test in one row: the hits of all of them.
    fn luck(&self) -> Option<LuckInput> {
        let rolls: Vec<&PoolRoll> = self
            .rolls
            .iter()
            .filter_map(|r| r.roll.as_ref())
            .map(|r| &r.roll)
            .collect();
        super::luck::summed(&rolls, &[])
    }

    fn summary(&self, lang: Lang) -> String {
        if self.surprised.is_empty() {
            return lang.pick("nobody surprised", "不意打ちなし").into();
        }
        let names: Vec<String> = self
            .surprised
            .iter()
            .map(|s| format!("{} ({})", s.surprised, s.by))
            .collect();
        format!("{}: {}", lang.pick("surprised", "不意打ち"), names.join(", "))
    }
}

impl LogSummary for InitiativeState {
    /// The hits of every initiative roll this row made (score = Initiative + hits: the
    /// Initiative part is no luck), all the GM's. A next pass rolls nothing: no luck.
    fn luck(&self) -> Option<LuckInput> {
        let rolls: Vec<&PoolRoll> = self
            .entries
            .iter()
            .filter_map(|e| e.roll.as_ref())
            .map(|r| &r.roll)
            .collect();
        super::luck::summed(&rolls, &[])
    }

    fn summary(&self, lang: Lang) -> String {
        let order: Vec<String> = self
            .order()
            .iter()
            .map(|e| format!("{} {}", e.name, e.score))
            .collect();
        format!(
            "{}: {}",
            super::initiative::turn_label(self.turn, self.pass, lang),
            order.join(" → ")
        )
    }
}

impl LogSummary for SpellOutcome {
    /// The casting roll, hits capped at Force, against the resistance (or the threshold);
    /// the drain roll is the caster's too but a row has one luck: the cast decides the spell.
    fn luck(&self) -> Option<LuckInput> {
        let against = if self.opposed {
            self.resistance_hits
        } else {
            self.threshold.unwrap_or(0)
        };
        super::luck::capped(&self.cast, Some(self.force), self.resistance.as_ref(), against)
    }

    fn summary(&self, lang: Lang) -> String {
        let result = embeds::spell_result_words(self.result, lang);
        format!(
            "{} → {result}{}{}",
            versus(self.hits, self.resistance_hits, self.net_hits, lang),
            glitch(self.cast.glitch(), lang),
            drain(&self.drain, ("drain", "ドレイン"), lang)
        )
    }
}

impl LogSummary for SummonOutcome {
    fn luck(&self) -> Option<LuckInput> {
        super::luck::of(&self.summon, Some(&self.spirit), self.spirit_hits)
    }

    fn summary(&self, lang: Lang) -> String {
        let result = match (self.summoned, lang) {
            (true, Lang::En) => format!("summoned, {} service(s)", self.services),
            (true, Lang::Ja) => format!("召喚成功、奉仕{}", self.services),
            (false, _) => lang.pick("not summoned", "召喚失敗").into(),
        };
        format!(
            "{} → {result}{}",
            versus(self.summoner_hits, self.spirit_hits, self.net_hits, lang),
            drain(&self.drain, ("drain", "ドレイン"), lang)
        )
    }
}

impl LogSummary for DispelOutcome {
    fn luck(&self) -> Option<LuckInput> {
        super::luck::of(&self.dispel, Some(&self.opposition), self.opposition_hits)
    }

    fn summary(&self, lang: Lang) -> String {
        let mut s = format!(
            "{} → {} {}",
            versus(self.dispeller_hits, self.opposition_hits, self.net_hits, lang),
            lang.pick("hits removed", "除去ヒット"),
            self.hits_removed
        );
        if self.dispelled == Some(true) {
            s.push_str(lang.pick(", dispelled", "、解呪"));
        }
        s + &drain(&self.drain, ("drain", "ドレイン"), lang)
    }
}

impl LogSummary for DrainOutcome {
    fn luck(&self) -> Option<LuckInput> {
        super::luck::of(self.roll.as_ref()?, None, 0)
    }

    fn summary(&self, lang: Lang) -> String {
        drain(self, ("damage", "ダメージ"), lang)
            .trim_start_matches(" · ")
            .to_string()
    }
}

impl LogSummary for ThreadOutcome {
    /// The threading hits; those past the rating's ceiling raise nothing (no cap known in
    /// outcomes stored before it was kept).
    fn luck(&self) -> Option<LuckInput> {
        let cap = (self.max_rating > 0).then(|| self.max_rating.saturating_sub(self.base_rating));
        super::luck::capped(&self.thread, cap, None, 0)
    }

    fn summary(&self, lang: Lang) -> String {
        format!(
            "{} → {} {}→{}{}",
            hits(self.hits, lang),
            lang.pick("rating", "レーティング"),
            self.base_rating,
            self.rating,
            drain(&self.fading, ("fading", "フェイディング"), lang)
        )
    }
}

impl LogSummary for CompileOutcome {
    fn luck(&self) -> Option<LuckInput> {
        super::luck::of(&self.compile, Some(&self.sprite), self.sprite_hits)
    }

    fn summary(&self, lang: Lang) -> String {
        let result = match (self.compiled, lang) {
            (true, Lang::En) => format!("compiled, {} task(s)", self.tasks),
            (true, Lang::Ja) => format!("コンパイル成功、タスク{}", self.tasks),
            (false, _) => lang.pick("not compiled", "コンパイル失敗").into(),
        };
        format!(
            "{} → {result}{}",
            versus(self.technomancer_hits, self.sprite_hits, self.net_hits, lang),
            drain(&self.fading, ("fading", "フェイディング"), lang)
        )
    }
}

impl LogSummary for CybercombatOutcome {
    /// The attack against the defence; the resistance roll is the target's.
    fn luck(&self) -> Option<LuckInput> {
        super::luck::of(&self.attack, self.defence.as_ref(), self.defence_hits)
    }

    fn summary(&self, lang: Lang) -> String {
        let mut s = versus(self.attack_hits, self.defence_hits, self.net_hits, lang);
        if self.hit {
            s.push_str(&format!(
                " → {}, {}",
                lang.pick("hit", "命中"),
                boxes(self.boxes, lang)
            ));
        } else {
            s.push_str(&format!(" → {}", lang.pick("miss", "外れ")));
        }
        s
    }
}

impl LogSummary for HackOutcome {
    /// The hacker's hits over the passes made, less the node's over the passes it rolled (a
    /// node that critically glitched stops rolling): as an extended test, the number of rolls
    /// taken as given.
    fn luck(&self) -> Option<LuckInput> {
        let (mine, theirs) = (interval_rolls(&self.hacker), interval_rolls(&self.node));
        super::luck::summed(&mine, &theirs)
    }

    fn summary(&self, lang: Lang) -> String {
        let result = embeds::hack_result_words(self.result, lang);
        match lang {
            Lang::En => format!(
                "hits {}/{} vs {}/{} in {} pass(es) → {result}",
                self.hacker.total_hits,
                self.hacker.threshold,
                self.node.total_hits,
                self.node.threshold,
                self.passes
            ),
            Lang::Ja => format!(
                "ヒット{}/{}対{}/{}（{}パス）→ {result}",
                self.hacker.total_hits,
                self.hacker.threshold,
                self.node.total_hits,
                self.node.threshold,
                self.passes
            ),
        }
    }
}

impl LogSummary for SearchOutcome {
    fn luck(&self) -> Option<LuckInput> {
        match self {
            SearchOutcome::Open(s) => s.luck(),
            SearchOutcome::Hidden(o) => o.luck(),
        }
    }

    fn summary(&self, lang: Lang) -> String {
        let body = match self {
            SearchOutcome::Open(s) => s.summary(lang),
            SearchOutcome::Hidden(o) => o.summary(lang),
        };
        match self.found() {
            Some(true) => format!("{body} · {}", lang.pick("found", "発見")),
            Some(false) => format!("{body} · {}", lang.pick("not found", "発見できず")),
            None => body,
        }
    }
}

impl LogSummary for CrashOutcome {
    fn luck(&self) -> Option<LuckInput> {
        self.test.as_ref()?.luck()
    }

    fn summary(&self, lang: Lang) -> String {
        let result = if self.crashed {
            lang.pick("crashed", "クラッシュ")
        } else {
            lang.pick("kept control", "制御を保った")
        };
        match &self.test {
            Some(t) => format!("{} → {result}", t.summary(lang)),
            None => result.into(),
        }
    }
}

impl LogSummary for ChaseOutcome {
    fn luck(&self) -> Option<LuckInput> {
        self.test.luck()
    }

    fn summary(&self, lang: Lang) -> String {
        format!(
            "{} → {}: {} · {}",
            versus(
                self.test.actor_hits,
                self.test.opponent_hits,
                self.test.net_hits,
                lang
            ),
            lang.pick("winner", "勝者"),
            embeds::chase_winner_words(self.winner, lang),
            embeds::band(self.band, lang)
        )
    }
}

impl LogSummary for BreakAwayOutcome {
    fn luck(&self) -> Option<LuckInput> {
        self.test.luck()
    }

    fn summary(&self, lang: Lang) -> String {
        let result = if self.escaped {
            lang.pick("escaped", "離脱成功")
        } else {
            lang.pick("still chased", "離脱失敗")
        };
        format!("{} / {} → {result}", hits(self.successes, lang), self.threshold)
    }
}

impl LogSummary for PositioningOutcome {
    fn luck(&self) -> Option<LuckInput> {
        self.test.luck()
    }

    fn summary(&self, lang: Lang) -> String {
        match lang {
            Lang::En => format!("{} → +{} dice", self.test.summary(lang), self.bonus),
            Lang::Ja => format!("{} → +{}ダイス", self.test.summary(lang), self.bonus),
        }
    }
}

impl LogSummary for CutOffOutcome {
    /// The opposed test; a crash test that follows is the loser's, whoever that is.
    fn luck(&self) -> Option<LuckInput> {
        self.test.luck()
    }

    fn summary(&self, lang: Lang) -> String {
        let mut s = self.test.summary(lang);
        if self.crashed {
            s.push_str(lang.pick(" · crashed", " · クラッシュ"));
        }
        s
    }
}

impl LogSummary for DamageReport {
    fn summary(&self, lang: Lang) -> String {
        let (before, after) = match self.damage_type {
            DamageType::Physical => (self.physical_before, self.physical_after),
            DamageType::Stun => (self.stun_before, self.stun_after),
        };
        format!(
            "{} {}: {before} → {after}",
            dv(self.boxes, self.damage_type, lang),
            lang.pick("applied", "適用")
        )
    }
}

/// Cheating death (burning Edge): the character as it stands after.
impl LogSummary for Character {
    fn summary(&self, lang: Lang) -> String {
        lang.pick(
            "cheated death: a point of Edge burnt",
            "死を免れた：エッジを1点燃やした",
        )
        .into()
    }
}
