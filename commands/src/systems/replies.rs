//! What every system's commands do when they answer: send one embed, name who typed, and log
//! the roll in the session (best effort) while handing the outcome to the console.

use engine::session::Session;
use poise::CreateReply;

use crate::embeds::EmbedView;
use crate::invocation::Invocation;
use crate::log_line::{LogSummary, typed};
use crate::{BotError, Context};

/// Send one embed to the channel.
pub async fn reply(ctx: Context<'_>, view: &EmbedView) -> Result<(), BotError> {
    crate::reply::send(ctx, CreateReply::default().embed(view.to_embed())).await?;
    Ok(())
}

/// The display name of whoever typed the command (embed footers).
pub fn who(ctx: Context<'_>) -> String {
    ctx.author().display_name().to_string()
}

/// Log a roll in the session (best effort), as the command was typed and with its summary, and
/// hand it to the console.
pub async fn record(
    ctx: Context<'_>,
    inv: &Invocation,
    session: Option<&Session>,
    outcome: &(impl serde::Serialize + LogSummary),
) {
    ctx.data().tap(ctx.id(), outcome);
    inv.log_roll(ctx, session, &typed(ctx), outcome).await;
}
