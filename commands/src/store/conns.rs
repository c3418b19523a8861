//! The store's connections between operations (issue 32). sqlx's pool checks every connection
//! given back to it with a round trip (a `Sync` and its answer on PostgreSQL, a hop to the
//! worker thread on SQLite), in a task of its own: on PostgreSQL a fifth of the messages of a
//! session write. It does so because a future cancelled mid-statement leaves its connection out
//! of step. A connection whose operation ended with the database's answer is in step, so it is
//! kept here instead and the next operation takes it at once; one dropped mid-way is closed
//! (see `limits::Held`). One kept past [`RECENTLY_USED`] is asked whether it still answers
//! before it is used, as the pool's check before use (`before_acquire`) does.

use std::sync::Mutex;
use std::time::Duration;

use sqlx::pool::PoolConnection;
use tokio::sync::{Semaphore, SemaphorePermit};
use tokio::time::Instant;

/// A connection used this recently is not asked whether it still answers before its next use.
pub const RECENTLY_USED: Duration = Duration::from_secs(1);
/// How long that question may take: a frozen server never answers it.
pub const PING_BEFORE_USE: Duration = Duration::from_secs(1);
/// A connection idle this long goes back to the pool (its idle timeout and lifetime apply there).
const KEPT_AT_MOST: Duration = Duration::from_secs(60);

/// The pool and the connections kept out of it, most recently used last.
pub struct Conns<DB: sqlx::Database> {
    pool: sqlx::Pool<DB>,
    kept: Mutex<Vec<(PoolConnection<DB>, Instant)>>,
    /// One per connection the store may hold at once. A taker waits here, not in the pool: a
    /// connection given back is kept here, so the pool would not see it come back, and with a
    /// turn the pool always has room or an idle connection for it.
    turns: Semaphore,
}

impl<DB: sqlx::Database> Conns<DB> {
    /// `turns`: at most the pool's connections, less those held elsewhere (the change feed's).
    pub fn new(pool: sqlx::Pool<DB>, turns: u32) -> Conns<DB> {
        Conns {
            pool,
            kept: Mutex::new(Vec::new()),
            turns: Semaphore::new(turns as usize),
        }
    }

    /// A turn, then the most recently used kept connection (asked first whether it still
    /// answers when it was kept a while), else one from the pool.
    pub async fn take(&self) -> Result<(PoolConnection<DB>, SemaphorePermit<'_>), sqlx::Error> {
        let turn = self.turns.acquire().await.map_err(|_| sqlx::Error::PoolClosed)?;
        loop {
            match self.newest() {
                Some((conn, at)) if at.elapsed() < RECENTLY_USED => return Ok((conn, turn)),
                Some((mut conn, _)) => {
                    match tokio::time::timeout(PING_BEFORE_USE, sqlx::Connection::ping(&mut *conn)).await {
                        Ok(Ok(())) => return Ok((conn, turn)),
                        Ok(Err(_)) => conn.close_on_drop(),
                        // A frozen server: the other kept connections would hang as long.
                        Err(_) => {
                            conn.close_on_drop();
                            self.close_kept();
                        }
                    }
                }
                None => return Ok((self.pool.acquire().await?, turn)),
            }
        }
    }

    /// The newest kept connection and when it was kept; those kept longer than [`KEPT_AT_MOST`]
    /// go back to the pool (outside the lock: sqlx checks them in a task), whose idle and
    /// lifetime limits then apply.
    fn newest(&self) -> Option<(PoolConnection<DB>, Instant)> {
        let (newest, old) = {
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            // Oldest first: the long-idle ones are at the front.
            let old_ones = kept
                .iter()
                .take_while(|(_, at)| at.elapsed() >= KEPT_AT_MOST)
                .count();
            let old: Vec<_> = kept.drain(..old_ones).collect();
            (kept.pop(), old)
        };
        drop(old);
        newest
    }

    /// Closes every kept connection.
    fn close_kept(&self) {
        let kept = std::mem::take(&mut *self.kept.lock().unwrap_or_else(|e| e.into_inner()));
        for (mut conn, _) in kept {
            conn.close_on_drop();
        }
    }

    /// Keeps `conn`, in step with its database, for the next operation.
    /// Once the pool is closed nothing is kept (checked under the lock `close` empties the
    /// stack under, after closing the pool).
    pub fn give(&self, conn: PoolConnection<DB>) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if self.pool.is_closed() {
            return;
        }
        kept.push((conn, Instant::now()));
    }

    /// Connections kept here now.
    pub fn kept(&self) -> usize {
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The pool.
    pub fn pool(&self) -> &sqlx::Pool<DB> {
        &self.pool
    }

    /// Closes the pool, then every kept connection, and waits for them all (`give` keeps
    /// nothing once the pool is closed).
    pub async fn close(&self) {
        let closed = self.pool.close();
        self.turns.close();
        self.close_kept();
        closed.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::sqlite::SqlitePoolOptions;

    async fn one_connection_pool() -> sqlx::SqlitePool {
        SqlitePoolOptions::new()
            .max_connections(1)
            // Far longer than the test waits: only a kept connection can answer in time.
            .acquire_timeout(Duration::from_secs(30))
            .connect("sqlite::memory:")
            .await
            .expect("in-memory SQLite")
    }

    #[tokio::test]
    async fn a_kept_connection_is_taken_next_and_reaches_a_taker_waiting_for_a_turn() {
        let conns = std::sync::Arc::new(Conns::new(one_connection_pool().await, 1));
        let (first, turn) = conns.take().await.unwrap();
        // The one turn is out: this taker waits for it.
        let waiting = tokio::spawn({
            let conns = conns.clone();
            async move { conns.take().await.map(|(conn, _turn)| conn) }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        conns.give(first);
        drop(turn);
        let second = tokio::time::timeout(Duration::from_secs(2), waiting)
            .await
            .expect("the kept connection reached the waiting taker")
            .unwrap()
            .unwrap();
        assert_eq!(conns.kept(), 0);
        assert_eq!(conns.pool().num_idle(), 0, "kept, not given back to the pool");
        conns.give(second);
        assert_eq!(conns.kept(), 1);
        let (third, _turn) = conns.take().await.unwrap();
        assert_eq!(conns.kept(), 0);
        drop(third);
    }

    #[tokio::test]
    async fn a_connection_kept_a_while_is_asked_before_use_and_close_ends_all() {
        let conns = Conns::new(one_connection_pool().await, 1);
        let (conn, turn) = conns.take().await.unwrap();
        conns.give(conn);
        drop(turn);
        tokio::time::sleep(RECENTLY_USED + Duration::from_millis(100)).await;
        // Kept a while: asked whether it answers, then used (not handed back to the pool).
        let (again, turn) = tokio::time::timeout(Duration::from_secs(5), conns.take())
            .await
            .expect("the kept connection answered")
            .unwrap();
        assert_eq!(conns.kept(), 0);
        assert_eq!(conns.pool().num_idle(), 0);
        conns.give(again);
        drop(turn);
        tokio::time::timeout(Duration::from_secs(5), conns.close())
            .await
            .expect("close does not wait for kept connections");
        assert!(conns.take().await.is_err(), "closed");
    }
}
