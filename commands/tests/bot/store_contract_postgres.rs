//! The store contract on PostgreSQL (a fresh database per test; see `support::pg` for where
//! the server comes from), plus the outage test on a throwaway server.

use crate::{contract_tests, support};

use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::session::{Actor, RollLogEntry, RosterEntry, ServerSettings};
use saikoro_bot::store::{ACQUIRE_TIMEOUT, Backend, Store, StoreError, connect};
use serde_json::json;
use support::pg::{PgServer, TestDb};
use support::store_contract::{self as contract, ALICE, CHAN, GM, GUILD, Harness};

struct Postgres {
    db: TestDb,
    data_dir: tempfile::TempDir,
}

impl Postgres {
    async fn new() -> Postgres {
        Postgres {
            db: TestDb::create().await,
            data_dir: tempfile::tempdir().expect("temp dir"),
        }
    }
}

impl Harness for Postgres {
    async fn open(&self) -> Arc<dyn Store> {
        connect(Some(&self.db.url), self.data_dir.path())
            .await
            .expect("connect PostgreSQL store")
    }

    async fn raw(&self, sql: &'static str) -> Result<u64, String> {
        let pool = sqlx::PgPool::connect(&self.db.url)
            .await
            .map_err(|e| e.to_string())?;
        let result = sqlx::query(sql)
            .execute(&pool)
            .await
            .map(|r| r.rows_affected())
            .map_err(|e| e.to_string());
        pool.close().await;
        result
    }

    async fn migrate_until(&self, version: i64) -> Result<(), String> {
        let pool = sqlx::PgPool::connect(&self.db.url)
            .await
            .map_err(|e| e.to_string())?;
        let result = saikoro_bot::store::migrations_until(Backend::Postgres, version)
            .run(&pool)
            .await
            .map_err(|e| e.to_string());
        pool.close().await;
        result
    }
}

contract_tests!(Postgres::new().await);

#[tokio::test]
async fn a_url_means_postgres_and_writes_no_sqlite_file() {
    let h = Postgres::new().await;
    let store = h.open().await;
    assert_eq!(store.backend(), Backend::Postgres);
    assert!(!h.data_dir.path().join("saikoro.db").exists());
}

#[tokio::test]
async fn a_bad_url_is_an_error_without_the_password() {
    let err = connect(
        Some("postgres://u:hunter2@127.0.0.1:1/x?sslmode=bogus"),
        std::path::Path::new("."),
    )
    .await
    .err()
    .expect("must fail");
    assert!(!err.to_string().contains("hunter2"), "{err}");
}

/// Every state operation during an outage: `Unavailable`, quickly.
async fn assert_unavailable(store: &dyn Store, session_id: i64) {
    let started = Instant::now();
    let results = [
        store.active_session(CHAN).await.err(),
        store.update(CHAN, |s| s.join(4242)).await.err(),
        store.append_roll(&(&roll(session_id)).into()).await.err(),
        store
            .put_server_settings(GUILD, &ServerSettings::default())
            .await
            .err(),
        store.end_session(CHAN, Actor::user(GM), 9).await.err(),
    ];
    for r in results {
        assert!(matches!(r, Some(StoreError::Unavailable(_))), "{r:?}");
    }
    // Five operations, each bounded by the acquire timeout.
    assert!(
        started.elapsed() < ACQUIRE_TIMEOUT * 5 + Duration::from_secs(2),
        "took {:?}",
        started.elapsed()
    );
}

fn roll(session_id: i64) -> RollLogEntry {
    RollLogEntry {
        session_id,
        user_id: ALICE,
        command: "/roll 2d6".into(),
        outcome: json!({"total": 7}),
        at_ms: 1,
        user_name: Some("Alice".into()),
    }
}

