//! The `/sr` buttons. Their state is the action's press data ([`SrPress`], stored as the
//! action's kind and payload, see `press_data`) plus the session, so they work after a
//! restart; the dispatcher lets only the roller or the GM press, once.
//!
//! - `sr.second_chance`: spend one Edge point of the character and reroll the misses of the
//!   roll the press carries ([`EdgeRoll`]: a test, opposed, extended or teamwork test, one side
//!   of an attack, a spell, summoning, dispelling, threading or compiling).
//! - `sr.negate_glitch` / `sr.edge_dice` / `sr.burn_edge`: the same data; spend a point to
//!   cancel the glitch or to add Edge dice (only they explode), or burn one for a critical
//!   success (tests). Every Edge button of one roll shares `roll_id`, recorded in the session
//!   with the Edge spent: one Edge use per roll. An attack and the magic rolls carry the Apply
//!   damage (drain) action the press replaces, and offer it again.
//! - `sr.cheat_death`: after damage killed a character with Edge left, its owner or the GM
//!   burns a point of Edge to live, unconscious.
//! - `sr.apply_damage`: mark the boxes on the target's monitor.

use engine::i18n::{Lang, Localized};
use engine::session::Session;
use engine::systems::shadowrun4::DamageType;
use engine::systems::shadowrun4::character::EdgeAfterKind;
use engine::systems::shadowrun4::combat::{AttackOutcome, AttackRequest, AttackRoll};
use engine::systems::shadowrun4::magic::DrainOutcome;
use engine::systems::shadowrun4::test_kinds::Side;

use crate::log_line::Logged;
use serenity::all::{CreateActionRow, CreateEmbed, CreateInteractionResponseMessage};

use super::common::{self, Op, save_ops, save_ops_with};
use super::embeds as view;
use super::press_data::{AttackEdge, CheatDeathPress, DamagePress, EdgePress, EdgeRoll, SrPress};
use crate::BotError;
use crate::embeds::EmbedView;
use crate::press::{Answer, Press, PressLog, PressReply, Rolling, Shown};
use crate::store::StoreError;

pub async fn press(p: &Press<'_>, answer: Answer<'_>) -> Result<PressReply, BotError> {
    // An unknown kind or an unreadable payload is ours to fix: an internal error.
    let press = SrPress::from_action(&p.action.kind, &p.action.payload)
        .map_err(|e| BotError::internal(e.to_string()))?;
    match press {
        SrPress::SecondChance(e) => second_chance(p, answer.roll(), EdgeAfterKind::SecondChance, e).await,
        SrPress::NegateGlitch(e) => second_chance(p, answer.roll(), EdgeAfterKind::NegateGlitch, e).await,
        SrPress::EdgeDice(e) => second_chance(p, answer.roll(), EdgeAfterKind::AddDice, e).await,
        SrPress::BurnEdge(e) => {
            second_chance(p, answer.roll(), EdgeAfterKind::BurnForCriticalSuccess, e).await
        }
        SrPress::ApplyDamage(d) => apply_damage(p, answer, d).await,
        SrPress::CheatDeath(c) => cheat_death(p, answer, c).await,
    }
}

fn user(lang: Lang, en: &str, ja: &str) -> BotError {
    BotError::User(lang.pick(en, ja).to_string())
}

/// The press's session, if it is still the roll's.
fn session<'a>(p: &'a Press<'_>, id: i64) -> Result<&'a Session, BotError> {
    p.session.as_deref().filter(|s| s.id == id).ok_or_else(|| {
        user(
            p.lang,
            "The session of this roll has ended.",
            "このロールのセッションは終了しています。",
        )
    })
}

fn rule(p: &Press<'_>, e: &impl engine::i18n::Localized) -> BotError {
    BotError::User(e.localized(p.lang))
}

/// Roll with the press's dice (what every Edge-after press does) and localize a refusal.
fn reroll<T>(
    p: &Press<'_>,
    rolling: &Rolling<'_>,
    f: impl FnOnce(&mut dyn engine::dice::Roller) -> Result<T, engine::systems::shadowrun4::RuleError>,
) -> Result<T, BotError> {
    rolling.dice().with(f).map_err(|e| rule(p, &e))
}

