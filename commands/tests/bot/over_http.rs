//! Interactions over HTTP (issue 35): the fake Discord POSTs each interaction, signed with its
//! test key, to the bot's endpoint and reads the first response from the HTTP response. What the
//! endpoint refuses changes nothing; commands, buttons and autocomplete answer as on the gateway.
//! The end-to-end suites run in this mode as they stand with `SAIKORO_TEST_TRANSPORT=http`;
//! [`suites_pass_over_http`] runs all of them and every case file that way in every `cargo test`.

use serde_json::{Value, json};

use crate::support::e2e::*;
use saikoro_bot::console::{Console, ConsoleOptions};
use saikoro_bot::fake_discord::{self, ReplyEvent};

async fn http_console() -> Console {
    console_with(ConsoleOptions {
        http: true,
        ..Default::default()
    })
    .await
}

/// A `/roll dice:2d6` interaction as the fake would POST it, and its id.
fn roll_interaction(c: &Console) -> Value {
    let roll = c
        .fake
        .commands(None)
        .into_iter()
        .find(|c| c["name"] == "roll")
        .expect("/roll registered");
    c.fake.command_interaction(
        &c.invoker(),
        2,
        &roll,
        json!([{ "name": "dice", "type": 3, "value": "2d6" }]),
        json!({}),
    )
}

fn seconds_ago(s: u64) -> String {
    let now: u64 = fake_discord::timestamp_now().parse().unwrap();
    (now - s).to_string()
}

#[tokio::test]
async fn a_request_that_does_not_verify_gets_401_and_changes_nothing() {
    let mut c = http_console().await;
    send(&mut c, "/session start name:Run system:generic").await;
    let rows = log_rows(&c, fake_discord::DEFAULT_CHANNEL).await;
    assert_eq!(rows, Some(0));
    c.queue_dice([3, 4]);
    let body = roll_interaction(&c).to_string().into_bytes();
    let ts = fake_discord::timestamp_now();
    let good = fake_discord::sign(&ts, &body);
    // Signed for another body; signed for another time; not signed; a garbled signature.
    let other = fake_discord::sign(&ts, b"{}");
    let later = fake_discord::sign(&(ts.parse::<u64>().unwrap() + 1).to_string(), &body);
    for (t, s) in [
        (Some(ts.as_str()), Some(other.as_str())),
        (Some(ts.as_str()), Some(later.as_str())),
        (Some(ts.as_str()), None),
        (None, Some(good.as_str())),
        (Some(ts.as_str()), Some("not hex")),
    ] {
        let (status, _) = c.fake.post_raw(body.clone(), t, s).await.unwrap();
        assert_eq!(status, 401, "timestamp {t:?}, signature {s:?}");
    }
    // A request signed long ago (a replay of a captured one) is refused though its signature
    // is good.
    let old = seconds_ago(301);
    let sig = fake_discord::sign(&old, &body);
    let (status, _) = c
        .fake
        .post_raw(body.clone(), Some(&old), Some(&sig))
        .await
        .unwrap();
    assert_eq!(status, 401, "a stale timestamp");
    // Nothing ran: no dice rolled, no row written, nothing sent for it.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(c.dice_left(), Some(2));
    assert_eq!(log_rows(&c, fake_discord::DEFAULT_CHANNEL).await, Some(0));
    let id: u64 = serde_json::from_slice::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(c.fake.events(id).is_empty(), "{:?}", c.fake.events(id));
    // The same body, properly signed now, is answered (and rolls).
    let (status, answer) = c.fake.post_raw(body, Some(&ts), Some(&good)).await.unwrap();
    assert_eq!(status, 200, "{answer}");
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["type"], 4, "{answer}");
    assert!(answer.to_string().contains("**7**"), "{answer}");
    assert_eq!(c.dice_left(), Some(0));
    c.shutdown().await;
}

