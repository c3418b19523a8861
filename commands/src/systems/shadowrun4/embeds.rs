//! Shadowrun 4 results: every die (hits bold, 1s marked ✗, exploded sixes after 💥, Second
//! Chance rerolls after ↺ with the replaced dice struck), hits, threshold and net hits, a
//! GLITCH or CRITICAL GLITCH in the title and colour, the pool's parts (every modifier
//! applied), and damage, monitor boxes and knockdown where they apply.

use engine::i18n::Lang;
use engine::systems::shadowrun4::character::{Character, DamageReport};
use engine::systems::shadowrun4::combat::{AttackKind, AttackOutcome};
use engine::systems::shadowrun4::dice::{Die, DieSource, PoolRoll};
use engine::systems::shadowrun4::initiative::{InitiativeState, SurpriseOutcome};
use engine::systems::shadowrun4::magic::{
    DispelOutcome, DrainOutcome, SpellOutcome, SpellResult, SummonOutcome,
};
use engine::systems::shadowrun4::matrix::{CybercombatOutcome, HackOutcome, HackResult, MatrixTarget};
use engine::systems::shadowrun4::modifiers;
use engine::systems::shadowrun4::pool::{PartSource, PoolPart};
use engine::systems::shadowrun4::resonance::{CompileOutcome, ThreadOutcome};
use engine::systems::shadowrun4::rigging::{
    BREAK_AWAY_SUCCESSES, BreakAwayOutcome, ChaseOutcome, ChaseWinner, CrashOutcome, CutOffOutcome,
    PositioningOutcome, RangeBand,
};
use engine::systems::shadowrun4::sheet::{condition_text, monitor_bar};
use engine::systems::shadowrun4::test_kinds::{
    ExtendedEnd, ExtendedOutcome, OpposedOutcome, OpposedResult, Rolled, SearchOutcome, SuccessOutcome,
    TeamworkOutcome,
};
use engine::systems::shadowrun4::{DamageType, Glitch};

use crate::embeds::{EmbedView, colour};

/// A critical glitch: darker than any failure.
pub const CRITICAL_GLITCH: u32 = colour::CRITICAL;
/// A glitch: orange, apart from success green and failure red.
pub const GLITCH: u32 = colour::ALERT;

/// Most dice printed per roll; the rest are counted.
const DICE_SHOWN: usize = 60;

fn die_text(d: &Die) -> String {
    let mut s = d.face.to_string();
    if d.is_hit() {
        s = format!("**{s}**");
    }
    if d.face == 1 {
        s.push('✗');
    }
    if d.replaced {
        s = format!("~~{s}~~");
    }
    s
}

fn group(dice: &[&Die]) -> String {
    let mut parts: Vec<String> = dice.iter().take(DICE_SHOWN).map(|d| die_text(d)).collect();
    if dice.len() > DICE_SHOWN {
        parts.push(format!("… +{}", dice.len() - DICE_SHOWN));
    }
    parts.join(" ")
}

/// Every die in roll order, grouped by where it came from.
pub fn dice_text(roll: &PoolRoll, lang: Lang) -> String {
    let of = |src: DieSource| -> Vec<&Die> { roll.dice.iter().filter(|d| d.source == src).collect() };
    let mut out = format!("[{}]", group(&of(DieSource::Pool)));
    let exploded = of(DieSource::Exploded);
    if !exploded.is_empty() {
        out.push_str(&format!(" 💥[{}]", group(&exploded)));
    }
    let edge = of(DieSource::EdgeAdded);
    if !edge.is_empty() {
        out.push_str(&format!(" {}[{}]", lang.pick("+Edge", "+エッジ"), group(&edge)));
    }
    let second = of(DieSource::SecondChance);
    if !second.is_empty() {
        out.push_str(&format!(" ↺[{}]", group(&second)));
    }
    if roll.explosion_capped {
        out.push_str(lang.pick(" (explosions capped)", "（振り足し上限）"));
    }
    out
}

pub fn glitch_text(g: Glitch, lang: Lang) -> Option<&'static str> {
    engine::systems::shadowrun4::rules::glitch_text(g, lang)
}

fn signed(v: i32) -> String {
    if v < 0 {
        format!("−{}", -v)
    } else {
        format!("+{v}")
    }
}

pub fn part_name(p: &PoolPart, lang: Lang) -> String {
    match &p.source {
        PartSource::Dice => lang.pick("Dice", "ダイス").to_string(),
        PartSource::Attribute { attribute } => attribute.name(lang).to_string(),
        PartSource::Skill { skill } => skill.clone(),
        PartSource::Program { name } if name.is_empty() => lang.pick("Rating", "レーティング").to_string(),
        PartSource::Program { name } => name.clone(),
        PartSource::Defaulting => lang.pick("Defaulting", "技能なし").to_string(),
        PartSource::Wounds => lang.pick("Wounds", "負傷修正").to_string(),
        PartSource::Sustaining { count } => format!("{} ×{count}", lang.pick("Sustaining", "維持")),
        PartSource::Retry { tries } => format!("{} ×{tries}", lang.pick("Retry", "再挑戦")),
        PartSource::Preset { key, count } => {
            let name = modifiers::preset(key).map_or(key.as_str(), |p| p.name(lang));
            match count {
                Some(c) => format!("{name} ({c})"),
                None => name.to_string(),
            }
        }
        PartSource::Teamwork => lang.pick("Teamwork", "チームワーク").to_string(),
        PartSource::Armour => lang.pick("Armour", "装甲").to_string(),
        PartSource::ArmourPenetration => "AP".to_string(),
        PartSource::Positioning => lang.pick("Positioning", "位置取り").to_string(),
        PartSource::CutOff => lang.pick("Cut off", "進路妨害").to_string(),
        PartSource::Custom { label } => label.clone(),
    }
}

