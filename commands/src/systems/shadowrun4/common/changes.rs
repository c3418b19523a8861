//! Edge before the roll, and sheet changes (Edge spent or burnt, damage, sustaining) saved
//! inside the session transaction.

use engine::i18n::{Lang, Localized};
use engine::session::{Actor, Session, SessionError};
use engine::systems::shadowrun4::character::{Character, DamageReport, DamageType};
use engine::systems::shadowrun4::sheet::{self};
use engine::systems::shadowrun4::{EdgeBefore, RuleError};

use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;

use super::{EdgeChoice, Sr4Char, rule};
use crate::{BotError, Context};

/// A change to a character's sheet, applied inside the session transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    SpendEdge,
    /// Spend a point of Edge use that was authorised when the roll was made (a target's soak
    /// Edge asked for by its owner or the GM on `/sr attack`, first rolled after a press): no
    /// owner check against whoever spends it now, but the point must still be there.
    SpendAuthorisedEdge,
    /// Burn a point of the Edge attribute (seed 2: critical success).
    BurnEdge,
    /// Seed 2: burn a point of Edge to live through a killing blow (the character must be dead).
    CheatDeath,
    Damage(DamageType, u32),
    /// Start sustaining one more spell or complex form (−2 dice per sustained effect).
    Sustain,
    /// Drop one sustained spell or complex form.
    DropSustained,
}

/// Edge before the roll: from the character's sheet (a point is spent when the roll is saved)
/// or from `edge_rating` for a bare pool.
pub fn edge_before(
    inv: &Invocation,
    choice: Option<EdgeChoice>,
    who: Option<&Sr4Char>,
    edge_rating: Option<i64>,
) -> Result<Option<EdgeBefore>, BotError> {
    let Some(choice) = choice else { return Ok(None) };
    let long = choice == EdgeChoice::LongShot;
    match who {
        Some(c) => c
            .character
            .edge_before(long)
            .map(|(_, e)| Some(e))
            .map_err(|e| rule(inv, &e)),
        None => {
            let edge = edge_rating.ok_or_else(|| {
                inv.text(
                    "Edge with a bare pool needs edge_rating (the Edge attribute).",
                    "キャラクターなしでエッジを使うには edge_rating（【エッジ】）が必要です。",
                )
            })?;
            let edge = u32::try_from(edge).unwrap_or(0);
            Ok(Some(if long {
                EdgeBefore::LongShot { edge }
            } else {
                EdgeBefore::PushTheLimit { edge }
            }))
        }
    }
}

/// Edge before a roll is the character's owner's (or the GM's) to spend: checked before any die
/// is rolled, as the transaction that spends it checks again.
pub fn edge_before_by(
    inv: &Invocation,
    session: Option<&Session>,
    choice: Option<EdgeChoice>,
    who: Option<&Sr4Char>,
    edge_rating: Option<i64>,
) -> Result<Option<EdgeBefore>, BotError> {
    if choice.is_some()
        && let Some(c) = who
        && c.owner != inv.user
        && !session.is_some_and(|s| s.may_manage(inv.actor))
    {
        return Err(inv.user_error(&SessionError::NotOwner { name: c.name.clone() }));
    }
    edge_before(inv, choice, who, edge_rating)
}

fn rule_session(e: &impl Localized) -> SessionError {
    SessionError::Rule {
        en: e.localized(Lang::En),
        ja: e.localized(Lang::Ja),
    }
}

/// Apply `ops` to the named characters in one session transaction. Spending Edge needs the
/// character's owner or the GM. Returns the saved session and the damage reports in order.
pub async fn save_ops(
    store: &dyn crate::store::Store,
    channel: u64,
    lang: Lang,
    actor: Option<Actor>,
    session_id: i64,
    ops: &[(String, Op)],
) -> Result<(std::sync::Arc<Session>, Vec<(String, DamageReport, Character)>), BotError> {
    save_ops_with(store, channel, lang, actor, session_id, ops, &mut |_| Ok(())).await
}

