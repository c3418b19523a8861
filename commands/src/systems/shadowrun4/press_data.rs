//! What a Shadowrun button does, typed. A button is an action row: its `kind` names the press
//! ([`SrPress`], one variant per kind) and its JSON `payload` carries what the handler needs.
//!
//! The JSON is exactly the layout the buttons were stored with before these types existed
//! (same keys, nesting and `roll` tags): buttons already in a database keep working after an
//! upgrade. So keys are never renamed here, and the optional ones are read as the handler
//! always read them: missing, `null` or unreadable means "not given" ([`lenient`]). The tests
//! decode payloads written by the earlier code (`testdata/stored_sr_actions.jsonl`).

use engine::systems::shadowrun4::DamageType;
use engine::systems::shadowrun4::combat::{AttackOutcome, AttackRequest, AttackRoll};
use engine::systems::shadowrun4::magic::{DispelOutcome, SpellOutcome, SummonOutcome};
use engine::systems::shadowrun4::resonance::{CompileOutcome, ThreadOutcome, ThreadRequest};
use engine::systems::shadowrun4::test_kinds::{
    ExtendedOutcome, ExtendedRequest, OpposedOutcome, SuccessOutcome, TeamworkOutcome,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::store::JsonText;

/// What pressing a Shadowrun button does: one variant per stored action `kind`.
#[derive(Debug, Clone, PartialEq)]
pub enum SrPress {
    /// `sr.second_chance`: spend a point of Edge, reroll the misses.
    SecondChance(EdgePress),
    /// `sr.negate_glitch`: spend a point of Edge, cancel the glitch.
    NegateGlitch(EdgePress),
    /// `sr.edge_dice`: spend a point of Edge, add Edge dice (only they explode).
    EdgeDice(EdgePress),
    /// `sr.burn_edge`: burn a point of Edge for a critical success (tests).
    BurnEdge(EdgePress),
    /// `sr.apply_damage`: mark boxes on a monitor.
    ApplyDamage(DamagePress),
    /// `sr.cheat_death`: a killed character burns a point of Edge to live, unconscious.
    CheatDeath(CheatDeathPress),
}

/// Why an action row is not a Shadowrun press (the dispatcher reports it as an internal error).
#[derive(Debug, thiserror::Error)]
pub enum PressDataError {
    #[error("unknown action kind {0}")]
    UnknownKind(String),
    #[error("sr payload of {kind}: {source}")]
    Payload {
        kind: &'static str,
        source: serde_json::Error,
    },
}

impl SrPress {
    pub const SECOND_CHANCE: &'static str = "sr.second_chance";
    pub const NEGATE_GLITCH: &'static str = "sr.negate_glitch";
    pub const EDGE_DICE: &'static str = "sr.edge_dice";
    pub const BURN_EDGE: &'static str = "sr.burn_edge";
    pub const APPLY_DAMAGE: &'static str = "sr.apply_damage";
    pub const CHEAT_DEATH: &'static str = "sr.cheat_death";

    /// The stored action kind (the dispatcher routes on its `sr.` prefix).
    pub fn kind(&self) -> &'static str {
        match self {
            SrPress::SecondChance(_) => Self::SECOND_CHANCE,
            SrPress::NegateGlitch(_) => Self::NEGATE_GLITCH,
            SrPress::EdgeDice(_) => Self::EDGE_DICE,
            SrPress::BurnEdge(_) => Self::BURN_EDGE,
            SrPress::ApplyDamage(_) => Self::APPLY_DAMAGE,
            SrPress::CheatDeath(_) => Self::CHEAT_DEATH,
        }
    }

    /// The press a stored action row stands for.
    pub fn from_action(kind: &str, payload: &Value) -> Result<SrPress, PressDataError> {
        fn read<T: DeserializeOwned>(kind: &'static str, payload: &Value) -> Result<T, PressDataError> {
            T::deserialize(payload).map_err(|source| PressDataError::Payload { kind, source })
        }
        Ok(match kind {
            Self::SECOND_CHANCE => SrPress::SecondChance(read(Self::SECOND_CHANCE, payload)?),
            Self::NEGATE_GLITCH => SrPress::NegateGlitch(read(Self::NEGATE_GLITCH, payload)?),
            Self::EDGE_DICE => SrPress::EdgeDice(read(Self::EDGE_DICE, payload)?),
            Self::BURN_EDGE => SrPress::BurnEdge(read(Self::BURN_EDGE, payload)?),
            Self::APPLY_DAMAGE => SrPress::ApplyDamage(read(Self::APPLY_DAMAGE, payload)?),
            Self::CHEAT_DEATH => SrPress::CheatDeath(read(Self::CHEAT_DEATH, payload)?),
            other => return Err(PressDataError::UnknownKind(other.to_string())),
        })
    }

    /// The `(kind, payload)` of the action row that stores this press.
    pub fn to_action(&self) -> Result<(&'static str, JsonText), serde_json::Error> {
        let payload = match self {
            SrPress::SecondChance(e)
            | SrPress::NegateGlitch(e)
            | SrPress::EdgeDice(e)
            | SrPress::BurnEdge(e) => JsonText::of(e),
            SrPress::ApplyDamage(d) => JsonText::of(d),
            SrPress::CheatDeath(c) => JsonText::of(c),
        }?;
        Ok((self.kind(), payload))
    }

    /// An Apply damage (or drain) press.
    pub fn apply_damage(session: i64, target: &str, damage_type: DamageType, boxes: u32) -> SrPress {
        SrPress::ApplyDamage(DamagePress {
            session,
            target: target.to_string(),
            damage_type,
            boxes,
        })
    }
}

