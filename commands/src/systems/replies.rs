//! What every system's commands do when they answer: send one embed and name who typed. A roll
//! is logged by the [`crate::command_roll::CommandRoll`] it came from.

use poise::CreateReply;

use crate::embeds::EmbedView;
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
