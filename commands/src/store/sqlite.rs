//! The embedded default: one SQLite file in the data directory.

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use super::postgres::migrate_error;
use super::sql::{embedded_migrator, sql_store};
use super::{ACQUIRE_TIMEOUT, Backend, StoreError, classify_common};

/// A [`Store`](super::Store) in one SQLite file.
pub struct SqliteStore {
    pool: SqlitePool,
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
            .max_connections(8)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await
            .map_err(Self::classify)?;
        embedded_migrator!("sqlite")
            .run(&pool)
            .await
            .map_err(|e| migrate_error(e, Self::classify))?;
        Ok(SqliteStore { pool })
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
