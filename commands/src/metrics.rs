//! Prometheus metrics and health probes (`METRICS_ADDR`): `/metrics` (text format 0.0.4),
//! `/healthz` (the process serves) and `/readyz` (a shard is connected and the store answers).
//!
//! Each bot has its own [`Metrics`] registry (two bots in one test process do not mix).
//! Counters move in the framework hooks (`bot.rs`); the database pool and shard gauges are read
//! when scraped.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry, TextEncoder,
};
use serenity::all::{ShardManager, ShardRunnerInfo};

use crate::store::Store;

/// How a command ended, as counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// The user's input or permissions; answered with our sentence.
    UserError,
    /// Ours, the database's or Discord's; answered with an error id.
    InternalError,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::UserError => "user_error",
            Outcome::InternalError => "internal_error",
        }
    }
}

/// The bot's metrics.
pub struct Metrics {
    registry: Registry,
    commands: IntCounterVec,
    latency: HistogramVec,
    errors: IntCounterVec,
    pool_connections: IntGaugeVec,
    shards: IntGaugeVec,
    shard_latency: IntGaugeVec,
    in_flight: IntGauge,
}

/// Latency buckets (seconds): fine below 10 ms where a healthy command lands, up to Discord's
/// 3 s deadline.
const BUCKETS: &[f64] = &[
    0.000_5, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
];

/// The shard stages reported in `saikoro_gateway_shards{stage=…}`.
const STAGES: &[&str] = &[
    "connected",
    "connecting",
    "disconnected",
    "handshake",
    "identifying",
    "resuming",
];

fn stage_name(info: &ShardRunnerInfo) -> &'static str {
    use serenity::all::ConnectionStage as C;
    match info.stage {
        C::Connected => "connected",
        C::Connecting => "connecting",
        C::Disconnected => "disconnected",
        C::Handshake => "handshake",
        C::Identifying => "identifying",
        C::Resuming => "resuming",
        _ => "connecting",
    }
}

