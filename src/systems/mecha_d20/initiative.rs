//! Initiative (checklist 2, MG-1): 判断力 + 戦術 + d20; the squad with the **lowest** total acts
//! first. In `all_pilots` mode every pilot rolls and a tie is broken by the squads' next-lowest
//! totals (L11); in `leaders` mode only squad leaders roll (L61). Squads still tied reroll.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::check::{Check, Part, Source, roll_check};
use super::error::RuleError;
use super::unit::Unit;
use crate::dice::Roller;
use crate::i18n::Lang;

/// Rerolls before giving up on a tie (fixed dice that always tie, in practice).
pub const MAX_REROLLS: u32 = 20;

/// MG-1 (house option `mecha.initiative_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InitiativeMode {
    #[default]
    AllPilots,
    Leaders,
}

impl InitiativeMode {
    pub fn name(self, lang: Lang) -> &'static str {
        match self {
            InitiativeMode::AllPilots => lang.pick("every pilot rolls", "全パイロットが判定"),
            InitiativeMode::Leaders => lang.pick("squad leaders roll", "隊長機のみ判定"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativePilot {
    pub name: String,
    pub judgement: i64,
    pub tactics: i64,
    #[serde(default)]
    pub leader: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Squad {
    pub name: String,
    pub pilots: Vec<InitiativePilot>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeRequest {
    pub mode: InitiativeMode,
    pub squads: Vec<Squad>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PilotRoll {
    pub squad: String,
    pub pilot: String,
    pub check: Check,
}

/// One round of rolls: the first, then each reroll of squads still tied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeRound {
    pub squads: Vec<String>,
    pub rolls: Vec<PilotRoll>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InitiativeOutcome {
    pub mode: InitiativeMode,
    pub rounds: Vec<InitiativeRound>,
    /// Squad names, the first to act first.
    pub order: Vec<String>,
}

impl InitiativeRequest {
    /// The squads of the units still in the fight (destroyed suits do not roll), in name order.
    pub fn from_units(units: &BTreeMap<String, Unit>, mode: InitiativeMode) -> Result<Self, RuleError> {
        let mut squads: BTreeMap<String, Vec<InitiativePilot>> = BTreeMap::new();
        for (name, u) in units.iter().filter(|(_, u)| !u.suit.destroyed) {
            let squad = u.pilot.squad.trim();
            if squad.is_empty() {
                return Err(RuleError::NoSquad { name: name.clone() });
            }
            squads
                .entry(squad.to_string())
                .or_default()
                .push(InitiativePilot {
                    name: name.clone(),
                    judgement: u.pilot.judgement,
                    tactics: u.pilot.tactics,
                    leader: u.pilot.leader,
                });
        }
        // Leaders mode (MG-1): a squad whose leader is destroyed has nobody to roll; say so and
        // what to do, naming who is left, rather than "no leader".
        if mode == InitiativeMode::Leaders {
            for (squad, pilots) in &squads {
                if pilots.iter().any(|p| p.leader) {
                    continue;
                }
                if let Some((leader, _)) = units
                    .iter()
                    .find(|(_, u)| u.suit.destroyed && u.pilot.leader && u.pilot.squad.trim() == squad)
                {
                    let left: Vec<&str> = pilots.iter().map(|p| p.name.as_str()).collect();
                    return Err(RuleError::LeaderDestroyed {
                        squad: squad.clone(),
                        leader: leader.clone(),
                        pilots: left.join(", "),
                    });
                }
            }
        }
        Ok(InitiativeRequest {
            mode,
            squads: squads
                .into_iter()
                .map(|(name, pilots)| Squad { name, pilots })
                .collect(),
        })
    }
}

/// The L11 comparison of two squads' sorted totals: the lower first total goes first, then the
/// next-lowest; `None` when every compared total is equal (including one squad having no next
/// total), which is a tie to reroll.
pub fn compare(a: &[i64], b: &[i64]) -> Option<Ordering> {
    a.iter().zip(b).map(|(x, y)| x.cmp(y)).find(|o| o.is_ne())
}

/// Roll initiative and order the squads.
pub fn roll_initiative(
    req: &InitiativeRequest,
    roller: &mut dyn Roller,
) -> Result<InitiativeOutcome, RuleError> {
    if req.squads.is_empty() {
        return Err(RuleError::NoSquads);
    }
    for s in &req.squads {
        if s.pilots.is_empty() {
            return Err(RuleError::NoSquad { name: s.name.clone() });
        }
        if req.mode == InitiativeMode::Leaders {
            match s.pilots.iter().filter(|p| p.leader).count() {
                0 => {
                    return Err(RuleError::NoLeader {
                        squad: s.name.clone(),
                    });
                }
                1 => {}
                _ => {
                    return Err(RuleError::SeveralLeaders {
                        squad: s.name.clone(),
                    });
                }
            }
        }
    }
    let mut rounds = Vec::new();
    let all: Vec<usize> = (0..req.squads.len()).collect();
    let mut order = Vec::new();
    // Groups still to order, in place: each entry is resolved or split further.
    let mut pending: Vec<Vec<usize>> = vec![all];
    let mut rerolls = 0;
    while let Some(group) = pending.pop() {
        // The first round always rolls, so players see the dice even with one squad.
        if group.len() == 1 && !rounds.is_empty() {
            order.push(group[0]);
            continue;
        }
        if rounds.len() as u32 > MAX_REROLLS {
            return Err(RuleError::TieUnresolved { rerolls });
        }
        if !rounds.is_empty() {
            rerolls += 1;
        }
        let (round, totals) = roll_group(req, &group, roller)?;
        rounds.push(round);
        let mut sorted: Vec<(usize, Vec<i64>)> = group.into_iter().zip(totals).collect();
        sorted.sort_by(|a, b| a.1.cmp(&b.1));
        // Consecutive squads tied with any squad of the current group join it.
        let mut groups: Vec<Vec<(usize, Vec<i64>)>> = Vec::new();
        for entry in sorted {
            match groups.last_mut() {
                Some(g) if g.iter().any(|m| compare(&m.1, &entry.1).is_none()) => g.push(entry),
                _ => groups.push(vec![entry]),
            }
        }
        // Push in reverse so the lowest group is ordered first.
        for g in groups.into_iter().rev() {
            pending.push(g.into_iter().map(|(i, _)| i).collect());
        }
    }
    Ok(InitiativeOutcome {
        mode: req.mode,
        rounds,
        order: order.into_iter().map(|i| req.squads[i].name.clone()).collect(),
    })
}

/// Roll for the squads in `group`; each squad's totals sorted ascending.
fn roll_group(
    req: &InitiativeRequest,
    group: &[usize],
    roller: &mut dyn Roller,
) -> Result<(InitiativeRound, Vec<Vec<i64>>), RuleError> {
    let mut rolls = Vec::new();
    let mut totals = Vec::new();
    for &i in group {
        let squad = &req.squads[i];
        let mut t = Vec::new();
        for p in squad
            .pilots
            .iter()
            .filter(|p| req.mode == InitiativeMode::AllPilots || p.leader)
        {
            let check = roll_check(
                vec![
                    Part::new(Source::Judgement, p.judgement),
                    Part::new(Source::Tactics, p.tactics),
                ],
                roller,
            )?;
            t.push(check.total);
            rolls.push(PilotRoll {
                squad: squad.name.clone(),
                pilot: p.name.clone(),
                check,
            });
        }
        t.sort_unstable();
        totals.push(t);
    }
    Ok((
        InitiativeRound {
            squads: group.iter().map(|&i| req.squads[i].name.clone()).collect(),
            rolls,
        },
        totals,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;

    fn pilot(name: &str, leader: bool) -> InitiativePilot {
        InitiativePilot {
            name: name.into(),
            judgement: 0,
            tactics: 0,
            leader,
        }
    }

    fn two_squads(mode: InitiativeMode) -> InitiativeRequest {
        InitiativeRequest {
            mode,
            squads: vec![
                Squad {
                    name: "Blue".into(),
                    pilots: vec![pilot("B1", true), pilot("B2", false)],
                },
                Squad {
                    name: "Red".into(),
                    pilots: vec![pilot("R1", true), pilot("R2", false)],
                },
            ],
        }
    }

    #[test]
    fn the_squad_with_the_lowest_total_acts_first() {
        // Blue 12, 9; Red 15, 5: Red has the lowest (5).
        let o = roll_initiative(
            &two_squads(InitiativeMode::AllPilots),
            &mut FixedRoller::new([12, 9, 15, 5]),
        )
        .unwrap();
        assert_eq!(o.order, ["Red", "Blue"]);
        assert_eq!(o.rounds.len(), 1);
        assert_eq!(o.rounds[0].rolls.len(), 4);
    }

    #[test]
    fn a_tie_goes_to_the_next_lowest_total_then_rerolls() {
        // Lowest both 5; next-lowest Blue 9 < Red 15: Blue first.
        let o = roll_initiative(
            &two_squads(InitiativeMode::AllPilots),
            &mut FixedRoller::new([5, 9, 15, 5]),
        )
        .unwrap();
        assert_eq!(o.order, ["Blue", "Red"]);
        // All equal (5, 9 and 9, 5): a reroll, where Red rolls lower.
        let o = roll_initiative(
            &two_squads(InitiativeMode::AllPilots),
            &mut FixedRoller::new([5, 9, 9, 5, 10, 10, 10, 3]),
        )
        .unwrap();
        assert_eq!(o.order, ["Red", "Blue"]);
        assert_eq!(o.rounds.len(), 2);
        assert_eq!(o.rounds[1].squads, ["Blue", "Red"]);
        // Dice that tie for ever give up with an error.
        let e = roll_initiative(
            &two_squads(InitiativeMode::AllPilots),
            &mut FixedRoller::new([7; 200]),
        )
        .unwrap_err();
        assert_eq!(e, RuleError::TieUnresolved { rerolls: MAX_REROLLS });
    }

    #[test]
    fn a_squad_with_no_next_total_is_still_tied() {
        assert_eq!(compare(&[5], &[5, 7]), None);
        assert_eq!(compare(&[5, 8], &[5, 7]), Some(Ordering::Greater));
        let mut req = two_squads(InitiativeMode::AllPilots);
        req.squads[0].pilots.truncate(1);
        // Blue 5 alone; Red 5, 7: tied, reroll: Blue 4, Red 6, 8.
        let o = roll_initiative(&req, &mut FixedRoller::new([5, 5, 7, 4, 6, 8])).unwrap();
        assert_eq!(o.order, ["Blue", "Red"]);
        assert_eq!(o.rounds.len(), 2);
    }

    #[test]
    fn leaders_mode_rolls_only_leaders_and_three_squads_each_take_a_phase() {
        let mut req = two_squads(InitiativeMode::Leaders);
        req.squads.push(Squad {
            name: "Green".into(),
            pilots: vec![InitiativePilot {
                judgement: 2,
                tactics: 1,
                ..pilot("G1", true)
            }],
        });
        // Leaders: B1 10, R1 4, G1 3+3 = 6 → Red, Green, Blue.
        let o = roll_initiative(&req, &mut FixedRoller::new([10, 4, 3])).unwrap();
        assert_eq!(o.order, ["Red", "Green", "Blue"]);
        assert_eq!(o.rounds[0].rolls.len(), 3);
        assert_eq!(o.rounds[0].rolls[2].check.total, 6);
        // Tied leaders reroll; the untied squad keeps its place.
        let o = roll_initiative(&req, &mut FixedRoller::new([10, 6, 3, 9, 2])).unwrap();
        assert_eq!(o.order, ["Green", "Red", "Blue"]);
        assert_eq!(o.rounds[1].squads.len(), 2);
    }

    /// Issue 29: in leaders mode a destroyed leader is named with what to do, not "no leader".
    #[test]
    fn a_destroyed_leader_says_who_may_lead_instead() {
        let mut units = BTreeMap::new();
        for (name, squad, leader, destroyed) in [
            ("Gundam", "Blue", true, false),
            ("Zaku", "Red", true, true),
            ("Gouf", "Red", false, false),
        ] {
            let mut u = Unit::default();
            u.pilot.squad = squad.into();
            u.pilot.leader = leader;
            u.suit.destroyed = destroyed;
            units.insert(name.to_string(), u);
        }
        let e = InitiativeRequest::from_units(&units, InitiativeMode::Leaders).unwrap_err();
        assert_eq!(
            e,
            RuleError::LeaderDestroyed {
                squad: "Red".into(),
                leader: "Zaku".into(),
                pilots: "Gouf".into()
            }
        );
        use crate::i18n::{Lang, Localized};
        assert!(e.localized(Lang::En).contains("leader=yes"), "{e}");
        assert!(e.localized(Lang::Ja).contains("隊長=yes"));
        // Every pilot rolls in all_pilots mode: the same squads are fine.
        assert!(InitiativeRequest::from_units(&units, InitiativeMode::AllPilots).is_ok());
        // Gouf made leader: leaders mode rolls.
        units.get_mut("Gouf").unwrap().pilot.leader = true;
        assert!(InitiativeRequest::from_units(&units, InitiativeMode::Leaders).is_ok());
    }

    #[test]
    fn bad_squads_are_refused() {
        let mut req = two_squads(InitiativeMode::Leaders);
        req.squads[1].pilots[0].leader = false;
        assert_eq!(
            roll_initiative(&req, &mut FixedRoller::new([1; 4])).unwrap_err(),
            RuleError::NoLeader { squad: "Red".into() }
        );
        req.squads[1].pilots[1].leader = true;
        req.squads[1].pilots[0].leader = true;
        assert!(matches!(
            roll_initiative(&req, &mut FixedRoller::new([1; 4])),
            Err(RuleError::SeveralLeaders { .. })
        ));
        let empty = InitiativeRequest {
            mode: InitiativeMode::AllPilots,
            squads: vec![],
        };
        assert_eq!(
            roll_initiative(&empty, &mut FixedRoller::new([])).unwrap_err(),
            RuleError::NoSquads
        );
    }

    #[test]
    fn squads_come_from_the_units_still_fighting() {
        let mut units = BTreeMap::new();
        let mut u = Unit::default();
        u.pilot.squad = "Blue".into();
        u.pilot.judgement = 3;
        units.insert("A".to_string(), u.clone());
        u.pilot.squad = "Red".into();
        units.insert("B".to_string(), u.clone());
        u.suit.destroyed = true;
        u.pilot.squad = String::new();
        units.insert("C".to_string(), u.clone());
        let req = InitiativeRequest::from_units(&units, InitiativeMode::AllPilots).unwrap();
        assert_eq!(req.squads.len(), 2);
        assert_eq!(req.squads[0].pilots[0].judgement, 3);
        u.suit.destroyed = false;
        units.insert("C".to_string(), u);
        assert_eq!(
            InitiativeRequest::from_units(&units, InitiativeMode::AllPilots).unwrap_err(),
            RuleError::NoSquad { name: "C".into() }
        );
    }
}
