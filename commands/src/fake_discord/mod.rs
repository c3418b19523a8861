//! A protocol-level Discord on loopback: REST and gateway on one port, reached by the unmodified
//! serenity/poise client (see DESIGN.md, "Testing without Discord"). Tests and the console drive
//! it: it records the commands the bot registers, delivers interactions over the gateway and
//! hands back what the bot answered.

mod files;
mod gateway;
mod http_delivery;
pub mod payloads;
mod rest;
mod schema;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};

pub use http_delivery::{sign, test_public_key, timestamp_now};

use crate::bot::BotOptions;
use crate::dice_source::DiceSource;
use crate::store::Store;

/// A bot's options against the fake whose REST base is `url`: the fake's token, no dev guild,
/// no outcome tap (set a field afterwards to change it). [`FakeDiscord::bot_options`] for a
/// fake in hand.
pub fn bot_options(url: &str, dice: DiceSource, store: Arc<dyn Store>) -> BotOptions {
    BotOptions {
        token: FAKE_TOKEN.to_string(),
        proxy_url: Some(url.to_string()),
        dev_guild: None,
        dice,
        outcome_tap: None,
        store,
    }
}
pub use payloads::{ALL_PERMISSIONS, FakeUser, Invoker};

/// What the bot sent back for one interaction, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplyEvent {
    /// `POST /interactions/{id}/{token}/callback`: the raw body (`type` + `data`).
    Callback(Value),
    /// `PATCH /webhooks/{app}/{token}/messages/@original`.
    EditOriginal(Value),
    /// `POST /webhooks/{app}/{token}`.
    Followup(Value),
    DeleteOriginal,
}

/// A message the bot posted to a channel: the request as received, and the message it became.
#[derive(Debug, Clone, PartialEq)]
pub struct Post {
    pub request: Value,
    pub message: Value,
}

/// The answer to an interaction as the user would finally see it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The raw JSON body of the response that completed it, as Discord received it.
    pub body: Value,
    /// The message the user sees (`content`, `embeds`, `components`, `flags`).
    pub message: Value,
    pub ephemeral: bool,
    pub events: Vec<ReplyEvent>,
    /// Follow-up messages sent after the reply (e.g. a secret roll's channel notice).
    pub followups: Vec<Value>,
}

