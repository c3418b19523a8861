//! `/mecha turn`, `initiative`, `phase`, `apply`, `held`, `lose`, `move`, `spend`, `survive`,
//! `status`: the turn (initiative → a phase per squad → application), the units' points and the
//! survival checks.

use engine::i18n::Lang;
use engine::systems::mecha_d20::check::{Part, Source, roll_check};
use engine::systems::mecha_d20::movement::{MoveRequest, make_move};
use engine::systems::mecha_d20::state::{PromptAnswer, PromptKind};
use engine::systems::mecha_d20::survival::{
    EscapeOutcome, FaintOutcome, FatigueOutcome, SURVIVAL_TARGET, escape_check, faint_check, fatigue_check,
};
use engine::systems::mecha_d20::{MechaState, RuleError, Unit};
use poise::CreateReply;

use super::choices::{DirectionChoice, MoveChoice, SurvivalChoice};
use super::store::{self, Gate};
use super::{buttons, embeds, reply, who};
use crate::autocomplete::autocomplete_entry;
use crate::command_roll::CommandRoll;
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::offers;
use crate::{BotError, Context};

fn roster_name(units: &std::collections::BTreeMap<String, Unit>, typed: &str) -> Result<String, RuleError> {
    units
        .keys()
        .find(|k| k.eq_ignore_ascii_case(typed.trim()))
        .cloned()
        .ok_or_else(|| RuleError::UnknownUnit {
            name: typed.trim().chars().take(64).collect(),
        })
}

/// Turn: start the next turn (AP refreshed to maximum − fatigue)
#[poise::command(
    slash_command,
    guild_only,
    rename = "turn",
    name_localized("ja", "ターン"),
    description_localized("ja", "次のターンを始める（APを最大−疲労に回復）")
)]
pub async fn mecha_turn(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, state) = store::run(ctx, &inv, Gate::Gm, &mut |units, state, _| {
        state.start_turn(units)?;
        Ok(state.clone())
    })
    .await?;
    reply(ctx, &embeds::phase_view(&state, inv.lang)).await
}

/// Initiative: every pilot (or each squad leader) rolls; the lowest squad acts first
#[poise::command(
    slash_command,
    guild_only,
    rename = "initiative",
    name_localized("ja", "イニシアチブ"),
    description_localized("ja", "イニシアチブ：達成値の低い部隊から行動")
)]
pub async fn mecha_initiative(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let mode = store::options(&inv.settings).initiative_mode;
    let (roll, session, (out, turn)) = store::run(ctx, &inv, Gate::Gm, &mut |units, state, r| {
        let out = state.roll_initiative(units, mode, r)?;
        Ok((out, state.turn))
    })
    .await?;
    roll.answer(
        &inv,
        Some(&session),
        reply(ctx, &embeds::initiative_view(&out, turn, inv.lang)),
        &out,
    )
    .await?;
    Ok(())
}

/// Phase: the next squad's phase, then the application phase
#[poise::command(
    slash_command,
    guild_only,
    rename = "phase",
    name_localized("ja", "フェイズ"),
    description_localized("ja", "次の部隊のフェイズへ、最後の後は適用フェイズへ")
)]
pub async fn mecha_phase(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, state) = store::run(ctx, &inv, Gate::Gm, &mut |_, state, _| {
        state.next_phase()?;
        Ok(state.clone())
    })
    .await?;
    reply(ctx, &embeds::phase_view(&state, inv.lang)).await
}

/// Apply: the application phase — every held damage, then escape and fatigue checks
#[poise::command(
    slash_command,
    guild_only,
    rename = "apply",
    name_localized("ja", "適用"),
    description_localized("ja", "適用フェイズ：保留ダメージを適用し、脱出判定と疲労判定へ")
)]
pub async fn mecha_apply(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (roll, session, out) =
        store::run(ctx, &inv, Gate::Gm, &mut |units, state, r| state.apply(units, r)).await?;
    let view = embeds::application_view(&out, inv.lang);
    let checks: Vec<(PromptKind, String)> = out
        .destroyed
        .iter()
        .map(|u| (PromptKind::Escape, u.clone()))
        .chain(out.fatigue.iter().map(|u| (PromptKind::Fatigue, u.clone())))
        .collect();
    let offered = buttons::offer(&session, &checks, inv.guild, inv.lang);
    let r = CreateReply::default().embed(view.to_embed());
    roll.answer_offering(&inv, Some(&session), r, offers::rows_of(offered), &out)
        .await
}

