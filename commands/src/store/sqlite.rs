//! The embedded default: one SQLite file in the data directory.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use engine::session::RollLogEntry;
use sqlx::types::Json;
use tokio::sync::{Mutex, MutexGuard};

use super::combine::Combiner;
use super::postgres::migrate_error;
use super::sql::{APPEND_ROLL, INSERT_ACTIONS, embedded_migrator, sql_store};
use super::{ACQUIRE_TIMEOUT, Backend, NewAction, Recorded, StoreError, classify_common, now_ms, to_db};

/// A [`Store`](super::Store) in one SQLite file. Clones share the pool and the turns.
#[derive(Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
    /// Edits of one session waiting to share a transaction.
    combiner: Arc<Combiner>,
    /// SQLite has one writer at a time. Writers of this process take turns here, woken as soon
    /// as the previous one commits, instead of meeting the file lock and sleeping in SQLite's
    /// busy handler (which backs off up to 100 ms a try). `busy_timeout` remains for another
    /// process touching the file.
    writer: Arc<Mutex<()>>,
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
    const SELECT_ACTIVE_LOCKED: &'static str = super::sql::SELECT_ACTIVE;

    async fn write_turn(&self) -> Option<MutexGuard<'_, ()>> {
        Some(self.writer.lock().await)
    }

    /// The actions, then the roll. The caller holds the writer turn. A statement is a round
    /// trip to SQLite's worker thread (two thread switches) and a commit writes the log pages
    /// and takes the file locks, each costing more than the insert: a roll alone is one
    /// statement, atomic on its own; actions and a roll share one `IMMEDIATE` transaction, the
    /// actions in one multi-row insert (one commit, four trips, not one commit per row).
    async fn record_at_once(
        &self,
        actions: &[NewAction],
        roll: Option<&RollLogEntry>,
    ) -> Result<Recorded, StoreError> {
        if actions.is_empty() {
            let Some(r) = roll else {
                return Ok(Recorded {
                    action_ids: Vec::new(),
                    logged: false,
                });
            };
            let logged = Self::append(r, &self.pool).await?;
            return Ok(Recorded {
                action_ids: Vec::new(),
                logged,
            });
        }
        let mut tx = self
            .pool
            .begin_with(Self::BEGIN_WRITE)
            .await
            .map_err(Self::classify)?;
        // Their ids are handed out in the order of the rows (the write lock is ours);
        // RETURNING's order is unspecified, so they are sorted back into it.
        let now = now_ms();
        let mut insert = sqlx::QueryBuilder::new(INSERT_ACTIONS);
        insert.push_values(actions, |mut row, a| {
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
        let mut action_ids: Vec<i64> = rows.into_iter().map(|(id,)| id).collect();
        action_ids.sort_unstable();
        let logged = match roll {
            Some(r) => Self::append(r, &mut *tx).await?,
            None => false,
        };
        tx.commit().await.map_err(Self::classify)?;
        Ok(Recorded { action_ids, logged })
    }

    /// The roll's insert; `false` when its session has ended meanwhile.
    async fn append<'c>(
        r: &RollLogEntry,
        on: impl sqlx::Executor<'c, Database = sqlx::Sqlite>,
    ) -> Result<bool, StoreError> {
        Ok(sqlx::query(APPEND_ROLL)
            .bind(r.session_id)
            .bind(to_db(r.user_id))
            .bind(&r.command)
            .bind(Json(&r.outcome))
            .bind(r.at_ms)
            .execute(on)
            .await
            .map_err(Self::classify)?
            .rows_affected()
            == 1)
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
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            // Writers take turns and most reads are cached, so a few connections serve; each
            // keeps its own page cache (SQLite's default, 2 MB), which is most of the memory.
            .max_connections(4)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await
            .map_err(Self::classify)?;
        embedded_migrator!("sqlite")
            .run(&pool)
            .await
            .map_err(|e| migrate_error(e, Self::classify))?;
        Ok(SqliteStore {
            pool,
            combiner: Arc::default(),
            writer: Arc::default(),
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

sql_store!(SqliteStore, sqlx::sqlite::SqliteRow);
