//! Badlands Rally on the `/session status` board: the fields its sheet declares watched (hull
//! and structure left, as boxes), then the race's state: the rattle record, rattled, and what
//! stops a gear (knocked out, off balance, a spin-out due).

use engine::i18n::Lang;
use engine::session::Doc;
use engine::systems::badlands_rally::sheet::{dress, read_gear};
use engine::systems::badlands_rally::sheet_decl::DECL;

pub fn line(sheet: &Doc, lang: Lang) -> Option<String> {
    let g = read_gear(sheet)?;
    let st = g.status();
    let mut parts = DECL.board_parts(sheet, lang, &|f, v| dress(&st, f, v, lang));
    parts.push(format!(
        "{} {}",
        lang.pick("rattle record", "ラタルドの記録"),
        st.record()
    ));
    if st.permanently_rattled {
        parts.push(format!(
            "**{}**",
            lang.pick("permanently rattled", "恒久ラタルド")
        ));
    } else if st.rattled {
        parts.push(format!("**{}**", lang.pick("rattled", "ラタルド")));
    }
    for (on, en, ja) in [
        (st.knocked_out, "knocked out", "行動不能"),
        (st.off_balance, "off balance", "オフバランス"),
        (st.spin_out_pending, "spin-out due", "スピンアウト待ち"),
    ] {
        if on {
            parts.push(format!("**{}**", lang.pick(en, ja)));
        }
    }
    Some(parts.join(" · "))
}
