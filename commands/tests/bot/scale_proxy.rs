//! The real binary pointed at a Discord-compatible base URL (`DISCORD_PROXY_URL`), here the fake
//! Discord started by the test: it registers its commands, answers a /roll, logs the
//! interaction as JSON without the token or the expression, serves its probes, and exits 0 on
//! SIGTERM.

use std::process::Stdio;
use std::time::Duration;

use saikoro_bot::fake_discord::{
    ALL_PERMISSIONS, DEFAULT_CHANNEL, DEFAULT_GUILD, FAKE_TOKEN, FakeDiscord, FakeUser, Invoker,
};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;

const WAIT: Duration = Duration::from_secs(30);

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A plain HTTP/1.1 GET on loopback: (status, body).
async fn http_get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.ok()?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.ok()?;
    let mut raw = String::new();
    s.read_to_string(&mut raw).await.ok()?;
    let status = raw.split_whitespace().nth(1)?.parse().ok()?;
    let body = raw.split_once("\r\n\r\n").map(|(_, b)| b.to_string())?;
    Some((status, body))
}

#[tokio::test]
async fn the_binary_serves_through_the_proxy_url_and_stops_cleanly_on_sigterm() {
    let fake = FakeDiscord::start().await.expect("fake Discord");
    let dir = tempfile::tempdir().expect("temp dir");
    let metrics_port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_saikoro"))
        // No .env above a temp dir; the environment is exactly this.
        .current_dir(dir.path())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DISCORD_TOKEN", FAKE_TOKEN)
        .env("DISCORD_PROXY_URL", fake.url())
        .env("SAIKORO_DATA_DIR", dir.path().join("data"))
        .env("METRICS_ADDR", format!("127.0.0.1:{metrics_port}"))
        .env("LOG_FORMAT", "json")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the binary starts");
    let stderr = child.stderr.take().expect("stderr");
    let log = tokio::spawn(async move {
        let mut lines = BufReader::new(stderr).lines();
        let mut all = Vec::new();
        while let Ok(Some(l)) = lines.next_line().await {
            all.push(l);
        }
        all
    });

    let commands = fake
        .wait_commands(None, WAIT)
        .await
        .expect("commands registered through the proxy URL");
    assert!(commands.iter().any(|c| c["name"] == "roll"));
    fake.wait_shards(1, WAIT)
        .await
        .expect("the shard connects to the gateway the proxy named");

    let roll = commands.iter().find(|c| c["name"] == "roll").unwrap();
    let who = Invoker {
        user: FakeUser {
            id: 200_000_000_000_000_001,
            name: "alice".into(),
            bot: false,
        },
        locale: "en-US".into(),
        guild_id: Some(DEFAULT_GUILD),
        channel_id: DEFAULT_CHANNEL,
        permissions: ALL_PERMISSIONS,
        roles: vec![],
    };
    let options = json!([{ "name": "dice", "type": 3, "value": "3d6+2" }]);
    let interaction = fake.command_interaction(&who, 2, roll, options, json!({}));
    let id = fake.deliver(interaction).expect("delivered");
    let reply = fake.wait_reply(id, WAIT).await.expect("the binary answers");
    assert!(!reply.ephemeral, "{:?}", reply.body);
    let total = reply.embeds()[0]["fields"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["name"] == "Total"))
        .expect("a total");
    let n: i64 = total["value"]
        .as_str()
        .unwrap()
        .trim_matches('*')
        .parse()
        .unwrap();
    assert!((5..=20).contains(&n), "{total}");
    assert!(
        fake.unhandled_requests().is_empty(),
        "{:?}",
        fake.unhandled_requests()
    );

    // Probes and metrics beside it.
    let (code, _) = http_get(metrics_port, "/healthz")
        .await
        .expect("/healthz answers");
    assert_eq!(code, 200);
    let (code, body) = http_get(metrics_port, "/readyz").await.expect("/readyz answers");
    assert_eq!(code, 200, "{body}");
    // A command is counted when it finishes, just after its reply: poll briefly for it.
    let counted = r#"saikoro_commands_total{command="roll",outcome="ok"} 1"#;
    let mut body = String::new();
    for _ in 0..50 {
        let (code, b) = http_get(metrics_port, "/metrics")
            .await
            .expect("/metrics answers");
        assert_eq!(code, 200);
        body = b;
        if body.contains(counted) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(body.contains(counted), "{body}");

    // SIGTERM: shards closed, exit 0.
    let pid = child.id().expect("running");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = tokio::time::timeout(WAIT, child.wait())
        .await
        .expect("the binary stops within 30 s of SIGTERM")
        .expect("exit status");
    assert_eq!(status.code(), Some(0), "exit status {status:?}");

    // One JSON object per line; the interaction line has its facts; no secrets.
    let lines = log.await.expect("log reader");
    let all = lines.join("\n");
    assert!(!all.contains(FAKE_TOKEN), "the token leaked into the log");
    assert!(!all.contains("3d6+2"), "the expression is logged at info:\n{all}");
    let entries: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    let line = entries
        .iter()
        .find(|e| e["message"] == "interaction")
        .unwrap_or_else(|| panic!("no interaction line in\n{all}"));
    assert_eq!(line["level"], "INFO");
    assert_eq!(line["interaction"], json!(id));
    assert_eq!(line["command"], "roll");
    assert_eq!(line["guild"], json!(DEFAULT_GUILD));
    assert_eq!(line["channel"], json!(DEFAULT_CHANNEL));
    assert_eq!(line["outcome"], "ok");
    assert!(line["latency_ms"].as_f64().is_some(), "{line}");
}

