//! A bot against the fake Discord without the console's start-up checks: for tests in which
//! registration fails or the store misbehaves from the start.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use engine::session::{ChannelSettings, RollLogEntry, ServerSettings, Session};
use saikoro_bot::bot::{self, RunningBot};
use saikoro_bot::console::user_for;
use saikoro_bot::dice_source::DiceSource;
use saikoro_bot::fake_discord::{self, FakeDiscord, Invoker, Reply};
use saikoro_bot::store::{
    Action, Backend, Edit, LogScope, NewAction, PageHead, RowSink, SettingsEdit, SqliteStore, Store,
    StoreError, StoreFuture,
};
use serde_json::Value;

/// A store whose server-settings reads fail while `settings_down` is set (the rest works): an
/// outage as the bot sees it when one query fails.
pub struct FlakyStore {
    pub inner: Arc<dyn Store>,
    pub settings_down: AtomicBool,
    /// Every read of a channel's active session fails while set.
    pub sessions_down: AtomicBool,
    /// Milliseconds every roll-log append waits first (slow work after a reply).
    pub append_delay_ms: std::sync::atomic::AtomicU64,
    /// Milliseconds every session update waits first (a slow database or a held row lock).
    pub update_delay_ms: std::sync::atomic::AtomicU64,
}

impl FlakyStore {
    pub fn new(inner: Arc<dyn Store>) -> FlakyStore {
        FlakyStore {
            inner,
            settings_down: false.into(),
            sessions_down: false.into(),
            append_delay_ms: 0.into(),
            update_delay_ms: 0.into(),
        }
    }
}

impl Store for FlakyStore {
    fn backend(&self) -> Backend {
        self.inner.backend()
    }
    fn server_settings(&self, guild: u64) -> StoreFuture<'_, Option<ServerSettings>> {
        if self.settings_down.load(Ordering::SeqCst) {
            return Box::pin(async { Err(StoreError::Unavailable("test outage".into())) });
        }
        self.inner.server_settings(guild)
    }
    fn update_server_settings<'a>(
        &'a self,
        guild: u64,
        edit: &'a mut SettingsEdit<'_, ServerSettings>,
    ) -> StoreFuture<'a, ServerSettings> {
        self.inner.update_server_settings(guild, edit)
    }
    fn update_channel_settings<'a>(
        &'a self,
        guild: u64,
        channel: u64,
        edit: &'a mut SettingsEdit<'_, ChannelSettings>,
    ) -> StoreFuture<'a, ChannelSettings> {
        self.inner.update_channel_settings(guild, channel, edit)
    }
    fn channel_settings(&self, channel: u64) -> StoreFuture<'_, Option<ChannelSettings>> {
        self.inner.channel_settings(channel)
    }
    fn create_session<'a>(&'a self, session: &'a Session) -> StoreFuture<'a, Session> {
        self.inner.create_session(session)
    }
    fn active_session(&self, channel: u64) -> StoreFuture<'_, Option<Session>> {
        if self.sessions_down.load(Ordering::SeqCst) {
            return Box::pin(async { Err(StoreError::Unavailable("test outage".into())) });
        }
        self.inner.active_session(channel)
    }
    fn session(&self, id: i64) -> StoreFuture<'_, Option<Session>> {
        self.inner.session(id)
    }
    fn update_session<'a>(&'a self, channel: u64, edit: &'a mut Edit<'_>) -> StoreFuture<'a, Arc<Session>> {
        let delay = Duration::from_millis(self.update_delay_ms.load(Ordering::SeqCst));
        Box::pin(async move {
            tokio::time::sleep(delay).await;
            self.inner.update_session(channel, edit).await
        })
    }
    fn ended_sessions(&self, guild: u64, limit: u32) -> StoreFuture<'_, Vec<Session>> {
        self.inner.ended_sessions(guild, limit)
    }
    fn append_roll<'a>(&'a self, entry: &'a saikoro_bot::store::NewRoll) -> StoreFuture<'a, ()> {
        let delay = Duration::from_millis(self.append_delay_ms.load(Ordering::SeqCst));
        Box::pin(async move {
            tokio::time::sleep(delay).await;
            self.inner.append_roll(entry).await
        })
    }
    fn recent_rolls(&self, session_id: i64, count: u32) -> StoreFuture<'_, Vec<RollLogEntry>> {
        self.inner.recent_rolls(session_id, count)
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
    fn release_action(&self, id: i64) -> StoreFuture<'_, ()> {
        self.inner.release_action(id)
    }
    fn close(&self) -> Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> {
        self.inner.close()
    }
}

