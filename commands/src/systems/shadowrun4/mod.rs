//! `/sr`: Shadowrun 4 (issue 5). Each subcommand maps options to an engine request (a pool
//! given directly, or built from a session character's sheet), rolls, saves what changed
//! (Edge points, the initiative order), renders with `embeds::sr`, and offers the buttons
//! "Second chance (Edge)", "Negate glitch (Edge)", "Burn Edge: critical success" and
//! "Apply damage" where the rules allow them (see [`buttons`]).

mod board;
pub mod buttons;
pub mod chase;
pub mod combat;
pub mod common;
pub mod embeds;
pub mod initiative;
mod log_summary;
mod luck;
pub mod magic;
pub mod matrix;
mod moments;
pub mod odds;
pub mod pools;
pub mod press_data;
pub mod rigging;
pub mod test;

use combat::{attack, surprise};
use initiative::initiative;
use magic::{compile, dispel, drop_sustained, spell, summon, thread};
use test::{extended, opposed, teamwork, test};

use engine::i18n::Lang;
use engine::session::{ServerSettings, Session, SystemId};
use futures::future::BoxFuture;

use crate::press::{Answer, Press, PressReply};
use crate::systems::{Command, SystemBot};
use crate::{BotError, Context};

/// Shadowrun 4 in the bot's registry.
pub struct Shadowrun4Bot;

impl SystemBot for Shadowrun4Bot {
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
        SystemId::Shadowrun4
    }

    fn commands(&self) -> Vec<Command> {
        vec![sr(), matrix::matrix(), rigging::rig()]
    }

    fn odds(&self) -> Option<Command> {
        Some(odds::sr())
    }

    fn help_topic(&self) -> Option<&'static str> {
        Some("シャドウラン4")
    }

    /// Five steps with real commands (`/help topic:shadowrun4`).
    fn first_evening(&self) -> &'static [super::Step] {
        &[
            (
                "/session start name:Run system:shadowrun4",
                "start the evening in this channel",
                "このチャンネルでセッションを始める",
            ),
            (
                "/char add name:Ana stats:\"body=3 agility=4\"",
                "add a runner's sheet",
                "ランナーのシートを登録する",
            ),
            (
                "/sr test pool:8",
                "a success test: hits on 5+",
                "成功テスト：5以上がヒット",
            ),
            (
                "/sr initiative roll",
                "roll initiative: the turn order",
                "イニシアティブを振り、手番を決める",
            ),
            (
                "/session end",
                "end the evening: the log is kept",
                "セッションを終える（ログは残る）",
            ),
        ]
    }

    fn button_prefix(&self) -> Option<&'static str> {
        Some("sr.")
    }

    fn button_kinds(&self) -> &'static [&'static str] {
        use press_data::SrPress;
        &[
            SrPress::SECOND_CHANCE,
            SrPress::NEGATE_GLITCH,
            SrPress::EDGE_DICE,
            SrPress::BURN_EDGE,
            SrPress::APPLY_DAMAGE,
            SrPress::CHEAT_DEATH,
        ]
    }

    fn press<'a>(
        &'a self,
        p: &'a Press<'a>,
        answer: Answer<'a>,
    ) -> BoxFuture<'a, Result<PressReply, BotError>> {
        Box::pin(buttons::press(p, answer))
    }

    /// The initiative order is the session's turn order, shown in the header already.
    fn status_board(&self, _: &Session, _: &ServerSettings, _: Lang) -> Vec<(String, String, bool)> {
        Vec::new()
    }

    fn round_label(&self, session: &Session, lang: Lang) -> Option<String> {
        let s = initiative::stored_state(session)?;
        Some(initiative::turn_label(s.turn, s.pass, lang))
    }

    /// Characters are typed field by field; there is no model list to pick from.
    fn sheet_choices(&self, _typed: &str, _lang: Lang) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// Shadowrun 4th edition
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "シャドウラン"),
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
        "drop_sustained"
    ),
    subcommand_required
)]
pub async fn sr(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}
