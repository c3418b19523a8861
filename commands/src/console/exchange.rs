//! Everything one interaction produced, in order: the reply (and whether only its author sees
//! it), edits, follow-ups, an update of the message a button was on, autocomplete choices, and
//! the bot's posts elsewhere (a DM to the GM, the GM channel) — as the console prints them.

use serde_json::{Value, json};

use crate::fake_discord::ReplyEvent;

/// Where a message went, and who sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// The answer to the interaction.
    Reply,
    /// A later change of that answer (or of the message a button was on).
    Edit,
    /// The message a pressed button was on, replaced.
    Update,
    /// A further message after the reply.
    Followup,
    /// A direct message, to a person by name (or id when the console never met them).
    Dm { to: String },
    /// A post in another channel, by name (or id).
    Channel { name: String },
    /// The choices an autocomplete request got.
    Choices,
    /// The reply was deleted.
    Deleted,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    pub kind: Kind,
    /// Only the person who typed sees it.
    pub ephemeral: bool,
    /// As Discord received it: the response or webhook body, or the posted message.
    pub body: Value,
}

impl Shown {
    /// What a person sees: the message part of a response body.
    pub fn message(&self) -> &Value {
        match self.body.get("data") {
            Some(d) if self.body.get("type").is_some() => d,
            _ => &self.body,
        }
    }

    pub fn json(&self) -> Value {
        let mut v = json!({ "ephemeral": self.ephemeral, "body": self.body });
        match &self.kind {
            Kind::Reply => v["kind"] = json!("reply"),
            Kind::Edit => v["kind"] = json!("edit"),
            Kind::Update => v["kind"] = json!("update"),
            Kind::Followup => v["kind"] = json!("followup"),
            Kind::Choices => v["kind"] = json!("choices"),
            Kind::Deleted => v["kind"] = json!("deleted"),
            Kind::Dm { to } => {
                v["kind"] = json!("dm");
                v["to"] = json!(to);
            }
            Kind::Channel { name } => {
                v["kind"] = json!("channel");
                v["channel"] = json!(name);
            }
        }
        v
    }
}

/// One interaction's messages, and the engine outcome the command reported.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Exchange {
    pub interaction: u64,
    pub shown: Vec<Shown>,
    pub outcome: Option<Value>,
}

impl Exchange {
    /// One JSON array: each message with its kind and flags; the outcome on the reply.
    pub fn json(&self) -> Value {
        let mut items: Vec<Value> = self.shown.iter().map(Shown::json).collect();
        if let Some(o) = &self.outcome {
            match items.iter_mut().find(|i| i["kind"] == "reply") {
                Some(reply) => reply["outcome"] = o.clone(),
                None => items.push(json!({ "kind": "outcome", "outcome": o })),
            }
        }
        Value::Array(items)
    }
}

fn ephemeral(message: &Value) -> bool {
    message["flags"].as_u64().unwrap_or(0) & 64 != 0
}

/// The interaction's own messages, from the fake's record of its response events.
pub fn from_events(events: &[ReplyEvent]) -> Vec<Shown> {
    let mut out = Vec::new();
    // A deferral (5: "thinking", 6: a press acknowledged) is completed by the next edit or
    // follow-up, which is then the reply (5) or the update of the pressed message (6).
    let mut pending: Option<(u64, bool)> = None;
    let mut answered = false;
    for e in events {
        let shown = match e {
            ReplyEvent::Callback(body) => match body["type"].as_u64() {
                Some(4) => Some((Kind::Reply, ephemeral(&body["data"]))),
                Some(7) => Some((Kind::Update, false)),
                Some(8) => Some((Kind::Choices, true)),
                Some(t @ (5 | 6)) => {
                    pending = Some((t, ephemeral(&body["data"])));
                    None
                }
                _ => None,
            },
            ReplyEvent::EditOriginal(body) => match pending.take() {
                Some((5, eph)) if !answered => Some((Kind::Reply, eph)),
                Some((6, _)) if !answered => Some((Kind::Update, false)),
                _ => Some((Kind::Edit, ephemeral(body))),
            },
            ReplyEvent::Followup(body) => match pending.take() {
                Some((5, _)) if !answered => Some((Kind::Reply, ephemeral(body))),
                _ => Some((Kind::Followup, ephemeral(body))),
            },
            ReplyEvent::DeleteOriginal => Some((Kind::Deleted, false)),
        };
        if let Some((kind, eph)) = shown {
            answered = true;
            let body = match e {
                ReplyEvent::Callback(b) | ReplyEvent::EditOriginal(b) | ReplyEvent::Followup(b) => b.clone(),
                ReplyEvent::DeleteOriginal => Value::Null,
            };
            out.push(Shown {
                kind,
                ephemeral: eph,
                body,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deferred_reply_completed_by_an_edit_is_the_reply_and_later_ones_are_edits() {
        let events = vec![
            ReplyEvent::Callback(json!({ "type": 5, "data": { "flags": 64 } })),
            ReplyEvent::EditOriginal(json!({ "content": "done" })),
            ReplyEvent::EditOriginal(json!({ "content": "again" })),
            ReplyEvent::Followup(json!({ "content": "more", "flags": 64 })),
        ];
        let shown = from_events(&events);
        let kinds: Vec<&Kind> = shown.iter().map(|s| &s.kind).collect();
        assert_eq!(kinds, [&Kind::Reply, &Kind::Edit, &Kind::Followup]);
        assert!(shown[0].ephemeral, "the deferral said ephemeral");
        assert!(shown[2].ephemeral);
        assert_eq!(shown[1].message()["content"], "again");
    }

    #[test]
    fn a_press_answered_by_a_deferred_update_is_an_update() {
        let events = vec![
            ReplyEvent::Callback(json!({ "type": 6 })),
            ReplyEvent::EditOriginal(json!({ "content": "revealed" })),
        ];
        assert_eq!(from_events(&events)[0].kind, Kind::Update);
        let direct = vec![ReplyEvent::Callback(
            json!({ "type": 7, "data": { "content": "x" } }),
        )];
        let shown = from_events(&direct);
        assert_eq!(shown[0].kind, Kind::Update);
        assert_eq!(shown[0].message()["content"], "x");
    }

    #[test]
    fn json_carries_the_outcome_on_the_reply() {
        let x = Exchange {
            interaction: 1,
            shown: vec![
                Shown {
                    kind: Kind::Reply,
                    ephemeral: false,
                    body: json!({ "type": 4, "data": {} }),
                },
                Shown {
                    kind: Kind::Dm { to: "gm".into() },
                    ephemeral: false,
                    body: json!({ "content": "psst" }),
                },
            ],
            outcome: Some(json!({ "total": 7 })),
        };
        let v = x.json();
        assert_eq!(v[0]["kind"], "reply");
        assert_eq!(v[0]["outcome"]["total"], 7);
        assert_eq!(v[1]["kind"], "dm");
        assert_eq!(v[1]["to"], "gm");
    }
}
