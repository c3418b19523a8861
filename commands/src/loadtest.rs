//! `saikoro loadtest`: the fake Discord and the real bot in this process, a stream of
//! interactions over the gateway, and figures: throughput, dispatch→reply latency percentiles
//! (measured in the fake, from the gateway dispatch to the REST request carrying the reply),
//! peak RSS, and for session edits a check that no update was lost.
//!
//! It talks only to loopback (and to `--database-url` if given), and stops by itself: after
//! `--count` interactions or `--max-seconds`, whichever comes first.

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

use crate::bot::{self, BotOptions, ScaleOptions};
use crate::config::Sharding;
use crate::dice_source::DiceSource;
use crate::fake_discord::{
    self, ALL_PERMISSIONS, DEFAULT_GUILD, FakeDiscord, FakeOptions, FakeUser, Invoker, ReplyTiming,
};
use crate::metrics::Metrics;
use crate::store::{self, Store};

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
        }
    }
}

/// The figures of one run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub mix: Mix,
    pub backend: &'static str,
    pub sessions: u64,
    pub concurrency: usize,
    pub rate: Option<f64>,
    /// Measured interactions sent and answered (after the warm-up).
    pub sent: u64,
    pub answered: u64,
    /// Answered with an ephemeral message (our error replies).
    pub errors: u64,
    pub unanswered: u64,
    pub seconds: f64,
    pub per_second: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Peak and current resident memory of this process (the bot, the fake and the driver) at
    /// the end of the run, before verification.
    pub peak_rss_mb: f64,
    pub rss_mb: f64,
    /// Resident memory after the sessions were created, before the bot started.
    pub rss_before_bot_mb: f64,
    /// Edits acknowledged but missing from the stored sessions (`None`: no edits sent).
    pub lost_updates: Option<u64>,
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
/// Session `i` lives in channel `SESSION_CHANNEL_BASE + i`.
const SESSION_CHANNEL_BASE: u64 = 920_000_000_000_000_000;
/// Fields the edits cycle through on each character.
const FIELDS: u64 = 8;
const CHARACTER: &str = "Runner";

fn player() -> FakeUser {
    FakeUser {
        id: 300_000_000_000_000_001,
        name: "load".into(),
        bot: false,
    }
}

/// `VmHWM` and `VmRSS` of this process in MiB (0 where /proc is not there).
pub fn rss_mb() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1] as f64 / 1000.0
}

/// What was sent, by interaction id.
#[derive(Clone, Copy)]
struct Sent {
    measured: bool,
    /// For edits: the session index.
    session: Option<u64>,
}

#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    answered: u64,
    errors: u64,
    /// Acknowledged edits per session index.
    edits_ok: HashMap<u64, u64>,
    first_sent: Option<Instant>,
    last_answer: Option<Instant>,
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
    let data_dir = scratch.map_or_else(std::env::temp_dir, |d| d.to_path_buf());
    let store = store::connect(opts.database_url.as_deref(), &data_dir)
        .await
        .map_err(|e| LoadError::Setup(format!("the store cannot be opened: {e}")))?;
    let sessions = opts.sessions.max(1);
    create_sessions(&store, sessions).await?;
    let (_, rss_before_bot) = rss_mb();

    let fake = FakeDiscord::start_with(FakeOptions {
        keep_records: false,
        ..FakeOptions::default()
    })
    .await?;
    let running = bot::start_with(
        BotOptions {
            token: fake_discord::FAKE_TOKEN.to_string(),
            proxy_url: Some(fake.url()),
            dev_guild: None,
            dice: DiceSource::os().map_err(|e| LoadError::Setup(e.to_string()))?,
            outcome_tap: None,
            store: store.clone(),
        },
        ScaleOptions {
            sharding: Sharding::Auto,
            // Counted as in production, not served.
            metrics: Some(Metrics::new()),
        },
    )
    .await
    .map_err(|e| LoadError::Setup(format!("the bot could not start: {e}")))?;
    let outcome = drive(opts, &fake, sessions, deadline).await;
    // Before the verification pass, whose reads are not part of serving.
    let (peak, now) = rss_mb();
    let lost = match &outcome {
        Ok((_, t)) if opts.mix != Mix::Roll => Some(verify(&store, sessions, &t.edits_ok).await),
        _ => None,
    };
    running.shutdown().await;
    store.close().await;
    let (sent, tally) = outcome?;
    let lost = lost.transpose()?;
    let mut lat = tally.latencies_us;
    lat.sort_unstable();
    let seconds = match (tally.first_sent, tally.last_answer) {
        (Some(a), Some(b)) if b > a => (b - a).as_secs_f64(),
        _ => 0.0,
    };
    Ok(Report {
        mix: opts.mix,
        backend: if opts.database_url.is_some() {
            "postgres"
        } else {
            "sqlite"
        },
        sessions,
        concurrency: opts.concurrency,
        rate: opts.rate,
        sent,
        answered: tally.answered,
        errors: tally.errors,
        unanswered: sent.saturating_sub(tally.answered),
        seconds,
        per_second: if seconds > 0.0 {
            tally.answered as f64 / seconds
        } else {
            0.0
        },
        p50_ms: percentile(&lat, 50.0),
        p95_ms: percentile(&lat, 95.0),
        p99_ms: percentile(&lat, 99.0),
        max_ms: lat.last().map_or(0.0, |&m| m as f64 / 1000.0),
        peak_rss_mb: peak,
        rss_mb: now,
        rss_before_bot_mb: rss_before_bot,
        lost_updates: lost,
    })
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

