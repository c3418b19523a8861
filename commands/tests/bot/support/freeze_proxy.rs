//! A TCP proxy in front of PostgreSQL that can freeze: connections stay open (new ones are
//! accepted) but nothing is forwarded, as with a stopped server or a partition without reset —
//! an outage that no connection error reveals. It can also refuse (accept and close at once),
//! or let everything through until a client sends COMMIT and then hold every answer (a commit
//! the server made and the bot never heard of).

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const PASS: u8 = 0;
const FROZEN: u8 = 1;
const REFUSE: u8 = 2;
/// Pass, until a client sends COMMIT: then [`REPLIES_HELD`].
const ARMED: u8 = 3;
/// What clients send reaches the server; nothing comes back.
const REPLIES_HELD: u8 = 4;

pub struct FreezeProxy {
    addr: SocketAddr,
    mode: Arc<AtomicU8>,
    task: tokio::task::JoinHandle<()>,
}

impl FreezeProxy {
    /// A proxy to `target` (`host:port`), passing everything.
    pub async fn start(target: String) -> FreezeProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind proxy");
        let addr = listener.local_addr().expect("proxy address");
        let mode = Arc::new(AtomicU8::new(PASS));
        let m = mode.clone();
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                if m.load(Ordering::SeqCst) == REFUSE {
                    drop(client);
                    continue;
                }
                let (m, target) = (m.clone(), target.clone());
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(&target).await else {
                        return;
                    };
                    let (cr, cw) = client.into_split();
                    let (sr, sw) = server.into_split();
                    let up = tokio::spawn(pump(cr, sw, m.clone(), true));
                    let down = tokio::spawn(pump(sr, cw, m, false));
                    let _ = tokio::join!(up, down);
                });
            }
        });
        FreezeProxy { addr, mode, task }
    }

    /// `url` (a PostgreSQL URL) with its host and port replaced by this proxy's, without TLS
    /// (the proxy reads the protocol to find a COMMIT).
    pub fn url(&self, url: &str) -> String {
        let start = url
            .find('@')
            .map_or_else(|| url.find("://").expect("scheme") + 3, |i| i + 1);
        let end = url[start..].find('/').map_or(url.len(), |i| start + i);
        let joined = format!("{}{}{}", &url[..start], self.addr, &url[end..]);
        let glue = if joined.contains('?') { '&' } else { '?' };
        format!("{joined}{glue}sslmode=disable")
    }

    pub fn pass(&self) {
        self.mode.store(PASS, Ordering::SeqCst);
    }
    pub fn freeze(&self) {
        self.mode.store(FROZEN, Ordering::SeqCst);
    }
    pub fn refuse(&self) {
        self.mode.store(REFUSE, Ordering::SeqCst);
    }
    pub fn hold_replies_after_commit(&self) {
        self.mode.store(ARMED, Ordering::SeqCst);
    }
}

impl Drop for FreezeProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The target of a PostgreSQL URL: its `host:port`.
pub fn target_of(url: &str) -> String {
    let start = url
        .find('@')
        .map_or_else(|| url.find("://").expect("scheme") + 3, |i| i + 1);
    let end = url[start..].find('/').map_or(url.len(), |i| start + i);
    let authority = &url[start..end];
    if authority.contains(':') {
        authority.to_string()
    } else {
        format!("{authority}:5432")
    }
}

/// Copies one direction; a chunk read while frozen is held (not forwarded) until thawed.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    mode: Arc<AtomicU8>,
    upstream: bool,
) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        loop {
            let held = match mode.load(Ordering::SeqCst) {
                FROZEN => true,
                REPLIES_HELD => !upstream,
                _ => false,
            };
            if !held {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        if upstream && buf[..n].windows(6).any(|w| w == b"COMMIT") {
            let _ = mode.compare_exchange(ARMED, REPLIES_HELD, Ordering::SeqCst, Ordering::SeqCst);
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}
