//! The game on the status board (and `/wm status`).

use engine::i18n::Lang;
use engine::systems::warmachine::WarmachineState;
use engine::systems::warmachine::model::Model;
use engine::systems::warmachine::turn::RolesFrom;

use super::{FIELD, effects::model_line, fit_lines, rulings::ruling_line};
use crate::embeds::truncate;

/// The game on the status board (and `/wm status`): the turn, the models, the rulings.
pub fn board_fields(state: &WarmachineState, models: &[&Model], lang: Lang) -> Vec<(String, String, bool)> {
    let st = state.status();
    let mut turn = Vec::new();
    match &st.turn_player {
        Some(p) => turn.push(match lang {
            Lang::En => format!("Round {} · **{p}**'s turn", st.round),
            Lang::Ja => format!("{}ラウンド · **{p}**の手番", st.round),
        }),
        None => turn.push(
            lang.pick("Not started (/wm-turn start)", "未開始（/wm-turn start）")
                .to_string(),
        ),
    }
    if let Some(m) = &st.activating {
        let ran = if st.ran {
            lang.pick(" (ran)", "（ラン済み）")
        } else {
            ""
        };
        turn.push(match lang {
            Lang::En => format!("Activating: {m}{ran}"),
            Lang::Ja => format!("アクティベーション中: {m}{ran}"),
        });
    }
    if let Some((a, t)) = &st.open_attack {
        turn.push(match lang {
            Lang::En => format!("Attack open: {a} → {t}"),
            Lang::Ja => format!("解決中の攻撃: {a} → {t}"),
        });
    }
    if let Some(view) = state.game.roles() {
        let why = match view.from {
            RolesFrom::Attack => lang.pick("attack", "攻撃中"),
            RolesFrom::AfterAttack => lang.pick(
                "after the attack, until its triggers are resolved",
                "攻撃後：トリガー解決まで",
            ),
            RolesFrom::Turn => lang.pick("turn", "手番"),
        };
        turn.push(match lang {
            Lang::En => format!(
                "Active: **{}** · inactive: {} ({why})",
                view.roles.active,
                view.roles.inactive.join(", ")
            ),
            // The seed's words: the player whose turn it is (no attack open) is the 手番プレイヤー,
            // an attacking model's controller the アクティブプレイヤー; the others インアクティブ.
            Lang::Ja if view.from == RolesFrom::Turn => format!(
                "手番プレイヤー: **{}** · インアクティブプレイヤー: {}",
                view.roles.active,
                view.roles.inactive.join("、")
            ),
            Lang::Ja => format!(
                "アクティブプレイヤー: **{}** · インアクティブプレイヤー: {}（{why}）",
                view.roles.active,
                view.roles.inactive.join("、")
            ),
        });
    }
    let order = state.game.trigger_order();
    if !order.is_empty() {
        let lines: Vec<String> = order
            .iter()
            .map(|t| format!("#{} {}: {}", t.id, t.owner, t.text))
            .collect();
        turn.push(match lang {
            Lang::En => format!("Triggers, in order: {}", lines.join(" → ")),
            Lang::Ja => format!("トリガー（解決順）: {}", lines.join(" → ")),
        });
    }
    let mut fields = vec![(
        lang.pick("Warmachine — turn", "ウォーマシン — 手番").to_string(),
        truncate(&turn.join("\n"), FIELD),
        false,
    )];
    if !models.is_empty() {
        let lines: Vec<String> = models.iter().map(|m| model_line(m, lang)).collect();
        fields.push((
            lang.pick("Models", "モデル").to_string(),
            fit_lines(&lines, FIELD, "/wm-effect list", lang),
            false,
        ));
    }
    let rulings: Vec<String> = state.rulings.iter().map(|r| ruling_line(r, lang)).collect();
    fields.push((
        match lang {
            Lang::En => format!("Rulings ({})", st.rulings),
            Lang::Ja => format!("裁定（{}件）", st.rulings),
        },
        if rulings.is_empty() {
            lang.pick("none", "なし").to_string()
        } else {
            fit_lines(&rulings, FIELD, "/wm-ruling list", lang)
        },
        false,
    ));
    fields
}
