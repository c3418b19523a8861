//! Client-side time limits (issue 33): a frozen database (a partition without reset, a stopped
//! server) answers nothing, so no server-side timeout can fire. Every store operation is bounded
//! here, on the bot's side, and says what it knows when its time runs out: nothing was made
//! ([`StoreError::Unavailable`]) or the commit was sent and never answered
//! ([`StoreError::Unconfirmed`]).

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sqlx::pool::PoolConnection;
use tokio::time::Instant;

use super::StoreError;
use super::conns::Conns;
use tokio::sync::SemaphorePermit;

/// The longest a write may take, from joining its queue to the commit's answer. Over the 2 s
/// after which a command shows "thinking…", well inside Discord's 15 minutes, and over the
/// 5 × 2 s a session row held elsewhere takes to end in a clear conflict (`lock_timeout`).
pub const WRITE_LIMIT: Duration = Duration::from_secs(12);
/// The longest a read may take.
pub const READ_LIMIT: Duration = Duration::from_secs(5);
/// The longest `/readyz`'s question to the database may take.
pub const PING_LIMIT: Duration = Duration::from_secs(1);

/// A connection taken for one operation. Given back once the operation ended with the
/// database's answer ([`Held::answered`], [`Held::ended`]), it is kept for the next one (see `conns`). Dropped
/// before that (its time ran out, the future was cancelled), it is closed instead: a connection
/// to a frozen server would hang whoever took it next, and one cut off mid-statement is out of
/// step.
pub struct Held<'a, DB: sqlx::Database> {
    pub conn: Taken<DB>,
    conns: &'a Conns<DB>,
    finished: bool,
    /// The store's turn (see `Conns`), given up after the connection (a field drops after
    /// `drop`), so the next taker finds it kept.
    _turn: SemaphorePermit<'a>,
}

impl<'a, DB: sqlx::Database> Held<'a, DB> {
    pub async fn take(conns: &'a Conns<DB>) -> Result<Held<'a, DB>, sqlx::Error> {
        let (conn, turn) = conns.take().await?;
        Ok(Held {
            conn: Taken(Some(conn)),
            conns,
            finished: false,
            _turn: turn,
        })
    }

    /// The database answered `r` to a statement that is its own transaction (rows, or an error
    /// of its own): the connection is in step and holds nothing, so it may be used again. A
    /// connection that failed (lost, cut off) is closed.
    pub fn answered<T>(&mut self, r: &Result<T, sqlx::Error>) {
        self.finished = matches!(r, Ok(_) | Err(sqlx::Error::Database(_)));
    }

    /// A transaction on the connection ended: `Ok`, it was committed or rolled back, so the
    /// connection holds no lock and may be used again; after an error it is closed, and the
    /// server rolls back at once rather than when the connection is next used.
    pub fn ended<T, E>(&mut self, r: &Result<T, E>) {
        self.finished = r.is_ok();
    }
}

impl<DB: sqlx::Database> Drop for Held<'_, DB> {
    fn drop(&mut self) {
        let Some(mut conn) = self.conn.0.take() else {
            return;
        };
        if self.finished {
            self.conns.give(conn);
        } else {
            conn.close_on_drop();
        }
    }
}

/// One statement that is its own transaction, on a connection from `conns` that is kept again
/// when the database answered it (see [`Held::answered`]); taking the connection may fail too.
pub async fn statement<DB: sqlx::Database, T>(
    conns: &Conns<DB>,
    run: impl AsyncFnOnce(&mut DB::Connection) -> Result<T, sqlx::Error>,
) -> Result<T, sqlx::Error> {
    let mut held = Held::take(conns).await?;
    let answer = run(&mut held.conn).await;
    held.answered(&answer);
    answer
}

/// The connection a [`Held`] has (`&mut *held.conn` is the database's connection).
pub struct Taken<DB: sqlx::Database>(Option<PoolConnection<DB>>);

impl<DB: sqlx::Database> std::ops::Deref for Taken<DB> {
    type Target = DB::Connection;
    fn deref(&self) -> &DB::Connection {
        self.0.as_ref().expect("taken until the Held is dropped")
    }
}

impl<DB: sqlx::Database> std::ops::DerefMut for Taken<DB> {
    fn deref_mut(&mut self) -> &mut DB::Connection {
        self.0.as_mut().expect("taken until the Held is dropped")
    }
}

/// `work`, answered by `deadline`. `sent` is set by `work` just before it sends what makes its
/// change durable (the COMMIT, or a statement that is its own transaction): past the deadline
/// after that, the change may have been made.
///
/// `work` is boxed at once: a store operation's future is tens of kilobytes (sqlx's inside), and
/// every layer that took it by value (this one, the timeout, `read`, the caller's box) copied
/// it whole, 15-45 KB of `memcpy` per operation and per cache hit (callgrind).
pub fn by<'a, T: 'a>(
    deadline: Instant,
    sent: &'a AtomicBool,
    work: impl Future<Output = Result<T, StoreError>> + 'a,
) -> impl Future<Output = Result<T, StoreError>> + 'a {
    let work = Box::pin(work);
    async move {
        match tokio::time::timeout_at(deadline, work).await {
            Ok(result) => result,
            Err(_) if sent.load(Ordering::SeqCst) => Err(StoreError::Unconfirmed),
            Err(_) => Err(StoreError::Unavailable(
                "the database did not answer in time".into(),
            )),
        }
    }
}

/// Never set: a read sends nothing that commits.
static READS_SEND_NOTHING: AtomicBool = AtomicBool::new(false);

/// A read, answered within [`READ_LIMIT`] of its making.
pub fn read<'a, T: 'a>(
    work: impl Future<Output = Result<T, StoreError>> + 'a,
) -> impl Future<Output = Result<T, StoreError>> + 'a {
    by(Instant::now() + READ_LIMIT, &READS_SEND_NOTHING, work)
}

/// A write made now, answered within [`WRITE_LIMIT`].
pub fn write<'a, T: 'a>(
    sent: &'a AtomicBool,
    work: impl Future<Output = Result<T, StoreError>> + 'a,
) -> impl Future<Output = Result<T, StoreError>> + 'a {
    by(Instant::now() + WRITE_LIMIT, sent, work)
}

pub fn mark(sent: &AtomicBool) {
    sent.store(true, Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_write_past_its_time_says_whether_its_commit_was_sent() {
        let never = std::future::pending::<Result<(), StoreError>>();
        let sent = AtomicBool::new(false);
        let r = by(Instant::now() + Duration::from_millis(50), &sent, never).await;
        assert!(matches!(r, Err(StoreError::Unavailable(_))), "{r:?}");
        let sent = AtomicBool::new(false);
        let committing = async {
            mark(&sent);
            std::future::pending::<Result<(), StoreError>>().await
        };
        let r = by(Instant::now() + Duration::from_millis(50), &sent, committing).await;
        assert!(matches!(r, Err(StoreError::Unconfirmed)), "{r:?}");
        // An answer in time is the answer, whatever was sent.
        let r = write(&sent, async { Ok(5) }).await;
        assert_eq!(r.unwrap(), 5);
    }
}
