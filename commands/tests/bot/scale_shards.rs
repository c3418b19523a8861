//! Two bots, each running one shard of two (`SHARD_RANGE`), against one fake Discord and one
//! PostgreSQL: each answers only its own shard's guilds, and what one writes the other reads.

use std::collections::HashSet;
use std::time::Duration;

use crate::support::pg::TestDb;
use saikoro_bot::TappedOutcome;
use saikoro_bot::bot::{self, BotOptions, RunningBot, ScaleOptions};
use saikoro_bot::config::Sharding;
use saikoro_bot::console::{line, user_for};
use saikoro_bot::dice_source::DiceSource;
use saikoro_bot::fake_discord::{
    ALL_PERMISSIONS, FAKE_TOKEN, FakeDiscord, FakeOptions, Invoker, Reply, payloads,
};
use saikoro_bot::store::{self, Store};
use tokio::sync::mpsc;

const WAIT: Duration = Duration::from_secs(30);
/// Discord routes a guild to shard `(guild_id >> 22) % total`.
const GUILD_0: u64 = (1_000 << 22) | 7;
const GUILD_1: u64 = (1_001 << 22) | 7;
const CHANNEL: u64 = 930_000_000_000_000_001;

async fn start_bot(
    fake: &FakeDiscord,
    store: std::sync::Arc<dyn Store>,
    shard: u32,
) -> (RunningBot, mpsc::UnboundedReceiver<TappedOutcome>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let running = bot::start_with(
        BotOptions {
            outcome_tap: Some(tx),
            ..fake.bot_options(DiceSource::seeded(u64::from(shard)), store)
        },
        ScaleOptions {
            sharding: Sharding::Range {
                first: shard,
                last: shard,
                total: 2,
            },
            metrics: None,
        },
    )
    .await
    .expect("bot starts");
    (running, rx)
}

fn gm(guild: u64) -> Invoker {
    Invoker {
        user: user_for("gm"),
        locale: "en-US".into(),
        guild_id: Some(guild),
        channel_id: CHANNEL,
        permissions: ALL_PERMISSIONS,
        roles: vec![],
    }
}

async fn send(fake: &FakeDiscord, who: &Invoker, text: &str) -> (u64, Reply) {
    let commands = fake.visible_commands(who.guild_id);
    let built = line::build(text, &commands, &|n| payloads::user(&user_for(n))).expect("line builds");
    let interaction = fake.command_interaction(who, 2, &built.command, built.options, built.resolved);
    let id = fake.deliver(interaction).expect("delivered");
    let reply = fake
        .wait_reply(id, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    (id, reply)
}

/// The interactions a bot reported finished so far.
fn finished(rx: &mut mpsc::UnboundedReceiver<TappedOutcome>) -> HashSet<u64> {
    let mut done = HashSet::new();
    while let Ok(t) = rx.try_recv() {
        if t.outcome.is_none() {
            done.insert(t.interaction_id);
        }
    }
    done
}

/// Wait for a bot's "finished" mark of `id` (it follows the reply).
async fn wait_finished(rx: &mut mpsc::UnboundedReceiver<TappedOutcome>, seen: &mut HashSet<u64>, id: u64) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !seen.contains(&id) {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some(t)) if t.outcome.is_none() => {
                seen.insert(t.interaction_id);
            }
            Ok(Some(_)) => {}
            _ => panic!("interaction {id} never reported finished by the bot that should own it"),
        }
    }
}

