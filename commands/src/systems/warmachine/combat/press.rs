//! The buttons after a hit: "Roll damage" / "Boosted damage", then "Apply damage".

use engine::i18n::Lang;
use engine::session::{Session, SessionError};
use engine::systems::warmachine::dice::DiceRequest;
use engine::systems::warmachine::{DamageRequest, ModelStatus, PowSource};
use serenity::all::CreateEmbed;

use super::apply_offer;
use super::damage::{Landing, damage_step, marked};
use crate::BotError;
use crate::press::{Answer, Press, PressLog, PressReply, Shown};
use crate::systems::warmachine::embeds as view;
use crate::systems::warmachine::log_summary::Unmarked;
use crate::systems::warmachine::press_data::{ApplyPress, BOOST, DamagePress, Moment};
use crate::systems::warmachine::store::{self, Game, model, raw_model, rule, say};

/// "Roll damage" / "Boosted damage" after a hit.
pub async fn damage_press(p: &Press<'_>, answer: Answer<'_>, d: DamagePress) -> Result<PressReply, BotError> {
    let lang = p.lang;
    let rolling = answer.roll();
    let boosted = p.variant.as_deref() == Some(BOOST);
    let req = DamageRequest {
        pow: d.pow.clone(),
        modifier: 0,
        dice: DiceRequest {
            boost: boosted,
            ..DiceRequest::default()
        },
    };
    let (o, landing, session) = match d.session {
        Some(sid) => {
            let (_, (o, landing, owner)) = store::run_press(p, Some(&rolling), sid, &mut |s, game, r| {
                if let Some(m) = &d.moment
                    && (m.games, m.moment) != (game.state.games, game.state.game.moment)
                {
                    return Err(moment_passed(&d, m));
                }
                let a = match &d.attacker {
                    Some(n) => model(game, n)?.clone(),
                    None => raw_model("", 0, 0, 0),
                };
                let (o, landing) = damage_step(game, &req, &a, d.target.as_deref(), d.arm, true, r)?;
                let owner = match &landing {
                    Landing::Later(t) => apply_owner(s, game, t, p.action.owner),
                    _ => p.action.owner,
                };
                Ok((o, landing, owner))
            })
            .await?;
            (o, landing, Some((sid, owner)))
        }
        None => {
            let a = raw_model("", 0, 0, 0);
            let mut g = Game {
                state: Default::default(),
                models: Default::default(),
            };
            let (o, landing) = rolling
                .dice()
                .with(|r| damage_step(&mut g, &req, &a, None, d.arm, true, r))
                .map_err(|e| say(&e, lang))?;
            (o, landing, None)
        }
    };
    let command = if boosted {
        "/wm boosted damage"
    } else {
        "/wm damage"
    };
    let log = match (session, &landing) {
        (Some((session, _)), Landing::Later(_)) => PressLog::new(session, command, &Unmarked(&o)),
        (Some((session, _)), _) => PressLog::new(session, command, &o),
        (None, _) => PressLog::outside_session(command, &o),
    };
    let mut buttons = vec![];
    if let (Landing::Later(name), Some((sid, owner))) = (&landing, session) {
        let press = ApplyPress {
            session: sid,
            target: name.clone(),
            damage: o.damage,
        };
        buttons.push(apply_offer(
            p.interaction.guild_id.map(|g| g.get()),
            p.interaction.channel_id.get(),
            owner,
            press,
            lang,
        ));
    }
    let mut v = view::damage_view(&o, marked(&landing), d.active.as_deref(), lang);
    if boosted {
        v.title.push_str(lang.pick(" (boosted)", "（ブースト）"));
    }
    // The Apply damage button (if any) replaces the pressed ones, stored with the row.
    Ok(rolling
        .show(Shown::appended(p, v.to_embed()), log)
        .offering(vec![buttons]))
}

