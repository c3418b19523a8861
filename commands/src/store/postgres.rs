//! The production store: PostgreSQL, shared by every bot process.

use std::time::Duration;

use sqlx::migrate::MigrateError;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

use super::sql::{embedded_migrator, sql_store};
use super::{ACQUIRE_TIMEOUT, Backend, StoreError, classify_common};

/// A [`Store`](super::Store) on PostgreSQL. The pool reconnects by itself after an outage:
/// dead connections fail their liveness check and are replaced on the next acquire.
pub struct PgStore {
    pool: PgPool,
}

impl PgStore {
    const BACKEND: Backend = Backend::Postgres;
    const BEGIN_WRITE: &'static str = "BEGIN";
    const BEGIN_SNAPSHOT: &'static str = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
    /// `FOR UPDATE`: concurrent edits of one session queue on the row lock instead of failing
    /// the version check, so a burst of edits all land without exhausting the retries. The
    /// version check stays as the guarantee.
    const SELECT_SETTINGS_LOCKED: &'static str = super::sql::SELECT_SETTINGS_FOR_UPDATE;
    const SELECT_CHANNEL_LOCKED: &'static str = super::sql::SELECT_CHANNEL_FOR_UPDATE;
    const SELECT_ACTIVE_LOCKED: &'static str = super::sql::SELECT_ACTIVE_FOR_UPDATE;

    /// Connects and runs the migrations (concurrent starters are serialized by the migrator's
    /// advisory lock).
    pub async fn connect(database_url: &str) -> Result<PgStore, StoreError> {
        let pool = Self::pool(database_url)?;
        // The first acquire connects (or says the server is unreachable).
        pool.acquire().await.map_err(Self::classify)?;
        Self::migrate(&pool).await?;
        Ok(PgStore { pool })
    }

    /// A store for a server that may be down right now: the URL is checked at once (a malformed
    /// one is an error), the pool connects when a command first needs it, and the migrations run
    /// now if the server answers, else in the background until it does. Meanwhile every
    /// operation answers `Unavailable` (unreachable, or the schema not there yet), so the bot
    /// starts and serves what needs no storage.
    pub async fn connect_eventually(database_url: &str) -> Result<PgStore, StoreError> {
        let pool = Self::pool(database_url)?;
        match Self::migrate(&pool).await {
            Ok(()) => {}
            Err(StoreError::Unavailable(detail)) => {
                tracing::warn!(
                    "database not reachable at start-up; serving without it until it is: {detail}"
                );
                let later = pool.clone();
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        match Self::migrate(&later).await {
                            Ok(()) => {
                                tracing::info!("database reachable; migrations run");
                                return;
                            }
                            Err(StoreError::Unavailable(_)) => continue,
                            Err(e) => {
                                tracing::error!("migrations failed once the database answered: {e}");
                                return;
                            }
                        }
                    }
                });
            }
            Err(e) => return Err(e),
        }
        Ok(PgStore { pool })
    }

    /// The pool, connecting lazily. The parse error never includes the URL, so no password
    /// reaches the log.
    fn pool(database_url: &str) -> Result<PgPool, StoreError> {
        let options: PgConnectOptions = database_url
            .parse()
            .map_err(|_| StoreError::Internal("DATABASE_URL is not a valid PostgreSQL URL".into()))?;
        let options = options.application_name("saikoro").options([
            // A stuck statement must not hold a command for long. Healthy updates hold a
            // session's row lock for about a millisecond, so waiting 2 s for it means a stuck
            // holder: give up (reported as a conflict) rather than hang the command, and let
            // the server end transactions left idle.
            ("statement_timeout", "15s"),
            ("lock_timeout", "2s"),
            ("idle_in_transaction_session_timeout", "30s"),
        ]);
        Ok(PgPoolOptions::new()
            .max_connections(10)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .idle_timeout(Duration::from_secs(600))
            .max_lifetime(Duration::from_secs(1800))
            .test_before_acquire(true)
            .connect_lazy_with(options))
    }

    async fn migrate(pool: &PgPool) -> Result<(), StoreError> {
        embedded_migrator!("postgres")
            .run(pool)
            .await
            .map_err(|e| migrate_error(e, Self::classify))
    }

    fn classify(e: sqlx::Error) -> StoreError {
        if let Some(known) = classify_common(&e) {
            return known;
        }
        if let sqlx::Error::Database(db) = &e {
            let code = db.code().unwrap_or_default();
            match code.as_ref() {
                // serialization_failure, deadlock_detected, lock_not_available: someone else
                // got there first; retrying is right.
                "40001" | "40P01" | "55P03" => return StoreError::Conflict,
                // undefined_table: a server that came back before the migrations ran again
                // (see `connect_eventually`); storage is not there yet.
                "42P01" => return StoreError::Unavailable(e.to_string()),
                // connection_exception (08…), insufficient_resources (53…), operator
                // intervention such as admin_shutdown / cannot_connect_now (57P…),
                // query_canceled by statement_timeout (57014).
                c if c.starts_with("08") || c.starts_with("53") || c.starts_with("57") => {
                    return StoreError::Unavailable(e.to_string());
                }
                _ => {}
            }
        }
        StoreError::Internal(e.to_string())
    }
}

sql_store!(PgStore, sqlx::postgres::PgRow);

/// Migration failures: a database that cannot be reached is `Unavailable`; anything else
/// (a changed or missing migration) is a deployment error.
pub(super) fn migrate_error(e: MigrateError, classify: fn(sqlx::Error) -> StoreError) -> StoreError {
    match e {
        MigrateError::Execute(inner) | MigrateError::ExecuteMigration(inner, _) => match classify(inner) {
            StoreError::Unavailable(d) => StoreError::Unavailable(d),
            other => StoreError::Internal(format!("migration failed: {other}")),
        },
        other => StoreError::Internal(format!("migration failed: {other}")),
    }
}
