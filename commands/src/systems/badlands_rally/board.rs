//! Badlands Rally on the `/session status` board: hull and structure boxes, rattled and its
//! record, and the states that stop a gear (knocked out, off balance, a spin-out due).

use engine::i18n::Lang;
use engine::systems::badlands_rally::Gear;
use serde_json::Value;

pub fn line(sheet: &Value, lang: Lang) -> Option<String> {
    let g = <Gear as serde::Deserialize>::deserialize(sheet).ok()?;
    let st = g.status();
    let mut parts = vec![
        format!(
            "{} {}",
            lang.pick("Hull/Structure", "ハル/ストラクチャー"),
            st.boxes()
        ),
        format!("{} {}", lang.pick("rattle record", "ラタルドの記録"), st.record()),
    ];
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
