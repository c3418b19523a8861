//! Session update round trip (load, change, save in one transaction) on SQLite and PostgreSQL,
//! plus a plain load for comparison. PostgreSQL is found like the tests find it
//! (`TEST_DATABASE_URL`, `DATABASE_URL`, 127.0.0.1:5432, else a throwaway server), in a fresh
//! database dropped afterwards.
//!
//! Both stores are behind the read cache, as the bot has them. Statements per operation (one
//! network round trip each on PostgreSQL):
//! - update: BEGIN (IMMEDIATE on SQLite), SELECT id, version (FOR UPDATE on PostgreSQL),
//!   UPDATE … WHERE id AND version, COMMIT, starting from the session the store kept after its
//!   last save; the state is read (one SELECT more) only when another process wrote since. A
//!   connection idle for a second is pinged first.
//! - load: none while the cache keeps the session (PostgreSQL: once its change feed is up).

#[path = "../tests/bot/support/pg.rs"]
mod pg;

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use engine::session::{Actor, EntryEdit, RosterEntry, Session, SystemId};
use saikoro_bot::store::{Store, connect};
use serde_json::json;

const CHAN: u64 = 1_234_567_890_123;

async fn seed(store: &dyn Store) {
    let session = Session::start(1, CHAN, "Bench", SystemId::Shadowrun4, 7, 0).expect("session");
    store.create_session(&session).await.expect("create");
    store
        .update(CHAN, |s| {
            for p in 0..6 {
                s.join(100 + p)?;
                let sheet =
                    json!({"body": 4, "agility": 5, "edge": 3, "monitor": {"physical": 0, "stun": 0}});
                s.add_entry(
                    Actor::user(100 + p),
                    RosterEntry::new(format!("Runner {p}"), 100 + p).with_sheet(sheet),
                )?;
            }
            Ok(())
        })
        .await
        .expect("seed");
}

/// The change each iteration makes: one tracked value on one entry.
async fn round_trip(store: &dyn Store) {
    store
        .update(CHAN, |s| {
            let stun = s
                .entry("Runner 3")
                .map_or(0, |e| e.sheet["monitor"]["stun"].as_i64().unwrap_or(0));
            let mut sheet = s
                .entry("Runner 3")
                .map(|e| e.sheet.value().clone())
                .unwrap_or_default();
            sheet["monitor"]["stun"] = json!((stun + 1) % 10);
            s.edit_entry(
                Actor::user(7),
                "Runner 3",
                EntryEdit {
                    sheet: Some(sheet),
                    ..EntryEdit::default()
                },
            )
        })
        .await
        .expect("update");
}

fn bench_backend(c: &mut Criterion, rt: &tokio::runtime::Runtime, name: &str, store: Arc<dyn Store>) {
    rt.block_on(seed(store.as_ref()));
    let mut group = c.benchmark_group(format!("store/{name}"));
    group.bench_function("update_round_trip", |b| {
        b.to_async(rt).iter(|| round_trip(store.as_ref()))
    });
    group.bench_function("load_active", |b| {
        b.to_async(rt).iter(|| async {
            store.active_session(CHAN).await.expect("load").expect("active");
        })
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");

    let dir = tempfile::tempdir().expect("temp dir");
    let sqlite = rt.block_on(connect(None, dir.path())).expect("sqlite");
    bench_backend(c, &rt, "sqlite", sqlite.clone());
    rt.block_on(sqlite.close());

    let db = rt.block_on(pg::TestDb::create());
    let postgres = rt.block_on(connect(Some(&db.url), dir.path())).expect("postgres");
    bench_backend(c, &rt, "postgres", postgres.clone());
    rt.block_on(postgres.close());
    drop(db);
}

criterion_group!(store, benches);
criterion_main!(store);
