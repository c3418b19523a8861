//! The embedded default: one SQLite file in the data directory.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous,
};

use engine::session::Session;
use sqlx::Connection;
use sqlx::types::Json;
use tokio::sync::{Mutex, MutexGuard};

use super::cache::SessionKeeper;
use super::combine::Combiner;
use super::conns::Conns;
use super::limits::{self, Held};
use super::migrations;
use super::postgres::migrate_error;
use super::record_batch::{self, BatchWriter, PendingRecord, RecordQueue};
use super::sql::{INSERT_ACTIONS, sql_store};
use super::{
    ACQUIRE_TIMEOUT, Backend, NewAction, NewRoll, Recorded, StoreError, classify_common, now_ms, to_db,
};

/// Connections to the file (every one the store's: there is no change feed).
const CONNECTIONS: u32 = 4;

/// A [`Store`](super::Store) in one SQLite file. Clones share the pool and the turns.
#[derive(Clone)]
pub struct SqliteStore {
    /// The pool, and the connections kept between operations.
    conns: Arc<Conns<sqlx::Sqlite>>,
    /// Edits of one session waiting to share a transaction.
    combiner: Arc<Combiner>,
    /// SQLite has one writer at a time. Writers of this process take turns here, woken as soon
    /// as the previous one commits, instead of meeting the file lock and sleeping in SQLite's
    /// busy handler (which backs off up to 100 ms a try). `busy_timeout` remains for another
    /// process touching the file.
    writer: Arc<Mutex<()>>,
    /// Commands' records waiting to share a transaction.
    records: Arc<RecordQueue>,
    /// The caches session writes start from and keep what they saved in.
    kept: SessionKeeper,
}

impl SqliteStore {
    const BACKEND: Backend = Backend::Sqlite;
    /// `IMMEDIATE` takes the write lock up front: a deferred transaction that reads and then
    /// writes fails with SQLITE_BUSY when another writer got in between, instead of waiting.
    const BEGIN_WRITE: &'static str = "BEGIN IMMEDIATE";
    /// In WAL mode a read transaction sees one snapshot.
    const BEGIN_SNAPSHOT: &'static str = "BEGIN";
    /// The write lock taken by `BEGIN IMMEDIATE` already serializes updates.
    // BEGIN IMMEDIATE already holds the write lock.
    const SELECT_SETTINGS_LOCKED: &'static str = super::sql::SELECT_SETTINGS;
    const SELECT_CHANNEL_LOCKED: &'static str = super::sql::SELECT_CHANNEL;

    /// Begins a session write (`BEGIN IMMEDIATE`: the write lock) and reads the channel's
    /// active session's (id, version).
    async fn begin_locked(
        conn: &mut SqliteConnection,
        channel: u64,
    ) -> Result<Option<(i64, i64)>, sqlx::Error> {
        sqlx::raw_sql(Self::BEGIN_WRITE).execute(&mut *conn).await?;
        sqlx::query_as(super::sql::SELECT_ACTIVE_VERSION)
            .bind(to_db(channel))
            .fetch_optional(conn)
            .await
    }

    /// Begins a snapshot (WAL: one read transaction) and runs `read` for `id`.
    async fn begin_snapshot_with(
        conn: &mut SqliteConnection,
        read: &'static str,
        id: i64,
    ) -> Result<Vec<sqlx::sqlite::SqliteRow>, sqlx::Error> {
        sqlx::raw_sql(Self::BEGIN_SNAPSHOT).execute(&mut *conn).await?;
        sqlx::query(read).bind(id).fetch_all(conn).await
    }

    /// Saves `after` over `version` and, when it was saved, commits (`sent` marked first). The
    /// rows saved: 0 leaves the transaction open for the caller's error to end.
    async fn save_and_commit(
        conn: &mut SqliteConnection,
        after: &Session,
        version: i64,
        changes: i64,
        sent: &AtomicBool,
    ) -> Result<u64, StoreError> {
        let saved = sqlx::query(super::sql::UPDATE_SESSION)
            .bind(&after.name)
            .bind(after.system.key())
            .bind(to_db(after.gm))
            .bind(sqlx::types::Json(after))
            .bind(after.updated_at_ms)
            .bind(after.ended_at_ms)
            .bind(after.id)
            .bind(version)
            .bind(changes)
            .execute(&mut *conn)
            .await
            .map_err(Self::classify)?
            .rows_affected();
        if saved == 1 {
            limits::mark(sent);
            sqlx::raw_sql("COMMIT")
                .execute(conn)
                .await
                .map_err(Self::classify)?;
        }
        Ok(saved)
    }

    /// Opened only once migrated.
    fn schema_ready(&self) -> bool {
        true
    }

