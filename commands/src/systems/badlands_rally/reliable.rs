//! Reliable (seed データカード Hunter): one reroll of a test per lap, offered as a button on an
//! attack's result for each side whose gear has the trait and has not used it on this lap.
//!
//! The payloads are typed in [`super::press_data`]. `rally.reliable`: `session`, `request` (the [`RaceAttack`]), `outcome` (the result
//! being rerolled), `side`, `before` (the gears as they were before the attack) and `after`
//! (as the attack left them). Pressing rerolls from `before` through the engine's
//! `attack_reroll` (which spends the lap's Reliable and refuses when it is spent), provided the
//! gears are still as the attack left them; the message shows the new result, and the other
//! side's button comes back if its gear can still use Reliable.
//!
//! `rally.reliable_move`: the same for a gear's own test (burn rubber, jump, Off-Road
//! Specialist). Payload: `session`, `gear`, `action`, `title`, `before`, `after`; pressing
//! spends the lap's Reliable on the state before the test and runs the action again.
//!
//! `rally.reliable_check`: the same for an initiative-style check — pole position, a round's
//! initiative, the contested-victory check — one button per gear in it that can still use
//! Reliable. Payload: `session`, `gear`, `outcome` (the check's result), `ahead`, `round`,
//! `before` (the gears before the check) and `after`. Pressing rerolls that gear's check through
//! the engine's `initiative_reroll` (the lap's Reliable spent, the order rebuilt) and stores the
//! new order (the turn order and pole, or the contested result), provided the race is still as
//! the check left it.

use engine::session::{Actor, Session};
use engine::systems::badlands_rally::attack::{AttackOutcome, Side};
use engine::systems::badlands_rally::race::{
    Action, Entry, InitiativeKind, InitiativeOutcome, RaceAttack, RaceEvent, RaceState, Victory,
};
use engine::systems::badlands_rally::state::GearEvent;
use serde_json::{Value, json};
use serenity::all::{ButtonStyle, CreateInteractionResponseMessage};

use super::store::{self, rule};
use engine::systems::badlands_rally::rules::{RaceFacts, StoredContest};
use engine::systems::rules::SessionState;

use super::embeds::{action_view, attack_view, initiative_view, victory_view};
use crate::BotError;
use crate::offers;
use crate::press::{Answer, Press, PressLog, PressReply, Shown};

use super::press_data::{AttackReroll, CheckReroll, MoveReroll, RallyPress};
pub use super::press_data::{CHECK_KIND, KIND, MOVE_KIND};

/// The gears an attack touches: attacker, defender, adjacent.
fn involved(req: &RaceAttack) -> Vec<String> {
    let mut ids = vec![req.attacker.clone(), req.defender.clone()];
    for id in &req.adjacent {
        if !ids.contains(id) {
            ids.push(id.clone());
        }
    }
    ids
}

fn snapshot(race: &RaceState, ids: &[String]) -> Vec<Entry> {
    race.entries
        .iter()
        .filter(|e| ids.contains(&e.id))
        .cloned()
        .collect()
}

/// What an attack needs to offer Reliable afterwards.
#[derive(Debug, Clone)]
pub struct Offer {
    pub request: RaceAttack,
    pub outcome: AttackOutcome,
    pub before: Vec<Entry>,
    pub after: Vec<Entry>,
}

impl Offer {
    pub fn new(
        request: &RaceAttack,
        before: &RaceState,
        after: &RaceState,
        outcome: &AttackOutcome,
    ) -> Offer {
        let ids = involved(request);
        Offer {
            request: request.clone(),
            outcome: outcome.clone(),
            before: snapshot(before, &ids),
            after: snapshot(after, &ids),
        }
    }

    /// The sides whose gear may still reroll (before the attack), with the check there to reroll.
    fn sides(&self) -> Vec<(Side, String)> {
        let mut out = Vec::new();
        for (side, id, rolled) in [
            (
                Side::Attacker,
                &self.request.attacker,
                self.outcome.attack.is_some(),
            ),
            (
                Side::Defender,
                &self.request.defender,
                self.outcome.defence.is_some(),
            ),
        ] {
            let open = self
                .before
                .iter()
                .find(|e| &e.id == id)
                .is_some_and(|e| e.gear.reliable_available());
            if rolled && open {
                out.push((side, id.clone()));
            }
        }
        out
    }
}

