//! Spellcasting, summoning, threading and compiling, with drain or fading on the caster.

use engine::session::Session;
use engine::systems::shadowrun4::character::Attribute;
use engine::systems::shadowrun4::magic::{
    DispelRequest, SpellRequest, SpellResult, SummonRequest, cast_spell, dispel as dispel_spell,
    summon_spirit, with_counterspelling,
};
use engine::systems::shadowrun4::resonance::{
    CompileRequest, ThreadRequest, compile as compile_sprite, thread as thread_rating,
};
use engine::systems::shadowrun4::test_kinds::RollSpec;
use engine::systems::shadowrun4::{DamageType, EdgeBefore};

use super::common::{
    self, AttrChoice, EdgeChoice, Op, Sr4Char, autocomplete_character, autocomplete_presets, find_char,
    parse_presets, rule, sr_session,
};
use super::embeds as view;
use super::press_data::{EdgeRoll, SrPress};
use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::{BotError, Context};

fn u(v: i64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// The caster's roll: attribute + skill ± wounds ± sustaining ± presets, with Edge.
fn cast_spec(
    inv: &Invocation,
    session: &Session,
    c: &Sr4Char,
    attribute: Attribute,
    skill: &str,
    modifiers: Option<&str>,
    edge: Option<EdgeChoice>,
) -> Result<(RollSpec, Option<EdgeBefore>), BotError> {
    let presets = parse_presets(inv, modifiers)?;
    let pool = c
        .character
        .pool(attribute, skill, &presets)
        .map_err(|e| rule(inv, &e))?;
    let edge = common::edge_before_by(inv, Some(session), edge, Some(c), None)?;
    Ok((RollSpec { pool, edge, retry: 0 }, edge))
}

/// How many effects `name` sustains in `session` (the saved one, after the transaction).
fn sustained(session: &engine::session::Session, name: &str) -> Option<u32> {
    let e = session.entry(name)?;
    engine::systems::shadowrun4::sheet::character(&e.sheet, &e.name)
        .ok()
        .map(|(_, c)| c.sustained)
}

/// Drain or fading buttons and the reply. `edge_after` is the roll the Edge buttons act on and
/// its press data, made with the Apply drain action they replace (created here first).
#[allow(clippy::too_many_arguments)]
async fn finish(
    roll: CommandRoll<'_>,
    inv: &Invocation,
    session: &engine::session::Session,
    c: &Sr4Char,
    edge: Option<EdgeBefore>,
    drain: (DamageType, u32),
    v: crate::embeds::EmbedView,
    outcome: &(impl serde::Serialize + crate::log_line::LogSummary),
    edge_after: Option<(
        &engine::systems::shadowrun4::PoolRoll,
        impl FnOnce(Option<i64>) -> EdgeRoll,
    )>,
    sustain: bool,
) -> Result<(), BotError> {
    let ctx = roll.ctx();
    // Edge before the roll and a newly sustained effect: one session transaction.
    let mut ops = Vec::new();
    if edge.is_some() {
        ops.push((c.name.clone(), Op::SpendEdge));
    }
    if sustain {
        ops.push((c.name.clone(), Op::Sustain));
    }
    let mut v = v;
    let mut saved = None;
    if !ops.is_empty() {
        let (s, _) = roll.or_abandon(
            common::save_ops(
                &*ctx.data().store,
                inv.channel,
                inv.lang,
                Some(inv.actor),
                session.id,
                &ops,
            )
            .await,
        )?;
        saved = Some(s);
    }
    if sustain {
        // The count as saved (another spell may have been sustained meanwhile).
        let n = saved
            .as_ref()
            .and_then(|s| sustained(s, &c.name))
            .unwrap_or_else(|| c.character.sustained.saturating_add(1));
        v.fields.push((
            inv.lang.pick("Sustained", "維持").to_string(),
            match inv.lang {
                engine::i18n::Lang::Ja => format!("{}は{n}個維持中（全テストに{}）", c.name, -2 * n as i64),
                _ => format!("{} now sustains {n} (−{} dice on every test)", c.name, 2 * n),
            },
            false,
        ));
    }
    let mut buttons = Vec::new();
    let mut apply = None;
    if drain.1 > 0 {
        let press = SrPress::apply_damage(session.id, &c.name, drain.0, drain.1);
        let owner = common::damage_owner(session, &c.name, inv.user, &inv.settings);
        if let Some(id) = common::action(ctx.data(), inv.guild, inv.channel, owner, &press).await {
            apply = Some(id);
        }
    }
    if let (Some((roll, edge_roll)), None) = (edge_after, edge) {
        let offer = common::EdgeOffer {
            who: c,
            roll,
            burn: false,
            second_chance: true,
            negate: true,
            session: session.id,
            edge_roll: edge_roll(apply),
        };
        buttons.extend(common::edge_buttons(ctx, inv, offer).await);
    }
    if let Some(id) = apply {
        buttons.push(common::apply_button(id, true, inv.lang).into());
    }
    common::reply(
        roll,
        inv,
        Some(saved.as_deref().unwrap_or(session)),
        v,
        buttons,
        outcome,
    )
    .await
}

/// Cast a spell: Magic + Spellcasting (hits capped at Force), resistance, drain
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "呪文"),
    description_localized("ja", "呪文詠唱：魔力＋呪文行使（ヒットはフォースまで）、抵抗、ドレイン")
)]
#[allow(clippy::too_many_arguments)]
pub async fn spell(
    ctx: Context<'_>,
    #[description = "Caster (session character)"]
    #[name_localized("ja", "術者")]
    #[description_localized("ja", "術者のキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    caster: String,
    #[description = "Force"]
    #[name_localized("ja", "フォース")]
    #[description_localized("ja", "フォース")]
    #[min = 1]
    #[max = 40]
    force: i64,
    #[description = "Drain value"]
    #[name_localized("ja", "ドレイン値")]
    #[description_localized("ja", "ドレイン値")]
    #[min = 0]
    #[max = 50]
    drain: i64,
    #[description = "Target resisting (session character)"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "抵抗する目標のキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    target: Option<String>,
    #[description = "Target's resisting attribute"]
    #[name_localized("ja", "抵抗能力値")]
    #[description_localized("ja", "目標の抵抗能力値（既定 意志力）")]
    resist: Option<AttrChoice>,
    #[description = "Who protects it by Counterspelling"]
    #[name_localized("ja", "呪文防御")]
    #[description_localized("ja", "呪文防御で目標を守るキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    counterspell: Option<String>,
    #[description = "Resist dice instead of a target"]
    #[name_localized("ja", "抵抗ダイス")]
    #[description_localized("ja", "目標の代わりの抵抗ダイス数")]
    #[min = 0]
    #[max = 100]
    resist_pool: Option<i64>,
    #[description = "Threshold (unresisted spells)"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "目標値（抵抗のない呪文）")]
    #[min = 0]
    #[max = 100]
    threshold: Option<i64>,
    #[description = "Skill (default spellcasting)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "技能（既定は呪文行使）")]
    #[max_length = 40]
    skill: Option<String>,
    #[description = "Modifier presets"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Caster's Edge before the roll"]
    #[name_localized("ja", "エッジ")]
    #[description_localized("ja", "術者のロール前のエッジ")]
    edge: Option<EdgeChoice>,
    #[description = "Sustain if it succeeds (−2 dice each test)"]
    #[name_localized("ja", "維持")]
    #[description_localized("ja", "成功したら維持（全テスト-2）")]
    sustain: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = sr_session(ctx, &inv).await?;
    let c = find_char(&inv, &session, &caster)?;
    let skill = skill.unwrap_or_else(|| "spellcasting".into());
    let (cast, edge) = cast_spec(
        &inv,
        &session,
        &c,
        Attribute::Magic,
        &skill,
        modifiers.as_deref(),
        edge,
    )?;
    let (resistance, target_name) = match (&target, resist_pool) {
        (Some(_), Some(_)) => {
            return Err(inv.text(
                "Give a target or resist_pool, not both.",
                "目標か抵抗ダイスのどちらか一方を指定してください。",
            ));
        }
        (Some(t), None) => {
            let t = find_char(&inv, &session, t)?;
            let a = resist.map_or(Attribute::Willpower, AttrChoice::attribute);
            let pool = t.character.single_attribute_pool(a).map_err(|e| rule(&inv, &e))?;
            (Some(RollSpec::new(pool)), Some(t.name))
        }
        (None, Some(n)) => (Some(RollSpec::dice(i32::try_from(n).unwrap_or(0))), None),
        (None, None) => (None, None),
    };
    // Seed 4.2 spell defence: the protector's Counterspelling joins the resistance pool.
    let resistance = match (resistance, &counterspell) {
        (Some(r), Some(name)) => {
            let p = find_char(&inv, &session, name)?;
            let dice = p.character.skill("counterspelling").unwrap_or(0);
            Some(with_counterspelling(r, dice).map_err(|e| rule(&inv, &e))?)
        }
        (None, Some(_)) => {
            return Err(inv.text(
                "Counterspelling protects a target: name the target or resist_pool.",
                "呪文防御には目標か抵抗ダイスが必要です。",
            ));
        }
        (r, None) => r,
    };
    let drain_pool = c
        .character
        .resistance_pool(Attribute::Willpower, c.sheet.drain_attribute())
        .map_err(|e| rule(&inv, &e))?;
    let req = SpellRequest {
        cast,
        force: u(force),
        magic: c.character.attributes.magic,
        resistance,
        threshold: threshold.map(u),
        drain_value: u(drain),
        drain: RollSpec::new(drain_pool),
    };
    let (roll, outcome) =
        common::roll(ctx, |r| cast_spell(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let v = view::spell_view(&outcome, &c.name, target_name.as_deref(), inv.lang);
    let d = (outcome.drain.damage_type, outcome.drain.boxes);
    let edge_roll = |apply| EdgeRoll::Spell {
        target: target_name.clone(),
        outcome: outcome.clone(),
        apply,
    };
    let offer = Some((&outcome.cast.roll, edge_roll));
    let sustain = sustain.unwrap_or(false) && outcome.result == SpellResult::Success;
    let logged = common::Named::target(&outcome, target_name.as_deref());
    finish(roll, &inv, &session, &c, edge, d, v, &logged, offer, sustain).await
}

/// Summon a spirit: Magic + Summoning against Force; services; drain
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "召喚"),
    description_localized("ja", "精霊召喚：魔力＋召喚 対 フォース、助力、ドレイン")
)]
pub async fn summon(
    ctx: Context<'_>,
    #[description = "Summoner (session character)"]
    #[name_localized("ja", "術者")]
    #[description_localized("ja", "召喚者のキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    caster: String,
    #[description = "Spirit's Force"]
    #[name_localized("ja", "フォース")]
    #[description_localized("ja", "精霊のフォース")]
    #[min = 1]
    #[max = 40]
    force: i64,
    #[description = "Modifier presets"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Edge before the roll"]
    #[name_localized("ja", "エッジ")]
    #[description_localized("ja", "ロール前のエッジ")]
    edge: Option<EdgeChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = sr_session(ctx, &inv).await?;
    let c = find_char(&inv, &session, &caster)?;
    let (spec, edge) = cast_spec(
        &inv,
        &session,
        &c,
        Attribute::Magic,
        "summoning",
        modifiers.as_deref(),
        edge,
    )?;
    let drain_pool = c
        .character
        .resistance_pool(Attribute::Willpower, c.sheet.drain_attribute())
        .map_err(|e| rule(&inv, &e))?;
    let req = SummonRequest {
        summon: spec,
        force: u(force),
        magic: c.character.attributes.magic,
        drain: RollSpec::new(drain_pool),
    };
    let (roll, outcome) =
        common::roll(ctx, |r| summon_spirit(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let v = view::summon_view(&outcome, &c.name, req.force, inv.lang);
    let d = (outcome.drain.damage_type, outcome.drain.boxes);
    let edge_roll = |apply| EdgeRoll::Summon {
        force: req.force,
        outcome: outcome.clone(),
        apply,
    };
    let offer = Some((&outcome.summon.roll, edge_roll));
    finish(roll, &inv, &session, &c, edge, d, v, &outcome, offer, false).await
}

/// Thread a complex form: Resonance + Software, +1 rating per hit; fading
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "スレッド編成"),
    description_localized("ja", "スレッド編成：共振力＋ソフトウェア、ヒットごとに+1、フェイディング")
)]
pub async fn thread(
    ctx: Context<'_>,
    #[description = "Technomancer (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "テクノマンサーのキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: String,
    #[description = "Rating before threading"]
    #[name_localized("ja", "レーティング")]
    #[description_localized("ja", "スレッド編成前のレーティング")]
    #[min = 0]
    #[max = 40]
    rating: i64,
    #[description = "Modifier presets"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Edge before the roll"]
    #[name_localized("ja", "エッジ")]
    #[description_localized("ja", "ロール前のエッジ")]
    edge: Option<EdgeChoice>,
    #[description = "Sustain if the rating rises (−2 dice each test)"]
    #[name_localized("ja", "維持")]
    #[description_localized("ja", "上がったら維持（全テスト-2）")]
    sustain: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = sr_session(ctx, &inv).await?;
    let c = find_char(&inv, &session, &character)?;
    let (spec, edge) = cast_spec(
        &inv,
        &session,
        &c,
        Attribute::Resonance,
        "software",
        modifiers.as_deref(),
        edge,
    )?;
    let fading = c
        .character
        .resistance_pool(Attribute::Willpower, Attribute::Resonance)
        .map_err(|e| rule(&inv, &e))?;
    let req = ThreadRequest {
        thread: spec,
        base_rating: u(rating),
        resonance: c.character.attributes.resonance,
        fading: RollSpec::new(fading),
    };
    let (roll, outcome) =
        common::roll(ctx, |r| thread_rating(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let v = view::thread_view(&outcome, &c.name, inv.lang);
    let d = (outcome.fading.damage_type, outcome.fading.boxes);
    let sustain = sustain.unwrap_or(false) && outcome.gained > 0;
    let edge_roll = |apply| EdgeRoll::Thread {
        request: req.clone(),
        outcome: outcome.clone(),
        apply,
    };
    let offer = Some((&outcome.thread.roll, edge_roll));
    finish(roll, &inv, &session, &c, edge, d, v, &outcome, offer, sustain).await
}

/// Compile a sprite: Resonance + Compiling against its rating; tasks; fading
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "コンパイル"),
    description_localized(
        "ja",
        "スプライトのコンパイル：共振力＋コンパイル 対 レーティング、タスク、フェイディング"
    )
)]
pub async fn compile(
    ctx: Context<'_>,
    #[description = "Technomancer (session character)"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "テクノマンサーのキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: String,
    #[description = "Sprite's rating"]
    #[name_localized("ja", "レーティング")]
    #[description_localized("ja", "スプライトのレーティング")]
    #[min = 1]
    #[max = 40]
    rating: i64,
    #[description = "Modifier presets"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
    #[description = "Edge before the roll"]
    #[name_localized("ja", "エッジ")]
    #[description_localized("ja", "ロール前のエッジ")]
    edge: Option<EdgeChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = sr_session(ctx, &inv).await?;
    let c = find_char(&inv, &session, &character)?;
    let (spec, edge) = cast_spec(
        &inv,
        &session,
        &c,
        Attribute::Resonance,
        "compiling",
        modifiers.as_deref(),
        edge,
    )?;
    let fading = c
        .character
        .resistance_pool(Attribute::Willpower, Attribute::Resonance)
        .map_err(|e| rule(&inv, &e))?;
    let req = CompileRequest {
        compile: spec,
        rating: u(rating),
        resonance: c.character.attributes.resonance,
        fading: RollSpec::new(fading),
    };
    let (roll, outcome) =
        common::roll(ctx, |r| compile_sprite(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let v = view::compile_view(&outcome, &c.name, req.rating, inv.lang);
    let d = (outcome.fading.damage_type, outcome.fading.boxes);
    let edge_roll = |apply| EdgeRoll::Compile {
        rating: req.rating,
        outcome: outcome.clone(),
        apply,
    };
    let offer = Some((&outcome.compile.roll, edge_roll));
    finish(roll, &inv, &session, &c, edge, d, v, &outcome, offer, false).await
}

/// Dispel a sustained spell: Counterspelling + Magic against Force + caster's Magic; drain
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "呪文解除"),
    description_localized("ja", "呪文解除：呪文対抗＋魔力 対 フォース＋術者の魔力、ドレイン")
)]
#[allow(clippy::too_many_arguments)]
pub async fn dispel(
    ctx: Context<'_>,
    #[description = "Dispeller (session character)"]
    #[name_localized("ja", "術者")]
    #[description_localized("ja", "解除する術者")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    caster: String,
    #[description = "The spell's Force"]
    #[name_localized("ja", "フォース")]
    #[description_localized("ja", "呪文のフォース")]
    #[min = 1]
    #[max = 40]
    force: i64,
    #[description = "The spell's caster's Magic"]
    #[name_localized("ja", "相手の魔力")]
    #[description_localized("ja", "呪文の術者の魔力")]
    #[min = 1]
    #[max = 20]
    magic: i64,
    #[description = "Drain value"]
    #[name_localized("ja", "ドレイン値")]
    #[description_localized("ja", "ドレイン値")]
    #[min = 0]
    #[max = 50]
    drain: i64,
    #[description = "The spell's hits"]
    #[name_localized("ja", "呪文のヒット")]
    #[description_localized("ja", "呪文のヒット数")]
    #[min = 0]
    #[max = 100]
    hits: Option<i64>,
    #[description = "Karma in the spell"]
    #[name_localized("ja", "カルマ")]
    #[description_localized("ja", "呪文のカルマ")]
    #[min = 0]
    #[max = 50]
    karma: Option<i64>,
    #[description = "Modifier presets"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正")]
    #[autocomplete = "autocomplete_presets"]
    #[max_length = 300]
    modifiers: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = sr_session(ctx, &inv).await?;
    let c = find_char(&inv, &session, &caster)?;
    let (spec, _) = cast_spec(
        &inv,
        &session,
        &c,
        Attribute::Magic,
        "counterspelling",
        modifiers.as_deref(),
        None,
    )?;
    let drain_pool = c
        .character
        .resistance_pool(Attribute::Willpower, c.sheet.drain_attribute())
        .map_err(|e| rule(&inv, &e))?;
    let req = DispelRequest {
        dispel: spec,
        magic: c.character.attributes.magic,
        force: u(force),
        caster_magic: u(magic),
        karma: karma.map_or(0, u),
        spell_hits: hits.map(u),
        drain_value: u(drain),
        drain: RollSpec::new(drain_pool),
    };
    let (roll, outcome) =
        common::roll(ctx, |r| dispel_spell(&req, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    let v = view::dispel_view(&outcome, &c.name, req.force, inv.lang);
    let d = (outcome.drain.damage_type, outcome.drain.boxes);
    let edge_roll = |apply| EdgeRoll::Dispel {
        force: req.force,
        outcome: outcome.clone(),
        apply,
    };
    let offer = Some((&outcome.dispel.roll, edge_roll));
    finish(roll, &inv, &session, &c, None, d, v, &outcome, offer, false).await
}

/// Stop sustaining one spell or complex form (−2 dice less on every test)
#[poise::command(
    slash_command,
    guild_only,
    rename = "drop",
    name_localized("ja", "維持解除"),
    description_localized("ja", "維持している呪文・複合体を1つやめる（全テストの-2が1つ減る）")
)]
pub async fn drop_sustained(
    ctx: Context<'_>,
    #[description = "Who stops sustaining"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "維持をやめるキャラクター")]
    #[autocomplete = "autocomplete_character"]
    #[max_length = 64]
    character: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = sr_session(ctx, &inv).await?;
    let c = find_char(&inv, &session, &character)?;
    let (saved, _) = common::save_ops(
        &*ctx.data().store,
        inv.channel,
        inv.lang,
        Some(inv.actor),
        session.id,
        &[(c.name.clone(), Op::DropSustained)],
    )
    .await?;
    let left = sustained(&saved, &c.name).unwrap_or_else(|| c.character.sustained.saturating_sub(1));
    let text = match inv.lang {
        engine::i18n::Lang::Ja => format!("{}は維持を1つやめました。残り{left}個。", c.name),
        _ => format!("{} stops sustaining one effect; {left} left.", c.name),
    };
    let v = crate::embeds::EmbedView {
        title: format!("✋ {}", inv.lang.pick("Sustaining", "維持")),
        description: text,
        colour: crate::embeds::colour::NEUTRAL,
        fields: Vec::new(),
        footer: None,
    };
    let outcome = crate::log_line::Logged::new(
        serde_json::json!({ "character": c.name, "sustained": left }),
        |lang| match lang {
            engine::i18n::Lang::En => format!("{left} sustained left"),
            engine::i18n::Lang::Ja => format!("維持の残り{left}個"),
        },
    );
    // Nothing rolled, but the change is logged the way rolls are.
    common::reply(CommandRoll::new(ctx), &inv, Some(&saved), v, Vec::new(), &outcome).await
}
