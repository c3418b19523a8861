//! The battle's transactions: read the units from the roster and the battle from the session,
//! let a step roll and change them, write both back — one store transaction, retried on a
//! conflict, nothing written when anything refuses. Nothing here decides a rule.

use std::collections::BTreeMap;

use engine::dice::Roller;
use engine::session::{Actor, ServerSettings, Session, SessionError, SystemId};
use engine::systems::mecha_d20::rules::{MechaOptions, options as house_options};
use engine::systems::mecha_d20::state::{units_of, write_changed_units};
use engine::systems::mecha_d20::{MechaState, RuleError, Unit};
use engine::systems::rules::SessionState;

use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::press::Press;
use crate::{BotError, Context};

/// What a battle step gets: the units by roster name, the battle, and the dice.
pub type Step<'a, T> = dyn FnMut(&mut BTreeMap<String, Unit>, &mut MechaState, &mut dyn Roller) -> Result<T, RuleError>
    + Send
    + 'a;

fn refusal(en: &str, ja: &str) -> SessionError {
    SessionError::Rule {
        en: en.to_string(),
        ja: ja.to_string(),
    }
}

pub fn not_a_battle() -> SessionError {
    refusal(
        "This channel's session is not a d20 Mecha battle (/session start system:mecha_d20).",
        "このチャンネルのセッションはd20メカの戦闘ではありません（/session start system:mecha_d20）。",
    )
}

/// The options the server's house settings choose (`/config option`).
pub fn options(settings: &ServerSettings) -> MechaOptions {
    house_options(&settings.house)
}

/// The roster name of `typed` (any case), or the engine's "no such unit".
pub fn unit_name(session: &Session, typed: &str) -> Result<String, SessionError> {
    session.entry(typed).map(|e| e.name.clone()).ok_or_else(|| {
        SessionError::rule(&RuleError::UnknownUnit {
            name: typed.trim().chars().take(64).collect(),
        })
    })
}

/// Only a unit's owner or the GM acts for it.
pub fn ensure_may_act(session: &Session, actor: Actor, name: &str) -> Result<(), SessionError> {
    match session.entry(name) {
        Some(e) if e.owner == actor.user || session.may_manage(actor) => Ok(()),
        Some(e) => Err(SessionError::NotOwner { name: e.name.clone() }),
        None => Err(SessionError::UnknownEntry {
            name: name.to_string(),
        }),
    }
}

/// Only the GM (or a server manager) runs the battle's turn.
pub fn ensure_gm(session: &Session, actor: Actor) -> Result<(), SessionError> {
    if session.may_manage(actor) {
        Ok(())
    } else {
        Err(refusal(
            "Only the GM runs the turn (phases, application, undoing held damage).",
            "ターンの進行（フェイズ、適用、保留ダメージの取り消し）はGMだけが行えます。",
        ))
    }
}

/// One step on a session known to be a battle: units and state in, both out when it succeeds.
fn step_on<T>(
    session: &mut Session,
    roller: &mut dyn Roller,
    step: &mut Step<'_, T>,
) -> Result<T, SessionError> {
    let mut units = units_of(&session.roster).map_err(|e| SessionError::rule(&e))?;
    let mut state = MechaState::read(&session.system_state).map_err(|e| SessionError::Rule {
        en: e.en.clone(),
        ja: e.ja.clone(),
    })?;
    // What the step began from: only what it changed is written back (issue 32: serializing
    // every unit and the state into the session was a tenth of a turn command's CPU).
    let (units_before, state_before) = (units.clone(), state.clone());
    let out = step(&mut units, &mut state, roller).map_err(|e| SessionError::rule(&e))?;
    write_changed_units(&mut session.roster, &units_before, &units);
    if state != state_before {
        state.write(&mut session.system_state);
    }
    Ok(out)
}

/// Who may run a step: the owners of `acting` units (or the GM), or only the GM.
pub enum Gate {
    Units(Vec<String>),
    Gm,
    /// Raw damage held by `attacker`'s owner on `target` (issue 33): the target's owner, the GM,
    /// or the attacker's owner after an attack of it hit the target this turn, or with
    /// `others` (the option `mecha.raw_damage_on_others`).
    RawDamage {
        attacker: String,
        target: String,
        others: bool,
    },
}

