//! What a button press is, for the modules that offer buttons and handle their presses: the
//! button itself (`act:<action id>`), and the [`Press`] a handler gets and the [`PressReply`]
//! it returns. The dispatcher (`buttons.rs`) routes presses here through the systems' registry;
//! these types sit below both so neither imports the other.

use engine::i18n::Lang;
use engine::session::{ServerSettings, Session};
use serenity::all::{
    ButtonStyle, ComponentInteraction, Context as SerenityContext, CreateActionRow, CreateButton,
    CreateInteractionResponseMessage,
};

use crate::Data;
use crate::store::Action;

pub const PREFIX: &str = "act:";

/// A button that triggers action `id`.
pub fn button(id: i64, label: &str, style: ButtonStyle) -> CreateButton {
    CreateButton::new(format!("{PREFIX}{id}"))
        // Discord caps button labels at 80 characters.
        .label(crate::embeds::truncate(label, 80))
        .style(style)
}

/// One of several buttons of action `id` (`act:<id>/<variant>`): whichever is pressed first
/// consumes the action, so a choice between them (plain or boosted damage) is made once. The
/// handler reads the pressed one from [`Press::variant`].
pub fn button_variant(id: i64, variant: &str, label: &str, style: ButtonStyle) -> CreateButton {
    CreateButton::new(format!("{PREFIX}{id}/{variant}"))
        .label(crate::embeds::truncate(label, 80))
        .style(style)
}

/// `act:<id>` or `act:<id>/<variant>` → the action id and the variant.
pub fn parse_custom_id(custom_id: &str) -> Option<(i64, Option<String>)> {
    let rest = custom_id.strip_prefix(PREFIX)?;
    let (id, variant) = match rest.split_once('/') {
        Some((id, v)) if !v.is_empty() => (id, Some(v.to_string())),
        Some(_) => return None,
        None => (rest, None),
    };
    let id = id.parse::<i64>().ok()?;
    Some((id, variant))
}

pub fn row(buttons: Vec<CreateButton>) -> CreateActionRow {
    CreateActionRow::Buttons(buttons)
}

/// Everything a handler needs about one press.
pub struct Press<'a> {
    pub ctx: &'a SerenityContext,
    pub data: &'a Data,
    pub interaction: &'a ComponentInteraction,
    pub action: Action,
    /// Which of the action's buttons was pressed ([`button_variant`]); `None` for a plain one.
    pub variant: Option<String>,
    pub lang: Lang,
    /// The channel's active session, if any.
    pub session: Option<std::sync::Arc<Session>>,
    /// The presser is the session's GM, manages the server, or has the GM role.
    pub is_gm: bool,
    /// The server's settings as read for this press (defaults when unreadable or in a DM).
    pub settings: ServerSettings,
}

impl Press<'_> {
    /// Log what a press rolled in session `session_id` (best effort, as a command's roll is:
    /// the result already shows) with its summary, and hand it to the console.
    pub async fn log(
        &self,
        session_id: i64,
        command: &str,
        outcome: &(impl serde::Serialize + crate::log_line::LogSummary),
    ) {
        self.data.tap(self.interaction.id.get(), outcome);
        let user = self.interaction.user.id.get();
        let now = crate::invocation::now_ms();
        let Some(entry) = crate::log_line::entry(session_id, user, command.to_string(), outcome, now) else {
            return;
        };
        if let Err(e) = self.data.store.append_roll(&entry).await {
            tracing::warn!(session = session_id, "roll not logged: {e}");
        }
    }
}

/// What the press shows.
pub enum PressReply {
    /// Replace the message the button is on.
    Update(CreateInteractionResponseMessage),
    /// A new message in the channel.
    Message(CreateInteractionResponseMessage),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_read_back_with_and_without_a_variant() {
        assert_eq!(parse_custom_id("act:42"), Some((42, None)));
        assert_eq!(parse_custom_id("act:42/boost"), Some((42, Some("boost".into()))));
        assert_eq!(parse_custom_id("act:42/"), None);
        assert_eq!(parse_custom_id("act:x/boost"), None);
        assert_eq!(parse_custom_id("other:42"), None);
    }
}