/// Stop PostgreSQL mid-test: operations answer `Unavailable` quickly and write nothing; start
/// it again: the same store recovers by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn outage_and_recovery() {
    let server = tokio::task::spawn_blocking(PgServer::start)
        .await
        .expect("task")
        .unwrap_or_else(|e| panic!("the outage test starts its own PostgreSQL from initdb/pg_ctl: {e}"));
    let url = TestDb::on(&server).await;
    let store = connect(Some(&url), std::path::Path::new("."))
        .await
        .expect("connect");
    let before = contract::seeded(store.as_ref(), CHAN).await;
    store.append_roll(&(&roll(before.id)).into()).await.unwrap();

    let server = Arc::new(server);
    let s = server.clone();
    tokio::task::spawn_blocking(move || s.stop())
        .await
        .expect("task")
        .expect("pg_ctl stop");

    let one = Instant::now();
    let err = store.active_session(CHAN).await.unwrap_err();
    assert!(matches!(err, StoreError::Unavailable(_)), "{err:?}");
    assert!(
        one.elapsed() < ACQUIRE_TIMEOUT + Duration::from_secs(1),
        "one operation took {:?}",
        one.elapsed()
    );
    assert_unavailable(store.as_ref(), before.id).await;
    // Creating a session or a connect during the outage: also Unavailable, not a panic.
    let err = store
        .create_session(&contract::new_session(CHAN - 1, "x"))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Unavailable(_)), "{err:?}");
    let err = connect(Some(&url), std::path::Path::new("."))
        .await
        .err()
        .expect("down");
    assert!(matches!(err, StoreError::Unavailable(_)), "{err:?}");

    let s = server.clone();
    tokio::task::spawn_blocking(move || s.start_again())
        .await
        .expect("task")
        .expect("pg_ctl start");

    // The same store, untouched, works again; nothing from the outage was written.
    let after = store
        .active_session(CHAN)
        .await
        .expect("recovered")
        .expect("session");
    assert_eq!(after, before);
    assert_eq!(
        store.recent_rolls(before.id, 10).await.unwrap(),
        vec![roll(before.id)]
    );
    assert_eq!(store.server_settings(GUILD).await.unwrap(), None);
    let edited = store
        .update(CHAN, |s| {
            s.add_entry(Actor::user(GM), RosterEntry::new("Back", GM))
        })
        .await
        .expect("writes again");
    assert_eq!(edited.version, before.version + 1);
    store.close().await;
}

/// A session whose row stays locked by someone else: each attempt gives up after the lock
/// timeout, the store retries, then answers a clear `Conflict`, having written nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_locked_elsewhere_ends_in_conflict() {
    use engine::i18n::{Lang, Localized};
    use sqlx::Connection;

    let h = Postgres::new().await;
    let store = h.open().await;
    let before = contract::seeded(store.as_ref(), CHAN).await;
    let mut holder = sqlx::PgConnection::connect(&h.db.url).await.expect("connect");
    let mut tx = holder.begin().await.expect("begin");
    sqlx::query("SELECT id FROM sessions WHERE id = $1 FOR UPDATE")
        .bind(before.id)
        .execute(&mut *tx)
        .await
        .expect("lock");

    let started = Instant::now();
    let mut attempts = 0;
    let err = store
        .update(CHAN, |s| {
            attempts += 1;
            s.join(4242)
        })
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Conflict), "{err:?}");
    assert!(err.localized(Lang::En).contains("try again"));
    // Every attempt waited for the lock, timed out, and was retried.
    assert_eq!(attempts, 0, "the edit never ran: the lock was never granted");
    assert!(started.elapsed() >= Duration::from_secs(2 * saikoro_bot::store::UPDATE_ATTEMPTS as u64));

    tx.rollback().await.expect("release");
    assert_eq!(store.active_session(CHAN).await.unwrap(), Some(before.clone()));
    // Released: the same edit goes through.
    assert_eq!(
        store.update(CHAN, |s| s.join(4242)).await.unwrap().version,
        before.version + 1
    );
}

