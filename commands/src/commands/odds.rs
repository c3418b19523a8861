//! `/odds` (`/確率`): the exact chances of a roll before it is made (issue 16). The engine's
//! `odds` module computes; this renders an embed (mean, median, chances, a compact text
//! histogram for clients that hide attachments) and a PNG bar chart. `/odds roll` is here; each
//! system's page is in its folder (`systems/<key>/odds.rs`), joined through the registry.

use engine::i18n::Lang;
use engine::odds::{self, Dist, Measure, RollOdds};

use crate::embeds::odds::{
    Bin, bar, exact_note, histogram, histogram_marked, number, percent, reply, reply_bins, send,
};
#[cfg(test)]
use crate::embeds::odds::{MAX_BINS, bins, chart};
use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// The exact chances of a roll before it is made
#[poise::command(
    slash_command,
    name_localized("ja", "確率"),
    description_localized("ja", "振る前にロールの正確な確率を表示します"),
    rename = "odds",
    subcommands("roll"),
    subcommand_required
)]
async fn odds_generic(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// `/odds`: `roll`, then each system's own page from the registry
/// ([`SystemBot::odds`](crate::systems::SystemBot::odds)), in the registry's order.
pub fn odds() -> crate::Command {
    let mut odds = odds_generic();
    odds.subcommands
        .extend(crate::systems::all().filter_map(|s| s.odds()));
    odds
}

/// Chances of any /roll expression: 2D6>=7, 4d6 k3, 6d10 t8 …
#[poise::command(
    slash_command,
    name_localized("ja", "ダイス"),
    description_localized("ja", "/ダイス の式の確率（例: 2D6>=7、4d6 k3、6d10 t8）")
)]
pub async fn roll(
    ctx: Context<'_>,
    #[description = "A /roll expression, e.g. 2D6>=7"]
    #[name_localized("ja", "式")]
    #[description_localized("ja", "/ダイス の式（例: 2D6>=7）")]
    #[max_length = 200]
    expression: String,
) -> Result<(), BotError> {
    let inv = Invocation::load(ctx).await;
    let o = odds::roll_odds(&expression).map_err(|e| inv.user_error(&e))?;
    let target = o.target;
    let view = roll_view(&o, inv.lang);
    let reply = match &o.choices {
        // The chart of a choice: one bar per item, its chance to be picked.
        Some(items) => reply_bins(view, &choice_bins(items), &|_| false),
        None => reply(view, &o.dist, &|v| target.is_none_or(|t| t.test(v))),
    };
    send(ctx, reply).await
}

/// Rows of a `choice`'s list in the embed (up to 100 items may be given).
const MAX_CHOICE_ROWS: usize = 30;
/// Characters of an item shown in a row.
const CHOICE_LABEL: usize = 24;

/// A `choice`'s chart: one bar per item, in the list's order.
fn choice_bins(items: &[(String, f64)]) -> Vec<Bin> {
    items
        .iter()
        .zip(1..)
        .map(|((_, p), i)| Bin { lo: i, hi: i, p: *p })
        .collect()
}

