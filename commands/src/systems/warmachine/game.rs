//! The game around the dice: `/wm rolloff` (disputes, with the ruling recorded), `/wm status`,
//! `/wm-ruling` (list, add, remove) and `/wm-turn` (start, activate, move, any-time rules,
//! end of activation and turn, triggers, end of game). Every change is one transaction on the
//! session's Warmachine state; a refusal changes nothing.

use engine::i18n::Lang;
use engine::systems::warmachine::rolloff::roll_off;
use engine::systems::warmachine::state::Dispute;
use engine::systems::warmachine::triggers::Resolution;

use super::embeds as view;
use super::store::{self, Commander, model, model_name, rule, say};
use super::{model_autocomplete, notice, reply};
use crate::command_roll::CommandRoll;
use crate::embeds::{EmbedView, colour};
use crate::invocation::{Invocation, now_ms};
use crate::{BotError, Context};

/// Dispute roll-off: every player rolls a d6, tied leaders reroll; the ruling binds the game
#[poise::command(
    slash_command,
    rename = "rolloff",
    name_localized("ja", "ロールオフ"),
    description_localized(
        "ja",
        "ルール論争のロールオフ：各プレイヤーがd6、同点の最高者は振り直し。裁定はゲーム中有効"
    )
)]
pub async fn wm_rolloff(
    ctx: Context<'_>,
    #[description = "What is disputed"]
    #[name_localized("ja", "論点")]
    #[description_localized("ja", "争点")]
    #[max_length = 200]
    question: String,
    #[description = "Players taking part, comma separated (default: every player)"]
    #[name_localized("ja", "プレイヤー")]
    #[description_localized("ja", "参加プレイヤー（カンマ区切り、既定は全員）")]
    #[max_length = 400]
    players: Option<String>,
    #[description = "The ruling the winner decides, recorded for the rest of the game"]
    #[name_localized("ja", "裁定")]
    #[description_localized("ja", "勝者が決める裁定（ゲームの最後まで記録）")]
    #[max_length = 500]
    ruling: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let named = store::split_list(players.as_deref());
    let session = inv.session_if_any(ctx).await;
    let in_game = session
        .as_ref()
        .is_some_and(|s| s.system == engine::session::SystemId::Warmachine);
    let (roll, session, d) = if in_game {
        let (roll, s, d) = store::run(ctx, &inv, &mut |s, game, r| {
            let list = if named.is_empty() {
                store::players(s, game)
            } else {
                named.clone()
            };
            game.state
                .dispute(&question, &list, ruling.as_deref(), now_ms(), &mut &mut *r)
                .map_err(rule)
        })
        .await?;
        (roll, Some(std::sync::Arc::new(s)), d)
    } else {
        if ruling.is_some() {
            return Err(inv.text(
                "A ruling is recorded in a Warmachine session: start one with /session start system:warmachine.",
                "裁定はウォーマシンのセッションに記録されます。/session start system:warmachine で始めてください。",
            ));
        }
        let (roll, o) = CommandRoll::roll(ctx, |r| roll_off(&question, &named, &mut &mut *r))
            .map_err(|e| inv.user_error(&e))?;
        (
            roll,
            session,
            Dispute {
                roll_off: o,
                ruling: None,
            },
        )
    };
    reply(
        roll,
        &inv,
        session.as_deref(),
        &view::rolloff_view(&d, lang),
        vec![],
        &d,
    )
    .await
}

/// The game: turn, active player, models with effects and damage, rulings
#[poise::command(
    slash_command,
    rename = "status",
    name_localized("ja", "状況"),
    description_localized(
        "ja",
        "ゲームの状況：手番、アクティブプレイヤー、モデルの効果とダメージ、裁定"
    )
)]
pub async fn wm_status(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (session, game) = store::read(ctx, &inv).await?;
    let models: Vec<_> = session
        .roster
        .iter()
        .filter_map(|e| game.models.get(&e.name))
        .collect();
    let v = EmbedView {
        title: format!("⚙️ {}", session.name),
        description: String::new(),
        colour: colour::NEUTRAL,
        fields: view::board_fields(&game.state, &models, inv.lang),
        footer: None,
    };
    notice(ctx, &v).await
}

/// Rulings that bind the rest of the game
#[poise::command(
    slash_command,
    rename = "wm-ruling",
    name_localized("ja", "wm-裁定"),
    description_localized("ja", "ゲームの最後まで有効な裁定"),
    subcommands("ruling_list", "ruling_add", "ruling_remove"),
    subcommand_required
)]
pub async fn wm_ruling(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// List the game's rulings
#[poise::command(
    slash_command,
    rename = "list",
    name_localized("ja", "一覧"),
    description_localized("ja", "このゲームの裁定一覧")
)]
pub async fn ruling_list(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, game) = store::read(ctx, &inv).await?;
    notice(ctx, &view::rulings_view(&game.state, inv.lang)).await
}

