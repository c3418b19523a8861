//! The dice of the game: the ladder D4 < … < D20 and degrading (items 1–2), the Fate die
//! (items 3–4) and the tactical roll-off (items 5–6, TG-3).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::error::{Quantity, RuleError, bounded};
use crate::dice::Roller;
use crate::i18n::Lang;

/// A die of the ladder (L89–91). Every skill, power and resolution is one of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Die {
    D4,
    D6,
    D8,
    D10,
    D12,
    D20,
}

impl Die {
    /// The ladder, lowest first.
    pub const LADDER: [Die; 6] = [Die::D4, Die::D6, Die::D8, Die::D10, Die::D12, Die::D20];

    pub fn sides(self) -> u32 {
        match self {
            Die::D4 => 4,
            Die::D6 => 6,
            Die::D8 => 8,
            Die::D10 => 10,
            Die::D12 => 12,
            Die::D20 => 20,
        }
    }

    /// One step down the ladder (D20 → D12, the seed's example); D4 stays D4 (item 2).
    pub fn degrade(self) -> Die {
        let i = Die::LADDER.iter().position(|&d| d == self).unwrap_or(0);
        Die::LADDER[i.saturating_sub(1)]
    }

    /// `d8`, `D8`, `8`, full-width `Ｄ８`; anything else is not a ladder die.
    pub fn parse(input: &str) -> Result<Die, RuleError> {
        let t: String = input
            .trim()
            .chars()
            .map(|c| match c {
                '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
                'Ｄ' | 'ｄ' => 'd',
                c => c.to_ascii_lowercase(),
            })
            .collect();
        let n = t.strip_prefix('d').unwrap_or(&t);
        Die::LADDER
            .into_iter()
            .find(|d| n.parse::<u32>().ok() == Some(d.sides()))
            .ok_or_else(|| RuleError::UnknownDie {
                input: input.chars().take(20).collect(),
            })
    }
}

impl fmt::Display for Die {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "D{}", self.sides())
    }
}

/// `count` dice of one ladder size, each compared with an optional target (the `/term roll`
/// command: a raw ladder roll).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LadderRoll {
    pub die: Die,
    pub faces: Vec<u32>,
    pub target: Option<u32>,
    /// Dice at or above the target (0 without one).
    pub successes: u32,
}

pub const MAX_LADDER_DICE: usize = 50;

pub fn roll_ladder(
    die: Die,
    count: usize,
    target: Option<u32>,
    roller: &mut impl Roller,
) -> Result<LadderRoll, RuleError> {
    bounded(Quantity::DiceCount, count as i64, 1, MAX_LADDER_DICE as i64)?;
    let faces = roller.roll_many(count, die.sides())?;
    let successes = target.map_or(0, |t| faces.iter().filter(|&&f| f >= t).count() as u32);
    Ok(LadderRoll {
        die,
        faces,
        target,
        successes,
    })
}

/// One face of the Fate die (item 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FateFace {
    One,
    Two,
    Fate,
}

impl FateFace {
    /// How many characters may activate: 1, 2, or none on FATE (a commander then, item 24).
    pub fn activations(self) -> u32 {
        match self {
            FateFace::One => 1,
            FateFace::Two => 2,
            FateFace::Fate => 0,
        }
    }

    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            FateFace::One => "1",
            FateFace::Two => "2",
            FateFace::Fate => lang.pick("FATE", "Fate"),
        }
    }
}

/// The Fate die's six faces (item 4, option `term.fate_faces`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FateDie {
    pub faces: [FateFace; 6],
}

impl Default for FateDie {
    /// 1, 1, 2, 2, FATE, FATE.
    fn default() -> Self {
        use FateFace::*;
        FateDie {
            faces: [One, One, Two, Two, Fate, Fate],
        }
    }
}

impl FateDie {
    /// `1,1,2,2,FATE,FATE` (commas, spaces or `、`; `F`/`FATE`/`フェイト` for FATE).
    pub fn parse(input: &str) -> Result<FateDie, RuleError> {
        let bad = || RuleError::BadFateFaces {
            input: input.chars().take(40).collect(),
        };
        let faces: Vec<FateFace> = input
            .split([',', ' ', '、'])
            .filter(|t| !t.is_empty())
            .map(|t| match t.to_lowercase().as_str() {
                "1" | "１" => Ok(FateFace::One),
                "2" | "２" => Ok(FateFace::Two),
                "f" | "fate" | "フェイト" => Ok(FateFace::Fate),
                _ => Err(bad()),
            })
            .collect::<Result<_, _>>()?;
        let faces: [FateFace; 6] = faces.try_into().map_err(|_| bad())?;
        Ok(FateDie { faces })
    }

    /// Step 1 of an impulse (item 8): one d6 read through the faces.
    pub fn roll(&self, roller: &mut impl Roller) -> Result<FateRoll, RuleError> {
        let face = roller.roll(6)?;
        Ok(FateRoll {
            face,
            result: self.faces[face as usize - 1],
        })
    }
}

