//! Group commit: concurrent edits of one session share one transaction (issue 18).
//!
//! Edits of one session are serialized by its row lock, and each transaction ends with a commit
//! that waits for the disk (about 1.8 ms on the development machine's PostgreSQL), so ten edits
//! arriving together used to wait ten commits for the last one. Here the edits waiting for the
//! same channel join one batch: a task takes the lock once, offers the session to each edit in
//! turn (in the order they came, each seeing the ones before it, exactly as if run one after the
//! other), and writes and commits once. A refused edit changes nothing and does not stop the
//! others.
//!
//! The edits are the callers' closures and stay in the callers' futures: the batch task sends
//! each caller the session ([`Turn::Apply`]), the caller applies its own edit and sends back the
//! result, and at the end gets its outcome ([`Turn::Done`]). The batch runs in a task of its
//! own, so a caller that goes away cannot stop a commit halfway; its edit is then simply not
//! part of the batch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use engine::session::{Session, SessionError};
use tokio::sync::{mpsc, oneshot};

use super::{Edit, StoreError};

/// Most edits one transaction takes; the rest wait for the next one.
pub const MAX_BATCH: usize = 64;

/// What a waiting edit is told.
pub enum Turn {
    /// Apply your edit to this session and send the result back.
    Apply {
        session: Box<Session>,
        back: oneshot::Sender<Result<Session, SessionError>>,
    },
    /// The batch is over: the session as this edit left it (as saved), or why not.
    Done(Result<Arc<Session>, StoreError>),
}

/// A waiting edit: where its turns go, and when it must have its answer (see `limits`).
pub struct Member {
    pub turns: mpsc::UnboundedSender<Turn>,
    pub deadline: tokio::time::Instant,
}

/// The edits waiting per channel. A channel has an entry while a batch task serves it.
#[derive(Default)]
pub struct Combiner {
    waiting: Mutex<HashMap<u64, Vec<Member>>>,
}

impl Combiner {
    /// Joins the channel's next batch. True when no task serves the channel: the caller must
    /// start one.
    pub fn join(&self, channel: u64, member: Member) -> bool {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        match waiting.get_mut(&channel) {
            Some(queue) => {
                queue.push(member);
                false
            }
            None => {
                waiting.insert(channel, vec![member]);
                true
            }
        }
    }

    /// The next batch (at most [`MAX_BATCH`], oldest first). Empty means the task is done: it
    /// is decided under the same lock as [`Self::join`], so every edit is either in a batch or
    /// starts a new task.
    pub fn take(&self, channel: u64) -> Vec<Member> {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        let Some(queue) = waiting.get_mut(&channel) else {
            return Vec::new();
        };
        let batch: Vec<Member> = queue.drain(..queue.len().min(MAX_BATCH)).collect();
        if batch.is_empty() {
            waiting.remove(&channel);
        }
        batch
    }
}

/// A caller's side: applies `edit` whenever the batch asks (again if the batch is retried after
/// a conflict) and returns the outcome.
pub async fn member(
    turns: &mut mpsc::UnboundedReceiver<Turn>,
    edit: &mut Edit<'_>,
) -> Result<Arc<Session>, StoreError> {
    while let Some(turn) = turns.recv().await {
        match turn {
            Turn::Apply { mut session, back } => {
                let result = edit(&mut session).map(|()| *session);
                let _ = back.send(result);
            }
            Turn::Done(result) => return result,
        }
    }
    Err(StoreError::Internal("the batch writing this edit stopped".into()))
}

/// The batch's side, inside its transaction: offers the session as loaded (`before`) to each
/// member in turn. Returns the session with every accepted edit, how many edits changed it, and
/// each member's outcome (its snapshot, with the version it will have once saved). A changed
/// session gets `updated_at_ms`. Each member edits a copy of its own (an edit may be refused
/// halfway); the snapshots are shared, not copied again, with the caller and the cache.
pub async fn apply_all(
    members: &[Member],
    before: &Arc<Session>,
    updated_at_ms: i64,
) -> (Arc<Session>, i64, Vec<Result<Arc<Session>, StoreError>>) {
    let mut current = Arc::clone(before);
    let mut changes = 0i64;
    let mut outcomes = Vec::with_capacity(members.len());
    for m in members {
        let (back, answer) = oneshot::channel();
        let offered = m.turns.send(Turn::Apply {
            session: Box::new(Session::clone(&current)),
            back,
        });
        let outcome = match (offered, answer.await) {
            (Err(_), _) | (_, Err(_)) => Err(StoreError::Internal("the edit's caller went away".into())),
            (_, Ok(Err(refused))) => Err(StoreError::Invalid(refused)),
            (_, Ok(Ok(mut after))) => {
                // Identity, version and times belong to the store, whatever the edit did.
                after.id = before.id;
                after.guild_id = before.guild_id;
                after.channel_id = before.channel_id;
                after.created_at_ms = before.created_at_ms;
                after.version = current.version;
                after.updated_at_ms = current.updated_at_ms;
                if after == *current {
                    Ok(Arc::clone(&current))
                } else {
                    match after.validate() {
                        Err(e) => Err(StoreError::Invalid(e)),
                        Ok(()) => {
                            changes += 1;
                            after.version = before.version.saturating_add(changes);
                            after.updated_at_ms = updated_at_ms.max(before.updated_at_ms);
                            current = Arc::new(after);
                            Ok(Arc::clone(&current))
                        }
                    }
                }
            }
        };
        outcomes.push(outcome);
    }
    (current, changes, outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting() -> (Member, mpsc::UnboundedReceiver<Turn>) {
        let (turns, rx) = mpsc::unbounded_channel();
        let deadline = tokio::time::Instant::now();
        (Member { turns, deadline }, rx)
    }

    #[test]
    fn a_channel_is_served_by_one_task_at_a_time() {
        let c = Combiner::default();
        let (a, _ra) = waiting();
        let (b, _rb) = waiting();
        assert!(c.join(1, a), "the first edit starts the task");
        assert!(!c.join(1, b), "the second joins it");
        assert_eq!(c.take(1).len(), 2);
        let (d, _rd) = waiting();
        assert!(
            !c.join(1, d),
            "the task still serves the channel until it finds nobody"
        );
        assert_eq!(c.take(1).len(), 1);
        assert!(c.take(1).is_empty());
        let (e, _re) = waiting();
        assert!(c.join(1, e), "after that a new edit starts a new task");
    }

    #[test]
    fn a_batch_takes_at_most_its_limit() {
        let c = Combiner::default();
        let mut keep = Vec::new();
        for _ in 0..MAX_BATCH + 5 {
            let (m, r) = waiting();
            keep.push(r);
            c.join(9, m);
        }
        assert_eq!(c.take(9).len(), MAX_BATCH);
        assert_eq!(c.take(9).len(), 5);
    }
}