fn label(side: Side, id: &str, lang: engine::i18n::Lang) -> String {
    match (side, lang) {
        (Side::Attacker, engine::i18n::Lang::En) => format!("Reliable: reroll {id}'s attack"),
        (Side::Attacker, engine::i18n::Lang::Ja) => format!("リライアブル：{id}の攻撃を振り直す"),
        (Side::Defender, engine::i18n::Lang::En) => format!("Reliable: reroll {id}'s defence"),
        (Side::Defender, engine::i18n::Lang::Ja) => format!("リライアブル：{id}の防御を振り直す"),
    }
}

/// The Reliable buttons for `offer`, each pressable by its gear's owner (or the GM). Buttons the
/// store refuses are left off (logged).
pub fn buttons(
    guild: Option<u64>,
    channel: u64,
    session: &Session,
    offer: &Offer,
    lang: engine::i18n::Lang,
) -> Vec<offers::Offer> {
    let mut out = Vec::new();
    for (side, id) in offer.sides() {
        let owner = session.entry(&id).map_or(session.gm, |e| e.owner);
        let action = RallyPress::Attack(Box::new(AttackReroll {
            session: session.id,
            request: offer.request.clone(),
            outcome: offer.outcome.clone(),
            side,
            before: offer.before.clone(),
            after: offer.after.clone(),
        }))
        .new_action(guild, channel, owner);
        out.push(offers::Offer::pending(
            action,
            label(side, &id, lang),
            ButtonStyle::Secondary,
        ));
    }
    out
}

pub async fn press(p: &Press<'_>, answer: Answer<'_>) -> Result<PressReply, BotError> {
    let decoded = RallyPress::decode(&p.action.kind, &p.action.payload).map_err(BotError::internal)?;
    // Every Reliable press rerolls.
    let rolling = answer.roll();
    let (log, shown, more) = match decoded {
        RallyPress::Attack(a) => reroll(p, &rolling, *a).await?,
        RallyPress::Move(m) => reroll_move(p, &rolling, m).await?,
        RallyPress::Check(c) => reroll_check(p, &rolling, c).await?,
    };
    // The message's buttons become the ones still open (none: the pressed one goes).
    Ok(rolling.show(shown, log).offering(offers::rows_of(more)))
}

async fn reroll(
    p: &Press<'_>,
    rolling: &crate::press::Rolling<'_>,
    press: AttackReroll,
) -> Result<(PressLog, Shown, Vec<offers::Offer>), BotError> {
    let AttackReroll {
        session: session_id,
        request,
        outcome,
        side,
        before,
        after,
    } = press;
    let (session, (report, offer)) = store::run_press(p, rolling, session_id, &mut |_, race, roller| {
        // The gears must be as the attack left them; otherwise the race has moved on.
        for e in &after {
            if race.gear(&e.id).ok() != Some(&e.gear) {
                return Err(store::refusal(
                    "The race has moved on since this attack; Reliable can no longer reroll it.",
                    "この攻撃の後にレースが進んだため、リライアブルで振り直せません。",
                ));
            }
        }
        let mut pre = race.clone();
        for e in &before {
            if let Some(slot) = pre.entries.iter_mut().find(|x| x.id == e.id) {
                slot.gear = e.gear.clone();
            }
        }
        let (next, report) = pre
            .attack_reroll(&request, &outcome, side, &mut &mut *roller)
            .map_err(rule)?;
        // For the other side's reroll: the state before the attack, this Reliable spent.
        let who = match side {
            Side::Attacker => &request.attacker,
            Side::Defender => &request.defender,
        };
        let spent = pre
            .apply(&RaceEvent::Gear {
                id: who.clone(),
                event: GearEvent::UseReliable,
            })
            .map_err(rule)?;
        let offer = Offer::new(&request, &spent, &next, &report.attack);
        Ok((next, (report, offer)))
    })
    .await?;
    let log = PressLog::new(session.id, "/rally reliable", &report);
    let lang = p.lang;
    let mut view = attack_view(&report, &request.attacker, &request.defender, lang);
    let who = match side {
        Side::Attacker => &request.attacker,
        Side::Defender => &request.defender,
    };
    view.footer = Some(match lang {
        engine::i18n::Lang::En => format!("Reliable: {who} rerolled (once per lap)"),
        engine::i18n::Lang::Ja => format!("リライアブル：{who}が振り直し（1ラップに1回）"),
    });
    let more = buttons(
        p.interaction.guild_id.map(|g| g.get()),
        p.interaction.channel_id.get(),
        &session,
        &offer,
        lang,
    );
    let shown = Shown::Update(CreateInteractionResponseMessage::new().embed(view.to_embed()));
    Ok((log, shown, more))
}