impl Reply {
    pub fn embeds(&self) -> &[Value] {
        self.message
            .get("embeds")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }
    pub fn content(&self) -> &str {
        self.message.get("content").and_then(Value::as_str).unwrap_or("")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FakeError {
    #[error("no bot shard is connected for guild {0:?}")]
    NoShard(Option<u64>),
    #[error(
        "the bot did not answer interaction {0} within {1:?} (run with RUST_LOG=serenity=debug to see payloads serenity could not parse)"
    )]
    NoReply(u64, Duration),
    #[error("timed out after {0:?} waiting for {1}")]
    Timeout(Duration, &'static str),
    #[error("could not bind the fake Discord: {0}")]
    Bind(std::io::Error),
    /// The bot sent a body Discord's published schema refuses (the first such request).
    #[error("Discord would refuse a request of the bot: {0}")]
    Refused(String),
}

#[derive(Default)]
struct Registered {
    global: Vec<Value>,
    guild: HashMap<u64, Vec<Value>>,
    /// How many times any command list was PUT (re-registration is observable).
    puts: usize,
}

struct Shard {
    total: u32,
    tx: mpsc::UnboundedSender<(String, Value)>,
}

#[derive(Default)]
struct InteractionRecord {
    events: Vec<ReplyEvent>,
    /// The original response as a stored channel message, once there is one.
    original: Option<Value>,
    channel_id: u64,
    /// When [`FakeDiscord::deliver`] queued it for the gateway.
    dispatched: Option<Instant>,
    /// Whether the user has seen an answer yet (see [`ReplyTiming`]).
    answered: bool,
    /// A component press: `original` starts as the message pressed, which an update-message
    /// callback (type 7) or an edit after a deferred update changes in place.
    pressed: bool,
    /// The follow-up messages as stored (with their ids, so their buttons can be pressed).
    followup_messages: Vec<Value>,
}

/// How the fake is set up.
#[derive(Debug, Clone)]
pub struct FakeOptions {
    /// The shard count `GET /gateway/bot` recommends (automatic sharding follows it).
    pub shards: u32,
    /// The guilds the bot is in; each shard's READY lists the ones it owns.
    pub guilds: Vec<u64>,
    /// Keep every interaction's events and messages for inspection (tests, the console).
    /// A load test turns this off: an interaction is forgotten once answered, so the fake's
    /// memory stays flat and [`FakeDiscord::timings`] is the only record.
    pub keep_records: bool,
    /// Keep the bytes of the files the bot attaches. A load test that exports long logs turns
    /// this off (a file is then kept as its name and size), so the process's memory is the
    /// bot's and not a store of every export.
    pub keep_files: bool,
}

impl Default for FakeOptions {
    fn default() -> Self {
        FakeOptions {
            shards: 1,
            guilds: vec![DEFAULT_GUILD],
            keep_records: true,
            keep_files: true,
        }
    }
}

/// When an interaction was answered: from its dispatch on the gateway to the REST request that
/// showed the user a reply (a message callback, or the edit/follow-up completing a deferral).
#[derive(Debug, Clone, Copy)]
pub struct ReplyTiming {
    pub interaction: u64,
    pub latency: Duration,
    /// The reply was ephemeral (our commands answer errors that way).
    pub ephemeral: bool,
}

/// Whether `event`, after `earlier`, completes the answer the user sees; with its flags.
fn completes(earlier: &[ReplyEvent], event: &ReplyEvent) -> Option<bool> {
    let deferred = earlier
        .iter()
        .any(|e| matches!(e, ReplyEvent::Callback(b) if matches!(b["type"].as_u64(), Some(5 | 6))));
    let ephemeral = |msg: &Value| msg["flags"].as_u64().unwrap_or(0) & 64 != 0;
    match event {
        ReplyEvent::Callback(body) => match body["type"].as_u64() {
            Some(4 | 7 | 8 | 9) => Some(ephemeral(&body["data"])),
            _ => None,
        },
        ReplyEvent::EditOriginal(body) | ReplyEvent::Followup(body) if deferred => Some(ephemeral(body)),
        _ => None,
    }
}

pub(crate) struct State {
    pub(crate) bot: FakeUser,
    pub(crate) app_id: u64,
    pub(crate) guilds: Vec<u64>,
    /// What `GET /gateway/bot` recommends.
    pub(crate) shard_count: u32,
    keep_records: bool,
    pub(crate) keep_files: bool,
    timings: Mutex<Option<mpsc::UnboundedSender<ReplyTiming>>>,
    registered: Mutex<Registered>,
    shards: Mutex<HashMap<u32, Shard>>,
    interactions: Mutex<HashMap<u64, InteractionRecord>>,
    tokens: Mutex<HashMap<String, u64>>,
    unhandled: Mutex<Vec<String>>,
    /// Requests whose body broke Discord's schema: every wait fails once there is one.
    refused: Mutex<Vec<String>>,
    /// Messages the bot posted to channels (not interaction replies), by channel.
    pub(crate) channel_messages: Mutex<HashMap<u64, Vec<Value>>>,
    /// The same messages in the order they were posted, for a driver that shows them as
    /// they come (see [`FakeDiscord::posts_since`]).
    pub(crate) posts: Mutex<Vec<Post>>,
    counter: AtomicU64,
    /// IDENTIFY and RESUME frames received.
    pub(crate) identifies: AtomicUsize,
    /// Answer every command registration (PUT) with an error (see
    /// [`FakeDiscord::fail_command_puts`]).
    pub(crate) fail_command_puts: AtomicBool,
    /// The `attachment_size_limit` interactions carry.
    attachment_size_limit: AtomicU64,
    changed: Notify,
    pub(crate) base_url: Mutex<String>,
    /// Files users attached (see `files.rs`), and how often the bot downloaded one.
    hosted: Mutex<files::Hosted>,
    downloads: AtomicUsize,
    /// The bot's interactions endpoint, when interactions go over HTTP.
    http: Mutex<Option<Arc<http_delivery::HttpTarget>>>,
    /// Tokens of interactions whose HTTP response has not come back yet.
    http_in_flight: Mutex<std::collections::HashSet<String>>,
    /// Deliveries the HTTP balancer moved to another replica (see `http_delivery`).
    http_retries: AtomicU64,
}

/// Poisoning only happens after a panic elsewhere; the data is still the best we have.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl State {
    pub(crate) fn next_id(&self) -> u64 {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        payloads::snowflake(ms, self.counter.fetch_add(1, Ordering::Relaxed))
    }

