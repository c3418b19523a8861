//! Files a user attaches to a command: hosted on the fake's loopback address, as Discord's CDN
//! hosts them, so the bot downloads them over HTTP; each download is counted (a test can assert
//! that a file refused for its size was never fetched).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::extract::{Path, State as AxState};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use super::{FakeDiscord, State, lock};

/// A hosted file: its name and bytes.
#[derive(Default)]
pub(crate) struct Hosted {
    files: std::collections::HashMap<u64, (String, Vec<u8>)>,
}

pub(super) fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/attachments/{id}/{name}", get(serve))
        .with_state(state)
}

async fn serve(AxState(s): AxState<Arc<State>>, Path((id, _name)): Path<(u64, String)>) -> Response {
    s.downloads.fetch_add(1, Ordering::SeqCst);
    let file = lock(&s.hosted).files.get(&id).map(|(_, b)| b.clone());
    match file {
        Some(bytes) => ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], bytes).into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// A file name as it may stand in a URL path (Discord's CDN names are percent-encoded too).
fn url_name(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

impl FakeDiscord {
    /// Host `bytes` as uploaded file `id`: the attachment object an interaction's
    /// `resolved.attachments` carries (id, name, size, a URL on this fake that serves them).
    pub fn host_file(&self, id: u64, filename: &str, bytes: Vec<u8>) -> Value {
        let size = bytes.len();
        lock(&self.state.hosted)
            .files
            .insert(id, (filename.to_string(), bytes));
        let url = format!("{}/attachments/{id}/{}", self.url(), url_name(filename));
        json!({
            "id": id.to_string(),
            "filename": filename,
            "size": size,
            "url": url,
            "proxy_url": url,
            "content_type": "text/plain; charset=utf-8",
        })
    }

    /// How many times the bot fetched a hosted file.
    pub fn downloads(&self) -> usize {
        self.state.downloads.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_urls_are_encoded() {
        assert_eq!(url_name("Ana.saikoro.txt"), "Ana.saikoro.txt");
        assert_eq!(url_name("a b/ザ"), "a%20b%2F%E3%82%B6");
    }
}
