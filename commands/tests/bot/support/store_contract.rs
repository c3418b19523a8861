//! The behaviour every `Store` must have. Each function takes a [`Harness`] holding a fresh,
//! empty database; `contract_tests!` turns them into one `#[tokio::test]` each per backend.

use std::sync::Arc;
use std::time::Duration;

use engine::i18n::{Lang, Localized};
use engine::session::{
    Actor, ChannelSettings, EntryEdit, MAX_ENTRY_NAME_CHARS, RollLogEntry, RosterEntry, SecretRolls,
    ServerSettings, Session, SessionError, SystemId, Visibility,
};
use engine::systems::rules::NextGame;
use saikoro_bot::store::{JsonText, NewRoll, Store, StoreError};
use serde_json::json;

/// A fresh database for one test, on one backend.
pub trait Harness {
    /// A store on this test's database (again: a second call is a restart).
    async fn open(&self) -> Arc<dyn Store>;
    /// Runs raw SQL against the database, bypassing the store.
    async fn raw(&self, sql: &'static str) -> Result<u64, String>;
    /// Brings an empty database to the schema of migration `version` (an older release's).
    async fn migrate_until(&self, version: i64) -> Result<(), String>;
}

pub const GUILD: u64 = 900_000_000_000_000_001;
/// Above `i64::MAX`: snowflakes must survive the signed columns.
pub const CHAN: u64 = u64::MAX - 7;
pub const GM: u64 = 11;
pub const ALICE: u64 = 12;
pub const BOB: u64 = 13;

pub fn new_session(channel: u64, name: &str) -> Session {
    Session::start(GUILD, channel, name, SystemId::Shadowrun4, GM, 1_700_000_000_000).expect("valid session")
}

/// A stored session with two players and two entries.
pub async fn seeded(store: &dyn Store, channel: u64) -> Session {
    store
        .create_session(&new_session(channel, "Night Run"))
        .await
        .expect("create");
    store
        .update(channel, |s| {
            s.join(ALICE)?;
            s.join(BOB)?;
            s.add_entry(
                Actor::user(ALICE),
                RosterEntry::new("Ghost", ALICE).with_sheet(json!({"edge": 3})),
            )?;
            s.add_entry(Actor::user(GM), RosterEntry::new("Ganger", GM))
        })
        .await
        .map(Arc::unwrap_or_clone)
        .expect("seed")
}

/// [`roll`] as the bot writes it.
fn new_roll(session_id: i64, n: i64) -> saikoro_bot::store::NewRoll {
    saikoro_bot::store::NewRoll::from(&roll(session_id, n))
}

/// Odd rolls carry the roller's name as Discord gave it (Markdown and all, kept as is); even
/// ones none, as rows logged before names were kept.
fn roll(session_id: i64, n: i64) -> RollLogEntry {
    RollLogEntry {
        session_id,
        user_id: ALICE,
        command: format!("/sr test pool:{n}"),
        outcome: json!({"dice": [n, 5, 6], "hits": 2}),
        at_ms: 1_700_000_000_000 + n,
        user_name: (n % 2 == 1).then(|| format!("Ana *{n}* | 「忍」'; --")),
    }
}

pub async fn server_settings_round_trip(h: &impl Harness) {
    let store = h.open().await;
    assert_eq!(store.server_settings(GUILD).await.unwrap(), None);
    let mut settings = ServerSettings {
        language: Some(Lang::Ja),
        ..ServerSettings::default()
    };
    settings.enabled_systems.remove(&SystemId::Generic);
    settings.gm_role = Some(u64::MAX - 1);
    settings.secret_rolls = SecretRolls::GmChannel { channel: 77 };
    settings.house.insert("edge".into(), "reroll misses".into());
    store.put_server_settings(GUILD, &settings).await.unwrap();
    assert_eq!(
        store.server_settings(GUILD).await.unwrap(),
        Some(settings.clone())
    );
    assert_eq!(store.server_settings(GUILD + 1).await.unwrap(), None);

    // Put again: replaces.
    settings.language = None;
    store.put_server_settings(GUILD, &settings).await.unwrap();
    assert_eq!(
        store.server_settings(GUILD).await.unwrap(),
        Some(settings.clone())
    );

    // Invalid settings: refused, nothing written.
    let mut bad = settings.clone();
    bad.house.insert("x".into(), "y".repeat(1000));
    let err = store.put_server_settings(GUILD, &bad).await.unwrap_err();
    assert!(
        matches!(err, StoreError::Invalid(SessionError::HouseOptionTooLong { .. })),
        "{err:?}"
    );
    assert_eq!(store.server_settings(GUILD).await.unwrap(), Some(settings));
}

pub async fn channel_settings_round_trip(h: &impl Harness) {
    let store = h.open().await;
    assert_eq!(store.channel_settings(CHAN).await.unwrap(), None);
    let settings = ChannelSettings {
        system: Some(SystemId::MechaD20),
        visibility: Visibility::Secret,
    };
    store.put_channel_settings(GUILD, CHAN, &settings).await.unwrap();
    assert_eq!(store.channel_settings(CHAN).await.unwrap(), Some(settings));
    let other = ChannelSettings {
        system: None,
        visibility: Visibility::Public,
    };
    store.put_channel_settings(GUILD, CHAN, &other).await.unwrap();
    assert_eq!(store.channel_settings(CHAN).await.unwrap(), Some(other));
    assert_eq!(store.channel_settings(CHAN - 1).await.unwrap(), None);
}

pub async fn create_and_load(h: &impl Harness) {
    let store = h.open().await;
    assert!(store.active_session(CHAN).await.unwrap().is_none());
    let created = store
        .create_session(&new_session(CHAN, "Night Run"))
        .await
        .unwrap();
    assert!(created.id > 0);
    assert_eq!(created.version, 1);
    assert_eq!((created.guild_id, created.channel_id), (GUILD, CHAN));
    let loaded = store.active_session(CHAN).await.unwrap().expect("active");
    assert_eq!(loaded, created);
    assert_eq!(store.session(created.id).await.unwrap(), Some(created.clone()));
    assert_eq!(store.session(created.id + 1000).await.unwrap(), None);
    assert!(store.active_session(CHAN - 1).await.unwrap().is_none());
    // Another channel may have its own.
    let other = store
        .create_session(&new_session(CHAN - 1, "Side Quest"))
        .await
        .unwrap();
    assert_ne!(other.id, created.id);
}

pub async fn second_active_session_refused(h: &impl Harness) {
    let store = h.open().await;
    let first = store.create_session(&new_session(CHAN, "First")).await.unwrap();
    let err = store
        .create_session(&new_session(CHAN, "Second"))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::AlreadyActive), "{err:?}");
    assert_eq!(store.active_session(CHAN).await.unwrap(), Some(first));
    // Racing starts: exactly one wins, decided by the database.
    let racers: Vec<_> = (0..10)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .create_session(&new_session(CHAN - 1, &format!("Race {i}")))
                    .await
            })
        })
        .collect();
    let mut won = 0;
    for r in racers {
        match r.await.expect("task") {
            Ok(_) => won += 1,
            Err(StoreError::AlreadyActive) => {}
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    assert_eq!(won, 1);
    // Once ended, the channel is free again.
    store
        .end_session(CHAN, Actor::user(GM), 1_700_000_100_000)
        .await
        .unwrap();
    let again = store.create_session(&new_session(CHAN, "Second")).await.unwrap();
    assert_eq!(again.name, "Second");
}

pub async fn invalid_session_refused(h: &impl Harness) {
    let store = h.open().await;
    // The engine refuses an over-long name before the store is involved…
    let long = "x".repeat(101);
    assert!(Session::start(GUILD, CHAN, &long, SystemId::Terminator, GM, 0).is_err());
    // …and the store refuses one made by hand, writing nothing.
    let mut s = new_session(CHAN, "ok");
    s.name = long;
    let err = store.create_session(&s).await.unwrap_err();
    assert!(
        matches!(err, StoreError::Invalid(SessionError::NameTooLong { .. })),
        "{err:?}"
    );
    let mut ended = new_session(CHAN, "ok");
    ended.ended_at_ms = Some(5);
    assert!(matches!(
        store.create_session(&ended).await,
        Err(StoreError::Invalid(SessionError::Ended))
    ));
    assert!(store.active_session(CHAN).await.unwrap().is_none());
    assert!(store.ended_sessions(GUILD, 10).await.unwrap().is_empty());
}

pub async fn update_applies_and_bumps_version(h: &impl Harness) {
    let store = h.open().await;
    let seeded = seeded(store.as_ref(), CHAN).await;
    assert_eq!(seeded.version, 2);
    assert_eq!(seeded.players, vec![ALICE, BOB]);
    assert_eq!(seeded.roster.len(), 2);
    assert!(seeded.updated_at_ms >= seeded.created_at_ms);
    let edited = store
        .update(CHAN, |s| {
            s.edit_entry(
                Actor::user(ALICE),
                "ghost",
                EntryEdit {
                    sheet: Some(json!({"edge": 2})),
                    ..EntryEdit::default()
                },
            )?;
            s.set_turn_order(Actor::user(GM), &["Ganger", "Ghost"])?;
            s.advance_turn(Actor::user(GM))
        })
        .await
        .unwrap();
    assert_eq!(edited.version, 3);
    assert_eq!(edited.turn.current_name(), Some("Ghost"));
    let loaded = store.active_session(CHAN).await.unwrap().unwrap();
    assert_eq!(loaded, *edited);
    assert_eq!(loaded.entry("Ghost").unwrap().sheet, json!({"edge": 2}));
}

pub async fn refused_update_writes_nothing(h: &impl Harness) {
    let store = h.open().await;
    let before = seeded(store.as_ref(), CHAN).await;

    let long = "n".repeat(MAX_ENTRY_NAME_CHARS + 1);
    let err = store
        .update(CHAN, |s| {
            s.add_entry(Actor::user(BOB), RosterEntry::new(long.clone(), BOB))
        })
        .await;
    assert!(
        matches!(
            err,
            Err(StoreError::Invalid(SessionError::EntryNameTooLong { .. }))
        ),
        "{err:?}"
    );
    assert_eq!(store.active_session(CHAN).await.unwrap().as_ref(), Some(&before));

    let err = store
        .update(CHAN, |s| {
            s.edit_entry(Actor::user(GM), "Nobody", EntryEdit::default())
        })
        .await
        .unwrap_err();
    assert!(
        matches!(&err, StoreError::Invalid(SessionError::UnknownEntry { name }) if name == "Nobody"),
        "{err:?}"
    );
    // The user sees the engine's sentence.
    assert!(err.localized(Lang::En).contains("Nobody"));
    assert_eq!(store.active_session(CHAN).await.unwrap().as_ref(), Some(&before));

    // A change followed by a refusal in the same edit: the change is not kept either.
    let err = store
        .update(CHAN, |s| {
            s.join(77)?;
            s.leave(78)
        })
        .await
        .unwrap_err();
    assert!(
        matches!(err, StoreError::Invalid(SessionError::NotAPlayer)),
        "{err:?}"
    );
    assert_eq!(store.active_session(CHAN).await.unwrap().as_ref(), Some(&before));

    // Permission: a player cannot end the session.
    let err = store.end_session(CHAN, Actor::user(ALICE), 5).await.unwrap_err();
    assert!(matches!(err, StoreError::Invalid(SessionError::NotGm)), "{err:?}");
    assert_eq!(store.active_session(CHAN).await.unwrap().as_ref(), Some(&before));
}

pub async fn noop_and_identity(h: &impl Harness) {
    let store = h.open().await;
    let before = seeded(store.as_ref(), CHAN).await;
    // An edit that changes nothing is not written.
    let same = store.update(CHAN, |_| Ok(())).await.unwrap();
    assert_eq!(*same, before);
    assert_eq!(
        store.active_session(CHAN).await.unwrap().unwrap().version,
        before.version
    );
    // Identity and version belong to the store.
    let after = store
        .update(CHAN, |s| {
            s.id = 999_999;
            s.channel_id = 5;
            s.guild_id = 6;
            s.version = 1000;
            s.name = "Renamed".into();
            Ok(())
        })
        .await
        .unwrap();
    assert_eq!(
        (after.id, after.channel_id, after.guild_id),
        (before.id, CHAN, GUILD)
    );
    assert_eq!(after.version, before.version + 1);
    assert_eq!(store.active_session(CHAN).await.unwrap().unwrap(), *after);
    assert!(store.active_session(5).await.unwrap().is_none());
}

pub async fn update_without_session(h: &impl Harness) {
    let store = h.open().await;
    let err = store.update(CHAN, |s| s.join(ALICE)).await.unwrap_err();
    assert!(matches!(err, StoreError::NotFound), "{err:?}");
    let err = store.end_session(CHAN, Actor::user(GM), 0).await.unwrap_err();
    assert!(matches!(err, StoreError::NotFound), "{err:?}");
}

pub async fn end_keeps_history(h: &impl Harness) {
    let store = h.open().await;
    let s = seeded(store.as_ref(), CHAN).await;
    store.append_roll(&new_roll(s.id, 1)).await.unwrap();
    let ended = store
        .end_session(CHAN, Actor::manager(999), 1_700_000_500_000)
        .await
        .unwrap();
    assert!(!ended.is_active());
    assert_eq!(ended.version, s.version + 1);
    assert!(store.active_session(CHAN).await.unwrap().is_none());
    assert_eq!(store.session(s.id).await.unwrap(), Some((*ended).clone()));
    assert_eq!(
        store.ended_sessions(GUILD, 10).await.unwrap(),
        vec![(*ended).clone()]
    );
    // Ended sessions are read-only: no updates, no new rolls; the log stays.
    assert!(matches!(
        store.update(CHAN, |s| s.join(99)).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store.append_roll(&new_roll(s.id, 2)).await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(store.recent_rolls(s.id, 10).await.unwrap(), vec![roll(s.id, 1)]);
}

pub async fn ended_sessions_order_limit_and_guild(h: &impl Harness) {
    let store = h.open().await;
    for (i, name) in ["One", "Two", "Three"].into_iter().enumerate() {
        store.create_session(&new_session(CHAN, name)).await.unwrap();
        store
            .end_session(CHAN, Actor::user(GM), 1_700_000_000_000 + i as i64)
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let mut other = new_session(CHAN, "Elsewhere");
    other.guild_id = GUILD + 1;
    store.create_session(&other).await.unwrap();
    store.end_session(CHAN, Actor::user(GM), 1).await.unwrap();

    let names = |v: Vec<Session>| v.into_iter().map(|s| s.name).collect::<Vec<_>>();
    assert_eq!(
        names(store.ended_sessions(GUILD, 10).await.unwrap()),
        ["Three", "Two", "One"]
    );
    assert_eq!(
        names(store.ended_sessions(GUILD, 2).await.unwrap()),
        ["Three", "Two"]
    );
    assert_eq!(
        names(store.ended_sessions(GUILD + 1, 10).await.unwrap()),
        ["Elsewhere"]
    );
    assert!(store.ended_sessions(GUILD + 2, 10).await.unwrap().is_empty());
}

pub async fn roll_log_and_export(h: &impl Harness) {
    let store = h.open().await;
    let s = seeded(store.as_ref(), CHAN).await;
    for n in 1..=5 {
        store.append_roll(&new_roll(s.id, n)).await.unwrap();
    }
    assert_eq!(
        store.recent_rolls(s.id, 2).await.unwrap(),
        vec![roll(s.id, 4), roll(s.id, 5)]
    );
    assert_eq!(store.recent_rolls(s.id, 100).await.unwrap().len(), 5);
    assert!(store.recent_rolls(s.id, 0).await.unwrap().is_empty());
    assert!(store.recent_rolls(s.id + 1000, 10).await.unwrap().is_empty());
    let err = store.append_roll(&new_roll(s.id + 1000, 1)).await.unwrap_err();
    assert!(matches!(err, StoreError::NotFound), "{err:?}");

    let export = store.export_session(s.id).await.unwrap();
    assert_eq!(export.session, s);
    assert_eq!(export.log, (1..=5).map(|n| roll(s.id, n)).collect::<Vec<_>>());
    // The export is plain JSON that reads back identically.
    let text = serde_json::to_string(&export).unwrap();
    let back: engine::session::SessionExport = serde_json::from_str(&text).unwrap();
    assert_eq!(back, export);
    assert!(matches!(
        store.export_session(s.id + 1000).await,
        Err(StoreError::NotFound)
    ));

    // Ended: still exportable, with the whole log.
    let ended = store
        .end_session(CHAN, Actor::user(GM), 1_800_000_000_000)
        .await
        .unwrap();
    let export = store.export_session(s.id).await.unwrap();
    assert_eq!(export.session, *ended);
    assert_eq!(export.log.len(), 5);
}

/// Exports read a bounded page of the log with its total, oldest first, ended sessions too.
pub async fn export_pages(h: &impl Harness) {
    let store = h.open().await;
    let s = seeded(store.as_ref(), CHAN).await;
    for n in 1..=7 {
        store.append_roll(&new_roll(s.id, n)).await.unwrap();
    }
    let page = store.export_page(s.id, 2, 3).await.unwrap();
    assert_eq!(page.total_rolls, 7);
    assert_eq!(page.offset, 2);
    assert_eq!(
        page.export.log,
        (3..=5).map(|n| roll(s.id, n)).collect::<Vec<_>>()
    );
    let tail = store.export_page(s.id, 5, 100).await.unwrap();
    assert_eq!(tail.export.log, vec![roll(s.id, 6), roll(s.id, 7)]);
    assert!(
        store
            .export_page(s.id, 7, 100)
            .await
            .unwrap()
            .export
            .log
            .is_empty()
    );
    store
        .end_session(CHAN, Actor::user(GM), 1_800_000_000_000)
        .await
        .unwrap();
    let ended = store.export_page(s.id, 0, 1).await.unwrap();
    assert!(!ended.export.session.is_active());
    assert_eq!(ended.export.log, vec![roll(s.id, 1)]);
    assert!(matches!(
        store.export_page(s.id + 1000, 0, 1).await,
        Err(StoreError::NotFound)
    ));
}

/// A streamed page: its head first (with each roller's last name on the page when asked),
/// then its rows in order, and a `Break` reads no further; the head is returned too.
pub async fn a_streamed_page_hands_its_head_then_its_rows(h: &impl Harness) {
    use saikoro_bot::store::{LogScope, PageItem};
    use std::ops::ControlFlow;
    let store = h.open().await;
    let s = seeded(store.as_ref(), CHAN).await;
    for n in 1..=7 {
        store.append_roll(&new_roll(s.id, n)).await.unwrap();
    }
    let mut seen = Vec::new();
    let head = store
        .stream_page(LogScope::Evening(s.id), 1, 5, true, &mut |item| {
            match item {
                PageItem::Head(head) => seen.push(format!("head {} {:?}", head.total_rolls, head.names)),
                PageItem::Row(row) => seen.push(row.command),
            }
            ControlFlow::Continue(())
        })
        .await
        .unwrap();
    // Rolls 2 to 6: the last named one on the page is 5 (even rolls keep no name).
    let names = format!(
        "{:?}",
        std::collections::BTreeMap::from([(ALICE, "Ana *5* | 「忍」'; --".to_string())])
    );
    assert_eq!(
        seen,
        [
            format!("head 7 {names}"),
            "/sr test pool:2".into(),
            "/sr test pool:3".into(),
            "/sr test pool:4".into(),
            "/sr test pool:5".into(),
            "/sr test pool:6".into(),
        ]
    );
    assert_eq!((head.offset, head.total_rolls, head.session.id), (1, 7, s.id));
    // Names only when asked; a Break after two rows reads no third.
    let mut rows = 0;
    let head = store
        .stream_page(LogScope::Evening(s.id), 0, 100, false, &mut |item| {
            if let PageItem::Row(_) = item {
                rows += 1;
                if rows == 2 {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        })
        .await
        .unwrap();
    assert_eq!((rows, head.names.len()), (2, 0));
    assert!(matches!(
        store
            .stream_page(LogScope::Evening(s.id + 1000), 0, 1, false, &mut |_| {
                ControlFlow::Continue(())
            })
            .await,
        Err(StoreError::NotFound)
    ));
}

/// Two admins changing different channel settings at once: both changes land.
pub async fn concurrent_channel_settings_edits_all_land(h: &impl Harness) {
    let store = h.open().await;
    let mut tasks = Vec::new();
    for i in 0..10u64 {
        for which in 0..2 {
            let s = store.clone();
            tasks.push(tokio::spawn(async move {
                let mut edit = |c: &mut ChannelSettings| {
                    if which == 0 {
                        c.system = Some(SystemId::Shadowrun4);
                    } else {
                        c.visibility = Visibility::Secret;
                    }
                    Ok(())
                };
                s.update_channel_settings(GUILD, CHAN - 1 - i, &mut edit).await
            }));
        }
    }
    for t in tasks {
        t.await.unwrap().expect("edit");
    }
    for i in 0..10u64 {
        let c = store.channel_settings(CHAN - 1 - i).await.unwrap().unwrap();
        assert_eq!(c.system, Some(SystemId::Shadowrun4));
        assert_eq!(c.visibility, Visibility::Secret);
    }
}

pub async fn roll_log_is_append_only(h: &impl Harness) {
    let store = h.open().await;
    let s = seeded(store.as_ref(), CHAN).await;
    store.append_roll(&new_roll(s.id, 1)).await.unwrap();
    assert!(h.raw("UPDATE roll_log SET command = 'forged'").await.is_err());
    assert!(h.raw("DELETE FROM roll_log").await.is_err());
    assert_eq!(store.recent_rolls(s.id, 10).await.unwrap(), vec![roll(s.id, 1)]);
}

/// 50 concurrent edits of one session: every one is applied, none lost.
pub async fn fifty_concurrent_edits(h: &impl Harness) {
    let store = h.open().await;
    let start = seeded(store.as_ref(), CHAN).await;
    let tasks: Vec<_> = (0..50u64)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .update(CHAN, move |s| {
                        s.join(1000 + i)?;
                        let ghost = s.entry("Ghost").map(|e| e.sheet.clone()).unwrap_or_default();
                        let count = ghost["count"].as_i64().unwrap_or(0);
                        let edit = EntryEdit {
                            sheet: Some(json!({"edge": 3, "count": count + 1})),
                            ..EntryEdit::default()
                        };
                        s.edit_entry(Actor::user(GM), "Ghost", edit)
                    })
                    .await
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("task").expect("every edit applies");
    }
    let end = store.active_session(CHAN).await.unwrap().unwrap();
    assert_eq!(end.version, start.version + 50);
    assert_eq!(end.players.len(), 2 + 50);
    assert_eq!(end.entry("Ghost").unwrap().sheet["count"], json!(50));
}

/// Stop the store, open a new one on the same database: everything is there.
pub async fn survives_restart(h: &impl Harness) {
    let store = h.open().await;
    let settings = ServerSettings {
        gm_role: Some(42),
        ..ServerSettings::default()
    };
    store.put_server_settings(GUILD, &settings).await.unwrap();
    let channel = ChannelSettings {
        system: Some(SystemId::BadlandsRally),
        visibility: Visibility::Public,
    };
    store.put_channel_settings(GUILD, CHAN, &channel).await.unwrap();
    let s = seeded(store.as_ref(), CHAN).await;
    store.append_roll(&new_roll(s.id, 1)).await.unwrap();
    store.create_session(&new_session(CHAN - 1, "Old")).await.unwrap();
    let old = store.end_session(CHAN - 1, Actor::user(GM), 2).await.unwrap();
    store.close().await;
    drop(store);

    let store = h.open().await;
    assert_eq!(store.server_settings(GUILD).await.unwrap(), Some(settings));
    assert_eq!(store.channel_settings(CHAN).await.unwrap(), Some(channel));
    assert_eq!(store.active_session(CHAN).await.unwrap(), Some(s.clone()));
    assert_eq!(store.recent_rolls(s.id, 10).await.unwrap(), vec![roll(s.id, 1)]);
    assert_eq!(
        store.ended_sessions(GUILD, 10).await.unwrap(),
        vec![(*old).clone()]
    );
    // And it keeps working: the partial unique index and versions carried over.
    assert!(matches!(
        store.create_session(&new_session(CHAN, "Dup")).await,
        Err(StoreError::AlreadyActive)
    ));
    assert_eq!(
        store.update(CHAN, |s| s.join(55)).await.unwrap().version,
        s.version + 1
    );
}

/// Twenty admins changing different settings at once: every change lands; a refused one
/// writes nothing (not even the default row).
pub async fn concurrent_settings_edits_all_land(h: &impl Harness) {
    let store = h.open().await;
    let mut tasks = Vec::new();
    for i in 0..20 {
        let s = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut edit = move |x: &mut ServerSettings| {
                x.house.insert(format!("k{i}"), i.to_string());
                Ok(())
            };
            s.update_server_settings(5, &mut edit).await
        }));
    }
    for t in tasks {
        t.await.expect("task").expect("update");
    }
    let saved = store.server_settings(5).await.unwrap().expect("saved");
    assert_eq!(saved.house.len(), 20, "{:?}", saved.house);
    let mut refuse = |_: &mut ServerSettings| Err(SessionError::NotGm);
    assert!(store.update_server_settings(6, &mut refuse).await.is_err());
    assert_eq!(store.server_settings(6).await.unwrap(), None);
    let mut tasks = Vec::new();
    for i in 0..2u64 {
        let s = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut edit = move |c: &mut ChannelSettings| {
                if i == 0 {
                    c.system = Some(SystemId::Generic);
                } else {
                    c.visibility = Visibility::Secret;
                }
                Ok(())
            };
            s.update_channel_settings(5, 50, &mut edit).await
        }));
    }
    for t in tasks {
        t.await.expect("task").expect("update");
    }
    let ch = store.channel_settings(50).await.unwrap().expect("saved");
    assert_eq!(
        (ch.system, ch.visibility),
        (Some(SystemId::Generic), Visibility::Secret)
    );
}

