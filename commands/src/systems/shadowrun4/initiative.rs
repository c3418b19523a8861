//! Initiative for the session's characters (seed 3.1), stored as the session's turn order:
//! `/sr initiative roll` starts combat turn 1, `/sr initiative next` moves to the next
//! initiative pass, or, when every pass is spent, to a new combat turn that rolls again.
//! The state (scores, passes, this turn's Edge uses) lives in the session's `system_state`
//! under `shadowrun4.initiative.state`; the current pass's order is the session turn order.

use engine::i18n::Lang;
use engine::session::{Session, SessionError};
use engine::systems::shadowrun4::RuleError;
use engine::systems::shadowrun4::initiative::{Combatant, InitiativeState, roll_initiative};
use serde_json::json;

use engine::systems::rules::SessionState;

use super::common::{self, Op, find_char, rule, sr_session};
use super::embeds as view;
use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// Initiative (GM): roll it, or move on to the next pass or turn
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "イニシアティブ"),
    description_localized("ja", "イニシアティブ（GM）：ロール、次のパス・ターンへ"),
    subcommands("roll_cmd", "next"),
    subcommand_required
)]
pub async fn initiative(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Edge uses named in the options (seed 2): push the test, act first, an extra pass.
struct Uses {
    push: Vec<String>,
    seize: Vec<String>,
    extra: Vec<String>,
}

fn listed(list: &[String], name: &str) -> bool {
    list.iter().any(|p| p.trim().eq_ignore_ascii_case(name.trim()))
}

impl Uses {
    fn new(push: Option<&str>, seize: Option<&str>, extra: Option<&str>) -> Uses {
        Uses {
            push: common::name_list(push),
            seize: common::name_list(seize),
            extra: common::name_list(extra),
        }
    }

    /// Every name must be one of `names`.
    fn check(&self, inv: &Invocation, names: &[String]) -> Result<(), BotError> {
        for p in self.push.iter().chain(&self.seize).chain(&self.extra) {
            if !names.iter().any(|n| n.trim().eq_ignore_ascii_case(p.trim())) {
                return Err(inv.user_error(&SessionError::UnknownEntry { name: p.clone() }));
            }
        }
        Ok(())
    }

    /// One Edge point per use; refused when a character has too few.
    fn ops(
        &self,
        inv: &Invocation,
        session: &Session,
        state: &InitiativeState,
        pushed: bool,
    ) -> Result<Vec<(String, Op)>, BotError> {
        let mut ops = Vec::new();
        for e in &state.entries {
            let uses = [(&self.push, pushed), (&self.seize, true), (&self.extra, true)]
                .iter()
                .filter(|(l, on)| *on && listed(l, &e.name))
                .count();
            if uses == 0 {
                continue;
            }
            let c = find_char(inv, session, &e.name)?;
            if uses as u32 > c.character.edge_points {
                return Err(rule(inv, &RuleError::NoEdgeLeft));
            }
            ops.extend((0..uses).map(|_| (c.name.clone(), Op::SpendEdge)));
        }
        Ok(ops)
    }
}

/// The entry name of `name` in the state (any case).
fn canonical(state: &InitiativeState, name: &str) -> Result<String, RuleError> {
    state
        .entries
        .iter()
        .find(|e| e.name.eq_ignore_ascii_case(name.trim()))
        .map(|e| e.name.clone())
        .ok_or_else(|| RuleError::UnknownCombatant {
            name: name.trim().chars().take(64).collect(),
        })
}

/// Seize and extra-pass uses applied to a state.
fn apply_uses(state: InitiativeState, list: &[String], seize: bool) -> Result<InitiativeState, RuleError> {
    let mut state = state;
    for n in list {
        let n = canonical(&state, n)?;
        state = if seize {
            state.seize_first(&n)?
        } else {
            state.extra_pass(&n)?
        };
    }
    Ok(state)
}

/// The combatants from the sheets as they are now (wounds, sustaining), pushing the limit
/// where asked.
fn combatants(
    inv: &Invocation,
    session: &Session,
    names: &[String],
    push: &[String],
) -> Result<Vec<Combatant>, BotError> {
    let mut out = Vec::new();
    for n in names {
        let c = find_char(inv, session, n)?;
        let mut cb = Combatant::from_sheet(&c.character);
        cb.push_the_limit = listed(push, &c.name);
        out.push(cb);
    }
    Ok(out)
}

/// Where the fight is: the combat turn and the initiative pass, in the same words on
/// `/sr initiative` and `/session status`.
pub fn turn_label(turn: u32, pass: u32, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Turn {turn} · pass {pass}"),
        Lang::Ja => format!("ターン{turn} · パス{pass}"),
    }
}

