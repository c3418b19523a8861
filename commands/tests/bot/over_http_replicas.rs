//! Replicas over HTTP (issue 35): two bot processes' worth of HTTP endpoints in one test, on one
//! PostgreSQL database, with interactions alternating between them as a load balancer would send
//! them; and a replica that is stopped while it holds an interaction.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use saikoro_bot::bot::ScaleOptions;
use saikoro_bot::console::user_for;
use saikoro_bot::dice_source::DiceSource;
use saikoro_bot::fake_discord::{self, FakeDiscord, Invoker, Reply};
use saikoro_bot::interactions_http::{self, HttpOptions, RunningHttpBot};
use saikoro_bot::store::{self, Store};

use crate::support::e2e::{SEND_MESSAGES, WAIT, text};
use crate::support::harness::{FlakyStore, all_commands, sqlite};
use crate::support::pg::TestDb;

struct Replica {
    bot: RunningHttpBot,
    dice: DiceSource,
}

/// How long the tests' replicas answer 503 once told to stop.
const STOP_DELAY: Duration = Duration::from_millis(300);

async fn replica(fake: &FakeDiscord, store: Arc<dyn Store>) -> Replica {
    replica_stopping_after(fake, store, STOP_DELAY).await
}

async fn replica_stopping_after(fake: &FakeDiscord, store: Arc<dyn Store>, stop_delay: Duration) -> Replica {
    let dice = DiceSource::fixed([]);
    let bot = interactions_http::start(
        fake.bot_options(dice.clone(), store),
        ScaleOptions::default(),
        HttpOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            public_key: fake_discord::test_public_key(),
            stop_delay,
        },
    )
    .await
    .expect("replica starts");
    assert!(bot.commands_registered(Duration::from_secs(30)).await);
    Replica { bot, dice }
}

fn invoker(name: &str, admin: bool) -> Invoker {
    Invoker {
        user: user_for(name),
        locale: "en-US".into(),
        guild_id: Some(fake_discord::DEFAULT_GUILD),
        channel_id: fake_discord::DEFAULT_CHANNEL,
        permissions: if admin {
            fake_discord::ALL_PERMISSIONS
        } else {
            SEND_MESSAGES
        },
        roles: vec![],
    }
}

/// Type `line` as `who`, delivered to `to` (the load balancer's pick): the interaction's id.
fn deliver(fake: &FakeDiscord, to: &Replica, who: &Invoker, line: &str) -> u64 {
    fake.deliver_over_http(&to.bot.url());
    let built = saikoro_bot::console::line::build(line, &all_commands(), &|n| {
        fake_discord::payloads::user(&user_for(n))
    })
    .unwrap_or_else(|e| panic!("{line}: {e}"));
    let interaction = fake.command_interaction(who, 2, &built.command, built.options, built.resolved);
    fake.deliver(interaction).expect("delivered")
}

