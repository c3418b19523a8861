//! The attack (dice, total against DEF, badges, the target's stats) and the damage it does.

use engine::i18n::Lang;
use engine::systems::warmachine::DamageOutcome;
use engine::systems::warmachine::attack::{AttackOutcome, RuleSource};
use engine::systems::warmachine::dice::Automatic;
use engine::systems::warmachine::model::{Model, ModelStatus};

use super::{FIELD, active_line, boxes_text, dice_notes, dice_text, reading_text, signed, status_badge};
use crate::embeds::{EmbedView, colour, truncate};

/// What the attack embed needs beyond the outcome.
pub struct AttackShown<'a> {
    /// The target model as it stands (its boxes), when it is a session model.
    pub target: Option<&'a Model>,
    /// Why no damage buttons are offered on a hit (no POW known, …).
    pub no_buttons: Option<String>,
}

pub fn attack_view(o: &AttackOutcome, shown: &AttackShown<'_>, lang: Lang) -> EmbedView {
    let mut badges = vec![if o.hit {
        lang.pick("**HIT**", "**命中**")
    } else {
        lang.pick("**MISS**", "**失敗**")
    }];
    if o.critical {
        badges.push(lang.pick("**CRITICAL**", "**クリティカル**"));
    }
    if let Some(a) = o.automatic {
        badges.push(match a {
            Automatic::Hit => lang.pick("**AUTOMATIC HIT**", "**自動命中**"),
            Automatic::Miss => lang.pick("**AUTOMATIC MISS**", "**自動失敗**"),
        });
    }
    let kind = o.kind.name(lang);
    let weapon = o.weapon.as_ref().map(|w| format!(" · {w}")).unwrap_or_default();
    let title = match lang {
        Lang::En => format!("⚔️ {} → {} ({kind}{weapon})", o.attacker, o.target),
        Lang::Ja => format!("⚔️ {} → {}（{kind}{weapon}）", o.attacker, o.target),
    };
    let modifier = if o.modifier == 0 {
        String::new()
    } else {
        format!(" {} {}", signed(i64::from(o.modifier)), lang.pick("mod", "修正"))
    };
    let mut desc = vec![
        badges.join(" · "),
        dice_text(&o.roll, lang),
        format!(
            "{} {} + {} {}{modifier} = **{}** vs DEF **{}**",
            lang.pick("dice", "ダイス"),
            o.roll.kept_total,
            o.attack_stat.stat.abbr(),
            o.attack_stat.value,
            o.total,
            o.def.value
        ),
    ];
    desc.extend(dice_notes(&o.roll, lang));
    if let Some(a) = o.automatic_ignored {
        let what = match a {
            Automatic::Hit => lang.pick("all 6s", "すべて6"),
            Automatic::Miss => lang.pick("all 1s", "すべて1"),
        };
        desc.push(match lang {
            Lang::En => format!("{what}: automatic hits and misses are off, the total decides"),
            Lang::Ja => format!("{what}：自動命中・自動失敗はなしの設定なので合計で判定"),
        });
    }
    if o.automatic.is_some()
        && let RuleSource::Model { name } = &o.auto_rule.source
    {
        desc.push(match lang {
            Lang::En => format!("(automatic results: {name}'s own rule)"),
            Lang::Ja => format!("（自動命中・自動失敗：{name}自身のルール）"),
        });
    }
    if o.destroys_disabled_target {
        desc.push(match lang {
            Lang::En => format!(
                "{} is disabled: this hit destroys it when the damage is rolled.",
                o.target
            ),
            Lang::Ja => format!(
                "{}はディスエイブル状態：ダメージを振るとこの命中でデストロイされます。",
                o.target
            ),
        });
    }
    let mut fields = vec![
        (
            lang.pick("Attack", "攻撃").to_string(),
            reading_text(&o.attack_stat, lang),
            true,
        ),
        (
            lang.pick("Target", "目標").to_string(),
            reading_text(&o.def, lang),
            true,
        ),
    ];
    if let Some(t) = shown.target {
        let mut v = boxes_text(t.boxes());
        if let Some(b) = status_badge(t.status, lang) {
            v.push_str(&format!(" · {b}"));
        }
        fields.push((t.name.clone(), v, true));
    }
    if o.hit
        && let Some(why) = &shown.no_buttons
    {
        fields.push((lang.pick("Damage", "ダメージ").to_string(), why.clone(), false));
    }
    // In the description, where Discord shows a member's mention (a footer shows it raw).
    let active = active_line(&o.active_player, lang);
    if !active.is_empty() {
        desc.push(active);
    }
    EmbedView {
        title,
        description: desc.join("\n"),
        colour: if o.critical {
            colour::WARNING
        } else if o.hit {
            colour::SUCCESS
        } else {
            colour::FAILURE
        },
        fields: fields
            .into_iter()
            .map(|(n, v, i)| (n, truncate(&v, FIELD), i))
            .collect(),
        footer: None,
    }
}

/// How a damage result was (or will be) marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marked {
    /// On the target model's boxes now.
    Applied,
    /// Not yet: an Apply damage button follows.
    Pending,
    /// No model to mark (raw numbers).
    Nowhere,
}

