//! `/wm attack`, `/wm damage`, `/wm roll`, `/wm d3`, and the buttons after a hit. Each command
//! takes session models (stats and effects looked up) or raw numbers (`stat`, `def`, `pow`,
//! `arm`), or both: a raw number beside a model replaces that stat after effects.
//!
//! After a hit the roller gets "Roll damage" and "Boosted damage": two buttons of one stored
//! action, so the choice is made once (by the roller or the GM) and works after a restart.
//! Damage on a session model is marked at once, unless a raw ARM was typed or `apply:false`
//! was asked: then an "Apply damage" button marks it.
//!
//! Here: the attack and what the damage commands share; `damage.rs` `/wm damage` and where a
//! damage roll lands, `rolls.rs` `/wm roll` and `/wm d3`, `press.rs` the buttons after a hit.

mod damage;
mod press;
mod rolls;

pub use damage::wm_damage;
pub use press::{Applied, apply_press, damage_press};
pub use rolls::{wm_d3, wm_roll};

use engine::i18n::Lang;
use engine::session::{Session, SessionError};
use engine::systems::warmachine::dice::{DiceRequest, Discard, DiscardWhich};
use engine::systems::warmachine::effects::Stat;
use engine::systems::warmachine::rules::attack_options;
use engine::systems::warmachine::{
    AttackKind, AttackOutcome, AttackRequest, Model, PowSource, resolve_attack,
};
use serenity::all::ButtonStyle;

use super::embeds::{self as view, AttackShown};
use super::press_data::{ApplyPress, BOOST, DamagePress, Moment, WmPress};
use super::store::{self, Commander, Game, model, model_name, raw_model, refusal, rule, say, with_raw};
use super::{answer_with, model_autocomplete};
use crate::command_roll::CommandRoll;
use crate::invocation::Invocation;
use crate::offers::{Offer, Variant};
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
fn damage_buttons(inv: &Invocation, press: &DamagePress) -> Offer {
    let action = WmPress::Damage(press.clone()).new_action(inv.guild, inv.channel, inv.user);
    Offer::Choice {
        action,
        buttons: vec![
            Variant {
                variant: None,
                label: inv.lang.pick("Roll damage", "ダメージロール").into(),
                style: ButtonStyle::Danger,
            },
            Variant {
                variant: Some(BOOST),
                label: inv
                    .lang
                    .pick("Boosted damage", "ブーストしてダメージロール")
                    .into(),
                style: ButtonStyle::Primary,
            },
        ],
    }
}

/// "Apply damage", handed to `owner`: its action is stored with the reply's log row.
fn apply_offer(guild: Option<u64>, channel: u64, owner: u64, press: ApplyPress, lang: Lang) -> Offer {
    let action = WmPress::Apply(press).new_action(guild, channel, owner);
    Offer::pending(
        action,
        lang.pick("Apply damage", "ダメージを適用"),
        ButtonStyle::Danger,
    )
}

/// What the attack left for the damage buttons.
struct AttackDone {
    outcome: AttackOutcome,
    target: Option<Model>,
    pow: Option<PowSource>,
    moment: Option<Moment>,
}

