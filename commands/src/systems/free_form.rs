//! Systems with no bot part of their own: the free-form `Generic` system, and the systems whose
//! rules are not built yet. No commands, buttons, board or sheet presets; `/roll`, `/session`
//! and `/char` serve them.

use engine::i18n::Lang;
use engine::session::{ServerSettings, Session, SystemId};
use futures::future::BoxFuture;

use super::{Command, SystemBot};
use crate::BotError;
use crate::press::{Answer, Press, PressReply};

pub struct FreeFormBot(SystemId);

pub const GENERIC: FreeFormBot = FreeFormBot(SystemId::Generic);

impl SystemBot for FreeFormBot {
    fn id(&self) -> SystemId {
        self.0
    }

    fn commands(&self) -> Vec<Command> {
        Vec::new()
    }

    /// Free-form rolls are `/roll`'s: their odds are `/odds roll`.
    fn odds(&self) -> Option<Command> {
        None
    }

    /// The commands page says how free-form sessions play.
    fn help_topic(&self) -> Option<&'static str> {
        None
    }

    fn button_prefix(&self) -> Option<&'static str> {
        None
    }

    fn button_kinds(&self) -> &'static [&'static str] {
        &[]
    }

    fn press<'a>(
        &'a self,
        p: &'a Press<'a>,
        _answer: Answer<'a>,
    ) -> BoxFuture<'a, Result<PressReply, BotError>> {
        let kind = p.action.kind.clone();
        Box::pin(async move {
            Err(BotError::internal(format!(
                "no buttons in free-form systems: {kind}"
            )))
        })
    }

    fn status_board(&self, _: &Session, _: &ServerSettings, _: Lang) -> Vec<(String, String, bool)> {
        Vec::new()
    }

    fn sheet_choices(&self, _typed: &str, _lang: Lang) -> Vec<(String, String)> {
        Vec::new()
    }
}
