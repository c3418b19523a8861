//! Special moves (burn rubber, jump), special actions (recovery, Rally the Crowd), Off-Road
//! Specialist, movement costs, and (in `control.rs`) spin-out, skid and collisions. Each function takes a gear,
//! rolls, and returns the outcome with the gear after it; the input is never changed.

use serde::{Deserialize, Serialize};

use super::error::{RuleError, add, bounded};
use super::gear::{Gear, Speed, Trait, Upgrade};
use super::roll::{self, Pool, RollOutcome, Source};
use super::state::{Activation, Change, GearEvent, Hit, RecoveryOrder, SpinOutCause};
use crate::dice::Roller;

mod control;

pub use control::{
    Chooser, CollisionCause, CollisionOutcome, CollisionRoll, SpinOutOutcome, collide, collision_hit,
    spin_out,
};

/// A resolved move: what the dice said, the gear afterwards, and the changes for the embed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolved<O> {
    pub outcome: O,
    pub gear: Gear,
    pub changes: Vec<Change>,
}

/// Which special move a test is for (their trait dice differ).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecialMove {
    BurnRubber,
    Jump,
}

/// What the player adds to a special move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct MoveRequest {
    /// Seed 修正表: equipment +1D6.
    #[serde(default)]
    pub equipment: bool,
    #[serde(default)]
    pub extra_dice: i32,
    /// Jump only: roll fewer dice than allowed.
    #[serde(default)]
    pub max_dice: Option<u32>,
    /// Jump only: gears jumped over (Show Off Central).
    #[serde(default)]
    pub gears_jumped: u32,
    /// Jump only: one of the gears jumped over is Tall.
    #[serde(default)]
    pub over_tall_gear: bool,
    /// The gear is moving backwards (special moves are not allowed).
    #[serde(default)]
    pub backwards: bool,
    /// Jump only: the hex it comes down in is rough, and pays its normal MR (seed ジャンプ②:
    /// 着地したヘクスは通常通りのMRを消費する — 2 at top speed).
    #[serde(default)]
    pub landing_rough: bool,
    /// Jump only: a gear or level-1 terrain is in the landing hex, so the gear stops in the hex
    /// before it and spins out (seed 着地点に障害物がある場合); see [`super::race::Action::Jump`].
    #[serde(default)]
    pub landing_blocked: bool,
}

/// Seed バーンラバーとジャンプ ロールの修正表, plus the traits and upgrades that add dice.
pub fn special_move_pool(gear: &Gear, kind: SpecialMove, req: &MoveRequest) -> Result<Pool, RuleError> {
    bounded("extra dice", i64::from(req.extra_dice), -20, 20)?;
    let s = &gear.sheet;
    let mut pool = Pool::standard();
    if gear.is_rattled() {
        pool.add(Source::Rattled, -1);
    } else if s.has(Trait::LowPerformance) {
        // Seed Sapeur: Low Performance — special moves always take the rattled modifier.
        pool.add(Source::LowPerformance, -1);
    }
    pool.add(Source::TopSpeed, i32::from(gear.state.speed() == Speed::Top));
    pool.add(Source::Equipment, i32::from(req.equipment));
    match kind {
        SpecialMove::BurnRubber => {
            // Seed Jerboa II / Viper II / アップグレード 出目2.
            pool.add(
                Source::BoosterRockets,
                if s.has(Trait::BoosterRockets) { 2 } else { 0 },
            );
            pool.add(Source::Overdrive, i32::from(s.has(Trait::Overdrive)));
            pool.add(Source::SpeedDemon, i32::from(s.has_upgrade(Upgrade::SpeedDemon)));
        }
        SpecialMove::Jump => {
            // Seed Jerboa: Jump Jets +2D6; アップグレード 出目3: Coiled Hydraulic Enhancer +1.
            pool.add(Source::JumpJets, if s.has(Trait::JumpJets) { 2 } else { 0 });
            pool.add(
                Source::CoiledHydraulicEnhancer,
                i32::from(s.has_upgrade(Upgrade::CoiledHydraulicEnhancer)),
            );
        }
    }
    pool.add(Source::Situational, req.extra_dice);
    pool.net()?;
    Ok(pool)
}

