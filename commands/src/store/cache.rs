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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

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

/// What a change notification names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A server's settings.
    Server(u64),
    /// A channel's settings.
    Channel(u64),
    /// The sessions of a channel (started, changed, ended).
    Session(u64),
}

impl Change {
    /// Reads a notification's payload: `g:<id>`, `c:<id>` or `s:<id>`, ids as the database's
    /// signed 64-bit columns hold them. `None` for anything else.
    pub fn parse(payload: &str) -> Option<Change> {
        let (kind, id) = payload.split_once(':')?;
        let id = super::from_db(id.parse::<i64>().ok()?);
        match kind {
            "g" => Some(Change::Server(id)),
            "c" => Some(Change::Channel(id)),
            "s" => Some(Change::Session(id)),
            _ => None,
        }
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
    pub stats: CacheStats,
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
            stats: CacheStats::default(),
        }
    }

    pub fn is_live(&self) -> bool {
        self.live.load(Ordering::SeqCst)
    }

    /// Trust the caches again (emptied first: what happened while they were not live is
    /// unknown) or stop using them.
    pub fn set_live(&self, live: bool) {
        self.drop_all();
        self.live.store(live, Ordering::SeqCst);
    }

    /// Drops what `change` names.
    pub fn drop_change(&self, change: Change) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        match change {
            Change::Server(g) => self.servers.invalidate(&g),
            Change::Channel(c) => self.channels.invalidate(&c),
            Change::Session(c) => self.sessions.invalidate(&c),
        }
    }

    /// Drops everything (a notification could not be read, or the feed was lost).
    pub fn drop_all(&self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.servers.invalidate_all();
        self.channels.invalidate_all();
        self.sessions.invalidate_all();
    }

    pub async fn server_settings(
        &self,
        guild: u64,
        read: impl Future<Output = Result<Option<ServerSettings>, StoreError>>,
    ) -> Result<Option<ServerSettings>, StoreError> {
        self.through(&self.servers, guild, read).await
    }

    pub async fn channel_settings(
        &self,
        channel: u64,
        read: impl Future<Output = Result<Option<ChannelSettings>, StoreError>>,
    ) -> Result<Option<ChannelSettings>, StoreError> {
        self.through(&self.channels, channel, read).await
    }

    pub async fn active_session(
        &self,
        channel: u64,
        read: impl Future<Output = Result<Option<Session>, StoreError>>,
    ) -> Result<Option<Session>, StoreError> {
        let kept = self.shared_session(channel, read).await?;
        Ok(kept.map(|s| Session::clone(&s)))
    }

    /// The kept session itself (shared, not copied), or `read`'s.
    pub async fn shared_session(
        &self,
        channel: u64,
        read: impl Future<Output = Result<Option<Session>, StoreError>>,
    ) -> Result<Option<Arc<Session>>, StoreError> {
        self.through(&self.sessions, channel, async { Ok(read.await?.map(Arc::new)) })
            .await
    }

    /// The kept value of `key`, or `read`'s, kept unless a drop raced it.
    async fn through<V: Clone + Send + Sync + 'static>(
        &self,
        table: &Cache<u64, V>,
        key: u64,
        read: impl Future<Output = Result<V, StoreError>>,
    ) -> Result<V, StoreError> {
        if self.is_live()
            && let Some(v) = table.get(&key)
        {
            self.stats.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(v);
        }
        self.stats.misses.fetch_add(1, Ordering::Relaxed);
        let before = self.epoch.load(Ordering::SeqCst);
        let value = read.await?;
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
        assert_eq!(Change::parse("s:-1"), Some(Change::Session(u64::MAX)));
        for bad in ["", "g", "g:", "x:1", "g:abc", "g:1:2"] {
            assert_eq!(Change::parse(bad), None, "{bad}");
        }
    }

    fn settings(gm_role: u64) -> Option<ServerSettings> {
        Some(ServerSettings {
            gm_role: Some(gm_role),
            ..ServerSettings::default()
        })
    }

    #[tokio::test]
    async fn a_kept_value_is_served_without_reading_until_it_is_dropped() {
        let c = Caches::new(true);
        assert_eq!(
            c.server_settings(1, async { Ok(settings(5)) }).await.unwrap(),
            settings(5)
        );
        // A read that would fail proves the value came from the cache.
        let unread = async { Err(StoreError::Unavailable("not asked".into())) };
        assert_eq!(c.server_settings(1, unread).await.unwrap(), settings(5));
        c.drop_change(Change::Server(1));
        assert_eq!(
            c.server_settings(1, async { Ok(settings(6)) }).await.unwrap(),
            settings(6)
        );
        // Other keys and kinds are untouched by a drop.
        c.channel_settings(9, async { Ok(None) }).await.unwrap();
        c.drop_change(Change::Channel(8));
        let unread = async { Err(StoreError::Unavailable("not asked".into())) };
        assert_eq!(c.channel_settings(9, unread).await.unwrap(), None);
        assert_eq!(c.stats.hits.load(Ordering::Relaxed), 2);
    }

    #[tokio::test]
    async fn caches_that_are_not_live_always_read() {
        let c = Caches::new(false);
        c.server_settings(1, async { Ok(settings(5)) }).await.unwrap();
        assert_eq!(
            c.server_settings(1, async { Ok(settings(6)) }).await.unwrap(),
            settings(6)
        );
        c.set_live(true);
        c.server_settings(1, async { Ok(settings(7)) }).await.unwrap();
        let unread = async { Err(StoreError::Unavailable("not asked".into())) };
        assert_eq!(c.server_settings(1, unread).await.unwrap(), settings(7));
        // Losing the feed forgets everything: changes may have been missed.
        c.set_live(false);
        c.set_live(true);
        assert_eq!(
            c.server_settings(1, async { Ok(settings(8)) }).await.unwrap(),
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
                c.server_settings(1, async {
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
            c.server_settings(1, async { Ok(settings(6)) }).await.unwrap(),
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
            .shared_session(3, async { Ok(Some(session("Run"))) })
            .await
            .unwrap();
        let unread = async { Err(StoreError::Unavailable("not asked".into())) };
        let again = c.shared_session(3, unread).await.unwrap();
        assert!(Arc::ptr_eq(first.as_ref().unwrap(), again.as_ref().unwrap()));
        // The copying read serves the same kept session.
        let unread = async { Err(StoreError::Unavailable("not asked".into())) };
        assert_eq!(c.active_session(3, unread).await.unwrap().unwrap().name, "Run");
        c.drop_change(Change::Session(3));
        let renamed = c
            .shared_session(3, async { Ok(Some(session("Walk"))) })
            .await
            .unwrap();
        assert_eq!(renamed.unwrap().name, "Walk");
        assert_eq!(first.unwrap().name, "Run", "a holder keeps what it read");
    }

    #[tokio::test]
    async fn failures_are_not_kept() {
        let c = Caches::new(true);
        let failed = c
            .active_session(3, async { Err(StoreError::Unavailable("down".into())) })
            .await;
        assert!(failed.is_err());
        assert_eq!(c.active_session(3, async { Ok(None) }).await.unwrap(), None);
    }
}
