//! Configuration from the environment (and `.env`, read by `main` through dotenvy), declared once
//! as clap arguments ([`Settings`]): clap reads each variable and lists it, with its default, in
//! `saikoro --help`; [`Config::from_settings`] checks the values.
//!
//! Every problem is one line that says what to set; the token never appears in any output.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
/// The bot token, kept out of `Debug` and logs.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub token: Token,
    /// PostgreSQL URL; when unset the embedded SQLite file in `data_dir` is used.
    pub database_url: Option<String>,
    pub data_dir: PathBuf,
    /// Register commands in this guild only (instant) instead of globally (up to an hour).
    pub dev_guild: Option<u64>,
    /// REST through this base URL (an HTTP ratelimit proxy, or a fake Discord).
    pub proxy_url: Option<String>,
    /// Which gateway shards this process runs.
    pub sharding: Sharding,
    /// Serve Prometheus metrics and health probes here.
    pub metrics_addr: Option<SocketAddr>,
    pub log_format: LogFormat,
    /// Serve interactions over HTTP instead of the gateway (`INTERACTIONS_LISTEN`).
    pub interactions: Option<Interactions>,
}

/// HTTP interactions mode: where to listen, and the key Discord signs with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interactions {
    pub listen: SocketAddr,
    /// `DISCORD_PUBLIC_KEY`: 64 hex digits (checked).
    pub public_key: String,
    /// `INTERACTIONS_STOP_DELAY`: how long a stopping replica answers 503 before it closes.
    pub stop_delay: std::time::Duration,
}

/// Which gateway shards a process runs (`SHARD_TOTAL`, `SHARD_RANGE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sharding {
    /// As many shards as Discord recommends, all in this process.
    #[default]
    Auto,
    /// `SHARD_TOTAL` shards, all in this process.
    All { total: u32 },
    /// Shards `first..=last` of `total` (`SHARD_RANGE=first-last`); other processes run the rest.
    Range { first: u32, last: u32, total: u32 },
}

/// `LOG_FORMAT`: `text` (default, for people) or `json` (one object a line, for collectors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    #[default]
    Text,
    Json,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "DISCORD_TOKEN is not set: create a bot in the Discord developer portal and put its token in the environment or .env (see docs/operators.md); to try every command offline with no token, run `saikoro console`"
    )]
    MissingToken,
    #[error(
        "DISCORD_TOKEN is malformed: expected the bot token from the developer portal (three dot-separated parts)"
    )]
    MalformedToken,
    #[error("{name} must be a Discord id (a positive whole number), got {value:?}")]
    BadId { name: &'static str, value: String },
    #[error(
        "DATABASE_URL must start with postgres:// or postgresql:// (leave it unset for the embedded SQLite file)"
    )]
    BadDatabaseUrl,
    #[error("DISCORD_PROXY_URL must be an http:// or https:// URL, got {0:?}")]
    BadProxyUrl(String),
    #[error("{0} is set but is not valid unicode")]
    NotUnicode(&'static str),
    #[error("SHARD_TOTAL must be a whole number from 1 to 65535, got {0:?}")]
    BadShardTotal(String),
    #[error("SHARD_RANGE must be FIRST-LAST (inclusive, e.g. 0-3) within 0..SHARD_TOTAL-1, got {0:?}")]
    BadShardRange(String),
    #[error("SHARD_RANGE needs SHARD_TOTAL (how many shards all processes run together)")]
    ShardRangeWithoutTotal,
    #[error("METRICS_ADDR must be an address and port such as 127.0.0.1:9100, got {0:?}")]
    BadMetricsAddr(String),
    #[error("LOG_FORMAT must be `text` or `json`, got {0:?}")]
    BadLogFormat(String),
    #[error("INTERACTIONS_LISTEN must be an address and port such as 0.0.0.0:8080, got {0:?}")]
    BadInteractionsListen(String),
    #[error(
        "INTERACTIONS_LISTEN needs DISCORD_PUBLIC_KEY: the application's public key from the developer portal (General Information)"
    )]
    MissingPublicKey,
    #[error("DISCORD_PUBLIC_KEY must be the application's public key: 64 hex digits")]
    BadPublicKey,
    #[error(
        "INTERACTIONS_STOP_DELAY must be seconds from 0 to {max} (e.g. 2 or 0.5), got {value:?}",
        max = MAX_STOP_DELAY_SECONDS
    )]
    BadStopDelay { value: String },
    #[error("SHARD_TOTAL and SHARD_RANGE are gateway settings: leave them unset with INTERACTIONS_LISTEN")]
    ShardingOverHttp,
}