/// Held damage: list it, or take an entry back (GM)
#[poise::command(
    slash_command,
    guild_only,
    rename = "held",
    name_localized("ja", "保留"),
    description_localized("ja", "保留ダメージの一覧、または取り消し（GM）")
)]
pub async fn mecha_held(
    ctx: Context<'_>,
    #[description = "Entry number to take back"]
    #[name_localized("ja", "取り消し")]
    #[description_localized("ja", "取り消す番号")]
    #[min = 1]
    remove: Option<u32>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let (state, removed) = match remove {
        Some(id) => {
            let (_, _, (state, h)) = store::run(ctx, &inv, Gate::Gm, &mut |_, state, _| {
                let h = state.remove_held(id)?;
                Ok((state.clone(), Some(h)))
            })
            .await?;
            (state, h)
        }
        None => (store::read(ctx, &inv).await?.1, None),
    };
    let mut fields = Vec::new();
    if let Some(h) = removed {
        fields.push((
            lang.pick("Taken back", "取り消し").into(),
            embeds::held_text(std::slice::from_ref(&h), lang),
            false,
        ));
    }
    let view = EmbedView {
        title: lang.pick("⏳ Held damage", "⏳ 保留ダメージ").into(),
        description: embeds::held_text(&state.held, lang),
        colour: colour::NEUTRAL,
        fields,
        footer: Some(embeds::phase_text(&state, lang)),
    };
    reply(ctx, &view).await
}

/// Lose: the weapons a lost arm or leg carried (the owner's pick)
#[poise::command(
    slash_command,
    guild_only,
    rename = "lose",
    name_localized("ja", "兵器損失"),
    description_localized("ja", "失った腕・脚に搭載していた兵器を選ぶ（所有者）")
)]
pub async fn mecha_lose(
    ctx: Context<'_>,
    #[description = "Unit"]
    #[name_localized("ja", "ユニット")]
    #[description_localized("ja", "ユニット")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    unit: String,
    #[description = "Weapons lost, comma separated (empty: none was there)"]
    #[name_localized("ja", "兵器")]
    #[description_localized("ja", "失った兵器（カンマ区切り、空欄：なし）")]
    #[max_length = 200]
    weapons: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let picked: Vec<String> = weapons
        .unwrap_or_default()
        .split([',', '、'])
        .map(|w| w.trim().to_string())
        .filter(|w| !w.is_empty())
        .collect();
    let (_, _, (name, lost)) = store::run(
        ctx,
        &inv,
        Gate::Units(vec![unit.clone()]),
        &mut |units, state, _| {
            let name = roster_name(units, &unit)?;
            let lost = state.choose_lost_weapons(&name, units, &picked)?;
            Ok((name, lost))
        },
    )
    .await?;
    let view = EmbedView {
        title: format!("🦾 {name}"),
        description: if lost.is_empty() {
            lang.pick(
                "No weapon was on that part.",
                "その部位に兵器はありませんでした。",
            )
            .into()
        } else {
            format!("{} {}", lang.pick("Lost:", "兵器損失："), lost.join(", "))
        },
        colour: colour::ALERT,
        fields: Vec::new(),
        footer: Some(who(ctx)),
    };
    reply(ctx, &view).await
}

/// Move: a normal or high-speed move (AP and propellant spent, checked against movement)
#[poise::command(
    slash_command,
    guild_only,
    rename = "move",
    name_localized("ja", "移動"),
    description_localized("ja", "通常移動・高速移動（AP・推進剤を消費、移動力を確認）")
)]
#[allow(clippy::too_many_arguments)]
pub async fn mecha_move(
    ctx: Context<'_>,
    #[description = "Unit"]
    #[name_localized("ja", "ユニット")]
    #[description_localized("ja", "ユニット")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    unit: String,
    #[description = "Kind of move"]
    #[name_localized("ja", "種類")]
    #[description_localized("ja", "移動の種類")]
    kind: MoveChoice,
    #[description = "Hexes"]
    #[name_localized("ja", "ヘクス")]
    #[description_localized("ja", "移動ヘクス数")]
    #[min = 0]
    #[max = 99]
    hexes: u32,
    #[description = "AP the move costs"]
    #[name_localized("ja", "行動ポイント")]
    #[description_localized("ja", "消費AP")]
    #[min = 0]
    #[max = 99]
    ap: u32,
    #[description = "Direction (high speed: the front three)"]
    #[name_localized("ja", "方向")]
    #[description_localized("ja", "方向（高速移動は前方3方向）")]
    direction: Option<DirectionChoice>,
    #[description = "Propellant spent (high speed)"]
    #[name_localized("ja", "推進剤")]
    #[description_localized("ja", "消費推進剤（高速移動）")]
    #[min = 0]
    #[max = 999]
    propellant: Option<u32>,
    #[description = "Stopped on entering an enemy's zone of control"]
    #[name_localized("ja", "支配空間")]
    #[description_localized("ja", "敵の支配空間に入って停止した")]
    zone: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let req = MoveRequest {
        kind: kind.into(),
        direction: direction.map(Into::into).unwrap_or_default(),
        hexes,
        ap,
        propellant: propellant.unwrap_or(0),
        entered_zone_of_control: zone.unwrap_or(false),
    };
    let (_, _, (name, out)) = store::run(ctx, &inv, Gate::Units(vec![unit.clone()]), &mut |units, _, _| {
        let name = roster_name(units, &unit)?;
        let u = units
            .get_mut(&name)
            .ok_or_else(|| RuleError::UnknownUnit { name: name.clone() })?;
        let out = make_move(&name, u, &req)?;
        Ok((name, out))
    })
    .await?;
    reply(ctx, &embeds::move_view(&name, &out, inv.lang)).await
}

