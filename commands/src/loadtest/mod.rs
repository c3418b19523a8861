//! `saikoro loadtest`: the fake Discord and the real bot in this process, a stream of
//! interactions over the gateway, and figures: throughput, dispatch→reply latency percentiles
//! (measured in the fake, from the gateway dispatch to the REST request carrying the reply),
//! peak RSS, and for session edits a check that no update was lost.
//!
//! It talks only to loopback (and to `--database-url` if given), and stops by itself: after
//! `--count` interactions or `--max-seconds`, whichever comes first.
//!
//! The load is a built-in mix or any console lines (`--line`, weighted), after `--setup`
//! lines. The bot runs on a runtime of its own, so its CPU time per interaction is measured
//! apart from the fake's and the driver's ([`cpu`]); `--floor` serves a bare poise command
//! through the same harness afterwards ([`floor`]) and reports the ratio.

mod bot_process;
mod cpu;
mod floor;
mod game_report;
mod game_run;
pub mod games;
mod pg_cpu;
mod replicas;
mod report;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use engine::session::{Actor, RosterEntry, Session, SystemId};
use futures::StreamExt;
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use crate::fake_discord::{
    self, ALL_PERMISSIONS, DEFAULT_GUILD, FakeDiscord, FakeOptions, FakeUser, Invoker, ReplyTiming,
};
use crate::store::{self, Store};

use bot_process::BotProcess;
pub use game_report::GameReport;
pub use game_run::run as run_game;
use replicas::Served;
use report::report;
pub use report::{FloorFigures, Report, RestartFigures, rss_mb, rss_mb_of};

/// What the load is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mix {
    /// `/roll dice:3d6+2` in a channel without a session (stateless: settings reads only).
    Roll,
    /// `/char edit` of a character in one of `--sessions` sessions (a transactional write).
    Edit,
    /// Three rolls to one edit.
    Mixed,
}

#[derive(Debug, Clone, clap::Args)]
pub struct LoadOptions {
    /// Interactions to measure (sent after the warm-up).
    #[arg(short = 'n', long, default_value_t = 20_000)]
    pub count: u64,
    /// Interactions in flight at once (closed loop: a new one goes out when one is answered).
    #[arg(short = 'c', long, default_value_t = 16)]
    pub concurrency: usize,
    /// Send at this rate per second instead of as fast as answers come (still capped by
    /// --concurrency in flight).
    #[arg(long)]
    pub rate: Option<f64>,
    #[arg(long, value_enum, default_value = "roll")]
    pub mix: Mix,
    /// Sessions created before the run (one per channel, each with a character); edits go
    /// round-robin over them. 10000 measures memory with many stored sessions.
    #[arg(long, default_value_t = 1)]
    pub sessions: u64,
    /// PostgreSQL (e.g. postgres://postgres@127.0.0.1:5432/load); default: SQLite in a fresh
    /// temporary directory. The database should be a scratch one: sessions are added to it.
    #[arg(long)]
    pub database_url: Option<String>,
    /// Unmeasured interactions sent first (warm connections and caches).
    #[arg(long, default_value_t = 500)]
    pub warmup: u64,
    /// Stop sending and report after this many seconds, whatever is left.
    #[arg(long, default_value_t = 120)]
    pub max_seconds: u64,
    /// The report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// A command line to send, as typed in the console (`/sr test pool:8`); repeat it for a
    /// mix, and put `N*` before the slash to weight a line (`--line "3*/roll dice:2d6"`).
    /// Lines replace `--mix`; they go to one channel, from one member with every permission.
    #[arg(long = "line")]
    pub lines: Vec<String>,
    /// A line sent once before the load, in the lines' channel, and waited for (start a
    /// session, add a character). Repeatable, in order; an error reply stops the run.
    #[arg(long = "setup")]
    pub setup: Vec<String>,
    /// Afterwards, serve the stack's floor (a bare serenity + poise `/roll dice:` replying with
    /// one embed) through the same harness with the same count and concurrency, and report the
    /// bot's CPU per interaction as a multiple of the floor's.
    #[arg(long)]
    pub floor: bool,
    /// Serve over HTTP (the interactions endpoint, `INTERACTIONS_LISTEN`) instead of the
    /// gateway: the fake signs each interaction and POSTs it.
    #[arg(long)]
    pub http: bool,
    /// With --http: this many replicas on the one store, behind the fake's round-robin
    /// balancer.
    #[arg(long, default_value_t = 1, requires = "http")]
    pub replicas: usize,
    /// With --http: once the measured load has run a quarter of --max-seconds, replace every
    /// replica in turn (start a new one, stop the old one, which drains) and report what was
    /// lost and the latency meanwhile. Use with --rate for a steady load.
    #[arg(long, requires = "http")]
    pub rolling_restart: bool,
    /// Run the bot as this binary in a process of its own (over the gateway) so memory and
    /// CPU are the bot's alone, not shared with the fake and the driver. Not with --game or
    /// --http.
    #[arg(long, conflicts_with_all = ["http", "game"])]
    pub bot_process: bool,
    #[command(flatten)]
    pub games: games::GameOptions,
}

