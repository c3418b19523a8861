//! `/wm attack`, `/wm damage`, `/wm roll`, `/wm d3`, and the buttons after a hit. Each command
//! takes session models (stats and effects looked up) or raw numbers (`stat`, `def`, `pow`,
//! `arm`), or both: a raw number beside a model replaces that stat after effects.
//!
//! After a hit the roller gets "Roll damage" and "Boosted damage": two buttons of one stored
//! action, so the choice is made once (by the roller or the GM) and works after a restart.
//! Damage on a session model is marked at once, unless a raw ARM was typed or `apply:false`
//! was asked: then an "Apply damage" button marks it.

use engine::i18n::Lang;
use engine::session::{Session, SessionError};
use engine::systems::warmachine::dice::{DiceRequest, Discard, DiscardWhich, RollKind, d3, roll};
use engine::systems::warmachine::effects::Stat;
use engine::systems::warmachine::rules::attack_options;
use engine::systems::warmachine::{
    AttackKind, AttackOutcome, AttackRequest, DamageOutcome, DamageRequest, Model, ModelStatus, PowSource,
    resolve_attack, resolve_damage,
};
use serenity::all::{
    ButtonStyle, CreateActionRow, CreateButton, CreateEmbed, CreateInteractionResponseMessage,
};

use super::embeds::{self as view, AttackShown, Marked, PlainRoll};
use super::press_data::{ApplyPress, BOOST, DamagePress, WmPress};
use super::store::{self, Commander, Game, model, model_name, raw_model, refusal, rule, say, with_raw};
use super::{model_autocomplete, reply};
use crate::invocation::Invocation;
use crate::press::{Answer, Press, PressLog, PressReply, Shown, button, button_variant};
use crate::{BotError, Context};

/// Melee adds MAT, ranged RAT (a named weapon decides instead).
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum KindChoice {
    #[name = "melee"]
    #[name_localized("ja", "近接")]
    Melee,
    #[name = "ranged"]
    #[name_localized("ja", "射撃")]
    Ranged,
}

impl From<KindChoice> for AttackKind {
    fn from(k: KindChoice) -> AttackKind {
        match k {
            KindChoice::Melee => AttackKind::Melee,
            KindChoice::Ranged => AttackKind::Ranged,
        }
    }
}

fn num(v: Option<i64>) -> Option<u32> {
    v.map(|n| n.clamp(0, 1000) as u32)
}

fn modifier(v: Option<i64>) -> i32 {
    v.unwrap_or(0).clamp(-1000, 1000) as i32
}

/// The dice beyond the two: boost, additional-die rules (comma separated), a discard.
pub fn dice_request(
    boost: Option<bool>,
    additional: Option<&str>,
    discard_lowest: Option<i64>,
    discard_highest: Option<i64>,
) -> Result<DiceRequest, SessionError> {
    let discard = match (num(discard_lowest), num(discard_highest)) {
        (Some(_), Some(_)) => {
            return Err(refusal(
                "Discard the lowest or the highest dice, not both.",
                "捨てるのは低い方か高い方のどちらかです（両方は指定できません）。",
            ));
        }
        (Some(count), None) => Some(Discard {
            which: DiscardWhich::Lowest,
            count,
        }),
        (None, Some(count)) => Some(Discard {
            which: DiscardWhich::Highest,
            count,
        }),
        (None, None) => None,
    };
    Ok(DiceRequest {
        boost: boost.unwrap_or(false),
        additional: store::split_list(additional),
        discard,
    })
}

fn need(what: &str, en_hint: &str, ja_hint: &str) -> SessionError {
    refusal(
        format!("Name the {what} model or give `{en_hint}`."),
        format!("モデルを指定するか `{ja_hint}` を入力してください。"),
    )
}