/// The longest `INTERACTIONS_STOP_DELAY` (a platform kills a process that takes much longer to
/// stop: Docker after 10 s, Kubernetes after 30 s).
const MAX_STOP_DELAY_SECONDS: f64 = 60.0;

/// Where the SQLite file lives when `SAIKORO_DATA_DIR` is unset (or empty).
const DEFAULT_DATA_DIR: &str = "data";

/// The bot's settings as clap reads them: each from its environment variable (or `.env`), or
/// the flag of the same name. Raw values: clap's own errors are several lines long and would
/// quote the token, so every check is [`Config::from_settings`]'s (with `OsString`, a value that
/// is not unicode reaches it too). `value_name` is the variable: `--help` then shows each one
/// once, in its own spelling.
#[derive(Clone, Default, clap::Args)]
pub struct Settings {
    /// The bot token from the Discord developer portal (Bot → Reset Token). Required to connect;
    /// `saikoro console` needs none. Prefer the environment: a flag is visible to other users
    #[arg(
        long,
        env = "DISCORD_TOKEN",
        value_name = "DISCORD_TOKEN",
        hide_env_values = true
    )]
    pub discord_token: Option<OsString>,
    /// PostgreSQL (`postgres://…`) for sessions and settings. Unset: an embedded SQLite file in
    /// SAIKORO_DATA_DIR
    #[arg(
        long,
        env = "DATABASE_URL",
        value_name = "DATABASE_URL",
        hide_env_values = true
    )]
    pub database_url: Option<OsString>,
    /// Where the embedded SQLite file lives
    #[arg(long, env = "SAIKORO_DATA_DIR", value_name = "SAIKORO_DATA_DIR", default_value = DEFAULT_DATA_DIR)]
    pub data_dir: Option<OsString>,
    /// Register commands in this one server (its id), instantly. Unset: globally (up to an hour)
    #[arg(long, env = "DEV_GUILD_ID", value_name = "DEV_GUILD_ID")]
    pub dev_guild_id: Option<OsString>,
    /// Send REST through this http(s):// base URL (an HTTP ratelimit proxy); the local
    /// ratelimiter is then off. Unset: Discord itself
    #[arg(long, env = "DISCORD_PROXY_URL", value_name = "DISCORD_PROXY_URL")]
    pub discord_proxy_url: Option<OsString>,
    /// How many shards all processes run together (1 to 65535). Unset: as many as Discord
    /// recommends, all in this process
    #[arg(long, env = "SHARD_TOTAL", value_name = "SHARD_TOTAL")]
    pub shard_total: Option<OsString>,
    /// The shards this process runs, FIRST-LAST inclusive (e.g. 0-3) of SHARD_TOTAL. Unset: all
    #[arg(long, env = "SHARD_RANGE", value_name = "SHARD_RANGE")]
    pub shard_range: Option<OsString>,
    /// Serve Prometheus /metrics, /healthz and /readyz on this address (e.g. 127.0.0.1:9100).
    /// Unset: not served
    #[arg(long, env = "METRICS_ADDR", value_name = "METRICS_ADDR")]
    pub metrics_addr: Option<OsString>,
    /// Log format: `text` (for people) or `json` (one object a line, for collectors)
    #[arg(long, env = "LOG_FORMAT", value_name = "LOG_FORMAT", default_value = "text")]
    pub log_format: Option<OsString>,
    /// Serve interactions over HTTP on this address (e.g. 0.0.0.0:8080, path /interactions)
    /// instead of the gateway; needs DISCORD_PUBLIC_KEY. Unset: the gateway
    #[arg(long, env = "INTERACTIONS_LISTEN", value_name = "INTERACTIONS_LISTEN")]
    pub interactions_listen: Option<OsString>,
    /// The application's public key (developer portal, General Information), which Discord's
    /// interaction requests are signed for. Needed with INTERACTIONS_LISTEN
    #[arg(long, env = "DISCORD_PUBLIC_KEY", value_name = "DISCORD_PUBLIC_KEY")]
    pub discord_public_key: Option<OsString>,
    /// Seconds a stopping HTTP replica keeps answering 503 (and /readyz unready) before it
    /// closes its listener, for the load balancer to take it out of its list. Default 2
    #[arg(long, env = "INTERACTIONS_STOP_DELAY", value_name = "INTERACTIONS_STOP_DELAY")]
    pub interactions_stop_delay: Option<OsString>,
}

