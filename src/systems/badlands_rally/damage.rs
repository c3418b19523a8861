//! Damage rolls: MOS + (POW − AR) dice (Melee: MOS + POW), 4+ per hit, Heat 6s double, Blast,
//! Area Effect halves (seed ◆ダメージ, ◆武器ボーナス).

use serde::{Deserialize, Serialize};

use super::error::RuleError;
use super::roll::MAX_POOL;
use crate::dice::Roller;

/// A damage die hits on 4+ (seed ダメージロール).
pub const DAMAGE_TARGET: u32 = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageRequest {
    /// The attack's Margin of Success (0+).
    pub mos: u32,
    pub pow: u32,
    pub ar: u32,
    /// Melee: POW dice added straight to the MOS, no armour comparison.
    pub melee: bool,
    /// Heat: a 6 is two hits.
    pub heat: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamageOutcome {
    pub mos: u32,
    /// POW − AR, or +POW for melee.
    pub modifier: i64,
    /// MOS + modifier; 0 or fewer means no roll and no damage.
    pub dice_count: i64,
    pub dice: Vec<u32>,
    pub heat: bool,
    pub damage: u32,
}

/// Hits scored by damage dice: one per 4+, two per 6 with Heat.
pub fn score_damage(dice: &[u32], heat: bool) -> u32 {
    dice.iter()
        .map(|&d| match d {
            6 if heat => 2,
            d if d >= DAMAGE_TARGET => 1,
            _ => 0,
        })
        .sum()
}

/// The number of damage dice (seed ダメージ判定の要約).
pub fn damage_dice(req: &DamageRequest) -> (i64, i64) {
    let modifier = if req.melee {
        i64::from(req.pow)
    } else {
        i64::from(req.pow) - i64::from(req.ar)
    };
    (modifier, i64::from(req.mos) + modifier)
}

pub fn resolve_damage(req: &DamageRequest, roller: &mut impl Roller) -> Result<DamageOutcome, RuleError> {
    let (modifier, dice_count) = damage_dice(req);
    if dice_count > i64::from(MAX_POOL) {
        return Err(RuleError::PoolTooLarge {
            dice: dice_count,
            max: MAX_POOL,
        });
    }
    let n = dice_count.max(0) as usize;
    let dice = roller.roll_many(n, 6)?;
    Ok(DamageOutcome {
        mos: req.mos,
        modifier,
        dice_count,
        damage: score_damage(&dice, req.heat),
        dice,
        heat: req.heat,
    })
}

/// Blast on a miss: one die, 4+ is one hit (decision note, Damage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlastOutcome {
    pub die: u32,
    pub damage: u32,
}

pub fn roll_blast(roller: &mut impl Roller) -> Result<BlastOutcome, RuleError> {
    let die = roller.roll(6)?;
    Ok(BlastOutcome {
        die,
        damage: u32::from(die >= DAMAGE_TARGET),
    })
}

/// Area Effect: adjacent gears take half the damage, rounded down — blast damage is not halved
/// (seed エリア エフェクト: 半分(端数切捨て。ブラスト ダメージを除く)).
pub fn area_damage(hit_damage: u32, blast_damage: u32) -> u32 {
    hit_damage / 2 + blast_damage
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FixedRoller;

    fn req(mos: u32, pow: u32, ar: u32) -> DamageRequest {
        DamageRequest {
            mos,
            pow,
            ar,
            melee: false,
            heat: false,
        }
    }

    #[test]
    fn pow_above_ar_adds_dice() {
        let mut dice = FixedRoller::new([4, 3, 6, 1]);
        let out = resolve_damage(&req(2, 7, 5), &mut dice).unwrap();
        assert_eq!(out.dice_count, 4);
        assert_eq!(out.dice, vec![4, 3, 6, 1]);
        assert_eq!(out.damage, 2);
    }

    #[test]
    fn pow_below_ar_removes_dice_and_zero_means_no_damage() {
        let mut dice = FixedRoller::new([6, 6]);
        let out = resolve_damage(&req(2, 4, 5), &mut dice).unwrap();
        assert_eq!(out.modifier, -1);
        assert_eq!(out.dice, vec![6]);
        assert_eq!(out.damage, 1);
        let out = resolve_damage(&req(1, 3, 6), &mut dice).unwrap();
        assert_eq!(out.dice_count, -2);
        assert!(out.dice.is_empty());
        assert_eq!(out.damage, 0);
        assert_eq!(dice.remaining(), 1);
    }

    #[test]
    fn melee_adds_pow_dice_without_armour() {
        let mut dice = FixedRoller::new([4, 4, 4, 4, 4, 4, 4, 4, 4]);
        let mut r = req(1, 7, 9);
        r.melee = true;
        let out = resolve_damage(&r, &mut dice).unwrap();
        assert_eq!(out.dice_count, 8);
        assert_eq!(out.damage, 8);
    }

    #[test]
    fn heat_sixes_count_double() {
        assert_eq!(score_damage(&[6, 5, 3], true), 3);
        assert_eq!(score_damage(&[6, 5, 3], false), 2);
    }

    #[test]
    fn blast_and_area() {
        assert_eq!(
            roll_blast(&mut FixedRoller::new([4])).unwrap(),
            BlastOutcome { die: 4, damage: 1 }
        );
        assert_eq!(roll_blast(&mut FixedRoller::new([3])).unwrap().damage, 0);
        assert_eq!(area_damage(5, 0), 2);
        assert_eq!(area_damage(0, 1), 1);
    }

    #[test]
    fn huge_damage_pools_are_errors() {
        let r = req(50, 99, 0);
        assert!(matches!(
            resolve_damage(&r, &mut FixedRoller::new([])),
            Err(RuleError::PoolTooLarge { .. })
        ));
    }
}
