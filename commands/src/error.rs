//! What users see when something goes wrong: our own short sentence in their language. The
//! detail of an internal error goes to the log under an id, which is all the user is shown.

use engine::i18n::Lang;
use poise::CreateReply;
use rand::RngExt;

use crate::{Context, Data};

#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// The user's input was wrong; the message is already in their language.
    #[error("{0}")]
    User(String),
    /// Ours or the platform's; never shown verbatim.
    #[error("internal: {0}")]
    Internal(String),
}

impl BotError {
    pub fn internal(e: impl std::fmt::Display) -> Self {
        BotError::Internal(e.to_string())
    }
}

impl From<serenity::Error> for BotError {
    fn from(e: serenity::Error) -> Self {
        BotError::internal(e)
    }
}

/// The language to answer in: the interaction's locale.
pub fn lang_of(ctx: Context<'_>) -> Lang {
    ctx.locale().map_or(Lang::En, Lang::from_locale)
}

/// A short id to find an error in the logs.
pub fn new_error_id() -> String {
    format!("{:08x}", rand::rng().random::<u32>())
}

fn internal_message(lang: Lang, id: &str) -> String {
    match lang {
        Lang::En => format!("Something went wrong on our side. Error id: `{id}`"),
        Lang::Ja => format!("ボット側でエラーが起きました。エラーID: `{id}`"),
    }
}

async fn reply_ephemeral(ctx: Context<'_>, text: String) {
    // A Japanese refusal names commands the Japanese way (`command_names`). Discord refuses
    // content over 2,000 characters, and the user would see no answer at all.
    let text = crate::embeds::truncate(&crate::command_names::in_japanese_text(&text), 2000);
    let reply = CreateReply::default().content(text).ephemeral(true);
    if let Err(e) = crate::reply::send(ctx, reply).await {
        tracing::warn!(command = %ctx.command().qualified_name, "could not send the error reply: {e}");
    }
}

pub async fn on_error(error: poise::FrameworkError<'_, Data, BotError>) {
    let done = error.ctx().map(|ctx| (ctx.data(), ctx.id()));
    handle(error).await;
    if let Some((data, id)) = done {
        data.tap_done(id);
    }
}

async fn handle(error: poise::FrameworkError<'_, Data, BotError>) {
    use poise::FrameworkError as F;
    match error {
        F::Command {
            error: BotError::User(msg),
            ctx,
            ..
        } => reply_ephemeral(ctx, msg).await,
        F::Command {
            error: BotError::Internal(detail),
            ctx,
            ..
        } => {
            let id = new_error_id();
            tracing::error!(error_id = %id, command = %ctx.command().qualified_name, "{detail}");
            reply_ephemeral(ctx, internal_message(lang_of(ctx), &id)).await;
        }
        F::ArgumentParse {
            ctx, input, error, ..
        } => {
            tracing::debug!(command = %ctx.command().qualified_name, ?input, "argument parse: {error}");
            let text = match lang_of(ctx) {
                Lang::En => "One of the options has a value that cannot be read. Check it and try again.",
                Lang::Ja => "オプションの値が読み取れません。確認してもう一度どうぞ。",
            };
            reply_ephemeral(ctx, text.to_string()).await;
        }
        // A check's own refusal (a system turned off here, storage unavailable) is the message.
        F::CommandCheckFailed {
            ctx,
            error: Some(BotError::User(text)),
            ..
        } => reply_ephemeral(ctx, text).await,
        F::CommandCheckFailed {
            ctx,
            error: Some(BotError::Internal(detail)),
            ..
        } => {
            let id = new_error_id();
            tracing::error!(error_id = %id, command = %ctx.command().qualified_name, "check: {detail}");
            reply_ephemeral(ctx, internal_message(lang_of(ctx), &id)).await;
        }
        F::MissingUserPermissions { ctx, .. }
        | F::NotAnOwner { ctx, .. }
        | F::CommandCheckFailed { ctx, .. } => {
            let text = match lang_of(ctx) {
                Lang::En => "You do not have permission to use this command here.",
                Lang::Ja => "このコマンドを使う権限がありません。",
            };
            reply_ephemeral(ctx, text.to_string()).await;
        }
        F::MissingBotPermissions {
            ctx,
            missing_permissions,
            ..
        } => {
            let text = match lang_of(ctx) {
                Lang::En => format!("I am missing permissions here: {missing_permissions}"),
                Lang::Ja => format!("ボットにこの権限がありません: {missing_permissions}"),
            };
            reply_ephemeral(ctx, text).await;
        }
        F::GuildOnly { ctx, .. } => {
            let text = match lang_of(ctx) {
                Lang::En => "This command works only in a server.",
                Lang::Ja => "このコマンドはサーバー内でのみ使えます。",
            };
            reply_ephemeral(ctx, text.to_string()).await;
        }
        F::CommandPanic { ctx, payload, .. } => {
            let id = new_error_id();
            tracing::error!(error_id = %id, command = %ctx.command().qualified_name, "panic: {payload:?}");
            reply_ephemeral(ctx, internal_message(lang_of(ctx), &id)).await;
        }
        other => {
            let id = new_error_id();
            tracing::error!(error_id = %id, "framework error: {other}");
            if let Some(ctx) = other.ctx() {
                reply_ephemeral(ctx, internal_message(lang_of(ctx), &id)).await;
            }
        }
    }
}
