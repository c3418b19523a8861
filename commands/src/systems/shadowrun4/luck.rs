//! What Shadowrun 4 rolls give `/session luck` (issue 28): the hits of each pool, the opposing
//! ones subtracted. A row made by an Edge press measures only the dice that press rolled (the
//! first row already counted the rest); a press that rolled nothing (negate a glitch, burn for a
//! critical success) has no luck of its own.

use engine::odds::{LuckInput, LuckRoll, SrPool};
use engine::systems::shadowrun4::dice::DieSource;
use engine::systems::shadowrun4::{PoolRoll, Rolled};

/// Where the dice an Edge press added start in `roll`, and where they came from.
fn pressed_at(roll: &PoolRoll) -> Option<(usize, DieSource)> {
    let at = roll
        .dice
        .iter()
        .position(|d| matches!(d.source, DieSource::EdgeAdded | DieSource::SecondChance))?;
    Some((at, roll.dice[at].source))
}

/// A row made by an Edge press: dice added after the roll, or a use that rolled nothing.
fn is_press(roll: &PoolRoll) -> bool {
    pressed_at(roll).is_some() || roll.negated.is_some() || roll.critical_success
}

/// One side's pools and the hits it already has on the table (negative for the opposing side).
fn side(roll: &PoolRoll, opposing: bool, press: bool, out: &mut (Vec<SrPool>, i64)) {
    let sign = if opposing { -1 } else { 1 };
    let hits = |dice: &[engine::systems::shadowrun4::dice::Die]| {
        dice.iter().filter(|d| !d.replaced && d.is_hit()).count() as i64
    };
    match pressed_at(roll) {
        // The press's dice are the roll; what stood before it is fixed.
        Some((at, source)) => {
            out.0.push(SrPool {
                dice: roll.dice.iter().filter(|d| d.source == source).count() as u32,
                rule_of_six: source == DieSource::EdgeAdded,
                opposing,
            });
            out.1 += sign * hits(&roll.dice[..at]);
        }
        None if press => out.1 += sign * i64::from(roll.hits),
        None => out.0.push(SrPool {
            dice: roll.dice.iter().filter(|d| d.source == DieSource::Pool).count() as u32,
            rule_of_six: roll.rule_of_six,
            opposing,
        }),
    }
}

/// The luck of the actor's roll, against the opponent's roll or a fixed number of hits.
pub fn of(actor: &Rolled, opponent: Option<&Rolled>, opponent_hits: u32) -> Option<LuckInput> {
    let (a, o) = (&actor.roll, opponent.map(|r| &r.roll));
    let press = is_press(a) || o.is_some_and(is_press);
    if press && pressed_at(a).is_none() && o.and_then(pressed_at).is_none() {
        return None;
    }
    let mut parts = (Vec::new(), 0i64);
    side(a, false, press, &mut parts);
    match o {
        Some(o) => side(o, true, press, &mut parts),
        None => parts.1 -= i64::from(opponent_hits),
    }
    let observed = i64::from(a.hits) - o.map_or(i64::from(opponent_hits), |o| i64::from(o.hits));
    Some(LuckInput {
        roll: LuckRoll::Shadowrun4 {
            pools: parts.0,
            fixed: parts.1,
        },
        observed,
    })
}

#[cfg(test)]
mod tests {
    use engine::dice::FixedRoller;
    use engine::systems::shadowrun4::EdgeAfter;
    use engine::systems::shadowrun4::dice::roll_pool;

    use super::*;

    fn rolled(faces: &[u32]) -> Rolled {
        let roll = roll_pool(
            faces.len() as u32,
            false,
            &mut FixedRoller::new(faces.iter().copied()),
        )
        .unwrap();
        Rolled {
            parts: Vec::new(),
            pool: faces.len() as i64,
            edge: None,
            rolled: faces.len() as u32,
            roll,
        }
    }

    fn press(r: &Rolled, action: EdgeAfter, faces: &[u32]) -> Rolled {
        r.with_edge_after(action, &mut FixedRoller::new(faces.iter().copied()))
            .unwrap()
    }

    fn sr(pools: Vec<SrPool>, fixed: i64, observed: i64) -> Option<LuckInput> {
        Some(LuckInput {
            roll: LuckRoll::Shadowrun4 { pools, fixed },
            observed,
        })
    }

    fn pool(dice: u32, rule_of_six: bool, opposing: bool) -> SrPool {
        SrPool {
            dice,
            rule_of_six,
            opposing,
        }
    }

    #[test]
    fn a_press_measures_only_the_dice_it_rolled() {
        let first = rolled(&[5, 2, 1, 3, 6]);
        assert_eq!(of(&first, None, 0), sr(vec![pool(5, false, false)], 0, 2));
        // Second chance: 2 hits kept, 3 misses rerolled plainly.
        let again = press(&first, EdgeAfter::SecondChance, &[5, 4, 6]);
        assert_eq!(of(&again, None, 0), sr(vec![pool(3, false, false)], 2, 4));
        // Edge dice added after the roll follow the rule of six.
        let added = press(&first, EdgeAfter::AddDice { edge: 2 }, &[6, 1, 5]);
        assert_eq!(of(&added, None, 0), sr(vec![pool(2, true, false)], 2, 4));
        // Against an opponent, the press's row holds the opponent's hits fixed.
        let opp = rolled(&[5, 1]);
        assert_eq!(
            of(&first, Some(&opp), 1),
            sr(vec![pool(5, false, false), pool(2, false, true)], 0, 1)
        );
        assert_eq!(of(&again, Some(&opp), 1), sr(vec![pool(3, false, false)], 1, 3));
        // Negating a glitch rolls nothing: no luck of its own.
        let glitched = rolled(&[1, 1, 5]);
        assert_eq!(of(&press(&glitched, EdgeAfter::NegateGlitch, &[]), None, 0), None);
    }
}
