//! How a slash command rolls (issue 28): through a [`CommandRoll`], the one door to the bot's
//! dice a command has, whose ways to finish all log what was rolled. A press rolls through its
//! [`crate::press::Answer`] instead; both doors sit on [`crate::press::Dice`], whose source
//! nothing else reaches.
//!
//! Rust cannot force a value to be used up, so a `CommandRoll` that drew dice and is dropped
//! without answering (nor [`CommandRoll::abandon`]ed) says so at runtime: an error in the
//! bot's log, naming the command.
//!
//! The dice are reached only through [`CommandRoll::with`]:
//!
//! ```no_run
//! fn roll_d6(ctx: saikoro_bot::Context<'_>) -> u32 {
//!     let roll = saikoro_bot::command_roll::CommandRoll::new(ctx);
//!     let face = roll.with(|r| r.roll(6)).unwrap_or(0);
//!     // (A command answers with it; this example drops the roll on purpose.)
//!     roll.abandon(face)
//! }
//! ```
//!
//! and the source itself stays out of a command's hands:
//!
//! ```compile_fail
//! fn bypass(ctx: saikoro_bot::Context<'_>) {
//!     // No command_dice any more: the dice are not on `Data`.
//!     let _ = ctx.data().command_dice(ctx);
//! }
//! ```
//!
//! ```compile_fail
//! fn bypass(ctx: saikoro_bot::Context<'_>) {
//!     // The roll's source is private: a command cannot take it and drop the roll.
//!     let roll = saikoro_bot::command_roll::CommandRoll::new(ctx);
//!     let _ = roll.dice;
//! }
//! ```

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};

use engine::dice::{DiceError, Roller};
use engine::session::Session;

use crate::dice_source::DiceSource;
use crate::invocation::Invocation;
use crate::log_line::{LogSummary, typed};
use crate::store::NewRoll;
use crate::{BotError, Context};

/// A command that may roll. Made by [`CommandRoll::new`]; finished by one of its answers, each
/// of which hands the outcome to the console and logs it in the session (best effort, as
/// every roll): [`CommandRoll::answer`], [`CommandRoll::answer_in_channel`],
/// [`CommandRoll::record`], [`CommandRoll::entry`]; or by [`CommandRoll::abandon`] when the
/// command fails after rolling and shows nothing.
#[must_use = "a command that rolls answers through its CommandRoll, which logs the roll"]
pub struct CommandRoll<'a> {
    ctx: Context<'a>,
    dice: &'a DiceSource,
    /// A die was drawn: from here on the roll owes its log row.
    drawn: AtomicBool,
    /// Answered or abandoned: nothing is owed.
    settled: AtomicBool,
}

impl<'a> CommandRoll<'a> {
    /// The one door to the dice for a command.
    pub fn new(ctx: Context<'a>) -> CommandRoll<'a> {
        ctx.data().dice.for_command(ctx)
    }

    /// Roll with `f` at once: its outcome, with the `CommandRoll` that logs it. When `f`
    /// refuses, the command answers with the error, so nothing is owed to the log.
    pub fn roll<T, E>(
        ctx: Context<'a>,
        f: impl FnOnce(&mut dyn Roller) -> Result<T, E>,
    ) -> Result<(CommandRoll<'a>, T), E> {
        let roll = CommandRoll::new(ctx);
        match roll.with(f) {
            Ok(out) => Ok((roll, out)),
            Err(e) => Err(roll.abandon(e)),
        }
    }

    /// The command's context (the helpers that answer take the roll in its place).
    pub fn ctx(&self) -> Context<'a> {
        self.ctx
    }

