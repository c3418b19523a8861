//! The race as the session stores it: each gear (sheet + state) in its roster entry's `sheet`,
//! the round and the initiative order in the session's `turn`. Nothing here decides a rule; it
//! only moves engine data in and out of the session.

use engine::dice::Roller;
use engine::i18n::Lang;
use engine::session::{Actor, ServerSettings, Session, SessionError, SystemId};
use engine::systems::badlands_rally::RuleError;
use engine::systems::badlands_rally::gear::Gear;
use engine::systems::badlands_rally::race::{Entry, RaceOptions, RaceState};
use engine::systems::badlands_rally::state::RecoveryOrder;

use crate::invocation::Invocation;
use crate::{BotError, Context};

/// The race length until `/rally scenario` stores one in `system_state.race.laps`.
pub const DEFAULT_LAPS: u32 = 2;

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

/// Table options the server's admins set as house rules: `rally.recovery = structure_first`
/// (the default is Hull first, as the seed's rattled token implies) and
/// `rally.gentlemens_sport = on`.
pub fn options(settings: &ServerSettings) -> RaceOptions {
    let get = |k: &str| settings.house.get(k).map(|v| v.trim().to_lowercase());
    RaceOptions {
        recovery_order: match get("rally.recovery").as_deref() {
            Some("structure_first" | "structure") => RecoveryOrder::StructureFirst,
            _ => RecoveryOrder::HullFirst,
        },
        gentlemens_sport: matches!(
            get("rally.gentlemens_sport").as_deref(),
            Some("on" | "yes" | "true" | "1")
        ),
    }
}

/// The race held in `session`: every roster entry whose stats are a gear, named by its entry.
pub fn race_of(session: &Session, options: RaceOptions) -> RaceState {
    // Race-wide facts live in the session's `system_state.race`.
    let stored = &session.system_state["race"];
    let mut race = RaceState {
        options,
        scenario: serde_json::from_value(stored["scenario"].clone()).ok().flatten(),
        laps: stored["laps"]
            .as_u64()
            .and_then(|l| u32::try_from(l).ok())
            .unwrap_or(DEFAULT_LAPS),
        round: session.turn.round,
        entries: Vec::new(),
        pole: stored["pole"].as_str().map(str::to_string),
        initiative: session.turn.order.first().cloned(),
    };
    for e in &session.roster {
        if let Ok(mut gear) = serde_json::from_value::<Gear>(e.sheet.clone()) {
            gear.sheet.name.clone_from(&e.name);
            race.entries.push(Entry {
                id: e.name.clone(),
                gear,
            });
        }
    }
    race
}

/// The roster name of a gear in this race (any case), or why there is none.
pub fn gear_name(session: &Session, typed: &str) -> Result<String, SessionError> {
    let entry = session.entry(typed).ok_or_else(|| {
        rule(RuleError::UnknownGear {
            id: typed.trim().chars().take(64).collect(),
        })
    })?;
    if serde_json::from_value::<Gear>(entry.sheet.clone()).is_err() {
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

/// Write the race's gears and round back into the session.
pub fn save(session: &mut Session, race: &RaceState) -> Result<(), SessionError> {
    for entry in &race.entries {
        let value = serde_json::to_value(&entry.gear).map_err(|e| text(&e.to_string(), &e.to_string()))?;
        if let Some(r) = session.roster.iter_mut().find(|r| r.name == entry.id)
            && r.sheet != value
        {
            r.sheet = value;
        }
    }
    session.turn.round = race.round;
    if !session.system_state.is_object() {
        session.system_state = serde_json::json!({});
    }
    // Other race facts kept there (the contested-victory check) stay as they are.
    if !session.system_state["race"].is_object() {
        session.system_state["race"] = serde_json::json!({});
    }
    let facts = &mut session.system_state["race"];
    facts["scenario"] = serde_json::json!(race.scenario);
    facts["laps"] = serde_json::json!(race.laps);
    facts["pole"] = serde_json::json!(race.pole);
    Ok(())
}

/// What a race step gets: the fresh session (for names and the turn), the race, the dice.
pub type Step<'a, T> =
    dyn FnMut(&mut Session, &RaceState, &mut dyn Roller) -> Result<(RaceState, T), SessionError> + Send + 'a;

/// Load the race, let `step` roll and change it, and save it — one transaction, retried on a
/// conflict. `acting` gears must belong to the invoker (or the invoker is the GM). Nothing is
/// written when anything refuses.
pub async fn run<T: Send>(
    ctx: Context<'_>,
    inv: &Invocation,
    acting: &[&str],
    step: &mut Step<'_, T>,
) -> Result<(Session, T), BotError> {
    let actor = inv.actor;
    let opts = options(&inv.settings);
    let mut produced: Option<T> = None;
    let session = inv
        .update(ctx, |s| {
            if s.system != SystemId::BadlandsRally {
                return Err(not_a_race());
            }
            for name in acting {
                let name = gear_name(s, name)?;
                ensure_may_act(s, actor, &name)?;
            }
            let race = race_of(s, opts);
            let (after, out) = ctx.data().dice.with(|r| step(s, &race, r))?;
            save(s, &after)?;
            produced = Some(out);
            Ok(())
        })
        .await?;
    let out = produced.ok_or_else(|| BotError::internal("race step produced nothing"))?;
    Ok((session, out))
}

/// A read-only look at the race (status, autocomplete).
pub async fn read(ctx: Context<'_>, inv: &Invocation) -> Result<(Session, RaceState), BotError> {
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
    p: &crate::buttons::Press<'_>,
    session_id: i64,
    step: &mut Step<'_, T>,
) -> Result<(Session, T), BotError> {
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
            let (after, out) = p.data.dice.with(|r| step(s, &race, r))?;
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
