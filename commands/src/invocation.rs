//! Who is asking, where, in which language, with which server settings — and the session
//! helpers every stateful command shares (load, transactional update, roll log).

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use engine::i18n::{Lang, Localized};
use engine::session::{Actor, ServerSettings, Session, SessionError, SystemId};
use serde::Serialize;
use serenity::all::{ComponentInteraction, Permissions};

use crate::log_line::LogSummary;
use crate::store::{NewRoll, StoreError};
use crate::{BotError, Context};

/// How long an optional read (settings, the session to log into) may take before a command
/// goes on without it: during an outage a stateless roll must still answer within Discord's
/// 3 s deadline.
pub const OPTIONAL_READ: Duration = Duration::from_millis(700);

/// How long an optional read may take while the store is suspected down (one probe).
pub const PROBE_READ: Duration = Duration::from_millis(150);
/// How long optional reads skip the store after one failed.
pub const SKIP_AFTER_FAILURE_MS: u64 = 5_000;

/// Optional reads during an outage: after one fails or times out, the next ones skip the store
/// for a few seconds (a stateless roll does not wait for storage at all), then one probes with
/// a short budget; a success closes the breaker.
#[derive(Debug, Default)]
pub struct ReadBreaker {
    /// 0: closed (reads go to the store); else the store is skipped until this time (ms).
    down_until_ms: AtomicU64,
    /// The last server settings read per guild, used only while the store is down.
    settings: std::sync::Mutex<std::collections::HashMap<u64, ServerSettings>>,
    /// Per channel, whether the last read of its active session found one: during an outage
    /// a roll is announced as unlogged only where it would have been logged.
    sessions: std::sync::Mutex<std::collections::HashMap<u64, bool>>,
}

/// Most servers' settings kept for outages (a bounded map: cleared when full).
const CACHED_SETTINGS: usize = 10_000;

impl ReadBreaker {
    /// The settings last read for `guild`, while the store is down (else `None`: read them).
    pub fn cached_while_down(&self, guild: u64, now_ms: u64) -> Option<ServerSettings> {
        if self.budget(now_ms).is_some() {
            return None;
        }
        let map = self.settings.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&guild).cloned()
    }

    pub fn remember(&self, guild: u64, settings: &ServerSettings) {
        let mut map = self.settings.lock().unwrap_or_else(|e| e.into_inner());
        // Every command reads its settings: most find them as remembered (no copy then).
        if map.get(&guild) == Some(settings) {
            return;
        }
        if map.len() >= CACHED_SETTINGS && !map.contains_key(&guild) {
            map.clear();
        }
        map.insert(guild, settings.clone());
    }

    /// What the last read of `channel`'s active session found.
    pub fn saw_session(&self, channel: u64, running: bool) {
        let mut map = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= CACHED_SETTINGS && !map.contains_key(&channel) {
            map.clear();
        }
        map.insert(channel, running);
    }

    /// Whether a session ran in `channel` when it was last read (`None`: never read).
    pub fn session_known(&self, channel: u64) -> Option<bool> {
        let map = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&channel).copied()
    }

    /// The time a read at `now_ms` may take, or `None` to skip the store.
    pub fn budget(&self, now_ms: u64) -> Option<Duration> {
        match self.down_until_ms.load(Ordering::SeqCst) {
            0 => Some(OPTIONAL_READ),
            until if now_ms < until => None,
            _ => Some(PROBE_READ),
        }
    }

    pub fn failed(&self, now_ms: u64) {
        self.down_until_ms
            .store(now_ms + SKIP_AFTER_FAILURE_MS, Ordering::SeqCst);
    }

    pub fn succeeded(&self) {
        self.down_until_ms.store(0, Ordering::SeqCst);
    }
}

fn clock_ms() -> u64 {
    u64::try_from(now_ms()).unwrap_or(0)
}

