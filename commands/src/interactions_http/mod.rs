//! Interactions over HTTP (`INTERACTIONS_LISTEN`): Discord POSTs each interaction, signed, to
//! this process instead of sending it over a gateway connection, so identical replicas can run
//! behind any HTTP load balancer with PostgreSQL as their one shared state.
//!
//! The same commands, hooks and buttons answer as on the gateway: the request is checked
//! (`verify.rs`), parsed by serenity and dispatched by poise (`endpoint.rs`) with a serenity
//! context built without a gateway (`context.rs`); the bot's REST client goes through an
//! in-process relay (`relay.rs`) that turns its first response into the HTTP response; commands
//! are registered over REST (`register.rs`).

mod context;
mod endpoint;
mod register;
mod relay;
pub mod verify;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::post;
use serenity::all::HttpBuilder;
use serenity::prelude::{RwLock, TypeMap};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::bot::{self, BotOptions, RunningBot, ScaleOptions, Shared};
use crate::{BotError, Data};

/// The path Discord's "Interactions Endpoint URL" points at.
pub const PATH: &str = "/interactions";

/// How long a stopping replica waits for the interactions it holds.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(30);

/// [`HttpOptions::stop_delay`] unless `INTERACTIONS_STOP_DELAY` says otherwise.
pub const DEFAULT_STOP_DELAY: Duration = Duration::from_secs(2);

#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where the endpoint listens (`INTERACTIONS_LISTEN`); port 0 picks a free one.
    pub listen: SocketAddr,
    /// The application's public key (`DISCORD_PUBLIC_KEY`, 64 hex digits).
    pub public_key: String,
    /// How long a stopping replica keeps its listener and the connections a balancer holds
    /// open, answering every request 503 (`INTERACTIONS_STOP_DELAY`), before it closes them:
    /// long enough for the balancer to take it out of its list.
    pub stop_delay: Duration,
}

/// A bot serving interactions over HTTP until [`RunningHttpBot::shutdown`].
pub struct RunningHttpBot {
    addr: SocketAddr,
    endpoint: Arc<endpoint::Endpoint>,
    commands_registered: watch::Receiver<bool>,
    stop: watch::Sender<bool>,
    stop_delay: Duration,
    server: JoinHandle<()>,
    relay_server: JoinHandle<()>,
}

impl RunningHttpBot {
    /// Where the endpoint listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The endpoint's URL (`http://ADDR/interactions`).
    pub fn url(&self) -> String {
        format!("http://{}{PATH}", self.addr)
    }

    /// See [`RunningBot::commands_registered`].
    pub async fn commands_registered(&self, timeout: Duration) -> bool {
        let mut rx = self.commands_registered.clone();
        tokio::time::timeout(timeout, rx.wait_for(|done| *done))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    /// Cleared once the replica is stopping (for `/readyz`).
    pub fn serving(&self) -> Arc<AtomicBool> {
        self.endpoint.accepting.clone()
    }

    /// Interactions being worked on now.
    pub fn in_flight(&self) -> usize {
        self.endpoint.in_flight.count()
    }

    /// Stop as a replica stops: new interactions are refused (503 with `Connection: close`:
    /// the load balancer's cue to send them to another replica) for the stop delay, and only
    /// then do the listener and the idle connections close; what is held is answered and
    /// finished — responses, follow-ups, log rows — before the bot's REST relay closes.
    ///
    /// Why the delay: closing a kept-alive connection the balancer has just sent a request on
    /// loses that request (the balancer sees the connection close, cannot know whether it ran,
    /// and does not pass a POST on); a 503 says plainly that nothing ran.
    pub async fn shutdown(self) {
        self.endpoint.accepting.store(false, Ordering::SeqCst);
        tokio::time::sleep(self.stop_delay).await;
        let _ = self.stop.send(true);
        let _ = tokio::time::timeout(DRAIN_TIMEOUT, self.server).await;
        if tokio::time::timeout(DRAIN_TIMEOUT, self.endpoint.in_flight.drained())
            .await
            .is_err()
        {
            tracing::warn!(
                left = self.endpoint.in_flight.count(),
                "stopped before every interaction finished"
            );
        }
        self.relay_server.abort();
        tracing::info!("interactions endpoint stopped");
    }

    /// Serve until SIGTERM or Ctrl-C, then [`Self::shutdown`].
    pub async fn run_until_signal(self) -> Result<(), BotError> {
        bot::shutdown_signal().await;
        tracing::info!("shutdown signal received; draining interactions");
        self.shutdown().await;
        Ok(())
    }
}

/// A bot of either mode (the console and tests drive both).
pub enum Running {
    Gateway(RunningBot),
    Http(RunningHttpBot),
}

impl Running {
    pub async fn commands_registered(&self, timeout: Duration) -> bool {
        match self {
            Running::Gateway(b) => b.commands_registered(timeout).await,
            Running::Http(b) => b.commands_registered(timeout).await,
        }
    }

