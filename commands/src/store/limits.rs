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

/// The longest a write may take, from joining its queue to the commit's answer. Over the 2 s
/// after which a command shows "thinking…", well inside Discord's 15 minutes, and over the
/// 5 × 2 s a session row held elsewhere takes to end in a clear conflict (`lock_timeout`).
pub const WRITE_LIMIT: Duration = Duration::from_secs(12);
/// The longest a read may take.
pub const READ_LIMIT: Duration = Duration::from_secs(5);
/// The longest `/readyz`'s question to the database may take.
pub const PING_LIMIT: Duration = Duration::from_secs(1);

/// A connection taken for one write. Dropped before [`Held::done`] (its time ran out, the
/// future was cancelled), it is closed instead of returned to the pool: a connection to a frozen
/// server would sit in the pool and hang whoever took it next.
pub struct Held<DB: sqlx::Database> {
    pub conn: PoolConnection<DB>,
    finished: bool,
}

impl<DB: sqlx::Database> Held<DB> {
    pub async fn take(pool: &sqlx::Pool<DB>) -> Result<Held<DB>, sqlx::Error> {
        Ok(Held {
            conn: pool.acquire().await?,
            finished: false,
        })
    }

    /// The write ended (well or with an answer from the database): the connection may go back.
    pub fn done(&mut self) {
        self.finished = true;
    }
}

impl<DB: sqlx::Database> Drop for Held<DB> {
    fn drop(&mut self) {
        if !self.finished {
            self.conn.close_on_drop();
        }
    }
}

/// `work`, answered by `deadline`. `sent` is set by `work` just before it sends what makes its
/// change durable (the COMMIT, or a statement that is its own transaction): past the deadline
/// after that, the change may have been made.
pub async fn by<T>(
    deadline: Instant,
    sent: &AtomicBool,
    work: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    match tokio::time::timeout_at(deadline, work).await {
        Ok(result) => result,
        Err(_) if sent.load(Ordering::SeqCst) => Err(StoreError::Unconfirmed),
        Err(_) => Err(StoreError::Unavailable(
            "the database did not answer in time".into(),
        )),
    }
}

/// A read, answered within [`READ_LIMIT`].
pub async fn read<T>(work: impl Future<Output = Result<T, StoreError>>) -> Result<T, StoreError> {
    by(Instant::now() + READ_LIMIT, &AtomicBool::new(false), work).await
}

/// A write started now, answered within [`WRITE_LIMIT`].
pub async fn write<T>(
    sent: &AtomicBool,
    work: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    by(Instant::now() + WRITE_LIMIT, sent, work).await
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
