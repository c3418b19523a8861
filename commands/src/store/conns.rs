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
use tokio::sync::Notify;
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
    /// A connection was kept: a taker waiting on the pool (every connection out) looks here
    /// again, since the pool will not see that one come back.
    kept_one: Notify,
}

impl<DB: sqlx::Database> Conns<DB> {
    pub fn new(pool: sqlx::Pool<DB>) -> Conns<DB> {
        Conns {
            pool,
            kept: Mutex::new(Vec::new()),
            kept_one: Notify::new(),
        }
    }

    /// The most recently used kept connection (asked first whether it still answers when it
    /// was kept a while), else one from the pool.
    pub async fn take(&self) -> Result<PoolConnection<DB>, sqlx::Error> {
        loop {
            match self.newest() {
                Some((conn, at)) if at.elapsed() < RECENTLY_USED => return Ok(conn),
                Some((mut conn, _)) => {
                    match tokio::time::timeout(PING_BEFORE_USE, sqlx::Connection::ping(&mut *conn)).await {
                        Ok(Ok(())) => return Ok(conn),
                        Ok(Err(_)) => conn.close_on_drop(),
                        // A frozen server: the other kept connections would hang as long.
                        Err(_) => {
                            conn.close_on_drop();
                            self.close_kept();
                        }
                    }
                    continue;
                }
                None => {}
            }
            // Room in the pool: it gives an idle connection or makes one. That acquire is never
            // abandoned halfway (a connection half made is lost, and the server's backend with it).
            if self.pool.size() < self.pool.options().get_max_connections() {
                return self.pool.acquire().await;
            }
            // Every connection is out: whichever comes first, one given back to the pool or
            // one kept here.
            let kept_one = self.kept_one.notified();
            tokio::pin!(kept_one);
            kept_one.as_mut().enable();
            if self.kept() > 0 {
                continue;
            }
            tokio::select! {
                conn = self.pool.acquire() => return conn,
                () = kept_one => continue,
            }
        }
    }

    /// The newest kept connection and when it was kept; those kept longer than [`KEPT_AT_MOST`]
    /// go back to the pool (outside the lock: sqlx checks them in a task), whose idle and
    /// lifetime limits then apply.
    fn newest(&self) -> Option<(PoolConnection<DB>, Instant)> {
        let (newest, old) = {
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            if self.pool.is_closed() {
                kept.clear();
                return None;
            }
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
    pub fn give(&self, conn: PoolConnection<DB>) {
        if self.pool.is_closed() {
            return;
        }
        self.kept
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((conn, Instant::now()));
        self.kept_one.notify_one();
    }

    /// Connections kept here now.
    pub fn kept(&self) -> usize {
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The pool.
    pub fn pool(&self) -> &sqlx::Pool<DB> {
        &self.pool
    }

    /// Gives every kept connection back and closes the pool (which waits for them).
    pub async fn close(&self) {
        let kept = std::mem::take(&mut *self.kept.lock().unwrap_or_else(|e| e.into_inner()));
        drop(kept);
        self.pool.close().await;
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
    async fn a_kept_connection_is_taken_next_and_reaches_a_taker_waiting_on_the_pool() {
        let conns = std::sync::Arc::new(Conns::new(one_connection_pool().await));
        let first = conns.take().await.unwrap();
        // The pool's one connection is out: this taker waits on the pool.
        let waiting = tokio::spawn({
            let conns = conns.clone();
            async move { conns.take().await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        conns.give(first);
        let second = tokio::time::timeout(Duration::from_secs(2), waiting)
            .await
            .expect("the kept connection reached the waiting taker")
            .unwrap()
            .unwrap();
        assert_eq!(conns.kept(), 0);
        assert_eq!(conns.pool().num_idle(), 0, "kept, not given back to the pool");
        conns.give(second);
        assert_eq!(conns.kept(), 1);
        let third = conns.take().await.unwrap();
        assert_eq!(conns.kept(), 0);
        drop(third);
    }

    #[tokio::test]
    async fn a_connection_kept_a_while_is_asked_before_use_and_close_ends_all() {
        let conns = Conns::new(one_connection_pool().await);
        let conn = conns.take().await.unwrap();
        conns.give(conn);
        tokio::time::sleep(RECENTLY_USED + Duration::from_millis(100)).await;
        // Kept a while: asked whether it answers, then used (not handed back to the pool).
        let again = tokio::time::timeout(Duration::from_secs(5), conns.take())
            .await
            .expect("the kept connection answered")
            .unwrap();
        assert_eq!(conns.kept(), 0);
        assert_eq!(conns.pool().num_idle(), 0);
        conns.give(again);
        tokio::time::timeout(Duration::from_secs(5), conns.close())
            .await
            .expect("close does not wait for kept connections");
        assert!(conns.take().await.is_err(), "closed");
    }
}
