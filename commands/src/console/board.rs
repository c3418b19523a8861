//! The messages a console user could click on: every message the bot showed, newest last, with
//! who can see it. `press LABEL` looks here for a button (or a select menu's option) by label
//! or custom id, on the newest message the person typing can see.

use serde_json::Value;

/// How many messages are kept to press on (older ones scroll away, as in a client).
const KEEP: usize = 200;

/// One clickable thing on a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    pub label: String,
    pub custom_id: String,
    /// `Some(value)` for an option of a select menu (picking it sends that value).
    pub option: Option<String>,
    pub disabled: bool,
}

/// What to press: the message it is on, its custom id and, for a select menu, the values.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub message: Value,
    pub custom_id: String,
    pub values: Option<Vec<String>>,
    /// The component is no longer on the message (used or replaced): pressed as a client
    /// that has not refreshed would, so the bot's own refusal shows.
    pub stale: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PressError {
    #[error("nothing to press: no message you can see has buttons")]
    NothingToPress,
    #[error("no button or option `{0}` on the messages you can see; there: {1}")]
    NotThere(String, String),
    #[error("`{0}` is disabled")]
    Disabled(String),
}

/// Every component of a message, row by row (link buttons have no custom id: skipped).
pub fn components(message: &Value) -> Vec<Component> {
    let mut out = Vec::new();
    let rows = message["components"].as_array().into_iter().flatten();
    for c in rows.flat_map(|r| r["components"].as_array().cloned().unwrap_or_default()) {
        let custom_id = c["custom_id"].as_str().unwrap_or_default().to_string();
        if custom_id.is_empty() {
            continue;
        }
        let disabled = c["disabled"].as_bool().unwrap_or(false);
        match c["type"].as_u64() {
            Some(3) => {
                for o in c["options"].as_array().into_iter().flatten() {
                    out.push(Component {
                        label: o["label"].as_str().unwrap_or_default().to_string(),
                        custom_id: custom_id.clone(),
                        option: Some(o["value"].as_str().unwrap_or_default().to_string()),
                        disabled,
                    });
                }
            }
            _ => out.push(Component {
                label: c["label"].as_str().unwrap_or_default().to_string(),
                custom_id,
                option: None,
                disabled,
            }),
        }
    }
    out
}

struct Seen {
    message: Value,
    /// `Some(user)`: an ephemeral reply or a DM only that person sees.
    only_for: Option<u64>,
    /// Components earlier versions of the message had.
    retired: Vec<Component>,
}

#[derive(Default)]
pub struct Board {
    seen: Vec<Seen>,
}

fn id_of(message: &Value) -> Option<&str> {
    message["id"].as_str()
}

impl Board {
    /// The bot showed `message` (new, or a new version of one already here).
    pub fn show(&mut self, message: Value, only_for: Option<u64>) {
        let Some(id) = id_of(&message).map(str::to_string) else {
            return;
        };
        if let Some(at) = self
            .seen
            .iter()
            .position(|s| id_of(&s.message) == Some(id.as_str()))
        {
            let old = self.seen.remove(at);
            let now = components(&message);
            let mut retired = old.retired;
            retired.extend(components(&old.message).into_iter().filter(|c| !now.contains(c)));
            self.seen.push(Seen {
                message,
                only_for: old.only_for,
                retired,
            });
        } else {
            self.seen.push(Seen {
                message,
                only_for,
                retired: Vec::new(),
            });
        }
        if self.seen.len() > KEEP {
            self.seen.remove(0);
        }
    }

    fn visible(&self, user: u64) -> impl Iterator<Item = &Seen> {
        self.seen
            .iter()
            .rev()
            .filter(move |s| s.only_for.is_none_or(|u| u == user))
    }

