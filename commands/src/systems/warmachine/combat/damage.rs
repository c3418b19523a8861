//! `/wm damage`: 2d6 + POW − ARM, and where the roll lands (now, on Apply damage, nowhere).

use engine::session::SessionError;
use engine::systems::warmachine::effects::Stat;
use engine::systems::warmachine::{DamageOutcome, DamageRequest, Model, PowSource, resolve_damage};

use super::{apply_offer, dice_request, modifier, need, num};
use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::systems::warmachine::embeds::{self as view, Marked};
use crate::systems::warmachine::log_summary::Unmarked;
use crate::systems::warmachine::press_data::ApplyPress;
use crate::systems::warmachine::store::{
    self, Commander, Game, model, model_name, raw_model, rule, say, with_raw,
};
use crate::systems::warmachine::{answer_with, model_autocomplete};
use crate::{BotError, Context};

/// Where a damage roll lands.
pub(super) enum Landing {
    /// On the session model, now.
    Now,
    /// Previewed on the session model (raw ARM or apply:false): Apply damage marks it.
    Later(String),
    /// Raw numbers: nowhere.
    Nowhere,
}

/// Roll damage against `target` (a session model by name, or a raw model), in the game.
#[allow(clippy::too_many_arguments)]
pub(super) fn damage_step(
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
            let a = arm.ok_or_else(|| need("target", "arm:", "装甲:"))?;
            let mut t = raw_model("", 0, 0, a);
            let o = resolve_damage(req, attacker, &mut t, &mut &mut *r).map_err(rule)?;
            Ok((o, Landing::Nowhere))
        }
    }
}

/// Issue 29: damage typed onto another player's model is refused with the ways that work.
fn hand_over(m: &Model) -> SessionError {
    let (name, c) = (&m.name, &m.controller);
    store::refusal(
        format!(
            "{name} is controlled by {c}: its controller or the GM marks its damage. Roll with apply:false — nothing is marked until {c} (or the GM) presses Apply damage — or attack with /wm attack and use its damage buttons; a server manager may let rollers apply it (/config option name:wm.roller_applies_damage value:on)."
        ),
        format!(
            "{name}のコントローラーは{c}です。ダメージを記入するのはコントローラーかGMです。apply:false で振れば、{c}（またはGM）が「ダメージを適用」を押すまで記入されません。/wm attack のダメージボタンも使えます。サーバー管理者は /config option name:wm.roller_applies_damage value:on でロールした人の適用を許可できます。"
        ),
    )
}

pub(super) fn marked(l: &Landing) -> Marked {
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
    #[name_localized("ja", "威力")]
    #[description_localized("ja", "POWの数値")]
    #[min = 0]
    #[max = 30]
    pow: Option<i64>,
    #[description = "Raw target ARM (not marked until Apply damage)"]
    #[name_localized("ja", "装甲")]
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
    #[description_localized("ja", "すぐボックスに記入（既定）。オフなら適用ボタン")]
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
                "威力: か攻撃側の武器（武器:）を指定してください。",
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
    let (roll, session, o, landing, active, owner) = if uses_models {
        let commander = Commander::of(ctx, &inv);
        let (roll, session, (o, landing, active, owner)) = store::run(ctx, &inv, &mut |s, game, r| {
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
            // Previewed (`apply:false`, a raw `arm:`), nothing is marked: anyone in the game
            // rolls it, and Apply damage is handed to the target's controller (issue 29).
            let marks_now = apply && arm.is_none();
            if let (Some(name), true, false) = (&t, marks_now, roller_may) {
                let m = model(game, name)?;
                if commander.may_command(s, m).is_err() {
                    return Err(hand_over(m));
                }
            }
            let (o, landing) = damage_step(game, &req, &a, t.as_deref(), arm, apply, r)?;
            let active = Some(a.controller.clone()).filter(|c| !c.is_empty());
            let owner = match &landing {
                Landing::Later(name) => super::press::apply_owner(s, game, name, commander.actor.user),
                _ => commander.actor.user,
            };
            Ok((o, landing, active, owner))
        })
        .await?;
        (roll, Some(session), o, landing, active, owner)
    } else {
        let a = raw_model("", 0, 0, 0);
        let mut g = Game {
            state: Default::default(),
            models: Default::default(),
        };
        let (roll, (o, landing)) =
            CommandRoll::roll(ctx, |r| damage_step(&mut g, &req, &a, None, arm, apply, r))
                .map_err(|e| say(&e, lang))?;
        (roll, inv.session_if_any(ctx).await, o, landing, None, inv.user)
    };
    let mut buttons = vec![];
    if let (Landing::Later(name), Some(s)) = (&landing, &session) {
        let press = ApplyPress {
            session: s.id,
            target: name.clone(),
            damage: o.damage,
        };
        buttons = vec![apply_offer(inv.guild, inv.channel, owner, press, lang)];
    }
    let v = view::damage_view(&o, marked(&landing), active.as_deref(), lang);
    match landing {
        Landing::Later(_) => answer_with(roll, &inv, session.as_deref(), &v, buttons, &Unmarked(&o)).await,
        _ => answer_with(roll, &inv, session.as_deref(), &v, buttons, &o).await,
    }
}
