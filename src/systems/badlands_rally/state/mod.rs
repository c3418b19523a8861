//! The gear state machine: hits, the rattled token and record, off balance, spin-outs,
//! activations, actions, MR, rally tokens and laps. Pure transitions on plain serde data; what a
//! hit does (damage, rattling, the record, spin-outs due, recovery) is in `hits.rs`.

use serde::{Deserialize, Serialize};

use super::error::{RuleError, add};
use super::gear::Gear;
use super::gear_sheet::{Speed, Trait};

mod hits;

// The tracked data lives in `gear_state` so `gear::Gear` can hold a `GearState` without importing
// this module, which implements the transitions on `Gear`; re-exported to keep the old paths
// (`state::GearState`, `state::Activation`…).
pub use super::gear_state::{Activation, GearState, PendingSpinOut, SpinOutCause};

/// Which boxes recovery refills first. The seed ties the rattled token to Hull coming back
/// (ラタルド: そのギアが少なくともハル値が1に回復するまで) and gives a gear at 0 a fixed 1-hit
/// recovery, so recovery refills Hull first by default; Structure first is a house option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryOrder {
    /// The reverse of damage: Structure, then Hull (house option).
    StructureFirst,
    #[default]
    HullFirst,
}

/// Damage arriving at a gear, with any spin-out the same event causes regardless of damage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Hit {
    pub damage: u32,
    /// An attack hit it (MOS 0+): off balance and Exposed Crew care.
    pub attack_hit: bool,
    /// Came from an attack at all (the attacker picks the spin direction).
    pub from_attack: bool,
    /// Impact weapon: spins out when damaged.
    pub impact: bool,
    /// A collision: spins out when damaged.
    pub collision: bool,
    /// Spin-outs caused by the dice rather than the damage (defence all ones, Exposed Movement).
    pub spin_out: Vec<SpinOutCause>,
}

/// A state change, as an input. Apply with [`Gear::apply`] or [`Gear::step`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "event")]
pub enum GearEvent {
    NewRound,
    Activate {
        speed: Speed,
    },
    EndActivation,
    SpendAction,
    /// A passive gear spends this round's action on a reaction attack (seed リアクション攻撃).
    ReactionAttack,
    SpendMr {
        mr: u32,
    },
    GainMr {
        mr: u32,
    },
    Hit(Hit),
    /// The spin-out dice: `recovered` on a 6; else `skid` hexes (1D6 + excess).
    SpinOutResolved {
        recovered: bool,
        skid: u32,
    },
    /// Recovery of `healed` hits; `action_regained` on a 6.
    Recover {
        healed: u32,
        action_regained: bool,
        order: RecoveryOrder,
    },
    /// "This is a race!": going the wrong way advances the record without the token.
    WrongWay,
    GainRallyTokens {
        tokens: u32,
    },
    SpendRallyTokens,
    CompleteLap {
        round: u32,
        race_laps: u32,
    },
    UseReliable,
    /// Off-Road Specialist: ignore this many rough hexes this activation.
    UseOffRoad {
        hexes: u32,
    },
    /// Movement: spend MR, using up rough hexes Off-Road Specialist ignored.
    Moved {
        mr: u32,
        rough_ignored: u32,
    },
    CausedSpinOut,
}

/// What a transition did, for the embed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "change")]
pub enum Change {
    HullLost {
        hits: u32,
    },
    StructureLost {
        hits: u32,
    },
    ExcessDamage {
        hits: u32,
    },
    Rattled {
        record: u8,
    },
    /// Hull hit 0 again while the rattle lock holds: no token, no record.
    RattleIgnored,
    /// Rattled during its own top-speed activation: cruising speed from now on.
    DroppedToCruising,
    PermanentlyRattled,
    KnockedOut,
    OffBalance,
    SpinOutDue {
        cause: SpinOutCause,
    },
    /// A second spin-out in one round is ignored.
    SpinOutIgnored {
        cause: SpinOutCause,
    },
    SpunOut {
        skid: u32,
    },
    SpinOutRecovered,
    ActivationEnded,
    Recovered {
        hits: u32,
    },
    RattledTokenRemoved,
    OffBalanceCleared,
    ActionRegained,
    RallyTokens {
        tokens: u32,
    },
    LapCompleted {
        laps: u32,
    },
    Finished {
        round: u32,
    },
}