/// `Agility 5 + pistols 5 − Wounds 1 = 9`: every modifier applied.
pub fn parts_text(parts: &[PoolPart], total: i64, lang: Lang) -> String {
    let mut s = String::new();
    for (i, p) in parts.iter().enumerate() {
        if i == 0 && p.value >= 0 {
            s.push_str(&format!("{} {}", part_name(p, lang), p.value));
        } else {
            s.push_str(&format!(" {} {}", part_name(p, lang), signed(p.value)));
        }
    }
    format!("{s} = {total}")
}

/// A roll's summary: hits, its glitch (or the glitch Edge negated), a critical success.
fn summary_text(r: &Rolled, lang: Lang) -> String {
    let mut s = format!("{} **{}**", lang.pick("hits", "ヒット"), r.hits());
    if let Some(g) = glitch_text(r.glitch(), lang) {
        s.push_str(&format!(" · **{g}**"));
    }
    if let Some(g) = r.roll.negated.and_then(|n| glitch_text(n, lang)) {
        s.push_str(&format!(" · ~~{g}~~ ({})", lang.pick("negated", "回避")));
    }
    if r.roll.critical_success {
        s.push_str(lang.pick(" · ✨ CRITICAL SUCCESS", " · ✨ クリティカル成功"));
    }
    s
}

/// One roll as a field value: the summary (hits, glitch) first, so that cutting an over-long
/// field (Discord's 1,024 characters) only ever loses dice; then the pool with every part,
/// then the dice.
pub fn rolled_text(r: &Rolled, lang: Lang) -> String {
    let mut s = summary_text(r, lang);
    s.push('\n');
    s.push_str(&parts_text(&r.parts, r.pool, lang));
    match r.edge {
        Some(engine::systems::shadowrun4::EdgeBefore::PushTheLimit { edge }) => {
            s.push_str(&format!(" {} {edge}", lang.pick("+ Edge", "+ エッジ")))
        }
        Some(engine::systems::shadowrun4::EdgeBefore::LongShot { edge }) => s.push_str(&format!(
            " → {} {edge}",
            lang.pick("long shot: Edge", "ロングショット: エッジ")
        )),
        None => {}
    }
    s.push('\n');
    s.push_str(&dice_text(&r.roll, lang));
    s
}

fn opt_rolled(r: &Option<Rolled>, lang: Lang) -> String {
    r.as_ref().map_or_else(
        || lang.pick("no dice (0 hits)", "ダイスなし（0ヒット）").to_string(),
        |r| rolled_text(r, lang),
    )
}

fn rank(g: Glitch) -> u8 {
    match g {
        Glitch::None => 0,
        Glitch::Glitch => 1,
        Glitch::Critical => 2,
    }
}

/// Title and colour: a glitch of the main roll overrides everything else.
fn headline(base: String, glitch: Glitch, ok: Option<bool>, lang: Lang) -> (String, u32) {
    headline_of(base, &[(None, glitch)], ok, lang)
}

/// The glitch of one roll of a result, and whose roll it is (`None`: the main roll of a
/// result about one character, named in the title already).
type RollGlitch = (Option<String>, Glitch);

fn rg(whose: impl Into<String>, r: &Rolled) -> RollGlitch {
    (Some(whose.into()), r.glitch())
}

fn rg_opt(whose: impl Into<String>, r: &Option<Rolled>) -> RollGlitch {
    (
        Some(whose.into()),
        r.as_ref().map_or(Glitch::None, Rolled::glitch),
    )
}

/// Title and colour from every roll of a result: each glitch goes in the title, the worst
/// first and named with whose roll it was, and the worst one sets the colour — a defender's,
/// opponent's, soak or drain glitch is as visible as the actor's.
fn headline_of(base: String, rolls: &[RollGlitch], ok: Option<bool>, lang: Lang) -> (String, u32) {
    let mut glitches: Vec<&RollGlitch> = rolls.iter().filter(|(_, g)| *g != Glitch::None).collect();
    // Stable: equal glitches keep the order of the rolls (the actor's first).
    glitches.sort_by_key(|(_, g)| std::cmp::Reverse(rank(*g)));
    let Some((_, worst)) = glitches.first() else {
        let c = match ok {
            Some(true) => colour::SUCCESS,
            Some(false) => colour::FAILURE,
            None => colour::NEUTRAL,
        };
        return (base, c);
    };
    let mut title = String::new();
    for (whose, g) in &glitches {
        let Some(text) = glitch_text(*g, lang) else {
            continue;
        };
        title.push_str(text);
        if let Some(w) = whose {
            title.push_str(&format!(" ({w})"));
        }
        title.push_str(" · ");
    }
    title.push_str(&base);
    let c = if *worst == Glitch::Critical {
        CRITICAL_GLITCH
    } else {
        GLITCH
    };
    (title, c)
}

fn who(name: Option<&str>, what: &str) -> String {
    match name {
        Some(n) => format!("🎲 {n} · {what}"),
        None => format!("🎲 {what}"),
    }
}