    async fn write_turn(&self) -> Option<MutexGuard<'_, ()>> {
        Some(self.writer.lock().await)
    }

    /// One batch of records in one transaction: every action in one multi-row insert (ids are
    /// handed out in row order while the write lock is ours; RETURNING's order is unspecified,
    /// so they are sorted back), every roll in one insert that keeps the batch's order and
    /// skips rolls of sessions ended meanwhile.
    async fn write_records(
        &self,
        batch: &[PendingRecord],
        sent: &AtomicBool,
    ) -> Result<Vec<Recorded>, StoreError> {
        let _turn = self.write_turn().await;
        let mut held = Held::take(&self.conns).await.map_err(Self::classify)?;
        let written = self.records_on(&mut held, batch, sent).await;
        held.ended(&written);
        written
    }

    async fn records_on(
        &self,
        held: &mut Held<'_, sqlx::Sqlite>,
        batch: &[PendingRecord],
        sent: &AtomicBool,
    ) -> Result<Vec<Recorded>, StoreError> {
        let mut tx = held
            .conn
            .begin_with(Self::BEGIN_WRITE)
            .await
            .map_err(Self::classify)?;
        let actions: Vec<&NewAction> = batch.iter().flat_map(|p| &p.actions).collect();
        let mut ids = Vec::with_capacity(actions.len());
        if !actions.is_empty() {
            let now = now_ms();
            let mut insert = sqlx::QueryBuilder::new(INSERT_ACTIONS);
            insert.push_values(&actions, |mut row, a| {
                row.push_bind(&a.kind)
                    .push_bind(a.guild.map(to_db))
                    .push_bind(to_db(a.channel))
                    .push_bind(to_db(a.owner))
                    .push_bind(Json(&a.payload))
                    .push_bind(now);
            });
            insert.push(" RETURNING id");
            let rows: Vec<(i64,)> = insert
                .build_query_as()
                .fetch_all(&mut *tx)
                .await
                .map_err(Self::classify)?;
            ids.extend(rows.into_iter().map(|(id,)| id));
            ids.sort_unstable();
        }
        let rolls: Vec<(i64, &NewRoll)> = batch
            .iter()
            .filter_map(|p| p.roll.as_ref())
            .enumerate()
            .map(|(i, r)| (i as i64, r))
            .collect();
        let mut active = Vec::new();
        if !rolls.is_empty() {
            // VALUES' columns are column1…column7; column6 keeps the batch's order.
            let mut insert = sqlx::QueryBuilder::new(
                "INSERT INTO roll_log (session_id, user_id, command, outcome, at_ms, user_name) \
                 SELECT s.id, v.column2, v.column3, v.column4, v.column5, v.column7 FROM (",
            );
            insert.push_values(&rolls, |mut row, (i, r)| {
                row.push_bind(r.session_id)
                    .push_bind(to_db(r.user_id))
                    .push_bind(&r.command)
                    .push_bind(Json(&r.outcome))
                    .push_bind(r.at_ms)
                    .push_bind(*i)
                    .push_bind(r.user_name.as_deref());
            });
            insert.push(
                ") AS v JOIN sessions s ON s.id = v.column1 AND s.ended_at_ms IS NULL \
                 ORDER BY v.column6 RETURNING session_id",
            );
            let rows: Vec<(i64,)> = insert
                .build_query_as()
                .fetch_all(&mut *tx)
                .await
                .map_err(Self::classify)?;
            active.extend(rows.into_iter().map(|(id,)| id));
        }
        let recorded = record_batch::recorded(batch, ids, &active)?;
        limits::mark(sent);
        tx.commit().await.map_err(Self::classify)?;
        Ok(recorded)
    }

    /// Opens (creating if needed) the database file and runs the migrations.
    pub async fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            // WAL: readers never block the writer; NORMAL sync is durable across crashes of
            // the process (only an OS crash may lose the last commits).
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(5))
            .foreign_keys(true)
            // Each connection keeps its own page cache (SQLite's default 2,000 KiB): 1 MiB
            // holds a large database's interior pages, and reads mostly hit the bot's own
            // cache before SQLite (issue 32: RSS with 10,000 sessions).
            .pragma("cache_size", "-1024");
        let pool = SqlitePoolOptions::new()
            // Writers take turns and most reads are cached, so a few connections serve.
            .max_connections(CONNECTIONS)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await
            .map_err(Self::classify)?;
        migrations::sqlite()
            .run(&pool)
            .await
            .map_err(|e| migrate_error(e, Self::classify))?;
        Ok(SqliteStore {
            conns: Arc::new(Conns::new(pool, CONNECTIONS)),
            combiner: Arc::default(),
            writer: Arc::default(),
            records: Arc::default(),
            kept: SessionKeeper::default(),
        })
    }

    fn classify(e: sqlx::Error) -> StoreError {
        if let Some(known) = classify_common(&e) {
            return known;
        }
        if let sqlx::Error::Database(db) = &e {
            // sqlx reports SQLite's extended result code; the low byte is the primary code.
            let code = db.code().and_then(|c| c.parse::<i32>().ok()).unwrap_or(0) & 0xff;
            // BUSY, LOCKED (still locked after busy_timeout), READONLY, IOERR, FULL, CANTOPEN.
            if matches!(code, 5 | 6 | 8 | 10 | 13 | 14) {
                return StoreError::Unavailable(e.to_string());
            }
        }
        StoreError::Internal(e.to_string())
    }
}

impl BatchWriter for SqliteStore {
    fn queue(&self) -> &RecordQueue {
        &self.records
    }

    async fn write(&self, batch: &[PendingRecord], sent: &AtomicBool) -> Result<Vec<Recorded>, StoreError> {
        self.write_records(batch, sent).await
    }
}

sql_store!(SqliteStore, sqlx::sqlite::SqliteRow, sqlx::Sqlite);
