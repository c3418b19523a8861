//! Persistence: server and channel settings, sessions and the roll log, on PostgreSQL
//! (production) or SQLite (the embedded default). Both implement [`Store`] and pass one contract
//! test suite (`commands/tests/bot/store_contract_*.rs`).
//!
//! Every session change goes through [`Store::update_session`]: load, apply a pure engine
//! transition, save, in one transaction whose `UPDATE … WHERE id = ? AND version = ?` refuses
//! to overwrite a change made meanwhile; such conflicts are retried a few times, then reported
//! as [`StoreError::Conflict`].

pub mod cache;
mod cached_store;
mod combine;
mod conns;
mod json_text;
pub(crate) mod limits;
mod log_pages;
mod log_row;
mod migrations;
mod pg_session_write;
mod postgres;
mod record_batch;
mod sql;
mod sqlite;
mod statements;

use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use engine::i18n::{Lang, Localized};
use engine::session::{
    Actor, ChannelSettings, RollLogEntry, ServerSettings, Session, SessionError, SessionExport,
};
use thiserror::Error;

pub use cache::Caches;
pub use cached_store::CachedStore;
pub use json_text::JsonText;
pub use limits::{PING_LIMIT, READ_LIMIT, WRITE_LIMIT};
pub use log_row::LogRow;
pub use migrations::until as migrations_until;
pub use postgres::PgStore;
pub use sqlite::SqliteStore;

/// What every store method returns: boxed so `Store` works as `Arc<dyn Store>`.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A change to a session, given to [`Store::update_session`]. It may run more than once (once
/// per attempt, each time on a freshly loaded session), so it must not have side effects
/// beyond the session it is handed.
/// A change to settings, applied inside the store's transaction.
pub type SettingsEdit<'a, T> = dyn FnMut(&mut T) -> Result<(), SessionError> + Send + 'a;

pub type Edit<'a> = dyn FnMut(&mut Session) -> Result<(), SessionError> + Send + 'a;

/// How often an update is tried before it reports [`StoreError::Conflict`].
pub const UPDATE_ATTEMPTS: u32 = 5;
/// How long an operation waits for a database connection before answering
/// [`StoreError::Unavailable`]: short, so during an outage a command still gets its "storage
/// unavailable" reply inside Discord's 3 s interaction deadline instead of hanging.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(2);
/// Most roll log entries [`Store::recent_rolls`] returns.
pub const MAX_RECENT_ROLLS: u32 = 1000;
/// Most roll log entries one [`Store::export_page`] reads (and one export holds).
pub const MAX_EXPORT_ROLLS: u32 = 5000;
/// Most rows one [`Store::stream_page`] hands over: what a page costs is its reading time, not
/// its memory (within the read limit on a busy machine).
pub const MAX_STREAM_ROLLS: u32 = 25_000;

/// A bounded part of a session's export (see [`Store::export_page`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ExportPage {
    /// The session and the rolls of this page.
    pub export: SessionExport,
    /// The index (0-based) of the page's first roll in the whole log.
    pub offset: u32,
    /// How many rolls the whole log has.
    pub total_rolls: u64,
    /// A campaign's page: each evening's session id and number, first to last (empty for one
    /// evening's page), read in the same snapshot.
    pub evenings: Vec<(i64, u32)>,
}

/// What [`Store::stream_page`] hands its head, then each row, to: `Break` to read no more.
pub type RowSink<'a> = dyn FnMut(PageItem<'_>) -> std::ops::ControlFlow<()> + Send + 'a;

/// A page as [`Store::stream_page`] reads it: its head first, then its rows in order.
#[derive(Debug)]
pub enum PageItem<'a> {
    Head(&'a PageHead),
    Row(LogRow),
}

