//! Replies that never miss Discord's 3-second window. A command still working after
//! [`DEFER_AFTER`] (a slow database, a row lock held by a concurrent edit) is deferred — the user
//! sees "thinking…" — and its first reply then edits that original response. Completing a
//! deferred reply with a follow-up message is Discord's deprecated path (DESIGN.md), which is why
//! every command replies through [`send`] instead of `ctx.send`.
//!
//! The watchdog wraps each command's slash action (see [`defer_when_slow`]); it runs on the
//! command's own task, so it can only fire while the command is suspended at an `.await`, and a
//! reply already on its way is never raced by a defer.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use poise::CreateReply;
use serenity::all::{CreateInteractionResponseMessage, EditInteractionResponse};

use crate::Command;
use crate::{BotError, Context, Data};

/// Discord drops an interaction not acknowledged within 3 s; deferring at 2 s leaves a second
/// for the defer itself to arrive.
pub const DEFER_AFTER: Duration = Duration::from_millis(2000);

/// Per-invocation state, kept in poise's invocation data (set before the command runs).
pub struct InvocationState {
    /// When the interaction reached the command.
    pub at: Instant,
    /// When the first reply went out: the end of the user's wait, for the latency histogram.
    pub replied: OnceLock<Instant>,
    /// A reply has started on its way: the watchdog must not defer any more.
    reply_started: AtomicBool,
    /// The watchdog deferred; `Some(ephemeral)` says how.
    deferred: OnceLock<bool>,
    /// The deferred original response was filled in (later replies are follow-ups).
    original_filled: AtomicBool,
}

impl InvocationState {
    pub fn new() -> Arc<InvocationState> {
        Arc::new(InvocationState {
            at: Instant::now(),
            replied: OnceLock::new(),
            reply_started: AtomicBool::new(false),
            deferred: OnceLock::new(),
            original_filled: AtomicBool::new(false),
        })
    }
}

/// This invocation's state (`None` outside a command, e.g. in a check that refused it).
pub async fn state(ctx: Context<'_>) -> Option<Arc<InvocationState>> {
    ctx.invocation_data::<Arc<InvocationState>>()
        .await
        .map(|s| s.clone())
}

type SlashAction = for<'a> fn(
    poise::ApplicationContext<'a, Data, BotError>,
) -> BoxFuture<'a, Result<(), poise::FrameworkError<'a, Data, BotError>>>;

/// Wrap every slash action (subcommands included) in the watchdog. The original action is kept
/// in the command's `custom_data`, which nothing else uses.
pub fn defer_when_slow(commands: &mut [Command]) {
    for command in commands {
        if let Some(action) = command.slash_action.take() {
            command.custom_data = Box::new(action as SlashAction);
            command.slash_action = Some(|ctx| Box::pin(run_with_watchdog(ctx)));
        }
        defer_when_slow(&mut command.subcommands);
    }
}

async fn run_with_watchdog(
    ctx: poise::ApplicationContext<'_, Data, BotError>,
) -> Result<(), poise::FrameworkError<'_, Data, BotError>> {
    let Some(action) = ctx.command().custom_data.downcast_ref::<SlashAction>().copied() else {
        // Not wrapped by `defer_when_slow`: nothing to run (cannot happen; never panic).
        tracing::error!(command = %ctx.command().qualified_name, "slash action missing");
        return Ok(());
    };
    acknowledge_if_slow(action(ctx), defer(ctx)).await
}

/// Run `work`; if it is still running after [`DEFER_AFTER`], run `acknowledge` (a defer) and
/// then let `work` finish. Both run on the caller's task, so `acknowledge` only ever runs while
/// `work` is suspended at an `.await` — never in the middle of sending a reply.
pub async fn acknowledge_if_slow<T>(
    work: impl std::future::Future<Output = T>,
    acknowledge: impl std::future::Future<Output = ()>,
) -> T {
    tokio::pin!(work);
    tokio::select! {
        done = &mut work => return done,
        () = tokio::time::sleep(DEFER_AFTER) => {}
    }
    acknowledge.await;
    work.await
}

/// Admin commands answer privately, so their "thinking…" is private too. Discord applies a
/// command's default permissions to its whole tree, and poise keeps them on the root only.
fn defers_ephemeral(parents: &[&Command], command: &Command) -> bool {
    let root = parents.first().copied().unwrap_or(command);
    command.ephemeral || !root.default_member_permissions.is_empty()
}

