//! `/metrics` moves with interactions: commands by name and outcome, the latency histogram,
//! errors by kind, the database pool and the gateway shards; `/readyz` follows the shards.

use std::time::Duration;

use saikoro_bot::bot::{self, ScaleOptions};
use saikoro_bot::dice_source::DiceSource;
use saikoro_bot::fake_discord::{
    ALL_PERMISSIONS, DEFAULT_CHANNEL, DEFAULT_GUILD, FakeDiscord, FakeUser, Invoker,
};
use saikoro_bot::metrics::{self, Metrics, Probe};
use saikoro_bot::store;
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(30);

/// The value of the sample `name{labels}` (labels exactly as rendered), 0 when absent.
fn sample(body: &str, series: &str) -> f64 {
    body.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|rest| rest.trim().parse().ok()))
        .unwrap_or(0.0)
}

fn who() -> Invoker {
    Invoker {
        user: FakeUser {
            id: 200_000_000_000_000_002,
            name: "bob".into(),
            bot: false,
        },
        locale: "en-US".into(),
        guild_id: Some(DEFAULT_GUILD),
        channel_id: DEFAULT_CHANNEL,
        permissions: ALL_PERMISSIONS,
        roles: vec![],
    }
}

async fn roll(fake: &FakeDiscord, command: &Value, dice: &str) -> bool {
    let options = json!([{ "name": "dice", "type": 3, "value": dice }]);
    let id = fake
        .deliver(fake.command_interaction(&who(), 2, command, options, json!({})))
        .expect("delivered");
    !fake.wait_reply(id, WAIT).await.expect("answered").ephemeral
}

#[tokio::test]
async fn metrics_count_commands_outcomes_latency_pool_and_shards() {
    let fake = FakeDiscord::start().await.expect("fake");
    let dir = tempfile::tempdir().expect("temp dir");
    let store = store::connect(None, dir.path()).await.expect("sqlite");
    let metrics = Metrics::new();
    let running = bot::start_with(
        fake.bot_options(DiceSource::seeded(7), store.clone()),
        ScaleOptions {
            metrics: Some(metrics.clone()),
            ..Default::default()
        },
    )
    .await
    .expect("bot starts");
    let probe = Probe {
        metrics,
        shards: Some(running.shard_manager()),
        store: store.clone(),
        serving: None,
    };
    let (addr, _server) = metrics::serve("127.0.0.1:0".parse().unwrap(), probe)
        .await
        .expect("metrics served");
    let commands = fake.wait_commands(None, WAIT).await.expect("registered");
    fake.wait_shards(1, WAIT).await.expect("shard");
    let roll_cmd = commands.iter().find(|c| c["name"] == "roll").unwrap().clone();

    // Ready once the shard is connected (serenity marks it after READY).
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let (code, body) = crate::support::http::get(addr, "/readyz").await;
        if code == 200 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "never ready: {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(crate::support::http::get(addr, "/healthz").await.0, 200);

    let (_, before) = crate::support::http::get(addr, "/metrics").await;
    let ok = r#"saikoro_commands_total{command="roll",outcome="ok"}"#;
    let user_err = r#"saikoro_commands_total{command="roll",outcome="user_error"}"#;
    let hist = r#"saikoro_interaction_duration_seconds_count{command="roll"}"#;
    assert_eq!(sample(&before, ok), 0.0);

    for _ in 0..3 {
        assert!(roll(&fake, &roll_cmd, "2d6").await);
    }
    assert!(
        !roll(&fake, &roll_cmd, "2d6*").await,
        "a malformed roll is an error reply"
    );

    // A command is counted when it finishes, after its reply (the roll's log write comes
    // between): on a busy machine the last ones may still be in flight.
    let deadline = tokio::time::Instant::now() + WAIT;
    let (code, after) = loop {
        let (code, body) = crate::support::http::get(addr, "/metrics").await;
        if sample(&body, "saikoro_interactions_in_flight") == 0.0 || tokio::time::Instant::now() > deadline {
            break (code, body);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(code, 200);
    assert_eq!(sample(&after, ok), 3.0, "{after}");
    assert_eq!(sample(&after, user_err), 1.0, "{after}");
    assert_eq!(sample(&after, hist), 4.0, "{after}");
    assert_eq!(
        sample(&after, r#"saikoro_errors_total{kind="user"}"#),
        1.0,
        "{after}"
    );
    assert_eq!(sample(&after, "saikoro_interactions_in_flight"), 0.0, "{after}");
    // Every roll took well under the 2.5 s bucket.
    assert_eq!(
        sample(
            &after,
            r#"saikoro_interaction_duration_seconds_bucket{command="roll",le="2.5"}"#
        ),
        4.0,
        "{after}"
    );
    assert!(
        sample(&after, r#"saikoro_db_pool_connections{state="open"}"#) >= 1.0,
        "{after}"
    );
    assert_eq!(
        sample(&after, r#"saikoro_gateway_shards{stage="connected"}"#),
        1.0,
        "{after}"
    );

    running.shutdown().await;
    store.close().await;
}
