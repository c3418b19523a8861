//! `/session`: a game running in a channel or thread — start, join, leave, status, log, end,
//! export, gm.

use engine::i18n::Lang;
use engine::session::{Session, SystemId};
use engine::systems::sheet::describe_sheet;
use poise::CreateReply;
use serenity::all::{CreateAttachment, User};

use super::system_choice::SystemChoice;
use crate::embeds::{EmbedView, colour, status::system_status};
use crate::invocation::{Invocation, now_ms, store_error};
use crate::store::StoreError;
use crate::{BotError, Context};

/// Game sessions in this channel
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "セッション"),
    description_localized("ja", "このチャンネルのゲームセッション"),
    subcommands("start", "join", "leave", "status", "log", "end", "export", "gm")
)]
pub async fn session(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

fn say(lang: Lang, en: String, ja: String) -> String {
    match lang {
        Lang::En => en,
        Lang::Ja => ja,
    }
}

async fn reply(ctx: Context<'_>, view: EmbedView) -> Result<(), BotError> {
    ctx.send(CreateReply::default().embed(view.to_embed())).await?;
    Ok(())
}

fn note(title: String, description: String) -> EmbedView {
    EmbedView {
        title,
        description,
        colour: colour::NEUTRAL,
        ..Default::default()
    }
}

/// Start a session here; you become its GM
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "開始"),
    description_localized("ja", "ここでセッションを始めます（あなたがGMになります）")
)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "Session name"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "セッション名")]
    #[max_length = 100]
    name: String,
    #[description = "Game system"]
    #[name_localized("ja", "システム")]
    #[description_localized("ja", "ゲームシステム")]
    system: SystemChoice,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let guild = inv.require_guild()?;
    let system = SystemId::from(system);
    inv.require_system(system)?;
    let session = Session::start(guild, inv.channel, &name, system, inv.user, now_ms())
        .map_err(|e| inv.user_error(&e))?;
    let session = ctx
        .data()
        .store
        .create_session(&session)
        .await
        .map_err(|e| store_error(e, inv.lang))?;
    let sys = system.display_name(inv.lang);
    reply(
        ctx,
        note(
            say(
                inv.lang,
                format!("Session started: {}", session.name),
                format!("セッション開始: {}", session.name),
            ),
            say(
                inv.lang,
                format!(
                    "System: {sys}\nGM: <@{}>\nPlayers join with /session join.",
                    session.gm
                ),
                format!(
                    "システム: {sys}\nGM: <@{}>\nプレイヤーは /session join で参加します。",
                    session.gm
                ),
            ),
        ),
    )
    .await
}

/// Join the session in this channel
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "参加"),
    description_localized("ja", "このチャンネルのセッションに参加します")
)]
pub async fn join(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let user = inv.user;
    let s = inv.update(ctx, |s| s.join(user)).await?;
    let text = say(
        inv.lang,
        format!("<@{user}> joined {}.", s.name),
        format!("<@{user}> が {} に参加しました。", s.name),
    );
    ctx.send(CreateReply::default().content(text)).await?;
    Ok(())
}

/// Leave the session in this channel
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "離脱"),
    description_localized("ja", "このチャンネルのセッションから抜けます")
)]
pub async fn leave(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let user = inv.user;
    let s = inv.update(ctx, |s| s.leave(user)).await?;
    let text = say(
        inv.lang,
        format!("<@{user}> left {}.", s.name),
        format!("<@{user}> が {} から抜けました。", s.name),
    );
    ctx.send(CreateReply::default().content(text)).await?;
    Ok(())
}

/// The roster line of one entry: owner, the first stats, effects.
fn entry_line(session: &Session, index: usize, lang: Lang) -> String {
    let e = &session.roster[index];
    let stats: Vec<String> = describe_sheet(session.system, &e.sheet, lang)
        .into_iter()
        .take(8)
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let mut line = format!("<@{}>", e.owner);
    if !stats.is_empty() {
        line.push_str(&format!(" · {}", stats.join(", ")));
    }
    if !e.effects.is_empty() {
        let fx: Vec<&str> = e.effects.iter().map(|f| f.name.as_str()).collect();
        line.push_str(&format!(" · [{}]", fx.join(", ")));
    }
    line
}

/// The session's roster, tracked state and turn order
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "状況"),
    description_localized("ja", "ロスター・各キャラクターの状態・手番")
)]
pub async fn status(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let s = inv.session(ctx).await?;
    let lang = inv.lang;
    let players: Vec<String> = s.players.iter().map(|p| format!("<@{p}>")).collect();
    let mut description = say(
        lang,
        format!(
            "System: {}\nGM: <@{}>\nPlayers: {}",
            s.system.display_name(lang),
            s.gm,
            players.join(" ")
        ),
        format!(
            "システム: {}\nGM: <@{}>\nプレイヤー: {}",
            s.system.display_name(lang),
            s.gm,
            players.join(" ")
        ),
    );
    if !s.turn.order.is_empty() {
        let order: Vec<String> = s
            .turn
            .order
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if i == s.turn.current {
                    format!("**▶ {n}**")
                } else {
                    n.clone()
                }
            })
            .collect();
        description.push_str(&say(
            lang,
            format!("\nRound {}: {}", s.turn.round, order.join(" → ")),
            format!("\nラウンド{}: {}", s.turn.round, order.join(" → ")),
        ));
    }
    let mut fields: Vec<(String, String, bool)> = (0..s.roster.len())
        .map(|i| (s.roster[i].name.clone(), entry_line(&s, i, lang), false))
        .collect();
    if fields.is_empty() {
        fields.push((
            lang.pick("Roster", "ロスター").into(),
            lang.pick("No entries yet: /char add", "まだいません: /char add")
                .into(),
            false,
        ));
    }
    fields.extend(system_status(&s, lang));
    reply(
        ctx,
        EmbedView {
            title: format!("📜 {}", s.name),
            description,
            colour: colour::NEUTRAL,
            fields,
            footer: None,
        },
    )
    .await
}

