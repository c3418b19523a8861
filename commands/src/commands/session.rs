//! `/session`: a game running in a channel or thread — start, join, leave, status, log, recap,
//! end, export, gm, luck (`session_luck`).

use engine::i18n::Lang;
use engine::session::{RollLogEntry, Session};
use poise::CreateReply;
use serenity::all::{CreateAttachment, User};

use super::session_luck::luck;
use super::system_choice::SystemChoice;
use crate::embeds::markdown::escape;
use crate::embeds::status::{pack_messages, status_views};
use crate::embeds::{EmbedView, colour};
use crate::invocation::{Invocation, now_ms, store_error};
use crate::log_line::roller;
use crate::store::{LogScope, MAX_EXPORT_ROLLS, PageItem, StoreError};
use crate::{BotError, Context};

/// Game sessions in this channel
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "セッション"),
    description_localized("ja", "このチャンネルのゲームセッション"),
    subcommands(
        "start",
        "join",
        "leave",
        "status",
        "log",
        "recap",
        "end",
        "export",
        "gm",
        "luck",
        "super::campaign::delete"
    )
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
    crate::reply::send(ctx, CreateReply::default().embed(view.to_embed())).await?;
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

/// Start a session here, or continue the campaign played here; you become its GM
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "開始"),
    description_localized("ja", "セッションを始める、またはここのキャンペーンを続けます")
)]
pub async fn start(
    ctx: Context<'_>,
    #[description = "Session name (a new campaign needs one)"]
    #[name_localized("ja", "名前")]
    #[description_localized("ja", "セッション名（新しいキャンペーンには必要）")]
    #[max_length = 100]
    name: Option<String>,
    #[description = "Game system (a new campaign needs one)"]
    #[name_localized("ja", "システム")]
    #[description_localized("ja", "ゲームシステム（新しいキャンペーンには必要）")]
    system: Option<SystemChoice>,
    #[description = "Continue the campaign played here, or start a new one (default: ask)"]
    #[name_localized("ja", "キャンペーン")]
    #[description_localized("ja", "ここのキャンペーンを続けるか新しく始めるか（既定: 確認する）")]
    campaign: Option<super::campaign::CampaignChoice>,
    #[description = "A continued evening: a new battle, race or scenario, or the unfinished one"]
    #[name_localized("ja", "ゲーム")]
    #[description_localized("ja", "続けるセッション：新しい戦闘・レース・シナリオか、前回の続きか")]
    game: Option<super::next_game::NextGameChoice>,
) -> Result<(), BotError> {
    super::campaign::start(ctx, name, system, campaign, game).await
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
        format!("<@{user}> joined {}.", escape(&s.name)),
        format!("<@{user}>が「{}」に参加しました。", escape(&s.name)),
    );
    crate::reply::send(ctx, CreateReply::default().content(text)).await?;
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
        format!("<@{user}> left {}.", escape(&s.name)),
        format!("<@{user}>が「{}」から抜けました。", escape(&s.name)),
    );
    crate::reply::send(ctx, CreateReply::default().content(text)).await?;
    Ok(())
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
    // Every entry shows: a long roster continues in more embeds and, past Discord's 6000
    // characters a message, in follow-up messages.
    for message in pack_messages(status_views(&s, &inv.settings, inv.lang)) {
        let mut reply = CreateReply::default();
        for view in message {
            reply = reply.embed(view.to_embed());
        }
        crate::reply::send(ctx, reply).await?;
    }
    Ok(())
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
    #[description = "Which evening of the campaign (0: all of them; default: the latest)"]
    #[name_localized("ja", "回")]
    #[description_localized("ja", "キャンペーンの第何回か（0で全体、既定は最新）")]
    #[autocomplete = "super::campaign::autocomplete_evening"]
    #[max = 100000]
    evening: Option<u32>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let store = ctx.data().store.as_ref();
    let base = super::campaign::channel_game(ctx, &inv).await?;
    let (s, scope) = super::campaign::scope(store, &inv, base, evening).await?;
    let rolls = super::campaign::recent(store, scope, count.unwrap_or(10).clamp(1, 25))
        .await
        .map_err(|e| store_error(e, inv.lang))?;
    let line = |r: &RollLogEntry| {
        format!(
            "<t:{}:t> {} `{}`{}",
            r.at_ms / 1000,
            roller(r),
            // The command in the reader's language, as the transcript names it.
            super::transcript::command_text(&r.command, inv.lang),
            summary(r, inv.lang)
        )
    };
    // Private and secret rolls: the channel sees that one was made, never its result.
    let lines: Vec<String> = rolls
        .iter()
        .map(|r| match hidden_kind(r) {
            Some(kind) => format!(
                "<t:{}:t> {} {}",
                r.at_ms / 1000,
                roller(r),
                hidden_label(kind, inv.lang)
            ),
            None => line(r),
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
                format!("🎲 Log: {}", super::campaign::scope_title(&s, scope, inv.lang)),
                format!("🎲 ログ: {}", super::campaign::scope_title(&s, scope, inv.lang)),
            ),
            description,
        ),
    )
    .await?;
    // The roller and the GM also get the hidden results they may see, only to themselves.
    let mine: Vec<String> = rolls
        .iter()
        .filter(|r| hidden_kind(r).is_some() && may_see_hidden(r, &s, &inv))
        .map(line)
        .collect();
    if !mine.is_empty() {
        let view = note(
            inv.lang
                .pick(
                    "🔒 Hidden rolls (only you can see this)",
                    "🔒 非公開のロール（あなたにだけ表示）",
                )
                .into(),
            mine.join("\n"),
        );
        crate::reply::send(ctx, CreateReply::default().embed(view.to_embed()).ephemeral(true)).await?;
    }
    Ok(())
}

