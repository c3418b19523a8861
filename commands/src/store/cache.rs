//! The store's read cache: server settings, channel settings and each channel's active session,
//! kept in the process so a stateless roll reads nothing from the database (issue 18).
//!
//! Every write made through this process drops the entries it touches. Writes made by another
//! process reach us as PostgreSQL notifications (see `PgStore::follow_changes` and the
//! `change_feed` migration); until that feed is connected, and whenever it is lost, the cache is
//! not used at all ([`Caches::set_live`]), because changes may be missed meanwhile. SQLite is one
//! process, so its cache is live from the start.
//!
//! A read that raced a change must not put the old value back: every drop bumps an epoch, and a
//! value read from the database is kept only if no drop happened while it was read (checked
//! after the insert, so either the reader or the dropper removes it last).
//!
//! A session this process saved is kept as saved ([`Caches::wrote_session`]), so the next
//! command in that channel does not read and parse it again. The database announces each
//! session change with the saved version (`s:<channel>:<id>:<version>`), which lets our own
//! announcement leave the copy we kept alone, and an announcement of a newer version by another
//! process drop it, or, when it arrived before we kept ours, keep ours out
//! ([`Announced`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use engine::session::{ChannelSettings, ServerSettings, Session};
use mini_moka::sync::Cache;

use super::StoreError;

/// Most servers' and channels' settings kept (each a few hundred bytes).
pub const SETTINGS_CAPACITY: u64 = 20_000;
/// Most channels' active sessions kept (a session with its roster is a few kilobytes).
pub const SESSIONS_CAPACITY: u64 = 2_048;
/// A kept entry is read again after this long even if no change was announced: a bound on
/// staleness should a notification ever be lost without the feed noticing.
pub const TIME_TO_LIVE: Duration = Duration::from_secs(60);

/// A session's place in its channel's history: its id, then its version. Ids come from one
/// sequence, so a later session of the channel sorts after every version of an earlier one.
pub type SessionMark = (i64, i64);

/// What an announcement without a version stands for (an ended or deleted session, or an older
/// trigger): newer than anything kept.
const UNKNOWN_MARK: SessionMark = (i64::MAX, i64::MAX);

/// How long after its write began a saved session may still be kept: past this, an
/// announcement that should keep it out may have been forgotten ([`ANNOUNCED_FOR`]).
pub const WRITE_THROUGH_WITHIN: Duration = Duration::from_secs(5);
/// How long an announcement's version is remembered, more than [`WRITE_THROUGH_WITHIN`].
const ANNOUNCED_FOR: Duration = Duration::from_secs(10);

/// What a change notification names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A server's settings.
    Server(u64),
    /// A channel's settings.
    Channel(u64),
    /// The sessions of a channel (started, changed, ended), with the active session's id and
    /// version as saved when the database gave them.
    Session(u64, Option<SessionMark>),
}

impl Change {
    /// Reads a notification's payload: `g:<id>`, `c:<id>`, `s:<id>` or
    /// `s:<channel>:<session id>:<version>`, ids as the database's signed 64-bit columns hold
    /// them. `None` for anything else.
    pub fn parse(payload: &str) -> Option<Change> {
        let mut parts = payload.split(':');
        let kind = parts.next()?;
        let id = super::from_db(parts.next()?.parse::<i64>().ok()?);
        let rest: Vec<&str> = parts.collect();
        match (kind, rest.as_slice()) {
            ("g", []) => Some(Change::Server(id)),
            ("c", []) => Some(Change::Channel(id)),
            ("s", []) => Some(Change::Session(id, None)),
            ("s", [session, version]) => Some(Change::Session(
                id,
                Some((session.parse().ok()?, version.parse().ok()?)),
            )),
            _ => None,
        }
    }
}

/// The newest session version announced per channel over the last [`ANNOUNCED_FOR`]: what a
/// session saved here may not be older than when it is kept.
#[derive(Default)]
struct Announced {
    newest: HashMap<u64, (SessionMark, Instant)>,
}