/// An Edge-after press (Second chance, Negate glitch, Edge dice, Burn Edge): every Edge button
/// of one roll carries the same data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EdgePress {
    pub session: i64,
    /// Whose Edge the press spends: the roller's character, or on an attack's defence and soak
    /// the defender.
    pub character: String,
    /// The roll the press acts on; its keys sit beside these ones, tagged by `roll`.
    #[serde(flatten)]
    pub roll: EdgeRoll,
    /// Shared by the Edge buttons of one roll: the first press uses the roll's Edge, the
    /// session records it, the others are then refused.
    #[serde(default, deserialize_with = "lenient")]
    pub roll_id: Option<String>,
}

/// The roll an Edge press acts on, with what its handler needs to roll it again and show it.
/// Every variant is stored as it was before it was typed: tagged by `roll`, keys as named here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "roll", rename_all = "snake_case")]
pub enum EdgeRoll {
    Test {
        outcome: SuccessOutcome,
    },
    Opposed {
        #[serde(default, deserialize_with = "lenient")]
        opponent: Option<String>,
        outcome: OpposedOutcome,
    },
    /// Second chance only, on the interval that ended a test that did not succeed.
    Extended {
        request: ExtendedRequest,
        outcome: ExtendedOutcome,
    },
    Teamwork {
        /// The assistants' names as shown.
        #[serde(default, deserialize_with = "lenient")]
        labels: Vec<String>,
        outcome: TeamworkOutcome,
    },
    /// Boxed: an attack carries much more than the others.
    Attack(Box<AttackEdge>),
    Spell {
        #[serde(default, deserialize_with = "lenient")]
        target: Option<String>,
        outcome: SpellOutcome,
        /// The Apply drain action shown with the buttons (a press replaces it).
        #[serde(default, deserialize_with = "lenient")]
        apply: Option<i64>,
    },
    Summon {
        force: u32,
        outcome: SummonOutcome,
        #[serde(default, deserialize_with = "lenient")]
        apply: Option<i64>,
    },
    Dispel {
        force: u32,
        outcome: DispelOutcome,
        #[serde(default, deserialize_with = "lenient")]
        apply: Option<i64>,
    },
    Thread {
        request: ThreadRequest,
        outcome: ThreadOutcome,
        /// The Apply fading action shown with the buttons.
        #[serde(default, deserialize_with = "lenient")]
        apply: Option<i64>,
    },
    Compile {
        rating: u32,
        outcome: CompileOutcome,
        #[serde(default, deserialize_with = "lenient")]
        apply: Option<i64>,
    },
}