/// The last rolls as the log reads them: rows before summaries whole; a summarized row light
/// (its summaries, hidden mark and luck; the rest of its outcome not read).
pub async fn recent_lines_read_as_the_log_shows_them(h: &impl Harness) {
    let store = h.open().await;
    let s = seeded(store.as_ref(), CHAN).await;
    for n in 1..=5 {
        store.append_roll(&new_roll(s.id, n)).await.unwrap();
    }
    assert_eq!(
        store.recent_lines(s.id, 2).await.unwrap(),
        vec![roll(s.id, 4), roll(s.id, 5)]
    );
    let mut summarized = roll(s.id, 6);
    summarized.outcome = json!({"dice": [6, 5], "hits": 2, "hidden": "secret",
        "summary": {"en": "2 hits", "ja": "2ヒット"},
        "luck": {"roll": {"kind": "notation", "expression": "2d6"}, "observed": 11}});
    store
        .append_roll(&saikoro_bot::store::NewRoll::from(&summarized))
        .await
        .unwrap();
    let lines = store.recent_lines(s.id, 2).await.unwrap();
    let mut light = summarized.clone();
    light.outcome = json!({"hidden": "secret", "summary": {"en": "2 hits", "ja": "2ヒット"},
        "luck": {"roll": {"kind": "notation", "expression": "2d6"}, "observed": 11}});
    assert_eq!(lines, vec![roll(s.id, 5), light]);
    assert_eq!(store.recent_rolls(s.id, 1).await.unwrap(), vec![summarized]);
}