/// PostgreSQL down at start-up: the binary starts anyway, answers `/roll`, answers state
/// commands "storage is unavailable", reports it on `/readyz`, and once the server is reachable
/// (a forwarder opened on the port it was given) migrates and serves sessions.
#[tokio::test]
async fn the_binary_starts_while_postgres_is_down_and_connects_when_it_comes() {
    let db = crate::support::pg::TestDb::create().await;
    let (head, rest) = db.url.split_once('@').expect("a URL with a host");
    let (target, database) = rest.split_once('/').expect("a URL with a database");
    let target = if target.contains(':') {
        target.to_string()
    } else {
        format!("{target}:5432")
    };
    let port = free_port();
    let url = format!("{head}@127.0.0.1:{port}/{database}");

    let fake = FakeDiscord::start().await.expect("fake Discord");
    let dir = tempfile::tempdir().expect("temp dir");
    let metrics_port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_saikoro"))
        .current_dir(dir.path())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DISCORD_TOKEN", FAKE_TOKEN)
        .env("DISCORD_PROXY_URL", fake.url())
        .env("DATABASE_URL", &url)
        .env("METRICS_ADDR", format!("127.0.0.1:{metrics_port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the binary starts");
    let commands = fake
        .wait_commands(None, WAIT)
        .await
        .expect("commands registered without a database");
    fake.wait_shards(1, WAIT).await.expect("the shard connects");
    let who = Invoker {
        user: FakeUser {
            id: 200_000_000_000_000_002,
            name: "gm".into(),
            bot: false,
        },
        locale: "en-US".into(),
        guild_id: Some(DEFAULT_GUILD),
        channel_id: DEFAULT_CHANNEL,
        permissions: ALL_PERMISSIONS,
        roles: vec![],
    };
    let run = |line: &str| {
        let users = |n: &str| saikoro_bot::fake_discord::payloads::user(&saikoro_bot::console::user_for(n));
        let built = saikoro_bot::console::line::build(line, &commands, &users).expect("a line");
        fake.command_interaction(&who, 2, &built.command, built.options, built.resolved)
    };
    let id = fake.deliver(run("/roll dice:2d6")).unwrap();
    let r = fake
        .wait_reply(id, WAIT)
        .await
        .expect("/roll answers without a database");
    assert!(!r.ephemeral, "{:?}", r.body);
    let start = "/session start name:Later system:generic";
    let id = fake.deliver(run(start)).unwrap();
    let r = fake.wait_reply(id, WAIT).await.expect("an answer");
    assert!(
        r.ephemeral && r.content().contains("unavailable"),
        "{:?}",
        r.message
    );
    let (code, body) = http_get(metrics_port, "/readyz").await.expect("/readyz answers");
    assert_eq!(code, 503, "{body}");
    assert!(body.contains("store: unavailable"), "{body}");

    // The server "comes back": a forwarder on the port the bot was given.
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .expect("the port");
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let target = target.clone();
            tokio::spawn(async move {
                if let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    let mut ready = false;
    for _ in 0..60 {
        if let Some((200, _)) = http_get(metrics_port, "/readyz").await {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    assert!(ready, "/readyz turns ready once the database answers");
    let id = fake.deliver(run(start)).unwrap();
    let r = fake.wait_reply(id, WAIT).await.expect("an answer");
    assert!(
        !r.ephemeral,
        "a session starts once the database is there: {:?}",
        r.message
    );
    let _ = child.kill().await;
}