/// The button pair after a hit: one action, two buttons.
async fn damage_buttons(ctx: Context<'_>, inv: &Invocation, press: &DamagePress) -> Vec<CreateButton> {
    let action = WmPress::Damage(press.clone()).new_action(inv.guild, inv.channel, inv.user);
    match ctx.data().store.create_action(&action).await {
        Ok(id) => vec![
            button(
                id,
                inv.lang.pick("Roll damage", "ダメージロール"),
                ButtonStyle::Danger,
            ),
            button_variant(
                id,
                BOOST,
                inv.lang.pick("Boosted damage", "ブーストしてダメージロール"),
                ButtonStyle::Primary,
            ),
        ],
        Err(e) => {
            tracing::warn!("damage buttons not offered: {e}");
            vec![]
        }
    }
}

async fn apply_button(
    data: &crate::Data,
    guild: Option<u64>,
    channel: u64,
    owner: u64,
    press: ApplyPress,
    lang: Lang,
) -> Vec<CreateButton> {
    let action = WmPress::Apply(press).new_action(guild, channel, owner);
    match data.store.create_action(&action).await {
        Ok(id) => vec![button(
            id,
            lang.pick("Apply damage", "ダメージを適用"),
            ButtonStyle::Danger,
        )],
        Err(e) => {
            tracing::warn!("apply button not offered: {e}");
            vec![]
        }
    }
}

/// What the attack left for the damage buttons.
struct AttackDone {
    outcome: AttackOutcome,
    target: Option<Model>,
    pow: Option<PowSource>,
}

/// The POW a hit's damage buttons use: the weapon named, a raw `pow`, or the attacker's only
/// weapon of the attack's kind.
fn damage_pow(
    weapon: Option<&str>,
    pow: Option<u32>,
    attacker: Option<&Model>,
    kind: AttackKind,
) -> Option<PowSource> {
    if let Some(w) = weapon {
        return Some(PowSource::Weapon(w.to_string()));
    }
    if let Some(p) = pow {
        return Some(PowSource::Value(p));
    }
    let a = attacker?;
    let mut of_kind = a.weapons.iter().filter(|w| w.kind == kind);
    match (of_kind.next(), of_kind.next()) {
        (Some(w), None) => Some(PowSource::Weapon(w.name.clone())),
        _ => None,
    }
}

