//! Initiative with passes and the decisions' tie order, the Edge uses on initiative, and
//! surprise (seed 3.1, 3.3, 2).

use serde::{Deserialize, Serialize};

use super::character::{Attribute, Character, to_i32};
use super::dice::MAX_EDGE;
use super::error::{Quantity, RuleError, check_range};
use super::pool::{DicePool, PartSource};
use super::test_kinds::{EdgeBefore, RollSpec, Rolled, hits_of, roll_or_nothing};
use crate::dice::Roller;

pub const MAX_COMBATANTS: usize = 50;
/// Roll-off rounds before equal combatants keep the order they were given in.
pub const MAX_ROLL_OFF_ROUNDS: usize = 10;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Combatant {
    pub name: String,
    /// The Initiative attribute.
    pub initiative: u32,
    pub edge: u32,
    #[serde(default = "one")]
    pub passes: u32,
    /// Extra dice on the initiative test (wounds, for instance).
    #[serde(default)]
    pub modifier: i32,
    /// Spells and threads sustained: −2 dice each on the initiative test, as on every test
    /// (decisions "Magic and resonance").
    #[serde(default)]
    pub sustained: u32,
    /// Edge before the initiative roll (the caller spends the point).
    #[serde(default)]
    pub push_the_limit: bool,
}

fn one() -> u32 {
    1
}

impl Combatant {
    /// From a sheet: its Initiative, Edge, passes, its wound modifier and its sustaining
    /// penalty on the pool.
    pub fn from_sheet(c: &Character) -> Combatant {
        Combatant {
            name: c.name.clone(),
            initiative: c.attribute(Attribute::Initiative),
            edge: c.attributes.edge,
            passes: c.passes,
            modifier: c.wound_modifier(),
            sustained: c.sustained,
            push_the_limit: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InitiativeEntry {
    pub name: String,
    pub initiative: u32,
    pub edge: u32,
    pub passes: u32,
    pub roll: Option<Rolled>,
    pub hits: u32,
    /// Initiative + hits.
    pub score: u32,
    /// d6s rolled to break a full tie, in rounds.
    pub roll_off: Vec<u32>,
}

/// The session's initiative: order, turn and pass, and this turn's Edge uses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InitiativeState {
    pub turn: u32,
    pub pass: u32,
    /// Everyone, in initiative order.
    pub entries: Vec<InitiativeEntry>,
    /// Who took an extra pass with Edge this turn.
    pub extra_pass: Vec<String>,
    /// Who spent Edge to act first in the current pass, in the order they did.
    pub acting_first: Vec<String>,
}

/// Seed 3.1 step 1: score = Initiative + hits (pool = Initiative). Order by score, then
/// Edge, then Initiative, then a roll-off (decisions "Initiative").
pub fn roll_initiative(
    combatants: &[Combatant],
    roller: &mut impl Roller,
) -> Result<InitiativeState, RuleError> {
    check_range(Quantity::Count, combatants.len() as i64, 1, MAX_COMBATANTS as i64)?;
    // Check everyone before any die is rolled.
    for (i, c) in combatants.iter().enumerate() {
        if combatants[..i].iter().any(|o| o.name == c.name) {
            return Err(RuleError::DuplicateCombatant { name: c.name.clone() });
        }
        check_range(
            Quantity::Attribute,
            i64::from(c.initiative),
            0,
            i64::from(super::character::MAX_INITIATIVE),
        )?;
        check_range(Quantity::Edge, i64::from(c.edge), 0, i64::from(MAX_EDGE))?;
        check_range(Quantity::Passes, i64::from(c.passes), 1, 4)?;
        check_range(Quantity::SustainedEffects, i64::from(c.sustained), 0, 20)?;
    }
    let mut entries = Vec::with_capacity(combatants.len());
    for c in combatants {
        let mut pool = DicePool::default()
            .with(
                PartSource::Attribute {
                    attribute: Attribute::Initiative,
                },
                to_i32(c.initiative),
            )
            .with(PartSource::Wounds, c.modifier);
        if c.sustained > 0 {
            pool = pool.with(
                PartSource::Sustaining { count: c.sustained },
                to_i32(c.sustained).saturating_mul(-2),
            );
        }
        let spec = RollSpec {
            pool,
            edge: c
                .push_the_limit
                .then_some(EdgeBefore::PushTheLimit { edge: c.edge }),
            retry: 0,
        };
        let roll = roll_or_nothing(&spec, roller)?;
        let hits = hits_of(&roll);
        entries.push(InitiativeEntry {
            name: c.name.clone(),
            initiative: c.initiative,
            edge: c.edge,
            passes: c.passes,
            roll,
            hits,
            score: c.initiative + hits,
            roll_off: Vec::new(),
        });
    }
    let key = |e: &InitiativeEntry| (e.score, e.edge, e.initiative);
    // Stable sort: equal keys keep input order until the roll-off decides.
    entries.sort_by_key(|e| std::cmp::Reverse(key(e)));
    let mut i = 0;
    while i < entries.len() {
        let mut j = i + 1;
        while j < entries.len() && key(&entries[j]) == key(&entries[i]) {
            j += 1;
        }
        if j - i > 1 {
            roll_off(&mut entries[i..j], roller, 0)?;
        }
        i = j;
    }
    Ok(InitiativeState {
        turn: 1,
        pass: 1,
        entries,
        extra_pass: Vec::new(),
        acting_first: Vec::new(),
    })
}

/// Each tied combatant rolls a d6, highest first; those still equal roll again.
fn roll_off(group: &mut [InitiativeEntry], roller: &mut impl Roller, round: usize) -> Result<(), RuleError> {
    if group.len() < 2 || round >= MAX_ROLL_OFF_ROUNDS {
        return Ok(());
    }
    for e in group.iter_mut() {
        e.roll_off.push(roller.roll(6)?);
    }
    group.sort_by_key(|e| std::cmp::Reverse(e.roll_off[round]));
    let mut i = 0;
    while i < group.len() {
        let mut j = i + 1;
        while j < group.len() && group[j].roll_off[round] == group[i].roll_off[round] {
            j += 1;
        }
        roll_off(&mut group[i..j], roller, round + 1)?;
        i = j;
    }
    Ok(())
}

impl InitiativeState {
    fn entry(&self, name: &str) -> Result<&InitiativeEntry, RuleError> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| RuleError::UnknownCombatant {
                name: name.to_string(),
            })
    }