async fn defer(ctx: poise::ApplicationContext<'_, Data, BotError>) {
    let Some(state) = state(poise::Context::Application(ctx)).await else {
        return;
    };
    if state.reply_started.load(Ordering::SeqCst) || ctx.has_sent_initial_response.load(Ordering::SeqCst) {
        return;
    }
    let ephemeral = defers_ephemeral(ctx.parent_commands(), ctx.command());
    match ctx.defer_response(ephemeral).await {
        Ok(()) => {
            let _ = state.deferred.set(ephemeral);
            tracing::info!(interaction = %ctx.interaction.id, command = %ctx.command().qualified_name, "slow command deferred");
        }
        Err(e) => tracing::warn!(command = %ctx.command().qualified_name, "could not defer: {e}"),
    }
}

/// Send a reply: the initial response, or — once the watchdog deferred — an edit of the
/// deferred original (a private reply to a public "thinking…" replaces it with a private
/// follow-up, since ephemerality cannot be edited), then follow-ups.
pub async fn send(ctx: Context<'_>, reply: CreateReply) -> Result<(), serenity::Error> {
    let poise::Context::Application(app) = ctx else {
        return ctx.send(reply).await.map(|_| ());
    };
    let state = state(ctx).await;
    let deferred = state.as_ref().and_then(|s| {
        s.reply_started.store(true, Ordering::SeqCst);
        s.deferred.get().copied()
    });
    let Some(deferred_ephemeral) = deferred else {
        return ctx.send(reply).await.map(|_| ());
    };
    let first = state
        .as_ref()
        .is_some_and(|s| !s.original_filled.swap(true, Ordering::SeqCst));
    if !first {
        return ctx.send(reply).await.map(|_| ());
    }
    let reply = ctx.reply_builder(reply);
    if is_ephemeral(&reply) == deferred_ephemeral {
        let edit = reply.to_slash_initial_response_edit(EditInteractionResponse::new());
        app.interaction.edit_response(ctx.http(), edit).await.map(|_| ())
    } else {
        app.interaction.delete_response(ctx.http()).await?;
        ctx.send(reply).await.map(|_| ())
    }
}

/// poise keeps a reply's ephemeral flag private; its serialized form says it (flag 64).
fn is_ephemeral(reply: &CreateReply) -> bool {
    let message = reply
        .clone()
        .to_slash_initial_response(CreateInteractionResponseMessage::new());
    serde_json::to_value(&message)
        .ok()
        .and_then(|v| v["flags"].as_u64())
        .is_some_and(|flags| flags & 64 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_and_subcommand_is_wrapped() {
        let mut commands = crate::commands::all();
        defer_when_slow(&mut commands);
        fn check(commands: &[Command]) -> usize {
            let mut n = 0;
            for c in commands {
                if c.slash_action.is_some() {
                    assert!(
                        c.custom_data.downcast_ref::<SlashAction>().is_some(),
                        "{} keeps its action",
                        c.qualified_name
                    );
                    n += 1;
                }
                n += check(&c.subcommands);
            }
            n
        }
        assert!(check(&commands) > 20);
    }

    #[test]
    fn a_replys_privacy_is_read_back() {
        assert!(is_ephemeral(&CreateReply::default().content("x").ephemeral(true)));
        assert!(!is_ephemeral(
            &CreateReply::default().content("x").ephemeral(false)
        ));
        assert!(!is_ephemeral(&CreateReply::default().content("x")));
    }

    #[test]
    fn admin_subcommands_think_privately() {
        let commands = crate::commands::all();
        let by_name = |n: &str| commands.iter().find(|c| c.name == n).expect(n);
        let config = by_name("config");
        let channel = config
            .subcommands
            .iter()
            .find(|c| c.name == "channel")
            .expect("/config channel");
        assert!(defers_ephemeral(&[config], channel));
        let session = by_name("session");
        let status = session
            .subcommands
            .iter()
            .find(|c| c.name == "status")
            .expect("status");
        assert!(!defers_ephemeral(&[session], status));
        assert!(!defers_ephemeral(&[], by_name("roll")));
    }
}
