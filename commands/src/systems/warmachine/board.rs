//! Warmachine on the `/session status` board: damage boxes and the model's status, knocked down
//! and cover.

use engine::i18n::Lang;
use engine::systems::warmachine::ModelStatus;
use engine::systems::warmachine::sheet::read;
use serde_json::Value;

pub fn line(sheet: &Value, lang: Lang) -> Option<String> {
    let m = read(sheet).ok()??;
    let mut parts = vec![format!(
        "{} {}/{}",
        lang.pick("boxes", "ダメージ"),
        m.marked,
        m.boxes
    )];
    if m.status != ModelStatus::Ok {
        parts.push(format!("**{}**", m.status.name(lang)));
    }
    if m.knocked_down {
        parts.push(lang.pick("knocked down", "ノックダウン").to_string());
    }
    if m.cover {
        parts.push(lang.pick("in cover", "カバー").to_string());
    }
    Some(parts.join(" · "))
}
