//! `saikoro loadtest --game …`: plays each system's script ([`super::games`]) in `--sessions`
//! channels at once and measures every command as a phase of its own: `--count` interactions
//! of that one line (or button press) spread over the channels, in rounds of one interaction
//! per channel (at most `--concurrency` in flight). A phase's preparation lines (the command
//! whose button a press phase presses) run before each round, unmeasured: the bot's CPU (and
//! PostgreSQL's) is summed over the measured part of each round only. `--floor` serves the
//! bare stack's `/roll` through the same driver afterwards, and each phase is given as a
//! multiple of it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use serde_json::Value;

use super::game_report::{GameReport, PhaseFigures};
use super::games::{Game, Phase, Script, Step};
use super::replicas::Served;
use super::{LoadError, LoadOptions, cpu, on, pg_cpu, player};
use crate::fake_discord::{self, ALL_PERMISSIONS, DEFAULT_GUILD, FakeDiscord, FakeOptions, Invoker};
use crate::store::{self, NewRoll, Store};

/// Game `g`'s session `i` lives in channel `GAME_CHANNEL_BASE + g * 1_000_000 + i`.
const GAME_CHANNEL_BASE: u64 = 940_000_000_000_000_000;
/// How often a press phase's preparation is repeated for its button to appear.
const PREP_ATTEMPTS: usize = 30;
/// The longest one answer may take before the phase counts it unanswered.
const ANSWER_LIMIT: Duration = Duration::from_secs(30);
/// How long the bot is given to finish what an answer leaves running (change notifications, a
/// record batch) before the CPU is read: the work after a measured answer is its own, the work
/// after a preparation is not.
const SETTLE: Duration = Duration::from_millis(3);

/// How long a bot (or the floor) may take to register its commands and connect.
const READY_LIMIT: Duration = Duration::from_secs(30);

/// The channels of game `g`'s sessions.
fn game_channels(g: usize, opts: &LoadOptions) -> Vec<u64> {
    let base = GAME_CHANNEL_BASE + g as u64 * 1_000_000;
    (0..opts.sessions.max(1)).map(|i| base + i).collect()
}

fn who(channel: u64) -> Invoker {
    Invoker {
        user: player(),
        locale: "en-US".into(),
        guild_id: Some(DEFAULT_GUILD),
        channel_id: channel,
        permissions: ALL_PERMISSIONS,
        roles: vec![],
    }
}

/// One answer as the driver saw it.
struct Answered {
    latency: Duration,
    /// The refusal's text, for an ephemeral answer (our errors).
    error: Option<String>,
    /// The message the user sees, with its buttons (for a press that follows).
    message: Option<Value>,
}

/// Sends `line` (or presses `press` on `on_message`) in `channel` and waits for the answer.
async fn exchange(
    fake: &FakeDiscord,
    channel: u64,
    step: &Step,
    on_message: Option<&Value>,
    commands: &[Value],
) -> Result<Answered, String> {
    let interaction = match step {
        Step::Line(line) => {
            let users = |name: &str| fake_discord::payloads::user(&crate::console::identity::user_for(name));
            let built =
                crate::console::line::build(line, commands, &users).map_err(|e| format!("{line}: {e}"))?;
            fake.command_interaction(&who(channel), 2, &built.command, built.options, built.resolved)
        }
        Step::Press(label) => {
            let message = on_message.ok_or_else(|| format!("press {label}: no message before it"))?;
            let id = fake_discord::button_id(message, label).ok_or_else(|| {
                let there: Vec<String> = fake_discord::buttons(message).into_iter().map(|b| b.0).collect();
                format!("press {label}: no such button (there: {there:?})")
            })?;
            fake.button_interaction(&who(channel), message, &id)
        }
    };
    let started = Instant::now();
    let id = fake.deliver(interaction).map_err(|e| e.to_string())?;
    let reply = fake.wait_reply(id, ANSWER_LIMIT).await;
    let latency = started.elapsed();
    // The message to press next: the original response, or a follow-up carrying buttons.
    let message = fake
        .original_message(id)
        .filter(|m| !fake_discord::buttons(m).is_empty())
        .or_else(|| {
            fake.followup_messages(id)
                .into_iter()
                .find(|m| !fake_discord::buttons(m).is_empty())
        });
    fake.forget(id);
    let reply = reply.map_err(|e| e.to_string())?;
    let error = reply.ephemeral.then(|| {
        let text = reply.content().to_string();
        let embed = reply
            .embeds()
            .first()
            .map(|e| e["description"].as_str().unwrap_or("").to_string());
        format!("{text}{}", embed.unwrap_or_default())
    });
    Ok(Answered {
        latency,
        error,
        message,
    })
}

