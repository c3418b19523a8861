//! `/term start`, `rolloff`, `first`, `fate`, `activate`, `moved`, `done`, `pass`, `endturn`,
//! `feet`, `status`, `define`: the turn (L3–29), the board and the session's own profiles and
//! weapons.

use engine::i18n::Lang;
use engine::systems::sheet::parse_fields;
use engine::systems::terminator::state::Phase;

use super::choices::DefineChoice;
use super::store::{self, Gate, Refusal, canon, names};
use super::{answer_with, buttons, embeds, reply, who};
use crate::autocomplete::autocomplete_entry;
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// Start: a new game between two sides (default: the roster's two sides)
#[poise::command(
    slash_command,
    guild_only,
    rename = "start",
    name_localized("ja", "開始"),
    description_localized("ja", "2つの陣営で新しいゲーム（既定：ロスターの2陣営）")
)]
pub async fn term_start(
    ctx: Context<'_>,
    #[description = "First side"]
    #[name_localized("ja", "陣営1")]
    #[description_localized("ja", "1つ目の陣営")]
    #[max_length = 40]
    side1: Option<String>,
    #[description = "Second side"]
    #[name_localized("ja", "陣営2")]
    #[description_localized("ja", "2つ目の陣営")]
    #[max_length = 40]
    side2: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, state) = store::run(ctx, &inv, Gate::Gm, &mut |chars, state, _| {
        let sides = match (&side1, &side2) {
            (Some(a), Some(b)) => vec![a.clone(), b.clone()],
            _ => {
                let mut sides: Vec<String> = Vec::new();
                for c in chars.values() {
                    if !sides.contains(&c.side) {
                        sides.push(c.side.clone());
                    }
                }
                sides
            }
        };
        state.start(&sides)?;
        Ok(state.clone())
    })
    .await?;
    let lang = inv.lang;
    let view = EmbedView {
        title: lang
            .pick("🤖 Terminator Genisys", "🤖 ターミネーター ジェニシス")
            .into(),
        description: match lang {
            Lang::En => format!("{}. Next: /term rolloff.", state.players.join(" vs ")),
            Lang::Ja => format!("{}。次：/term rolloff", state.players.join(" 対 ")),
        },
        colour: colour::NEUTRAL,
        fields: Vec::new(),
        footer: None,
    };
    reply(ctx, &view).await
}

/// Roll-off: the turn's tactical roll-off; the winner picks who goes first
#[poise::command(
    slash_command,
    guild_only,
    rename = "rolloff",
    name_localized("ja", "ロールオフ"),
    description_localized("ja", "タクティカルロールオフ：勝者が先攻を選ぶ")
)]
pub async fn term_rolloff(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let die = store::options(&inv.settings).tactical_die;
    let (roll, session, (out, turn, sides, chars)) =
        store::run(ctx, &inv, Gate::Player, &mut |chars, state, r| {
            let out = state.roll_off(die, &mut &mut *r)?;
            Ok((out, state.turn, state.players.clone(), chars.clone()))
        })
        .await?;
    let view = embeds::roll_off_view(&out, turn, inv.lang);
    let owner = store::side_owner(&session, &chars, &out.winner);
    let offered = buttons::first_buttons(&session, owner, turn, &sides, inv.guild, inv.lang);
    answer_with(roll, &inv, Some(&session), &view, offered, &out).await?;
    Ok(())
}

/// First: the Tactical Edge holder names the turn's first player
#[poise::command(
    slash_command,
    guild_only,
    rename = "first",
    name_localized("ja", "先攻"),
    description_localized("ja", "タクティカルエッジを持つ側が先攻プレイヤーを決める")
)]
pub async fn term_first(
    ctx: Context<'_>,
    #[description = "The side that goes first"]
    #[name_localized("ja", "陣営")]
    #[description_localized("ja", "先攻の陣営")]
    #[max_length = 40]
    side: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, (first, next)) = store::run(ctx, &inv, Gate::EdgePlayer, &mut |chars, state, _| {
        let next = state.choose_first(&side, chars)?;
        Ok((state.first.clone().unwrap_or_default(), next))
    })
    .await?;
    reply(ctx, &embeds::first_view(&first, &next, inv.lang)).await
}

/// Fate: the impulse player's Fate roll
#[poise::command(
    slash_command,
    guild_only,
    rename = "fate",
    name_localized("ja", "フェイト"),
    description_localized("ja", "インパルスのプレイヤーがフェイトダイスを振る")
)]
pub async fn term_fate(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let fate = store::options(&inv.settings).fate;
    let (roll, session, (out, turn, impulse)) =
        store::run(ctx, &inv, Gate::ImpulsePlayer, &mut |chars, state, r| {
            let number = state.impulse.as_ref().map_or(0, |i| i.number);
            let out = state.roll_fate(&fate, chars, &mut &mut *r)?;
            Ok((out, state.turn, number))
        })
        .await?;
    let view = embeds::fate_view(&out, inv.lang);
    let offered = buttons::fate_buttons(&session, turn, impulse, &out.commanders, inv.guild, inv.lang);
    answer_with(roll, &inv, Some(&session), &view, offered, &out).await?;
    Ok(())
}