/// Attack roll: 2d6 + MAT/RAT against DEF, boost declared before the roll
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    rename = "attack",
    name_localized("ja", "攻撃"),
    description_localized("ja", "攻撃ロール：2d6+MAT/RAT 対 DEF。ブーストはロール前に宣言")
)]
pub async fn wm_attack(
    ctx: Context<'_>,
    #[description = "Attacking model"]
    #[name_localized("ja", "攻撃側")]
    #[description_localized("ja", "攻撃するモデル")]
    #[autocomplete = "model_autocomplete"]
    #[max_length = 64]
    attacker: Option<String>,
    #[description = "Target model"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "目標のモデル")]
    #[autocomplete = "model_autocomplete"]
    #[max_length = 64]
    target: Option<String>,
    #[description = "Attacker's weapon (sets melee/ranged and POW)"]
    #[name_localized("ja", "武器")]
    #[description_localized("ja", "攻撃側の武器（近接・射撃とPOWが決まる）")]
    #[max_length = 60]
    weapon: Option<String>,
    #[description = "Melee (MAT) or ranged (RAT); default melee"]
    #[name_localized("ja", "種類")]
    #[description_localized("ja", "近接（MAT）か射撃（RAT）。既定は近接")]
    kind: Option<KindChoice>,
    #[description = "Raw MAT/RAT"]
    #[name_localized("ja", "能力値")]
    #[description_localized("ja", "MAT/RATの数値")]
    #[min = 0]
    #[max = 30]
    stat: Option<i64>,
    #[description = "Raw target DEF"]
    #[description_localized("ja", "目標のDEFの数値")]
    #[min = 0]
    #[max = 30]
    def: Option<i64>,
    #[description = "Raw POW for the damage buttons"]
    #[description_localized("ja", "ダメージボタン用のPOW")]
    #[min = 0]
    #[max = 30]
    pow: Option<i64>,
    #[description = "Raw target ARM for the damage buttons"]
    #[description_localized("ja", "ダメージボタン用の目標ARM")]
    #[min = 0]
    #[max = 30]
    arm: Option<i64>,
    #[description = "Boost the attack (+1 die, declared now)"]
    #[name_localized("ja", "ブースト")]
    #[description_localized("ja", "攻撃をブースト（+1ダイス、今宣言）")]
    boost: Option<bool>,
    #[description = "Rules granting an additional die, comma separated"]
    #[name_localized("ja", "追加ダイス")]
    #[description_localized("ja", "追加ダイスを与えるルール（カンマ区切り）")]
    #[max_length = 200]
    additional: Option<String>,
    #[description = "Discard this many lowest dice"]
    #[name_localized("ja", "低い方を捨てる")]
    #[description_localized("ja", "低い方から捨てるダイス数")]
    #[min = 1]
    #[max = 10]
    discard_lowest: Option<i64>,
    #[description = "Discard this many highest dice"]
    #[name_localized("ja", "高い方を捨てる")]
    #[description_localized("ja", "高い方から捨てるダイス数")]
    #[min = 1]
    #[max = 10]
    discard_highest: Option<i64>,
    #[description = "Modifier (cover, terrain, …)"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正値（カバー、地形など）")]
    #[min = -20]
    #[max = 20]
    modifier: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let options = attack_options(&inv.settings.house);
    let dice = dice_request(boost, additional.as_deref(), discard_lowest, discard_highest)
        .map_err(|e| say(&e, lang))?;
    let kind: AttackKind = kind.map_or(AttackKind::Melee, AttackKind::from);
    let req = AttackRequest {
        kind,
        weapon: weapon.clone(),
        modifier: self::modifier(modifier),
        dice,
    };
    let (stat, def, pow, arm) = (num(stat), num(def), num(pow), num(arm));
    let raw_attacker = || -> Result<Model, SessionError> {
        let s = stat.ok_or_else(|| need("attacking", "stat:", "能力値:"))?;
        Ok(raw_model(lang.pick("Attacker", "攻撃側"), s, 0, 0))
    };
    let raw_target = || -> Result<Model, SessionError> {
        let d = def.ok_or_else(|| need("target", "def:", "def:"))?;
        Ok(raw_model(lang.pick("Target", "目標"), 0, d, arm.unwrap_or(0)))
    };
    let uses_models = attacker.is_some() || target.is_some();
    let (session, done, attacker_model): (Option<std::sync::Arc<Session>>, AttackDone, Option<Model>) =
        if uses_models {
            let commander = Commander::of(ctx, &inv);
            let (session, (done, a)) = store::run(ctx, &inv, &mut |s, game: &mut Game, r| {
                let a_model = match &attacker {
                    Some(n) => {
                        let name = model_name(s, game, n)?;
                        let m = model(game, &name)?.clone();
                        commander.may_command(s, &m)?;
                        Some(m)
                    }
                    None => None,
                };
                let t_model = match &target {
                    Some(n) => {
                        let name = model_name(s, game, n)?;
                        Some(model(game, &name)?.clone())
                    }
                    None => None,
                };
                let a = match (&a_model, stat) {
                    (Some(m), Some(v)) => with_raw(&with_raw(m, Stat::Mat, v), Stat::Rat, v),
                    (Some(m), None) => m.clone(),
                    (None, _) => raw_attacker()?,
                };
                let t = match (&t_model, def) {
                    (Some(m), Some(v)) => with_raw(m, Stat::Def, v),
                    (Some(m), None) => m.clone(),
                    (None, _) => raw_target()?,
                };
                // Item 22 / WG-9: both models in a started game: the attack opens, takes its roles
                // and closes; its roles stay while triggers wait.
                let turn = a_model.is_some() && t_model.is_some() && game.state.game.started();
                if turn {
                    game.state.game.begin_attack(&a, &t).map_err(rule)?;
                }
                let outcome = resolve_attack(&req, &a, &t, &options, &mut &mut *r).map_err(rule)?;
                if turn {
                    game.state.game.record_attack(&outcome).map_err(rule)?;
                    game.state.game.end_attack().map_err(rule)?;
                }
                let pow = damage_pow(weapon.as_deref(), pow, a_model.as_ref(), outcome.kind);
                Ok((
                    AttackDone {
                        outcome,
                        target: t_model,
                        pow,
                    },
                    a_model,
                ))
            })
            .await?;
            (Some(std::sync::Arc::new(session)), done, a)
        } else {
            let a = raw_attacker().map_err(|e| say(&e, lang))?;
            let t = raw_target().map_err(|e| say(&e, lang))?;
            let outcome = ctx
                .data()
                .command_dice(ctx)
                .with(|r| resolve_attack(&req, &a, &t, &options, &mut &mut *r))
                .map_err(|e| inv.user_error(&e))?;
            (
                inv.session_if_any(ctx).await,
                AttackDone {
                    outcome,
                    target: None,
                    pow: pow.map(PowSource::Value),
                },
                None,
            )
        };
    let o = &done.outcome;
    let mut no_buttons = None;
    let mut buttons = vec![];
    if o.hit {
        let raw_target_without_arm = done.target.is_none() && arm.is_none();
        match (&done.pow, raw_target_without_arm) {
            (Some(p), false) => {
                let press = DamagePress {
                    session: session.as_ref().filter(|_| uses_models).map(|s| s.id),
                    attacker: attacker_model.as_ref().map(|m| m.name.clone()),
                    target: done.target.as_ref().map(|m| m.name.clone()),
                    pow: p.clone(),
                    arm,
                    active: Some(o.active_player.clone()).filter(|a| !a.is_empty()),
                };
                buttons = damage_buttons(ctx, &inv, &press).await;
            }
            (None, _) => {
                no_buttons = Some(
                    lang.pick(
                        "Name the weapon (or give pow:) for the damage buttons, or use /wm damage.",
                        "ダメージボタンには武器（または pow:）を指定してください。/wm damage でも振れます。",
                    )
                    .to_string(),
                )
            }
            (Some(_), true) => {
                no_buttons = Some(
                    lang.pick(
                        "Give the target's arm: for the damage buttons, or use /wm damage.",
                        "ダメージボタンには目標の arm: を指定してください。/wm damage でも振れます。",
                    )
                    .to_string(),
                )
            }
        }
    }
    let shown = AttackShown {
        target: done.target.as_ref(),
        no_buttons,
    };
    reply(
        ctx,
        &inv,
        session.as_deref(),
        &view::attack_view(o, &shown, lang),
        buttons,
        o,
    )
    .await
}