/// A preparation line: a command, or `press LABEL` on the answer before it.
fn prep_step(line: &'static str) -> Step {
    match line.strip_prefix("press ") {
        Some(label) => Step::Press(label),
        None => Step::Line(line),
    }
}

/// Where the bot's (and PostgreSQL's) CPU stands.
fn cpu_now(database: Option<&str>) -> (u64, u64) {
    (cpu::bot_cpu_ns(), database.map_or(0, pg_cpu::backends_cpu_ns))
}

/// A phase's tally.
#[derive(Default)]
struct Tally {
    latencies_us: Vec<u64>,
    errors: u64,
    first_error: Option<String>,
    unanswered: u64,
    bot_ns: u64,
    pg_ns: u64,
    seconds: f64,
}

impl Tally {
    /// `ns` per answered interaction, in µs.
    fn per_interaction_us(&self, ns: u64) -> f64 {
        match self.latencies_us.len() {
            0 => 0.0,
            n => ns as f64 / 1000.0 / n as f64,
        }
    }

    /// The bot's CPU per answered interaction (µs).
    fn cpu_us(&self) -> f64 {
        self.per_interaction_us(self.bot_ns)
    }

    /// `other`'s interactions added to these.
    fn absorb(&mut self, other: Tally) {
        self.latencies_us.extend(other.latencies_us);
        self.errors += other.errors;
        self.unanswered += other.unanswered;
        self.first_error = self.first_error.take().or(other.first_error);
        self.bot_ns += other.bot_ns;
        self.pg_ns += other.pg_ns;
        self.seconds += other.seconds;
    }
}

/// Runs `phase` in `channels` until `count` measured interactions (after `warmup` unmeasured
/// rounds' worth).
async fn run_phase(
    fake: &FakeDiscord,
    commands: &[Value],
    phase: &Phase,
    channels: &[u64],
    opts: &LoadOptions,
    database: Option<&str>,
) -> Tally {
    let mut t = Tally::default();
    let per_round = channels.len() as u64;
    let warm_rounds = opts.warmup.div_ceil(per_round.max(1)).min(3);
    let count = phase.cap.map_or(opts.count, |c| c.min(opts.count));
    let rounds = count.div_ceil(per_round.max(1)).max(1);
    let contiguous = phase.prep.is_empty() && phase.post.is_empty();
    let started = Instant::now();
    let mut window_start = None;
    for round in 0..warm_rounds + rounds {
        let measured = round >= warm_rounds;
        // Preparation: each channel's prep lines in order, channels side by side.
        let prepared: Vec<Result<Option<Value>, String>> = futures::stream::iter(channels.iter().copied())
            .map(|ch| async move {
                let mut last = None;
                // A button that depends on the dice (a hit's damage, a glitch's Edge) may be
                // missing from one answer: the preparation is repeated until it is there.
                for _ in 0..PREP_ATTEMPTS {
                    for line in phase.prep {
                        let a = exchange(fake, ch, &prep_step(line), last.as_ref(), commands).await?;
                        if let Some(e) = a.error {
                            return Err(format!("{line}: refused: {e}"));
                        }
                        last = a.message;
                    }
                    match phase.measured {
                        Step::Press(label)
                            if last
                                .as_ref()
                                .and_then(|m| fake_discord::button_id(m, label))
                                .is_none() => {}
                        _ => break,
                    }
                }
                Ok(last)
            })
            .buffered(opts.concurrency.max(1))
            .collect()
            .await;
        if measured && !phase.prep.is_empty() {
            // What the preparation leaves running after its answer (its change notifications,
            // a batch's last commit) is the preparation's, not the measured command's.
            tokio::time::sleep(SETTLE).await;
        }
        let before = cpu_now(database);
        if measured && window_start.is_none() {
            window_start = Some(before);
        }
        let answers: Vec<Result<Answered, String>> =
            futures::stream::iter(channels.iter().copied().zip(prepared))
                .map(|(ch, prep)| async move {
                    let message = prep?;
                    exchange(fake, ch, &phase.measured, message.as_ref(), commands).await
                })
                .buffered(opts.concurrency.max(1))
                .collect()
                .await;
        if measured && !contiguous {
            // Work the bot does just after answering belongs to this round.
            tokio::time::sleep(SETTLE).await;
            let after = cpu_now(database);
            t.bot_ns += after.0.saturating_sub(before.0);
            t.pg_ns += after.1.saturating_sub(before.1);
        }
        let posts: Vec<Result<(), String>> = futures::stream::iter(channels.iter().copied())
            .map(|ch| async move {
                for line in phase.post {
                    let a = exchange(fake, ch, &Step::Line(line), None, commands).await?;
                    if let Some(e) = a.error {
                        return Err(format!("{line} (after): refused: {e}"));
                    }
                }
                Ok(())
            })
            .buffered(opts.concurrency.max(1))
            .collect()
            .await;
        if !measured {
            continue;
        }
        if let Some(Err(e)) = posts.into_iter().find(Result::is_err) {
            t.first_error.get_or_insert(e);
            t.errors += 1;
        }
        for a in answers {
            match a {
                Ok(a) => {
                    t.latencies_us.push(a.latency.as_micros() as u64);
                    if let Some(e) = a.error {
                        t.errors += 1;
                        t.first_error.get_or_insert(e);
                    }
                }
                Err(e) => {
                    t.unanswered += 1;
                    t.first_error.get_or_insert(e);
                }
            }
        }
        if started.elapsed() > Duration::from_secs(opts.max_seconds.max(1)) {
            break;
        }
    }
    if contiguous && let Some(start) = window_start {
        let after = cpu_now(database);
        t.bot_ns = after.0.saturating_sub(start.0);
        t.pg_ns = after.1.saturating_sub(start.1);
    }
    t.seconds = started.elapsed().as_secs_f64();
    t
}