impl LoadOptions {
    /// The store the run uses, as the report names it.
    pub fn backend(&self) -> &'static str {
        if self.database_url.is_some() {
            "postgres"
        } else {
            "sqlite"
        }
    }
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            count: 20_000,
            concurrency: 16,
            rate: None,
            mix: Mix::Roll,
            sessions: 1,
            database_url: None,
            warmup: 500,
            max_seconds: 120,
            json: false,
            lines: Vec::new(),
            setup: Vec::new(),
            floor: false,
            http: false,
            replicas: 1,
            rolling_restart: false,
            bot_process: false,
            games: games::GameOptions::default(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(transparent)]
    Fake(#[from] fake_discord::FakeError),
    #[error("{0}")]
    Setup(String),
}

/// The one channel rolls happen in (no session there).
const ROLL_CHANNEL: u64 = 910_000_000_000_000_001;
/// Where `--line` and `--setup` lines go.
const LINE_CHANNEL: u64 = 930_000_000_000_000_001;
/// Session `i` lives in channel `SESSION_CHANNEL_BASE + i`.
const SESSION_CHANNEL_BASE: u64 = 920_000_000_000_000_000;
/// Fields the edits cycle through on each character.
const FIELDS: u64 = 8;
/// How many of the fake's refusals a report quotes.
const REFUSALS_SHOWN: usize = 5;
const CHARACTER: &str = "Runner";

fn player() -> FakeUser {
    FakeUser {
        id: 300_000_000_000_000_001,
        name: "load".into(),
        bot: false,
    }
}

/// What was sent, by interaction id.
#[derive(Clone, Copy)]
struct Sent {
    measured: bool,
    /// For edits: the session index.
    session: Option<u64>,
    at: Instant,
}

#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    /// Each measured answer's latency by when its interaction was sent (for a window's p99).
    by_send_time: Vec<(Instant, u64)>,
    /// When each measured interaction was sent (answered or not).
    sent_at: Vec<Instant>,
    answered: u64,
    errors: u64,
    /// Acknowledged edits per session index.
    edits_ok: HashMap<u64, u64>,
    first_sent: Option<Instant>,
    last_answer: Option<Instant>,
    /// The bot's CPU (ns) when the first measured interaction went out, and after the last
    /// answer.
    cpu_start_ns: u64,
    cpu_end_ns: u64,
}

/// What the driver sends.
#[derive(Debug, Clone)]
enum Plan {
    Mix(Mix),
    /// Lines, each repeated by its weight in the cycle, after the setup lines.
    Lines {
        cycle: Vec<String>,
        setup: Vec<String>,
    },
}

/// The line of `--line "3*/roll dice:2d6"` and its weight.
fn weighted(line: &str) -> Result<(u32, &str), LoadError> {
    let bad = || LoadError::Setup(format!("--line {line:?}: a line starts with / (or N* then /)"));
    match line.split_once("*/") {
        Some((n, rest)) if !n.starts_with('/') => {
            let n: u32 = n.trim().parse().map_err(|_| bad())?;
            if n == 0 || n > 1000 {
                return Err(LoadError::Setup(format!(
                    "--line {line:?}: a weight is 1 to 1000"
                )));
            }
            Ok((n, &line[line.len() - rest.len() - 1..]))
        }
        _ if line.trim_start().starts_with('/') => Ok((1, line.trim_start())),
        _ => Err(bad()),
    }
}

