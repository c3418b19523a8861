//! `/odds mecha`: the chances of a d20 mecha attack against evasion, its damage and critical
//! (issue 16), from the engine's exact odds (`systems::mecha_d20::odds`), rendered like the other
//! `/odds` pages.

use engine::i18n::Lang;
use engine::odds::Dist;
use engine::systems::mecha_d20::damage::{DamageRequest, parse_power};
use engine::systems::mecha_d20::odds::{self, MechaOdds, MechaRequest};

use crate::embeds::odds::{exact_note, histogram, percent, reply, send};
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::systems::mecha_d20::choices::{CockpitChoice, FacingChoice};
use crate::{BotError, Context};

/// d20 mecha: an attack against evasion, natural 20s, damage and criticals
#[poise::command(
    slash_command,
    name_localized("ja", "メカ"),
    description_localized("ja", "d20メカ: 攻撃対回避・出目20・ダメージ・クリティカルの確率")
)]
#[allow(clippy::too_many_arguments)]
pub async fn mecha(
    ctx: Context<'_>,
    #[description = "Everything the attacker adds to the d20"]
    #[name_localized("ja", "攻撃修正")]
    #[description_localized("ja", "攻撃側がd20に加える合計")]
    #[min = -999]
    #[max = 999]
    attack_mod: i64,
    #[description = "Everything the evader adds to the d20"]
    #[name_localized("ja", "回避修正")]
    #[description_localized("ja", "回避側がd20に加える合計")]
    #[min = -999]
    #[max = 999]
    evasion_mod: i64,
    #[description = "Weapon power, e.g. 2d6+3 (for the damage)"]
    #[name_localized("ja", "威力")]
    #[description_localized("ja", "武器の威力（例: 2d6+3、ダメージ用）")]
    #[max_length = 40]
    power: Option<String>,
    #[description = "The target's armour"]
    #[name_localized("ja", "装甲")]
    #[description_localized("ja", "目標の装甲")]
    #[min = 0]
    #[max = 999]
    armour: Option<u32>,
    #[description = "Which side of the target is attacked"]
    #[name_localized("ja", "向き")]
    #[description_localized("ja", "目標のどの面を攻撃するか")]
    facing: Option<FacingChoice>,
    #[description = "The target's cockpit (sets the facing penalty)"]
    #[name_localized("ja", "コクピット")]
    #[description_localized("ja", "目標のコクピット（向きのペナルティを決める）")]
    cockpit: Option<CockpitChoice>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let damage = match power {
        Some(p) => Some(DamageRequest {
            power: parse_power(&p).map_err(|e| inv.user_error(&e))?,
            armour: armour.unwrap_or(0),
            multiplier: None,
        }),
        None if armour.is_some() => {
            return Err(inv.text(
                "`armour` needs the weapon's `power`.",
                "`装甲` には武器の `威力` が必要です。",
            ));
        }
        None => None,
    };
    let req = MechaRequest {
        attack: attack_mod,
        evasion: evasion_mod,
        cockpit: cockpit.map(Into::into).unwrap_or_default(),
        facing: facing.map(Into::into).unwrap_or_default(),
        damage,
    };
    let o = odds::mecha_d20_odds(&req).map_err(|e| inv.user_error(&e))?;
    let (view, dist) = mecha_view(&o, inv.lang);
    send(ctx, reply(view, &dist, &|v| v > 0)).await
}

fn mecha_view(o: &MechaOdds, lang: Lang) -> (EmbedView, Dist) {
    let d = &o.decisions;
    let mut fields = vec![
        (
            lang.pick("Hit", "命中").to_string(),
            format!("**{}**", percent(o.hit)),
            true,
        ),
        (
            lang.pick("Natural 20 (attacker)", "出目20（攻撃側）").to_string(),
            percent(d.attack_natural_20),
            true,
        ),
        (
            lang.pick("Natural 20 (evader)", "出目20（回避側）").to_string(),
            percent(d.evasion_natural_20),
            true,
        ),
        (
            lang.pick("Both natural 20", "両者の出目20").to_string(),
            percent(d.both_natural_20),
            true,
        ),
    ];
    if o.facing_penalty != 0 {
        fields.push((
            lang.pick("Facing penalty", "向きのペナルティ").to_string(),
            o.facing_penalty.to_string(),
            true,
        ));
    }
    let dist = match &o.damage {
        Some(dm) => {
            fields.push((
                lang.pick("Critical", "クリティカル").to_string(),
                percent(dm.critical),
                true,
            ));
            fields.push((
                lang.pick("Mean damage (a miss is 0)", "平均ダメージ（外れは0）")
                    .to_string(),
                format!("{:.2}", dm.damage.mean()),
                true,
            ));
            dm.damage.clone()
        }
        None => Dist::from_pairs(&[(0, 1.0 - o.hit), (1, o.hit)]).unwrap_or_else(|_| Dist::point(0)),
    };
    let view = EmbedView {
        title: lang.pick("📊 Odds: d20 Mecha", "📊 確率: d20メカ").to_string(),
        description: histogram(&dist),
        colour: colour::NEUTRAL,
        fields,
        footer: Some(exact_note(lang)),
    };
    (view, dist)
}