    /// For [`crate::press::Dice`], which holds the source.
    pub(crate) fn over(ctx: Context<'a>, dice: &'a DiceSource) -> CommandRoll<'a> {
        CommandRoll {
            ctx,
            dice,
            drawn: AtomicBool::new(false),
            settled: AtomicBool::new(false),
        }
    }

    /// Run `f` with exclusive use of the roller (as [`DiceSource::with`]); the dice it draws
    /// are owed to the log.
    pub fn with<T>(&self, f: impl FnOnce(&mut dyn Roller) -> T) -> T {
        self.dice.with(|r| {
            f(&mut Counted {
                inner: r,
                drawn: &self.drawn,
            })
        })
    }

    /// Whether any die was drawn.
    pub fn rolled(&self) -> bool {
        self.drawn.load(Ordering::Relaxed)
    }

    /// Show the result (`sent`: the reply, e.g. [`crate::systems::replies::reply`]), then hand
    /// `outcome` to the console and log it in `session`. A reply that fails is the command's
    /// error and logs nothing, as before.
    pub async fn answer<E>(
        self,
        inv: &Invocation,
        session: Option<&Session>,
        sent: impl Future<Output = Result<(), E>>,
        outcome: &(impl serde::Serialize + LogSummary),
    ) -> Result<(), BotError>
    where
        BotError: From<E>,
    {
        self.settle();
        sent.await?;
        self.log(inv, session, outcome).await;
        Ok(())
    }

    /// [`CommandRoll::answer`] with buttons: the roll's log row and the pending buttons'
    /// actions are stored in one write before the reply goes out (the buttons need their
    /// ids), then `reply` is sent with them. A roll the log missed is still shown, and said so.
    pub async fn answer_offering(
        self,
        inv: &Invocation,
        session: Option<&Session>,
        reply: poise::CreateReply,
        offers: Vec<Vec<crate::offers::Offer>>,
        outcome: &(impl serde::Serialize + LogSummary),
    ) -> Result<(), BotError> {
        let ctx = self.ctx;
        let entry = self.entry(inv, session, outcome);
        let (buttons, logged) =
            crate::offers::settle(ctx.data().store.as_ref(), offers, entry.as_ref()).await;
        let rows = crate::offers::action_rows(buttons);
        let reply = if rows.is_empty() {
            reply
        } else {
            reply.components(rows)
        };
        crate::reply::send(ctx, reply).await?;
        inv.logged(ctx, session, logged).await;
        Ok(())
    }

    /// [`CommandRoll::answer`] for a roll that needs no session: the channel's session, if
    /// any, is looked up once the reply is out, and the roll logged there.
    pub async fn answer_in_channel<E>(
        self,
        inv: &Invocation,
        sent: impl Future<Output = Result<(), E>>,
        outcome: &(impl serde::Serialize + LogSummary),
    ) -> Result<(), BotError>
    where
        BotError: From<E>,
    {
        self.settle();
        sent.await?;
        let session = inv.session_if_any(self.ctx).await;
        self.log(inv, session.as_deref(), outcome).await;
        Ok(())
    }

    /// Hand `outcome` to the console and log it in `session`, for a command that sends its
    /// messages itself (several, or after the row).
    pub async fn record(
        self,
        inv: &Invocation,
        session: Option<&Session>,
        outcome: &(impl serde::Serialize + LogSummary),
    ) {
        self.settle();
        self.log(inv, session, outcome).await;
    }

    /// [`CommandRoll::record`] of an outcome logged with a mark the console does not see
    /// (a secret roll's `hidden`): the console gets `outcome`, the log `logged`.
    pub async fn record_marked(
        self,
        inv: &Invocation,
        session: Option<&Session>,
        outcome: &impl serde::Serialize,
        logged: &(impl serde::Serialize + LogSummary),
    ) {
        self.settle();
        self.ctx.data().tap(self.ctx.id(), outcome);
        inv.log_roll(self.ctx, session, &typed(self.ctx), logged).await;
    }

    /// Hand `outcome` to the console and give back its log row, for a command that writes the
    /// row in one store write with something else (the buttons a reply offers); it reports the
    /// write with [`Invocation::logged`]. `None`: no session to log in.
    #[must_use = "the row is the roll's log entry: write it"]
    pub fn entry(
        self,
        inv: &Invocation,
        session: Option<&Session>,
        outcome: &(impl serde::Serialize + LogSummary),
    ) -> Option<NewRoll> {
        self.settle();
        self.ctx.data().tap(self.ctx.id(), outcome);
        inv.roll_entry(session, &typed(self.ctx), outcome)
    }

    /// The command rolled but fails before showing anything (a store write refused): nothing
    /// is logged, as nothing was shown. Gives back the error.
    pub fn abandon<E>(self, error: E) -> E {
        self.settle();
        error
    }

    /// `result` as it is; an error abandons the roll (see [`CommandRoll::abandon`]): for a
    /// step after the dice that may refuse (`roll.or_abandon(save(…).await)?`).
    pub fn or_abandon<T, E>(&self, result: Result<T, E>) -> Result<T, E> {
        if result.is_err() {
            self.settle();
        }
        result
    }

    fn settle(&self) {
        self.settled.store(true, Ordering::Relaxed);
    }

    async fn log(
        &self,
        inv: &Invocation,
        session: Option<&Session>,
        outcome: &(impl serde::Serialize + LogSummary),
    ) {
        self.ctx.data().tap(self.ctx.id(), outcome);
        inv.log_roll(self.ctx, session, &typed(self.ctx), outcome).await;
    }
}

/// Rolls that ended unanswered, since the process started: a bug each (the suites check that
/// none happens; see `support::e2e`).
static UNANSWERED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many commands rolled and ended without answering through their [`CommandRoll`].
pub fn unanswered_rolls() -> u64 {
    UNANSWERED.load(Ordering::Relaxed)
}

impl Drop for CommandRoll<'_> {
    fn drop(&mut self) {
        if !self.settled.load(Ordering::Relaxed) && self.rolled() {
            UNANSWERED.fetch_add(1, Ordering::Relaxed);
            tracing::error!(
                command = %typed(self.ctx),
                interaction = self.ctx.id(),
                "a command rolled and ended without answering through its CommandRoll: the roll is not logged"
            );
        }
    }
}

/// The roller a command's step gets: the bot's, noting that a die was drawn.
struct Counted<'r> {
    inner: &'r mut dyn Roller,
    drawn: &'r AtomicBool,
}

impl Roller for Counted<'_> {
    fn roll(&mut self, sides: u32) -> Result<u32, DiceError> {
        self.drawn.store(true, Ordering::Relaxed);
        self.inner.roll(sides)
    }

    // The inner roller's own many-dice roll, so the faces drawn stay the same.
    fn roll_many(&mut self, count: usize, sides: u32) -> Result<Vec<u32>, DiceError> {
        self.drawn.store(true, Ordering::Relaxed);
        self.inner.roll_many(count, sides)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::dice::FixedRoller;

    #[test]
    fn the_counted_roller_draws_the_same_faces_and_notes_that_it_drew() {
        let drawn = AtomicBool::new(false);
        let mut inner = FixedRoller::new([4, 2, 6]);
        let mut counted = Counted {
            inner: &mut inner,
            drawn: &drawn,
        };
        assert!(!drawn.load(Ordering::Relaxed), "nothing drawn yet");
        assert_eq!(counted.roll(6), Ok(4));
        assert!(drawn.load(Ordering::Relaxed));
        assert_eq!(counted.roll_many(2, 6), Ok(vec![2, 6]));
    }
}