/// Button state: created, read, used exactly once (even when raced), released on failure.
pub async fn actions_are_used_once(h: &impl Harness) {
    use saikoro_bot::store::NewAction;
    let store = h.open().await;
    let new = NewAction {
        kind: "reveal".into(),
        guild: Some(7),
        channel: 9,
        owner: 42,
        payload: serde_json::json!({ "total": 12 }).into(),
    };
    let id = store.create_action(&new).await.expect("create");
    let read = store.action(id).await.expect("read").expect("exists");
    assert_eq!(
        (read.kind.as_str(), read.guild, read.channel, read.owner),
        ("reveal", Some(7), 9, 42)
    );
    assert_eq!(read.payload["total"], 12);
    assert_eq!(read.used_at_ms, None);
    // Ten racing presses: exactly one wins.
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let s = store.clone();
        tasks.push(tokio::spawn(async move { s.use_action(id).await }));
    }
    let mut won = 0;
    for t in tasks {
        match t.await.expect("task") {
            Ok(a) => {
                won += 1;
                assert!(a.used_at_ms.is_some());
            }
            Err(StoreError::AlreadyUsed) => {}
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    assert_eq!(won, 1);
    store.release_action(id).await.expect("release");
    assert!(
        store.use_action(id).await.is_ok(),
        "a released action can be used again"
    );
    assert!(matches!(
        store.use_action(id + 1000).await,
        Err(StoreError::NotFound)
    ));
    // Survives a restart.
    drop(store);
    let again = h.open().await;
    assert!(matches!(again.use_action(id).await, Err(StoreError::AlreadyUsed)));
}

/// A press is checked as it uses the action: the owner's lands, a second is refused as used,
/// a press from another channel or server or by someone else changes nothing and says why, the
/// GM may press for the owner except the owner-only kind. The store's one-statement check and
/// the trait's default (read, check, use; through a wrapper that does not override it) agree.
pub async fn presses_are_checked_as_they_use_the_action(h: &impl Harness) {
    let store = h.open().await;
    check_presses(&*store).await;
    let wrapped = super::harness::FlakyStore::new(store.clone());
    check_presses(&wrapped).await;
}

async fn check_presses(store: &dyn Store) {
    use saikoro_bot::store::{NewAction, Pressed, Presser};
    let new = |kind: &str, guild: Option<u64>| NewAction {
        kind: kind.into(),
        guild,
        channel: 9,
        owner: 42,
        payload: json!({ "n": 1 }).into(),
    };
    let who = |user: u64, channel: u64, guild: Option<u64>, gm: bool| Presser {
        user,
        channel,
        guild,
        gm,
        owner_only: "reveal",
    };
    let damage = store
        .create_action(&new("wm.damage", Some(7)))
        .await
        .expect("create");
    // Refusals leave the action unused.
    for (presser, refused) in [
        (who(42, 10, Some(7), false), Pressed::Elsewhere),
        (who(42, 9, Some(8), false), Pressed::Elsewhere),
        (who(42, 9, None, false), Pressed::Elsewhere),
        (who(43, 9, Some(7), false), Pressed::NotYours { owner: 42 }),
    ] {
        assert_eq!(
            store.press_action(damage, presser).await.expect("answer"),
            refused
        );
        let a = store.action(damage).await.expect("read").expect("exists");
        assert_eq!(a.used_at_ms, None, "{presser:?} changed nothing");
    }
    // The GM presses for the owner; the second press finds it used.
    match store.press_action(damage, who(43, 9, Some(7), true)).await {
        Ok(Pressed::Used(a)) => assert_eq!((a.id, a.owner, a.kind.as_str()), (damage, 42, "wm.damage")),
        other => panic!("the GM's press: {other:?}"),
    }
    assert!(store.action(damage).await.unwrap().unwrap().used_at_ms.is_some());
    assert!(matches!(
        store.press_action(damage, who(42, 9, Some(7), false)).await,
        Err(StoreError::AlreadyUsed)
    ));
    // The owner-only kind: not even the GM; its owner may. A DM's action (no guild) too.
    let reveal = store.create_action(&new("reveal", None)).await.expect("create");
    assert_eq!(
        store
            .press_action(reveal, who(43, 9, None, true))
            .await
            .expect("answer"),
        Pressed::NotYours { owner: 42 }
    );
    assert!(matches!(
        store.press_action(reveal, who(42, 9, None, false)).await,
        Ok(Pressed::Used(_))
    ));
    assert_eq!(
        store
            .press_action(reveal + 1000, who(42, 9, None, false))
            .await
            .expect("answer"),
        Pressed::Gone
    );
}

/// Waits (at most 5 s) until the store's read cache is in use: PostgreSQL's only once its
/// change feed is connected.
pub async fn cache_live(store: &dyn Store) -> &saikoro_bot::store::Caches {
    let caches = store.caches().expect("every connected store has a read cache");
    let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !caches.is_live() {
        assert!(std::time::Instant::now() < until, "the cache never went live");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    caches
}

/// A command's button actions and its log row, written together.
pub async fn one_command_records_at_once(h: &impl Harness) {
    use saikoro_bot::store::NewAction;
    let store = h.open().await;
    let s = seeded(store.as_ref(), CHAN).await;
    let action = |kind: &str, owner: u64| NewAction {
        kind: kind.into(),
        guild: Some(GUILD),
        channel: CHAN,
        owner,
        payload: json!({ "kind": kind }).into(),
    };
    let actions = [
        action("sr.second_chance", ALICE),
        action("sr.edge_dice", ALICE),
        action("reveal", BOB),
    ];
    let done = store
        .record(&actions, Some(&new_roll(s.id, 1)))
        .await
        .expect("record");
    assert!(done.logged);
    assert_eq!(done.action_ids.len(), 3);
    for (id, a) in done.action_ids.iter().zip(&actions) {
        let stored = store.action(*id).await.unwrap().expect("stored");
        assert_eq!(
            (stored.kind.as_str(), stored.owner, &stored.payload),
            (a.kind.as_str(), a.owner, &a.payload.to_value())
        );
    }
    assert_eq!(store.recent_rolls(s.id, 10).await.unwrap(), vec![roll(s.id, 1)]);
    // Buttons that share their data (a roll's Edge buttons) with one that does not in between:
    // each stored with its own kind and its own data, in order.
    let shared = json!({ "roll": [5, 2, 6], "character": "Ana" });
    let mixed = [
        NewAction {
            payload: shared.clone().into(),
            ..action("sr.second_chance", ALICE)
        },
        NewAction {
            payload: shared.clone().into(),
            ..action("sr.edge_dice", ALICE)
        },
        action("reveal", BOB),
        NewAction {
            payload: shared.clone().into(),
            ..action("sr.burn_edge", ALICE)
        },
    ];
    let ids = store.record(&mixed, None).await.unwrap().action_ids;
    assert_eq!(ids.len(), 4);
    for (id, a) in ids.iter().zip(&mixed) {
        let stored = store.action(*id).await.unwrap().expect("stored");
        assert_eq!(
            (stored.kind.as_str(), &stored.payload),
            (a.kind.as_str(), &a.payload.to_value())
        );
    }
    // Only a roll; only actions; nothing.
    assert_eq!(
        store
            .record(&[], Some(&new_roll(s.id, 2)))
            .await
            .unwrap()
            .action_ids,
        Vec::<i64>::new()
    );
    let only = store.record(&actions[..1], None).await.unwrap();
    assert!(!only.logged);
    assert_eq!(only.action_ids.len(), 1);
    assert!(only.action_ids[0] > done.action_ids[2]);
    let nothing = store.record(&[], None).await.unwrap();
    assert!(!nothing.logged && nothing.action_ids.is_empty());
    // An ended session's log takes nothing more; the buttons are still made.
    store
        .end_session(CHAN, Actor::user(GM), 1_700_000_100_000)
        .await
        .unwrap();
    let late = store
        .record(&actions[..2], Some(&new_roll(s.id, 3)))
        .await
        .unwrap();
    assert!(!late.logged);
    assert_eq!(late.action_ids.len(), 2);
    assert_eq!(
        store.recent_rolls(s.id, 10).await.unwrap(),
        vec![roll(s.id, 1), roll(s.id, 2)]
    );
}

/// The read cache serves repeated reads and never hides a write made through the store.
pub async fn cached_reads_follow_every_write(h: &impl Harness) {
    let store = h.open().await;
    let caches = cache_live(store.as_ref()).await;
    let hits = || caches.stats.hits.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(store.server_settings(GUILD).await.unwrap(), None);
    let before = hits();
    assert_eq!(store.server_settings(GUILD).await.unwrap(), None);
    assert_eq!(hits(), before + 1, "a repeated read is served from the cache");
    let mut lang = |s: &mut ServerSettings| {
        s.language = Some(engine::i18n::Lang::Ja);
        Ok(())
    };
    store.update_server_settings(GUILD, &mut lang).await.unwrap();
    assert_eq!(
        store.server_settings(GUILD).await.unwrap().unwrap().language,
        Some(engine::i18n::Lang::Ja)
    );

    assert_eq!(store.channel_settings(CHAN).await.unwrap(), None);
    let mut secret = |c: &mut ChannelSettings| {
        c.visibility = Visibility::Secret;
        Ok(())
    };
    store
        .update_channel_settings(GUILD, CHAN, &mut secret)
        .await
        .unwrap();
    assert_eq!(
        store.channel_settings(CHAN).await.unwrap().unwrap().visibility,
        Visibility::Secret
    );

    assert_eq!(store.active_session(CHAN).await.unwrap(), None);
    let s = seeded(store.as_ref(), CHAN).await;
    assert_eq!(store.active_session(CHAN).await.unwrap(), Some(s.clone()));
    let joined = store.update(CHAN, |s| s.join(4242)).await.unwrap();
    assert_eq!(store.active_session(CHAN).await.unwrap(), Some((*joined).clone()));
    store
        .end_session(CHAN, Actor::user(GM), 1_700_000_100_000)
        .await
        .unwrap();
    assert_eq!(store.active_session(CHAN).await.unwrap(), None);
}

/// A session this store saved is kept as saved: the next read is served without the database,
/// and is exactly what the database holds (a store with a cold cache reads the same). The next
/// edit starts from the kept copy and lands on the right version; a refused edit keeps it.
pub async fn a_saved_session_is_kept_as_the_database_has_it(h: &impl Harness) {
    let store = h.open().await;
    let caches = cache_live(store.as_ref()).await;
    let misses = || caches.stats.misses.load(std::sync::atomic::Ordering::Relaxed);
    let s = seeded(store.as_ref(), CHAN).await;
    let joined = store.update(CHAN, |s| s.join(4242)).await.unwrap();
    assert_eq!(joined.version, s.version + 1);
    let before = misses();
    let read = store.active_session(CHAN).await.unwrap().expect("active");
    assert_eq!(misses(), before, "the saved session was kept, not read again");
    assert_eq!(read, *joined);
    let cold = h.open().await;
    assert_eq!(cold.active_session(CHAN).await.unwrap(), Some(read.clone()));

    // The next edits start from the kept copy.
    let again = store.update(CHAN, |s| s.join(4343)).await.unwrap();
    assert_eq!(again.version, joined.version + 1);
    assert_eq!(again.players[again.players.len() - 2..], [4242, 4343]);
    let refused = store.update(CHAN, |s| s.join(4343)).await;
    assert!(matches!(refused, Err(StoreError::Invalid(_))), "{refused:?}");
    let before = misses();
    assert_eq!(store.active_session(CHAN).await.unwrap(), Some((*again).clone()));
    assert_eq!(misses(), before, "a refused edit keeps the copy");
    let cold = h.open().await;
    assert_eq!(cold.active_session(CHAN).await.unwrap(), Some((*again).clone()));

    // A change made behind the cache's back (SQLite has no feed; on PostgreSQL the
    // announcement may come later) is not overwritten: the kept copy's version no longer
    // matches, and the edit reads the row.
    let bumped = h
        .raw("UPDATE sessions SET version = version + 1 WHERE ended_at_ms IS NULL")
        .await
        .unwrap();
    assert_eq!(bumped, 1);
    let third = store.update(CHAN, |s| s.join(4444)).await.unwrap();
    assert_eq!(third.version, again.version + 2);
    assert_eq!(third.players[third.players.len() - 3..], [4242, 4343, 4444]);
    let cold = h.open().await;
    assert_eq!(cold.active_session(CHAN).await.unwrap(), Some((*third).clone()));

    // Ended behind the cache's back: the kept copy is not saved over the ended row, and the
    // edit finds no session (the write from the kept copy lands only on an active row).
    let ended = h
        .raw("UPDATE sessions SET ended_at_ms = 1700000200000 WHERE ended_at_ms IS NULL")
        .await
        .unwrap();
    assert_eq!(ended, 1);
    let late = store.update(CHAN, |s| s.join(4545)).await;
    assert!(matches!(late, Err(StoreError::NotFound)), "{late:?}");
    let archived = h.open().await.session(third.id).await.unwrap().expect("kept");
    assert_eq!(
        archived.version, third.version,
        "nothing saved over the ended row"
    );
    assert!(!archived.players.contains(&4545));
}

/// A page of the running evening is headed by its session as saved: the copy this process
/// keeps when it is the version the page's snapshot sees, the row otherwise (a change made
/// behind the process's back is never hidden by the kept copy).
pub async fn a_page_is_headed_by_the_session_as_saved(h: &impl Harness) {
    use saikoro_bot::store::LogScope;
    let store = h.open().await;
    cache_live(store.as_ref()).await;
    let head_of = |store: Arc<dyn Store>, id: i64| async move {
        store
            .stream_page(LogScope::Evening(id), 0, 10, false, &mut |_| {
                std::ops::ControlFlow::Continue(())
            })
            .await
            .unwrap()
            .session
            .as_ref()
            .clone()
    };
    let s = seeded(store.as_ref(), CHAN).await;
    let saved = store.update(CHAN, |s| s.join(4242)).await.unwrap();
    assert_eq!(head_of(store.clone(), s.id).await, *saved);
    assert_eq!(
        head_of(h.open().await, s.id).await,
        *saved,
        "read from the row alike"
    );
    let campaign = store
        .stream_page(LogScope::Campaign(saved.campaign()), 0, 10, false, &mut |_| {
            std::ops::ControlFlow::Continue(())
        })
        .await
        .unwrap();
    assert_eq!(*campaign.session, *saved);
    let bumped = h
        .raw("UPDATE sessions SET version = version + 1 WHERE ended_at_ms IS NULL")
        .await
        .unwrap();
    assert_eq!(bumped, 1);
    let head = head_of(store.clone(), s.id).await;
    assert_eq!(
        head.version,
        saved.version + 1,
        "the row's version, not the kept copy's"
    );
    assert_eq!(head.players, saved.players);
}

/// Text that means something to SQL (quotes, backslashes, dollar quotes, a statement's end)
/// and text beyond ASCII is saved and read back as written, in the session's columns and its
/// state (PostgreSQL writes sessions with their values in the statement's text).
pub async fn text_that_means_something_to_sql_is_saved_as_written(h: &impl Harness) {
    let store = h.open().await;
    seeded(store.as_ref(), CHAN).await;
    let tricky = r#"O'Brien's \ $$x$$ ''); DROP TABLE sessions; -- 夜の'街' "q" \n"#;
    let saved = store
        .update(CHAN, |s| {
            s.name = tricky.to_string();
            s.add_entry(Actor::user(GM), RosterEntry::new("Mc'Kay \\$$", GM))?;
            s.names.insert(4242, tricky.to_string());
            Ok(())
        })
        .await
        .unwrap();
    assert_eq!(saved.name, tricky);
    let cold = h.open().await;
    let read = cold.active_session(CHAN).await.unwrap().expect("active");
    assert_eq!(read, *saved);
    assert_eq!(read.name, tricky);
    assert_eq!(read.names.get(&4242).map(String::as_str), Some(tricky));
    assert!(read.entry("Mc'Kay \\$$").is_some(), "{:?}", read.roster);
    // Text PostgreSQL cannot hold (NUL) is refused there and changes nothing; a backend that
    // takes it reads it back.
    let nul = store
        .update(CHAN, |s| {
            s.name = "nul\u{0}x".to_string();
            Ok(())
        })
        .await;
    let after = h
        .open()
        .await
        .active_session(CHAN)
        .await
        .unwrap()
        .expect("active");
    match nul {
        Err(_) => assert_eq!(after, *saved, "a refused write changed nothing"),
        Ok(written) => assert_eq!(after, *written),
    }
}

/// Edits arriving together share transactions: each still sees the ones before it, a refused
/// one changes nothing and stops no other, each caller gets the session as its own edit left
/// it, and the version rises once per saved change.
pub async fn concurrent_edits_share_commits_and_keep_their_own_outcome(h: &impl Harness) {
    let store = h.open().await;
    let start = seeded(store.as_ref(), CHAN).await;
    let tasks: Vec<_> = (0..30u64)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                let result = store
                    .update(CHAN, move |s| {
                        if i % 3 == 0 {
                            // Refused: joins twice.
                            s.join(ALICE)?;
                        }
                        if i % 5 == 1 {
                            // Changes nothing.
                            return Ok(());
                        }
                        s.join(2000 + i)
                    })
                    .await;
                (i, result)
            })
        })
        .collect();
    let mut saved_versions = Vec::new();
    for t in tasks {
        let (i, result) = t.await.expect("task");
        match (i % 3, i % 5) {
            (0, _) => assert!(
                matches!(result, Err(StoreError::Invalid(SessionError::AlreadyJoined))),
                "{i}: {result:?}"
            ),
            (_, 1) => {
                let s = result.expect("a no-op edit succeeds");
                assert!(!s.players.contains(&(2000 + i)));
            }
            _ => {
                let s = result.expect("the edit applies");
                assert!(s.players.contains(&(2000 + i)), "{i} sees its own edit");
                saved_versions.push(s.version);
            }
        }
    }
    let saved = (0..30u64).filter(|i| i % 3 != 0 && i % 5 != 1).count() as i64;
    saved_versions.sort_unstable();
    let expected: Vec<i64> = (1..=saved).map(|k| start.version + k).collect();
    assert_eq!(
        saved_versions, expected,
        "one version per saved edit, none shared"
    );
    let end = store.active_session(CHAN).await.unwrap().unwrap();
    assert_eq!(end.version, start.version + saved);
    assert_eq!(end.players.len() as i64, 2 + saved);
    // A session ended in a batch refuses the edits after it in that batch.
    let ended = store
        .end_session(CHAN, Actor::user(GM), 1_700_000_200_000)
        .await
        .unwrap();
    assert!(!ended.is_active());
    assert!(matches!(
        store.update(CHAN, |s| s.join(9)).await,
        Err(StoreError::NotFound)
    ));
}

