//! Configuration from the environment (and `.env`, read by `main` through dotenvy).
//!
//! Every problem is one line that says what to set; the token never appears in any output.

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
        "DISCORD_TOKEN is not set: create a bot in the Discord developer portal and put its token in the environment or .env (see README); to try every command offline with no token, run `saikoro console`"
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
}

/// Reads a variable: unset and empty are the same (an empty line in `.env` means "not set").
fn var(
    get: &dyn Fn(&str) -> Option<Result<String, ()>>,
    name: &'static str,
) -> Result<Option<String>, ConfigError> {
    match get(name) {
        None => Ok(None),
        Some(Err(())) => Err(ConfigError::NotUnicode(name)),
        Some(Ok(v)) => Ok(Some(v.trim().to_string()).filter(|v| !v.is_empty())),
    }
}

fn id(
    get: &dyn Fn(&str) -> Option<Result<String, ()>>,
    name: &'static str,
) -> Result<Option<u64>, ConfigError> {
    var(get, name)?
        .map(|v| {
            v.parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or(ConfigError::BadId { name, value: v })
        })
        .transpose()
}

impl Config {
    /// From the process environment.
    pub fn from_env() -> Result<Config, ConfigError> {
        Self::from_lookup(&|name| std::env::var_os(name).map(|v| v.into_string().map_err(|_| ())))
    }

    /// From any lookup (tests use a map).
    pub fn from_lookup(get: &dyn Fn(&str) -> Option<Result<String, ()>>) -> Result<Config, ConfigError> {
        let token = var(get, "DISCORD_TOKEN")?.ok_or(ConfigError::MissingToken)?;
        let token = token.strip_prefix("Bot ").unwrap_or(&token).to_string();
        if serenity::utils::token::validate(&token).is_err() {
            return Err(ConfigError::MalformedToken);
        }
        let database_url = var(get, "DATABASE_URL")?;
        if let Some(url) = &database_url
            && !(url.starts_with("postgres://") || url.starts_with("postgresql://"))
        {
            return Err(ConfigError::BadDatabaseUrl);
        }
        let proxy_url = var(get, "DISCORD_PROXY_URL")?;
        if let Some(url) = &proxy_url
            && !(url.starts_with("http://") || url.starts_with("https://"))
        {
            return Err(ConfigError::BadProxyUrl(url.clone()));
        }
        let sharding = sharding(get)?;
        let metrics_addr = var(get, "METRICS_ADDR")?
            .map(|v| {
                v.parse::<SocketAddr>()
                    .map_err(|_| ConfigError::BadMetricsAddr(v))
            })
            .transpose()?;
        let log_format = log_format(get)?;
        Ok(Config {
            sharding,
            metrics_addr,
            log_format,
            token: Token(token),
            database_url,
            data_dir: var(get, "SAIKORO_DATA_DIR")?.map_or_else(|| PathBuf::from("data"), PathBuf::from),
            dev_guild: id(get, "DEV_GUILD_ID")?,
            proxy_url: proxy_url.map(|u| u.trim_end_matches('/').to_string()),
        })
    }
}

/// `LOG_FORMAT` alone, so logging can start before the rest of the configuration is read.
pub fn log_format(get: &dyn Fn(&str) -> Option<Result<String, ()>>) -> Result<LogFormat, ConfigError> {
    match var(get, "LOG_FORMAT")?.map(|v| v.to_ascii_lowercase()) {
        None => Ok(LogFormat::Text),
        Some(v) if v == "text" => Ok(LogFormat::Text),
        Some(v) if v == "json" => Ok(LogFormat::Json),
        Some(v) => Err(ConfigError::BadLogFormat(v)),
    }
}

/// `LOG_FORMAT` from the process environment (`text` when unset or unreadable).
pub fn log_format_from_env() -> Result<LogFormat, ConfigError> {
    log_format(&|name| std::env::var_os(name).map(|v| v.into_string().map_err(|_| ())))
}

fn sharding(get: &dyn Fn(&str) -> Option<Result<String, ()>>) -> Result<Sharding, ConfigError> {
    let total = var(get, "SHARD_TOTAL")?
        .map(|v| {
            v.parse::<u32>()
                .ok()
                .filter(|t| (1..=65_535).contains(t))
                .ok_or(ConfigError::BadShardTotal(v))
        })
        .transpose()?;
    let range = var(get, "SHARD_RANGE")?;
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

    use super::*;

    const TOKEN: &str = "MTAw.abc.def";

    fn cfg(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup(&|name| map.get(name).cloned().map(Ok))
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
}
