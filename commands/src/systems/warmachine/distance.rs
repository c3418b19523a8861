//! `/wm within` (checklist 28–32): the bot never measures; players give the distances they
//! measured, and the seed's readings decide: within when the nearest base edge is within the
//! range (exactly at it counts), completely within when the farthest edge is too, and a model
//! is completely within its own "within X of M" area unless its rule says otherwise. Measuring
//! is allowed at any time, so nothing here reads the turn or needs a session.

use engine::i18n::Lang;
use engine::systems::warmachine::distance::{AreaPlacement, in_area};

use super::notice;
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// `2.0` as `2`, `1.5` as `1.5`.
fn inches(v: f64) -> String {
    let s = format!("{v:.2}");
    format!("{}\"", s.trim_end_matches('0').trim_end_matches('.'))
}

/// The verdict and the lines that show why.
pub fn within_lines(
    range: f64,
    nearest: f64,
    farthest: Option<f64>,
    itself: bool,
    excludes_itself: bool,
    lang: Lang,
) -> Result<(AreaPlacement, Vec<String>), engine::systems::warmachine::RuleError> {
    let far = farthest.unwrap_or(nearest);
    let placed = in_area(itself, excludes_itself, nearest, far, range)?;
    let mut why = Vec::new();
    if itself {
        why.push(match (excludes_itself, lang) {
            (false, Lang::En) => "The model itself: its area covers the ground under its base, so it is completely within (item 32).".to_string(),
            (false, Lang::Ja) => "そのモデル自身：範囲は自分のベースの下も含むので、完全に範囲内（項目32）。".to_string(),
            (true, Lang::En) => "The model itself, and its rule leaves it out.".to_string(),
            (true, Lang::Ja) => "そのモデル自身ですが、ルールで除外されています。".to_string(),
        });
        return Ok((placed, why));
    }
    let cmp = |d: f64| {
        if d <= range + f64::EPSILON * 64.0 {
            "≤"
        } else {
            ">"
        }
    };
    why.push(match lang {
        Lang::En => format!(
            "Nearest edge {} {} {}: {} (exactly at the distance counts as within, item 29)",
            inches(nearest),
            cmp(nearest),
            inches(range),
            if cmp(nearest) == "≤" {
                "within"
            } else {
                "not within"
            }
        ),
        Lang::Ja => format!(
            "最も近いベースの端 {} {} {}：{}（ちょうどその距離も範囲内、項目29）",
            inches(nearest),
            cmp(nearest),
            inches(range),
            if cmp(nearest) == "≤" {
                "範囲内"
            } else {
                "範囲外"
            }
        ),
    });
    match farthest {
        Some(f) => why.push(match lang {
            Lang::En => format!(
                "Farthest edge {} {} {}: {} (item 30)",
                inches(f),
                cmp(f),
                inches(range),
                if cmp(f) == "≤" {
                    "completely within"
                } else {
                    "not completely within"
                }
            ),
            Lang::Ja => format!(
                "最も遠いベースの端 {} {} {}：{}（項目30）",
                inches(f),
                cmp(f),
                inches(range),
                if cmp(f) == "≤" {
                    "完全に範囲内"
                } else {
                    "完全には範囲内でない"
                }
            ),
        }),
        None => why.push(
            lang.pick(
                "Give farthest: (the far edge of the base) to know whether it is completely within.",
                "完全に範囲内かどうかは farthest:（ベースの遠い側の端）で分かります。",
            )
            .to_string(),
        ),
    }
    // Without the far edge only "within" is known.
    let placed = match (placed, farthest) {
        (AreaPlacement::CompletelyWithin, None) => AreaPlacement::Within,
        (p, _) => p,
    };
    Ok((placed, why))
}

pub fn placement_text(p: AreaPlacement, lang: Lang) -> &'static str {
    match p {
        AreaPlacement::Outside => lang.pick("not within", "範囲外"),
        AreaPlacement::Within => lang.pick("within", "範囲内"),
        AreaPlacement::CompletelyWithin => lang.pick("completely within", "完全に範囲内"),
    }
}