async fn second_chance(
    p: &Press<'_>,
    rolling: Rolling<'_>,
    kind: EdgeAfterKind,
    press: EdgePress,
) -> Result<PressReply, BotError> {
    // The old Apply damage button goes away with this reroll; if it was pressed, too late.
    let old_apply = press.roll.apply();
    // A result another Edge press changed since (an attack's other side): say so first.
    if let (Some(v), Some(s)) = (press.roll.version(), p.session.as_ref())
        && common::edge_roll_used(s, &format!("v:{v}"))
    {
        return Err(BotError::User(common::version_changed().localized(p.lang)));
    }
    if let Some(id) = old_apply {
        match p.data.store.use_action(id).await {
            Ok(_) => {}
            Err(StoreError::AlreadyUsed) => {
                return Err(user(
                    p.lang,
                    "The damage of this attack was already applied: too late for a second chance.",
                    "この攻撃のダメージはすでに適用済みです。セカンド・チャンスは使えません。",
                ));
            }
            Err(e) => return Err(crate::invocation::store_error(e, p.lang)),
        }
    }
    let result = edge_after(p, rolling, kind, press).await;
    if result.is_err()
        && let Some(id) = old_apply
        && let Err(r) = p.data.store.release_action(id).await
    {
        tracing::warn!(action = id, "could not release the action: {r}");
    }
    result
}

/// An attack after an Edge press, for the buttons of its other rolls.
struct AttackAfter {
    request: AttackRequest,
    outcome: AttackOutcome,
    attacker: String,
    target: String,
    weapon: Option<String>,
    roller: u64,
    base: String,
    version: Option<String>,
}

/// The Edge buttons of the attack's rolls whose Edge is still unused, on the updated result
/// (sheets as saved with this press): the attacker's for the roller, the defender's for the
/// defending character's owner. Old buttons are refused by the version this press recorded.
async fn attack_again(
    p: &Press<'_>,
    saved: &Session,
    session_id: i64,
    a: AttackAfter,
    apply: Option<i64>,
) -> Vec<Vec<serenity::all::CreateButton>> {
    let load = |n: &str| {
        saved.entry(n).and_then(|e| {
            engine::systems::shadowrun4::sheet::character(&e.sheet, &e.name)
                .ok()
                .map(|(sheet, character)| common::Sr4Char {
                    name: e.name.clone(),
                    owner: e.owner,
                    sheet,
                    character,
                })
        })
    };
    let (Some(attacker), Some(target)) = (load(&a.attacker), load(&a.target)) else {
        return vec![];
    };
    if a.base.is_empty() {
        return vec![];
    }
    let offer = super::combat::AttackOffer {
        session: session_id,
        attacker: &attacker,
        target: &target,
        roller: a.roller,
        weapon: a.weapon.as_deref(),
        request: &a.request,
        outcome: &a.outcome,
        apply,
        base: a.base.clone(),
        version: p.interaction.id.get().to_string(),
    };
    let place = |owner| common::ButtonPlace {
        data: p.data,
        guild: p.interaction.guild_id.map(|g| g.get()),
        channel: p.interaction.channel_id.get(),
        owner,
        lang: p.lang,
    };
    let rows = super::combat::attack_buttons(&place(a.roller), &place(target.owner), &offer, saved).await;
    crate::offers::settle(p.data.store.as_ref(), rows, None).await.0
}

/// An Apply damage (or drain, when the flag is set) button to offer again: target, type, boxes.
type Apply = (String, DamageType, u32, bool);

/// Drain or fading boxes on the caster, offered again after an Edge use.
fn drain_apply(name: &str, d: &DrainOutcome) -> Option<Apply> {
    (d.boxes > 0).then(|| (name.to_string(), d.damage_type, d.boxes, true))
}