impl Gear {
    /// Apply one event; the gear is unchanged on error.
    pub fn apply(&self, event: &GearEvent) -> Result<Gear, RuleError> {
        self.step(event).map(|(g, _)| g)
    }

    /// Apply one event and list what changed.
    pub fn step(&self, event: &GearEvent) -> Result<(Gear, Vec<Change>), RuleError> {
        let mut g = self.clone();
        let mut changes = Vec::new();
        g.transition(event, &mut changes)?;
        Ok((g, changes))
    }

    fn name_owned(&self) -> String {
        self.sheet.name.clone()
    }

    pub(crate) fn ensure_in_race(&self) -> Result<(), RuleError> {
        if self.state.knocked_out {
            return Err(RuleError::KnockedOut {
                name: self.name_owned(),
            });
        }
        Ok(())
    }

    fn ensure_no_pending(&self) -> Result<(), RuleError> {
        if self.state.pending_spin_out.is_some() {
            return Err(RuleError::SpinOutPending {
                name: self.name_owned(),
            });
        }
        Ok(())
    }

    /// The active gear's actions left, or an error naming why it cannot act.
    pub(crate) fn ensure_action(&self, recovering: bool) -> Result<(), RuleError> {
        self.ensure_in_race()?;
        self.ensure_no_pending()?;
        match self.state.activation {
            Activation::Active { actions, .. } => {
                if self.state.must_recover && !recovering {
                    Err(RuleError::MustRecover {
                        name: self.name_owned(),
                    })
                } else if actions == 0 {
                    Err(RuleError::NoActionLeft {
                        name: self.name_owned(),
                    })
                } else {
                    Ok(())
                }
            }
            _ => Err(RuleError::NotActivating {
                name: self.name_owned(),
            }),
        }
    }