/// Forty commands recording at once (buttons and a roll each): every one gets its own buttons'
/// ids, pointing at its own actions, and its roll logged; one caller's rolls keep their order.
pub async fn concurrent_records_keep_their_own_buttons_and_rolls(h: &impl Harness) {
    use saikoro_bot::store::NewAction;
    let store = h.open().await;
    let s = seeded(store.as_ref(), CHAN).await;
    let tasks: Vec<_> = (0..40i64)
        .map(|n| {
            let store = store.clone();
            tokio::spawn(async move {
                let actions: Vec<NewAction> = (0..2)
                    .map(|b| NewAction {
                        kind: "sr.second_chance".into(),
                        guild: Some(GUILD),
                        channel: CHAN,
                        owner: ALICE,
                        payload: json!({ "command": n, "button": b }).into(),
                    })
                    .collect();
                let done = store
                    .record(&actions, Some(&new_roll(s.id, n)))
                    .await
                    .expect("record");
                (n, actions, done)
            })
        })
        .collect();
    let mut all_ids = Vec::new();
    for t in tasks {
        let (n, actions, done) = t.await.expect("task");
        assert!(done.logged, "command {n}");
        assert_eq!(done.action_ids.len(), 2, "command {n}");
        for (id, a) in done.action_ids.iter().zip(&actions) {
            let stored = store.action(*id).await.unwrap().expect("stored");
            assert_eq!(stored.payload, a.payload.to_value(), "command {n}");
        }
        all_ids.extend(done.action_ids);
    }
    all_ids.sort_unstable();
    all_ids.dedup();
    assert_eq!(all_ids.len(), 80, "every button its own action");
    let log = store.recent_rolls(s.id, 100).await.unwrap();
    let mut logged: Vec<i64> = log.iter().map(|r| r.at_ms - 1_700_000_000_000).collect();
    logged.sort_unstable();
    assert_eq!(logged, (0..40).collect::<Vec<_>>());
    // One caller after another: the log keeps their order.
    for n in 100..110 {
        store.record(&[], Some(&new_roll(s.id, n))).await.unwrap();
    }
    let log = store.recent_rolls(s.id, 10).await.unwrap();
    let order: Vec<i64> = log.iter().map(|r| r.at_ms - 1_700_000_000_000).collect();
    assert_eq!(order, (100..110).collect::<Vec<_>>());
}

