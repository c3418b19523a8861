//! Effects on models: what applies, what does not stack, and each model's line.

use engine::i18n::Lang;
use engine::systems::warmachine::effects::{Expiry, Stat, by_name};
use engine::systems::warmachine::model::Model;

use super::{FIELD, boxes_text, reading_text, signed, status_badge};
use crate::embeds::{EmbedView, colour, truncate};

pub fn expiry_text(e: &Expiry, lang: Lang) -> String {
    match (e, lang) {
        (Expiry::EndOfActivation { model }, Lang::En) => format!("until the end of {model}'s activation"),
        (Expiry::EndOfActivation { model }, Lang::Ja) => format!("{model}のアクティベーション終了まで"),
        (Expiry::EndOfTurn { player }, Lang::En) => format!("until the end of {player}'s turn"),
        (Expiry::EndOfTurn { player }, Lang::Ja) => format!("{player}の手番終了まで"),
        (Expiry::StartOfTurn { player }, Lang::En) => format!("until {player}'s next turn"),
        (Expiry::StartOfTurn { player }, Lang::Ja) => format!("{player}の次の手番開始まで"),
        (Expiry::Manual, Lang::En) => "until removed".to_string(),
        (Expiry::Manual, Lang::Ja) => "取り除くまで".to_string(),
    }
}

/// A model's effects, one per name: the instance that applies, then those that do not stack.
pub fn effects_lines(m: &Model, lang: Lang) -> Vec<String> {
    let mut out = Vec::new();
    for (win, rest) in by_name(&m.effects) {
        let mut parts: Vec<String> = win
            .changes
            .iter()
            .map(|c| format!("{} {}", c.stat.abbr(), signed(i64::from(c.delta))))
            .collect();
        parts.extend(win.cannot.iter().map(|f| match lang {
            Lang::En => format!("cannot {}", f.phrase(lang)),
            Lang::Ja => format!("{}不可", f.phrase(lang)),
        }));
        let mut line = format!(
            "**{}** #{} {} ({})",
            engine::systems::warmachine::effects::shown_name(&win.name, lang),
            win.id,
            parts.join(", "),
            expiry_text(&win.expiry, lang)
        );
        if let Some(src) = &win.source {
            line.push_str(&match lang {
                Lang::En => format!(" from {src}"),
                Lang::Ja => format!("・{src}から"),
            });
        }
        for o in rest {
            line.push_str(&match lang {
                Lang::En => format!("; #{} does not stack ({})", o.id, expiry_text(&o.expiry, lang)),
                Lang::Ja => format!("；#{} 累積しない（{}）", o.id, expiry_text(&o.expiry, lang)),
            });
        }
        out.push(line);
    }
    out
}

/// Stats an effect changes: `ARM 18 → 14`, for the effect list.
pub fn changed_stats(m: &Model, lang: Lang) -> Vec<String> {
    Stat::ALL
        .into_iter()
        .filter(|s| *s != Stat::Pow)
        .map(|s| m.stat(s))
        .filter(|r| !r.applied.is_empty() || !r.not_stacked.is_empty())
        .map(|r| reading_text(&r, lang))
        .collect()
}

/// One model on one line: controller, boxes, status, effects.
pub fn model_line(m: &Model, lang: Lang) -> String {
    let mut line = format!("**{}** ({}) {}", m.name, m.controller, boxes_text(m.boxes()));
    if let Some(b) = status_badge(m.status, lang) {
        line.push_str(&format!(" {b}"));
    }
    if m.knocked_down {
        line.push_str(lang.pick(" · knocked down", " · ノックダウン"));
    }
    let fx: Vec<String> = by_name(&m.effects)
        .into_iter()
        .map(|(w, rest)| {
            let name = engine::systems::warmachine::effects::shown_name(&w.name, lang);
            if rest.is_empty() {
                name.to_string()
            } else {
                format!("{name} ×{}", rest.len() + 1)
            }
        })
        .collect();
    if !fx.is_empty() {
        line.push_str(&format!(" · {}", fx.join(", ")));
    }
    let changed: Vec<String> = Stat::ALL
        .into_iter()
        .filter(|s| *s != Stat::Pow)
        .map(|s| m.stat(s))
        .filter(|r| r.value != r.base)
        .map(|r| format!("{} {}→{}", r.stat.abbr(), r.base, r.value))
        .collect();
    if !changed.is_empty() {
        line.push_str(&format!(" · {}", changed.join(" ")));
    }
    line
}

pub fn effects_view(models: &[&Model], lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    for m in models {
        let mut lines = effects_lines(m, lang);
        if lines.is_empty() {
            lines.push(lang.pick("no effects", "効果なし").to_string());
        }
        let stats = changed_stats(m, lang);
        if !stats.is_empty() {
            lines.push(stats.join("\n"));
        }
        fields.push((m.name.clone(), truncate(&lines.join("\n"), FIELD), false));
    }
    EmbedView {
        title: format!("✨ {}", lang.pick("Effects", "効果")),
        description: if models.is_empty() {
            lang.pick("No models in this game.", "このゲームにモデルはいません。")
                .to_string()
        } else {
            String::new()
        },
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}