/// Spend: AP, spirit points or propellant (spirit may ask for a faint check)
#[poise::command(
    slash_command,
    guild_only,
    rename = "spend",
    name_localized("ja", "消費"),
    description_localized("ja", "AP・精神ポイント・推進剤を消費（精神は気絶判定を求めることも）")
)]
pub async fn mecha_spend(
    ctx: Context<'_>,
    #[description = "Unit"]
    #[name_localized("ja", "ユニット")]
    #[description_localized("ja", "ユニット")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    unit: String,
    #[description = "AP"]
    #[name_localized("ja", "行動ポイント")]
    #[description_localized("ja", "行動ポイント")]
    #[min = 0]
    #[max = 99]
    ap: Option<u32>,
    #[description = "Spirit points"]
    #[name_localized("ja", "精神")]
    #[description_localized("ja", "精神ポイント")]
    #[min = 0]
    #[max = 999]
    spirit: Option<u32>,
    #[description = "Propellant"]
    #[name_localized("ja", "推進剤")]
    #[description_localized("ja", "推進剤")]
    #[min = 0]
    #[max = 999]
    propellant: Option<u32>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    if ap.is_none() && spirit.is_none() && propellant.is_none() {
        return Err(inv.text(
            "Say what is spent: ap, spirit or propellant.",
            "消費するもの（ap・精神・推進剤）を指定してください。",
        ));
    }
    let faint_after = store::options(&inv.settings).faint_after_spirit;
    let (_, session, (name, unit_after, faint)) = store::run(
        ctx,
        &inv,
        Gate::Units(vec![unit.clone()]),
        &mut |units, state, _| {
            let name = roster_name(units, &unit)?;
            // All or nothing: the engine refuses before changing, and a refusal drops the copy.
            let u = units
                .get_mut(&name)
                .ok_or_else(|| RuleError::UnknownUnit { name: name.clone() })?;
            if let Some(n) = ap {
                u.spend_ap(&name, n)?;
            }
            if let Some(n) = propellant {
                u.spend_propellant(&name, n)?;
            }
            let faint = match spirit {
                Some(n) => state.spend_spirit(&name, units, n, faint_after)?.faint_prompted,
                None => false,
            };
            Ok((name.clone(), units[&name].clone(), faint))
        },
    )
    .await?;
    let p = &unit_after.pilot;
    let view = EmbedView {
        title: format!("🔋 {name}"),
        description: match lang {
            Lang::En => format!(
                "AP {}/{} · spirit {}/{} · propellant {}/{}",
                p.ap,
                p.ap_max,
                p.spirit,
                p.spirit_max,
                unit_after.suit.propellant,
                unit_after.suit.propellant_max
            ),
            Lang::Ja => format!(
                "AP {}/{} · 精神 {}/{} · 推進剤 {}/{}",
                p.ap,
                p.ap_max,
                p.spirit,
                p.spirit_max,
                unit_after.suit.propellant,
                unit_after.suit.propellant_max
            ),
        },
        colour: colour::NEUTRAL,
        fields: Vec::new(),
        footer: Some(who(ctx)),
    };
    let mut r = CreateReply::default().embed(view.to_embed());
    if faint {
        let offered = buttons::offer(&session, &[(PromptKind::Faint, name.clone())], inv.guild, lang);
        let (made, _) = offers::settle(ctx.data().store.as_ref(), offers::rows_of(offered), None).await;
        let rows = offers::action_rows(made);
        if !rows.is_empty() {
            r = r.components(rows);
        }
    }
    crate::reply::send(ctx, r).await?;
    Ok(())
}

