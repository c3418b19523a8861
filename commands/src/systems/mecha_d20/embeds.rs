//! d20 Mecha results: both d20s with their NAT 20 badges and every part of each total, HIT or
//! EVADED and why, the damage dice with armour, the multiplier and the minimum of 1, CRITICAL with
//! its secondary row (held until the application phase), the application phase entry by entry,
//! the survival checks, and the battle board on `/session status`.

use engine::i18n::Lang;
use engine::session::Session;
use engine::systems::mecha_d20::attack::{AttackOutcome, Decision, StrikeOutcome};
use engine::systems::mecha_d20::check::Check;
use engine::systems::mecha_d20::damage::{DamageOutcome, Multiplier};
use engine::systems::mecha_d20::initiative::InitiativeOutcome;
use engine::systems::mecha_d20::movement::{MoveKind, MoveOutcome};
use engine::systems::mecha_d20::secondary::{
    LimbPart, PartKind, SecondaryEffect, SecondaryRoll, SecondaryRow, Stat,
};
use engine::systems::mecha_d20::state::{ApplicationOutcome, Held, PromptAnswer, PromptKind};
use engine::systems::mecha_d20::unit::{Category, WeaponStatus};
use engine::systems::mecha_d20::{MechaState, Unit};

use crate::embeds::{EmbedView, colour};

/// `d20 **17** + Concentration 5 + Shooting 3 = **25**`, NAT 20 marked.
pub fn check_line(c: &Check, lang: Lang) -> String {
    let die = if c.natural_20 {
        format!("d20 **{}** 🌟{}", c.die, lang.pick("NAT 20", "純粋な20"))
    } else {
        format!("d20 **{}**", c.die)
    };
    let mut out = die;
    for p in c.parts.iter().filter(|p| p.value != 0) {
        let sign = if p.value < 0 { "−" } else { "+" };
        out.push_str(&format!(" {sign} {} {}", p.source.name(lang), p.value.abs()));
    }
    out.push_str(&format!(" = **{}**", c.total));
    out
}

fn multiplier_text(m: Multiplier) -> String {
    match m {
        Multiplier::Times(n) => format!("×{n}"),
        Multiplier::DivideBy(n) => format!("÷{n}"),
    }
}

/// `2d6+5 [3, 5] = 13 − armour 8 = 5 ÷2 → 3 · minimum 1`.
pub fn damage_line(d: &DamageOutcome, lang: Lang) -> String {
    let dice: Vec<String> = d.dice.iter().map(u32::to_string).collect();
    let mut s = format!(
        "{} [{}] = {} − {} {} = {}",
        d.power,
        dice.join(", "),
        d.rolled_total,
        lang.pick("armour", "装甲"),
        d.armour,
        d.raw
    );
    if let Some(m) = d.multiplier {
        s.push_str(&format!(" {} → {}", multiplier_text(m), d.multiplied));
    }
    if d.minimum_applied {
        s.push_str(lang.pick(" · minimum 1", " · 最低1"));
    }
    s.push_str(&format!(" → **{}**", d.damage));
    s
}

pub fn secondary_line(s: &SecondaryRoll, lang: Lang) -> String {
    format!(
        "d20 **{}** → {} {} ({})",
        s.die,
        s.row.number(),
        s.row.describe(lang),
        s.row.effect(lang)
    )
}

fn decision_text(d: Decision, hit: bool, lang: Lang) -> String {
    let why = match d {
        Decision::BothNatural20 => lang.pick("both natural 20: the attack hits", "両者20：攻撃側の命中"),
        Decision::AttackNatural20 => lang.pick("natural 20 on the attack", "攻撃が純粋な20"),
        Decision::EvasionNatural20 => lang.pick("natural 20 on the evasion", "回避が純粋な20"),
        Decision::AttackTotal => lang.pick("attack ≥ evasion", "攻撃 ≥ 回避"),
        Decision::EvasionTotal => lang.pick("evasion > attack", "回避 > 攻撃"),
    };
    let verdict = if hit {
        lang.pick("💥 HIT", "💥 命中")
    } else {
        lang.pick("💨 EVADED", "💨 回避")
    };
    format!("**{verdict}** ({why})")
}

