//! Discord's limits from the outside: the longest value Discord lets a user type into every text
//! option of every command gets an answer (never "the application did not respond"), and the
//! answer fits Discord's limits — content ≤ 2,000 characters, embeds within theirs.

use saikoro_bot::console::{Console, ConsoleOptions};
use saikoro_bot::fake_discord::{DEFAULT_CHANNEL, payloads};
use serde_json::{Value, json};

use crate::support::e2e::WAIT;

/// A value for a required option other than the one under test.
fn filler(o: &Value, who: &Value) -> Value {
    if let Some(first) = o["choices"].as_array().and_then(|c| c.first()) {
        return first["value"].clone();
    }
    match o["type"].as_u64() {
        Some(3) => json!("1"),
        Some(4) => json!(o["min_value"].as_i64().unwrap_or(0).max(1)),
        Some(5) => json!(false),
        Some(6) => who["id"].clone(),
        Some(7) => json!(DEFAULT_CHANNEL.to_string()),
        Some(8) => json!("200000000000000001"),
        Some(10) => json!(1.0),
        _ => Value::Null,
    }
}

/// The subcommand names and kinds that lead to a leaf.
type Path = Vec<(String, u64)>;

/// Every leaf (a command or subcommand with its options) as `(path, options)`.
fn leaves(node: &Value, path: Path, out: &mut Vec<(Path, Vec<Value>)>) {
    let options = node["options"].as_array().cloned().unwrap_or_default();
    let subs: Vec<&Value> = options
        .iter()
        .filter(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
        .collect();
    if subs.is_empty() {
        out.push((path, options));
        return;
    }
    for s in subs {
        let mut p = path.clone();
        p.push((
            s["name"].as_str().unwrap_or_default().to_string(),
            s["type"].as_u64().unwrap_or(1),
        ));
        leaves(s, p, out);
    }
}

fn chars(v: &Value) -> usize {
    v.as_str().map_or(0, |s| s.chars().count())
}

/// Discord refuses a message over these; the fake does not, so we check what we sent.
fn within_limits(message: &Value) -> Result<(), String> {
    if chars(&message["content"]) > 2000 {
        return Err(format!("content of {} characters", chars(&message["content"])));
    }
    for e in message["embeds"].as_array().into_iter().flatten() {
        let fields = e["fields"].as_array().cloned().unwrap_or_default();
        let total = chars(&e["title"])
            + chars(&e["description"])
            + chars(&e["footer"]["text"])
            + fields
                .iter()
                .map(|f| chars(&f["name"]) + chars(&f["value"]))
                .sum::<usize>();
        if chars(&e["title"]) > 256 || chars(&e["description"]) > 4096 || fields.len() > 25 || total > 6000 {
            return Err(format!("an embed over its limits ({total} characters)"));
        }
        if fields
            .iter()
            .any(|f| chars(&f["name"]) > 256 || chars(&f["value"]) > 1024)
        {
            return Err("a field over its limits".into());
        }
    }
    Ok(())
}

#[tokio::test]
async fn the_longest_text_in_every_option_of_every_command_gets_an_answer_within_limits() {
    let mut c = Console::start(ConsoleOptions {
        seed: Some(11),
        user: "gm".into(),
        admin: true,
        ..Default::default()
    })
    .await
    .expect("bot starts");
    let gm = c.invoker();
    let user = payloads::user(&gm.user);
    // A session, so session commands get past "no session" to the value itself.
    c.send("/session start name:Limits system:generic").await.unwrap();
    c.send("/char add name:Ana stats:hp=3").await.unwrap();
    let commands = c.fake.visible_commands(gm.guild_id);
    let mut failures = Vec::new();
    let mut tried = 0;
    for command in &commands {
        let mut found = Vec::new();
        leaves(command, Vec::new(), &mut found);
        for (path, options) in found {
            for (i, target) in options.iter().enumerate().filter(|(_, o)| o["type"] == 3) {
                let max = target["max_length"].as_u64().unwrap_or(6000) as usize;
                let mut leaf: Vec<Value> = Vec::new();
                for (j, o) in options.iter().enumerate() {
                    let value = if i == j {
                        json!("x".repeat(max))
                    } else if o["required"] == true {
                        filler(o, &user)
                    } else {
                        continue;
                    };
                    leaf.push(json!({ "name": o["name"], "type": o["type"], "value": value }));
                }
                let mut tree = Value::Array(leaf);
                for (name, kind) in path.iter().rev() {
                    tree = json!([{ "name": name, "type": kind, "options": tree }]);
                }
                let resolved = json!({ "users": { gm.user.id.to_string(): user.clone() } });
                let label = format!(
                    "/{} {} {}:<{max} characters>",
                    command["name"].as_str().unwrap_or_default(),
                    path.iter().map(|p| p.0.as_str()).collect::<Vec<_>>().join(" "),
                    target["name"].as_str().unwrap_or_default()
                );
                let interaction = c.fake.command_interaction(&gm, 2, command, tree, resolved);
                tried += 1;
                let id = match c.fake.deliver(interaction) {
                    Ok(id) => id,
                    Err(e) => {
                        failures.push(format!("{label}: not delivered: {e}"));
                        continue;
                    }
                };
                match c.fake.wait_reply(id, WAIT).await {
                    Ok(r) => {
                        if let Err(e) = within_limits(&r.message) {
                            failures.push(format!("{label}: {e}"));
                        }
                        for f in &r.followups {
                            if let Err(e) = within_limits(f) {
                                failures.push(format!("{label} (follow-up): {e}"));
                            }
                        }
                    }
                    Err(e) => failures.push(format!("{label}: no answer: {e}")),
                }
            }
        }
    }
    assert!(tried > 50, "only {tried} text options found");
    assert!(
        failures.is_empty(),
        "{} of {tried}:\n{}",
        failures.len(),
        failures.join("\n")
    );
    c.shutdown().await;
}
