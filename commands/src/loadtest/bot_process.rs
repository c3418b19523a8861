//! `--bot-process`: the real binary, in a process of its own, against the run's fake Discord
//! (`DISCORD_PROXY_URL`, as a ratelimit proxy would be given), so the report's memory and CPU
//! are the bot's alone: in-process, the fake and the driver share its heap and its RSS.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

use super::LoadError;
use crate::fake_discord::{DEFAULT_GUILD, FAKE_TOKEN, FakeDiscord};

/// How long the process may take to connect and register its commands.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long it may take to stop after SIGTERM before it is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(20);

pub(super) struct BotProcess {
    child: Child,
    pid: u32,
}

impl BotProcess {
    /// This binary as the bot, on `database_url` or the SQLite file in `data_dir` (which the
    /// run's own store has open too: SQLite takes turns between processes), returning once
    /// it is connected and every command, the server's included, is registered.
    pub(super) async fn spawn(
        fake: &FakeDiscord,
        database_url: Option<&str>,
        data_dir: &Path,
    ) -> Result<BotProcess, LoadError> {
        let exe =
            std::env::current_exe().map_err(|e| LoadError::Setup(format!("cannot find this binary: {e}")))?;
        let mut command = Command::new(exe);
        // No .env: the environment is exactly this.
        command
            .current_dir(data_dir)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DISCORD_TOKEN", FAKE_TOKEN)
            .env("DISCORD_PROXY_URL", fake.url())
            .env("SAIKORO_DATA_DIR", data_dir)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        if let Ok(arenas) = std::env::var("MALLOC_ARENA_MAX") {
            command.env("MALLOC_ARENA_MAX", arenas);
        }
        if let Some(url) = database_url {
            command.env("DATABASE_URL", url);
        }
        let child = command
            .spawn()
            .map_err(|e| LoadError::Setup(format!("the bot process could not start: {e}")))?;
        let pid = child
            .id()
            .ok_or_else(|| LoadError::Setup("the bot process ended at once".into()))?;
        let ready = async {
            fake.wait_shards(1, START_TIMEOUT).await?;
            fake.wait_commands(None, START_TIMEOUT).await?;
            fake.wait_commands(Some(DEFAULT_GUILD), START_TIMEOUT).await
        };
        ready
            .await
            .map_err(|e| LoadError::Setup(format!("the bot process did not get ready: {e}")))?;
        Ok(BotProcess { child, pid })
    }

    pub(super) fn pid(&self) -> u32 {
        self.pid
    }

    /// SIGTERM (the bot drains and exits), then a kill if it does not stop in time.
    pub(super) async fn stop(mut self) {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.pid.to_string()])
            .status();
        if tokio::time::timeout(STOP_TIMEOUT, self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}