/// Whether Reliable may reroll this action's test: a roll, not recovery or a spin-out.
pub fn move_is_a_test(action: &Action) -> bool {
    matches!(
        action,
        Action::BurnRubber(_) | Action::Jump(_) | Action::JumpOnto { .. } | Action::OffRoad
    )
}

/// The Reliable button for a gear's own test, when its gear could still use it before the test.
#[allow(clippy::too_many_arguments)]
pub fn move_button(
    guild: Option<u64>,
    channel: u64,
    session: &Session,
    id: &str,
    action: &Action,
    title: &str,
    before: &RaceState,
    after: &RaceState,
    lang: engine::i18n::Lang,
) -> Option<offers::Offer> {
    let ids = [id.to_string()];
    let (pre, post) = (snapshot(before, &ids), snapshot(after, &ids));
    let open = pre.first().is_some_and(|e| e.gear.reliable_available());
    if !move_is_a_test(action) || !open {
        return None;
    }
    let owner = session.entry(id).map_or(session.gm, |e| e.owner);
    let new = RallyPress::Move(MoveReroll {
        session: session.id,
        gear: id.to_string(),
        action: action.clone(),
        title: title.to_string(),
        before: pre,
        after: post,
    })
    .new_action(guild, channel, owner);
    let label = match lang {
        engine::i18n::Lang::En => format!("Reliable: reroll {id}'s test"),
        engine::i18n::Lang::Ja => format!("リライアブル：{id}のテストを振り直す"),
    };
    Some(offers::Offer::pending(new, label, ButtonStyle::Secondary))
}

async fn reroll_move(
    p: &Press<'_>,
    rolling: &crate::press::Rolling<'_>,
    press: MoveReroll,
) -> Result<(PressLog, Shown, Vec<offers::Offer>), BotError> {
    let MoveReroll {
        session: session_id,
        gear: id,
        action,
        title,
        before,
        after,
    } = press;
    if !move_is_a_test(&action) {
        return Err(BotError::internal("Reliable offered on an action without a test"));
    }
    let (session, report) = store::run_press(p, rolling, session_id, &mut |_, race, roller| {
        for e in &after {
            if race.gear(&e.id).ok() != Some(&e.gear) {
                return Err(store::refusal(
                    "The race has moved on since this test; Reliable can no longer reroll it.",
                    "このテストの後にレースが進んだため、リライアブルで振り直せません。",
                ));
            }
        }
        let mut pre = race.clone();
        for e in &before {
            if let Some(slot) = pre.entries.iter_mut().find(|x| x.id == e.id) {
                slot.gear = e.gear.clone();
            }
        }
        // The lap's Reliable is spent first; the engine refuses when it already is.
        let pre = pre
            .apply(&RaceEvent::Gear {
                id: id.clone(),
                event: GearEvent::UseReliable,
            })
            .map_err(rule)?;
        let (next, report) = pre.act(&id, &action, &mut &mut *roller).map_err(rule)?;
        Ok((next, report))
    })
    .await?;
    let log = PressLog::new(session.id, &format!("/rally reliable {id}"), &report);
    let mut view = action_view(&title, &report, p.lang);
    view.footer = Some(match p.lang {
        engine::i18n::Lang::En => format!("Reliable: {id} rerolled (once per lap)"),
        engine::i18n::Lang::Ja => format!("リライアブル：{id}が振り直し（1ラップに1回）"),
    });
    let shown = Shown::Update(CreateInteractionResponseMessage::new().embed(view.to_embed()));
    Ok((log, shown, Vec::new()))
}