    pub(crate) fn notify(&self) {
        self.changed.notify_waiters();
    }

    pub(crate) fn set_commands(&self, guild: Option<u64>, commands: Vec<Value>) -> Vec<Value> {
        let stored: Vec<Value> = commands
            .into_iter()
            .map(|mut c| {
                let id = self.next_id().to_string();
                c["id"] = json!(id);
                c["application_id"] = json!(self.app_id.to_string());
                c["version"] = json!(id);
                if c.get("type").is_none() {
                    c["type"] = json!(1);
                }
                if let Some(g) = guild {
                    c["guild_id"] = json!(g.to_string());
                }
                c
            })
            .collect();
        let mut reg = lock(&self.registered);
        match guild {
            Some(g) => {
                reg.guild.insert(g, stored.clone());
            }
            None => reg.global = stored.clone(),
        }
        reg.puts += 1;
        drop(reg);
        self.notify();
        stored
    }

    pub(crate) fn commands(&self, guild: Option<u64>) -> Vec<Value> {
        let reg = lock(&self.registered);
        match guild {
            Some(g) => reg.guild.get(&g).cloned().unwrap_or_default(),
            None => reg.global.clone(),
        }
    }

    pub(crate) fn shard_connected(&self, id: u32, total: u32, tx: mpsc::UnboundedSender<(String, Value)>) {
        lock(&self.shards).insert(id, Shard { total, tx });
        self.notify();
    }

    pub(crate) fn shard_gone(&self, id: u32) {
        lock(&self.shards).remove(&id);
        self.notify();
    }

