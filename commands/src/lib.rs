//! The Saikoro bot: poise slash commands over the rules engine, embeds, store, config, the fake
//! Discord it is tested against, and the offline console built on that fake.

pub mod autocomplete;
pub mod bot;
pub mod buttons;
pub mod command_names;
pub mod command_roll;
pub mod commands;
pub mod config;
pub mod console;
pub mod dice_source;
#[cfg(test)]
mod docs;
pub mod embeds;
pub mod error;
pub mod fake_discord;
pub mod help;
pub mod interactions_http;
pub mod invocation;
pub mod loadtest;
pub mod log_line;
pub mod logging;
pub mod luck;
pub mod metrics;
pub mod moments;
pub mod multipart;
pub mod offers;
pub mod press;
pub mod registration;
pub mod reply;
#[cfg(test)]
mod source_tree;
pub mod store;
pub mod systems;
pub mod text_check;

pub use error::BotError;

/// A command of this bot (the crate's one alias, so no module imports another for it).
pub type Command = poise::Command<Data, BotError>;

use serde::Serialize;
use tokio::sync::mpsc;

/// An engine outcome as a command produced it (for `saikoro console --json` and tests), or the
/// mark that a command finished (`outcome` is `None`), so a driver knows every message is out.
#[derive(Debug, Clone)]
pub struct TappedOutcome {
    pub interaction_id: u64,
    pub outcome: Option<serde_json::Value>,
}

/// Shared by every command.
pub struct Data {
    /// Reached by commands only through their [`command_roll::CommandRoll`] and by presses
    /// only through their [`press::Answer`], whose answers log what was rolled (issue 28).
    dice: press::Dice,
    pub store: std::sync::Arc<dyn store::Store>,
    pub outcome_tap: Option<mpsc::UnboundedSender<TappedOutcome>>,
    /// Optional reads skip the store for a while after one failed (see
    /// [`invocation::ReadBreaker`]).
    pub reads: invocation::ReadBreaker,
}

impl Data {
    pub fn new(
        dice: dice_source::DiceSource,
        store: std::sync::Arc<dyn store::Store>,
        outcome_tap: Option<mpsc::UnboundedSender<TappedOutcome>>,
    ) -> Data {
        Data {
            dice: press::Dice::new(dice),
            store,
            outcome_tap,
            reads: Default::default(),
        }
    }

    /// Mark a command finished (after its last message).
    pub fn tap_done(&self, interaction_id: u64) {
        if let Some(tx) = &self.outcome_tap {
            let _ = tx.send(TappedOutcome {
                interaction_id,
                outcome: None,
            });
        }
    }

    /// Hand an outcome to whoever listens (the console); a no-op in production.
    pub fn tap(&self, interaction_id: u64, outcome: &impl Serialize) {
        if let Some(tx) = &self.outcome_tap
            && let Ok(outcome) = serde_json::to_value(outcome)
        {
            let _ = tx.send(TappedOutcome {
                interaction_id,
                outcome: Some(outcome),
            });
        }
    }
}

pub type Context<'a> = poise::Context<'a, Data, BotError>;
