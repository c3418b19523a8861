//! `saikoro`: run the bot (default), or `saikoro console` to try every command offline.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use saikoro_bot::bot::{self, BotOptions, ScaleOptions};
use saikoro_bot::config::{self, Config, LogFormat, Settings};
use saikoro_bot::console::{ConsoleOptions, script};
use saikoro_bot::dice_source::DiceSource;
use saikoro_bot::interactions_http::{self, HttpOptions, Running};
use saikoro_bot::loadtest::{self, LoadOptions};
use saikoro_bot::logging;
use saikoro_bot::metrics::{self, Metrics, Probe};
use saikoro_bot::store::{self, Store, StoreError};

/// A load report as JSON (`--json`) or as text for people.
fn print_report(json: bool, report: &impl serde::Serialize, text: String) {
    if json {
        println!("{}", serde_json::to_string(report).unwrap_or_default());
    } else {
        print!("{text}");
    }
}

/// The close of `--help`: where settings come from, and `RUST_LOG` (read by the log filter).
const SETTINGS_HELP: &str = "Every setting is read from its environment variable (or a .env file in the working \
directory), or from its flag; unset and empty are the same. RUST_LOG sets the log filter \
(default: info,serenity=warn).";

#[derive(Parser)]
#[command(
    name = "saikoro",
    version,
    about = "Saikoro: a Discord dice roller that knows your game's rules",
    after_help = SETTINGS_HELP,
    // `saikoro` alone runs the bot: its settings are the top level's, and `saikoro run` takes
    // the same ones.
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(flatten)]
    settings: Settings,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Connect to Discord and serve (the default).
    #[command(after_help = SETTINGS_HELP)]
    Run(Settings),
    /// Run the real bot against a built-in fake Discord and type commands, e.g. `/roll dice:2d6`.
    Console {
        /// Run this one line and exit (otherwise lines are read from standard input).
        #[arg(short = 'c', long = "command")]
        line: Option<String>,
        /// Print each reply exactly as Discord receives it, plus the engine outcome.
        #[arg(long)]
        json: bool,
        /// Reproducible dice from this seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Fixed faces, in the order rolled: `--dice 6,5,1`.
        #[arg(long, value_delimiter = ',')]
        dice: Option<Vec<u32>>,
        /// Who is typing (a plain member unless `--admin`).
        #[arg(long, default_value = "player")]
        user: String,
        /// The user has Manage Server (needed for `/config`).
        #[arg(long)]
        admin: bool,
        /// A role the user has, by name (as in `/config gm-role role:@GM`); repeatable.
        #[arg(long = "role")]
        roles: Vec<String>,
        /// After `-c LINE`, press this button (or pick this menu option) of the reply, as the
        /// user; repeatable, in order.
        #[arg(long = "press", requires = "line")]
        presses: Vec<String>,
        /// Print each line read after a prompt, before its reply: a transcript of a piped
        /// session as a terminal would show it.
        #[arg(long)]
        echo: bool,
        /// The client's language.
        #[arg(long, default_value = "en", value_parser = ["en", "ja"])]
        locale: String,
        /// Keep the session store (SQLite) in this directory across runs; by default each
        /// console starts empty. `DATABASE_URL` is not used: pass `--database-url` for PostgreSQL.
        #[arg(long)]
        data_dir: Option<std::path::PathBuf>,
        /// PostgreSQL for the session store instead of SQLite.
        #[arg(long)]
        database_url: Option<String>,
        /// A file to attach to the first command that has a file option and leaves it out
        /// (`-c "/char import" --attach ana.saikoro.txt`); a typed line may also give the path
        /// as the option's value (`file:ana.saikoro.txt`).
        #[arg(long)]
        attach: Option<std::path::PathBuf>,
        /// Write every file a reply attaches (the `/odds` chart, exports) into this folder, as
        /// `<interaction>-<name>`; `--json` carries their bytes as base64 too.
        #[arg(long)]
        save_attachments: Option<std::path::PathBuf>,
        /// Deliver interactions as Discord's signed HTTP POSTs to the bot's interactions
        /// endpoint (`INTERACTIONS_LISTEN` mode) instead of over the gateway.
        #[arg(long)]
        http: bool,
    },
    /// Measure: the real bot against the built-in fake Discord on loopback, N interactions over
    /// the gateway; reports throughput, latency percentiles and peak memory.
    Loadtest(LoadOptions),
}

/// Logs in `LOG_FORMAT` (text when unset or invalid: the run's config check reports it).
fn init_logging(default: &str) {
    logging::init(default, config::log_format_from_env().unwrap_or(LogFormat::Text));
}

