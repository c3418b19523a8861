//! Warmachine results: every die (kept **bold**, discarded ~~struck~~, boost and additional dice
//! named), the total against DEF, HIT / MISS, CRITICAL and AUTOMATIC badges, each stat with the
//! effects that changed it and the instances that do not stack, boxes before → after with
//! DISABLED / DESTROYED, and the active player. Records are open (item 20): nothing here is
//! hidden from anyone.
//!
//! Here: dice, stat readings, badges and the plain rolls; `attack.rs` the attack and damage,
//! `rulings.rs` rulings and roll-offs, `effects.rs` effects and model lines, `turn.rs` the end of
//! a turn and closed triggers, `status.rs` the status board. Callers keep the `embeds::` paths.

mod attack;
mod effects;
mod rulings;
mod status;
mod turn;

pub use attack::{AttackShown, Marked, attack_view, damage_view};
pub use effects::{changed_stats, effects_lines, effects_view, expiry_text, model_line};
pub use rulings::{archived_view, rolloff_view, ruling_line, rulings_view};
pub use status::board_fields;
pub use turn::{closed_line, expired_lines, resolution_text, turn_end_view};

use engine::i18n::Lang;
use engine::systems::warmachine::dice::{D3, DiceRoll, DieSource};
use engine::systems::warmachine::effects::{StatReading, shown_name};
use engine::systems::warmachine::model::{Boxes, ModelStatus};
use serde::Serialize;

use crate::embeds::{EmbedView, colour, truncate};

/// A field value's cap (Discord's 1024).
pub(super) const FIELD: usize = 1024;

pub(super) fn signed(v: i64) -> String {
    if v < 0 {
        format!("−{}", -v)
    } else {
        format!("+{v}")
    }
}

/// Every die in roll order: kept bold, discarded struck; boost and additional dice named.
pub fn dice_text(roll: &DiceRoll, lang: Lang) -> String {
    let dice: Vec<String> = roll
        .dice
        .iter()
        .map(|d| {
            let face = if d.kept {
                format!("**{}**", d.value)
            } else {
                format!("~~{}~~", d.value)
            };
            match &d.source {
                DieSource::Base => face,
                DieSource::Boost => format!("{face}{}", lang.pick("(boost)", "（ブースト）")),
                DieSource::Additional(r) => format!("{face}(+{r})"),
            }
        })
        .collect();
    let mut out = format!("[{}]", dice.join(" "));
    if let Some(d) = roll.discard {
        let which = match d.which {
            engine::systems::warmachine::DiscardWhich::Lowest => lang.pick("lowest", "低い方から"),
            engine::systems::warmachine::DiscardWhich::Highest => lang.pick("highest", "高い方から"),
        };
        out.push_str(&match lang {
            Lang::En => format!(" · discard {which} {}", d.count),
            Lang::Ja => format!(" · {which}{}個捨てる", d.count),
        });
    }
    out
}

/// Notes under the dice: dice a "cannot" removed (item 11) and rules named twice (item 5).
pub fn dice_notes(roll: &DiceRoll, lang: Lang) -> Vec<String> {
    let mut out: Vec<String> = roll
        .removed
        .iter()
        .map(|r| format!("🚫 {}", r.describe(lang)))
        .collect();
    for d in &roll.duplicates_ignored {
        out.push(match lang {
            Lang::En => format!("↺ {d} named twice: one die only"),
            Lang::Ja => format!("↺ {d}は2回指定されています：ダイスは1個だけ"),
        });
    }
    out
}

/// `DEF 15 → **13** (Stationary #1 −2) · does not stack: Dark Shroud #3 −2 (#2 applies)`.
pub fn reading_text(r: &StatReading, lang: Lang) -> String {
    let mut out = if r.applied.is_empty() {
        format!("{} **{}**", r.stat.abbr(), r.value)
    } else {
        let changes: Vec<String> = r
            .applied
            .iter()
            .map(|a| {
                format!(
                    "{} #{} {}",
                    shown_name(&a.effect, lang),
                    a.instance,
                    signed(i64::from(a.delta))
                )
            })
            .collect();
        format!(
            "{} {} → **{}** ({})",
            r.stat.abbr(),
            r.base,
            r.value,
            changes.join(", ")
        )
    };
    if !r.not_stacked.is_empty() {
        let list: Vec<String> = r
            .not_stacked
            .iter()
            .map(|n| {
                let engine::systems::warmachine::effects::NotStackReason::SameName { applied_instance } =
                    n.reason;
                format!(
                    "{} #{} {} (#{applied_instance} {})",
                    shown_name(&n.effect, lang),
                    n.instance,
                    signed(i64::from(n.delta)),
                    lang.pick("applies", "を適用")
                )
            })
            .collect();
        out.push_str(&match lang {
            Lang::En => format!(" · does not stack: {}", list.join(", ")),
            Lang::Ja => format!(" · 累積しない: {}", list.join("、")),
        });
    }
    out
}