/// An optional read: `None` when it fails or is slow (logged), or when `breaker` says the
/// store is down.
pub async fn optional<T>(
    breaker: &ReadBreaker,
    what: &str,
    read: impl Future<Output = Result<T, StoreError>>,
) -> Option<T> {
    let Some(budget) = breaker.budget(clock_ms()) else {
        tracing::debug!("{what} skipped: storage is down");
        return None;
    };
    bounded_read(breaker, budget, what, read).await
}

/// The server settings when nothing cached stands in: always asked, with the full budget (a
/// state command must not be refused only because an earlier read failed).
pub async fn settings_read<T>(
    breaker: &ReadBreaker,
    what: &str,
    read: impl Future<Output = Result<T, StoreError>>,
) -> Option<T> {
    bounded_read(breaker, OPTIONAL_READ, what, read).await
}

async fn bounded_read<T>(
    breaker: &ReadBreaker,
    budget: Duration,
    what: &str,
    read: impl Future<Output = Result<T, StoreError>>,
) -> Option<T> {
    match tokio::time::timeout(budget, read).await {
        Ok(Ok(v)) => {
            breaker.succeeded();
            Some(v)
        }
        Ok(Err(e)) => {
            if matches!(e, StoreError::Unavailable(_)) {
                breaker.failed(clock_ms());
            }
            tracing::warn!("{what} unavailable: {e}");
            None
        }
        Err(_) => {
            breaker.failed(clock_ms());
            tracing::warn!("{what} timed out");
            None
        }
    }
}

#[derive(Clone)]
pub struct Invocation {
    pub guild: Option<u64>,
    pub channel: u64,
    pub user: u64,
    /// Who typed, by the name the embeds' footers show (kept in the roll log).
    pub user_name: String,
    pub lang: Lang,
    /// `manage_server` is true for Manage Server and for the server's GM role.
    pub actor: Actor,
    pub settings: ServerSettings,
    /// False when the settings could not be read (storage outage) and defaults stand in.
    pub settings_loaded: bool,
    /// The channel's session could not be read (storage outage): a roll is then not in its log,
    /// and the player is told so (see [`Invocation::log_roll`]).
    session_unread: Arc<AtomicBool>,
    /// What the reply must also say (a sheet lacked what a pool used): added by the command's
    /// helpers, shown by the reply (`Invocation::take_notes`).
    notes: Arc<std::sync::Mutex<Vec<String>>>,
}

/// A store failure as the user should see it: outages and conflicts are explained; a bug is
/// logged under an error id by `on_error`.
pub fn store_error(e: StoreError, lang: Lang) -> BotError {
    match e {
        StoreError::Internal(detail) => BotError::Internal(detail),
        other => {
            if let StoreError::Unavailable(detail) = &other {
                tracing::warn!("storage unavailable: {detail}");
            }
            BotError::User(other.localized(lang))
        }
    }
}

fn member_facts(ctx: Context<'_>) -> (bool, Vec<u64>) {
    let poise::Context::Application(app) = ctx else {
        return (false, Vec::new());
    };
    let Some(member) = app.interaction.member.as_ref() else {
        return (false, Vec::new());
    };
    let manage = member
        .permissions
        .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD) || p.administrator());
    (manage, member.roles.iter().map(|r| r.get()).collect())
}

impl Invocation {
    /// Reads the server settings; during an outage falls back to defaults so stateless
    /// commands keep working. A system command's check loaded it already: that one is reused.
    pub async fn load(ctx: Context<'_>) -> Invocation {
        if let Some(inv) = ctx.invocation_data::<Invocation>().await {
            return inv.clone();
        }
        Self::read(ctx).await
    }

