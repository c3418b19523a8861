//! The d20 mecha game on the `/session status` board: durability and AP (fatigue when there is
//! some), and a suit destroyed, a pilot escaped or fainted.

use engine::i18n::Lang;
use engine::systems::mecha_d20::sheet::read;
use serde_json::Value;

pub fn line(sheet: &Value, lang: Lang) -> Option<String> {
    let u = read(sheet).ok()?;
    let (p, s) = (&u.pilot, &u.suit);
    let mut parts = vec![
        format!(
            "{} {}/{}",
            lang.pick("Durability", "耐久度"),
            s.durability,
            s.durability_max
        ),
        format!("AP {}/{}", p.ap, p.ap_max),
    ];
    if p.fatigue > 0 {
        parts.push(format!("{} {}", lang.pick("fatigue", "疲労"), p.fatigue));
    }
    if s.destroyed {
        parts.push(format!("**{}**", lang.pick("DESTROYED", "撃破")));
    }
    match p.escaped {
        Some(true) => parts.push(lang.pick("escaped", "脱出成功").to_string()),
        Some(false) => parts.push(lang.pick("did not escape", "脱出失敗").to_string()),
        None => {}
    }
    if p.fainted {
        parts.push(format!("**{}**", lang.pick("FAINTED", "気絶")));
    }
    Some(parts.join(" · "))
}
