//! Extra fields a system adds to `/session status` (the rally's race board, …).

use engine::i18n::Lang;
use engine::session::{Session, SystemId};

/// `(name, value, inline)` fields for the session's system; empty when it adds none.
pub fn system_status(session: &Session, lang: Lang) -> Vec<(String, String, bool)> {
    match session.system {
        SystemId::BadlandsRally => {
            let race = crate::commands::rally::store::race_of(session, Default::default());
            crate::embeds::rally::board_fields(&session.turn.order, session.turn.round, &race, lang)
        }
        SystemId::Shadowrun4 | SystemId::Warmachine | SystemId::Terminator | SystemId::MechaD20 => Vec::new(),
    }
}
