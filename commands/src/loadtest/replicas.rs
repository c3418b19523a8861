//! The load over HTTP (`--http`): the bot as `--replicas` interactions-endpoint processes'
//! worth of endpoints on one store, behind the fake's round-robin balancer, and
//! `--rolling-restart`: while the load runs, each replica in turn is stopped (it drains what it
//! holds) and replaced by a fresh one, as a deploy does, so the report can say how many
//! interactions were lost and what the latency was meanwhile.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::bot_process::BotProcess;
use super::{LoadError, on};
use crate::bot::{self, BotOptions, RunningBot, ScaleOptions};
use crate::config::Sharding;
use crate::dice_source::DiceSource;
use crate::fake_discord::{self, FakeDiscord};
use crate::interactions_http::{self, HttpOptions, RunningHttpBot};
use crate::metrics::Metrics;
use crate::store::Store;

/// How long a replica must take to register its commands before the run gives up.
const REGISTER_TIMEOUT: Duration = Duration::from_secs(30);
/// After a replica is replaced, the load runs this long before the next one is stopped (a
/// deploy's readiness delay).
const SETTLE: Duration = Duration::from_secs(2);
/// A replica's stop delay here (`INTERACTIONS_STOP_DELAY`): it answers 503 this long before its
/// listener closes, and the balancer takes it out of its list half-way through, as a health
/// check on `/readyz` would.
const STOP_DELAY: Duration = Duration::from_secs(1);

/// A bot serving the load, over the gateway or as HTTP replicas.
pub(super) enum Served {
    Gateway(RunningBot),
    Http(Replicas),
    /// This binary in a process of its own, over the gateway (`--bot-process`).
    Process(BotProcess),
}

/// HTTP replicas on one database, all on the bot's runtime (so their CPU is the bot's).
pub(super) struct Replicas {
    bot_side: tokio::runtime::Handle,
    fake_url: String,
    /// PostgreSQL: each replica opens its own pool, read cache and change feed, as separate
    /// processes do. SQLite (one process only): they share the run's store.
    database_url: Option<String>,
    shared: Arc<dyn Store>,
    live: Vec<Replica>,
}

struct Replica {
    bot: RunningHttpBot,
    /// Its own store, closed when it stops (`None`: the shared one).
    store: Option<Arc<dyn Store>>,
}

impl Replica {
    async fn stop(self) {
        self.bot.shutdown().await;
        if let Some(store) = self.store {
            store.close().await;
        }
    }
}

/// When a rolling restart ran, for the latency of what was sent meanwhile.
#[derive(Debug, Clone, Copy)]
pub(super) struct Window {
    pub start: Instant,
    pub end: Instant,
}

fn bot_options(fake_url: &str, store: Arc<dyn Store>) -> Result<BotOptions, LoadError> {
    let dice = DiceSource::os().map_err(|e| LoadError::Setup(e.to_string()))?;
    Ok(fake_discord::bot_options(fake_url, dice, store))
}

/// Counted as in production, not served.
fn scale() -> ScaleOptions {
    ScaleOptions {
        sharding: Sharding::Auto,
        metrics: Some(Metrics::new()),
    }
}

impl Served {
    /// The bot on `bot_side` against `fake`: over the gateway, or (`http`) as `replicas`
    /// endpoints the fake balances over; returns once every command is registered.
    pub(super) async fn start(
        bot_side: &tokio::runtime::Handle,
        fake: &FakeDiscord,
        store: Arc<dyn Store>,
        opts: &super::LoadOptions,
    ) -> Result<Served, LoadError> {
        if !opts.http {
            let opts = bot_options(&fake.url(), store)?;
            let running = on(bot_side, async move {
                let running = bot::start_with(opts, scale()).await?;
                // Guild commands (the systems') are known before the first line is built.
                running.commands_registered(REGISTER_TIMEOUT).await;
                Ok::<_, crate::BotError>(running)
            })
            .await?
            .map_err(|e| LoadError::Setup(format!("the bot could not start: {e}")))?;
            return Ok(Served::Gateway(running));
        }
        let mut set = Replicas {
            bot_side: bot_side.clone(),
            fake_url: fake.url(),
            database_url: opts.database_url.clone(),
            shared: store,
            live: Vec::new(),
        };
        for _ in 0..opts.replicas.max(1) {
            let r = set.start_one().await?;
            set.live.push(r);
        }
        fake.balance_over_http(&set.urls());
        Ok(Served::Http(set))
    }

    /// The bot's own process, when it runs in one.
    pub(super) fn process_id(&self) -> Option<u32> {
        match self {
            Served::Process(p) => Some(p.pid()),
            _ => None,
        }
    }

    /// Stops the bot (each replica draining what it holds) and closes the run's `store`, on
    /// the bot's runtime, then that runtime.
    pub(super) async fn stop(self, bot_rt: super::cpu::BotRuntime, store: Arc<dyn Store>) {
        let _ = on(bot_rt.handle(), async move {
            match self {
                Served::Gateway(b) => b.shutdown().await,
                Served::Process(p) => p.stop().await,
                Served::Http(set) => {
                    for r in set.live {
                        r.stop().await;
                    }
                }
            }
            store.close().await;
        })
        .await;
        // Dropping it shuts it down.
        drop(bot_rt);
    }
}

impl Replicas {
    fn urls(&self) -> Vec<String> {
        self.live.iter().map(|r| r.bot.url()).collect()
    }

    async fn start_one(&self) -> Result<Replica, LoadError> {
        let url = self.database_url.clone();
        let shared = self.shared.clone();
        let fake_url = self.fake_url.clone();
        on(&self.bot_side, async move {
            let own = match url.as_deref() {
                Some(url) if !url.starts_with("sqlite:") => Some(
                    crate::store::connect(Some(url), &std::env::temp_dir())
                        .await
                        .map_err(crate::BotError::internal)?,
                ),
                _ => None,
            };
            let store = own.clone().unwrap_or(shared);
            let opts = bot_options(&fake_url, store).map_err(crate::BotError::internal)?;
            let bot = interactions_http::start(
                opts,
                scale(),
                HttpOptions {
                    listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
                    public_key: fake_discord::test_public_key(),
                    stop_delay: STOP_DELAY,
                },
            )
            .await?;
            if !bot.commands_registered(REGISTER_TIMEOUT).await {
                return Err(crate::BotError::internal("commands not registered in time"));
            }
            Ok(Replica { bot, store: own })
        })
        .await?
        .map_err(|e| LoadError::Setup(format!("a replica could not start: {e}")))
    }

    /// A deploy, replica by replica (one extra at a time, as a rolling update with a surge of
    /// one): a new replica starts and joins the balancer's list; the old one is stopped while
    /// still listed (it answers 503 and the balancer moves those requests on), leaves the list
    /// within its stop delay, and drains what it holds.
    pub(super) async fn rolling_restart(&mut self, fake: &FakeDiscord) -> Result<Window, LoadError> {
        let start = Instant::now();
        for i in 0..self.live.len() {
            let new = self.start_one().await?;
            let mut urls = self.urls();
            urls.push(new.bot.url());
            fake.balance_over_http(&urls);
            let old = std::mem::replace(&mut self.live[i], new);
            let stopping = on(&self.bot_side, old.stop());
            let delisted = async {
                tokio::time::sleep(STOP_DELAY / 2).await;
                fake.balance_over_http(&self.urls());
            };
            tokio::join!(stopping, delisted).0?;
            tokio::time::sleep(SETTLE).await;
        }
        Ok(Window {
            start,
            end: Instant::now(),
        })
    }
}
