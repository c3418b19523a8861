//! Command registration without the gateway. On the gateway the bot learns its servers from
//! READY and GUILD_CREATE; over HTTP there are no such events, so it learns them from REST at
//! start-up (`GET /users/@me/guilds`, 200 a page) and from the interactions themselves: the
//! first interaction from a server this process has not registered (a server that added the
//! bot since, whose members can only use the global commands until then) registers that
//! server's system commands. A server's systems changed by `/config` are registered by that
//! command over REST, as in gateway mode.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use serenity::all::{ApplicationId, GuildId, GuildPagination, Http};

use crate::bot::{self, Shared};
use crate::store::Store;

pub struct Registrar {
    pub shared: Arc<Shared>,
    pub http: Arc<Http>,
    pub store: Arc<dyn Store>,
    pub relay: Arc<super::relay::Relay>,
    /// Servers whose system commands this process registered (or is registering).
    known: Mutex<HashSet<u64>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registrar {
    pub fn new(
        shared: Arc<Shared>,
        http: Arc<Http>,
        store: Arc<dyn Store>,
        relay: Arc<super::relay::Relay>,
    ) -> Arc<Registrar> {
        Arc::new(Registrar {
            shared,
            http,
            store,
            relay,
            known: Mutex::new(HashSet::new()),
        })
    }

    fn learn_app(&self, app: ApplicationId) {
        if self.http.application_id().is_none() {
            self.http.set_application_id(app);
            self.relay.set_app_id(app.get());
        }
    }

    /// An interaction arrived from `guild` (for application `app`).
    pub fn seen(self: &Arc<Self>, app: ApplicationId, guild: Option<u64>) {
        self.learn_app(app);
        let Some(guild) = guild else { return };
        if self.shared.dev_guild.is_some() || !lock(&self.known).insert(guild) {
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            tracing::info!(
                guild,
                "first interaction from this server; registering its commands"
            );
            bot::register_guild_from_store(&me.http, &me.shared, &me.store, guild).await;
        });
    }

    /// Start-up: the application id, the global commands, and every server's system commands.
    /// Failures are logged; the bot serves meanwhile.
    pub async fn at_start(self: Arc<Self>) {
        match self.http.get_current_application_info().await {
            Ok(app) => self.learn_app(app.id),
            Err(e) => {
                tracing::warn!("application not read at start-up (learnt from the first interaction): {e}")
            }
        }
        let set = &self.shared.commands;
        match self.shared.dev_guild {
            Some(g) => {
                if let Err(e) = GuildId::new(g).set_commands(&self.http, set.all.clone()).await {
                    tracing::error!(
                        guild = g,
                        "commands not registered in the development server: {e}"
                    );
                }
            }
            None => {
                if let Err(e) =
                    serenity::all::Command::set_global_commands(&self.http, set.global.clone()).await
                {
                    tracing::error!("global commands not registered: {e}");
                }
                for guild in self.guilds().await {
                    if lock(&self.known).insert(guild) {
                        bot::register_guild_from_store(&self.http, &self.shared, &self.store, guild).await;
                    }
                }
            }
        }
        tracing::info!("commands registered");
        self.shared.commands_registered.send_replace(true);
    }

    /// Every server the bot is in, page by page.
    async fn guilds(&self) -> Vec<u64> {
        let mut all = Vec::new();
        let mut after = None;
        loop {
            let page = match self
                .http
                .get_guilds(after.map(GuildPagination::After), Some(200))
                .await
            {
                Ok(p) => p,
                Err(e) => {
                    tracing::warn!(
                        "the bot's servers not listed ({e}); each registers at its first interaction"
                    );
                    return all;
                }
            };
            let full = page.len() == 200;
            after = page.last().map(|g| g.id);
            all.extend(page.iter().map(|g| g.id.get()));
            if !full {
                return all;
            }
        }
    }
}