/// A page's head (see [`Store::stream_page`]): what is read beside its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct PageHead {
    /// The session (a campaign's newest evening): shared with the cache that keeps it, when
    /// it does (an export, recap or luck read it without a copy).
    pub session: std::sync::Arc<Session>,
    /// The index (0-based) of the page's first roll in the whole log.
    pub offset: u32,
    /// How many rolls the whole log has.
    pub total_rolls: u64,
    /// A campaign's page: each evening's session id and number, first to last (empty for one
    /// evening's page).
    pub evenings: Vec<(i64, u32)>,
    /// Each roller's last name on the page (raw), when asked for.
    pub names: std::collections::BTreeMap<u64, String>,
}

/// A page with its rows held (see [`Store::export_page`]).
async fn collect_page<S: Store + ?Sized>(
    store: &S,
    scope: LogScope,
    offset: u32,
    limit: u32,
) -> Result<ExportPage, StoreError> {
    let mut log = Vec::new();
    let head = store
        .stream_page(scope, offset, limit.min(MAX_EXPORT_ROLLS), false, &mut |item| {
            if let PageItem::Row(row) = item {
                log.extend(row.entry());
            }
            std::ops::ControlFlow::Continue(())
        })
        .await?;
    Ok(ExportPage {
        export: SessionExport::new(std::sync::Arc::unwrap_or_clone(head.session), log),
        offset: head.offset,
        total_rolls: head.total_rolls,
        evenings: head.evenings,
    })
}