/// The bot and a fake Discord to play against, on the bot's own runtime.
struct Table {
    fake: FakeDiscord,
    store: Arc<dyn Store>,
    commands: Vec<Value>,
}

async fn setup_channels(
    t: &Table,
    script: &Script,
    channels: &[u64],
    opts: &LoadOptions,
) -> Result<(), LoadError> {
    let results: Vec<Result<(), String>> = futures::stream::iter(channels.iter().copied())
        .map(|ch| async move {
            for line in script.setup {
                let a = exchange(&t.fake, ch, &Step::Line(line), None, &t.commands).await?;
                if let Some(e) = a.error {
                    return Err(format!("setup {line:?} was refused: {e}"));
                }
            }
            Ok(())
        })
        .buffer_unordered(opts.concurrency.max(1))
        .collect()
        .await;
    results
        .into_iter()
        .collect::<Result<(), String>>()
        .map_err(LoadError::Setup)
}

/// Copies the newest roll of each channel's session until its log holds `rolls` (direct store
/// writes: the filling is not measured).
async fn fill_logs(store: &Arc<dyn Store>, channels: &[u64], rolls: u64) -> Result<(), LoadError> {
    let failed = |e: store::StoreError| LoadError::Setup(format!("filling the log: {e}"));
    for &ch in channels {
        let Some(s) = store.active_session(ch).await.map_err(failed)? else {
            continue;
        };
        // The setup's last roll may still be on its way to the log (group commit).
        let mut last = None;
        for _ in 0..50 {
            last = store.recent_rolls(s.id, 1).await.map_err(failed)?.pop();
            if last.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let Some(last) = last else {
            return Err(LoadError::Setup(
                "filling the log: the setup rolled nothing".into(),
            ));
        };
        let have = store.export_page(s.id, 0, 0).await.map_err(failed)?.total_rolls;
        let row = NewRoll::from(&last);
        let results: Vec<Result<(), store::StoreError>> = futures::stream::iter(have..rolls)
            .map(|_| {
                let (store, row) = (store.clone(), row.clone());
                async move { store.append_roll(&row).await }
            })
            .buffer_unordered(8)
            .collect()
            .await;
        results.into_iter().collect::<Result<(), _>>().map_err(failed)?;
    }
    Ok(())
}

/// PostgreSQL's statistics of the filled log, as autovacuum would gather them within a minute of
/// such a fill: measured right after it, every read of a page planned for the few rows the
/// log had before the fill (a sort of the whole log, 0.4 s, instead of an index scan, 4 ms).
async fn analyze(url: &str) -> Result<(), LoadError> {
    use sqlx::Connection;
    let failed = |e: sqlx::Error| LoadError::Setup(format!("analyzing the filled log: {e}"));
    let mut db = sqlx::PgConnection::connect(url).await.map_err(failed)?;
    sqlx::query("ANALYZE roll_log")
        .execute(&mut db)
        .await
        .map_err(failed)?;
    db.close().await.map_err(failed)
}

/// Plays `games` on the bot (and, with `--floor`, the floor's `/roll`) and reports per phase.
pub async fn run(opts: &LoadOptions, game: Game) -> Result<GameReport, LoadError> {
    if let Some(url) = &opts.database_url {
        super::ensure_loopback(url)?;
    }
    let scratch = std::env::temp_dir().join(format!("saikoro-load-{}", std::process::id()));
    let result = run_in(opts, game, &scratch).await;
    let _ = std::fs::remove_dir_all(scratch);
    result
}

async fn run_in(opts: &LoadOptions, game: Game, scratch: &std::path::Path) -> Result<GameReport, LoadError> {
    let database = opts.database_url.as_deref().and_then(pg_cpu::database_of);
    let bot_rt = cpu::bot_runtime().map_err(|e| LoadError::Setup(e.to_string()))?;
    let bot_side = bot_rt.handle();
    let (url, dir) = (opts.database_url.clone(), scratch.to_path_buf());
    let store = on(
        bot_side,
        async move { store::connect(url.as_deref(), &dir).await },
    )
    .await?
    .map_err(|e| LoadError::Setup(format!("the store cannot be opened: {e}")))?;
    // Answers are kept (a press needs the message it presses), files are not: the memory
    // figures are the bot's, not a store of every export.
    let fake = FakeDiscord::start_with(FakeOptions {
        keep_files: false,
        ..FakeOptions::default()
    })
    .await?;
    let running = Served::start(bot_side, &fake, store.clone(), opts).await?;
    fake.wait_ready(READY_LIMIT).await?;
    let table = Table {
        commands: fake.visible_commands(Some(DEFAULT_GUILD)),
        fake,
        store: store.clone(),
    };
    // The floor is served beside the bot for the whole run and measured in bursts between the
    // systems (see `play`): this VM's speed moves within a run, and a floor measured once, after
    // every phase, moved each ratio with it.
    let floor = match opts.floor {
        true => Some(FloorSide::start(opts).await?),
        false => None,
    };
    let outcome = play(opts, game, &table, database.as_deref(), floor.as_ref()).await;
    running.stop(bot_rt, store.clone()).await;
    if let Some(f) = floor {
        f.run.stop().await;
    }
    let mut report = outcome?;
    report.backend = opts.backend();
    Ok(report)
}

async fn play(
    opts: &LoadOptions,
    game: Game,
    t: &Table,
    database: Option<&str>,
    floor: Option<&FloorSide>,
) -> Result<GameReport, LoadError> {
    let mut report = GameReport::new(opts);
    // The floor burst before the current system's phases, and every burst's tally.
    let mut bursts: Vec<Tally> = Vec::new();
    let mut before = match floor {
        Some(f) => Some(f.burst(opts).await),
        None => None,
    };
    for (g, script) in super::games::scripts(game).iter().enumerate() {
        let first_phase = report.phases.len();
        let channels = game_channels(g, opts);
        setup_channels(t, script, &channels, opts).await?;
        if let Some(rolls) = opts.games.fill_rolls
            && script.game != Game::Roll
        {
            let (_, before) = super::rss_mb();
            let s = t.store.clone();
            let chans = channels.clone();
            // Direct writes from the driver's side: the filling is not the bot's work.
            fill_logs(&s, &chans, rolls).await?;
            if let Some(url) = &opts.database_url {
                analyze(url).await?;
            }
            let (_, after) = super::rss_mb();
            report.note(format!(
                "{}: logs filled to {rolls} rolls, RSS {before:.1} -> {after:.1} MiB",
                script.game.key()
            ));
        }
        for phase in script.phases {
            let name = phase.name();
            if !opts.games.phases.is_empty() && !opts.games.phases.iter().any(|p| name.contains(p.as_str())) {
                continue;
            }
            let (_, rss_before) = super::rss_mb();
            let tally = run_phase(&t.fake, &t.commands, phase, &channels, opts, database).await;
            let (_, rss_after) = super::rss_mb();
            report.phases.push(figures(
                script.game,
                name,
                tally,
                database.is_some(),
                (rss_before, rss_after),
            ));
        }
        // Each phase against the floor around its system: the bursts before and after it.
        if let Some(f) = floor
            && report.phases.len() > first_phase
        {
            let after = f.burst(opts).await;
            if let Some(b) = before.take() {
                let around = (b.cpu_us() + after.cpu_us()) / 2.0;
                for p in &mut report.phases[first_phase..] {
                    p.set_floor(around);
                }
                bursts.push(b);
            }
            before = Some(after);
        }
    }
    if let Some(f) = floor {
        bursts.extend(before);
        report.floor = Some(f.figures(bursts));
    }
    let (peak, now) = super::rss_mb();
    report.peak_rss_mb = peak;
    report.rss_mb = now;
    Ok(report)
}

fn figures(game: Game, name: String, t: Tally, pg: bool, rss: (f64, f64)) -> PhaseFigures {
    let (bot_cpu_us, pg_cpu_us) = (t.cpu_us(), t.per_interaction_us(t.pg_ns));
    let mut lat = t.latencies_us;
    lat.sort_unstable();
    let n = lat.len() as u64;
    PhaseFigures {
        game: game.key(),
        command: name,
        count: n,
        errors: t.errors,
        unanswered: t.unanswered,
        first_error: t.first_error,
        seconds: t.seconds,
        p50_ms: super::report::percentile(&lat, 50.0),
        p99_ms: super::report::percentile(&lat, 99.0),
        max_ms: lat.last().map_or(0.0, |&m| m as f64 / 1000.0),
        bot_cpu_us,
        pg_cpu_us: pg.then_some(pg_cpu_us),
        floor_us: None,
        floor_ratio: None,
        rss_before_mb: rss.0,
        rss_after_mb: rss.1,
    }
}

/// The bare stack's `/roll` served beside the bot, driven through the same driver in as many
/// channels, a burst at a time. Its runtime's threads carry the bot's name, so an idle bot is
/// counted in a burst and an idle floor in a phase: a few timers, nothing more.
struct FloorSide {
    run: super::floor::FloorRun,
    commands: Vec<Value>,
    channels: Vec<u64>,
}

impl FloorSide {
    async fn start(opts: &LoadOptions) -> Result<FloorSide, LoadError> {
        let run = super::floor::FloorRun::start(FakeOptions::default()).await?;
        if let Err(e) = run.fake.wait_ready(READY_LIMIT).await {
            run.stop().await;
            return Err(e.into());
        }
        Ok(FloorSide {
            commands: run.fake.visible_commands(Some(DEFAULT_GUILD)),
            channels: game_channels(0, opts),
            run,
        })
    }

    /// One burst: `--floor-count` interactions (default `--count`).
    async fn burst(&self, opts: &LoadOptions) -> Tally {
        let phase = Phase::line("/roll dice:2d6");
        let opts = &LoadOptions {
            count: opts.games.floor_count.unwrap_or(opts.count),
            ..opts.clone()
        };
        run_phase(&self.run.fake, &self.commands, &phase, &self.channels, opts, None).await
    }

    /// Every burst as one row.
    fn figures(&self, bursts: Vec<Tally>) -> PhaseFigures {
        let mut all = Tally::default();
        for b in bursts {
            all.absorb(b);
        }
        figures(
            Game::Roll,
            "floor: bare serenity + poise /roll".into(),
            all,
            false,
            (0.0, 0.0),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every system's script plays end to end against the fake Discord: each setup line is
    /// accepted, and every measured command and press is answered, none with a refusal.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_game_is_played_without_a_refusal() {
        let opts = LoadOptions {
            count: 2,
            concurrency: 2,
            sessions: 2,
            warmup: 0,
            floor: true,
            games: super::super::games::GameOptions {
                fill_rolls: Some(30),
                floor_count: Some(4),
                ..Default::default()
            },
            max_seconds: 300,
            ..LoadOptions::default()
        };
        let report = run(&opts, Game::All).await.expect("the games run");
        let expected: usize = super::super::games::scripts(Game::All)
            .iter()
            .map(|s| s.phases.len())
            .sum();
        assert_eq!(report.phases.len(), expected);
        for p in &report.phases {
            assert_eq!(
                (p.count, p.errors, p.unanswered),
                (2, 0, 0),
                "{} `{}`: {:?}",
                p.game,
                p.command,
                p.first_error
            );
            assert!(p.floor_ratio.is_some(), "{}", p.command);
            let (ratio, floor) = (p.floor_ratio.unwrap_or(0.0), p.floor_us.unwrap_or(0.0));
            assert!(
                floor > 0.0 && (ratio * floor - p.bot_cpu_us).abs() < 1e-6,
                "{}: {} µs against a floor of {floor} µs is {ratio}",
                p.command,
                p.bot_cpu_us
            );
        }
        // The floor runs its own count (`--floor-count`) a burst, before the first system and
        // after each: six systems, seven bursts.
        let systems = super::super::games::scripts(Game::All).len() as u64;
        assert_eq!(report.floor.as_ref().map(|f| f.count), Some(4 * (systems + 1)));
        assert!(report.text().contains("press Boosted damage (on /wm attack)"));
    }
}
