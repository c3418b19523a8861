//! Shadowrun 4's moments: glitches and critical glitches, one per die roll that showed one
//! (a test's outcome repeats its roll's glitch at the top; the roll itself is counted).

use engine::systems::shadowrun4::PoolRoll;
use engine::systems::shadowrun4::dice::Glitch;
use serde_json::{Map, Value};

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

/// The outcome's parts rolled by the other side: the defender's defence and soak (in `damage`),
/// a spell's target's resistance, a matrix target's defence and resistance, and the dice of the
/// opposition (an opposed test's opponent, a spell being dispelled, a spirit, a node).
const OTHER_SIDE: &[&str] = &[
    "defence",
    "damage",
    "resistance",
    "resist",
    "opponent",
    "opposition",
    "spirit",
    "node",
];

/// The other side's name as the bot logs it beside the outcome (see `common::Logged::named`):
/// the defender, the spell's target, the opponent.
pub const TARGET_NAME: &str = "target_name";
/// Set on an attack's `damage` when an Edge press rolled its soak (see the engine's
/// `DamageDealt::soak_rolled_by_press`).
const SOAK_ROLLED_BY_PRESS: &str = "soak_rolled_by_press";
/// A teamwork test's assistants, in the order of its `assistants` rolls.
pub const ASSISTANT_NAMES: &str = "assistant_names";