/// What an initiative-style check needs to offer Reliable afterwards.
#[derive(Debug, Clone)]
pub struct CheckOffer {
    pub outcome: InitiativeOutcome,
    pub ahead: Vec<String>,
    pub round: u32,
    pub before: Vec<Entry>,
    pub after: Vec<Entry>,
}

impl CheckOffer {
    /// `before`: the race the check was rolled on; `after`: as the check left it.
    pub fn new(
        outcome: &InitiativeOutcome,
        ahead: &[String],
        before: &RaceState,
        after: &RaceState,
    ) -> CheckOffer {
        let ids: Vec<String> = outcome.order.iter().map(|e| e.id.clone()).collect();
        CheckOffer {
            outcome: outcome.clone(),
            ahead: ahead.to_vec(),
            round: after.round,
            before: snapshot(before, &ids),
            after: snapshot(after, &ids),
        }
    }

    /// The gears in the check that could still use Reliable when it was rolled, in its order.
    fn gears(&self) -> Vec<String> {
        self.outcome
            .order
            .iter()
            .filter(|o| {
                self.before
                    .iter()
                    .find(|e| e.id == o.id)
                    .is_some_and(|e| e.gear.reliable_available())
            })
            .map(|o| o.id.clone())
            .collect()
    }
}

fn check_label(kind: InitiativeKind, id: &str, lang: engine::i18n::Lang) -> String {
    use engine::i18n::Lang::{En, Ja};
    match (kind, lang) {
        (InitiativeKind::Round, En) => format!("Reliable: reroll {id}'s initiative"),
        (InitiativeKind::Round, Ja) => format!("リライアブル：{id}のイニシアチブを振り直す"),
        (InitiativeKind::Pole, En) => format!("Reliable: reroll {id}'s pole position check"),
        (InitiativeKind::Pole, Ja) => format!("リライアブル：{id}のポール・ポジションを振り直す"),
        (InitiativeKind::Contested, En) => format!("Reliable: reroll {id}'s victory check"),
        (InitiativeKind::Contested, Ja) => format!("リライアブル：{id}の僅差勝利の判定を振り直す"),
    }
}

/// One Reliable button per gear of the check that can still use it, pressable by its owner (or
/// the GM). Buttons the store refuses are left off (logged).
pub fn check_buttons(
    guild: Option<u64>,
    channel: u64,
    session: &Session,
    offer: &CheckOffer,
    lang: engine::i18n::Lang,
) -> Vec<offers::Offer> {
    let mut out = Vec::new();
    for id in offer.gears().into_iter().take(25) {
        let owner = session.entry(&id).map_or(session.gm, |e| e.owner);
        let action = RallyPress::Check(CheckReroll {
            session: session.id,
            gear: id.clone(),
            outcome: offer.outcome.clone(),
            ahead: offer.ahead.clone(),
            round: offer.round,
            before: offer.before.clone(),
            after: offer.after.clone(),
        })
        .new_action(guild, channel, owner);
        out.push(offers::Offer::pending(
            action,
            check_label(offer.outcome.kind, &id, lang),
            ButtonStyle::Secondary,
        ));
    }
    out
}

/// Which contest a stored check belongs to: the contenders with the rounds in which they
/// finished (or reached six spin-outs caused), so a later race between the same gears is not
/// mistaken for it.
fn contest_key(race: &RaceState, ids: &[String]) -> Value {
    let key: Vec<Value> = ids
        .iter()
        .map(|id| {
            let st = race.gear(id).ok().map(|g| &g.state);
            json!([
                id,
                st.and_then(|s| s.finished_round),
                st.and_then(|s| s.derby_round)
            ])
        })
        .collect();
    Value::Array(key)
}

/// The contested-victory check stored with the race (`system_state.race.contest`) for these
/// contenders, so the check is rolled once and Reliable can reroll it.
pub fn stored_contest(session: &Session, race: &RaceState, ids: &[String]) -> Option<InitiativeOutcome> {
    RaceFacts::read_or_default(&session.system_state)
        .contest
        .filter(|c| c.key == contest_key(race, ids))
        .map(|c| c.outcome)
}

