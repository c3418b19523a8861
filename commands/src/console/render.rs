//! A reply as readable text: what a person would see in the Discord client.

use serde_json::Value;

use super::exchange::{Exchange, Kind, Shown};
use crate::fake_discord::Reply;

/// Every message of an exchange in order, each after a label saying where it went when that
/// is not simply the channel (`(only you can see this)`, `(DM to gm)`, `(#gm-room)`, …).
pub fn exchange_text(x: &Exchange) -> String {
    x.shown.iter().map(shown_text).collect::<Vec<_>>().join("\n")
}

fn shown_text(s: &Shown) -> String {
    let label = match &s.kind {
        Kind::Reply | Kind::Followup => None,
        Kind::Edit => Some("(edited)".to_string()),
        Kind::Update => Some("(the message with the button now reads)".to_string()),
        Kind::Dm { to } => Some(format!("(DM to {to})")),
        Kind::Channel { name } => Some(format!("(#{name})")),
        Kind::Deleted => return "(the reply was deleted)".to_string(),
        Kind::Choices => return choices_text(s.message()),
    };
    let text = message_text(s.message(), s.ephemeral);
    match label {
        Some(l) => format!("{l}\n{text}"),
        None => text,
    }
}

fn choices_text(data: &Value) -> String {
    let choices: Vec<String> = data["choices"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let name = c["name"].as_str().unwrap_or_default();
            match &c["value"] {
                Value::String(v) if v == name => format!("- {name}"),
                Value::String(v) => format!("- {name} ({v})"),
                other => format!("- {name} ({other})"),
            }
        })
        .collect();
    if choices.is_empty() {
        "(no suggestions)".to_string()
    } else {
        choices.join("\n")
    }
}

pub fn reply_text(reply: &Reply) -> String {
    let mut out = vec![message_text(&reply.message, reply.ephemeral)];
    for f in &reply.followups {
        let ephemeral = f["flags"].as_u64().is_some_and(|fl| fl & 64 != 0);
        out.push(message_text(f, ephemeral));
    }
    out.join("\n")
}

pub(super) fn message_text(message: &Value, ephemeral: bool) -> String {
    let mut out = Vec::new();
    if ephemeral {
        out.push("(only you can see this)".to_string());
    }
    let content = message["content"].as_str().unwrap_or("");
    if !content.is_empty() {
        out.push(content.to_string());
    }
    for embed in message["embeds"].as_array().into_iter().flatten() {
        out.push(embed_text(embed));
    }
    for file in message["attachments"].as_array().into_iter().flatten() {
        out.push(format!(
            "[attachment: {}]",
            file["filename"].as_str().unwrap_or("file")
        ));
    }
    for row in message["components"].as_array().into_iter().flatten() {
        let buttons: Vec<String> = row["components"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| match c["type"].as_u64() {
                Some(3) => {
                    let options: Vec<&str> = c["options"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|o| o["label"].as_str())
                        .collect();
                    format!("[choose: {}]", options.join(" | "))
                }
                _ if c["disabled"].as_bool() == Some(true) => {
                    format!("[{} (disabled)]", c["label"].as_str().unwrap_or("button"))
                }
                _ => format!("[{}]", c["label"].as_str().unwrap_or("button")),
            })
            .collect();
        if !buttons.is_empty() {
            out.push(buttons.join(" "));
        }
    }
    out.join("\n")
}

fn embed_text(e: &Value) -> String {
    let mut lines = Vec::new();
    if let Some(t) = e["title"].as_str() {
        lines.push(format!("== {t} =="));
    }
    if let Some(d) = e["description"].as_str() {
        lines.push(d.to_string());
    }
    for f in e["fields"].as_array().into_iter().flatten() {
        lines.push(format!(
            "{}: {}",
            f["name"].as_str().unwrap_or(""),
            f["value"].as_str().unwrap_or("")
        ));
    }
    if let Some(f) = e["footer"]["text"].as_str() {
        lines.push(format!("-- {f}"));
    }
    lines.join("\n")
}