/// Activate: a Ready marker (a commander may bring friends)
#[poise::command(
    slash_command,
    guild_only,
    rename = "activate",
    name_localized("ja", "アクティベート"),
    description_localized("ja", "レディマーカーを置く（コマンダーは味方を連れて行ける）")
)]
pub async fn term_activate(
    ctx: Context<'_>,
    #[description = "Character"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "キャラクター")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    character: String,
    #[description = "A commander's followers, comma separated"]
    #[name_localized("ja", "フォロワー")]
    #[description_localized("ja", "コマンダーが連れて行く味方（カンマ区切り）")]
    #[autocomplete = "super::choices::autocomplete_followers"]
    #[max_length = 400]
    followers: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, a) = store::run(
        ctx,
        &inv,
        Gate::Chars(vec![character.clone()]),
        &mut |chars, state, _| {
            let name = canon(chars, &character);
            let f = names(chars, followers.as_deref().unwrap_or(""));
            Ok(state.activate(&name, &f, chars)?)
        },
    )
    .await?;
    reply(ctx, &embeds::activation_view(&a, inv.lang, &who(ctx))).await
}

/// Moved: the activating character moved (Heavy weapons cannot fire)
#[poise::command(
    slash_command,
    guild_only,
    rename = "moved",
    name_localized("ja", "移動"),
    description_localized("ja", "アクティベート中のキャラクターが移動した（重火器は射撃不可）")
)]
pub async fn term_moved(
    ctx: Context<'_>,
    #[description = "Character"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "キャラクター")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    character: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, name) = store::run(
        ctx,
        &inv,
        Gate::Chars(vec![character.clone()]),
        &mut |chars, state, _| {
            let name = canon(chars, &character);
            state.moved(&name, chars)?;
            Ok(name)
        },
    )
    .await?;
    let lang = inv.lang;
    let view = embeds::line_view(
        format!("🏃 {name}"),
        lang.pick(
            "Moved in this activation: Heavy weapons cannot fire.",
            "このアクティベーションで移動：重火器は射撃できません。",
        )
        .into(),
        colour::NEUTRAL,
        &who(ctx),
    );
    reply(ctx, &view).await
}

/// Done: the character finishes its activation (Ready → Done)
#[poise::command(
    slash_command,
    guild_only,
    rename = "done",
    name_localized("ja", "ダン"),
    description_localized("ja", "アクティベーション終了（レディ→ダン）")
)]
pub async fn term_done(
    ctx: Context<'_>,
    #[description = "Character"]
    #[name_localized("ja", "キャラ")]
    #[description_localized("ja", "キャラクター")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    character: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, d) = store::run(
        ctx,
        &inv,
        Gate::Chars(vec![character.clone()]),
        &mut |chars, state, _| {
            let name = canon(chars, &character);
            Ok(state.done(&name, chars)?)
        },
    )
    .await?;
    reply(ctx, &embeds::done_view(&d, inv.lang)).await
}

/// Pass: the impulse player gives up the rest of the Fate result
#[poise::command(
    slash_command,
    guild_only,
    rename = "pass",
    name_localized("ja", "パス"),
    description_localized("ja", "インパルスのプレイヤーがフェイトの残りを放棄")
)]
pub async fn term_pass(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, next) = store::run(ctx, &inv, Gate::ImpulsePlayer, &mut |chars, state, _| {
        Ok(state.end_impulse(chars)?)
    })
    .await?;
    let lang = inv.lang;
    let view = embeds::line_view(
        lang.pick("⏭️ Impulse over", "⏭️ インパルス終了").into(),
        embeds::next_text(&next, lang),
        colour::NEUTRAL,
        &who(ctx),
    );
    reply(ctx, &view).await
}

/// End Turn: one Done marker off each character; commanders get On Your Feet
#[poise::command(
    slash_command,
    guild_only,
    rename = "endturn",
    name_localized("ja", "エンドターン"),
    description_localized("ja", "各キャラクターのダンマーカーを1つ除去、コマンダーは立ち上がれ！へ")
)]
pub async fn term_endturn(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (roll, session, out) = store::run(ctx, &inv, Gate::Player, &mut |chars, state, _| {
        Ok(state.end_turn(chars)?)
    })
    .await?;
    roll.answer(
        &inv,
        Some(&session),
        reply(ctx, &embeds::end_turn_view(&out, inv.lang)),
        &out,
    )
    .await?;
    Ok(())
}