/// One `#[tokio::test]` per contract function; `$harness` is an async expression giving a
/// fresh harness.
/// Deleting a campaign takes every evening and roll of it, in one transaction, and nothing
/// else; a running campaign is refused; the log stays append-only for everything else.
pub async fn deleting_a_campaign_takes_its_evenings_and_log_only(h: &impl Harness) {
    let store = h.open().await;
    let roll = |session_id: i64| NewRoll {
        session_id,
        user_id: ALICE,
        command: "/roll dice:1d6".into(),
        outcome: JsonText::from(&json!({})),
        at_ms: 1,
        user_name: None,
    };
    let kept = store
        .create_session(&new_session(CHAN - 1, "Kept"))
        .await
        .unwrap();
    store.append_roll(&roll(kept.id)).await.unwrap();
    let first = store.create_session(&new_session(CHAN, "Gone")).await.unwrap();
    store.append_roll(&roll(first.id)).await.unwrap();
    let ended = store.end_session(CHAN, Actor::user(GM), 2).await.unwrap();
    let second = store
        .create_session(
            &ended
                .next_evening(Actor::user(GM), &Default::default(), NextGame::New, 3)
                .unwrap(),
        )
        .await
        .unwrap();
    store.append_roll(&roll(second.id)).await.unwrap();
    store.append_roll(&roll(second.id)).await.unwrap();
    assert!(matches!(
        store.delete_campaign(first.id).await,
        Err(StoreError::AlreadyActive)
    ));
    assert_eq!(store.campaign_page(first.id, 0, 10).await.unwrap().total_rolls, 3);
    store.end_session(CHAN, Actor::user(GM), 4).await.unwrap();
    assert_eq!(store.delete_campaign(first.id).await.unwrap(), (2, 3));
    assert!(store.session(first.id).await.unwrap().is_none());
    assert!(store.session(second.id).await.unwrap().is_none());
    assert!(store.last_session(CHAN).await.unwrap().is_none());
    assert!(matches!(
        store.delete_campaign(first.id).await,
        Err(StoreError::NotFound)
    ));
    // The other campaign and its log are whole, and still append-only.
    assert_eq!(store.export_page(kept.id, 0, 10).await.unwrap().total_rolls, 1);
    assert!(
        h.raw("DELETE FROM roll_log").await.is_err(),
        "the log refuses other deletes"
    );
    assert_eq!(store.export_page(kept.id, 0, 10).await.unwrap().total_rolls, 1);
}