#[tokio::test]
async fn an_oversized_body_gets_413_and_ping_gets_pong() {
    let c = http_console().await;
    let mut big = roll_interaction(&c);
    big["padding"] = json!("x".repeat(2 * 1024 * 1024));
    let body = big.to_string().into_bytes();
    let ts = fake_discord::timestamp_now();
    let sig = fake_discord::sign(&ts, &body);
    let (status, _) = c.fake.post_raw(body, Some(&ts), Some(&sig)).await.unwrap();
    assert_eq!(status, 413);
    assert_eq!(c.dice_left(), Some(0));

    // Discord's PING when the endpoint URL is saved: PONG, signed or refused.
    let ping = json!({
        "id": c.fake.next_id().to_string(), "application_id": c.fake.app_id().to_string(),
        "type": 1, "token": "ping-token", "version": 1,
    })
    .to_string()
    .into_bytes();
    let sig = fake_discord::sign(&ts, &ping);
    let (status, answer) = c
        .fake
        .post_raw(ping.clone(), Some(&ts), Some(&sig))
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert_eq!(
        serde_json::from_str::<Value>(&answer).unwrap(),
        json!({ "type": 1 })
    );
    let bad = fake_discord::sign(&ts, b"another body");
    let (status, _) = c.fake.post_raw(ping, Some(&ts), Some(&bad)).await.unwrap();
    assert_eq!(status, 401, "Discord checks this when the URL is saved");
    c.shutdown().await;
}

/// The reply was the HTTP response itself: the first event is the callback, no deferral.
fn answered_in_the_response(r: &saikoro_bot::fake_discord::Reply) {
    match r.events.first() {
        Some(ReplyEvent::Callback(b)) => assert!(
            matches!(b["type"].as_u64(), Some(4 | 7 | 8)),
            "answered directly: {b}"
        ),
        other => panic!("no callback first: {other:?}"),
    }
}

#[tokio::test]
async fn roll_session_button_and_autocomplete_are_answered_over_http() {
    let mut c = http_console().await;
    assert!(c.fake.over_http());
    assert!(
        c.fake.connected_shards().is_empty(),
        "no gateway connection at all"
    );
    // The guild's system commands were registered from the REST list of servers.
    let guild = c.fake.commands(Some(fake_discord::DEFAULT_GUILD));
    assert!(guild.iter().any(|c| c["name"] == "sr"), "{guild:?}");

    c.queue_dice([6, 5]);
    let r = send(&mut c, "/roll dice:2d6").await;
    answered_in_the_response(&r);
    assert_eq!(find(&r.embeds()[0]["fields"], "Total")["value"], "**11**");

    let gm = c.invoker();
    let ana = player(&c, "ana");
    let r = as_(&mut c, &gm, "/session start name:Run system:generic").await;
    answered_in_the_response(&r);
    for name in ["Ana", "Anders", "Bob"] {
        as_(&mut c, &gm, &format!("/char add name:{name}")).await;
    }
    // Autocomplete: a type 8 answer in the response.
    // `/char` is registered per server (its sheet option follows the server's systems).
    let command = c
        .fake
        .commands(Some(fake_discord::DEFAULT_GUILD))
        .into_iter()
        .find(|c| c["name"] == "char")
        .unwrap();
    let options = json!([{ "name": "show", "type": 1, "options": [
        { "name": "name", "type": 3, "value": "an", "focused": true },
    ]}]);
    let interaction = c.fake.command_interaction(&gm, 4, &command, options, json!({}));
    let id = c.fake.deliver(interaction).unwrap();
    let r = c.fake.wait_reply(id, WAIT).await.unwrap();
    answered_in_the_response(&r);
    let names: Vec<&str> = r.body["data"]["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Ana", "Anders"]);

    // A secret roll: the private reply in the response, the channel's notice a follow-up
    // after it; its button pressed over HTTP reveals the roll.
    c.queue_dice([2, 5]);
    let (roll_id, r) = as_id(&mut c, &ana, "/roll dice:S2D6 label:Trap").await;
    answered_in_the_response(&r);
    assert!(r.ephemeral);
    let notice = c
        .fake
        .followup_messages(roll_id)
        .into_iter()
        .find(|m| !fake_discord::buttons(m).is_empty())
        .expect("the channel's notice with its button");
    let custom_id = fake_discord::buttons(&notice)[0].1.clone();
    let r = press(&c, &ana, &notice, &custom_id).await;
    answered_in_the_response(&r);
    assert!(text(&r).contains("revealed"), "{}", text(&r));
    let r = as_(&mut c, &gm, "/session log").await;
    assert!(all_text(&r).contains("→ **7**"), "{}", all_text(&r));

    // An export (files: multipart) is a deferral in the response, then the edit with files.
    let r = as_(&mut c, &gm, "/session export").await;
    assert!(matches!(r.events.first(), Some(ReplyEvent::Callback(b)) if b["type"] == 5));
    assert!(
        r.body["files"][0]["content"].as_str().unwrap().contains("Trap"),
        "{}",
        r.body
    );
    assert!(
        c.fake.refused_requests().is_empty(),
        "{:?}",
        c.fake.refused_requests()
    );
    c.shutdown().await;
}

