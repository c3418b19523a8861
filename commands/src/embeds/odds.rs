//! What every `/odds` page shares (`/odds roll` in `commands/odds.rs`, each system's in its
//! folder's `odds.rs`): the embed with its PNG chart attached, the text histogram, chances as
//! percentages, and the checks of options that go together. Kept apart from the `/odds` command,
//! which is built from the registry, so the systems' pages import no command tree.

use engine::i18n::Lang;
use engine::odds::Dist;
use poise::CreateReply;
use serenity::all::CreateAttachment;

use super::EmbedView;
use crate::invocation::Invocation;
use crate::{BotError, Context};

/// The chart's file name, referenced by the embed as `attachment://odds.png`.
pub const CHART_FILE: &str = "odds.png";

/// Rows of the text histogram (and bars of the chart).
pub const MAX_BINS: usize = 20;

/// Two options that go together: both, or neither; one alone is refused with `why` (en, ja).
pub fn both_or_neither<A, B>(
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

pub async fn send(ctx: Context<'_>, reply: CreateReply) -> Result<(), BotError> {
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

/// `58.33 %`; a chance too small to show in two decimals reads `< 0.01 %`, never 0 and never
/// in exponent form (`4.5e-3 %`).
pub fn percent(p: f64) -> String {
    let pc = p * 100.0;
    if pc > 0.0 && pc < 0.005 {
        "< 0.01 %".to_string()
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
    // Every row the same width (`39–41`, `42–44`, not `42–43`): the rows are widened over
    // values beyond the 0.1 % tails, kept inside the values the roll can show.
    let spare = count as i64 * width - (hi - lo + 1);
    let lo = (lo - spare / 2).max(first.0);
    let lo = lo.min(last.0 - count as i64 * width + 1).max(first.0);
    // Uneven only where the roll has too few values to fill the last row.
    let hi = (lo + count as i64 * width - 1).min(last.0);
    let mut out: Vec<Bin> = (0..count)
        .map(|i| {
            let a = lo + i as i64 * width;
            Bin {
                lo: a,
                hi: (a + width - 1).min(hi).max(a),
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
    histogram_marked(dist, None)
}

/// Which rows of a histogram succeed: all of their values, or only some.
pub fn success_mark(b: &Bin, good: &dyn Fn(i64) -> bool) -> &'static str {
    let hits = (b.lo..=b.hi).filter(|&v| good(v)).count() as i64;
    if hits == 0 {
        ""
    } else if hits == b.hi - b.lo + 1 {
        " ✓"
    } else {
        " (✓)"
    }
}

/// [`histogram`], each row whose values succeed marked `✓` (`(✓)` where only some do).
pub fn histogram_marked(dist: &Dist, good: Option<&dyn Fn(i64) -> bool>) -> String {
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
        let mark = good.map_or("", |g| success_mark(b, g));
        let row = format!("{label:>w$} {:<16} {}{mark}", bar(b.p, peak), percent(b.p));
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out.push_str("```");
    out
}

/// A bar of up to 16 blocks, in eighths, for `p` against the largest `peak`.
pub fn bar(p: f64, peak: f64) -> String {
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

pub fn number(x: f64) -> String {
    format!("{x:.2}")
}

pub fn exact_note(lang: Lang) -> String {
    lang.pick("Exact, not simulated", "シミュレーションではなく厳密な計算")
        .to_string()
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
    fn tiny_chances_read_as_plain_decimals_or_under_a_hundredth() {
        assert_eq!(percent(0.5833333), "58.33 %");
        assert_eq!(percent(0.000045), "< 0.01 %");
        assert_eq!(percent(0.00005), "0.01 %");
        assert_eq!(percent(0.0), "0.00 %");
        // 4d20 = 80 has the chance 1/160000: no exponent reaches the reader.
        let h = histogram(&engine::odds::roll_odds("4d20").unwrap().dist);
        assert!(!h.contains('e'), "{h}");
    }

    #[test]
    fn wide_rows_are_all_as_wide() {
        for input in ["10d6", "6d10", "4d20", "3d20+1d6", "8d8"] {
            let rows = bins(&engine::odds::roll_odds(input).unwrap().dist, MAX_BINS);
            assert!(rows.len() <= MAX_BINS, "{input}");
            let widths: Vec<i64> = rows.iter().map(|b| b.hi - b.lo + 1).collect();
            assert!(widths.iter().all(|w| *w == widths[0]), "{input}: {rows:?}");
            let mass: f64 = rows.iter().map(|b| b.p).sum();
            assert!((mass - 1.0).abs() < 1e-9, "{input}: {mass}");
            // Consecutive rows.
            assert!(rows.windows(2).all(|w| w[1].lo == w[0].hi + 1), "{input}");
        }
    }

    #[test]
    fn rows_that_succeed_are_marked() {
        let dist = engine::odds::roll_odds("2d6").unwrap().dist;
        let h = histogram_marked(&dist, Some(&|v| v >= 7));
        let lines: Vec<&str> = h.lines().collect();
        // "```", then 2…12.
        assert!(lines[1].starts_with(" 2 ") && !lines[1].contains('✓'), "{h}");
        assert!(lines[5].starts_with(" 6 ") && !lines[5].contains('✓'), "{h}");
        assert!(
            lines[6].starts_with(" 7 ") && lines[6].ends_with("16.67 % ✓"),
            "{h}"
        );
        assert!(lines[11].starts_with("12 ") && lines[11].ends_with(" ✓"), "{h}");
        // A wide row holding both sides is marked as partly succeeding.
        let wide = Bin {
            lo: 9,
            hi: 11,
            p: 0.1,
        };
        assert_eq!(success_mark(&wide, &|v| v >= 10), " (✓)");
        assert_eq!(success_mark(&wide, &|v| v >= 9), " ✓");
        assert_eq!(success_mark(&wide, &|v| v >= 12), "");
        assert!(!histogram(&dist).contains('✓'));
    }

    #[test]
    fn the_chart_is_a_png() {
        let o = engine::odds::roll_odds("3d6").unwrap();
        let png = chart::draw(&bins(&o.dist, MAX_BINS), &|v| v >= 10).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert!(png.len() < 100_000, "{}", png.len());
    }
}
