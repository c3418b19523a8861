//! The bot side of each game system: one folder per system, named as in the engine (its
//! commands, embeds and button handlers together), joined to the rest of the bot through the
//! [`SystemBot`] registry below. Registration, the button dispatcher, `/session start`'s
//! choices, `/char`'s sheet autocomplete, the `/session status` board and the recap's moments are all
//! built from it. Adding a system: its engine folder, its folder here, and one arm in [`bot`].

pub mod badlands_rally;
pub mod free_form;
pub mod mecha_d20;
pub mod replies;
pub mod shadowrun4;
pub mod terminator;
pub mod warmachine;

use std::sync::OnceLock;

use engine::i18n::Lang;
use engine::session::{ServerSettings, Session, SystemId};
use futures::future::BoxFuture;

use crate::invocation::Invocation;
use crate::moments::Moment;
use crate::press::{Answer, Press, PressReply};
use crate::{BotError, Context};

pub use crate::Command;

/// What the bot needs of one system beyond its engine rules.
pub trait SystemBot: Sync {
    fn id(&self) -> SystemId;

    /// Its top-level command trees (registered per server, only where the system is enabled).
    fn commands(&self) -> Vec<Command>;

    /// The prefix of its button action kinds (`sr.`), unique across systems; `None`: no buttons.
    fn button_prefix(&self) -> Option<&'static str>;

    /// Every action kind its buttons make (each starts with [`Self::button_prefix`]): the
    /// suites walk them all to check that a press that rolls is logged.
    fn button_kinds(&self) -> &'static [&'static str];

    /// Handle a press of one of its buttons. `answer` is the only way to reply, and its
    /// [`Answer::roll`] the only way to the dice: a press that rolls replies with its log rows.
    fn press<'a>(
        &'a self,
        p: &'a Press<'a>,
        answer: Answer<'a>,
    ) -> BoxFuture<'a, Result<PressReply, BotError>>;

    /// Its own fields on the `/session status` board (the rally's race board).
    fn status_board(
        &self,
        session: &Session,
        settings: &ServerSettings,
        lang: Lang,
    ) -> Vec<(String, String, bool)>;

    /// How the system counts the current round of the session's turn order, in the words its
    /// own initiative uses (Shadowrun: combat turn and initiative pass), for `/session status`.
    /// `None`: the session's own round number.
    fn round_label(&self, _session: &Session, _lang: Lang) -> Option<String> {
        None
    }

    /// The moments of one logged roll, read from its outcome JSON, in the system's own words
    /// (the recap of the evening). Default: none.
    fn moments(&self, _outcome: &serde_json::Value) -> Vec<Moment> {
        Vec::new()
    }

    /// What this system's players watch on one character (condition monitors, boxes, markers)
    /// as one short line of Discord Markdown for the `/session status` board; the whole sheet is
    /// `/char show`'s. `None`: the sheet's first fields, cut short.
    fn board_line(&self, _sheet: &serde_json::Value, _lang: Lang) -> Option<String> {
        None
    }

    /// `/char add model:` autocomplete (`(label, value)`, at most 25): the system's models,
    /// datacards or profiles matching what was typed — names `model=` takes, nothing else (empty
    /// where the system has no list). `stats:` autocompletes from the engine's sheet
    /// declaration (`autocomplete::autocomplete_stats`).
    fn sheet_choices(&self, typed: &str, lang: Lang) -> Vec<(String, String)>;
}

/// Each system's bot part. Exhaustive: a new [`SystemId`] does not compile without its entry.
pub fn bot(id: SystemId) -> &'static dyn SystemBot {
    match id {
        SystemId::BadlandsRally => &badlands_rally::BadlandsRallyBot,
        SystemId::Shadowrun4 => &shadowrun4::Shadowrun4Bot,
        SystemId::Warmachine => &warmachine::WarmachineBot,
        SystemId::Terminator => &terminator::TerminatorBot,
        SystemId::MechaD20 => &mecha_d20::MechaD20Bot,
        SystemId::Generic => &free_form::GENERIC,
    }
}

/// Every system's bot part, in the engine's order.
pub fn all() -> impl Iterator<Item = &'static dyn SystemBot> {
    SystemId::ALL.into_iter().map(bot)
}

/// Every system's commands, each guarded by [`system_enabled`].
pub fn commands() -> Vec<Command> {
    all()
        .flat_map(|s| s.commands())
        .map(|mut c| {
            c.checks.push(|ctx| Box::pin(system_enabled(ctx)));
            c
        })
        .collect()
}

/// The system a top-level command belongs to (`None`: a generic command, registered globally).
pub fn of_command(name: &str) -> Option<SystemId> {
    // Building a command tree is not free; the names never change while the process runs.
    static NAMES: OnceLock<Vec<(String, SystemId)>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            all()
                .flat_map(|s| {
                    s.commands()
                        .into_iter()
                        .map(move |c| (c.name.to_string(), s.id()))
                })
                .collect()
        })
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, id)| *id)
}

/// The system whose button kind this is.
pub fn by_button_kind(kind: &str) -> Option<&'static dyn SystemBot> {
    all().find(|s| s.button_prefix().is_some_and(|p| kind.starts_with(p)))
}

/// The precondition of every system command, declared once: the system is enabled on this
/// server (and its settings could be read). The invocation it loaded is kept for the command,
/// so the settings are read once.
async fn system_enabled(ctx: Context<'_>) -> Result<bool, BotError> {
    let top = ctx.parent_commands().first().copied().unwrap_or(ctx.command());
    let Some(system) = of_command(&top.name) else {
        return Ok(true);
    };
    let inv = Invocation::read(ctx).await;
    inv.require_system(system)?;
    ctx.set_invocation_data(inv).await;
    Ok(true)
}