impl Announced {
    /// Above this many channels, entries older than [`ANNOUNCED_FOR`] are let go.
    const PRUNE_ABOVE: usize = 256;

    fn note(&mut self, channel: u64, mark: SessionMark, now: Instant) {
        let entry = self.newest.entry(channel).or_insert((mark, now));
        if mark >= entry.0 {
            *entry = (mark, now);
        }
        if self.newest.len() > Self::PRUNE_ABOVE {
            self.newest
                .retain(|_, (_, at)| now.saturating_duration_since(*at) < ANNOUNCED_FOR);
        }
    }

    fn newer_than(&self, channel: u64, mark: SessionMark) -> bool {
        self.newest
            .get(&channel)
            .is_some_and(|(newest, _)| *newest > mark)
    }
}

/// Counters for tests and metrics.
#[derive(Debug, Default)]
pub struct CacheStats {
    pub hits: AtomicU64,
    pub misses: AtomicU64,
}

/// The three caches and the state that says whether they may be trusted.
pub struct Caches {
    servers: Cache<u64, Option<ServerSettings>>,
    channels: Cache<u64, Option<ChannelSettings>>,
    sessions: Cache<u64, Option<Arc<Session>>>,
    /// Bumped by every drop (see the module comment).
    epoch: AtomicU64,
    /// False while changes made elsewhere could go unannounced.
    live: AtomicBool,
    /// Bumped whenever the feed is lost or comes back: a write that began before may have
    /// missed announcements, so what it saved is not kept.
    feed_generation: AtomicU64,
    /// Guards session announcements against saved sessions kept here (see [`Announced`]); the
    /// lock also orders a drop against a keep.
    announced: Mutex<Announced>,
    pub stats: CacheStats,
}

/// The caches a store's session writes start from and keep what they saved in: set once, when
/// the store is put behind them (a store on its own has none).
#[derive(Clone, Default)]
pub struct SessionKeeper(Arc<OnceLock<Arc<Caches>>>);

impl SessionKeeper {
    pub fn attach(&self, caches: Arc<Caches>) {
        let _ = self.0.set(caches);
    }

    pub fn caches(&self) -> Option<&Caches> {
        self.0.get().map(Arc::as_ref)
    }
}

/// Where a session write began, for [`Caches::wrote_session`].
#[derive(Debug, Clone, Copy)]
pub struct WriteStart {
    at: Instant,
    feed_generation: u64,
}