impl Plan {
    fn of(opts: &LoadOptions) -> Result<Plan, LoadError> {
        if opts.lines.is_empty() {
            return Ok(Plan::Mix(opts.mix));
        }
        let mut cycle = Vec::new();
        for l in &opts.lines {
            let (n, line) = weighted(l)?;
            cycle.extend(std::iter::repeat_n(line.to_string(), n as usize));
        }
        Ok(Plan::Lines {
            cycle,
            setup: opts.setup.clone(),
        })
    }
}

/// The store cache's (hits, misses) so far.
fn cache_counts(store: &dyn Store) -> (u64, u64) {
    store.caches().map_or((0, 0), |c| {
        (
            c.stats.hits.load(Ordering::Relaxed),
            c.stats.misses.load(Ordering::Relaxed),
        )
    })
}

/// Reads what a command in each session's channel reads, so the store's caches hold it.
async fn warm_caches(store: &Arc<dyn Store>, sessions: u64) -> Result<(), LoadError> {
    let failed = |e: crate::store::StoreError| LoadError::Setup(format!("warming the caches: {e}"));
    store.server_settings(DEFAULT_GUILD).await.map_err(failed)?;
    for i in 0..sessions {
        store
            .channel_settings(SESSION_CHANNEL_BASE + i)
            .await
            .map_err(failed)?;
        store
            .active_session(SESSION_CHANNEL_BASE + i)
            .await
            .map_err(failed)?;
    }
    Ok(())
}

async fn create_sessions(store: &Arc<dyn Store>, count: u64) -> Result<(), LoadError> {
    let user = player().id;
    let results: Vec<Result<(), String>> = futures::stream::iter(0..count)
        .map(|i| {
            let store = store.clone();
            async move {
                let now = crate::invocation::now_ms();
                let channel = SESSION_CHANNEL_BASE + i;
                let mut s = Session::start(
                    DEFAULT_GUILD,
                    channel,
                    &format!("load {i}"),
                    SystemId::Generic,
                    user,
                    now,
                )
                .map_err(|e| e.to_string())?;
                s.add_entry(
                    Actor {
                        user,
                        manage_server: true,
                    },
                    RosterEntry::new(CHARACTER, user),
                )
                .map_err(|e| e.to_string())?;
                match store.create_session(&s).await {
                    Ok(_) => Ok(()),
                    Err(e) => Err(format!("session {i}: {e}")),
                }
            }
        })
        .buffer_unordered(8)
        .collect()
        .await;
    let failed: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    match failed.first() {
        None => Ok(()),
        Some(e) => Err(LoadError::Setup(format!(
            "{} of {count} sessions could not be created (use an empty database): {e}",
            failed.len()
        ))),
    }
}

/// The load tool only talks to loopback: a database elsewhere (someone's production server) is
/// refused before anything is written to it.
fn ensure_loopback(url: &str) -> Result<(), LoadError> {
    if url.starts_with("sqlite:") {
        return Ok(());
    }
    let opts: sqlx::postgres::PgConnectOptions = url
        .parse()
        .map_err(|e| LoadError::Setup(format!("the database URL cannot be read: {e}")))?;
    let host = opts.get_host().trim_start_matches('[').trim_end_matches(']');
    let local = opts.get_socket().is_some()
        || host.starts_with('/')
        || host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if local {
        Ok(())
    } else {
        Err(LoadError::Setup(format!(
            "the load tool only talks to loopback; refusing the database host {host}"
        )))
    }
}

/// Run the load and report. The bot, the fake and the store live and die inside.
pub async fn run(opts: LoadOptions) -> Result<Report, LoadError> {
    if let Some(url) = &opts.database_url {
        ensure_loopback(url)?;
    }
    let deadline = Instant::now() + Duration::from_secs(opts.max_seconds.max(1));
    let scratch: Option<PathBuf> = match &opts.database_url {
        Some(_) => None,
        None => Some(std::env::temp_dir().join(format!("saikoro-load-{}", std::process::id()))),
    };
    let result = run_in(&opts, deadline, scratch.as_deref()).await;
    if let Some(dir) = scratch {
        let _ = std::fs::remove_dir_all(dir);
    }
    result
}

