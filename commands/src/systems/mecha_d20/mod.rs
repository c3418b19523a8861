//! `/mecha`: the d20 mecha RPG. Attacks between the session's units (pilot and suit) with both
//! d20s and their natural 20s, damage held for the application phase, the secondary-damage
//! table, the turn (initiative → a phase per squad → application), AP, spirit and propellant,
//! moves, and the fatigue, faint and escape checks — as commands, and as buttons after the
//! application phase. Each command maps its options to the engine (`engine::systems::mecha_d20`),
//! runs it on the battle kept in the session ([`store`]) and renders it ([`embeds`]).

pub mod battle;
pub mod buttons;
pub mod choices;
pub mod embeds;
mod log_summary;
pub mod odds;
pub mod store;
pub mod turn;

pub use super::replies::{record, reply, who};
use engine::i18n::Lang;
use engine::session::{ServerSettings, Session, SystemId};
use engine::systems::mecha_d20::MechaState;
use engine::systems::rules::SessionState;
use futures::future::BoxFuture;

use crate::press::{Press, PressReply};
use crate::systems::{Command, SystemBot};
use crate::{BotError, Context};

use battle::{mecha_attack, mecha_check, mecha_damage, mecha_range, mecha_secondary};
use turn::{
    mecha_apply, mecha_held, mecha_initiative, mecha_lose, mecha_move, mecha_phase, mecha_spend,
    mecha_status, mecha_survive, mecha_turn,
};

/// d20 Mecha: attacks, damage, the turn and survival checks
#[poise::command(
    slash_command,
    name_localized("ja", "メカ"),
    description_localized("ja", "d20メカ：攻撃、ダメージ、ターン、生存判定"),
    subcommands(
        "mecha_attack",
        "mecha_damage",
        "mecha_secondary",
        "mecha_check",
        "mecha_range",
        "mecha_turn",
        "mecha_initiative",
        "mecha_phase",
        "mecha_apply",
        "mecha_held",
        "mecha_lose",
        "mecha_move",
        "mecha_spend",
        "mecha_survive",
        "mecha_status"
    ),
    subcommand_required
)]
pub async fn mecha(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// The d20 mecha RPG in the bot's registry.
pub struct MechaD20Bot;

impl SystemBot for MechaD20Bot {
    fn id(&self) -> SystemId {
        SystemId::MechaD20
    }

    fn commands(&self) -> Vec<Command> {
        vec![mecha()]
    }

    fn odds(&self) -> Option<Command> {
        Some(odds::mecha())
    }

    fn help_topic(&self) -> Option<&'static str> {
        Some("d20メカ")
    }

    fn button_prefix(&self) -> Option<&'static str> {
        Some(buttons::PREFIX)
    }

    /// Escape, fatigue and faint checks.
    fn press<'a>(&'a self, p: &'a Press<'a>) -> BoxFuture<'a, Result<PressReply, BotError>> {
        Box::pin(buttons::press(p))
    }

    /// The battle board: the turn, each unit, held damage, waiting checks.
    fn status_board(
        &self,
        session: &Session,
        _settings: &ServerSettings,
        lang: Lang,
    ) -> Vec<(String, String, bool)> {
        let state = MechaState::read_or_default(&session.system_state);
        embeds::board_fields(session, &state, lang)
    }

    /// The sheet's fields, so a table sees what `/char` takes.
    fn sheet_choices(&self, typed: &str, _lang: Lang) -> Vec<(String, String)> {
        const FIELDS: &[&str] = &[
            "squad=",
            "leader=yes",
            "judgement=",
            "concentration=",
            "reaction=",
            "tactics=",
            "shooting=",
            "melee=",
            "charge=",
            "evade=",
            "parry=",
            "intercept=",
            "ap=",
            "spirit=",
            "model=",
            "durability=",
            "armour=",
            "evasion=",
            "fire_control=",
            "accuracy=",
            "reactor=",
            "propellant=",
            "movement=",
            "high_speed=",
            "escape_device=",
            "handling=",
            "cockpit=all_round",
            "w1=\"Rifle 2d6+5 r3 front\"",
        ];
        let last = typed.rsplit([' ', ',']).next().unwrap_or("").to_lowercase();
        let head = &typed[..typed.len() - last.len()];
        FIELDS
            .iter()
            .filter(|f| f.starts_with(&last))
            .take(25)
            .map(|f| {
                let full = format!("{head}{f}");
                (full.chars().take(100).collect(), full.chars().take(100).collect())
            })
            .collect()
    }
}
