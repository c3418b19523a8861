//! Building and running the bot: the poise framework on a serenity client, pointed at Discord or
//! at any Discord-compatible base URL (a ratelimit proxy, or the fake Discord).
//!
//! Every interaction is counted (see [`crate::metrics`]) and logged at info with its id,
//! command, guild/channel, outcome and latency; what the user typed is logged at debug only.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serenity::all::{
    FullEvent, GatewayIntents, GuildId, Http, HttpBuilder, Interaction, Ready, ShardManager,
};
use serenity::prelude::TypeMapKey;
use tokio::sync::{OnceCell, mpsc, watch};
use tokio::task::JoinHandle;

use crate::config::Sharding;
use crate::dice_source::DiceSource;
use crate::metrics::{Metrics, Outcome};
use crate::reply::{self, InvocationState};
use crate::store::Store;
use crate::{BotError, Context, Data, TappedOutcome, buttons, commands, error, registration};

pub struct BotOptions {
    pub token: String,
    /// REST base URL; `None` is Discord itself. With a proxy serenity's local ratelimiter is
    /// switched off (the proxy owns ratelimits) and the gateway URL is asked of the proxy.
    pub proxy_url: Option<String>,
    /// Register commands in this guild (instant) instead of globally.
    pub dev_guild: Option<u64>,
    pub dice: DiceSource,
    pub outcome_tap: Option<mpsc::UnboundedSender<TappedOutcome>>,
    pub store: Arc<dyn Store>,
}

/// How a bot runs at scale; the default is one process with automatic sharding and no metrics.
#[derive(Clone, Default)]
pub struct ScaleOptions {
    pub sharding: Sharding,
    /// Count commands, errors and latency here (served by [`crate::metrics::serve`]).
    pub metrics: Option<Arc<Metrics>>,
}

/// A started bot: its shards run in the background until [`RunningBot::shutdown`].
pub struct RunningBot {
    shard_manager: Arc<ShardManager>,
    task: JoinHandle<Result<(), serenity::Error>>,
    commands_registered: watch::Receiver<bool>,
}

