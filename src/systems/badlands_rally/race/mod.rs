//! The race: its gears, rounds, initiative (rally dice, ties to the gear ahead), pole position,
//! laps, victory (uncontested, contested, Derby), and the race-level attack that resolves the
//! dice and updates both gears at once (seed ◆プレイの手順, ◆ゲームの勝敗, ◆シナリオ).
//!
//! Here: the race's state and events; [`order`], [`attacks`], [`actions`] and [`collisions`]
//! add the rest of its rules, each on `RaceState`.

mod actions;
mod attacks;
mod collisions;
mod order;

pub use actions::*;
pub use attacks::*;
pub use collisions::*;
pub use order::*;

use serde::{Deserialize, Serialize};

use super::attack::{self, AttackOutcome, AttackRequest, AttackSetup, Side};
use super::error::{RuleError, add, bounded};
use super::gear::{Gear, GearSheet, GearStatus, Upgrade};
use super::moves::{self, CollisionCause, CollisionOutcome, MovePlan, MoveRequest, SpinOutOutcome};
use super::roll::{self, CheckOutcome, Pool, Source};
use super::state::{Activation, Change, GearEvent, Hit, RecoveryOrder, SpinOutCause};
use super::tables::Scenario;
use crate::dice::Roller;

/// How many times tied gears reroll before the engine gives up (ties that long are absurd).
pub const MAX_TIE_REROLLS: u32 = 50;
/// Most gears in one race.
pub const MAX_GEARS: usize = 24;
/// Spin-outs a Derby gear must cause to win (seed ダービー).
pub const DERBY_SPIN_OUTS: u32 = 6;

/// Table settings the seed or the note leave to the players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceOptions {
    /// Which boxes recovery refills first. Default: Hull, then Structure (the seed's rattled
    /// token goes once Hull is back; Structure first is a house option).
    #[serde(default)]
    pub recovery_order: RecoveryOrder,
    /// Seed オプション・ルール 紳士のスポーツ: no attacks in the first round. Default off.
    #[serde(default)]
    pub gentlemens_sport: bool,
}

