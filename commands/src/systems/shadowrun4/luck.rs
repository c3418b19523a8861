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