/// The schema before campaigns (the last migration of that release).
const BEFORE_CAMPAIGNS: i64 = 20250104000000;

/// Issue 27: a database written by the release before campaigns — sessions, a roster, a log —
/// reads back whole after the campaign migration, every session a one-evening campaign that
/// can be continued.
pub async fn sessions_stored_before_campaigns_read_back_as_one_evening_campaigns(h: &impl Harness) {
    h.migrate_until(BEFORE_CAMPAIGNS).await.expect("the old schema");
    // The state JSON as that release wrote it: no campaign, evening or names.
    let mut old = new_session(CHAN, "Old night");
    old.players = vec![ALICE];
    old.roster = vec![RosterEntry::new("Ana", ALICE).with_sheet(json!({"body": 4}))];
    let mut state = serde_json::to_value(&old).unwrap();
    for key in ["campaign_id", "evening", "names"] {
        state.as_object_mut().unwrap().remove(key);
    }
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let channel = CHAN as i64;
    let guild = GUILD as i64;
    h.raw(leak(format!(
        "INSERT INTO sessions (id, guild_id, channel_id, name, system, gm_id, state, version, \
         created_at_ms, updated_at_ms, ended_at_ms) VALUES (5, {guild}, {channel}, 'Old night', \
         'shadowrun4', {GM}, '{}', 3, 100, 200, 300)",
        state.to_string().replace('\'', "''")
    )))
    .await
    .expect("an old session");
    for (n, name) in [(1, "'alice'"), (2, "NULL")] {
        h.raw(leak(format!(
            "INSERT INTO roll_log (session_id, user_id, command, outcome, at_ms, user_name) \
             VALUES (5, {ALICE}, '/roll dice:1d6', '{{\"total\": {n}}}', {}, {name})",
            150 + n
        )))
        .await
        .expect("an old roll");
    }
    let store = h.open().await;
    let s = store.session(5).await.unwrap().expect("the old session");
    assert_eq!((s.campaign(), s.campaign_id, s.evening), (5, 0, 1));
    assert_eq!(
        (s.name.as_str(), s.players.clone(), s.version),
        ("Old night", vec![ALICE], 3)
    );
    assert_eq!(s.entry("Ana").unwrap().sheet, json!({"body": 4}));
    let log = store.export_page(5, 0, 10).await.unwrap().export.log;
    let totals: Vec<_> = log.iter().map(|e| e.outcome["total"].clone()).collect();
    assert_eq!(totals, [json!(1), json!(2)]);
    assert_eq!(log[0].user_name.as_deref(), Some("alice"));
    assert_eq!(store.last_session(CHAN).await.unwrap().map(|s| s.id), Some(5));
    let evenings = store.campaign_sessions(5).await.unwrap();
    assert_eq!(evenings.iter().map(|s| s.id).collect::<Vec<_>>(), [5]);
    // It continues as evening 2 of its own campaign.
    let next = s
        .next_evening(Actor::user(GM), &Default::default(), NextGame::New, 400)
        .unwrap();
    let next = store.create_session(&next).await.unwrap();
    assert_eq!(store.session(next.id).await.unwrap().unwrap().campaign(), 5);
    let page = store.campaign_page(5, 0, 10).await.unwrap();
    assert_eq!((page.export.session.id, page.total_rolls), (next.id, 2));
}