pub fn damage_view(o: &DamageOutcome, marked: Marked, active: Option<&str>, lang: Lang) -> EmbedView {
    let title = if o.target.is_empty() {
        format!("💥 {}", lang.pick("Damage", "ダメージ"))
    } else {
        format!("💥 {} → {}", lang.pick("Damage", "ダメージ"), o.target)
    };
    let modifier = if o.modifier == 0 {
        String::new()
    } else {
        format!(" {} {}", signed(i64::from(o.modifier)), lang.pick("mod", "修正"))
    };
    let mut desc = vec![
        match lang {
            Lang::En => format!("**{} damage**", o.damage),
            Lang::Ja => format!("**{}ダメージ**", o.damage),
        },
        dice_text(&o.roll, lang),
        format!(
            "{} {} + POW {}{modifier} − ARM {} = {}{}",
            lang.pick("dice", "ダイス"),
            o.roll.kept_total,
            o.pow.value,
            o.arm.value,
            o.raw,
            if o.raw < 0 {
                lang.pick(" → 0 (never below 0)", " → 0（0未満にはならない）")
            } else {
                ""
            }
        ),
    ];
    desc.extend(dice_notes(&o.roll, lang));
    let mut fields = vec![
        ("POW".to_string(), reading_text(&o.pow, lang), true),
        ("ARM".to_string(), reading_text(&o.arm, lang), true),
    ];
    let name = if o.target.is_empty() {
        lang.pick("Target", "目標").to_string()
    } else {
        o.target.clone()
    };
    match marked {
        Marked::Applied => {
            let mut v = format!("{} → {}", boxes_text(o.boxes_before), boxes_text(o.boxes_after));
            if let Some(b) = status_badge(o.status_after, lang) {
                v.push_str(&format!(" · {b}"));
            }
            if o.destroyed_by_hit {
                v.push_str(lang.pick(" (hit while disabled)", "（ディスエイブル中に命中）"));
            }
            fields.push((name, v, false));
        }
        Marked::Pending => fields.push((
            name,
            match lang {
                Lang::En => format!("{}: not marked yet (Apply damage)", boxes_text(o.boxes_before)),
                Lang::Ja => format!(
                    "{}：まだ記入していません（ダメージを適用）",
                    boxes_text(o.boxes_before)
                ),
            },
            false,
        )),
        Marked::Nowhere => {}
    }
    if let Some(a) = active.map(|a| active_line(a, lang)).filter(|s| !s.is_empty()) {
        desc.push(a);
    }
    EmbedView {
        title,
        description: desc.join("\n"),
        colour: match o.status_after {
            ModelStatus::Destroyed => colour::CRITICAL,
            ModelStatus::Disabled if marked == Marked::Applied => colour::ALERT,
            _ if o.damage > 0 => colour::FAILURE,
            _ => colour::NEUTRAL,
        },
        fields,
        footer: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::warmachine::embeds::model_line;
    use engine::dice::FixedRoller;
    use engine::systems::warmachine::attack::{AttackOptions, AttackRequest};
    use engine::systems::warmachine::dice::{DiceRequest, Discard, DiscardWhich};
    use engine::systems::warmachine::effects::{Expiry, Stat, preset};
    use engine::systems::warmachine::{AttackKind, resolve_attack};

    #[test]
    fn the_attack_shows_every_die_the_badges_and_the_stacking() {
        let mut a = Model::new("Stalker", "Ana", 13, 17, 10);
        a.mat = 7;
        let mut t = Model::new("Grunt", "Ben", 13, 13, 5);
        let p = preset("Dark Shroud").unwrap();
        t.add_effect(&p, Expiry::Manual, Some("Shade A"), None).unwrap();
        t.add_effect(&p, Expiry::Manual, Some("Shade B"), None).unwrap();
        let req = AttackRequest {
            kind: AttackKind::Melee,
            weapon: None,
            modifier: 0,
            dice: DiceRequest {
                boost: true,
                additional: vec![],
                discard: Some(Discard {
                    which: DiscardWhich::Lowest,
                    count: 1,
                }),
            },
            cover: 0,
        };
        let o = resolve_attack(
            &req,
            &a,
            &t,
            &AttackOptions::default(),
            &mut FixedRoller::new(vec![3, 3, 1]),
        )
        .unwrap();
        let v = attack_view(
            &o,
            &AttackShown {
                target: Some(&t),
                no_buttons: None,
            },
            Lang::En,
        );
        assert!(
            v.description.contains("**HIT** · **CRITICAL**"),
            "{}",
            v.description
        );
        assert!(
            v.description.contains("[**3** **3** ~~1~~(boost)]"),
            "{}",
            v.description
        );
        assert!(
            v.description.contains("= **13** vs DEF **13**"),
            "{}",
            v.description
        );
        assert!(
            v.description.ends_with("\nActive player: Ana"),
            "{}",
            v.description
        );
        let line = model_line(&t, Lang::En);
        assert!(
            line.contains("Dark Shroud ×2") && line.contains("ARM 13→11"),
            "{line}"
        );
        let ja = attack_view(
            &o,
            &AttackShown {
                target: None,
                no_buttons: None,
            },
            Lang::Ja,
        );
        assert!(ja.description.contains("**命中** · **クリティカル**"));
        let arm = t.stat(Stat::Arm);
        let text = reading_text(&arm, Lang::En);
        assert!(
            text.contains("ARM 13 → **11**") && text.contains("does not stack"),
            "{text}"
        );
    }
}