/// The stored initiative, if `/sr initiative roll` saved one.
pub fn stored_state(session: &Session) -> Option<InitiativeState> {
    let v = session
        .system_state
        .get(common::STATE_KEY)?
        .get("initiative")?
        .get("state")?;
    serde::Deserialize::deserialize(v).ok()
}

/// The stored initiative record (turn, pass, order, state), as `next` reads it.
fn stored_record(session: &Session) -> Option<&serde_json::Value> {
    session.system_state.get(common::STATE_KEY)?.get("initiative")
}

/// What `/sr initiative next` was computed from must still be stored: a concurrent `next` or
/// `roll` saved since would otherwise be overwritten and its Edge spent twice.
fn unchanged_since(s: &Session, read: Option<&serde_json::Value>) -> Result<(), SessionError> {
    if stored_record(s) == read {
        Ok(())
    } else {
        Err(SessionError::Rule {
            en: "The initiative changed meanwhile (another /sr initiative command); nothing was saved. Try again."
                .into(),
            ja: "その間にイニシアティブが変更されました（別の /sr initiative コマンド）。何も保存していません。もう一度実行してください。"
                .into(),
        })
    }
}

/// The turn order and the initiative record written into the session (inside the transaction).
/// `read`: for `next`, the record the new state was computed from (refused if it changed).
fn write_initiative(
    s: &mut Session,
    actor: engine::session::Actor,
    read: Option<Option<&serde_json::Value>>,
    order: &[String],
    stored: &serde_json::Value,
) -> Result<(), SessionError> {
    if let Some(read) = read {
        unchanged_since(s, read)?;
    }
    let refs: Vec<&str> = order.iter().map(String::as_str).collect();
    s.set_turn_order(actor, &refs)?;
    let mut st = common::state(s);
    st.initiative = Some(stored.clone());
    st.write(&mut s.system_state);
    Ok(())
}

/// The Edge points and the turn order (the current pass's) in ONE session transaction. With
/// `from_stored` (`next`), only if the stored initiative is still the one `session` holds.
async fn save(
    ctx: Context<'_>,
    inv: &Invocation,
    session: &Session,
    state: &InitiativeState,
    ops: &[(String, Op)],
    from_stored: bool,
) -> Result<std::sync::Arc<Session>, BotError> {
    let order: Vec<String> = state.order().iter().map(|e| e.name.clone()).collect();
    // The dice stay in the log; the state keeps what the next pass and turn need.
    let mut kept = state.clone();
    for e in &mut kept.entries {
        e.roll = None;
    }
    let stored = json!({
        "turn": state.turn, "pass": state.pass, "order": order,
        "extra_pass": state.extra_pass, "acting_first": state.acting_first,
        "state": kept,
    });
    let actor = inv.actor;
    let read = from_stored.then(|| stored_record(session));
    let store = ctx.data().store.clone();
    let (saved, _) = common::save_ops_with(
        &*store,
        inv.channel,
        inv.lang,
        Some(actor),
        session.id,
        ops,
        &mut |s| write_initiative(s, actor, read, &order, &stored),
    )
    .await?;
    Ok(saved)
}

fn gm(inv: &Invocation, session: &Session) -> Result<(), BotError> {
    if session.may_manage(inv.actor) {
        Ok(())
    } else {
        Err(inv.user_error(&SessionError::NotGm))
    }
}

