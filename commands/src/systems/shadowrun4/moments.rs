//! Shadowrun 4's moments: glitches and critical glitches, one per die roll that showed one
//! (a test's outcome repeats its roll's glitch at the top; the roll itself is counted).

use serde_json::Value;

use crate::moments::{Moment, MomentKind, objects, text};

pub const CRITICAL_GLITCH: MomentKind = MomentKind {
    key: "sr.critical_glitch",
    icon: "💥",
    en: "critical glitch",
    ja: "クリティカル・グリッチ",
};

pub const GLITCH: MomentKind = MomentKind {
    key: "sr.glitch",
    icon: "⚠️",
    en: "glitch",
    ja: "グリッチ",
};

/// The object keys without which [`of`] finds no moment: a die roll's `ones`: a glitch is read only
/// beside them. A logged outcome whose text names none of them is not parsed for moments (see
/// `SystemBot::moment_keys`).
pub const MOMENT_KEYS: &[&str] = &["ones"];

pub fn of(outcome: &Value) -> Vec<Moment> {
    objects(outcome)
        .into_iter()
        // A die roll: its faces' ones and what they made of it.
        .filter(|m| m.contains_key("ones"))
        .filter_map(|m| match text(m, "glitch")? {
            "critical" => Some(Moment::of(CRITICAL_GLITCH)),
            "glitch" => Some(Moment::of(GLITCH)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_glitch_is_counted_once_per_roll() {
        let test = json!({"glitch": "critical", "rolled": {"roll": {"glitch": "critical", "ones": 3}}});
        assert_eq!(of(&test), vec![Moment::of(CRITICAL_GLITCH)]);
        let opposed = json!({"attacker": {"roll": {"glitch": "glitch", "ones": 2}},
            "defender": {"roll": {"glitch": "none", "ones": 0}}});
        assert_eq!(of(&opposed), vec![Moment::of(GLITCH)]);
    }

    /// Every outcome with a moment names one of [`MOMENT_KEYS`]: rows without any are never
    /// parsed for moments.
    #[test]
    fn outcomes_with_moments_name_a_moment_key() {
        crate::moments::assert_each_names_a_key(
            of,
            MOMENT_KEYS,
            &[
                json!({"glitch": "critical", "rolled": {"roll": {"glitch": "critical", "ones": 3}}}),
                json!({"attacker": {"roll": {"glitch": "glitch", "ones": 2}}, "defender": {"roll": {"glitch": "none", "ones": 0}}}),
            ],
        );
    }
}
