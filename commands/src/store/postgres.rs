//! The production store: PostgreSQL, shared by every bot process.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Weak};
use std::time::Duration;

use sqlx::Row;
use sqlx::migrate::MigrateError;
use sqlx::postgres::{PgConnectOptions, PgListener, PgPool, PgPoolOptions};

use super::cache::{Caches, Change, SessionKeeper};
use super::combine::Combiner;
use super::conns::{Conns, PING_BEFORE_USE, RECENTLY_USED};
use super::limits;
use super::migrations;
use super::record_batch::{self, BatchWriter, PendingRecord, RecordQueue};
use super::sql::sql_store;
use super::{
    ACQUIRE_TIMEOUT, Backend, NewAction, NewRoll, Recorded, StoreError, classify_common, now_ms, to_db,
};

/// A change feed quiet this long is asked whether its connection still answers.
pub const FEED_HEARTBEAT: Duration = Duration::from_secs(3);
/// How long that question (and connecting the feed) may take before the feed counts as lost.
const FEED_ANSWER: Duration = Duration::from_secs(2);

/// Connections the store's operations hold at once (the change feed holds one more).
const COMMAND_CONNECTIONS: u32 = 10;

/// The notification channel of the `change_feed` migration's trigger.
const CHANGES: &str = "saikoro_changes";

/// A command's actions and its log row in one statement (one round trip, one commit); the
/// actions come back in the order given (`WITH ORDINALITY`, ids from one sequence).
/// A batch of records in one statement: every action (their ids in the order given), every
/// roll of a still-active session in the batch's order, and which sessions took their rolls.
const RECORD: &str = "WITH new_actions AS ( \
         INSERT INTO actions (kind, guild_id, channel_id, owner_id, payload, created_at_ms) \
         SELECT t.kind, t.guild_id, t.channel_id, t.owner_id, t.payload::jsonb, $6 \
         FROM UNNEST($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[]) \
              WITH ORDINALITY AS t(kind, guild_id, channel_id, owner_id, payload, n) \
         ORDER BY t.n RETURNING id), \
     logged AS ( \
         INSERT INTO roll_log (session_id, user_id, command, outcome, at_ms, user_name) \
         SELECT s.id, r.user_id, r.command, r.outcome::jsonb, r.at_ms, r.user_name \
         FROM UNNEST($7::bigint[], $8::bigint[], $9::text[], $10::text[], $11::bigint[], $12::text[]) \
              WITH ORDINALITY AS r(session_id, user_id, command, outcome, at_ms, user_name, n) \
         JOIN sessions s ON s.id = r.session_id AND s.ended_at_ms IS NULL \
         ORDER BY r.n RETURNING session_id) \
     SELECT ARRAY(SELECT id FROM new_actions ORDER BY id) AS ids, \
            ARRAY(SELECT DISTINCT session_id FROM logged) AS logged";

/// A [`Store`](super::Store) on PostgreSQL. The pool reconnects by itself after an outage:
/// dead connections fail their liveness check and are replaced on the next acquire.
#[derive(Clone)]
pub struct PgStore {
    /// The pool, and the connections kept between operations.
    conns: Arc<Conns<sqlx::Postgres>>,
    /// Edits of one session waiting to share a transaction.
    combiner: Arc<Combiner>,
    /// Commands' records waiting to share a statement.
    records: Arc<RecordQueue>,
    /// The caches session writes start from and keep what they saved in.
    kept: SessionKeeper,
    /// The migrations have run: before that the server may answer while its tables are being
    /// made, and `/readyz` must not say ready.
    migrated: Arc<AtomicBool>,
}

impl PgStore {
    const BACKEND: Backend = Backend::Postgres;
    const BEGIN_WRITE: &'static str = "BEGIN";
    pub(super) const BEGIN_SNAPSHOT: &'static str = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
    /// PostgreSQL's row locks order writers; there is no process-wide turn to take.
    async fn write_turn(&self) -> Option<()> {
        None
    }