/// `secret` or `private` for a roll only its roller and the GM may see (see `/roll`).
pub fn hidden_kind(entry: &RollLogEntry) -> Option<&str> {
    entry.outcome.get("hidden")?.as_str()
}

/// The roller, the session's GM and members acting as GM (Manage Server, the GM role).
fn may_see_hidden(entry: &RollLogEntry, s: &Session, inv: &Invocation) -> bool {
    entry.user_id == inv.user || s.gm == inv.user || inv.actor.manage_server
}

pub(super) fn hidden_label(kind: &str, lang: Lang) -> &'static str {
    match kind {
        "private" => lang.pick("🔒 made a private roll", "🔒 非公開でダイスを振りました"),
        _ => lang.pick("🔒 made a secret roll", "🔒 シークレットダイスを振りました"),
    }
}

/// ` → result`: the roll's stored summary in the reader's language (older entries: their totals).
fn summary(entry: &RollLogEntry, lang: Lang) -> String {
    let result = super::transcript::result_text(entry, lang);
    if result.is_empty() {
        String::new()
    } else {
        format!(" → {result}")
    }
}

/// The recap of `s` for everyone in the channel: secret and private rolls are counted, their
/// moments not told. An error when the log cannot be read.
async fn channel_recap(ctx: Context<'_>, s: &Session, lang: Lang) -> Result<EmbedView, StoreError> {
    // Built a row at a time as the log is read: the rows are never held.
    let mut recap = super::recap::RecapBuilder::new(s);
    let mut luck = Vec::new();
    let head = ctx
        .data()
        .store
        .stream_page(LogScope::Evening(s.id), 0, MAX_EXPORT_ROLLS, false, &mut |item| {
            if let PageItem::Row(row) = item
                && let Some(e) = row.light_entry()
            {
                recap.add_row(s, &row, &e, hidden_kind(&e).is_some());
                // Secret and private rolls carry no luck, so the table tells nothing hidden.
                luck.extend(crate::luck::LuckRow::of(&e));
            }
            std::ops::ControlFlow::Continue(())
        })
        .await?;
    let r = crate::luck::finish_recap(recap, head.total_rolls, luck, Some(s.id), lang).await;
    Ok(super::recap::embed(s, &r, lang))
}

/// The evening so far: who played, how many rolls, its moments
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "振り返り"),
    description_localized("ja", "参加者・ロール数・名場面の振り返り")
)]
pub async fn recap(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let s = inv.session(ctx).await?;
    let view = channel_recap(ctx, &s, inv.lang)
        .await
        .map_err(|e| store_error(e, inv.lang))?;
    reply(ctx, view).await
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
    let ended = note(
        say(
            inv.lang,
            format!("Session ended: {}", s.name),
            format!("セッション終了: {}", s.name),
        ),
        say(
            inv.lang,
            format!(
                "Its roster and roll log are kept: /session export session:{} gives a copy. \
                 Next time, /session start here continues the campaign as evening {}.",
                s.id,
                s.evening + 1
            ),
            format!(
                "ロスターとログは保存されています（/session export session:{} で出力できます）。\
                 次回ここで /session start すると、キャンペーンの第{}回として続けられます。",
                s.id,
                s.evening + 1
            ),
        ),
    );
    let mut answer = CreateReply::default().embed(ended.to_embed());
    // The session has ended whatever happens next: a log that cannot be read costs the recap
    // (`/session export session:N` still carries it), never the answer.
    match channel_recap(ctx, &s, inv.lang).await {
        Ok(view) => answer = answer.embed(view.to_embed()),
        Err(e) => tracing::warn!(session = s.id, error = %e, "recap at /session end"),
    }
    crate::reply::send(ctx, answer).await?;
    Ok(())
}

