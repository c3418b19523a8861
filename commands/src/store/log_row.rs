//! A log row as a page read hands it over ([`super::PageItem::Row`]): its outcome still the
//! JSON text the database sent, parsed only as far as its reader needs (and not checked first:
//! the database keeps it as JSON, PostgreSQL as `jsonb`, SQLite as the text the store wrote). Parsing every row's
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
    /// The outcome's JSON text.
    pub outcome: String,
    pub at_ms: i64,
    pub user_name: Option<String>,
}

impl LogRow {
    /// The row with its whole outcome parsed (a transcript, a recap); `None` when the text is
    /// not JSON (the store never writes such a row).
    pub fn entry(self) -> Option<RollLogEntry> {
        let outcome = self.outcome_value()?;
        Some(RollLogEntry {
            session_id: self.session_id,
            user_id: self.user_id,
            command: self.command,
            outcome,
            at_ms: self.at_ms,
            user_name: self.user_name,
        })
    }

    /// The luck input stored with the outcome, reading up to that field and no further: as
    /// [`crate::log_line::stored_luck`] of the parsed outcome. The field is among an outcome's
    /// first (the store writes it first; PostgreSQL's `jsonb` puts short keys first), so the
    /// dice and summaries after it are not even scanned.
    pub fn luck(&self) -> Option<LuckInput> {
        let mut found = None;
        let mut de = serde_json::Deserializer::from_str(&self.outcome);
        // Stopping inside the object makes serde_json report the unread rest as an error, which
        // is ignored: the field was read (or found missing) by then.
        let _ = serde::Deserializer::deserialize_map(&mut de, UntilLuck(&mut found));
        found
    }

    /// Whether the outcome's text names any of `keys` as `"key"` (a key or a string): where
    /// none is named, no object of the outcome has one of them.
    pub fn names_any(&self, keys: &[&str]) -> bool {
        let text = self.outcome.as_str();
        keys.iter().any(|k| {
            text.match_indices(k)
                .any(|(i, _)| text[..i].ends_with('"') && text[i + k.len()..].starts_with('"'))
        })
    }

    /// The row as a transcript, a recap's count and a luck table read it: an outcome with its
    /// stored summaries, hidden mark and luck input only (the rest is skipped, not built).
    /// The whole outcome where those do not suffice: a row logged before summaries were stored
    /// (its transcript line is made from the outcome), or one that is no JSON object.
    pub fn light_entry(&self) -> Option<RollLogEntry> {
        use serde_json::Value;
        /// The fields a transcript reads of an outcome that has its summaries.
        #[derive(Deserialize)]
        struct Light {
            #[serde(default)]
            summary: Option<Value>,
            #[serde(default)]
            hidden: Option<Value>,
            #[serde(default)]
            luck: Option<Value>,
        }
        let summarized = |l: &Light| {
            let said = |lang: &str| {
                l.summary
                    .as_ref()
                    .and_then(|s| s.get(lang))
                    .and_then(Value::as_str)
                    .is_some_and(|t| !t.is_empty())
            };
            said("en") && said("ja")
        };
        let outcome = match serde_json::from_str::<Light>(&self.outcome) {
            Ok(l) if summarized(&l) => {
                let mut m = serde_json::Map::new();
                for (key, v) in [
                    (crate::log_line::SUMMARY, l.summary),
                    ("hidden", l.hidden),
                    (crate::log_line::LUCK, l.luck),
                ] {
                    if let Some(v) = v {
                        m.insert(key.to_string(), v);
                    }
                }
                Value::Object(m)
            }
            _ => self.outcome_value()?,
        };
        Some(RollLogEntry {
            session_id: self.session_id,
            user_id: self.user_id,
            command: self.command.clone(),
            outcome,
            at_ms: self.at_ms,
            user_name: self.user_name.clone(),
        })
    }

    /// The whole outcome, parsed (for its moments).
    pub fn outcome_value(&self) -> Option<serde_json::Value> {
        serde_json::from_str(&self.outcome).ok()
    }

    /// Writes the row as JSON, as a [`RollLogEntry`] serializes (its fields in that order, a
    /// missing name left out), the outcome copied from its text without its whitespace.
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"session_id\":");
        serde_json::to_writer(&mut *out, &self.session_id)?;
        out.extend_from_slice(b",\"user_id\":");
        serde_json::to_writer(&mut *out, &self.user_id)?;
        out.extend_from_slice(b",\"command\":");
        serde_json::to_writer(&mut *out, &self.command)?;
        out.extend_from_slice(b",\"outcome\":");
        compact_into(&self.outcome, out);
        out.extend_from_slice(b",\"at_ms\":");
        serde_json::to_writer(&mut *out, &self.at_ms)?;
        if let Some(name) = &self.user_name {
            out.extend_from_slice(b",\"user_name\":");
            serde_json::to_writer(&mut *out, name)?;
        }
        out.push(b'}');
        Ok(())
    }

    /// The row of an entry (a test's, or one built in memory).
    pub fn of(entry: &RollLogEntry) -> LogRow {
        LogRow {
            session_id: entry.session_id,
            user_id: entry.user_id,
            command: entry.command.clone(),
            outcome: entry.outcome.to_string(),
            at_ms: entry.at_ms,
            user_name: entry.user_name.clone(),
        }
    }
}

