//! Rulings and the roll-offs that settle a dispute.

use engine::i18n::Lang;
use engine::systems::warmachine::WarmachineState;
use engine::systems::warmachine::state::{Dispute, Ruling};

use super::{FIELD, fit_lines};
use crate::embeds::{EmbedView, colour, truncate};

pub fn ruling_line(r: &Ruling, lang: Lang) -> String {
    let by = r
        .winner
        .as_ref()
        .map(|w| match lang {
            Lang::En => format!(" (roll-off won by {}. {})", w.number, w.name),
            Lang::Ja => format!("（ロールオフの勝者 {}. {}）", w.number, w.name),
        })
        .unwrap_or_default();
    format!(
        "#{} {} → **{}**{by} <t:{}:d>",
        r.id,
        r.question,
        r.ruling,
        r.at_ms.div_euclid(1000)
    )
}

pub fn rolloff_view(d: &Dispute, lang: Lang) -> EmbedView {
    let o = &d.roll_off;
    let players: Vec<String> = o
        .players
        .iter()
        .map(|p| format!("{}. {}", p.number, p.name))
        .collect();
    let mut desc = vec![format!("**{}**", o.question), players.join(" · ")];
    let won = match lang {
        Lang::En => format!("**{}. {} wins**", o.winner.number, o.winner.name),
        Lang::Ja => format!("**{}. {}の勝ち**", o.winner.number, o.winner.name),
    };
    for (i, round) in o.rounds.iter().enumerate() {
        let top = round.iter().map(|d| d.value).max().unwrap_or(0);
        let dice: Vec<String> = round
            .iter()
            .map(|d| {
                if d.value == top {
                    format!("{}: **{}**", d.player, d.value)
                } else {
                    format!("{}: {}", d.player, d.value)
                }
            })
            .collect();
        let tied = round.iter().filter(|d| d.value == top).count() > 1;
        let note = if tied {
            lang.pick(" — tied leaders reroll", " — 同点の最高者が振り直し")
        } else {
            ""
        };
        desc.push(match lang {
            Lang::En => format!("Round {}: {}{note}", i + 1, dice.join(" · ")),
            Lang::Ja => format!("{}ラウンド目: {}{note}", i + 1, dice.join(" · ")),
        });
    }
    // The winner in the description too: a title shows a member's mention raw.
    desc.push(won);
    let mut fields = vec![];
    if let Some(r) = &d.ruling {
        fields.push((
            lang.pick(
                "Ruling (binds the rest of the game)",
                "裁定（ゲームの最後まで有効）",
            )
            .to_string(),
            truncate(&ruling_line(r, lang), FIELD),
            false,
        ));
    }
    EmbedView {
        title: match lang {
            Lang::En => format!("🎲 Roll-off — player {} wins", o.winner.number),
            Lang::Ja => format!("🎲 ロールオフ — プレイヤー{}の勝ち", o.winner.number),
        },
        description: desc.join("\n"),
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}

pub fn rulings_view(state: &WarmachineState, lang: Lang) -> EmbedView {
    let lines: Vec<String> = state.rulings.iter().map(|r| ruling_line(r, lang)).collect();
    let lines = fit_lines(&lines, 4000, "/wm-ruling remove", lang);
    EmbedView {
        title: match lang {
            Lang::En => format!("📜 Rulings ({})", state.rulings.len()),
            Lang::Ja => format!("📜 裁定（{}件）", state.rulings.len()),
        },
        description: if lines.is_empty() {
            lang.pick("No rulings yet.", "裁定はまだありません。").to_string()
        } else {
            lines
        },
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    }
}

/// WG-5, issue 29: the rulings of finished games, newest game first, each with when it ended
/// and who played.
pub fn archived_view(state: &WarmachineState, lang: Lang) -> EmbedView {
    let mut lines: Vec<String> = Vec::new();
    for (i, g) in state.archived.iter().enumerate().rev() {
        lines.push(match lang {
            Lang::En => format!(
                "**Game {}** ended <t:{}:f> · {} · {} ruling(s)",
                i + 1,
                g.ended_at_ms.div_euclid(1000),
                g.players.join(", "),
                g.rulings.len()
            ),
            Lang::Ja => format!(
                "**ゲーム{}** <t:{}:f> 終了 · {} · 裁定{}件",
                i + 1,
                g.ended_at_ms.div_euclid(1000),
                g.players.join("、"),
                g.rulings.len()
            ),
        });
        lines.extend(g.rulings.iter().map(|r| format!("- {}", ruling_line(r, lang))));
    }
    let text = fit_lines(&lines, 4000, "/wm-ruling list", lang);
    EmbedView {
        title: match lang {
            Lang::En => format!("📜 Archived rulings ({} game(s))", state.archived.len()),
            Lang::Ja => format!("📜 保管された裁定（{}ゲーム）", state.archived.len()),
        },
        description: if text.is_empty() {
            lang.pick(
                "No finished game yet: /wm-turn end-game archives a game's rulings.",
                "終了したゲームはまだありません。/wm-turn end-game でゲームの裁定を保管します。",
            )
            .to_string()
        } else {
            text
        },
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    }
}
