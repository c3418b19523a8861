//! The REST routes serenity and poise call, under `/api/v10`.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::{Path, State as AxState};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use serde_json::{Value, json};

use super::schema::{self, Route};
use super::{ReplyEvent, State, lock, payloads};

type St = AxState<Arc<State>>;

pub(super) fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/api/v10/gateway", get(gateway))
        .route("/api/v10/gateway/bot", get(gateway_bot))
        .route("/api/v10/oauth2/applications/@me", get(application))
        .route("/api/v10/applications/@me", get(application))
        .route("/api/v10/users/@me", get(current_user))
        .route("/api/v10/users/@me/channels", post(open_dm))
        .route("/api/v10/users/@me/guilds", get(my_guilds))
        .route("/api/v10/channels/{channel}/messages", post(channel_message))
        .route(
            "/api/v10/applications/{app}/commands",
            put(put_global).get(get_global),
        )
        .route(
            "/api/v10/applications/{app}/guilds/{guild}/commands",
            put(put_guild).get(get_guild),
        )
        .route("/api/v10/interactions/{id}/{token}/callback", post(callback))
        .route("/api/v10/webhooks/{app}/{token}", post(followup))
        .route(
            "/api/v10/webhooks/{app}/{token}/messages/@original",
            get(get_original).patch(edit_original).delete(delete_original),
        )
        .fallback(fallback)
        // Discord's limits, not the web framework's 2 MB: what a request may carry is checked
        // in `json_body` against the upload limit the bot is told (`attachment_size_limit`).
        .layer(DefaultBodyLimit::max(REQUEST_CAP))
        .with_state(state)
}

/// Past this the fake stops reading a body at all (a runaway request, not a Discord rule).
const REQUEST_CAP: usize = 256 << 20;

fn ws_url(state: &State) -> String {
    lock(&state.base_url).replace("http://", "ws://")
}

async fn gateway(AxState(s): St) -> Response {
    axum::Json(json!({ "url": ws_url(&s) })).into_response()
}

async fn gateway_bot(AxState(s): St) -> Response {
    axum::Json(json!({
        "url": ws_url(&s),
        "shards": s.shard_count,
        "session_start_limit": { "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1 },
    }))
    .into_response()
}

async fn application(AxState(s): St) -> Response {
    axum::Json(payloads::application(&s.bot, s.app_id)).into_response()
}

async fn current_user(AxState(s): St) -> Response {
    axum::Json(payloads::user(&s.bot)).into_response()
}

/// `GET /users/@me/guilds`: how a bot without a gateway learns its servers (one page: the fake's
/// servers are few).
async fn my_guilds(AxState(s): St) -> Response {
    let guilds: Vec<Value> = s
        .guilds
        .iter()
        .map(|g| {
            json!({
                "id": g.to_string(), "name": format!("Server {g}"), "icon": null, "owner": false,
                "permissions": "0", "features": [],
            })
        })
        .collect();
    axum::Json(guilds).into_response()
}

/// A body that must be JSON (serenity sends multipart only with attachments) and fit the schema
/// Discord publishes for `route`; a body that does not is refused as Discord would, and kept
/// for the test to fail on. The error is the response to send back as is, so its size is of no
/// concern.
#[allow(clippy::result_large_err)]
pub(super) fn json_body(
    s: &State,
    route: Route,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<Value, Response> {
    let ctype = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let (payload, files) = if ctype.starts_with("multipart/") {
        let (payload, files) =
            multipart_payload(ctype, body).ok_or_else(|| bad_request("unreadable multipart body"))?;
        // Discord refuses a message whose files together pass the server's upload limit.
        let limit = s.attachment_size_limit.load(std::sync::atomic::Ordering::SeqCst);
        let bytes: u64 = files
            .iter()
            .flatten()
            .map(|f| f["content"].as_str().map_or(0, |c| c.len() as u64))
            .sum();
        if bytes > limit {
            s.refused(format!(
                "{}: files of {bytes} bytes over the {limit}-byte limit",
                route.key()
            ));
            return Err(too_large());
        }
        (payload, files)
    } else {
        let v = serde_json::from_slice(body).map_err(|e| bad_request(&format!("invalid JSON: {e}")))?;
        (v, None)
    };
    if let Err(why) = schema::check_all(route, &payload) {
        s.refused(format!("{}: {}", route.key(), why.join("; ")));
        return Err(invalid_form_body(&why));
    }
    let mut payload = payload;
    if let Some(mut files) = files {
        if !s.keep_files {
            for f in &mut files {
                let size = f["content"].as_str().map_or(0, str::len);
                f["size"] = json!(size);
                f["content"] = json!("");
                f["base64"] = json!("");
            }
        }
        payload["files"] = Value::Array(files);
    }
    Ok(payload)
}

/// The `payload_json` part of a multipart body, and the files' names and contents (kept under
/// `"files"` so a test can see what was attached): `content` as text, and `base64` the exact
/// bytes (a PNG is no text), read from the body's bytes, never through a lossy string.
fn multipart_payload(ctype: &str, body: &Bytes) -> Option<(Value, Option<Vec<Value>>)> {
    use base64::Engine as _;
    let boundary = crate::multipart::boundary(ctype)?;
    let mut payload = None;
    let mut files = Vec::new();
    for part in crate::multipart::parts(body, boundary) {
        let content = &body[part.content.clone()];
        if part.is("payload_json") {
            payload = serde_json::from_slice::<Value>(content).ok();
        } else if let Some(name) = part.filename() {
            files.push(json!({
                "filename": name,
                "content": String::from_utf8_lossy(content),
                "base64": base64::engine::general_purpose::STANDARD.encode(content),
            }));
        }
    }
    Some((payload?, Some(files)))
}

/// Discord's answer to files over the upload limit.
fn too_large() -> Response {
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        axum::Json(json!({ "message": "Request entity too large", "code": 40005 })),
    )
        .into_response()
}

/// Discord's answer to a body that breaks its schema.
fn invalid_form_body(why: &[String]) -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::Json(json!({ "message": "Invalid Form Body", "code": 50035, "errors": why })),
    )
        .into_response()
}

