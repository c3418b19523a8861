//! Group commit for what commands leave behind (issue 18): the buttons' actions and the rolls
//! of commands arriving together are written in one batch by a task of their own, instead of a
//! round trip (or, on SQLite, several thread hops) and a commit per command. The first record
//! to find no task serving the queue starts one; the task takes batches (oldest first) until
//! none waits. It runs on its own, so a caller that goes away cannot stop a commit halfway.

use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use tokio::sync::oneshot;

use super::limits::{self, WRITE_LIMIT};
use super::{NewAction, NewRoll, Recorded, StoreError};

/// Most records one batch takes; the rest wait for the next.
pub const RECORD_BATCH: usize = 64;

/// One command's record waiting for its batch, and where its outcome goes.
pub struct PendingRecord {
    pub actions: Vec<NewAction>,
    pub roll: Option<NewRoll>,
    back: oneshot::Sender<Result<Recorded, StoreError>>,
    /// When its command must know (see `limits`): a batch ends by its oldest record's.
    deadline: tokio::time::Instant,
}

/// Records waiting, and whether a batch task serves them: decided under one lock, so every
/// record is either taken by the running task or starts a new one.
#[derive(Default)]
pub struct RecordQueue {
    state: Mutex<(Vec<PendingRecord>, bool)>,
}

impl RecordQueue {
    /// Queues `p`; true when no task serves the queue (the caller starts one).
    fn join(&self, p: PendingRecord) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.0.push(p);
        let start = !state.1;
        state.1 = true;
        start
    }

    /// The next batch, oldest first; empty when none waits (the task then ends).
    fn take(&self) -> Vec<PendingRecord> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let n = state.0.len().min(RECORD_BATCH);
        let batch: Vec<PendingRecord> = state.0.drain(..n).collect();
        if batch.is_empty() {
            state.1 = false;
        }
        batch
    }
}

/// A store that writes a batch of records in one transaction: each record's actions (their ids
/// in the order given) and its roll (logged only while its session is active, rolls in the
/// batch's order), one [`Recorded`] per record in order.
pub trait BatchWriter: Clone + Send + Sync + 'static {
    fn queue(&self) -> &RecordQueue;
    /// `sent` is set just before what makes the batch durable is sent.
    fn write(
        &self,
        batch: &[PendingRecord],
        sent: &AtomicBool,
    ) -> impl Future<Output = Result<Vec<Recorded>, StoreError>> + Send;
}

/// Records `actions` and `roll` in the store's next batch and waits for its outcome.
pub async fn record(
    store: &impl BatchWriter,
    actions: &[NewAction],
    roll: Option<&NewRoll>,
) -> Result<Recorded, StoreError> {
    if actions.is_empty() && roll.is_none() {
        return Ok(Recorded {
            action_ids: Vec::new(),
            logged: false,
        });
    }
    let (back, answer) = oneshot::channel();
    let pending = PendingRecord {
        actions: actions.to_vec(),
        roll: roll.cloned(),
        back,
        deadline: tokio::time::Instant::now() + WRITE_LIMIT,
    };
    if store.queue().join(pending) {
        let store = store.clone();
        tokio::spawn(async move {
            loop {
                let batch = store.queue().take();
                if batch.is_empty() {
                    return;
                }
                let deadline = batch.iter().map(|p| p.deadline).min();
                let deadline = deadline.unwrap_or_else(|| tokio::time::Instant::now() + WRITE_LIMIT);
                let sent = AtomicBool::new(false);
                let written = limits::by(deadline, &sent, store.write(&batch, &sent)).await;
                let n = batch.len();
                for (p, result) in batch.into_iter().zip(answers(written, n)) {
                    let _ = p.back.send(result);
                }
            }
        });
    }
    answer
        .await
        .unwrap_or_else(|_| Err(StoreError::Internal("the record batch stopped".into())))
}

/// Each record's [`Recorded`] from what a batch wrote: `ids` the actions' ids in the order of
/// the batch's actions, `active` the sessions whose rolls were logged.
pub fn recorded(batch: &[PendingRecord], ids: Vec<i64>, active: &[i64]) -> Result<Vec<Recorded>, StoreError> {
    let wanted: usize = batch.iter().map(|p| p.actions.len()).sum();
    if ids.len() != wanted {
        return Err(StoreError::Internal(format!(
            "{} of {wanted} button actions stored",
            ids.len()
        )));
    }
    let mut ids = ids.into_iter();
    Ok(batch
        .iter()
        .map(|p| Recorded {
            action_ids: ids.by_ref().take(p.actions.len()).collect(),
            logged: p.roll.as_ref().is_some_and(|r| active.contains(&r.session_id)),
        })
        .collect())
}

/// Each record's outcome: its own, or the batch's error for every one (a batch that wrote a
/// wrong count of outcomes is an error too).
fn answers(written: Result<Vec<Recorded>, StoreError>, n: usize) -> Vec<Result<Recorded, StoreError>> {
    match written {
        Ok(all) if all.len() == n => all.into_iter().map(Ok).collect(),
        Ok(all) => {
            let e = StoreError::Internal(format!("{} outcomes for {n} records", all.len()));
            (0..n).map(|_| Err(e.clone())).collect()
        }
        Err(e) => (0..n).map(|_| Err(e.clone())).collect(),
    }
}