/// Where a damage roll lands.
enum Landing {
    /// On the session model, now.
    Now,
    /// Previewed on the session model (raw ARM or apply:false): Apply damage marks it.
    Later(String),
    /// Raw numbers: nowhere.
    Nowhere,
}

/// Roll damage against `target` (a session model by name, or a raw model), in the game.
#[allow(clippy::too_many_arguments)]
fn damage_step(
    game: &mut Game,
    req: &DamageRequest,
    attacker: &Model,
    target: Option<&str>,
    arm: Option<u32>,
    apply: bool,
    r: &mut dyn engine::dice::Roller,
) -> Result<(DamageOutcome, Landing), SessionError> {
    match target {
        Some(name) => {
            let m = model(game, name)?;
            let later = arm.is_some() || !apply;
            let mut t = match arm {
                Some(v) => with_raw(m, Stat::Arm, v),
                None => m.clone(),
            };
            let o = resolve_damage(req, attacker, &mut t, &mut &mut *r).map_err(rule)?;
            if later {
                Ok((o, Landing::Later(name.to_string())))
            } else {
                game.models.insert(name.to_string(), t);
                Ok((o, Landing::Now))
            }
        }
        None => {
            let a = arm.ok_or_else(|| need("target", "arm:", "arm:"))?;
            let mut t = raw_model("", 0, 0, a);
            let o = resolve_damage(req, attacker, &mut t, &mut &mut *r).map_err(rule)?;
            Ok((o, Landing::Nowhere))
        }
    }
}

fn marked(l: &Landing) -> Marked {
    match l {
        Landing::Now => Marked::Applied,
        Landing::Later(_) => Marked::Pending,
        Landing::Nowhere => Marked::Nowhere,
    }
}