/// Which log a page is read from: one evening's (a session id) or a whole campaign's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogScope {
    Evening(i64),
    Campaign(i64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

/// Why a store operation failed. [`Localized`] gives the sentence for users; `Display` adds the
/// database's own words for the log and must not be shown to users.
/// `Clone`: one failure of a batch of edits is every member's answer (`combine`).
#[derive(Debug, Clone, Error)]
pub enum StoreError {
    /// The database cannot be reached (connection refused, pool timed out, server shutting
    /// down, disk full…). Nothing was written.
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    /// The change was sent with its commit and the database never answered (it froze): it may
    /// or may not have been made ([`WRITE_LIMIT`]).
    #[error("the database did not confirm the commit")]
    Unconfirmed,
    /// The session kept changing under us for [`UPDATE_ATTEMPTS`] attempts.
    #[error("the session changed meanwhile")]
    Conflict,
    /// No such session (or no active one in that channel).
    #[error("no such session")]
    NotFound,
    /// A session is already active in that channel or thread.
    #[error("a session is already active in this channel")]
    AlreadyActive,
    /// The button was already pressed.
    #[error("that action was already taken")]
    AlreadyUsed,
    /// The engine refused the change; nothing was written.
    #[error(transparent)]
    Invalid(#[from] SessionError),
    /// A bug or damaged data: logged with its detail, shown to users as a generic failure.
    #[error("storage error: {0}")]
    Internal(String),
}

impl Localized for StoreError {
    fn localized(&self, lang: Lang) -> String {
        match (self, lang) {
            (StoreError::Unavailable(_), Lang::En) => {
                "Storage is unavailable right now, so nothing was saved. Rolls without a session \
                 still work; please try again in a moment."
                    .into()
            }
            (StoreError::Unavailable(_), Lang::Ja) => {
                "現在データを保存できないため、何も変更していません。セッションを使わないダイスは\
                 振れます。しばらくしてからもう一度お試しください。"
                    .into()
            }
            (StoreError::Unconfirmed, Lang::En) => {
                "Storage stopped answering just as the change was being saved, so it may or may not \
                 have been made. Look before trying again (for example /session status or /char \
                 show) so it is not made twice."
                    .into()
            }
            (StoreError::Unconfirmed, Lang::Ja) => {
                "保存の途中でストレージが応答しなくなったため、変更が反映されたかどうか分かりません。\
                 二重に変更しないよう、やり直す前に確認してください（例: /session status や /char \
                 show）。"
                    .into()
            }
            (StoreError::Conflict, Lang::En) => "The session changed meanwhile; please try again.".into(),
            (StoreError::Conflict, Lang::Ja) => {
                "セッションが同時に変更されました。もう一度お試しください。".into()
            }
            (StoreError::NotFound, Lang::En) => "There is no such session here.".into(),
            (StoreError::NotFound, Lang::Ja) => "該当するセッションがありません。".into(),
            (StoreError::AlreadyActive, Lang::En) => {
                "A session is already running in this channel; end it first.".into()
            }
            (StoreError::AlreadyActive, Lang::Ja) => {
                "このチャンネルではすでにセッションが進行中です。先に終了してください。".into()
            }
            (StoreError::AlreadyUsed, Lang::En) => "That button was already used.".into(),
            (StoreError::AlreadyUsed, Lang::Ja) => "このボタンはすでに使われています。".into(),
            (StoreError::Invalid(e), lang) => e.localized(lang),
            (StoreError::Internal(_), Lang::En) => {
                "Something went wrong with storage; nothing was changed.".into()
            }
            (StoreError::Internal(_), Lang::Ja) => {
                "保存中に問題が発生しました。何も変更していません。".into()
            }
        }
    }
}

/// A new one-shot action behind a button.
#[derive(Debug, Clone, PartialEq)]
pub struct NewAction {
    /// What pressing does, e.g. `reveal`, `sr.second_chance`; the handler's routing key.
    pub kind: String,
    pub guild: Option<u64>,
    pub channel: u64,
    /// Who may press it (besides the GM, where the handler allows).
    pub owner: u64,
    /// What the press needs, written once as JSON where the button is made.
    pub payload: JsonText,
}

/// A roll to append to a session's log: [`RollLogEntry`] as written, its outcome already JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct NewRoll {
    pub session_id: i64,
    pub user_id: u64,
    /// The command as typed or rebuilt from its options, e.g. `/sr test pool:12 threshold:3`.
    pub command: String,
    pub outcome: JsonText,
    /// Unix milliseconds.
    pub at_ms: i64,
    /// The roller's display name as Discord gave it ([`RollLogEntry::user_name`]).
    pub user_name: Option<String>,
}

impl From<&RollLogEntry> for NewRoll {
    fn from(e: &RollLogEntry) -> NewRoll {
        NewRoll {
            session_id: e.session_id,
            user_id: e.user_id,
            command: e.command.clone(),
            outcome: JsonText::from(&e.outcome),
            at_ms: e.at_ms,
            user_name: e.user_name.clone(),
        }
    }
}

/// What [`Store::record`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// The new actions' ids, in the order given.
    pub action_ids: Vec<i64>,
    /// False when the roll was not logged because its session is gone or ended.
    pub logged: bool,
}

/// A stored action.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub id: i64,
    pub kind: String,
    pub guild: Option<u64>,
    pub channel: u64,
    pub owner: u64,
    pub payload: serde_json::Value,
    pub created_at_ms: i64,
    pub used_at_ms: Option<i64>,
}

/// Who presses a button, and where: what [`Store::press_action`] checks before it uses the
/// action.
#[derive(Debug, Clone, Copy)]
pub struct Presser<'a> {
    pub user: u64,
    pub channel: u64,
    pub guild: Option<u64>,
    /// The presser is the GM (the session's, the server's GM role, or manages the server): may
    /// press others' buttons, except those of [`Self::owner_only`].
    pub gm: bool,
    /// The action kind only its owner may press, GM or not (a secret roll's reveal).
    pub owner_only: &'a str,
}

/// What came of a press: the action, now used, or why it was not.
#[derive(Debug, Clone, PartialEq)]
pub enum Pressed {
    Used(Action),
    /// No such action (what it belonged to was deleted, or it never existed).
    Gone,
    /// The button belongs to another channel's (or server's) message.
    Elsewhere,
    /// Someone else's button, and the presser may not press it for them.
    NotYours {
        owner: u64,
    },
}

