//! A log row as a page read hands it over ([`super::PageItem::Row`]): its outcome still the
//! JSON text the database sent, parsed only as far as its reader needs. Parsing every row's
//! outcome into a `serde_json::Value` was 43–48 % of the bot's CPU in `/session export` and
//! `/session luck` (issue 32); a luck table needs one field of it.

use engine::odds::LuckInput;
use engine::session::RollLogEntry;
use serde::Deserialize;
use serde_json::value::RawValue;

/// One roll of a log, its outcome unparsed.
#[derive(Debug, Clone)]
pub struct LogRow {
    pub session_id: i64,
    pub user_id: u64,
    pub command: String,
    pub outcome: Box<RawValue>,
    pub at_ms: i64,
    pub user_name: Option<String>,
}

impl LogRow {
    /// The row with its whole outcome parsed (a transcript, a recap); `None` when the text is
    /// not JSON (the store never writes such a row).
    pub fn entry(self) -> Option<RollLogEntry> {
        let outcome = serde_json::from_str(self.outcome.get()).ok()?;
        Some(RollLogEntry {
            session_id: self.session_id,
            user_id: self.user_id,
            command: self.command,
            outcome,
            at_ms: self.at_ms,
            user_name: self.user_name,
        })
    }

    /// The luck input stored with the outcome, reading that field alone (the rest is skipped,
    /// not built): as [`crate::log_line::stored_luck`] of the parsed outcome.
    pub fn luck(&self) -> Option<LuckInput> {
        /// The outcome's luck field; any other is skipped. A field that is not a luck input
        /// reads as none, as `stored_luck` has it.
        #[derive(Deserialize)]
        struct LuckField {
            #[serde(default, deserialize_with = "lenient")]
            luck: Option<LuckInput>,
        }
        fn lenient<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<LuckInput>, D::Error> {
            let raw = <&RawValue>::deserialize(d)?;
            Ok(serde_json::from_str(raw.get()).ok())
        }
        serde_json::from_str::<LuckField>(self.outcome.get()).ok()?.luck
    }

    /// The row of an entry (a test's, or one built in memory).
    pub fn of(entry: &RollLogEntry) -> LogRow {
        LogRow {
            session_id: entry.session_id,
            user_id: entry.user_id,
            command: entry.command.clone(),
            outcome: serde_json::value::to_raw_value(&entry.outcome)
                .unwrap_or_else(|_| RawValue::from_string("null".into()).expect("null is JSON")),
            at_ms: entry.at_ms,
            user_name: entry.user_name.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log_line::stored_luck;
    use serde_json::json;

    fn row(outcome: serde_json::Value) -> LogRow {
        LogRow::of(&RollLogEntry {
            session_id: 1,
            user_id: 2,
            command: "/roll dice:2d6".into(),
            outcome,
            at_ms: 3,
            user_name: Some("Ana".into()),
        })
    }

    #[test]
    fn the_luck_field_alone_reads_as_the_parsed_outcome_does() {
        let luck = json!({"roll": {"kind": "notation", "expression": "2d6"}, "observed": 9});
        assert!(stored_luck(&json!({ "luck": luck })).is_some(), "a real input");
        for outcome in [
            json!({"total": 9, "luck": luck, "summary": {"en": "9", "ja": "9"}}),
            json!({"total": 9, "summary": {"en": "9", "ja": "9"}}),
            json!({"total": 9, "luck": {"not": "an input"}}),
            json!({"total": 9, "luck": null}),
            json!([1, 2]),
            json!(7),
        ] {
            assert_eq!(row(outcome.clone()).luck(), stored_luck(&outcome), "{outcome}");
        }
    }

    #[test]
    fn the_whole_entry_reads_back() {
        let outcome = json!({"total": 9, "nested": {"a": [1, {"b": null}]}});
        let e = row(outcome.clone()).entry().expect("JSON");
        assert_eq!(
            (
                e.session_id,
                e.user_id,
                e.command.as_str(),
                e.outcome,
                e.at_ms,
                e.user_name.as_deref()
            ),
            (1, 2, "/roll dice:2d6", outcome, 3, Some("Ana"))
        );
    }
}