/// A value: unset and empty are the same (an empty line in `.env` means "not set").
fn var(name: &'static str, value: Option<&OsStr>) -> Result<Option<String>, ConfigError> {
    match value.map(OsStr::to_str) {
        None => Ok(None),
        Some(None) => Err(ConfigError::NotUnicode(name)),
        Some(Some(v)) => Ok(Some(v.trim().to_string()).filter(|v| !v.is_empty())),
    }
}

fn id(name: &'static str, value: Option<&OsStr>) -> Result<Option<u64>, ConfigError> {
    var(name, value)?
        .map(|v| {
            v.parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or(ConfigError::BadId { name, value: v })
        })
        .transpose()
}

impl Config {
    /// Checks what clap read.
    pub fn from_settings(s: &Settings) -> Result<Config, ConfigError> {
        let token = var("DISCORD_TOKEN", s.discord_token.as_deref())?.ok_or(ConfigError::MissingToken)?;
        let token = token.strip_prefix("Bot ").unwrap_or(&token).to_string();
        if serenity::utils::token::validate(&token).is_err() {
            return Err(ConfigError::MalformedToken);
        }
        let database_url = var("DATABASE_URL", s.database_url.as_deref())?;
        if let Some(url) = &database_url
            && !(url.starts_with("postgres://") || url.starts_with("postgresql://"))
        {
            return Err(ConfigError::BadDatabaseUrl);
        }
        let proxy_url = var("DISCORD_PROXY_URL", s.discord_proxy_url.as_deref())?;
        if let Some(url) = &proxy_url
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            return Err(ConfigError::BadProxyUrl(url.clone()));
        }
        let sharding = sharding(s)?;
        let metrics_addr = var("METRICS_ADDR", s.metrics_addr.as_deref())?
            .map(|v| {
                v.parse::<SocketAddr>()
                    .map_err(|_| ConfigError::BadMetricsAddr(v))
            })
            .transpose()?;
        let log_format = log_format(s.log_format.as_deref())?;
        let data_dir = var("SAIKORO_DATA_DIR", s.data_dir.as_deref())?;
        let interactions = interactions(s)?;
        if interactions.is_some() && sharding != Sharding::Auto {
            return Err(ConfigError::ShardingOverHttp);
        }
        Ok(Config {
            interactions,
            sharding,
            metrics_addr,
            log_format,
            token: Token(token),
            database_url,
            data_dir: PathBuf::from(data_dir.as_deref().unwrap_or(DEFAULT_DATA_DIR)),
            dev_guild: id("DEV_GUILD_ID", s.dev_guild_id.as_deref())?,
            proxy_url: proxy_url.map(|u| u.trim_end_matches('/').to_string()),
        })
    }
}

