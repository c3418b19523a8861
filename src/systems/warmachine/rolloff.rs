//! The dispute roll-off (items 1–3, WG-4): every player taking part rolls a d6, the highest
//! decides, and only the tied leaders roll again; every round is kept for display.

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, check_range, text};
use crate::dice::Roller;

/// Most players in one roll-off.
pub const MAX_PLAYERS: usize = 16;
/// Rounds before giving up (a fair d6 ties this often about never).
pub const MAX_ROUNDS: u32 = 50;
pub const MAX_QUESTION_CHARS: usize = 200;

/// A player by number (1, 2, … in the order given) and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Numbered {
    pub number: u32,
    pub name: String,
}

/// One player's die in one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOffDie {
    pub player: u32,
    pub value: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOffOutcome {
    pub question: String,
    pub players: Vec<Numbered>,
    /// Every round; from the second on, only the tied leaders of the round before.
    pub rounds: Vec<Vec<RollOffDie>>,
    pub winner: Numbered,
}

/// Check the player list: 2 to [`MAX_PLAYERS`] distinct, non-empty names.
pub fn number_players(players: &[String]) -> Result<Vec<Numbered>, RuleError> {
    check_range(Quantity::Players, players.len() as i64, 2, MAX_PLAYERS as i64)?;
    let mut out: Vec<Numbered> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        let name = p.trim();
        if name.is_empty() {
            return Err(RuleError::EmptyPlayer);
        }
        if out.iter().any(|n| n.name.eq_ignore_ascii_case(name)) {
            return Err(RuleError::DuplicatePlayer { name: name.into() });
        }
        out.push(Numbered {
            number: i as u32 + 1,
            name: name.into(),
        });
    }
    Ok(out)
}

/// Roll off between `players` over `question`.
pub fn roll_off(
    question: &str,
    players: &[String],
    roller: &mut impl Roller,
) -> Result<RollOffOutcome, RuleError> {
    let question = text("question", question, MAX_QUESTION_CHARS)?;
    let numbered = number_players(players)?;
    let mut in_play: Vec<u32> = numbered.iter().map(|n| n.number).collect();
    let mut rounds = Vec::new();
    while in_play.len() > 1 {
        if rounds.len() as u32 >= MAX_ROUNDS {
            return Err(RuleError::RollOffUnresolved { rounds: MAX_ROUNDS });
        }
        let faces = roller.roll_many(in_play.len(), 6)?;
        let round: Vec<RollOffDie> = in_play
            .iter()
            .zip(faces)
            .map(|(&player, value)| RollOffDie { player, value })
            .collect();
        let top = round.iter().map(|d| d.value).max().unwrap_or(0);
        in_play = round
            .iter()
            .filter(|d| d.value == top)
            .map(|d| d.player)
            .collect();
        rounds.push(round);
    }
    let winner = numbered
        .iter()
        .find(|n| Some(&n.number) == in_play.first())
        .cloned()
        .ok_or(RuleError::RollOffUnresolved {
            rounds: rounds.len() as u32,
        })?;
    Ok(RollOffOutcome {
        question,
        players: numbered,
        rounds,
        winner,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{DiceError, FixedRoller, SeededRoller};

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_highest_wins_in_one_round() {
        let r = roll_off(
            "LOS to the Stalker?",
            &names(&["Ana", "Ben"]),
            &mut FixedRoller::new(vec![2, 5]),
        )
        .unwrap();
        assert_eq!(r.rounds.len(), 1);
        assert_eq!(
            r.winner,
            Numbered {
                number: 2,
                name: "Ben".into()
            }
        );
    }

    #[test]
    fn only_tied_leaders_reroll_three_rounds_running() {
        // Three players; Ana and Cai tie on 6 (Ben is out), tie again on 3, and again on 1,
        // then Cai wins. Every round is kept.
        let mut dice = FixedRoller::new(vec![6, 2, 6, 3, 3, 1, 1, 2, 5]);
        let r = roll_off("Is the wall a forest?", &names(&["Ana", "Ben", "Cai"]), &mut dice).unwrap();
        assert_eq!(r.rounds.len(), 4);
        assert_eq!(r.rounds[0].len(), 3);
        for round in &r.rounds[1..] {
            assert_eq!(round.iter().map(|d| d.player).collect::<Vec<_>>(), vec![1, 3]);
        }
        assert_eq!(
            r.rounds[3],
            vec![
                RollOffDie { player: 1, value: 2 },
                RollOffDie { player: 3, value: 5 }
            ]
        );
        assert_eq!(r.winner.name, "Cai");
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn more_than_two_players_take_part() {
        let r = roll_off(
            "?",
            &names(&["A", "B", "C", "D"]),
            &mut FixedRoller::new(vec![1, 2, 6, 4]),
        )
        .unwrap();
        assert_eq!(r.winner.number, 3);
    }

    #[test]
    fn bad_roll_offs_are_refused_before_rolling() {
        let mut dice = FixedRoller::new(vec![1, 2]);
        assert!(matches!(
            roll_off("?", &names(&["Ana"]), &mut dice),
            Err(RuleError::OutOfRange {
                what: Quantity::Players,
                ..
            })
        ));
        assert!(matches!(
            roll_off("?", &names(&["Ana", "ana"]), &mut dice),
            Err(RuleError::DuplicatePlayer { .. })
        ));
        assert_eq!(
            roll_off("?", &names(&["Ana", " "]), &mut dice),
            Err(RuleError::EmptyPlayer)
        );
        assert!(matches!(
            roll_off(" ", &names(&["A", "B"]), &mut dice),
            Err(RuleError::EmptyText { .. })
        ));
        assert_eq!(dice.remaining(), 2);
        // Dice that run out mid-tie are an error, not a winner.
        let mut tied = FixedRoller::new(vec![4, 4]);
        assert_eq!(
            roll_off("?", &names(&["A", "B"]), &mut tied),
            Err(RuleError::Dice(DiceError::FixedExhausted { rolled: 2 }))
        );
    }

    #[test]
    fn endless_ties_stop_with_an_error() {
        let mut dice = FixedRoller::new(vec![3; 2 * MAX_ROUNDS as usize + 2]);
        assert_eq!(
            roll_off("?", &names(&["A", "B"]), &mut dice),
            Err(RuleError::RollOffUnresolved { rounds: MAX_ROUNDS })
        );
    }

    #[test]
    fn seeded_roll_offs_always_name_one_leader() {
        let mut r = SeededRoller::from_seed(9);
        for _ in 0..200 {
            let out = roll_off("?", &names(&["A", "B", "C"]), &mut r).unwrap();
            let last = out.rounds.last().unwrap();
            let top = last.iter().map(|d| d.value).max().unwrap();
            assert_eq!(last.iter().filter(|d| d.value == top).count(), 1);
            assert_eq!(
                last.iter().find(|d| d.value == top).unwrap().player,
                out.winner.number
            );
        }
    }
}