impl RunningBot {
    /// Wait until the start-up registration has finished: the global commands and the system
    /// commands of every server in the first shard's READY are known to Discord (a driver such
    /// as the console types nothing before). `false`: not within `timeout`.
    pub async fn commands_registered(&self, timeout: Duration) -> bool {
        let mut rx = self.commands_registered.clone();
        tokio::time::timeout(timeout, rx.wait_for(|done| *done))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    /// The gateway shards (their stages feed `/readyz` and the shard metrics).
    pub fn shard_manager(&self) -> Arc<ShardManager> {
        self.shard_manager.clone()
    }

    /// Close every shard's gateway connection and wait for the client to stop.
    pub async fn shutdown(self) {
        self.shard_manager.shutdown_all().await;
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
    }

    /// Run until the client stops by itself (a fatal gateway error) or a shutdown signal.
    pub async fn run_until_signal(self) -> Result<(), BotError> {
        let manager = self.shard_manager.clone();
        let mut task = self.task;
        tokio::select! {
            res = &mut task => return res.map_err(BotError::internal)?.map_err(BotError::from),
            _ = shutdown_signal() => tracing::info!("shutdown signal received; closing shards"),
        }
        manager.shutdown_all().await;
        let _ = tokio::time::timeout(Duration::from_secs(10), task).await;
        Ok(())
    }
}

/// SIGINT (Ctrl-C) or SIGTERM (docker stop).
pub(crate) async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// What the framework's hooks (plain `fn`s) reach through serenity's per-client type map.
pub(crate) struct Shared {
    pub(crate) metrics: Option<Arc<Metrics>>,
    pub(crate) dev_guild: Option<u64>,
    /// Each shard's registration of its guilds' commands (its READY lists them), run once: a
    /// second READY for the shard waits for the first's to finish instead of racing it.
    registered_shards: Mutex<HashMap<u32, Arc<OnceCell<()>>>>,
    /// Set once the start-up registration has finished (see [`RunningBot::commands_registered`]).
    pub(crate) commands_registered: watch::Sender<bool>,
    /// What gets registered (built once from the framework's commands).
    pub(crate) commands: CommandSet,
    /// Servers whose system commands were skipped because their settings could not be read:
    /// registered as soon as storage answers (see [`retry_skipped`]).
    skipped: Mutex<BTreeSet<u64>>,
}

/// How often registrations skipped for storage are tried again.
pub const REGISTRATION_RETRY: Duration = Duration::from_secs(2);

impl TypeMapKey for Shared {
    type Value = Arc<Shared>;
}

async fn shared(ctx: &serenity::all::Context) -> Option<Arc<Shared>> {
    ctx.data.read().await.get::<Shared>().cloned()
}

/// poise calls this for every reply just before sending it: the first one ends the
/// interaction's latency (work after the reply — log writes, follow-ups — is not the user's
/// wait).
fn on_reply(ctx: Context<'_>, reply: poise::CreateReply) -> poise::CreateReply {
    if let poise::Context::Application(app) = ctx
        && let Ok(data) = app.invocation_data.try_lock()
        && let Some(state) = data.downcast_ref::<Arc<InvocationState>>()
    {
        let _ = state.replied.set(Instant::now());
    }
    reply
}

/// Connect and start serving with automatic sharding and no metrics.
pub async fn start(opts: BotOptions) -> Result<RunningBot, BotError> {
    start_with(opts, ScaleOptions::default()).await
}

/// Every command list the bot registers, built once (owned, so registration can run in a
/// spawned task while the bot already serves).
pub(crate) struct CommandSet {
    /// Everything (development: one server).
    pub(crate) all: Vec<serenity::all::CreateCommand>,
    /// The generic commands every server sees.
    pub(crate) global: Vec<serenity::all::CreateCommand>,
    /// Each system's command tree.
    systems: Vec<(engine::session::SystemId, serenity::all::CreateCommand)>,
    /// The per-server generic commands for a server playing one system (`Some`) or several.
    per_server: Vec<(
        Option<engine::session::SystemId>,
        Vec<serenity::all::CreateCommand>,
    )>,
}

impl CommandSet {
    pub(crate) fn new(cmds: &[registration::Command]) -> CommandSet {
        CommandSet {
            all: cmds.iter().filter_map(|c| c.create_as_slash_command()).collect(),
            global: registration::global_commands(cmds),
            systems: cmds
                .iter()
                .filter_map(|c| Some((registration::system_of(&c.name)?, c.create_as_slash_command()?)))
                .collect(),
            per_server: std::iter::once(None)
                .chain(engine::session::SystemId::ALL.map(Some))
                .map(|s| (s, registration::per_server_commands(s)))
                .collect(),
        }
    }

    /// The system commands a server with `settings` sees, and the per-server generic ones
    /// made for its systems (as [`registration::guild_commands`] builds them).
    fn guild(&self, settings: &engine::session::ServerSettings) -> Vec<serenity::all::CreateCommand> {
        let only = registration::only_system(settings);
        self.systems
            .iter()
            .filter(|(s, _)| settings.is_enabled(*s))
            .map(|(_, c)| c.clone())
            .chain(
                self.per_server
                    .iter()
                    .filter(|(s, _)| *s == only)
                    .flat_map(|(_, cs)| cs.iter().cloned()),
            )
            .collect()
    }
}

/// Registers one guild's system commands from its stored settings. When the settings cannot be
/// read (a database outage) nothing is registered now: the list Discord already has (what the
/// admins chose) stays, instead of defaults that would bring disabled systems back, and the
/// guild is registered once storage answers again.
pub(crate) async fn register_guild_from_store(
    http: &Arc<Http>,
    shared: &Arc<Shared>,
    store: &Arc<dyn Store>,
    guild: u64,
) {
    if !register_if_readable(http, &shared.commands, store.as_ref(), guild).await {
        let first = {
            let mut skipped = shared.skipped.lock().unwrap_or_else(|e| e.into_inner());
            let first = skipped.is_empty();
            skipped.insert(guild);
            first
        };
        if first {
            tokio::spawn(retry_skipped(http.clone(), shared.clone(), store.clone()));
        }
    }
}

/// False when the settings could not be read (nothing was sent to Discord).
async fn register_if_readable(http: &Http, set: &CommandSet, store: &dyn Store, guild: u64) -> bool {
    let settings = match store.server_settings(guild).await {
        Ok(s) => s.unwrap_or_default(),
        Err(e) => {
            tracing::warn!(
                guild,
                "guild commands not registered yet: settings unreadable ({e})"
            );
            return false;
        }
    };
    if let Err(e) = GuildId::new(guild).set_commands(http, set.guild(&settings)).await {
        tracing::warn!(guild, "guild commands not registered: {e}");
    }
    true
}

/// Registers the skipped servers as soon as their settings can be read, until none is left.
/// One task at a time: started by the first skip of an empty list, it ends only when the list
/// is empty under the same lock.
async fn retry_skipped(http: Arc<Http>, shared: Arc<Shared>, store: Arc<dyn Store>) {
    loop {
        tokio::time::sleep(REGISTRATION_RETRY).await;
        let waiting: Vec<u64> = {
            let skipped = shared.skipped.lock().unwrap_or_else(|e| e.into_inner());
            skipped.iter().copied().collect()
        };
        for guild in waiting {
            if register_if_readable(&http, &shared.commands, store.as_ref(), guild).await {
                tracing::info!(guild, "storage answers again; guild commands registered");
                shared
                    .skipped
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&guild);
            } else {
                // Still down: the rest would fail the same way.
                break;
            }
        }
        // A skip that finds the list empty starts a task of its own; two at once would only
        // register a server twice, which Discord takes as the same list.
        if shared
            .skipped
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
        {
            return;
        }
    }
}

