//! PostgreSQL for tests: find a server, or start a throwaway one, and give each test its own
//! fresh database.
//!
//! Order: `TEST_DATABASE_URL`, then `DATABASE_URL`, then a local server on 127.0.0.1:5432
//! (trust auth, database `test`, user `postgres` or `root`), then a throwaway server started
//! from the installed `initdb`/`pg_ctl` (one per test; set `SAIKORO_TEST_PG_THROWAWAY=1` to
//! go straight there). When none can be had the test fails with a message
//! saying how to provide one; it never skips.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use sqlx::Connection;
use sqlx::postgres::PgConnection;

const HOW_TO: &str = "PostgreSQL is needed for these tests. Provide one with \
    TEST_DATABASE_URL=postgres://user@host:port/db (the user must be allowed to CREATE DATABASE), \
    or run a server on 127.0.0.1:5432 with trust auth and a database `test`, or install \
    PostgreSQL's server binaries (initdb, pg_ctl; searched in PG_BIN, /usr/lib/postgresql/*/bin \
    and PATH) so the tests can start a throwaway server.";

/// A PostgreSQL server this process started in a temporary directory, on a free port. Stopped
/// and deleted on drop.
pub struct PgServer {
    dir: tempfile::TempDir,
    bin: PathBuf,
    port: u16,
    /// Set when we are root: initdb and postgres refuse to run as root.
    run_as: Option<String>,
}

impl PgServer {
    /// initdb + pg_ctl start. Blocking; call from a test before or outside async work, or via
    /// `spawn_blocking`.
    pub fn start() -> Result<PgServer, String> {
        let bin = find_bin_dir().ok_or("no initdb/pg_ctl found")?;
        let dir = tempfile::Builder::new()
            .prefix("saikoro-pg-")
            .tempdir()
            .map_err(|e| format!("temp dir: {e}"))?;
        let run_as = if is_root() {
            Some("postgres".to_string())
        } else {
            None
        };
        if let Some(user) = &run_as {
            let status = Command::new("chown")
                .arg(format!("{user}:"))
                .arg(dir.path())
                .status()
                .map_err(|e| format!("chown: {e}"))?;
            if !status.success() {
                return Err(format!("chown {user} {} failed", dir.path().display()));
            }
        }
        let port = free_port()?;
        let server = PgServer {
            dir,
            bin,
            port,
            run_as,
        };
        let data = server.data_dir();
        server.run(
            "initdb",
            &[
                "-D",
                path_str(&data)?,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--no-instructions",
            ],
        )?;
        server.start_again()?;
        Ok(server)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The `postgres` maintenance database, as superuser.
    pub fn admin_url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// A URL for database `name` on this server.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// `pg_ctl stop -m fast`: active connections are terminated, as in a real outage.
    pub fn stop(&self) -> Result<(), String> {
        let data = self.data_dir();
        self.run(
            "pg_ctl",
            &["-D", path_str(&data)?, "-m", "fast", "-w", "-t", "30", "stop"],
        )
    }

    /// Starts (again) on the same port and data.
    pub fn start_again(&self) -> Result<(), String> {
        let data = self.data_dir();
        let log = self.dir.path().join("server.log");
        let opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port,
            path_str(self.dir.path())?
        );
        self.run(
            "pg_ctl",
            &[
                "-D",
                path_str(&data)?,
                "-l",
                path_str(&log)?,
                "-o",
                &opts,
                "-w",
                "-t",
                "60",
                "start",
            ],
        )
    }

    fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn run(&self, tool: &str, args: &[&str]) -> Result<(), String> {
        let exe = self.bin.join(tool);
        let mut cmd = match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&exe);
                c
            }
            None => Command::new(&exe),
        };
        // Run from a directory the postgres user can enter.
        cmd.args(args).current_dir(self.dir.path());
        let out = cmd.output().map_err(|e| format!("{tool}: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            let log = std::fs::read_to_string(self.dir.path().join("server.log")).unwrap_or_default();
            Err(format!(
                "{tool} failed: {}{}\n{log}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        if let Ok(data) = path_str(&self.data_dir()) {
            let _ = self.run("pg_ctl", &["-D", data, "-m", "immediate", "-w", "stop"]);
        }
    }
}

fn path_str(p: &Path) -> Result<&str, String> {
    p.to_str()
        .ok_or_else(|| format!("non-UTF-8 path {}", p.display()))
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// A free port below the kernel's ephemeral range (32768 and up on Linux): a server the outage
/// tests stop and start again must find its port still free, and a port handed out by
/// `bind(0)` can meanwhile become the source port of any outgoing connection (seen in CI:
/// "could not bind IPv4 address: Address already in use" on the restart).
fn free_port() -> Result<u16, String> {
    const FIRST: u32 = 20_000;
    const SPAN: u32 = 12_000;
    // Concurrent test processes start from different places in the span.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let start = (std::process::id().wrapping_mul(7919) ^ nanos) % SPAN;
    for i in 0..SPAN {
        let port = u16::try_from(FIRST + (start + i) % SPAN).map_err(|e| format!("free port: {e}"))?;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return Ok(port);
        }
    }
    Err(format!("free port: none free in {FIRST}..{}", FIRST + SPAN))
}

/// `PG_BIN`, the newest `/usr/lib/postgresql/*/bin`, or the directory of `initdb` in PATH.
fn find_bin_dir() -> Option<PathBuf> {
    let has_tools = |d: &Path| d.join("initdb").is_file() && d.join("pg_ctl").is_file();
    if let Some(d) = std::env::var_os("PG_BIN").map(PathBuf::from)
        && has_tools(&d)
    {
        return Some(d);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            has_tools(&bin).then_some((v, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    std::env::split_paths(&std::env::var_os("PATH")?).find(|d| has_tools(d))
}

/// Replaces the database name in a PostgreSQL URL.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let base = match base[authority_start..].find('/') {
        Some(slash) => &base[..authority_start + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

async fn reachable(url: &str) -> Result<(), String> {
    match tokio::time::timeout(Duration::from_secs(3), PgConnection::connect(url)).await {
        Ok(Ok(conn)) => {
            let _ = conn.close().await;
            Ok(())
        }
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("timed out".into()),
    }
}

/// An existing server to create test databases on, found once per test process.
fn existing_server() -> &'static Result<String, String> {
    static FOUND: OnceLock<Result<String, String>> = OnceLock::new();
    FOUND.get_or_init(|| {
        // Its own runtime on its own thread: callers may be inside any runtime.
        std::thread::spawn(|| {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?;
            rt.block_on(async {
                if std::env::var_os("SAIKORO_TEST_PG_THROWAWAY").is_some() {
                    return Err("SAIKORO_TEST_PG_THROWAWAY is set".to_string());
                }
                for var in ["TEST_DATABASE_URL", "DATABASE_URL"] {
                    if let Ok(url) = std::env::var(var)
                        && !url.trim().is_empty()
                    {
                        // Given explicitly: use it or fail, never fall back silently.
                        return reachable(&url)
                            .await
                            .map(|()| url.clone())
                            .map_err(|e| format!("{var} is set but unreachable: {e}"));
                    }
                }
                for user in ["postgres", "root"] {
                    let url = format!("postgres://{user}@127.0.0.1:5432/test");
                    if reachable(&url).await.is_ok() {
                        return Ok(url);
                    }
                }
                Err("no server at 127.0.0.1:5432".to_string())
            })
        })
        .join()
        .unwrap_or_else(|_| Err("discovery thread panicked".into()))
    })
}

/// A fresh database `saikoro_test_<random>` for one test; dropped (or its throwaway server
/// stopped) when this is dropped.
pub struct TestDb {
    pub url: String,
    admin_url: String,
    name: String,
    server: Option<PgServer>,
}

impl TestDb {
    /// Panics (failing the test) with instructions when no PostgreSQL can be had.
    pub async fn create() -> TestDb {
        let name = format!(
            "saikoro_test_{}_{:016x}",
            std::process::id(),
            rand::random::<u64>()
        );
        let (admin_url, server) = match existing_server() {
            Ok(url) => (url.clone(), None),
            Err(why) => {
                if std::env::var("TEST_DATABASE_URL").is_ok() || std::env::var("DATABASE_URL").is_ok() {
                    panic!("{why}\n{HOW_TO}");
                }
                let server = tokio::task::spawn_blocking(PgServer::start)
                    .await
                    .unwrap_or_else(|e| Err(e.to_string()))
                    .unwrap_or_else(|e| {
                        panic!("{why}; a throwaway server could not start either: {e}\n{HOW_TO}")
                    });
                (server.admin_url(), Some(server))
            }
        };
        let mut conn = PgConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|e| panic!("cannot connect to {admin_url}: {e}\n{HOW_TO}"));
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"")))
            .execute(&mut conn)
            .await
            .unwrap_or_else(|e| panic!("cannot create a test database: {e}\n{HOW_TO}"));
        let _ = conn.close().await;
        let url = with_database(&admin_url, &name);
        TestDb {
            url,
            admin_url,
            name,
            server,
        }
    }

    /// A test database on a server the caller started (for outage tests).
    pub async fn on(server: &PgServer) -> String {
        let name = format!("saikoro_test_{:016x}", rand::random::<u64>());
        let mut conn = PgConnection::connect(&server.admin_url())
            .await
            .expect("connect to throwaway server");
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"")))
            .execute(&mut conn)
            .await
            .expect("create database");
        let _ = conn.close().await;
        server.url(&name)
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if self.server.is_some() {
            return; // The whole throwaway server goes.
        }
        let (admin, name) = (self.admin_url.clone(), self.name.clone());
        // Drop runs inside the test's runtime, which cannot be blocked on: use a fresh one.
        let _ = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
                return;
            };
            rt.block_on(async {
                if let Ok(mut conn) = PgConnection::connect(&admin).await {
                    let sql = format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)");
                    let _ = sqlx::raw_sql(sqlx::AssertSqlSafe(sql)).execute(&mut conn).await;
                    let _ = conn.close().await;
                }
            });
        })
        .join();
    }
}
