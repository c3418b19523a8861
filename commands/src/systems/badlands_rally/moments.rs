//! Badlands Rally's moments: a gear rattled, knocked out or spun out (the changes a race
//! transition reports, `{"change": "rattled", …}`), each with the gear it befell where the
//! report names it (`defender_changes` beside `defender_status`, an `(id, changes, …)` tuple).

use serde_json::{Map, Value};

use crate::moments::{Moment, MomentKind, text};

pub const RATTLED: MomentKind = MomentKind {
    key: "rally.rattled",
    icon: "🫨",
    en: "rattled gear",
    ja: "ラタルド",
};

pub const KNOCKED_OUT: MomentKind = MomentKind {
    key: "rally.knocked_out",
    icon: "💥",
    en: "knocked out",
    ja: "行動不能",
};

pub const SPUN_OUT: MomentKind = MomentKind {
    key: "rally.spun_out",
    icon: "🌀",
    en: "spin-out",
    ja: "スピンアウト",
};

/// Every change in `v` with the gear it happened to, when the report says.
fn changes<'a>(v: &'a Value, out: &mut Vec<(&'a Map<String, Value>, Option<&'a str>)>) {
    match v {
        Value::Object(m) if m.contains_key("change") => out.push((m, None)),
        Value::Object(m) => {
            for (k, val) in m {
                match (k.strip_suffix("changes"), val.as_array()) {
                    (Some(prefix), Some(list)) => {
                        let who = m
                            .get(&format!("{prefix}status"))
                            .and_then(Value::as_object)
                            .and_then(|s| text(s, "name"));
                        out.extend(list.iter().filter_map(Value::as_object).map(|c| (c, who)));
                    }
                    _ => changes(val, out),
                }
            }
        }
        // `(gear id, its changes, …)`.
        Value::Array(items) => match (items.first().and_then(Value::as_str), items.get(1)) {
            (Some(who), Some(Value::Array(list))) => {
                out.extend(list.iter().filter_map(Value::as_object).map(|c| (c, Some(who))));
                items.iter().skip(2).for_each(|i| changes(i, out));
            }
            _ => items.iter().for_each(|i| changes(i, out)),
        },
        _ => {}
    }
}

/// The object keys without which [`of`] finds no moment: a `change` (rattled, knocked out, spun
/// out). A logged outcome whose text names none of them is not parsed for moments (see
/// `SystemBot::moment_keys`).
pub const MOMENT_KEYS: &[&str] = &["change"];

pub fn of(outcome: &Value) -> Vec<Moment> {
    let mut found = Vec::new();
    changes(outcome, &mut found);
    found
        .into_iter()
        .filter_map(|(m, who)| {
            let kind = match text(m, "change")? {
                "rattled" => RATTLED,
                "knocked_out" => KNOCKED_OUT,
                "spun_out" => SPUN_OUT,
                _ => return None,
            };
            Some(Moment::befalls(kind, who))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rattles_and_spin_outs_are_read_from_the_changes() {
        let report = json!({"defender_changes": [{"change": "hull_lost", "hits": 1},
            {"change": "rattled", "record": 1}], "attacker_changes": [{"change": "spun_out", "skid": 2}]});
        // Keys in JSON order: the attacker's changes first.
        assert_eq!(of(&report), vec![Moment::of(SPUN_OUT), Moment::of(RATTLED)]);
        let named = json!({"defender_changes": [{"change": "rattled", "record": 1}],
            "defender_status": {"name": "Hopper"},
            "adjacent": [["Brute", [{"change": "knocked_out"}], null]],
            "summary": {"en": "rattled"}});
        assert_eq!(
            of(&named),
            vec![
                Moment::befalls(KNOCKED_OUT, Some("Brute")),
                Moment::befalls(RATTLED, Some("Hopper"))
            ]
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
                json!({"defender_changes": [{"change": "rattled", "record": 1}]}),
                json!([["g1", [{"change": "spun_out"}]]]),
            ],
        );
    }
}
