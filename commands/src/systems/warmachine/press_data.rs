//! What a Warmachine button carries, typed: one serde type per stored action kind. The payload
//! holds names and numbers, never the models themselves: a press reads the models as they are
//! when it is pressed (its session by id), so it works after a restart and never undoes a
//! change made in between.

use engine::systems::warmachine::PowSource;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::store::{JsonText, NewAction};

/// Roll the damage of a hit: the plain button or the boosted one ([`BOOST`]), one action, so
/// the choice is made once.
pub const DAMAGE: &str = "wm.damage";
/// Mark damage rolled earlier (raw ARM, or `apply:false`) on the target's boxes.
pub const APPLY: &str = "wm.apply";
/// The variant of the boosted-damage button.
pub const BOOST: &str = "boost";

/// After a hit: what the damage roll needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamagePress {
    /// The session whose models the press reads; `None`: raw numbers only.
    pub session: Option<i64>,
    /// The attacking model (for its weapon, POW effects and cannot-flags), if one was named.
    pub attacker: Option<String>,
    /// The target model, if one was named.
    pub target: Option<String>,
    pub pow: PowSource,
    /// A raw ARM typed on the attack: replaces the target's ARM after effects.
    pub arm: Option<u32>,
    /// The attacker's controller (WG-9), shown on the damage.
    #[serde(default)]
    pub active: Option<String>,
    /// The attack's moment (WG-9, issue 29): past it, the press refuses and says why.
    #[serde(default)]
    pub moment: Option<Moment>,
}

/// When an attack was made, in the game's count: the game (`WarmachineState::games`) and the
/// moment within it (`TurnState::moment`), with the target's ARM then.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moment {
    pub games: u32,
    pub moment: u32,
    pub arm: u32,
}

/// Damage rolled but not marked: mark it on `target` now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApplyPress {
    pub session: i64,
    pub target: String,
    pub damage: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WmPress {
    Damage(DamagePress),
    Apply(ApplyPress),
}

impl WmPress {
    pub fn decode(kind: &str, payload: &Value) -> Result<WmPress, String> {
        let bad = |e: serde_json::Error| format!("{kind} payload: {e}");
        match kind {
            DAMAGE => serde::Deserialize::deserialize(payload)
                .map(WmPress::Damage)
                .map_err(bad),
            APPLY => serde::Deserialize::deserialize(payload)
                .map(WmPress::Apply)
                .map_err(bad),
            other => Err(format!("unknown action kind {other}")),
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            WmPress::Damage(_) => DAMAGE,
            WmPress::Apply(_) => APPLY,
        }
    }

    pub fn payload(&self) -> JsonText {
        match self {
            WmPress::Damage(d) => JsonText::of_or_null(d),
            WmPress::Apply(a) => JsonText::of_or_null(a),
        }
    }

    /// The action row behind a new button for `owner` (the roller; the GM may press too).
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
    use serde_json::json;

    use super::*;

    #[test]
    fn presses_round_trip_and_bad_ones_are_errors() {
        let d = WmPress::Damage(DamagePress {
            session: Some(3),
            attacker: Some("Stalker".into()),
            target: None,
            pow: PowSource::Weapon("Blade".into()),
            arm: Some(15),
            active: Some("@ana".into()),
            moment: Some(Moment {
                games: 1,
                moment: 4,
                arm: 16,
            }),
        });
        assert_eq!(WmPress::decode(DAMAGE, &d.payload().to_value()).unwrap(), d);
        let a = WmPress::Apply(ApplyPress {
            session: 3,
            target: "Grunt".into(),
            damage: 4,
        });
        assert_eq!(WmPress::decode(APPLY, &a.payload().to_value()).unwrap(), a);
        assert_eq!(a.kind(), APPLY);
        assert!(WmPress::decode("wm.nope", &json!({})).is_err());
        assert!(WmPress::decode(APPLY, &json!({"session": 1})).is_err());
        // A payload stored without the optional fields still reads.
        let old = json!({"session": null, "attacker": null, "target": null, "pow": {"value": 12}, "arm": 14});
        assert!(matches!(
            WmPress::decode(DAMAGE, &old),
            Ok(WmPress::Damage(DamagePress { active: None, .. }))
        ));
    }
}
