//! A reply as readable text: what a person would see in the Discord client.

use serde_json::Value;

use crate::fake_discord::Reply;

pub fn reply_text(reply: &Reply) -> String {
    let mut out = vec![message_text(&reply.message, reply.ephemeral)];
    for f in &reply.followups {
        let ephemeral = f["flags"].as_u64().is_some_and(|fl| fl & 64 != 0);
        out.push(message_text(f, ephemeral));
    }
    out.join("\n")
}

fn message_text(message: &Value, ephemeral: bool) -> String {
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
            .map(|c| format!("[{}]", c["label"].as_str().unwrap_or("button")))
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