    /// [`Self::load`] from the store, always.
    pub async fn read(ctx: Context<'_>) -> Invocation {
        let guild = ctx.guild_id().map(|g| g.get());
        let (settings, loaded) = match guild {
            None => (ServerSettings::default(), true),
            Some(g) => {
                let reads = &ctx.data().reads;
                match reads.cached_while_down(g, clock_ms()) {
                    // Storage is down and these were read before it went: nothing could have
                    // changed them since (writes fail too), so no command waits for them.
                    Some(s) => (s, true),
                    None => {
                        match settings_read(reads, "server settings", ctx.data().store.server_settings(g))
                            .await
                        {
                            Some(s) => {
                                let s = s.unwrap_or_default();
                                reads.remember(g, &s);
                                (s, true)
                            }
                            None => (ServerSettings::default(), false),
                        }
                    }
                }
            }
        };
        let locale_lang = ctx.locale().map_or(Lang::En, Lang::from_locale);
        let (manage, roles) = member_facts(ctx);
        let gm_role = settings.gm_role.is_some_and(|r| roles.contains(&r));
        let user = ctx.author().id.get();
        Invocation {
            guild,
            channel: ctx.channel_id().get(),
            user,
            user_name: ctx.author().display_name().to_string(),
            lang: settings.language.unwrap_or(locale_lang),
            actor: Actor {
                user,
                manage_server: manage || gm_role,
            },
            settings,
            settings_loaded: loaded,
            session_unread: Arc::default(),
            notes: Arc::default(),
        }
    }

