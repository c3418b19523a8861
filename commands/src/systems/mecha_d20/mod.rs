//! `/mecha`: the d20 mecha RPG. Attacks between the session's units (pilot and suit) with both
//! d20s and their natural 20s, damage held for the application phase, the secondary-damage
//! table, the turn (initiative → a phase per squad → application), AP, spirit and propellant,
//! moves, and the fatigue, faint and escape checks — as commands, and as buttons after the
//! application phase. Each command maps its options to the engine (`engine::systems::mecha_d20`),
//! runs it on the battle kept in the session ([`store`]) and renders it ([`embeds`]).

pub mod battle;
mod board;
pub mod buttons;
pub mod choices;
pub mod embeds;
mod log_summary;
mod moments;
pub mod odds;
pub mod store;
pub mod turn;

pub use super::replies::{reply, who};
use engine::i18n::Lang;
use engine::session::{ServerSettings, Session, SystemId};
use engine::systems::mecha_d20::MechaState;
use engine::systems::rules::SessionState;
use futures::future::BoxFuture;

use crate::press::{Answer, Press, PressReply};
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
    description_localized("ja", "d20メカ：攻撃、ダメージ、ターン、疲労・気絶・脱出判定"),
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
    fn moments(&self, outcome: &serde_json::Value) -> Vec<crate::moments::Moment> {
        moments::of(outcome)
    }

    fn moment_keys(&self) -> &'static [&'static str] {
        moments::MOMENT_KEYS
    }

    fn board_line(&self, sheet: &engine::session::Doc, lang: Lang) -> Option<String> {
        board::line(sheet, lang)
    }

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

    /// Five steps with real commands (`/help topic:mecha_d20`).
    fn first_evening(&self) -> &'static [super::Step] {
        &[
            (
                "/session start name:Sortie system:mecha_d20",
                "start the sortie evening",
                "出撃のセッションを始める",
            ),
            (
                "/mecha turn",
                "the next turn: AP refreshed",
                "次のターン（APを回復）",
            ),
            (
                "/mecha initiative",
                "every pilot rolls initiative",
                "全パイロットのイニシアチブ",
            ),
            (
                "/mecha status",
                "the turn, every unit, held damage",
                "ターン・全ユニット・保留ダメージを見る",
            ),
            (
                "/session end",
                "end the evening: the log is kept",
                "セッションを終える（ログは残る）",
            ),
        ]
    }

    fn button_prefix(&self) -> Option<&'static str> {
        Some(buttons::PREFIX)
    }

    /// Escape, fatigue and faint checks.
    fn button_kinds(&self) -> &'static [&'static str] {
        &[buttons::CHECK_KIND]
    }

    fn press<'a>(
        &'a self,
        p: &'a Press<'a>,
        answer: Answer<'a>,
    ) -> BoxFuture<'a, Result<PressReply, BotError>> {
        Box::pin(buttons::press(p, answer))
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

    /// No suit list ships with the seed (L23): `model:` takes a suit's name as typed. The
    /// sheet's fields autocomplete on `stats:` (from the engine's declaration).
    fn sheet_choices(&self, _typed: &str, _lang: Lang) -> Vec<(String, String)> {
        Vec::new()
    }
}
