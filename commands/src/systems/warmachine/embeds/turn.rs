//! The end of a turn (effects that expire) and closed triggers.

use engine::i18n::Lang;
use engine::systems::warmachine::effects::shown_name;
use engine::systems::warmachine::model::Expired;
use engine::systems::warmachine::triggers::{ClosedTrigger, Resolution};
use engine::systems::warmachine::turn::TurnEnd;

use crate::embeds::{EmbedView, colour};

pub fn expired_lines(list: &[Expired], lang: Lang) -> Vec<String> {
    list.iter()
        .map(|e| {
            let remains = if e.effect_remains {
                lang.pick(
                    " (another instance keeps the effect)",
                    "（別のインスタンスで効果は継続）",
                )
            } else {
                ""
            };
            match lang {
                Lang::En => format!(
                    "{}: {} #{} ended{remains}",
                    e.model,
                    shown_name(&e.instance.name, lang),
                    e.instance.id
                ),
                Lang::Ja => format!(
                    "{}：{} #{} 終了{remains}",
                    e.model,
                    shown_name(&e.instance.name, lang),
                    e.instance.id
                ),
            }
        })
        .collect()
}

pub fn turn_end_view(t: &TurnEnd, lang: Lang) -> EmbedView {
    let mut desc = vec![match lang {
        Lang::En => format!(
            "{}'s turn ends. Round {}: **{}**'s turn.",
            t.ended, t.round, t.next_player
        ),
        Lang::Ja => format!(
            "{}の手番終了。{}ラウンド：**{}**の手番。",
            t.ended, t.round, t.next_player
        ),
    }];
    desc.extend(expired_lines(&t.expired_at_end, lang));
    desc.extend(expired_lines(&t.expired_at_start, lang));
    EmbedView {
        title: format!("⏭️ {}", lang.pick("End of turn", "手番終了")),
        description: desc.join("\n"),
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    }
}

pub fn resolution_text(r: Resolution, lang: Lang) -> &'static str {
    match r {
        Resolution::Resolved => lang.pick("resolved", "解決"),
        Resolution::ConditionNoLongerMet => lang.pick(
            "condition no longer met (counts as resolved)",
            "条件を満たさなくなった（解決済み扱い）",
        ),
        Resolution::DeclinedOptional => lang.pick(
            "optional part declined (counts as resolved)",
            "任意部分を辞退（解決済み扱い）",
        ),
    }
}

pub fn closed_line(c: &ClosedTrigger, lang: Lang) -> String {
    format!(
        "#{} {}: {} — {}",
        c.trigger.id,
        c.trigger.owner,
        c.trigger.text,
        resolution_text(c.resolution, lang)
    )
}
