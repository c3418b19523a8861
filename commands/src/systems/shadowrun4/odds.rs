//! `/odds sr`: the chances of a Shadowrun 4 pool (issue 16), from the engine's exact odds
//! (`systems::shadowrun4::odds`): success, net hits, glitches, with Edge pushed; a session
//! character's pool is the one `/sr test` would roll.

use engine::i18n::Lang;
use engine::odds::Dist;
use engine::systems::shadowrun4::odds::{self, PoolOdds, Sr4Odds, Sr4Request};

use crate::embeds::odds::{exact_note, histogram, number, percent, reply, send};
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// Shadowrun 4: success, net hits and glitch chances of a pool
#[poise::command(
    slash_command,
    name_localized("ja", "シャドウラン"),
    description_localized("ja", "シャドウラン4: ダイスプールの成功・純ヒット・グリッチの確率")
)]
// A slash command's options are its parameters.
#[allow(clippy::too_many_arguments)]
pub async fn sr(
    ctx: Context<'_>,
    #[description = "Dice in the pool"]
    #[name_localized("ja", "プール")]
    #[description_localized("ja", "ダイスプールの数")]
    #[min = 1]
    #[max = 100]
    pool: Option<u32>,
    #[description = "Hits needed (a success test)"]
    #[name_localized("ja", "目標値")]
    #[description_localized("ja", "必要なヒット数（成功判定）")]
    #[min = 0]
    #[max = 100]
    threshold: Option<u32>,
    #[description = "Edge pushed before the roll: Edge dice added, the rule of six"]
    #[name_localized("ja", "エッジ")]
    #[description_localized("ja", "ロール前に使うエッジ（エッジ分のダイス追加、6の振り足し）")]
    #[min = 1]
    #[max = 20]
    edge: Option<u32>,
    #[description = "The opposing pool of an opposed test"]
    #[name_localized("ja", "対抗")]
    #[description_localized("ja", "対抗判定の相手のダイスプール")]
    #[min = 1]
    #[max = 100]
    opposed: Option<u32>,
    #[description = "Session character: the pool from their sheet, as /sr test builds it"]
    #[name_localized("ja", "キャラ")]
    #[description_localized(
        "ja",
        "セッションのキャラクター（/シャドウラン テスト と同じくシートからプールを作る）"
    )]
    #[autocomplete = "crate::systems::shadowrun4::common::autocomplete_character"]
    #[max_length = 64]
    character: Option<String>,
    #[description = "The character's attribute"]
    #[name_localized("ja", "能力値")]
    #[description_localized("ja", "キャラクターの能力値")]
    attribute: Option<crate::systems::shadowrun4::common::AttrChoice>,
    #[description = "The character's skill (defaulting when missing)"]
    #[name_localized("ja", "技能")]
    #[description_localized("ja", "キャラクターの技能（なければ技能なし判定）")]
    #[max_length = 40]
    skill: Option<String>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let pool = match (&character, pool) {
        (None, Some(n)) => n,
        (None, None) => {
            return Err(inv.text(
                "Give a pool (number of dice) or a session character.",
                "ダイスプール（ダイス数）かセッションのキャラクターを指定してください。",
            ));
        }
        (Some(_), _) => {
            // The pool /sr test would roll: the same sheet, the same rules, one code path.
            let session = crate::systems::shadowrun4::common::sr_session(ctx, &inv).await?;
            let args = crate::systems::shadowrun4::common::PoolArgs {
                pool: pool.map(i64::from),
                character: character.as_deref(),
                attribute,
                skill: skill.as_deref(),
                attribute2: None,
                program: None,
                modifiers: None,
                dice: None,
            };
            let (built, _) = crate::systems::shadowrun4::common::build_pool(&inv, Some(&session), &args)?;
            let total = built
                .total()
                .map_err(|e| crate::systems::shadowrun4::common::rule(&inv, &e))?;
            // A pool below zero rolls no dice (as /sr test reads it); one above the engine's
            // limit is refused there with the limit named, never cut down to fit.
            u32::try_from(total.max(0)).unwrap_or(u32::MAX)
        }
    };
    let req = Sr4Request {
        pool,
        threshold,
        edge,
        opposed,
    };
    let o = odds::shadowrun4_odds(&req).map_err(|e| inv.user_error(&e))?;
    let (dist, _) = sr_shown(&o.plain);
    let opposed = o.request.opposed.is_some();
    let mut view = sr_view(&o, inv.lang);
    if let Some(name) = &character {
        view.title = format!("{} · {}", view.title, crate::embeds::markdown::escape_title(name));
    }
    let reply = reply(view, dist, &|v| if opposed { v > 0 } else { v >= 0 });
    send(ctx, reply).await
}

