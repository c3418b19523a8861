//! `saikoro console`: the real bot against the fake Discord, driven by typed lines.
//!
//! Each slash line becomes the interaction Discord would send (built from the command schema
//! the bot registered), typed by the person the console is playing ([`Who`]); `press LABEL`
//! clicks a button of a message that person can see, `complete …` asks for autocomplete
//! choices. Everything the interaction produced — the reply, follow-ups, edits, DMs and posts
//! elsewhere — is collected as an [`Exchange`] and printed as text, or with `--json` as Discord
//! received it plus the engine outcome.

mod board;
pub mod exchange;
pub mod identity;
pub mod line;
mod render;
pub mod script;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;

use crate::bot::{self, BotOptions};
use crate::dice_source::DiceSource;
use crate::fake_discord::{self, FakeDiscord, Invoker, Reply};
use crate::interactions_http::{self as over_http, HttpOptions, Running};
use crate::store::{self, Store};
use crate::{BotError, TappedOutcome};

pub use board::PressError;
pub use exchange::{Exchange, Kind, Shown};
pub use identity::{Who, user_for};
pub use render::{exchange_text, reply_text};

#[derive(Debug, Clone)]
pub struct ConsoleOptions {
    pub json: bool,
    pub seed: Option<u64>,
    pub dice: Option<Vec<u32>>,
    /// Who types first (a plain member unless `admin`).
    pub user: String,
    /// The first user has Manage Server.
    pub admin: bool,
    /// The first user's roles, by name.
    pub roles: Vec<String>,
    pub locale: String,
    /// PostgreSQL for the session store; `None`: SQLite in `data_dir`.
    pub database_url: Option<String>,
    /// Where the SQLite file lives; `None`: a fresh directory removed when the console ends.
    pub data_dir: Option<PathBuf>,
    /// A file for the first command typed that has an attachment option and leaves it out
    /// (`--attach`).
    pub attach: Option<PathBuf>,
    /// Write every file a reply attaches into this folder (`--save-attachments`).
    pub save_attachments: Option<PathBuf>,
    /// Interactions as signed HTTP POSTs to the bot's endpoint (`--http`), not the gateway.
    /// Also on when `SAIKORO_TEST_TRANSPORT=http`, so every suite that starts a console runs
    /// in HTTP mode as it stands.
    pub http: bool,
}

impl Default for ConsoleOptions {
    fn default() -> Self {
        ConsoleOptions {
            json: false,
            seed: None,
            dice: None,
            user: "player".into(),
            admin: false,
            roles: Vec::new(),
            locale: "en-US".into(),
            database_url: None,
            data_dir: None,
            attach: None,
            save_attachments: None,
            http: false,
        }
    }
}

/// `SAIKORO_TEST_TRANSPORT=http`: every console delivers interactions over HTTP (how the
/// end-to-end suites run in both modes).
pub fn http_from_env() -> bool {
    std::env::var("SAIKORO_TEST_TRANSPORT").is_ok_and(|v| v.eq_ignore_ascii_case("http"))
}