async fn run_in(
    opts: &LoadOptions,
    deadline: Instant,
    scratch: Option<&std::path::Path>,
) -> Result<Report, LoadError> {
    let plan = Plan::of(opts)?;
    let data_dir = scratch.map_or_else(std::env::temp_dir, |d| d.to_path_buf());
    // The bot, its store and its database work on their own threads (see `cpu`).
    let bot_rt = cpu::bot_runtime().map_err(|e| LoadError::Setup(e.to_string()))?;
    let bot_side = bot_rt.handle();
    let url = opts.database_url.clone();
    let dir = data_dir.clone();
    let store = on(
        bot_side,
        async move { store::connect(url.as_deref(), &dir).await },
    )
    .await?
    .map_err(|e| LoadError::Setup(format!("the store cannot be opened: {e}")))?;
    let sessions = opts.sessions.max(1);
    let s = store.clone();
    on(bot_side, async move { create_sessions(&s, sessions).await }).await??;
    let (_, rss_before_bot) = rss_mb();

    let fake = FakeDiscord::start_with(FakeOptions {
        keep_records: false,
        ..FakeOptions::default()
    })
    .await?;
    let (mut running, rss_before_bot, rss_warm) = if opts.bot_process {
        // Its caches warm as it serves the warm-up; its memory and CPU are read from /proc.
        let child = BotProcess::spawn(&fake, opts.database_url.as_deref(), &data_dir).await?;
        cpu::measure_process(Some(child.pid()));
        let (_, ready) = rss_mb_of(Some(child.pid()));
        (Served::Process(child), ready, ready)
    } else {
        let running = Served::start(bot_side, &fake, store.clone(), opts).await?;
        // A bot that has served every session's channel: settings and sessions cached (up to
        // the caches' bounds), measured before the load.
        let s = store.clone();
        on(bot_side, async move { warm_caches(&s, sessions).await }).await??;
        let (_, rss_warm) = rss_mb();
        (running, rss_before_bot, rss_warm)
    };
    let bot_pid = running.process_id();
    let cache_before = cache_counts(store.as_ref());
    let (outcome, restart) = match (&mut running, opts.rolling_restart) {
        (Served::Http(set), true) => {
            let after = Duration::from_secs(opts.max_seconds.max(4) / 4);
            let restart = async {
                tokio::time::sleep(after).await;
                set.rolling_restart(&fake).await
            };
            let (outcome, window) = tokio::join!(drive(opts, &plan, &fake, sessions, deadline), restart);
            (outcome, Some(window?))
        }
        _ => (drive(opts, &plan, &fake, sessions, deadline).await, None),
    };
    let cache_after = cache_counts(store.as_ref());
    // Before the verification pass, whose reads are not part of serving.
    let (peak, now) = rss_mb_of(bot_pid);
    cpu::measure_process(None);
    let lost = match &outcome {
        Ok((_, t)) if matches!(plan, Plan::Mix(m) if m != Mix::Roll) => {
            Some(verify(&store, sessions, &t.edits_ok).await)
        }
        _ => None,
    };
    running.stop(bot_rt, store.clone()).await;
    let (sent, tally) = outcome?;
    let lost = lost.transpose()?;
    let restart = restart.map(|w| RestartFigures::of(w.start, w.end, &tally, fake.http_retries()));
    let mut report = report(opts, sent, tally);
    report.restart = restart;
    report.backend = opts.backend();
    report.sessions = sessions;
    report.peak_rss_mb = peak;
    report.rss_mb = now;
    report.rss_before_bot_mb = rss_before_bot;
    report.rss_warm_mb = rss_warm;
    report.bot_process = bot_pid.is_some();
    report.cache_hits = cache_after.0 - cache_before.0;
    report.cache_misses = cache_after.1 - cache_before.1;
    report.lost_updates = lost;
    report.refusals = fake.refused_requests().into_iter().take(REFUSALS_SHOWN).collect();
    if opts.floor {
        let f = run_floor(opts, deadline).await?;
        report.floor = Some(FloorFigures {
            cpu_ratio: if f.bot_cpu_us > 0.0 {
                report.bot_cpu_us / f.bot_cpu_us
            } else {
                0.0
            },
            bot_cpu_us: f.bot_cpu_us,
            per_second: f.per_second,
            p50_ms: f.p50_ms,
            p99_ms: f.p99_ms,
        });
    }
    Ok(report)
}

