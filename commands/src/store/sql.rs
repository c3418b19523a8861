//! The one implementation of [`Store`](super::Store) over the SQL both backends share
//! (`statements.rs`).
//!
//! PostgreSQL and SQLite accept the same statements (SQLite understands `$1`, `RETURNING`
//! and `ON CONFLICT … DO UPDATE`), and sqlx's query API is the same for both pools, so the
//! implementation is written once, as a macro instantiated per backend. Each backend supplies
//! only what truly differs: how a write transaction begins, how the active session is locked,
//! and how driver errors are classified.

pub(super) use super::statements::*;

/// Implements [`Store`](super::Store) for a backend type with a `conns` field
/// ([`Conns`](super::conns::Conns)) and these associated items: `BACKEND`, `BEGIN_WRITE`
/// (starts a transaction that may write), `async fn begin_snapshot_with(conn, read, id)`
/// (begins a consistent read with `read`'s rows for `id`),
/// `async fn begin_locked(conn, channel)` (begins a session write and reads the active
/// session's id and version, row-locked where the backend locks rows),
/// `async fn save_and_commit(conn, after, version, changes, sent)` (saves the session over
/// that version and commits; the rows it saved),
/// `fn classify(sqlx::Error) -> StoreError`, `fn schema_ready(&self) -> bool` (the migrations
/// have run: `/readyz`), `async fn write_turn(&self)` (what a writer holds
/// while it writes: SQLite's one writer at a time, taken in turn instead of sleeping on the
/// file lock); and [`BatchWriter`](super::record_batch::BatchWriter), which
/// [`Store::record`](super::Store::record) writes through (group commit).
macro_rules! sql_store {
    ($store:ty, $row:ty, $db:ty) => {
        // An anonymous const scopes these imports to the expansion.
        const _: () = {
            use std::future::Future;
            use std::pin::Pin;
            use std::sync::Arc;
            use std::sync::atomic::AtomicBool;

            use engine::session::{ChannelSettings, RollLogEntry, ServerSettings, Session, SessionError};
            use sqlx::types::Json;
            use sqlx::{Connection, Row};

            use $crate::store::combine::{Member, Turn, apply_all, member};
            use $crate::store::limits::{self, Held, PING_LIMIT, WRITE_LIMIT};
            use $crate::store::sql::*;
            use $crate::store::{
                Action, Backend, Edit, LogScope, MAX_RECENT_ROLLS, NewAction, NewRoll, Recorded,
                SettingsEdit, Store, StoreError, StoreFuture, UPDATE_ATTEMPTS, from_db, now_ms, to_db,
            };

            $crate::store::log_pages::sql_log_pages!($store);

            impl $store {
                fn session_from_row(row: &$row) -> Result<Session, StoreError> {
                    let Json(mut session): Json<Session> = row.try_get("state").map_err(Self::classify)?;
                    // The columns are authoritative; the JSON copy of these may be stale.
                    session.id = row.try_get("id").map_err(Self::classify)?;
                    session.version = row.try_get("version").map_err(Self::classify)?;
                    session.updated_at_ms = row.try_get("updated_at_ms").map_err(Self::classify)?;
                    session.ended_at_ms = row.try_get("ended_at_ms").map_err(Self::classify)?;
                    Ok(session)
                }

                /// The session of `row` (its `id`, `channel_id` and `version`) as this
                /// process keeps it, if it keeps that version.
                fn kept_at(&self, row: &$row) -> Result<Option<std::sync::Arc<Session>>, StoreError> {
                    let Some(caches) = self.kept.caches() else {
                        return Ok(None);
                    };
                    let id: i64 = row.try_get("id").map_err(Self::classify)?;
                    let version: i64 = row.try_get("version").map_err(Self::classify)?;
                    let channel: i64 = row.try_get("channel_id").map_err(Self::classify)?;
                    Ok(caches
                        .kept_session(from_db(channel))
                        .filter(|k| (k.id, k.version) == (id, version)))
                }

                fn roll_from_row(row: &$row) -> Result<RollLogEntry, StoreError> {
                    Self::log_row_from_row(row)?
                        .entry()
                        .ok_or_else(Self::not_json)
                }

                fn not_json() -> StoreError {
                    StoreError::Internal("a logged outcome is not JSON".into())
                }

                /// Runs `update` (an UPDATE of one action, RETURNING it) as a write of its own,
                /// marked sent as it goes: the action it changed, if any.
                async fn update_action(
                    &self,
                    update: sqlx::query::Query<'_, $db, <$db as sqlx::Database>::Arguments>,
                ) -> Result<Option<Action>, StoreError> {
                    let sent = AtomicBool::new(false);
                    let row = limits::write(&sent, async {
                        let _turn = self.write_turn().await;
                        limits::statement(&self.conns, async |conn| {
                            limits::mark(&sent);
                            update.fetch_optional(conn).await
                        })
                        .await
                        .map_err(Self::classify)
                    })
                    .await?;
                    row.as_ref().map(Self::action_from_row).transpose()
                }

                /// The last `count` rows of a session's log, newest first.
                async fn recent_rows(&self, session_id: i64, count: u32) -> Result<Vec<$row>, StoreError> {
                    limits::statement(&self.conns, async |conn| {
                        sqlx::query(SELECT_RECENT_ROLLS)
                            .bind(session_id)
                            .bind(i64::from(count.min(MAX_RECENT_ROLLS)))
                            .fetch_all(conn)
                            .await
                    })
                    .await
                    .map_err(Self::classify)
                }

                /// A page's row with its outcome as the database sent it (see `LogRow`).
                fn log_row_from_row(row: &$row) -> Result<$crate::store::LogRow, StoreError> {
                    Ok($crate::store::LogRow {
                        session_id: row.try_get("session_id").map_err(Self::classify)?,
                        user_id: from_db(row.try_get("user_id").map_err(Self::classify)?),
                        command: row.try_get("command").map_err(Self::classify)?,
                        outcome: row.try_get("outcome").map_err(Self::classify)?,
                        at_ms: row.try_get("at_ms").map_err(Self::classify)?,
                        user_name: row.try_get("user_name").map_err(Self::classify)?,
                    })
                }

                fn action_from_row(row: &$row) -> Result<Action, StoreError> {
                    let Json(payload): Json<serde_json::Value> =
                        row.try_get("payload").map_err(Self::classify)?;
                    let guild: Option<i64> = row.try_get("guild_id").map_err(Self::classify)?;
                    Ok(Action {
                        id: row.try_get("id").map_err(Self::classify)?,
                        kind: row.try_get("kind").map_err(Self::classify)?,
                        guild: guild.map(from_db),
                        channel: from_db(row.try_get("channel_id").map_err(Self::classify)?),
                        owner: from_db(row.try_get("owner_id").map_err(Self::classify)?),
                        payload,
                        created_at_ms: row.try_get("created_at_ms").map_err(Self::classify)?,
                        used_at_ms: row.try_get("used_at_ms").map_err(Self::classify)?,
                    })
                }

                /// Serves the channel's waiting edits, a batch per transaction, until none wait
                /// (see `combine`). Runs in a task of its own.
                async fn serve_edits(self, channel: u64) {
                    loop {
                        let members = self.combiner.take(channel);
                        if members.is_empty() {
                            return;
                        }
                        // The batch ends by its oldest edit's deadline, so no edit waits longer
                        // than its own limit, however long the one before it hung.
                        let deadline = members
                            .iter()
                            .map(|m| m.deadline)
                            .min()
                            .unwrap_or_else(|| tokio::time::Instant::now() + WRITE_LIMIT);
                        let sent = AtomicBool::new(false);
                        let attempts = async {
                            let mut attempt = 1;
                            loop {
                                // Each attempt waits its turn on the row (PostgreSQL `FOR UPDATE`,
                                // SQLite's writer turn): nothing to sleep for. A conflict is a
                                // deadlock or a lock held past `lock_timeout`; the members apply
                                // again.
                                match self.write_batch(channel, &members, &sent).await {
                                    Err(StoreError::Conflict) if attempt < UPDATE_ATTEMPTS => attempt += 1,
                                    other => return other,
                                }
                            }
                        };
                        let outcomes: Vec<Result<Arc<Session>, StoreError>> =
                            match limits::by(deadline, &sent, attempts).await {
                                Ok(outcomes) => outcomes,
                                Err(e) => members.iter().map(|_| Err(e.clone())).collect(),
                            };
                        for (m, outcome) in members.iter().zip(outcomes) {
                            let _ = m.turns.send(Turn::Done(outcome));
                        }
                    }
                }

                /// The batch's transaction on a pooled connection (see [`Self::write_batch_on`]).
                async fn write_batch(
                    &self,
                    channel: u64,
                    members: &[Member],
                    sent: &AtomicBool,
                ) -> Result<Vec<Result<Arc<Session>, StoreError>>, StoreError> {
                    let _turn = self.write_turn().await;
                    let mut held = Held::take(&self.conns).await.map_err(Self::classify)?;
                    let written = self.write_batch_on(&mut held, channel, members, sent).await;
                    held.ended(&written);
                    written
                }

                /// One transaction for the batch: the active session's row is locked (its id
                /// and version read, not its state); the session this process kept (see
                /// `cache`) is used when it is that version, else the row is read. Each member
                /// applies its edit once, under the lock, on the latest session; the result is
                /// saved with the version raised by the number of edits that changed something,
                /// and kept for the next command. Every early return drops the transaction
                /// (rolled back), and nothing can land before COMMIT is sent.
                async fn write_batch_on(
                    &self,
                    held: &mut Held<'_, $db>,
                    channel: u64,
                    members: &[Member],
                    sent: &AtomicBool,
                ) -> Result<Vec<Result<Arc<Session>, StoreError>>, StoreError> {
                    // The caches, and where this write began for them.
                    let caches = self.kept.caches().map(|c| (c, c.write_start()));
                    // The transaction is the backend's own statements (see `begin_locked`,
                    // `save_and_commit`), not sqlx's: on PostgreSQL each is one round trip.
                    // Every early return leaves it open and `write_batch` then closes the
                    // connection (the database rolls back); nothing lands before the commit.
                    let (id, version) = Self::begin_locked(&mut held.conn, channel)
                        .await
                        .map_err(Self::classify)?
                        .ok_or(StoreError::NotFound)?;
                    let kept = caches
                        .and_then(|(c, _)| c.kept_session(channel))
                        .filter(|k| (k.id, k.version) == (id, version));
                    let before = match kept {
                        Some(k) => k,
                        None => {
                            let row = sqlx::query(SELECT_BY_ID)
                                .bind(id)
                                .fetch_one(&mut *held.conn)
                                .await
                                .map_err(Self::classify)?;
                            Arc::new(Self::session_from_row(&row)?)
                        }
                    };
                    let (after, changes, outcomes) = apply_all(members, &before, now_ms()).await;
                    if changes == 0 {
                        sqlx::raw_sql("ROLLBACK")
                            .execute(&mut *held.conn)
                            .await
                            .map_err(Self::classify)?;
                        return Ok(outcomes);
                    }
                    let written =
                        Self::save_and_commit(&mut held.conn, &after, before.version, changes, sent).await?;
                    if written != 1 {
                        return Err(StoreError::Conflict);
                    }
                    if let Some((c, began)) = caches {
                        c.wrote_session(after, began);
                    }
                    Ok(outcomes)
                }

                /// The settings document `read` (one JSON column, one key parameter) has for
                /// `key`, if any: one statement on a kept connection.
                async fn settings_doc<T>(&self, read: &'static str, key: u64) -> Result<Option<T>, StoreError>
                where
                    T: serde::de::DeserializeOwned + Send + Unpin + 'static,
                {
                    let row: Option<(Json<T>,)> = limits::statement(&self.conns, async |conn| {
                        sqlx::query_as(read)
                            .bind(to_db(key))
                            .fetch_optional(conn)
                            .await
                    })
                    .await
                    .map_err(Self::classify)?;
                    Ok(row.map(|(Json(doc),)| doc))
                }

                /// The session `read` (session columns, one key parameter) finds for `key`,
                /// if any: one statement on a kept connection.
                async fn session_by(
                    &self,
                    read: &'static str,
                    key: i64,
                ) -> Result<Option<Session>, StoreError> {
                    let row = limits::statement(&self.conns, async |conn| {
                        sqlx::query(read).bind(key).fetch_optional(conn).await
                    })
                    .await
                    .map_err(Self::classify)?;
                    row.as_ref().map(Self::session_from_row).transpose()
                }

                async fn settings_on(
                    &self,
                    held: &mut Held<'_, $db>,
                    guild: u64,
                    edit: &mut SettingsEdit<'_, ServerSettings>,
                    sent: &AtomicBool,
                ) -> Result<ServerSettings, StoreError> {
                    let mut tx = held
                        .conn
                        .begin_with(Self::BEGIN_WRITE)
                        .await
                        .map_err(Self::classify)?;
                    sqlx::query(ENSURE_SETTINGS)
                        .bind(to_db(guild))
                        .bind(Json(ServerSettings::default()))
                        .bind(now_ms())
                        .execute(&mut *tx)
                        .await
                        .map_err(Self::classify)?;
                    let (Json(mut settings),): (Json<ServerSettings>,) =
                        sqlx::query_as(Self::SELECT_SETTINGS_LOCKED)
                            .bind(to_db(guild))
                            .fetch_one(&mut *tx)
                            .await
                            .map_err(Self::classify)?;
                    // A refused edit returns here: the transaction rolls back, nothing written.
                    edit(&mut settings)?;
                    settings.validate()?;
                    sqlx::query(UPSERT_SETTINGS)
                        .bind(to_db(guild))
                        .bind(Json(&settings))
                        .bind(now_ms())
                        .execute(&mut *tx)
                        .await
                        .map_err(Self::classify)?;
                    limits::mark(sent);
                    tx.commit().await.map_err(Self::classify)?;
                    Ok(settings)
                }

                async fn channel_on(
                    &self,
                    held: &mut Held<'_, $db>,
                    guild: u64,
                    channel: u64,
                    edit: &mut SettingsEdit<'_, ChannelSettings>,
                    sent: &AtomicBool,
                ) -> Result<ChannelSettings, StoreError> {
                    let mut tx = held
                        .conn
                        .begin_with(Self::BEGIN_WRITE)
                        .await
                        .map_err(Self::classify)?;
                    sqlx::query(ENSURE_CHANNEL)
                        .bind(to_db(channel))
                        .bind(to_db(guild))
                        .bind(Json(ChannelSettings::default()))
                        .bind(now_ms())
                        .execute(&mut *tx)
                        .await
                        .map_err(Self::classify)?;
                    let (Json(mut settings),): (Json<ChannelSettings>,) =
                        sqlx::query_as(Self::SELECT_CHANNEL_LOCKED)
                            .bind(to_db(channel))
                            .fetch_one(&mut *tx)
                            .await
                            .map_err(Self::classify)?;
                    edit(&mut settings)?;
                    sqlx::query(UPSERT_CHANNEL)
                        .bind(to_db(channel))
                        .bind(to_db(guild))
                        .bind(Json(&settings))
                        .bind(now_ms())
                        .execute(&mut *tx)
                        .await
                        .map_err(Self::classify)?;
                    limits::mark(sent);
                    tx.commit().await.map_err(Self::classify)?;
                    Ok(settings)
                }

                async fn delete_on(
                    &self,
                    held: &mut Held<'_, $db>,
                    campaign: i64,
                    sent: &AtomicBool,
                ) -> Result<(u64, u64), StoreError> {
                    let mut tx = held.conn.begin().await.map_err(Self::classify)?;
                    let (active,): (i64,) = sqlx::query_as(COUNT_CAMPAIGN_ACTIVE)
                        .bind(campaign)
                        .fetch_one(&mut *tx)
                        .await
                        .map_err(Self::classify)?;
                    if active > 0 {
                        return Err(StoreError::AlreadyActive);
                    }
                    let mut run = async |sql: &'static str| -> Result<u64, StoreError> {
                        sqlx::query(sql)
                            .bind(campaign)
                            .execute(&mut *tx)
                            .await
                            .map(|r| r.rows_affected())
                            .map_err(Self::classify)
                    };
                    if run(LIST_CAMPAIGN_DELETION).await? == 0 {
                        return Err(StoreError::NotFound);
                    }
                    let rolls = run(DELETE_LISTED_ROLLS).await?;
                    let sessions = run(DELETE_LISTED_SESSIONS).await?;
                    run(CLEAR_DELETION_LIST).await?;
                    limits::mark(sent);
                    tx.commit().await.map_err(Self::classify)?;
                    Ok((sessions, rolls))
                }
            }

            impl Store for $store {
                fn keep_sessions_in(&self, caches: Arc<$crate::store::cache::Caches>) {
                    self.kept.attach(caches);
                }

                fn backend(&self) -> Backend {
                    Self::BACKEND
                }

                fn server_settings(&self, guild: u64) -> StoreFuture<'_, Option<ServerSettings>> {
                    Box::pin(limits::read(self.settings_doc(SELECT_SETTINGS, guild)))
                }

                fn update_server_settings<'a>(
                    &'a self,
                    guild: u64,
                    edit: &'a mut SettingsEdit<'_, ServerSettings>,
                ) -> StoreFuture<'a, ServerSettings> {
                    Box::pin(async move {
                        let sent = AtomicBool::new(false);
                        limits::write(&sent, async {
                            let _turn = self.write_turn().await;
                            let mut held = Held::take(&self.conns).await.map_err(Self::classify)?;
                            let saved = self.settings_on(&mut held, guild, edit, &sent).await;
                            held.ended(&saved);
                            saved
                        })
                        .await
                    })
                }

                fn update_channel_settings<'a>(
                    &'a self,
                    guild: u64,
                    channel: u64,
                    edit: &'a mut SettingsEdit<'_, ChannelSettings>,
                ) -> StoreFuture<'a, ChannelSettings> {
                    Box::pin(async move {
                        let sent = AtomicBool::new(false);
                        limits::write(&sent, async {
                            let _turn = self.write_turn().await;
                            let mut held = Held::take(&self.conns).await.map_err(Self::classify)?;
                            let saved = self
                                .channel_on(&mut held, guild, channel, edit, &sent)
                                .await;
                            held.ended(&saved);
                            saved
                        })
                        .await
                    })
                }

                fn channel_settings(&self, channel: u64) -> StoreFuture<'_, Option<ChannelSettings>> {
                    Box::pin(limits::read(self.settings_doc(SELECT_CHANNEL, channel)))
                }

                fn create_session<'a>(&'a self, session: &'a Session) -> StoreFuture<'a, Session> {
                    Box::pin(async move {
                        if !session.is_active() {
                            return Err(StoreError::Invalid(SessionError::Ended));
                        }
                        session.validate()?;
                        let sent = AtomicBool::new(false);
                        limits::write(&sent, async {
                            let _turn = self.write_turn().await;
                            let row = limits::statement(&self.conns, async |conn| {
                                // One statement is its own transaction: once sent, it may land.
                                limits::mark(&sent);
                                sqlx::query(INSERT_SESSION)
                                    .bind(to_db(session.guild_id))
                                    .bind(to_db(session.channel_id))
                                    .bind(&session.name)
                                    .bind(session.system.key())
                                    .bind(to_db(session.gm))
                                    .bind(Json(session))
                                    .bind(session.created_at_ms)
                                    .bind(session.updated_at_ms)
                                    .bind((session.campaign_id != 0).then_some(session.campaign_id))
                                    .bind(i64::from(session.evening))
                                    .fetch_one(conn)
                                    .await
                            })
                            .await;
                            let row = row.map_err(|e| match &e {
                                sqlx::Error::Database(db) if db.is_unique_violation() => {
                                    StoreError::AlreadyActive
                                }
                                _ => Self::classify(e),
                            })?;
                            let mut stored = session.clone();
                            stored.id = row.try_get("id").map_err(Self::classify)?;
                            stored.version = 1;
                            Ok(stored)
                        })
                        .await
                    })
                }

                fn active_session(&self, channel: u64) -> StoreFuture<'_, Option<Session>> {
                    Box::pin(limits::read(self.session_by(SELECT_ACTIVE, to_db(channel))))
                }

                fn session(&self, id: i64) -> StoreFuture<'_, Option<Session>> {
                    Box::pin(limits::read(self.session_by(SELECT_BY_ID, id)))
                }

                fn update_session<'a>(
                    &'a self,
                    channel: u64,
                    edit: &'a mut Edit<'_>,
                ) -> StoreFuture<'a, Arc<Session>> {
                    Box::pin(async move {
                        // Join the channel's next batch (group commit, see `combine`); the first
                        // edit of a quiet channel starts the task that writes it.
                        let (member_tx, mut turns) = tokio::sync::mpsc::unbounded_channel();
                        let joined = Member {
                            turns: member_tx,
                            deadline: tokio::time::Instant::now() + WRITE_LIMIT,
                        };
                        if self.combiner.join(channel, joined) {
                            tokio::spawn(self.clone().serve_edits(channel));
                        }
                        member(&mut turns, edit).await
                    })
                }

                fn ended_sessions(&self, guild: u64, limit: u32) -> StoreFuture<'_, Vec<Session>> {
                    Box::pin(limits::read(async move {
                        let rows = limits::statement(&self.conns, async |conn| {
                            sqlx::query(SELECT_ENDED)
                                .bind(to_db(guild))
                                .bind(i64::from(limit))
                                .fetch_all(conn)
                                .await
                        })
                        .await
                        .map_err(Self::classify)?;
                        rows.iter().map(Self::session_from_row).collect()
                    }))
                }

                fn append_roll<'a>(&'a self, entry: &'a NewRoll) -> StoreFuture<'a, ()> {
                    let sent = AtomicBool::new(false);
                    Box::pin(async move {
                        limits::write(&sent, async {
                            let _turn = self.write_turn().await;
                            let written = limits::statement(&self.conns, async |conn| {
                                limits::mark(&sent);
                                sqlx::query(APPEND_ROLL)
                                    .bind(entry.session_id)
                                    .bind(to_db(entry.user_id))
                                    .bind(&entry.command)
                                    .bind(Json(&entry.outcome))
                                    .bind(entry.at_ms)
                                    .bind(entry.user_name.as_deref())
                                    .execute(conn)
                                    .await
                            })
                            .await;
                            if written.map_err(Self::classify)?.rows_affected() == 1 {
                                Ok(())
                            } else {
                                Err(StoreError::NotFound)
                            }
                        })
                        .await
                    })
                }

                fn record<'a>(
                    &'a self,
                    actions: &'a [NewAction],
                    roll: Option<&'a NewRoll>,
                ) -> StoreFuture<'a, Recorded> {
                    Box::pin(async move {
                        // Group commit: the store's batch task takes the writer turn.
                        $crate::store::record_batch::record(self, actions, roll).await
                    })
                }

                fn recent_rolls(&self, session_id: i64, count: u32) -> StoreFuture<'_, Vec<RollLogEntry>> {
                    Box::pin(limits::read(async move {
                        let rows = self.recent_rows(session_id, count).await?;
                        // Newest first from the index; callers read a log oldest first.
                        rows.iter().rev().map(Self::roll_from_row).collect()
                    }))
                }

                fn recent_lines(&self, session_id: i64, count: u32) -> StoreFuture<'_, Vec<RollLogEntry>> {
                    Box::pin(limits::read(async move {
                        let rows = self.recent_rows(session_id, count).await?;
                        rows.iter()
                            .rev()
                            .map(|r| {
                                Self::log_row_from_row(r)?
                                    .light_entry()
                                    .ok_or_else(Self::not_json)
                            })
                            .collect()
                    }))
                }

                fn stream_page<'a>(
                    &'a self,
                    scope: LogScope,
                    offset: u32,
                    limit: u32,
                    names: bool,
                    each: &'a mut $crate::store::RowSink<'_>,
                ) -> StoreFuture<'a, $crate::store::PageHead> {
                    Box::pin(limits::read(
                        self.read_rows(scope, offset, limit, names, each),
                    ))
                }

                fn delete_campaign(&self, campaign: i64) -> StoreFuture<'_, (u64, u64)> {
                    Box::pin(async move {
                        let sent = AtomicBool::new(false);
                        limits::write(&sent, async {
                            let _turn = self.write_turn().await;
                            let mut held = Held::take(&self.conns).await.map_err(Self::classify)?;
                            let deleted = self.delete_on(&mut held, campaign, &sent).await;
                            held.ended(&deleted);
                            deleted
                        })
                        .await
                    })
                }

                fn last_session(&self, channel: u64) -> StoreFuture<'_, Option<Session>> {
                    Box::pin(limits::read(async move {
                        let row = limits::statement(&self.conns, async |conn| {
                            sqlx::query(SELECT_LAST_IN_CHANNEL)
                                .bind(to_db(channel))
                                .fetch_optional(conn)
                                .await
                        })
                        .await
                        .map_err(Self::classify)?;
                        row.as_ref().map(Self::session_from_row).transpose()
                    }))
                }

                fn campaign_sessions(&self, campaign: i64) -> StoreFuture<'_, Vec<Session>> {
                    Box::pin(limits::read(async move {
                        let rows = limits::statement(&self.conns, async |conn| {
                            sqlx::query(SELECT_CAMPAIGN)
                                .bind(campaign)
                                .fetch_all(conn)
                                .await
                        })
                        .await
                        .map_err(Self::classify)?;
                        rows.iter().map(Self::session_from_row).collect()
                    }))
                }

                fn create_action<'a>(&'a self, action: &'a NewAction) -> StoreFuture<'a, i64> {
                    Box::pin(async move {
                        let sent = AtomicBool::new(false);
                        limits::write(&sent, async {
                            let _turn = self.write_turn().await;
                            let row = limits::statement(&self.conns, async |conn| {
                                limits::mark(&sent);
                                sqlx::query(INSERT_ACTION)
                                    .bind(&action.kind)
                                    .bind(action.guild.map(to_db))
                                    .bind(to_db(action.channel))
                                    .bind(to_db(action.owner))
                                    .bind(Json(&action.payload))
                                    .bind(now_ms())
                                    .fetch_one(conn)
                                    .await
                            })
                            .await;
                            row.map_err(Self::classify)?
                                .try_get::<i64, _>("id")
                                .map_err(Self::classify)
                        })
                        .await
                    })
                }

                fn action(&self, id: i64) -> StoreFuture<'_, Option<Action>> {
                    Box::pin(limits::read(async move {
                        let row = limits::statement(&self.conns, async |conn| {
                            sqlx::query(SELECT_ACTION)
                                .bind(id)
                                .fetch_optional(conn)
                                .await
                        })
                        .await
                        .map_err(Self::classify)?;
                        row.as_ref().map(Self::action_from_row).transpose()
                    }))
                }

                fn use_action(&self, id: i64) -> StoreFuture<'_, Action> {
                    Box::pin(async move {
                        let used = self
                            .update_action(sqlx::query(USE_ACTION).bind(id).bind(now_ms()))
                            .await?;
                        match used {
                            Some(a) => Ok(a),
                            None => match self.action(id).await? {
                                Some(_) => Err(StoreError::AlreadyUsed),
                                None => Err(StoreError::NotFound),
                            },
                        }
                    })
                }

                fn press_action<'a>(
                    &'a self,
                    id: i64,
                    who: $crate::store::Presser<'a>,
                ) -> StoreFuture<'a, $crate::store::Pressed> {
                    use $crate::store::Pressed;
                    Box::pin(async move {
                        let press = sqlx::query(PRESS_ACTION)
                            .bind(id)
                            .bind(now_ms())
                            .bind(to_db(who.channel))
                            .bind(who.guild.map(to_db))
                            .bind(to_db(who.user))
                            .bind(who.gm)
                            .bind(who.owner_only);
                        if let Some(a) = self.update_action(press).await? {
                            return Ok(Pressed::Used(a));
                        }
                        // Refused or used already: the action says which.
                        match self.action(id).await? {
                            None => Ok(Pressed::Gone),
                            Some(a) => who.refusal(&a).ok_or(StoreError::AlreadyUsed),
                        }
                    })
                }

                fn release_action(&self, id: i64) -> StoreFuture<'_, ()> {
                    Box::pin(async move {
                        let sent = AtomicBool::new(false);
                        limits::write(&sent, async {
                            let _turn = self.write_turn().await;
                            let released = limits::statement(&self.conns, async |conn| {
                                limits::mark(&sent);
                                sqlx::query(RELEASE_ACTION).bind(id).execute(conn).await
                            })
                            .await;
                            released.map_err(Self::classify)?;
                            Ok(())
                        })
                        .await
                    })
                }

                fn close(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
                    Box::pin(self.conns.close())
                }

                fn ping(&self) -> StoreFuture<'_, ()> {
                    Box::pin(async move {
                        let asked = async {
                            if !self.schema_ready() {
                                return Err(StoreError::Unavailable("migrations not run yet".into()));
                            }
                            let answered = limits::statement(&self.conns, async |conn| {
                                // A table the migrations make: a server that answers before
                                // they ran is not ready to serve sessions.
                                sqlx::query(SELECT_SETTINGS)
                                    .bind(0i64)
                                    .fetch_optional(conn)
                                    .await
                            })
                            .await;
                            answered.map(|_| ()).map_err(Self::classify)
                        };
                        let deadline = tokio::time::Instant::now() + PING_LIMIT;
                        limits::by(deadline, &AtomicBool::new(false), asked).await
                    })
                }

                fn pool_status(&self) -> Option<(u32, usize)> {
                    let pool = self.conns.pool();
                    Some((pool.size(), pool.num_idle() + self.conns.kept()))
                }
            }
        };
    };
}

pub(super) use sql_store;