fn interactions(s: &Settings) -> Result<Option<Interactions>, ConfigError> {
    let Some(listen) = var("INTERACTIONS_LISTEN", s.interactions_listen.as_deref())? else {
        return Ok(None);
    };
    let listen = listen
        .parse::<SocketAddr>()
        .map_err(|_| ConfigError::BadInteractionsListen(listen))?;
    let key =
        var("DISCORD_PUBLIC_KEY", s.discord_public_key.as_deref())?.ok_or(ConfigError::MissingPublicKey)?;
    if crate::interactions_http::verify::verifier(&key).is_none() {
        return Err(ConfigError::BadPublicKey);
    }
    let stop_delay = match var("INTERACTIONS_STOP_DELAY", s.interactions_stop_delay.as_deref())? {
        None => crate::interactions_http::DEFAULT_STOP_DELAY,
        Some(v) => v
            .parse::<f64>()
            .ok()
            .filter(|d| (0.0..=MAX_STOP_DELAY_SECONDS).contains(d))
            .map(std::time::Duration::from_secs_f64)
            .ok_or(ConfigError::BadStopDelay { value: v })?,
    };
    Ok(Some(Interactions {
        listen,
        public_key: key,
        stop_delay,
    }))
}

/// A `LOG_FORMAT` value (`text` when unset).
pub fn log_format(value: Option<&OsStr>) -> Result<LogFormat, ConfigError> {
    match var("LOG_FORMAT", value)?.map(|v| v.to_ascii_lowercase()) {
        None => Ok(LogFormat::Text),
        Some(v) if v == "text" => Ok(LogFormat::Text),
        Some(v) if v == "json" => Ok(LogFormat::Json),
        Some(v) => Err(ConfigError::BadLogFormat(v)),
    }
}

/// `LOG_FORMAT` from the process environment alone, so the console and the load test (which
/// read no other setting) log in it too.
pub fn log_format_from_env() -> Result<LogFormat, ConfigError> {
    log_format(std::env::var_os("LOG_FORMAT").as_deref())
}