impl EdgeRoll {
    /// The Apply damage/drain action shown with the buttons: a press replaces it, so it must
    /// not have been pressed yet.
    pub fn apply(&self) -> Option<i64> {
        match self {
            EdgeRoll::Attack(a) => a.apply,
            EdgeRoll::Spell { apply, .. }
            | EdgeRoll::Summon { apply, .. }
            | EdgeRoll::Dispel { apply, .. }
            | EdgeRoll::Thread { apply, .. }
            | EdgeRoll::Compile { apply, .. } => *apply,
            EdgeRoll::Test { .. }
            | EdgeRoll::Opposed { .. }
            | EdgeRoll::Extended { .. }
            | EdgeRoll::Teamwork { .. } => None,
        }
    }

    /// The result these buttons were made for, when another press may change it (an attack's
    /// other side).
    pub fn version(&self) -> Option<&str> {
        match self {
            EdgeRoll::Attack(a) => a.version.as_deref(),
            _ => None,
        }
    }
}

/// One side of an attack an Edge press acts on. Buttons made before the defender got theirs
/// lack `attacker`, `side`, `roller`, `base` and `version`: see the accessors' defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AttackEdge {
    #[serde(default, deserialize_with = "lenient")]
    pub attacker: Option<String>,
    pub target: String,
    /// Which roll of the attack: missing means the attack roll.
    #[serde(default, deserialize_with = "lenient")]
    pub side: Option<AttackRoll>,
    #[serde(default, deserialize_with = "lenient")]
    pub weapon: Option<String>,
    pub request: AttackRequest,
    pub outcome: AttackOutcome,
    /// The Apply damage action shown with the buttons (a press replaces it).
    #[serde(default, deserialize_with = "lenient")]
    pub apply: Option<i64>,
    /// Who rolled the attack (owns the attacker's buttons and the Apply damage).
    #[serde(default, deserialize_with = "lenient")]
    pub roller: Option<u64>,
    /// The attack's id, from which each side's roll id is made.
    #[serde(default, deserialize_with = "lenient")]
    pub base: Option<String>,
    /// The result these buttons were made for: a press records it as changed.
    #[serde(default, deserialize_with = "lenient")]
    pub version: Option<String>,
}

impl AttackEdge {
    /// The attacker; older buttons name them only as the press's `character`.
    pub fn attacker_or<'a>(&'a self, character: &'a str) -> &'a str {
        self.attacker.as_deref().unwrap_or(character)
    }

    /// The attack's roll this press acts on.
    pub fn which(&self) -> AttackRoll {
        self.side.unwrap_or(AttackRoll::Attack)
    }
}

/// `sr.apply_damage`: boxes of one type on the target's monitor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DamagePress {
    pub session: i64,
    pub target: String,
    pub damage_type: DamageType,
    pub boxes: u32,
}

/// `sr.cheat_death`: the killed character who may burn Edge to live.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheatDeathPress {
    pub session: i64,
    pub target: String,
}

