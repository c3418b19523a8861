//! Shadowrun 4 on the `/session status` board: the two condition monitors and Edge, the
//! condition only when it is not plain conscious, the wound modifier only when it bites.

use engine::i18n::Lang;
use engine::systems::shadowrun4::Condition;
use engine::systems::shadowrun4::sheet::{condition_text, monitor_bar, read};
use serde_json::Value;

pub fn line(sheet: &Value, lang: Lang) -> Option<String> {
    let c = read(sheet).ok()?.character;
    let mut parts = vec![
        format!(
            "{} {}",
            lang.pick("Physical", "肉体"),
            monitor_bar(c.physical, c.physical_track())
        ),
        format!(
            "{} {}",
            lang.pick("Stun", "朦朧"),
            monitor_bar(c.stun, c.stun_track())
        ),
        format!(
            "{} {}/{}",
            lang.pick("Edge", "エッジ"),
            c.edge_points,
            c.attributes.edge
        ),
    ];
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