    fn transition(&mut self, event: &GearEvent, ch: &mut Vec<Change>) -> Result<(), RuleError> {
        match event {
            GearEvent::NewRound => {
                let s = &mut self.state;
                s.activation = Activation::Waiting;
                s.action_borrowed = false;
                // Seed スピニングアウト: once per gear per round.
                s.spun_out_this_round = false;
            }
            GearEvent::Activate { speed } => {
                self.ensure_in_race()?;
                self.ensure_no_pending()?;
                if self.state.activation != Activation::Waiting {
                    return Err(RuleError::AlreadyActivated {
                        name: self.name_owned(),
                    });
                }
                // Seed ラタルドの影響: cruising speed only; recovery too (seed リカバリー).
                if *speed == Speed::Top && self.state.rattled {
                    return Err(RuleError::RattledTopSpeed);
                }
                if *speed == Speed::Top && self.state.must_recover {
                    return Err(RuleError::RecoveryTopSpeed);
                }
                let s = &mut self.state;
                // Seed ラタルド: the lock lasts until the gear's next activation.
                s.rattle_locked = false;
                s.off_road_used = false;
                s.rough_ignorable = 0;
                s.activation = Activation::Active {
                    speed: *speed,
                    actions: if s.action_borrowed { 0 } else { 1 },
                    mr_left: self.sheet.mr,
                };
            }
            GearEvent::EndActivation => {
                if !self.state.is_active() {
                    return Err(RuleError::NotActivating {
                        name: self.name_owned(),
                    });
                }
                // Seed 4.3: back to cruising, unused actions lost.
                self.state.activation = Activation::Done;
                ch.push(Change::ActivationEnded);
            }
            GearEvent::SpendAction => {
                self.ensure_action(false)?;
                if let Activation::Active { actions, .. } = &mut self.state.activation {
                    *actions -= 1;
                }
            }
            GearEvent::ReactionAttack => {
                self.ensure_in_race()?;
                self.ensure_no_pending()?;
                // Seed ヒット値0: the next activation can only recover, so no action to borrow.
                if self.state.must_recover {
                    return Err(RuleError::MustRecover {
                        name: self.name_owned(),
                    });
                }
                if self.state.activation != Activation::Waiting || self.state.action_borrowed {
                    return Err(RuleError::NoReactionLeft {
                        name: self.name_owned(),
                    });
                }
                self.state.action_borrowed = true;
            }
            GearEvent::SpendMr { mr } => {
                let name = self.name_owned();
                match &mut self.state.activation {
                    Activation::Active { mr_left, .. } => {
                        if *mr > *mr_left {
                            return Err(RuleError::NotEnoughMr {
                                name,
                                left: *mr_left,
                                needed: *mr,
                            });
                        }
                        *mr_left -= mr;
                    }
                    _ => return Err(RuleError::NotActivating { name }),
                }
            }
            GearEvent::GainMr { mr } => {
                let name = self.name_owned();
                match &mut self.state.activation {
                    Activation::Active { mr_left, .. } => *mr_left = add(*mr_left, *mr)?,
                    _ => return Err(RuleError::NotActivating { name }),
                }
            }
            GearEvent::Hit(hit) => self.take_hit(hit, ch)?,
            GearEvent::SpinOutResolved { recovered, skid } => {
                if self.state.pending_spin_out.is_none() {
                    return Err(RuleError::NoSpinOutPending {
                        name: self.name_owned(),
                    });
                }
                self.state.pending_spin_out = None;
                if *recovered {
                    // Seed 出目6で立て直した場合: no skid, activation goes on, one Rally token.
                    ch.push(Change::SpinOutRecovered);
                    self.gain_tokens(1, ch)?;
                } else {
                    ch.push(Change::SpunOut { skid: *skid });
                    // Seed スピニングアウト: an active gear's activation ends at once.
                    if self.state.is_active() {
                        self.state.activation = Activation::Done;
                        ch.push(Change::ActivationEnded);
                    }
                }
            }
            GearEvent::Recover {
                healed,
                action_regained,
                order,
            } => {
                self.ensure_in_race()?;
                self.ensure_no_pending()?;
                self.recover(*healed, *order, ch);
                if *action_regained && let Activation::Active { actions, .. } = &mut self.state.activation {
                    *actions = actions.saturating_add(1);
                    ch.push(Change::ActionRegained);
                }
            }
            GearEvent::WrongWay => {
                self.ensure_in_race()?;
                // Seed これはレースだ！: the record advances; no token, no rattled penalty.
                self.advance_record(ch);
            }
            GearEvent::GainRallyTokens { tokens } => self.gain_tokens(*tokens, ch)?,
            GearEvent::SpendRallyTokens => self.state.rally_tokens = 0,
            GearEvent::CompleteLap { round, race_laps } => {
                if self.state.finished_round.is_some() {
                    return Err(RuleError::AlreadyFinished {
                        name: self.name_owned(),
                    });
                }
                self.ensure_in_race()?;
                self.state.laps = add(self.state.laps, 1)?;
                ch.push(Change::LapCompleted {
                    laps: self.state.laps,
                });
                if self.state.laps >= *race_laps {
                    self.state.finished_round = Some(*round);
                    ch.push(Change::Finished { round: *round });
                }
            }
            GearEvent::UseReliable => {
                // Seed データカード Hunter: Reliable — one reroll per lap.
                self.require(Trait::Reliable)?;
                if self.state.reliable_used_lap == Some(self.state.laps) {
                    return Err(RuleError::AlreadyUsed {
                        name: self.name_owned(),
                        what: "Reliable".into(),
                        period: "lap".into(),
                    });
                }
                self.state.reliable_used_lap = Some(self.state.laps);
            }
            GearEvent::UseOffRoad { hexes } => {
                self.require(Trait::OffRoadSpecialist)?;
                if self.state.off_road_used {
                    return Err(RuleError::AlreadyUsed {
                        name: self.name_owned(),
                        what: "Off-Road Specialist".into(),
                        period: "turn".into(),
                    });
                }
                self.state.off_road_used = true;
                self.state.rough_ignorable = *hexes;
            }
            GearEvent::Moved { mr, rough_ignored } => {
                self.transition(&GearEvent::SpendMr { mr: *mr }, ch)?;
                self.state.rough_ignorable = self.state.rough_ignorable.saturating_sub(*rough_ignored);
            }
            GearEvent::CausedSpinOut => {
                self.state.spin_outs_caused = add(self.state.spin_outs_caused, 1)?;
            }
        }
        Ok(())
    }

    pub(crate) fn require(&self, t: Trait) -> Result<(), RuleError> {
        if self.sheet.has(t) {
            Ok(())
        } else {
            Err(RuleError::MissingTrait {
                name: self.name_owned(),
                what: t.name(crate::i18n::Lang::En).to_string(),
            })
        }
    }

