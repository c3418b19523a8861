//! Shadowrun 4 on the `/session status` board: the fields its sheet declares watched (Edge
//! points, the two condition monitors as boxes), then the state: the wound modifier only when
//! it bites, the condition only when it is not plain conscious.

use engine::i18n::Lang;
use engine::session::Doc;
use engine::systems::shadowrun4::Condition;
use engine::systems::shadowrun4::sheet::{condition_text, dress, read};
use engine::systems::shadowrun4::sheet_decl::DECL;

pub fn line(sheet: &Doc, lang: Lang) -> Option<String> {
    let c = read(sheet).ok()?.character;
    let mut parts = DECL.board_parts(sheet, lang, &|f, v| dress(&c, f, v));
    if c.wound_modifier() != 0 {
        parts.push(format!(
            "{} {}",
            lang.pick("wounds", "負傷修正"),
            c.wound_modifier()
        ));
    }
    if c.condition() != Condition::Conscious {
        parts.push(format!("**{}**", condition_text(c.condition(), lang)));
    }
    Some(parts.join(" · "))
}