async fn edge_after(
    p: &Press<'_>,
    rolling: Rolling<'_>,
    kind: EdgeAfterKind,
    press: EdgePress,
) -> Result<PressReply, BotError> {
    let EdgePress {
        session: session_id,
        character: name,
        roll,
        roll_id: token,
    } = press;
    let s = session(p, session_id)?;
    let entry = s.entry(&name).ok_or_else(|| {
        rule(
            p,
            &engine::session::SessionError::UnknownEntry { name: name.clone() },
        )
    })?;
    let (_, c) =
        engine::systems::shadowrun4::sheet::character(&entry.sheet, &entry.name).map_err(|e| rule(p, &e))?;
    // The point (or the attribute) must be there now; it is paid in the session transaction below.
    let (_, action) = c.edge_after(kind).map_err(|e| rule(p, &e))?;
    let lang = p.lang;
    // Edge the roll spends besides the roller's (a soak first rolled with the target's Edge).
    let mut extra_ops: Vec<(String, Op)> = Vec::new();
    // An attack's other rolls get their Edge buttons again on the updated result.
    let mut attack: Option<AttackAfter> = None;
    // Apply first (pure): nothing is written when the rules refuse.
    let (v, outcome, apply): (EmbedView, Logged, Option<Apply>) = match roll {
        EdgeRoll::Test { outcome: o } => {
            let next = reroll(p, &rolling, |r| o.with_edge_after(action, &mut &mut *r))?;
            (view::test_view(&next, Some(&name), lang), Logged::of(&next), None)
        }
        EdgeRoll::Opposed { opponent, outcome: o } => {
            let next = reroll(p, &rolling, |r| {
                o.with_edge_after(Side::Actor, action, None, &mut &mut *r)
            })?;
            (
                view::opposed_view(&next, Some(&name), opponent.as_deref(), lang),
                Logged::of(&common::Named::target(&next, opponent.as_deref())),
                None,
            )
        }
        EdgeRoll::Extended {
            request: req,
            outcome: o,
        } => {
            if kind != EdgeAfterKind::SecondChance {
                return Err(BotError::internal("extended tests take Second chance only"));
            }
            let next = reroll(p, &rolling, |r| o.with_second_chance(&req, &mut &mut *r))?;
            (
                view::extended_view(&next, Some(&name), lang),
                Logged::of(&next),
                None,
            )
        }
        EdgeRoll::Spell {
            target, outcome: o, ..
        } => {
            let next = reroll(p, &rolling, |r| o.with_edge_after(action, &mut &mut *r))?;
            let v = view::spell_view(&next, &name, target.as_deref(), lang);
            let apply = (next.drain.boxes > 0)
                .then(|| (name.clone(), next.drain.damage_type, next.drain.boxes, true));
            (
                v,
                Logged::of(&common::Named::target(&next, target.as_deref())),
                apply,
            )
        }
        EdgeRoll::Summon {
            force, outcome: o, ..
        } => {
            let next = reroll(p, &rolling, |r| o.with_edge_after(action, &mut &mut *r))?;
            let v = view::summon_view(&next, &name, force, lang);
            (v, Logged::of(&next), drain_apply(&name, &next.drain))
        }
        EdgeRoll::Dispel {
            force, outcome: o, ..
        } => {
            let next = reroll(p, &rolling, |r| o.with_edge_after(action, &mut &mut *r))?;
            let v = view::dispel_view(&next, &name, force, lang);
            (v, Logged::of(&next), drain_apply(&name, &next.drain))
        }
        EdgeRoll::Thread {
            request: req,
            outcome: o,
            ..
        } => {
            let next = reroll(p, &rolling, |r| o.with_edge_after(&req, action, &mut &mut *r))?;
            let v = view::thread_view(&next, &name, lang);
            (v, Logged::of(&next), drain_apply(&name, &next.fading))
        }
        EdgeRoll::Compile {
            rating, outcome: o, ..
        } => {
            let next = reroll(p, &rolling, |r| o.with_edge_after(action, &mut &mut *r))?;
            let v = view::compile_view(&next, &name, rating, lang);
            (v, Logged::of(&next), drain_apply(&name, &next.fading))
        }
        EdgeRoll::Teamwork { labels, outcome: o } => {
            let next = reroll(p, &rolling, |r| o.with_edge_after(action, &mut &mut *r))?;
            (
                view::teamwork_view(&next, Some(&name), &labels, lang),
                Logged::of(&common::Named::assistants(&next, &labels)),
                None,
            )
        }
        EdgeRoll::Attack(a) => {
            // Buttons made before the defender's got theirs name the attacker `character`.
            let attacker = a.attacker_or(&name).to_string();
            let which = a.which();
            let AttackEdge {
                target,
                weapon,
                request: mut req,
                outcome: o,
                roller,
                base,
                version,
                ..
            } = *a;
            // A soak first rolled now (the attack only hits after the Edge) spends the target's
            // soak Edge now; with no point left, it is rolled without.
            let target_points = s
                .entry(&target)
                .and_then(|e| engine::systems::shadowrun4::sheet::character(&e.sheet, &e.name).ok())
                .map_or(0, |(_, c)| c.edge_points);
            // The defender's own press spends its point for this roll: the soak Edge asked
            // for on the command must find another one.
            let own_point = u32::from(which != AttackRoll::Attack && name == target);
            if o.damage.is_none() && target_points <= own_point {
                req.soak_edge = None;
            }
            let next = reroll(p, &rolling, |r| {
                o.with_edge_after(&req, which, action, &mut &mut *r)
            })?;
            let target_now = s
                .entry(&target)
                .and_then(|e| engine::systems::shadowrun4::sheet::character(&e.sheet, &e.name).ok())
                .map(|(_, c)| c);
            let v = view::attack_view(
                &next,
                &attacker,
                &target,
                weapon.as_deref(),
                target_now.as_ref(),
                lang,
            );
            let apply = next
                .damage
                .as_ref()
                .filter(|d| d.boxes > 0)
                .map(|d| (target.clone(), d.damage_type, d.boxes, false));
            // `/sr attack` let only the target's owner or the GM ask for it; whoever presses
            // now (the roller or the GM) spends it for them.
            if next.soak_edge_rolled() && !o.soak_edge_rolled() {
                extra_ops.push((target.clone(), Op::SpendAuthorisedEdge));
            }
            let logged = Logged::of(&common::Named::target(&next, Some(&target)));
            // Older buttons: the attack's id is the roll's, the roller owns the button.
            let base = base.or_else(|| token.clone()).unwrap_or_default();
            attack = Some(AttackAfter {
                request: req,
                outcome: next.clone(),
                attacker,
                target,
                weapon,
                roller: roller.unwrap_or(p.action.owner),
                base,
                version,
            });
            (v, logged, apply)
        }
    };
    let op = if action.burns() {
        Op::BurnEdge
    } else {
        Op::SpendEdge
    };
    // Whoever rolled may press, but only the character's owner or the GM spends its Edge.
    let presser = engine::session::Actor {
        user: p.interaction.user.id.get(),
        manage_server: p.is_gm,
    };
    let version = attack.as_ref().and_then(|a| a.version.clone());
    let (saved, _) = save_ops_with(
        &*p.data.store,
        p.interaction.channel_id.get(),
        lang,
        Some(presser),
        session_id,
        &std::iter::once((name.clone(), op))
            .chain(extra_ops)
            .collect::<Vec<_>>(),
        &mut |s| {
            // A result another press changed since these buttons were shown: refused.
            if let Some(v) = &version {
                common::mark_version(s, v)?;
            }
            match &token {
                Some(t) => common::mark_edge_roll(s, t),
                None => Ok(()),
            }
        },
    )
    .await?;
    let (command, footer) = match kind {
        EdgeAfterKind::NegateGlitch => (
            "/sr negate glitch",
            lang.pick("Glitch negated: Edge spent", "グリッチ回避：エッジ使用"),
        ),
        EdgeAfterKind::AddDice => (
            "/sr edge dice",
            lang.pick("Edge dice added: Edge spent", "エッジのダイス追加：エッジ使用"),
        ),
        EdgeAfterKind::BurnForCriticalSuccess => (
            "/sr burn edge",
            lang.pick(
                "Critical success: a point of Edge burnt",
                "クリティカル・サクセス：エッジを1点燃やした",
            ),
        ),
        _ => (
            "/sr second chance",
            lang.pick("Second chance: Edge spent", "セカンド・チャンス：エッジ使用"),
        ),
    };
    let log = PressLog::new(session_id, command, &outcome);
    let mut buttons = Vec::new();
    let mut apply_id = None;
    // An attack's Apply damage stays where it was (the target's owner, or the roller where the
    // server lets the roller apply it), whoever spent Edge on it.
    let roller = attack.as_ref().map_or(p.action.owner, |a| a.roller);
    if let Some((target, t, boxes, drain)) = apply {
        let apply_owner = match p.session.as_ref().filter(|s| s.id == session_id) {
            Some(s) => common::damage_owner(s, &target, roller, &p.settings),
            None => roller,
        };
        let press = SrPress::apply_damage(session_id, &target, t, boxes);
        if let Some(id) = common::action(
            p.data,
            p.interaction.guild_id.map(|g| g.get()),
            p.interaction.channel_id.get(),
            apply_owner,
            &press,
        )
        .await
        {
            apply_id = Some(id);
            buttons.push(common::apply_button(id, drain, lang));
        }
    }
    let mut rows = vec![];
    if let Some(a) = attack {
        rows = attack_again(p, &saved, session_id, a, apply_id).await;
    }
    match rows.first_mut() {
        Some(first) => first.extend(buttons),
        None => rows.push(buttons),
    }
    let mut v = v;
    v.footer = Some(footer.to_string());
    let components = crate::offers::action_rows(rows);
    let shown = Shown::Update(
        CreateInteractionResponseMessage::new()
            .embed(v.to_embed())
            .components(components),
    );
    Ok(rolling.show(shown, log))
}