fn command(fake: &FakeDiscord, name: &str) -> Result<Value, LoadError> {
    fake.commands(None)
        .into_iter()
        .find(|c| c["name"] == name)
        .ok_or_else(|| LoadError::Setup(format!("the bot did not register /{name}")))
}

async fn drive(
    opts: &LoadOptions,
    fake: &FakeDiscord,
    sessions: u64,
    deadline: Instant,
) -> Result<(u64, Tally), LoadError> {
    let wait = Duration::from_secs(30).min(deadline.saturating_duration_since(Instant::now()));
    fake.wait_commands(None, wait).await?;
    fake.wait_shards(1, wait).await?;
    let roll = command(fake, "roll")?;
    let char_cmd = command(fake, "char")?;
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
        let edit = match opts.mix {
            Mix::Roll => false,
            Mix::Edit => true,
            Mix::Mixed => k % 4 == 3,
        };
        let (interaction, session) = if edit {
            let s = edit_no % sessions;
            let field = (edit_no / sessions) % FIELDS;
            edit_no += 1;
            let options = json!([{ "name": "edit", "type": 1, "options": [
                { "name": "name", "type": 3, "value": CHARACTER },
                { "name": "stats", "type": 3, "value": format!("f{field}={k}") },
            ]}]);
            (
                fake.command_interaction(&who(SESSION_CHANNEL_BASE + s), 2, &char_cmd, options, json!({})),
                Some(s),
            )
        } else {
            let options = json!([{ "name": "dice", "type": 3, "value": "3d6+2" }]);
            (
                fake.command_interaction(&who(ROLL_CHANNEL), 2, &roll, options, json!({})),
                None,
            )
        };
        let id: u64 = interaction["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .unwrap_or_default();
        pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, Sent { measured, session });
        if measured {
            measured_sent += 1;
            let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
            t.first_sent.get_or_insert_with(Instant::now);
        }
        sent_total.fetch_add(1, Ordering::Release);
        if let Err(e) = fake.deliver(interaction) {
            error = Some(e);
            break;
        }
    }
    sending_done.store(true, Ordering::Release);
    let _ = collector.await;
    if let Some(e) = error {
        return Err(e.into());
    }
    let tally = std::mem::take(&mut *tally.lock().unwrap_or_else(|e| e.into_inner()));
    Ok((measured_sent, tally))
}

impl Report {
    /// The report for people.
    pub fn text(&self) -> String {
        let mut s = format!(
            "saikoro loadtest: {:?} on {} ({} session{}), concurrency {}{}\n",
            self.mix,
            self.backend,
            self.sessions,
            if self.sessions == 1 { "" } else { "s" },
            self.concurrency,
            self.rate.map_or(String::new(), |r| format!(", rate {r}/s")),
        );
        s.push_str(&format!(
            "  interactions  {} sent, {} answered ({} errors), {} unanswered, in {:.2} s\n",
            self.sent, self.answered, self.errors, self.unanswered, self.seconds
        ));
        s.push_str(&format!(
            "  throughput    {:.0} interactions/s\n",
            self.per_second
        ));
        s.push_str(&format!(
            "  latency       p50 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms (gateway dispatch -> REST reply)\n",
            self.p50_ms, self.p95_ms, self.p99_ms, self.max_ms
        ));
        s.push_str(&format!(
            "  memory        peak RSS {:.1} MiB, now {:.1} MiB, {:.1} MiB before the bot started (whole process: bot + fake + driver)\n",
            self.peak_rss_mb, self.rss_mb, self.rss_before_bot_mb
        ));
        if let Some(lost) = self.lost_updates {
            s.push_str(&format!(
                "  consistency   {lost} lost updates{}\n",
                if lost == 0 {
                    " (every acknowledged edit is stored)"
                } else {
                    "  <-- FAILED"
                }
            ));
        }
        s
    }
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