    /// Records a response event; `interaction` is found by id (callback) or token (webhooks).
    pub(crate) fn record(
        &self,
        interaction: Option<u64>,
        token: Option<&str>,
        event: ReplyEvent,
    ) -> Option<Value> {
        let id = interaction.or_else(|| token.and_then(|t| lock(&self.tokens).get(t).copied()))?;
        let mut map = lock(&self.interactions);
        let rec = map.entry(id).or_default();
        if !rec.answered
            && let Some(ephemeral) = completes(&rec.events, &event)
        {
            rec.answered = true;
            if let (Some(at), Some(tx)) = (rec.dispatched, lock(&self.timings).as_ref()) {
                let _ = tx.send(ReplyTiming {
                    interaction: id,
                    latency: at.elapsed(),
                    ephemeral,
                });
            }
            if !self.keep_records {
                // Load mode: forget it; a later webhook call for it gets 404 (our load mixes
                // answer in one callback).
                map.remove(&id);
                drop(map);
                // In flight only, so this map stays small.
                lock(&self.tokens).retain(|_, v| *v != id);
                return None;
            }
        }
        // A message the user sees becomes the stored original (buttons reference it). A new
        // message (type 4) of a press is a message of its own, not the one pressed.
        let new_message = matches!(&event, ReplyEvent::Callback(b) if matches!(b["type"].as_u64(), Some(4)));
        if new_message && rec.pressed {
            rec.pressed = false;
            rec.original = None;
        }
        let merge = |original: &Option<Value>, body: &Value| {
            let mut merged = original.clone().unwrap_or_else(|| json!({}));
            if let (Some(m), Some(b)) = (merged.as_object_mut(), body.as_object()) {
                for (k, v) in b {
                    m.insert(k.clone(), v.clone());
                }
            }
            merged
        };
        let shown = match &event {
            ReplyEvent::Callback(body) if new_message => Some(body["data"].clone()),
            ReplyEvent::Callback(body) if matches!(body["type"].as_u64(), Some(5)) => Some(json!({})),
            ReplyEvent::Callback(body) if rec.pressed && matches!(body["type"].as_u64(), Some(7)) => {
                Some(merge(&rec.original, &body["data"]))
            }
            ReplyEvent::EditOriginal(body) => Some(merge(&rec.original, body)),
            _ => None,
        };
        let message = shown.map(|body| {
            let existing_id = rec.original.as_ref().and_then(|m| m["id"].as_str()?.parse().ok());
            let msg_id = existing_id.unwrap_or_else(|| self.next_id());
            let channel = rec
                .original
                .as_ref()
                .and_then(|m| m["channel_id"].as_str()?.parse().ok())
                .unwrap_or(rec.channel_id);
            payloads::message(msg_id, channel, &self.bot, &body, self.app_id)
        });
        if let Some(m) = &message {
            rec.original = Some(m.clone());
        }
        let reply_message = match &event {
            ReplyEvent::Followup(body) => {
                let m = payloads::message(self.next_id(), rec.channel_id, &self.bot, body, self.app_id);
                rec.followup_messages.push(m.clone());
                Some(m)
            }
            _ => message,
        };
        rec.events.push(event);
        drop(map);
        self.notify();
        reply_message
    }

    pub(crate) fn original(&self, token: &str) -> Option<Value> {
        let id = *lock(&self.tokens).get(token)?;
        lock(&self.interactions).get(&id)?.original.clone()
    }

    /// A request refused for its body: logged, kept, and every waiter told.
    pub(crate) fn refused(&self, what: String) {
        tracing::error!(target: "fake_discord", "refused request: {what}");
        lock(&self.refused).push(what);
        self.notify();
    }

    pub(crate) fn unhandled(&self, what: String) {
        tracing::warn!(target: "fake_discord", "unhandled request: {what}");
        lock(&self.unhandled).push(what);
    }
}

/// The fake Discord server. Dropping it stops the server.
pub struct FakeDiscord {
    state: Arc<State>,
    addr: SocketAddr,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// The bot's application and user id in the fake.
pub const BOT_ID: u64 = 1_000_000_000_000_001;
/// The guild every interaction happens in unless a test says otherwise.
pub const DEFAULT_GUILD: u64 = 900_000_000_000_000_001;
pub const DEFAULT_CHANNEL: u64 = 900_000_000_000_000_101;
/// The `attachment_size_limit` of interactions unless a test sets another (10 MiB).
pub const DEFAULT_ATTACHMENT_LIMIT: u64 = 10_485_760;
/// A token serenity accepts as well-formed; the fake accepts any.
pub const FAKE_TOKEN: &str = "ZmFrZQ.ZmFrZQ.ZmFrZS10b2tlbg";

impl FakeDiscord {
    /// See [`bot_options`].
    pub fn bot_options(&self, dice: DiceSource, store: Arc<dyn Store>) -> BotOptions {
        bot_options(&self.url(), dice, store)
    }

    /// Start on an ephemeral loopback port, one shard, the bot in [`DEFAULT_GUILD`].
    pub async fn start() -> Result<FakeDiscord, FakeError> {
        Self::start_with(FakeOptions::default()).await
    }

