//! Logs on standard error: human-readable by default, one JSON object a line with
//! `LOG_FORMAT=json`. `RUST_LOG` overrides the level filter.
//!
//! What may be logged at info: ids, command names, guild/channel, latency, outcome. Never a
//! token, never what a user typed (a /roll expression, a stat line): that is debug only.

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Install the global subscriber (a second call is a no-op). `default` is the filter when
/// `RUST_LOG` is unset.
pub fn init(default: &str, format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .try_init(),
    };
}
