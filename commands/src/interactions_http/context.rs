//! A `serenity::Context` for a bot with no gateway connection.
//!
//! poise's dispatch and our commands need a `serenity::Context` (its `http`, `data` and `cache`)
//! and a `ShardManager` (in `poise::FrameworkContext`). Every field of `Context` is public, so it
//! can be built directly — except its `ShardMessenger`, whose only constructor is
//! `ShardMessenger::new(&ShardRunner)` (serenity 0.12.5, `gateway/bridge/shard_messenger.rs`).
//! A `ShardRunner` is built from public parts (`ShardRunner::new(ShardRunnerOptions)`), and the
//! one thing among them that touches the network is `Shard::new`, which opens a WebSocket to the
//! URL it is given. We give it a loopback endpoint of our own that accepts the upgrade and closes
//! at once ([`STUB_GATEWAY_PATH`] on the relay), build the runner **without running it**, take
//! its messenger and drop the runner. So:
//!
//! - no IDENTIFY is ever sent and Discord sees no gateway session (the runner never runs);
//! - anything that would talk to the gateway through `ctx.shard` (presence, member chunking,
//!   collectors' events) goes nowhere: serenity logs "failed to send ShardRunnerMessage" at warn.
//!   Nothing in this bot does (it reads members and permissions from the interaction, and posts
//!   over REST);
//! - the `ShardManager` is never started (its queuer task idles); poise only stores it.
//! - the cache stays empty (no READY, no GUILD_CREATE); nothing here reads it (poise's
//!   `require_cache_for_guild_check` is off by default).

use std::sync::Arc;

use serenity::all::{
    Cache, Context, GatewayIntents, Http, ShardId, ShardInfo, ShardManager, ShardManagerOptions,
    ShardMessenger, ShardRunner, ShardRunnerOptions,
};
use serenity::gateway::Shard;
use serenity::prelude::{RwLock, TypeMap};
use tokio::sync::Mutex;

use crate::BotError;

/// Where the relay accepts the stub WebSocket [`build`] opens.
pub const STUB_GATEWAY_PATH: &str = "/_saikoro/no-gateway";

/// A context and shard manager for dispatching interactions that arrived over HTTP.
pub struct NoGateway {
    pub context: Context,
    pub shard_manager: Arc<ShardManager>,
}

/// Build the context; `stub_ws` is `ws://127.0.0.1:PORT` + [`STUB_GATEWAY_PATH`] (see module).
pub async fn build(
    http: Arc<Http>,
    data: Arc<RwLock<TypeMap>>,
    stub_ws: String,
) -> Result<NoGateway, BotError> {
    let cache = Arc::new(Cache::new());
    let ws_url = Arc::new(Mutex::new(stub_ws));
    let (shard_manager, _monitor) = ShardManager::new(ShardManagerOptions {
        data: data.clone(),
        event_handlers: vec![],
        raw_event_handlers: vec![],
        framework: Arc::new(std::sync::OnceLock::new()),
        shard_index: 0,
        shard_init: 0,
        shard_total: 1,
        ws_url: ws_url.clone(),
        cache: cache.clone(),
        http: http.clone(),
        intents: GatewayIntents::empty(),
        presence: None,
    });
    let info = ShardInfo {
        id: ShardId(0),
        total: 1,
    };
    let shard = Shard::new(ws_url, "", info, GatewayIntents::empty(), None)
        .await
        .map_err(|e| BotError::internal(format!("the stub gateway socket: {e}")))?;
    let runner = ShardRunner::new(ShardRunnerOptions {
        data: data.clone(),
        event_handlers: vec![],
        raw_event_handlers: vec![],
        framework: None,
        manager: shard_manager.clone(),
        shard,
        cache: cache.clone(),
        http: http.clone(),
    });
    let messenger = ShardMessenger::new(&runner);
    // Never run: dropping it closes the stub socket (see module).
    drop(runner);
    Ok(NoGateway {
        context: Context {
            data,
            shard: messenger,
            shard_id: ShardId(0),
            http,
            cache,
        },
        shard_manager,
    })
}
