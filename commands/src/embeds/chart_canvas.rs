//! The `/odds` chart's canvas: a byte a pixel, an index into the chart's palette, as the PNG
//! stores it. A chart is upright rectangles, axis lines and text on white, so it has a few dozen
//! colours: drawn as indices, nothing has to find each of 204,800 pixels' colour afterwards
//! (issue 32: turning an RGB canvas into a palette was a sixth of `/odds`' CPU, the RGB canvas
//! three times the bytes to clear and to draw on).

/// Most colours a PNG palette holds.
const MAX_COLOURS: usize = 256;
/// Levels of a text pixel's coverage: none, sixteenths, whole (see `chart_text`).
const LEVELS: usize = 17;

pub type Rgb = (u8, u8, u8);

/// A text colour over a palette colour (its index), and the index of each coverage level of
/// the two blended, found as they are first needed.
type Blend = ((u8, Rgb), [Option<u8>; LEVELS]);

/// A `width` × `height` picture of palette indices.
pub struct Canvas {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
    palette: Vec<Rgb>,
    /// Text blends seen: (background index, text colour) → the index of each coverage level.
    blends: Vec<Blend>,
    /// The blend used last (most of a text's pixels are over the same colour).
    last_blend: usize,
}

impl Canvas {
    /// A canvas all `background`.
    pub fn new(width: usize, height: usize, background: Rgb) -> Canvas {
        let mut c = Canvas {
            width,
            height,
            pixels: Vec::new(),
            palette: Vec::new(),
            blends: Vec::new(),
            last_blend: 0,
        };
        c.clear(width, height, background);
        c
    }

    /// All `background` again, at `width` × `height`, reusing the buffer.
    pub fn clear(&mut self, width: usize, height: usize, background: Rgb) {
        (self.width, self.height) = (width, height);
        self.pixels.clear();
        self.pixels.resize(width * height, 0);
        self.palette.clear();
        self.palette.push(background);
        self.blends.clear();
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// The palette, three bytes a colour, as a PNG's PLTE chunk holds it.
    pub fn palette_bytes(&self) -> Vec<u8> {
        self.palette.iter().flat_map(|&(r, g, b)| [r, g, b]).collect()
    }

    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }

    /// The colour of the pixel at (`x`, `y`); `None` outside.
    #[cfg(test)]
    pub fn rgb_at(&self, x: usize, y: usize) -> Option<Rgb> {
        (x < self.width && y < self.height)
            .then(|| self.palette[usize::from(self.pixels[y * self.width + x])])
    }

    /// `rgb`'s index, added to the palette when new; once the palette is full, the nearest
    /// colour in it (a chart never comes near; a picture is never refused for it).
    pub fn colour(&mut self, rgb: Rgb) -> u8 {
        if let Some(i) = self.palette.iter().position(|&c| c == rgb) {
            return i as u8;
        }
        if self.palette.len() < MAX_COLOURS {
            self.palette.push(rgb);
            return (self.palette.len() - 1) as u8;
        }
        let distance = |c: &Rgb| {
            let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
            d(c.0, rgb.0) + d(c.1, rgb.1) + d(c.2, rgb.2)
        };
        (0..self.palette.len())
            .min_by_key(|&i| distance(&self.palette[i]))
            .unwrap_or(0) as u8
    }

    /// Fills the rectangle from (`x0`, `y0`) to (`x1`, `y1`), both corners included, with
    /// `rgb`; what falls outside is cut.
    pub fn fill(&mut self, (x0, y0): (i32, i32), (x1, y1): (i32, i32), rgb: Rgb) {
        // The corners in either order, cut to the canvas; nothing left when wholly outside.
        let cut = |a: i32, b: i32, len: usize| {
            let (lo, hi) = (a.min(b).max(0), a.max(b).min(len as i32 - 1));
            (lo <= hi).then_some((lo as usize, hi as usize))
        };
        let (Some((xa, xb)), Some((ya, yb))) = (cut(x0, x1, self.width), cut(y0, y1, self.height)) else {
            return;
        };
        let index = self.colour(rgb);
        for row in self.pixels.chunks_exact_mut(self.width).take(yb + 1).skip(ya) {
            row[xa..=xb].fill(index);
        }
    }

    /// A straight line `thickness` pixels wide from `from` to `to` (both ends included), across
    /// or down: the chart draws no other. A thick line grows right of a vertical one and below
    /// a horizontal one.
    pub fn line(&mut self, from: (i32, i32), to: (i32, i32), thickness: i32, rgb: Rgb) {
        let t = thickness.max(1) - 1;
        if from.1 == to.1 {
            self.fill(from, (to.0, to.1 + t), rgb);
        } else {
            self.fill(from, (to.0 + t, to.1), rgb);
        }
    }