/// Reads a top-level object's keys until `luck`, its value into the slot (a value that is no
/// luck input reads as none, as `stored_luck` has it); other values are skipped, not built.
struct UntilLuck<'a>(&'a mut Option<LuckInput>);

impl<'de> serde::de::Visitor<'de> for UntilLuck<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a logged outcome")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(is_luck) = map.next_key_seed(KeyIs(crate::log_line::LUCK))? {
            if is_luck {
                let raw: &RawValue = map.next_value()?;
                *self.0 = serde_json::from_str(raw.get()).ok();
                return Ok(());
            }
            map.next_value::<serde::de::IgnoredAny>()?;
        }
        Ok(())
    }
}

/// Whether a key is this one, without keeping it (escaped or not).
struct KeyIs(&'static str);

impl<'de> serde::de::DeserializeSeed<'de> for KeyIs {
    type Value = bool;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KeyIs {
    type Value = bool;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<bool, E> {
        Ok(key == self.0)
    }
}

/// Valid JSON `text` without the whitespace between its tokens (PostgreSQL's `jsonb` text has a
/// space after every colon and comma): inside strings every byte is kept, escapes included.
/// A byte at a time: copying runs between strings found with `memchr` took as many
/// instructions (callgrind, an export of a `/roll` log: the strings are short).
fn compact_into(text: &str, out: &mut Vec<u8>) {
    out.reserve(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for &b in text.as_bytes() {
        if in_string {
            out.push(b);
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
        } else if !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
            in_string = b == b'"';
            out.push(b);
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
            json!({"a \"quoted\" key": 1, "luck": luck, "lines": [{"luck": 3}]}),
            json!({"lines": [{"luck": luck}], "total": 9}),
            json!({"luck": luck, "zz": {"luck": null}}),
            json!([1, 2]),
            json!(7),
        ] {
            assert_eq!(row(outcome.clone()).luck(), stored_luck(&outcome), "{outcome}");
        }
    }

    #[test]
    fn a_row_is_written_as_its_entry_serializes() {
        let outcome = json!({"b": "a \\\"quoted\\\" ,: word", "a": [1, {"c": null}], "t": "\t \n"});
        for name in [Some("Ana \"A\""), None] {
            let entry = RollLogEntry {
                session_id: 4,
                user_id: u64::MAX,
                command: "/roll dice:2d6 # \"x\"".into(),
                outcome: outcome.clone(),
                at_ms: -5,
                user_name: name.map(str::to_string),
            };
            // As PostgreSQL's jsonb hands it back: spaces after colons and commas.
            let spaced = serde_json::to_string_pretty(&entry.outcome).unwrap();
            let mut row = LogRow::of(&entry);
            row.outcome = spaced;
            let mut out = Vec::new();
            row.write_json(&mut out).unwrap();
            let written: serde_json::Value = serde_json::from_slice(&out).unwrap();
            assert_eq!(written, serde_json::to_value(&entry).unwrap());
            // Field order as the entry's, the outcome without whitespace outside its strings.
            let text = String::from_utf8(out).unwrap();
            let plain = serde_json::to_string(&entry).unwrap();
            assert_eq!(text.len(), plain.len(), "{text}");
            assert!(text.starts_with("{\"session_id\":4,\"user_id\":18446744073709551615,\"command\":"));
        }
    }

    #[test]
    fn whitespace_goes_between_tokens_and_stays_in_strings() {
        let mut out = Vec::new();
        compact_into(
            "{\"a b\": [1, 2,\n\t3], \"c\\\" d\": \" x\\\\\", \"e\": {}}",
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"a b\":[1,2,3],\"c\\\" d\":\" x\\\\\",\"e\":{}}"
        );
    }

    #[test]
    fn moment_keys_are_found_as_keys_or_strings_only() {
        let r = row(json!({"ones": 1, "glitch": "critical", "attones": 2}));
        assert!(r.names_any(&["ones"]));
        assert!(r.names_any(&["nope", "critical"]));
        assert!(!r.names_any(&["one", "glitc", "tones"]));
        assert!(!row(json!({"bones": 1})).names_any(&["ones"]));
    }

    #[test]
    fn a_light_entry_keeps_what_transcripts_read_and_falls_back_without_summaries() {
        let summarized = json!({"total": 9, "lines": [{"total": 9}], "summary": {"en": "9", "ja": "9"},
            "luck": {"roll": {"kind": "notation", "expression": "2d6"}, "observed": 9}, "hidden": "secret"});
        let light = row(summarized.clone()).light_entry().unwrap();
        assert_eq!(
            light.outcome,
            json!({"summary": {"en": "9", "ja": "9"}, "hidden": "secret",
                "luck": {"roll": {"kind": "notation", "expression": "2d6"}, "observed": 9}})
        );
        for lang in [engine::i18n::Lang::En, engine::i18n::Lang::Ja] {
            assert_eq!(
                crate::log_line::stored_summary(&light.outcome, lang),
                crate::log_line::stored_summary(&summarized, lang)
            );
        }
        assert_eq!(stored_luck(&light.outcome), stored_luck(&summarized));
        // Before summaries (or with an empty one), and outcomes that are no object: whole.
        for whole in [
            json!({"total": 9, "lines": [{"total": 9}]}),
            json!({"total": 9, "summary": {"en": "", "ja": "9"}}),
            json!([1, 2]),
        ] {
            assert_eq!(row(whole.clone()).light_entry().unwrap().outcome, whole);
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
