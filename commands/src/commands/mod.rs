//! Slash commands: one module per command tree. A command maps options to an engine request,
//! calls the engine, persists, and renders; rules never live here.

pub mod campaign;
pub mod char;
pub mod char_files;
pub mod config;
pub mod export_files;
pub mod help;
pub mod next_game;
pub mod odds;
pub mod page;
pub mod recap;
pub mod roll;
pub mod session;
pub mod session_luck;
pub mod stamps;
pub mod system_choice;
pub mod transcript;

use crate::{BotError, Data};

/// Every command the bot registers: the generic ones, then each system's (from the registry).
pub fn all() -> Vec<poise::Command<Data, BotError>> {
    let mut all = vec![
        roll::roll(),
        odds::odds(),
        session::session(),
        char::char(),
        config::config(),
        help::help(),
    ];
    all.extend(crate::systems::commands());
    all
}
