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
    reply_chart(view, &bins(dist, MAX_BINS), Some(dist.mean()), good)
}

/// [`reply`] with the chart's bars given (the mean read from them).
pub fn reply_bins(view: EmbedView, bars: &[Bin], good: &dyn Fn(i64) -> bool) -> CreateReply {
    let mean = bars.iter().map(|b| (b.lo + b.hi) as f64 / 2.0 * b.p).sum::<f64>();
    let mass: f64 = bars.iter().map(|b| b.p).sum();
    reply_chart(view, bars, (mass > 0.0).then(|| mean / mass), good)
}

fn reply_chart(
    mut view: EmbedView,
    bars: &[Bin],
    mean: Option<f64>,
    good: &dyn Fn(i64) -> bool,
) -> CreateReply {
    let text = chart::Labels {
        title: chart::title(&view.title),
        mean,
    };
    let png = chart::draw_with(bars, good, &text);
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

/// The PNG chart: a title, the bars with their values under them and their percentages, a
/// percentage axis and the mean. Bars where the roll succeeds are green, the others blue. Its
/// text is drawn with fonts carried in the binary (no system font): DejaVu Sans, and for a
/// Japanese title Noto Sans CJK JP cut down to the characters the bot writes (kana, the kanji
/// of its Japanese strings, punctuation: `assets/fonts/README.md` says how it is made), so the
/// title is in the reader's language. A title with a character neither font has (a name typed
/// in rare kanji) is drawn from its first part that reads (`確率: 2D6>=7` → `2D6>=7`).
pub mod chart {
    use ab_glyph::Font;

    use super::{Bin, percent};
    use crate::embeds::chart_canvas::{Canvas, Rgb};
    use crate::embeds::chart_text::{self, Align, Label};

    pub const WIDTH: u32 = 640;
    pub const HEIGHT: u32 = 320;
    const MARGIN: i32 = 16;
    /// Room for the title above and the values below the bars, and the axis on the left.
    const TOP: i32 = 40;
    const BOTTOM: i32 = 28;
    const LEFT: i32 = 56;

    pub(super) static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
    pub(super) static FONT_JA: &[u8] = include_bytes!("../../assets/fonts/NotoSansCJKjp-saikoro.otf");

    /// The text drawn on the chart.
    #[derive(Debug, Clone, Default)]
    pub struct Labels {
        pub title: Option<String>,
        pub mean: Option<f64>,
    }

    /// Whether `font` draws every character of `s`.
    fn draws(font: &'static [u8], s: &str) -> bool {
        chart_text::font(font).is_some_and(|f| s.chars().all(|c| c.is_whitespace() || f.glyph_id(c).0 != 0))
    }

    /// The carried font that draws every character of `s`: DejaVu Sans where it can (Latin,
    /// Greek, numbers), else the Japanese one.
    pub(super) fn font_for(s: &str) -> Option<&'static [u8]> {
        if draws(FONT, s) {
            Some(FONT)
        } else if draws(FONT_JA, s) {
            Some(FONT_JA)
        } else {
            None
        }
    }

    /// Whether a carried font draws every character of `s`.
    pub fn covers(s: &str) -> bool {
        font_for(s).is_some()
    }

    /// The embed's title as the chart can draw it: without the leading emoji, whole where a
    /// carried font draws it, else from the first part one does; `None` when nothing is left.
    pub fn title(embed_title: &str) -> Option<String> {
        let t = embed_title
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .trim();
        let mut candidates = vec![t];
        candidates.extend(t.match_indices(": ").map(|(i, _)| &t[i + 2..]));
        candidates
            .into_iter()
            .map(str::trim)
            .find(|c| !c.is_empty() && covers(c))
            .map(str::to_string)
    }

    /// A bar's value under it: `7`, `39–41`.
    fn label(b: &Bin) -> String {
        if b.lo == b.hi {
            b.lo.to_string()
        } else {
            format!("{}–{}", b.lo, b.hi)
        }
    }

    /// The chart without title or mean.
    pub fn draw(bins: &[Bin], good: &dyn Fn(i64) -> bool) -> Option<Vec<u8>> {
        draw_with(bins, good, &Labels::default())
    }

    /// `None` if encoding fails (the embed is sent without a chart).
    pub fn draw_with(bins: &[Bin], good: &dyn Fn(i64) -> bool, text: &Labels) -> Option<Vec<u8>> {
        // The worker thread's canvas, reused: a fresh buffer a chart cost more in the allocator
        // and page faults than drawing on it (issue 32).
        CANVAS.with(|c| {
            let mut canvas = c.borrow_mut();
            canvas.clear(WIDTH as usize, HEIGHT as usize, WHITE);
            draw_on(&mut canvas, bins, good, text)
        })
    }

    thread_local! {
        static CANVAS: std::cell::RefCell<Canvas> = std::cell::RefCell::new(Canvas::new(0, 0, WHITE));
    }

    /// A label waiting for the shapes: text, font, size, anchor point, across, down, colour.
    type Pending = (String, &'static [u8], f32, (i32, i32), Align, Align, Rgb);

    const WHITE: Rgb = (0xFF, 0xFF, 0xFF);
    const BLACK: Rgb = (0, 0, 0);
    const GREEN: Rgb = (0x2E, 0xCC, 0x71);
    const BLUE: Rgb = (0x58, 0x65, 0xF2);
    const ORANGE: Rgb = (0xE6, 0x7E, 0x22);

    fn draw_on(
        canvas: &mut Canvas,
        bins: &[Bin],
        good: &dyn Fn(i64) -> bool,
        text: &Labels,
    ) -> Option<Vec<u8>> {
        // The text goes over the shapes, from cached glyphs (see `chart_text`).
        let mut labels: Vec<Pending> = Vec::new();
        let peak = bins.iter().map(|b| b.p).fold(0.0, f64::max);
        let (w, h) = (WIDTH as i32, HEIGHT as i32);
        let base = h - BOTTOM;
        let plot_w = w - LEFT - MARGIN;
        let n = bins.len().max(1) as i32;
        let slot = plot_w / n;
        if let Some((t, font)) = text.title.as_ref().and_then(|t| Some((t, font_for(t)?))) {
            labels.push((
                t.clone(),
                font,
                18.0,
                (w / 2, 8),
                Align::Center,
                Align::Start,
                BLACK,
            ));
        }
        // The percentage axis: 0, half the peak, the peak.
        for k in 0..=2 {
            let p = peak * f64::from(k) / 2.0;
            let y = base - (f64::from(k) / 2.0 * f64::from(base - TOP)).round() as i32;
            canvas.line((LEFT - 4, y), (LEFT, y), 1, BLACK);
            labels.push((
                percent(p),
                FONT,
                11.0,
                (LEFT - 6, y),
                Align::End,
                Align::Center,
                BLACK,
            ));
        }
        canvas.line((LEFT, TOP), (LEFT, base), 1, BLACK);
        // Values under every bar that has room, and each bar's percentage above it.
        let widest = bins.iter().map(|b| label(b).chars().count()).max().unwrap_or(1) as i32;
        let every = ((widest * 7 + 4) / slot.max(1) + 1).max(1) as usize;
        let per_bar = slot >= 34;
        let gap = (slot / 6).max(1);
        for (i, b) in bins.iter().enumerate() {
            let x0 = LEFT + i as i32 * slot;
            let height = if peak > 0.0 {
                (b.p / peak * f64::from(base - TOP)).round() as i32
            } else {
                0
            };
            let fill = if good(b.lo) { GREEN } else { BLUE };
            canvas.fill((x0 + gap, base - height), (x0 + slot - gap, base), fill);
            // A tick under each bar.
            let mid = x0 + slot / 2;
            canvas.line((mid, base), (mid, base + 5), 1, BLACK);
            if i % every == 0 {
                labels.push((
                    label(b),
                    FONT,
                    11.0,
                    (mid, base + 7),
                    Align::Center,
                    Align::Start,
                    BLACK,
                ));
            }
            if per_bar && b.p > 0.0 {
                let pc = format!("{:.1}", b.p * 100.0);
                labels.push((
                    pc,
                    FONT,
                    10.0,
                    (mid, base - height - 2),
                    Align::Center,
                    Align::End,
                    BLACK,
                ));
            }
        }
        canvas.line((LEFT, base), (LEFT + n * slot, base), 2, BLACK);
        // The mean: a line where it falls among the bars, and its value.
        if let (Some(m), Some(first), Some(last)) = (text.mean, bins.first(), bins.last()) {
            let span = (last.hi - first.lo + 1) as f64;
            let x = LEFT + ((m - first.lo as f64 + 0.5) / span * f64::from(n * slot)).round() as i32;
            let x = x.clamp(LEFT, LEFT + n * slot);
            canvas.line((x, TOP), (x, base), 2, ORANGE);
            // In the top right corner, in the line's colour: clear of the bars' labels.
            labels.push((
                format!("μ = {}", super::number(m)),
                FONT,
                13.0,
                (w - MARGIN, 10),
                Align::End,
                Align::Start,
                ORANGE,
            ));
        }
        for (text, font, size, at, h, v, rgb) in &labels {
            let label = Label {
                text,
                font,
                size: *size,
                at: *at,
                h: *h,
                v: *v,
                rgb: *rgb,
            };
            if !chart_text::draw(canvas, &label) {
                return None;
            }
        }
        crate::embeds::chart_png::encode(canvas)
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

    /// Non-white pixels of a PNG in rows `y0..y1`.
    fn inked(png: &[u8], y0: usize, y1: usize) -> usize {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let row = info.line_size;
        (y0..y1)
            .flat_map(|y| buf[y * row..(y + 1) * row].chunks(3))
            .filter(|px| px.iter().any(|&c| c < 200))
            .count()
    }

    #[test]
    fn the_chart_carries_its_title_axis_percentages_and_mean() {
        let o = engine::odds::roll_odds("2D6>=7").unwrap();
        let rows = bins(&o.dist, MAX_BINS);
        let bare = chart::draw(&rows, &|v| v >= 7).unwrap();
        let text = chart::Labels {
            title: chart::title("📊 Odds: 2D6>=7"),
            mean: Some(o.mean()),
        };
        let full = chart::draw_with(&rows, &|v| v >= 7, &text).unwrap();
        std::fs::write(std::env::temp_dir().join("saikoro-odds-chart.png"), &full).unwrap();
        // The title band is empty without a title and inked with it; values stand under the bars.
        assert_eq!(inked(&bare, 0, 20), 0);
        assert!(inked(&full, 0, 20) > 100);
        let h = chart::HEIGHT as usize;
        assert!(inked(&bare, h - 20, h) > 50);
    }

    #[test]
    fn the_chart_title_is_what_the_carried_font_draws() {
        assert_eq!(chart::title("📊 Odds: 2D6>=7").as_deref(), Some("Odds: 2D6>=7"));
        // A Japanese title is drawn in Japanese; a character no carried font has (a rare kanji
        // in a typed name) leaves the part that reads, never boxes.
        assert_eq!(chart::title("📊 確率: 2D6>=7").as_deref(), Some("確率: 2D6>=7"));
        let font = |s: &str| chart::font_for(s).map(<[u8]>::as_ptr);
        assert_eq!(font("確率: 2D6>=7"), Some(chart::FONT_JA.as_ptr()));
        assert_eq!(font("Odds: 2D6>=7"), Some(chart::FONT.as_ptr()));
        assert_eq!(chart::title("📊 𪚲: 2D6>=7").as_deref(), Some("2D6>=7"));
        assert_eq!(chart::title("📊 𪚲"), None);
        assert!(chart::covers("μ = 7.00 39–41 58.33 %"));
        assert!(chart::covers("平均"));
        assert!(!chart::covers("𪚲"));
    }

    #[test]
    fn the_chart_is_a_png() {
        let o = engine::odds::roll_odds("3d6").unwrap();
        let png = chart::draw(&bins(&o.dist, MAX_BINS), &|v| v >= 10).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert!(png.len() < 100_000, "{}", png.len());
        // Its colours fit a palette, with a Japanese title, the mean and a bar per value:
        // a byte a pixel to encode, not three.
        for (input, title) in [
            ("3d6", "📊 確率: 3D6>=10"),
            ("2d6", "📊 Odds: 2D6>=10"),
            ("4d20", "📊 確率: 4D20>=10"),
            ("1d6+1d8", "📊 Odds: 1D6+1D8>=10"),
        ] {
            let o = engine::odds::roll_odds(input).unwrap();
            let text = chart::Labels {
                title: chart::title(title),
                mean: Some(o.mean()),
            };
            let full = chart::draw_with(&bins(&o.dist, MAX_BINS), &|v| v >= 10, &text).unwrap();
            let reader = png::Decoder::new(std::io::Cursor::new(&full))
                .read_info()
                .unwrap();
            assert_eq!(reader.info().color_type, png::ColorType::Indexed, "{input}");
        }
    }
}