/// The session's most recent rolls
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "ログ"),
    description_localized("ja", "セッションの最近のロール")
)]
pub async fn log(
    ctx: Context<'_>,
    #[description = "How many (1–25, default 10)"]
    #[name_localized("ja", "件数")]
    #[description_localized("ja", "件数（1〜25、既定10）")]
    #[min = 1]
    #[max = 25]
    count: Option<u32>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let s = inv.session(ctx).await?;
    let rolls = ctx
        .data()
        .store
        .recent_rolls(s.id, count.unwrap_or(10).clamp(1, 25))
        .await
        .map_err(|e| store_error(e, inv.lang))?;
    let lines: Vec<String> = rolls
        .iter()
        .map(|r| {
            format!(
                "<t:{}:t> <@{}> `{}`{}",
                r.at_ms / 1000,
                r.user_id,
                r.command,
                summary(&r.outcome, inv.lang)
            )
        })
        .collect();
    let description = if lines.is_empty() {
        inv.lang
            .pick("No rolls yet.", "まだロールはありません。")
            .to_string()
    } else {
        lines.join("\n")
    };
    reply(
        ctx,
        note(
            say(
                inv.lang,
                format!("🎲 Log: {}", s.name),
                format!("🎲 ログ: {}", s.name),
            ),
            description,
        ),
    )
    .await
}

/// A short result for a logged outcome: totals or successes where the outcome has them.
fn summary(outcome: &serde_json::Value, lang: Lang) -> String {
    let mut parts = Vec::new();
    for line in outcome["lines"].as_array().into_iter().flatten() {
        if let Some(s) = line["successes"].as_i64() {
            parts.push(format!("{} {s}", lang.pick("successes", "成功数")));
        } else if let Some(t) = line["total"].as_i64() {
            parts.push(t.to_string());
        }
    }
    for key in ["hits", "net_hits", "result", "total"] {
        if parts.is_empty()
            && let Some(v) = outcome[key].as_i64()
        {
            parts.push(format!("{key} {v}"));
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" → {}", parts.join(", "))
    }
}

/// End the session (GM or server managers); its history is kept
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "終了"),
    description_localized("ja", "セッションを終了します（GMのみ・履歴は残ります）")
)]
pub async fn end(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let s = ctx
        .data()
        .store
        .end_session(inv.channel, inv.actor, now_ms())
        .await
        .map_err(|e| match e {
            StoreError::NotFound => inv.no_session(),
            other => store_error(other, inv.lang),
        })?;
    reply(
        ctx,
        note(
            say(
                inv.lang,
                format!("Session ended: {}", s.name),
                format!("セッション終了: {}", s.name),
            ),
            say(
                inv.lang,
                "Its roster and roll log are kept; /session export gave a copy while it ran.".into(),
                "ロスターとログは保存されています。".into(),
            ),
        ),
    )
    .await
}

/// Download the session and its roll log as JSON
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "エクスポート"),
    description_localized("ja", "セッションとログをJSONで出力します")
)]
pub async fn export(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let s = inv.session(ctx).await?;
    let export = ctx
        .data()
        .store
        .export_session(s.id)
        .await
        .map_err(|e| store_error(e, inv.lang))?;
    let json = serde_json::to_vec_pretty(&export).map_err(BotError::internal)?;
    let file = CreateAttachment::bytes(json, format!("session-{}.json", s.id));
    let text = say(
        inv.lang,
        format!("{}: {} rolls.", s.name, export.log.len()),
        format!("{}: ロール{}件。", s.name, export.log.len()),
    );
    ctx.send(CreateReply::default().content(text).attachment(file))
        .await?;
    Ok(())
}

/// Hand the GM role to someone (GM or server managers)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "gm交代"),
    description_localized("ja", "GMを交代します（GMのみ）")
)]
pub async fn gm(
    ctx: Context<'_>,
    #[description = "The new GM"]
    #[name_localized("ja", "新gm")]
    #[description_localized("ja", "新しいGM")]
    user: User,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (actor, new_gm) = (inv.actor, user.id.get());
    let s = inv.update(ctx, |s| s.set_gm(actor, new_gm)).await?;
    let text = say(
        inv.lang,
        format!("<@{new_gm}> is now the GM of {}.", s.name),
        format!("{} のGMは <@{new_gm}> になりました。", s.name),
    );
    ctx.send(CreateReply::default().content(text)).await?;
    Ok(())
}
