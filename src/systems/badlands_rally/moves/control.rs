//! A gear out of control: a spin-out's turn and skid (seed スピニングアウト, スキッド; The Move)
//! and collisions with terrain and gears (by the difference of AR). Each function takes a gear,
//! rolls, and returns the outcome with the gear after it; the input is never changed.

use super::*;
use crate::systems::badlands_rally::damage;

/// Who turns a spinning gear (seed スピニングアウト: the attacker, else the player to the left;
/// The Move lets the owner choose).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Chooser {
    Owner,
    Attacker,
    LeftPlayer,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpinOutOutcome {
    pub causes: Vec<SpinOutCause>,
    /// 1D6, or 2D6 with The Move.
    pub turn_dice: Vec<u32>,
    /// Hexsides turned (the die kept).
    pub turns: u32,
    pub direction_by: Chooser,
    /// A 6: no skid, the activation goes on, a Rally token.
    pub recovered: bool,
    pub skid_die: Option<u32>,
    pub excess: u32,
    /// Hexes skidded straight ahead: 1D6 + excess damage.
    pub skid: u32,
}

/// Roll a pending spin-out (seed スピニングアウト, スキッド; アップグレード 出目1 The Move).
pub fn spin_out(gear: &Gear, roller: &mut impl Roller) -> Result<Resolved<SpinOutOutcome>, RuleError> {
    let pending = gear
        .state
        .pending_spin_out
        .clone()
        .ok_or(RuleError::NoSpinOutPending {
            name: gear.sheet.name.clone(),
        })?;
    let the_move = gear.sheet.has_upgrade(Upgrade::TheMove);
    let turn_dice = roller.roll_many(if the_move { 2 } else { 1 }, 6)?;
    let turns = turn_dice.iter().copied().max().unwrap_or(1);
    let recovered = turn_dice.contains(&6);
    let (skid_die, skid) = if recovered {
        (None, 0)
    } else {
        let d = roller.roll(6)?;
        (Some(d), add(d, pending.excess_skid)?)
    };
    let direction_by = if the_move {
        Chooser::Owner
    } else if pending.from_attack {
        Chooser::Attacker
    } else {
        Chooser::LeftPlayer
    };
    let mut changes = Vec::new();
    let g = step(
        gear.clone(),
        &GearEvent::SpinOutResolved { recovered, skid },
        &mut changes,
    )?;
    Ok(Resolved {
        outcome: SpinOutOutcome {
            causes: pending.causes,
            turn_dice,
            turns,
            direction_by,
            recovered,
            skid_die,
            excess: pending.excess_skid,
            skid,
        },
        gear: g,
        changes,
    })
}

/// What forced the gear into the obstacle (seed 衝突ダメージの基本値).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CollisionCause {
    /// The push's MOS.
    Push { mos: u32 },
    /// The dice rolled for the jump.
    Jump { dice: u32 },
    /// The skid distance.
    Skid { distance: u32 },
}

