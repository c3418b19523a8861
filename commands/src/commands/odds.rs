//! `/odds` (`/確率`): the exact chances of a roll before it is made (issue 16). The engine's
//! `odds` module computes; this renders an embed (mean, median, chances, a compact text
//! histogram for clients that hide attachments) and a PNG bar chart.

use engine::i18n::Lang;
use engine::odds::{
    self, Dist, Measure, PoolOdds, RallyOdds, RallyRequest, RallyTraits, RollOdds, Sr4Odds, Sr4Request,
};
use poise::CreateReply;
use serenity::all::CreateAttachment;

use crate::embeds::{EmbedView, colour};
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// The chart's file name, referenced by the embed as `attachment://odds.png`.
pub const CHART_FILE: &str = "odds.png";
/// Rows of the text histogram (and bars of the chart).
pub const MAX_BINS: usize = 20;

/// The exact chances of a roll before it is made
#[poise::command(
    slash_command,
    name_localized("ja", "確率"),
    description_localized("ja", "振る前にロールの正確な確率を表示します"),
    subcommands(
        "roll",
        "sr",
        "rally",
        "super::odds_games::wm",
        "super::odds_games::mecha",
        "super::odds_term::term"
    ),
    subcommand_required
)]
pub async fn odds(_ctx: Context<'_>) -> Result<(), BotError> {
    Ok(())
}