async fn send(fake: &FakeDiscord, to: &Replica, who: &Invoker, line: &str) -> (u64, Reply) {
    let id = deliver(fake, to, who, line);
    let r = fake
        .wait_reply(id, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    (id, r)
}

fn all_text(r: &Reply) -> String {
    let mut s = text(r);
    for f in &r.followups {
        s.push_str(&f.to_string());
    }
    s
}

/// `line` on `to` until its answer contains `wanted`: another replica's write reaches this one's
/// read cache through the database's change feed, within milliseconds, not in the same instant.
async fn until_seen(fake: &FakeDiscord, to: &Replica, who: &Invoker, line: &str, wanted: &str) -> Reply {
    let mut last = String::new();
    for _ in 0..40 {
        let (_, r) = send(fake, to, who, line).await;
        if all_text(&r).contains(wanted) {
            return r;
        }
        last = all_text(&r);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("`{line}` never showed {wanted}: {last}");
}

#[tokio::test]
async fn two_replicas_on_one_postgresql_share_every_game() {
    let db = TestDb::create().await;
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await.unwrap();
    let a = replica(&fake, store::connect(Some(&db.url), dir.path()).await.unwrap()).await;
    let b = replica(&fake, store::connect(Some(&db.url), dir.path()).await.unwrap()).await;
    let gm = invoker("gm", true);
    let ana = invoker("ana", false);

    let (_, r) = send(&fake, &a, &gm, "/session start name:Run system:generic").await;
    assert!(!r.ephemeral, "{}", text(&r));
    let (_, r) = send(&fake, &b, &gm, "/char add name:Ana").await;
    assert!(!r.ephemeral, "B sees the session A started: {}", text(&r));
    let (_, r) = send(&fake, &a, &gm, "/char add name:Bob").await;
    assert!(!r.ephemeral, "A sees the roster B changed: {}", text(&r));
    // B's cache had the roster before A's edit: the change feed brings A's edit.
    let r = until_seen(&fake, &b, &gm, "/session status", "Bob").await;
    assert!(all_text(&r).contains("Ana"), "{}", all_text(&r));

    // A secret roll answered by A, revealed by a press that B serves, logged for both.
    a.dice.queue([2, 5]);
    let (roll, r) = send(&fake, &a, &ana, "/roll dice:S2D6 label:Trap").await;
    assert!(r.ephemeral);
    // The channel's notice follows the private reply.
    let mut notice = None;
    for _ in 0..100 {
        notice = fake
            .followup_messages(roll)
            .into_iter()
            .find(|m| !fake_discord::buttons(m).is_empty());
        if notice.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let notice = notice.expect("the channel's notice with its button");
    let custom_id = fake_discord::buttons(&notice)[0].1.clone();
    fake.deliver_over_http(&b.bot.url());
    let r = fake.press(&ana, &notice, &custom_id, WAIT).await.unwrap();
    assert!(text(&r).contains("revealed"), "{}", text(&r));
    let r = until_seen(&fake, &a, &gm, "/session log", "→ **7**").await;
    assert!(all_text(&r).contains("(revealed)"), "{}", all_text(&r));
    assert_eq!(b.dice.remaining(), Some(0), "the press rolled nothing");
    assert!(
        fake.refused_requests().is_empty(),
        "{:?}",
        fake.refused_requests()
    );
    a.bot.shutdown().await;
    b.bot.shutdown().await;
}

#[tokio::test]
async fn a_stopped_replica_finishes_what_it_holds_and_takes_nothing_new() {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(FlakyStore::new(sqlite(dir.path()).await));
    let fake = FakeDiscord::start().await.unwrap();
    let a = replica(&fake, store.clone()).await;
    let gm = invoker("gm", true);
    send(&fake, &a, &gm, "/session start name:Run system:generic").await;

    // A slow edit is in flight when the replica is told to stop.
    store.update_delay_ms.store(1500, Ordering::SeqCst);
    let held = deliver(&fake, &a, &gm, "/char add name:Ana");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(a.bot.in_flight(), 1);
    let url = a.bot.url();
    let stopping = tokio::spawn(a.bot.shutdown());
    tokio::time::sleep(Duration::from_millis(100)).await;

    // Nothing new is taken: refused (503) or not even connected; nothing runs.
    a.dice.queue([3, 4]);
    let body = {
        let built = saikoro_bot::console::line::build("/roll dice:2d6", &all_commands(), &|n| {
            fake_discord::payloads::user(&user_for(n))
        })
        .unwrap();
        fake.command_interaction(&gm, 2, &built.command, built.options, built.resolved)
            .to_string()
            .into_bytes()
    };
    let ts = fake_discord::timestamp_now();
    let sig = fake_discord::sign(&ts, &body);
    fake.deliver_over_http(&url);
    // An error is a listener closed already.
    if let Ok((status, _)) = fake.post_raw(body, Some(&ts), Some(&sig)).await {
        assert_eq!(status, 503, "a stopping replica refuses");
    }

    // What it held is answered in full and written, then it stops.
    let r = fake.wait_reply(held, WAIT).await.unwrap();
    assert!(!r.ephemeral && text(&r).contains("Ana"), "{}", text(&r));
    tokio::time::timeout(Duration::from_secs(20), stopping)
        .await
        .expect("the replica stops once drained")
        .unwrap();
    assert_eq!(a.dice.remaining(), Some(2), "the refused roll never ran");
    let session = store
        .inner
        .active_session(fake_discord::DEFAULT_CHANNEL)
        .await
        .unwrap()
        .unwrap();
    assert!(session.entry("Ana").is_some(), "the held edit was written");
}

/// Slow work over HTTP: the bot's own deferral at 2 s is the HTTP response ("thinking…"), and
/// its answer then edits it in, as on the gateway.
#[tokio::test]
async fn slow_work_is_deferred_in_the_response_and_edited_in() {
    use saikoro_bot::fake_discord::ReplyEvent;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(FlakyStore::new(sqlite(dir.path()).await));
    let fake = FakeDiscord::start().await.unwrap();
    let a = replica(&fake, store.clone()).await;
    let gm = invoker("gm", true);
    send(&fake, &a, &gm, "/session start name:Run system:generic").await;
    store.update_delay_ms.store(2600, Ordering::SeqCst);
    let (_, r) = send(&fake, &a, &gm, "/char add name:Ana").await;
    match r.events.as_slice() {
        [ReplyEvent::Callback(first), ReplyEvent::EditOriginal(_), ..] => {
            assert_eq!(first["type"], 5, "{first}")
        }
        other => panic!("not a deferral then an edit: {other:?}"),
    }
    assert!(!r.ephemeral && text(&r).contains("Ana"), "{}", text(&r));
    a.bot.shutdown().await;
}

/// The load tool's rolling restart (issue 35): two replicas on one PostgreSQL under a steady
/// mixed load (rolls and `/char edit`s); each replica in turn is replaced (a new one joins the
/// balancer, the old one is stopped while still listed and drains). Nothing sent is lost, no
/// acknowledged edit is missing from the database, and the figures say what ran meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_under_load_loses_no_interaction() {
    use saikoro_bot::loadtest::{self, LoadOptions, Mix};
    let db = TestDb::create().await;
    let report = loadtest::run(LoadOptions {
        count: 600,
        warmup: 20,
        concurrency: 8,
        rate: Some(40.0),
        mix: Mix::Mixed,
        sessions: 4,
        database_url: Some(db.url.clone()),
        max_seconds: 24,
        http: true,
        replicas: 2,
        rolling_restart: true,
        ..LoadOptions::default()
    })
    .await
    .expect("the load runs");
    let text = report.text();
    assert_eq!((report.transport, report.replicas), ("http", 2), "{text}");
    assert!(report.sent >= 400, "the load ran through the restart: {text}");
    assert_eq!((report.unanswered, report.errors), (0, 0), "{text}");
    assert_eq!(report.lost_updates, Some(0), "{text}");
    let restart = report.restart.as_ref().expect("a restart ran");
    assert!(
        restart.sent_during >= 100,
        "load was sent during the restart: {text}"
    );
    assert_eq!(restart.answered_during, restart.sent_during, "{text}");
    assert!(text.contains("restart") && text.contains("0 lost"), "{text}");
}

/// A stopping replica never closes a connection under a request a balancer has just sent on it
/// (the balancer cannot know whether such a request ran, and does not pass a POST on: that is
/// how CI once lost an interaction in the rolling restart above). For its stop delay it answers
/// every request, on the balancer's kept-alive connections and on new ones, with 503 and
/// `Connection: close`, running nothing; only then does its listener close.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_replica_answers_503_on_every_connection_until_its_stop_delay_ends() {
    const WORKERS: usize = 8;
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(FlakyStore::new(sqlite(dir.path()).await));
    let fake = FakeDiscord::start().await.unwrap();
    let a = replica_stopping_after(&fake, store.clone(), Duration::from_millis(1500)).await;
    let url = a.bot.url();
    let gm = invoker("gm", true);
    let roll = saikoro_bot::console::line::build("/roll dice:2d6", &all_commands(), &|n| {
        fake_discord::payloads::user(&user_for(n))
    })
    .unwrap();
    let body = fake
        .command_interaction(&gm, 2, &roll.command, roll.options, roll.resolved)
        .to_string()
        .into_bytes();
    // The balancer's pool: as many kept-alive connections as it has requests at once.
    let client = reqwest::Client::new();
    let post = |signed: bool| {
        let ts = fake_discord::timestamp_now();
        let sig = if signed {
            fake_discord::sign(&ts, &body)
        } else {
            "00".repeat(64)
        };
        client
            .post(&url)
            .header("content-type", "application/json")
            .header("x-signature-timestamp", ts)
            .header("x-signature-ed25519", sig)
            .body(body.clone())
            .send()
    };
    let warm = futures::future::join_all((0..WORKERS).map(|_| post(false))).await;
    for r in warm {
        assert_eq!(
            r.expect("answered").status(),
            401,
            "an unsigned request is refused"
        );
    }

    a.dice.queue([3, 4]);
    let serving = a.bot.serving();
    let stopping = tokio::spawn(a.bot.shutdown());
    while serving.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Well inside the stop delay, requests at once on every pooled connection and then on new
    // ones (each 503 closes its connection).
    let until = tokio::time::Instant::now() + Duration::from_millis(400);
    let worker = || async {
        let mut answers = Vec::new();
        while tokio::time::Instant::now() < until {
            answers.push(match post(true).await {
                Ok(r) => Ok((
                    r.status().as_u16(),
                    r.headers()
                        .get("connection")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or_default()
                        .to_string(),
                )),
                Err(e) => Err(format!("{e:?}")),
            });
        }
        answers
    };
    let answers: Vec<_> = futures::future::join_all((0..WORKERS).map(|_| worker()))
        .await
        .into_iter()
        .flatten()
        .collect();
    // Each kind of answer once, with how often it came (an error's text names its connection).
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    for a in &answers {
        *kinds.entry(format!("{a:?}")).or_default() += 1;
    }
    assert!(answers.len() >= WORKERS, "{kinds:?}");
    assert_eq!(
        kinds.keys().collect::<Vec<_>>(),
        [&format!("{:?}", Ok::<_, String>((503u16, "close".to_string())))],
        "{kinds:?}"
    );
    tokio::time::timeout(Duration::from_secs(20), stopping)
        .await
        .expect("the replica stops after its delay")
        .unwrap();
    assert_eq!(a.dice.remaining(), Some(2), "nothing ran");
    let after = post(true).await.expect_err("the listener is closed");
    assert!(after.is_connect(), "{after:?}");
}
