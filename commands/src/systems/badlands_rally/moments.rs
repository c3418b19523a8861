//! Badlands Rally's moments: a gear rattled, knocked out or spun out (the changes a race
//! transition reports, `{"change": "rattled", …}`).

use serde_json::Value;

use crate::moments::{Moment, MomentKind, objects, text};

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

pub fn of(outcome: &Value) -> Vec<Moment> {
    objects(outcome)
        .into_iter()
        .filter_map(|m| match text(m, "change")? {
            "rattled" => Some(Moment::of(RATTLED)),
            "knocked_out" => Some(Moment::of(KNOCKED_OUT)),
            "spun_out" => Some(Moment::of(SPUN_OUT)),
            _ => None,
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
    }
}
