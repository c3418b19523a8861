//! Terminator Genisys on the `/session status` board: the markers and states the table tracks
//! (Ready, Done, Reeling, Crawler, KILLED, damage), as the character sheet's badges.

use engine::i18n::Lang;
use engine::systems::terminator::sheet::{badges, read};
use serde_json::Value;

pub fn line(sheet: &Value, lang: Lang) -> Option<String> {
    let c = read(sheet).ok()?;
    let badges = badges(&c, lang);
    Some(if badges.is_empty() {
        lang.pick("no markers", "マーカーなし").to_string()
    } else {
        badges.join(" · ")
    })
}