    async fn write_records(
        &self,
        batch: &[PendingRecord],
        sent: &AtomicBool,
    ) -> Result<Vec<Recorded>, StoreError> {
        let row = limits::statement(&self.conns, async |conn| {
            // One statement, its own transaction: once sent it may land.
            limits::mark(sent);
            let actions: Vec<&NewAction> = batch.iter().flat_map(|p| &p.actions).collect();
            let rolls: Vec<&NewRoll> = batch.iter().filter_map(|p| p.roll.as_ref()).collect();
            sqlx::query(RECORD)
                .bind(actions.iter().map(|a| a.kind.as_str()).collect::<Vec<_>>())
                .bind(actions.iter().map(|a| a.guild.map(to_db)).collect::<Vec<_>>())
                .bind(actions.iter().map(|a| to_db(a.channel)).collect::<Vec<_>>())
                .bind(actions.iter().map(|a| to_db(a.owner)).collect::<Vec<_>>())
                .bind(actions.iter().map(|a| a.payload.as_str()).collect::<Vec<_>>())
                .bind(now_ms())
                .bind(rolls.iter().map(|r| r.session_id).collect::<Vec<_>>())
                .bind(rolls.iter().map(|r| to_db(r.user_id)).collect::<Vec<_>>())
                .bind(rolls.iter().map(|r| r.command.as_str()).collect::<Vec<_>>())
                .bind(rolls.iter().map(|r| r.outcome.as_str()).collect::<Vec<_>>())
                .bind(rolls.iter().map(|r| r.at_ms).collect::<Vec<_>>())
                .bind(rolls.iter().map(|r| r.user_name.as_deref()).collect::<Vec<_>>())
                .fetch_one(conn)
                .await
        })
        .await;
        let row = row.map_err(Self::classify)?;
        let ids: Vec<i64> = row.try_get("ids").map_err(Self::classify)?;
        let active: Vec<i64> = row.try_get("logged").map_err(Self::classify)?;
        record_batch::recorded(batch, ids, &active)
    }