/// Reads an optional key the way the handler always did: missing (with `#[serde(default)]`),
/// `null` or unreadable is the default, never an error, so an odd old button still works.
fn lenient<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    let v = Value::deserialize(d)?;
    Ok(T::deserialize(v).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::BTreeSet;

    /// Action rows written by the code before these types (captured from `common::action`
    /// while the e2e tests ran): one per payload shape, every kind at least once.
    const STORED: &str = include_str!("testdata/stored_sr_actions.jsonl");

    fn stored() -> Vec<(String, Value)> {
        STORED
            .lines()
            .map(|l| {
                let row: Value = serde_json::from_str(l).unwrap();
                (row["kind"].as_str().unwrap().to_string(), row["payload"].clone())
            })
            .collect()
    }

    /// The first stored payload of an Edge press on a `roll` (and attack `side`).
    fn stored_roll(roll: &str, side: Option<&str>) -> Value {
        stored()
            .into_iter()
            .map(|(_, p)| p)
            .find(|p| p["roll"] == roll && side.is_none_or(|s| p["side"] == s))
            .unwrap_or_else(|| panic!("no stored {roll} payload"))
    }

    fn edge(p: &Value) -> EdgePress {
        match SrPress::from_action(SrPress::SECOND_CHANCE, p).unwrap() {
            SrPress::SecondChance(e) => e,
            other => panic!("{other:?}"),
        }
    }

    fn of<T: DeserializeOwned>(v: &Value) -> T {
        serde_json::from_value(v.clone()).unwrap()
    }

    #[test]
    fn stored_buttons_decode_to_their_kind_and_write_back_unchanged() {
        let mut kinds = BTreeSet::new();
        let mut rolls = BTreeSet::new();
        for (kind, payload) in stored() {
            let press =
                SrPress::from_action(&kind, &payload).unwrap_or_else(|e| panic!("{kind}: {e}\n{payload}"));
            assert_eq!(press.kind(), kind);
            let edge = match &press {
                SrPress::SecondChance(e)
                | SrPress::NegateGlitch(e)
                | SrPress::EdgeDice(e)
                | SrPress::BurnEdge(e) => Some(e),
                SrPress::ApplyDamage(_) | SrPress::CheatDeath(_) => None,
            };
            if let Some(e) = edge {
                // The variant is the one the `roll` tag names.
                let tag = serde_json::to_value(&e.roll).unwrap()["roll"].clone();
                assert_eq!(tag, payload["roll"]);
                assert_eq!(e.roll_id.as_deref(), payload["roll_id"].as_str());
                rolls.insert(tag.as_str().unwrap().to_string());
            }
            let (k, written) = press.to_action().unwrap();
            assert_eq!(k, kind);
            assert_eq!(written.to_value(), payload, "{kind} written back differently");
            kinds.insert(kind);
        }
        assert_eq!(kinds.len(), 6, "{kinds:?}");
        let all = [
            "test", "opposed", "extended", "teamwork", "attack", "spell", "summon", "dispel", "thread",
            "compile",
        ];
        assert_eq!(
            rolls,
            all.iter().map(|s| s.to_string()).collect(),
            "every roll tag is covered"
        );
    }

    /// The `json!` payloads the commands built before the types (copied from that source, the
    /// outcomes taken from stored buttons), plus the `roll_id` every Edge button got: the typed
    /// presses the commands build now serialize to the same JSON.
    #[test]
    fn typed_presses_write_the_payloads_the_json_macros_wrote() {
        let roll_id = "1234";
        let with_id = |mut v: Value| {
            v["roll_id"] = Value::String(roll_id.to_string());
            v
        };
        let press = |roll: EdgeRoll| {
            let e = EdgePress {
                session: 7,
                character: "Ana".into(),
                roll,
                roll_id: Some(roll_id.into()),
            };
            SrPress::SecondChance(e).to_action().unwrap().1.to_value()
        };

        let o = stored_roll("test", None)["outcome"].clone();
        let today = json!({ "roll": "test", "session": 7, "character": "Ana", "outcome": o });
        assert_eq!(press(EdgeRoll::Test { outcome: of(&o) }), with_id(today));

        let o = stored_roll("opposed", None)["outcome"].clone();
        for b in [Some("Bob".to_string()), None] {
            let today =
                json!({ "roll": "opposed", "session": 7, "character": "Ana", "opponent": b, "outcome": o });
            let typed = press(EdgeRoll::Opposed {
                opponent: b.clone(),
                outcome: of(&o),
            });
            assert_eq!(typed, with_id(today));
        }

        let s = stored_roll("extended", None);
        let (req, o) = (s["request"].clone(), s["outcome"].clone());
        let today = json!({
            "roll": "extended", "session": 7, "character": "Ana", "request": req, "outcome": o,
        });
        let typed = press(EdgeRoll::Extended {
            request: of(&req),
            outcome: of(&o),
        });
        assert_eq!(typed, with_id(today));

        let o = stored_roll("teamwork", None)["outcome"].clone();
        let labels = vec!["Bob".to_string(), "3".to_string()];
        let today = json!({
            "roll": "teamwork", "session": 7, "character": "Ana", "labels": labels, "outcome": o,
        });
        let typed = press(EdgeRoll::Teamwork {
            labels: labels.clone(),
            outcome: of(&o),
        });
        assert_eq!(typed, with_id(today));

        // Magic: `finish` set `apply` (an id or null) on the payload before the buttons.
        for apply in [Some(3), None] {
            let o = stored_roll("spell", None)["outcome"].clone();
            for target in [Some("Bob".to_string()), None] {
                let mut today = json!({
                    "roll": "spell", "session": 7, "character": "Ana", "target": target, "outcome": o,
                });
                today["apply"] = json!(apply);
                let typed = press(EdgeRoll::Spell {
                    target: target.clone(),
                    outcome: of(&o),
                    apply,
                });
                assert_eq!(typed, with_id(today));
            }

            let o = stored_roll("summon", None)["outcome"].clone();
            let mut today = json!({
                "roll": "summon", "session": 7, "character": "Ana", "force": 4, "outcome": o,
            });
            today["apply"] = json!(apply);
            let typed = press(EdgeRoll::Summon {
                force: 4,
                outcome: of(&o),
                apply,
            });
            assert_eq!(typed, with_id(today));

            let o = stored_roll("dispel", None)["outcome"].clone();
            let mut today = json!({
                "roll": "dispel", "session": 7, "character": "Ana", "force": 4, "outcome": o,
            });
            today["apply"] = json!(apply);
            let typed = press(EdgeRoll::Dispel {
                force: 4,
                outcome: of(&o),
                apply,
            });
            assert_eq!(typed, with_id(today));

            let s = stored_roll("thread", None);
            let (req, o) = (s["request"].clone(), s["outcome"].clone());
            let mut today = json!({
                "roll": "thread", "session": 7, "character": "Ana", "request": req, "outcome": o,
            });
            today["apply"] = json!(apply);
            let typed = press(EdgeRoll::Thread {
                request: of(&req),
                outcome: of(&o),
                apply,
            });
            assert_eq!(typed, with_id(today));

            let o = stored_roll("compile", None)["outcome"].clone();
            let mut today = json!({
                "roll": "compile", "session": 7, "character": "Ana", "rating": 3, "outcome": o,
            });
            today["apply"] = json!(apply);
            let typed = press(EdgeRoll::Compile {
                rating: 3,
                outcome: of(&o),
                apply,
            });
            assert_eq!(typed, with_id(today));
        }

        let s = stored_roll("attack", Some("soak"));
        let (req, o) = (s["request"].clone(), s["outcome"].clone());
        for (side, weapon, apply) in [
            (AttackRoll::Attack, Some("Ares Predator"), Some(9)),
            (AttackRoll::Defence, None, None),
            (AttackRoll::Soak, Some("Ares Predator"), Some(9)),
        ] {
            let today = json!({
                "roll": "attack", "session": 7, "character": "Ana",
                "attacker": "Ana", "target": "Bob", "side": side,
                "weapon": weapon, "request": req, "outcome": o,
                "apply": apply, "roller": 42u64, "base": "555",
                "version": "556",
            });
            let typed = press(EdgeRoll::Attack(Box::new(AttackEdge {
                attacker: Some("Ana".into()),
                target: "Bob".into(),
                side: Some(side),
                weapon: weapon.map(str::to_string),
                request: of(&req),
                outcome: of(&o),
                apply,
                roller: Some(42),
                base: Some("555".into()),
                version: Some("556".into()),
            })));
            assert_eq!(typed, with_id(today));
        }

        let today = json!({ "session": 7, "target": "Bob", "damage_type": DamageType::Stun, "boxes": 3 });
        let typed = SrPress::apply_damage(7, "Bob", DamageType::Stun, 3)
            .to_action()
            .unwrap();
        assert_eq!((typed.0, typed.1.to_value()), (SrPress::APPLY_DAMAGE, today));

        let today = json!({ "session": 7, "target": "Bob" });
        let typed = SrPress::CheatDeath(CheatDeathPress {
            session: 7,
            target: "Bob".into(),
        });
        let (kind, written) = typed.to_action().unwrap();
        assert_eq!((kind, written.to_value()), (SrPress::CHEAT_DEATH, today));
    }

    /// Older or odd buttons: optional keys missing, null or unreadable read as "not given",
    /// as the field-by-field reader did; the attack defaults name the attacker `character`.
    #[test]
    fn optional_keys_may_be_missing_null_or_unreadable() {
        let mut p = stored_roll("attack", Some("attack"));
        let obj = p.as_object_mut().unwrap();
        for k in [
            "attacker", "side", "weapon", "apply", "roller", "base", "version", "roll_id",
        ] {
            obj.remove(k);
        }
        let e = edge(&p);
        let EdgeRoll::Attack(a) = &e.roll else {
            panic!("{e:?}")
        };
        assert_eq!(a.attacker_or(&e.character), "Ana");
        assert_eq!(a.which(), AttackRoll::Attack);
        assert_eq!(
            (a.apply, a.roller, &a.base, &a.version),
            (None, None, &None, &None)
        );
        assert_eq!(
            (e.roll.apply(), e.roll.version(), &e.roll_id),
            (None, None, &None)
        );

        let mut p = stored_roll("attack", Some("defence"));
        p["apply"] = json!("not an id");
        p["side"] = json!("sideways");
        let e = edge(&p);
        let EdgeRoll::Attack(a) = &e.roll else {
            panic!("{e:?}")
        };
        assert_eq!((a.apply, a.which()), (None, AttackRoll::Attack));
        assert_eq!(e.roll.version(), p["version"].as_str());

        // Magic buttons from before `apply`; an opposed test without an opponent; teamwork
        // without labels.
        let mut p = stored_roll("spell", None);
        p.as_object_mut().unwrap().remove("apply");
        p["target"] = Value::Null;
        assert!(matches!(
            edge(&p).roll,
            EdgeRoll::Spell {
                target: None,
                apply: None,
                ..
            }
        ));
        let mut p = stored_roll("opposed", None);
        p["opponent"] = Value::Null;
        assert!(matches!(edge(&p).roll, EdgeRoll::Opposed { opponent: None, .. }));
        for labels in [None, Some(Value::Null)] {
            let mut p = stored_roll("teamwork", None);
            match labels {
                Some(v) => p["labels"] = v,
                None => {
                    p.as_object_mut().unwrap().remove("labels");
                }
            }
            let EdgeRoll::Teamwork { labels, .. } = edge(&p).roll else {
                panic!()
            };
            assert!(labels.is_empty());
        }
    }

    #[test]
    fn unknown_kinds_rolls_and_missing_keys_are_errors() {
        let p = stored_roll("test", None);
        assert!(matches!(
            SrPress::from_action("sr.nope", &p),
            Err(PressDataError::UnknownKind(k)) if k == "sr.nope"
        ));
        let mut bad = p.clone();
        bad["roll"] = json!("juggle");
        assert!(SrPress::from_action(SrPress::EDGE_DICE, &bad).is_err());
        let mut bad = p.clone();
        bad.as_object_mut().unwrap().remove("session");
        assert!(SrPress::from_action(SrPress::BURN_EDGE, &bad).is_err());
        let mut bad = p;
        bad.as_object_mut().unwrap().remove("outcome");
        assert!(SrPress::from_action(SrPress::NEGATE_GLITCH, &bad).is_err());
        assert!(
            SrPress::from_action(SrPress::APPLY_DAMAGE, &json!({ "session": 1, "target": "Bob" })).is_err()
        );
        assert!(SrPress::from_action(SrPress::CHEAT_DEATH, &json!({ "target": "Bob" })).is_err());
    }
}