#[tokio::test]
async fn two_shard_ranges_split_the_guilds_and_share_one_database() {
    assert_eq!((GUILD_0 >> 22) % 2, 0);
    assert_eq!((GUILD_1 >> 22) % 2, 1);
    let db = TestDb::create().await;
    let fake = FakeDiscord::start_with(FakeOptions {
        shards: 2,
        guilds: vec![GUILD_0, GUILD_1],
        ..Default::default()
    })
    .await
    .expect("fake");
    let dir = tempfile::tempdir().expect("temp dir");
    // Two processes' worth: each bot has its own pool on the same database.
    let store_a = store::connect(Some(&db.url), dir.path()).await.expect("pg a");
    let store_b = store::connect(Some(&db.url), dir.path()).await.expect("pg b");
    let (bot_a, mut rx_a) = start_bot(&fake, store_a.clone(), 0).await;
    let (bot_b, mut rx_b) = start_bot(&fake, store_b.clone(), 1).await;
    fake.wait_shards(2, WAIT).await.expect("both shards connect");
    assert_eq!(fake.connected_shards(), vec![0, 1]);
    fake.wait_commands(None, WAIT).await.expect("global commands");
    // Each bot registered the system commands of the guild its shard's READY listed.
    fake.wait_commands(Some(GUILD_0), WAIT)
        .await
        .expect("guild 0 commands");
    fake.wait_commands(Some(GUILD_1), WAIT)
        .await
        .expect("guild 1 commands");

    let (mut seen_a, mut seen_b) = (HashSet::new(), HashSet::new());
    let mut ids_0 = Vec::new();
    let mut ids_1 = Vec::new();
    for _ in 0..3 {
        let (id, r) = send(&fake, &gm(GUILD_0), "/roll dice:2d6").await;
        assert!(!r.ephemeral);
        wait_finished(&mut rx_a, &mut seen_a, id).await;
        ids_0.push(id);
        let (id, r) = send(&fake, &gm(GUILD_1), "/roll dice:2d6").await;
        assert!(!r.ephemeral);
        wait_finished(&mut rx_b, &mut seen_b, id).await;
        ids_1.push(id);
    }
    seen_a.extend(finished(&mut rx_a));
    seen_b.extend(finished(&mut rx_b));
    for id in &ids_0 {
        assert!(
            !seen_b.contains(id),
            "shard 1's bot answered guild 0's interaction {id}"
        );
    }
    for id in &ids_1 {
        assert!(
            !seen_a.contains(id),
            "shard 0's bot answered guild 1's interaction {id}"
        );
    }

    // A session written through bot A (guild 0) is read and changed through bot B. The same
    // channel id under the other shard's guild stands for the other process seeing it (as
    // after shards are re-balanced between processes): sessions live in PostgreSQL only.
    let (id, r) = send(&fake, &gm(GUILD_0), "/session start name:Shared system:generic").await;
    assert!(!r.ephemeral, "{:?}", r.body);
    wait_finished(&mut rx_a, &mut seen_a, id).await;
    let (id, r) = send(&fake, &gm(GUILD_1), "/char add name:Ana stats:body=4").await;
    assert!(!r.ephemeral, "{:?}", r.body);
    wait_finished(&mut rx_b, &mut seen_b, id).await;
    let (id, r) = send(&fake, &gm(GUILD_0), "/char show name:Ana").await;
    assert!(!r.ephemeral, "{:?}", r.body);
    assert!(r.embeds()[0].to_string().contains("body"), "{:?}", r.embeds());
    wait_finished(&mut rx_a, &mut seen_a, id).await;
    let s = store_b.active_session(CHANNEL).await.unwrap().expect("stored");
    assert_eq!(s.name, "Shared");
    assert!(s.entry("Ana").is_some());
    assert!(
        fake.unhandled_requests().is_empty(),
        "{:?}",
        fake.unhandled_requests()
    );

    bot_a.shutdown().await;
    bot_b.shutdown().await;
    store_a.close().await;
    store_b.close().await;
}

