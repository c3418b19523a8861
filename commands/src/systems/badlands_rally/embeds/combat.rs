//! Attack, action and damage results.

use super::*;

pub fn attack_view(r: &RaceAttackReport, attacker: &str, defender: &str, lang: Lang) -> EmbedView {
    let a = &r.attack;
    let what = match (&a.kind, &a.weapon) {
        (AttackKind::Push, _) => lang.pick("Push", "プッシュ").to_string(),
        (_, Some(w)) => w.name.clone(),
        (_, None) => lang.pick("Attack", "攻撃").to_string(),
    };
    let mut description = margin_text(a.margin, lang);
    if a.range == RangeBand::OutOfRange {
        description.push_str(lang.pick(
            "\nBeyond maximum range: the attack fails.",
            "\n最大レンジ外：攻撃は失敗。",
        ));
    }
    if let Some(h) = a.push_hexes {
        description.push_str(&match lang {
            Lang::En => format!("\nPush up to **{h}** hexes."),
            Lang::Ja => format!("\n最大**{h}**ヘクス押し出せる。"),
        });
    }
    if a.attacker_fumble {
        description.push_str(lang.pick(
            "\n⚠ Push fumble: the attacker spins out.",
            "\n⚠ プッシュのファンブル：攻撃側がスピンアウト。",
        ));
    }
    let mut fields = Vec::new();
    if let Some(c) = &a.attack {
        fields.push((
            format!("{} — {attacker}", lang.pick("Attack", "攻撃")),
            check_text(c, lang),
            true,
        ));
    }
    if let Some(c) = &a.defence {
        fields.push((
            format!("{} — {defender}", lang.pick("Defence", "防御")),
            check_text(c, lang),
            true,
        ));
    }
    if let Some(d) = &a.damage {
        fields.push((
            lang.pick("Damage", "ダメージ").to_string(),
            damage_text(d, lang),
            false,
        ));
    }
    if let Some(b) = &a.blast {
        fields.push((
            lang.pick("Blast", "ブラスト").to_string(),
            format!("{} → **{}**", dice_text(&[b.die], Rating::new(4).ok()), b.damage),
            true,
        ));
    }
    if let Some(share) = a.area_damage {
        fields.push((
            lang.pick("Area Effect", "エリア・エフェクト").to_string(),
            match lang {
                Lang::En => format!("adjacent gears take {share}"),
                Lang::Ja => format!("隣接ギアに{share}ダメージ"),
            },
            true,
        ));
    }
    for (name, changes, spin) in [
        (defender, &r.defender_changes, &r.defender_spin_out),
        (attacker, &r.attacker_changes, &r.attacker_spin_out),
    ] {
        let mut lines = Vec::new();
        if !changes.is_empty() {
            lines.push(changes_text(changes, lang));
        }
        if let Some(s) = spin {
            lines.push(spin_out_text(s, lang));
        }
        if !lines.is_empty() {
            fields.push((format!("→ {name}"), lines.join("\n"), false));
        }
    }
    for (id, changes, spin) in &r.adjacent {
        let mut lines = vec![changes_text(changes, lang)];
        if let Some(s) = spin {
            lines.push(spin_out_text(s, lang));
        }
        fields.push((format!("→ {id}"), lines.join("\n"), false));
    }
    fields.push(status_field(&r.attacker_status, lang));
    fields.push(status_field(&r.defender_status, lang));
    EmbedView {
        title: format!("⚔ {attacker} → {defender} ({what})"),
        description,
        colour: if a.hit { colour::SUCCESS } else { colour::FAILURE },
        fields,
        footer: None,
    }
}

fn roll_line(r: &RollOutcome, lang: Lang) -> String {
    let mut s = format!(
        "{} @ {}+\n{} → **{}** {}",
        pool_text(&r.pool, lang),
        r.rating.value(),
        dice_text(&r.dice, Some(r.rating)),
        r.successes,
        lang.pick("successes", "成功")
    );
    if r.automatic_failure {
        s.push_str(&format!("\n{}", auto_fail(lang)));
    }
    if r.all_ones {
        s.push_str(&format!("\n{}", all_ones(lang)));
    }
    s
}