fn bad_request(msg: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::Json(json!({ "message": msg, "code": 50035 })),
    )
        .into_response()
}

/// The error Discord gives a registration it refuses (e.g. a command over its limits).
fn refused_registration() -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::Json(json!({ "message": "Invalid Form Body", "code": 50035, "errors": {} })),
    )
        .into_response()
}

async fn put_global(AxState(s): St, headers: HeaderMap, body: Bytes) -> Response {
    if s.fail_command_puts.load(std::sync::atomic::Ordering::SeqCst) {
        return refused_registration();
    }
    match json_body(&s, Route::GlobalCommands, &headers, &body) {
        Ok(Value::Array(cmds)) => axum::Json(s.set_commands(None, cmds)).into_response(),
        Ok(_) => bad_request("expected an array of commands"),
        Err(r) => r,
    }
}

async fn get_global(AxState(s): St) -> Response {
    axum::Json(s.commands(None)).into_response()
}

async fn put_guild(
    AxState(s): St,
    Path((_app, guild)): Path<(String, u64)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if s.fail_command_puts.load(std::sync::atomic::Ordering::SeqCst) {
        return refused_registration();
    }
    match json_body(&s, Route::GuildCommands, &headers, &body) {
        Ok(Value::Array(cmds)) => axum::Json(s.set_commands(Some(guild), cmds)).into_response(),
        Ok(_) => bad_request("expected an array of commands"),
        Err(r) => r,
    }
}

async fn get_guild(AxState(s): St, Path((_app, guild)): Path<(String, u64)>) -> Response {
    axum::Json(s.commands(Some(guild))).into_response()
}

async fn callback(
    AxState(s): St,
    Path((id, _token)): Path<(u64, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    match json_body(&s, Route::Callback, &headers, &body) {
        Ok(v) => {
            s.record(Some(id), None, ReplyEvent::Callback(v));
            StatusCode::NO_CONTENT.into_response()
        }
        Err(r) => r,
    }
}

async fn followup(
    AxState(s): St,
    Path((_app, token)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    s.settle(&token).await;
    match json_body(&s, Route::Followup, &headers, &body) {
        Ok(v) => match s.record(None, Some(&token), ReplyEvent::Followup(v)) {
            Some(msg) => axum::Json(msg).into_response(),
            None => unknown_webhook(),
        },
        Err(r) => r,
    }
}

async fn edit_original(
    AxState(s): St,
    Path((_app, token)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    s.settle(&token).await;
    match json_body(&s, Route::EditOriginal, &headers, &body) {
        Ok(v) => match s.record(None, Some(&token), ReplyEvent::EditOriginal(v)) {
            Some(msg) => axum::Json(msg).into_response(),
            None => unknown_webhook(),
        },
        Err(r) => r,
    }
}

async fn get_original(AxState(s): St, Path((_app, token)): Path<(String, String)>) -> Response {
    s.settle(&token).await;
    match s.original(&token) {
        Some(msg) => axum::Json(msg).into_response(),
        None => unknown_webhook(),
    }
}

async fn delete_original(AxState(s): St, Path((_app, token)): Path<(String, String)>) -> Response {
    s.settle(&token).await;
    s.record(None, Some(&token), ReplyEvent::DeleteOriginal);
    StatusCode::NO_CONTENT.into_response()
}

/// `POST /users/@me/channels`: a DM channel with the recipient; its id is derived from theirs
/// so the same person always gets the same channel.
async fn open_dm(AxState(s): St, headers: HeaderMap, body: Bytes) -> Response {
    match json_body(&s, Route::OpenDm, &headers, &body) {
        Ok(v) => {
            let recipient: u64 = v["recipient_id"]
                .as_str()
                .and_then(|r| r.parse().ok())
                .unwrap_or_default();
            let channel = super::dm_channel_id(recipient);
            let user = payloads::user(&payloads::FakeUser {
                id: recipient,
                name: format!("user{recipient}"),
                bot: false,
            });
            axum::Json(json!({ "id": channel.to_string(), "type": 1, "recipients": [user], "last_message_id": null }))
                .into_response()
        }
        Err(r) => r,
    }
}

/// `POST /channels/{id}/messages`: kept for the driver to read.
async fn channel_message(
    AxState(s): St,
    Path(channel): Path<u64>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    match json_body(&s, Route::ChannelMessage, &headers, &body) {
        Ok(v) => {
            let msg = payloads::message(s.next_id(), channel, &s.bot, &v, s.app_id);
            lock(&s.channel_messages)
                .entry(channel)
                .or_default()
                .push(msg.clone());
            lock(&s.posts).push(super::Post {
                request: v.clone(),
                message: msg.clone(),
            });
            s.notify();
            axum::Json(msg).into_response()
        }
        Err(r) => r,
    }
}

fn unknown_webhook() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::Json(json!({ "message": "Unknown Webhook", "code": 10015 })),
    )
        .into_response()
}

async fn fallback(AxState(s): St, method: Method, uri: Uri) -> Response {
    s.unhandled(format!("{method} {uri}"));
    (
        StatusCode::NOT_FOUND,
        axum::Json(json!({ "message": "404: Not Found", "code": 0 })),
    )
        .into_response()
}