/// A real `saikoro` process running shard `range` of two against the fake and PostgreSQL; its
/// JSON log lines are collected as they come.
fn spawn_process(
    fake: &FakeDiscord,
    database_url: &str,
    range: &str,
    dir: &std::path::Path,
) -> (
    tokio::process::Child,
    std::sync::Arc<std::sync::Mutex<Vec<String>>>,
) {
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_saikoro"))
        // No .env above a temp dir; the environment is exactly this.
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DISCORD_TOKEN", FAKE_TOKEN)
        .env("DISCORD_PROXY_URL", fake.url())
        .env("DATABASE_URL", database_url)
        .env("SHARD_TOTAL", "2")
        .env("SHARD_RANGE", range)
        .env("LOG_FORMAT", "json")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the binary starts");
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = lines.clone();
    let stderr = child.stderr.take().expect("stderr");
    tokio::spawn(async move {
        let mut reader = tokio::io::BufReader::new(stderr).lines();
        while let Ok(Some(l)) = reader.next_line().await {
            sink.lock().unwrap_or_else(|e| e.into_inner()).push(l);
        }
    });
    (child, lines)
}

/// The interaction ids a process logged as handled.
fn logged_interactions(lines: &std::sync::Mutex<Vec<String>>) -> HashSet<u64> {
    lines
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| e["message"] == "interaction")
        .filter_map(|e| e["interaction"].as_u64())
        .collect()
}

async fn wait_logged(lines: &std::sync::Mutex<Vec<String>>, id: u64) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !logged_interactions(lines).contains(&id) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "interaction {id} never logged by the process owning its shard"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn two_bot_processes_with_their_own_shard_ranges_share_one_database() {
    let db = TestDb::create().await;
    let fake = FakeDiscord::start_with(FakeOptions {
        shards: 2,
        guilds: vec![GUILD_0, GUILD_1],
        ..Default::default()
    })
    .await
    .expect("fake");
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut a, log_a) = spawn_process(&fake, &db.url, "0-0", dir.path());
    let (mut b, log_b) = spawn_process(&fake, &db.url, "1-1", dir.path());
    fake.wait_shards(2, WAIT).await.expect("both processes connect");
    assert_eq!(fake.connected_shards(), vec![0, 1]);
    fake.wait_commands(Some(GUILD_0), WAIT)
        .await
        .expect("guild 0 commands");
    fake.wait_commands(Some(GUILD_1), WAIT)
        .await
        .expect("guild 1 commands");

    let (mut ids_0, mut ids_1) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        let (id, r) = send(&fake, &gm(GUILD_0), "/roll dice:2d6").await;
        assert!(!r.ephemeral, "{:?}", r.body);
        wait_logged(&log_a, id).await;
        ids_0.push(id);
        let (id, r) = send(&fake, &gm(GUILD_1), "/roll dice:2d6").await;
        assert!(!r.ephemeral, "{:?}", r.body);
        wait_logged(&log_b, id).await;
        ids_1.push(id);
    }
    // A session started through process A is read and changed through process B.
    let (id, r) = send(&fake, &gm(GUILD_0), "/session start name:Shared system:generic").await;
    assert!(!r.ephemeral, "{:?}", r.body);
    wait_logged(&log_a, id).await;
    let (id, r) = send(&fake, &gm(GUILD_1), "/char add name:Ana stats:body=4").await;
    assert!(!r.ephemeral, "{:?}", r.body);
    wait_logged(&log_b, id).await;
    let (id, r) = send(&fake, &gm(GUILD_0), "/char show name:Ana").await;
    assert!(r.embeds()[0].to_string().contains("body"), "{:?}", r.embeds());
    wait_logged(&log_a, id).await;

    let (seen_a, seen_b) = (logged_interactions(&log_a), logged_interactions(&log_b));
    assert!(
        ids_0.iter().all(|id| !seen_b.contains(id)),
        "process B handled guild 0"
    );
    assert!(
        ids_1.iter().all(|id| !seen_a.contains(id)),
        "process A handled guild 1"
    );

    for child in [&mut a, &mut b] {
        let pid = child.id().expect("running").to_string();
        let killed = std::process::Command::new("kill").args(["-TERM", &pid]).status();
        assert!(killed.is_ok_and(|s| s.success()));
        let status = tokio::time::timeout(WAIT, child.wait())
            .await
            .expect("stops within 30 s of SIGTERM")
            .expect("exit status");
        assert_eq!(status.code(), Some(0), "{status:?}");
    }
}
