//! Shadowrun 4 results: every die (hits bold, 1s marked ✗, exploded sixes after 💥, Second
//! Chance rerolls after ↺ with the replaced dice struck), hits, threshold and net hits, a
//! GLITCH or CRITICAL GLITCH in the title and colour, the pool's parts (every modifier
//! applied), and damage, monitor boxes and knockdown where they apply.
//!
//! Here: dice, pools, headlines and the tests (success, opposed, extended, teamwork) every view
//! builds on; the rest by concern in [`combat`], [`magic`], [`matrix`] and [`rigging`].

mod combat;
mod magic;
mod matrix;
mod rigging;

pub use combat::*;
pub use magic::*;
pub use matrix::*;
pub use rigging::*;

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
use engine::systems::shadowrun4::skill_names;
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

pub use engine::systems::shadowrun4::rules::glitch_text;

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
        PartSource::Skill { skill } => skill_names::display_name(skill, lang).to_string(),
        PartSource::Program { name } if name.is_empty() => lang.pick("Rating", "レーティング").to_string(),
        PartSource::Program { name } => skill_names::display_name(name, lang).to_string(),
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
        fields.push(fi(lang.pick("Net hits", "純ヒット"), format!("**{n}**")));
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

/// Who won an opposed test (the result field and the log's summary).
pub fn opposed_words(r: OpposedResult, lang: Lang) -> &'static str {
    match r {
        OpposedResult::ActorWins => lang.pick("Actor wins", "行動側の勝ち"),
        OpposedResult::Tie => lang.pick("Tie: the defender wins", "同数: 防御側の勝ち"),
        OpposedResult::OpponentWins => lang.pick("Opponent wins", "相手側の勝ち"),
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
        fi(lang.pick("Net hits", "純ヒット"), format!("**{}**", o.net_hits)),
        fi(
            lang.pick("Result", "結果"),
            format!("**{}**", opposed_words(o.result, lang)),
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
        who(actor, lang.pick("Extended test", "継続テスト")),
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