impl Caches {
    /// Caches that start `live` (SQLite) or not (PostgreSQL, until its feed connects).
    pub fn new(live: bool) -> Caches {
        fn cache<V: Clone + Send + Sync + 'static>(capacity: u64) -> Cache<u64, V> {
            Cache::builder()
                .max_capacity(capacity)
                .time_to_live(TIME_TO_LIVE)
                .build()
        }
        Caches {
            servers: cache(SETTINGS_CAPACITY),
            channels: cache(SETTINGS_CAPACITY),
            sessions: cache(SESSIONS_CAPACITY),
            epoch: AtomicU64::new(0),
            live: AtomicBool::new(live),
            feed_generation: AtomicU64::new(0),
            announced: Mutex::default(),
            stats: CacheStats::default(),
        }
    }

    pub fn is_live(&self) -> bool {
        self.live.load(Ordering::SeqCst)
    }

    /// Trust the caches again (emptied first: what happened while they were not live is
    /// unknown) or stop using them.
    pub fn set_live(&self, live: bool) {
        self.feed_generation.fetch_add(1, Ordering::SeqCst);
        self.drop_all();
        self.live.store(live, Ordering::SeqCst);
    }

    /// Drops what `change` names. A session announced at a version the kept copy already has
    /// (this process's own write, kept by [`Self::wrote_session`]) stays.
    pub fn drop_change(&self, change: Change) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        match change {
            Change::Server(g) => self.servers.invalidate(&g),
            Change::Channel(c) => self.channels.invalidate(&c),
            Change::Session(c, mark) => {
                let mark = mark.unwrap_or(UNKNOWN_MARK);
                let mut announced = self.announced.lock().unwrap_or_else(|e| e.into_inner());
                announced.note(c, mark, Instant::now());
                let current = match self.sessions.get(&c) {
                    Some(Some(kept)) => (kept.id, kept.version) >= mark,
                    _ => false,
                };
                if !current {
                    self.sessions.invalidate(&c);
                }
            }
        }
    }

    /// Drops the channel's session after this process's own write (an announcement's version
    /// is not known here, so nothing is noted against later keeps).
    pub fn forget_session(&self, channel: u64) {
        let _announced = self.announced.lock().unwrap_or_else(|e| e.into_inner());
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.sessions.invalidate(&channel);
    }

    /// Call before a session write's first statement.
    pub fn write_start(&self) -> WriteStart {
        WriteStart {
            at: Instant::now(),
            feed_generation: self.feed_generation.load(Ordering::SeqCst),
        }
    }

    /// A session this process has just saved (committed): kept as the channel's active session,
    /// unless a newer version was announced meanwhile, the feed was lost since the write began,
    /// or the write took so long that such an announcement may be forgotten. Otherwise the
    /// channel's copy is dropped.
    pub fn wrote_session(&self, saved: Arc<Session>, began: WriteStart) {
        let c = saved.channel_id;
        let announced = self.announced.lock().unwrap_or_else(|e| e.into_inner());
        self.epoch.fetch_add(1, Ordering::SeqCst);
        let keep = self.is_live()
            && began.feed_generation == self.feed_generation.load(Ordering::SeqCst)
            && began.at.elapsed() < WRITE_THROUGH_WITHIN
            && saved.ended_at_ms.is_none()
            && !announced.newer_than(c, (saved.id, saved.version));
        if keep {
            self.sessions.insert(c, Some(saved));
        } else {
            self.sessions.invalidate(&c);
        }
    }

    /// The channel's kept active session, if one is kept: a guess for a write to start from
    /// (the write checks its version), never read from the database.
    pub fn kept_session(&self, channel: u64) -> Option<Arc<Session>> {
        if !self.is_live() {
            return None;
        }
        self.sessions.get(&channel).flatten()
    }

    /// Drops everything (a notification could not be read, or the feed was lost).
    pub fn drop_all(&self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.servers.invalidate_all();
        self.channels.invalidate_all();
        self.sessions.invalidate_all();
    }

    pub async fn server_settings<F: Future<Output = Result<Option<ServerSettings>, StoreError>>>(
        &self,
        guild: u64,
        read: impl FnOnce() -> F,
    ) -> Result<Option<ServerSettings>, StoreError> {
        self.through(&self.servers, guild, read).await
    }

    pub async fn channel_settings<F: Future<Output = Result<Option<ChannelSettings>, StoreError>>>(
        &self,
        channel: u64,
        read: impl FnOnce() -> F,
    ) -> Result<Option<ChannelSettings>, StoreError> {
        self.through(&self.channels, channel, read).await
    }

    pub async fn active_session<F: Future<Output = Result<Option<Session>, StoreError>>>(
        &self,
        channel: u64,
        read: impl FnOnce() -> F,
    ) -> Result<Option<Session>, StoreError> {
        let kept = self.shared_session(channel, read).await?;
        Ok(kept.map(|s| Session::clone(&s)))
    }

    /// The kept session itself (shared, not copied), or `read`'s.
    pub async fn shared_session<F: Future<Output = Result<Option<Session>, StoreError>>>(
        &self,
        channel: u64,
        read: impl FnOnce() -> F,
    ) -> Result<Option<Arc<Session>>, StoreError> {
        self.through(&self.sessions, channel, || async {
            Ok(read().await?.map(Arc::new))
        })
        .await
    }

    /// The kept value of `key`, or `read`'s, kept unless a drop raced it. `read` is called only
    /// on a miss: a store's read boxes its future, which a hit would make and drop unused.
    async fn through<V: Clone + Send + Sync + 'static, F: Future<Output = Result<V, StoreError>>>(
        &self,
        table: &Cache<u64, V>,
        key: u64,
        read: impl FnOnce() -> F,
    ) -> Result<V, StoreError> {
        if self.is_live()
            && let Some(v) = table.get(&key)
        {
            self.stats.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(v);
        }
        self.stats.misses.fetch_add(1, Ordering::Relaxed);
        let before = self.epoch.load(Ordering::SeqCst);
        let value = read().await?;
        if self.is_live() {
            table.insert(key, value.clone());
            if self.epoch.load(Ordering::SeqCst) != before {
                table.invalidate(&key);
            }
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_name_what_changed() {
        assert_eq!(Change::parse("g:42"), Some(Change::Server(42)));
        assert_eq!(Change::parse("c:7"), Some(Change::Channel(7)));
        // Snowflakes above i64::MAX are stored (and announced) as negative numbers.
        assert_eq!(Change::parse("s:-1"), Some(Change::Session(u64::MAX, None)));
        assert_eq!(Change::parse("s:7:3:12"), Some(Change::Session(7, Some((3, 12)))));
        for bad in [
            "",
            "g",
            "g:",
            "x:1",
            "g:abc",
            "g:1:2",
            "s:7:3",
            "s:7:3:x",
            "s:7:3:4:5",
            "c:7:3:4",
        ] {
            assert_eq!(Change::parse(bad), None, "{bad}");
        }
    }

    fn settings(gm_role: u64) -> Option<ServerSettings> {
        Some(ServerSettings {
            gm_role: Some(gm_role),
            ..ServerSettings::default()
        })
    }

    /// A hit does not even make the store's read (a store boxes its read future when it is
    /// made); a miss makes it once.
    #[tokio::test]
    async fn a_hit_makes_no_read_and_a_miss_makes_one() {
        let c = Caches::new(true);
        let made = std::sync::atomic::AtomicUsize::new(0);
        let read = || {
            made.fetch_add(1, Ordering::SeqCst);
            async { Ok(settings(5)) }
        };
        assert_eq!(c.server_settings(1, read).await.unwrap(), settings(5));
        assert_eq!(c.server_settings(1, read).await.unwrap(), settings(5));
        assert_eq!(c.server_settings(1, read).await.unwrap(), settings(5));
        assert_eq!(made.load(Ordering::SeqCst), 1, "two hits, no read made for them");
        c.drop_change(Change::Server(1));
        c.server_settings(1, read).await.unwrap();
        assert_eq!(
            made.load(Ordering::SeqCst),
            2,
            "the miss after a drop reads again"
        );
    }

    #[tokio::test]
    async fn a_kept_value_is_served_without_reading_until_it_is_dropped() {
        let c = Caches::new(true);
        assert_eq!(
            c.server_settings(1, || async { Ok(settings(5)) }).await.unwrap(),
            settings(5)
        );
        // A read that would fail proves the value came from the cache.
        let unread = || async { Err(StoreError::Unavailable("not asked".into())) };
        assert_eq!(c.server_settings(1, unread).await.unwrap(), settings(5));
        c.drop_change(Change::Server(1));
        assert_eq!(
            c.server_settings(1, || async { Ok(settings(6)) }).await.unwrap(),
            settings(6)
        );
        // Other keys and kinds are untouched by a drop.
        c.channel_settings(9, || async { Ok(None) }).await.unwrap();
        c.drop_change(Change::Channel(8));
        let unread = || async { Err(StoreError::Unavailable("not asked".into())) };
        assert_eq!(c.channel_settings(9, unread).await.unwrap(), None);
        assert_eq!(c.stats.hits.load(Ordering::Relaxed), 2);
    }

    #[tokio::test]
    async fn caches_that_are_not_live_always_read() {
        let c = Caches::new(false);
        c.server_settings(1, || async { Ok(settings(5)) }).await.unwrap();
        assert_eq!(
            c.server_settings(1, || async { Ok(settings(6)) }).await.unwrap(),
            settings(6)
        );
        c.set_live(true);
        c.server_settings(1, || async { Ok(settings(7)) }).await.unwrap();
        let unread = || async { Err(StoreError::Unavailable("not asked".into())) };
        assert_eq!(c.server_settings(1, unread).await.unwrap(), settings(7));
        // Losing the feed forgets everything: changes may have been missed.
        c.set_live(false);
        c.set_live(true);
        assert_eq!(
            c.server_settings(1, || async { Ok(settings(8)) }).await.unwrap(),
            settings(8)
        );
    }

    #[tokio::test]
    async fn a_read_that_raced_a_change_is_not_kept() {
        let c = Arc::new(Caches::new(true));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let reader = {
            let c = c.clone();
            tokio::spawn(async move {
                c.server_settings(1, || async {
                    // The old value, read before the change committed and returned after.
                    let _ = rx.await;
                    Ok(settings(5))
                })
                .await
            })
        };
        tokio::task::yield_now().await;
        c.drop_change(Change::Server(1));
        let _ = tx.send(());
        assert_eq!(reader.await.unwrap().unwrap(), settings(5));
        // The next read goes to the database and sees the new value.
        assert_eq!(
            c.server_settings(1, || async { Ok(settings(6)) }).await.unwrap(),
            settings(6)
        );
    }

    #[tokio::test]
    async fn a_kept_session_is_shared_not_copied_until_it_changes() {
        let c = Caches::new(true);
        let session = |name: &str| {
            Session::start(1, 3, name, engine::session::SystemId::Shadowrun4, 9, 0).expect("session")
        };
        let first = c
            .shared_session(3, || async { Ok(Some(session("Run"))) })
            .await
            .unwrap();
        let unread = || async { Err(StoreError::Unavailable("not asked".into())) };
        let again = c.shared_session(3, unread).await.unwrap();
        assert!(Arc::ptr_eq(first.as_ref().unwrap(), again.as_ref().unwrap()));
        // The copying read serves the same kept session.
        let unread = || async { Err(StoreError::Unavailable("not asked".into())) };
        assert_eq!(c.active_session(3, unread).await.unwrap().unwrap().name, "Run");
        c.drop_change(Change::Session(3, None));
        let renamed = c
            .shared_session(3, || async { Ok(Some(session("Walk"))) })
            .await
            .unwrap();
        assert_eq!(renamed.unwrap().name, "Walk");
        assert_eq!(first.unwrap().name, "Run", "a holder keeps what it read");
    }

    fn saved(id: i64, version: i64) -> Session {
        let mut s =
            Session::start(1, 3, "Run", engine::session::SystemId::Warmachine, 9, 0).expect("session");
        (s.id, s.version) = (id, version);
        s
    }

    async fn unread() -> Result<Option<Session>, StoreError> {
        Err(StoreError::Unavailable("not asked".into()))
    }

    #[tokio::test]
    async fn a_saved_session_is_kept_and_outlives_its_own_announcement() {
        let c = Caches::new(true);
        let began = c.write_start();
        c.wrote_session(Arc::new(saved(5, 3)), began);
        assert_eq!(c.kept_session(3).unwrap().version, 3);
        assert_eq!(c.active_session(3, unread).await.unwrap(), Some(saved(5, 3)));
        // Our own write announced: the copy stays.
        c.drop_change(Change::Session(3, Some((5, 3))));
        assert_eq!(c.active_session(3, unread).await.unwrap(), Some(saved(5, 3)));
        // Another process's later version: dropped, and the next read asks the database.
        c.drop_change(Change::Session(3, Some((5, 4))));
        assert!(c.kept_session(3).is_none());
        assert_eq!(
            c.active_session(3, || async { Ok(Some(saved(5, 4))) })
                .await
                .unwrap(),
            Some(saved(5, 4))
        );
        // A later session of the channel sorts after every version of this one.
        c.drop_change(Change::Session(3, Some((6, 1))));
        assert!(c.kept_session(3).is_none());
        // This process's own drop notes nothing against later keeps.
        c.forget_session(3);
        c.wrote_session(Arc::new(saved(6, 2)), c.write_start());
        assert_eq!(c.kept_session(3).unwrap().version, 2);
    }

    #[tokio::test]
    async fn a_newer_announcement_that_came_first_keeps_the_saved_session_out() {
        let c = Caches::new(true);
        let began = c.write_start();
        // Another process saved version 4 after our 3, and its announcement came before our
        // write kept its copy.
        c.drop_change(Change::Session(3, Some((5, 4))));
        c.wrote_session(Arc::new(saved(5, 3)), began);
        assert!(c.kept_session(3).is_none());
        assert_eq!(
            c.active_session(3, || async { Ok(Some(saved(5, 4))) })
                .await
                .unwrap(),
            Some(saved(5, 4))
        );
        // An announcement without a version (an ended session) outranks any version.
        c.drop_change(Change::Session(3, None));
        c.wrote_session(Arc::new(saved(5, 9)), c.write_start());
        assert!(c.kept_session(3).is_none());
        // Other channels are not concerned.
        let mut elsewhere = saved(7, 1);
        elsewhere.channel_id = 4;
        c.wrote_session(Arc::new(elsewhere), c.write_start());
        assert_eq!(c.kept_session(4).unwrap().id, 7);
    }

    #[tokio::test]
    async fn a_saved_session_is_not_kept_across_a_feed_loss_an_end_or_a_long_write() {
        let c = Caches::new(true);
        let began = c.write_start();
        c.set_live(false);
        c.set_live(true);
        c.wrote_session(Arc::new(saved(5, 3)), began);
        assert!(c.kept_session(3).is_none(), "announcements may have been missed");
        let mut ended = saved(5, 4);
        ended.ended_at_ms = Some(1);
        c.wrote_session(Arc::new(ended), c.write_start());
        assert!(c.kept_session(3).is_none());
        if let Some(at) = Instant::now().checked_sub(WRITE_THROUGH_WITHIN) {
            let long_ago = WriteStart {
                at,
                ..c.write_start()
            };
            c.wrote_session(Arc::new(saved(5, 5)), long_ago);
            assert!(c.kept_session(3).is_none());
        }
        // Nor while the caches are not live.
        c.set_live(false);
        c.wrote_session(Arc::new(saved(5, 6)), c.write_start());
        assert!(c.kept_session(3).is_none());
    }

    #[tokio::test]
    async fn a_read_that_raced_a_saved_session_is_not_kept() {
        let c = Arc::new(Caches::new(true));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let reader = {
            let c = c.clone();
            tokio::spawn(async move {
                c.active_session(3, || async {
                    let _ = rx.await;
                    Ok(Some(saved(5, 2)))
                })
                .await
            })
        };
        tokio::task::yield_now().await;
        c.wrote_session(Arc::new(saved(5, 3)), c.write_start());
        let _ = tx.send(());
        assert_eq!(reader.await.unwrap().unwrap(), Some(saved(5, 2)));
        // The old read did not stay: either the saved copy or nothing is kept.
        assert!(c.kept_session(3).is_none_or(|k| k.version == 3));
    }

    #[tokio::test]
    async fn failures_are_not_kept() {
        let c = Caches::new(true);
        let failed = c
            .active_session(3, || async { Err(StoreError::Unavailable("down".into())) })
            .await;
        assert!(failed.is_err());
        assert_eq!(c.active_session(3, || async { Ok(None) }).await.unwrap(), None);
    }
}