/// A fresh SQLite store in `dir`.
pub async fn sqlite(dir: &std::path::Path) -> Arc<dyn Store> {
    Arc::new(
        SqliteStore::open(&dir.join("saikoro.db"))
            .await
            .expect("SQLite store"),
    )
}

/// Every command the bot has, as Discord would list them (registered or not).
pub fn all_commands() -> Vec<Value> {
    saikoro_bot::commands::all()
        .iter()
        .filter_map(|c| c.create_as_slash_command())
        .enumerate()
        .map(|(i, c)| {
            let mut v = serde_json::to_value(c).expect("command JSON");
            // An id as Discord would have given it (serenity refuses 0).
            v["id"] = serde_json::json!((1_100_000_000_000_000_000u64 + i as u64).to_string());
            v
        })
        .collect()
}

pub struct Harness {
    pub fake: FakeDiscord,
    pub bot: Option<RunningBot>,
    pub dice: DiceSource,
}

impl Harness {
    /// The bot connected to `fake` with `store`; returns once its shard identified (without
    /// waiting for any registration).
    pub async fn start(fake: FakeDiscord, store: Arc<dyn Store>) -> Harness {
        Self::start_with(fake, store, bot::ScaleOptions::default()).await
    }

    pub async fn start_with(fake: FakeDiscord, store: Arc<dyn Store>, scale: bot::ScaleOptions) -> Harness {
        let dice = DiceSource::fixed([]);
        let bot = bot::start_with(fake.bot_options(dice.clone(), store), scale)
            .await
            .expect("bot starts");
        fake.wait_shards(1, Duration::from_secs(30))
            .await
            .expect("shard connects");
        Harness {
            fake,
            bot: Some(bot),
            dice,
        }
    }

    pub fn invoker(&self, name: &str) -> Invoker {
        Invoker {
            user: user_for(name),
            locale: "en-US".into(),
            guild_id: Some(fake_discord::DEFAULT_GUILD),
            channel_id: fake_discord::DEFAULT_CHANNEL,
            permissions: fake_discord::ALL_PERMISSIONS,
            roles: vec![],
        }
    }

    /// Type `line` as `who` (built from every command the bot has, registered or not).
    pub async fn send(&self, who: &Invoker, line: &str) -> Reply {
        self.send_id(who, line).await.1
    }

    /// Type `line` as `who` without waiting: the interaction's id.
    pub fn deliver(&self, who: &Invoker, line: &str) -> u64 {
        let built = saikoro_bot::console::line::build(line, &all_commands(), &|n| {
            fake_discord::payloads::user(&user_for(n))
        })
        .unwrap_or_else(|e| panic!("{line}: {e}"));
        let interaction =
            self.fake
                .command_interaction(who, 2, &built.command, built.options, built.resolved);
        self.fake.deliver(interaction).expect("delivered")
    }

    /// [`Self::send`], with the interaction's id (to read its later follow-ups).
    pub async fn send_id(&self, who: &Invoker, line: &str) -> (u64, Reply) {
        let built = saikoro_bot::console::line::build(line, &all_commands(), &|n| {
            fake_discord::payloads::user(&user_for(n))
        })
        .unwrap_or_else(|e| panic!("{line}: {e}"));
        let interaction =
            self.fake
                .command_interaction(who, 2, &built.command, built.options, built.resolved);
        let id = self.fake.deliver(interaction).expect("delivered");
        let reply = self
            .fake
            .wait_reply(id, Duration::from_secs(15))
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        (id, reply)
    }

    pub async fn shutdown(mut self) {
        if let Some(bot) = self.bot.take() {
            bot.shutdown().await;
        }
    }
}