/// Registers the system commands of the guilds in one shard's READY (each shard's READY lists
/// only its own guilds), once per shard; a caller that comes second returns when it is done.
async fn register_ready_guilds(
    http: &Arc<Http>,
    store: &Arc<dyn Store>,
    shared: &Arc<Shared>,
    ready: &Ready,
) {
    if shared.dev_guild.is_some() {
        return;
    }
    let shard = ready.shard.map_or(0, |s| s.id.0);
    let once = shared
        .registered_shards
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(shard)
        .or_default()
        .clone();
    once.get_or_init(|| async {
        for guild in &ready.guilds {
            register_guild_from_store(http, shared, store, guild.id.get()).await;
        }
    })
    .await;
}

/// Start-up registration, run in its own task so the bot serves meanwhile: a failure is logged
/// and never keeps the bot from answering (poise 0.7 never sets its user data when `setup`
/// fails, and every event would wait for it forever).
async fn register_at_start(http: Arc<Http>, store: Arc<dyn Store>, shared: Arc<Shared>, ready: Ready) {
    let set = &shared.commands;
    match shared.dev_guild {
        // Development: everything in one server, instantly.
        Some(g) => {
            if let Err(e) = GuildId::new(g).set_commands(&http, set.all.clone()).await {
                tracing::error!(
                    guild = g,
                    "commands not registered in the development server: {e}"
                );
            }
        }
        None => {
            if let Err(e) = serenity::all::Command::set_global_commands(&http, set.global.clone()).await {
                tracing::error!("global commands not registered: {e}");
            }
            register_ready_guilds(&http, &store, &shared, &ready).await;
        }
    }
    tracing::info!(user = %ready.user.name, shards = ?ready.shard, "commands registered");
    shared.commands_registered.send_replace(true);
}

/// The framework's commands and hooks, the same in both modes (the gateway's `poise::Framework`
/// and the HTTP endpoint's own `poise::dispatch_event`).
pub(crate) fn framework_options() -> poise::FrameworkOptions<Data, BotError> {
    poise::FrameworkOptions {
        commands: {
            let mut all = commands::all();
            reply::defer_when_slow(&mut all);
            // Japanese replies name these commands the Japanese way.
            crate::command_names::learn(&all);
            all
        },
        on_error: |e| Box::pin(on_error(e)),
        pre_command: |ctx| Box::pin(pre_command(ctx)),
        post_command: |ctx| Box::pin(post_command(ctx)),
        reply_callback: Some(on_reply),
        event_handler: |fw, event| Box::pin(on_event(fw, event)),
        // Owners are never consulted; skipping the lookup saves a request at start-up.
        initialize_owners: false,
        // Nothing we send pings: display names, character names and labels are users' own
        // text, and `<@id>` in one must not notify anyone (mentions still render as names).
        allowed_mentions: Some(serenity::all::CreateAllowedMentions::new()),
        // No control characters or direction overrides in any text option, for every command.
        command_check: Some(|ctx| Box::pin(crate::text_check::no_unsafe_text(ctx))),
        ..Default::default()
    }
}

