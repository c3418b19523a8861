//! `/odds wm`: the chances of a Warmachine attack and damage roll (issue 16), from the engine's
//! exact odds (`systems::warmachine::odds`), rendered like the other `/odds` pages: the numbers,
//! a text histogram and the chart of the damage.

use engine::i18n::Lang;
use engine::odds::Dist;
use engine::systems::warmachine::odds::{
    self, WarmachineOdds, WarmachineRequest, WmAttack, WmDamage, WmDice,
};
use engine::systems::warmachine::rules::attack_options;

use crate::embeds::odds::{both_or_neither, exact_note, histogram, percent, reply, send};
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// Warmachine: chance to hit, to crit and to damage or disable
#[poise::command(
    slash_command,
    name_localized("ja", "ウォーマシン"),
    description_localized("ja", "ウォーマシン: 命中・クリティカル・ダメージ・ディスエイブルの確率")
)]
#[allow(clippy::too_many_arguments)]
pub async fn wm(
    ctx: Context<'_>,
    #[description = "The attacker's MAT or RAT (with modifiers) — for the attack roll"]
    #[name_localized("ja", "攻撃値")]
    #[description_localized("ja", "攻撃側のMATかRAT（修正込み）— 攻撃ロール")]
    #[min = 0]
    #[max = 30]
    stat: Option<u32>,
    #[description = "The target's DEF"]
    #[name_localized("ja", "防御値")]
    #[description_localized("ja", "目標のDEF")]
    #[min = 0]
    #[max = 30]
    def: Option<u32>,
    #[description = "The attack is boosted (one more die)"]
    #[name_localized("ja", "攻撃ブースト")]
    #[description_localized("ja", "攻撃をブースト（ダイス+1）")]
    boost: Option<bool>,
    #[description = "The damage roll's POW (P+S for melee)"]
    #[name_localized("ja", "威力")]
    #[description_localized("ja", "ダメージロールのPOW（近接はP+S）")]
    #[min = 0]
    #[max = 30]
    pow: Option<u32>,
    #[description = "The target's ARM"]
    #[name_localized("ja", "装甲")]
    #[description_localized("ja", "目標のARM")]
    #[min = 0]
    #[max = 30]
    arm: Option<u32>,
    #[description = "The damage is boosted (one more die)"]
    #[name_localized("ja", "ダメージブースト")]
    #[description_localized("ja", "ダメージをブースト（ダイス+1）")]
    damage_boost: Option<bool>,
    #[description = "Damage boxes the target has left: the chance to disable it"]
    #[name_localized("ja", "残りボックス")]
    #[description_localized("ja", "目標の残りダメージボックス（ディスエイブルの確率）")]
    #[min = 1]
    #[max = 60]
    boxes: Option<u32>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let attack = both_or_neither(
        &inv,
        stat,
        def,
        (
            "Give both `stat` and `def` for the attack roll.",
            "攻撃ロールには `攻撃値` と `防御値` の両方を指定してください。",
        ),
    )?
    .map(|(stat, def)| WmAttack {
        stat,
        modifier: 0,
        def,
        dice: dice(boost),
        // The server's `wm.auto_hit_miss`, as `/wm attack` reads it for a model without its own.
        auto_hit_miss: attack_options(&inv.settings.house).auto_hit_miss,
    });
    let damage = both_or_neither(
        &inv,
        pow,
        arm,
        (
            "Give both `pow` and `arm` for the damage roll.",
            "ダメージロールには `威力` と `装甲` の両方を指定してください。",
        ),
    )?
    .map(|(pow, arm)| WmDamage {
        pow,
        modifier: 0,
        arm,
        dice: dice(damage_boost),
    });
    if attack.is_none() && damage.is_none() {
        return Err(inv.text(
            "Give an attack (`stat` and `def`), a damage roll (`pow` and `arm`), or both.",
            "攻撃（`攻撃値` と `防御値`）、ダメージ（`威力` と `装甲`）、またはその両方を指定してください。",
        ));
    }
    let req = WarmachineRequest {
        attack,
        damage,
        boxes,
    };
    let o = odds::warmachine_odds(&req).map_err(|e| inv.user_error(&e))?;
    let (view, dist) = wm_view(&o, inv.lang);
    send(ctx, reply(view, &dist, &|v| v > 0)).await
}

fn dice(boost: Option<bool>) -> WmDice {
    WmDice {
        boost: boost.unwrap_or(false),
        additional: 0,
        discard: None,
    }
}

fn wm_view(o: &WarmachineOdds, lang: Lang) -> (EmbedView, Dist) {
    let mut fields = Vec::new();
    if let Some(a) = &o.attack {
        fields.push((
            lang.pick("Hit", "命中").to_string(),
            format!("**{}**", percent(a.hit)),
            true,
        ));
        fields.push((
            lang.pick("Critical", "クリティカル").to_string(),
            percent(a.critical),
            true,
        ));
        fields.push((
            lang.pick("All 1s (auto miss)", "全て1（自動失敗）").to_string(),
            percent(a.all_ones),
            true,
        ));
        fields.push((
            lang.pick("All 6s (auto hit)", "全て6（自動命中）").to_string(),
            percent(a.all_sixes),
            true,
        ));
    }
    if let Some(d) = &o.damage {
        let label = if o.attack.is_some() {
            lang.pick("Damage (a miss is 0)", "ダメージ（外れは0）")
        } else {
            lang.pick("Damage", "ダメージ")
        };
        fields.push((
            lang.pick("At least 1 damage", "1点以上のダメージ").to_string(),
            format!("**{}**", percent(d.damage_chance)),
            true,
        ));
        fields.push((
            format!("{} · {}", label, lang.pick("mean", "平均")),
            format!("{:.2}", d.damage.mean()),
            true,
        ));
        if let Some(p) = d.disable {
            fields.push((
                lang.pick("Disabled", "ディスエイブル").to_string(),
                format!("**{}**", percent(p)),
                true,
            ));
        }
    }
    let dist = match (&o.damage, &o.attack) {
        (Some(d), _) => d.damage.clone(),
        (None, Some(a)) => a.total.clone(),
        (None, None) => Dist::point(0),
    };
    let view = EmbedView {
        title: lang
            .pick("📊 Odds: Warmachine", "📊 確率: ウォーマシン")
            .to_string(),
        description: histogram(&dist),
        colour: colour::NEUTRAL,
        fields,
        footer: Some(exact_note(lang)),
    };
    (view, dist)
}