/// Damage roll: 2d6 + POW − ARM, marked on the target's boxes
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    rename = "damage",
    name_localized("ja", "ダメージ"),
    description_localized("ja", "ダメージロール：2d6+POW−ARM、目標のボックスに記入")
)]
pub async fn wm_damage(
    ctx: Context<'_>,
    #[description = "Attacking model (its weapon and POW effects)"]
    #[name_localized("ja", "攻撃側")]
    #[description_localized("ja", "攻撃するモデル（武器とPOWの効果）")]
    #[autocomplete = "model_autocomplete"]
    #[max_length = 64]
    attacker: Option<String>,
    #[description = "Target model"]
    #[name_localized("ja", "目標")]
    #[description_localized("ja", "目標のモデル")]
    #[autocomplete = "model_autocomplete"]
    #[max_length = 64]
    target: Option<String>,
    #[description = "Attacker's weapon (its POW)"]
    #[name_localized("ja", "武器")]
    #[description_localized("ja", "攻撃側の武器（POW）")]
    #[max_length = 60]
    weapon: Option<String>,
    #[description = "Raw POW"]
    #[description_localized("ja", "POWの数値")]
    #[min = 0]
    #[max = 30]
    pow: Option<i64>,
    #[description = "Raw target ARM (not marked until Apply damage)"]
    #[description_localized("ja", "目標ARMの数値（適用ボタンまで記入しない）")]
    #[min = 0]
    #[max = 30]
    arm: Option<i64>,
    #[description = "Boost the damage (+1 die)"]
    #[name_localized("ja", "ブースト")]
    #[description_localized("ja", "ダメージをブースト（+1ダイス）")]
    boost: Option<bool>,
    #[description = "Rules granting an additional die, comma separated"]
    #[name_localized("ja", "追加ダイス")]
    #[description_localized("ja", "追加ダイスを与えるルール（カンマ区切り）")]
    #[max_length = 200]
    additional: Option<String>,
    #[description = "Discard this many lowest dice"]
    #[name_localized("ja", "低い方を捨てる")]
    #[description_localized("ja", "低い方から捨てるダイス数")]
    #[min = 1]
    #[max = 10]
    discard_lowest: Option<i64>,
    #[description = "Discard this many highest dice"]
    #[name_localized("ja", "高い方を捨てる")]
    #[description_localized("ja", "高い方から捨てるダイス数")]
    #[min = 1]
    #[max = 10]
    discard_highest: Option<i64>,
    #[description = "Modifier"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正値")]
    #[min = -20]
    #[max = 20]
    modifier: Option<i64>,
    #[description = "Mark the boxes now (default yes); no: an Apply damage button"]
    #[name_localized("ja", "適用")]
    #[description_localized("ja", "すぐボックスに記入（既定）。noなら適用ボタン")]
    apply: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let dice = dice_request(boost, additional.as_deref(), discard_lowest, discard_highest)
        .map_err(|e| say(&e, lang))?;
    let pow_source = match (&weapon, num(pow)) {
        (Some(w), _) => PowSource::Weapon(w.clone()),
        (None, Some(p)) => PowSource::Value(p),
        (None, None) => {
            return Err(inv.text(
                "Give pow: or the attacker's weapon:.",
                "pow: か攻撃側の武器（weapon:）を指定してください。",
            ));
        }
    };
    let req = DamageRequest {
        pow: pow_source,
        modifier: self::modifier(modifier),
        dice,
    };
    let arm = num(arm);
    let apply = apply.unwrap_or(true);
    let roller_may =
        engine::systems::warmachine::rules::ROLLER_APPLIES_DAMAGE.value_in(&inv.settings.house) == "on";
    let uses_models = attacker.is_some() || target.is_some();
    let (session, o, landing, active) = if uses_models {
        let commander = Commander::of(ctx, &inv);
        let (session, (o, landing, active)) = store::run(ctx, &inv, &mut |s, game, r| {
            let a = match &attacker {
                Some(n) => {
                    let name = model_name(s, game, n)?;
                    let m = model(game, &name)?.clone();
                    commander.may_command(s, &m)?;
                    m
                }
                None => raw_model("", 0, 0, 0),
            };
            let t = match &target {
                Some(n) => Some(model_name(s, game, n)?),
                None => None,
            };
            // Typed damage lands on a model by the hand of whoever commands it (or the GM);
            // the roller's only where the server allows it (`wm.roller_applies_damage`).
            if let (Some(name), false) = (&t, roller_may) {
                commander.may_command(s, model(game, name)?)?;
            }
            let (o, landing) = damage_step(game, &req, &a, t.as_deref(), arm, apply, r)?;
            let active = Some(a.controller.clone()).filter(|c| !c.is_empty());
            Ok((o, landing, active))
        })
        .await?;
        (Some(std::sync::Arc::new(session)), o, landing, active)
    } else {
        let a = raw_model("", 0, 0, 0);
        let mut g = Game {
            state: Default::default(),
            models: Default::default(),
        };
        let (o, landing) = ctx
            .data()
            .command_dice(ctx)
            .with(|r| damage_step(&mut g, &req, &a, None, arm, apply, r))
            .map_err(|e| say(&e, lang))?;
        (inv.session_if_any(ctx).await, o, landing, None)
    };
    let mut buttons = vec![];
    if let (Landing::Later(name), Some(s)) = (&landing, &session) {
        let press = ApplyPress {
            session: s.id,
            target: name.clone(),
            damage: o.damage,
        };
        buttons = apply_button(ctx.data(), inv.guild, inv.channel, inv.user, press, lang).await;
    }
    let v = view::damage_view(&o, marked(&landing), active.as_deref(), lang);
    reply(ctx, &inv, session.as_deref(), &v, buttons, &o).await
}

