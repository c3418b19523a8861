//! The d20 mecha game on the `/session status` board: the fields its sheet declares watched
//! (AP and durability left of their maximums, fatigue when there is some, fainted, destroyed),
//! then whether the pilot escaped.

use engine::i18n::Lang;
use engine::session::Doc;
use engine::systems::mecha_d20::sheet::{dress, read};
use engine::systems::mecha_d20::sheet_decl::DECL;

pub fn line(sheet: &Doc, lang: Lang) -> Option<String> {
    let u = read(sheet).ok()?;
    let mut parts = DECL.board_parts(sheet, lang, &|f, _| dress(&u, f, lang));
    match u.pilot.escaped {
        Some(true) => parts.push(lang.pick("escaped", "脱出成功").to_string()),
        Some(false) => parts.push(lang.pick("did not escape", "脱出失敗").to_string()),
        None => {}
    }
    Some(parts.join(" · "))
}
