//! `/odds rally`: the chances of a Badlands Rally check, a check against a check and a weapon's
//! damage (issue 16), from the engine's exact odds (`systems::badlands_rally::odds`).

use engine::i18n::Lang;
use engine::systems::badlands_rally::odds::{self, RallyOdds, RallyRequest, RallyTraits};

use crate::embeds::odds::{both_or_neither, exact_note, histogram, number, percent, reply, send};
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// Badlands Rally: a check, a check against a check, a weapon's damage
#[poise::command(
    slash_command,
    name_localized("ja", "ラリー"),
    description_localized("ja", "バッドランズ・ラリー: チェック、対抗チェック、武器のダメージの確率")
)]
#[allow(clippy::too_many_arguments)]
pub async fn rally(
    ctx: Context<'_>,
    #[description = "The rating dice must meet (2 to 6, for 2+ to 6+)"]
    #[name_localized("ja", "能力値")]
    #[description_localized("ja", "ダイスが満たす値（2〜6、2+〜6+）")]
    #[min = 2]
    #[max = 6]
    rating: u8,
    #[description = "Dice rolled (0 is an automatic failure)"]
    #[name_localized("ja", "ダイス数")]
    #[description_localized("ja", "振るダイスの数（0は自動失敗）")]
    #[min = 0]
    #[max = 60]
    dice: u32,
    #[description = "The defence's rating"]
    #[name_localized("ja", "相手能力値")]
    #[description_localized("ja", "防御側の能力値")]
    #[min = 2]
    #[max = 6]
    vs_rating: Option<u8>,
    #[description = "The defence's dice"]
    #[name_localized("ja", "相手ダイス数")]
    #[description_localized("ja", "防御側のダイスの数")]
    #[min = 0]
    #[max = 60]
    vs_dice: Option<u32>,
    #[description = "The weapon's POW (needs the defence)"]
    #[name_localized("ja", "パワー")]
    #[description_localized("ja", "武器のPOW（防御側の指定が必要）")]
    #[min = 0]
    #[max = 30]
    pow: Option<u32>,
    #[description = "The defender's AR"]
    #[name_localized("ja", "アーマー")]
    #[description_localized("ja", "防御側のAR")]
    #[min = 0]
    #[max = 30]
    ar: Option<u32>,
    #[description = "Heat: a damage die showing 6 is two damage"]
    #[name_localized("ja", "ヒート")]
    #[description_localized("ja", "ヒート：ダメージダイスの6は2ダメージ")]
    heat: Option<bool>,
    #[description = "Blast: on a miss, one die (4+ is 1 damage) if a die met the rating and POW > AR"]
    #[name_localized("ja", "ブラスト")]
    #[description_localized(
        "ja",
        "ブラスト：外れても能力値を満たすダイスがありPOW>ARならダイス1個（4+で1ダメージ）"
    )]
    blast: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let versus = both_or_neither(
        &inv,
        vs_rating,
        vs_dice,
        (
            "Give both `vs_rating` and `vs_dice` for a check against a check.",
            "対抗チェックには `相手能力値` と `相手ダイス数` の両方を指定してください。",
        ),
    )?;
    let weapon = both_or_neither(
        &inv,
        pow,
        ar,
        (
            "Give both `pow` and `ar` for the chance to damage.",
            "ダメージの確率には `パワー` と `アーマー` の両方を指定してください。",
        ),
    )?;
    let traits = RallyTraits {
        heat: heat.unwrap_or(false),
        blast: blast.unwrap_or(false),
    };
    if traits != RallyTraits::default() && weapon.is_none() {
        return Err(inv.text(
            "Heat and Blast are weapon traits: give the weapon's `pow` and the defender's `ar` too.",
            "ヒートとブラストは武器の特性です。`パワー` と `アーマー` も指定してください。",
        ));
    }
    let req = RallyRequest {
        rating,
        dice,
        versus,
        weapon,
    };
    let o = odds::badlands_rally_odds_with(&req, traits).map_err(|e| inv.user_error(&e))?;
    let dist = o.margin.as_ref().unwrap_or(&o.check);
    let margin = o.margin.is_some();
    let reply = reply(rally_view(&o, traits, inv.lang), dist, &|v| !margin || v >= 0);
    send(ctx, reply).await
}

fn rally_view(o: &RallyOdds, traits: RallyTraits, lang: Lang) -> EmbedView {
    let r = &o.request;
    let mut title = match lang {
        Lang::En => format!("📊 Odds: Badlands Rally, {}D6 at {}+", r.dice, r.rating),
        Lang::Ja => format!("📊 確率: バッドランズ・ラリー {}D6 {}+", r.dice, r.rating),
    };
    if let Some((vr, vd)) = r.versus {
        title += &format!(" vs {vd}D6 {vr}+");
    }
    if let Some((p, a)) = r.weapon {
        title += &format!(", POW {p} / AR {a}");
        if traits.heat {
            title += lang.pick(" · Heat", " · ヒート");
        }
        if traits.blast {
            title += lang.pick(" · Blast", " · ブラスト");
        }
    }
    let mut fields = vec![
        (
            lang.pick("Mean check", "チェックの平均").into(),
            number(o.check.mean()),
            true,
        ),
        (
            lang.pick("Median check", "チェックの中央値").into(),
            o.check.median().to_string(),
            true,
        ),
        (lang.pick("All 1s", "全て1").into(), percent(o.all_ones), true),
    ];
    if let Some(h) = o.hit {
        fields.push((
            lang.pick("Hit (MOS ≥ 0)", "命中（MOS≧0）").into(),
            format!("**{}**", percent(h)),
            true,
        ));
    }
    if let (Some(c), Some(d)) = (o.damage_chance, &o.damage) {
        fields.push((
            lang.pick("Damage ≥ 1", "ダメージ1以上").into(),
            format!("**{}**", percent(c)),
            true,
        ));
        fields.push((
            lang.pick("Mean damage", "平均ダメージ").into(),
            number(d.mean()),
            true,
        ));
        if traits.blast {
            let pow_over_ar = r.weapon.is_some_and(|(p, a)| p > a);
            fields.push((
                lang.pick("Blast", "ブラスト").into(),
                if pow_over_ar {
                    lang.pick(
                        "counted: a miss with a die at the rating rolls one die, 4+ is 1 damage",
                        "計算済み：能力値を満たすダイスのある外れはダイス1個、4+で1ダメージ",
                    )
                } else {
                    lang.pick("no effect: POW is not over AR", "効果なし：POWがARを超えない")
                }
                .into(),
                false,
            ));
        }
    }
    let (heading, dist) = match &o.margin {
        Some(m) => (lang.pick("Margin (MOS ≥ 0, MOF < 0)", "差分（MOS≧0、MOF<0）"), m),
        None => (lang.pick("Check result", "チェックの結果"), &o.check),
    };
    EmbedView {
        title,
        description: format!("**{heading}**\n{}", histogram(dist)),
        colour: colour::NEUTRAL,
        fields,
        footer: Some(exact_note(lang)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_fits_and_names_the_traits() {
        let rally = odds::badlands_rally_odds(&RallyRequest {
            rating: 4,
            dice: 3,
            versus: Some((5, 2)),
            weapon: Some((7, 6)),
        })
        .unwrap();
        let v = rally_view(
            &rally,
            RallyTraits {
                heat: true,
                blast: true,
            },
            Lang::En,
        );
        assert!(v.fields.iter().any(|(n, _, _)| n.contains("Hit")));
        assert!(v.title.ends_with("· Heat · Blast"), "{}", v.title);
        assert!(v.total_chars() < 6000);
    }
}
