//! The stack's floor: a bare poise bot with one `/roll dice:` command that replies with one
//! embed and touches nothing else — what serenity and poise cost before any of ours. The load
//! tool serves it through the same fake Discord and driver as the real bot, so its figures and
//! the bot's come from the same harness and the same run.

use std::time::Duration;

use serenity::all::{CreateEmbed, GatewayIntents, HttpBuilder, ShardManager};
use tokio::task::JoinHandle;

use super::{LoadError, on};
use crate::fake_discord::{FAKE_TOKEN, FakeDiscord, FakeOptions};

type Error = Box<dyn std::error::Error + Send + Sync>;
type FloorContext<'a> = poise::Context<'a, (), Error>;

/// Replies with one embed holding what was typed.
#[poise::command(slash_command)]
async fn roll(ctx: FloorContext<'_>, #[description = "dice"] dice: String) -> Result<(), Error> {
    ctx.send(poise::CreateReply::default().embed(CreateEmbed::new().title("🎲").description(dice)))
        .await?;
    Ok(())
}

pub struct Floor {
    shard_manager: std::sync::Arc<ShardManager>,
    task: JoinHandle<Result<(), serenity::Error>>,
}

impl Floor {
    /// Starts the floor bot against the fake Discord at `url` (its `/roll` registered globally
    /// once ready).
    pub async fn start(url: String, token: &str) -> Result<Floor, serenity::Error> {
        let http = HttpBuilder::new(token)
            .proxy(url)
            .ratelimiter_disabled(true)
            .build();
        let framework = poise::Framework::builder()
            .options(poise::FrameworkOptions {
                commands: vec![roll()],
                initialize_owners: false,
                ..Default::default()
            })
            .setup(|ctx, _ready, framework| {
                Box::pin(async move {
                    poise::builtins::register_globally(ctx, &framework.options().commands).await?;
                    Ok(())
                })
            })
            .build();
        let mut client = serenity::all::ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
            .framework(framework)
            .await?;
        let shard_manager = client.shard_manager.clone();
        let task = tokio::spawn(async move { client.start_autosharded().await });
        Ok(Floor { shard_manager, task })
    }

    pub async fn shutdown(self) {
        self.shard_manager.shutdown_all().await;
        let _ = tokio::time::timeout(Duration::from_secs(10), self.task).await;
    }
}

/// The floor on a runtime of its own (its CPU counted as the bot's is), against a fresh fake
/// Discord, as both load modes serve it.
pub(super) struct FloorRun {
    runtime: super::cpu::BotRuntime,
    pub fake: FakeDiscord,
    floor: Floor,
}

impl FloorRun {
    pub async fn start(fake: FakeOptions) -> Result<FloorRun, LoadError> {
        let runtime = super::cpu::bot_runtime().map_err(|e| LoadError::Setup(e.to_string()))?;
        let fake = FakeDiscord::start_with(fake).await?;
        let url = fake.url();
        let floor = on(
            runtime.handle(),
            async move { Floor::start(url, FAKE_TOKEN).await },
        )
        .await?
        .map_err(|e| LoadError::Setup(format!("the floor bot could not start: {e}")))?;
        Ok(FloorRun { runtime, fake, floor })
    }

    pub async fn stop(self) {
        let _ = on(self.runtime.handle(), self.floor.shutdown()).await;
    }
}