    /// Keeps `caches` in step with every process's changes: listens to the `change_feed`
    /// trigger's notifications and drops what each names. The caches are live only while
    /// the feed is connected (a lost connection may have lost notifications, so they are
    /// emptied when it comes back). Ends when the caches are gone or the pool is closed.
    pub fn follow_changes(&self, caches: Weak<Caches>) {
        let pool = self.conns.pool().clone();
        tokio::spawn(async move {
            loop {
                if caches.strong_count() == 0 || pool.is_closed() {
                    return;
                }
                match tokio::time::timeout(FEED_ANSWER, Self::listen(&pool)).await {
                    Ok(Ok(listener)) => Self::relay(listener, &caches).await,
                    Ok(Err(e)) => tracing::debug!("change feed not connected: {e}"),
                    Err(_) => tracing::debug!("change feed not connected: no answer"),
                }
                if let Some(c) = caches.upgrade() {
                    c.set_live(false);
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        });
    }

    async fn listen(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
        let mut listener = PgListener::connect_with(pool).await?;
        // A lost connection ends the feed at once (see `relay`) instead of being made again
        // inside `try_recv`, which would wait for the pool meanwhile with the caches trusted.
        listener.eager_reconnect(false);
        listener.listen(CHANGES).await?;
        Ok(listener)
    }

    /// Relays notifications until the feed fails; `Ok(None)` from sqlx means the connection
    /// was lost (`follow_changes` then makes the feed again, caches off meanwhile).
    async fn relay(mut listener: PgListener, caches: &Weak<Caches>) {
        match caches.upgrade() {
            Some(c) => c.set_live(true),
            None => return,
        }
        tracing::debug!("change feed connected");
        loop {
            // Boxed: sqlx's receive is a 15 KB future, copied whole into the timeout otherwise
            // (once per notification, so once per write of any replica).
            let next = match tokio::time::timeout(FEED_HEARTBEAT, Box::pin(listener.try_recv())).await {
                Ok(next) => next,
                // Quiet for a while: a frozen server (or a partition without reset) sends
                // nothing either, and a feed that may miss changes must not keep the cache
                // trusted. Its own connection is asked, briefly.
                Err(_) => {
                    let asked = sqlx::query("SELECT 1").execute(&mut listener);
                    match tokio::time::timeout(FEED_ANSWER, asked).await {
                        Ok(Ok(_)) => continue,
                        Ok(Err(e)) => tracing::warn!("change feed lost; caches off until it is back: {e}"),
                        Err(_) => tracing::warn!("change feed hangs; caches off until it answers"),
                    }
                    return;
                }
            };
            let Some(c) = caches.upgrade() else { return };
            match next {
                Ok(Some(n)) => match Change::parse(n.payload()) {
                    Some(change) => c.drop_change(change),
                    None => c.drop_all(),
                },
                // The connection was lost: whatever was announced meanwhile is unknown.
                Ok(None) => {
                    tracing::warn!("change feed lost; caches off until it is back");
                    return;
                }
                // A pool closed on purpose (shutdown) is no loss worth a warning.
                Err(sqlx::Error::PoolClosed) => return,
                Err(e) => {
                    tracing::warn!("change feed lost; caches off until it is back: {e}");
                    return;
                }
            }
        }
    }

    /// `FOR UPDATE`: concurrent edits of one session queue on the row lock instead of failing
    /// the version check, so a burst of edits all land without exhausting the retries. The
    /// version check stays as the guarantee.
    const SELECT_SETTINGS_LOCKED: &'static str = super::sql::SELECT_SETTINGS_FOR_UPDATE;
    const SELECT_CHANNEL_LOCKED: &'static str = super::sql::SELECT_CHANNEL_FOR_UPDATE;

    /// Connects and runs the migrations (concurrent starters are serialized by the migrator's
    /// advisory lock).
    pub async fn connect(database_url: &str) -> Result<PgStore, StoreError> {
        let pool = Self::pool(database_url)?;
        // The first acquire connects (or says the server is unreachable).
        pool.acquire().await.map_err(Self::classify)?;
        Self::migrate(&pool).await?;
        Ok(PgStore {
            conns: Arc::new(Conns::new(pool, COMMAND_CONNECTIONS)),
            combiner: Arc::default(),
            records: Arc::default(),
            kept: SessionKeeper::default(),
            migrated: Arc::new(AtomicBool::new(true)),
        })
    }

    /// Whether the schema is there (see `migrated`).
    fn schema_ready(&self) -> bool {
        self.migrated.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// A store for a server that may be down right now: the URL is checked at once (a malformed
    /// one is an error), the pool connects when a command first needs it, and the migrations run
    /// now if the server answers, else in the background until it does. Meanwhile every
    /// operation answers `Unavailable` (unreachable, or the schema not there yet), so the bot
    /// starts and serves what needs no storage.
    pub async fn connect_eventually(database_url: &str) -> Result<PgStore, StoreError> {
        let pool = Self::pool(database_url)?;
        let migrated = Arc::new(AtomicBool::new(false));
        match Self::migrate(&pool).await {
            Ok(()) => migrated.store(true, std::sync::atomic::Ordering::SeqCst),
            Err(StoreError::Unavailable(detail)) => {
                tracing::warn!(
                    "database not reachable at start-up; serving without it until it is: {detail}"
                );
                let later = pool.clone();
                let done = migrated.clone();
                tokio::spawn(async move {
                    loop {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        match Self::migrate(&later).await {
                            Ok(()) => {
                                done.store(true, std::sync::atomic::Ordering::SeqCst);
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
        Ok(PgStore {
            conns: Arc::new(Conns::new(pool, COMMAND_CONNECTIONS)),
            combiner: Arc::default(),
            records: Arc::default(),
            kept: SessionKeeper::default(),
            migrated,
        })
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
            // The server probes an idle connection after 10 s and drops it after three
            // unanswered probes, freeing the locks of a bot it lost without a reset. sqlx does
            // not expose its own sockets, so the bot's side is guarded by `limits` and the
            // bounded liveness check below instead.
            ("tcp_keepalives_idle", "10"),
            ("tcp_keepalives_interval", "5"),
            ("tcp_keepalives_count", "3"),
            // The default since PostgreSQL 9.1, set so the literals of a session write
            // (`pg_session_write`) are read as written.
            ("standard_conforming_strings", "on"),
        ]);
        Ok(PgPoolOptions::new()
            // The commands', and one held by the change feed.
            .max_connections(COMMAND_CONNECTIONS + 1)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .idle_timeout(Duration::from_secs(600))
            .max_lifetime(Duration::from_secs(1800))
            // sqlx's own test pings every connection before every use: a round trip more per
            // statement. A connection used within the last second is alive; one idle longer
            // may have died with a server restart, so it is pinged before a command relies on
            // it (a failed ping closes it and another is taken).
            .test_before_acquire(false)
            .before_acquire(|conn, meta| {
                Box::pin(async move {
                    if meta.idle_for >= RECENTLY_USED {
                        // A frozen server never answers the ping: such a connection is
                        // dropped (another is taken) instead of holding the command.
                        match tokio::time::timeout(PING_BEFORE_USE, sqlx::Connection::ping(conn)).await {
                            Ok(answered) => answered?,
                            Err(_) => return Ok(false),
                        }
                    }
                    Ok(true)
                })
            })
            .connect_lazy_with(options))
    }

    async fn migrate(pool: &PgPool) -> Result<(), StoreError> {
        migrations::postgres()
            .run(pool)
            .await
            .map_err(|e| migrate_error(e, Self::classify))
    }

    pub(super) fn classify(e: sqlx::Error) -> StoreError {
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

impl BatchWriter for PgStore {
    fn queue(&self) -> &RecordQueue {
        &self.records
    }

    async fn write(&self, batch: &[PendingRecord], sent: &AtomicBool) -> Result<Vec<Recorded>, StoreError> {
        self.write_records(batch, sent).await
    }
}

sql_store!(PgStore, sqlx::postgres::PgRow, sqlx::Postgres);

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
