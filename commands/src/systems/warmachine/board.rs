//! Warmachine on the `/session status` board: the fields its sheet declares watched (damage out
//! of the boxes, a status other than OK, knocked down, cover).

use engine::i18n::Lang;
use engine::session::Doc;
use engine::systems::warmachine::sheet::{dress, read};
use engine::systems::warmachine::sheet_decl::DECL;

pub fn line(sheet: &Doc, lang: Lang) -> Option<String> {
    let m = read(sheet).ok()??;
    Some(
        DECL.board_parts(sheet, lang, &|f, v| dress(&m, f, v, lang))
            .join(" · "),
    )
}