/// Record a ruling agreed without a roll-off
#[poise::command(
    slash_command,
    rename = "add",
    name_localized("ja", "追加"),
    description_localized("ja", "ロールオフなしで合意した裁定を記録")
)]
pub async fn ruling_add(
    ctx: Context<'_>,
    #[description = "The question"]
    #[name_localized("ja", "論点")]
    #[description_localized("ja", "争点")]
    #[max_length = 200]
    question: String,
    #[description = "The ruling"]
    #[name_localized("ja", "裁定")]
    #[description_localized("ja", "裁定の内容")]
    #[max_length = 500]
    ruling: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, r) = store::run(ctx, &inv, &mut |_s, game, _r| {
        game.state.add_ruling(&question, &ruling, now_ms()).map_err(rule)
    })
    .await?;
    let v = EmbedView {
        title: inv.lang.pick("📜 Ruling recorded", "📜 裁定を記録").to_string(),
        description: view::ruling_line(&r, inv.lang),
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    };
    notice(ctx, &v).await
}

/// Remove a ruling by its number
#[poise::command(
    slash_command,
    rename = "remove",
    name_localized("ja", "削除"),
    description_localized("ja", "番号で裁定を削除")
)]
pub async fn ruling_remove(
    ctx: Context<'_>,
    #[description = "Ruling number"]
    #[name_localized("ja", "番号")]
    #[description_localized("ja", "裁定の番号")]
    #[min = 1]
    #[max = 100000]
    id: i64,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let id = u32::try_from(id).unwrap_or(0);
    let (_, _, r) = store::run(ctx, &inv, &mut |_s, game, _r| {
        game.state.remove_ruling(id).map_err(rule)
    })
    .await?;
    let v = EmbedView {
        title: inv.lang.pick("📜 Ruling removed", "📜 裁定を削除").to_string(),
        description: format!("~~{}~~", view::ruling_line(&r, inv.lang)),
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    };
    notice(ctx, &v).await
}

/// How a trigger was closed (all three count as resolved).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ResolutionChoice {
    #[name = "resolved"]
    #[name_localized("ja", "解決")]
    Resolved,
    #[name = "condition no longer met"]
    #[name_localized("ja", "条件を満たさない")]
    ConditionGone,
    #[name = "optional part declined"]
    #[name_localized("ja", "任意部分を辞退")]
    Declined,
}

impl From<ResolutionChoice> for Resolution {
    fn from(c: ResolutionChoice) -> Resolution {
        match c {
            ResolutionChoice::Resolved => Resolution::Resolved,
            ResolutionChoice::ConditionGone => Resolution::ConditionNoLongerMet,
            ResolutionChoice::Declined => Resolution::DeclinedOptional,
        }
    }
}

/// Turns, activations, "any time" rules and triggers
#[poise::command(
    slash_command,
    rename = "wm-turn",
    name_localized("ja", "wm-手番"),
    description_localized("ja", "手番、アクティベーション、「いつでも」のルール、トリガー"),
    subcommands(
        "turn_start",
        "turn_activate",
        "turn_move",
        "turn_anytime",
        "turn_end_activation",
        "turn_end",
        "turn_trigger",
        "turn_resolve",
        "turn_end_game"
    ),
    subcommand_required
)]
pub async fn wm_turn(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

fn turn_view(title: String, lines: Vec<String>) -> EmbedView {
    EmbedView {
        title,
        description: lines.join("\n"),
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    }
}

fn roles_line(game: &store::Game, lang: Lang) -> String {
    match game.state.game.roles() {
        Some(r) => match lang {
            Lang::En => format!("Active player: **{}**", r.roles.active),
            Lang::Ja => format!("アクティブプレイヤー: **{}**", r.roles.active),
        },
        None => String::new(),
    }
}

/// Start the game: round 1, the first player's turn
#[poise::command(
    slash_command,
    rename = "start",
    name_localized("ja", "開始"),
    description_localized("ja", "ゲーム開始：1ラウンド目、最初のプレイヤーの手番")
)]
pub async fn turn_start(
    ctx: Context<'_>,
    #[description = "Players in turn order, comma separated (default: the models' controllers)"]
    #[name_localized("ja", "プレイヤー")]
    #[description_localized("ja", "手番順のプレイヤー（カンマ区切り、既定はモデルのコントローラー）")]
    #[max_length = 400]
    players: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let named = store::split_list(players.as_deref());
    let (_, _, line) = store::run(ctx, &inv, &mut |s, game, _r| {
        let list = if named.is_empty() {
            let mut g = game.clone();
            g.state.game.players.clear();
            store::players(s, &g)
        } else {
            named.clone()
        };
        game.state.game.start(&list).map_err(rule)?;
        Ok(roles_line(game, lang))
    })
    .await?;
    let title = lang
        .pick("▶️ The game starts: round 1", "▶️ ゲーム開始：1ラウンド目")
        .to_string();
    notice(ctx, &turn_view(title, vec![line])).await
}

