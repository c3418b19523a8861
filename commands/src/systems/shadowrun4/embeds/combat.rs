//! Attacks (defence, soak, damage and the monitors), initiative and surprise.

use super::*;

pub(super) fn damage_type(t: DamageType, lang: Lang) -> &'static str {
    match t {
        DamageType::Physical => lang.pick("Physical", "身体"),
        DamageType::Stun => lang.pick("Stun", "精神"),
    }
}

pub(super) fn damage_code(t: DamageType) -> &'static str {
    match t {
        DamageType::Physical => "P",
        DamageType::Stun => "S",
    }
}

/// A character's two monitors.
pub fn monitors_text(c: &Character, lang: Lang) -> String {
    format!(
        "{} {}\n{} {}\n{} · {} {}",
        lang.pick("Physical", "身体"),
        monitor_bar(c.physical, c.physical_track()),
        lang.pick("Stun", "精神"),
        monitor_bar(c.stun, c.stun_track()),
        condition_text(c.condition(), lang),
        lang.pick("wounds", "負傷修正"),
        c.wound_modifier()
    )
}

/// What marking damage did, for the field added when it is applied.
pub fn damage_report_text(name: &str, r: &DamageReport, c: &Character, lang: Lang) -> String {
    let mut s = match lang {
        Lang::En => format!(
            "{name} marks {} {} box(es).",
            r.boxes,
            damage_type(r.damage_type, lang)
        ),
        Lang::Ja => format!(
            "{name}に{}ダメージ{}点。",
            damage_type(r.damage_type, lang),
            r.boxes
        ),
    };
    if r.stun_overflow > 0 {
        s.push_str(&match lang {
            Lang::En => format!(" {} Stun overflowed into Physical.", r.stun_overflow),
            Lang::Ja => format!(" 精神{}点が身体にあふれました。", r.stun_overflow),
        });
    }
    s.push('\n');
    s.push_str(&monitors_text(c, lang));
    s
}

pub fn attack_view(
    o: &AttackOutcome,
    attacker: &str,
    target: &str,
    weapon: Option<&str>,
    target_now: Option<&Character>,
    lang: Lang,
) -> EmbedView {
    let kind = match o.kind {
        AttackKind::Ranged => lang.pick("Ranged attack", "射撃攻撃"),
        AttackKind::Melee => lang.pick("Melee attack", "近接攻撃"),
    };
    let what = match weapon {
        Some(w) => format!("{kind} → {target} ({w})"),
        None => format!("{kind} → {target}"),
    };
    let mut fields = vec![f(
        &format!("{} · {attacker}", lang.pick("Attack", "攻撃")),
        rolled_text(&o.attack, lang),
    )];
    let defence_name = format!(
        "{} · {target}{}",
        lang.pick("Defence", "防御"),
        if o.full_defence {
            lang.pick(" (full defence)", "（全力防御）")
        } else {
            ""
        }
    );
    let defence = if o.undefended {
        lang.pick("Unaware: no defence", "不意: 防御なし").to_string()
    } else {
        opt_rolled(&o.defence, lang)
    };
    fields.push(f(&defence_name, defence));
    fields.push(fi(
        lang.pick("Net hits", "純ヒット"),
        format!("**{}**", o.net_hits),
    ));
    fields.push(fi(
        lang.pick("Result", "結果"),
        if o.hit {
            format!("**{}**", lang.pick("Hit", "命中"))
        } else {
            format!("**{}**", lang.pick("Miss (ties miss)", "回避（同数は回避）"))
        },
    ));
    if let Some(d) = &o.damage {
        fields.push(f(
            &format!("{} · {target}", lang.pick("Soak", "ダメージ抵抗")),
            opt_rolled(&d.soak, lang),
        ));
        let mut dmg = format!(
            "DV {} + {} = **{}{}** {} {}+({}) = {} → **{}**",
            d.weapon_dv,
            lang.pick("net", "純ヒット"),
            d.modified_dv,
            damage_code(d.damage_type),
            lang.pick("vs armour", "対 装甲"),
            d.armour,
            d.ap,
            d.modified_armour,
            damage_type(d.damage_type, lang)
        );
        dmg.push_str(&match lang {
            Lang::En => format!(
                "\n{} − {} soaked = **{} box(es)**",
                d.modified_dv, d.soak_hits, d.boxes
            ),
            Lang::Ja => format!("\n{} − 抵抗{} = **{}点**", d.modified_dv, d.soak_hits, d.boxes),
        });
        if d.knockdown {
            dmg.push_str(lang.pick("\n**💥 KNOCKDOWN**", "\n**💥 転倒**"));
        }
        fields.push(f(lang.pick("Damage", "ダメージ"), dmg));
        if let Some(c) = target_now {
            fields.push(f(
                &format!("{} · {target}", lang.pick("Monitor now", "現在の状態モニター")),
                monitors_text(c, lang),
            ));
        }
    }
    let mut rolls = vec![rg(attacker, &o.attack), rg_opt(target, &o.defence)];
    if let Some(d) = &o.damage {
        rolls.push(rg_opt(
            format!("{target}, {}", lang.pick("soak", "ダメージ抵抗")),
            &d.soak,
        ));
    }
    let (title, colour) = headline_of(who(Some(attacker), &what), &rolls, Some(o.hit), lang);
    view(title, colour, String::new(), fields)
}