/// Attack and evasion checks and the verdict.
pub fn attack_fields(a: &AttackOutcome, lang: Lang) -> Vec<(String, String, bool)> {
    let mut evasion = check_line(&a.evasion, lang);
    if a.facing_penalty != 0 {
        evasion.push_str(&format!(" ({} · {})", a.facing.name(lang), a.cockpit.name(lang)));
    }
    vec![
        (
            lang.pick("Attack", "攻撃").into(),
            check_line(&a.attack, lang),
            false,
        ),
        (lang.pick("Evasion", "回避").into(), evasion, false),
        (
            lang.pick("Result", "結果").into(),
            decision_text(a.decision, a.hit, lang),
            false,
        ),
    ]
}

/// Damage, critical and the secondary row; `held` the entry it waits as.
pub fn damage_fields(d: &DamageOutcome, held: Option<u32>, lang: Lang) -> Vec<(String, String, bool)> {
    let mut fields = vec![(
        lang.pick("Damage", "ダメージ").into(),
        damage_line(d, lang),
        false,
    )];
    if d.critical {
        let row = d.secondary.map(|s| secondary_line(&s, lang)).unwrap_or_default();
        fields.push((
            lang.pick("🔥 CRITICAL: secondary damage", "🔥 クリティカル：二次損害")
                .into(),
            row,
            false,
        ));
    }
    if let Some(id) = held {
        fields.push((
            lang.pick("Held", "保留").into(),
            match lang {
                Lang::En => format!("#{id}: applied in the application phase"),
                Lang::Ja => format!("#{id}：適用フェイズで適用"),
            },
            false,
        ));
    }
    fields
}

pub fn strike_view(s: &StrikeOutcome, held: Option<u32>, pending: u32, lang: Lang, who: &str) -> EmbedView {
    let mut fields = attack_fields(&s.attack, lang);
    if let Some(d) = &s.damage {
        fields.extend(damage_fields(d, held, lang));
        if held.is_some() {
            fields.push((
                lang.pick("Pending", "保留中").into(),
                match lang {
                    Lang::En => format!("{}: {pending} damage waits", s.target),
                    Lang::Ja => format!("{}：保留ダメージ {pending}", s.target),
                },
                false,
            ));
        }
    }
    let colour = match (&s.damage, s.attack.hit) {
        (Some(d), _) if d.critical => colour::CRITICAL,
        (_, true) => colour::SUCCESS,
        _ => colour::FAILURE,
    };
    EmbedView {
        title: format!("⚔️ {} → {} · {}", s.attacker, s.target, s.weapon),
        description: format!("{}\n{}", where_text(s, lang), no_ap(lang)),
        colour,
        fields,
        footer: Some(who.to_string()),
    }
}

/// Attacks cost no AP: the rules give moving an AP cost (checklist 22) and attacks none.
fn no_ap(lang: Lang) -> &'static str {
    lang.pick(
        "No AP spent: the rules give attacks no AP cost (a table that charges some: /mecha spend ap:).",
        "APは消費しません：ルールに攻撃のAPコストはありません（消費する卓は /mecha spend ap: で）。",
    )
}

/// "1 hex", "3 hexes".
pub fn hexes(n: u32, lang: Lang) -> String {
    match (lang, n) {
        (Lang::En, 1) => "1 hex".into(),
        (Lang::En, n) => format!("{n} hexes"),
        (Lang::Ja, n) => format!("{n}ヘクス"),
    }
}

/// Where the strike reached: a melee weapon's hex 0 (no arc), else the distance and the arc.
fn where_text(s: &StrikeOutcome, lang: Lang) -> String {
    match (s.melee, lang) {
        (true, Lang::En) => "melee · hex 0".into(),
        (true, Lang::Ja) => "格闘 · 0ヘクス".into(),
        (false, Lang::En) => format!("{} · {}", hexes(s.distance, lang), s.arc.name(lang)),
        (false, Lang::Ja) => format!("距離 {} · {}", s.distance, s.arc.name(lang)),
    }
}

fn stat_name(s: Stat, lang: Lang) -> &'static str {
    match s {
        Stat::EscapeDevice => lang.pick("escape device", "脱出装置"),
        Stat::Propellant => lang.pick("propellant", "推進剤量"),
        Stat::Evasion => lang.pick("evasion", "回避力"),
        Stat::Armour => lang.pick("armour", "装甲"),
        Stat::FireControl => lang.pick("fire control", "火器管制力"),
        Stat::Accuracy => lang.pick("accuracy", "命中"),
        Stat::Reactor => lang.pick("reactor", "反応炉"),
        Stat::Movement => lang.pick("movement", "移動力"),
    }
}

