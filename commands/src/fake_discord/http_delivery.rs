//! Interactions delivered the other way Discord delivers them: as signed HTTP POSTs to the bot's
//! interactions endpoint (`INTERACTIONS_LISTEN`), the first response read from the HTTP
//! response. The fake signs with a fixed test key ([`test_public_key`] is what the bot is given);
//! the response is checked against Discord's schema for interaction responses and recorded as a
//! callback, so waits and replies read the same in both modes.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::HeaderMap;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::Value;

use super::schema::Route;
use super::{FakeDiscord, ReplyEvent, State, lock};

/// The fake application's secret key: a fixed test key, public in this source, never a real one.
const TEST_SECRET: [u8; 32] = *b"saikoro fake discord test key!!!";

/// How long the fake waits for the bot's endpoint to answer (Discord gives up at 3 s; a test
/// sees a slow answer as such in its reply's events, not as a lost request).
const HTTP_TIMEOUT: Duration = Duration::from_secs(15);

fn key() -> SigningKey {
    SigningKey::from_bytes(&TEST_SECRET)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The application's public key as the developer portal shows it (`DISCORD_PUBLIC_KEY`).
pub fn test_public_key() -> String {
    hex(key().verifying_key().as_bytes())
}

/// The `X-Signature-Ed25519` of `body` sent at `timestamp`, made with the test key.
pub fn sign(timestamp: &str, body: &[u8]) -> String {
    hex(&key().sign(&[timestamp.as_bytes(), body].concat()).to_bytes())
}

/// Now, as Discord writes `X-Signature-Timestamp` (Unix seconds).
pub fn timestamp_now() -> String {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        .to_string()
}

/// Where interactions go: one endpoint, or several replicas behind the fake's own load
/// balancer (round-robin; a replica that refuses the connection or answers 503 — one that is
/// stopping — is skipped for the next, as a proxy with `proxy_next_upstream error http_503`
/// does, since neither has run anything).
pub(super) struct HttpTarget {
    urls: Vec<String>,
    next: AtomicUsize,
    client: reqwest::Client,
}

impl HttpTarget {
    /// The upstreams in the order this request tries them.
    fn rotation(&self) -> impl Iterator<Item = &str> {
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        let n = self.urls.len();
        (0..n).map(move |k| self.urls[(start + k) % n].as_str())
    }
}

impl FakeDiscord {
    /// From now on deliver interactions as signed POSTs to `url` (the bot's endpoint) instead
    /// of over the gateway.
    pub fn deliver_over_http(&self, url: &str) {
        self.balance_over_http(&[url.to_string()]);
    }

    /// From now on deliver interactions to these replicas in turn, skipping one that refuses
    /// (see [`HttpTarget`]). Called again with a new list, it swaps the upstreams as a load
    /// balancer's configuration reload does: requests already sent finish where they went.
    pub fn balance_over_http(&self, urls: &[String]) {
        let client = lock(&self.state.http)
            .as_ref()
            .map_or_else(reqwest::Client::new, |t| t.client.clone());
        *lock(&self.state.http) = Some(Arc::new(HttpTarget {
            urls: urls.to_vec(),
            next: AtomicUsize::new(0),
            client,
        }));
    }

    /// Requests a replica refused (503 or no connection) and the balancer sent on to another.
    pub fn http_retries(&self) -> u64 {
        self.state.http_retries.load(Ordering::Relaxed)
    }

    /// Whether interactions go over HTTP.
    pub fn over_http(&self) -> bool {
        lock(&self.state.http).is_some()
    }

    /// POST `body` to the endpoint with exactly these headers, outside the fake's records: the
    /// status and the response body (for tests of refused requests).
    pub async fn post_raw(
        &self,
        body: Vec<u8>,
        timestamp: Option<&str>,
        signature: Option<&str>,
    ) -> Result<(u16, String), String> {
        let target = lock(&self.state.http).clone().ok_or("not delivering over HTTP")?;
        let url = target.urls.first().ok_or("no endpoint")?;
        let mut req = target
            .client
            .post(url)
            .header("content-type", "application/json")
            .timeout(HTTP_TIMEOUT);
        if let Some(ts) = timestamp {
            req = req.header("x-signature-timestamp", ts);
        }
        if let Some(sig) = signature {
            req = req.header("x-signature-ed25519", sig);
        }
        let resp = req.body(body).send().await.map_err(|e| e.to_string())?;
        let status = resp.status().as_u16();
        Ok((status, resp.text().await.unwrap_or_default()))
    }
}

impl State {
    /// Send an interaction to the bot's endpoint (when delivering over HTTP): its response is
    /// recorded as the interaction's callback. `false` when delivering over the gateway.
    pub(super) fn post_interaction(self: &Arc<Self>, id: u64, interaction: &Value) -> bool {
        let Some(target) = lock(&self.http).clone() else {
            return false;
        };
        let token = interaction["token"].as_str().unwrap_or_default().to_string();
        lock(&self.http_in_flight).insert(token.clone());
        let body = interaction.to_string().into_bytes();
        let state = self.clone();
        tokio::spawn(async move {
            // Signed once, as Discord sends it; a balancer forwards the same request.
            let ts = timestamp_now();
            let sig = sign(&ts, &body);
            let mut sent = None;
            for url in target.rotation() {
                let attempt = target
                    .client
                    .post(url)
                    .header("content-type", "application/json")
                    .header("x-signature-timestamp", &ts)
                    .header("x-signature-ed25519", &sig)
                    .timeout(HTTP_TIMEOUT)
                    .body(body.clone())
                    .send()
                    .await;
                let refused = match &attempt {
                    Err(e) => e.is_connect(),
                    Ok(resp) => resp.status() == reqwest::StatusCode::SERVICE_UNAVAILABLE,
                };
                sent = Some(attempt);
                if !refused {
                    break;
                }
                state.http_retries.fetch_add(1, Ordering::Relaxed);
            }
            let Some(sent) = sent else {
                lock(&state.http_in_flight).remove(&token);
                state.refused(format!("interaction {id}: no endpoint to deliver it to"));
                state.notify();
                return;
            };
            match sent {
                Ok(resp) if resp.status().is_success() => {
                    let mut headers = HeaderMap::new();
                    if let Some(ct) = resp.headers().get("content-type") {
                        headers.insert("content-type", ct.clone());
                    }
                    let bytes = resp.bytes().await.unwrap_or_default();
                    // A body Discord would refuse is refused here as at the callback route.
                    if let Ok(v) = super::rest::json_body(&state, Route::Callback, &headers, &bytes) {
                        state.record(Some(id), None, ReplyEvent::Callback(v));
                    }
                }
                Ok(resp) => state.refused(format!(
                    "the bot's interactions endpoint answered interaction {id} with {}",
                    resp.status()
                )),
                Err(e) => state.refused(format!(
                    "the bot's interactions endpoint failed interaction {id}: {e}"
                )),
            }
            lock(&state.http_in_flight).remove(&token);
            state.notify();
        });
        true
    }

    /// A webhook request for an interaction whose HTTP response is still on its way waits for
    /// it: Discord knows the interaction as answered only once it has the response.
    pub(super) async fn settle(&self, token: &str) {
        let deadline = tokio::time::Instant::now() + HTTP_TIMEOUT;
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if !lock(&self.http_in_flight).contains(token) {
                return;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return;
            }
        }
    }
}
