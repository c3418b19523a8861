//! The game around the dice: `/wm rolloff` (disputes, with the ruling recorded), `/wm status`,
//! `/wm-ruling` (list, add, remove) and `/wm-turn` (start, activate, move, any-time rules,
//! end of activation and turn, triggers, end of game). Every change is one transaction on the
//! session's Warmachine state; a refusal changes nothing.

use engine::i18n::Lang;
use engine::systems::warmachine::rolloff::roll_off;
use engine::systems::warmachine::state::Dispute;
use engine::systems::warmachine::triggers::Resolution;

use super::embeds as view;
use super::rulings::turn_end_game;
use super::store::{self, Commander, model, model_name, refusal, rule};
use super::{answer_with, model_autocomplete, notice};
use crate::command_roll::CommandRoll;
use crate::embeds::{EmbedView, colour};
use crate::invocation::{Invocation, now_ms};
use crate::{BotError, Context};
use engine::session::SessionError;

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
    let by = Some(inv.user);
    let (roll, session, d) = if in_game {
        let (roll, s, d) = store::run(ctx, &inv, &mut |s, game, r| {
            // Issue 29: in a game the players taking part are members.
            let list = if named.is_empty() {
                store::players(s, game)
            } else {
                store::typed_players(&named)?
            };
            game.state
                .dispute_by(&question, &list, ruling.as_deref(), now_ms(), by, &mut &mut *r)
                .map_err(rule)
        })
        .await?;
        (roll, Some(s), d)
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
    answer_with(
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
    name_localized("ja", "ウォーマシン-手番"),
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

/// Issue 33: the activating model's activation (its moves, its end) is its controller's or
/// the GM's.
fn activating_is_mine(
    commander: &Commander,
    s: &engine::session::Session,
    game: &store::Game,
) -> Result<(), SessionError> {
    match &game.state.game.activation {
        Some(a) => match game.models.get(&a.model) {
            Some(m) => commander.may_command(s, m),
            None => Ok(()),
        },
        None => Ok(()),
    }
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
            // Seed: with no attack open, the player whose turn it is is the 手番プレイヤー.
            Lang::Ja if r.from == engine::systems::warmachine::turn::RolesFrom::Turn => {
                format!("手番プレイヤー: **{}**", r.roles.active)
            }
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
    let commander = Commander::of(ctx, &inv);
    let (_, _, line) = store::run(ctx, &inv, &mut |s, game, _r| {
        // Issue 33: restarting a game under way (its turns, triggers) is the GM's.
        if game.state.game.started() {
            commander.gm_only(
                s,
                "restart a game under way (/wm-turn end-game ends it)",
                "進行中のゲームの再開始（/wm-turn end-game で終了できます）",
            )?;
        }
        // Issue 29: players are Discord members, whether typed or the models' controllers.
        let list = if named.is_empty() {
            let mut g = game.clone();
            g.state.game.players.clear();
            store::players(s, &g)
        } else {
            store::typed_players(&named)?
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
    let commander = Commander::of(ctx, &inv);
    let (_, _, name) = store::run(ctx, &inv, &mut |s, game, _r| {
        activating_is_mine(&commander, s, game)?;
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
    let (roll, session, used) = store::run(ctx, &inv, &mut |s, game, _r| {
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
    // Checklist 27: the bot logs the "any time" uses it allows.
    answer_with(
        roll,
        &inv,
        Some(&session),
        &turn_view(title, vec![]),
        vec![],
        &used,
    )
    .await
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
    let commander = Commander::of(ctx, &inv);
    let (_, _, (name, expired)) = store::run(ctx, &inv, &mut |s, game, _r| {
        activating_is_mine(&commander, s, game)?;
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
    let commander = Commander::of(ctx, &inv);
    let (_, _, t) = store::run(ctx, &inv, &mut |s, game, _r| {
        // Issue 33: the turn is its player's (or the GM's) to end.
        if let Some(p) = game.state.game.turn_player() {
            commander.may_act_for(s, p, ("This turn", "この手番"))?;
        }
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
    #[description = "player or model: rule text; … (a model's trigger leaves if it is destroyed)"]
    #[name_localized("ja", "トリガー")]
    #[description_localized("ja", "プレイヤーかモデル: ルールの文; …（モデルのトリガーは破壊で消える）")]
    #[max_length = 1000]
    lines: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let text = lines.replace(['；', ';'], "\n");
    let (_, _, order) = store::run(ctx, &inv, &mut |_s, game, _r| {
        let models = game.models.clone();
        game.state.game.add_model_triggers(&text, &models).map_err(rule)?;
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
    #[description = "Trigger number (default: the next one)"]
    #[name_localized("ja", "番号")]
    #[description_localized("ja", "トリガーの番号（既定は次のもの）")]
    #[min = 1]
    #[max = 100000]
    id: Option<i64>,
    #[description = "How it ended (default resolved)"]
    #[name_localized("ja", "結果")]
    #[description_localized("ja", "どう終わったか（既定は解決）")]
    how: Option<ResolutionChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let id = id.map(|i| u32::try_from(i).unwrap_or(0));
    let how: Resolution = how.map_or(Resolution::Resolved, Resolution::from);
    let commander = Commander::of(ctx, &inv);
    let (_, _, (closed, left)) = store::run(ctx, &inv, &mut |s, game, _r| {
        // Issue 29: only the next trigger closes, so without id: it is the one.
        let next = game
            .state
            .game
            .trigger_order()
            .first()
            .map(|t| (t.id, t.owner.clone()))
            .ok_or_else(|| {
                refusal(
                    "No trigger is waiting (/wm-turn trigger enters them).",
                    "待っているトリガーはありません（/wm-turn trigger で入力します）。",
                )
            })?;
        // Issue 33: a trigger is closed by its owner, the active player or the GM.
        let active = game.state.game.roles().map(|r| r.roles.active);
        if !active.as_deref().is_some_and(|a| commander.is_player(a)) {
            commander.may_act_for(s, &next.1, ("This trigger", "このトリガー"))?;
        }
        let c = game
            .state
            .game
            .close_trigger(id.unwrap_or(next.0), how)
            .map_err(rule)?;
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