/// Roll the game's dice: 2d6 (+ boost, additional dice, discards) + modifier
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    rename = "roll",
    name_localized("ja", "ロール"),
    description_localized("ja", "2d6（+ブースト・追加ダイス・捨てる）+修正")
)]
pub async fn wm_roll(
    ctx: Context<'_>,
    #[description = "Modifier"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正値")]
    #[min = -20]
    #[max = 20]
    modifier: Option<i64>,
    #[description = "Number to reach (optional)"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "達成に必要な値（任意）")]
    #[min = 0]
    #[max = 60]
    target: Option<i64>,
    #[description = "Boost (+1 die)"]
    #[name_localized("ja", "ブースト")]
    #[description_localized("ja", "ブースト（+1ダイス）")]
    boost: Option<bool>,
    #[description = "Rules granting an additional die, comma separated"]
    #[name_localized("ja", "追加ダイス")]
    #[description_localized("ja", "追加ダイスを与えるルール（カンマ区切り）")]
    #[max_length = 200]
    additional: Option<String>,
    #[description = "Discard this many lowest dice"]
    #[name_localized("ja", "低い方を捨てる")]
    #[description_localized("ja", "低い方から捨てるダイス数")]
    #[min = 1]
    #[max = 10]
    discard_lowest: Option<i64>,
    #[description = "Discard this many highest dice"]
    #[name_localized("ja", "高い方を捨てる")]
    #[description_localized("ja", "高い方から捨てるダイス数")]
    #[min = 1]
    #[max = 10]
    discard_highest: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let req = dice_request(boost, additional.as_deref(), discard_lowest, discard_highest)
        .map_err(|e| say(&e, lang))?;
    let nobody = Model::new("", "", 0, 0, 1);
    let m = self::modifier(modifier);
    let rolled = ctx
        .data()
        .command_dice(ctx)
        .with(|r| roll(&req, RollKind::Attack, [&nobody, &nobody], &mut &mut *r))
        .map_err(|e| inv.user_error(&e))?;
    let total = rolled.kept_total + i64::from(m);
    let o = PlainRoll {
        modifier: m,
        total,
        target,
        success: target.map(|t| total >= t),
        roll: rolled,
    };
    let session = inv.session_if_any(ctx).await;
    reply(
        ctx,
        &inv,
        session.as_deref(),
        &view::roll_view(&o, lang),
        vec![],
        &o,
    )
    .await
}