/// A model starts its activation
#[poise::command(
    slash_command,
    rename = "activate",
    name_localized("ja", "アクティベート"),
    description_localized("ja", "モデルのアクティベーション開始")
)]
pub async fn turn_activate(
    ctx: Context<'_>,
    #[description = "The model"]
    #[name_localized("ja", "モデル")]
    #[description_localized("ja", "モデル")]
    #[autocomplete = "model_autocomplete"]
    #[max_length = 64]
    model: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let commander = Commander::of(ctx, &inv);
    let (_, _, (name, line)) = store::run(ctx, &inv, &mut |s, game, _r| {
        let name = model_name(s, game, &model)?;
        let m = self::model(game, &name)?.clone();
        commander.may_command(s, &m)?;
        game.state.game.start_activation(&m).map_err(rule)?;
        Ok((name, roles_line(game, lang)))
    })
    .await?;
    let title = match lang {
        Lang::En => format!("🔷 {name} activates"),
        Lang::Ja => format!("🔷 {name}のアクティベーション"),
    };
    notice(ctx, &turn_view(title, vec![line])).await
}

/// The activating model moves (or runs: no "any time" rules after)
#[poise::command(
    slash_command,
    rename = "move",
    name_localized("ja", "移動"),
    description_localized(
        "ja",
        "アクティベーション中のモデルが移動（ランすると「いつでも」のルールは使えない）"
    )
)]
pub async fn turn_move(
    ctx: Context<'_>,
    #[description = "It ran"]
    #[name_localized("ja", "ラン")]
    #[description_localized("ja", "ランした")]
    run: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let ran = run.unwrap_or(false);
    let (_, _, name) = store::run(ctx, &inv, &mut |_s, game, _r| {
        game.state.game.begin_move(ran).map_err(rule)?;
        game.state.game.end_move().map_err(rule)?;
        Ok(game
            .state
            .game
            .activation
            .as_ref()
            .map(|a| a.model.clone())
            .unwrap_or_default())
    })
    .await?;
    let title = match (lang, ran) {
        (Lang::En, true) => format!("🏃 {name} ran"),
        (Lang::En, false) => format!("➡️ {name} moved"),
        (Lang::Ja, true) => format!("🏃 {name}はランした"),
        (Lang::Ja, false) => format!("➡️ {name}は移動した"),
    };
    notice(ctx, &turn_view(title, vec![])).await
}

/// Use an "any time" rule (spell, feat…) of the activating model
#[poise::command(
    slash_command,
    rename = "anytime",
    name_localized("ja", "いつでも"),
    description_localized(
        "ja",
        "アクティベーション中のモデルの「いつでも」のルール（呪文、フィートなど）を使う"
    )
)]
pub async fn turn_anytime(
    ctx: Context<'_>,
    #[description = "The model"]
    #[name_localized("ja", "モデル")]
    #[description_localized("ja", "モデル")]
    #[autocomplete = "model_autocomplete"]
    #[max_length = 64]
    model: String,
    #[description = "The rule used"]
    #[name_localized("ja", "ルール")]
    #[description_localized("ja", "使うルール")]
    #[max_length = 100]
    rule: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let commander = Commander::of(ctx, &inv);
    let (_, _, used) = store::run(ctx, &inv, &mut |s, game, _r| {
        let name = model_name(s, game, &model)?;
        let m = self::model(game, &name)?.clone();
        commander.may_command(s, &m)?;
        game.state.game.use_any_time(&name, &rule).map_err(store::rule)
    })
    .await?;
    let title = match lang {
        Lang::En => format!("✴️ {}: {}", used.model, used.rule),
        Lang::Ja => format!("✴️ {}：{}", used.model, used.rule),
    };
    notice(ctx, &turn_view(title, vec![])).await
}

/// End the activation: "end of activation" effects expire
#[poise::command(
    slash_command,
    rename = "end-activation",
    name_localized("ja", "アクティベーション終了"),
    description_localized("ja", "アクティベーション終了：「アクティベーション終了まで」の効果が切れる")
)]
pub async fn turn_end_activation(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let (_, _, (name, expired)) = store::run(ctx, &inv, &mut |_s, game, _r| {
        let name = game
            .state
            .game
            .activation
            .as_ref()
            .map(|a| a.model.clone())
            .unwrap_or_default();
        let expired = game.state.game.end_activation(&mut game.models).map_err(rule)?;
        Ok((name, expired))
    })
    .await?;
    let title = match lang {
        Lang::En => format!("⏹️ {name}'s activation ends"),
        Lang::Ja => format!("⏹️ {name}のアクティベーション終了"),
    };
    notice(ctx, &turn_view(title, view::expired_lines(&expired, lang))).await
}

