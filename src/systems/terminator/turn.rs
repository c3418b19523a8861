//! The turn (L3–29): the tactical roll-off and the first player, impulses alternating with
//! their Fate rolls and Ready → Done markers, commanders' Come With Me and FATE (items 23–24),
//! End Turn and On Your Feet (12, 25), with TG-10's and TG-11's corner cases.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::character::{self, Character};
use super::dice::{Die, FateDie, FateFace, FateRoll, RollOff, roll_off};
use super::error::{Quantity, RuleError, Step, bounded};
use super::state::{Impulse, Phase, TerminatorState};
use crate::dice::Roller;

/// What comes after a step that may end an impulse.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "next")]
pub enum Next {
    /// The impulse goes on.
    Same,
    /// A new impulse for `player` (the other one, or the same when the other has nobody left).
    Impulse { player: String, number: u32 },
    /// Every character has activated: End Turn.
    EndTurn,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FateOutcome {
    pub player: String,
    pub roll: FateRoll,
    /// Characters that may take a Ready marker.
    pub allowance: u32,
    /// On FATE: the commanders that may be chosen (item 24); empty: the impulse passes.
    pub commanders: Vec<String>,
    pub next: Next,
}

/// Who took Ready markers, and how.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activation {
    pub character: String,
    /// Come With Me If You Want To Live, or FATE's followers.
    pub followers: Vec<String>,
    pub fate_commander: bool,
    pub allowance_left: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoneOutcome {
    pub character: String,
    pub done: u32,
    pub next: Next,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndTurnOutcome {
    pub turn: u32,
    /// Every character on the battlefield and its Done markers left.
    pub done: Vec<(String, u32)>,
    /// Reeling ended at 0 Done markers (TG-2).
    pub recovered: Vec<String>,
    /// On Your Feet markers per commander (item 25).
    pub on_your_feet: BTreeMap<String, u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnYourFeetOutcome {
    pub commander: String,
    pub character: String,
    pub removed: u32,
    pub done: u32,
    pub recovered: bool,
    pub left: u32,
}

/// The names of `side`'s characters that may activate now.
pub fn eligible(chars: &BTreeMap<String, Character>, side: &str) -> Vec<String> {
    chars
        .iter()
        .filter(|(_, c)| c.side == side && c.eligible())
        .map(|(n, _)| n.clone())
        .collect()
}

impl TerminatorState {
    /// A new game between two sides; everything else is reset (session profiles stay).
    pub fn start(&mut self, players: &[String]) -> Result<(), RuleError> {
        let mut players: Vec<String> = players.iter().map(|p| p.trim().to_string()).collect();
        if players.len() != 2 || players[0] == players[1] || players.iter().any(|p| p.is_empty()) {
            return Err(RuleError::NeedTwoSides);
        }
        // The sides in name order (case aside), whatever the roster or the order typed: the
        // roll-off's first die is always the same side's, so the same dice give the same winner.
        players.sort_by_key(|p| (p.to_lowercase(), p.clone()));
        *self = TerminatorState {
            players,
            profiles: std::mem::take(&mut self.profiles),
            weapons: std::mem::take(&mut self.weapons),
            ..TerminatorState::default()
        };
        Ok(())
    }

    fn ensure_no_attack(&self) -> Result<(), RuleError> {
        if self.attack.is_some() {
            Err(RuleError::AttackUnderWay)
        } else {
            Ok(())
        }
    }

    fn side_of(&self, side: &str) -> Result<String, RuleError> {
        self.players
            .iter()
            .find(|p| p.eq_ignore_ascii_case(side.trim()))
            .cloned()
            .ok_or_else(|| RuleError::UnknownSide {
                side: side.chars().take(40).collect(),
            })
    }

    fn other(&self, side: &str) -> String {
        self.players
            .iter()
            .find(|p| *p != side)
            .cloned()
            .unwrap_or_default()
    }

    /// Items 5–6: a new turn's tactical roll-off; the winner takes the Tactical Edge. Starts
    /// the first turn, or the next after End Turn (closing On Your Feet).
    pub fn roll_off(&mut self, die: Die, roller: &mut impl Roller) -> Result<RollOff, RuleError> {
        self.ensure_no_attack()?;
        let now = match self.phase {
            Phase::NotStarted | Phase::OnYourFeet => None,
            Phase::FirstPlayer => Some(Step::FirstPlayer),
            Phase::EndTurn => Some(Step::EndTurn),
            Phase::Impulse => Some(Step::Activation),
        };
        if let Some(now) = now {
            return Err(RuleError::RollOffNotNow { now });
        }
        let players: [String; 2] = self
            .players
            .clone()
            .try_into()
            .map_err(|_| RuleError::NeedTwoSides)?;
        let out = roll_off(die, &players, roller)?;
        self.turn += 1;
        self.phase = Phase::FirstPlayer;
        self.edge = Some(out.winner.clone());
        self.first = None;
        self.impulse = None;
        self.on_your_feet.clear();
        self.roll_off = Some(out.clone());
        Ok(out)
    }

    /// Item 7: the Tactical Edge holder names the turn's first player (the bot checks who
    /// presses); the first impulse is theirs, or the other's when they have nobody (TG-10).
    pub fn choose_first(
        &mut self,
        first: &str,
        chars: &BTreeMap<String, Character>,
    ) -> Result<Next, RuleError> {
        if self.phase != Phase::FirstPlayer {
            return Err(self.wrong(Step::FirstPlayer));
        }
        let first = self.side_of(first)?;
        let mut next = self.clone();
        next.first = Some(first.clone());
        let other = next.other(&first);
        let out = next.open_impulse(&[first, other], chars);
        *self = next;
        Ok(out)
    }

    /// The first of `order` with an eligible character gets the next impulse; nobody: End Turn.
    fn open_impulse(&mut self, order: &[String], chars: &BTreeMap<String, Character>) -> Next {
        let number = self.impulse.as_ref().map_or(0, |i| i.number) + 1;
        match order.iter().find(|p| !eligible(chars, p).is_empty()) {
            Some(player) => {
                self.phase = Phase::Impulse;
                self.impulse = Some(Impulse {
                    number,
                    player: player.clone(),
                    fate: None,
                    allowance: 0,
                    fate_commander: false,
                    activated: Vec::new(),
                });
                Next::Impulse {
                    player: player.clone(),
                    number,
                }
            }
            None => {
                self.phase = Phase::EndTurn;
                self.impulse = None;
                Next::EndTurn
            }
        }
    }

    /// Item 11: the other player's impulse next; the same player's when the other has nobody
    /// left (TG-10); End Turn when nobody has.
    fn next_impulse(&mut self, chars: &BTreeMap<String, Character>) -> Next {
        let current = self
            .impulse
            .as_ref()
            .map(|i| i.player.clone())
            .unwrap_or_default();
        let other = self.other(&current);
        self.open_impulse(&[other, current], chars)
    }

    fn impulse_mut(&mut self) -> Result<&mut Impulse, RuleError> {
        let not_now = self.wrong(Step::Activation);
        match (self.phase, self.impulse.as_mut()) {
            (Phase::Impulse, Some(i)) => Ok(i),
            _ => Err(not_now),
        }
    }

    /// Step 1 (item 8): the impulse player's Fate roll. 1 or 2: that many may activate, no more
    /// than are eligible (TG-10). FATE: a commander may be chosen (item 24), else the impulse
    /// passes.
    pub fn roll_fate(
        &mut self,
        die: &FateDie,
        chars: &BTreeMap<String, Character>,
        roller: &mut impl Roller,
    ) -> Result<FateOutcome, RuleError> {
        let mut next = self.clone();
        let imp = next.impulse_mut().map_err(|_| self.wrong(Step::Fate))?;
        if imp.fate.is_some() {
            return Err(RuleError::FateRolled);
        }
        let player = imp.player.clone();
        let roll = die.roll(roller)?;
        imp.fate = Some(roll);
        let ready = eligible(chars, &player);
        let mut commanders = Vec::new();
        let mut after = Next::Same;
        match roll.result {
            FateFace::One | FateFace::Two => {
                imp.allowance = roll.result.activations().min(ready.len() as u32);
            }
            FateFace::Fate => {
                commanders = ready.into_iter().filter(|n| chars[n].commander()).collect();
                if commanders.is_empty() {
                    after = next.next_impulse(chars);
                } else if let Ok(imp) = next.impulse_mut() {
                    imp.fate_commander = true;
                }
            }
        }
        let allowance = if after == Next::Same {
            next.impulse.as_ref().map_or(0, |i| i.allowance)
        } else {
            0
        };
        *self = next;
        Ok(FateOutcome {
            player,
            roll,
            allowance,
            commanders,
            next: after,
        })
    }

    /// Steps 2–3 (items 9, 23, 24): a Ready marker on `name`, and on the friends a commander
    /// brings. On 1 or 2 it uses one of the allowance and a commander brings up to N more
    /// (TG-10); on FATE only a commander, N in total including itself.
    pub fn activate(
        &mut self,
        name: &str,
        followers: &[String],
        chars: &mut BTreeMap<String, Character>,
    ) -> Result<Activation, RuleError> {
        self.ensure_no_attack()?;
        let imp = self.impulse.clone().filter(|_| self.phase == Phase::Impulse);
        let mut imp = imp.ok_or_else(|| self.wrong(Step::Activation))?;
        if imp.fate.is_none() {
            return Err(RuleError::FateNotRolled);
        }
        let check = |n: &str| -> Result<&Character, RuleError> {
            let c = character::get(chars, n)?;
            c.ensure_on_field(n)?;
            if c.side != imp.player {
                return Err(RuleError::NotYourImpulse {
                    name: n.to_string(),
                    side: c.side.clone(),
                    player: imp.player.clone(),
                });
            }
            if !c.eligible() {
                return Err(RuleError::NotEligible { name: n.to_string() });
            }
            Ok(c)
        };
        let c = check(name)?;
        let max = if imp.fate_commander {
            if !c.commander() {
                return Err(RuleError::FateNeedsCommander);
            }
            c.stats.command - 1
        } else {
            if imp.allowance == 0 {
                return Err(RuleError::NoActivationsLeft);
            }
            if !followers.is_empty() && !c.commander() {
                return Err(RuleError::NotCommander {
                    name: name.to_string(),
                });
            }
            c.stats.command
        };
        if followers.len() as u32 > max {
            return Err(RuleError::TooManyFollowers {
                name: name.to_string(),
                max,
            });
        }
        for (i, f) in followers.iter().enumerate() {
            if f == name || followers[..i].contains(f) {
                return Err(RuleError::NotEligible { name: f.clone() });
            }
            let fc = check(f)?;
            if fc.commander() {
                return Err(RuleError::FollowerIsCommander { name: f.clone() });
            }
        }
        let fate_commander = imp.fate_commander;
        if fate_commander {
            imp.fate_commander = false;
            imp.allowance = 0;
        } else {
            imp.allowance -= 1;
        }
        for n in std::iter::once(name).chain(followers.iter().map(String::as_str)) {
            if let Some(c) = chars.get_mut(n) {
                c.ready = true;
                c.moved = false;
            }
            imp.activated.push(n.to_string());
        }
        let allowance_left = imp.allowance;
        self.impulse = Some(imp);
        Ok(Activation {
            character: name.to_string(),
            followers: followers.to_vec(),
            fate_commander,
            allowance_left,
        })
    }

    /// Heavy (item 26): the activating character moved.
    pub fn moved(&mut self, name: &str, chars: &mut BTreeMap<String, Character>) -> Result<(), RuleError> {
        let c = character::get_mut(chars, name)?;
        if !c.ready || !c.on_field() {
            return Err(RuleError::NotReady {
                name: name.to_string(),
            });
        }
        c.moved = true;
        Ok(())
    }

    /// Item 10: the character finishes; Ready → Done. The impulse ends when nobody is Ready and
    /// nobody more may activate in it.
    pub fn done(
        &mut self,
        name: &str,
        chars: &mut BTreeMap<String, Character>,
    ) -> Result<DoneOutcome, RuleError> {
        self.ensure_no_attack()?;
        if self.phase != Phase::Impulse {
            return Err(self.wrong(Step::Activation));
        }
        let c = character::get(chars, name)?;
        if !c.ready || !c.on_field() {
            return Err(RuleError::NotReady {
                name: name.to_string(),
            });
        }
        let c = character::get_mut(chars, name)?;
        c.ready = false;
        c.done += 1;
        c.moved = false;
        let done = c.done;
        let next = if self.impulse_over(chars) {
            self.next_impulse(chars)
        } else {
            Next::Same
        };
        Ok(DoneOutcome {
            character: name.to_string(),
            done,
            next,
        })
    }

    fn ready_names(&self, chars: &BTreeMap<String, Character>) -> Vec<String> {
        chars
            .iter()
            .filter(|(_, c)| c.ready && c.on_field())
            .map(|(n, _)| n.clone())
            .collect()
    }

    fn impulse_over(&self, chars: &BTreeMap<String, Character>) -> bool {
        let Some(imp) = &self.impulse else { return true };
        self.ready_names(chars).is_empty()
            && !imp.fate_commander
            && (imp.allowance == 0 || eligible(chars, &imp.player).is_empty())
    }

    /// The impulse player gives up what the Fate roll still allows (or the FATE commander).
    pub fn end_impulse(&mut self, chars: &BTreeMap<String, Character>) -> Result<Next, RuleError> {
        self.ensure_no_attack()?;
        let imp = self.impulse.as_ref().filter(|_| self.phase == Phase::Impulse);
        let imp = imp.ok_or_else(|| self.wrong(Step::Activation))?;
        if imp.fate.is_none() {
            return Err(RuleError::FateNotRolled);
        }
        let ready = self.ready_names(chars);
        if !ready.is_empty() {
            return Err(RuleError::ReadyRemain {
                names: ready.join(", "),
            });
        }
        Ok(self.next_impulse(chars))
    }

    /// Item 12: one Done marker off each character; Reeling ends at 0 (TG-2). Then every
    /// commander on the battlefield has N On Your Feet markers to spend (TG-11).
    pub fn end_turn(&mut self, chars: &mut BTreeMap<String, Character>) -> Result<EndTurnOutcome, RuleError> {
        self.ensure_no_attack()?;
        if self.phase != Phase::EndTurn {
            return Err(self.wrong(Step::EndTurn));
        }
        let mut done = Vec::new();
        let mut recovered = Vec::new();
        let mut budgets = BTreeMap::new();
        for (n, c) in chars.iter_mut().filter(|(_, c)| c.on_field()) {
            let was_reeling = c.reeling;
            c.remove_done(1);
            c.ready = false;
            c.moved = false;
            if was_reeling && !c.reeling {
                recovered.push(n.clone());
            }
            done.push((n.clone(), c.done));
            if c.commander() {
                budgets.insert(n.clone(), c.stats.command);
            }
        }
        self.phase = Phase::OnYourFeet;
        self.on_your_feet = budgets.clone();
        Ok(EndTurnOutcome {
            turn: self.turn,
            done,
            recovered,
            on_your_feet: budgets,
        })
    }

    /// Item 25, TG-11: `commander` removes `count` extra Done markers from a friend (another
    /// commander or itself too), out of its N for this End Turn; never below 0.
    pub fn on_your_feet(
        &mut self,
        commander: &str,
        friend: &str,
        count: u32,
        chars: &mut BTreeMap<String, Character>,
    ) -> Result<OnYourFeetOutcome, RuleError> {
        if self.phase != Phase::OnYourFeet {
            return Err(self.wrong(Step::OnYourFeet));
        }
        bounded(Quantity::Markers, i64::from(count), 1, 10)?;
        let cmd = character::get(chars, commander)?;
        let left = *self
            .on_your_feet
            .get(commander)
            .ok_or_else(|| RuleError::NotCommander {
                name: commander.to_string(),
            })?;
        if count > left {
            return Err(RuleError::OnYourFeetSpent {
                commander: commander.to_string(),
                left,
                wanted: count,
            });
        }
        let side = cmd.side.clone();
        let f = character::get(chars, friend)?;
        f.ensure_on_field(friend)?;
        if f.side != side {
            return Err(RuleError::NotFriend {
                name: friend.to_string(),
                commander: commander.to_string(),
            });
        }
        if f.done < count {
            return Err(RuleError::NotEnoughDone {
                name: friend.to_string(),
                done: f.done,
                wanted: count,
            });
        }
        let f = character::get_mut(chars, friend)?;
        let was_reeling = f.reeling;
        f.remove_done(count);
        let (done, recovered) = (f.done, was_reeling && !f.reeling);
        let left = left - count;
        self.on_your_feet.insert(commander.to_string(), left);
        Ok(OnYourFeetOutcome {
            commander: commander.to_string(),
            character: friend.to_string(),
            removed: count,
            done,
            recovered,
            left,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::terminator::profile::Library;

    fn ch(side: &str, profile: &str) -> Character {
        Character::new(side, Library::shipped().profile(profile).unwrap().clone())
    }

    fn game(chars: &[(&str, &str, &str)]) -> (TerminatorState, BTreeMap<String, Character>) {
        let mut s = TerminatorState::default();
        s.start(&["Resistance".into(), "Skynet".into()]).unwrap();
        let map = chars
            .iter()
            .map(|(n, side, p)| (n.to_string(), ch(side, p)))
            .collect();
        (s, map)
    }

    /// Roll off (Resistance wins 8–1) and let Resistance go first.
    fn begin(s: &mut TerminatorState, chars: &BTreeMap<String, Character>, first: &str) -> Next {
        s.roll_off(Die::D8, &mut FixedRoller::new([8, 1])).unwrap();
        s.choose_first(first, chars).unwrap()
    }

    fn fate(s: &mut TerminatorState, chars: &BTreeMap<String, Character>, face: u32) -> FateOutcome {
        s.roll_fate(&FateDie::default(), chars, &mut FixedRoller::new([face]))
            .unwrap()
    }

    #[test]
    fn the_roll_off_winner_chooses_who_goes_first() {
        let (mut s, chars) = game(&[("Joe", "Resistance", "SWAT"), ("T1", "Skynet", "Endoskeleton")]);
        assert!(s.choose_first("Skynet", &chars).is_err(), "no roll-off yet");
        let r = s.roll_off(Die::D8, &mut FixedRoller::new([3, 3, 2, 7])).unwrap();
        assert_eq!(
            (r.winner.as_str(), s.turn, s.phase),
            ("Skynet", 1, Phase::FirstPlayer)
        );
        assert_eq!(s.edge.as_deref(), Some("Skynet"));
        assert!(matches!(
            s.choose_first("Kaiju", &chars),
            Err(RuleError::UnknownSide { .. })
        ));
        // The edge holder may hand the first impulse to the other player.
        assert_eq!(
            s.choose_first("resistance", &chars).unwrap(),
            Next::Impulse {
                player: "Resistance".into(),
                number: 1
            }
        );
        assert!(
            s.roll_off(Die::D8, &mut FixedRoller::new([1, 2])).is_err(),
            "mid-turn"
        );
    }

    #[test]
    fn impulses_alternate_ready_becomes_done_and_the_turn_ends_when_all_activated() {
        let (mut s, mut chars) = game(&[
            ("A1", "Resistance", "SWAT"),
            ("A2", "Resistance", "SWAT"),
            ("A3", "Resistance", "SWAT"),
            ("T1", "Skynet", "Endoskeleton"),
        ]);
        begin(&mut s, &chars, "Resistance");
        assert!(matches!(
            s.activate("A1", &[], &mut chars),
            Err(RuleError::FateNotRolled)
        ));
        let f = fate(&mut s, &chars, 3);
        assert_eq!((f.roll.result, f.allowance), (FateFace::Two, 2));
        assert!(matches!(
            s.roll_fate(&FateDie::default(), &chars, &mut FixedRoller::new([1])),
            Err(RuleError::FateRolled)
        ));
        assert!(matches!(
            s.activate("T1", &[], &mut chars),
            Err(RuleError::NotYourImpulse { .. })
        ));
        s.activate("A1", &[], &mut chars).unwrap();
        s.activate("A2", &[], &mut chars).unwrap();
        assert!(matches!(
            s.activate("A3", &[], &mut chars),
            Err(RuleError::NoActivationsLeft)
        ));
        assert!(matches!(
            s.end_impulse(&chars),
            Err(RuleError::ReadyRemain { .. })
        ));
        assert_eq!(s.done("A1", &mut chars).unwrap().next, Next::Same);
        assert!(matches!(
            s.done("A1", &mut chars),
            Err(RuleError::NotReady { .. })
        ));
        let d = s.done("A2", &mut chars).unwrap();
        assert_eq!(
            d.next,
            Next::Impulse {
                player: "Skynet".into(),
                number: 2
            }
        );
        assert_eq!((chars["A1"].done, chars["A1"].ready), (1, false));
        // Skynet: a 2 with one eligible character activates it alone (TG-10).
        let f = fate(&mut s, &chars, 4);
        assert_eq!(f.allowance, 1);
        s.activate("T1", &[], &mut chars).unwrap();
        // Skynet has nobody left: Resistance takes the next impulse.
        assert_eq!(
            s.done("T1", &mut chars).unwrap().next,
            Next::Impulse {
                player: "Resistance".into(),
                number: 3
            }
        );
        fate(&mut s, &chars, 1);
        s.activate("A3", &[], &mut chars).unwrap();
        // Resistance goes again when Skynet has nobody; nobody at all: End Turn.
        assert_eq!(s.done("A3", &mut chars).unwrap().next, Next::EndTurn);
        assert_eq!(s.phase, Phase::EndTurn);
        let e = s.end_turn(&mut chars).unwrap();
        assert!(e.done.iter().all(|(_, d)| *d == 0));
        assert_eq!(s.phase, Phase::OnYourFeet);
        assert!(e.on_your_feet.is_empty(), "no commanders");
        s.roll_off(Die::D8, &mut FixedRoller::new([1, 2])).unwrap();
        assert_eq!(s.turn, 2);
    }

    #[test]
    fn a_player_may_end_an_impulse_early_but_not_before_the_fate_roll() {
        let (mut s, mut chars) = game(&[
            ("A1", "Resistance", "SWAT"),
            ("A2", "Resistance", "SWAT"),
            ("T1", "Skynet", "Endoskeleton"),
        ]);
        begin(&mut s, &chars, "Resistance");
        assert!(matches!(s.end_impulse(&chars), Err(RuleError::FateNotRolled)));
        fate(&mut s, &chars, 3);
        s.activate("A1", &[], &mut chars).unwrap();
        assert_eq!(
            s.done("A1", &mut chars).unwrap().next,
            Next::Same,
            "one more may activate"
        );
        assert!(matches!(s.end_impulse(&chars).unwrap(), Next::Impulse { .. }));
        assert_eq!(s.impulse.as_ref().unwrap().player, "Skynet");
    }

    #[test]
    fn fate_with_and_without_an_eligible_commander() {
        let (mut s, mut chars) = game(&[
            ("Kyle", "Resistance", "Kyle Reese"),
            ("Nco", "Resistance", "Resistance NCO"),
            ("A1", "Resistance", "SWAT"),
            ("A2", "Resistance", "SWAT"),
            ("A3", "Resistance", "SWAT"),
            ("T1", "Skynet", "Endoskeleton"),
        ]);
        begin(&mut s, &chars, "Resistance");
        let f = fate(&mut s, &chars, 5);
        assert_eq!(f.roll.result, FateFace::Fate);
        assert_eq!(f.commanders, ["Kyle", "Nco"]);
        assert_eq!(f.next, Next::Same);
        assert!(matches!(
            s.activate("A1", &[], &mut chars),
            Err(RuleError::FateNeedsCommander)
        ));
        // Command(3): Kyle and two friends; a third friend, or a commander, is refused.
        let three = ["A1".to_string(), "A2".into(), "A3".into()];
        assert!(matches!(
            s.activate("Kyle", &three, &mut chars),
            Err(RuleError::TooManyFollowers { max: 2, .. })
        ));
        assert!(matches!(
            s.activate("Kyle", &["Nco".into()], &mut chars),
            Err(RuleError::FollowerIsCommander { .. })
        ));
        assert!(matches!(
            s.activate("Kyle", &["T1".into()], &mut chars),
            Err(RuleError::NotYourImpulse { .. })
        ));
        let a = s.activate("Kyle", &three[..2], &mut chars).unwrap();
        assert!(a.fate_commander);
        assert!(chars["Kyle"].ready && chars["A1"].ready && chars["A2"].ready && !chars["A3"].ready);
        for n in ["Kyle", "A1"] {
            assert_eq!(s.done(n, &mut chars).unwrap().next, Next::Same);
        }
        assert!(matches!(
            s.done("A2", &mut chars).unwrap().next,
            Next::Impulse { .. }
        ));
        // Skynet rolls FATE with no commander: the impulse passes back to Resistance.
        let f = fate(&mut s, &chars, 6);
        assert!(f.commanders.is_empty());
        assert_eq!(
            f.next,
            Next::Impulse {
                player: "Resistance".into(),
                number: 3
            }
        );
    }

    #[test]
    fn come_with_me_brings_up_to_n_friends_on_top_of_the_fate_number() {
        let (mut s, mut chars) = game(&[
            ("Lt", "Resistance", "John Connor's Lieutenant"),
            ("A1", "Resistance", "SWAT"),
            ("A2", "Resistance", "SWAT"),
            ("A3", "Resistance", "SWAT"),
            ("A4", "Resistance", "SWAT"),
            ("T1", "Skynet", "Endoskeleton"),
        ]);
        begin(&mut s, &chars, "Resistance");
        fate(&mut s, &chars, 3);
        assert!(matches!(
            s.activate("A1", &["A2".into()], &mut chars),
            Err(RuleError::NotCommander { .. })
        ));
        let friends = ["A1".to_string(), "A2".into(), "A3".into()];
        assert!(matches!(
            s.activate("Lt", &friends, &mut chars),
            Err(RuleError::TooManyFollowers { max: 2, .. })
        ));
        let a = s.activate("Lt", &friends[..2], &mut chars).unwrap();
        assert_eq!(a.allowance_left, 1, "1 + N: the followers come on top");
        assert!(matches!(
            s.activate("A1", &[], &mut chars),
            Err(RuleError::NotEligible { .. })
        ));
        s.activate("A3", &[], &mut chars).unwrap();
        assert_eq!(s.impulse.as_ref().unwrap().activated, ["Lt", "A1", "A2", "A3"]);
    }

    #[test]
    fn end_turn_on_your_feet_and_reeling_that_starts_the_next_turn_done() {
        let (mut s, mut chars) = game(&[
            ("Jc", "Resistance", "John Connor"),
            ("Kyle", "Resistance", "Kyle Reese"),
            ("A1", "Resistance", "SWAT"),
            ("T1", "Skynet", "Endoskeleton"),
        ]);
        // A1 reeled before activating: two Done markers; Kyle reeled after: 2 (1 + 1).
        for (n, d) in [("A1", 2), ("Kyle", 2), ("Jc", 1), ("T1", 1)] {
            let c = chars.get_mut(n).unwrap();
            c.done = d;
            c.reeling = n != "Jc" && n != "T1";
        }
        s.phase = Phase::EndTurn;
        s.turn = 1;
        assert!(s.on_your_feet("Jc", "A1", 1, &mut chars).is_err(), "not yet");
        let e = s.end_turn(&mut chars).unwrap();
        assert_eq!(chars["A1"].done, 1, "it starts the next turn already activated");
        assert!(chars["A1"].reeling);
        assert_eq!(
            e.on_your_feet,
            BTreeMap::from([("Jc".to_string(), 5), ("Kyle".to_string(), 3)])
        );
        assert_eq!(eligible(&chars, "Resistance"), ["Jc"]);
        // John Connor clears A1 and Kyle (another commander may benefit) and has 3 left.
        let o = s.on_your_feet("Jc", "A1", 1, &mut chars).unwrap();
        assert_eq!((o.done, o.recovered, o.left), (0, true, 4));
        assert!(!chars["A1"].reeling);
        s.on_your_feet("Jc", "Kyle", 1, &mut chars).unwrap();
        assert!(matches!(
            s.on_your_feet("Jc", "Kyle", 1, &mut chars),
            Err(RuleError::NotEnoughDone { done: 0, .. })
        ));
        assert!(matches!(
            s.on_your_feet("Jc", "T1", 1, &mut chars),
            Err(RuleError::NotFriend { .. })
        ));
        assert!(matches!(
            s.on_your_feet("A1", "Kyle", 1, &mut chars),
            Err(RuleError::NotCommander { .. })
        ));
        assert!(matches!(
            s.on_your_feet("Kyle", "A1", 4, &mut chars),
            Err(RuleError::OnYourFeetSpent { left: 3, .. })
        ));
        assert_eq!(eligible(&chars, "Resistance"), ["A1", "Jc", "Kyle"]);
        assert_eq!(chars["T1"].done, 0);
        s.roll_off(Die::D8, &mut FixedRoller::new([2, 5])).unwrap();
        assert!(
            s.on_your_feet("Kyle", "A1", 1, &mut chars).is_err(),
            "On Your Feet closed"
        );
    }

    /// Issue 29: the sides are in name order, whatever order they come in, so the same
    /// roll-off dice always give the same winner.
    #[test]
    fn the_sides_are_in_name_order_so_the_same_dice_give_the_same_winner() {
        for sides in [
            ["Skynet", "Resistance"],
            ["Resistance", "Skynet"],
            ["skynet", "Resistance"],
        ] {
            let mut s = TerminatorState::default();
            s.start(&sides.map(String::from)).unwrap();
            assert_eq!(s.players[0], "Resistance", "{sides:?}");
            let r = s.roll_off(Die::D8, &mut FixedRoller::new([6, 2])).unwrap();
            assert_eq!(
                (r.players[0].as_str(), r.winner.as_str()),
                ("Resistance", "Resistance")
            );
        }
    }

    /// Issue 29: `/term rolloff` at the wrong moment says what the game waits for.
    #[test]
    fn a_roll_off_mid_turn_says_what_comes_first() {
        use crate::i18n::{Lang, Localized};
        let (mut s, chars) = game(&[("Kyle", "Resistance", "SWAT"), ("T1", "Skynet", "Endoskeleton")]);
        s.roll_off(Die::D8, &mut FixedRoller::new([6, 2])).unwrap();
        let e = s.roll_off(Die::D8, &mut FixedRoller::new([])).unwrap_err();
        assert_eq!(
            e,
            RuleError::RollOffNotNow {
                now: Step::FirstPlayer
            }
        );
        assert!(e.localized(Lang::En).contains("/term first"), "{e}");
        s.choose_first("Resistance", &chars).unwrap();
        let e = s.roll_off(Die::D8, &mut FixedRoller::new([])).unwrap_err();
        assert_eq!(
            e.localized(Lang::En),
            "The turn is under way: the next roll-off comes after every character has activated and End Turn (/term endturn)."
        );
        assert!(e.localized(Lang::Ja).contains("ターンの途中です"));
        s.phase = Phase::EndTurn;
        let e = s.roll_off(Die::D8, &mut FixedRoller::new([])).unwrap_err();
        assert!(
            e.localized(Lang::En)
                .starts_with("Every character has activated: end the turn"),
            "{e}"
        );
        assert_eq!(s.turn, 1, "nothing rolled, nothing changed");
    }

    #[test]
    fn refused_turn_steps_change_nothing() {
        let (mut s, mut chars) = game(&[("A1", "Resistance", "SWAT"), ("T1", "Skynet", "Endoskeleton")]);
        begin(&mut s, &chars, "Skynet");
        let (s0, c0) = (s.clone(), chars.clone());
        assert!(s.end_turn(&mut chars).is_err());
        assert!(s.activate("T1", &[], &mut chars).is_err());
        assert!(
            s.roll_fate(&FateDie::default(), &chars, &mut FixedRoller::new([7]))
                .is_err()
        );
        assert!(s.done("T1", &mut chars).is_err());
        assert!(s.moved("T1", &mut chars).is_err());
        assert!(s.start(&["Only".into()]).is_err());
        assert_eq!((s, chars), (s0, c0));
    }
}
