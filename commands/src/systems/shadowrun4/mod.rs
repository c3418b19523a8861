//! `/sr`: Shadowrun 4 (issue 5). Each subcommand maps options to an engine request (a pool
//! given directly, or built from a session character's sheet), rolls, saves what changed
//! (Edge points, the initiative order), renders with `embeds::sr`, and offers the buttons
//! "Second chance (Edge)", "Negate glitch (Edge)", "Burn Edge: critical success" and
//! "Apply damage" where the rules allow them (see [`buttons`]).

pub mod buttons;
pub mod combat;
pub mod common;
pub mod initiative;
pub mod magic;
pub mod matrix;
pub mod test;

pub use buttons::press;

use combat::{attack, surprise};
use initiative::initiative;
use magic::{compile, dispel, drop_sustained, spell, summon, thread};
use matrix::{matrix, rig};
use test::{extended, opposed, teamwork, test};

use crate::{BotError, Context};

/// Shadowrun 4th edition
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "sr"),
    description_localized("ja", "シャドウラン第4版"),
    subcommands(
        "test",
        "opposed",
        "extended",
        "teamwork",
        "attack",
        "initiative",
        "surprise",
        "spell",
        "dispel",
        "summon",
        "thread",
        "compile",
        "drop_sustained",
        "matrix",
        "rig"
    ),
    subcommand_required
)]
pub async fn sr(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}