impl Presser<'_> {
    /// Why this presser may not use `action`, if they may not (used or not).
    pub fn refusal(&self, action: &Action) -> Option<Pressed> {
        if action.channel != self.channel || action.guild != self.guild {
            return Some(Pressed::Elsewhere);
        }
        let for_owner = self.gm && action.kind != self.owner_only;
        (action.owner != self.user && !for_owner).then_some(Pressed::NotYours { owner: action.owner })
    }
}

/// The persistence the bot needs. Discord ids are `u64`; times are unix milliseconds.
pub trait Store: Send + Sync {
    fn backend(&self) -> Backend;

    /// `None` when the server never saved settings (use `ServerSettings::default()`).
    fn server_settings(&self, guild: u64) -> StoreFuture<'_, Option<ServerSettings>>;
    /// Replace a server's settings: [`Self::update_server_settings`] with the whole value.
    fn put_server_settings<'a>(&'a self, guild: u64, settings: &'a ServerSettings) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut replace = |s: &mut ServerSettings| {
                *s = settings.clone();
                Ok(())
            };
            self.update_server_settings(guild, &mut replace).await.map(|_| ())
        })
    }

    /// Read, change and save a server's settings in one transaction (the row locked), so two
    /// admins changing different settings at once both land. A refused edit writes nothing.
    fn update_server_settings<'a>(
        &'a self,
        guild: u64,
        edit: &'a mut SettingsEdit<'_, ServerSettings>,
    ) -> StoreFuture<'a, ServerSettings>;
    /// The same for a channel's settings.
    fn update_channel_settings<'a>(
        &'a self,
        guild: u64,
        channel: u64,
        edit: &'a mut SettingsEdit<'_, ChannelSettings>,
    ) -> StoreFuture<'a, ChannelSettings>;
    fn channel_settings(&self, channel: u64) -> StoreFuture<'_, Option<ChannelSettings>>;
    /// Replace a channel's settings: [`Self::update_channel_settings`] with the whole value.
    fn put_channel_settings<'a>(
        &'a self,
        guild: u64,
        channel: u64,
        settings: &'a ChannelSettings,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut replace = |s: &mut ChannelSettings| {
                *s = *settings;
                Ok(())
            };
            self.update_channel_settings(guild, channel, &mut replace)
                .await
                .map(|_| ())
        })
    }

    /// Stores a new session (from `Session::start`) and returns it with its id and version 1.
    /// [`StoreError::AlreadyActive`] if one is active in that channel, decided by a unique
    /// index so racing starts cannot both win.
    fn create_session<'a>(&'a self, session: &'a Session) -> StoreFuture<'a, Session>;

    /// The active session in a channel or thread.
    fn active_session(&self, channel: u64) -> StoreFuture<'_, Option<Session>>;

    /// [`Self::active_session`], shared: the read cache hands out the session it keeps
    /// instead of a deep copy (a command that only reads its session copies nothing).
    fn shared_session(&self, channel: u64) -> StoreFuture<'_, Option<Arc<Session>>> {
        Box::pin(async move { Ok(self.active_session(channel).await?.map(Arc::new)) })
    }

    /// Any session, active or ended, by id.
    fn session(&self, id: i64) -> StoreFuture<'_, Option<Session>>;

    /// Loads the channel's active session, applies `edit`, and saves it with its version bumped
    /// and `updated_at_ms` set, all in one transaction with an optimistic version check.
    /// A refused edit returns [`StoreError::Invalid`] and writes nothing; an edit that changes
    /// nothing is not written either. Returns the session as saved.
    /// The saved session is shared with the read cache, not copied.
    fn update_session<'a>(&'a self, channel: u64, edit: &'a mut Edit<'_>) -> StoreFuture<'a, Arc<Session>>;

    /// Ends (archives) the channel's active session; it stays readable with its log.
    fn end_session(&self, channel: u64, actor: Actor, now_ms: i64) -> StoreFuture<'_, Arc<Session>> {
        Box::pin(async move {
            let mut end = move |s: &mut Session| s.end(actor, now_ms);
            self.update_session(channel, &mut end).await
        })
    }

    /// A guild's ended sessions, most recently ended first.
    fn ended_sessions(&self, guild: u64, limit: u32) -> StoreFuture<'_, Vec<Session>>;

    /// Appends a roll to an active session's log ([`StoreError::NotFound`] if that session is
    /// missing or ended). The log is append-only; the database refuses updates and deletes.
    fn append_roll<'a>(&'a self, entry: &'a NewRoll) -> StoreFuture<'a, ()>;

    /// What one command leaves behind: the actions behind its buttons and its roll in the
    /// session's log (logged only while that session is active; see [`Recorded::logged`]), in
    /// one transaction and as few round trips as the store allows (PostgreSQL one statement;
    /// SQLite one statement for a roll alone, see `SqliteStore`).
    /// The default writes one row at a time (for wrappers in tests); the real stores override it.
    fn record<'a>(
        &'a self,
        actions: &'a [NewAction],
        roll: Option<&'a NewRoll>,
    ) -> StoreFuture<'a, Recorded> {
        Box::pin(async move {
            let mut action_ids = Vec::with_capacity(actions.len());
            for a in actions {
                action_ids.push(self.create_action(a).await?);
            }
            let logged = match roll {
                None => false,
                Some(r) => match self.append_roll(r).await {
                    Ok(()) => true,
                    Err(StoreError::NotFound) => false,
                    Err(e) => return Err(e),
                },
            };
            Ok(Recorded { action_ids, logged })
        })
    }

    /// The last `count` rolls of a session (at most [`MAX_RECENT_ROLLS`]), oldest first.
    fn recent_rolls(&self, session_id: i64, count: u32) -> StoreFuture<'_, Vec<RollLogEntry>>;

    /// [`Self::recent_rolls`] as a transcript reads them: each outcome light
    /// ([`LogRow::light_entry`]: its summaries, hidden mark and luck input; whole for a row
    /// logged before summaries). What `/session log` shows. Default: the whole rows.
    fn recent_lines(&self, session_id: i64, count: u32) -> StoreFuture<'_, Vec<RollLogEntry>> {
        self.recent_rolls(session_id, count)
    }

    /// A page of an evening's or a campaign's log, handed to `each`: first the page's head (its
    /// session, a campaign's newest evening; the log's length; when `names`, each roller's last
    /// name on the page), then its rows from roll `offset` (0-based, oldest first), at most
    /// `limit` (capped at [`MAX_STREAM_ROLLS`]), one at a time as the database sends them
    /// (`Break` stops early). Read as one consistent snapshot; returns the head. Memory stays at
    /// one row however long the log: exports, recaps and luck read this way.
    fn stream_page<'a>(
        &'a self,
        scope: LogScope,
        offset: u32,
        limit: u32,
        names: bool,
        each: &'a mut RowSink<'_>,
    ) -> StoreFuture<'a, PageHead>;

    /// A session with the part of its log from roll `offset` (0-based, oldest first), at most
    /// `limit` rolls (capped at [`MAX_EXPORT_ROLLS`]) and the log's total length, read as one
    /// consistent snapshot (for short pages: the rows are held; see [`Self::stream_page`]).
    fn export_page(&self, session_id: i64, offset: u32, limit: u32) -> StoreFuture<'_, ExportPage> {
        Box::pin(collect_page(self, LogScope::Evening(session_id), offset, limit))
    }

    /// [`Self::export_page`] over every evening of campaign `campaign` (the id of its first
    /// evening, [`Session::campaign`]), headed by its newest evening.
    fn campaign_page(&self, campaign: i64, offset: u32, limit: u32) -> StoreFuture<'_, ExportPage> {
        Box::pin(collect_page(self, LogScope::Campaign(campaign), offset, limit))
    }

    /// The channel's newest session, active or ended: the campaign `/session start` offers to
    /// continue.
    fn last_session(&self, channel: u64) -> StoreFuture<'_, Option<Session>>;

    /// Deletes a campaign: every evening and its whole log, in one transaction (the one way
    /// rolls leave the log). Refused with [`StoreError::AlreadyActive`] while an evening runs,
    /// [`StoreError::NotFound`] for an unknown campaign. Returns (evenings, rolls) deleted.
    fn delete_campaign(&self, campaign: i64) -> StoreFuture<'_, (u64, u64)>;

    /// Every evening of a campaign, first to last (empty for an unknown campaign).
    fn campaign_sessions(&self, campaign: i64) -> StoreFuture<'_, Vec<Session>>;

    /// A session with (the first [`MAX_EXPORT_ROLLS`] rolls of) its log.
    fn export_session(&self, session_id: i64) -> StoreFuture<'_, SessionExport> {
        Box::pin(async move { Ok(self.export_page(session_id, 0, MAX_EXPORT_ROLLS).await?.export) })
    }

    /// Records the state behind a button; the id goes into its `custom_id`.
    fn create_action<'a>(&'a self, action: &'a NewAction) -> StoreFuture<'a, i64>;
    /// An action, used or not (to check who may press before using it).
    fn action(&self, id: i64) -> StoreFuture<'_, Option<Action>>;
    /// Marks an action used, atomically: [`StoreError::AlreadyUsed`] on a second press.
    fn use_action(&self, id: i64) -> StoreFuture<'_, Action>;
    /// A press of action `id`'s button by `who`: the action used if they may press it there and
    /// nobody did yet ([`StoreError::AlreadyUsed`] on a second press), else why not, with the
    /// action left as it was. The real stores check and use in one statement (one round trip
    /// for a press that lands); the default reads, checks, then uses.
    fn press_action<'a>(&'a self, id: i64, who: Presser<'a>) -> StoreFuture<'a, Pressed> {
        Box::pin(async move {
            let Some(action) = self.action(id).await? else {
                return Ok(Pressed::Gone);
            };
            if let Some(refused) = who.refusal(&action) {
                return Ok(refused);
            }
            Ok(Pressed::Used(self.use_action(id).await?))
        })
    }
    /// Undoes [`Store::use_action`] when what the button does could not be saved.
    fn release_action(&self, id: i64) -> StoreFuture<'_, ()>;

    /// Closes the pool: waits for operations in flight, then refuses new ones.
    fn close(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;

    /// Asks the database itself (never a cache) whether it answers, within [`PING_LIMIT`]:
    /// what `/readyz` reports.
    fn ping(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            match tokio::time::timeout(PING_LIMIT, self.server_settings(0)).await {
                Ok(r) => r.map(|_| ()),
                Err(_) => Err(StoreError::Unavailable("no answer to the probe".into())),
            }
        })
    }

    /// The read cache in front of this store, if any (for tests and metrics).
    fn caches(&self) -> Option<&Caches> {
        None
    }

    /// Put behind `caches` ([`CachedStore::new`]): a store that can, starts its session writes
    /// from the session kept there and keeps what it saves (see `cache`). Others ignore it.
    fn keep_sessions_in(&self, _caches: Arc<Caches>) {}

    /// The connection pool's (open connections, idle connections), for metrics; `None` when
    /// the store has no pool.
    fn pool_status(&self) -> Option<(u32, usize)> {
        None
    }
}