fn start_special_move(gear: &Gear, req: &MoveRequest) -> Result<(), RuleError> {
    gear.ensure_action(false)?;
    if req.backwards {
        // Seed 特殊移動テスト: not while moving backwards.
        return Err(RuleError::Backwards);
    }
    Ok(())
}

fn step(gear: Gear, event: &GearEvent, changes: &mut Vec<Change>) -> Result<Gear, RuleError> {
    let (g, mut ch) = gear.step(event)?;
    changes.append(&mut ch);
    Ok(g)
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BurnRubberOutcome {
    pub roll: RollOutcome,
    pub mr_gained: u32,
    pub spin_out: Option<SpinOutOutcome>,
}

/// Burn rubber: roll against Defence, +1 MR per success (seed バーンラバー).
pub fn burn_rubber(
    gear: &Gear,
    req: &MoveRequest,
    roller: &mut impl Roller,
) -> Result<Resolved<BurnRubberOutcome>, RuleError> {
    start_special_move(gear, req)?;
    let pool = special_move_pool(gear, SpecialMove::BurnRubber, req)?;
    let r = roll::roll(&pool, gear.sheet.defence, roller)?;
    let mut changes = Vec::new();
    let mut g = step(gear.clone(), &GearEvent::SpendAction, &mut changes)?;
    g = step(g, &GearEvent::GainMr { mr: r.successes }, &mut changes)?;
    let spin_out = all_ones_spin(&mut g, &r, &mut changes, roller)?;
    Ok(Resolved {
        outcome: BurnRubberOutcome {
            mr_gained: r.successes,
            roll: r,
            spin_out,
        },
        gear: g,
        changes,
    })
}

/// Seed 特殊移動テスト: every die a 1 spins the gear out and skids it 1D6.
fn all_ones_spin(
    g: &mut Gear,
    r: &RollOutcome,
    changes: &mut Vec<Change>,
    roller: &mut impl Roller,
) -> Result<Option<SpinOutOutcome>, RuleError> {
    if !r.all_ones {
        return Ok(None);
    }
    g.queue_spin_out(SpinOutCause::SpecialMoveAllOnes, changes);
    settle(g, changes, roller)
}

/// Roll any pending spin-out now.
pub(crate) fn settle(
    g: &mut Gear,
    changes: &mut Vec<Change>,
    roller: &mut impl Roller,
) -> Result<Option<SpinOutOutcome>, RuleError> {
    if g.state.pending_spin_out.is_none() || g.state.knocked_out {
        return Ok(None);
    }
    let r = spin_out(g, roller)?;
    *g = r.gear;
    changes.extend(r.changes);
    Ok(Some(r.outcome))
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JumpOutcome {
    pub roll: RollOutcome,
    /// Dice rolled: a collision on landing rolls this many damage dice.
    pub dice_rolled: u32,
    /// Hexes jumped over (the successes, as far as the MR allows).
    pub hexes_jumped: u32,
    /// Hexes moved, landing included.
    pub hexes_moved: u32,
    /// MR spent: the hexes moved, plus the rough landing hex's extra MR at top speed.
    #[serde(default)]
    pub mr_spent: u32,
    /// The landing hex was taken: the gear stopped in the hex before it.
    #[serde(default)]
    pub stopped_short: bool,
    pub spin_out: Option<SpinOutOutcome>,
}

/// Jump: roll against Defence with no more dice than MR left; successes are hexes jumped,
/// landing one hex beyond (seed ジャンプ).
pub fn jump(
    gear: &Gear,
    req: &MoveRequest,
    roller: &mut impl Roller,
) -> Result<Resolved<JumpOutcome>, RuleError> {
    start_special_move(gear, req)?;
    if req.over_tall_gear {
        return Err(RuleError::JumpOverTall {
            name: gear.sheet.name.clone(),
        });
    }
    let mut pool = special_move_pool(gear, SpecialMove::Jump, req)?;
    let allowed = pool.dice_to_roll()?;
    let mr_left = gear.state.mr_left();
    let cap = req.max_dice.map_or(mr_left, |m| m.min(mr_left));
    if allowed > cap {
        // Seed ジャンプ③: never more dice than the MR left.
        pool.add(Source::MrCap, -((allowed - cap) as i32));
    }
    let r = roll::roll(&pool, gear.sheet.defence, roller)?;
    let dice_rolled = r.dice.len() as u32;
    // 1 success: over one hex, landing on the second; never beyond the MR left.
    let hexes_moved = if r.successes == 0 {
        0
    } else {
        add(r.successes, 1)?.min(mr_left)
    };
    // Seed 着地点に障害物がある場合: a gear or level-1 terrain in the landing hex stops it in
    // the hex before (the collision and its spin-out are the race's: RaceState::act).
    let stopped_short = req.landing_blocked && hexes_moved > 0;
    let hexes_moved = if stopped_short {
        hexes_moved - 1
    } else {
        hexes_moved
    };
    let hexes_jumped = hexes_moved.saturating_sub(1);
    // Seed ジャンプ②: rough ground jumped over costs nothing extra, but the hex it comes down in
    // pays its normal MR (2 for rough at top speed), never more than the MR left.
    let top = gear.state.speed() == Speed::Top;
    let rough_landing = req.landing_rough && hexes_moved > 0 && top && !gear.sheet.has(Trait::RoughRacer);
    let rough_ignored = u32::from(rough_landing && gear.state.rough_ignorable > 0);
    let extra = u32::from(rough_landing && rough_ignored == 0);
    let mr_spent = add(hexes_moved, extra)?.min(mr_left);
    let mut changes = Vec::new();
    let mut g = step(gear.clone(), &GearEvent::SpendAction, &mut changes)?;
    g = step(
        g,
        &GearEvent::Moved {
            mr: mr_spent,
            rough_ignored,
        },
        &mut changes,
    )?;
    let spin_out = all_ones_spin(&mut g, &r, &mut changes, roller)?;
    Ok(Resolved {
        outcome: JumpOutcome {
            roll: r,
            dice_rolled,
            hexes_jumped,
            hexes_moved,
            mr_spent,
            stopped_short,
            spin_out,
        },
        gear: g,
        changes,
    })
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryOutcome {
    /// The 1D6; none for the fixed 1-hit recovery.
    pub die: Option<u32>,
    pub healed: u32,
    pub action_regained: bool,
}

/// Recovery: 1D6 hits back, a 6 returns the action; a gear whose action went on a reaction
/// attack before it dropped to 0 recovers exactly 1, without a roll (seed リカバリー).
pub fn recover(
    gear: &Gear,
    order: RecoveryOrder,
    roller: &mut impl Roller,
) -> Result<Resolved<RecoveryOutcome>, RuleError> {
    if gear.state.speed() == Speed::Top {
        return Err(RuleError::RecoveryTopSpeed);
    }
    let fixed = matches!(gear.state.activation, Activation::Active { actions: 0, .. })
        && gear.state.must_recover
        && gear.state.action_borrowed
        && gear.state.pending_spin_out.is_none();
    let mut changes = Vec::new();
    let (outcome, g) = if fixed {
        (
            RecoveryOutcome {
                die: None,
                healed: 1,
                action_regained: false,
            },
            gear.clone(),
        )
    } else {
        gear.ensure_action(true)?;
        let die = roller.roll(6)?;
        // Spend the action directly: must_recover would refuse a generic SpendAction.
        let mut g = gear.clone();
        if let Activation::Active { actions, .. } = &mut g.state.activation {
            *actions -= 1;
        }
        (
            RecoveryOutcome {
                die: Some(die),
                healed: die,
                action_regained: die == 6,
            },
            g,
        )
    };
    let g = step(
        g,
        &GearEvent::Recover {
            healed: outcome.healed,
            action_regained: outcome.action_regained,
            order,
        },
        &mut changes,
    )?;
    Ok(Resolved {
        outcome,
        gear: g,
        changes,
    })
}

/// Rally the Crowd: no test, one token for the next initiative check (seed ラリーザクラウド).
pub fn rally_the_crowd(gear: &Gear) -> Result<Resolved<u32>, RuleError> {
    let mut changes = Vec::new();
    let g = step(gear.clone(), &GearEvent::SpendAction, &mut changes)?;
    let g = step(g, &GearEvent::GainRallyTokens { tokens: 1 }, &mut changes)?;
    let tokens = g.state.rally_tokens;
    Ok(Resolved {
        outcome: tokens,
        gear: g,
        changes,
    })
}

/// Off-Road Specialist: roll Defence, ignore that many consecutive rough hexes; once per turn.
pub fn off_road(gear: &Gear, roller: &mut impl Roller) -> Result<Resolved<RollOutcome>, RuleError> {
    gear.require(Trait::OffRoadSpecialist)?;
    if !gear.state.is_active() {
        return Err(RuleError::NotActivating {
            name: gear.sheet.name.clone(),
        });
    }
    if gear.state.off_road_used {
        // Checked before rolling so no dice are wasted.
        gear.apply(&GearEvent::UseOffRoad { hexes: 0 })?;
    }
    let mut pool = Pool::standard();
    pool.add(Source::Rattled, if gear.is_rattled() { -1 } else { 0 });
    let r = roll::roll(&pool, gear.sheet.defence, roller)?;
    let mut changes = Vec::new();
    let g = step(
        gear.clone(),
        &GearEvent::UseOffRoad { hexes: r.successes },
        &mut changes,
    )?;
    Ok(Resolved {
        outcome: r,
        gear: g,
        changes,
    })
}

/// Hex terrain (seed ◆地形). Water is for Hover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    Hardpack,
    Normal,
    Rough,
    Water,
    Level1,
    Level2,
    Structure,
}

/// One hex of movement: turns made before leaving the current hex, then the hex entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    #[serde(default)]
    pub turns: u32,
    pub enter: Terrain,
    #[serde(default)]
    pub backwards: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovePlan {
    /// The hex the gear starts in (turning on hardpack is free with Urban Modification).
    pub start: Terrain,
    pub steps: Vec<Step>,
    /// Trailing turns after the last hex.
    #[serde(default)]
    pub final_turns: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveCost {
    pub mr: u32,
    pub rough_ignored: u32,
}

/// MR for a move (seed 地形, スピード, 移動; Rough Racer, Urban Modification, Hover,
/// Off-Road Specialist).
pub fn move_cost(gear: &Gear, plan: &MovePlan) -> Result<MoveCost, RuleError> {
    bounded("steps", plan.steps.len() as i64, 0, 200)?;
    let s = &gear.sheet;
    let top = gear.state.speed() == Speed::Top;
    let mut here = plan.start;
    let mut mr = 0u32;
    let mut ignorable = gear.state.rough_ignorable;
    let mut rough_ignored = 0;
    let turn_cost = |here: Terrain, turns: u32| -> u32 {
        // Cruising turns are free; Urban Modification turns free on hardpack.
        if !top || (s.has(Trait::UrbanModification) && here == Terrain::Hardpack) {
            0
        } else {
            turns
        }
    };
    for st in &plan.steps {
        if st.backwards && top {
            return Err(RuleError::Backwards);
        }
        mr = add(mr, turn_cost(here, st.turns))?;
        let enter = match st.enter {
            Terrain::Hardpack | Terrain::Normal => 1,
            Terrain::Water if s.has(Trait::Hover) => 1,
            Terrain::Rough if !top || s.has(Trait::RoughRacer) => 1,
            Terrain::Rough if ignorable > 0 => {
                ignorable -= 1;
                rough_ignored += 1;
                1
            }
            Terrain::Rough => 2,
            other => {
                return Err(RuleError::Impassable {
                    terrain: format!("{other:?}").to_lowercase(),
                });
            }
        };
        mr = add(mr, enter)?;
        here = st.enter;
    }
    mr = add(mr, turn_cost(here, plan.final_turns))?;
    Ok(MoveCost { mr, rough_ignored })
}

/// Move: spend the MR the plan costs.
pub fn travel(gear: &Gear, plan: &MovePlan) -> Result<Resolved<MoveCost>, RuleError> {
    gear.ensure_in_race()?;
    let cost = move_cost(gear, plan)?;
    let mut changes = Vec::new();
    let g = step(
        gear.clone(),
        &GearEvent::Moved {
            mr: cost.mr,
            rough_ignored: cost.rough_ignored,
        },
        &mut changes,
    )?;
    Ok(Resolved {
        outcome: cost,
        gear: g,
        changes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::badlands_rally::gear_sheet::tests::sheet;
    use crate::systems::badlands_rally::roll::Rating;

    pub(super) fn active(speed: Speed) -> Gear {
        Gear::new(sheet("G"))
            .unwrap()
            .apply(&GearEvent::Activate { speed })
            .unwrap()
    }

    fn jerboa(speed: Speed) -> Gear {
        let mut s = sheet("Jerboa");
        s.defence = Rating::new(3).unwrap();
        s.mr = 16;
        s.traits = vec![Trait::LowProfile, Trait::ExposedMovement, Trait::JumpJets];
        Gear::new(s)
            .unwrap()
            .apply(&GearEvent::Activate { speed })
            .unwrap()
    }

    #[test]
    fn seed_jerboa_burn_rubber_example() {
        // Defence 3+, Top Speed: 3 dice; 5,3,2 → 2 successes → +2 MR, 18 in all.
        let g = jerboa(Speed::Top);
        let mut dice = FixedRoller::new([5, 3, 2]);
        let r = burn_rubber(&g, &MoveRequest::default(), &mut dice).unwrap();
        assert_eq!(r.outcome.roll.dice, vec![5, 3, 2]);
        assert_eq!(r.outcome.mr_gained, 2);
        assert_eq!(r.gear.state.mr_left(), 18);
        assert!(matches!(
            r.gear.state.activation,
            Activation::Active { actions: 0, .. }
        ));
        assert_eq!(dice.remaining(), 0);
    }

    #[test]
    fn burn_rubber_trait_dice_and_rattled() {
        let mut g = active(Speed::Cruising);
        g.sheet.traits = vec![Trait::BoosterRockets, Trait::Overdrive];
        g.sheet.upgrades = vec![Upgrade::SpeedDemon];
        let pool = special_move_pool(&g, SpecialMove::BurnRubber, &MoveRequest::default()).unwrap();
        assert_eq!(pool.net().unwrap(), 2 + 2 + 1 + 1);
        g.state.rattled = true;
        let req = MoveRequest {
            equipment: true,
            ..MoveRequest::default()
        };
        let pool = special_move_pool(&g, SpecialMove::BurnRubber, &req).unwrap();
        assert_eq!(pool.net().unwrap(), 6 - 1 + 1);
        // Low Performance takes the rattled modifier once, not twice.
        g.sheet.traits = vec![Trait::LowPerformance];
        g.sheet.upgrades.clear();
        assert_eq!(
            special_move_pool(&g, SpecialMove::BurnRubber, &MoveRequest::default())
                .unwrap()
                .net()
                .unwrap(),
            1
        );
        g.state.rattled = false;
        assert_eq!(
            special_move_pool(&g, SpecialMove::Jump, &MoveRequest::default())
                .unwrap()
                .net()
                .unwrap(),
            1
        );
    }

    #[test]
    fn special_move_all_ones_spins_out_and_ends_activation() {
        let g = active(Speed::Cruising);
        // 1,1 → spin: turn die 3, skid die 4.
        let mut dice = FixedRoller::new([1, 1, 3, 4]);
        let r = burn_rubber(&g, &MoveRequest::default(), &mut dice).unwrap();
        let so = r.outcome.spin_out.unwrap();
        assert_eq!(so.causes, vec![SpinOutCause::SpecialMoveAllOnes]);
        assert_eq!((so.turns, so.skid), (3, 4));
        assert_eq!(so.direction_by, Chooser::LeftPlayer);
        assert_eq!(r.gear.state.activation, Activation::Done);
    }

    #[test]
    fn jump_dice_capped_by_mr_left_and_moves_successes_plus_one() {
        let mut g = jerboa(Speed::Top); // 2 + 1 top + 2 jets = 5 dice
        g = g.apply(&GearEvent::SpendMr { mr: 13 }).unwrap(); // 3 MR left
        let mut dice = FixedRoller::new([6, 5, 1]);
        let r = jump(&g, &MoveRequest::default(), &mut dice).unwrap();
        assert_eq!(r.outcome.dice_rolled, 3);
        assert_eq!(r.outcome.roll.successes, 2);
        assert_eq!(r.outcome.hexes_jumped, 2);
        assert_eq!(r.outcome.hexes_moved, 3);
        assert_eq!(r.gear.state.mr_left(), 0);
        let mut dice = FixedRoller::new([6, 5, 4]);
        let r = jump(&g, &MoveRequest::default(), &mut dice).unwrap();
        assert_eq!(r.outcome.hexes_moved, 3, "never beyond the MR left");
        assert_eq!(r.outcome.hexes_jumped, 2);
        let req = MoveRequest {
            max_dice: Some(1),
            ..MoveRequest::default()
        };
        let mut dice = FixedRoller::new([2]);
        let r = jump(&g, &req, &mut dice).unwrap();
        assert_eq!(r.outcome.dice_rolled, 1);
        assert_eq!(r.outcome.hexes_moved, 0);
        let tall = MoveRequest {
            over_tall_gear: true,
            ..MoveRequest::default()
        };
        assert!(matches!(
            jump(&g, &tall, &mut dice),
            Err(RuleError::JumpOverTall { .. })
        ));
        let back = MoveRequest {
            backwards: true,
            ..MoveRequest::default()
        };
        assert_eq!(jump(&g, &back, &mut dice), Err(RuleError::Backwards));
    }

    #[test]
    fn recovery_rolls_a_die_and_a_six_returns_the_action() {
        let g = active(Speed::Cruising)
            .apply(&GearEvent::Hit(Hit {
                damage: 2,
                ..Hit::default()
            }))
            .unwrap();
        let r = recover(&g, RecoveryOrder::StructureFirst, &mut FixedRoller::new([6])).unwrap();
        assert_eq!(r.outcome.healed, 6);
        assert!(r.outcome.action_regained);
        assert_eq!(r.gear.state.hull, 2, "never above the maximum");
        assert!(matches!(
            r.gear.state.activation,
            Activation::Active { actions: 1, .. }
        ));
        let r = recover(&g, RecoveryOrder::StructureFirst, &mut FixedRoller::new([1])).unwrap();
        assert!(!r.outcome.action_regained);
        assert_eq!(r.gear.state.hull, 1);
        assert!(!r.gear.state.rattled);
        let top = active(Speed::Top);
        assert_eq!(
            recover(&top, RecoveryOrder::StructureFirst, &mut FixedRoller::new([3])),
            Err(RuleError::RecoveryTopSpeed)
        );
    }

    #[test]
    fn recovery_is_fixed_one_after_a_reaction_attack() {
        let g = Gear::new(sheet("G"))
            .unwrap()
            .apply(&GearEvent::ReactionAttack)
            .unwrap()
            .apply(&GearEvent::Hit(Hit {
                damage: 3,
                ..Hit::default()
            }))
            .unwrap()
            .apply(&GearEvent::SpinOutResolved {
                recovered: false,
                skid: 2,
            })
            .unwrap()
            .apply(&GearEvent::Activate {
                speed: Speed::Cruising,
            })
            .unwrap();
        let mut dice = FixedRoller::new([5]);
        let r = recover(&g, RecoveryOrder::HullFirst, &mut dice).unwrap();
        assert_eq!(r.outcome.die, None);
        assert_eq!(r.outcome.healed, 1);
        assert_eq!(dice.remaining(), 1, "no die rolled");
        assert_eq!((r.gear.state.hull, r.gear.state.structure), (1, 0));
    }

    #[test]
    fn rally_the_crowd_adds_a_token_for_an_action() {
        let g = active(Speed::Cruising);
        let r = rally_the_crowd(&g).unwrap();
        assert_eq!(r.gear.state.rally_tokens, 1);
        assert!(matches!(
            rally_the_crowd(&r.gear),
            Err(RuleError::NoActionLeft { .. })
        ));
    }

    #[test]
    fn move_costs_follow_speed_terrain_and_traits() {
        let plan = MovePlan {
            start: Terrain::Hardpack,
            steps: vec![
                Step {
                    turns: 1,
                    enter: Terrain::Rough,
                    backwards: false,
                },
                Step {
                    turns: 0,
                    enter: Terrain::Normal,
                    backwards: false,
                },
            ],
            final_turns: 0,
        };
        let cruise = active(Speed::Cruising);
        assert_eq!(move_cost(&cruise, &plan).unwrap().mr, 2);
        let top = active(Speed::Top);
        assert_eq!(move_cost(&top, &plan).unwrap().mr, 1 + 2 + 1);
        let mut urban = top.clone();
        urban.sheet.traits = vec![Trait::UrbanModification];
        assert_eq!(move_cost(&urban, &plan).unwrap().mr, 3);
        let mut racer = top.clone();
        racer.sheet.traits = vec![Trait::RoughRacer];
        assert_eq!(move_cost(&racer, &plan).unwrap().mr, 3);
        let mut off = top.clone();
        off.sheet.traits = vec![Trait::OffRoadSpecialist];
        let off = off_road(&off, &mut FixedRoller::new([6, 1])).unwrap().gear;
        assert_eq!(off.state.rough_ignorable, 1);
        let moved = travel(&off, &plan).unwrap();
        assert_eq!(
            moved.outcome,
            MoveCost {
                mr: 3,
                rough_ignored: 1
            }
        );
        assert_eq!(moved.gear.state.rough_ignorable, 0);
        assert_eq!(moved.gear.state.mr_left(), 9);
        assert!(matches!(
            off_road(&off, &mut FixedRoller::new([6, 6])),
            Err(RuleError::AlreadyUsed { .. })
        ));
        let water = MovePlan {
            start: Terrain::Normal,
            steps: vec![Step {
                turns: 0,
                enter: Terrain::Water,
                backwards: false,
            }],
            final_turns: 0,
        };
        assert!(matches!(
            move_cost(&top, &water),
            Err(RuleError::Impassable { .. })
        ));
        let mut hover = top.clone();
        hover.sheet.traits = vec![Trait::Hover];
        assert_eq!(move_cost(&hover, &water).unwrap().mr, 1);
        let back = MovePlan {
            start: Terrain::Normal,
            steps: vec![Step {
                turns: 0,
                enter: Terrain::Normal,
                backwards: true,
            }],
            final_turns: 0,
        };
        assert_eq!(move_cost(&top, &back), Err(RuleError::Backwards));
        assert_eq!(move_cost(&cruise, &back).unwrap().mr, 1);
        let far = MovePlan {
            start: Terrain::Normal,
            steps: vec![
                Step {
                    turns: 0,
                    enter: Terrain::Normal,
                    backwards: false
                };
                13
            ],
            final_turns: 0,
        };
        assert!(matches!(
            travel(&cruise, &far),
            Err(RuleError::NotEnoughMr { .. })
        ));
    }
}
