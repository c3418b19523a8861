//! `saikoro console`: the real bot against the fake Discord, driven by typed lines.
//!
//! Each line becomes the interaction Discord would send (built from the command schema the bot
//! registered), and the reply is printed as text, or with `--json` exactly as Discord received
//! it plus the engine outcome under `"outcome"`.

pub mod line;
mod render;

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

use crate::bot::{self, BotOptions, RunningBot};
use crate::dice_source::DiceSource;
use crate::fake_discord::{self, ALL_PERMISSIONS, FakeDiscord, FakeUser, Invoker, Reply};
use crate::store::{self, Store};
use crate::{BotError, TappedOutcome};

pub use render::reply_text;

#[derive(Debug, Clone)]
pub struct ConsoleOptions {
    pub json: bool,
    pub seed: Option<u64>,
    pub dice: Option<Vec<u32>>,
    pub user: String,
    pub locale: String,
    /// PostgreSQL for the session store; `None`: SQLite in `data_dir`.
    pub database_url: Option<String>,
    /// Where the SQLite file lives; `None`: a fresh directory removed when the console ends.
    pub data_dir: Option<PathBuf>,
}

impl Default for ConsoleOptions {
    fn default() -> Self {
        ConsoleOptions {
            json: false,
            seed: None,
            dice: None,
            user: "player".into(),
            locale: "en-US".into(),
            database_url: None,
            data_dir: None,
        }
    }
}

/// How long a command may take before the console reports that the bot did not answer.
const REPLY_TIMEOUT: Duration = Duration::from_secs(15);

/// A stable fake user id for a name, so `@bob` is the same person all session.
pub fn user_for(name: &str) -> FakeUser {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    name.hash(&mut h);
    // Keep ids in the snowflake range Discord uses and clear of the bot's own id.
    FakeUser {
        id: 100_000_000_000_000_000 + (h.finish() % 800_000_000_000_000_000),
        name: name.to_string(),
        bot: false,
    }
}

