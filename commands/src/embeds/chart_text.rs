//! The `/odds` chart's text, drawn onto its canvas (`chart_canvas`) from rasterised glyphs kept
//! in the process. The chart's text is the same few dozen glyphs (digits, `%`, `.`, `–`, `μ`,
//! the title's letters) at four sizes, so each is rasterised once and blended from then on
//! (issue 32: rasterising every glyph of every label anew, as plotters did, was two fifths of a
//! chart's CPU once the PNG was encoded fast). The layout is the one plotters had (the same
//! advances, kerning, anchors and vertical placement), so a chart reads as it did.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, FontRef, GlyphId, ScaleFont, point};

use super::chart_canvas::{Canvas, Rgb};

/// Glyphs kept at most (a title can hold any character a player typed; past this, glyphs are
/// rasterised each time and not kept).
const MAX_GLYPHS: usize = 4_096;

/// Where a text's anchor point is on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Start,
    Center,
    End,
}

/// One label: `text` in `font` at `size` px, anchored at `at` (`h` across, `v` down).
pub struct Label<'a> {
    pub text: &'a str,
    pub font: &'static [u8],
    pub size: f32,
    pub at: (i32, i32),
    pub h: Align,
    pub v: Align,
    pub rgb: Rgb,
}

/// A glyph as plotters places it: its coverage (alpha out of 256) in a `w`-wide box whose top
/// sits `y_off` below the text's top.
struct Glyph {
    id: GlyphId,
    advance: f32,
    y_off: i32,
    w: usize,
    alpha: Vec<u16>,
}

type Key = (usize, char, u32);

fn glyphs() -> &'static Mutex<HashMap<Key, Arc<Glyph>>> {
    static GLYPHS: OnceLock<Mutex<HashMap<Key, Arc<Glyph>>>> = OnceLock::new();
    GLYPHS.get_or_init(Mutex::default)
}

/// The font behind `bytes`, parsed once per font and lent from then on (a parsed font is a
/// kilobyte of tables: cloning it for every label was a tenth of the text's time).
pub fn font(bytes: &'static [u8]) -> Option<&'static FontRef<'static>> {
    static FONTS: OnceLock<Mutex<Vec<(usize, &'static FontRef<'static>)>>> = OnceLock::new();
    let fonts = FONTS.get_or_init(Mutex::default);
    let mut fonts = fonts.lock().unwrap_or_else(|e| e.into_inner());
    let key = bytes.as_ptr() as usize;
    if let Some((_, f)) = fonts.iter().find(|(k, _)| *k == key) {
        return Some(f);
    }
    // The bot carries two fonts, each parsed once for the life of the process.
    let f: &'static FontRef<'static> = Box::leak(Box::new(FontRef::try_from_slice(bytes).ok()?));
    fonts.push((key, f));
    Some(f)
}

fn rasterise(font: &FontRef<'static>, c: char, size: f32) -> Glyph {
    let scaled = font.as_scaled(size);
    let id = scaled.glyph_id(c);
    let mut g = Glyph {
        id,
        advance: scaled.h_advance(id),
        y_off: 0,
        w: 0,
        alpha: Vec::new(),
    };
    if let Some(outline) = scaled.outline_glyph(id.with_scale_and_position(size, point(0.0, 0.0))) {
        let b = outline.px_bounds();
        g.y_off = (size / 2.0 + b.min.y) as i32;
        g.w = b.width() as usize;
        g.alpha = vec![0; g.w * b.height() as usize];
        outline.draw(|x, y, c| {
            if let Some(a) = g.alpha.get_mut(y as usize * g.w + x as usize) {
                // Coverage in sixteenths (alpha out of 256, as plotters blends): the edges
                // read as smooth, and a chart's colours stay few enough for a palette PNG
                // (`chart_png`), where 256 levels of grey alone would not fit.
                *a = (f64::from(c) * 16.0).round().clamp(0.0, 16.0) as u16 * 16;
            }
        });
    }
    g
}

/// The glyphs of `text`, from those kept (one lock for the whole text), rasterised and kept
/// where new.
fn glyphs_of(font_key: usize, font: &FontRef<'static>, text: &str, size: f32) -> Vec<Arc<Glyph>> {
    let mut kept = glyphs().lock().unwrap_or_else(|e| e.into_inner());
    text.chars()
        .map(|c| {
            let key = (font_key, c, size.to_bits());
            if let Some(g) = kept.get(&key) {
                return g.clone();
            }
            let g = Arc::new(rasterise(font, c, size));
            if kept.len() < MAX_GLYPHS {
                kept.insert(key, g.clone());
            }
            g
        })
        .collect()
}

/// A glyph and where the top left corner of its box falls.
type Placed = ((i32, i32), Arc<Glyph>);