pub fn of(outcome: &Value) -> Vec<Moment> {
    let Value::Object(top) = outcome else {
        return Vec::new();
    };
    let target = top.get(TARGET_NAME).and_then(Value::as_str);
    // Every die roll with whose it is, and whether an Edge press rolled it whole.
    let mut rolls: Vec<(&Map<String, Value>, Whose<'_>, bool)> = Vec::new();
    if top.contains_key("ones") {
        rolls.push((top, Whose::Roller, false));
    }
    for (key, part) in top {
        if key == "assistants"
            && let Value::Array(each) = part
        {
            let names = top.get(ASSISTANT_NAMES).and_then(Value::as_array);
            for (i, roll) in each.iter().enumerate() {
                let name = names.and_then(|n| n.get(i)).and_then(Value::as_str);
                rolls.extend(dice_rolls(roll).map(|r| (r, Whose::Other(name), false)));
            }
            continue;
        }
        if !OTHER_SIDE.contains(&key.as_str()) {
            rolls.extend(dice_rolls(part).map(|r| (r, Whose::Roller, false)));
        }
    }
    // Then the other side's, in the order they are rolled (the map's order is alphabetical).
    // A soak an Edge press rolled (the attack hit only after it) is that press's own roll.
    for part in OTHER_SIDE.iter().filter_map(|k| top.get(*k)) {
        let by_press = part.get(SOAK_ROLLED_BY_PRESS) == Some(&Value::Bool(true));
        rolls.extend(dice_rolls(part).map(|r| (r, Whose::Other(target), by_press)));
    }
    // A row an Edge press made logs the whole result again: only the roll it changed is new,
    // and only a glitch that roll did not show at first (the first row counted that one).
    let pressed: Vec<Option<PoolRoll>> = rolls
        .iter()
        .map(|(r, _, _)| {
            // Read whole only when the JSON shows a press: most rows have none.
            edge_after_shown(r)
                .then(|| serde_json::from_value::<PoolRoll>(Value::Object((*r).clone())).ok())
                .flatten()
                .filter(PoolRoll::edge_after_used)
        })
        .collect();
    let press_row = pressed.iter().any(Option::is_some);
    rolls
        .into_iter()
        .zip(pressed)
        .filter_map(|((roll, whose, rolled_by_press), pressed)| {
            let glitch = text(roll, "glitch")?;
            if press_row && !rolled_by_press {
                let p = pressed?;
                if p.glitch == Glitch::None || p.glitch == p.first_glitch() {
                    return None;
                }
            }
            let kind = match glitch {
                "critical" => CRITICAL_GLITCH,
                "glitch" => GLITCH,
                _ => return None,
            };
            Some(match whose {
                Whose::Roller => Moment::of(kind),
                Whose::Other(name) => Moment::of_other(kind, name),
            })
        })
        .collect()
}

/// Whether a roll's JSON shows Edge spent after it (see `PoolRoll::edge_after_used`).
fn edge_after_shown(roll: &Map<String, Value>) -> bool {
    roll.get("negated").is_some_and(|v| !v.is_null())
        || roll.get("critical_success") == Some(&Value::Bool(true))
        || roll.get("dice").and_then(Value::as_array).is_some_and(|dice| {
            dice.iter().any(|d| {
                matches!(
                    d.get("source").and_then(Value::as_str),
                    Some("edge_added" | "second_chance")
                )
            })
        })
}

/// Whose dice a roll is: the roller's, or the other side's (named, or the opposition's).
#[derive(Clone, Copy)]
enum Whose<'a> {
    Roller,
    Other(Option<&'a str>),
}

/// The die rolls in `part`: objects with their `ones`.
fn dice_rolls(part: &Value) -> impl Iterator<Item = &Map<String, Value>> {
    objects(part).into_iter().filter(|m| m.contains_key("ones"))
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

    /// Dice the roller did not throw for themself are the other side's: the defender's (by the
    /// name logged beside the outcome), an assistant's, or the opposition's (no name).
    #[test]
    fn the_other_sides_glitches_are_theirs() {
        let roll = |glitch: &str, ones: u32| json!({"roll": {"glitch": glitch, "ones": ones}});
        let attack = json!({
            "attack": roll("none", 0),
            "defence": roll("critical", 3),
            "damage": {"soak": roll("glitch", 2)},
            "target_name": "Bob",
        });
        assert_eq!(
            of(&attack),
            vec![
                Moment::of_other(CRITICAL_GLITCH, Some("Bob")),
                Moment::of_other(GLITCH, Some("Bob"))
            ]
        );
        let summon = json!({"summon": roll("glitch", 2), "spirit": roll("critical", 3)});
        assert_eq!(
            of(&summon),
            vec![Moment::of(GLITCH), Moment::of_other(CRITICAL_GLITCH, None)]
        );
        let teamwork = json!({
            "leader": {"rolled": roll("none", 0)},
            "assistants": [roll("glitch", 1), roll("none", 0), roll("critical", 2)],
            "assistant_names": ["Ana", "Cy", "Dee"],
        });
        assert_eq!(
            of(&teamwork),
            vec![
                Moment::of_other(GLITCH, Some("Ana")),
                Moment::of_other(CRITICAL_GLITCH, Some("Dee"))
            ]
        );
    }

    /// A row an Edge press made logs every roll again: only a glitch the pressed roll did not
    /// show at first is told (the first row told the rest).
    #[test]
    fn a_press_row_tells_only_a_glitch_its_dice_made() {
        use engine::dice::FixedRoller;
        use engine::systems::shadowrun4::EdgeAfter;
        use engine::systems::shadowrun4::dice::roll_pool;
        let pool = |faces: &[u32]| {
            roll_pool(
                faces.len() as u32,
                false,
                &mut FixedRoller::new(faces.iter().copied()),
            )
            .unwrap()
        };
        let glitched_attack = serde_json::to_value(pool(&[1, 1, 5])).unwrap();
        let row = |defence: &PoolRoll| json!({"attack": {"roll": glitched_attack}, "defence": {"roll": defence}, "target_name": "Bob"});
        let first = pool(&[1, 2, 3, 4]);
        assert_eq!(of(&row(&first)), vec![Moment::of(GLITCH)], "the first row");
        // Second chance on the defence rolls no 1: nothing new (the attack's glitch was told).
        let rerolled = first
            .with_edge_after(EdgeAfter::SecondChance, &mut FixedRoller::new([5, 2, 3, 4]))
            .unwrap();
        assert_eq!(of(&row(&rerolled)), vec![]);
        // Edge dice showing 1s turn the defence into a critical glitch: that one is new.
        let added = first
            .with_edge_after(EdgeAfter::AddDice { edge: 2 }, &mut FixedRoller::new([1, 1]))
            .unwrap();
        assert_eq!(
            of(&row(&added)),
            vec![Moment::of_other(CRITICAL_GLITCH, Some("Bob"))]
        );
        // A glitch Edge negated is not told again.
        let negated = pool(&[1, 1, 2])
            .with_edge_after(EdgeAfter::NegateGlitch, &mut FixedRoller::new([]))
            .unwrap();
        assert_eq!(of(&row(&negated)), vec![]);
        // The attacker's Edge turned a miss into a hit: the soak is that press's roll, and
        // its glitch is told with it.
        let pressed_attack = pool(&[1, 2, 3])
            .with_edge_after(EdgeAfter::SecondChance, &mut FixedRoller::new([5, 5, 2]))
            .unwrap();
        let soak = serde_json::to_value(pool(&[1, 1, 6])).unwrap();
        let hit_after_press = json!({
            "attack": {"roll": pressed_attack},
            "damage": {"soak": {"roll": soak}, "soak_rolled_by_press": true},
            "target_name": "Bob",
        });
        assert_eq!(of(&hit_after_press), vec![Moment::of_other(GLITCH, Some("Bob"))]);
        let soak_kept = json!({
            "attack": {"roll": pressed_attack},
            "damage": {"soak": {"roll": soak}},
            "target_name": "Bob",
        });
        assert_eq!(
            of(&soak_kept),
            vec![],
            "a soak rolled before the press was told then"
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
                json!({"glitch": "critical", "rolled": {"roll": {"glitch": "critical", "ones": 3}}}),
                json!({"attacker": {"roll": {"glitch": "glitch", "ones": 2}}, "defender": {"roll": {"glitch": "none", "ones": 0}}}),
            ],
        );
    }
}