pub fn status_badge(s: ModelStatus, lang: Lang) -> Option<&'static str> {
    match s {
        ModelStatus::Ok => None,
        ModelStatus::Disabled => Some(lang.pick("**DISABLED**", "**ディスエイブル**")),
        ModelStatus::Destroyed => Some(lang.pick("**DESTROYED**", "**デストロイ**")),
    }
}

pub fn boxes_text(b: Boxes) -> String {
    format!("{}/{}", b.marked, b.total)
}

pub(super) fn active_line(active: &str, lang: Lang) -> String {
    if active.trim().is_empty() {
        return String::new();
    }
    match lang {
        Lang::En => format!("Active player: {active}"),
        Lang::Ja => format!("アクティブプレイヤー: {active}"),
    }
}

/// `/wm roll`: a plain roll of the game's dice.
#[derive(Debug, Clone, Serialize)]
pub struct PlainRoll {
    pub roll: DiceRoll,
    pub modifier: i32,
    pub total: i64,
    pub target: Option<i64>,
    pub success: Option<bool>,
}

pub fn roll_view(o: &PlainRoll, lang: Lang) -> EmbedView {
    let modifier = if o.modifier == 0 {
        String::new()
    } else {
        format!(" {}", signed(i64::from(o.modifier)))
    };
    let mut desc = vec![
        dice_text(&o.roll, lang),
        format!("{}{modifier} = **{}**", o.roll.kept_total, o.total),
    ];
    desc.extend(dice_notes(&o.roll, lang));
    let mut title = format!("🎲 {}", lang.pick("Roll", "ロール"));
    if let (Some(t), Some(ok)) = (o.target, o.success) {
        title.push_str(&format!(
            " — {} ({} {t})",
            if ok {
                lang.pick("SUCCESS", "成功")
            } else {
                lang.pick("FAILURE", "失敗")
            },
            lang.pick("target", "目標値")
        ));
    }
    EmbedView {
        title,
        description: desc.join("\n"),
        colour: match o.success {
            Some(true) => colour::SUCCESS,
            Some(false) => colour::FAILURE,
            None => colour::NEUTRAL,
        },
        fields: vec![],
        footer: None,
    }
}

pub fn d3_view(o: &D3, lang: Lang) -> EmbedView {
    EmbedView {
        title: format!("🎲 d3 = {}", o.value),
        description: match lang {
            Lang::En => format!("d6 {} → ⌈{} / 2⌉ = **{}**", o.d6, o.d6, o.value),
            Lang::Ja => format!("d6 {} → ⌈{} / 2⌉（端数切り上げ）= **{}**", o.d6, o.d6, o.value),
        },
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    }
}

/// As many whole lines as fit in `max` characters, then how many were left out and where to
/// find them: a long list is never cut mid-line, nor dropped without saying so.
pub fn fit_lines(lines: &[String], max: usize, more: &str, lang: Lang) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let left = lines.len() - i;
        let tail = match lang {
            Lang::En => format!("\n… {left} more ({more})"),
            Lang::Ja => format!("\n…ほか{left}件（{more}）"),
        };
        let sep = if out.is_empty() { "" } else { "\n" };
        let room = max.saturating_sub(if left > 1 { tail.chars().count() } else { 0 });
        if out.chars().count() + sep.len() + line.chars().count() > room {
            if out.is_empty() {
                out.push_str(tail.trim_start_matches('\n'));
            } else {
                out.push_str(&tail);
            }
            if out.chars().count() > max {
                return truncate(&out, max);
            }
            return out;
        }
        out.push_str(sep);
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lists_keep_whole_lines_and_say_how_many_are_left() {
        let lines: Vec<String> = (0..100)
            .map(|i| format!("line {i:03} {}", "x".repeat(40)))
            .collect();
        let out = fit_lines(&lines, 1024, "/wm-ruling list", Lang::En);
        assert!(out.chars().count() <= 1024, "{}", out.len());
        assert!(out.starts_with("line 000"));
        let last = out.lines().last().unwrap();
        assert!(
            last.starts_with("… ") && last.ends_with("more (/wm-ruling list)"),
            "{last}"
        );
        let shown = out.lines().count() - 1;
        assert_eq!(last, format!("… {} more (/wm-ruling list)", 100 - shown));
        let few = fit_lines(&lines[..2], 1024, "x", Lang::Ja);
        assert_eq!(few.lines().count(), 2);
    }
}
