//! Logs on standard error: human-readable by default, one JSON object a line with
//! `LOG_FORMAT=json`. `RUST_LOG` overrides the level filter.
//!
//! What may be logged at info: ids, command names, guild/channel, latency, outcome. Never what a
//! user typed (a /roll expression, a stat line): that is debug only. And never a token, at any
//! level: every line passes through [`redact`] before it is written, which blanks interaction
//! and webhook tokens (anyone holding one may edit our replies for 15 minutes), `Bot …`
//! authorisation values and the bot token itself (see [`hide_secret`]).

use std::io::{self, Write};
use std::sync::{LazyLock, OnceLock};

use regex::Regex;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

use crate::config::LogFormat;

const HIDDEN: &str = "[redacted]";

/// The bot token, once known: replaced wherever it appears.
static SECRET: OnceLock<String> = OnceLock::new();

/// Token shapes as serenity and our own code print them: `token: "…"` (Debug), `"token":"…"`
/// (JSON), `/interactions/{id}/{token}` and `/webhooks/{id}/{token}` (routes and URLs), and an
/// `Authorization: Bot …` value.
static PATTERNS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    let p = |re: &str, with: &'static str| (Regex::new(re).expect("a valid pattern"), with);
    vec![
        p(r#"(token(?:\\)*"?\s*[:=]\s*(?:\\)*")[^"\\]+"#, "${1}[redacted]"),
        p(
            r"(/(?:interactions|webhooks)/\d+/)[A-Za-z0-9_.\-]+",
            "${1}[redacted]",
        ),
        p(r"(Bot )[A-Za-z0-9_.\-]{10,}", "${1}[redacted]"),
    ]
});

/// Tell the log which secret to hide (the bot token; a second call is ignored).
pub fn hide_secret(secret: &str) {
    if secret.len() >= 8 {
        let _ = SECRET.set(secret.to_string());
    }
}

/// `line` with every token blanked.
pub fn redact(line: &str) -> String {
    let mut out = line.to_string();
    if let Some(secret) = SECRET.get() {
        out = out.replace(secret.as_str(), HIDDEN);
    }
    for (re, with) in PATTERNS.iter() {
        if re.is_match(&out) {
            out = re.replace_all(&out, *with).into_owned();
        }
    }
    out
}

/// Standard error, each formatted event redacted on its way (the formatter writes an event in
/// one call).
struct Redacting;

impl Write for Redacting {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        io::stderr().write_all(redact(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()
    }
}

struct RedactingStderr;

impl<'a> MakeWriter<'a> for RedactingStderr {
    type Writer = Redacting;

    fn make_writer(&'a self) -> Self::Writer {
        Redacting
    }
}

/// Install the global subscriber (a second call is a no-op). `default` is the filter when
/// `RUST_LOG` is unset.
pub fn init(default: &str, format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(RedactingStderr);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_shape_is_blanked() {
        let debug = r#"Route::CreateInteractionResponse { interaction_id: InteractionId(1), token: "aW50ZXJhY3Rpb24" }"#;
        assert_eq!(
            redact(debug),
            r#"Route::CreateInteractionResponse { interaction_id: InteractionId(1), token: "[redacted]" }"#
        );
        let json = r#"{"id":"5","token":"aW50ZXJh.Y3Rpb24","type":2}"#;
        assert_eq!(redact(json), r#"{"id":"5","token":"[redacted]","type":2}"#);
        let escaped = r#"{"fields":"{\"token\":\"abc-def\"}"}"#;
        assert!(!redact(escaped).contains("abc-def"), "{}", redact(escaped));
        let twice = r#"{"message":"{\\\"token\\\":\\\"abc-def\\\"}"}"#;
        assert!(!redact(twice).contains("abc-def"), "{}", redact(twice));
        let url = "POST https://discord.com/api/v10/webhooks/1000/aW50ZXJhY3Rpb24/messages/@original";
        assert_eq!(
            redact(url),
            "POST https://discord.com/api/v10/webhooks/1000/[redacted]/messages/@original"
        );
        let url = "/api/v10/interactions/123/itoken-123/callback";
        assert_eq!(redact(url), "/api/v10/interactions/123/[redacted]/callback");
        assert_eq!(
            redact("Authorization: Bot ZmFrZQ.ZmFrZQ.abc"),
            "Authorization: Bot [redacted]"
        );
        assert_eq!(
            redact("nothing secret here: token count 3"),
            "nothing secret here: token count 3"
        );
    }
}