    /// Start with a shard count and guild list of choice.
    pub async fn start_with(opts: FakeOptions) -> Result<FakeDiscord, FakeError> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(FakeError::Bind)?;
        let addr = listener.local_addr().map_err(FakeError::Bind)?;
        let state = Arc::new(State {
            bot: FakeUser {
                id: BOT_ID,
                name: "Saikoro".into(),
                bot: true,
            },
            app_id: BOT_ID,
            guilds: opts.guilds,
            shard_count: opts.shards.max(1),
            keep_records: opts.keep_records,
            keep_files: opts.keep_files,
            timings: Mutex::new(None),
            registered: Mutex::default(),
            shards: Mutex::default(),
            interactions: Mutex::default(),
            tokens: Mutex::default(),
            unhandled: Mutex::default(),
            refused: Mutex::default(),
            channel_messages: Mutex::default(),
            posts: Mutex::default(),
            counter: AtomicU64::new(1),
            identifies: AtomicUsize::new(0),
            fail_command_puts: AtomicBool::new(false),
            attachment_size_limit: AtomicU64::new(DEFAULT_ATTACHMENT_LIMIT),
            changed: Notify::new(),
            base_url: Mutex::new(format!("http://{addr}")),
            hosted: Mutex::default(),
            downloads: AtomicUsize::new(0),
            http: Mutex::default(),
            http_in_flight: Mutex::default(),
            http_retries: AtomicU64::new(0),
        });
        let app = rest::router(state.clone())
            .merge(gateway::router(state.clone()))
            .merge(files::router(state.clone()));
        // No Nagle delay on small frames and responses (a load test measures ~40 ms stalls
        // otherwise).
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let server = tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                tracing::error!(target: "fake_discord", "server stopped: {e}");
            }
        });
        Ok(FakeDiscord { state, addr, server })
    }

    /// The base URL to give the bot as its HTTP proxy (`DISCORD_PROXY_URL`).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Wait until `cond` holds, re-checking whenever the fake's state changes.
    async fn wait_for<T>(
        &self,
        timeout: Duration,
        what: &'static str,
        mut cond: impl FnMut(&State) -> Option<T>,
    ) -> Result<T, FakeError> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let changed = self.state.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            // A body Discord would refuse fails the test now, loudly, not as a missing reply.
            if let Some(first) = lock(&self.state.refused).first() {
                return Err(FakeError::Refused(first.clone()));
            }
            if let Some(v) = cond(&self.state) {
                return Ok(v);
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return Err(FakeError::Timeout(timeout, what));
            }
        }
    }

    /// Every answer from now on, as it happens: dispatch-to-reply latency measured here, in
    /// the fake (a load driver's clock; replaces any earlier subscriber).
    pub fn timings(&self) -> mpsc::UnboundedReceiver<ReplyTiming> {
        let (tx, rx) = mpsc::unbounded_channel();
        *lock(&self.state.timings) = Some(tx);
        rx
    }

    /// The shards connected now, by id.
    pub fn connected_shards(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = lock(&self.state.shards).keys().copied().collect();
        ids.sort_unstable();
        ids
    }

    /// Wait for `count` shards to identify.
    pub async fn wait_shards(&self, count: usize, timeout: Duration) -> Result<(), FakeError> {
        self.wait_for(timeout, "the bot's shards to connect", |s| {
            (lock(&s.shards).len() >= count).then_some(())
        })
        .await
    }

    /// Wait until the bot can be driven: its global commands registered and, over the
    /// gateway, a shard connected (over HTTP nothing connects).
    pub async fn wait_ready(&self, timeout: Duration) -> Result<(), FakeError> {
        self.wait_commands(None, timeout).await?;
        if !self.over_http() {
            self.wait_shards(1, timeout).await?;
        }
        Ok(())
    }

    /// Wait for the bot to register its commands (globally, or in `guild`).
    pub async fn wait_commands(
        &self,
        guild: Option<u64>,
        timeout: Duration,
    ) -> Result<Vec<Value>, FakeError> {
        self.wait_for(timeout, "the bot to register its commands", |s| {
            let reg = lock(&s.registered);
            let set = match guild {
                Some(g) => reg.guild.get(&g).cloned(),
                None => (reg.puts > 0 && !reg.global.is_empty()).then(|| reg.global.clone()),
            };
            set.filter(|c| !c.is_empty())
        })
        .await
    }

    /// The commands registered globally (`None`) or in a guild.
    pub fn commands(&self, guild: Option<u64>) -> Vec<Value> {
        self.state.commands(guild)
    }

    /// The commands a user in `guild` sees: the guild's own first, then the global ones.
    pub fn visible_commands(&self, guild: Option<u64>) -> Vec<Value> {
        let mut all = guild.map(|g| self.state.commands(Some(g))).unwrap_or_default();
        all.extend(self.state.commands(None));
        all
    }

    /// How many times the bot has PUT a command list (global or guild).
    pub fn command_puts(&self) -> usize {
        lock(&self.state.registered).puts
    }

    /// Requests refused because their body broke Discord's schema, each with why.
    pub fn refused_requests(&self) -> Vec<String> {
        lock(&self.state.refused).clone()
    }

    /// Requests the fake did not understand (a test can assert there were none).
    pub fn unhandled_requests(&self) -> Vec<String> {
        lock(&self.state.unhandled).clone()
    }

    pub fn next_id(&self) -> u64 {
        self.state.next_id()
    }

    pub fn app_id(&self) -> u64 {
        self.state.app_id
    }

    /// Deliver an interaction over the gateway to the shard that owns its guild (or, after
    /// [`FakeDiscord::deliver_over_http`], as a signed POST to the bot's endpoint).
    /// Returns its id, for [`FakeDiscord::wait_reply`].
    pub fn deliver(&self, interaction: Value) -> Result<u64, FakeError> {
        let id: u64 = interaction["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or_default();
        let guild: Option<u64> = interaction["guild_id"].as_str().and_then(|s| s.parse().ok());
        let channel: u64 = interaction["channel_id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or_default();
        if let Some(token) = interaction["token"].as_str() {
            lock(&self.state.tokens).insert(token.to_string(), id);
        }
        let pressed = interaction["type"].as_u64() == Some(3);
        lock(&self.state.interactions).insert(
            id,
            InteractionRecord {
                channel_id: channel,
                dispatched: Some(Instant::now()),
                pressed,
                original: pressed.then(|| interaction["message"].clone()),
                ..Default::default()
            },
        );
        if self.state.post_interaction(id, &interaction) {
            return Ok(id);
        }
        let shards = lock(&self.state.shards);
        // Discord's routing: (guild_id >> 22) % shard_count; DMs go to shard 0.
        let target = shards.iter().find(|(sid, sh)| match guild {
            Some(g) => ((g >> 22) % u64::from(sh.total.max(1))) == u64::from(**sid),
            None => **sid == 0,
        });
        let Some((_, shard)) = target else {
            return Err(FakeError::NoShard(guild));
        };
        shard
            .tx
            .send(("INTERACTION_CREATE".into(), interaction))
            .map_err(|_| FakeError::NoShard(guild))?;
        Ok(id)
    }

    /// Wait for the answer the user sees: a message callback, or the edit that completes a
    /// deferred one. Fails (never hangs) when the bot does not answer.
    pub async fn wait_reply(&self, interaction: u64, timeout: Duration) -> Result<Reply, FakeError> {
        self.wait_for(timeout, "a reply", |s| {
            let map = lock(&s.interactions);
            let rec = map.get(&interaction)?;
            complete_reply(rec)
        })
        .await
        .map_err(|e| match e {
            FakeError::Refused(why) => FakeError::Refused(why),
            _ => FakeError::NoReply(interaction, timeout),
        })
    }

    /// Messages the bot posted to a channel (GM channel, DMs: see [`dm_channel_id`]).
    pub fn channel_messages(&self, channel: u64) -> Vec<Value> {
        lock(&self.state.channel_messages)
            .get(&channel)
            .cloned()
            .unwrap_or_default()
    }

    /// Every message the bot posted to a channel (DMs included) after the first `seen`, in
    /// order, and how many there are now (the next call's `seen`).
    pub fn posts_since(&self, seen: usize) -> (Vec<Post>, usize) {
        let posts = lock(&self.state.posts);
        (posts.iter().skip(seen).cloned().collect(), posts.len())
    }

    /// The follow-up messages of an interaction as stored (with ids: their buttons can be
    /// pressed).
    pub fn followup_messages(&self, interaction: u64) -> Vec<Value> {
        lock(&self.state.interactions)
            .get(&interaction)
            .map(|r| r.followup_messages.clone())
            .unwrap_or_default()
    }

    /// Wait until the bot has posted `count` messages to `channel`.
    pub async fn wait_channel_messages(
        &self,
        channel: u64,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<Value>, FakeError> {
        self.wait_for(timeout, "channel messages", |s| {
            let all = lock(&s.channel_messages)
                .get(&channel)
                .cloned()
                .unwrap_or_default();
            (all.len() >= count).then_some(all)
        })
        .await
    }

    /// Every response event so far for an interaction.
    pub fn events(&self, interaction: u64) -> Vec<ReplyEvent> {
        lock(&self.state.interactions)
            .get(&interaction)
            .map(|r| r.events.clone())
            .unwrap_or_default()
    }

    /// The original response message of an interaction (what a later button press refers to).
    pub fn original_message(&self, interaction: u64) -> Option<Value> {
        lock(&self.state.interactions).get(&interaction)?.original.clone()
    }

    /// Drops what is kept of an interaction (its events, messages and token): a long load that
    /// reads each answer once keeps the fake's memory flat.
    pub fn forget(&self, interaction: u64) {
        lock(&self.state.interactions).remove(&interaction);
        lock(&self.state.tokens).retain(|_, v| *v != interaction);
    }

    /// From now on answer command registrations (`PUT …/commands`) with `400` (`true`), or
    /// accept them again (`false`).
    pub fn fail_command_puts(&self, fail: bool) {
        self.state.fail_command_puts.store(fail, Ordering::SeqCst);
    }

    /// The `attachment_size_limit` later interactions carry (Discord's per-server upload cap).
    pub fn set_attachment_size_limit(&self, bytes: u64) {
        self.state.attachment_size_limit.store(bytes, Ordering::SeqCst);
    }

    /// Discord invalidates every shard's session (op 9, `resumable` as its `d`).
    pub fn invalidate_sessions(&self, resumable: bool) {
        for shard in lock(&self.state.shards).values() {
            let _ = shard.tx.send((gateway::INVALID_SESSION.into(), json!(resumable)));
        }
    }

    /// How many times any shard has identified (or resumed) since the fake started.
    pub fn identifies(&self) -> usize {
        self.state.identifies.load(Ordering::SeqCst)
    }

    /// The bot is added to `guild` after start-up: `GUILD_CREATE` to the shard that owns it.
    pub fn add_guild(&self, guild: u64, name: &str) -> Result<(), FakeError> {
        let shards = lock(&self.state.shards);
        let target = shards
            .iter()
            .find(|(sid, sh)| ((guild >> 22) % u64::from(sh.total.max(1))) == u64::from(**sid));
        let Some((_, shard)) = target else {
            return Err(FakeError::NoShard(Some(guild)));
        };
        shard
            .tx
            .send(("GUILD_CREATE".into(), payloads::guild_create(guild, name, 1)))
            .map_err(|_| FakeError::NoShard(Some(guild)))
    }

    /// Build a slash-command interaction (`kind` 2) or an autocomplete request (4).
    pub fn command_interaction(
        &self,
        who: &Invoker,
        kind: u8,
        command: &Value,
        options: Value,
        resolved: Value,
    ) -> Value {
        let id = self.next_id();
        let mut v = payloads::command_interaction(
            id,
            self.app_id(),
            kind,
            &format!("itoken-{id}"),
            who,
            command,
            options,
            resolved,
        );
        v["attachment_size_limit"] = json!(self.state.attachment_size_limit.load(Ordering::SeqCst));
        v
    }

    /// Press a button on `message` as `who` and wait for the answer.
    pub async fn press(
        &self,
        who: &Invoker,
        message: &Value,
        custom_id: &str,
        timeout: Duration,
    ) -> Result<Reply, FakeError> {
        let id = self.deliver(self.button_interaction(who, message, custom_id))?;
        self.wait_reply(id, timeout).await
    }

    /// Build a button press on `message`.
    pub fn button_interaction(&self, who: &Invoker, message: &Value, custom_id: &str) -> Value {
        let id = self.next_id();
        payloads::button_interaction(
            id,
            self.app_id(),
            &format!("itoken-{id}"),
            who,
            message,
            custom_id,
        )
    }
}

/// `(label, custom_id)` of every button on a message, row by row.
pub fn buttons(message: &Value) -> Vec<(String, String)> {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .map(|b| {
            let text = |k: &str| b[k].as_str().unwrap_or_default().to_string();
            (text("label"), text("custom_id"))
        })
        .collect()
}

/// The `custom_id` of the first button whose label starts with `label`.
pub fn button_id(message: &Value, label: &str) -> Option<String> {
    buttons(message)
        .into_iter()
        .find(|(l, _)| l.starts_with(label))
        .map(|(_, id)| id)
}

/// The DM channel the fake opens for a user.
pub fn dm_channel_id(user: u64) -> u64 {
    user ^ 0x0F0F_0000_0000_0000
}

/// The follow-up bodies among `events`, except one that completed a deferred reply.
pub fn followups(events: &[ReplyEvent]) -> Vec<Value> {
    let deferred = events
        .iter()
        .any(|e| matches!(e, ReplyEvent::Callback(b) if matches!(b["type"].as_u64(), Some(5 | 6))));
    let mut out: Vec<Value> = events
        .iter()
        .filter_map(|e| {
            if let ReplyEvent::Followup(b) = e {
                Some(b.clone())
            } else {
                None
            }
        })
        .collect();
    let answered = events.iter().any(|e| matches!(e, ReplyEvent::EditOriginal(_)));
    if deferred && !answered && !out.is_empty() {
        out.remove(0);
    }
    out
}

/// The body that completed an interaction, if any yet.
fn complete_reply(rec: &InteractionRecord) -> Option<Reply> {
    let mut deferred = false;
    let mut done: Option<(Value, Value)> = None;
    for e in &rec.events {
        match e {
            ReplyEvent::Callback(body) => match body["type"].as_u64() {
                // Message, update message, autocomplete result, modal.
                Some(4) | Some(7) | Some(8) | Some(9) => done = Some((body.clone(), body["data"].clone())),
                Some(5) | Some(6) => deferred = true,
                _ => {}
            },
            ReplyEvent::EditOriginal(body) if deferred || done.is_some() => {
                let msg = rec.original.clone().unwrap_or_else(|| body.clone());
                done = Some((body.clone(), msg));
            }
            ReplyEvent::Followup(body) if deferred && done.is_none() => {
                done = Some((body.clone(), body.clone()))
            }
            _ => {}
        }
    }
    let (body, message) = done?;
    let flags = message["flags"].as_u64().unwrap_or(0);
    Some(Reply {
        body,
        ephemeral: flags & 64 != 0,
        message,
        events: rec.events.clone(),
        followups: followups(&rec.events),
    })
}
