//! Discord's limits from the outside: the longest value Discord lets a user type into every text
//! option of every command gets an answer (never "the application did not respond"), and the
//! answer fits Discord's limits — content ≤ 2,000 characters, embeds within theirs: the fake
//! refuses any body over them (Discord's published schema, and the embeds' 6,000-character
//! total), which fails the wait for the reply.

use saikoro_bot::console::{Console, ConsoleOptions};
use saikoro_bot::fake_discord::{DEFAULT_CHANNEL, FAKE_TOKEN, FakeDiscord, FakeError, payloads};
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
                if let Err(e) = c.fake.wait_reply(id, WAIT).await {
                    failures.push(format!("{label}: no answer: {e}"));
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

/// A body Discord's schema refuses is refused by the fake, with why, and fails every later wait
/// at once instead of looking like a reply that never came.
#[tokio::test]
async fn the_fake_refuses_a_body_that_breaks_discords_schema() {
    let fake = FakeDiscord::start().await.unwrap();
    let http = serenity::http::HttpBuilder::new(FAKE_TOKEN)
        .proxy(fake.url())
        .ratelimiter_disabled(true)
        .build();
    let id = serenity::all::InteractionId::new(42);
    let ok = json!({ "type": 4, "data": { "content": "x".repeat(2000) } });
    http.create_interaction_response(id, "itoken-42", &ok, vec![])
        .await
        .expect("2,000 characters is within the limit");
    assert!(fake.refused_requests().is_empty());
    let over = json!({ "type": 4, "data": { "content": "x".repeat(2001) } });
    let err = http
        .create_interaction_response(id, "itoken-42", &over, vec![])
        .await
        .expect_err("refused");
    assert!(err.to_string().contains("Invalid Form Body"), "{err}");
    let refused = fake.refused_requests();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].contains("/data/content"), "{refused:?}");
    let waited = fake.wait_reply(42, WAIT).await.expect_err("the wait fails");
    assert!(matches!(waited, FakeError::Refused(_)), "{waited}");
}

/// The fake takes what Discord takes: a 5,001-roll `/session export` (past the framework's
/// 2 MB, inside the 10 MiB the bot is told) arrives whole; files past the limit the bot is told
/// are refused as Discord refuses them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_five_thousand_and_one_roll_export_fits_discords_limits_in_the_console() {
    use crate::support::e2e::{as_, console, text};
    let mut c = console().await;
    let gm = c.invoker();
    as_(&mut c, &gm, "/session start name:Long system:generic").await;
    let session = c.store().active_session(DEFAULT_CHANNEL).await.unwrap().unwrap();
    let store = c.store();
    let long = "x".repeat(400);
    let writes = (0..5_001).map(|i| {
        let store = store.clone();
        let roll = saikoro_bot::store::NewRoll {
            session_id: session.id,
            user_id: gm.user.id,
            command: format!("/roll dice:1d6 label:{long}{i}"),
            outcome: saikoro_bot::store::JsonText::from(&json!({"total": i % 6 + 1})),
            at_ms: 1_700_000_000_000 + i,
            user_name: Some("gm".into()),
        };
        async move { store.record(&[], Some(&roll)).await.map(|r| r.logged) }
    });
    for logged in futures::future::join_all(writes).await {
        assert!(logged.expect("written"), "logged");
    }
    let r = as_(&mut c, &gm, "/session export").await;
    let files = r.body["files"].as_array().expect("attachments");
    let bytes: usize = files
        .iter()
        .map(|f| f["content"].as_str().map_or(0, str::len))
        .sum();
    assert!(bytes > 2 << 20, "over the old 2 MB: {bytes}");
    // Told 1 MiB, the bot splits or says so; the fake refuses nothing it was told it may send.
    c.fake.set_attachment_size_limit(1 << 20);
    let r = as_(&mut c, &gm, "/session export").await;
    assert!(
        c.fake.refused_requests().is_empty(),
        "{:?}",
        c.fake.refused_requests()
    );
    assert!(!text(&r).is_empty());
    c.shutdown().await;
}