    /// The same facts for a button press (its presser, channel, settings and language as the
    /// dispatcher read them), for handlers that share a command's code.
    pub fn for_press(i: &ComponentInteraction, lang: Lang, settings: &ServerSettings) -> Invocation {
        let member = i.member.as_ref();
        let manage = member
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD) || p.administrator());
        let gm_role = settings
            .gm_role
            .is_some_and(|r| member.is_some_and(|m| m.roles.iter().any(|x| x.get() == r)));
        let user = i.user.id.get();
        Invocation {
            guild: i.guild_id.map(|g| g.get()),
            channel: i.channel_id.get(),
            user,
            user_name: i.user.display_name().to_string(),
            lang,
            actor: Actor {
                user,
                manage_server: manage || gm_role,
            },
            settings: settings.clone(),
            settings_loaded: true,
            session_unread: Arc::default(),
            notes: Arc::default(),
        }
    }

    /// Something the reply must say besides its result (`Agility not on Ana's sheet: 0 used`).
    pub fn note(&self, text: String) {
        if let Ok(mut notes) = self.notes.lock()
            && !notes.contains(&text)
        {
            notes.push(text);
        }
    }

    /// The notes so far, emptied.
    pub fn take_notes(&self) -> Vec<String> {
        self.notes
            .lock()
            .map(|mut n| std::mem::take(&mut *n))
            .unwrap_or_default()
    }

    pub fn user_error(&self, e: &impl Localized) -> BotError {
        BotError::User(e.localized(self.lang))
    }

    pub fn text(&self, en: &str, ja: &str) -> BotError {
        BotError::User(self.lang.pick(en, ja).to_string())
    }

    /// State commands need a server and readable settings.
    pub fn require_guild(&self) -> Result<u64, BotError> {
        self.guild.ok_or_else(|| {
            self.text(
                "This command works only in a server.",
                "このコマンドはサーバー内でのみ使えます。",
            )
        })
    }

    pub fn no_session(&self) -> BotError {
        self.text(
            "No session is running in this channel; start one with /session start.",
            "このチャンネルには進行中のセッションがありません。/session start で始めてください。",
        )
    }

    /// Refuses a system the server's admins turned off — and any system while the settings
    /// cannot be read (an outage): defaults would let a disabled system's commands run.
    pub fn require_system(&self, system: SystemId) -> Result<(), BotError> {
        if !self.settings_loaded {
            return Err(BotError::User(
                StoreError::Unavailable("server settings not loaded".into()).localized(self.lang),
            ));
        }
        if self.settings.is_enabled(system) {
            return Ok(());
        }
        let name = system.display_name(self.lang);
        Err(BotError::User(match self.lang {
            Lang::En => format!("{name} is turned off on this server (/config systems)."),
            Lang::Ja => format!("このサーバーでは{name}は無効になっています（/config systems）。"),
        }))
    }

    /// The channel's active session, or a clear "start one" error.
    pub async fn session(&self, ctx: Context<'_>) -> Result<Arc<Session>, BotError> {
        let read = ctx.data().store.shared_session(self.channel).await;
        if let Ok(found) = &read {
            // Storage answers again: optional reads need not wait for their probe.
            ctx.data().reads.succeeded();
            ctx.data().reads.saw_session(self.channel, found.is_some());
        }
        match read {
            Ok(Some(s)) => Ok(s),
            Ok(None) => Err(self.no_session()),
            Err(e) => Err(store_error(e, self.lang)),
        }
    }

    /// The active session if there is one; an outage reads as "none" (for optional logging).
    pub async fn session_if_any(&self, ctx: Context<'_>) -> Option<Arc<Session>> {
        let read = optional(
            &ctx.data().reads,
            "the active session",
            ctx.data().store.shared_session(self.channel),
        )
        .await;
        match &read {
            None => self.session_unread.store(true, Ordering::SeqCst),
            Some(found) => ctx.data().reads.saw_session(self.channel, found.is_some()),
        }
        read.flatten()
    }

    /// Change the channel's active session in one transaction (retried on conflicts).
    pub async fn update(
        &self,
        ctx: Context<'_>,
        mut edit: impl FnMut(&mut Session) -> Result<(), SessionError> + Send,
    ) -> Result<std::sync::Arc<Session>, BotError> {
        // Whoever changes the game is named in its exports by the name Discord shows now.
        let (user, name) = (self.user, self.user_name.as_str());
        ctx.data()
            .store
            .update(self.channel, move |s| {
                edit(s)?;
                s.saw(user, name);
                Ok(())
            })
            .await
            .map_err(|e| match e {
                StoreError::NotFound => self.no_session(),
                other => store_error(other, self.lang),
            })
    }

    /// Append a roll to the session's log. Best effort: a roll that was shown is never undone
    /// because the log could not be written, but the failure is logged.
    pub async fn log_roll(
        &self,
        ctx: Context<'_>,
        session: Option<&Session>,
        command: &str,
        outcome: &(impl Serialize + LogSummary),
    ) {
        let written = match self.roll_entry(session, command, outcome) {
            // Through the store's group commit, as a reply's buttons are: rolls of commands
            // arriving together go in one round trip (issue 32).
            Some(entry) => Some(ctx.data().store.record(&[], Some(&entry)).await.map(|r| r.logged)),
            None => None,
        };
        self.logged(ctx, session, written).await;
    }

    /// The log row of a roll in `session` (`None` without a session, or when the outcome
    /// cannot be written as JSON), for [`crate::store::Store::record`] or [`Self::log_roll`].
    pub fn roll_entry(
        &self,
        session: Option<&Session>,
        command: &str,
        outcome: &(impl Serialize + LogSummary),
    ) -> Option<NewRoll> {
        crate::log_line::entry(
            session?.id,
            self.user,
            &self.user_name,
            command.to_string(),
            outcome,
            now_ms(),
        )
    }

    /// After a roll was shown: says so out loud when it is not in the session's log.
    /// `written`: the log write's result (`Ok(false)`: the session was gone), `None` when
    /// nothing was written.
    pub async fn logged(
        &self,
        ctx: Context<'_>,
        session: Option<&Session>,
        written: Option<Result<bool, StoreError>>,
    ) {
        let Some(session) = session else {
            // No session read: none here, or storage down. Nothing a player rolled may vanish
            // silently, so an outage is said out loud — where something was lost: not where
            // the channel's last read found no session (nothing can start one while storage
            // is down), nor where the session was read and there is none.
            let unread = self.session_unread.load(Ordering::SeqCst);
            if unread && ctx.data().reads.session_known(self.channel) != Some(false) {
                self.announce_unlogged(ctx, Unlogged::Unread).await;
            }
            return;
        };
        match written {
            Some(Ok(true)) | None => {}
            Some(Ok(false)) => {
                tracing::warn!(session = session.id, "roll not logged: the session ended");
                self.announce_unlogged(ctx, Unlogged::Lost).await;
            }
            Some(Err(e)) => {
                tracing::warn!(session = session.id, "roll not logged: {e}");
                let how = match e {
                    StoreError::Unconfirmed => Unlogged::Unconfirmed,
                    _ => Unlogged::Lost,
                };
                self.announce_unlogged(ctx, how).await;
            }
        }
    }

    /// Tell the channel (the roller and the GM) that this roll is not (or may not be) in the
    /// session's log.
    async fn announce_unlogged(&self, ctx: Context<'_>, how: Unlogged) {
        let text = match (self.lang, how) {
            (Lang::En, Unlogged::Unconfirmed) => format!(
                "⚠️ Storage stopped answering while <@{}>'s roll above was being logged: it may or may not be in the session log (/session log shows it).",
                self.user
            ),
            (Lang::Ja, Unlogged::Unconfirmed) => format!(
                "⚠️ 記録の途中でストレージが応答しなくなりました。上の <@{}> のロールがセッションのログに残ったかどうか分かりません（/session log で確認できます）。",
                self.user
            ),
            (Lang::En, Unlogged::Unread) => format!(
                "⚠️ Storage is unavailable: if this channel has a session, <@{}>'s roll above is not in its log, and was read without its game's rules.",
                self.user
            ),
            (Lang::En, Unlogged::Lost) => format!(
                "⚠️ Storage is unavailable: <@{}>'s roll above is not in the session log.",
                self.user
            ),
            (Lang::Ja, Unlogged::Unread) => format!(
                "⚠️ ストレージが利用できません。このチャンネルにセッションがある場合、上の <@{}> のロールはログに残らず、ゲームのルールなしで読まれました。",
                self.user
            ),
            (Lang::Ja, Unlogged::Lost) => format!(
                "⚠️ ストレージが利用できません。上の <@{}> のロールはセッションのログに残りません。",
                self.user
            ),
        };
        if let Err(e) = crate::reply::send(ctx, poise::CreateReply::default().content(text)).await {
            tracing::warn!("the unlogged roll could not be announced: {e}");
        }
    }
}