fn verdict(ok: bool, lang: Lang) -> String {
    if ok {
        format!("**{}**", lang.pick("Success", "成功"))
    } else {
        format!("**{}**", lang.pick("Failure", "失敗"))
    }
}

fn view(title: String, colour: u32, description: String, fields: Vec<(String, String, bool)>) -> EmbedView {
    EmbedView {
        title,
        description,
        colour,
        fields,
        footer: None,
    }
}

fn f(name: &str, value: String) -> (String, String, bool) {
    (name.to_string(), value, false)
}

fn fi(name: &str, value: String) -> (String, String, bool) {
    (name.to_string(), value, true)
}

pub fn test_view(o: &SuccessOutcome, actor: Option<&str>, lang: Lang) -> EmbedView {
    let mut fields = Vec::new();
    let mut desc = match (&o.rolled, &o.bought) {
        (Some(r), _) => rolled_text(r, lang),
        (None, Some(b)) => format!(
            "{}\n{} **{}**",
            parts_text(&b.parts, b.pool, lang),
            lang.pick("Bought hits (no roll)", "ヒット購入（ロールなし）"),
            b.hits
        ),
        _ => String::new(),
    };
    if let Some(c) = o.hit_cap.filter(|_| o.raw_hits > o.hits) {
        desc.push_str(&format!("\n{} {c}", lang.pick("Hits capped at", "ヒット上限")));
    }
    fields.push(fi(lang.pick("Hits", "ヒット"), format!("**{}**", o.hits)));
    if let Some(t) = o.threshold {
        fields.push(fi(lang.pick("Threshold", "目標値"), t.to_string()));
    }
    if let Some(n) = o.net_hits {
        fields.push(fi(lang.pick("Net hits", "ネット・ヒット"), format!("**{n}**")));
    }
    if let Some(ok) = o.success {
        fields.push(fi(lang.pick("Result", "結果"), verdict(ok, lang)));
    }
    let (title, colour) = headline(
        who(actor, lang.pick("Success test", "成功テスト")),
        o.glitch,
        o.success,
        lang,
    );
    view(title, colour, desc, fields)
}

fn opposed_result(r: OpposedResult, lang: Lang) -> &'static str {
    match r {
        OpposedResult::ActorWins => lang.pick("**Actor wins**", "**行動側の勝ち**"),
        OpposedResult::Tie => lang.pick("**Tie: the defender wins**", "**同数: 防御側の勝ち**"),
        OpposedResult::OpponentWins => lang.pick("**Opponent wins**", "**相手側の勝ち**"),
    }
}

pub fn opposed_view(
    o: &OpposedOutcome,
    actor: Option<&str>,
    opponent: Option<&str>,
    lang: Lang,
) -> EmbedView {
    let a = actor.unwrap_or(lang.pick("Actor", "行動側"));
    let b = opponent.unwrap_or(lang.pick("Opponent", "相手側"));
    let fields = vec![
        f(a, rolled_text(&o.actor, lang)),
        f(b, opt_rolled(&o.opponent, lang)),
        fi(
            lang.pick("Net hits", "ネット・ヒット"),
            format!("**{}**", o.net_hits),
        ),
        fi(
            lang.pick("Result", "結果"),
            opposed_result(o.result, lang).to_string(),
        ),
    ];
    let (title, colour) = headline_of(
        who(actor, lang.pick("Opposed test", "対抗テスト")),
        &[rg(a, &o.actor), rg_opt(b, &o.opponent)],
        Some(o.result.actor_succeeds()),
        lang,
    );
    view(title, colour, String::new(), fields)
}

pub fn extended_view(o: &ExtendedOutcome, actor: Option<&str>, lang: Lang) -> EmbedView {
    let mut lines = vec![parts_text(&o.parts, i64::from(o.pool), lang)];
    for (i, iv) in o.intervals.iter().enumerate().take(30) {
        let mut l = format!(
            "#{} {} → {} {}",
            i + 1,
            dice_text(&iv.roll, lang),
            iv.roll.hits,
            lang.pick("hits", "ヒット")
        );
        l.push_str(&format!(" (Σ {})", iv.total));
        if let Some(g) = glitch_text(iv.roll.glitch, lang) {
            l.push_str(&format!(" **{g}**"));
        }
        lines.push(l);
    }
    if o.intervals.len() > 30 {
        lines.push(format!("… +{}", o.intervals.len() - 30));
    }
    let end = match o.end {
        ExtendedEnd::Reached => lang.pick("Threshold reached", "目標値に到達"),
        ExtendedEnd::CriticalGlitch => {
            lang.pick("Ended by a critical glitch", "クリティカル・グリッチで失敗")
        }
        ExtendedEnd::OutOfIntervals => lang.pick("Out of intervals", "試行回数切れ"),
    };
    let fields = vec![
        fi(
            lang.pick("Total hits", "合計ヒット"),
            format!("**{}**", o.total_hits),
        ),
        fi(lang.pick("Threshold", "目標値"), o.threshold.to_string()),
        fi(lang.pick("Intervals", "試行回数"), o.intervals.len().to_string()),
        fi(
            lang.pick("Result", "結果"),
            format!("{} · {end}", verdict(o.success, lang)),
        ),
    ];
    let glitch = if o.end == ExtendedEnd::CriticalGlitch {
        Glitch::Critical
    } else {
        Glitch::None
    };
    let (title, colour) = headline(
        who(actor, lang.pick("Extended test", "延長テスト")),
        glitch,
        Some(o.success),
        lang,
    );
    view(title, colour, lines.join("\n"), fields)
}

