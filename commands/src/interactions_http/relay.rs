//! The in-process relay the bot's REST client points at in HTTP mode.
//!
//! Over HTTP, Discord wants an interaction's first response as the HTTP response to its POST.
//! The bot (poise, our reply code, the button dispatcher) sends that response the gateway way,
//! through serenity's `Http` as `POST /interactions/{id}/{token}/callback`. Instead of teaching
//! every reply path a second way, `Http` is pointed at this relay (serenity's `proxy` setting,
//! as with a ratelimit proxy): a callback for an interaction the endpoint is holding is caught
//! and its body handed to the endpoint, which returns it to Discord; every other request goes on
//! to Discord (or to `DISCORD_PROXY_URL`) unchanged.
//!
//! - A callback with files (multipart) cannot be an HTTP response reliably (Discord refuses
//!   multipart there for some interactions and above ~100 kB): the endpoint answers with the
//!   matching deferral (type 5, private when the message is; type 6 for an update) and the relay
//!   sends the message as an edit of the original response, files and all.
//! - A callback that comes after the endpoint gave up waiting ([`super::endpoint`] defers on
//!   its own after [`super::endpoint::ANSWER_WITHIN`]) becomes that edit too; a late deferral is
//!   absorbed (Discord has one already); a late autocomplete answer is dropped (too late to show).
//! - The bot's later webhook requests for an interaction the endpoint is answering (a secret
//!   roll's channel notice, an edit) wait until the endpoint's response has been written, so
//!   they never reach Discord before the response they follow.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, post};
use serde_json::{Value, json};
use tokio::sync::{oneshot, watch};

use super::context::STUB_GATEWAY_PATH;

/// An interaction's first response as the bot sent it: the HTTP response's JSON body.
pub type Caught = Bytes;

/// How long a request the relay holds back (a webhook call waiting for the response it
/// follows) may wait.
const GATE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the relay remembers an interaction it deferred for the bot: Discord's token lives
/// 15 minutes.
const DEFERRED_FOR: Duration = Duration::from_secs(15 * 60);

struct Hold {
    token: String,
    /// Taken when the callback is caught.
    tx: Option<oneshot::Sender<Caught>>,
    /// Set once the endpoint's response is written.
    written: watch::Receiver<bool>,
}

/// What the endpoint answered for the bot when it gave up waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deferral {
    /// Type 5: a command's "thinking…".
    Message,
    /// Type 6: a press's quiet acknowledgement.
    Update,
}

#[derive(Default)]
struct Book {
    holds: HashMap<u64, Hold>,
    /// Interactions answered by a deferral: a late message becomes an edit.
    deferred: HashMap<u64, (String, Deferral, Instant)>,
    /// Held interactions by token (a webhook request names its interaction by token).
    by_token: HashMap<String, u64>,
}

pub struct Relay {
    /// `https://discord.com` or the ratelimit proxy, without a trailing slash.
    upstream: String,
    app_id: Mutex<Option<u64>>,
    client: reqwest::Client,
    book: Mutex<Book>,
}