/// Keep the contested-victory check with the race.
pub fn store_contest(session: &mut Session, race: &RaceState, ids: &[String], out: &InitiativeOutcome) {
    let mut facts = RaceFacts::read_or_default(&session.system_state);
    facts.contest = Some(StoredContest {
        key: contest_key(race, ids),
        outcome: out.clone(),
    });
    facts.write(&mut session.system_state);
}

fn moved_on() -> engine::session::SessionError {
    store::refusal(
        "The race has moved on since this check; Reliable can no longer reroll it.",
        "この判定の後にレースが進んだため、リライアブルで振り直せません。",
    )
}

async fn reroll_check(
    p: &Press<'_>,
    rolling: &crate::press::Rolling<'_>,
    press: CheckReroll,
) -> Result<(PressLog, Shown, Vec<offers::Offer>), BotError> {
    let CheckReroll {
        session: session_id,
        gear: id,
        outcome,
        ahead,
        round,
        before,
        after,
    } = press;
    let ids: Vec<String> = outcome.order.iter().map(|e| e.id.clone()).collect();
    let (session, (out, offer)) = store::run_press(p, rolling, session_id, &mut |s, race, roller| {
        let play = outcome.play_order(&race.seating());
        // The race must be as the check left it: the same round, the same gears, and the order
        // (or the contested result) it decided still standing.
        if race.round != round {
            return Err(moved_on());
        }
        for e in &after {
            if race.gear(&e.id).ok() != Some(&e.gear) {
                return Err(moved_on());
            }
        }
        // The contenders as the race names them (the key the check is stored under).
        let contenders = match race.victory() {
            Victory::Contested { ids: v } => v,
            _ => Vec::new(),
        };
        let standing = match outcome.kind {
            InitiativeKind::Pole | InitiativeKind::Round => s.turn.order == play && s.turn.current == 0,
            InitiativeKind::Contested => {
                let (mut a, mut b) = (contenders.clone(), ids.clone());
                a.sort();
                b.sort();
                a == b && stored_contest(s, race, &contenders).as_ref() == Some(&outcome)
            }
        };
        if !standing {
            return Err(moved_on());
        }
        let mut pre = race.clone();
        for e in &before {
            if let Some(slot) = pre.entries.iter_mut().find(|x| x.id == e.id) {
                slot.gear = e.gear.clone();
            }
        }
        let (next, out) = pre
            .initiative_reroll(&outcome, &id, &ahead, &mut &mut *roller)
            .map_err(rule)?;
        match out.kind {
            InitiativeKind::Pole | InitiativeKind::Round => {
                let play = out.play_order(&next.seating());
                let names: Vec<&str> = play.iter().map(String::as_str).collect();
                s.set_turn_order(Actor::user(s.gm), &names)?;
            }
            InitiativeKind::Contested => store_contest(s, &next, &contenders, &out),
        }
        // For the other gears' rerolls: the race before the check, this Reliable spent.
        let spent = pre
            .apply(&RaceEvent::Gear {
                id: id.clone(),
                event: GearEvent::UseReliable,
            })
            .map_err(rule)?;
        let offer = CheckOffer::new(&out, &ahead, &spent, &next);
        Ok((next, (out, offer)))
    })
    .await?;
    let log = PressLog::new(session.id, &format!("/rally reliable {id}"), &out);
    let lang = p.lang;
    let mut view = match out.kind {
        InitiativeKind::Contested => victory_view(&Victory::Contested { ids }, Some(&out), lang),
        _ => initiative_view(&out, &session.turn.order, session.turn.round, lang),
    };
    view.footer = Some(match lang {
        engine::i18n::Lang::En => format!("Reliable: {id} rerolled (once per lap)"),
        engine::i18n::Lang::Ja => format!("リライアブル：{id}が振り直し（1ラップに1回）"),
    });
    let more = check_buttons(
        p.interaction.guild_id.map(|g| g.get()),
        p.interaction.channel_id.get(),
        &session,
        &offer,
        lang,
    );
    let shown = Shown::Update(CreateInteractionResponseMessage::new().embed(view.to_embed()));
    Ok((log, shown, more))
}