/// Whether the member behind `inv` may export `s`: a session of this channel, or one they ran
/// as GM, or any of this server's when they manage it (the rule `export` itself applies).
fn may_export(s: &engine::session::Session, inv: &Invocation) -> bool {
    s.channel_id == inv.channel || s.gm == inv.user || inv.actor.manage_server
}

/// Sessions of this server the member may export: the channel's active one, then ended ones,
/// newest first — never another channel's they could not download.
async fn autocomplete_session(ctx: Context<'_>, partial: &str) -> serenity::all::CreateAutocompleteResponse {
    let inv = Invocation::load(ctx).await;
    let mut sessions = Vec::new();
    if let Ok(Some(s)) = ctx.data().store.active_session(ctx.channel_id().get()).await {
        sessions.push(s);
    }
    if let Some(g) = ctx.guild_id()
        && let Ok(ended) = ctx.data().store.ended_sessions(g.get(), 25).await
    {
        sessions.extend(ended);
    }
    let lang = ctx.locale().map_or(Lang::En, Lang::from_locale);
    let partial = partial.trim().to_lowercase();
    let choices = sessions
        .into_iter()
        .filter(|s| may_export(s, &inv))
        .filter(|s| {
            partial.is_empty()
                || s.name.to_lowercase().contains(&partial)
                || s.id.to_string().starts_with(&partial)
        })
        .take(25)
        .map(|s| {
            let state = match (s.is_active(), lang) {
                (true, Lang::En) => "running".to_string(),
                (true, Lang::Ja) => "進行中".to_string(),
                (false, Lang::En) => "ended".to_string(),
                (false, Lang::Ja) => "終了".to_string(),
            };
            let label = crate::embeds::truncate(&format!("#{} {} ({state})", s.id, s.name), 100);
            serenity::all::AutocompleteChoice::new(label, s.id)
        })
        .collect();
    serenity::all::CreateAutocompleteResponse::new().set_choices(choices)
}

/// Room kept in an attachment for what surrounds the log.
const EXPORT_MARGIN: usize = 64 * 1024;
/// Never attach more than this, whatever the server allows.
const EXPORT_MAX_BYTES: usize = 25 * 1024 * 1024;