#[tokio::main]
async fn main() -> ExitCode {
    // A missing .env is normal; a broken one is reported by the config check below.
    let _ = dotenvy::dotenv();
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Run(cli.settings)) {
        Command::Run(settings) => run(&settings).await,
        Command::Loadtest(opts) => {
            // Per-interaction logs would measure the terminal; RUST_LOG=info turns them on.
            init_logging("warn,serenity=error");
            let json = opts.json;
            // Whether the run failed: a command refused or unanswered, an update lost.
            let failed = match opts.games.game {
                Some(game) => loadtest::run_game(&opts, game).await.map(|r| {
                    print_report(json, &r, r.text());
                    r.failures() > 0
                }),
                None => loadtest::run(opts).await.map(|r| {
                    print_report(json, &r, r.text());
                    r.lost_updates.unwrap_or(0) > 0 || r.answered == 0
                }),
            };
            match failed {
                Ok(false) => ExitCode::SUCCESS,
                Ok(true) => ExitCode::from(1),
                Err(e) => {
                    eprintln!("saikoro loadtest: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Command::Console {
            line,
            json,
            seed,
            dice,
            user,
            admin,
            roles,
            presses,
            echo,
            locale,
            data_dir,
            database_url,
            attach,
            save_attachments,
            http,
        } => {
            // The console's output is the replies; keep the bot's logs to warnings.
            init_logging("warn,serenity=error");
            let locale = if locale == "ja" {
                "ja".to_string()
            } else {
                "en-US".to_string()
            };
            let opts = ConsoleOptions {
                json,
                seed,
                dice,
                user,
                admin,
                roles,
                locale,
                database_url,
                data_dir,
                attach,
                save_attachments,
                http,
            };
            let mut out = tokio::io::stdout();
            let result = match line {
                Some(l) => script::run_once(opts, &l, &presses, &mut out).await,
                None => {
                    // A banner and a prompt for a person at a terminal, none for a pipe.
                    let interactive = std::io::IsTerminal::is_terminal(&std::io::stdin());
                    let input = tokio::io::BufReader::new(tokio::io::stdin());
                    let mode = script::Mode { interactive, echo };
                    script::run_session(opts, input, &mut out, mode).await
                }
            };
            match result {
                Ok(code) => ExitCode::from(code as u8),
                Err(e) => {
                    eprintln!("saikoro console: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

async fn run(settings: &Settings) -> ExitCode {
    let config = match Config::from_settings(settings) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("saikoro: {e}");
            return ExitCode::from(2);
        }
    };
    logging::init("info,serenity=warn,tracing::span=warn", config.log_format);
    tracing::info!(sharding = ?config.sharding, proxy = config.proxy_url.is_some(), over_http = config.interactions.is_some(), "starting");
    let dice = match DiceSource::os() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("saikoro: {e}");
            return ExitCode::from(1);
        }
    };
    let store = match connect_store(&config).await {
        Ok(s) => s,
        Err((code, e)) => {
            eprintln!("saikoro: {e}");
            return ExitCode::from(code);
        }
    };
    let metrics = config.metrics_addr.map(|_| Metrics::new());
    let bot_opts = BotOptions {
        token: config.token.expose().to_string(),
        proxy_url: config.proxy_url.clone(),
        dev_guild: config.dev_guild,
        dice,
        outcome_tap: None,
        store: store.clone(),
    };
    let scale = ScaleOptions {
        sharding: config.sharding,
        metrics: metrics.clone(),
    };
    let started = match &config.interactions {
        Some(i) => {
            let opts = HttpOptions {
                listen: i.listen,
                public_key: i.public_key.clone(),
                stop_delay: i.stop_delay,
            };
            interactions_http::start(bot_opts, scale, opts)
                .await
                .map(Running::Http)
        }
        None => bot::start_with(bot_opts, scale).await.map(Running::Gateway),
    };
    let result = match started {
        Ok(bot) => {
            if let (Some(addr), Some(metrics)) = (config.metrics_addr, metrics) {
                let probe = Probe {
                    metrics,
                    shards: match &bot {
                        Running::Gateway(b) => Some(b.shard_manager()),
                        Running::Http(_) => None,
                    },
                    store: store.clone(),
                    serving: match &bot {
                        Running::Gateway(_) => None,
                        Running::Http(b) => Some(b.serving()),
                    },
                };
                match metrics::serve(addr, probe).await {
                    Ok((bound, _)) => {
                        tracing::info!(%bound, "metrics on /metrics, probes on /healthz and /readyz")
                    }
                    Err(e) => {
                        eprintln!("saikoro: METRICS_ADDR {addr} cannot be served: {e}");
                        bot.shutdown().await;
                        store.close().await;
                        return ExitCode::from(2);
                    }
                }
            }
            match bot {
                Running::Gateway(b) => b.run_until_signal().await,
                Running::Http(b) => b.run_until_signal().await,
            }
        }
        Err(e) => Err(e),
    };
    store.close().await;
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::error!("stopped: {e}");
            eprintln!("saikoro: stopped: {e}");
            ExitCode::from(1)
        }
    }
}

/// The database may still be starting (docker compose): retry for a while before giving up.
/// The store, or the exit code and message: 2 for a setting that cannot work (a malformed
/// `DATABASE_URL`, as for every other configuration error), 1 for storage that cannot be opened
/// (an unwritable SQLite directory). A PostgreSQL server that is down is not an error: the bot
/// starts, serves what needs no storage, and connects when the server comes (`/readyz` says so).
async fn connect_store(config: &Config) -> Result<std::sync::Arc<dyn Store>, (u8, String)> {
    match store::connect_for_serving(config.database_url.as_deref(), &config.data_dir).await {
        Ok(s) => Ok(s),
        Err(StoreError::Unavailable(detail)) => Err((1, format!("the store cannot be opened: {detail}"))),
        Err(e) => Err((2, format!("the database cannot be used: {e}"))),
    }
}