fn status_text(s: WeaponStatus, lang: Lang) -> String {
    match (s, lang) {
        (WeaponStatus::Usable, _) => lang.pick("usable", "使用可").into(),
        (WeaponStatus::Malfunction { turn }, Lang::En) => format!("malfunction in turn {turn}"),
        (WeaponStatus::Malfunction { turn }, Lang::Ja) => format!("ターン{turn}は兵器不調"),
        (WeaponStatus::Destroyed { from }, Lang::En) => format!("destroyed from turn {from}"),
        (WeaponStatus::Destroyed { from }, Lang::Ja) => format!("ターン{from}から兵器破損"),
        (WeaponStatus::Lost { from }, Lang::En) => format!("lost from turn {from}"),
        (WeaponStatus::Lost { from }, Lang::Ja) => format!("ターン{from}から兵器損失"),
    }
}

fn part_name(p: PartKind, lang: Lang) -> &'static str {
    match p {
        PartKind::Head => lang.pick("head", "頭部"),
        PartKind::Arm => lang.pick("arm", "腕"),
        PartKind::Leg => lang.pick("leg", "脚"),
    }
}

pub fn effect_text(e: &SecondaryEffect, lang: Lang) -> String {
    match e {
        // A stat already at its floor loses nothing: say so rather than "armour −0".
        SecondaryEffect::Lowered { stat, by: 0 } => match lang {
            Lang::En => format!("{} already 0: no effect", stat_name(*stat, lang)),
            Lang::Ja => format!("{}は既に0：効果なし", stat_name(*stat, lang)),
        },
        SecondaryEffect::Lowered { stat, by } => format!("{} −{by}", stat_name(*stat, lang)),
        SecondaryEffect::WeaponHit { weapon, status, .. } => {
            format!("{weapon}: {}", status_text(*status, lang))
        }
        SecondaryEffect::NoWeaponLeft { category } => {
            let c = match category {
                Category::Fixed => lang.pick("fixed", "固定"),
                Category::Standard => lang.pick("standard", "標準"),
            };
            match lang {
                Lang::En => format!("no usable {c} weapon left: no effect"),
                Lang::Ja => format!("使用可能な{c}武装がない：効果なし"),
            }
        }
        SecondaryEffect::PartDestroyed { part, lost } => {
            let mut s = match lang {
                Lang::En => format!("{} destroyed", part_name(part.part, lang)),
                Lang::Ja => format!("{}破損", part_name(part.part, lang)),
            };
            if let Some(side) = part.side {
                s.push_str(&format!(" ({})", side.name(lang)));
            }
            if !lost.is_empty() {
                s.push_str(&format!(
                    " · {} {}",
                    lang.pick("lost:", "兵器損失："),
                    lost.join(", ")
                ));
            }
            s
        }
        SecondaryEffect::OwnerChooses { part, candidates } => {
            let p = match part {
                LimbPart::Arm => lang.pick("arm", "腕"),
                LimbPart::Leg => lang.pick("leg", "脚"),
            };
            match lang {
                Lang::En => format!(
                    "{p} lost: the owner picks the weapons it carried (/mecha lose) among {}",
                    candidates.join(", ")
                ),
                Lang::Ja => format!(
                    "{p}の兵器損失：搭載していた兵器を所有者が選ぶ（/mecha lose）候補：{}",
                    candidates.join("、")
                ),
            }
        }
        SecondaryEffect::ReactorZero => lang.pick("reactor output 0", "反応炉出力0").into(),
    }
}