/// How long a command may take before the console reports that the bot did not answer.
const REPLY_TIMEOUT: Duration = Duration::from_secs(15);
/// How long start-up may take: connecting, and registering every command.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// The fake Discord and the bot running against it.
pub struct Console {
    pub fake: FakeDiscord,
    bot: Option<Running>,
    outcomes: mpsc::UnboundedReceiver<TappedOutcome>,
    pending: HashMap<u64, Value>,
    done: HashSet<u64>,
    opts: ConsoleOptions,
    dice: DiceSource,
    store: Arc<dyn Store>,
    /// A data directory the console made for itself and removes at the end.
    scratch: Option<PathBuf>,
    /// Who is typing now.
    who: Who,
    /// The messages people could click on.
    board: board::Board,
    /// Names the console has met, by user id and channel id (to label DMs and posts).
    people: HashMap<u64, String>,
    channels: HashMap<u64, String>,
    /// Channel posts already shown.
    posts_seen: usize,
    /// `--attach`'s file, until a command takes it.
    attach_next: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    #[error(transparent)]
    Line(#[from] line::LineError),
    #[error(transparent)]
    Press(#[from] PressError),
    #[error("{0}")]
    As(String),
    #[error(transparent)]
    Fake(#[from] fake_discord::FakeError),
    #[error("the bot could not start: {0}")]
    Bot(#[from] BotError),
    #[error("the bot did not finish registering its commands within {0:?}")]
    NotRegistered(Duration),
    #[error("cannot save an attachment: {0}")]
    Save(String),
    #[error("cannot attach `{0}`: {1}")]
    File(String, String),
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
        let bot_opts = BotOptions {
            outcome_tap: Some(tx),
            ..fake.bot_options(dice.clone(), store.clone())
        };
        let http = opts.http || http_from_env();
        let bot = if http {
            let bot = over_http::start(
                bot_opts,
                bot::ScaleOptions::default(),
                HttpOptions {
                    listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
                    public_key: fake_discord::test_public_key(),
                    // One process, no balancer: quitting need not wait.
                    stop_delay: std::time::Duration::ZERO,
                },
            )
            .await?;
            fake.deliver_over_http(&bot.url());
            Running::Http(bot)
        } else {
            Running::Gateway(bot::start(bot_opts).await?)
        };
        // The bot's own signal: every command it registers at start-up (the global ones and
        // this server's systems) is known before the first line is typed.
        if !bot.commands_registered(START_TIMEOUT).await {
            bot.shutdown().await;
            return Err(ConsoleError::NotRegistered(START_TIMEOUT));
        }
        if !http {
            fake.wait_shards(1, START_TIMEOUT).await?;
        }
        let who = Who {
            name: opts.user.clone(),
            admin: opts.admin,
            roles: opts.roles.clone(),
        };
        let mut console = Console {
            fake,
            bot: Some(bot),
            outcomes,
            pending: HashMap::new(),
            done: HashSet::new(),
            opts,
            dice,
            store,
            scratch,
            who: who.clone(),
            board: board::Board::default(),
            people: HashMap::new(),
            channels: HashMap::from([(fake_discord::DEFAULT_CHANNEL, "table".to_string())]),
            posts_seen: 0,
            attach_next: None,
        };
        console.attach_next = console
            .opts
            .attach
            .as_ref()
            .map(|p| p.to_string_lossy().into_owned());
        console.meet(&who.name);
        Ok(console)
    }

    /// Queue faces for the next rolls (when started with fixed dice).
    pub fn queue_dice(&self, faces: impl IntoIterator<Item = u32>) {
        self.dice.queue(faces);
    }

    /// Queued faces not rolled yet (`None` without fixed dice): whether something rolled.
    pub fn dice_left(&self) -> Option<usize> {
        self.dice.remaining()
    }

    /// Write the files `x` attached into the `--save-attachments` folder, named
    /// `<interaction>-<file name>`; the paths written. Nothing without the flag.
    pub fn save_attachments(&self, x: &Exchange) -> Result<Vec<PathBuf>, ConsoleError> {
        use base64::Engine as _;
        let Some(dir) = &self.opts.save_attachments else {
            return Ok(Vec::new());
        };
        let mut written = Vec::new();
        for file in x
            .shown
            .iter()
            .flat_map(|s| s.body["files"].as_array().into_iter().flatten())
        {
            let name = file["filename"].as_str().unwrap_or("file");
            // Only the name: a file name never leaves the folder.
            let name = std::path::Path::new(name)
                .file_name()
                .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(file["base64"].as_str().unwrap_or_default())
                .map_err(|e| ConsoleError::Save(format!("{name}: {e}")))?;
            std::fs::create_dir_all(dir)
                .map_err(|e| ConsoleError::Save(format!("{}: {e}", dir.display())))?;
            let path = dir.join(format!("{}-{name}", x.interaction));
            std::fs::write(&path, bytes)
                .map_err(|e| ConsoleError::Save(format!("{}: {e}", path.display())))?;
            written.push(path);
        }
        Ok(written)
    }

    pub fn json(&self) -> bool {
        self.opts.json
    }

    /// Who is typing now.
    pub fn who(&self) -> &Who {
        &self.who
    }

    /// From now on `who` types (`as bob admin`).
    pub fn set_who(&mut self, who: Who) {
        self.meet(&who.name);
        self.who = who;
    }

    /// `text` with each mention of someone or some channel the console has met (`<@123…>`,
    /// `<#456…>`) as `@name` or `#name`, the way a Discord client shows it.
    pub fn readable(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find('<') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let (sigil, book, digits) = match after.as_bytes().first() {
                Some(b'@') => ('@', &self.people, after[1..].trim_start_matches('!')),
                Some(b'#') => ('#', &self.channels, &after[1..]),
                _ => {
                    out.push('<');
                    rest = after;
                    continue;
                }
            };
            let end = digits.find('>');
            let name = end
                .and_then(|e| digits[..e].parse::<u64>().ok())
                .and_then(|id| book.get(&id));
            match (name, end) {
                (Some(name), Some(e)) => {
                    out.push(sigil);
                    out.push_str(name);
                    rest = &digits[e + 1..];
                }
                _ => {
                    out.push('<');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    fn meet(&mut self, name: &str) {
        self.people.insert(user_for(name).id, name.to_string());
    }

    /// The person typing, in the default server and channel.
    pub fn invoker(&self) -> Invoker {
        self.who.invoker(&self.opts.locale)
    }

    /// The commands the person typing sees in this server.
    pub fn commands(&self) -> Vec<Value> {
        self.fake
            .visible_commands(Some(fake_discord::DEFAULT_GUILD))
            .into_iter()
            .filter(|c| identity::may_use(c, self.who.permissions()))
            .collect()
    }

    /// Build `text` against the commands `who` sees, remembering the names it mentions.
    fn build(&mut self, text: &str, who: &Invoker, partial: bool) -> Result<line::BuiltLine, ConsoleError> {
        let all = self.fake.visible_commands(who.guild_id);
        let users = |name: &str| fake_discord::payloads::user(&user_for(name));
        let mut built = if partial {
            line::build_partial(text, &all, &users)?
        } else {
            line::build_attaching(text, &all, &users, self.attach_next.as_deref())?
        };
        // Discord hides a command whose default permissions the member lacks.
        if !identity::may_use(&built.command, who.permissions) {
            return Err(line::LineError::NotPermitted(format!("/{}", built.path)).into());
        }
        self.host_files(&mut built)?;
        if built.attached {
            self.attach_next = None;
        }
        for (id, u) in built.resolved["users"].as_object().into_iter().flatten() {
            if let (Ok(id), Some(name)) = (id.parse(), u["username"].as_str()) {
                self.people.insert(id, name.to_string());
            }
        }
        for (id, c) in built.resolved["channels"].as_object().into_iter().flatten() {
            if let (Ok(id), Some(name)) = (id.parse(), c["name"].as_str()) {
                self.channels.insert(id, name.to_string());
            }
        }
        Ok(built)
    }

    /// Upload the files a line attaches (paths on this machine) to the fake Discord, which
    /// serves them; each attachment in `resolved` gets its size and URL.
    fn host_files(&self, built: &mut line::BuiltLine) -> Result<(), ConsoleError> {
        let Some(files) = built
            .resolved
            .get_mut("attachments")
            .and_then(Value::as_object_mut)
        else {
            return Ok(());
        };
        for (id, file) in files.iter_mut() {
            let Some(path) = file["path"].as_str().map(str::to_string) else {
                continue;
            };
            let bytes = std::fs::read(&path).map_err(|e| ConsoleError::File(path.clone(), e.to_string()))?;
            let name = file["filename"].as_str().unwrap_or("file").to_string();
            let id: u64 = id.parse().unwrap_or_default();
            *file = self.fake.host_file(id, &name, bytes);
        }
        Ok(())
    }

    /// Type a slash line as the current user: everything it produced.
    pub async fn type_line(&mut self, text: &str) -> Result<Exchange, ConsoleError> {
        let who = self.invoker();
        let built = self.build(text, &who, false)?;
        let interaction =
            self.fake
                .command_interaction(&who, 2, &built.command, built.options, built.resolved);
        let id = self.fake.deliver(interaction)?;
        self.fake.wait_reply(id, REPLY_TIMEOUT).await?;
        self.wait_done(id, Duration::from_secs(5)).await;
        Ok(self.collect(id, &who))
    }

    /// Press the button (or pick the select option) `wanted` names, as the current user.
    pub async fn press(&mut self, wanted: &str) -> Result<Exchange, ConsoleError> {
        let mut who = self.invoker();
        let target = self.board.find(who.user.id, wanted)?;
        let channel: u64 = target.message["channel_id"]
            .as_str()
            .and_then(|c| c.parse().ok())
            .unwrap_or(who.channel_id);
        if channel == fake_discord::dm_channel_id(who.user.id) {
            who.guild_id = None;
        }
        who.channel_id = channel;
        let id = self.fake.next_id();
        let token = format!("itoken-{id}");
        let app = self.fake.app_id();
        let interaction = match &target.values {
            Some(values) => fake_discord::payloads::select_interaction(
                id,
                app,
                &token,
                &who,
                &target.message,
                &target.custom_id,
                values,
            ),
            None => fake_discord::payloads::button_interaction(
                id,
                app,
                &token,
                &who,
                &target.message,
                &target.custom_id,
            ),
        };
        let id = self.fake.deliver(interaction)?;
        self.fake.wait_reply(id, REPLY_TIMEOUT).await?;
        self.wait_done(id, Duration::from_secs(5)).await;
        let exchange = self.collect(id, &who);
        // The message the button was on, as it is now (an update replaced it).
        if exchange.shown.iter().any(|s| s.kind == Kind::Update)
            && let Some(now) = self.fake.original_message(id)
        {
            self.board.show(now, None);
        }
        Ok(exchange)
    }

    /// The autocomplete choices for the last option of `text` (`/char edit name:An`).
    pub async fn complete(&mut self, text: &str) -> Result<Exchange, ConsoleError> {
        let who = self.invoker();
        let built = self.build(text, &who, true)?;
        let interaction =
            self.fake
                .command_interaction(&who, 4, &built.command, built.options, built.resolved);
        let id = self.fake.deliver(interaction)?;
        self.fake.wait_reply(id, REPLY_TIMEOUT).await?;
        Ok(Exchange {
            interaction: id,
            shown: exchange::from_events(&self.fake.events(id)),
            outcome: None,
        })
    }

    /// What interaction `id` produced, with the posts made meanwhile; what can be clicked
    /// goes on the board.
    fn collect(&mut self, id: u64, who: &Invoker) -> Exchange {
        let mut shown = exchange::from_events(&self.fake.events(id));
        // Stored messages (with ids) for the board: the reply as it stands, then follow-ups.
        let only = |ephemeral: bool| ephemeral.then_some(who.user.id);
        let reply_ephemeral = shown.iter().find(|s| s.kind == Kind::Reply).map(|s| s.ephemeral);
        if let (Some(eph), Some(original)) = (reply_ephemeral, self.fake.original_message(id)) {
            self.board.show(original, only(eph));
        }
        for m in self.fake.followup_messages(id) {
            let eph = m["flags"].as_u64().unwrap_or(0) & 64 != 0;
            self.board.show(m, only(eph));
        }
        let (posts, seen) = self.fake.posts_since(self.posts_seen);
        self.posts_seen = seen;
        for fake_discord::Post {
            request,
            message: post,
        } in posts
        {
            let channel: u64 = post["channel_id"]
                .as_str()
                .and_then(|c| c.parse().ok())
                .unwrap_or_default();
            let recipient = self
                .people
                .keys()
                .copied()
                .find(|&u| fake_discord::dm_channel_id(u) == channel);
            let kind = match recipient {
                Some(u) => Kind::Dm {
                    to: self.people[&u].clone(),
                },
                None if self.looks_like_dm(channel) => Kind::Dm {
                    to: format!("user {}", channel ^ fake_discord::dm_channel_id(0)),
                },
                None => Kind::Channel {
                    name: self
                        .channels
                        .get(&channel)
                        .cloned()
                        .unwrap_or_else(|| channel.to_string()),
                },
            };
            self.board.show(post, recipient);
            shown.push(Shown {
                kind,
                ephemeral: false,
                body: request,
            });
        }
        Exchange {
            interaction: id,
            shown,
            outcome: self.take_outcome(id),
        }
    }

    /// DM channel ids are user ids with fixed bits flipped (see [`fake_discord::dm_channel_id`]);
    /// user ids the console makes fall in a range no named channel does.
    fn looks_like_dm(&self, channel: u64) -> bool {
        let user = channel ^ fake_discord::dm_channel_id(0);
        (100_000_000_000_000_000..900_000_000_000_000_000).contains(&user)
            && !self.channels.contains_key(&channel)
    }

    /// Type `text` as `who` at the protocol level (no client-side checks): the interaction's
    /// id and the reply. Tests use it to act as anyone, including what a client would hide.
    pub async fn send_as(&mut self, text: &str, who: &Invoker) -> Result<(u64, Reply), ConsoleError> {
        let guild = who.guild_id;
        let commands = self.fake.visible_commands(guild);
        let mut built = line::build(text, &commands, &|name| {
            fake_discord::payloads::user(&user_for(name))
        })?;
        self.host_files(&mut built)?;
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

    /// Type `text` as the console's own user (protocol level, see [`Console::send_as`]).
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
