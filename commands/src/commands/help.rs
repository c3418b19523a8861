//! `/help` (`/ヘルプ`): the pages of [`crate::help`], as an ephemeral embed (help is for the
//! one who asks, not the table).

use poise::CreateReply;

use crate::help::{self, Topic};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// What the bot does, its commands, dice notation and each game's page
#[poise::command(
    slash_command,
    name_localized("ja", "ヘルプ"),
    description_localized("ja", "使い方：コマンド、ダイス表記、各ゲームのページ")
)]
pub async fn help(
    ctx: Context<'_>,
    #[description = "Which page (default: the commands)"]
    #[name_localized("ja", "項目")]
    #[description_localized("ja", "表示するページ（既定：コマンド一覧）")]
    topic: Option<Topic>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    send_page(ctx, &inv, topic).await
}

/// Reply with a help page (also `/roll dice:help`).
pub async fn send_page(ctx: Context<'_>, inv: &Invocation, topic: Option<Topic>) -> Result<(), BotError> {
    let commands = &ctx.framework().options().commands;
    // The member's resolved permissions (none outside a server): help lists what Discord shows.
    let member = match ctx {
        poise::Context::Application(app) => app.interaction.member.as_ref().and_then(|m| m.permissions),
        poise::Context::Prefix(_) => None,
    }
    .unwrap_or_else(serenity::all::Permissions::empty);
    let view = help::page(commands, topic, &inv.settings, member, inv.lang);
    crate::reply::send(
        ctx,
        CreateReply::default()
            .embed(view.limited().to_embed())
            .ephemeral(true),
    )
    .await?;
    Ok(())
}