/// Issue 29: a damage button past its attack's moment (WG-9) refuses, says why, and what to
/// type instead: `/wm damage` with the ARM the target had then.
fn moment_passed(d: &DamagePress, m: &Moment) -> SessionError {
    let who = match (&d.attacker, &d.target) {
        (Some(a), Some(t)) => format!("{a} → {t}"),
        (None, Some(t)) => t.clone(),
        (Some(a), None) => a.clone(),
        (None, None) => String::new(),
    };
    let attacker = d
        .attacker
        .as_ref()
        .map(|a| format!(" attacker:{a}"))
        .unwrap_or_default();
    let target = d
        .target
        .as_ref()
        .map(|t| format!(" target:{t}"))
        .unwrap_or_default();
    let pow = match &d.pow {
        PowSource::Weapon(w) => format!(" weapon:{w}"),
        PowSource::Value(v) => format!(" pow:{v}"),
    };
    let typed = format!("/wm damage{attacker}{target}{pow} arm:{}", m.arm);
    store::refusal(
        format!(
            "This damage belonged to its attack ({who}), and the game has moved on since (another attack, or the end of an activation or turn): effects may have changed. Roll it as it was with `{typed}` (ARM {} then); nothing is marked until Apply damage.",
            m.arm
        ),
        format!(
            "このダメージは攻撃（{who}）の時点のものですが、その後ゲームが進みました（別の攻撃、アクティベーションや手番の終了）。効果が変わっている可能性があります。当時のまま振るには `{typed}`（当時のARM {}）。ダメージを適用ボタンを押すまで記入されません。",
            m.arm
        ),
    )
}

/// Issue 29: who applies damage previewed on `target` (Apply damage): the roller when they
/// command it (its controller, its entry's owner), else its controller — the hand-over README
/// describes — or, for a controller who is no member, the entry's owner.
pub(super) fn apply_owner(s: &Session, game: &Game, target: &str, roller: u64) -> u64 {
    let controller = game
        .models
        .get(target)
        .and_then(|m| engine::systems::warmachine::players::user_id(&m.controller));
    let owner = s.entry(target).map(|e| e.owner);
    if controller == Some(roller) || owner == Some(roller) {
        return roller;
    }
    controller.or(owner).unwrap_or(roller)
}

/// The applied damage as the press shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Applied {
    pub target: String,
    pub damage: u32,
    pub boxes_before: engine::systems::warmachine::model::Boxes,
    pub boxes_after: engine::systems::warmachine::model::Boxes,
    pub status_after: ModelStatus,
    pub destroyed_by_hit: bool,
}

/// "Apply damage": mark damage rolled earlier on the target as it is now.
pub async fn apply_press(p: &Press<'_>, answer: Answer<'_>, a: ApplyPress) -> Result<PressReply, BotError> {
    let lang = p.lang;
    let (_, done) = store::run_press(p, None, a.session, &mut |_s, game, _r| {
        let m = game.models.get_mut(&a.target).ok_or_else(|| {
            rule(engine::systems::warmachine::RuleError::UnknownModel {
                name: a.target.clone(),
            })
        })?;
        m.alive().map_err(rule)?;
        let before = m.boxes();
        let destroyed_by_hit = m.take_hit(a.damage);
        Ok(Applied {
            target: a.target.clone(),
            damage: a.damage,
            boxes_before: before,
            boxes_after: m.boxes(),
            status_after: m.status,
            destroyed_by_hit,
        })
    })
    .await?;
    let log = PressLog::new(a.session, "/wm apply damage", &done);
    let mut text = format!(
        "{} {} → {}",
        done.target,
        view::boxes_text(done.boxes_before),
        view::boxes_text(done.boxes_after)
    );
    if let Some(b) = view::status_badge(done.status_after, lang) {
        text.push_str(&format!(" · {b}"));
    }
    let embed = CreateEmbed::new()
        .title(match lang {
            Lang::En => format!("✅ Damage applied: {}", done.damage),
            Lang::Ja => format!("✅ ダメージ適用：{}", done.damage),
        })
        .description(text)
        .colour(crate::embeds::colour::FAILURE);
    Ok(answer.show_logged(Shown::appended(p, embed), log))
}