async fn apply_damage(p: &Press<'_>, answer: Answer<'_>, press: DamagePress) -> Result<PressReply, BotError> {
    let DamagePress {
        session: session_id,
        target,
        damage_type: t,
        boxes,
    } = press;
    session(p, session_id)?;
    // Damage lands on a character by its owner's or the GM's hand; the roller's only where
    // the server allows it (`sr.roller_applies_damage`). Nothing is used up by a refusal.
    let presser = p.interaction.user.id.get();
    let owner = saved_owner(p, session_id, &target);
    let roller_may =
        engine::systems::shadowrun4::rules::ROLLER_APPLIES_DAMAGE.value_in(&p.settings.house) == "on";
    if !p.is_gm && owner.is_some_and(|o| o != presser) && !roller_may {
        return Err(BotError::User(match p.lang {
            Lang::En => format!(
                "Only {target}'s owner or the GM applies this damage (the server's option `sr.roller_applies_damage` lets the roller)."
            ),
            Lang::Ja => format!(
                "このダメージは{target}の所有者かGMが適用します（サーバー設定 `sr.roller_applies_damage` でロールした人も可）。"
            ),
        }));
    }
    let (_, reports) = save_ops(
        &*p.data.store,
        p.interaction.channel_id.get(),
        p.lang,
        None,
        session_id,
        &[(target.clone(), Op::Damage(t, boxes))],
    )
    .await?;
    let Some((name, report, c)) = reports.first() else {
        return Err(BotError::internal("damage applied without a report"));
    };
    let log = PressLog::new(session_id, "/sr apply damage", report);
    let text = view::damage_report_text(name, report, c, p.lang);
    let title = p.lang.pick("✅ Damage applied", "✅ ダメージ適用");
    let embed = match p.interaction.message.embeds.first() {
        Some(e) => CreateEmbed::from(e.clone()).field(title, crate::embeds::truncate(&text, 1024), false),
        None => CreateEmbed::new().title(title).description(text),
    };
    // Seed 2: a character killed with Edge left may burn a point to live. The button is the
    // dead character's owner's (or the GM's).
    let mut components = vec![];
    if report.condition == engine::systems::shadowrun4::Condition::Dead && c.attributes.edge > 0 {
        let owner = saved_owner(p, session_id, name).unwrap_or(p.action.owner);
        let press = SrPress::CheatDeath(CheatDeathPress {
            session: session_id,
            target: name.clone(),
        });
        if let Some(id) = common::action(
            p.data,
            p.interaction.guild_id.map(|g| g.get()),
            p.interaction.channel_id.get(),
            owner,
            &press,
        )
        .await
        {
            components.push(CreateActionRow::Buttons(vec![common::cheat_death_button(
                id, p.lang,
            )]));
        }
    }
    let shown = Shown::Update(
        CreateInteractionResponseMessage::new()
            .embed(embed)
            .components(components),
    );
    Ok(answer.show_logged(shown, log))
}

