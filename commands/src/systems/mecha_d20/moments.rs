//! The d20 mecha game's moments: natural 20s and 1s on any check, suits destroyed in the
//! application phase, pilots escaping (or not) and fainting.

use serde_json::Value;

use crate::moments::{Moment, MomentKind, objects};

pub const NATURAL_20: MomentKind = MomentKind {
    key: "mecha.natural_20",
    icon: "✨",
    en: "natural 20",
    ja: "出目20",
};

pub const NATURAL_1: MomentKind = MomentKind {
    key: "mecha.natural_1",
    icon: "🎲",
    en: "natural 1",
    ja: "出目1",
};

pub const DESTROYED: MomentKind = MomentKind {
    key: "mecha.destroyed",
    icon: "💥",
    en: "suit destroyed",
    ja: "撃破",
};

pub const ESCAPED: MomentKind = MomentKind {
    key: "mecha.escaped",
    icon: "🪂",
    en: "escape",
    ja: "脱出成功",
};

pub const NO_ESCAPE: MomentKind = MomentKind {
    key: "mecha.no_escape",
    icon: "🔥",
    en: "failed escape",
    ja: "脱出失敗",
};

pub const FAINTED: MomentKind = MomentKind {
    key: "mecha.fainted",
    icon: "😵",
    en: "fainted",
    ja: "気絶",
};

/// The object keys without which [`of`] finds no moment: a die's `natural_20` (natural 20s and 1s),
/// a survival `check`, a `fatigue` check. A logged outcome whose text names none of them is not
/// parsed for moments (see `SystemBot::moment_keys`).
pub const MOMENT_KEYS: &[&str] = &["natural_20", "check", "fatigue"];

pub fn of(outcome: &Value) -> Vec<Moment> {
    let mut out = Vec::new();
    for m in objects(outcome) {
        // A rolled check: its d20 and whether it was a natural 20.
        match (m.get("natural_20").and_then(Value::as_bool), m.get("die")) {
            (Some(true), _) => out.push(Moment::of(NATURAL_20)),
            (Some(false), Some(d)) if d.as_u64() == Some(1) => out.push(Moment::of(NATURAL_1)),
            _ => {}
        }
        if m.contains_key("check") {
            match m.get("escaped").and_then(Value::as_bool) {
                Some(true) => out.push(Moment::of(ESCAPED)),
                Some(false) => out.push(Moment::of(NO_ESCAPE)),
                None => {}
            }
            if m.get("fainted").and_then(Value::as_bool) == Some(true) {
                out.push(Moment::of(FAINTED));
            }
        }
        // The application phase: the suits it destroyed, by name.
        if m.contains_key("fatigue") && m.contains_key("entries") {
            for name in m.get("destroyed").and_then(Value::as_array).into_iter().flatten() {
                out.push(Moment::befalls(DESTROYED, name.as_str()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn natural_rolls_escapes_and_destroyed_suits() {
        let attack = json!({"attack": {"die": 20, "natural_20": true, "total": 27},
            "evasion": {"die": 1, "natural_20": false, "total": 6}});
        assert_eq!(of(&attack), vec![Moment::of(NATURAL_20), Moment::of(NATURAL_1)]);
        let escape =
            json!({"check": {"die": 12, "natural_20": false, "total": 15}, "target": 10, "escaped": true});
        assert_eq!(of(&escape), vec![Moment::of(ESCAPED)]);
        let applied = json!({"turn": 1, "entries": [], "destroyed": ["Zaku"], "fatigue": [], "choices": []});
        assert_eq!(of(&applied), vec![Moment::befalls(DESTROYED, Some("Zaku"))]);
    }

    /// Every outcome with a moment names one of [`MOMENT_KEYS`]: rows without any are never
    /// parsed for moments.
    #[test]
    fn outcomes_with_moments_name_a_moment_key() {
        crate::moments::assert_each_names_a_key(
            of,
            MOMENT_KEYS,
            &[
                json!({"attack": {"die": 20, "natural_20": true, "total": 27}}),
                json!({"die": 1, "natural_20": false}),
                json!({"check": {"die": 12, "natural_20": false, "total": 15}, "target": 10, "escaped": true}),
                json!({"turn": 1, "entries": [], "destroyed": ["Zaku"], "fatigue": [], "choices": []}),
            ],
        );
    }
}