/// [`save_ops`] plus `extra`, run in the same session transaction after the ops (the turn
/// order, the record of a roll's Edge use).
pub async fn save_ops_with(
    store: &dyn crate::store::Store,
    channel: u64,
    lang: Lang,
    actor: Option<Actor>,
    session_id: i64,
    ops: &[(String, Op)],
    extra: &mut (dyn FnMut(&mut Session) -> Result<(), SessionError> + Send),
) -> Result<(std::sync::Arc<Session>, Vec<(String, DamageReport, Character)>), BotError> {
    let mut reports = Vec::new();
    let saved = store
        .update_session(channel, &mut |s: &mut Session| {
            reports.clear();
            if s.id != session_id {
                return Err(SessionError::Rule {
                    en: "The session of this roll has ended.".into(),
                    ja: "このロールのセッションは終了しています。".into(),
                });
            }
            for (name, op) in ops {
                let Some(index) = s.roster.iter().position(|e| e.name == *name) else {
                    return Err(SessionError::UnknownEntry { name: name.clone() });
                };
                let entry = &s.roster[index];
                let (sh, c) = sheet::character(&entry.sheet, &entry.name).map_err(|e| rule_session(&e))?;
                if matches!(
                    op,
                    Op::SpendEdge | Op::BurnEdge | Op::CheatDeath | Op::Sustain | Op::DropSustained
                ) && let Some(a) = actor
                    && entry.owner != a.user
                    && !s.may_manage(a)
                {
                    return Err(SessionError::NotOwner { name: name.clone() });
                }
                let next = match op {
                    Op::SpendEdge | Op::SpendAuthorisedEdge => {
                        c.spend_edge().map_err(|e| rule_session(&e))?
                    }
                    Op::BurnEdge => c.burn_edge().map_err(|e| rule_session(&e))?,
                    Op::CheatDeath => c.cheat_death().map_err(|e| rule_session(&e))?,
                    Op::Sustain => c
                        .set_sustained(c.sustained.saturating_add(1))
                        .map_err(|e| rule_session(&e))?,
                    Op::DropSustained => c.drop_sustained().map_err(|e| rule_session(&e))?,
                    Op::Damage(t, boxes) => {
                        let (next, report) = c.apply_damage(*t, *boxes).map_err(|e| rule_session(&e))?;
                        reports.push((name.clone(), report, next.clone()));
                        next
                    }
                };
                s.roster[index].sheet = sheet::write(&sh, &next).into();
            }
            extra(s)
        })
        .await
        .map_err(|e| match e {
            crate::store::StoreError::NotFound => BotError::User(
                lang.pick(
                    "No session is running in this channel.",
                    "このチャンネルには進行中のセッションがありません。",
                )
                .to_string(),
            ),
            other => crate::invocation::store_error(other, lang),
        })?;
    Ok((saved, reports))
}

/// Spend the Edge points a command used (nothing when `names` is empty).
pub async fn spend_edge(
    ctx: Context<'_>,
    inv: &Invocation,
    session: Option<&Session>,
    names: &[String],
) -> Result<(), BotError> {
    if names.is_empty() {
        return Ok(());
    }
    let session = session.ok_or_else(|| inv.no_session())?;
    let ops: Vec<(String, Op)> = names.iter().map(|n| (n.clone(), Op::SpendEdge)).collect();
    save_ops(
        &*ctx.data().store,
        inv.channel,
        inv.lang,
        Some(inv.actor),
        session.id,
        &ops,
    )
    .await?;
    Ok(())
}

/// Roll with the bot's dice: the outcome, with the [`CommandRoll`] that answers and logs it.
pub fn roll<'a, T>(
    ctx: Context<'a>,
    f: impl FnOnce(&mut dyn engine::dice::Roller) -> Result<T, RuleError>,
) -> Result<(CommandRoll<'a>, T), RuleError> {
    CommandRoll::roll(ctx, f)
}

/// Who presses an Apply damage (or drain) button for `target`: its owner (the GM for an NPC) —
/// or the roller, where the server's `sr.roller_applies_damage` is on, or when `target` is not
/// a roster character.
pub fn damage_owner(
    session: &engine::session::Session,
    target: &str,
    roller: u64,
    settings: &engine::session::ServerSettings,
) -> u64 {
    let roller_may =
        engine::systems::shadowrun4::rules::ROLLER_APPLIES_DAMAGE.value_in(&settings.house) == "on";
    match session.entry(target) {
        Some(e) if !roller_may => e.owner,
        _ => roller,
    }
}
