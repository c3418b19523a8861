//! Race-wide results: initiative, the scenario and upgrade tables, collisions, victory and the
//! race board.

use super::*;

/// `play`: the stored play order (the winner, then clockwise), shown beside the ranking.
pub fn initiative_view(out: &InitiativeOutcome, play: &[String], round: u32, lang: Lang) -> EmbedView {
    let title = match (out.kind, lang) {
        (InitiativeKind::Pole, _) => format!("🏁 {}", lang.pick("Pole position", "ポール・ポジション")),
        (InitiativeKind::Contested, _) => format!("🏁 {}", lang.pick("Contested victory", "僅差勝利")),
        (InitiativeKind::Round, Lang::En) => format!("🏁 Initiative — round {round}"),
        (InitiativeKind::Round, Lang::Ja) => format!("🏁 イニシアチブ — ラウンド{round}"),
    };
    let lines: Vec<String> = out
        .order
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let checks: Vec<String> = e
                .checks
                .iter()
                .map(|c| {
                    format!(
                        "{} @{}+ → {}",
                        dice_text(&c.dice, Some(c.rating)),
                        c.rating.value(),
                        c.result
                    )
                })
                .collect();
            let penalty = if e.penalty > 0 {
                format!(" −{}", e.penalty)
            } else {
                String::new()
            };
            // Reliable: the check it replaced, struck through.
            let reliable = match &e.reliable {
                Some(old) => format!(
                    "  ({} ~~{}~~)",
                    lang.pick("Reliable, was", "リライアブル、元は"),
                    old.result
                ),
                None => String::new(),
            };
            format!(
                "{}. **{}** — **{}**{penalty}  {}{reliable}",
                i + 1,
                e.id,
                e.score,
                checks.join(" ⟳ ")
            )
        })
        .collect();
    let mut fields = Vec::new();
    let play_label = match out.kind {
        InitiativeKind::Pole => Some(lang.pick("Placement order (clockwise)", "配置順（時計回り）")),
        InitiativeKind::Round => Some(lang.pick("Play order (clockwise)", "行動順（時計回り）")),
        InitiativeKind::Contested => None,
    };
    if let Some(label) = play_label.filter(|_| play.len() > 1) {
        fields.push((label.to_string(), play.join(" → "), false));
    }
    for t in &out.tie_breaks {
        let (ids, how) = match t {
            TieBreak::Position { ids } => (
                ids,
                lang.pick("tie: the gear ahead wins", "同値：前にいるギアの勝ち"),
            ),
            TieBreak::Reroll { ids } => (ids, lang.pick("tie: rerolled", "同値：振り直し")),
        };
        fields.push((how.to_string(), ids.join(", "), false));
    }
    EmbedView {
        title,
        description: lines.join("\n"),
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}

pub fn scenario_view(out: &ScenarioOutcome, lang: Lang) -> EmbedView {
    let laps = match out.laps_die {
        Some(d) => format!("{} → **{}**", dice_text(&[d], None), out.laps),
        None => format!("**{}**", out.laps),
    };
    EmbedView {
        title: format!(
            "🏁 {}: {}",
            lang.pick("Scenario", "シナリオ"),
            out.scenario.name(lang)
        ),
        description: format!(
            "{} → {}\n{}",
            dice_text(&[out.die], None),
            out.scenario.name(lang),
            out.scenario.special_rule(lang)
        ),
        colour: colour::NEUTRAL,
        fields: vec![(lang.pick("Laps", "ラップ数").into(), laps, true)],
        footer: None,
    }
}