/// Survive: a fatigue, faint or escape check (a waiting one, on demand, or raw)
#[poise::command(
    slash_command,
    guild_only,
    rename = "survive",
    name_localized("ja", "疲労気絶脱出判定"),
    description_localized("ja", "疲労・気絶・脱出判定（待機中のもの、随時、または数値で）")
)]
pub async fn mecha_survive(
    ctx: Context<'_>,
    #[description = "Which check"]
    #[name_localized("ja", "判定")]
    #[description_localized("ja", "判定の種類")]
    check: SurvivalChoice,
    #[description = "Unit"]
    #[name_localized("ja", "ユニット")]
    #[description_localized("ja", "ユニット")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    unit: Option<String>,
    #[description = "Raw: the base (max AP + handling, spirit points, escape device)"]
    #[name_localized("ja", "基本値")]
    #[description_localized("ja", "数値のみ：基本値（最大AP＋操縦修正、精神、脱出装置）")]
    #[min = -99]
    #[max = 999]
    base: Option<i64>,
    #[description = "Modifier"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正")]
    #[min = -99]
    #[max = 99]
    modifier: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let kind: PromptKind = check.into();
    let modifier = modifier.unwrap_or(0);
    let escape_target = store::options(&inv.settings).escape_target;
    let Some(unit) = unit else {
        let Some(base) = base else {
            return Err(inv.text(
                "Name a unit, or give the check's base as a number.",
                "ユニットか、判定の基本値を指定してください。",
            ));
        };
        let source = match kind {
            PromptKind::Fatigue => Source::MaxAp,
            PromptKind::Faint => Source::Spirit,
            PromptKind::Escape => Source::EscapeDevice,
        };
        let parts = vec![Part::new(source, base), Part::new(Source::Situational, modifier)];
        let (roll, c) = CommandRoll::roll(ctx, |r| roll_check(parts, r)).map_err(|e| inv.user_error(&e))?;
        let answer = match kind {
            PromptKind::Fatigue => PromptAnswer::Fatigue(FatigueOutcome {
                rested: c.meets(SURVIVAL_TARGET),
                fatigue: 0,
                ap: 0,
                check: c,
            }),
            PromptKind::Faint => PromptAnswer::Faint(FaintOutcome {
                conscious: c.meets(SURVIVAL_TARGET),
                fainted: !c.meets(SURVIVAL_TARGET),
                check: c,
            }),
            PromptKind::Escape => PromptAnswer::Escape(EscapeOutcome {
                escaped: c.meets(escape_target),
                target: escape_target,
                check: c,
            }),
        };
        let mut view = embeds::answer_view("", &answer, lang, &who(ctx));
        view.title = embeds::raw_title(kind, lang);
        if let Some(f) = view.fields.first_mut()
            && kind == PromptKind::Fatigue
        {
            f.1 = if matches!(&answer, PromptAnswer::Fatigue(o) if o.rested) {
                lang.pick("**no fatigue (≥ 20)**", "**疲労なし（20以上）**")
                    .into()
            } else {
                lang.pick("**1 fatigue, AP −1**", "**疲労1、AP−1**").into()
            };
        }
        roll.answer_in_channel(&inv, reply(ctx, &view), &answer).await?;
        return Ok(());
    };
    let (roll, session, (name, answer, waited)) = store::run(
        ctx,
        &inv,
        Gate::Units(vec![unit.clone()]),
        &mut |units, state, r| {
            let name = roster_name(units, &unit)?;
            if state.has_prompt(kind, &name) {
                let a = state.answer_prompt(kind, &name, units, modifier, escape_target, r)?;
                return Ok((name, a, true));
            }
            // On demand (MG-3 for faint; the GM's call for the others): no check was waiting.
            let u = units
                .get_mut(&name)
                .ok_or_else(|| RuleError::UnknownUnit { name: name.clone() })?;
            let a = match kind {
                PromptKind::Fatigue => PromptAnswer::Fatigue(fatigue_check(&name, u, modifier, r)?),
                PromptKind::Faint => PromptAnswer::Faint(faint_check(u, modifier, r)?),
                PromptKind::Escape => {
                    PromptAnswer::Escape(escape_check(&name, u, modifier, escape_target, r)?)
                }
            };
            Ok((name, a, false))
        },
    )
    .await?;
    let mut view = embeds::answer_view(&name, &answer, lang, &who(ctx));
    if !waited {
        view.fields.push((
            lang.pick("Note", "注記").into(),
            lang.pick(
                "On demand: no check was waiting.",
                "随時判定：待機中の判定はありませんでした。",
            )
            .into(),
            false,
        ));
    }
    roll.answer(&inv, Some(&session), reply(ctx, &view), &answer)
        .await?;
    Ok(())
}

/// Status: the turn, every unit, held damage and waiting checks
#[poise::command(
    slash_command,
    guild_only,
    rename = "status",
    name_localized("ja", "状況"),
    description_localized("ja", "ターン、各ユニット、保留ダメージ、待機中の判定")
)]
pub async fn mecha_status(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (session, state) = store::read(ctx, &inv).await?;
    let view = status_view(&session, &state, inv.lang);
    reply(ctx, &view).await
}

pub fn status_view(session: &engine::session::Session, state: &MechaState, lang: Lang) -> EmbedView {
    EmbedView {
        title: format!("🤖 {}", session.name),
        description: String::new(),
        colour: colour::NEUTRAL,
        fields: embeds::board_fields(session, state, lang),
        footer: None,
    }
}