    /// Passes this turn, the Edge extra pass included.
    pub fn passes_of(&self, e: &InitiativeEntry) -> u32 {
        e.passes + u32::from(self.extra_pass.contains(&e.name))
    }

    /// Who acts in the current pass, in order: those who spent Edge to go first (among
    /// themselves in initiative order, seed 2), then everyone else with a pass left.
    pub fn order(&self) -> Vec<&InitiativeEntry> {
        let active: Vec<&InitiativeEntry> = self
            .entries
            .iter()
            .filter(|e| self.passes_of(e) >= self.pass)
            .collect();
        let (mut first, rest): (Vec<_>, Vec<_>) = active
            .into_iter()
            .partition(|e| self.acting_first.contains(&e.name));
        first.extend(rest);
        first
    }

    /// Seed 2: spend Edge to act first in this pass (the caller spends the point).
    pub fn seize_first(&self, name: &str) -> Result<InitiativeState, RuleError> {
        let e = self.entry(name)?;
        if self.passes_of(e) < self.pass {
            return Err(RuleError::NoPassLeft);
        }
        let mut next = self.clone();
        if !next.acting_first.iter().any(|n| n == name) {
            next.acting_first.push(name.to_string());
        }
        Ok(next)
    }

    /// Seed 2: one extra pass per combat turn for a point of Edge.
    pub fn extra_pass(&self, name: &str) -> Result<InitiativeState, RuleError> {
        self.entry(name)?;
        if self.extra_pass.iter().any(|n| n == name) {
            return Err(RuleError::ExtraPassAlreadyUsed {
                name: name.to_string(),
            });
        }
        let mut next = self.clone();
        next.extra_pass.push(name.to_string());
        Ok(next)
    }

