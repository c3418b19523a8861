//! Warmachine results: every die (kept **bold**, discarded ~~struck~~, boost and additional dice
//! named), the total against DEF, HIT / MISS, CRITICAL and AUTOMATIC badges, each stat with the
//! effects that changed it and the instances that do not stack, boxes before → after with
//! DISABLED / DESTROYED, and the active player. Records are open (item 20): nothing here is
//! hidden from anyone.

use engine::i18n::Lang;
use engine::systems::warmachine::attack::{AttackOutcome, RuleSource};
use engine::systems::warmachine::dice::{Automatic, D3, DiceRoll, DieSource};
use engine::systems::warmachine::effects::{Expiry, Stat, StatReading, by_name};
use engine::systems::warmachine::model::{Boxes, Expired, Model, ModelStatus};
use engine::systems::warmachine::state::{Dispute, Ruling};
use engine::systems::warmachine::triggers::{ClosedTrigger, Resolution};
use engine::systems::warmachine::turn::{RolesFrom, TurnEnd};
use engine::systems::warmachine::{DamageOutcome, WarmachineState};
use serde::Serialize;

use crate::embeds::{EmbedView, colour, truncate};

/// A field value's cap (Discord's 1024).
const FIELD: usize = 1024;

fn signed(v: i64) -> String {
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
            .map(|a| format!("{} #{} {}", a.effect, a.instance, signed(i64::from(a.delta))))
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
                    n.effect,
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

fn active_line(active: &str, lang: Lang) -> String {
    if active.trim().is_empty() {
        return String::new();
    }
    match lang {
        Lang::En => format!("Active player: {active}"),
        Lang::Ja => format!("アクティブプレイヤー: {active}"),
    }
}

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
        footer: Some(active_line(&o.active_player, lang)).filter(|s| !s.is_empty()),
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
        footer: active.map(|a| active_line(a, lang)).filter(|s| !s.is_empty()),
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
            Lang::En => format!("🎲 Roll-off — {}. {} wins", o.winner.number, o.winner.name),
            Lang::Ja => format!("🎲 ロールオフ — {}. {}の勝ち", o.winner.number, o.winner.name),
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
            win.name,
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
            if rest.is_empty() {
                w.name.clone()
            } else {
                format!("{} ×{}", w.name, rest.len() + 1)
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
                    e.model, e.instance.name, e.instance.id
                ),
                Lang::Ja => format!(
                    "{}：{} #{} 終了{remains}",
                    e.model, e.instance.name, e.instance.id
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
            Lang::Ja => format!(
                "アクティブ: **{}** · 非アクティブ: {}（{why}）",
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

#[cfg(test)]
mod tests {
    use super::*;
    use engine::dice::FixedRoller;

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
    use engine::systems::warmachine::attack::{AttackOptions, AttackRequest};
    use engine::systems::warmachine::dice::{DiceRequest, Discard, DiscardWhich};
    use engine::systems::warmachine::effects::preset;
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
        assert_eq!(v.footer.as_deref(), Some("Active player: Ana"));
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
