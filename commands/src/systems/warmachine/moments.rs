//! Warmachine's moments: a model DISABLED or DESTROYED by a damage roll (its status before and
//! after, as the damage outcome records them).

use serde_json::Value;

use crate::moments::{Moment, MomentKind, objects, text};

pub const DISABLED: MomentKind = MomentKind {
    key: "wm.disabled",
    icon: "🛑",
    en: "DISABLED",
    ja: "機能停止",
};

pub const DESTROYED: MomentKind = MomentKind {
    key: "wm.destroyed",
    icon: "💥",
    en: "DESTROYED",
    ja: "破壊",
};

/// The object keys without which [`of`] finds no moment: a model's `status_before` beside its
/// `status_after`. A logged outcome whose text names none of them is not parsed for moments (see
/// `SystemBot::moment_keys`).
pub const MOMENT_KEYS: &[&str] = &["status_before"];

pub fn of(outcome: &Value) -> Vec<Moment> {
    objects(outcome)
        .into_iter()
        .filter_map(|m| {
            let (before, after) = (text(m, "status_before")?, text(m, "status_after")?);
            let who = text(m, "target").or_else(|| text(m, "name"));
            match after {
                _ if before == after => None,
                "disabled" => Some(Moment::befalls(DISABLED, who)),
                "destroyed" => Some(Moment::befalls(DESTROYED, who)),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_status_that_changed_is_a_moment() {
        let hit = json!({"target": "Juggernaut", "status_before": "ok", "status_after": "disabled"});
        assert_eq!(of(&hit), vec![Moment::befalls(DISABLED, Some("Juggernaut"))]);
        let again = json!({"status_before": "disabled", "status_after": "disabled"});
        assert!(of(&again).is_empty());
        let kill = json!({"status_before": "disabled", "status_after": "destroyed"});
        assert_eq!(of(&kill), vec![Moment::of(DESTROYED)]);
    }

    /// Every outcome with a moment names one of [`MOMENT_KEYS`]: rows without any are never
    /// parsed for moments.
    #[test]
    fn outcomes_with_moments_name_a_moment_key() {
        crate::moments::assert_each_names_a_key(
            of,
            MOMENT_KEYS,
            &[
                json!({"target": "Juggernaut", "status_before": "ok", "status_after": "disabled"}),
                json!({"name": "Stalker", "status_before": "disabled", "status_after": "destroyed"}),
            ],
        );
    }
}