pub fn teamwork_view(
    o: &TeamworkOutcome,
    leader: Option<&str>,
    assistants: &[String],
    lang: Lang,
) -> EmbedView {
    let mut v = test_view(&o.leader, leader, lang);
    let mut rolls: Vec<RollGlitch> = vec![(leader.map(str::to_string), o.leader.glitch)];
    let mut fields = Vec::new();
    for (i, r) in o.assistants.iter().enumerate() {
        let name = assistants
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("{} {}", lang.pick("Assistant", "補助"), i + 1));
        rolls.push(rg(name.clone(), r));
        fields.push(f(&name, rolled_text(r, lang)));
    }
    let (title, colour) = headline_of(
        who(leader, lang.pick("Teamwork test", "チームワーク・テスト")),
        &rolls,
        o.leader.success,
        lang,
    );
    v.title = title;
    v.colour = colour;
    fields.push(fi(
        lang.pick("Bonus dice", "追加ダイス"),
        format!("+{}", o.bonus_dice),
    ));
    fields.append(&mut v.fields);
    v.fields = fields;
    v
}

fn damage_type(t: DamageType, lang: Lang) -> &'static str {
    match t {
        DamageType::Physical => lang.pick("Physical", "肉体"),
        DamageType::Stun => lang.pick("Stun", "朦朧"),
    }
}

fn damage_code(t: DamageType) -> &'static str {
    match t {
        DamageType::Physical => "P",
        DamageType::Stun => "S",
    }
}