/// Roll initiative (GM): combat turn 1, pass 1; the order becomes the session's turn order
#[poise::command(
    slash_command,
    guild_only,
    rename = "roll",
    name_localized("ja", "ロール"),
    description_localized("ja", "イニシアティブ（GM）：ロールして第1ターン第1パスの手番順にする")
)]
pub async fn roll_cmd(
    ctx: Context<'_>,
    #[description = "Characters, comma separated (default all)"]
    #[name_localized("ja", "参加者")]
    #[description_localized("ja", "キャラクター（カンマ区切り、既定は全員）")]
    #[max_length = 500]
    characters: Option<String>,
    #[description = "Who pushes the limit (Edge)"]
    #[name_localized("ja", "エッジ使用")]
    #[description_localized("ja", "エッジで限界突破する者")]
    #[max_length = 500]
    push: Option<String>,
    #[description = "Who seizes pass 1 (Edge)"]
    #[name_localized("ja", "先行行動")]
    #[description_localized("ja", "エッジで第1パスに先行行動する者")]
    #[max_length = 500]
    seize: Option<String>,
    #[description = "Who spends Edge for an extra pass"]
    #[name_localized("ja", "追加パス")]
    #[description_localized("ja", "エッジでこのターン追加パスを得る者")]
    #[max_length = 500]
    extra_pass: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = sr_session(ctx, &inv).await?;
    gm(&inv, &session)?;
    let mut names = common::name_list(characters.as_deref());
    if names.is_empty() {
        names = session.roster.iter().map(|e| e.name.clone()).collect();
    }
    let uses = Uses::new(push.as_deref(), seize.as_deref(), extra_pass.as_deref());
    uses.check(&inv, &names)?;
    let list = combatants(&inv, &session, &names, &uses.push)?;
    let (roll, state) =
        common::roll(ctx, |r| roll_initiative(&list, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    // Refused after the dice: the command answers with the error, and logs nothing.
    let state = roll.or_abandon(apply_uses(state, &uses.seize, true).map_err(|e| rule(&inv, &e)))?;
    let state = roll.or_abandon(apply_uses(state, &uses.extra, false).map_err(|e| rule(&inv, &e)))?;
    let ops = roll.or_abandon(uses.ops(&inv, &session, &state, true))?;
    let saved = roll.or_abandon(save(ctx, &inv, &session, &state, &ops, false).await)?;
    let v = view::initiative_view(&state, inv.lang);
    common::reply(roll, &inv, Some(&saved), v, Vec::new(), &state).await
}

/// Next pass (GM); once every pass is spent, a new combat turn rolls initiative again
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "次"),
    description_localized(
        "ja",
        "次のパス（GM）。全員のパスが尽きたら新しい戦闘ターンでイニシアティブを振り直す"
    )
)]
pub async fn next(
    ctx: Context<'_>,
    #[description = "Who seizes the next pass (Edge)"]
    #[name_localized("ja", "先行行動")]
    #[description_localized("ja", "エッジで次のパスに先行行動する者")]
    #[max_length = 500]
    seize: Option<String>,
    #[description = "Who spends Edge for an extra pass"]
    #[name_localized("ja", "追加パス")]
    #[description_localized("ja", "エッジでこのターン追加パスを得る者（1ターン1回）")]
    #[max_length = 500]
    extra_pass: Option<String>,
    #[description = "New turn: who pushes the limit (Edge)"]
    #[name_localized("ja", "エッジ使用")]
    #[description_localized("ja", "新しいターンのとき：エッジで限界突破する者")]
    #[max_length = 500]
    push: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let session = sr_session(ctx, &inv).await?;
    gm(&inv, &session)?;
    let current = stored_state(&session).ok_or_else(|| {
        inv.text(
            "No initiative yet: roll it first with /sr initiative roll.",
            "イニシアティブがまだありません。先に /sr initiative roll で振ってください。",
        )
    })?;
    // Characters removed from the session since leave the order.
    let mut current = current;
    current.entries.retain(|e| session.entry(&e.name).is_some());
    let names: Vec<String> = current.entries.iter().map(|e| e.name.clone()).collect();
    current.acting_first.retain(|n| names.contains(n));
    current.extra_pass.retain(|n| names.contains(n));
    if names.is_empty() {
        return Err(inv.user_error(&SessionError::NoTurnOrder));
    }
    let uses = Uses::new(push.as_deref(), seize.as_deref(), extra_pass.as_deref());
    uses.check(&inv, &names)?;
    let extra = uses
        .extra
        .iter()
        .map(|n| canonical(&current, n))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| rule(&inv, &e))?;
    let same_turn = current.advance(&extra).map_err(|e| rule(&inv, &e))?;
    // The next pass rolls nothing; a new turn rolls, and is logged as any roll.
    let roll = CommandRoll::new(ctx);
    let (state, new_turn) = match same_turn {
        Some(s) => (s, false),
        None => {
            // Seed 3.1 step 5: everyone has acted in every pass; a new turn rolls again, with
            // the sheets as they are now (wounds, sustaining); this turn's Edge uses are reset.
            let list = combatants(&inv, &session, &names, &uses.push)?;
            let rolled = roll.or_abandon(
                roll.with(|r| current.next_turn(&list, &mut &mut *r))
                    .map_err(|e| rule(&inv, &e)),
            )?;
            let rolled =
                roll.or_abandon(apply_uses(rolled, &uses.extra, false).map_err(|e| rule(&inv, &e)))?;
            (rolled, true)
        }
    };
    if !new_turn && !uses.push.is_empty() {
        return Err(inv.text(
            "push: only applies when a new combat turn rolls initiative; this is the next pass.",
            "エッジ使用は新しい戦闘ターンでイニシアティブを振るときだけです。今回は次のパスです。",
        ));
    }
    let state = roll.or_abandon(apply_uses(state, &uses.seize, true).map_err(|e| rule(&inv, &e)))?;
    let ops = roll.or_abandon(uses.ops(&inv, &session, &state, new_turn))?;
    let saved = roll.or_abandon(save(ctx, &inv, &session, &state, &ops, true).await)?;
    let v = view::initiative_view(&state, inv.lang);
    common::reply(roll, &inv, Some(&saved), v, Vec::new(), &state).await
}