/// Several bot processes share one database: a change made through one is seen by the others'
/// caches within a second (the change feed), and the cache is live in both.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_change_through_one_process_is_seen_by_the_other_within_a_second() {
    let h = Postgres::new().await;
    let (a, b) = (h.open().await, h.open().await);
    contract::cache_live(a.as_ref()).await;
    contract::cache_live(b.as_ref()).await;
    // A reads (and keeps) all three; B changes each; A must see every change.
    assert_eq!(a.server_settings(GUILD).await.unwrap(), None);
    assert_eq!(a.channel_settings(CHAN).await.unwrap(), None);
    assert_eq!(a.active_session(CHAN).await.unwrap(), None);
    let hits = a
        .caches()
        .unwrap()
        .stats
        .hits
        .load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(a.server_settings(GUILD).await.unwrap(), None);
    assert!(
        a.caches()
            .unwrap()
            .stats
            .hits
            .load(std::sync::atomic::Ordering::Relaxed)
            > hits
    );

    let started = Instant::now();
    let mut gm_role = |s: &mut ServerSettings| {
        s.gm_role = Some(77);
        Ok(())
    };
    b.update_server_settings(GUILD, &mut gm_role).await.unwrap();
    let mut secret = |c: &mut engine::session::ChannelSettings| {
        c.visibility = engine::session::Visibility::Secret;
        Ok(())
    };
    b.update_channel_settings(GUILD, CHAN, &mut secret).await.unwrap();
    let s = contract::seeded(b.as_ref(), CHAN).await;
    let seen = async {
        loop {
            let server = a.server_settings(GUILD).await.unwrap();
            let channel = a.channel_settings(CHAN).await.unwrap();
            let session = a.active_session(CHAN).await.unwrap();
            if server.and_then(|x| x.gm_role) == Some(77)
                && channel.is_some_and(|c| c.visibility == engine::session::Visibility::Secret)
                && session.as_ref() == Some(&s)
            {
                return started.elapsed();
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    let took = tokio::time::timeout(Duration::from_secs(1), seen)
        .await
        .expect("the other process saw every change within a second");
    eprintln!("changes seen by the other process after {took:?}");

    // A later change to the session (B) replaces A's copy too, and ending it is seen.
    let joined = b.update(CHAN, |x| x.join(4242)).await.unwrap();
    let seen_join = async {
        while a.active_session(CHAN).await.unwrap().map(|x| x.version) != Some(joined.version) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(1), seen_join)
        .await
        .expect("update seen");
    b.end_session(CHAN, Actor::user(GM), 1_700_000_100_000)
        .await
        .unwrap();
    let seen_end = async {
        while a.active_session(CHAN).await.unwrap().is_some() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(1), seen_end)
        .await
        .expect("end seen");
}

/// Two processes editing one session at once, each starting from the copy it kept of its own
/// last save: no edit is lost (a kept copy the other process has overtaken fails its version
/// check and the edit reads the row), and both caches end on the last version.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_editing_one_session_lose_nothing() {
    let h = Postgres::new().await;
    let (a, b) = (h.open().await, h.open().await);
    contract::cache_live(a.as_ref()).await;
    contract::cache_live(b.as_ref()).await;
    let start = contract::seeded(a.as_ref(), CHAN).await;
    let edits = |store: Arc<dyn Store>, first: u64| async move {
        for n in 0..25 {
            store
                .update(CHAN, |s| s.join(first + n))
                .await
                .expect("edit lands");
        }
    };
    tokio::join!(edits(a.clone(), 10_000), edits(b.clone(), 20_000));
    let cold = h.open().await;
    let last = cold.active_session(CHAN).await.unwrap().expect("active");
    assert_eq!(last.version, start.version + 50);
    for n in 0..25 {
        assert!(last.players.contains(&(10_000 + n)) && last.players.contains(&(20_000 + n)));
    }
    let converged = async {
        for store in [&a, &b] {
            while store.active_session(CHAN).await.unwrap().as_ref() != Some(&last) {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(1), converged)
        .await
        .expect("both processes' caches reach the last version within a second");
}