/// The owner of a session character, from the press's session.
fn saved_owner(p: &Press<'_>, session_id: i64, name: &str) -> Option<u64> {
    p.session
        .as_ref()
        .filter(|s| s.id == session_id)
        .and_then(|s| s.entry(name))
        .map(|e| e.owner)
}

async fn cheat_death(
    p: &Press<'_>,
    answer: Answer<'_>,
    press: CheatDeathPress,
) -> Result<PressReply, BotError> {
    let CheatDeathPress {
        session: session_id,
        target,
    } = press;
    session(p, session_id)?;
    let presser = engine::session::Actor {
        user: p.interaction.user.id.get(),
        manage_server: p.is_gm,
    };
    let (saved, _) = save_ops(
        &*p.data.store,
        p.interaction.channel_id.get(),
        p.lang,
        Some(presser),
        session_id,
        &[(target.clone(), Op::CheatDeath)],
    )
    .await?;
    let c = saved
        .entry(&target)
        .and_then(|e| engine::systems::shadowrun4::sheet::character(&e.sheet, &e.name).ok())
        .map(|(_, c)| c)
        .ok_or_else(|| BotError::internal("cheat death without the character"))?;
    let log = PressLog::new(session_id, "/sr cheat death", &c);
    let title = p.lang.pick("🔥 Death cheated", "🔥 死を免れた");
    let text = format!(
        "{} {}\n{}",
        target,
        p.lang.pick(
            "burns a point of Edge and lives, unconscious.",
            "はエッジを1点燃やして生き延びた（意識不明）。"
        ),
        view::monitors_text(&c, p.lang)
    );
    let embed = match p.interaction.message.embeds.first() {
        Some(e) => CreateEmbed::from(e.clone()).field(title, crate::embeds::truncate(&text, 1024), false),
        None => CreateEmbed::new().title(title).description(text),
    };
    let shown = Shown::Update(
        CreateInteractionResponseMessage::new()
            .embed(embed)
            .components(vec![]),
    );
    Ok(answer.show_logged(shown, log))
}