pub fn initiative_view(s: &InitiativeState, lang: Lang) -> EmbedView {
    let mut lines = Vec::new();
    for (i, e) in s.entries.iter().enumerate() {
        let mut l = format!(
            "{}. **{}** {} ({} {} + {} {})",
            i + 1,
            e.name,
            e.score,
            lang.pick("Init", "イニシアティブ"),
            e.initiative,
            e.hits,
            lang.pick("hits", "ヒット")
        );
        l.push_str(&format!(
            " · {} {}",
            s.passes_of(e),
            lang.pick("pass(es)", "パス")
        ));
        if s.extra_pass.contains(&e.name) {
            l.push_str(lang.pick(" (+1 pass: Edge)", "（エッジで+1パス）"));
        }
        if s.acting_first.contains(&e.name) {
            l.push_str(lang.pick(" · **acts first (Edge)**", " · **先行行動（エッジ）**"));
        }
        if let Some(r) = &e.roll {
            l.push_str(&format!(" {}", dice_text(&r.roll, lang)));
            if let Some(g) = glitch_text(r.glitch(), lang) {
                l.push_str(&format!(" **{g}**"));
            }
        }
        if !e.roll_off.is_empty() {
            let ro: Vec<String> = e.roll_off.iter().map(u32::to_string).collect();
            l.push_str(&format!(
                " ({} {})",
                lang.pick("roll-off", "同値決着"),
                ro.join(",")
            ));
        }
        lines.push(l);
    }
    let max_pass = s.entries.iter().map(|e| s.passes_of(e)).max().unwrap_or(1);
    let now = s.order().first().map_or_else(
        || lang.pick("nobody", "なし").to_string(),
        |e| format!("**{}**", e.name),
    );
    let mut fields = vec![fi(lang.pick("Acting now", "行動中"), now)];
    for pass in 1..=max_pass {
        // Acting first with Edge holds for the current pass only.
        let order: Vec<&str> = if pass == s.pass {
            s.order().iter().map(|e| e.name.as_str()).collect()
        } else {
            s.entries
                .iter()
                .filter(|e| s.passes_of(e) >= pass)
                .map(|e| e.name.as_str())
                .collect()
        };
        let mark = match pass.cmp(&s.pass) {
            std::cmp::Ordering::Less => lang.pick(" (done)", "（終了）"),
            std::cmp::Ordering::Equal => lang.pick(" ◀ now", " ◀ 現在"),
            std::cmp::Ordering::Greater => "",
        };
        fields.push(f(
            &format!("{} {pass}{mark}", lang.pick("Pass", "パス")),
            order.join(" → "),
        ));
    }
    view(
        format!(
            "⚡ {} · {}",
            lang.pick("Initiative", "イニシアティブ"),
            crate::systems::shadowrun4::initiative::turn_label(s.turn, s.pass, lang)
        ),
        colour::NEUTRAL,
        lines.join("\n"),
        fields,
    )
}

pub fn surprise_view(o: &SurpriseOutcome, lang: Lang) -> EmbedView {
    let mut lines = Vec::new();
    for r in &o.rolls {
        let dice = r
            .roll
            .as_ref()
            .map_or_else(String::new, |x| dice_text(&x.roll, lang));
        lines.push(format!(
            "**{}** {} → {} {}",
            r.name,
            dice,
            r.hits,
            lang.pick("hits", "ヒット")
        ));
    }
    let surprised: Vec<String> = o
        .surprised
        .iter()
        .map(|s| match lang {
            Lang::En => format!("{} is surprised by {}", s.surprised, s.by),
            Lang::Ja => format!("{}は{}に不意を突かれた", s.surprised, s.by),
        })
        .collect();
    view(
        format!("😱 {}", lang.pick("Surprise", "不意打ち")),
        colour::NEUTRAL,
        lines.join("\n"),
        vec![f(
            lang.pick("Surprised", "不意を突かれた"),
            if surprised.is_empty() {
                lang.pick("Nobody", "なし").to_string()
            } else {
                surprised.join("\n")
            },
        )],
    )
}