/// A character's two monitors.
pub fn monitors_text(c: &Character, lang: Lang) -> String {
    format!(
        "{} {}\n{} {}\n{} · {} {}",
        lang.pick("Physical", "肉体"),
        monitor_bar(c.physical, c.physical_track()),
        lang.pick("Stun", "朦朧"),
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
            Lang::Ja => format!(" 朦朧{}点が肉体にあふれました。", r.stun_overflow),
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
        lang.pick("Net hits", "ネット・ヒット"),
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
            lang.pick("net", "ネット"),
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

fn drain_text(d: &DrainOutcome, lang: Lang) -> String {
    let mut s = format!(
        "{} {} ({})\n",
        lang.pick("Value", "値"),
        d.value,
        damage_type(d.damage_type, lang)
    );
    s.push_str(&opt_rolled(&d.roll, lang));
    s.push_str(&match lang {
        Lang::En => format!("\n→ **{} {} box(es)**", d.boxes, damage_type(d.damage_type, lang)),
        Lang::Ja => format!("\n→ **{}{}点**", damage_type(d.damage_type, lang), d.boxes),
    });
    s
}

pub fn spell_view(o: &SpellOutcome, caster: &str, target: Option<&str>, lang: Lang) -> EmbedView {
    let mut cast = rolled_text(&o.cast, lang);
    if o.raw_hits > o.hits {
        cast.push_str(&format!(
            "\n{} {}",
            lang.pick("Hits capped at Force", "ヒットはフォースまで"),
            o.force
        ));
    }
    let mut fields = vec![f(
        &format!(
            "{} · {} {}",
            lang.pick("Spellcasting", "呪文発動"),
            lang.pick("Force", "フォース"),
            o.force
        ),
        cast,
    )];
    if o.resistance.is_some() || target.is_some() {
        fields.push(f(
            &format!("{} · {}", lang.pick("Resistance", "抵抗"), target.unwrap_or("?")),
            opt_rolled(&o.resistance, lang),
        ));
    }
    if let Some(t) = o.threshold {
        fields.push(fi(lang.pick("Threshold", "目標値"), t.to_string()));
    }
    fields.push(fi(
        lang.pick("Net hits", "ネット・ヒット"),
        format!("**{}**", o.net_hits),
    ));
    let result = match o.result {
        SpellResult::Success => lang.pick("**Success**", "**成功**"),
        SpellResult::Tie => lang.pick("**Tie: minimal effect or none**", "**同数: 効果は最小限かなし**"),
        SpellResult::Resisted => lang.pick("**Resisted**", "**抵抗された**"),
        SpellResult::Failed => lang.pick("**Failed**", "**失敗**"),
    };
    fields.push(fi(lang.pick("Result", "結果"), result.to_string()));
    fields.push(f(lang.pick("Drain", "ドレイン"), drain_text(&o.drain, lang)));
    let (title, colour) = headline_of(
        who(Some(caster), lang.pick("Spellcasting", "呪文発動")),
        &[
            rg(caster, &o.cast),
            rg_opt(target.unwrap_or("?"), &o.resistance),
            rg_opt(drain_of(caster, lang), &o.drain.roll),
        ],
        Some(o.result == SpellResult::Success),
        lang,
    );
    view(title, colour, String::new(), fields)
}

fn drain_of(who_: &str, lang: Lang) -> String {
    format!("{who_}, {}", lang.pick("drain", "ドレイン"))
}

fn fading_of(who_: &str, lang: Lang) -> String {
    format!("{who_}, {}", lang.pick("fading", "フェーディング"))
}

/// Seed 4.2 dispelling: Counterspelling + Magic against Force + Magic, hits taken off, drain.
pub fn dispel_view(o: &DispelOutcome, who_: &str, force: u32, lang: Lang) -> EmbedView {
    let mut fields = vec![
        f(lang.pick("Dispelling", "呪文解除"), rolled_text(&o.dispel, lang)),
        f(
            &format!(
                "{} · {} {force}",
                lang.pick("Spell", "呪文"),
                lang.pick("Force", "フォース")
            ),
            rolled_text(&o.opposition, lang),
        ),
        fi(
            lang.pick("Net hits", "ネット・ヒット"),
            format!("**{}**", o.net_hits),
        ),
        fi(
            lang.pick("Spell hits removed", "呪文のヒット減少"),
            format!("**{}**", o.hits_removed),
        ),
    ];
    if let Some(left) = o.spell_hits_left {
        let text = if left == 0 {
            lang.pick("**Dispelled** (no hit left)", "**解除**（ヒット0）")
                .to_string()
        } else {
            format!("{} **{left}**", lang.pick("Hits left:", "残りヒット："))
        };
        fields.push(fi(lang.pick("Result", "結果"), text));
    }
    fields.push(f(lang.pick("Drain", "ドレイン"), drain_text(&o.drain, lang)));
    let (title, colour) = headline_of(
        who(Some(who_), lang.pick("Dispelling", "呪文解除")),
        &[
            rg(who_, &o.dispel),
            rg(lang.pick("spell", "呪文"), &o.opposition),
            rg_opt(drain_of(who_, lang), &o.drain.roll),
        ],
        Some(o.hits_removed > 0),
        lang,
    );
    view(title, colour, String::new(), fields)
}

pub fn summon_view(o: &SummonOutcome, caster: &str, force: u32, lang: Lang) -> EmbedView {
    let fields = vec![
        f(lang.pick("Summoning", "召喚"), rolled_text(&o.summon, lang)),
        f(
            &format!("{} {force}", lang.pick("Spirit, Force", "精霊 フォース")),
            rolled_text(&o.spirit, lang),
        ),
        fi(lang.pick("Services", "奉仕回数"), format!("**{}**", o.services)),
        f(lang.pick("Drain", "ドレイン"), drain_text(&o.drain, lang)),
    ];
    let (title, colour) = headline_of(
        who(Some(caster), lang.pick("Summoning", "精霊召喚")),
        &[
            rg(caster, &o.summon),
            rg(lang.pick("spirit", "精霊"), &o.spirit),
            rg_opt(drain_of(caster, lang), &o.drain.roll),
        ],
        Some(o.summoned),
        lang,
    );
    view(title, colour, String::new(), fields)
}

pub fn thread_view(o: &ThreadOutcome, who_: &str, lang: Lang) -> EmbedView {
    let fields = vec![
        f(
            lang.pick("Threading", "スレッディング"),
            rolled_text(&o.thread, lang),
        ),
        fi(
            lang.pick("Rating", "レーティング"),
            format!("{} → **{}** (+{})", o.base_rating, o.rating, o.gained),
        ),
        f(lang.pick("Fading", "フェーディング"), drain_text(&o.fading, lang)),
    ];
    let (title, colour) = headline_of(
        who(Some(who_), lang.pick("Threading", "スレッディング")),
        &[rg(who_, &o.thread), rg_opt(fading_of(who_, lang), &o.fading.roll)],
        Some(o.gained > 0),
        lang,
    );
    view(title, colour, String::new(), fields)
}

pub fn compile_view(o: &CompileOutcome, who_: &str, rating: u32, lang: Lang) -> EmbedView {
    let fields = vec![
        f(
            lang.pick("Compiling", "コンパイル"),
            rolled_text(&o.compile, lang),
        ),
        f(
            &format!(
                "{} {rating}",
                lang.pick("Sprite, rating", "スプライト レーティング")
            ),
            rolled_text(&o.sprite, lang),
        ),
        fi(lang.pick("Tasks", "タスク"), format!("**{}**", o.tasks)),
        f(lang.pick("Fading", "フェーディング"), drain_text(&o.fading, lang)),
    ];
    let (title, colour) = headline_of(
        who(Some(who_), lang.pick("Compiling", "スプライトのコンパイル")),
        &[
            rg(who_, &o.compile),
            rg(lang.pick("sprite", "スプライト"), &o.sprite),
            rg_opt(fading_of(who_, lang), &o.fading.roll),
        ],
        Some(o.compiled),
        lang,
    );
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
            "⚡ {} · {} {} · {} {}",
            lang.pick("Initiative", "イニシアティブ"),
            lang.pick("turn", "ターン"),
            s.turn,
            lang.pick("pass", "パス"),
            s.pass
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
        format!("😱 {}", lang.pick("Surprise", "不意討ち")),
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

pub fn cybercombat_view(o: &CybercombatOutcome, lang: Lang) -> EmbedView {
    let target = match o.target {
        MatrixTarget::Icon => lang.pick("icon", "アイコン").to_string(),
        MatrixTarget::BlackIc { damage_type: t } => format!(
            "{} ({})",
            lang.pick("black IC", "ブラックIC"),
            damage_type(t, lang)
        ),
    };
    let mut fields = vec![
        f(lang.pick("Attack", "攻撃"), rolled_text(&o.attack, lang)),
        f(lang.pick("Defence", "防御"), opt_rolled(&o.defence, lang)),
        fi(
            lang.pick("Net hits", "ネット・ヒット"),
            format!("**{}**", o.net_hits),
        ),
    ];
    if o.hit {
        fields.push(f(lang.pick("Resist", "抵抗"), opt_rolled(&o.resist, lang)));
        fields.push(fi(
            lang.pick("Damage", "ダメージ"),
            format!("DV {} − {} = **{}**", o.modified_dv, o.resist_hits, o.boxes),
        ));
    } else {
        fields.push(fi(
            lang.pick("Result", "結果"),
            format!("**{}**", lang.pick("Miss", "回避")),
        ));
    }
    let (title, colour) = headline_of(
        format!("🖥️ {} → {target}", lang.pick("Cybercombat", "サイバー戦闘")),
        &[
            rg(lang.pick("attacker", "攻撃側"), &o.attack),
            rg_opt(lang.pick("defender", "防御側"), &o.defence),
            rg_opt(lang.pick("resist", "抵抗"), &o.resist),
        ],
        Some(o.hit),
        lang,
    );
    view(title, colour, String::new(), fields)
}

/// Seed 7.2: a jumped-in rigger resists ⌈drone damage ÷ 2⌉ Stun.
pub fn feedback_view(o: &DrainOutcome, drone_damage: u32, rigger: Option<&str>, lang: Lang) -> EmbedView {
    let title = lang.pick("Rigger feedback", "リガーへのフィードバック");
    let (title, colour) = headline_of(
        who(rigger, title),
        &[rg_opt(lang.pick("resist", "抵抗"), &o.roll)],
        None,
        lang,
    );
    let fields = vec![
        fi(
            lang.pick("Drone damage", "機器のダメージ"),
            format!("{drone_damage} ÷ 2 → {}", o.value),
        ),
        f(lang.pick("Resist", "抵抗"), drain_text(o, lang)),
    ];
    view(title, colour, String::new(), fields)
}

fn extended_lines(o: &ExtendedOutcome, lang: Lang) -> String {
    let mut s = parts_text(&o.parts, i64::from(o.pool), lang);
    for (i, iv) in o.intervals.iter().enumerate().take(20) {
        s.push_str(&format!(
            "\n#{} {} Σ {}",
            i + 1,
            dice_text(&iv.roll, lang),
            iv.total
        ));
        if let Some(g) = glitch_text(iv.roll.glitch, lang) {
            s.push_str(&format!(" **{g}**"));
        }
    }
    s.push_str(&format!(
        "\n{} {}/{}",
        lang.pick("Total", "合計"),
        o.total_hits,
        o.threshold
    ));
    s
}

pub fn hack_view(o: &HackOutcome, lang: Lang) -> EmbedView {
    let (text, ok) = match o.result {
        HackResult::HackerIn => (lang.pick("In, undetected", "侵入成功・未発見"), true),
        HackResult::InButDetected => (lang.pick("In, but detected", "侵入したが発見された"), true),
        HackResult::Detected => (lang.pick("Detected first", "先に発見された"), false),
        HackResult::HackerGlitched => (
            lang.pick("Critical glitch: the hack fails", "クリティカル・グリッチで失敗"),
            false,
        ),
        HackResult::OutOfPasses => (lang.pick("Out of passes", "パス切れ"), false),
    };
    let glitch = if o.result == HackResult::HackerGlitched {
        Glitch::Critical
    } else {
        Glitch::None
    };
    let (title, colour) = headline(
        format!("🖥️ {}", lang.pick("Hacking on the fly", "即興ハッキング")),
        glitch,
        Some(ok),
        lang,
    );
    view(
        title,
        colour,
        String::new(),
        vec![
            f(
                lang.pick("Hacker (vs Firewall)", "ハッカー（対ファイアウォール）"),
                extended_lines(&o.hacker, lang),
            ),
            f(
                lang.pick("Node (vs Stealth)", "ノード（対ステルス）"),
                extended_lines(&o.node, lang),
            ),
            fi(lang.pick("Passes", "パス"), o.passes.to_string()),
            fi(lang.pick("Result", "結果"), format!("**{text}**")),
        ],
    )
}

pub fn search_view(o: &SearchOutcome, title: &str, lang: Lang) -> EmbedView {
    let found = o.found();
    match o {
        SearchOutcome::Open(s) => {
            let mut v = test_view(s, None, lang);
            v.title = v.title.replace(lang.pick("Success test", "成功テスト"), title);
            v
        }
        SearchOutcome::Hidden(x) => {
            let mut v = opposed_view(x, None, Some(lang.pick("Hidden", "隠れている側")), lang);
            v.title = v.title.replace(lang.pick("Opposed test", "対抗テスト"), title);
            if let Some(fnd) = found {
                v.fields.push(fi(
                    lang.pick("Found", "発見"),
                    lang.pick(
                        if fnd { "yes" } else { "no" },
                        if fnd { "はい" } else { "いいえ" },
                    )
                    .to_string(),
                ));
            }
            v
        }
    }
}

pub fn crash_view(o: &CrashOutcome, lang: Lang) -> EmbedView {
    match &o.test {
        None => view(
            format!("🚗 {}", lang.pick("Crash test", "衝突テスト")),
            colour::SUCCESS,
            lang.pick(
                "Damage below the vehicle's Body: no crash test.",
                "ダメージが車両の強靭力未満なのでテスト不要です。",
            )
            .to_string(),
            vec![],
        ),
        Some(t) => {
            let mut v = test_view(t, None, lang);
            v.title = v.title.replace(
                lang.pick("Success test", "成功テスト"),
                lang.pick("Crash test", "衝突テスト"),
            );
            v.fields.push(fi(
                lang.pick("Crashed", "衝突"),
                format!(
                    "**{}**",
                    lang.pick(
                        if o.crashed { "yes" } else { "no" },
                        if o.crashed { "はい" } else { "いいえ" }
                    )
                ),
            ));
            v
        }
    }
}

/// Seed 7.6's bands, with the weapon range each counts as.
pub fn band(b: RangeBand, lang: Lang) -> &'static str {
    match b {
        RangeBand::Close => lang.pick(
            "Close (ramming; weapons at short range)",
            "至近距離（体当たり可・射撃は近距離扱い）",
        ),
        RangeBand::Near => lang.pick("Near (weapons at medium range)", "近距離（射撃は中距離扱い）"),
        RangeBand::Far => lang.pick(
            "Far (within sight; weapons at long range)",
            "遠距離（視認できる距離・射撃は遠距離扱い）",
        ),
    }
}

pub fn chase_view(o: &ChaseOutcome, lang: Lang) -> EmbedView {
    let mut v = opposed_view(
        &o.test,
        Some(lang.pick("Chaser", "追跡側")),
        Some(lang.pick("Quarry", "逃走側")),
        lang,
    );
    v.title = v.title.replace(
        lang.pick("Opposed test", "対抗テスト"),
        lang.pick("Chase", "チェイス"),
    );
    let w = match o.winner {
        ChaseWinner::First => lang.pick("Chaser", "追跡側"),
        ChaseWinner::Second => lang.pick("Quarry", "逃走側"),
        ChaseWinner::Neither => lang.pick("Neither", "なし"),
    };
    v.fields.push(fi(lang.pick("Winner", "勝者"), w.to_string()));
    v.fields.push(fi(
        lang.pick("Range band", "距離帯"),
        format!("**{}**", band(o.band, lang)),
    ));
    v
}

fn yes_no(b: bool, lang: Lang) -> &'static str {
    lang.pick(if b { "yes" } else { "no" }, if b { "はい" } else { "いいえ" })
}

/// Seed 7.7 break away: the test against the threshold (+1 per pursuer), the successes in a
/// row and whether the vehicle escaped.
pub fn break_away_view(o: &BreakAwayOutcome, vehicle: &str, lang: Lang) -> EmbedView {
    let mut v = test_view(&o.test, Some(vehicle), lang);
    v.title = v.title.replace(
        lang.pick("Success test", "成功テスト"),
        lang.pick("Break away", "離脱"),
    );
    v.fields.push(fi(
        lang.pick("In a row", "連続成功"),
        format!(
            "**{}** / {BREAK_AWAY_SUCCESSES}",
            o.successes.min(BREAK_AWAY_SUCCESSES)
        ),
    ));
    v.fields.push(fi(
        lang.pick("Escaped", "離脱成功"),
        format!("**{}**", yes_no(o.escaped, lang)),
    ));
    v
}

/// Seed 7.7 positioning: the hits become dice on the vehicle's next chase test.
pub fn positioning_view(o: &PositioningOutcome, vehicle: &str, lang: Lang) -> EmbedView {
    let mut v = test_view(&o.test, Some(vehicle), lang);
    v.title = v.title.replace(
        lang.pick("Success test", "成功テスト"),
        lang.pick("Positioning", "位置取り"),
    );
    v.fields.push(fi(
        lang.pick("Next chase test", "次のチェイス・テスト"),
        format!("**+{}** {}", o.bonus, lang.pick("dice", "ダイス")),
    ));
    v
}

/// Seed 7.7 cut off: the opposed test, then the loser's crash test with the net hits as a
/// penalty.
pub fn cut_off_view(o: &CutOffOutcome, lang: Lang) -> EmbedView {
    let mut v = opposed_view(
        &o.test,
        Some(lang.pick("Cutting off", "妨害側")),
        Some(lang.pick("Target", "対象")),
        lang,
    );
    v.title = v.title.replace(
        lang.pick("Opposed test", "対抗テスト"),
        lang.pick("Cut off", "進路妨害"),
    );
    match (o.loser, &o.crash_test) {
        (None, _) => v.fields.push(f(
            lang.pick("Crash test", "衝突テスト"),
            lang.pick("A tie: nobody is cut off.", "同数：進路妨害は起きません。")
                .to_string(),
        )),
        (Some(loser), test) => {
            let who = match loser {
                ChaseWinner::First => lang.pick("Cutting off", "妨害側"),
                _ => lang.pick("Target", "対象"),
            };
            let text = match test {
                Some(t) => rolled_text_or_hits(t, lang),
                None => lang
                    .pick(
                        "no dice left after the penalty: failed",
                        "ペナルティでダイスが残らず失敗",
                    )
                    .to_string(),
            };
            v.fields.push(f(
                &format!("{} ({who})", lang.pick("Crash test", "衝突テスト")),
                text,
            ));
        }
    }
    v.fields.push(fi(
        lang.pick("Crashed", "衝突"),
        format!("**{}**", yes_no(o.crashed, lang)),
    ));
    if o.crash_test.as_ref().is_some_and(|t| t.glitch != Glitch::None) {
        let (title, colour) = headline(
            v.title.clone(),
            o.crash_test.as_ref().map_or(Glitch::None, |t| t.glitch),
            None,
            lang,
        );
        v.title = title;
        v.colour = colour;
    }
    v
}

fn rolled_text_or_hits(t: &SuccessOutcome, lang: Lang) -> String {
    let dice = t
        .rolled
        .as_ref()
        .map(|r| rolled_text(r, lang))
        .unwrap_or_default();
    format!(
        "{dice}\n{} **{}** / {}",
        lang.pick("Hits", "ヒット"),
        t.hits,
        t.threshold.unwrap_or(0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::dice::FixedRoller;
    use engine::systems::shadowrun4::RollSpec;
    use engine::systems::shadowrun4::test_kinds::{SuccessRequest, success_test};

    fn test(faces: &[u32], n: i32) -> SuccessOutcome {
        let req = SuccessRequest {
            roll: RollSpec::dice(n),
            threshold: Some(2),
            ..Default::default()
        };
        success_test(&req, &mut FixedRoller::new(faces.iter().copied())).unwrap()
    }

    #[test]
    fn hits_bold_ones_marked_and_glitches_in_the_title() {
        let v = test_view(&test(&[5, 1, 3, 6], 4), Some("Ana"), Lang::En);
        assert!(v.description.contains("[**5** 1✗ 3 **6**]"), "{}", v.description);
        assert!(v.title.starts_with("🎲 Ana"));
        let v = test_view(&test(&[1, 1, 3, 5], 4), None, Lang::En);
        assert!(v.title.starts_with("⚠️ GLITCH"), "{}", v.title);
        assert_eq!(v.colour, GLITCH);
        let v = test_view(&test(&[1, 1, 3, 2], 4), None, Lang::Ja);
        assert!(v.title.starts_with("💀 クリティカル・グリッチ"), "{}", v.title);
        assert_eq!(v.colour, CRITICAL_GLITCH);
    }

    #[test]
    fn chase_bands_use_the_seeds_japanese_names() {
        // Seed 7.6: 至近距離 (ramming, weapons short), 近距離 (weapons medium), 遠距離 (long).
        assert!(band(RangeBand::Close, Lang::Ja).starts_with("至近距離"));
        assert!(band(RangeBand::Near, Lang::Ja).starts_with("近距離"));
        assert!(band(RangeBand::Near, Lang::Ja).contains("中距離扱い"));
        assert!(band(RangeBand::Far, Lang::Ja).starts_with("遠距離"));
        assert!(band(RangeBand::Close, Lang::En).contains("ramming"));
    }

    #[test]
    fn an_over_long_field_keeps_the_hits_and_the_glitch() {
        use engine::systems::shadowrun4::modifiers::PresetChoice;
        // 100 dice with twelve presets: the field is cut at 1,024 characters, the dice go first.
        let presets: Vec<PresetChoice> = [
            "ranged.attacker_running",
            "ranged.attacker_in_melee",
            "ranged.attacker_in_moving_vehicle",
            "ranged.target_partial_cover",
            "ranged.target_good_cover",
            "ranged.attacker_in_cover",
            "ranged.laser_sight",
            "ranged.smartlink",
            "ranged.off_hand",
            "ranged.tracer_full_burst",
            "ranged.range_medium",
            "ranged.recoil_full_burst",
        ]
        .iter()
        .map(|k| PresetChoice::new(k))
        .collect();
        let pool = engine::systems::shadowrun4::DicePool::dice(100)
            .with_presets(&presets, false)
            .unwrap();
        let n = pool.total().unwrap() as usize;
        let faces: Vec<u32> = (0..n).map(|i| if i % 2 == 0 { 1 } else { 3 }).collect();
        let r =
            engine::systems::shadowrun4::test_kinds::roll(&RollSpec::new(pool), &mut FixedRoller::new(faces))
                .unwrap();
        let text = rolled_text(&r, Lang::Ja);
        let v = view("t".into(), 0, String::new(), vec![f("x", text)]).limited();
        assert!(
            v.fields[0]
                .1
                .starts_with("ヒット **0** · **💀 クリティカル・グリッチ**"),
            "{}",
            v.fields[0].1
        );
    }

    #[test]
    fn any_rolls_glitch_heads_the_title_worst_first() {
        let (t, c) = headline_of(
            "base".into(),
            &[
                (Some("Ana".into()), Glitch::Glitch),
                (Some("Bob".into()), Glitch::None),
                (Some("Bob, soak".into()), Glitch::Critical),
            ],
            Some(true),
            Lang::En,
        );
        assert_eq!(t, "💀 CRITICAL GLITCH (Bob, soak) · ⚠️ GLITCH (Ana) · base");
        assert_eq!(c, CRITICAL_GLITCH);
        let (t, c) = headline_of("base".into(), &[(None, Glitch::None)], Some(false), Lang::En);
        assert_eq!((t.as_str(), c), ("base", colour::FAILURE));
    }

    #[test]
    fn a_hundred_dice_fit() {
        let faces: Vec<u32> = (0..100).map(|i| i % 6 + 1).collect();
        let v = test_view(&test(&faces, 100), None, Lang::En);
        assert!(v.description.contains("… +40"));
        assert_eq!(v.limited(), v);
    }
}