/// End the turn: effects expire, the next player's turn begins
#[poise::command(
    slash_command,
    rename = "end",
    name_localized("ja", "手番終了"),
    description_localized("ja", "手番終了：効果が切れ、次のプレイヤーの手番")
)]
pub async fn turn_end(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (_, _, t) = store::run(ctx, &inv, &mut |_s, game, _r| {
        game.state.game.end_turn(&mut game.models).map_err(rule)
    })
    .await?;
    notice(ctx, &view::turn_end_view(&t, inv.lang)).await
}

/// Enter pending triggers as "owner: rule text", several separated by ;
#[poise::command(
    slash_command,
    rename = "trigger",
    name_localized("ja", "トリガー"),
    description_localized("ja", "待機中のトリガーを「持ち主: ルールの文」で入力（複数は ; 区切り）")
)]
pub async fn turn_trigger(
    ctx: Context<'_>,
    #[description = "owner: rule text; owner: rule text"]
    #[name_localized("ja", "トリガー")]
    #[description_localized("ja", "持ち主: ルールの文; 持ち主: ルールの文")]
    #[max_length = 1000]
    lines: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let text = lines.replace(['；', ';'], "\n");
    let (_, _, order) = store::run(ctx, &inv, &mut |_s, game, _r| {
        game.state.game.add_triggers(&text).map_err(rule)?;
        Ok(game
            .state
            .game
            .trigger_order()
            .iter()
            .map(|t| format!("#{} {}: {}", t.id, t.owner, t.text))
            .collect::<Vec<_>>())
    })
    .await?;
    let title = lang
        .pick(
            "⏳ Triggers, in resolution order (active player first)",
            "⏳ トリガー（解決順：アクティブプレイヤーが先）",
        )
        .to_string();
    notice(ctx, &turn_view(title, order)).await
}

/// Close the next trigger in order
#[poise::command(
    slash_command,
    rename = "resolve",
    name_localized("ja", "解決"),
    description_localized("ja", "順番が来たトリガーを閉じる")
)]
pub async fn turn_resolve(
    ctx: Context<'_>,
    #[description = "Trigger number"]
    #[name_localized("ja", "番号")]
    #[description_localized("ja", "トリガーの番号")]
    #[min = 1]
    #[max = 100000]
    id: i64,
    #[description = "How it ended (default resolved)"]
    #[name_localized("ja", "結果")]
    #[description_localized("ja", "どう終わったか（既定は解決）")]
    how: Option<ResolutionChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let id = u32::try_from(id).unwrap_or(0);
    let how: Resolution = how.map_or(Resolution::Resolved, Resolution::from);
    let (_, _, (closed, left)) = store::run(ctx, &inv, &mut |_s, game, _r| {
        let c = game.state.game.close_trigger(id, how).map_err(rule)?;
        Ok((c, game.state.game.triggers.pending.len()))
    })
    .await?;
    let mut lines = vec![view::closed_line(&closed, lang)];
    lines.push(match lang {
        Lang::En => format!("{left} trigger(s) waiting"),
        Lang::Ja => format!("待機中のトリガー: {left}件"),
    });
    let title = lang.pick("✅ Trigger closed", "✅ トリガーを閉じた").to_string();
    notice(ctx, &turn_view(title, lines)).await
}

/// End the game: its rulings are archived, the turn state starts afresh
#[poise::command(
    slash_command,
    rename = "end-game",
    name_localized("ja", "ゲーム終了"),
    description_localized("ja", "ゲーム終了：裁定を保管し、手番をリセット")
)]
pub async fn turn_end_game(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    if let Ok(s) = inv.session(ctx).await
        && !s.may_manage(inv.actor)
        && !s.is_member(inv.user)
    {
        return Err(say(&engine::session::SessionError::NotAPlayer, lang));
    }
    let (_, _, archived) =
        store::run(ctx, &inv, &mut |_s, game, _r| Ok(game.state.end_game(now_ms()))).await?;
    let title = lang.pick("🏁 Game over", "🏁 ゲーム終了").to_string();
    let line = match lang {
        Lang::En => format!("{} ruling(s) archived.", archived.rulings.len()),
        Lang::Ja => format!("裁定{}件を保管しました。", archived.rulings.len()),
    };
    notice(ctx, &turn_view(title, vec![line])).await
}