impl Metrics {
    pub fn new() -> Arc<Metrics> {
        let registry = Registry::new();
        // The names and help are fixed and valid: creating them cannot fail.
        let commands = IntCounterVec::new(
            Opts::new(
                "saikoro_commands_total",
                "Commands (and button presses) handled, by command and outcome (ok, user_error, internal_error).",
            ),
            &["command", "outcome"],
        )
        .expect("valid metric");
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "saikoro_interaction_duration_seconds",
                "From the interaction reaching the command to its first reply being sent.",
            )
            .buckets(BUCKETS.to_vec()),
            &["command"],
        )
        .expect("valid metric");
        let errors = IntCounterVec::new(Opts::new("saikoro_errors_total", "Errors by kind."), &["kind"])
            .expect("valid metric");
        let pool_connections = IntGaugeVec::new(
            Opts::new(
                "saikoro_db_pool_connections",
                "Database pool connections by state (open, idle, in_use).",
            ),
            &["state"],
        )
        .expect("valid metric");
        let shards = IntGaugeVec::new(
            Opts::new(
                "saikoro_gateway_shards",
                "Gateway shards of this process by connection stage.",
            ),
            &["stage"],
        )
        .expect("valid metric");
        let shard_latency = IntGaugeVec::new(
            Opts::new(
                "saikoro_gateway_heartbeat_latency_ms",
                "Last gateway heartbeat round trip per shard, in milliseconds.",
            ),
            &["shard"],
        )
        .expect("valid metric");
        let in_flight = IntGauge::new(
            "saikoro_interactions_in_flight",
            "Commands being handled right now.",
        )
        .expect("valid metric");
        for c in [&commands, &errors] {
            registry.register(Box::new(c.clone())).expect("registered once");
        }
        registry
            .register(Box::new(latency.clone()))
            .expect("registered once");
        for g in [&pool_connections, &shards, &shard_latency] {
            registry.register(Box::new(g.clone())).expect("registered once");
        }
        registry
            .register(Box::new(in_flight.clone()))
            .expect("registered once");
        Arc::new(Metrics {
            registry,
            commands,
            latency,
            errors,
            pool_connections,
            shards,
            shard_latency,
            in_flight,
        })
    }

    pub fn started(&self) {
        self.in_flight.inc();
    }

    /// A command finished.
    pub fn command(&self, command: &str, outcome: Outcome, elapsed: Duration) {
        self.in_flight.dec();
        self.commands
            .with_label_values(&[command, outcome.as_str()])
            .inc();
        self.latency
            .with_label_values(&[command])
            .observe(elapsed.as_secs_f64());
    }

    /// An error of `kind` (e.g. `user`, `internal`, `argument_parse`, `permission`, `panic`,
    /// `event_handler`, `reply_failed`).
    pub fn error(&self, kind: &str) {
        self.errors.with_label_values(&[kind]).inc();
    }

    /// Reads the gauges that are sampled, not counted.
    pub async fn sample(&self, shards: Option<&ShardManager>, store: Option<&dyn Store>) {
        if let Some((open, idle)) = store.and_then(|s| s.pool_status()) {
            let open = i64::from(open);
            let idle = i64::try_from(idle).unwrap_or(i64::MAX);
            self.pool_connections.with_label_values(&["open"]).set(open);
            self.pool_connections.with_label_values(&["idle"]).set(idle);
            self.pool_connections
                .with_label_values(&["in_use"])
                .set((open - idle).max(0));
        }
        if let Some(manager) = shards {
            let runners = manager.runners.lock().await;
            let mut by_stage: HashMap<&str, i64> = STAGES.iter().map(|s| (*s, 0)).collect();
            self.shard_latency.reset();
            for (id, info) in runners.iter() {
                *by_stage.entry(stage_name(info)).or_default() += 1;
                if let Some(l) = info.latency {
                    self.shard_latency
                        .with_label_values(&[&id.0.to_string()])
                        .set(i64::try_from(l.as_millis()).unwrap_or(i64::MAX));
                }
            }
            for (stage, n) in by_stage {
                self.shards.with_label_values(&[stage]).set(n);
            }
        }
    }

    /// Everything, in the Prometheus text format.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        // Encoding into a Vec cannot fail for well-formed metrics.
        let _ = TextEncoder::new().encode(&self.registry.gather(), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// What the probes look at.
#[derive(Clone)]
pub struct Probe {
    pub metrics: Arc<Metrics>,
    /// The gateway's shards; `None` over HTTP (no gateway: ready when the store answers).
    pub shards: Option<Arc<ShardManager>>,
    pub store: Arc<dyn Store>,
    /// Over HTTP, cleared once the replica is stopping ([`crate::interactions_http::RunningHttpBot::serving`]):
    /// `/readyz` then says so, for a balancer's health check to take it out of its list.
    pub serving: Option<Arc<AtomicBool>>,
}

impl Probe {
    /// At least one shard is connected.
    pub async fn shard_connected(&self) -> bool {
        let Some(shards) = &self.shards else {
            return false;
        };
        let runners = shards.runners.lock().await;
        runners
            .values()
            .any(|r| matches!(r.stage, serenity::all::ConnectionStage::Connected))
    }

    /// The database itself answers within a second (asked past the read cache, which would
    /// answer for a database that hangs).
    pub async fn store_answers(&self) -> bool {
        matches!(
            tokio::time::timeout(Duration::from_secs(1), self.store.ping()).await,
            Ok(Ok(()))
        )
    }
}

pub fn router(probe: Probe) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(ready))
        .with_state(probe)
}

async fn metrics(State(p): State<Probe>) -> Response {
    p.metrics
        .sample(p.shards.as_deref(), Some(p.store.as_ref()))
        .await;
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        p.metrics.render(),
    )
        .into_response()
}

async fn ready(State(p): State<Probe>) -> Response {
    let over_http = p.shards.is_none();
    let shard = over_http || p.shard_connected().await;
    let stopping = p.serving.as_ref().is_some_and(|s| !s.load(Ordering::SeqCst));
    let store = p.store_answers().await;
    let body = format!(
        "{}shard: {}\nstore: {}\n",
        if stopping { "interactions: stopping\n" } else { "" },
        match (over_http, shard) {
            (true, _) => "none (interactions over HTTP)",
            (false, true) => "connected",
            (false, false) => "not connected",
        },
        if store { "ok" } else { "unavailable" }
    );
    let code = if shard && store && !stopping {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (code, body).into_response()
}

/// Serve the probes on `addr` in the background. Returns the bound address (port 0 picks one).
pub async fn serve(
    addr: SocketAddr,
    probe: Probe,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let app = router(probe);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!("metrics server stopped: {e}");
        }
    });
    Ok((bound, task))
}