impl dyn Store + '_ {
    /// [`Store::update_session`] with any closure, without spelling out `&mut`.
    pub async fn update(
        &self,
        channel: u64,
        mut edit: impl FnMut(&mut Session) -> Result<(), SessionError> + Send,
    ) -> Result<Arc<Session>, StoreError> {
        self.update_session(channel, &mut edit).await
    }
}

/// PostgreSQL when `database_url` is given; otherwise SQLite in `data_dir/saikoro.db` (the
/// directory is created). Runs the migrations before returning. Either way behind the read
/// cache ([`CachedStore`]).
pub async fn connect(database_url: Option<&str>, data_dir: &Path) -> Result<Arc<dyn Store>, StoreError> {
    match database_url {
        Some(url) => Ok(cached_postgres(PgStore::connect(url).await?)),
        None => cached_sqlite(data_dir).await,
    }
}

async fn cached_sqlite(data_dir: &Path) -> Result<Arc<dyn Store>, StoreError> {
    std::fs::create_dir_all(data_dir).map_err(|e| {
        StoreError::Unavailable(format!(
            "cannot create data directory {}: {e}",
            data_dir.display()
        ))
    })?;
    let store = SqliteStore::open(&data_dir.join("saikoro.db")).await?;
    // One process owns the file: every change passes through this store.
    Ok(Arc::new(CachedStore::new(
        Arc::new(store),
        Arc::new(Caches::new(true)),
    )))
}