    /// The component `wanted` names (label or custom id, then label prefix, then a label that
    /// contains it: `press same battle` for `Evening 2: same battle`; case does not matter), on
    /// the newest message `user` sees that has it.
    pub fn find(&self, user: u64, wanted: &str) -> Result<Target, PressError> {
        let w = wanted.trim().to_lowercase();
        let exact = |c: &Component| {
            c.label.to_lowercase() == w
                || c.custom_id.to_lowercase() == w
                || c.option.as_ref().is_some_and(|o| o.to_lowercase() == w)
        };
        let prefix = |c: &Component| !w.is_empty() && c.label.to_lowercase().starts_with(&w);
        let within = |c: &Component| !w.is_empty() && c.label.to_lowercase().contains(&w);
        let pick = |seen: &Seen, c: &Component, stale: bool| -> Result<Target, PressError> {
            if c.disabled && !stale {
                return Err(PressError::Disabled(c.label.clone()));
            }
            Ok(Target {
                message: seen.message.clone(),
                custom_id: c.custom_id.clone(),
                values: c.option.clone().map(|v| vec![v]),
                stale,
            })
        };
        for test in [&exact as &dyn Fn(&Component) -> bool, &prefix, &within] {
            for seen in self.visible(user) {
                if let Some(c) = components(&seen.message).iter().find(|c| test(c)) {
                    return pick(seen, c, false);
                }
            }
        }
        for seen in self.visible(user) {
            if let Some(c) = seen.retired.iter().find(|c| exact(c)) {
                return pick(seen, c, true);
            }
        }
        let newest = self.visible(user).next().ok_or(PressError::NothingToPress)?;
        // A custom id typed by hand goes to the bot as it is: its answer is the bot's own.
        if wanted.contains(':') {
            return Ok(Target {
                message: newest.message.clone(),
                custom_id: wanted.trim().to_string(),
                values: None,
                stale: true,
            });
        }
        let there: Vec<String> = self
            .visible(user)
            .flat_map(|s| components(&s.message))
            .map(|c| format!("[{}]", c.label))
            .take(10)
            .collect();
        if there.is_empty() {
            return Err(PressError::NothingToPress);
        }
        Err(PressError::NotThere(wanted.trim().to_string(), there.join(" ")))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn msg(id: &str, buttons: &[(&str, &str)]) -> Value {
        let comps: Vec<Value> = buttons
            .iter()
            .map(|(l, c)| json!({ "type": 2, "style": 1, "label": l, "custom_id": c }))
            .collect();
        json!({ "id": id, "components": [{ "type": 1, "components": comps }] })
    }

    #[test]
    fn the_newest_visible_message_wins_and_labels_match_loosely() {
        let mut b = Board::default();
        b.show(msg("1", &[("Reveal", "act:1")]), None);
        b.show(msg("2", &[("Reveal", "act:2"), ("Apply damage", "act:3")]), None);
        b.show(msg("3", &[("Reveal", "act:4")]), Some(7));
        assert_eq!(b.find(7, "reveal").unwrap().custom_id, "act:4");
        assert_eq!(b.find(8, "Reveal").unwrap().custom_id, "act:2", "3 is only for 7");
        assert_eq!(b.find(8, "apply").unwrap().custom_id, "act:3");
        assert_eq!(b.find(8, "act:1").unwrap().custom_id, "act:1");
        assert!(matches!(b.find(8, "Fly"), Err(PressError::NotThere(..))));
        // Words inside a label, after exact and prefix matches.
        b.show(
            msg(
                "4",
                &[
                    ("Evening 2: same battle", "act:5"),
                    ("Evening 2: new battle", "act:6"),
                ],
            ),
            None,
        );
        assert_eq!(b.find(8, "new battle").unwrap().custom_id, "act:6");
        assert_eq!(b.find(8, "damage").unwrap().custom_id, "act:3");
        assert_eq!(Board::default().find(8, "x"), Err(PressError::NothingToPress));
    }

    #[test]
    fn a_button_gone_from_its_message_is_pressed_stale_so_the_bot_answers() {
        let mut b = Board::default();
        b.show(msg("1", &[("Reveal", "act:1")]), None);
        b.show(json!({ "id": "1", "components": [] }), None);
        let t = b.find(8, "Reveal").unwrap();
        assert!(t.stale);
        assert_eq!(t.custom_id, "act:1");
        let typed = b.find(8, "act:999").unwrap();
        assert_eq!((typed.custom_id.as_str(), typed.stale), ("act:999", true));
    }

    #[test]
    fn select_options_and_disabled_buttons() {
        let mut b = Board::default();
        b.show(
            json!({ "id": "5", "components": [{ "type": 1, "components": [
                { "type": 3, "custom_id": "pick", "options": [
                    { "label": "Hull", "value": "hull" }, { "label": "Structure", "value": "structure" }] },
            ]}, { "type": 1, "components": [
                { "type": 2, "label": "Done", "custom_id": "done", "disabled": true },
                { "type": 2, "style": 5, "label": "Rules", "url": "https://example.org" },
            ]}] }),
            None,
        );
        let t = b.find(1, "Structure").unwrap();
        assert_eq!(t.custom_id, "pick");
        assert_eq!(t.values, Some(vec!["structure".to_string()]));
        assert_eq!(b.find(1, "Done"), Err(PressError::Disabled("Done".into())));
        assert!(
            b.find(1, "Rules").is_err(),
            "a link button is not the bot's to answer"
        );
    }
}
