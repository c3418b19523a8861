//! Terminator Genisys's moments: kills and I'll Be Backs, from each attack target's record (a
//! kill still waiting on its I'll Be Back roll is not one yet) or a lone I'll Be Back roll.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::moments::{Moment, MomentKind, objects, text};

pub const KILLED: MomentKind = MomentKind {
    key: "term.killed",
    icon: "💀",
    en: "KILLED",
    ja: "戦闘不能",
};

pub const ILL_BE_BACK: MomentKind = MomentKind {
    key: "term.ill_be_back",
    icon: "🦾",
    en: "I'll Be Back",
    ja: "アイル・ビー・バック",
};

fn crawls(v: Option<&Value>) -> bool {
    v.and_then(|v| v.get("crawls")).and_then(Value::as_bool) == Some(true)
}

/// The object keys without which [`of`] finds no moment: a model's `ill_be_back` (kills and
/// crawls) and an I'll Be Back roll's own `crawls` (not its `face`: every die of a `/roll` has
/// one). A logged outcome whose text names none of them is not parsed for moments (see
/// `SystemBot::moment_keys`).
pub const MOMENT_KEYS: &[&str] = &["ill_be_back", "crawls"];

pub fn of(outcome: &Value) -> Vec<Moment> {
    let all = objects(outcome);
    // Targets whose removal waits on the I'll Be Back roll.
    let pending: BTreeSet<&str> = all
        .iter()
        .filter(|m| text(m, "waiting") == Some("ill_be_back"))
        .flat_map(|m| m.get("targets").and_then(Value::as_array).into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    let mut out = Vec::new();
    if outcome.get("face").is_some() && crawls(Some(outcome)) {
        out.push(Moment::of(ILL_BE_BACK));
    }
    for m in all.iter().filter(|m| m.contains_key("ill_be_back")) {
        let name = text(m, "name");
        if crawls(m.get("ill_be_back")) {
            out.push(Moment::befalls(ILL_BE_BACK, name));
        } else if text(m, "removed") == Some("killed") && !name.is_some_and(|n| pending.contains(n)) {
            out.push(Moment::befalls(KILLED, name));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_kill_counts_once_its_ill_be_back_is_rolled() {
        let waiting = json!({"run": {"targets": [{"name": "E", "removed": "killed", "ill_be_back": null}]},
            "waiting": {"waiting": "ill_be_back", "targets": ["E"]}});
        assert!(of(&waiting).is_empty());
        let back = json!({"run": {"targets": [{"name": "E", "removed": null,
            "ill_be_back": {"crawls": true, "face": 5}}]}, "waiting": null});
        assert_eq!(of(&back), vec![Moment::befalls(ILL_BE_BACK, Some("E"))]);
        let dead = json!({"run": {"targets": [{"name": "E", "removed": "killed",
            "ill_be_back": {"crawls": false, "face": 2}}]}, "waiting": null});
        assert_eq!(of(&dead), vec![Moment::befalls(KILLED, Some("E"))]);
        assert_eq!(
            of(&json!({"face": 6, "crawls": true})),
            vec![Moment::of(ILL_BE_BACK)]
        );
    }

    /// Every outcome with a moment names one of [`MOMENT_KEYS`]: rows without any are never
    /// parsed for moments.
    #[test]
    fn outcomes_with_moments_name_a_moment_key() {
        crate::moments::assert_each_names_a_key(
            of,
            MOMENT_KEYS,
            &[
                json!({"run": {"targets": [{"name": "E", "removed": "killed", "ill_be_back": {"crawls": false}}]}}),
                json!({"face": 6, "crawls": true}),
            ],
        );
    }
}