pub fn action_view(title: &str, r: &ActionReport, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    let mut colour = colour::NEUTRAL;
    let description = match &r.outcome {
        ActionOutcome::BurnRubber(b) => {
            if let Some(s) = &b.spin_out {
                fields.push((
                    lang.pick("Spin-out", "スピンアウト").into(),
                    spin_out_text(s, lang),
                    false,
                ));
            }
            colour = if b.mr_gained > 0 {
                colour::SUCCESS
            } else {
                colour::FAILURE
            };
            format!("{}\n## +{} MR", roll_line(&b.roll, lang), b.mr_gained)
        }
        ActionOutcome::Jump(j) => {
            if let Some(s) = &j.spin_out {
                fields.push((
                    lang.pick("Spin-out", "スピンアウト").into(),
                    spin_out_text(s, lang),
                    false,
                ));
            }
            colour = if j.hexes_jumped > 0 {
                colour::SUCCESS
            } else {
                colour::FAILURE
            };
            // Older stored reports have no mr_spent: it was the hexes moved.
            let mr = j.mr_spent.max(j.hexes_moved);
            let mut s = match lang {
                Lang::En => format!(
                    "{}\n## {} hexes jumped ({} MR spent)",
                    roll_line(&j.roll, lang),
                    j.hexes_jumped,
                    mr
                ),
                Lang::Ja => format!(
                    "{}\n## {}ヘクス ジャンプ（MR{}消費）",
                    roll_line(&j.roll, lang),
                    j.hexes_jumped,
                    mr
                ),
            };
            if j.stopped_short {
                s.push_str(lang.pick(
                    "\nThe landing hex was taken: stopped in the hex before it and spun out.",
                    "\n着地点に障害物：直前のヘクスに停止し、スピンアウト。",
                ));
            }
            s
        }
        ActionOutcome::Recover(rc) => {
            let die = rc.die.map_or_else(
                || {
                    lang.pick("fixed 1 (action already spent)", "固定1（アクション使用済み）")
                        .to_string()
                },
                |d| dice_text(&[d], None),
            );
            colour = colour::SUCCESS;
            let mut s = match lang {
                Lang::En => format!("{die}\n## +{} hits", rc.healed),
                Lang::Ja => format!("{die}\n## ヒット+{}", rc.healed),
            };
            if rc.action_regained {
                s.push_str(lang.pick("\n6: the action comes back.", "\n6：アクションが戻る。"));
            }
            s
        }
        ActionOutcome::RallyTheCrowd { tokens } => match lang {
            Lang::En => format!("## Rally the Crowd: {tokens} token(s)"),
            Lang::Ja => format!("## ラリー・ザ・クラウド：トークン{tokens}"),
        },
        ActionOutcome::OffRoad(roll) => match lang {
            Lang::En => format!(
                "{}\nIgnore {} rough hexes this activation.",
                roll_line(roll, lang),
                roll.successes
            ),
            Lang::Ja => format!(
                "{}\nこのアクティベーション中、ラフ{}ヘクスを無視。",
                roll_line(roll, lang),
                roll.successes
            ),
        },
        ActionOutcome::Move(m) => match lang {
            Lang::En => format!("{} MR spent", m.mr),
            Lang::Ja => format!("MR{}消費", m.mr),
        },
        ActionOutcome::SpinOut(s) => {
            colour = if s.recovered {
                colour::SUCCESS
            } else {
                colour::WARNING
            };
            spin_out_text(s, lang)
        }
        ActionOutcome::UseReliable => lang
            .pick("Reliable used for this lap.", "このラップのリライアブルを使用。")
            .into(),
    };
    if let Some(c) = &r.collision {
        // A jump that came down on a gear or terrain: both collision rolls.
        fields.push((
            lang.pick("Collision", "衝突").into(),
            collision_roll_text(&c.outcome.moving, lang),
            false,
        ));
        if let Some(roll) = &c.outcome.struck {
            let mut lines = vec![collision_roll_text(roll, lang)];
            if !c.struck_changes.is_empty() {
                lines.push(changes_text(&c.struck_changes, lang));
            }
            if let Some(so) = &c.struck_spin_out {
                lines.push(spin_out_text(so, lang));
            }
            fields.push((
                lang.pick("Gear landed on", "着地点のギア").into(),
                lines.join("\n"),
                false,
            ));
        }
    }
    if !r.changes.is_empty() {
        fields.push((
            lang.pick("Changes", "変化").into(),
            changes_text(&r.changes, lang),
            false,
        ));
    }
    fields.push(status_field(&r.status, lang));
    EmbedView {
        title: title.to_string(),
        description,
        colour,
        fields,
        footer: None,
    }
}

/// A state change without dice (activate, end, lap, hand-entered damage).
pub fn changes_view(title: &str, changes: &[Change], st: &GearStatus, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    if !changes.is_empty() {
        fields.push((
            lang.pick("Changes", "変化").into(),
            changes_text(changes, lang),
            false,
        ));
    }
    fields.push(status_field(st, lang));
    EmbedView {
        title: title.to_string(),
        colour: colour::NEUTRAL,
        fields,
        ..Default::default()
    }
}

pub fn damage_view(d: &DamageOutcome, target: Option<(&[Change], &GearStatus)>, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    if let Some((changes, st)) = target {
        if !changes.is_empty() {
            fields.push((
                lang.pick("Changes", "変化").into(),
                changes_text(changes, lang),
                false,
            ));
        }
        fields.push(status_field(st, lang));
    }
    EmbedView {
        title: format!("💥 {}", lang.pick("Damage", "ダメージ")),
        description: damage_text(d, lang),
        colour: if d.damage > 0 {
            colour::SUCCESS
        } else {
            colour::FAILURE
        },
        fields,
        footer: None,
    }
}