    /// Text of colour `rgb` covering the pixel at (`x`, `y`) by `alpha` out of 256 (in
    /// sixteenths): the colour between the pixel's and the text's, as plotters blends.
    pub fn blend(&mut self, x: usize, y: usize, rgb: Rgb, alpha: u16) {
        if x >= self.width || y >= self.height || alpha == 0 {
            return;
        }
        let at = y * self.width + x;
        let under = self.pixels[at];
        let level = usize::from(alpha / 16).min(LEVELS - 1);
        let pair = (under, rgb);
        let slot = if self.blends.get(self.last_blend).is_some_and(|(k, _)| *k == pair) {
            self.last_blend
        } else {
            let slot = match self.blends.iter().position(|(k, _)| *k == pair) {
                Some(i) => i,
                None => {
                    self.blends.push((pair, [None; LEVELS]));
                    self.blends.len() - 1
                }
            };
            self.last_blend = slot;
            slot
        };
        let index = match self.blends[slot].1[level] {
            Some(i) => i,
            None => {
                let (r, g, b) = self.palette[usize::from(under)];
                let a = (level * 16) as u16;
                let mixed = (mix(r, rgb.0, a), mix(g, rgb.1, a), mix(b, rgb.2, a));
                let i = self.colour(mixed);
                self.blends[slot].1[level] = Some(i);
                i
            }
        };
        self.pixels[at] = index;
    }
}

/// plotters' blend of one channel: `new` over `prev` by `a` out of 256.
fn mix(prev: u8, new: u8, a: u16) -> u8 {
    if a >= 255 {
        new
    } else if new > prev {
        prev + (u32::from(new - prev) * u32::from(a) / 256) as u8
    } else {
        prev - (u32::from(prev - new) * u32::from(a) / 256) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Rgb = (255, 255, 255);
    const BLUE: Rgb = (0x58, 0x65, 0xF2);
    const BLACK: Rgb = (0, 0, 0);

    #[test]
    fn a_rectangle_covers_both_corners_and_is_cut_at_the_edges() {
        let mut c = Canvas::new(8, 6, WHITE);
        c.fill((2, 1), (4, 3), BLUE);
        let blue: Vec<(usize, usize)> = (0..6)
            .flat_map(|y| (0..8).map(move |x| (x, y)))
            .filter(|&(x, y)| c.rgb_at(x, y) == Some(BLUE))
            .collect();
        assert_eq!(blue.len(), 9);
        assert!(blue.contains(&(2, 1)) && blue.contains(&(4, 3)));
        // Past every edge: cut, never a panic; wholly outside: nothing.
        c.fill((-5, -5), (100, 0), BLACK);
        assert_eq!(c.rgb_at(7, 0), Some(BLACK));
        assert_eq!(c.rgb_at(0, 1), Some(WHITE));
        c.fill((20, 20), (30, 30), BLUE);
        c.fill((-9, -9), (-1, -1), BLUE);
        assert_eq!(c.palette.len(), 3, "white, blue, black");
        assert_eq!(c.rgb_at(8, 0), None);
    }

    #[test]
    fn thick_lines_grow_right_and_down() {
        let mut c = Canvas::new(10, 10, WHITE);
        c.line((1, 5), (8, 5), 2, BLACK);
        assert_eq!(c.rgb_at(1, 6), Some(BLACK));
        assert_eq!(c.rgb_at(8, 4), Some(WHITE));
        c.line((3, 0), (3, 3), 2, BLUE);
        assert_eq!(c.rgb_at(4, 3), Some(BLUE));
        assert_eq!(c.rgb_at(2, 3), Some(WHITE));
        c.line((0, 9), (0, 9), 1, BLUE);
        assert_eq!(c.rgb_at(0, 9), Some(BLUE));
    }

    #[test]
    fn text_blends_with_what_is_under_it_as_plotters_does() {
        let mut c = Canvas::new(4, 1, WHITE);
        c.fill((2, 0), (3, 0), BLUE);
        c.blend(0, 0, BLACK, 128);
        c.blend(1, 0, BLACK, 256);
        c.blend(2, 0, BLACK, 128);
        c.blend(3, 0, BLACK, 0);
        assert_eq!(c.rgb_at(0, 0), Some((128, 128, 128)));
        assert_eq!(c.rgb_at(1, 0), Some(BLACK));
        assert_eq!(c.rgb_at(2, 0), Some((0x2C, 0x33, 0x79)));
        assert_eq!(c.rgb_at(3, 0), Some(BLUE));
        // The same blend again is the same index, not a new colour.
        let n = c.palette.len();
        c.blend(0, 0, BLACK, 0);
        c.fill((0, 0), (0, 0), WHITE);
        c.blend(0, 0, BLACK, 128);
        assert_eq!(c.palette.len(), n);
    }

    #[test]
    fn a_full_palette_takes_the_nearest_colour() {
        let mut c = Canvas::new(16, 16, WHITE);
        for i in 0..255u16 {
            let (x, y) = (i32::from(i % 16), i32::from(i / 16));
            c.fill((x, y), (x, y), (i as u8, 0, 7));
        }
        assert_eq!(c.palette.len(), 256);
        c.fill((15, 15), (15, 15), (41, 1, 8));
        assert_eq!(c.palette.len(), 256);
        assert_eq!(c.rgb_at(15, 15), Some((41, 0, 7)));
    }
}