    /// Seed 3.1 step 4: the next pass, for those who have one. When nobody does, the turn is
    /// over: roll a new turn with [`InitiativeState::next_turn`].
    pub fn next_pass(&self) -> Result<InitiativeState, RuleError> {
        let pass = self.pass + 1;
        if !self.entries.iter().any(|e| self.passes_of(e) >= pass) {
            return Err(RuleError::NoPassLeft);
        }
        let mut next = self.clone();
        next.pass = pass;
        next.acting_first.clear();
        Ok(next)
    }

    /// Seed 3.1 steps 4–5 with seed 2's extra pass: the next pass of this turn, with the extra
    /// passes bought now (`extra`, entry names) — one of which may itself be that next pass.
    /// `None` when the turn is over: roll a new one with [`InitiativeState::next_turn`].
    pub fn advance(&self, extra: &[String]) -> Result<Option<InitiativeState>, RuleError> {
        let with_extra = |s: InitiativeState| extra.iter().try_fold(s, |s, n| s.extra_pass(n));
        match self.next_pass() {
            Ok(next) => with_extra(next).map(Some),
            Err(RuleError::NoPassLeft) if !extra.is_empty() => {
                Ok(with_extra(self.clone()).ok().and_then(|s| s.next_pass().ok()))
            }
            Err(RuleError::NoPassLeft) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Seed 3.1 step 5: a new combat turn rolls initiative again.
    pub fn next_turn(
        &self,
        combatants: &[Combatant],
        roller: &mut impl Roller,
    ) -> Result<InitiativeState, RuleError> {
        let mut next = roll_initiative(combatants, roller)?;
        next.turn = self.turn.saturating_add(1);
        Ok(next)
    }
}

// ---------------------------------------------------------------- surprise

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurpriseParticipant {
    pub name: String,
    /// Intuition + Reaction, plus `other.surprise_aware` (+3) or `other.surprise_ambush` (+6).
    pub pool: RollSpec,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SurpriseRoll {
    pub name: String,
    pub roll: Option<Rolled>,
    pub hits: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Surprised {
    pub surprised: String,
    pub by: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SurpriseOutcome {
    pub rolls: Vec<SurpriseRoll>,
    /// Every pair where one side had more hits: the other cannot act directly against it.
    pub surprised: Vec<Surprised>,
}

/// Seed 3.3: everyone rolls Intuition + Reaction; whoever has more hits surprises the other.
pub fn surprise(
    participants: &[SurpriseParticipant],
    roller: &mut impl Roller,
) -> Result<SurpriseOutcome, RuleError> {
    check_range(
        Quantity::Count,
        participants.len() as i64,
        1,
        MAX_COMBATANTS as i64,
    )?;
    let mut rolls = Vec::with_capacity(participants.len());
    for p in participants {
        let roll = roll_or_nothing(&p.pool, roller)?;
        rolls.push(SurpriseRoll {
            name: p.name.clone(),
            hits: hits_of(&roll),
            roll,
        });
    }
    let mut surprised = Vec::new();
    for a in &rolls {
        for b in &rolls {
            if b.hits > a.hits {
                surprised.push(Surprised {
                    surprised: a.name.clone(),
                    by: b.name.clone(),
                });
            }
        }
    }
    Ok(SurpriseOutcome { rolls, surprised })
}

/// A surprise pool from a sheet: Intuition + Reaction ± wounds, +3 aware, +6 in ambush.
pub fn surprise_pool(c: &Character, aware: bool, ambush: bool) -> Result<RollSpec, RuleError> {
    use super::modifiers::PresetChoice;
    let mut presets = Vec::new();
    if aware {
        presets.push(PresetChoice::new("other.surprise_aware"));
    }
    if ambush {
        presets.push(PresetChoice::new("other.surprise_ambush"));
    }
    Ok(RollSpec::new(c.attribute_pool(
        Attribute::Intuition,
        Attribute::Reaction,
        &presets,
    )?))
}

#[cfg(test)]
mod unit {
    use super::*;
    use crate::dice::FixedRoller;

    fn fixed(f: &[u32]) -> FixedRoller {
        FixedRoller::new(f.iter().copied())
    }

    fn c(name: &str, initiative: u32, edge: u32, passes: u32) -> Combatant {
        Combatant {
            name: name.into(),
            initiative,
            edge,
            passes,
            modifier: 0,
            sustained: 0,
            push_the_limit: false,
        }
    }

    fn names(s: &InitiativeState) -> Vec<&str> {
        s.order().iter().map(|e| e.name.as_str()).collect()
    }

    #[test]
    fn score_orders_then_edge_then_initiative() {
        // A: 2 dice, 1 hit → 3. B: 3 dice, 0 hits → 3, more Initiative. C: 2 dice, 1 hit → 3, Edge 4.
        let list = [c("A", 2, 2, 1), c("B", 3, 2, 1), c("C", 2, 4, 1)];
        let s = roll_initiative(&list, &mut fixed(&[5, 2, 2, 2, 2, 6, 1])).unwrap();
        assert_eq!(
            s.entries.iter().map(|e| e.score).collect::<Vec<_>>(),
            vec![3, 3, 3]
        );
        // C (Edge 4) first, then B (Initiative 3 beats 2 at equal Edge), then A.
        assert_eq!(names(&s), vec!["C", "B", "A"]);
    }

    #[test]
    fn full_ties_are_rolled_off() {
        let list = [c("A", 1, 1, 1), c("B", 1, 1, 1)];
        // Both roll 2 (0 hits); roll-off A 3, B 5 → B first.
        let s = roll_initiative(&list, &mut fixed(&[2, 2, 3, 5])).unwrap();
        assert_eq!(names(&s), vec!["B", "A"]);
        // Roll-off tie, then A 6, B 1.
        let s = roll_initiative(&list, &mut fixed(&[2, 2, 4, 4, 6, 1])).unwrap();
        assert_eq!(names(&s), vec!["A", "B"]);
        assert_eq!(s.entries[0].roll_off, vec![4, 6]);
    }

    #[test]
    fn passes_extra_pass_and_acting_first() {
        let list = [c("Fast", 1, 1, 2), c("Slow", 1, 3, 1)];
        let s = roll_initiative(&list, &mut fixed(&[5, 2])).unwrap();
        assert_eq!(names(&s), vec!["Fast", "Slow"]);
        let s = s.seize_first("Slow").unwrap();
        assert_eq!(names(&s), vec!["Slow", "Fast"]);
        let p2 = s.next_pass().unwrap();
        assert_eq!(names(&p2), vec!["Fast"]);
        assert_eq!(p2.next_pass(), Err(RuleError::NoPassLeft));
        let extra = p2.extra_pass("Slow").unwrap();
        assert_eq!(names(&extra), vec!["Fast", "Slow"]);
        assert!(matches!(
            extra.extra_pass("Slow"),
            Err(RuleError::ExtraPassAlreadyUsed { .. })
        ));
        assert!(matches!(
            extra.seize_first("Nobody"),
            Err(RuleError::UnknownCombatant { .. })
        ));
        let t2 = extra.next_turn(&list, &mut fixed(&[2, 2])).unwrap();
        assert_eq!((t2.turn, t2.pass, t2.extra_pass.len()), (2, 1, 0));
    }

    #[test]
    fn duplicates_and_empty_lists_are_errors() {
        assert!(matches!(
            roll_initiative(&[c("A", 1, 1, 1), c("A", 2, 1, 1)], &mut fixed(&[])),
            Err(RuleError::DuplicateCombatant { .. })
        ));
        assert!(roll_initiative(&[], &mut fixed(&[])).is_err());
    }

    #[test]
    fn surprise_goes_to_more_hits() {
        let p = |n: &str, d: i32| SurpriseParticipant {
            name: n.into(),
            pool: RollSpec::dice(d),
        };
        let o = surprise(&[p("Guard", 2), p("Runner", 2)], &mut fixed(&[2, 2, 5, 2])).unwrap();
        assert_eq!(
            o.surprised,
            vec![Surprised {
                surprised: "Guard".into(),
                by: "Runner".into()
            }]
        );
        let even = surprise(&[p("Guard", 1), p("Runner", 1)], &mut fixed(&[5, 5])).unwrap();
        assert!(even.surprised.is_empty());
    }
}