/// Runs `work` on the bot's runtime (so its CPU is the bot's) and waits for it here.
async fn on<F>(runtime: &tokio::runtime::Handle, work: F) -> Result<F::Output, LoadError>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    runtime
        .spawn(work)
        .await
        .map_err(|e| LoadError::Setup(e.to_string()))
}

/// The floor bot through a fresh fake Discord, driven with `/roll dice:2d6` as the bot was.
async fn run_floor(opts: &LoadOptions, deadline: Instant) -> Result<Report, LoadError> {
    let floor = floor::FloorRun::start(FakeOptions {
        keep_records: false,
        ..FakeOptions::default()
    })
    .await?;
    let plan = Plan::Lines {
        cycle: vec!["/roll dice:2d6".to_string()],
        setup: Vec::new(),
    };
    let floor_deadline = deadline.max(Instant::now() + Duration::from_secs(opts.max_seconds.max(1)));
    let outcome = drive(opts, &plan, &floor.fake, 1, floor_deadline).await;
    floor.stop().await;
    let (sent, tally) = outcome?;
    Ok(report(opts, sent, tally))
}

/// Every acknowledged edit bumped its session's version by exactly one (an update lost to a
/// concurrent one would leave the version short), and each edited field is there.
async fn verify(
    store: &Arc<dyn Store>,
    sessions: u64,
    edits_ok: &HashMap<u64, u64>,
) -> Result<u64, LoadError> {
    let mut lost = 0u64;
    for i in 0..sessions {
        let s = store
            .active_session(SESSION_CHANNEL_BASE + i)
            .await
            .map_err(|e| LoadError::Setup(format!("verification read failed: {e}")))?
            .ok_or_else(|| LoadError::Setup(format!("session {i} is gone")))?;
        let acked = edits_ok.get(&i).copied().unwrap_or(0);
        // Version 1 at creation, +1 per saved edit (each edit writes a new unique value).
        let saved = u64::try_from(s.version - 1).unwrap_or(0);
        if saved < acked {
            lost += acked - saved;
        }
        let fields = s
            .entry(CHARACTER)
            .and_then(|e| e.sheet.as_object().map(|m| m.len() as u64))
            .unwrap_or(0);
        if fields < acked.min(FIELDS) {
            lost += acked.min(FIELDS) - fields;
        }
    }
    Ok(lost)
}

/// A command as the load's server sees it (`/char` is registered per server).
fn command(fake: &FakeDiscord, name: &str) -> Result<Value, LoadError> {
    fake.visible_commands(Some(DEFAULT_GUILD))
        .into_iter()
        .find(|c| c["name"] == name)
        .ok_or_else(|| LoadError::Setup(format!("the bot did not register /{name}")))
}

/// The interactions of `lines`, built against the commands registered in the fake.
fn build_lines(
    fake: &FakeDiscord,
    lines: &[String],
) -> Result<Vec<crate::console::line::BuiltLine>, LoadError> {
    let commands = fake.visible_commands(Some(DEFAULT_GUILD));
    let users = |name: &str| fake_discord::payloads::user(&crate::console::identity::user_for(name));
    lines
        .iter()
        .map(|l| {
            crate::console::line::build(l, &commands, &users)
                .map_err(|e| LoadError::Setup(format!("{l}: {e}")))
        })
        .collect()
}

/// Sends each setup line in turn and waits for its answer; an error reply stops the run.
async fn run_setup(
    fake: &FakeDiscord,
    who: &Invoker,
    lines: &[String],
    timings: &mut tokio::sync::mpsc::UnboundedReceiver<ReplyTiming>,
) -> Result<(), LoadError> {
    for (line, built) in lines.iter().zip(build_lines(fake, lines)?) {
        let interaction = fake.command_interaction(who, 2, &built.command, built.options, built.resolved);
        let id = fake.deliver(interaction)?;
        let answer = tokio::time::timeout(Duration::from_secs(10), async {
            while let Some(t) = timings.recv().await {
                if t.interaction == id {
                    return Some(t);
                }
            }
            None
        })
        .await;
        match answer {
            Ok(Some(t)) if !t.ephemeral => {}
            Ok(Some(_)) => {
                return Err(LoadError::Setup(format!(
                    "--setup {line:?} was refused (an error reply); try it in `saikoro console`"
                )));
            }
            _ => return Err(LoadError::Setup(format!("--setup {line:?} got no answer"))),
        }
    }
    Ok(())
}

