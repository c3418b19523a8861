//! The evening's moments: what a system's players remember of a roll (a critical glitch, a
//! natural 20, a kill), read back from the logged outcome JSON. Each system names its own in its
//! folder (`SystemBot::moments`); the recap only counts and lists them.

use engine::i18n::Lang;
use serde_json::{Map, Value};

/// One kind of moment, in the system's own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MomentKind {
    /// Stable across languages: counts group by it.
    pub key: &'static str,
    pub icon: &'static str,
    pub en: &'static str,
    pub ja: &'static str,
}

impl MomentKind {
    pub fn name(&self, lang: Lang) -> &'static str {
        lang.pick(self.en, self.ja)
    }
}

/// A moment of one roll: its kind and, when the outcome names it, whom it befell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moment {
    pub kind: MomentKind,
    pub who: Option<String>,
    /// Whose moment it is: the roller's (what `who` names is its subject: the model the roller
    /// destroyed), or the other side's, from dice the roller did not throw for themself (a
    /// defender's glitch on its defence or soak), which the recap must not credit to the roller.
    pub side: Side,
}

/// See [`Moment::side`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Roller,
    /// The character `who` names (its owner's), or without a name the opposition's dice
    /// (a spirit's, a spell's): no player's.
    Other,
}

impl Moment {
    pub fn of(kind: MomentKind) -> Moment {
        Moment {
            kind,
            who: None,
            side: Side::Roller,
        }
    }

    pub fn befalls(kind: MomentKind, who: Option<&str>) -> Moment {
        Moment {
            kind,
            who: who.filter(|w| !w.is_empty()).map(str::to_string),
            side: Side::Roller,
        }
    }

    /// The other side's own moment: the character `who` names, or the opposition's.
    pub fn of_other(kind: MomentKind, who: Option<&str>) -> Moment {
        Moment {
            side: Side::Other,
            ..Moment::befalls(kind, who)
        }
    }
}

/// Every JSON object in `value`, depth first (the outcome itself first): moments are found by
/// the fields that say them, wherever the outcome type nests them.
pub fn objects(value: &Value) -> Vec<&Map<String, Value>> {
    let mut out = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                out.push(m);
                // The stored summaries are text for people, not outcome.
                stack.extend(m.iter().filter(|(k, _)| *k != "summary").map(|(_, v)| v).rev());
            }
            Value::Array(items) => stack.extend(items.iter().rev()),
            _ => {}
        }
    }
    out
}

/// `m[key]` as text.
pub fn text<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    m.get(key)?.as_str()
}

/// For a system's moment tests: each of `outcomes` has a moment by `of`, and its text names one
/// of `keys` (the system's `MOMENT_KEYS`), so a recap that skips rows naming none misses nothing.
#[cfg(test)]
pub fn assert_each_names_a_key(of: fn(&Value) -> Vec<Moment>, keys: &[&str], outcomes: &[Value]) {
    for outcome in outcomes {
        assert!(!of(outcome).is_empty(), "no moment in {outcome}");
        let row = crate::store::LogRow {
            session_id: 1,
            user_id: 1,
            command: String::new(),
            outcome: outcome.to_string(),
            at_ms: 0,
            user_name: None,
        };
        assert!(row.names_any(keys), "{outcome} names none of {keys:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_are_found_at_every_depth_but_not_in_the_summaries() {
        let v = json!({"a": {"glitch": "critical"}, "b": [{"glitch": "glitch"}],
            "summary": {"en": {"glitch": "critical"}}});
        let found: Vec<&str> = objects(&v).iter().filter_map(|m| text(m, "glitch")).collect();
        assert_eq!(found, vec!["critical", "glitch"]);
    }
}