/// A Fate roll: the d6 face rolled and what the die shows there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FateRoll {
    pub face: u32,
    pub result: FateFace,
}

/// Most roll-off rounds before giving up (a fixed roller that always ties).
pub const MAX_ROLL_OFF_ROUNDS: u32 = 100;

/// The tactical roll-off (item 5, TG-3): each player rolls the die, ties reroll; the winner
/// takes the Tactical Edge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollOff {
    pub die: Die,
    pub players: [String; 2],
    /// Each round's two faces, in the players' order.
    pub rounds: Vec<[u32; 2]>,
    pub winner: String,
}

pub fn roll_off(die: Die, players: &[String; 2], roller: &mut impl Roller) -> Result<RollOff, RuleError> {
    let mut rounds = Vec::new();
    for _ in 0..MAX_ROLL_OFF_ROUNDS {
        let a = roller.roll(die.sides())?;
        let b = roller.roll(die.sides())?;
        rounds.push([a, b]);
        if a != b {
            let winner = if a > b { &players[0] } else { &players[1] };
            return Ok(RollOff {
                die,
                players: players.clone(),
                rounds,
                winner: winner.clone(),
            });
        }
    }
    Err(RuleError::TiesUnresolved {
        rerolls: MAX_ROLL_OFF_ROUNDS - 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;

    #[test]
    fn the_ladder_degrades_one_step_and_d4_stays() {
        assert_eq!(Die::D20.degrade(), Die::D12, "the seed's example");
        assert_eq!(Die::D12.degrade(), Die::D10);
        assert_eq!(Die::D10.degrade(), Die::D8);
        assert_eq!(Die::D8.degrade(), Die::D6);
        assert_eq!(Die::D6.degrade(), Die::D4);
        assert_eq!(Die::D4.degrade(), Die::D4, "item 2");
        assert!(Die::D4 < Die::D6 && Die::D12 < Die::D20);
        assert_eq!(Die::D10.to_string(), "D10");
    }

    #[test]
    fn dice_parse_in_every_spelling_and_others_are_refused() {
        assert_eq!(Die::parse("d8"), Ok(Die::D8));
        assert_eq!(Die::parse(" D20 "), Ok(Die::D20));
        assert_eq!(Die::parse("12"), Ok(Die::D12));
        assert_eq!(Die::parse("Ｄ１０"), Ok(Die::D10));
        for bad in ["d7", "d100", "", "dd", "2d6"] {
            assert!(
                matches!(Die::parse(bad), Err(RuleError::UnknownDie { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_ladder_roll_counts_dice_at_or_over_its_target() {
        let r = roll_ladder(Die::D8, 3, Some(5), &mut FixedRoller::new([4, 5, 8])).unwrap();
        assert_eq!((r.faces.clone(), r.successes), (vec![4, 5, 8], 2));
        assert!(roll_ladder(Die::D6, 0, None, &mut FixedRoller::new([])).is_err());
        assert!(roll_ladder(Die::D6, 51, None, &mut FixedRoller::new([])).is_err());
        assert!(
            roll_ladder(Die::D4, 1, None, &mut FixedRoller::new([5])).is_err(),
            "a D4 has no 5"
        );
    }

    #[test]
    fn the_fate_die_reads_its_faces() {
        let d = FateDie::default();
        let faces: Vec<FateFace> = (1..=6)
            .map(|f| d.roll(&mut FixedRoller::new([f])).unwrap().result)
            .collect();
        use FateFace::*;
        assert_eq!(faces, [One, One, Two, Two, Fate, Fate]);
        assert_eq!(One.activations() + Two.activations() + Fate.activations(), 3);
        assert_eq!(FateDie::parse("1,1,2,2,FATE,FATE"), Ok(d));
        let custom = FateDie::parse("1 2 2 2 f フェイト").unwrap();
        assert_eq!(custom.faces, [One, Two, Two, Two, Fate, Fate]);
        assert!(FateDie::parse("1,2,3,4,5,6").is_err());
        assert!(FateDie::parse("1,1,2,2,FATE").is_err(), "five faces");
    }

    #[test]
    fn the_roll_off_rerolls_ties_and_gives_up_eventually() {
        let players = ["Resistance".to_string(), "Skynet".to_string()];
        let r = roll_off(Die::D8, &players, &mut FixedRoller::new([5, 5, 2, 8])).unwrap();
        assert_eq!(r.rounds, vec![[5, 5], [2, 8]]);
        assert_eq!(r.winner, "Skynet");
        let r = roll_off(Die::D8, &players, &mut FixedRoller::new([8, 1])).unwrap();
        assert_eq!(r.winner, "Resistance");
        assert!(
            roll_off(Die::D8, &players, &mut FixedRoller::new([9, 1])).is_err(),
            "a D8 has no 9"
        );
        let ties = vec![3; 2 * MAX_ROLL_OFF_ROUNDS as usize];
        assert!(matches!(
            roll_off(Die::D6, &players, &mut FixedRoller::new(ties)),
            Err(RuleError::TiesUnresolved { .. })
        ));
    }
}
