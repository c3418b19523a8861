//! Which requests reach the bot: Discord's Ed25519 signature over timestamp + body (checked by
//! serenity's own `interactions_endpoint::Verifier`), a timestamp no older than
//! [`MAX_AGE`] (a captured request replayed later is refused though its signature is good), and
//! a body no larger than [`MAX_BODY`].

use std::time::{SystemTime, UNIX_EPOCH};

use serenity::interactions_endpoint::Verifier;

/// The largest body accepted. Discord's largest interactions (a command with resolved users,
/// roles, channels and attachments, or a press on a message of 10 embeds and 25 buttons) are
/// tens of kilobytes; 1 MiB is far above them and small enough that no flood of big bodies
/// costs memory.
pub const MAX_BODY: usize = 1024 * 1024;

/// How old (or how far ahead of our clock) a request's timestamp may be, in seconds. Discord
/// delivers within seconds; five minutes leaves room for clock skew.
pub const MAX_AGE: u64 = 300;

/// Why a request was refused (each is a 401; nothing runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    MissingHeaders,
    BadSignature,
    Stale,
}

/// The application's public key (`DISCORD_PUBLIC_KEY`, 64 hex digits), parsed without panicking
/// (`Verifier::new` panics on a bad key; this is checked at start-up instead).
pub fn verifier(public_key_hex: &str) -> Option<Verifier> {
    let hex = public_key_hex.trim();
    if hex.len() != 64 {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Verifier::try_new(key).ok()
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Check a request: the signature first (a forged request learns nothing about our clock), then
/// the timestamp's age.
pub fn check(
    verifier: &Verifier,
    signature: Option<&str>,
    timestamp: Option<&str>,
    body: &[u8],
) -> Result<(), Refusal> {
    check_at(verifier, signature, timestamp, body, now_secs())
}

fn check_at(
    verifier: &Verifier,
    signature: Option<&str>,
    timestamp: Option<&str>,
    body: &[u8],
    now: u64,
) -> Result<(), Refusal> {
    let (Some(signature), Some(timestamp)) = (signature, timestamp) else {
        return Err(Refusal::MissingHeaders);
    };
    verifier
        .verify(signature, timestamp, body)
        .map_err(|()| Refusal::BadSignature)?;
    let at: u64 = timestamp.trim().parse().map_err(|_| Refusal::Stale)?;
    if now.abs_diff(at) > MAX_AGE {
        return Err(Refusal::Stale);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use ed25519_dalek::{Signer, SigningKey};

    use super::*;

    fn key() -> SigningKey {
        SigningKey::from_bytes(&[7u8; 32])
    }

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn signed(ts: &str, body: &[u8]) -> String {
        hex(&key().sign(&[ts.as_bytes(), body].concat()).to_bytes())
    }

    #[test]
    fn a_good_signature_passes_and_anything_else_is_refused() {
        let v = verifier(&hex(key().verifying_key().as_bytes())).expect("key");
        let now = 1_800_000_000;
        let ts = now.to_string();
        let body = br#"{"type":1}"#;
        let sig = signed(&ts, body);
        assert_eq!(check_at(&v, Some(&sig), Some(&ts), body, now), Ok(()));
        // Another body, another timestamp, a broken signature, missing headers.
        assert_eq!(
            check_at(&v, Some(&sig), Some(&ts), br#"{"type":2}"#, now),
            Err(Refusal::BadSignature)
        );
        let other = (now + 1).to_string();
        assert_eq!(
            check_at(&v, Some(&sig), Some(&other), body, now),
            Err(Refusal::BadSignature)
        );
        assert_eq!(
            check_at(&v, Some("zz"), Some(&ts), body, now),
            Err(Refusal::BadSignature)
        );
        assert_eq!(
            check_at(&v, None, Some(&ts), body, now),
            Err(Refusal::MissingHeaders)
        );
        assert_eq!(
            check_at(&v, Some(&sig), None, body, now),
            Err(Refusal::MissingHeaders)
        );
    }

    #[test]
    fn a_replay_of_an_old_request_is_refused_though_signed() {
        let v = verifier(&hex(key().verifying_key().as_bytes())).expect("key");
        let now = 1_800_000_000;
        let old = (now - MAX_AGE - 1).to_string();
        let body = br#"{"type":1}"#;
        let sig = signed(&old, body);
        assert_eq!(
            check_at(&v, Some(&sig), Some(&old), body, now),
            Err(Refusal::Stale)
        );
        let edge = (now - MAX_AGE).to_string();
        let sig = signed(&edge, body);
        assert_eq!(check_at(&v, Some(&sig), Some(&edge), body, now), Ok(()));
    }

    #[test]
    fn a_malformed_public_key_is_none_not_a_panic() {
        assert!(verifier("").is_none());
        assert!(verifier("xyz").is_none());
        assert!(verifier(&"g".repeat(64)).is_none());
        assert!(verifier(&"ab".repeat(31)).is_none());
    }
}
