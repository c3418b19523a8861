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

pub fn row(buttons: Vec<CreateButton>) -> CreateActionRow {
    CreateActionRow::Buttons(buttons)
}

/// Everything a handler needs about one press.
pub struct Press<'a> {
    pub ctx: &'a SerenityContext,
    pub data: &'a Data,
    pub interaction: &'a ComponentInteraction,
    pub action: Action,
    pub lang: Lang,
    /// The channel's active session, if any.
    pub session: Option<Session>,
    /// The presser is the session's GM, manages the server, or has the GM role.
    pub is_gm: bool,
    /// The server's settings as read for this press (defaults when unreadable or in a DM).
    pub settings: ServerSettings,
}

/// What the press shows.
pub enum PressReply {
    /// Replace the message the button is on.
    Update(CreateInteractionResponseMessage),
    /// A new message in the channel.
    Message(CreateInteractionResponseMessage),
}
