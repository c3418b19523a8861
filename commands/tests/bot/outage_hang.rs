//! A database that stops answering without closing anything (issue 33), through a proxy that
//! freezes: every operation is answered in time and says what happened; readiness and the read
//! cache notice; start-up registrations skipped for storage run once it is back.

use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::i18n::{Lang, Localized};
use saikoro_bot::fake_discord::{DEFAULT_GUILD, FakeDiscord};
use saikoro_bot::store::{READ_LIMIT, Store, StoreError, WRITE_LIMIT, connect, connect_for_serving};

use crate::support;
use support::freeze_proxy::{FreezeProxy, target_of};
use support::pg::TestDb;
use support::store_contract::{self as contract, CHAN};

/// What a test allows beyond a limit: scheduling on a busy machine.
const SLACK: Duration = Duration::from_millis(2500);

async fn proxied() -> (TestDb, FreezeProxy, Arc<dyn Store>) {
    let db = TestDb::create().await;
    let proxy = FreezeProxy::start(target_of(&db.url)).await;
    let store = connect(Some(&proxy.url(&db.url)), std::path::Path::new("."))
        .await
        .expect("connect through the proxy");
    (db, proxy, store)
}

/// The store straight to the database (no proxy), to see what was really written.
async fn direct(db: &TestDb) -> Arc<dyn Store> {
    connect(Some(&db.url), std::path::Path::new("."))
        .await
        .expect("connect directly")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_frozen_database_answers_every_write_in_time_and_later_writes_do_not_queue_behind() {
    let (db, proxy, store) = proxied().await;
    let before = contract::seeded(store.as_ref(), CHAN).await;
    proxy.freeze();

    // Three edits of one session, a second apart: each is answered within its own limit,
    // not after the ones before it.
    let mut edits = Vec::new();
    for user in [4242u64, 4243, 4244] {
        let store = store.clone();
        edits.push(tokio::spawn(async move {
            let started = Instant::now();
            let r = store.update(CHAN, move |s| s.join(user)).await;
            (r, started.elapsed())
        }));
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    for edit in edits {
        let (r, took) = tokio::time::timeout(WRITE_LIMIT + SLACK * 2, edit)
            .await
            .expect("the edit was answered while the database stayed frozen")
            .expect("task");
        let err = r.expect_err("nothing can be written to a frozen database");
        assert!(matches!(err, StoreError::Unavailable(_)), "{err:?}");
        assert!(took < WRITE_LIMIT + SLACK, "answered after {took:?}");
        assert!(err.localized(Lang::En).contains("nothing was saved"));
        assert!(err.localized(Lang::Ja).contains("何も変更していません"));
    }
    // A read, settings and a roll log write: answered too.
    let started = Instant::now();
    let r = store.session(before.id).await;
    assert!(matches!(r, Err(StoreError::Unavailable(_))), "{r:?}");
    assert!(started.elapsed() < READ_LIMIT + SLACK, "{:?}", started.elapsed());
    let started = Instant::now();
    let r = store
        .put_server_settings(contract::GUILD, &Default::default())
        .await;
    assert!(matches!(r, Err(StoreError::Unavailable(_))), "{r:?}");
    assert!(started.elapsed() < WRITE_LIMIT + SLACK, "{:?}", started.elapsed());

    // Thawed: none of the refused edits was made, and the same store writes again.
    proxy.pass();
    let seen = direct(&db).await.session(before.id).await.unwrap().unwrap();
    assert_eq!(seen.version, before.version, "a refused edit was written");
    let deadline = Instant::now() + Duration::from_secs(20);
    let edited = loop {
        match store.update(CHAN, |s| s.join(4245)).await {
            Ok(s) => break s,
            Err(e) => {
                assert!(Instant::now() < deadline, "never wrote again: {e:?}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    };
    assert_eq!(edited.version, before.version + 1);
}

/// The commit reached the database, its answer never came back: "it may have been made", and
/// it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_commit_that_got_no_answer_is_reported_as_maybe_made() {
    let (db, proxy, store) = proxied().await;
    let before = contract::seeded(store.as_ref(), CHAN).await;
    proxy.hold_replies_after_commit();
    let started = Instant::now();
    let err = store
        .update(CHAN, |s| s.join(4242))
        .await
        .expect_err("no answer to the commit");
    assert!(matches!(err, StoreError::Unconfirmed), "{err:?}");
    assert!(started.elapsed() < WRITE_LIMIT + SLACK, "{:?}", started.elapsed());
    for lang in [Lang::En, Lang::Ja] {
        assert!(
            err.localized(lang).contains("/session status"),
            "{}",
            err.localized(lang)
        );
    }
    assert!(err.localized(Lang::En).contains("may or may not have been made"));
    proxy.pass();
    let seen = direct(&db).await.session(before.id).await.unwrap().unwrap();
    assert_eq!(seen.version, before.version + 1, "the commit landed");
}

/// `/readyz` asks the database, and the change feed's hang takes the read cache out of use.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn readiness_and_the_read_cache_notice_a_frozen_database() {
    let (_db, proxy, store) = proxied().await;
    let caches = contract::cache_live(store.as_ref()).await;
    store.ping().await.expect("answers");
    // Read once so a cached read would answer for the frozen database.
    store.server_settings(0).await.unwrap();
    proxy.freeze();
    let started = Instant::now();
    assert!(
        store.ping().await.is_err(),
        "a frozen database does not answer the probe"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // The feed is quiet, asks its connection, gets nothing: the cache is off.
    let deadline = Instant::now() + Duration::from_secs(10);
    while caches.is_live() {
        assert!(
            Instant::now() < deadline,
            "the cache stayed trusted on a hung feed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!("hung change feed noticed after {:?}", started.elapsed());
    proxy.pass();
    contract::cache_live(store.as_ref()).await;
    store.ping().await.expect("answers again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn readyz_says_unavailable_while_the_database_is_frozen() {
    use saikoro_bot::metrics::{self, Metrics, Probe};
    let db = TestDb::create().await;
    let proxy = FreezeProxy::start(target_of(&db.url)).await;
    let store = connect(Some(&proxy.url(&db.url)), std::path::Path::new("."))
        .await
        .expect("connect");
    contract::cache_live(store.as_ref()).await;
    let fake = FakeDiscord::start().await.expect("fake");
    let h = support::harness::Harness::start(fake, store.clone()).await;
    let probe = Probe {
        metrics: Metrics::new(),
        shards: Some(h.bot.as_ref().unwrap().shard_manager()),
        store: store.clone(),
        serving: None,
    };
    let (addr, _server) = metrics::serve("127.0.0.1:0".parse().unwrap(), probe)
        .await
        .expect("probes served");
    let ready = |want: u16| async move {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let (code, body) = crate::support::http::get(addr, "/readyz").await;
            if code == want {
                return body;
            }
            assert!(Instant::now() < deadline, "/readyz never {want}: {body}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    ready(200).await;
    proxy.freeze();
    let started = Instant::now();
    let body = ready(503).await;
    assert!(body.contains("store: unavailable"), "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    proxy.pass();
    ready(200).await;
    h.shutdown().await;
}

/// Started while PostgreSQL is unreachable: once it answers, the server's system commands are
/// registered without a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn system_commands_skipped_at_start_up_are_registered_once_storage_is_back() {
    let db = TestDb::create().await;
    let proxy = FreezeProxy::start(target_of(&db.url)).await;
    proxy.refuse();
    let dir = tempfile::tempdir().unwrap();
    let store = connect_for_serving(Some(&proxy.url(&db.url)), dir.path())
        .await
        .expect("starts without the database");
    let fake = FakeDiscord::start().await.expect("fake");
    let h = support::harness::Harness::start(fake, store).await;
    h.fake
        .wait_commands(None, Duration::from_secs(30))
        .await
        .expect("global commands");
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(
        h.fake.commands(Some(DEFAULT_GUILD)).is_empty(),
        "registered without the settings"
    );
    proxy.pass();
    let started = Instant::now();
    let listed = h
        .fake
        .wait_commands(Some(DEFAULT_GUILD), Duration::from_secs(30))
        .await
        .expect("the server's system commands, once storage is back");
    assert!(listed.iter().any(|c| c["name"] == "sr"), "{listed:?}");
    eprintln!("registered {:?} after storage returned", started.elapsed());
    h.shutdown().await;
}

/// During an outage only a roll that would have been logged is announced as unlogged: not one
/// in a channel whose last read found no session.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_rolls_that_would_have_been_logged_are_announced_during_an_outage() {
    use std::sync::atomic::Ordering;
    let dir = tempfile::tempdir().unwrap();
    let inner = support::harness::sqlite(dir.path()).await;
    let store = Arc::new(support::harness::FlakyStore::new(inner));
    let fake = FakeDiscord::start().await.expect("fake");
    let h = support::harness::Harness::start(fake, store.clone()).await;
    let gm = h.invoker("gm");
    let mut elsewhere = h.invoker("gm");
    elsewhere.channel_id += 1;
    let r = h.send(&gm, "/session start name:Run system:generic").await;
    assert!(!r.ephemeral, "{:?}", r.message);
    // Both channels read once while storage answers: one has a session, one has none.
    for who in [&gm, &elsewhere] {
        h.dice.queue([3, 4]);
        h.send(who, "/roll dice:2d6").await;
    }
    // The session is read after the reply: let those reads finish first.
    tokio::time::sleep(Duration::from_millis(700)).await;
    store.sessions_down.store(true, Ordering::SeqCst);
    let warned = |id: u64| {
        h.fake.followup_messages(id).iter().any(|m| {
            m["content"]
                .as_str()
                .is_some_and(|t| t.contains("Storage is unavailable"))
        })
    };
    h.dice.queue([3, 4]);
    let (lost, r) = h.send_id(&gm, "/roll dice:2d6").await;
    assert!(!r.ephemeral && r.embeds().len() == 1, "{:?}", r.message);
    h.dice.queue([3, 4]);
    let (kept, _) = h.send_id(&elsewhere, "/roll dice:2d6").await;
    let deadline = Instant::now() + Duration::from_secs(5);
    while !warned(lost) {
        assert!(
            Instant::now() < deadline,
            "the session channel's roll was not announced"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        !warned(kept),
        "a roll where no session runs was announced: {:?}",
        h.fake.followup_messages(kept)
    );
    h.shutdown().await;
}

/// With the server-settings row held by another transaction, `/config language` says the
/// settings were being changed (not "the session changed meanwhile") and changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_settings_row_is_not_called_a_session_change() {
    use crate::support::e2e::{as_, console_with, text};
    use saikoro_bot::console::ConsoleOptions;
    use sqlx::Connection;
    let db = TestDb::create().await;
    let mut c = console_with(ConsoleOptions {
        database_url: Some(db.url.clone()),
        ..Default::default()
    })
    .await;
    let admin = c.invoker();
    as_(&mut c, &admin, "/config language language:English").await;
    let mut holder = sqlx::PgConnection::connect(&db.url).await.expect("connect");
    let mut tx = holder.begin().await.expect("begin");
    sqlx::query("SELECT settings FROM server_settings FOR UPDATE")
        .execute(&mut *tx)
        .await
        .expect("hold the row");
    // Past the 2 s lock wait the command was deferred ("thinking…", privately): the answer
    // fills that response in.
    let r = as_(&mut c, &admin, "/config language language:日本語").await;
    assert!(
        r.content().contains("settings were being changed"),
        "{}",
        text(&r)
    );
    assert!(!r.content().contains("session"), "{}", r.content());
    tx.rollback().await.expect("release");
    let s = c.store().server_settings(DEFAULT_GUILD).await.unwrap().unwrap();
    assert_eq!(s.language, Some(Lang::En), "nothing changed");
    c.shutdown().await;
}

/// Through the bot: `/char edit` sent as PostgreSQL freezes is answered within the write limit
/// that nothing was saved, and a second edit sent meanwhile is not answered after the first's
/// wait plus its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn edits_sent_to_a_frozen_database_are_answered_in_time_through_the_bot() {
    let (db, proxy, store) = proxied().await;
    contract::cache_live(store.as_ref()).await;
    let fake = FakeDiscord::start().await.expect("fake");
    let h = support::harness::Harness::start(fake, store.clone()).await;
    let gm = h.invoker("gm");
    assert!(
        !h.send(&gm, "/session start name:Run system:generic")
            .await
            .ephemeral
    );
    assert!(!h.send(&gm, "/char add name:Jack stats:arm=15").await.ephemeral);
    // Read once more so the settings and the session are in the (still trusted) cache.
    h.send(&gm, "/char show name:Jack").await;
    let version = direct(&db)
        .await
        .active_session(saikoro_bot::fake_discord::DEFAULT_CHANNEL)
        .await;
    let version = version.unwrap().unwrap().version;
    proxy.freeze();
    let first = (h.deliver(&gm, "/char edit name:Jack stats:arm=1"), Instant::now());
    tokio::time::sleep(Duration::from_secs(1)).await;
    let second = (h.deliver(&gm, "/char edit name:Jack stats:arm=2"), Instant::now());
    for (id, sent) in [first, second] {
        let r = h
            .fake
            .wait_reply(id, WRITE_LIMIT + SLACK * 2)
            .await
            .expect("answered while the database stays frozen");
        let took = sent.elapsed();
        assert!(took < WRITE_LIMIT + SLACK, "answered after {took:?}");
        assert!(r.content().contains("nothing was saved"), "{:?}", r.message);
        eprintln!("edit answered after {took:?} with the database frozen");
    }
    proxy.pass();
    let after = direct(&db)
        .await
        .active_session(saikoro_bot::fake_discord::DEFAULT_CHANNEL)
        .await;
    assert_eq!(after.unwrap().unwrap().version, version, "nothing was written");
    h.shutdown().await;
}

/// `/config show` asked by a member without Manage Server (a server may show `/config` to
/// them) says who may see the settings, not that the member "can change settings".
#[tokio::test]
async fn config_show_refuses_a_member_without_talking_of_changing() {
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start().await.expect("fake");
    let h = support::harness::Harness::start(fake, support::harness::sqlite(dir.path()).await).await;
    let mut member = h.invoker("bob");
    member.permissions = crate::support::e2e::SEND_MESSAGES;
    let r = h.send(&member, "/config show").await;
    assert!(
        r.ephemeral && r.content().contains("shown only to members with Manage Server"),
        "{:?}",
        r.message
    );
    assert!(!r.content().contains("change"), "{}", r.content());
    member.locale = "ja".into();
    let r = h.send(&member, "/config show").await;
    assert!(r.content().contains("表示できるのは"), "{}", r.content());
    h.shutdown().await;
}
