//! The gateway: HELLO, IDENTIFY → READY, heartbeats, and dispatches queued by the driver.

use std::sync::Arc;

use axum::Router;
use axum::extract::State as AxState;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::mpsc;

use super::{State, payloads};

/// The queued "event" that is sent as op 9 instead of a dispatch.
pub(super) const INVALID_SESSION: &str = "INVALID_SESSION";

pub(super) fn router(state: Arc<State>) -> Router {
    // serenity connects to `{url}/?v=10&encoding=json`.
    Router::new().route("/", get(upgrade)).with_state(state)
}

async fn upgrade(ws: WebSocketUpgrade, AxState(state): AxState<Arc<State>>) -> Response {
    ws.on_upgrade(move |socket| session(socket, state))
}

async fn send(ws: &mut futures::stream::SplitSink<WebSocket, Message>, v: &Value) -> bool {
    ws.send(Message::Text(v.to_string().into())).await.is_ok()
}

async fn session(socket: WebSocket, state: Arc<State>) {
    let (mut out, mut inc) = socket.split();
    if !send(&mut out, &payloads::hello(41_250)).await {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<(String, Value)>();
    let mut seq: u64 = 0;
    let mut shard_id: Option<u32> = None;
    loop {
        tokio::select! {
            frame = inc.next() => {
                let Some(Ok(frame)) = frame else { break };
                let text = match frame {
                    Message::Text(t) => t.to_string(),
                    Message::Binary(b) => String::from_utf8_lossy(&b).into_owned(),
                    Message::Close(frame) => {
                        // Echo the close so the client's shutdown completes cleanly.
                        let _ = out.send(Message::Close(frame)).await;
                        break;
                    }
                    _ => continue,
                };
                let Ok(msg) = serde_json::from_str::<Value>(&text) else {
                    state.unhandled(format!("gateway frame that is not JSON: {text:.80}"));
                    continue;
                };
                match msg["op"].as_u64() {
                    Some(1) => {
                        if !send(&mut out, &payloads::heartbeat_ack()).await { break }
                    }
                    Some(2) | Some(6) => {
                        state.identifies.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        // IDENTIFY (or RESUME, answered as a fresh session).
                        let shard = msg["d"]["shard"].as_array().map_or([0, 1], |a| {
                            [a.first().and_then(Value::as_u64).unwrap_or(0) as u32, a.get(1).and_then(Value::as_u64).unwrap_or(1) as u32]
                        });
                        let url = crate::fake_discord::lock(&state.base_url).replace("http://", "ws://");
                        let guilds: Vec<u64> = state.guilds.iter().copied()
                            .filter(|g| (g >> 22) % u64::from(shard[1].max(1)) == u64::from(shard[0]))
                            .collect();
                        // Routable before READY: the bot may register commands (and a driver
                        // deliver an interaction) before this task is polled again.
                        shard_id = Some(shard[0]);
                        state.shard_connected(shard[0], shard[1], tx.clone());
                        seq += 1;
                        let ready = payloads::ready(&state.bot, state.app_id, &guilds, shard, &format!("fake-session-{}", shard[0]), &url);
                        if !send(&mut out, &payloads::dispatch("READY", seq, ready)).await { break }
                    }
                    // Presence and voice updates, request members: nothing to answer.
                    Some(3) | Some(4) | Some(8) => {}
                    other => state.unhandled(format!("gateway op {other:?}")),
                }
            }
            Some((event, data)) = rx.recv() => {
                // Not a dispatch: Discord's op 9 (the session is invalid; `d` says resumable).
                if event == INVALID_SESSION {
                    let frame = serde_json::json!({ "op": 9, "d": data, "s": null, "t": null });
                    if !send(&mut out, &frame).await { break }
                    continue;
                }
                seq += 1;
                if !send(&mut out, &payloads::dispatch(&event, seq, data)).await { break }
            }
        }
    }
    if let Some(id) = shard_id {
        state.shard_gone(id);
    }
}