/// Why a shown roll is not in its session's log.
#[derive(Debug, Clone, Copy)]
enum Unlogged {
    /// The session could not be read: the roll was read without its game's rules.
    Unread,
    /// The log write failed, or the session had ended.
    Lost,
    /// The log write was sent and never answered: it may be there.
    Unconfirmed,
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod breaker_tests {
    use super::*;

    #[test]
    fn a_failed_read_skips_the_store_then_probes_then_closes() {
        let b = ReadBreaker::default();
        assert_eq!(b.budget(1_000), Some(OPTIONAL_READ));
        b.failed(1_000);
        assert_eq!(b.budget(1_001), None, "skipped right after a failure");
        assert_eq!(b.budget(1_000 + SKIP_AFTER_FAILURE_MS - 1), None);
        assert_eq!(
            b.budget(1_000 + SKIP_AFTER_FAILURE_MS),
            Some(PROBE_READ),
            "then one short probe"
        );
        b.failed(1_000 + SKIP_AFTER_FAILURE_MS);
        assert_eq!(
            b.budget(1_000 + SKIP_AFTER_FAILURE_MS + 1),
            None,
            "a failed probe skips again"
        );
        b.succeeded();
        assert_eq!(b.budget(0), Some(OPTIONAL_READ), "a success closes it");
    }

    #[test]
    fn remembered_settings_stand_in_only_while_the_store_is_down() {
        let b = ReadBreaker::default();
        let s = ServerSettings {
            gm_role: Some(7),
            ..Default::default()
        };
        b.remember(1, &s);
        assert_eq!(b.cached_while_down(1, 100), None, "closed: read the store");
        b.failed(100);
        assert_eq!(b.cached_while_down(1, 101), Some(s));
        assert_eq!(b.cached_while_down(2, 101), None, "never read: ask the store");
    }
}