/// Issue 29: `/wm attack` without `weapon:` (and without `kind:`): a model with one weapon
/// attacks with it; one with several is refused with the list (never a silent melee attack).
fn default_weapon(m: &Model) -> Result<Option<String>, SessionError> {
    match m.weapons.as_slice() {
        [] => Ok(None),
        [one] => Ok(Some(one.name.clone())),
        several => {
            let list = |lang: Lang| {
                several
                    .iter()
                    .map(|w| format!("{} (POW {} {})", w.name, w.pow, w.kind.name(lang)))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            Err(refusal(
                format!(
                    "{} has several weapons: {}. Name one with weapon:.",
                    m.name,
                    list(Lang::En)
                ),
                format!(
                    "{}には武器が複数あります：{}。weapon: で1つ指定してください。",
                    m.name,
                    list(Lang::Ja)
                ),
            ))
        }
    }
}

/// Autocomplete of `weapon:`: the weapons of the attacker typed (every model's when none is).
pub async fn weapon_autocomplete(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::all::CreateAutocompleteResponse {
    let attacker = match ctx {
        poise::Context::Application(app) => typed_option(&app.interaction.data.options, "attacker"),
        poise::Context::Prefix(_) => None,
    };
    let session = ctx
        .data()
        .store
        .shared_session(ctx.channel_id().get())
        .await
        .ok()
        .flatten();
    let choices = session
        .and_then(|s| store::peek(&s).map(|g| (s, g)))
        .map(|(s, g)| weapon_choices(&s, &g, attacker.as_deref(), partial))
        .unwrap_or_default();
    serenity::all::CreateAutocompleteResponse::new().set_choices(
        choices
            .into_iter()
            .map(|(label, value)| serenity::all::AutocompleteChoice::new(label, value))
            .collect(),
    )
}

/// The weapons `weapon:` offers: the attacker's (by roster name, any case), else every model's;
/// those containing `partial`, at most 25.
pub fn weapon_choices(s: &Session, g: &Game, attacker: Option<&str>, partial: &str) -> Vec<(String, String)> {
    let wanted = attacker.and_then(|a| s.entry(a)).map(|e| e.name.clone());
    let needle = partial.trim().to_lowercase();
    let mut out: Vec<(String, String)> = Vec::new();
    for m in g
        .models
        .values()
        .filter(|m| wanted.as_ref().is_none_or(|w| *w == m.name))
    {
        for w in &m.weapons {
            if w.name.to_lowercase().contains(&needle) && !out.iter().any(|(_, v)| *v == w.name) {
                let label = format!(
                    "{} — {} (POW {} {})",
                    w.name,
                    m.name,
                    w.pow,
                    w.kind.name(Lang::En)
                );
                out.push((label.chars().take(100).collect(), w.name.clone()));
            }
        }
    }
    out.truncate(25);
    out
}

fn typed_option(options: &[serenity::all::CommandDataOption], name: &str) -> Option<String> {
    use serenity::all::CommandDataOptionValue as V;
    options.iter().find_map(|o| match &o.value {
        V::SubCommand(inner) | V::SubCommandGroup(inner) => typed_option(inner, name),
        V::String(v) | V::Autocomplete { value: v, .. } if o.name == name => Some(v.clone()),
        _ => None,
    })
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
    #[description = "Attacker's weapon (sets melee/ranged and POW; a model's only one by default)"]
    #[name_localized("ja", "武器")]
    #[description_localized("ja", "攻撃側の武器（近接・射撃とPOWが決まる。武器が1つならそれ）")]
    #[autocomplete = "weapon_autocomplete"]
    #[max_length = 60]
    weapon: Option<String>,
    #[description = "Melee (MAT) or ranged (RAT); default melee"]
    #[name_localized("ja", "種類")]
    #[description_localized("ja", "近接（MAT）か射撃（RAT）。既定は近接")]
    kind: Option<KindChoice>,
    #[description = "Raw MAT/RAT"]
    #[name_localized("ja", "攻撃値")]
    #[description_localized("ja", "MAT/RATの数値")]
    #[min = 0]
    #[max = 30]
    stat: Option<i64>,
    #[description = "Raw target DEF"]
    #[name_localized("ja", "防御値")]
    #[description_localized("ja", "目標のDEFの数値")]
    #[min = 0]
    #[max = 30]
    def: Option<i64>,
    #[description = "Raw POW for the damage buttons"]
    #[name_localized("ja", "威力")]
    #[description_localized("ja", "ダメージボタン用のPOW")]
    #[min = 0]
    #[max = 30]
    pow: Option<i64>,
    #[description = "Raw target ARM for the damage buttons"]
    #[name_localized("ja", "装甲")]
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
    #[description = "Modifier (terrain, elevation, …)"]
    #[name_localized("ja", "修正")]
    #[description_localized("ja", "修正値（地形、高さなど）")]
    #[min = -20]
    #[max = 20]
    modifier: Option<i64>,
    #[description = "The target is in cover: its DEF bonus (refused if it cannot gain cover)"]
    #[name_localized("ja", "遮蔽")]
    #[description_localized("ja", "目標が遮蔽を得ている：DEFボーナス（遮蔽を得られない目標は不可）")]
    #[min = 1]
    #[max = 10]
    cover: Option<i64>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let options = attack_options(&inv.settings.house);
    let kind_typed = kind.is_some();
    let dice = dice_request(boost, additional.as_deref(), discard_lowest, discard_highest)
        .map_err(|e| say(&e, lang))?;
    let kind: AttackKind = kind.map_or(AttackKind::Melee, AttackKind::from);
    let req = AttackRequest {
        kind,
        weapon: weapon.clone(),
        modifier: self::modifier(modifier),
        dice,
        cover: num(cover).unwrap_or(0),
    };
    let (stat, def, pow, arm) = (num(stat), num(def), num(pow), num(arm));
    let raw_attacker = || -> Result<Model, SessionError> {
        let s = stat.ok_or_else(|| need("attacking", "stat:", "攻撃値:"))?;
        Ok(raw_model(lang.pick("Attacker", "攻撃側"), s, 0, 0))
    };
    let raw_target = || -> Result<Model, SessionError> {
        let d = def.ok_or_else(|| need("target", "def:", "防御値:"))?;
        Ok(raw_model(lang.pick("Target", "目標"), 0, d, arm.unwrap_or(0)))
    };
    let uses_models = attacker.is_some() || target.is_some();
    let (roll, session, done, attacker_model): (
        CommandRoll<'_>,
        Option<std::sync::Arc<Session>>,
        AttackDone,
        Option<Model>,
    ) = if uses_models {
        let commander = Commander::of(ctx, &inv);
        let (roll, session, (done, a)) = store::run(ctx, &inv, &mut |s, game: &mut Game, r| {
            let mut req = req.clone();
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
            if req.weapon.is_none()
                && !kind_typed
                && let Some(m) = &a_model
            {
                req.weapon = default_weapon(m)?;
            }
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
            let pow = damage_pow(req.weapon.as_deref(), pow, a_model.as_ref(), outcome.kind);
            // WG-9, issue 29: the damage belongs to this moment; what ARM it saw, for the
            // refusal once the moment has passed.
            let moment = Some(Moment {
                games: game.state.games,
                moment: game.state.game.moment,
                arm: arm.unwrap_or_else(|| u32::try_from(t.stat(Stat::Arm).value).unwrap_or(0)),
            });
            Ok((
                AttackDone {
                    outcome,
                    target: t_model,
                    pow,
                    moment,
                },
                a_model,
            ))
        })
        .await?;
        (roll, Some(session), done, a)
    } else {
        let a = raw_attacker().map_err(|e| say(&e, lang))?;
        let t = raw_target().map_err(|e| say(&e, lang))?;
        let (roll, outcome) =
            CommandRoll::roll(ctx, |r| resolve_attack(&req, &a, &t, &options, &mut &mut *r))
                .map_err(|e| inv.user_error(&e))?;
        (
            roll,
            inv.session_if_any(ctx).await,
            AttackDone {
                outcome,
                target: None,
                pow: pow.map(PowSource::Value),
                moment: None,
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
                    moment: done.moment.clone(),
                };
                buttons = vec![damage_buttons(&inv, &press)];
            }
            (None, _) => {
                no_buttons = Some(
                    lang.pick(
                        "Name the weapon (or give pow:) for the damage buttons, or use /wm damage.",
                        "ダメージボタンには武器（または 威力:）を指定してください。/wm damage でも振れます。",
                    )
                    .to_string(),
                )
            }
            (Some(_), true) => {
                no_buttons = Some(
                    lang.pick(
                        "Give the target's arm: for the damage buttons, or use /wm damage.",
                        "ダメージボタンには目標の 装甲: を指定してください。/wm damage でも振れます。",
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
    answer_with(
        roll,
        &inv,
        session.as_deref(),
        &view::attack_view(o, &shown, lang),
        buttons,
        o,
    )
    .await
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