fn all_text(r: &saikoro_bot::fake_discord::Reply) -> String {
    let mut s = text(r);
    for f in &r.followups {
        s.push_str(&f.to_string());
    }
    s
}

/// Every end-to-end suite and every case file, run again as they stand with interactions over
/// HTTP (`SAIKORO_TEST_TRANSPORT=http`): the HTTP mode passes what the gateway mode passes.
#[test]
fn suites_pass_over_http() {
    if saikoro_bot::console::http_from_env() {
        // Already the HTTP run: the suites below run in it by themselves.
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    for suite in ["e2e_", "cases::"] {
        let out = std::process::Command::new(&exe)
            .args([suite, "--test-threads=2"])
            .env("SAIKORO_TEST_TRANSPORT", "http")
            .output()
            .expect("the test binary runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{suite} over HTTP:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("test result: ok") && !stdout.contains(" 0 passed"),
            "{suite} ran nothing: {stdout}"
        );
    }
}

/// The binary in HTTP mode as an operator runs it (`INTERACTIONS_LISTEN`, `DISCORD_PUBLIC_KEY`):
/// no gateway connection, commands registered over REST, a roll answered in the HTTP response,
/// `/readyz` ready without shards; on SIGTERM `/readyz` says it is stopping (the balancer's cue)
/// for its stop delay, then exit 0.
#[tokio::test]
async fn the_binary_serves_over_http_and_stops_on_sigterm() {
    let fake = saikoro_bot::fake_discord::FakeDiscord::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let free = || {
        std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
    };
    let (listen, metrics) = (free(), free());
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .current_dir(dir.path())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DISCORD_TOKEN", fake_discord::FAKE_TOKEN)
        .env("DISCORD_PROXY_URL", fake.url())
        .env("INTERACTIONS_LISTEN", listen.to_string())
        .env("DISCORD_PUBLIC_KEY", fake_discord::test_public_key())
        .env("METRICS_ADDR", metrics.to_string())
        .env("INTERACTIONS_STOP_DELAY", "1.5")
        .env("SAIKORO_DATA_DIR", dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the binary starts");
    fake.wait_commands(Some(fake_discord::DEFAULT_GUILD), WAIT)
        .await
        .expect("the server's commands registered over REST");
    fake.deliver_over_http(&format!("http://{listen}/interactions"));
    let roll = fake
        .commands(None)
        .into_iter()
        .find(|c| c["name"] == "roll")
        .expect("/roll registered globally");
    let who = fake_discord::Invoker {
        user: saikoro_bot::console::user_for("ana"),
        locale: "en-US".into(),
        guild_id: Some(fake_discord::DEFAULT_GUILD),
        channel_id: fake_discord::DEFAULT_CHANNEL,
        permissions: SEND_MESSAGES,
        roles: vec![],
    };
    let interaction = fake.command_interaction(
        &who,
        2,
        &roll,
        json!([{ "name": "dice", "type": 3, "value": "2d6" }]),
        json!({}),
    );
    let id = fake.deliver(interaction).unwrap();
    let r = fake.wait_reply(id, WAIT).await.unwrap();
    answered_in_the_response(&r);
    assert!(text(&r).contains("Total"), "{}", text(&r));
    assert!(fake.connected_shards().is_empty());
    let (status, ready) = crate::support::http::get(metrics, "/readyz").await;
    assert_eq!(status, 200, "{ready}");
    assert!(ready.contains("none (interactions over HTTP)"), "{ready}");
    let pid = child.id().expect("running").to_string();
    let killed = std::process::Command::new("kill").args(["-TERM", &pid]).status();
    assert!(killed.is_ok_and(|s| s.success()));
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(1);
    loop {
        let (status, ready) = crate::support::http::get(metrics, "/readyz").await;
        if status == 503 {
            assert!(ready.contains("interactions: stopping"), "{ready}");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "still ready after SIGTERM: {ready}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let status = tokio::time::timeout(WAIT, child.wait())
        .await
        .expect("stops within 15 s of SIGTERM")
        .expect("exit status");
    assert_eq!(status.code(), Some(0), "{status:?}");
}