pub fn application_view(a: &ApplicationOutcome, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    for e in &a.entries {
        let h = &e.held;
        let name = format!("#{} {} → {} · {}", h.id, h.attacker, h.target, h.weapon);
        let mut value = if e.missing {
            lang.pick(
                "the target left the battle: nothing applied",
                "対象が戦闘にいない：適用なし",
            )
            .to_string()
        } else {
            match lang {
                Lang::En => format!(
                    "{} damage · durability {} → {}",
                    h.damage, e.durability_before, e.durability_after
                ),
                Lang::Ja => format!(
                    "{}ダメージ · 耐久度 {} → {}",
                    h.damage, e.durability_before, e.durability_after
                ),
            }
        };
        if let Some(s) = h.secondary {
            value.push_str(&format!("\n🔥 {} {}", s.row.number(), s.row.describe(lang)));
        }
        for fx in &e.effects {
            value.push_str(&format!("\n· {}", effect_text(fx, lang)));
        }
        fields.push((name, value, false));
    }
    if !a.destroyed.is_empty() {
        fields.push((
            lang.pick("💀 DESTROYED: escape checks", "💀 撃破：脱出判定")
                .into(),
            a.destroyed.join(", "),
            false,
        ));
    }
    if !a.fatigue.is_empty() {
        fields.push((
            lang.pick("Fatigue checks", "疲労判定").into(),
            a.fatigue.join(", "),
            false,
        ));
    }
    EmbedView {
        title: match lang {
            Lang::En => format!("🛠️ Application phase · turn {}", a.turn),
            Lang::Ja => format!("🛠️ 適用フェイズ · ターン{}", a.turn),
        },
        description: if a.entries.is_empty() {
            lang.pick("No held damage.", "保留ダメージはありません。").into()
        } else {
            String::new()
        },
        colour: if a.destroyed.is_empty() {
            colour::NEUTRAL
        } else {
            colour::CRITICAL
        },
        fields,
        footer: Some(lang.pick("The turn is over.", "ターン終了").into()),
    }
}

pub fn prompt_title(kind: PromptKind, unit: &str, lang: Lang) -> String {
    match (kind, lang) {
        (PromptKind::Escape, Lang::En) => format!("🪂 {unit} · Escape check"),
        (PromptKind::Escape, Lang::Ja) => format!("🪂 {unit} · 脱出判定"),
        (PromptKind::Fatigue, Lang::En) => format!("😓 {unit} · Fatigue check"),
        (PromptKind::Fatigue, Lang::Ja) => format!("😓 {unit} · 疲労判定"),
        (PromptKind::Faint, Lang::En) => format!("😵 {unit} · Faint check"),
        (PromptKind::Faint, Lang::Ja) => format!("😵 {unit} · 気絶判定"),
    }
}

/// A raw check's title (no unit): "😵 Faint check (raw)".
pub fn raw_title(kind: PromptKind, lang: Lang) -> String {
    let (emoji, en, ja) = match kind {
        PromptKind::Escape => ("🪂", "Escape check", "脱出判定"),
        PromptKind::Fatigue => ("😓", "Fatigue check", "疲労判定"),
        PromptKind::Faint => ("😵", "Faint check", "気絶判定"),
    };
    match lang {
        Lang::En => format!("{emoji} {en} (raw)"),
        Lang::Ja => format!("{emoji} {ja}（数値のみ）"),
    }
}

pub fn answer_view(unit: &str, a: &PromptAnswer, lang: Lang, who: &str) -> EmbedView {
    let (kind, check, verdict, good) = match a {
        PromptAnswer::Escape(e) => (
            PromptKind::Escape,
            &e.check,
            match (e.escaped, lang) {
                (true, _) => lang.pick("ESCAPED", "脱出成功").to_string(),
                (false, Lang::En) => format!("did not escape (needed {})", e.target),
                (false, Lang::Ja) => format!("脱出できず（目標{}）", e.target),
            },
            e.escaped,
        ),
        PromptAnswer::Fatigue(f) => (
            PromptKind::Fatigue,
            &f.check,
            if f.rested {
                lang.pick("no fatigue (≥ 20)", "疲労なし（20以上）").to_string()
            } else {
                match lang {
                    Lang::En => format!("+1 fatigue (total {}) · AP left {}", f.fatigue, f.ap),
                    Lang::Ja => format!("疲労+1（合計{}）· 残りAP {}", f.fatigue, f.ap),
                }
            },
            f.rested,
        ),
        PromptAnswer::Faint(f) => (
            PromptKind::Faint,
            &f.check,
            if f.conscious {
                lang.pick("stays conscious (≥ 20)", "意識を保つ（20以上）")
                    .to_string()
            } else {
                lang.pick("FAINTED", "気絶").to_string()
            },
            f.conscious,
        ),
    };
    EmbedView {
        title: prompt_title(kind, unit, lang),
        description: check_line(check, lang),
        colour: if good { colour::SUCCESS } else { colour::FAILURE },
        fields: vec![(
            lang.pick("Result", "結果").into(),
            format!("**{verdict}**"),
            false,
        )],
        footer: Some(who.to_string()),
    }
}