async fn drive(
    opts: &LoadOptions,
    plan: &Plan,
    fake: &FakeDiscord,
    sessions: u64,
    deadline: Instant,
) -> Result<(u64, Tally), LoadError> {
    let wait = Duration::from_secs(30).min(deadline.saturating_duration_since(Instant::now()));
    fake.wait_ready(wait).await?;
    let who = |channel: u64| Invoker {
        user: player(),
        locale: "en-US".into(),
        guild_id: Some(DEFAULT_GUILD),
        channel_id: channel,
        permissions: ALL_PERMISSIONS,
        roles: vec![],
    };

    let pending: Arc<Mutex<HashMap<u64, Sent>>> = Arc::default();
    let tally = Arc::new(Mutex::new(Tally::default()));
    let permits = Arc::new(Semaphore::new(opts.concurrency.max(1)));
    let sent_total = Arc::new(AtomicU64::new(0));
    let sending_done = Arc::new(AtomicBool::new(false));
    let mut timings = fake.timings();
    let (roll, char_cmd, lines) = match plan {
        Plan::Mix(_) => (
            Some(command(fake, "roll")?),
            Some(command(fake, "char")?),
            Vec::new(),
        ),
        Plan::Lines { cycle, setup } => {
            run_setup(fake, &who(LINE_CHANNEL), setup, &mut timings).await?;
            (None, None, build_lines(fake, cycle)?)
        }
    };

    let collector = {
        let (pending, tally, permits, sent_total, sending_done) = (
            pending.clone(),
            tally.clone(),
            permits.clone(),
            sent_total.clone(),
            sending_done.clone(),
        );
        tokio::spawn(async move {
            let mut received = 0u64;
            loop {
                if sending_done.load(Ordering::Acquire) && received >= sent_total.load(Ordering::Acquire) {
                    break;
                }
                let next: Option<ReplyTiming> = tokio::select! {
                    t = timings.recv() => t,
                    _ = tokio::time::sleep(Duration::from_millis(100)) => None,
                };
                if Instant::now() >= deadline + Duration::from_secs(5) {
                    break;
                }
                let Some(t) = next else { continue };
                received += 1;
                permits.add_permits(1);
                let Some(sent) = pending
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&t.interaction)
                else {
                    continue;
                };
                if !sent.measured {
                    continue;
                }
                let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
                tally.answered += 1;
                tally.last_answer = Some(Instant::now());
                tally.latencies_us.push(t.latency.as_micros() as u64);
                tally.by_send_time.push((sent.at, t.latency.as_micros() as u64));
                if t.ephemeral {
                    tally.errors += 1;
                } else if let Some(s) = sent.session {
                    *tally.edits_ok.entry(s).or_default() += 1;
                }
            }
        })
    };

    let total = opts.warmup + opts.count;
    let mut measured_sent = 0u64;
    let mut edit_no = 0u64;
    let mut rate_start: Option<Instant> = None;
    let mut error = None;
    for k in 0..total {
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        let Ok(Ok(permit)) = tokio::time::timeout(deadline - now, permits.acquire()).await else {
            break;
        };
        permit.forget();
        let measured = k >= opts.warmup;
        if measured {
            let start = *rate_start.get_or_insert_with(Instant::now);
            if let Some(rate) = opts.rate.filter(|r| *r > 0.0) {
                let due = start + Duration::from_secs_f64(measured_sent as f64 / rate);
                tokio::time::sleep_until(due.into()).await;
            }
        }
        if k == opts.warmup {
            let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
            t.cpu_start_ns = cpu::bot_cpu_ns();
        }
        let edit = match plan {
            Plan::Mix(Mix::Roll) | Plan::Lines { .. } => false,
            Plan::Mix(Mix::Edit) => true,
            Plan::Mix(Mix::Mixed) => k % 4 == 3,
        };
        let (interaction, session) = if let Some(built) = lines.get((k as usize) % lines.len().max(1)) {
            (
                fake.command_interaction(
                    &who(LINE_CHANNEL),
                    2,
                    &built.command,
                    built.options.clone(),
                    built.resolved.clone(),
                ),
                None,
            )
        } else if let (true, Some(char_cmd)) = (edit, &char_cmd) {
            let s = edit_no % sessions;
            let field = (edit_no / sessions) % FIELDS;
            edit_no += 1;
            let options = json!([{ "name": "edit", "type": 1, "options": [
                { "name": "name", "type": 3, "value": CHARACTER },
                { "name": "stats", "type": 3, "value": format!("f{field}={k}") },
            ]}]);
            (
                fake.command_interaction(&who(SESSION_CHANNEL_BASE + s), 2, char_cmd, options, json!({})),
                Some(s),
            )
        } else if let Some(roll) = &roll {
            let options = json!([{ "name": "dice", "type": 3, "value": "3d6+2" }]);
            (
                fake.command_interaction(&who(ROLL_CHANNEL), 2, roll, options, json!({})),
                None,
            )
        } else {
            break;
        };
        let id: u64 = interaction["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or_default();
        pending.lock().unwrap_or_else(|e| e.into_inner()).insert(
            id,
            Sent {
                measured,
                session,
                at: Instant::now(),
            },
        );
        if measured {
            measured_sent += 1;
            let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
            t.first_sent.get_or_insert_with(Instant::now);
            t.sent_at.push(Instant::now());
        }
        sent_total.fetch_add(1, Ordering::Release);
        if let Err(e) = fake.deliver(interaction) {
            error = Some(e);
            break;
        }
    }
    sending_done.store(true, Ordering::Release);
    let _ = collector.await;
    tally.lock().unwrap_or_else(|e| e.into_inner()).cpu_end_ns = cpu::bot_cpu_ns();
    if let Some(e) = error {
        return Err(e.into());
    }
    let tally = std::mem::take(&mut *tally.lock().unwrap_or_else(|e| e.into_inner()));
    Ok((measured_sent, tally))
}