/// PostgreSQL is shared by every bot process: the cache is used only while the change feed
/// from the database is connected.
fn cached_postgres(store: PgStore) -> Arc<dyn Store> {
    let caches = Arc::new(Caches::new(false));
    store.follow_changes(Arc::downgrade(&caches));
    Arc::new(CachedStore::new(Arc::new(store), caches))
}

/// [`connect`] for the bot at start-up: PostgreSQL that is down does not keep the bot from
/// starting (see [`PgStore::connect_eventually`]); SQLite is local and opens at once.
pub async fn connect_for_serving(
    database_url: Option<&str>,
    data_dir: &Path,
) -> Result<Arc<dyn Store>, StoreError> {
    match database_url {
        Some(url) => Ok(cached_postgres(PgStore::connect_eventually(url).await?)),
        None => cached_sqlite(data_dir).await,
    }
}

/// The store's clock.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Discord snowflakes are `u64`; both databases store them bit-for-bit in a signed 64-bit
/// column. The casts are exact inverses of each other.
pub(crate) fn to_db(id: u64) -> i64 {
    id as i64
}

pub(crate) fn from_db(id: i64) -> u64 {
    id as u64
}

/// Errors every driver reports the same way.
pub(crate) fn classify_common(e: &sqlx::Error) -> Option<StoreError> {
    use sqlx::Error as E;
    match e {
        E::Io(_) | E::Tls(_) | E::PoolTimedOut | E::PoolClosed | E::WorkerCrashed | E::Protocol(_) => {
            Some(StoreError::Unavailable(e.to_string()))
        }
        E::RowNotFound => Some(StoreError::NotFound),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snowflakes_survive_the_signed_column() {
        for id in [0, 1, 1_234_567_890_123_456_789, u64::MAX, 1 << 63] {
            assert_eq!(from_db(to_db(id)), id);
        }
    }

    #[test]
    fn users_never_see_database_text() {
        let secret = "relation \"sessions\" does not exist at 10.0.0.5";
        for e in [
            StoreError::Unavailable(secret.into()),
            StoreError::Internal(secret.into()),
        ] {
            for lang in [Lang::En, Lang::Ja] {
                let text = e.localized(lang);
                assert!(!text.contains("sessions") && !text.contains("10.0.0.5"), "{text}");
            }
        }
        let invalid = StoreError::Invalid(SessionError::Ended);
        assert_eq!(
            invalid.localized(Lang::Ja),
            SessionError::Ended.localized(Lang::Ja)
        );
        for e in [
            StoreError::Conflict,
            StoreError::Unconfirmed,
            StoreError::NotFound,
            StoreError::AlreadyActive,
        ] {
            assert_ne!(e.localized(Lang::En), e.localized(Lang::Ja));
        }
    }
}