fn sharding(s: &Settings) -> Result<Sharding, ConfigError> {
    let total = var("SHARD_TOTAL", s.shard_total.as_deref())?
        .map(|v| {
            v.parse::<u32>()
                .ok()
                .filter(|t| (1..=65_535).contains(t))
                .ok_or(ConfigError::BadShardTotal(v))
        })
        .transpose()?;
    let range = var("SHARD_RANGE", s.shard_range.as_deref())?;
    match (total, range) {
        (None, None) => Ok(Sharding::Auto),
        (None, Some(_)) => Err(ConfigError::ShardRangeWithoutTotal),
        (Some(total), None) => Ok(Sharding::All { total }),
        (Some(total), Some(r)) => {
            let parsed = match r.split_once('-') {
                Some((a, b)) => a.trim().parse::<u32>().ok().zip(b.trim().parse::<u32>().ok()),
                // A single shard: `SHARD_RANGE=2`.
                None => r.parse::<u32>().ok().map(|n| (n, n)),
            };
            match parsed {
                Some((first, last)) if first <= last && last < total => {
                    Ok(Sharding::Range { first, last, total })
                }
                _ => Err(ConfigError::BadShardRange(r)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::time::Duration;

    use clap::{Args, FromArgMatches};

    use super::*;

    const TOKEN: &str = "MTAw.abc.def";

    /// The settings clap reads when the environment holds exactly `vars`: each variable is
    /// given as its flag, and the process environment is not read.
    fn settings(vars: &[(&str, OsString)]) -> Settings {
        let declared = Settings::augment_args(clap::Command::new("saikoro"));
        let flags: HashMap<String, String> = declared
            .get_arguments()
            .filter_map(|a| Some((a.get_env()?.to_str()?.to_string(), a.get_long()?.to_string())))
            .collect();
        let mut args = vec![OsString::from("saikoro")];
        for (name, value) in vars {
            let flag = flags
                .get(*name)
                .unwrap_or_else(|| panic!("no setting reads {name}"));
            // `--flag=VALUE`: a value may start with `-` (`SHARD_TOTAL=-1`).
            let mut arg = OsString::from(format!("--{flag}="));
            arg.push(value);
            args.push(arg);
        }
        let matches = declared
            .mut_args(|a| a.env(None::<&'static str>))
            .try_get_matches_from(args)
            .expect("clap accepts any value");
        Settings::from_arg_matches(&matches).expect("settings")
    }

    fn cfg(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let vars: Vec<(&str, OsString)> = vars.iter().map(|(k, v)| (*k, OsString::from(v))).collect();
        Config::from_settings(&settings(&vars))
    }

    #[test]
    fn http_mode_needs_an_address_and_the_public_key() {
        // A key must be a point of the curve: the fake Discord's test key is one.
        let key = crate::fake_discord::test_public_key();
        let c = cfg(&[("DISCORD_TOKEN", TOKEN)]).unwrap();
        assert_eq!(c.interactions, None);
        let c = cfg(&[
            ("DISCORD_TOKEN", TOKEN),
            ("INTERACTIONS_LISTEN", "0.0.0.0:8080"),
            ("DISCORD_PUBLIC_KEY", &key),
        ])
        .unwrap();
        let i = c.interactions.expect("HTTP mode");
        assert_eq!(i.listen, "0.0.0.0:8080".parse().unwrap());
        assert_eq!(i.public_key, key);
        assert_eq!(
            cfg(&[("DISCORD_TOKEN", TOKEN), ("INTERACTIONS_LISTEN", "0.0.0.0:8080")]),
            Err(ConfigError::MissingPublicKey)
        );
        assert_eq!(
            cfg(&[
                ("DISCORD_TOKEN", TOKEN),
                ("INTERACTIONS_LISTEN", "8080"),
                ("DISCORD_PUBLIC_KEY", &key)
            ]),
            Err(ConfigError::BadInteractionsListen("8080".into()))
        );
        assert_eq!(
            cfg(&[
                ("DISCORD_TOKEN", TOKEN),
                ("INTERACTIONS_LISTEN", "0.0.0.0:8080"),
                ("DISCORD_PUBLIC_KEY", "not-hex")
            ]),
            Err(ConfigError::BadPublicKey)
        );
        assert_eq!(
            cfg(&[
                ("DISCORD_TOKEN", TOKEN),
                ("INTERACTIONS_LISTEN", "0.0.0.0:8080"),
                ("DISCORD_PUBLIC_KEY", &key),
                ("SHARD_TOTAL", "2")
            ]),
            Err(ConfigError::ShardingOverHttp)
        );
    }

    #[test]
    fn a_stopping_replica_waits_as_long_as_it_is_told() {
        let key = crate::fake_discord::test_public_key();
        let with = |delay: Option<&str>| {
            let mut vars = vec![
                ("DISCORD_TOKEN", TOKEN),
                ("INTERACTIONS_LISTEN", "0.0.0.0:8080"),
                ("DISCORD_PUBLIC_KEY", key.as_str()),
            ];
            vars.extend(delay.map(|d| ("INTERACTIONS_STOP_DELAY", d)));
            cfg(&vars).map(|c| c.interactions.expect("HTTP mode").stop_delay)
        };
        assert_eq!(with(None), Ok(crate::interactions_http::DEFAULT_STOP_DELAY));
        assert_eq!(with(Some("")), Ok(crate::interactions_http::DEFAULT_STOP_DELAY));
        assert_eq!(with(Some("0")), Ok(Duration::ZERO));
        assert_eq!(with(Some("0.5")), Ok(Duration::from_millis(500)));
        assert_eq!(with(Some("60")), Ok(Duration::from_secs(60)));
        for bad in ["60.5", "-1", "2s", "NaN", "inf"] {
            assert_eq!(
                with(Some(bad)),
                Err(ConfigError::BadStopDelay { value: bad.into() }),
                "{bad}"
            );
        }
    }

    #[test]
    fn token_is_required_and_checked() {
        assert_eq!(cfg(&[]), Err(ConfigError::MissingToken));
        assert_eq!(cfg(&[("DISCORD_TOKEN", "  ")]), Err(ConfigError::MissingToken));
        assert_eq!(
            cfg(&[("DISCORD_TOKEN", "nodots")]),
            Err(ConfigError::MalformedToken)
        );
        let c = cfg(&[("DISCORD_TOKEN", TOKEN)]).unwrap();
        assert_eq!(c.token.expose(), TOKEN);
        assert_eq!(c.database_url, None);
        assert_eq!(c.dev_guild, None);
        assert_eq!(c.data_dir, PathBuf::from("data"));
    }

    #[test]
    fn the_token_never_shows_in_debug_or_errors() {
        let c = cfg(&[("DISCORD_TOKEN", TOKEN)]).unwrap();
        assert!(!format!("{c:?}").contains("abc"));
        let e = cfg(&[("DISCORD_TOKEN", "secret-no-dots")]).unwrap_err();
        assert!(!e.to_string().contains("secret"));
    }

    #[test]
    fn malformed_values_are_one_clear_line() {
        let e = cfg(&[("DISCORD_TOKEN", TOKEN), ("DEV_GUILD_ID", "abc")]).unwrap_err();
        assert_eq!(
            e,
            ConfigError::BadId {
                name: "DEV_GUILD_ID",
                value: "abc".into()
            }
        );
        assert!(!e.to_string().contains('\n'));
        let e = cfg(&[("DISCORD_TOKEN", TOKEN), ("DATABASE_URL", "mysql://x")]).unwrap_err();
        assert_eq!(e, ConfigError::BadDatabaseUrl);
        let e = cfg(&[("DISCORD_TOKEN", TOKEN), ("DISCORD_PROXY_URL", "ftp://x")]).unwrap_err();
        assert!(matches!(e, ConfigError::BadProxyUrl(_)));
    }

    #[test]
    fn optional_values_are_read() {
        let c = cfg(&[
            ("DISCORD_TOKEN", &format!("Bot {TOKEN}")),
            ("DATABASE_URL", "postgres://localhost/saikoro"),
            ("DEV_GUILD_ID", "123"),
            ("DISCORD_PROXY_URL", "http://127.0.0.1:8080/"),
            ("SAIKORO_DATA_DIR", "/var/lib/saikoro"),
        ])
        .unwrap();
        assert_eq!(c.token.expose(), TOKEN);
        assert_eq!(c.database_url.as_deref(), Some("postgres://localhost/saikoro"));
        assert_eq!(c.dev_guild, Some(123));
        assert_eq!(c.proxy_url.as_deref(), Some("http://127.0.0.1:8080"));
        assert_eq!(c.data_dir, PathBuf::from("/var/lib/saikoro"));
        assert_eq!(c.sharding, Sharding::Auto);
        assert_eq!(c.metrics_addr, None);
        assert_eq!(c.log_format, LogFormat::Text);
    }

    #[test]
    fn sharding_is_automatic_unless_told() {
        let c = cfg(&[("DISCORD_TOKEN", TOKEN), ("SHARD_TOTAL", "4")]).unwrap();
        assert_eq!(c.sharding, Sharding::All { total: 4 });
        let c = cfg(&[
            ("DISCORD_TOKEN", TOKEN),
            ("SHARD_TOTAL", "8"),
            ("SHARD_RANGE", "4-7"),
        ])
        .unwrap();
        assert_eq!(
            c.sharding,
            Sharding::Range {
                first: 4,
                last: 7,
                total: 8
            }
        );
        let c = cfg(&[
            ("DISCORD_TOKEN", TOKEN),
            ("SHARD_TOTAL", "2"),
            ("SHARD_RANGE", " 1 "),
        ])
        .unwrap();
        assert_eq!(
            c.sharding,
            Sharding::Range {
                first: 1,
                last: 1,
                total: 2
            }
        );
    }

    #[test]
    fn bad_sharding_is_one_clear_line() {
        for total in ["0", "-1", "x", "70000"] {
            let e = cfg(&[("DISCORD_TOKEN", TOKEN), ("SHARD_TOTAL", total)]).unwrap_err();
            assert_eq!(e, ConfigError::BadShardTotal(total.into()));
        }
        for range in ["3-1", "0-4", "4", "a-b", "1-", "-2", "0..3"] {
            let e = cfg(&[
                ("DISCORD_TOKEN", TOKEN),
                ("SHARD_TOTAL", "4"),
                ("SHARD_RANGE", range),
            ])
            .unwrap_err();
            assert_eq!(e, ConfigError::BadShardRange(range.into()), "{range}");
            assert!(!e.to_string().contains('\n'));
        }
        let e = cfg(&[("DISCORD_TOKEN", TOKEN), ("SHARD_RANGE", "0-1")]).unwrap_err();
        assert_eq!(e, ConfigError::ShardRangeWithoutTotal);
    }

    #[test]
    fn metrics_address_and_log_format() {
        let c = cfg(&[
            ("DISCORD_TOKEN", TOKEN),
            ("METRICS_ADDR", "127.0.0.1:9100"),
            ("LOG_FORMAT", "JSON"),
        ])
        .unwrap();
        assert_eq!(c.metrics_addr, Some("127.0.0.1:9100".parse().unwrap()));
        assert_eq!(c.log_format, LogFormat::Json);
        let e = cfg(&[("DISCORD_TOKEN", TOKEN), ("METRICS_ADDR", "9100")]).unwrap_err();
        assert_eq!(e, ConfigError::BadMetricsAddr("9100".into()));
        let e = cfg(&[("DISCORD_TOKEN", TOKEN), ("LOG_FORMAT", "xml")]).unwrap_err();
        assert_eq!(e, ConfigError::BadLogFormat("xml".into()));
    }

    #[test]
    fn a_value_that_is_not_unicode_is_named() {
        use std::os::unix::ffi::OsStringExt;
        let bad = OsString::from_vec(vec![0x66, 0xff, 0x6f]);
        let e = Config::from_settings(&settings(&[
            ("DISCORD_TOKEN", TOKEN.into()),
            ("SHARD_RANGE", bad),
        ]))
        .unwrap_err();
        assert_eq!(e, ConfigError::NotUnicode("SHARD_RANGE"));
    }

    /// Every variable the bot reads, as `--help` must list it.
    const VARIABLES: [&str; 12] = [
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "SAIKORO_DATA_DIR",
        "DEV_GUILD_ID",
        "DISCORD_PROXY_URL",
        "SHARD_TOTAL",
        "SHARD_RANGE",
        "METRICS_ADDR",
        "LOG_FORMAT",
        "INTERACTIONS_LISTEN",
        "DISCORD_PUBLIC_KEY",
        "INTERACTIONS_STOP_DELAY",
    ];

    #[test]
    fn help_lists_every_variable_and_its_default() {
        let help = Settings::augment_args(clap::Command::new("saikoro"))
            .render_long_help()
            .to_string();
        for name in VARIABLES {
            assert!(help.contains(&format!("[env: {name}")), "{name} in:\n{help}");
        }
        assert!(help.contains("[default: data]"), "{help}");
        assert!(help.contains("[default: text]"), "{help}");
        // No more settings than those: a new one is added to this list (and docs/operators.md) too.
        let declared = Settings::augment_args(clap::Command::new("saikoro"))
            .get_arguments()
            .filter(|a| a.get_env().is_some())
            .count();
        assert_eq!(declared, VARIABLES.len());
    }

    #[test]
    fn help_never_shows_the_token_or_the_database_password() {
        let cmd = Settings::augment_args(clap::Command::new("saikoro"));
        for name in ["DISCORD_TOKEN", "DATABASE_URL"] {
            let arg = cmd
                .get_arguments()
                .find(|a| a.get_env().and_then(OsStr::to_str) == Some(name))
                .unwrap();
            assert!(arg.is_hide_env_values_set(), "{name}");
        }
    }
}
