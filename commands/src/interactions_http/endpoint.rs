//! The endpoint Discord POSTs interactions to: checked ([`super::verify`]), then PING answered
//! with PONG, and everything else dispatched through poise's own `dispatch_event` (commands,
//! autocomplete, and buttons through the framework's event handler, as on the gateway).
//!
//! The HTTP response is the bot's own first response, caught by the relay ([`super::relay`]).
//! The bot defers by itself when a command is still working after 2 s (`reply.rs`, `buttons.rs`),
//! so its answer, or its deferral, normally arrives well within [`ANSWER_WITHIN`]; should neither
//! (a task starved of CPU), the endpoint answers with a deferral of its own so Discord never
//! shows "the application did not respond", and the relay turns the late response into the edit
//! or follow-up it becomes.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use serde_json::json;
use serenity::all::{Context, FullEvent, Interaction, ShardManager};
use serenity::interactions_endpoint::Verifier;
use tokio::sync::Notify;

use super::register::Registrar;
use super::relay::{Deferral, Held, Relay};
use super::verify::{self, Refusal};
use crate::{BotError, Data};

/// How long the endpoint waits for the bot's first response before deferring for it: Discord
/// allows 3 s from its POST, and the response must still travel back.
pub const ANSWER_WITHIN: Duration = Duration::from_millis(2500);

/// What dispatching needs: poise's `FrameworkContext` is built from these per interaction.
pub struct Engine {
    pub context: Context,
    pub shard_manager: Arc<ShardManager>,
    pub options: poise::FrameworkOptions<Data, BotError>,
    pub data: Data,
}

impl Engine {
    async fn dispatch(&self, interaction: Interaction) {
        let framework = poise::FrameworkContext {
            serenity_context: &self.context,
            options: &self.options,
            user_data: &self.data,
            shard_manager: &self.shard_manager,
        };
        poise::dispatch_event(framework, FullEvent::InteractionCreate { interaction }).await;
    }
}

/// Interactions being worked on (their responses, follow-ups and log rows): a replica that
/// stops waits for these.
#[derive(Default)]
pub struct InFlight {
    count: AtomicUsize,
    idle: Notify,
}

pub struct Working(Arc<InFlight>);

impl InFlight {
    pub fn enter(self: &Arc<Self>) -> Working {
        self.count.fetch_add(1, Ordering::SeqCst);
        Working(self.clone())
    }

    pub fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Wait until nothing is in flight.
    pub async fn drained(&self) {
        loop {
            let idle = self.idle.notified();
            tokio::pin!(idle);
            idle.as_mut().enable();
            if self.count() == 0 {
                return;
            }
            idle.await;
        }
    }
}

impl Drop for Working {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

pub struct Endpoint {
    pub verifier: Verifier,
    pub relay: Arc<Relay>,
    pub engine: Arc<Engine>,
    pub registrar: Arc<Registrar>,
    pub in_flight: Arc<InFlight>,
    /// Cleared when the replica is stopping: new interactions get 503 (the load balancer's
    /// signal to send them elsewhere), and every response closes its connection.
    pub accepting: Arc<AtomicBool>,
}

fn refused(why: Refusal) -> Response {
    tracing::info!(?why, "interaction request refused");
    (StatusCode::UNAUTHORIZED, "invalid request signature").into_response()
}

pub async fn interactions(State(ep): State<Arc<Endpoint>>, headers: HeaderMap, body: Bytes) -> Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Err(why) = verify::check(
        &ep.verifier,
        header("x-signature-ed25519"),
        header("x-signature-timestamp"),
        &body,
    ) {
        return refused(why);
    }
    if !ep.accepting.load(Ordering::SeqCst) {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONNECTION, "close")],
            "stopping",
        )
            .into_response();
    }
    let interaction: Interaction = match serde_json::from_slice(&body) {
        Ok(i) => i,
        Err(e) => {
            tracing::warn!("interaction not understood: {e}");
            return (StatusCode::BAD_REQUEST, "unknown interaction").into_response();
        }
    };
    let fallback = match &interaction {
        Interaction::Ping(_) => return axum::Json(json!({ "type": 1 })).into_response(),
        Interaction::Command(_) | Interaction::Modal(_) => Fallback::Think,
        Interaction::Autocomplete(_) => Fallback::NoChoices,
        Interaction::Component(_) => Fallback::Quiet,
        _ => return (StatusCode::BAD_REQUEST, "unknown interaction").into_response(),
    };
    let (id, token, app, guild) = (
        interaction.id(),
        interaction.token().to_string(),
        interaction.application_id(),
        interaction.guild_id(),
    );
    ep.registrar.seen(app, guild.map(|g| g.get()));
    let mut held = ep.relay.hold(id.get(), &token);
    let working = ep.in_flight.enter();
    let engine = ep.engine.clone();
    tokio::spawn(async move {
        engine.dispatch(interaction).await;
        drop(working);
    });
    let caught = tokio::time::timeout(ANSWER_WITHIN, &mut held.rx).await;
    let answer = match caught {
        Ok(Ok(body)) => body,
        // Not answered in time (or the dispatch ended without a response: a bug, logged by the
        // bot): answer for it.
        _ => match ep.relay.give_up(&mut held, fallback.deferral()) {
            Some(body) => body,
            None => {
                tracing::warn!(
                    interaction = id.get(),
                    "no response within {ANSWER_WITHIN:?}; deferred for the bot"
                );
                Bytes::from(fallback.body().to_string())
            }
        },
    };
    let mut response = respond(ep.relay.clone(), held, answer);
    if !ep.accepting.load(Ordering::SeqCst) {
        // Stopping: the balancer must not send the next request on this connection.
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// What the endpoint answers for a bot that has not.
#[derive(Clone, Copy)]
enum Fallback {
    Think,
    Quiet,
    NoChoices,
}

impl Fallback {
    fn deferral(self) -> Deferral {
        match self {
            Fallback::Quiet => Deferral::Update,
            _ => Deferral::Message,
        }
    }

    fn body(self) -> serde_json::Value {
        match self {
            Fallback::Think => json!({ "type": 5 }),
            Fallback::Quiet => json!({ "type": 6 }),
            Fallback::NoChoices => json!({ "type": 8, "data": { "choices": [] } }),
        }
    }
}

/// The JSON response; once hyper has taken all of it (or dropped it: a closed connection), the
/// relay lets the bot's later webhook requests for this interaction go on (they follow it).
fn respond(relay: Arc<Relay>, held: Held, answer: Bytes) -> Response {
    let release = Release(relay, held);
    let done = futures::stream::once(async move {
        drop(release);
        None
    });
    let stream = futures::stream::once(async move { Some(Ok::<_, std::convert::Infallible>(answer)) })
        .chain(done)
        .filter_map(|x| async move { x });
    Response::builder()
        .status(StatusCode::OK)
        .header("content-type", "application/json")
        .body(Body::from_stream(stream))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

struct Release(Arc<Relay>, Held);

impl Drop for Release {
    fn drop(&mut self) {
        self.0.release(&self.1);
    }
}