    fn gain_tokens(&mut self, tokens: u32, ch: &mut Vec<Change>) -> Result<(), RuleError> {
        if tokens > 0 {
            self.state.rally_tokens = add(self.state.rally_tokens, tokens)?;
            ch.push(Change::RallyTokens { tokens });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::badlands_rally::gear_sheet::tests::sheet;

    pub(super) fn gear() -> Gear {
        Gear::new(sheet("Pitbull")).unwrap()
    }

    pub(super) fn hit(damage: u32) -> GearEvent {
        GearEvent::Hit(Hit {
            damage,
            attack_hit: true,
            from_attack: true,
            ..Hit::default()
        })
    }

    pub(super) fn activate(g: &Gear) -> Gear {
        g.apply(&GearEvent::NewRound)
            .unwrap()
            .apply(&GearEvent::Activate {
                speed: Speed::Cruising,
            })
            .unwrap()
    }

    #[test]
    fn spin_out_once_per_round() {
        let g = gear();
        let impact = GearEvent::Hit(Hit {
            damage: 1,
            impact: true,
            from_attack: true,
            attack_hit: true,
            ..Hit::default()
        });
        let g = g.apply(&impact).unwrap();
        assert!(g.state.pending_spin_out.is_some());
        let g = g
            .apply(&GearEvent::SpinOutResolved {
                recovered: false,
                skid: 2,
            })
            .unwrap();
        let mut big = g.clone();
        big.state.hull = 2;
        let (g2, ch) = big.step(&impact).unwrap();
        assert!(g2.state.pending_spin_out.is_none());
        assert!(ch.contains(&Change::SpinOutIgnored {
            cause: SpinOutCause::Impact
        }));
        // Next round it can spin out again.
        let g3 = big.apply(&GearEvent::NewRound).unwrap().apply(&impact).unwrap();
        assert!(g3.state.pending_spin_out.is_some());
    }

    #[test]
    fn exposed_crew_spins_out_when_rattled_by_an_attack() {
        let mut s = sheet("Sapeur");
        s.traits.push(Trait::ExposedCrew);
        let g = Gear::new(s).unwrap().apply(&hit(2)).unwrap();
        let p = g.state.pending_spin_out.unwrap();
        assert_eq!(p.causes, vec![SpinOutCause::ExposedCrew]);
        // Not an attack (a collision counts separately): no Exposed Crew.
        let g = Gear::new(sheet("Other")).unwrap().apply(&hit(2)).unwrap();
        assert!(g.state.pending_spin_out.is_none());
    }

    #[test]
    fn spin_out_ends_activation_unless_recovered() {
        let mut g = activate(&gear());
        g.state.pending_spin_out = Some(PendingSpinOut {
            causes: vec![SpinOutCause::SpecialMoveAllOnes],
            excess_skid: 0,
            from_attack: false,
        });
        let (done, ch) = g
            .step(&GearEvent::SpinOutResolved {
                recovered: false,
                skid: 4,
            })
            .unwrap();
        assert_eq!(done.state.activation, Activation::Done);
        assert!(ch.contains(&Change::ActivationEnded));
        let (on, ch) = g
            .step(&GearEvent::SpinOutResolved {
                recovered: true,
                skid: 0,
            })
            .unwrap();
        assert!(on.state.is_active());
        assert_eq!(on.state.rally_tokens, 1);
        assert!(ch.contains(&Change::SpinOutRecovered));
        assert!(matches!(
            gear().apply(&GearEvent::SpinOutResolved {
                recovered: true,
                skid: 0
            }),
            Err(RuleError::NoSpinOutPending { .. })
        ));
    }

    #[test]
    fn activation_rules() {
        let g = gear().apply(&hit(2)).unwrap(); // rattled
        assert_eq!(
            g.apply(&GearEvent::Activate { speed: Speed::Top }),
            Err(RuleError::RattledTopSpeed)
        );
        let a = activate(&gear());
        assert!(matches!(
            a.apply(&GearEvent::Activate {
                speed: Speed::Cruising
            }),
            Err(RuleError::AlreadyActivated { .. })
        ));
        let a = a.apply(&GearEvent::SpendAction).unwrap();
        assert!(matches!(
            a.apply(&GearEvent::SpendAction),
            Err(RuleError::NoActionLeft { .. })
        ));
        assert!(matches!(
            a.apply(&GearEvent::SpendMr { mr: 13 }),
            Err(RuleError::NotEnoughMr { left: 12, .. })
        ));
        let a = a.apply(&GearEvent::GainMr { mr: 2 }).unwrap();
        assert_eq!(a.state.mr_left(), 14);
        let a = a.apply(&GearEvent::EndActivation).unwrap();
        assert_eq!(a.state.speed(), Speed::Cruising);
        assert!(matches!(
            a.apply(&GearEvent::EndActivation),
            Err(RuleError::NotActivating { .. })
        ));
    }

    #[test]
    fn reaction_attack_borrows_the_action() {
        let g = gear().apply(&GearEvent::ReactionAttack).unwrap();
        assert!(matches!(
            g.apply(&GearEvent::ReactionAttack),
            Err(RuleError::NoReactionLeft { .. })
        ));
        let g = g
            .apply(&GearEvent::Activate {
                speed: Speed::Cruising,
            })
            .unwrap();
        assert!(matches!(
            g.apply(&GearEvent::SpendAction),
            Err(RuleError::NoActionLeft { .. })
        ));
    }

    #[test]
    fn must_recover_blocks_other_actions_and_top_speed() {
        let g = gear().apply(&hit(3)).unwrap();
        let g = g
            .apply(&GearEvent::SpinOutResolved {
                recovered: false,
                skid: 1,
            })
            .unwrap()
            .apply(&GearEvent::NewRound)
            .unwrap();
        assert_eq!(
            g.apply(&GearEvent::Activate { speed: Speed::Top }),
            Err(RuleError::RattledTopSpeed)
        );
        let g = g
            .apply(&GearEvent::Activate {
                speed: Speed::Cruising,
            })
            .unwrap();
        assert!(matches!(
            g.apply(&GearEvent::SpendAction),
            Err(RuleError::MustRecover { .. })
        ));
    }

    #[test]
    fn wrong_way_advances_the_record_without_a_token() {
        let (g, ch) = gear().step(&GearEvent::WrongWay).unwrap();
        assert_eq!(g.state.rattle_record, 1);
        assert!(!g.state.rattled);
        assert_eq!(ch, vec![Change::Rattled { record: 1 }]);
    }

    #[test]
    fn laps_reliable_and_off_road_limits() {
        let mut s = sheet("Hunter");
        s.traits.extend([Trait::Reliable, Trait::OffRoadSpecialist]);
        let g = Gear::new(s).unwrap();
        assert!(g.reliable_available());
        let g = g.apply(&GearEvent::UseReliable).unwrap();
        assert!(!g.reliable_available(), "used on this lap");
        assert!(matches!(
            g.apply(&GearEvent::UseReliable),
            Err(RuleError::AlreadyUsed { .. })
        ));
        let (g, ch) = g
            .step(&GearEvent::CompleteLap {
                round: 3,
                race_laps: 2,
            })
            .unwrap();
        assert_eq!(ch, vec![Change::LapCompleted { laps: 1 }]);
        assert!(g.reliable_available(), "a new lap, a new reroll");
        let g = g.apply(&GearEvent::UseReliable).unwrap();
        let (g, ch) = g
            .step(&GearEvent::CompleteLap {
                round: 7,
                race_laps: 2,
            })
            .unwrap();
        assert!(ch.contains(&Change::Finished { round: 7 }));
        assert!(matches!(
            g.apply(&GearEvent::CompleteLap {
                round: 8,
                race_laps: 2
            }),
            Err(RuleError::AlreadyFinished { .. })
        ));
        let g = activate(&g).apply(&GearEvent::UseOffRoad { hexes: 2 }).unwrap();
        assert_eq!(g.state.rough_ignorable, 2);
        assert!(g.apply(&GearEvent::UseOffRoad { hexes: 1 }).is_err());
        assert!(matches!(
            gear().apply(&GearEvent::UseReliable),
            Err(RuleError::MissingTrait { .. })
        ));
        assert!(!gear().reliable_available());
    }

    #[test]
    fn state_round_trips_through_json() {
        let g = activate(&gear()).apply(&hit(3)).unwrap();
        let json = serde_json::to_string(&g).unwrap();
        let back: Gear = serde_json::from_str(&json).unwrap();
        assert_eq!(back, g);
    }
}