impl Default for RaceOptions {
    fn default() -> Self {
        RaceOptions {
            recovery_order: RecoveryOrder::HullFirst,
            gentlemens_sport: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The roster key the bot uses.
    pub id: String,
    pub gear: Gear,
}

/// One race: plain serde data, changed only by the pure methods below.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceState {
    #[serde(default)]
    pub options: RaceOptions,
    pub scenario: Option<Scenario>,
    pub laps: u32,
    /// 0 before the first round.
    pub round: u32,
    pub entries: Vec<Entry>,
    /// Who holds the pole position token.
    pub pole: Option<String>,
    /// Who won this round's initiative.
    pub initiative: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum RaceEvent {
    AddGear {
        id: String,
        sheet: GearSheet,
    },
    RemoveGear {
        id: String,
    },
    SetScenario {
        scenario: Option<Scenario>,
        laps: u32,
    },
    SetOptions {
        options: RaceOptions,
    },
    /// The next round: every gear may activate again.
    StartRound,
    Gear {
        id: String,
        event: GearEvent,
    },
}

impl RaceState {
    pub fn new(laps: u32, options: RaceOptions) -> Result<RaceState, RuleError> {
        bounded("laps", i64::from(laps), 1, 99)?;
        Ok(RaceState {
            options,
            scenario: None,
            laps,
            round: 0,
            entries: Vec::new(),
            pole: None,
            initiative: None,
        })
    }

    pub fn gear(&self, id: &str) -> Result<&Gear, RuleError> {
        self.entries
            .iter()
            .find(|e| e.id == id)
            .map(|e| &e.gear)
            .ok_or_else(|| RuleError::UnknownGear { id: id.to_string() })
    }

    /// The id of the gear `typed` names: exactly, else ignoring case.
    pub fn find_id(&self, typed: &str) -> Result<String, RuleError> {
        let typed = typed.trim();
        self.entries
            .iter()
            .find(|e| e.id == typed)
            .or_else(|| {
                self.entries
                    .iter()
                    .find(|e| e.id.to_lowercase() == typed.to_lowercase())
            })
            .map(|e| e.id.clone())
            .ok_or_else(|| RuleError::UnknownGear {
                id: typed.to_string(),
            })
    }

    fn index(&self, id: &str) -> Result<usize, RuleError> {
        self.entries
            .iter()
            .position(|e| e.id == id)
            .ok_or_else(|| RuleError::UnknownGear { id: id.to_string() })
    }

    fn set(&mut self, id: &str, gear: Gear) -> Result<(), RuleError> {
        let i = self.index(id)?;
        self.entries[i].gear = gear;
        Ok(())
    }

    /// Status lines for the race board, in roster order.
    pub fn board(&self) -> Vec<(String, GearStatus)> {
        self.entries
            .iter()
            .map(|e| (e.id.clone(), e.gear.status()))
            .collect()
    }

    pub fn apply(&self, event: &RaceEvent) -> Result<RaceState, RuleError> {
        self.step(event).map(|(r, _)| r)
    }

    /// Apply an event; gear events also return their changes.
    pub fn step(&self, event: &RaceEvent) -> Result<(RaceState, Vec<Change>), RuleError> {
        let mut r = self.clone();
        let mut changes = Vec::new();
        match event {
            RaceEvent::AddGear { id, sheet } => {
                bounded("gear id length", id.chars().count() as i64, 1, 100)?;
                if self.index(id).is_ok() {
                    return Err(RuleError::DuplicateGear { id: id.clone() });
                }
                if self.entries.len() >= MAX_GEARS {
                    return Err(RuleError::OutOfBounds {
                        field: "gears".into(),
                        value: self.entries.len() as i64 + 1,
                        min: 1,
                        max: MAX_GEARS as i64,
                    });
                }
                r.entries.push(Entry {
                    id: id.clone(),
                    gear: Gear::new(sheet.clone())?,
                });
            }
            RaceEvent::RemoveGear { id } => {
                let i = self.index(id)?;
                r.entries.remove(i);
            }
            RaceEvent::SetScenario { scenario, laps } => {
                bounded("laps", i64::from(*laps), 1, 99)?;
                r.scenario = *scenario;
                r.laps = *laps;
            }
            RaceEvent::SetOptions { options } => r.options = *options,
            RaceEvent::StartRound => {
                r.round = add(r.round, 1)?;
                for e in &mut r.entries {
                    e.gear = e.gear.apply(&GearEvent::NewRound)?;
                }
            }
            RaceEvent::Gear { id, event } => {
                let event = match event {
                    // Laps are counted against this race's length and round.
                    GearEvent::CompleteLap { .. } => GearEvent::CompleteLap {
                        round: r.round,
                        race_laps: r.laps,
                    },
                    other => other.clone(),
                };
                let (mut g, ch) = self.gear(id)?.step(&event)?;
                if matches!(event, GearEvent::CausedSpinOut) {
                    mark_derby(&mut g, r.round);
                }
                r.set(id, g)?;
                changes = ch;
            }
        }
        Ok((r, changes))
    }
}

/// A gear event applied, its changes collected (used by attacks, actions and collisions).
fn step_into(g: Gear, event: &GearEvent, changes: &mut Vec<Change>) -> Result<Gear, RuleError> {
    let (g, ch) = g.step(event)?;
    changes.extend(ch);
    Ok(g)
}

/// Derby: remember the round in which the gear reached its sixth spin-out caused.
fn mark_derby(g: &mut Gear, round: u32) {
    if g.state.spin_outs_caused >= DERBY_SPIN_OUTS && g.state.derby_round.is_none() {
        g.state.derby_round = Some(round);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::badlands_rally::attack::{AttackKind, Cover, Facing};
    use crate::systems::badlands_rally::gear::{Speed, Trait, WeaponChoice};
    use crate::systems::badlands_rally::gear_sheet::tests::sheet;

    fn race(ids: &[&str]) -> RaceState {
        let mut r = RaceState::new(2, RaceOptions::default()).unwrap();
        for id in ids {
            r = r
                .apply(&RaceEvent::AddGear {
                    id: id.to_string(),
                    sheet: sheet(id),
                })
                .unwrap();
        }
        r
    }

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn on(r: &RaceState, id: &str, event: GearEvent) -> RaceState {
        r.apply(&RaceEvent::Gear { id: id.into(), event }).unwrap()
    }

    #[test]
    fn roster_events() {
        let r = race(&["a", "b"]);
        assert!(matches!(
            r.apply(&RaceEvent::AddGear {
                id: "a".into(),
                sheet: sheet("a")
            }),
            Err(RuleError::DuplicateGear { .. })
        ));
        let r2 = r.apply(&RaceEvent::RemoveGear { id: "a".into() }).unwrap();
        assert_eq!(r2.entries.len(), 1);
        assert!(matches!(r2.gear("a"), Err(RuleError::UnknownGear { .. })));
        assert!(RaceState::new(0, RaceOptions::default()).is_err());
        let r3 = r.apply(&RaceEvent::StartRound).unwrap();
        assert_eq!(r3.round, 1);
        assert_eq!(r.board().len(), 2);
    }

    #[test]
    fn pole_position_ties_reroll() {
        let r = race(&["a", "b"]);
        // a: 5,3 → 5; b: 4,5 → 5+... at 4+: 5 + 1 (the 4) = 6. b wins.
        let (r2, out) = r.pole_position(&mut FixedRoller::new([5, 3, 4, 5])).unwrap();
        assert_eq!(out.winner(), Some("b"));
        assert_eq!(r2.pole.as_deref(), Some("b"));
        // Tie 6 and 6; even with positions known, pole rerolls: a 6,6 → 7, b 1,1 → 1.
        let mut dice = FixedRoller::new([6, 4, 4, 6, 6, 6, 1, 1]);
        let out = rank(
            &r,
            &ids(&["a", "b"]),
            InitiativeKind::Pole,
            &ids(&["b", "a"]),
            &mut dice,
        )
        .unwrap();
        assert_eq!(out.winner(), Some("a"));
        assert_eq!(
            out.tie_breaks,
            vec![TieBreak::Reroll {
                ids: ids(&["a", "b"])
            }]
        );
        assert_eq!(out.order[0].checks.len(), 2);
    }

    #[test]
    fn the_winner_goes_first_then_play_goes_clockwise_round_the_table() {
        let r = race(&["a", "b", "c", "d"]);
        assert_eq!(r.seating(), ids(&["a", "b", "c", "d"]));
        let entry = |id: &str, score: u32| InitiativeEntry {
            id: id.into(),
            checks: Vec::new(),
            penalty: 0,
            score,
            reliable: None,
        };
        // Ranked c, a, d, b: c acts first, then the gears seated after it, wrapping round.
        let out = InitiativeOutcome {
            kind: InitiativeKind::Round,
            order: vec![entry("c", 6), entry("a", 4), entry("d", 3), entry("b", 1)],
            tie_breaks: Vec::new(),
        };
        assert_eq!(out.play_order(&r.seating()), ids(&["c", "d", "a", "b"]));
        // A knocked-out gear (not in the check) is skipped; one not seated follows by rank.
        let out = InitiativeOutcome {
            order: vec![entry("d", 5), entry("x", 4), entry("a", 2)],
            ..out
        };
        assert_eq!(out.play_order(&r.seating()), ids(&["d", "a", "x"]));
    }

    #[test]
    fn initiative_uses_rally_dice_and_ties_go_to_the_gear_ahead() {
        let r = race(&["a", "b"]);
        let r = on(&r, "a", GearEvent::GainRallyTokens { tokens: 2 });
        // a rolls 4 dice: 1,1,1,3 → 3. b rolls 2: 3,1 → 3. Tie; b is ahead.
        let (r2, out) = r
            .initiative(&ids(&["b", "a"]), &mut FixedRoller::new([1, 1, 1, 3, 3, 1]))
            .unwrap();
        assert_eq!(out.order[1].id, "a");
        assert_eq!(out.order[1].checks[0].dice.len(), 4);
        assert_eq!(out.winner(), Some("b"));
        assert_eq!(
            out.tie_breaks,
            vec![TieBreak::Position {
                ids: ids(&["b", "a"])
            }]
        );
        assert_eq!(r2.gear("a").unwrap().state.rally_tokens, 0, "tokens spent");
        assert_eq!(r2.initiative.as_deref(), Some("b"));
        // Unknown positions: reroll with the rally dice again.
        let mut dice = FixedRoller::new([1, 1, 1, 3, 3, 1, 6, 6, 6, 6, 1, 1]);
        let (_, out) = r.initiative(&[], &mut dice).unwrap();
        assert_eq!(out.winner(), Some("a"));
        assert_eq!(out.order[0].checks[1].dice.len(), 4);
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn sponsorship_paint_and_rattled_change_initiative_dice() {
        let mut r = race(&["a", "b"]);
        r.entries[0].gear.sheet.upgrades.push(Upgrade::SponsorshipPaint);
        r.entries[1].gear.state.rattled = true;
        let (_, out) = r.pole_position(&mut FixedRoller::new([1, 1, 1, 6])).unwrap();
        let a = out.order.iter().find(|e| e.id == "a").unwrap();
        let b = out.order.iter().find(|e| e.id == "b").unwrap();
        assert_eq!(a.checks[0].dice.len(), 3);
        assert_eq!(b.checks[0].dice.len(), 1);
    }

    #[test]
    fn contested_victory_subtracts_the_rattle_record() {
        let mut r = race(&["a", "b"]);
        r.entries[0].gear.state.rattle_record = 3;
        // a: 6,5 → 7 − 3 = 4; b: 5,1 → 5. b wins. Rally tokens are not used.
        r.entries[0].gear.state.rally_tokens = 3;
        let out = r
            .contested_victory(&ids(&["a", "b"]), &[], &mut FixedRoller::new([6, 5, 5, 1]))
            .unwrap();
        assert_eq!(out.winner(), Some("b"));
        assert_eq!(out.order[1].penalty, 3);
        assert_eq!(out.order[1].score, 4);
        // Floor 0, and the leader wins a tie: a 2,1 → 2 − 3 → 0; b 1,1 → 1... make both 0.
        r.entries[1].gear.state.rattle_record = 2;
        let out = r
            .contested_victory(
                &ids(&["a", "b"]),
                &ids(&["a", "b"]),
                &mut FixedRoller::new([2, 1, 2, 1]),
            )
            .unwrap();
        assert_eq!(out.order[0].score, 0);
        assert_eq!(out.winner(), Some("a"));
    }

    #[test]
    fn laps_and_victory() {
        let r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        assert_eq!(r.victory(), Victory::None);
        let r = on(
            &r,
            "a",
            GearEvent::CompleteLap {
                round: 0,
                race_laps: 0,
            },
        );
        let r = on(
            &r,
            "a",
            GearEvent::CompleteLap {
                round: 0,
                race_laps: 0,
            },
        );
        assert_eq!(r.gear("a").unwrap().state.finished_round, Some(1));
        assert_eq!(
            r.victory(),
            Victory::RoundNotOver {
                round: 1,
                ids: ids(&["a"])
            }
        );
        assert_eq!(
            r.apply(&RaceEvent::StartRound).unwrap().victory(),
            Victory::Uncontested { id: "a".into() }
        );
        let r = on(
            &r,
            "b",
            GearEvent::CompleteLap {
                round: 0,
                race_laps: 0,
            },
        );
        let r = on(
            &r,
            "b",
            GearEvent::CompleteLap {
                round: 0,
                race_laps: 0,
            },
        );
        let r = r.apply(&RaceEvent::StartRound).unwrap();
        assert_eq!(
            r.victory(),
            Victory::Contested {
                ids: ids(&["a", "b"])
            }
        );
    }

    #[test]
    fn derby_counts_spin_outs_caused() {
        // Counts stored without their round are taken as settled before this round.
        let mut r = race(&["a", "b", "c"]).apply(&RaceEvent::StartRound).unwrap();
        r.scenario = Some(Scenario::Derby);
        r.entries[0].gear.state.spin_outs_caused = 6;
        assert_eq!(r.victory(), Victory::Derby { id: "a".into() });
        r.entries[1].gear.state.spin_outs_caused = 7;
        assert_eq!(
            r.victory(),
            Victory::Contested {
                ids: ids(&["a", "b"])
            }
        );
    }

    fn rifle_attack(attacker: &str, defender: &str) -> RaceAttack {
        RaceAttack {
            attacker: attacker.into(),
            defender: defender.into(),
            setup: AttackSetup {
                kind: AttackKind::Weapon(WeaponChoice::Sheet(0)),
                facing: Facing::Front,
                distance: 4,
                cover: Cover::default(),
                attack_extra: 0,
                defence_extra: 0,
            },
            reaction: false,
            adjacent: vec![],
        }
    }

    #[test]
    fn race_attack_spends_the_action_and_applies_damage() {
        let r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        let req = rifle_attack("a", "b");
        assert!(matches!(
            r.attack(&req, &mut FixedRoller::new([])),
            Err(RuleError::NotActivating { .. })
        ));
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        // MOS 4 → 5 damage dice: 4,4,1,6,2 → 3 damage on 2/1: 0/0, spin-out: turn 2, skid 3 (+0).
        let mut dice = FixedRoller::new([6, 5, 3, 2, 4, 4, 1, 6, 2, 2, 3]);
        let (r2, rep) = r.attack(&req, &mut dice).unwrap();
        assert_eq!(dice.remaining(), 0);
        let b = r2.gear("b").unwrap();
        assert_eq!((b.state.hull, b.state.structure), (0, 0));
        assert_eq!(rep.defender_status.rattle_record, 1);
        let so = rep.defender_spin_out.unwrap();
        assert_eq!(so.skid, 3);
        assert_eq!(r2.gear("a").unwrap().state.spin_outs_caused, 1);
        assert_eq!(
            rep.attacker_status.spin_outs_caused, 1,
            "the Derby count is on the status"
        );
        assert!(matches!(
            r2.attack(&req, &mut FixedRoller::new([])),
            Err(RuleError::NoActionLeft { .. })
        ));
    }

    #[test]
    fn grudge_match_and_pyrotechnics_tokens() {
        let mut r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        r.scenario = Some(Scenario::GrudgeMatch);
        r.entries[0].gear.sheet.traits.push(Trait::Pyrotechnics);
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        // MOS 0 → 1 die: 4 → 1 damage; b 2/1 → 1/1: no rattle.
        let (r1, _) = r
            .attack(&rifle_attack("a", "b"), &mut FixedRoller::new([5, 1, 5, 2, 4]))
            .unwrap();
        assert_eq!(r1.gear("a").unwrap().state.rally_tokens, 0);
        // MOS 1 → 2 dice: 4,4 → 2 damage → Hull 0: rattled → a token; no spin-out.
        let (r2, _) = r
            .attack(&rifle_attack("a", "b"), &mut FixedRoller::new([6, 1, 5, 2, 4, 4]))
            .unwrap();
        assert_eq!(r2.gear("a").unwrap().state.rally_tokens, 1);
        // 3 damage → 0/0 spin-out; b rolls a 6: b gets a token, Pyrotechnics gives a one too.
        let (r3, rep) = r
            .attack(
                &rifle_attack("a", "b"),
                &mut FixedRoller::new([6, 4, 5, 2, 4, 4, 4, 6]),
            )
            .unwrap();
        assert!(rep.defender_spin_out.unwrap().recovered);
        assert_eq!(r3.gear("b").unwrap().state.rally_tokens, 1);
        assert_eq!(r3.gear("a").unwrap().state.rally_tokens, 2);
    }

    #[test]
    fn reaction_attack_and_gentlemens_sport() {
        let r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        let mut req = rifle_attack("b", "a");
        req.reaction = true;
        let (r2, _) = r.attack(&req, &mut FixedRoller::new([1, 1, 6, 6])).unwrap();
        assert!(r2.gear("b").unwrap().state.action_borrowed);
        assert!(matches!(
            r2.attack(&req, &mut FixedRoller::new([])),
            Err(RuleError::NoReactionLeft { .. })
        ));
        let mut g = r.clone();
        g.options.gentlemens_sport = true;
        assert_eq!(
            g.attack(&req, &mut FixedRoller::new([])),
            Err(RuleError::GentlemensSport)
        );
    }

    #[test]
    fn push_fumble_spins_the_pusher() {
        let r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        let mut req = rifle_attack("a", "b");
        req.setup.kind = AttackKind::Push;
        req.setup.distance = 1;
        // Attack 1,1; defence 3,2; attacker spin: turn 4, skid 5.
        let (r2, rep) = r.attack(&req, &mut FixedRoller::new([1, 1, 3, 2, 4, 5])).unwrap();
        assert!(rep.attack.attacker_fumble);
        let so = rep.attacker_spin_out.unwrap();
        assert_eq!(so.causes, vec![SpinOutCause::PushFumble]);
        assert_eq!(so.skid, 5);
        assert_eq!(
            r2.gear("a").unwrap().state.activation,
            super::super::state::Activation::Done
        );
    }

    #[test]
    fn area_effect_hits_adjacent_gears() {
        let mut r = race(&["a", "b", "c"]).apply(&RaceEvent::StartRound).unwrap();
        r.entries[0].gear.sheet.weapons[0].traits = vec![super::super::gear::WeaponTrait::AreaEffect];
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        let mut req = rifle_attack("a", "b");
        req.adjacent = ids(&["c"]);
        // MOS 1 → 2 dice: 4,4 → 2 damage; c takes 1.
        let (r2, rep) = r.attack(&req, &mut FixedRoller::new([6, 1, 5, 2, 4, 4])).unwrap();
        assert_eq!(rep.attack.area_damage, Some(1));
        assert_eq!(r2.gear("c").unwrap().state.hull, 1);
    }

    #[test]
    fn reliable_attack_reroll_once_per_lap() {
        let mut r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        r.entries[0].gear.sheet.traits.push(Trait::Reliable);
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        let req = rifle_attack("a", "b");
        let (_, first) = r.attack(&req, &mut FixedRoller::new([2, 1, 6, 5])).unwrap();
        assert!(!first.attack.hit);
        let (r2, again) = r
            .attack_reroll(
                &req,
                &first.attack,
                Side::Attacker,
                &mut FixedRoller::new([6, 6, 4]),
            )
            .unwrap();
        assert!(again.attack.hit);
        assert_eq!(r2.gear("b").unwrap().state.hull, 1);
        assert_eq!(r2.gear("a").unwrap().state.reliable_used_lap, Some(0));
        assert!(matches!(
            r.attack_reroll(&req, &first.attack, Side::Defender, &mut FixedRoller::new([])),
            Err(RuleError::MissingTrait { .. })
        ));
    }

    #[test]
    fn both_sides_reroll_in_turn_from_the_state_before_the_attack() {
        let mut r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        r.entries[0].gear.sheet.traits.push(Trait::Reliable);
        r.entries[1].gear.sheet.traits.push(Trait::Reliable);
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        let req = rifle_attack("a", "b");
        let (_, first) = r.attack(&req, &mut FixedRoller::new([2, 1, 6, 5])).unwrap();
        // The attacker rerolls (6,6 → 7 against the kept 7: MOS 0, one damage die).
        let (_, second) = r
            .attack_reroll(
                &req,
                &first.attack,
                Side::Attacker,
                &mut FixedRoller::new([6, 6, 1]),
            )
            .unwrap();
        assert_eq!(second.attack.margin, Some(0));
        // Then the defender, from the state before the attack with the attacker's reroll spent.
        let spent = on(&r, "a", GearEvent::UseReliable);
        let (r3, third) = spent
            .attack_reroll(
                &req,
                &second.attack,
                Side::Defender,
                &mut FixedRoller::new([2, 1, 1, 1, 1, 1, 1, 1]),
            )
            .unwrap();
        assert_eq!(
            third.attack.attack, second.attack.attack,
            "the attacker's reroll is kept"
        );
        assert_eq!(third.attack.margin, Some(5));
        assert_eq!(r3.gear("a").unwrap().state.reliable_used_lap, Some(0));
        assert_eq!(r3.gear("b").unwrap().state.reliable_used_lap, Some(0));
        assert!(!r3.gear("a").unwrap().reliable_available());
        // The attacker cannot reroll again in this lap.
        assert!(matches!(
            spent.attack_reroll(&req, &third.attack, Side::Attacker, &mut FixedRoller::new([6, 6])),
            Err(RuleError::AlreadyUsed { .. })
        ));
    }

    #[test]
    fn show_off_central_tokens_for_jumping_gears() {
        let mut r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        r.scenario = Some(Scenario::ShowOffCentral);
        let r = on(
            &r,
            "a",
            GearEvent::Activate {
                speed: Speed::Cruising,
            },
        );
        let req = MoveRequest {
            gears_jumped: 1,
            ..MoveRequest::default()
        };
        let (r2, rep) = r
            .act("a", &Action::Jump(req), &mut FixedRoller::new([5, 4]))
            .unwrap();
        assert_eq!(rep.status.rally_tokens, 1);
        assert_eq!(r2.gear("a").unwrap().state.mr_left(), 9);
    }

    #[test]
    fn collisions_apply_to_both_gears() {
        let mut r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        r.entries[0].gear.sheet.ar = 4;
        // Push MOS 2: a takes 3 dice (4,4,4 → 3 → 0/0, spin: 1, skid 1), b takes 1 die (5 → 1, spins: 2, skid 2).
        let mut dice = FixedRoller::new([4, 4, 4, 5, 1, 1, 2, 2]);
        let (r2, rep) = r
            .collide("a", Some("b"), CollisionCause::Push { mos: 2 }, &mut dice)
            .unwrap();
        assert_eq!(dice.remaining(), 0);
        assert_eq!(rep.outcome.moving.damage, 3);
        assert!(rep.moving_spin_out.is_some() && rep.struck_spin_out.is_some());
        assert_eq!(r2.gear("b").unwrap().state.hull, 1);
        // Terrain: always 2D6.
        let (_, rep) = r
            .collide(
                "b",
                None,
                CollisionCause::Skid { distance: 5 },
                &mut FixedRoller::new([3, 2]),
            )
            .unwrap();
        assert_eq!(rep.outcome.moving.dice_count, 2);
        assert!(rep.moving_spin_out.is_none(), "no damage, no spin-out");
    }

    #[test]
    fn a_pusher_is_credited_with_the_spin_outs_of_a_collision() {
        let mut r = race(&["a", "b", "c"]).apply(&RaceEvent::StartRound).unwrap();
        r.scenario = Some(Scenario::Derby);
        r.entries[0].gear.sheet.ar = 4;
        // c pushed a into b (MOS 2): both take damage and spin out, as in the test above.
        let mut dice = FixedRoller::new([4, 4, 4, 5, 1, 1, 2, 2]);
        let (r2, rep) = r
            .collide_by(
                "a",
                Some("b"),
                CollisionCause::Push { mos: 2 },
                Some("c"),
                &mut dice,
            )
            .unwrap();
        assert_eq!(dice.remaining(), 0);
        assert_eq!(rep.caused_by, Some(("c".to_string(), 2)));
        assert_eq!(r2.gear("c").unwrap().state.spin_outs_caused, 2);
        assert_eq!(r2.gear("c").unwrap().status().spin_outs_caused, 2);
        // The pusher itself is not credited for its own spin-out.
        let (r3, rep) = r
            .collide_by(
                "a",
                Some("b"),
                CollisionCause::Push { mos: 2 },
                Some("a"),
                &mut FixedRoller::new([4, 4, 4, 5, 1, 1, 2, 2]),
            )
            .unwrap();
        assert_eq!(rep.caused_by, Some(("a".to_string(), 1)));
        assert_eq!(r3.gear("a").unwrap().state.spin_outs_caused, 1);
        // No damage, no spin-out, nothing credited; an unknown gear is refused.
        let (_, rep) = r
            .collide_by(
                "b",
                None,
                CollisionCause::Skid { distance: 3 },
                Some("c"),
                &mut FixedRoller::new([3, 2]),
            )
            .unwrap();
        assert_eq!(rep.caused_by, Some(("c".to_string(), 0)));
        assert!(matches!(
            r.collide_by(
                "b",
                None,
                CollisionCause::Skid { distance: 3 },
                Some("zz"),
                &mut FixedRoller::new([3, 2])
            ),
            Err(RuleError::UnknownGear { .. })
        ));
        // Six spin-outs caused win the Derby.
        let mut r4 = r2.clone();
        r4.entries[2].gear.state.spin_outs_caused = 6;
        assert_eq!(r4.victory(), Victory::Derby { id: "c".into() });
    }

    #[test]
    fn race_round_trips_through_json() {
        let r = race(&["a", "b"]).apply(&RaceEvent::StartRound).unwrap();
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<RaceState>(&json).unwrap(), r);
    }
}
