//! The `/odds` chart as a PNG: its canvas's palette and indices as they are, a byte a pixel
//! (the 2d6 chart is about 5 KB; as RGB it was 17 KB).

use super::chart_canvas::Canvas;

/// `canvas` as a PNG; `None` if encoding fails.
pub fn encode(canvas: &Canvas) -> Option<Vec<u8>> {
    let (width, height) = (
        u32::try_from(canvas.width()).ok()?,
        u32::try_from(canvas.height()).ok()?,
    );
    // A chart encodes to about 10 KB: room for it at once rather than growing by copies.
    let mut out = Vec::with_capacity(32 * 1024);
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Indexed);
        enc.set_palette(canvas.palette_bytes());
        enc.set_depth(png::BitDepth::Eight);
        // fdeflate's fastest mode with the Up filter: a chart is sent once and Discord keeps
        // it, so the bot's CPU counts more than a few KB (zlib level 6 with adaptive filters
        // took eight times as long for half the size, measured on the 2d6 chart).
        enc.set_compression(png::Compression::Fastest);
        let mut writer = enc.write_header().ok()?;
        writer.write_image_data(canvas.pixels()).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pixels a PNG decodes to, as RGB, and its colour type.
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
    fn a_canvas_is_written_with_its_palette_and_reads_back_the_same() {
        // 4 × 3: white with a red column, a blue square and a grey dot.
        let mut c = Canvas::new(4, 3, (255, 255, 255));
        c.fill((1, 0), (1, 2), (200, 0, 0));
        c.fill((2, 1), (3, 2), (0, 0, 200));
        c.fill((0, 2), (0, 2), (90, 90, 90));
        let png = encode(&c).unwrap();
        let mut rgb = Vec::new();
        for y in 0..3 {
            for x in 0..4 {
                let (r, g, b) = c.rgb_at(x, y).unwrap();
                rgb.extend([r, g, b]);
            }
        }
        assert_eq!(&rgb[..6], [255, 255, 255, 200, 0, 0]);
        assert_eq!(decoded(&png), (png::ColorType::Indexed, rgb));
    }
}