/// The fake Discord and the bot running against it.
pub struct Console {
    pub fake: FakeDiscord,
    bot: Option<RunningBot>,
    outcomes: mpsc::UnboundedReceiver<TappedOutcome>,
    pending: HashMap<u64, Value>,
    done: HashSet<u64>,
    opts: ConsoleOptions,
    dice: DiceSource,
    store: Arc<dyn Store>,
    /// A data directory the console made for itself and removes at the end.
    scratch: Option<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    #[error(transparent)]
    Line(#[from] line::LineError),
    #[error(transparent)]
    Fake(#[from] fake_discord::FakeError),
    #[error("the bot could not start: {0}")]
    Bot(#[from] BotError),
}

impl Console {
    pub async fn start(opts: ConsoleOptions) -> Result<Console, ConsoleError> {
        let fake = FakeDiscord::start().await?;
        let dice = match (&opts.dice, opts.seed) {
            (Some(faces), _) => DiceSource::fixed(faces.iter().copied()),
            (None, Some(seed)) => DiceSource::seeded(seed),
            (None, None) => DiceSource::os().map_err(BotError::internal)?,
        };
        let (scratch, data_dir) = match &opts.data_dir {
            Some(d) => (None, d.clone()),
            None => {
                static CONSOLES: AtomicU64 = AtomicU64::new(0);
                let n = CONSOLES.fetch_add(1, Ordering::Relaxed);
                let d = std::env::temp_dir().join(format!("saikoro-console-{}-{n}", std::process::id()));
                (Some(d.clone()), d)
            }
        };
        let store = store::connect(opts.database_url.as_deref(), &data_dir)
            .await
            .map_err(BotError::internal)?;
        let (tx, outcomes) = mpsc::unbounded_channel();
        let bot = bot::start(BotOptions {
            token: fake_discord::FAKE_TOKEN.to_string(),
            proxy_url: Some(fake.url()),
            dev_guild: None,
            dice: dice.clone(),
            outcome_tap: Some(tx),
            store: store.clone(),
        })
        .await?;
        fake.wait_commands(None, Duration::from_secs(30)).await?;
        fake.wait_shards(1, Duration::from_secs(30)).await?;
        Ok(Console {
            fake,
            bot: Some(bot),
            outcomes,
            pending: HashMap::new(),
            done: HashSet::new(),
            opts,
            dice,
            store,
            scratch,
        })
    }

    /// Queue faces for the next rolls (when started with fixed dice).
    pub fn queue_dice(&self, faces: impl IntoIterator<Item = u32>) {
        self.dice.queue(faces);
    }

    /// The person typing, in the default guild and channel.
    pub fn invoker(&self) -> Invoker {
        Invoker {
            user: user_for(&self.opts.user),
            locale: self.opts.locale.clone(),
            guild_id: Some(fake_discord::DEFAULT_GUILD),
            channel_id: fake_discord::DEFAULT_CHANNEL,
            permissions: ALL_PERMISSIONS,
        }
    }

    /// Run one line: `Ok(text)` is the bot's reply rendered; `Err` a line the console could
    /// not turn into an interaction, or a bot that did not answer.
    pub async fn run_line(&mut self, text: &str) -> Result<String, ConsoleError> {
        let who = self.invoker();
        let (id, reply) = self.send_as(text, &who).await?;
        if !self.opts.json {
            return Ok(reply_text(&reply));
        }
        let mut body = reply.body.clone();
        if let Some(outcome) = self.take_outcome(id) {
            body["outcome"] = outcome;
        }
        Ok(serde_json::to_string_pretty(&body).unwrap_or_default())
    }

    /// Type `text` as `who`; the interaction's id and the reply.
    pub async fn send_as(&mut self, text: &str, who: &Invoker) -> Result<(u64, Reply), ConsoleError> {
        let guild = who.guild_id;
        let commands = self.fake.visible_commands(guild);
        let built = line::build(text, &commands, &|name| {
            fake_discord::payloads::user(&user_for(name))
        })?;
        let interaction =
            self.fake
                .command_interaction(who, 2, &built.command, built.options, built.resolved);
        let id = self.fake.deliver(interaction)?;
        let mut reply = self.fake.wait_reply(id, REPLY_TIMEOUT).await?;
        // Messages after the reply (follow-ups) are out once the command reports it finished.
        self.wait_done(id, Duration::from_secs(5)).await;
        let events = self.fake.events(id);
        reply.followups = fake_discord::followups(&events);
        reply.events = events;
        Ok((id, reply))
    }

    /// File one tapped item: an outcome, or the mark that a command finished.
    fn accept(&mut self, t: TappedOutcome) {
        match t.outcome {
            Some(o) => {
                self.pending.insert(t.interaction_id, o);
            }
            None => {
                self.done.insert(t.interaction_id);
            }
        }
    }

    fn drain(&mut self) {
        while let Ok(t) = self.outcomes.try_recv() {
            self.accept(t);
        }
    }

    /// Wait until the bot says the command behind interaction `id` finished.
    async fn wait_done(&mut self, id: u64, timeout: Duration) {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            self.drain();
            if self.done.remove(&id) {
                return;
            }
            match tokio::time::timeout_at(deadline, self.outcomes.recv()).await {
                Ok(Some(t)) => self.accept(t),
                _ => return,
            }
        }
    }

    /// Type `text` as the console's own user.
    pub async fn send(&mut self, text: &str) -> Result<Reply, ConsoleError> {
        let who = self.invoker();
        Ok(self.send_as(text, &who).await?.1)
    }

    /// The engine outcome a command reported for interaction `id`.
    pub fn take_outcome(&mut self, id: u64) -> Option<Value> {
        self.drain();
        self.pending.remove(&id)
    }

    /// The store the bot writes to (tests read it back).
    pub fn store(&self) -> Arc<dyn Store> {
        self.store.clone()
    }

    pub async fn shutdown(mut self) {
        if let Some(bot) = self.bot.take() {
            bot.shutdown().await;
        }
        self.store.close().await;
        if let Some(dir) = self.scratch.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn error_line(e: &ConsoleError, json: bool) -> String {
    if json {
        json!({ "error": e.to_string() }).to_string()
    } else {
        format!("error: {e}")
    }
}

/// `-c LINE`: run it and return the exit code (0 answered, 1 the line was refused).
pub async fn run_once(
    opts: ConsoleOptions,
    text: &str,
    out: &mut (impl AsyncWrite + Unpin),
) -> Result<i32, ConsoleError> {
    let json = opts.json;
    let mut console = Console::start(opts).await?;
    let (code, printed) = match console.run_line(text).await {
        Ok(s) => (0, s),
        Err(e) => (1, error_line(&e, json)),
    };
    let _ = out.write_all(format!("{printed}\n").as_bytes()).await;
    let _ = out.flush().await;
    console.shutdown().await;
    Ok(code)
}

/// Read lines until end of input; a bad line prints an error line and the session goes on.
pub async fn run_session(
    opts: ConsoleOptions,
    input: impl AsyncBufRead + Unpin,
    out: &mut (impl AsyncWrite + Unpin),
) -> Result<i32, ConsoleError> {
    let json = opts.json;
    let mut console = Console::start(opts).await?;
    let mut lines = input.lines();
    while let Ok(Some(l)) = lines.next_line().await {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        if matches!(l, "exit" | "quit" | "/exit" | "/quit") {
            break;
        }
        let printed = match console.run_line(l).await {
            Ok(s) => s,
            Err(e) => error_line(&e, json),
        };
        let _ = out.write_all(format!("{printed}\n").as_bytes()).await;
        let _ = out.flush().await;
    }
    console.shutdown().await;
    Ok(0)
}
