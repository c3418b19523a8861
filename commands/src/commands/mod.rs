//! Slash commands: one module per command tree. A command maps options to an engine request,
//! calls the engine, persists, and renders; rules never live here.

pub mod char;
pub mod config;
pub mod rally;
pub mod roll;
pub mod session;
pub mod sr;
pub mod system_choice;

use crate::{BotError, Data};

/// Every command the bot registers.
pub fn all() -> Vec<poise::Command<Data, BotError>> {
    vec![
        roll::roll(),
        session::session(),
        char::char(),
        config::config(),
        rally::rally(),
        sr::sr(),
    ]
}