/// Chances of any /roll expression: 2D6>=7, 4d6 k3, 6d10 t8 …
#[poise::command(
    slash_command,
    name_localized("ja", "ダイス"),
    description_localized("ja", "/roll の式の確率（例: 2D6>=7、4d6 k3、6d10 t8）")
)]
pub async fn roll(
    ctx: Context<'_>,
    #[description = "A /roll expression, e.g. 2D6>=7"]
    #[name_localized("ja", "式")]
    #[description_localized("ja", "/roll の式（例: 2D6>=7）")]
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

/// Shadowrun 4: success, net hits and glitch chances of a pool
#[poise::command(
    slash_command,
    name_localized("ja", "シャドウラン"),
    description_localized("ja", "シャドウラン4: ダイスプールの成功・ネットヒット・グリッチの確率")
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
    #[description_localized("ja", "セッションのキャラクター（/sr test と同じくシートからプールを作る）")]
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
    #[name_localized("ja", "レーティング")]
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
    #[name_localized("ja", "相手レーティング")]
    #[description_localized("ja", "防御側のレーティング")]
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
    #[description_localized("ja", "武器のPOW（防御側の指定が必要）")]
    #[min = 0]
    #[max = 30]
    pow: Option<u32>,
    #[description = "The defender's AR"]
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
        "ブラスト：外れてもレーティングを満たすダイスがありPOW>ARならダイス1個（4+で1ダメージ）"
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
            "対抗チェックには `vs_rating` と `vs_dice` の両方を指定してください。",
        ),
    )?;
    let weapon = both_or_neither(
        &inv,
        pow,
        ar,
        (
            "Give both `pow` and `ar` for the chance to damage.",
            "ダメージの確率には `pow` と `ar` の両方を指定してください。",
        ),
    )?;
    let traits = RallyTraits {
        heat: heat.unwrap_or(false),
        blast: blast.unwrap_or(false),
    };
    if traits != RallyTraits::default() && weapon.is_none() {
        return Err(inv.text(
            "Heat and Blast are weapon traits: give the weapon's `pow` and the defender's `ar` too.",
            "ヒートとブラストは武器の特性です。`pow` と `ar` も指定してください。",
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

/// Two options that go together: both, or neither; one alone is refused with `why` (en, ja).
pub(super) fn both_or_neither<A, B>(
    inv: &Invocation,
    a: Option<A>,
    b: Option<B>,
    why: (&str, &str),
) -> Result<Option<(A, B)>, BotError> {
    match (a, b) {
        (Some(a), Some(b)) => Ok(Some((a, b))),
        (None, None) => Ok(None),
        _ => Err(inv.text(why.0, why.1)),
    }
}

pub(super) async fn send(ctx: Context<'_>, reply: CreateReply) -> Result<(), BotError> {
    crate::reply::send(ctx, reply).await?;
    Ok(())
}

/// The embed, with the chart attached and shown in it. `good` marks the values that succeed.
pub fn reply(view: EmbedView, dist: &Dist, good: &dyn Fn(i64) -> bool) -> CreateReply {
    reply_bins(view, &bins(dist, MAX_BINS), good)
}

/// [`reply`] with the chart's bars given.
pub fn reply_bins(mut view: EmbedView, bars: &[Bin], good: &dyn Fn(i64) -> bool) -> CreateReply {
    let png = chart::draw(bars, good);
    let mut reply = CreateReply::default();
    match png {
        Some(bytes) => {
            view.footer = view.footer.map(|f| f + " · " + CHART_FILE);
            let embed = view.to_embed().image(format!("attachment://{CHART_FILE}"));
            reply = reply
                .embed(embed)
                .attachment(CreateAttachment::bytes(bytes, CHART_FILE));
        }
        // The numbers stand without the picture.
        None => reply = reply.embed(view.to_embed()),
    }
    reply
}

// ------------------------------------------------------------------ rendering

/// `58.33 %`; tiny chances keep a significant digit instead of reading as 0.
pub fn percent(p: f64) -> String {
    let pc = p * 100.0;
    if pc > 0.0 && pc < 0.01 {
        format!("{pc:.1e} %")
    } else {
        format!("{pc:.2} %")
    }
}

/// One histogram row: values `lo..=hi` and their chance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bin {
    pub lo: i64,
    pub hi: i64,
    pub p: f64,
}

/// At most `max` rows: one per value when they fit, else equal ranges over the values holding
/// all but the outer 0.1 % (the extremes are folded into the first and last rows).
pub fn bins(dist: &Dist, max: usize) -> Vec<Bin> {
    let values: Vec<(i64, f64)> = dist.iter().collect();
    let (Some(first), Some(last)) = (values.first(), values.last()) else {
        return Vec::new();
    };
    let span = (last.0 - first.0 + 1) as usize;
    if span <= max {
        return (first.0..=last.0)
            .map(|v| Bin {
                lo: v,
                hi: v,
                p: dist.prob(v),
            })
            .collect();
    }
    let tail = 0.0005;
    let mut acc = 0.0;
    let lo = values
        .iter()
        .find(|(_, q)| {
            acc += q;
            acc > tail
        })
        .map_or(first.0, |x| x.0);
    acc = 0.0;
    let hi = values
        .iter()
        .rev()
        .find(|(_, q)| {
            acc += q;
            acc > tail
        })
        .map_or(last.0, |x| x.0);
    let width = ((hi - lo + 1) as usize).div_ceil(max).max(1) as i64;
    let count = ((hi - lo + 1) / width + i64::from((hi - lo + 1) % width != 0)) as usize;
    let mut out: Vec<Bin> = (0..count)
        .map(|i| {
            let a = lo + i as i64 * width;
            Bin {
                lo: a,
                hi: (a + width - 1).min(hi),
                p: 0.0,
            }
        })
        .collect();
    for (v, q) in values {
        let i = ((v - lo).max(0) / width) as usize;
        if let Some(b) = out.get_mut(i.min(count - 1)) {
            b.p += q;
        }
    }
    out
}

/// A code block of bars: `value ████▌ 16.67 %`.
pub fn histogram(dist: &Dist) -> String {
    let rows = bins(dist, MAX_BINS);
    let peak = rows.iter().map(|b| b.p).fold(0.0, f64::max);
    let labels: Vec<String> = rows
        .iter()
        .map(|b| {
            if b.lo == b.hi {
                b.lo.to_string()
            } else {
                format!("{}–{}", b.lo, b.hi)
            }
        })
        .collect();
    let w = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    let mut out = String::from("```\n");
    for (b, label) in rows.iter().zip(&labels) {
        out.push_str(&format!("{label:>w$} {:<16} {}\n", bar(b.p, peak), percent(b.p)));
    }
    out.push_str("```");
    out
}

/// A bar of up to 16 blocks, in eighths, for `p` against the largest `peak`.
fn bar(p: f64, peak: f64) -> String {
    let eighths = if peak > 0.0 {
        (p / peak * 16.0 * 8.0).round() as usize
    } else {
        0
    };
    let mut bar = "█".repeat(eighths / 8);
    if eighths % 8 > 0 {
        bar.push(['▏', '▎', '▍', '▌', '▋', '▊', '▉'][eighths % 8 - 1]);
    }
    bar
}

fn number(x: f64) -> String {
    format!("{x:.2}")
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
    EmbedView {
        title: roll_title(o, lang),
        description: histogram(&o.dist),
        colour: colour::NEUTRAL,
        fields,
        footer: Some(exact_note(lang)),
    }
}

pub(super) fn exact_note(lang: Lang) -> String {
    lang.pick("Exact, not simulated", "シミュレーションではなく厳密な計算")
        .to_string()
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
        lang.pick("Net hits", "ネットヒット")
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
                        "計算済み：レーティングを満たすダイスのある外れはダイス1個、4+で1ダメージ",
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

/// The PNG chart: bars and axis ticks only (no text, so no font is needed; the numbers are in
/// the embed). Bars where the roll succeeds are green, the others blue.
pub mod chart {
    use plotters::prelude::*;

    use super::Bin;

    pub const WIDTH: u32 = 640;
    pub const HEIGHT: u32 = 320;
    const MARGIN: i32 = 16;

    /// `None` if drawing or encoding fails (the embed is sent without a chart).
    pub fn draw(bins: &[Bin], good: &dyn Fn(i64) -> bool) -> Option<Vec<u8>> {
        let mut rgb = vec![0u8; (WIDTH * HEIGHT * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, (WIDTH, HEIGHT)).into_drawing_area();
            root.fill(&WHITE).ok()?;
            let peak = bins.iter().map(|b| b.p).fold(0.0, f64::max);
            let (w, h) = (WIDTH as i32, HEIGHT as i32);
            let base = h - MARGIN;
            let plot_w = w - 2 * MARGIN;
            let n = bins.len().max(1) as i32;
            let slot = plot_w / n;
            let gap = (slot / 6).max(1);
            for (i, b) in bins.iter().enumerate() {
                let x0 = MARGIN + i as i32 * slot;
                let height = if peak > 0.0 {
                    (b.p / peak * f64::from(base - MARGIN)).round() as i32
                } else {
                    0
                };
                let fill = if good(b.lo) {
                    RGBColor(0x2E, 0xCC, 0x71)
                } else {
                    RGBColor(0x58, 0x65, 0xF2)
                };
                root.draw(&Rectangle::new(
                    [(x0 + gap, base - height), (x0 + slot - gap, base)],
                    fill.filled(),
                ))
                .ok()?;
                // A tick under each bar.
                let mid = x0 + slot / 2;
                root.draw(&PathElement::new(vec![(mid, base), (mid, base + 5)], BLACK))
                    .ok()?;
            }
            root.draw(&PathElement::new(
                vec![(MARGIN, base), (MARGIN + n * slot, base)],
                BLACK.stroke_width(2),
            ))
            .ok()?;
            root.present().ok()?;
        }
        encode(&rgb)
    }

    fn encode(rgb: &[u8]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, WIDTH, HEIGHT);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            let mut writer = enc.write_header().ok()?;
            writer.write_image_data(rgb).ok()?;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_d6_at_least_7_reads_58_33_percent() {
        let o = odds::roll_odds("2D6>=7").unwrap();
        let v = roll_view(&o, Lang::En);
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
    fn the_chart_is_a_png() {
        let o = odds::roll_odds("3d6").unwrap();
        let png = chart::draw(&bins(&o.dist, MAX_BINS), &|v| v >= 10).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert!(png.len() < 100_000, "{}", png.len());
    }

    #[test]
    fn system_views_fit() {
        let sr = odds::shadowrun4_odds(&Sr4Request {
            pool: 80,
            threshold: Some(3),
            edge: Some(20),
            opposed: None,
        })
        .unwrap();
        assert!(sr_view(&sr, Lang::Ja).total_chars() < 6000);
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