impl CollisionCause {
    pub fn base_dice(self) -> u32 {
        match self {
            CollisionCause::Push { mos } => mos,
            CollisionCause::Jump { dice } => dice,
            CollisionCause::Skid { distance } => distance,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollisionRoll {
    pub dice_count: i64,
    pub dice: Vec<u32>,
    pub damage: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollisionOutcome {
    pub cause: CollisionCause,
    /// The gear that was forced to move.
    pub moving: CollisionRoll,
    /// The gear it ran into; none for terrain.
    pub struck: Option<CollisionRoll>,
}

fn collision_roll(dice_count: i64, roller: &mut impl Roller) -> Result<CollisionRoll, RuleError> {
    if dice_count > i64::from(roll::MAX_POOL) {
        return Err(RuleError::PoolTooLarge {
            dice: dice_count,
            max: roll::MAX_POOL,
        });
    }
    let dice = roller.roll_many(dice_count.max(0) as usize, 6)?;
    Ok(CollisionRoll {
        dice_count,
        damage: damage::score_damage(&dice, false),
        dice,
    })
}

/// Collision damage: terrain is always 2D6; gear against gear rolls the cause's dice for each,
/// ± the AR difference (the lower AR takes more). Dice order: moving gear, then struck gear.
pub fn collide(
    moving: &Gear,
    struck: Option<&Gear>,
    cause: CollisionCause,
    roller: &mut impl Roller,
) -> Result<CollisionOutcome, RuleError> {
    let base = i64::from(cause.base_dice());
    match struck {
        None => Ok(CollisionOutcome {
            cause,
            moving: collision_roll(2, roller)?,
            struck: None,
        }),
        Some(other) => {
            let (a, b) = (i64::from(moving.sheet.ar), i64::from(other.sheet.ar));
            let m = collision_roll(base + (b - a), roller)?;
            let s = collision_roll(base + (a - b), roller)?;
            Ok(CollisionOutcome {
                cause,
                moving: m,
                struck: Some(s),
            })
        }
    }
}

/// The hit a collision roll deals: spins the gear out if it does damage (seed スピンアウト C, D).
pub fn collision_hit(roll: &CollisionRoll) -> Hit {
    Hit {
        damage: roll.damage,
        collision: true,
        ..Hit::default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::active;
    use super::*;
    use crate::dice::FixedRoller;
    use crate::systems::badlands_rally::gear::Speed;
    use crate::systems::badlands_rally::gear_sheet::tests::sheet;

    #[test]
    fn spin_out_six_recovers_and_the_move_keeps_the_higher() {
        let mut g = active(Speed::Cruising);
        g.state.pending_spin_out = Some(crate::systems::badlands_rally::state::PendingSpinOut {
            causes: vec![SpinOutCause::Impact],
            excess_skid: 2,
            from_attack: true,
        });
        let r = spin_out(&g, &mut FixedRoller::new([6])).unwrap();
        assert!(r.outcome.recovered && r.outcome.skid == 0);
        assert_eq!(r.gear.state.rally_tokens, 1);
        assert!(r.gear.state.is_active());
        let r = spin_out(&g, &mut FixedRoller::new([2, 3])).unwrap();
        assert_eq!(r.outcome.skid, 5, "1D6 skid + 2 excess");
        assert_eq!(r.outcome.direction_by, Chooser::Attacker);
        g.sheet.upgrades.push(Upgrade::TheMove);
        let r = spin_out(&g, &mut FixedRoller::new([2, 4, 3])).unwrap();
        assert_eq!(r.outcome.turn_dice, vec![2, 4]);
        assert_eq!(r.outcome.turns, 4);
        assert_eq!(r.outcome.direction_by, Chooser::Owner);
        assert_eq!(r.outcome.skid, 5);
        let r = spin_out(&g, &mut FixedRoller::new([1, 6])).unwrap();
        assert!(r.outcome.recovered);
    }

    #[test]
    fn collisions_terrain_two_dice_gears_by_ar_difference() {
        let mut a = Gear::new(sheet("A")).unwrap();
        let mut b = Gear::new(sheet("B")).unwrap();
        a.sheet.ar = 4;
        b.sheet.ar = 5;
        let out = collide(
            &a,
            None,
            CollisionCause::Skid { distance: 5 },
            &mut FixedRoller::new([4, 5]),
        )
        .unwrap();
        assert_eq!(out.moving.dice_count, 2);
        assert_eq!(out.moving.damage, 2);
        // Push MOS 2: AR 4 takes 2 + 1, AR 5 takes 2 − 1.
        let mut dice = FixedRoller::new([4, 1, 6, 5]);
        let out = collide(&a, Some(&b), CollisionCause::Push { mos: 2 }, &mut dice).unwrap();
        assert_eq!(out.moving.dice, vec![4, 1, 6]);
        assert_eq!(out.struck.as_ref().unwrap().dice, vec![5]);
        assert_eq!(CollisionCause::Jump { dice: 3 }.base_dice(), 3);
        let hit = collision_hit(&out.moving);
        let (after, ch) = b.step(&GearEvent::Hit(hit)).unwrap();
        assert!(after.state.pending_spin_out.is_some());
        assert!(ch.contains(&Change::SpinOutDue {
            cause: SpinOutCause::Collision
        }));
    }
}
