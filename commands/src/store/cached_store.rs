//! [`CachedStore`]: a [`Store`] that answers the reads every command makes (server settings,
//! channel settings, the channel's active session) from [`Caches`], and drops the cached copy of
//! whatever it writes. Everything else passes through.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use engine::session::{Actor, ChannelSettings, RollLogEntry, ServerSettings, Session};

use super::cache::{Caches, Change};
use super::{
    Action, Backend, Edit, LogScope, NewAction, NewRoll, PageHead, Pressed, Presser, Recorded, RowSink,
    SettingsEdit, Store, StoreError, StoreFuture,
};

pub struct CachedStore {
    inner: Arc<dyn Store>,
    caches: Arc<Caches>,
}

impl CachedStore {
    pub fn new(inner: Arc<dyn Store>, caches: Arc<Caches>) -> CachedStore {
        inner.keep_sessions_in(caches.clone());
        CachedStore { inner, caches }
    }

    /// Runs a write, then drops what it touched: also when it failed, since a failure after the
    /// commit (a lost connection) may hide a write that landed.
    async fn writing<T>(&self, change: Change, write: StoreFuture<'_, T>) -> Result<T, StoreError> {
        let result = write.await;
        match change {
            Change::Session(channel, _) => self.caches.forget_session(channel),
            other => self.caches.drop_change(other),
        }
        result
    }
}

impl Store for CachedStore {
    fn backend(&self) -> Backend {
        self.inner.backend()
    }

    fn caches(&self) -> Option<&Caches> {
        Some(&self.caches)
    }

    fn server_settings(&self, guild: u64) -> StoreFuture<'_, Option<ServerSettings>> {
        Box::pin(
            self.caches
                .server_settings(guild, move || self.inner.server_settings(guild)),
        )
    }

    fn update_server_settings<'a>(
        &'a self,
        guild: u64,
        edit: &'a mut SettingsEdit<'_, ServerSettings>,
    ) -> StoreFuture<'a, ServerSettings> {
        Box::pin(self.writing(
            Change::Server(guild),
            self.inner.update_server_settings(guild, edit),
        ))
    }

    fn update_channel_settings<'a>(
        &'a self,
        guild: u64,
        channel: u64,
        edit: &'a mut SettingsEdit<'_, ChannelSettings>,
    ) -> StoreFuture<'a, ChannelSettings> {
        Box::pin(self.writing(
            Change::Channel(channel),
            self.inner.update_channel_settings(guild, channel, edit),
        ))
    }

    fn channel_settings(&self, channel: u64) -> StoreFuture<'_, Option<ChannelSettings>> {
        Box::pin(
            self.caches
                .channel_settings(channel, move || self.inner.channel_settings(channel)),
        )
    }

    fn create_session<'a>(&'a self, session: &'a Session) -> StoreFuture<'a, Session> {
        Box::pin(self.writing(
            Change::Session(session.channel_id, None),
            self.inner.create_session(session),
        ))
    }

    fn active_session(&self, channel: u64) -> StoreFuture<'_, Option<Session>> {
        Box::pin(
            self.caches
                .active_session(channel, move || self.inner.active_session(channel)),
        )
    }

    fn shared_session(&self, channel: u64) -> StoreFuture<'_, Option<Arc<Session>>> {
        Box::pin(
            self.caches
                .shared_session(channel, move || self.inner.active_session(channel)),
        )
    }

    fn session(&self, id: i64) -> StoreFuture<'_, Option<Session>> {
        self.inner.session(id)
    }

    fn update_session<'a>(&'a self, channel: u64, edit: &'a mut Edit<'_>) -> StoreFuture<'a, Arc<Session>> {
        // A saved session is kept by the store's batch itself, in the order the batches
        // committed (`Caches::wrote_session`). The channel's copy is dropped after a failure
        // that may hide a write that landed, or when the store kept nothing.
        Box::pin(async move {
            let result = self.inner.update_session(channel, edit).await;
            let keep = match &result {
                Ok(saved) => self
                    .caches
                    .kept_session(channel)
                    .is_some_and(|kept| (kept.id, kept.version) >= (saved.id, saved.version)),
                // Refused, or no active session: nothing was written.
                Err(StoreError::Invalid(_) | StoreError::NotFound) => true,
                Err(_) => false,
            };
            if !keep {
                self.caches.forget_session(channel);
            }
            result
        })
    }

    fn end_session(&self, channel: u64, actor: Actor, now_ms: i64) -> StoreFuture<'_, Arc<Session>> {
        Box::pin(self.writing(
            Change::Session(channel, None),
            self.inner.end_session(channel, actor, now_ms),
        ))
    }

    fn ended_sessions(&self, guild: u64, limit: u32) -> StoreFuture<'_, Vec<Session>> {
        self.inner.ended_sessions(guild, limit)
    }

    fn append_roll<'a>(&'a self, entry: &'a NewRoll) -> StoreFuture<'a, ()> {
        self.inner.append_roll(entry)
    }

    fn record<'a>(
        &'a self,
        actions: &'a [NewAction],
        roll: Option<&'a NewRoll>,
    ) -> StoreFuture<'a, Recorded> {
        self.inner.record(actions, roll)
    }

    fn recent_rolls(&self, session_id: i64, count: u32) -> StoreFuture<'_, Vec<RollLogEntry>> {
        self.inner.recent_rolls(session_id, count)
    }

    fn recent_lines(&self, session_id: i64, count: u32) -> StoreFuture<'_, Vec<RollLogEntry>> {
        self.inner.recent_lines(session_id, count)
    }

    fn stream_page<'a>(
        &'a self,
        scope: LogScope,
        offset: u32,
        limit: u32,
        names: bool,
        each: &'a mut RowSink<'_>,
    ) -> StoreFuture<'a, PageHead> {
        self.inner.stream_page(scope, offset, limit, names, each)
    }
    fn delete_campaign(&self, campaign: i64) -> StoreFuture<'_, (u64, u64)> {
        self.inner.delete_campaign(campaign)
    }
    fn last_session(&self, channel: u64) -> StoreFuture<'_, Option<Session>> {
        self.inner.last_session(channel)
    }
    fn campaign_sessions(&self, campaign: i64) -> StoreFuture<'_, Vec<Session>> {
        self.inner.campaign_sessions(campaign)
    }
    fn create_action<'a>(&'a self, action: &'a NewAction) -> StoreFuture<'a, i64> {
        self.inner.create_action(action)
    }

    fn action(&self, id: i64) -> StoreFuture<'_, Option<Action>> {
        self.inner.action(id)
    }

    fn use_action(&self, id: i64) -> StoreFuture<'_, Action> {
        self.inner.use_action(id)
    }

    fn press_action<'a>(&'a self, id: i64, who: Presser<'a>) -> StoreFuture<'a, Pressed> {
        self.inner.press_action(id, who)
    }

    fn release_action(&self, id: i64) -> StoreFuture<'_, ()> {
        self.inner.release_action(id)
    }

    fn close(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        // Closing the pool also ends the change feed (its connection is the pool's).
        self.caches.set_live(false);
        self.inner.close()
    }

    fn pool_status(&self) -> Option<(u32, usize)> {
        self.inner.pool_status()
    }

    /// The database itself, never the cache: a cache kept while the database hangs would
    /// answer for it.
    fn ping(&self) -> StoreFuture<'_, ()> {
        self.inner.ping()
    }
}