/// A campaign of three evenings: the evenings in order, one log across them in the order it
/// was written, pages and counts over the whole, the channel's newest session.
pub async fn a_campaign_reads_its_evenings_and_one_log(h: &impl Harness) {
    let store = h.open().await;
    let other = store
        .create_session(&new_session(CHAN - 1, "Elsewhere"))
        .await
        .unwrap();
    let mut ids = Vec::new();
    let mut last = store.create_session(&new_session(CHAN, "Saga")).await.unwrap();
    for evening in 1..=3u32 {
        ids.push(last.id);
        for n in 0..evening {
            let roll = NewRoll {
                session_id: last.id,
                user_id: ALICE,
                command: format!("/roll e{evening}r{n}"),
                outcome: JsonText::from(&json!({})),
                at_ms: 1000 * i64::from(evening) + i64::from(n),
                user_name: None,
            };
            store.append_roll(&roll).await.unwrap();
        }
        let ended = store
            .end_session(CHAN, Actor::user(GM), 2000 * i64::from(evening))
            .await
            .unwrap();
        assert_eq!(ended.evening, evening);
        if evening < 3 {
            let next = ended
                .next_evening(Actor::user(GM), &Default::default(), NextGame::New, 0)
                .unwrap();
            last = store.create_session(&next).await.unwrap();
        }
    }
    let campaign = ids[0];
    let evenings = store.campaign_sessions(campaign).await.unwrap();
    assert_eq!(evenings.iter().map(|s| s.id).collect::<Vec<_>>(), ids);
    assert_eq!(evenings.iter().map(|s| s.evening).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(store.last_session(CHAN).await.unwrap().unwrap().id, ids[2]);
    assert_eq!(store.campaign_sessions(other.id).await.unwrap().len(), 1);
    let all = store.campaign_page(campaign, 0, 100).await.unwrap();
    assert_eq!(all.total_rolls, 6);
    assert_eq!(
        all.export.session.id, ids[2],
        "the newest evening heads the campaign"
    );
    let commands: Vec<&str> = all.export.log.iter().map(|e| e.command.as_str()).collect();
    assert_eq!(
        commands,
        [
            "/roll e1r0",
            "/roll e2r0",
            "/roll e2r1",
            "/roll e3r0",
            "/roll e3r1",
            "/roll e3r2"
        ]
    );
    let page = store.campaign_page(campaign, 2, 3).await.unwrap();
    let commands: Vec<&str> = page.export.log.iter().map(|e| e.command.as_str()).collect();
    assert_eq!(
        (commands, page.offset),
        (vec!["/roll e2r1", "/roll e3r0", "/roll e3r1"], 2)
    );
    // A page is read evening by evening: one that starts or ends on an evening's edge.
    for (offset, limit, want) in [
        (1, 2, vec!["/roll e2r0", "/roll e2r1"]),
        (3, 5, vec!["/roll e3r0", "/roll e3r1", "/roll e3r2"]),
        (0, 1, vec!["/roll e1r0"]),
        (6, 5, vec![]),
    ] {
        let page = store.campaign_page(campaign, offset, limit).await.unwrap();
        let commands: Vec<&str> = page.export.log.iter().map(|e| e.command.as_str()).collect();
        assert_eq!(
            (commands, page.total_rolls),
            (want, 6),
            "offset {offset}, limit {limit}"
        );
    }
    // One evening's page is that evening's only.
    assert_eq!(store.export_page(ids[1], 0, 100).await.unwrap().total_rolls, 2);
    assert!(matches!(
        store.campaign_page(-4, 0, 10).await,
        Err(StoreError::NotFound)
    ));
}

#[macro_export]
macro_rules! contract_tests {
    ($harness:expr) => {
        $crate::contract_tests!(@each $harness;
            server_settings_round_trip, channel_settings_round_trip, create_and_load,
            second_active_session_refused, invalid_session_refused, update_applies_and_bumps_version,
            refused_update_writes_nothing, noop_and_identity, update_without_session, end_keeps_history,
            ended_sessions_order_limit_and_guild, roll_log_and_export, recent_lines_read_as_the_log_shows_them, roll_log_is_append_only,
            fifty_concurrent_edits, survives_restart, actions_are_used_once,
            presses_are_checked_as_they_use_the_action,
            concurrent_settings_edits_all_land, export_pages, a_streamed_page_hands_its_head_then_its_rows,
            concurrent_channel_settings_edits_all_land, one_command_records_at_once,
            concurrent_records_keep_their_own_buttons_and_rolls,
            cached_reads_follow_every_write, concurrent_edits_share_commits_and_keep_their_own_outcome,
            sessions_stored_before_campaigns_read_back_as_one_evening_campaigns,
            a_campaign_reads_its_evenings_and_one_log, deleting_a_campaign_takes_its_evenings_and_log_only,
            a_saved_session_is_kept_as_the_database_has_it, a_page_is_headed_by_the_session_as_saved,
            text_that_means_something_to_sql_is_saved_as_written);
    };
    (@each $harness:expr; $($name:ident),*) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn $name() {
                let harness = $harness;
                support::store_contract::$name(&harness).await;
            }
        )*
    };
}