pub fn initiative_view(o: &InitiativeOutcome, turn: u32, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    for (i, round) in o.rounds.iter().enumerate() {
        let lines: Vec<String> = round
            .rolls
            .iter()
            .map(|r| format!("{} · {}: {}", r.squad, r.pilot, check_line(&r.check, lang)))
            .collect();
        let name = match (i, lang) {
            (0, Lang::En) => "Rolls".to_string(),
            (0, Lang::Ja) => "判定".to_string(),
            (n, Lang::En) => format!("Reroll {n} ({})", round.squads.join(", ")),
            (n, Lang::Ja) => format!("振り直し{n}（{}）", round.squads.join("、")),
        };
        fields.push((name, lines.join("\n"), false));
    }
    let order: Vec<String> = o
        .order
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{}. {s}", i + 1))
        .collect();
    fields.push((lang.pick("Order", "行動順").into(), order.join("\n"), false));
    EmbedView {
        title: match lang {
            Lang::En => format!("🎲 Initiative · turn {turn}"),
            Lang::Ja => format!("🎲 イニシアチブ · ターン{turn}"),
        },
        description: o.mode.name(lang).to_string(),
        colour: colour::NEUTRAL,
        fields,
        footer: None,
    }
}

pub fn move_view(unit: &str, m: &MoveOutcome, lang: Lang) -> EmbedView {
    let kind = match m.kind {
        MoveKind::Normal => lang.pick("Normal move", "通常移動"),
        MoveKind::HighSpeed => lang.pick("High-speed move", "高速移動"),
    };
    let mut description = match lang {
        Lang::En => format!(
            "{} of {} · AP left {} · propellant {}",
            m.hexes,
            hexes(m.max_hexes, lang),
            m.ap_left,
            m.propellant_left
        ),
        Lang::Ja => format!(
            "{}/{}ヘクス · 残りAP {} · 推進剤 {}",
            m.hexes, m.max_hexes, m.ap_left, m.propellant_left
        ),
    };
    if m.stopped_by_zone_of_control {
        description.push_str(lang.pick(
            "\nStopped in a zone of control: another Move action (with AP) leaves it.",
            "\n支配空間で停止：APがあれば次の移動で離脱できます。",
        ));
    }
    EmbedView {
        title: format!("🦿 {unit} · {kind}"),
        description,
        colour: colour::NEUTRAL,
        fields: Vec::new(),
        footer: None,
    }
}

fn weapon_status_marks(u: &Unit, turn: u32, lang: Lang) -> String {
    let off: Vec<String> = u
        .suit
        .weapons
        .iter()
        .filter(|w| w.status != WeaponStatus::Usable)
        .map(|w| {
            let now = if w.status.usable_in(turn.max(1)) {
                ""
            } else {
                "✖ "
            };
            format!("{now}{} ({})", w.name, status_text(w.status, lang))
        })
        .collect();
    off.join(", ")
}

/// One unit's status line: durability (pending apart), AP, fatigue, spirit, badges.
pub fn unit_line(u: &Unit, pending: u32, turn: u32, lang: Lang) -> String {
    let s = &u.suit;
    let p = &u.pilot;
    let mut line = match lang {
        Lang::En => format!("Durability {}/{}", s.durability, s.durability_max),
        Lang::Ja => format!("耐久度 {}/{}", s.durability, s.durability_max),
    };
    if pending > 0 {
        line.push_str(&match lang {
            Lang::En => format!(" (pending −{pending})"),
            Lang::Ja => format!("（保留 −{pending}）"),
        });
    }
    line.push_str(&format!(
        " · AP {}/{} · {} {} · {} {}/{}",
        p.ap,
        p.ap_max,
        lang.pick("fatigue", "疲労"),
        p.fatigue,
        lang.pick("spirit", "精神"),
        p.spirit,
        p.spirit_max
    ));
    if !p.squad.is_empty() {
        line.push_str(&format!(" · {} {}", lang.pick("squad", "部隊"), p.squad));
        if p.leader {
            line.push_str(lang.pick(" (leader)", "（隊長）"));
        }
    }
    let mut badges = Vec::new();
    if s.destroyed {
        badges.push(lang.pick("💀 DESTROYED", "💀 撃破").to_string());
    }
    match p.escaped {
        Some(true) => badges.push(lang.pick("ESCAPED", "脱出").to_string()),
        Some(false) => badges.push(lang.pick("did not escape", "脱出失敗").to_string()),
        None => {}
    }
    if p.fainted {
        badges.push(lang.pick("😵 FAINTED", "😵 気絶").to_string());
    }
    if s.wear.reactor_zero {
        badges.push(lang.pick("☢️ REACTOR 0", "☢️ 反応炉0").to_string());
    }
    if !badges.is_empty() {
        line.push_str(&format!("\n**{}**", badges.join(" · ")));
    }
    let weapons = weapon_status_marks(u, turn, lang);
    if !weapons.is_empty() {
        line.push_str(&format!("\n{weapons}"));
    }
    line
}