    pub async fn shutdown(self) {
        match self {
            Running::Gateway(b) => b.shutdown().await,
            Running::Http(b) => b.shutdown().await,
        }
    }
}

async fn listen(addr: SocketAddr) -> Result<tokio::net::TcpListener, BotError> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| BotError::internal(format!("cannot listen on {addr}: {e}")))
}

/// Start serving interactions over HTTP. Returns once the endpoint listens; commands register
/// in the background.
pub async fn start(
    opts: BotOptions,
    scale: ScaleOptions,
    http_opts: HttpOptions,
) -> Result<RunningHttpBot, BotError> {
    let BotOptions {
        token,
        proxy_url,
        dev_guild,
        dice,
        outcome_tap,
        store,
    } = opts;
    crate::logging::hide_secret(&token);
    let verifier = verify::verifier(&http_opts.public_key).ok_or_else(|| {
        BotError::internal("DISCORD_PUBLIC_KEY must be the application's public key: 64 hex digits")
    })?;
    // The relay first: the bot's REST client points at it.
    let relay = relay::Relay::new(proxy_url.as_deref());
    let relay_listener = listen(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
    let relay_addr = relay_listener.local_addr().map_err(BotError::internal)?;
    let relay_app = relay.router();
    let relay_server = tokio::spawn(async move {
        if let Err(e) = axum::serve(relay_listener, relay_app).await {
            tracing::error!("relay stopped: {e}");
        }
    });
    // serenity applies `proxy` only with its ratelimiter off; with DISCORD_PROXY_URL the proxy
    // behind the relay limits, as in gateway mode (see docs/operators.md).
    let http = Arc::new(
        HttpBuilder::new(&token)
            .proxy(format!("http://{relay_addr}"))
            .ratelimiter_disabled(true)
            .build(),
    );
    let shared: Arc<Shared> = bot::new_shared(scale.metrics.clone(), dev_guild);
    let mut map = TypeMap::new();
    map.insert::<Shared>(shared.clone());
    let data = Arc::new(RwLock::new(map));
    let no_gateway = context::build(
        http.clone(),
        data,
        format!("ws://{relay_addr}{}", context::STUB_GATEWAY_PATH),
    )
    .await?;
    let registrar = register::Registrar::new(shared.clone(), http.clone(), store.clone(), relay.clone());
    let engine = Arc::new(endpoint::Engine {
        context: no_gateway.context,
        shard_manager: no_gateway.shard_manager,
        options: bot::framework_options(),
        data: Data::new(dice, store, outcome_tap),
    });
    let endpoint = Arc::new(endpoint::Endpoint {
        verifier,
        relay,
        engine,
        registrar: registrar.clone(),
        in_flight: Arc::default(),
        accepting: Arc::new(AtomicBool::new(true)),
    });
    let listener = listen(http_opts.listen).await?;
    let addr = listener.local_addr().map_err(BotError::internal)?;
    let app = Router::new()
        .route(PATH, post(endpoint::interactions))
        // Past the limit axum answers 413 before the body is read (nothing runs).
        .layer(DefaultBodyLimit::max(verify::MAX_BODY))
        .with_state(endpoint.clone());
    let (stop, mut stopped) = watch::channel(false);
    let server = tokio::spawn(async move {
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let graceful = async move {
            let _ = stopped.wait_for(|s| *s).await;
        };
        if let Err(e) = axum::serve(listener, app).with_graceful_shutdown(graceful).await {
            tracing::error!("interactions endpoint stopped: {e}");
        }
    });
    let commands_registered = shared.commands_registered.subscribe();
    tokio::spawn(registrar.at_start());
    tracing::info!(%addr, "serving interactions over HTTP at {PATH}");
    Ok(RunningHttpBot {
        addr,
        endpoint,
        commands_registered,
        stop,
        stop_delay: http_opts.stop_delay,
        server,
        relay_server,
    })
}