#[cfg(test)]
mod tests {
    use super::ensure_loopback;

    #[test]
    fn only_loopback_databases_are_accepted() {
        for ok in [
            "postgres://postgres@127.0.0.1:5432/test",
            "postgres://localhost/test",
            "postgres://[::1]:5432/test",
            "postgres:///test?host=/var/run/postgresql",
            "sqlite:/tmp/x.db",
        ] {
            assert!(ensure_loopback(ok).is_ok(), "{ok} should be accepted");
        }
        for refused in ["postgres://db.example.com/prod", "postgres://10.0.0.5:5432/test"] {
            let err = ensure_loopback(refused).expect_err(refused).to_string();
            assert!(err.contains("only talks to loopback"), "{err}");
        }
    }
}

#[cfg(test)]
mod line_tests {
    use super::{LoadOptions, Plan, weighted};

    #[test]
    fn lines_are_weighted_by_a_count_before_the_slash() {
        assert_eq!(weighted("/roll dice:2d6").unwrap(), (1, "/roll dice:2d6"));
        assert_eq!(weighted("3*/roll dice:2d6").unwrap(), (3, "/roll dice:2d6"));
        // A `*` inside the line is the line's own.
        assert_eq!(weighted("/roll dice:2d6*3").unwrap(), (1, "/roll dice:2d6*3"));
        for bad in [
            "roll dice:2d6",
            "x*/roll dice:1d6",
            "0*/roll dice:1d6",
            "5000*/roll dice:1d6",
            "",
        ] {
            assert!(weighted(bad).is_err(), "{bad}");
        }
        let opts = LoadOptions {
            lines: vec!["2*/roll dice:1d6".into(), "/sr test pool:6".into()],
            setup: vec!["/session start name:R system:shadowrun4".into()],
            ..LoadOptions::default()
        };
        let Plan::Lines { cycle, setup } = Plan::of(&opts).unwrap() else {
            panic!("lines make a line plan");
        };
        assert_eq!(cycle, ["/roll dice:1d6", "/roll dice:1d6", "/sr test pool:6"]);
        assert_eq!(setup.len(), 1);
    }
}
