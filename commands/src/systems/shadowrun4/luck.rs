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

/// One roll's part: the pool measured (none when every die is already on the table) and the
/// hits fixed before it (the dice a press kept, or all of them in a press's row that rolled
/// none here).
fn side(roll: &PoolRoll, press: bool) -> (Option<SrPool>, i64) {
    let hits = |dice: &[engine::systems::shadowrun4::dice::Die]| {
        dice.iter().filter(|d| !d.replaced && d.is_hit()).count() as i64
    };
    let pool = |dice: usize, rule_of_six: bool| SrPool {
        dice: dice as u32,
        rule_of_six,
        opposing: false,
        cap: None,
    };
    match pressed_at(roll) {
        // The press's dice are the roll; what stood before it is fixed.
        Some((at, source)) => (
            Some(pool(
                roll.dice.iter().filter(|d| d.source == source).count(),
                source == DieSource::EdgeAdded,
            )),
            hits(&roll.dice[..at]),
        ),
        None if press => (None, i64::from(roll.hits)),
        None => (
            Some(pool(
                roll.dice.iter().filter(|d| d.source == DieSource::Pool).count(),
                roll.rule_of_six,
            )),
            0,
        ),
    }
}

/// Every pool and fixed hit of one side, summed (the opposing side's subtracted), at most `cap`
/// hits counted on the actor's side.
struct Parts {
    pools: Vec<SrPool>,
    fixed: i64,
}

impl Parts {
    fn add(&mut self, (pool, fixed): (Option<SrPool>, i64), opposing: bool, cap: Option<u32>) {
        let (fixed, cap) = match cap {
            // The hits already kept use up the cap first; the pool may add the rest.
            Some(c) => {
                let kept = fixed.min(i64::from(c));
                (kept, Some(c - kept as u32))
            }
            None => (fixed, None),
        };
        self.fixed += if opposing { -fixed } else { fixed };
        if let Some(p) = pool {
            self.pools.push(SrPool { opposing, cap, ..p });
        }
    }

    fn input(self, observed: i64) -> Option<LuckInput> {
        // Nothing rolled in this row: no luck of its own.
        (!self.pools.is_empty()).then_some(LuckInput {
            roll: LuckRoll::Shadowrun4 {
                pools: self.pools,
                fixed: self.fixed,
            },
            observed,
        })
    }
}

/// The luck of the actor's roll, against the opponent's roll or a fixed number of hits.
pub fn of(actor: &Rolled, opponent: Option<&Rolled>, opponent_hits: u32) -> Option<LuckInput> {
    capped(actor, None, opponent, opponent_hits)
}

/// [`of`], with at most `cap` of the actor's hits counting (a spell's Force).
pub fn capped(
    actor: &Rolled,
    cap: Option<u32>,
    opponent: Option<&Rolled>,
    opponent_hits: u32,
) -> Option<LuckInput> {
    let (a, o) = (&actor.roll, opponent.map(|r| &r.roll));
    let press = a.edge_after_used() || o.is_some_and(PoolRoll::edge_after_used);
    if press && pressed_at(a).is_none() && o.and_then(pressed_at).is_none() {
        return None;
    }
    let mut parts = Parts {
        pools: Vec::new(),
        fixed: 0,
    };
    parts.add(side(a, press), false, cap);
    match o {
        Some(o) => parts.add(side(o, press), true, None),
        None => parts.fixed -= i64::from(opponent_hits),
    }
    let hits = cap.map_or(a.hits, |c| a.hits.min(c));
    let observed = i64::from(hits) - o.map_or(i64::from(opponent_hits), |o| i64::from(o.hits));
    parts.input(observed)
}

/// The luck of several rolls whose hits add up (an extended test's intervals, everyone's
/// initiative), less the hits of `theirs` (the other side of a race). In a press's row the
/// rolls before the pressed one are on the table already: only the press's dice and the rolls
/// that followed it are measured.
pub fn summed(mine: &[&PoolRoll], theirs: &[&PoolRoll]) -> Option<LuckInput> {
    let pressed = mine.iter().position(|r| r.edge_after_used());
    let mut parts = Parts {
        pools: Vec::new(),
        fixed: 0,
    };
    for (i, r) in mine.iter().enumerate() {
        match pressed {
            Some(p) if i < p => parts.fixed += i64::from(r.hits),
            Some(p) => parts.add(side(r, i == p), false, None),
            None => parts.add(side(r, false), false, None),
        }
    }
    for r in theirs {
        parts.add(side(r, false), true, None);
    }
    let total = |rs: &[&PoolRoll]| rs.iter().map(|r| i64::from(r.hits)).sum::<i64>();
    parts.input(total(mine) - total(theirs))
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
            cap: None,
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

#[cfg(test)]
#[path = "luck_tests.rs"]
mod outcomes;