/// Raw damage onto a unit its holder does not own follows an attack that hit it, else it is
/// the GM's (unless the server's option lets players).
fn ensure_may_hold(
    s: &Session,
    actor: Actor,
    attacker: &str,
    target: &str,
    others: bool,
) -> Result<(), SessionError> {
    let attacker = unit_name(s, attacker)?;
    ensure_may_act(s, actor, &attacker)?;
    let target = unit_name(s, target)?;
    if others || s.may_manage(actor) || s.entry(&target).is_some_and(|e| e.owner == actor.user) {
        return Ok(());
    }
    let state = MechaState::read_or_default(&s.system_state);
    if state.hit_this_turn(&attacker, &target) {
        return Ok(());
    }
    Err(SessionError::Rule {
        en: format!(
            "Raw damage on {target}, a unit you do not own, is the GM's, or follows an attack of {attacker}'s that hit {target} this turn (/mecha attack holds its damage itself). The server's option mecha.raw_damage_on_others lets players hold it."
        ),
        ja: format!(
            "自分のものでないユニット{target}への数値ダメージはGMが保留します。このターンに{attacker}の攻撃が{target}に命中した後なら保留できます（/mecha attack は自分でダメージを保留します）。サーバー設定 mecha.raw_damage_on_others でプレイヤーにも許可できます。"
        ),
    })
}

/// Run `step` on the channel's battle in one transaction. Returns the session as saved.
/// With the [`CommandRoll`] that answers and logs what `step` rolled.
pub async fn run<'a, T: Send>(
    ctx: Context<'a>,
    inv: &Invocation,
    gate: Gate,
    step: &mut Step<'_, T>,
) -> Result<(CommandRoll<'a>, std::sync::Arc<Session>, T), BotError> {
    let actor = inv.actor;
    let mut produced: Option<T> = None;
    let roll = CommandRoll::new(ctx);
    let updated = inv
        .update(ctx, |s| {
            if s.system != SystemId::MechaD20 {
                return Err(not_a_battle());
            }
            match &gate {
                Gate::Units(names) => {
                    for typed in names.iter() {
                        let name = unit_name(s, typed)?;
                        ensure_may_act(s, actor, &name)?;
                    }
                }
                Gate::Gm => ensure_gm(s, actor)?,
                Gate::RawDamage {
                    attacker,
                    target,
                    others,
                } => ensure_may_hold(s, actor, attacker, target, *others)?,
            }
            let out = roll.with(|r| step_on(s, r, step))?;
            produced = Some(out);
            Ok(())
        })
        .await;
    // Refused (or not stored): the command answers with the error, and logs nothing.
    let session = match updated {
        Ok(s) => s,
        Err(e) => return Err(roll.abandon(e)),
    };
    let out = produced.ok_or_else(|| BotError::internal("battle step produced nothing"))?;
    Ok((roll, session, out))
}

/// A read-only look (status, autocomplete).
pub async fn read(
    ctx: Context<'_>,
    inv: &Invocation,
) -> Result<(std::sync::Arc<Session>, MechaState), BotError> {
    let session = inv.session(ctx).await?;
    if session.system != SystemId::MechaD20 {
        return Err(inv.user_error(&not_a_battle()));
    }
    let state = MechaState::read_or_default(&session.system_state);
    Ok((session, state))
}

/// [`run`] for a button press on the channel's battle, which must still be `session_id`. The
/// dispatcher has already checked who pressed.
pub async fn run_press<T: Send>(
    p: &Press<'_>,
    rolling: &crate::press::Rolling<'_>,
    session_id: i64,
    step: &mut Step<'_, T>,
) -> Result<(std::sync::Arc<Session>, T), BotError> {
    let mut produced: Option<T> = None;
    let session = p
        .data
        .store
        .update(p.interaction.channel_id.get(), |s| {
            if s.id != session_id || s.system != SystemId::MechaD20 {
                return Err(refusal(
                    "The battle of this button has ended.",
                    "このボタンの戦闘は終了しています。",
                ));
            }
            let out = rolling.dice().with(|r| step_on(s, r, step))?;
            produced = Some(out);
            Ok(())
        })
        .await
        .map_err(|e| crate::invocation::store_error(e, p.lang))?;
    let out = produced.ok_or_else(|| BotError::internal("battle step produced nothing"))?;
    Ok((session, out))
}