/// The distribution shown for a pool: net hits when there are any, else hits.
fn sr_shown(p: &PoolOdds) -> (&Dist, bool) {
    match &p.net {
        Some(n) => (n, true),
        None => (&p.hits, false),
    }
}

fn sr_fields(p: &PoolOdds, lang: Lang, edge: bool, fields: &mut Vec<(String, String, bool)>) {
    let tag = if edge {
        lang.pick(" (Edge)", "（エッジ）")
    } else {
        ""
    };
    if let Some(s) = p.success {
        fields.push((
            format!("{}{tag}", lang.pick("Success", "成功")),
            format!("**{}**", percent(s)),
            true,
        ));
    }
    fields.push((
        format!("{}{tag}", lang.pick("Mean hits", "平均ヒット")),
        number(p.hits.mean()),
        true,
    ));
    fields.push((
        format!("{}{tag}", lang.pick("Glitch", "グリッチ")),
        percent(p.glitch),
        true,
    ));
    fields.push((
        format!("{}{tag}", lang.pick("Critical glitch", "クリティカル・グリッチ")),
        percent(p.critical_glitch),
        true,
    ));
}

fn sr_view(o: &Sr4Odds, lang: Lang) -> EmbedView {
    let r = &o.request;
    let mut title = match lang {
        Lang::En => format!("📊 Odds: Shadowrun 4, pool {}", r.pool),
        Lang::Ja => format!("📊 確率: シャドウラン4 プール{}", r.pool),
    };
    if let Some(t) = r.threshold {
        title += &match lang {
            Lang::En => format!(", threshold {t}"),
            Lang::Ja => format!(" 目標値{t}"),
        };
    }
    if let Some(p) = r.opposed {
        title += &match lang {
            Lang::En => format!(" vs pool {p}"),
            Lang::Ja => format!(" 対抗{p}"),
        };
    }
    let mut fields = Vec::new();
    sr_fields(&o.plain, lang, false, &mut fields);
    let (dist, net) = sr_shown(&o.plain);
    let heading = if net {
        lang.pick("Net hits", "純ヒット")
    } else {
        lang.pick("Hits", "ヒット")
    };
    let mut description = format!("**{heading}**\n{}", histogram(dist));
    if let Some(e) = &o.with_edge {
        sr_fields(e, lang, true, &mut fields);
        let (d, _) = sr_shown(e);
        let edge_heading = match lang {
            Lang::En => format!("{heading} with Edge {} (rule of six)", r.edge.unwrap_or(0)),
            Lang::Ja => format!("エッジ{}使用時の{heading}（6の振り足し）", r.edge.unwrap_or(0)),
        };
        description += &format!("\n**{edge_heading}**\n{}", histogram(d));
    }
    let worst = o.with_edge.as_ref().unwrap_or(&o.plain);
    EmbedView {
        title,
        description,
        colour: if worst.critical_glitch > 0.01 {
            colour::ALERT
        } else {
            colour::NEUTRAL
        },
        fields,
        footer: Some(exact_note(lang)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_fits() {
        let sr = odds::shadowrun4_odds(&Sr4Request {
            pool: 80,
            threshold: Some(3),
            edge: Some(20),
            opposed: None,
        })
        .unwrap();
        assert!(sr_view(&sr, Lang::Ja).total_chars() < 6000);
    }
}