/// The endpoint's side of a held interaction.
pub struct Held {
    pub id: u64,
    pub rx: oneshot::Receiver<Caught>,
    pub written: watch::Sender<bool>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Relay {
    pub fn new(upstream: Option<&str>) -> Arc<Relay> {
        Arc::new(Relay {
            upstream: upstream
                .unwrap_or("https://discord.com")
                .trim_end_matches('/')
                .to_string(),
            app_id: Mutex::new(None),
            client: reqwest::Client::new(),
            book: Mutex::default(),
        })
    }

    /// The application id (the edit of an original response is a webhook of the application).
    pub fn set_app_id(&self, id: u64) {
        *lock(&self.app_id) = Some(id);
    }

    /// Start holding interaction `id`: its callback is caught from now on.
    pub fn hold(&self, id: u64, token: &str) -> Held {
        let (tx, rx) = oneshot::channel();
        let (written, written_rx) = watch::channel(false);
        let mut book = lock(&self.book);
        book.holds.insert(
            id,
            Hold {
                token: token.to_string(),
                tx: Some(tx),
                written: written_rx,
            },
        );
        book.by_token.insert(token.to_string(), id);
        Held { id, rx, written }
    }

    /// The endpoint gives up waiting and answers with `deferral`: the bot's response, if it
    /// comes, becomes an edit. Returns a response caught in the meantime instead, if any.
    pub fn give_up(&self, held: &mut Held, deferral: Deferral) -> Option<Caught> {
        let mut book = lock(&self.book);
        if let Ok(caught) = held.rx.try_recv() {
            return Some(caught);
        }
        if let Some(hold) = book.holds.get_mut(&held.id) {
            hold.tx = None;
            let token = hold.token.clone();
            let now = Instant::now();
            book.deferred
                .retain(|_, (_, _, at)| now.duration_since(*at) < DEFERRED_FOR);
            book.deferred.insert(held.id, (token, deferral, now));
        }
        None
    }

    /// The endpoint's response for `id` is written (or abandoned): stop holding it.
    pub fn release(&self, held: &Held) {
        let _ = held.written.send(true);
        let mut book = lock(&self.book);
        if let Some(hold) = book.holds.remove(&held.id) {
            book.by_token.remove(&hold.token);
        }
    }

    pub fn router(self: &Arc<Self>) -> Router {
        Router::new()
            .route("/api/v10/interactions/{id}/{token}/callback", post(callback))
            .route(STUB_GATEWAY_PATH, any(stub_gateway))
            .fallback(forward_any)
            // The bot's own uploads (an export) are Discord's to limit, not ours.
            .layer(DefaultBodyLimit::disable())
            .with_state(self.clone())
    }

    /// Send a request on to Discord as the bot made it.
    async fn forward(&self, method: Method, uri: &Uri, headers: &HeaderMap, body: Bytes) -> Response {
        let path = uri.path_and_query().map_or(uri.path(), |p| p.as_str());
        let url = format!("{}{path}", self.upstream);
        let method = reqwest::Method::from_bytes(method.as_str().as_bytes()).unwrap_or(reqwest::Method::GET);
        let mut req = self.client.request(method, url).body(body);
        for (name, value) in headers {
            let n = name.as_str();
            if n != "host" && n != "content-length" && n != "connection" {
                req = req.header(n, value.as_bytes());
            }
        }
        match req.send().await {
            Ok(resp) => {
                let mut out = Response::builder().status(resp.status().as_u16());
                for (name, value) in resp.headers() {
                    let n = name.as_str();
                    if n != "content-length" && n != "transfer-encoding" && n != "connection" {
                        out = out.header(n, value.as_bytes());
                    }
                }
                let bytes = resp.bytes().await.unwrap_or_default();
                out.body(Body::from(bytes))
                    .unwrap_or_else(|_| StatusCode::BAD_GATEWAY.into_response())
            }
            Err(e) => {
                tracing::warn!("relay: Discord unreachable: {e}");
                StatusCode::BAD_GATEWAY.into_response()
            }
        }
    }

    /// A webhook request for an interaction whose response is being written waits for it.
    async fn gate(&self, uri: &Uri) {
        let mut segments = uri.path().trim_start_matches("/api/v10/").split('/');
        let (Some("webhooks"), Some(_app), Some(token)) = (segments.next(), segments.next(), segments.next())
        else {
            return;
        };
        let written = {
            let book = lock(&self.book);
            let Some(id) = book.by_token.get(token) else {
                return;
            };
            book.holds.get(id).map(|h| h.written.clone())
        };
        if let Some(mut w) = written {
            let _ = tokio::time::timeout(GATE_TIMEOUT, w.wait_for(|done| *done)).await;
        }
    }

    /// Send `message` (a callback's `data`, JSON or multipart) as an edit of the original
    /// response of `token`.
    async fn edit_original(
        &self,
        token: &str,
        headers: &HeaderMap,
        callback: &Bytes,
        data: Value,
    ) -> Response {
        self.as_webhook(
            Method::PATCH,
            "/messages/@original",
            token,
            headers,
            callback,
            data,
        )
        .await
    }

    /// Send `message` as a follow-up message of `token`.
    async fn followup(&self, token: &str, headers: &HeaderMap, callback: &Bytes, data: Value) -> Response {
        self.as_webhook(Method::POST, "", token, headers, callback, data)
            .await
    }

    async fn as_webhook(
        &self,
        method: Method,
        tail: &str,
        token: &str,
        headers: &HeaderMap,
        callback: &Bytes,
        data: Value,
    ) -> Response {
        let Some(app) = *lock(&self.app_id) else {
            return StatusCode::SERVICE_UNAVAILABLE.into_response();
        };
        let uri: Uri = match format!("/api/v10/webhooks/{app}/{token}{tail}").parse() {
            Ok(u) => u,
            Err(_) => return StatusCode::BAD_REQUEST.into_response(),
        };
        let body = match multipart_boundary(headers) {
            Some(boundary) => replace_payload_json(callback, &boundary, &data).unwrap_or_default(),
            None => Bytes::from(data.to_string()),
        };
        let resp = self.forward(method, &uri, headers, body).await;
        // serenity expects the callback's 204, not the webhook's message.
        if resp.status().is_success() {
            StatusCode::NO_CONTENT.into_response()
        } else {
            resp
        }
    }
}

fn multipart_boundary(headers: &HeaderMap) -> Option<String> {
    let ctype = headers.get("content-type")?.to_str().ok()?;
    crate::multipart::boundary(ctype).map(str::to_string)
}

/// The callback's JSON: from the body, or from the `payload_json` part of a multipart body.
fn callback_json(headers: &HeaderMap, body: &Bytes) -> Option<Value> {
    match multipart_boundary(headers) {
        Some(boundary) => serde_json::from_slice(&body[payload_json_span(body, &boundary)?]).ok(),
        None => serde_json::from_slice(body).ok(),
    }
}

/// Where the content of the `payload_json` part lies in a multipart body.
fn payload_json_span(body: &[u8], boundary: &str) -> Option<std::ops::Range<usize>> {
    crate::multipart::parts(body, boundary)
        .into_iter()
        .find(|p| p.is("payload_json"))
        .map(|p| p.content)
}

/// The multipart body with its `payload_json` replaced by `json` (the files stay as they are).
fn replace_payload_json(body: &Bytes, boundary: &str, json: &Value) -> Option<Bytes> {
    let span = payload_json_span(body, boundary)?;
    let mut out = Vec::with_capacity(body.len());
    out.extend_from_slice(&body[..span.start]);
    out.extend_from_slice(json.to_string().as_bytes());
    out.extend_from_slice(&body[span.end..]);
    Some(Bytes::from(out))
}

/// The deferral that stands for a callback: type 5 (private when the message is) for a message,
/// type 6 for an update of a pressed message.
pub fn deferral_for(callback: &Value) -> Value {
    match callback["type"].as_u64() {
        Some(7) => json!({ "type": 6 }),
        _ => {
            let private = callback["data"]["flags"].as_u64().unwrap_or(0) & 64;
            json!({ "type": 5, "data": { "flags": private } })
        }
    }
}

async fn callback(
    State(relay): State<Arc<Relay>>,
    Path((id, token)): Path<(u64, String)>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let multipart = multipart_boundary(&headers).is_some();
    // Held: hand the response to the endpoint.
    let held = {
        let mut book = lock(&relay.book);
        book.holds
            .get_mut(&id)
            .and_then(|h| Some((h.tx.take()?, h.written.clone())))
    };
    if let Some((tx, mut written)) = held {
        let Some(json) = callback_json(&headers, &body) else {
            return StatusCode::BAD_REQUEST.into_response();
        };
        let answer = if multipart {
            Bytes::from(deferral_for(&json).to_string())
        } else {
            body.clone()
        };
        if tx.send(answer).is_err() {
            // The endpoint gave up meanwhile: it deferred, so this is a late response.
            return late(&relay, id, &token, &headers, &body, json).await;
        }
        let _ = tokio::time::timeout(GATE_TIMEOUT, written.wait_for(|done| *done)).await;
        if multipart && matches!(json["type"].as_u64(), Some(4 | 7)) {
            return relay
                .edit_original(&token, &headers, &body, json["data"].clone())
                .await;
        }
        return StatusCode::NO_CONTENT.into_response();
    }
    let deferred = lock(&relay.book).deferred.contains_key(&id);
    if deferred && let Some(json) = callback_json(&headers, &body) {
        return late(&relay, id, &token, &headers, &body, json).await;
    }
    relay.forward(method, &uri, &headers, body).await
}

/// A response after the endpoint deferred for the bot, as the bot's own watchdog does it
/// (`buttons.rs`): after a "thinking…" a message fills it in; after a press's quiet
/// acknowledgement an update edits the pressed message and a new message follows up.
async fn late(
    relay: &Relay,
    id: u64,
    token: &str,
    headers: &HeaderMap,
    body: &Bytes,
    json: Value,
) -> Response {
    let deferral = lock(&relay.book).deferred.get(&id).map(|d| d.1);
    match (json["type"].as_u64(), deferral) {
        (Some(4), Some(Deferral::Update)) => {
            tracing::info!(interaction = id, "late response sent as a follow-up");
            relay.followup(token, headers, body, json["data"].clone()).await
        }
        (Some(4 | 7), _) => {
            tracing::info!(
                interaction = id,
                "late response sent as an edit of the deferred one"
            );
            relay
                .edit_original(token, headers, body, json["data"].clone())
                .await
        }
        (Some(5 | 6), _) => StatusCode::NO_CONTENT.into_response(),
        _ => {
            tracing::warn!(interaction = id, kind = ?json["type"], "late response dropped: Discord shows none this late");
            StatusCode::NO_CONTENT.into_response()
        }
    }
}

async fn forward_any(
    State(relay): State<Arc<Relay>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    relay.gate(&uri).await;
    relay.forward(method, &uri, &headers, body).await
}

/// The socket `context::build` opens: accepted, then closed (see `context.rs`).
async fn stub_gateway(ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(|socket| async move { drop(socket) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multipart_payload_is_replaced_and_the_files_kept() {
        let body = Bytes::from(
            "--XYZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"a.md\"\r\n\r\nhello\r\n--XYZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"type\":4,\"data\":{\"content\":\"x\"}}\r\n--XYZ--\r\n",
        );
        let mut headers = HeaderMap::new();
        headers.insert(
            "content-type",
            "multipart/form-data; boundary=XYZ".parse().unwrap(),
        );
        let json = callback_json(&headers, &body).unwrap();
        assert_eq!(json["type"], 4);
        let out = replace_payload_json(&body, "XYZ", &json["data"]).unwrap();
        let text = String::from_utf8(out.to_vec()).unwrap();
        assert!(text.contains("filename=\"a.md\"\r\n\r\nhello\r\n"), "{text}");
        assert!(text.contains("\r\n\r\n{\"content\":\"x\"}\r\n--XYZ--"), "{text}");
    }

    #[test]
    fn deferrals_keep_privacy_and_kind() {
        assert_eq!(
            deferral_for(&json!({"type":4,"data":{"flags":64}})),
            json!({"type":5,"data":{"flags":64}})
        );
        assert_eq!(
            deferral_for(&json!({"type":4,"data":{}})),
            json!({"type":5,"data":{"flags":0}})
        );
        assert_eq!(deferral_for(&json!({"type":7,"data":{}})), json!({"type":6}));
    }
}