/// d3: a d6 halved, rounding up
#[poise::command(
    slash_command,
    rename = "d3",
    description_localized("ja", "d3：d6を半分にして端数切り上げ")
)]
pub async fn wm_d3(ctx: Context<'_>) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let o = ctx
        .data()
        .command_dice(ctx)
        .with(|r| d3(&mut &mut *r))
        .map_err(|e| inv.user_error(&e))?;
    let session = inv.session_if_any(ctx).await;
    reply(
        ctx,
        &inv,
        session.as_deref(),
        &view::d3_view(&o, inv.lang),
        vec![],
        &o,
    )
    .await
}

/// The press's reply: the message as it was, with `embed` added and `buttons` in place of the
/// pressed ones.
fn updated(p: &Press<'_>, embed: CreateEmbed, buttons: Vec<CreateButton>) -> Shown {
    let mut embeds: Vec<CreateEmbed> = p
        .interaction
        .message
        .embeds
        .iter()
        .take(9)
        .cloned()
        .map(CreateEmbed::from)
        .collect();
    embeds.push(embed);
    let rows = if buttons.is_empty() {
        vec![]
    } else {
        vec![CreateActionRow::Buttons(buttons)]
    };
    Shown::Update(
        CreateInteractionResponseMessage::new()
            .embeds(embeds)
            .components(rows),
    )
}

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
            let (_, (o, landing)) = store::run_press(p, Some(&rolling), sid, &mut |_s, game, r| {
                let a = match &d.attacker {
                    Some(n) => model(game, n)?.clone(),
                    None => raw_model("", 0, 0, 0),
                };
                damage_step(game, &req, &a, d.target.as_deref(), d.arm, true, r)
            })
            .await?;
            (o, landing, Some(sid))
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
    let log = match session {
        Some(session) => PressLog::new(session, command, &o),
        None => PressLog::outside_session(command, &o),
    };
    let mut buttons = vec![];
    if let (Landing::Later(name), Some(sid)) = (&landing, session) {
        let press = ApplyPress {
            session: sid,
            target: name.clone(),
            damage: o.damage,
        };
        buttons = apply_button(
            p.data,
            p.interaction.guild_id.map(|g| g.get()),
            p.interaction.channel_id.get(),
            p.action.owner,
            press,
            lang,
        )
        .await;
    }
    let mut v = view::damage_view(&o, marked(&landing), d.active.as_deref(), lang);
    if boosted {
        v.title.push_str(lang.pick(" (boosted)", "（ブースト）"));
    }
    Ok(rolling.show(updated(p, v.to_embed(), buttons), log))
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
    Ok(answer.show_logged(updated(p, embed, vec![]), log))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::systems::warmachine::model::Weapon;

    #[test]
    fn discards_are_one_way_and_lists_split_on_commas() {
        assert!(dice_request(None, None, Some(1), Some(1)).is_err());
        let d = dice_request(Some(true), Some("Feat, Spell"), Some(1), None).unwrap();
        assert!(d.boost);
        assert_eq!(d.additional, vec!["Feat", "Spell"]);
        assert_eq!(d.discard.unwrap().which, DiscardWhich::Lowest);
    }

    #[test]
    fn the_damage_pow_comes_from_the_weapon_the_number_or_the_only_weapon_of_the_kind() {
        let mut a = Model::new("S", "Ana", 13, 17, 10);
        a.weapons.push(Weapon {
            name: "Blade".into(),
            pow: 13,
            kind: AttackKind::Melee,
        });
        assert_eq!(
            damage_pow(None, None, Some(&a), AttackKind::Melee),
            Some(PowSource::Weapon("Blade".into()))
        );
        assert_eq!(damage_pow(None, None, Some(&a), AttackKind::Ranged), None);
        assert_eq!(
            damage_pow(None, Some(9), Some(&a), AttackKind::Ranged),
            Some(PowSource::Value(9))
        );
        a.weapons.push(Weapon {
            name: "Fist".into(),
            pow: 10,
            kind: AttackKind::Melee,
        });
        assert_eq!(
            damage_pow(None, None, Some(&a), AttackKind::Melee),
            None,
            "two: ask"
        );
    }
}