#[cfg(test)]
mod tests {
    use engine::session::{Actor, RosterEntry, Session, SessionError, SystemId};
    use serde_json::json;

    use super::{stored_record, write_initiative};

    const GM: Actor = Actor {
        user: 1,
        manage_server: false,
    };

    fn session() -> Session {
        let mut s = Session::start(10, 20, "Run", SystemId::Shadowrun4, GM.user, 0).expect("session");
        s.roster.push(RosterEntry::new("Ana", 2));
        s.roster.push(RosterEntry::new("Bob", 3));
        s
    }

    fn record(turn: u32, pass: u32, order: &[&str]) -> serde_json::Value {
        json!({ "turn": turn, "pass": pass, "order": order, "state": { "turn": turn, "pass": pass } })
    }

    fn names(order: &[&str]) -> Vec<String> {
        order.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn two_nexts_from_the_same_initiative_the_second_is_refused_and_writes_nothing() {
        let mut s = session();
        write_initiative(
            &mut s,
            GM,
            None,
            &names(&["Ana", "Bob"]),
            &record(1, 1, &["Ana", "Bob"]),
        )
        .expect("roll");
        // Both `next` runs read turn 1 pass 1.
        let read = s.clone();
        let from = stored_record(&read);
        write_initiative(&mut s, GM, Some(from), &names(&["Ana"]), &record(1, 2, &["Ana"]))
            .expect("the first next lands");
        let before = s.clone();
        let e = write_initiative(
            &mut s,
            GM,
            Some(from),
            &names(&["Bob", "Ana"]),
            &record(2, 1, &["Bob", "Ana"]),
        )
        .expect_err("the second next started from a stale initiative");
        let SessionError::Rule { en, ja } = e else {
            panic!("a rule error, not {e:?}");
        };
        assert!(en.contains("changed meanwhile"), "{en}");
        assert!(ja.contains("もう一度"), "{ja}");
        assert_eq!(s.system_state, before.system_state, "the first next is kept");
        assert_eq!(s.turn.order, vec!["Ana".to_string()]);
    }

    #[test]
    fn a_roll_saved_meanwhile_also_refuses_a_next_and_a_fresh_read_lands() {
        let mut s = session();
        write_initiative(
            &mut s,
            GM,
            None,
            &names(&["Ana", "Bob"]),
            &record(1, 1, &["Ana", "Bob"]),
        )
        .expect("roll");
        let stale = s.clone();
        // A new roll (no check) replaces the initiative meanwhile.
        write_initiative(
            &mut s,
            GM,
            None,
            &names(&["Bob", "Ana"]),
            &record(1, 1, &["Bob", "Ana"]),
        )
        .expect("roll again");
        assert!(
            write_initiative(
                &mut s,
                GM,
                Some(stored_record(&stale)),
                &names(&["Ana"]),
                &record(1, 2, &["Ana"])
            )
            .is_err()
        );
        let fresh = s.clone();
        write_initiative(
            &mut s,
            GM,
            Some(stored_record(&fresh)),
            &names(&["Bob"]),
            &record(1, 2, &["Bob"]),
        )
        .expect("computed from what is stored");
        assert_eq!(s.system_state["shadowrun4"]["initiative"]["pass"], 2);
    }
}