pub fn phase_text(state: &MechaState, lang: Lang) -> String {
    let mut s = match lang {
        Lang::En => format!("Turn {} · {}", state.turn, state.phase.name(lang)),
        Lang::Ja => format!("ターン{} · {}", state.turn, state.phase.name(lang)),
    };
    if let Some(squad) = state.acting_squad() {
        s.push_str(&match lang {
            Lang::En => format!(" · acting: {squad}"),
            Lang::Ja => format!(" · 行動中：{squad}"),
        });
    }
    if !state.squad_order.is_empty() {
        s.push_str(&format!(
            "\n{} {}",
            lang.pick("Order:", "行動順："),
            state.squad_order.join(" → ")
        ));
    }
    s
}

pub fn held_text(held: &[Held], lang: Lang) -> String {
    if held.is_empty() {
        return lang.pick("none", "なし").into();
    }
    held.iter()
        .map(|h| {
            let mut s = format!(
                "#{} {} → {} · {} · {}",
                h.id, h.attacker, h.target, h.weapon, h.damage
            );
            if let Some(r) = h.secondary {
                s.push_str(&format!(" 🔥{}", r.row.number()));
            }
            s
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The board on `/session status`: the turn, each unit, the held list, waiting checks.
pub fn board_fields(session: &Session, state: &MechaState, lang: Lang) -> Vec<(String, String, bool)> {
    let mut fields = vec![(lang.pick("Battle", "戦闘").into(), phase_text(state, lang), false)];
    for e in &session.roster {
        let Ok(u) = Unit::read(&e.sheet, &e.name) else {
            continue;
        };
        fields.push((
            e.name.clone(),
            unit_line(&u, state.pending_for(&e.name), state.turn, lang),
            false,
        ));
    }
    fields.push((
        lang.pick("Held damage", "保留ダメージ").into(),
        held_text(&state.held, lang),
        false,
    ));
    if !state.prompts.is_empty() {
        let waiting: Vec<String> = state
            .prompts
            .iter()
            .map(|p| prompt_title(p.kind, &p.unit, lang))
            .collect();
        fields.push((
            lang.pick("Waiting checks", "未実施の判定").into(),
            waiting.join("\n"),
            false,
        ));
    }
    fields
}

pub fn row_view(row: SecondaryRow, die: Option<u32>, lang: Lang, who: &str) -> EmbedView {
    EmbedView {
        title: lang.pick("🔥 Secondary damage", "🔥 二次損害").into(),
        description: match die {
            Some(d) => secondary_line(&SecondaryRoll { die: d, row }, lang),
            None => format!("{} {} ({})", row.number(), row.describe(lang), row.effect(lang)),
        },
        colour: colour::CRITICAL,
        // The row's key is English (`reactor_zero`); a Japanese reader has the row's number and
        // the seed's words above it (issue 36).
        fields: match lang {
            Lang::En => vec![("Key".into(), format!("`{}`", row.key()), true)],
            Lang::Ja => Vec::new(),
        },
        footer: Some(who.to_string()),
    }
}

pub fn phase_view(state: &MechaState, lang: Lang) -> EmbedView {
    EmbedView {
        title: format!("⏱️ {}", state.phase.name(lang)),
        description: phase_text(state, lang),
        colour: colour::NEUTRAL,
        fields: Vec::new(),
        footer: None,
    }
}