/// What the hooks share, for a bot of either mode.
pub(crate) fn new_shared(metrics: Option<Arc<Metrics>>, dev_guild: Option<u64>) -> Arc<Shared> {
    Arc::new(Shared {
        metrics,
        dev_guild,
        registered_shards: Mutex::new(HashMap::new()),
        commands_registered: watch::Sender::new(false),
        commands: CommandSet::new(&commands::all()),
        skipped: Mutex::new(BTreeSet::new()),
    })
}

/// Connect and start serving. Returns once the client is built; shards connect in the background.
pub async fn start_with(opts: BotOptions, scale: ScaleOptions) -> Result<RunningBot, BotError> {
    let BotOptions {
        token,
        proxy_url,
        dev_guild,
        dice,
        outcome_tap,
        store,
    } = opts;
    // The token never reaches a log line, whatever the level.
    crate::logging::hide_secret(&token);
    let shared = new_shared(scale.metrics.clone(), dev_guild);
    let commands_registered = shared.commands_registered.subscribe();
    let setup_shared = shared.clone();
    let mut http = HttpBuilder::new(&token);
    if let Some(url) = proxy_url {
        http = http.proxy(url).ratelimiter_disabled(true);
    }
    let framework = poise::Framework::builder()
        .options(framework_options())
        .setup(move |ctx, ready, _framework| {
            Box::pin(async move {
                // Never fails: registration runs beside serving (see `register_at_start`).
                tokio::spawn(register_at_start(
                    ctx.http.clone(),
                    store.clone(),
                    setup_shared,
                    ready.clone(),
                ));
                tracing::info!(user = %ready.user.name, shards = ?ready.shard, "ready; registering commands");
                Ok(Data::new(dice, store, outcome_tap))
            })
        })
        .build();
    // Slash commands need no privileged intent; GUILDS keeps the cache's guild list.
    let mut client = serenity::all::ClientBuilder::new_with_http(http.build(), GatewayIntents::GUILDS)
        .framework(framework)
        .type_map_insert::<Shared>(shared)
        .await
        .map_err(BotError::from)?;
    let shard_manager = client.shard_manager.clone();
    let sharding = scale.sharding;
    let task = tokio::spawn(async move {
        match sharding {
            Sharding::Auto => client.start_autosharded().await,
            Sharding::All { total } => client.start_shards(total).await,
            // serenity 0.12 treats the range's end as inclusive (it starts `end - start + 1`
            // shards), so `first..last` runs shards first..=last.
            Sharding::Range { first, last, total } => client.start_shard_range(first..last, total).await,
        }
    });
    Ok(RunningBot {
        shard_manager,
        task,
        commands_registered,
    })
}

async fn pre_command(ctx: Context<'_>) {
    ctx.set_invocation_data(InvocationState::new()).await;
    if let Some(m) = shared(ctx.serenity_context())
        .await
        .and_then(|s| s.metrics.clone())
    {
        m.started();
    }
    if let poise::Context::Application(app) = ctx {
        // The options are what the user typed (a /roll expression, a stat line): debug only.
        tracing::debug!(interaction = ctx.id(), command = %ctx.command().qualified_name, options = ?app.interaction.data.options, "interaction received");
    }
}

async fn post_command(ctx: Context<'_>) {
    finished(ctx, Outcome::Ok).await;
    ctx.data().tap_done(ctx.id());
}

/// Count, time and log a finished command.
async fn finished(ctx: Context<'_>, outcome: Outcome) {
    // Received → first reply sent; a command that never replied: until it finished.
    let elapsed = ctx
        .invocation_data::<Arc<InvocationState>>()
        .await
        .map(|s| match s.replied.get() {
            Some(r) => r.duration_since(s.at),
            None => s.at.elapsed(),
        });
    let command = &ctx.command().qualified_name;
    if let Some(m) = shared(ctx.serenity_context())
        .await
        .and_then(|s| s.metrics.clone())
    {
        match elapsed {
            Some(e) => m.command(command, outcome, e),
            // Refused before it started (a permission check): counted, not timed.
            None => {
                m.started();
                m.command(command, outcome, Duration::ZERO);
            }
        }
    }
    tracing::info!(
        interaction = ctx.id(),
        command = %command,
        guild = ctx.guild_id().map(|g| g.get()),
        channel = ctx.channel_id().get(),
        user = ctx.author().id.get(),
        outcome = outcome.as_str(),
        latency_ms = elapsed.map(|e| e.as_secs_f64() * 1000.0),
        "interaction"
    );
}