/// Download a session (this channel's, or an ended one) and its roll log: JSON, a transcript and a page
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "エクスポート"),
    description_localized("ja", "セッションとログを出力します（JSON・読める記録・HTMLページ）")
)]
pub async fn export(
    ctx: Context<'_>,
    #[description = "Which session (default: this channel's; ended ones autocomplete)"]
    #[name_localized("ja", "セッション")]
    #[description_localized("ja", "対象のセッション（既定: このチャンネル、終了したものも候補表示）")]
    #[autocomplete = "autocomplete_session"]
    session: Option<i64>,
    #[description = "The first roll to include (for a log too long for one file)"]
    #[name_localized("ja", "開始")]
    #[description_localized("ja", "含める最初のロール番号（1ファイルに収まらないログ用）")]
    #[min = 1]
    start: Option<u32>,
    #[description = "Which evening of the campaign (0: all of them; default: the latest)"]
    #[name_localized("ja", "回")]
    #[description_localized("ja", "キャンペーンの第何回か（0で全体、既定は最新）")]
    #[autocomplete = "super::campaign::autocomplete_evening"]
    #[max = 100000]
    evening: Option<u32>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let guild = inv.require_guild()?;
    let base = match session {
        None => super::campaign::channel_game(ctx, &inv).await?,
        Some(id) => match ctx.data().store.session(id).await {
            // Another channel's log may be one this member cannot read: only its GM or a
            // server manager exports it from elsewhere.
            Ok(Some(s)) if s.guild_id == guild && may_export(&s, &inv) => std::sync::Arc::new(s),
            Ok(_) => return Err(inv.user_error(&StoreError::NotFound)),
            Err(e) => return Err(store_error(e, inv.lang)),
        },
    };
    let store = ctx.data().store.as_ref();
    let (s, scope) = super::campaign::scope(store, &inv, base, evening).await?;
    let offset = start.unwrap_or(1).saturating_sub(1);
    let limit = match ctx {
        poise::Context::Application(app) => app.interaction.attachment_size_limit as usize,
        poise::Context::Prefix(_) => 8 * 1024 * 1024,
    };
    // A third each for the JSON, the transcript and the page (a roll's Markdown line and HTML
    // row are never much longer than its JSON, which holds the same command and both
    // summaries and more; the margin keeps room for the recap and the page's style).
    let budget = (limit.min(EXPORT_MAX_BYTES).saturating_sub(EXPORT_MARGIN) / 3).max(1024);
    // The files are written as the rows arrive: the page of rows is never held.
    let mut builder = super::export_files::ExportBuilder::new(inv.lang, budget, |e: &RollLogEntry| {
        may_see_hidden(e, &s, &inv)
    });
    let head = store
        .stream_page(scope, offset, MAX_EXPORT_ROLLS, true, &mut |item| {
            builder.take(item)
        })
        .await
        .map_err(|e| store_error(e, inv.lang))?;
    if head.total_rolls > 0 && u64::from(offset) >= head.total_rolls {
        return Err(BotError::User(say(
            inv.lang,
            format!("`start` is past the end: the log has {} rolls.", head.total_rolls),
            format!(
                "「開始」がログの末尾を超えています（ロールは{}件です）。",
                head.total_rolls
            ),
        )));
    }
    let files = builder
        .finish()
        .await
        .ok_or_else(|| BotError::internal("the export's page had no head"))?;
    let fits = files.rolls;
    let total = head.total_rolls;
    let first = u64::from(head.offset) + 1;
    let last = u64::from(head.offset) + fits;
    let (stem, which) = match scope {
        LogScope::Campaign(c) => (format!("campaign-{c}"), format!("session:{} evening:0", s.id)),
        LogScope::Evening(id) => (format!("session-{id}"), format!("session:{id}")),
    };
    let stem = if offset == 0 && last >= total {
        stem
    } else {
        format!("{stem}-rolls-{first}-{last}")
    };
    let file = CreateAttachment::bytes(files.json, format!("{stem}.json"));
    let readable = CreateAttachment::bytes(files.markdown.into_bytes(), format!("{stem}.md"));
    let web = CreateAttachment::bytes(files.html.into_bytes(), format!("{stem}.html"));
    let mut text = if total == 0 || (offset == 0 && last >= total) {
        say(
            inv.lang,
            format!("{}: {} rolls.", s.name, fits),
            format!("{}: ロール{}件。", s.name, fits),
        )
    } else {
        say(
            inv.lang,
            format!("{}: rolls {first}–{last} of {total}.", s.name),
            format!("{}: ロール{total}件中 {first}〜{last}件目。", s.name),
        )
    };
    if last < total {
        text.push_str(&say(
            inv.lang,
            format!(" The rest: /session export {which} start:{}", last + 1),
            format!(" 続きは /session export {which} start:{}", last + 1),
        ));
    }
    crate::reply::send(
        ctx,
        CreateReply::default()
            .content(text)
            .attachment(file)
            .attachment(readable)
            .attachment(web)
            .ephemeral(files.shows_hidden),
    )
    .await?;
    Ok(())
}

/// Hand the GM role to someone (GM or server managers)
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "ゲームマスター交代"),
    description_localized("ja", "GMを交代します（GMのみ）")
)]
pub async fn gm(
    ctx: Context<'_>,
    #[description = "The new GM"]
    #[name_localized("ja", "新ゲームマスター")]
    #[description_localized("ja", "新しいGM")]
    user: User,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let (actor, new_gm) = (inv.actor, user.id.get());
    let s = inv.update(ctx, |s| s.set_gm(actor, new_gm)).await?;
    let text = say(
        inv.lang,
        format!("<@{new_gm}> is now the GM of {}.", escape(&s.name)),
        format!("「{}」のGMは<@{new_gm}>になりました。", escape(&s.name)),
    );
    crate::reply::send(ctx, CreateReply::default().content(text)).await?;
    Ok(())
}
