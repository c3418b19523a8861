//! What a Badlands Rally button carries: one serde type per action kind, in the stored payload
//! layout the buttons have always had (`session`, `request`, `outcome`, …), so buttons stored
//! before the types existed keep working. The dispatcher hands `(kind, payload)` over; here it
//! becomes a [`RallyPress`] or an error, and a new button is made from one.

use engine::systems::badlands_rally::attack::{AttackOutcome, Side};
use engine::systems::badlands_rally::race::{Action, Entry, InitiativeOutcome, RaceAttack};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::store::{JsonText, NewAction};

pub const KIND: &str = "rally.reliable";
pub const MOVE_KIND: &str = "rally.reliable_move";
pub const CHECK_KIND: &str = "rally.reliable_check";

/// Reliable on an attack: reroll `side`'s check from the gears `before` the attack, provided
/// they are still as the attack left them (`after`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttackReroll {
    pub session: i64,
    pub request: RaceAttack,
    pub outcome: AttackOutcome,
    pub side: Side,
    pub before: Vec<Entry>,
    pub after: Vec<Entry>,
}

/// Reliable on a gear's own test (burn rubber, jump, Off-Road Specialist): run `action` again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MoveReroll {
    pub session: i64,
    pub gear: String,
    pub action: Action,
    pub title: String,
    pub before: Vec<Entry>,
    pub after: Vec<Entry>,
}

/// Reliable on an initiative-style check (pole, a round's initiative, the contested victory).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckReroll {
    pub session: i64,
    pub gear: String,
    pub outcome: InitiativeOutcome,
    pub ahead: Vec<String>,
    pub round: u32,
    pub before: Vec<Entry>,
    pub after: Vec<Entry>,
}

/// A Badlands Rally button press, by its stored kind.
#[derive(Debug, Clone, PartialEq)]
pub enum RallyPress {
    /// Boxed: an attack carries both sides' gears and its outcome, the others much less.
    Attack(Box<AttackReroll>),
    Move(MoveReroll),
    Check(CheckReroll),
}

fn read<T: DeserializeOwned>(kind: &str, payload: &Value) -> Result<T, String> {
    serde::Deserialize::deserialize(payload).map_err(|e| format!("{kind} payload: {e}"))
}

impl RallyPress {
    /// The stored action read back; an unknown kind or a payload that does not read is an error.
    pub fn decode(kind: &str, payload: &Value) -> Result<RallyPress, String> {
        match kind {
            KIND => read(kind, payload).map(|a| RallyPress::Attack(Box::new(a))),
            MOVE_KIND => read(kind, payload).map(RallyPress::Move),
            CHECK_KIND => read(kind, payload).map(RallyPress::Check),
            other => Err(format!("unknown action kind {other}")),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            RallyPress::Attack(_) => KIND,
            RallyPress::Move(_) => MOVE_KIND,
            RallyPress::Check(_) => CHECK_KIND,
        }
    }

    pub fn payload(&self) -> JsonText {
        match self {
            RallyPress::Attack(a) => JsonText::of_or_null(a),
            RallyPress::Move(m) => JsonText::of_or_null(m),
            RallyPress::Check(c) => JsonText::of_or_null(c),
        }
    }

    /// The action row behind a new button for `owner`.
    pub fn new_action(&self, guild: Option<u64>, channel: u64, owner: u64) -> NewAction {
        NewAction {
            kind: self.kind().into(),
            guild,
            channel,
            owner,
            payload: self.payload(),
        }
    }
}

#[cfg(test)]
mod tests {
    use engine::systems::badlands_rally::race::InitiativeKind;
    use serde_json::json;

    use super::*;

    fn check_outcome() -> InitiativeOutcome {
        // Any real outcome: a pole-position check between no gears is enough for the layout.
        serde_json::from_value(json!({"kind": "pole", "order": [], "tie_breaks": []})).unwrap()
    }

    /// A check payload exactly as the bot stored it before the types (the `json!` it built).
    #[test]
    fn stored_check_payloads_still_read_and_write_back_the_same() {
        let stored = json!({
            "session": 7,
            "gear": "Ana",
            "outcome": check_outcome(),
            "ahead": ["Bob"],
            "round": 2,
            "before": [],
            "after": [],
        });
        let press = RallyPress::decode(CHECK_KIND, &stored).unwrap();
        let RallyPress::Check(c) = &press else {
            panic!("{press:?}")
        };
        assert_eq!((c.session, c.gear.as_str(), c.round), (7, "Ana", 2));
        assert_eq!(c.outcome.kind, InitiativeKind::Pole);
        assert_eq!(press.payload().to_value(), stored);
        assert_eq!(press.kind(), CHECK_KIND);
    }

    #[test]
    fn unknown_kinds_and_broken_payloads_are_errors() {
        assert!(
            RallyPress::decode("rally.nope", &json!({}))
                .unwrap_err()
                .contains("unknown")
        );
        assert!(RallyPress::decode(KIND, &json!({"session": 1})).is_err());
        assert!(RallyPress::decode(MOVE_KIND, &json!({"session": "x"})).is_err());
    }
}
