//! The `/odds` chart's pixels as a PNG. A chart has a few dozen colours (white, the bars', the
//! lines', and the text's anti-aliased edges), so it is written with a palette, a byte a pixel
//! instead of three: a third of the file (the 2d6 chart 17 KB → 5 KB). The bot's CPU stayed the
//! same: finding each pixel's index costs what filtering and deflating two more bytes did
//! (issue 32). A picture of more than 256 colours is written as RGB.

/// Empty slot of the colour table (no 24-bit colour has these high bits).
const EMPTY: u32 = u32::MAX;
/// Slots in the colour table: a power of two, four times the most colours a palette holds.
const SLOTS: usize = 1024;

/// `rgb` (three bytes a pixel, `width` × `height`) as a PNG; `None` if encoding fails.
pub fn encode(rgb: &[u8], width: u32, height: u32) -> Option<Vec<u8>> {
    // A chart encodes to about 10 KB: room for it at once rather than growing by copies.
    let mut out = Vec::with_capacity(32 * 1024);
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        let indexed = indexed(rgb, width as usize).map(|(palette, pixels)| {
            enc.set_color(png::ColorType::Indexed);
            enc.set_palette(palette);
            pixels
        });
        if indexed.is_none() {
            enc.set_color(png::ColorType::Rgb);
        }
        enc.set_depth(png::BitDepth::Eight);
        // fdeflate's fastest mode with the Up filter: a chart is sent once and Discord keeps
        // it, so the bot's CPU counts more than a few KB (zlib level 6 with adaptive filters
        // took eight times as long for half the size, measured on the 2d6 chart).
        enc.set_compression(png::Compression::Fastest);
        let mut writer = enc.write_header().ok()?;
        writer.write_image_data(indexed.as_deref().unwrap_or(rgb)).ok()?;
    }
    Some(out)
}

/// The palette (three bytes a colour, in order of first appearance) and each pixel's index in
/// it, for `rgb` in rows of `width` pixels; `None` past 256 colours.
pub fn indexed(rgb: &[u8], width: usize) -> Option<(Vec<u8>, Vec<u8>)> {
    let row = width * 3;
    if row == 0 || !rgb.len().is_multiple_of(row) {
        return None;
    }
    let mut keys = [EMPTY; SLOTS];
    let mut slot_index = [0u8; SLOTS];
    let mut palette: Vec<u8> = Vec::with_capacity(256 * 3);
    let mut pixels = vec![0u8; rgb.len() / 3];
    for (y, line) in rgb.chunks_exact(row).enumerate() {
        // Most of a chart's rows are the row above (the bars are upright): copied, not looked
        // up pixel by pixel.
        if y > 0 && line == &rgb[(y - 1) * row..y * row] {
            pixels.copy_within((y - 1) * width..y * width, y * width);
            continue;
        }
        // Runs of one colour are most of a row: the colour before is checked first.
        let (mut last, mut last_index) = (EMPTY, 0u8);
        for (px, out) in line.chunks_exact(3).zip(&mut pixels[y * width..(y + 1) * width]) {
            let key = u32::from(px[0]) << 16 | u32::from(px[1]) << 8 | u32::from(px[2]);
            if key != last {
                let mut slot = (key.wrapping_mul(0x9E37_79B1) >> 22) as usize & (SLOTS - 1);
                loop {
                    if keys[slot] == key {
                        break;
                    }
                    if keys[slot] == EMPTY {
                        let n = palette.len() / 3;
                        if n == 256 {
                            return None;
                        }
                        keys[slot] = key;
                        slot_index[slot] = n as u8;
                        palette.extend_from_slice(px);
                        break;
                    }
                    slot = (slot + 1) & (SLOTS - 1);
                }
                (last, last_index) = (key, slot_index[slot]);
            }
            *out = last_index;
        }
    }
    Some((palette, pixels))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pixels a PNG decodes to, as RGB.
    fn decoded(png: &[u8]) -> (png::ColorType, Vec<u8>) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let color = reader.info().color_type;
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (color, buf)
    }

    #[test]
    fn a_picture_of_few_colours_is_written_with_a_palette_and_reads_back_the_same() {
        // 4 × 3: white, red, white, a grey; then the grey, blue, red, white; then that again.
        let rgb = [
            255, 255, 255, 200, 0, 0, 255, 255, 255, 90, 90, 90, //
            90, 90, 90, 0, 0, 200, 200, 0, 0, 255, 255, 255, //
            90, 90, 90, 0, 0, 200, 200, 0, 0, 255, 255, 255,
        ];
        let (palette, pixels) = indexed(&rgb, 4).unwrap();
        assert_eq!(palette, [255, 255, 255, 200, 0, 0, 90, 90, 90, 0, 0, 200]);
        assert_eq!(pixels, [0, 1, 0, 2, 2, 3, 1, 0, 2, 3, 1, 0]);
        let png = encode(&rgb, 4, 3).unwrap();
        assert_eq!(decoded(&png), (png::ColorType::Indexed, rgb.to_vec()));
    }

    #[test]
    fn past_256_colours_the_picture_is_written_as_rgb() {
        // 256 colours fit a palette; 257 do not.
        let colours = |n: u32| -> Vec<u8> { (0..n).flat_map(|i| [(i >> 8) as u8, i as u8, 7]).collect() };
        let fits = colours(256);
        assert_eq!(indexed(&fits, 16).unwrap().0.len(), 256 * 3);
        let png = encode(&fits, 16, 16).unwrap();
        assert_eq!(decoded(&png), (png::ColorType::Indexed, fits));
        let mut over_square = colours(257);
        over_square.resize(17 * 17 * 3, 0);
        assert!(indexed(&over_square, 17).is_none());
        let png = encode(&over_square, 17, 17).unwrap();
        assert_eq!(decoded(&png), (png::ColorType::Rgb, over_square));
    }
}