/// Within / completely within: from the base edges you measured (exactly at the distance counts)
#[allow(clippy::too_many_arguments)]
#[poise::command(
    slash_command,
    rename = "within",
    name_localized("ja", "範囲内"),
    description_localized("ja", "範囲内／完全に範囲内：測ったベースの端から（ちょうどの距離も範囲内）")
)]
pub async fn wm_within(
    ctx: Context<'_>,
    #[description = "The distance of the rule, in inches (within X)"]
    #[name_localized("ja", "距離")]
    #[description_localized("ja", "ルールの距離（インチ）")]
    #[min = 0]
    #[max = 1000]
    range: f64,
    #[description = "Measured to the nearest edge of the model's base"]
    #[name_localized("ja", "近い端")]
    #[description_localized("ja", "モデルのベースの近い端までの距離")]
    #[min = 0]
    #[max = 1000]
    nearest: f64,
    #[description = "Measured to the farthest edge of its base (for completely within)"]
    #[name_localized("ja", "遠い端")]
    #[description_localized("ja", "ベースの遠い端までの距離（完全に範囲内か）")]
    #[min = 0]
    #[max = 1000]
    farthest: Option<f64>,
    #[description = "It is the model the area is around (it counts as completely within)"]
    #[name_localized("ja", "自身")]
    #[description_localized("ja", "範囲の中心のモデル自身（完全に範囲内とみなす）")]
    itself: Option<bool>,
    #[description = "Its rule leaves the model itself out"]
    #[name_localized("ja", "自身を除く")]
    #[description_localized("ja", "ルールでモデル自身を除く")]
    excludes_itself: Option<bool>,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let lang = inv.lang;
    let (placed, why) = within_lines(
        range,
        nearest,
        farthest,
        itself.unwrap_or(false),
        excludes_itself.unwrap_or(false),
        lang,
    )
    .map_err(|e| inv.user_error(&e))?;
    let v = EmbedView {
        title: match lang {
            Lang::En => format!("📏 {} {}", placement_text(placed, lang), inches(range)),
            Lang::Ja => format!("📏 {}以内：{}", inches(range), placement_text(placed, lang)),
        },
        description: why.join("\n"),
        colour: colour::NEUTRAL,
        fields: vec![],
        footer: None,
    };
    notice(ctx, &v).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checklist 29–32: equal counts as within; the far edge decides "completely"; the model
    /// itself is completely within unless its rule says otherwise.
    #[test]
    fn within_and_completely_within_follow_the_seed() {
        let (p, why) = within_lines(2.0, 2.0, Some(3.0), false, false, Lang::En).unwrap();
        assert_eq!(p, AreaPlacement::Within);
        assert!(why[0].contains("Nearest edge 2\" ≤ 2\": within"), "{why:?}");
        assert!(why[1].contains("3\" > 2\": not completely within"), "{why:?}");
        let (p, _) = within_lines(2.0, 0.5, Some(2.0), false, false, Lang::En).unwrap();
        assert_eq!(p, AreaPlacement::CompletelyWithin);
        let (p, _) = within_lines(2.0, 2.01, None, false, false, Lang::En).unwrap();
        assert_eq!(p, AreaPlacement::Outside);
        let (p, why) = within_lines(2.0, 0.0, None, false, false, Lang::En).unwrap();
        assert_eq!(
            p,
            AreaPlacement::Within,
            "without the far edge only within is known"
        );
        assert!(why[1].contains("farthest:"));
        let (p, _) = within_lines(2.0, 9.0, None, true, false, Lang::Ja).unwrap();
        assert_eq!(p, AreaPlacement::CompletelyWithin);
        let (p, _) = within_lines(2.0, 0.0, None, true, true, Lang::En).unwrap();
        assert_eq!(p, AreaPlacement::Outside);
        assert!(within_lines(f64::NAN, 1.0, None, false, false, Lang::En).is_err());
        assert_eq!(inches(1.5), "1.5\"");
    }
}
