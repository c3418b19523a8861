//! Initiative for the session's characters, stored as the session's turn order.

use engine::session::SessionError;
use engine::systems::shadowrun4::RuleError;
use engine::systems::shadowrun4::initiative::{Combatant, roll_initiative};
use serde_json::json;

use super::common::{self, Op, find_char, rule, sr_session, start};
use crate::embeds::sr as view;
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// Roll initiative (GM): the order becomes the session's turn order
#[poise::command(
    slash_command,
    guild_only,
    name_localized("ja", "イニシアティブ"),
    description_localized("ja", "イニシアティブ（GM）：結果をセッションの手番順にする")
)]
pub async fn initiative(
    ctx: Context<'_>,
    #[description = "Characters, comma separated (default: everyone in the session)"]
    #[name_localized("ja", "参加者")]
    #[description_localized("ja", "キャラクター（カンマ区切り、既定は全員）")]
    #[max_length = 500]
    characters: Option<String>,
    #[description = "Who spends Edge to push the limit on the test"]
    #[name_localized("ja", "エッジ使用")]
    #[description_localized("ja", "エッジで限界突破する者")]
    #[max_length = 500]
    push: Option<String>,
    #[description = "Who spends Edge to act first in pass 1"]
    #[name_localized("ja", "先行行動")]
    #[description_localized("ja", "エッジで第1パスに先行行動する者")]
    #[max_length = 500]
    seize: Option<String>,
    #[description = "Who spends Edge for an extra pass this turn"]
    #[name_localized("ja", "追加パス")]
    #[description_localized("ja", "エッジでこのターン追加パスを得る者")]
    #[max_length = 500]
    extra_pass: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    start(&inv)?;
    let session = sr_session(ctx, &inv).await?;
    if !session.may_manage(inv.actor) {
        return Err(inv.user_error(&SessionError::NotGm));
    }
    let mut names = common::name_list(characters.as_deref());
    if names.is_empty() {
        names = session.roster.iter().map(|e| e.name.clone()).collect();
    }
    let push = common::name_list(push.as_deref());
    let seize = common::name_list(seize.as_deref());
    let extra = common::name_list(extra_pass.as_deref());
    let listed = |list: &[String], name: &str| list.iter().any(|p| p.trim().eq_ignore_ascii_case(name));
    for p in push.iter().chain(&seize).chain(&extra) {
        if !names.iter().any(|n| n.trim().eq_ignore_ascii_case(p)) {
            return Err(inv.user_error(&SessionError::UnknownEntry { name: p.clone() }));
        }
    }
    let mut combatants = Vec::new();
    // One Edge point per use (seed 2): pushing the test, acting first, the extra pass.
    let mut ops: Vec<(String, Op)> = Vec::new();
    let (mut seizing, mut extra_names) = (Vec::new(), Vec::new());
    for n in &names {
        let c = find_char(&inv, &session, n)?;
        let mut cb = Combatant::from_sheet(&c.character);
        let uses = [&push, &seize, &extra]
            .iter()
            .filter(|l| listed(l, &c.name))
            .count();
        if uses as u32 > c.character.edge_points {
            return Err(rule(&inv, &RuleError::NoEdgeLeft));
        }
        cb.push_the_limit = listed(&push, &c.name);
        if listed(&seize, &c.name) {
            seizing.push(c.name.clone());
        }
        if listed(&extra, &c.name) {
            extra_names.push(c.name.clone());
        }
        ops.extend((0..uses).map(|_| (c.name.clone(), Op::SpendEdge)));
        combatants.push(cb);
    }
    let mut state =
        common::roll(ctx, |r| roll_initiative(&combatants, &mut &mut *r)).map_err(|e| rule(&inv, &e))?;
    for n in &seizing {
        state = state.seize_first(n).map_err(|e| rule(&inv, &e))?;
    }
    for n in &extra_names {
        state = state.extra_pass(n).map_err(|e| rule(&inv, &e))?;
    }
    // Pass 1 as it will be played: those acting first with Edge, then the others.
    let order: Vec<String> = state.order().iter().map(|e| e.name.clone()).collect();
    let actor = inv.actor;
    let stored = json!({
        "turn": state.turn, "pass": state.pass, "order": order,
        "extra_pass": state.extra_pass, "acting_first": state.acting_first,
    });
    // The Edge points and the turn order in ONE session transaction.
    let store = ctx.data().store.clone();
    let (saved, _) = common::save_ops_with(
        &*store,
        inv.channel,
        inv.lang,
        Some(actor),
        session.id,
        &ops,
        &mut |s| {
            let refs: Vec<&str> = order.iter().map(String::as_str).collect();
            s.set_turn_order(actor, &refs)?;
            if !s.system_state.is_object() {
                s.system_state = json!({});
            }
            let st = &mut s.system_state[common::STATE_KEY];
            if !st.is_object() {
                *st = json!({});
            }
            st["initiative"] = stored.clone();
            Ok(())
        },
    )
    .await?;
    let v = view::initiative_view(&state, inv.lang);
    common::reply(ctx, &inv, Some(&saved), v, Vec::new(), &state).await
}