/// Feet: On Your Feet, Soldier! A commander removes a friend's extra Done markers
#[poise::command(
    slash_command,
    guild_only,
    rename = "feet",
    name_localized("ja", "立ち上がれ"),
    description_localized("ja", "さあ立ち上がれ！：コマンダーが味方の余分なダンマーカーを除去")
)]
pub async fn term_feet(
    ctx: Context<'_>,
    #[description = "Commander"]
    #[name_localized("ja", "コマンダー")]
    #[description_localized("ja", "コマンダー")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    commander: String,
    #[description = "Friend (another commander or itself too)"]
    #[name_localized("ja", "味方")]
    #[description_localized("ja", "味方（他のコマンダーや自身も可）")]
    #[autocomplete = "autocomplete_entry"]
    #[max_length = 64]
    friend: String,
    #[description = "Done markers to remove (default 1)"]
    #[name_localized("ja", "個数")]
    #[description_localized("ja", "取り除くダンマーカーの数（既定1）")]
    #[min = 1]
    #[max = 10]
    count: Option<u32>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, out) = store::run(
        ctx,
        &inv,
        Gate::Chars(vec![commander.clone()]),
        &mut |chars, state, _| {
            let c = canon(chars, &commander);
            let f = canon(chars, &friend);
            Ok(state.on_your_feet(&c, &f, count.unwrap_or(1), chars)?)
        },
    )
    .await?;
    reply(ctx, &embeds::feet_view(&out, inv.lang)).await
}

/// Status: the turn and every character's markers, side by side
#[poise::command(
    slash_command,
    guild_only,
    rename = "status",
    name_localized("ja", "状況"),
    description_localized("ja", "ターンと各陣営のキャラクターのマーカー")
)]
pub async fn term_status(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (session, chars, state) = store::read(ctx, &inv).await?;
    let view = EmbedView {
        title: format!("🤖 {}", session.name),
        description: String::new(),
        colour: if state.phase == Phase::Impulse {
            colour::WARNING
        } else {
            colour::NEUTRAL
        },
        fields: embeds::board_fields(&session, &chars, &state, inv.lang),
        footer: None,
    };
    reply(ctx, &view).await
}

/// Define: a session profile or weapon (or forget one); GM
#[poise::command(
    slash_command,
    guild_only,
    rename = "define",
    name_localized("ja", "定義"),
    description_localized("ja", "セッションのプロフィール・武器を定義（または削除）：GM")
)]
pub async fn term_define(
    ctx: Context<'_>,
    #[description = "What to define"]
    #[name_localized("ja", "種類")]
    #[description_localized("ja", "定義するもの")]
    what: DefineChoice,
    #[description = "Name (a weapon: its whole line, e.g. Railgun long rof2 d12 heavy)"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "名前（武器は1行で、例: レールガン 遠 射撃回数2 d12 重火器）")]
    #[max_length = 200]
    name: String,
    #[description = "A profile's fields as in /char, e.g. armour=7 skill=d10"]
    #[name_localized("ja", "項目")]
    #[description_localized("ja", "プロフィールの項目（/キャラ と同じ、例: アーマー=7 スキル=d10）")]
    #[max_length = 1000]
    fields: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let parsed = parse_fields(fields.as_deref().unwrap_or("")).map_err(|e| inv.user_error(&e))?;
    let (_, _, text) = store::run(ctx, &inv, Gate::Gm, &mut |_, state, _| match what {
        DefineChoice::Profile => {
            let p = state.define_profile(&name, &parsed)?;
            let specials = p.specials(lang);
            Ok(format!(
                "**{}**: {} {} · {} {}+ · {} {}{}",
                p.display_name(lang),
                lang.pick("skill", "スキル"),
                p.skill.map_or("—".to_string(), |d| d.to_string()),
                lang.pick("armour", "アーマー"),
                p.armour,
                lang.pick("resolution", "レゾリューション"),
                p.resolution.map_or("—".to_string(), |d| d.to_string()),
                if specials.is_empty() {
                    String::new()
                } else {
                    format!(" · {}", specials.join(", "))
                }
            ))
        }
        DefineChoice::Weapon => Ok(state.define_weapon(&name)?.line(lang)),
        DefineChoice::Forget => {
            if state.remove_definition(&name) {
                Ok(match lang {
                    Lang::En => format!("Forgot {}.", name.trim()),
                    Lang::Ja => format!("{}を削除しました。", name.trim()),
                })
            } else {
                Err(Refusal(store::refusal(
                    "The session defines no profile or weapon by that name.",
                    "その名前のプロフィール・武器はセッションで定義されていません。",
                )))
            }
        }
    })
    .await?;
    let view = embeds::line_view(
        lang.pick("📋 Session definitions", "📋 セッションの定義").into(),
        text,
        colour::NEUTRAL,
        &who(ctx),
    );
    reply(ctx, &view).await
}
