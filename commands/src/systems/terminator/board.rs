//! Terminator Genisys on the `/session status` board: the markers its sheet declares watched
//! (ready, done, reeling, removed, damage, crawler).

use engine::i18n::Lang;
use engine::session::Doc;
use engine::systems::terminator::sheet::{dress, read};
use engine::systems::terminator::sheet_decl::DECL;

pub fn line(sheet: &Doc, lang: Lang) -> Option<String> {
    let c = read(sheet).ok()?;
    let parts = DECL.board_parts(sheet, lang, &|f, v| dress(&c, f, v, lang));
    Some(if parts.is_empty() {
        lang.pick("no markers", "マーカーなし").to_string()
    } else {
        parts.join(" · ")
    })
}
