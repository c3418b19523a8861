//! The append-only record of rolls made during a session.

use serde::{Deserialize, Serialize};

use super::Session;

/// One roll made in a channel with an active session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RollLogEntry {
    pub session_id: i64,
    pub user_id: u64,
    /// The command as typed or rebuilt from its options, e.g. `/sr test pool:12 threshold:3`.
    pub command: String,
    /// The resolver's full outcome, serialized.
    pub outcome: serde_json::Value,
    /// Unix milliseconds.
    pub at_ms: i64,
    /// The roller's display name when they rolled, as Discord gave it (not escaped): what the
    /// log and exports show. `None` for rows logged before names were kept (shown as a mention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

/// Bumped when the export's shape changes incompatibly.
pub const EXPORT_FORMAT: u32 = 1;

/// A session and its whole log: what `/session export` hands out as a JSON file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionExport {
    pub format: u32,
    pub session: Session,
    pub log: Vec<RollLogEntry>,
}

/// A [`SessionExport`]'s opening: the same fields in the same order, its session borrowed (a
/// game's state may be 15 KB) and its log empty, for an export that writes its rows after it.
#[derive(Debug, Serialize)]
pub struct ExportOpening<'a> {
    format: u32,
    session: &'a Session,
    log: [(); 0],
}

impl<'a> ExportOpening<'a> {
    pub fn of(session: &'a Session) -> ExportOpening<'a> {
        ExportOpening {
            format: EXPORT_FORMAT,
            session,
            log: [],
        }
    }
}

impl SessionExport {
    pub fn new(session: Session, log: Vec<RollLogEntry>) -> SessionExport {
        SessionExport {
            format: EXPORT_FORMAT,
            session,
            log,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SystemId;

    /// The opening is an empty export as serde writes it, byte for byte.
    #[test]
    fn the_opening_is_an_empty_export() {
        let s = Session::start(1, 2, "Night Run", SystemId::Shadowrun4, 9, 0).unwrap();
        assert_eq!(
            serde_json::to_string(&ExportOpening::of(&s)).unwrap(),
            serde_json::to_string(&SessionExport::new(s.clone(), Vec::new())).unwrap()
        );
    }
}