/// An item as a code block shows it: one line, no backticks, at most [`CHOICE_LABEL`] characters.
fn choice_label(item: &str) -> String {
    let flat: String = item
        .chars()
        .map(|c| match c {
            '`' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    crate::embeds::truncate(&flat, CHOICE_LABEL)
}

/// `A ████████ 33.33 %`, a row per item (the first [`MAX_CHOICE_ROWS`]), in a code block.
fn choice_rows(items: &[(String, f64)], lang: Lang) -> String {
    let peak = items.iter().map(|(_, p)| *p).fold(0.0, f64::max);
    let labels: Vec<String> = items.iter().map(|(s, _)| choice_label(s)).collect();
    let w = labels
        .iter()
        .take(MAX_CHOICE_ROWS)
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(1);
    let mut out = String::from("```\n");
    for ((_, p), label) in items.iter().zip(&labels).take(MAX_CHOICE_ROWS) {
        let pad = w.saturating_sub(label.chars().count());
        out.push_str(&format!(
            "{label}{} {:<16} {}\n",
            " ".repeat(pad),
            bar(*p, peak),
            percent(*p)
        ));
    }
    if items.len() > MAX_CHOICE_ROWS {
        let more = items.len() - MAX_CHOICE_ROWS;
        out.push_str(&match lang {
            Lang::En => format!("… {more} more\n"),
            Lang::Ja => format!("…他{more}項目\n"),
        });
    }
    out.push_str("```");
    out
}

fn choice_view(o: &RollOdds, items: &[(String, f64)], lang: Lang) -> EmbedView {
    // Each pick is one item more among the picked: the chances add up to the picks.
    let picks = items.iter().map(|(_, p)| p).sum::<f64>().round();
    let heading = lang.pick("Chance each item is picked", "各項目が選ばれる確率");
    let fields = vec![
        (
            lang.pick("Items", "項目数").to_string(),
            items.len().to_string(),
            true,
        ),
        (lang.pick("Picks", "選ぶ数").to_string(), format!("{picks}"), true),
    ];
    EmbedView {
        title: roll_title(o, lang),
        description: format!("**{heading}**\n{}", choice_rows(items, lang)),
        colour: colour::NEUTRAL,
        fields,
        footer: Some(exact_note(lang)),
    }
}

fn tally_view(o: &RollOdds, faces: &[(u32, Dist)], lang: Lang) -> EmbedView {
    let (first, last) = (faces.first().map_or(0, |f| f.0), faces.last().map_or(0, |f| f.0));
    let same = faces.iter().all(|(_, d)| *d == o.dist);
    let mut fields = vec![(
        lang.pick("Faces", "出目").to_string(),
        format!("{first} – {last}"),
        true,
    )];
    let description = if same {
        fields.push((
            lang.pick("Mean count of a face", "各出目の平均個数").to_string(),
            number(o.dist.mean()),
            true,
        ));
        fields.push((
            lang.pick("A face shows at least once", "ある出目が1個以上")
                .to_string(),
            format!("**{}**", percent(o.dist.chance(|v| v >= 1))),
            true,
        ));
        let heading = lang.pick(
            "Dice showing a given face (the same for every face)",
            "ある出目を示すダイスの数（どの出目も同じ）",
        );
        format!("**{heading}**\n{}", histogram(&o.dist))
    } else {
        // Faces that differ: one line each (a tally has at most 20 faces).
        let mut rows = String::new();
        for (f, d) in faces {
            rows.push_str(&match lang {
                Lang::En => format!(
                    "**{f}**: mean {}, at least once {}\n",
                    number(d.mean()),
                    percent(d.chance(|v| v >= 1))
                ),
                Lang::Ja => format!(
                    "**{f}**: 平均{}個、1個以上 {}\n",
                    number(d.mean()),
                    percent(d.chance(|v| v >= 1))
                ),
            });
        }
        rows
    };
    EmbedView {
        title: roll_title(o, lang),
        description,
        colour: colour::NEUTRAL,
        fields,
        footer: Some(exact_note(lang)),
    }
}

fn roll_title(o: &RollOdds, lang: Lang) -> String {
    format!(
        "📊 {} {}",
        lang.pick("Odds:", "確率:"),
        crate::embeds::markdown::escape_title(&o.input)
    )
}

fn roll_view(o: &RollOdds, lang: Lang) -> EmbedView {
    if let Some(items) = &o.choices {
        return choice_view(o, items, lang);
    }
    if let Some(faces) = &o.tally {
        return tally_view(o, faces, lang);
    }
    let mut fields = Vec::new();
    if let (Some(t), Some(c)) = (o.target, o.chance()) {
        let name = format!("{} {}{}", lang.pick("Chance", "確率"), t.op.symbol(), t.value);
        fields.push((name, format!("**{}**", percent(c)), true));
    }
    let what = match o.measure {
        Measure::Total => lang.pick("total", "合計"),
        Measure::Successes => lang.pick("successes", "成功数"),
    };
    fields.push((
        format!("{} ({what})", lang.pick("Mean", "平均")),
        number(o.mean()),
        true,
    ));
    fields.push((lang.pick("Median", "中央値").into(), o.median().to_string(), true));
    fields.push((
        lang.pick("Range", "範囲").into(),
        format!("{} – {}", o.dist.min(), o.dist.max()),
        true,
    ));
    if o.capped() > 0.0 {
        fields.push((
            lang.pick("Chains reaching the cap", "上限に達する振り足し")
                .into(),
            percent(o.capped()),
            true,
        ));
    }
    // The rows that meet the target are marked, with what the mark means.
    let description = match o.target {
        Some(t) => format!(
            "{}\n{}",
            histogram_marked(&o.dist, Some(&|v| t.test(v))),
            lang.pick("✓ meets the target", "✓ 目標を満たす")
        ),
        None => histogram(&o.dist),
    };
    EmbedView {
        title: roll_title(o, lang),
        description,
        colour: colour::NEUTRAL,
        fields,
        footer: Some(exact_note(lang)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_d6_at_least_7_reads_58_33_percent() {
        let o = odds::roll_odds("2D6>=7").unwrap();
        let v = roll_view(&o, Lang::En);
        // The six rows 7…12 meet the target.
        assert_eq!(v.description.matches(" ✓\n").count(), 6, "{}", v.description);
        assert!(v.description.ends_with("✓ meets the target"));
        assert!(roll_view(&o, Lang::Ja).description.ends_with("✓ 目標を満たす"));
        assert!(
            v.fields
                .iter()
                .any(|(n, val, _)| n.contains(">=7") && val.contains("58.33 %"))
        );
        assert!(v.description.contains("16.67 %"), "{}", v.description);
        assert_eq!(v.limited(), v);
    }

    #[test]
    fn large_distributions_fold_into_twenty_rows() {
        let o = odds::roll_odds("1000d1000").unwrap();
        let b = bins(&o.dist, MAX_BINS);
        assert!(b.len() <= MAX_BINS && b.len() >= 10, "{}", b.len());
        assert!((b.iter().map(|b| b.p).sum::<f64>() - 1.0).abs() < 1e-9);
        let v = roll_view(&o, Lang::Ja);
        assert!(v.total_chars() < 6000);
        assert_eq!(v.limited(), v);
    }

    #[test]
    fn a_hundred_long_choices_fit_an_embed() {
        // Up to 100 items within the engine's 500 characters (the bot takes 200).
        let items: Vec<String> = (0..100).map(|i| format!("`{i}")).collect();
        let o = odds::roll_odds(&format!("choice[{}]", items.join(","))).unwrap_or_else(|e| panic!("{e:?}"));
        let v = roll_view(&o, Lang::Ja);
        // Only the title (the expression, 200 characters from the bot) is for the limits to cut.
        let limited = v.limited();
        assert_eq!(
            (&limited.description, &limited.fields),
            (&v.description, &v.fields)
        );
        assert!(v.description.contains("…他70項目"), "{}", v.description);
        // Backticks would end the code block: shown as quotes.
        assert_eq!(v.description.matches('`').count(), 6, "{}", v.description);
        let bars = choice_bins(o.choices.as_deref().unwrap_or_default());
        assert_eq!(bars.len(), 100);
        assert!(chart::draw(&bars, &|_| false).is_some());
    }
}