/// Count the error by kind, answer it (`error::on_error`), then count and log the command.
async fn on_error(e: poise::FrameworkError<'_, Data, BotError>) {
    use poise::FrameworkError as F;
    let (outcome, kind) = match &e {
        F::Command {
            error: BotError::User(_),
            ..
        } => (Outcome::UserError, "user"),
        F::Command {
            error: BotError::Internal(_),
            ..
        } => (Outcome::InternalError, "internal"),
        F::ArgumentParse { .. } => (Outcome::UserError, "argument_parse"),
        F::MissingUserPermissions { .. } | F::NotAnOwner { .. } | F::CommandCheckFailed { .. } => {
            (Outcome::UserError, "permission")
        }
        F::MissingBotPermissions { .. } => (Outcome::UserError, "bot_permission"),
        F::GuildOnly { .. } | F::DmOnly { .. } | F::NsfwOnly { .. } => (Outcome::UserError, "wrong_place"),
        F::CooldownHit { .. } => (Outcome::UserError, "cooldown"),
        F::CommandPanic { .. } => (Outcome::InternalError, "panic"),
        F::EventHandler { .. } => (Outcome::InternalError, "event_handler"),
        F::Setup { .. } => (Outcome::InternalError, "setup"),
        _ => (Outcome::InternalError, "framework"),
    };
    let ctx = e.ctx();
    let serenity_ctx = match &e {
        F::EventHandler { framework, .. } => Some(framework.serenity_context.clone()),
        _ => ctx.map(|c| c.serenity_context().clone()),
    };
    if let Some(m) = match &serenity_ctx {
        Some(c) => shared(c).await.and_then(|s| s.metrics.clone()),
        None => None,
    } {
        m.error(kind);
    }
    error::on_error(e).await;
    if let Some(ctx) = ctx {
        finished(ctx, outcome).await;
    }
}

/// Buttons (timed and counted like commands), and the READY of every shard after the first.
async fn on_event(
    fw: poise::FrameworkContext<'_, Data, BotError>,
    event: &FullEvent,
) -> Result<(), BotError> {
    match event {
        FullEvent::Ready { data_about_bot } => {
            if let Some(s) = shared(fw.serenity_context).await {
                let http = fw.serenity_context.http.clone();
                let store = fw.user_data.store.clone();
                let ready = data_about_bot.clone();
                tokio::spawn(async move {
                    register_ready_guilds(&http, &store, &s, &ready).await;
                });
            }
            Ok(())
        }
        // A server that added the bot after start-up gets its system commands.
        FullEvent::GuildCreate {
            guild,
            is_new: Some(true),
        } => {
            if let Some(s) = shared(fw.serenity_context).await
                && s.dev_guild.is_none()
            {
                let http = fw.serenity_context.http.clone();
                let store = fw.user_data.store.clone();
                let g = guild.id.get();
                tracing::info!(guild = g, "added to a server; registering its commands");
                tokio::spawn(async move {
                    register_guild_from_store(&http, &s, &store, g).await;
                });
            }
            Ok(())
        }
        FullEvent::InteractionCreate {
            interaction: Interaction::Component(press),
        } => {
            let start = Instant::now();
            let metrics = shared(fw.serenity_context).await.and_then(|s| s.metrics.clone());
            if let Some(m) = &metrics {
                m.started();
            }
            let result = buttons::on_event(fw.serenity_context, event, fw.user_data).await;
            let outcome = if result.is_ok() {
                Outcome::Ok
            } else {
                Outcome::InternalError
            };
            let elapsed = start.elapsed();
            if let Some(m) = &metrics {
                m.command("button", outcome, elapsed);
            }
            tracing::info!(
                interaction = press.id.get(),
                command = "button",
                guild = press.guild_id.map(|g| g.get()),
                channel = press.channel_id.get(),
                user = press.user.id.get(),
                outcome = outcome.as_str(),
                latency_ms = elapsed.as_secs_f64() * 1000.0,
                "interaction"
            );
            // Every message of the press is out (a driver waits for this, as after a command).
            fw.user_data.tap_done(press.id.get());
            result
        }
        _ => buttons::on_event(fw.serenity_context, event, fw.user_data).await,
    }
}