pub fn upgrade_view(out: &UpgradeOutcome, applied: Option<&str>, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    if let Some(note) = applied {
        fields.push((lang.pick("Sheet", "シート").into(), note.to_string(), false));
    }
    EmbedView {
        title: format!(
            "🔧 {}: {}",
            lang.pick("Upgrade", "アップグレード"),
            out.upgrade.name(lang)
        ),
        description: format!(
            "{} → **{}**\n{}",
            dice_text(&[out.die], None),
            out.upgrade.name(lang),
            out.upgrade.description(lang)
        ),
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}

pub fn victory_text(v: &Victory, lang: Lang) -> Option<String> {
    match (v, lang) {
        (Victory::None, _) => None,
        (Victory::Uncontested { id }, Lang::En) => Some(format!("🏆 {id} wins")),
        (Victory::Uncontested { id }, Lang::Ja) => Some(format!("🏆 {id} の勝利")),
        (Victory::Derby { id }, Lang::En) => Some(format!("🏆 {id} wins the Derby")),
        (Victory::Derby { id }, Lang::Ja) => Some(format!("🏆 {id} がダービーに勝利")),
        (Victory::Contested { ids }, Lang::En) => {
            Some(format!("Contested victory: {} (/rally victory)", ids.join(", ")))
        }
        (Victory::Contested { ids }, Lang::Ja) => {
            Some(format!("僅差勝利の判定: {}（/rally victory）", ids.join("、")))
        }
        (Victory::RoundNotOver { round, ids }, Lang::En) => Some(format!(
            "🏁 {} in round {round}: the winner is judged when the round ends",
            ids.join(", ")
        )),
        (Victory::RoundNotOver { round, ids }, Lang::Ja) => Some(format!(
            "🏁 {}（ラウンド{round}）：勝敗はラウンド終了時に判定",
            ids.join("、")
        )),
    }
}

/// The race board: the race (scenario, laps, pole), order and round, the victory if any, then
/// one status line per gear (roster order) with its laps k/N and, in a Derby, its spin-outs
/// caused k/6.
pub fn board_fields(
    order: &[String],
    round: u32,
    race: &RaceState,
    lang: Lang,
) -> Vec<(String, String, bool)> {
    let mut fields = Vec::new();
    let mut facts = vec![match race.scenario {
        Some(sc) => sc.name(lang).to_string(),
        None => lang
            .pick(
                "no scenario yet (/rally scenario)",
                "シナリオ未決定（/rally scenario）",
            )
            .to_string(),
    }];
    facts.push(match lang {
        Lang::En => format!("{} laps", race.laps),
        Lang::Ja => format!("{}ラップ", race.laps),
    });
    if let Some(p) = &race.pole {
        facts.push(match lang {
            Lang::En => format!("pole: {p}"),
            Lang::Ja => format!("ポール：{p}"),
        });
    }
    fields.push((lang.pick("Race", "レース").into(), facts.join(" · "), false));
    let order_text = if order.is_empty() {
        lang.pick(
            "no initiative yet (/rally initiative)",
            "イニシアチブ未決定（/rally initiative）",
        )
        .to_string()
    } else {
        order
            .iter()
            .enumerate()
            .map(|(i, n)| format!("{}. {n}", i + 1))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let title = match lang {
        Lang::En => format!("🏁 Order — round {round}"),
        Lang::Ja => format!("🏁 順番 — ラウンド{round}"),
    };
    fields.push((title, order_text, false));
    if let Some(v) = victory_text(&race.victory(), lang) {
        fields.push((lang.pick("Victory", "勝敗").into(), v, false));
    }
    let derby = race.scenario == Some(Scenario::Derby);
    for (id, st) in race.board() {
        let laps = match lang {
            Lang::En => format!("lap {}/{}", st.laps, race.laps),
            Lang::Ja => format!("{}/{}ラップ", st.laps, race.laps),
        };
        let mut line = status_line(&st, lang);
        if derby {
            line.push_str(&match lang {
                Lang::En => format!(" · 🌀 spin-outs caused {}/{DERBY_SPIN_OUTS}", st.spin_outs_caused),
                Lang::Ja => format!(
                    " · 🌀 スピンアウトさせた数 {}/{DERBY_SPIN_OUTS}",
                    st.spin_outs_caused
                ),
            });
        }
        fields.push((format!("{id} ({laps})"), line, false));
    }
    fields
}

pub(super) fn cause_name(c: CollisionCause, lang: Lang) -> String {
    match (c, lang) {
        (CollisionCause::Push { mos }, Lang::En) => format!("push, MOS {mos}"),
        (CollisionCause::Push { mos }, Lang::Ja) => format!("プッシュ、MOS {mos}"),
        (CollisionCause::Jump { dice }, Lang::En) => format!("jump, {dice} dice"),
        (CollisionCause::Jump { dice }, Lang::Ja) => format!("ジャンプ、{dice}個"),
        (CollisionCause::Skid { distance }, Lang::En) => format!("skid, {distance} hexes"),
        (CollisionCause::Skid { distance }, Lang::Ja) => format!("スキッド、{distance}ヘクス"),
    }
}

pub(super) fn collision_roll_text(r: &CollisionRoll, lang: Lang) -> String {
    match lang {
        Lang::En => format!(
            "{} dice {} → **{} damage**",
            r.dice_count.max(0),
            dice_text(&r.dice, Rating::new(4).ok()),
            r.damage
        ),
        Lang::Ja => format!(
            "{}個 {} → **{}ダメージ**",
            r.dice_count.max(0),
            dice_text(&r.dice, Rating::new(4).ok()),
            r.damage
        ),
    }
}

/// A collision: each gear's damage dice, what changed, spin-outs, status lines.
pub fn collision_view(
    r: &CollisionReport,
    moving: (&str, &GearStatus),
    struck: Option<(&str, &GearStatus)>,
    lang: Lang,
) -> EmbedView {
    let target = match struck {
        Some((id, _)) => id.to_string(),
        None => lang.pick("terrain", "地形").to_string(),
    };
    let description = match lang {
        Lang::En => format!(
            "{} (terrain: always 2D6; gear against gear: ± the AR difference)",
            cause_name(r.outcome.cause, lang)
        ),
        Lang::Ja => format!(
            "{}（地形は常に2D6、ギア同士はAR差を加減）",
            cause_name(r.outcome.cause, lang)
        ),
    };
    let mut fields = Vec::new();
    let sides = [
        Some((moving.0, &r.outcome.moving, &r.moving_changes, &r.moving_spin_out)),
        struck.and_then(|(id, _)| {
            r.outcome
                .struck
                .as_ref()
                .map(|roll| (id, roll, &r.struck_changes, &r.struck_spin_out))
        }),
    ];
    for (id, roll, changes, spin) in sides.into_iter().flatten() {
        let mut lines = vec![collision_roll_text(roll, lang)];
        if !changes.is_empty() {
            lines.push(changes_text(changes, lang));
        }
        if let Some(s) = spin {
            lines.push(spin_out_text(s, lang));
        }
        fields.push((format!("→ {id}"), lines.join("\n"), false));
    }
    if let Some((by, n)) = &r.caused_by {
        let mut line = match lang {
            Lang::En => format!("{by}: +{n}"),
            Lang::Ja => format!("{by}：+{n}"),
        };
        if !r.by_changes.is_empty() {
            line.push_str(" · ");
            line.push_str(&changes_text(&r.by_changes, lang));
        }
        fields.push((
            lang.pick("Spin-outs caused", "スピンアウトさせた数").into(),
            line,
            false,
        ));
    }
    fields.push(status_field(moving.1, lang));
    if let Some((_, st)) = struck {
        fields.push(status_field(st, lang));
    }
    let damage = r.outcome.moving.damage + r.outcome.struck.as_ref().map_or(0, |s| s.damage);
    EmbedView {
        title: format!("💥 {} → {target} ({})", moving.0, lang.pick("collision", "衝突")),
        description,
        colour: if damage > 0 {
            colour::WARNING
        } else {
            colour::NEUTRAL
        },
        fields,
        footer: None,
    }
}

/// `/rally victory`: who has won, and the contested-victory checks when it was close.
pub fn victory_view(v: &Victory, contest: Option<&InitiativeOutcome>, lang: Lang) -> EmbedView {
    let mut view = match contest {
        Some(out) => initiative_view(out, &[], 0, lang),
        None => EmbedView {
            title: format!("🏁 {}", lang.pick("Victory", "勝敗")),
            colour: colour::NEUTRAL,
            ..Default::default()
        },
    };
    let headline = match (contest.and_then(InitiativeOutcome::winner), lang) {
        (Some(id), Lang::En) => format!("## 🏆 {id} wins"),
        (Some(id), Lang::Ja) => format!("## 🏆 {id} の勝利"),
        (None, _) => match victory_text(v, lang) {
            Some(t) => format!("## {t}"),
            None => lang
                .pick("No gear has finished yet.", "まだゴールしたギアはありません。")
                .to_string(),
        },
    };
    view.description = if view.description.is_empty() {
        headline
    } else {
        format!("{headline}\n{}", view.description)
    };
    if contest.is_some() || !matches!(v, Victory::None) {
        view.colour = colour::SUCCESS;
    }
    view
}