/// Each glyph of `label` and where the top left corner of its box falls; `None` if the font
/// cannot be read.
fn placed(label: &Label<'_>) -> Option<Vec<Placed>> {
    let f = font(label.font)?;
    let font_key = label.font.as_ptr() as usize;
    let scaled = f.as_scaled(label.size);
    let glyphs = glyphs_of(font_key, f, label.text, label.size);
    // plotters' layout box: the advances and kerning, and 1/1.24 of the size for its height.
    let mut span = 0f32;
    for (i, g) in glyphs.iter().enumerate() {
        span += g.advance;
        if i > 0 {
            span += scaled.kern(glyphs[i - 1].id, g.id);
        }
    }
    let (w, h) = (span as i32, (f64::from(label.size) / 1.24) as i32);
    let dx = match label.h {
        Align::Start => 0,
        Align::Center => -w / 2,
        Align::End => -w,
    };
    let dy = match label.v {
        Align::Start => 0,
        Align::Center => -h / 2,
        Align::End => -h,
    };
    let mut pen = 0f32;
    let mut out = Vec::with_capacity(glyphs.len());
    for (i, g) in glyphs.iter().enumerate() {
        if i > 0 {
            pen += scaled.kern(glyphs[i - 1].id, g.id);
        }
        out.push((
            (label.at.0 + dx + pen as i32, label.at.1 + dy + g.y_off),
            g.clone(),
        ));
        pen += g.advance;
    }
    Some(out)
}

/// Draws `label` onto `canvas`, blended with what is under it; what falls outside is cut.
/// `false` if the font cannot be read.
pub fn draw(canvas: &mut Canvas, label: &Label<'_>) -> bool {
    let Some(glyphs) = placed(label) else {
        return false;
    };
    let (width, height) = (canvas.width() as i32, canvas.height() as i32);
    for ((x0, y0), g) in glyphs {
        if g.w == 0 {
            continue;
        }
        for (dy, row) in g.alpha.chunks_exact(g.w).enumerate() {
            let y = y0 + dy as i32;
            if y < 0 || y >= height {
                continue;
            }
            for (dx, &a) in row.iter().enumerate() {
                let x = x0 + dx as i32;
                if a != 0 && x >= 0 && x < width {
                    canvas.blend(x as usize, y as usize, label.rgb, a);
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
    const W: usize = 120;
    const H: usize = 60;

    fn canvas() -> Canvas {
        Canvas::new(W, H, (0xFF, 0xFF, 0xFF))
    }

    /// Every pixel's colour, row by row.
    fn pixels(c: &Canvas) -> Vec<u8> {
        (0..H)
            .flat_map(|y| (0..W).map(move |x| (x, y)))
            .flat_map(|(x, y)| {
                let (r, g, b) = c.rgb_at(x, y).unwrap();
                [r, g, b]
            })
            .collect()
    }

    /// The inked pixels' box: (min x, min y, max x, max y).
    fn ink(c: &Canvas) -> Option<(usize, usize, usize, usize)> {
        let mut b: Option<(usize, usize, usize, usize)> = None;
        for (i, px) in pixels(c).chunks(3).enumerate() {
            if px.iter().any(|&v| v < 0x80) {
                let (x, y) = (i % W, i / W);
                b = Some(b.map_or((x, y, x, y), |(a, c, d, e)| {
                    (a.min(x), c.min(y), d.max(x), e.max(y))
                }));
            }
        }
        b
    }

    fn label(text: &str, h: Align, v: Align) -> Label<'_> {
        Label {
            text,
            font: FONT,
            size: 20.0,
            at: (60, 30),
            h,
            v,
            rgb: (0, 0, 0),
        }
    }

    #[test]
    fn text_sits_where_its_anchor_says() {
        let mut end = canvas();
        assert!(draw(&mut end, &label("58.3", Align::End, Align::Center)));
        let (_, y0, x1, y1) = ink(&end).expect("inked");
        assert!((56..=60).contains(&x1), "ends at the anchor: {x1}");
        assert!(y0 < 30 && y1 > 30, "centred on it: {y0}..{y1}");
        let mut start = canvas();
        assert!(draw(&mut start, &label("58.3", Align::Start, Align::Start)));
        let (x0, y0, _, _) = ink(&start).expect("inked");
        // plotters puts a top-anchored line's glyphs half its size below the anchor, less
        // their height above the baseline: digits reach a few pixels above it.
        assert!(
            (60..=64).contains(&x0) && (24..=34).contains(&y0),
            "starts at it: {x0},{y0}"
        );
        // Outside the canvas is cut, not a panic.
        let mut cut = canvas();
        let far = Label {
            at: (-500, 500),
            ..label("58.3", Align::Start, Align::Start)
        };
        assert!(draw(&mut cut, &far));
        assert_eq!(ink(&cut), None);
    }

    #[test]
    fn a_kept_glyph_draws_as_the_first_did() {
        let text = "μ = 7.00 39–41 %";
        let mut first = canvas();
        assert!(draw(&mut first, &label(text, Align::Center, Align::Center)));
        let mut again = canvas();
        assert!(draw(&mut again, &label(text, Align::Center, Align::Center)));
        let (first, again) = (pixels(&first), pixels(&again));
        assert_eq!(first, again);
        // Antialiased: edges are blended, not only black and white, in sixteenths (black on
        // white: 255 less k/16 of it), so a chart's colours fit a palette.
        assert!(first.iter().any(|&v| v > 0x20 && v < 0xE0));
        let steps: Vec<u8> = (0..=16u32).map(|k| (255 - 255 * k * 16 / 256) as u8).collect();
        assert!(first.iter().all(|v| steps.contains(v)), "{steps:?}");
    }
}
