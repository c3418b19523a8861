//! The race's transactions: load it from the session (the engine's `session_race`), let a step
//! roll and change it, save it back — one store transaction. Nothing here decides a rule.

use engine::dice::Roller;
use engine::i18n::Lang;
use engine::session::{Actor, ServerSettings, Session, SessionError, SystemId};
use engine::systems::badlands_rally::RuleError;
use engine::systems::badlands_rally::race::{RaceOptions, RaceState};
use engine::systems::badlands_rally::rules::race_options;

use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::{BotError, Context};

pub use engine::systems::badlands_rally::rules::DEFAULT_LAPS;

/// A rule error carried through the store's transaction.
pub fn rule(e: RuleError) -> SessionError {
    SessionError::rule(&e)
}

fn text(en: &str, ja: &str) -> SessionError {
    SessionError::Rule {
        en: en.to_string(),
        ja: ja.to_string(),
    }
}

pub fn not_a_race() -> SessionError {
    text(
        "This channel's session is not a Badlands Rally race (/session start system:badlands_rally).",
        "このチャンネルのセッションはBadlands Rallyのレースではありません（/session start system:badlands_rally）。",
    )
}

/// The race options the server's house settings choose (`/config option`).
pub fn options(settings: &ServerSettings) -> RaceOptions {
    race_options(&settings.house)
}

/// The roster name of a gear in this race (any case), or why there is none.
pub fn gear_name(session: &Session, typed: &str) -> Result<String, SessionError> {
    let entry = session.entry(typed).ok_or_else(|| {
        rule(RuleError::UnknownGear {
            id: typed.trim().chars().take(64).collect(),
        })
    })?;
    if engine::systems::badlands_rally::sheet::read_gear(&entry.sheet).is_none() {
        return Err(SessionError::Rule {
            en: format!("“{}” has no gear stats; set them with /char.", entry.name),
            ja: format!(
                "「{}」にはギアの能力値がありません。/char で設定してください。",
                entry.name
            ),
        });
    }
    Ok(entry.name.clone())
}

/// Only the gear's owner or the GM commands it.
pub fn ensure_may_act(session: &Session, actor: Actor, name: &str) -> Result<(), SessionError> {
    match session.entry(name) {
        Some(e) if e.owner == actor.user || session.may_manage(actor) => Ok(()),
        Some(e) => Err(SessionError::NotOwner { name: e.name.clone() }),
        None => Err(SessionError::UnknownEntry {
            name: name.to_string(),
        }),
    }
}

pub use engine::systems::badlands_rally::session_race::{race_of, save_race as save};

/// What a race step gets: the fresh session (for names and the turn), the race, the dice.
pub type Step<'a, T> =
    dyn FnMut(&mut Session, &RaceState, &mut dyn Roller) -> Result<(RaceState, T), SessionError> + Send + 'a;

/// Load the race, let `step` roll and change it, and save it — one transaction, retried on a
/// conflict. `acting` gears must belong to the invoker (or the invoker is the GM). Nothing is
/// written when anything refuses.
/// With the [`CommandRoll`] that answers and logs what `step` rolled.
pub async fn run<'a, T: Send>(
    ctx: Context<'a>,
    inv: &Invocation,
    acting: &[&str],
    step: &mut Step<'_, T>,
) -> Result<(CommandRoll<'a>, std::sync::Arc<Session>, T), BotError> {
    let actor = inv.actor;
    let opts = options(&inv.settings);
    let mut produced: Option<T> = None;
    let roll = CommandRoll::new(ctx);
    let updated = inv
        .update(ctx, |s| {
            if s.system != SystemId::BadlandsRally {
                return Err(not_a_race());
            }
            for name in acting {
                let name = gear_name(s, name)?;
                ensure_may_act(s, actor, &name)?;
            }
            let race = race_of(s, opts);
            let (after, out) = roll.with(|r| step(s, &race, r))?;
            save(s, &after)?;
            produced = Some(out);
            Ok(())
        })
        .await;
    // Refused (or not stored): the command answers with the error, and logs nothing.
    let session = match updated {
        Ok(s) => s,
        Err(e) => return Err(roll.abandon(e)),
    };
    let out = produced.ok_or_else(|| BotError::internal("race step produced nothing"))?;
    Ok((roll, session, out))
}

/// A read-only look at the race (status, autocomplete).
pub async fn read(
    ctx: Context<'_>,
    inv: &Invocation,
) -> Result<(std::sync::Arc<Session>, RaceState), BotError> {
    let session = inv.session(ctx).await?;
    if session.system != SystemId::BadlandsRally {
        return Err(inv.user_error(&not_a_race()));
    }
    let race = race_of(&session, options(&inv.settings));
    Ok((session, race))
}

/// The language-neutral error for a gear that is not in this race.
pub fn unknown(name: &str, lang: Lang) -> String {
    use engine::i18n::Localized;
    RuleError::UnknownGear { id: name.to_string() }.localized(lang)
}

/// [`run`] for a button press: the same transaction on the channel's session, which must still
/// be `session_id`. The dispatcher has already checked who pressed.
pub async fn run_press<T: Send>(
    p: &crate::press::Press<'_>,
    rolling: &crate::press::Rolling<'_>,
    session_id: i64,
    step: &mut Step<'_, T>,
) -> Result<(std::sync::Arc<Session>, T), BotError> {
    let opts = options(&p.settings);
    let mut produced: Option<T> = None;
    let session = p
        .data
        .store
        .update(p.interaction.channel_id.get(), |s| {
            if s.id != session_id || s.system != SystemId::BadlandsRally {
                return Err(text(
                    "The race of this button has ended.",
                    "このボタンのレースは終了しています。",
                ));
            }
            let race = race_of(s, opts);
            let (after, out) = rolling.dice().with(|r| step(s, &race, r))?;
            save(s, &after)?;
            produced = Some(out);
            Ok(())
        })
        .await
        .map_err(|e| crate::invocation::store_error(e, p.lang))?;
    let out = produced.ok_or_else(|| BotError::internal("race step produced nothing"))?;
    Ok((session, out))
}

/// A refusal in both languages, for race steps.
pub fn refusal(en: &str, ja: &str) -> SessionError {
    text(en, ja)
}
