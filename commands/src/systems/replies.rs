//! What every system's commands do when they answer: send one embed, answer a roll with its
//! buttons (logged with them in one write), and name who typed. A roll is logged by the
//! [`crate::command_roll::CommandRoll`] it came from.

use engine::session::Session;
use poise::CreateReply;

use crate::command_roll::CommandRoll;
use crate::embeds::EmbedView;
use crate::invocation::Invocation;
use crate::offers::{self, Offer};
use crate::{BotError, Context};

/// Send one embed to the channel.
pub async fn reply(ctx: Context<'_>, view: &EmbedView) -> Result<(), BotError> {
    crate::reply::send(ctx, CreateReply::default().embed(view.to_embed())).await?;
    Ok(())
}

/// Show a roll's `view` with `buttons` (five to a row), tap it for the console and log it in
/// `session`: the log row and the buttons' actions in one write.
pub async fn answer_with(
    roll: CommandRoll<'_>,
    inv: &Invocation,
    session: Option<&Session>,
    view: &EmbedView,
    buttons: Vec<Offer>,
    outcome: &(impl serde::Serialize + crate::log_line::LogSummary),
) -> Result<(), BotError> {
    let r = CreateReply::default().embed(view.to_embed());
    roll.answer_offering(inv, session, r, offers::rows_of(buttons), outcome)
        .await
}

/// The display name of whoever typed the command (embed footers).
pub fn who(ctx: Context<'_>) -> String {
    ctx.author().display_name().to_string()
}
